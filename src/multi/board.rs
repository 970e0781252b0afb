//! A level prepared for the multi-box search: compact cells, goals, dead
//! squares, push distances and Zobrist keys, all computed once per level.
//!
//! The search touches only the cells the player can ever reach, so those get
//! dense `u16` numbers: box sets are short sorted arrays, and per-cell tables
//! are small enough to stay in cache.

use crate::grid::Direction;
use crate::level::Level;
use crate::rng::Rng;

/// Marks "no cell" in compact tables (a wall or outside the level).
pub const NONE: u16 = u16::MAX;
/// An unreachable push distance.
pub const FAR: u16 = u16::MAX;

/// Why a level cannot be searched, decided before any search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsearchable {
    /// A box or goal the player can never reach makes the level unsolvable.
    Unsolvable,
    /// More floor than the compact cell numbers can hold.
    TooLarge(usize),
}

/// The prepared level.
#[derive(Clone, Debug)]
pub struct Board {
    /// Compact cell to grid cell.
    pub cells: Vec<usize>,
    /// Compact neighbours in [`Direction::ALL`] order (`NONE` for wall or outside).
    pub next: Vec<[u16; 4]>,
    pub is_goal: Vec<bool>,
    /// Goal cells (compact), sorted.
    pub goals: Vec<u16>,
    /// Cells from which a box can never reach any goal (pushes ignoring other boxes).
    pub dead: Vec<bool>,
    /// `goal_tunnel[c][d]`: a box pushed into `c` moving in direction `d` has
    /// entered a dead-end tunnel of goals, one cell wide (see [`Board::new`]).
    pub goal_tunnel: Vec<[bool; 4]>,
    pub zobrist_box: Vec<u64>,
    pub zobrist_player: Vec<u64>,
    /// Starting boxes (compact, sorted) and player (compact).
    pub start_boxes: Vec<u16>,
    pub start_player: u16,
}

impl Board {
    pub fn new(level: &Level) -> Result<Board, Unsearchable> {
        let grid = &level.grid;
        let (cells, index) = player_area(level)?;
        let n = cells.len();
        let next: Vec<[u16; 4]> = cells
            .iter()
            .map(|&c| grid.neighbours(c).map(|x| index[x]))
            .collect();
        // Compact numbers of the pieces inside the area, sorted.
        let compact = |cells: &[usize]| -> Vec<u16> {
            let mut out: Vec<u16> = cells
                .iter()
                .filter(|&&c| index[c] != NONE)
                .map(|&c| index[c])
                .collect();
            out.sort_unstable();
            out
        };
        let mut is_goal = vec![false; n];
        let goals = compact(&level.goals);
        for &g in &goals {
            is_goal[g as usize] = true;
        }
        let distance: Vec<Vec<u16>> = goals
            .iter()
            .map(|&g| pull_distances(&next, g, &[]))
            .collect();
        let dead: Vec<bool> = (0..n)
            .map(|c| distance.iter().all(|d| d[c] == FAR))
            .collect();
        let start_boxes = compact(&level.boxes);
        let mut rng = Rng::new(0x5EED_50C0_BA11_0000 ^ n as u64);
        let mut random = || rng.next_u64();
        let goal_tunnel = (0..n as u16)
            .map(|c| Direction::ALL.map(|d| goal_tunnel(&next, &is_goal, c, d)))
            .collect();
        let zobrist_box = (0..n).map(|_| random()).collect();
        let zobrist_player = (0..n).map(|_| random()).collect();
        Ok(Board {
            cells,
            next,
            is_goal,
            goals,
            dead,
            goal_tunnel,
            zobrist_box,
            zobrist_player,
            start_boxes,
            start_player: 0,
        })
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// The compact number of a grid cell inside the player's area.
    #[cfg(test)]
    pub fn compact(&self, grid_cell: usize) -> u16 {
        self.cells
            .iter()
            .position(|&c| c == grid_cell)
            .expect("a cell inside") as u16
    }

    /// The Zobrist hash of a position: its boxes and its normalized player.
    pub fn hash_of(&self, boxes: &[u16], player: u16) -> u64 {
        boxes
            .iter()
            .fold(self.zobrist_player[player as usize], |acc, &b| {
                acc ^ self.zobrist_box[b as usize]
            })
    }

    /// The compact neighbour of `c` in `dir`.
    #[inline]
    pub fn step(&self, c: u16, dir: Direction) -> u16 {
        self.next[c as usize][dir.index()]
    }

    /// Floods the player's area from `from` (cells `occupied` by boxes
    /// block), marking each cell reached with `stamp` in `marks`; `queue` is
    /// scratch. Returns the smallest cell reached: the normalized player.
    pub fn flood_player(
        &self,
        occupied: &[bool],
        marks: &mut [u32],
        stamp: u32,
        queue: &mut Vec<u16>,
        from: u16,
    ) -> u16 {
        self.flood_marking(occupied, queue, from, |c| {
            let new = marks[c as usize] != stamp;
            if new {
                marks[c as usize] = stamp;
            }
            new
        })
    }

    /// [`Board::flood_player`] with the marks kept by `mark`, which marks a
    /// cell and says whether it was unmarked. The cells reached are left in
    /// `queue`.
    pub fn flood_marking(
        &self,
        occupied: &[bool],
        queue: &mut Vec<u16>,
        from: u16,
        mut mark: impl FnMut(u16) -> bool,
    ) -> u16 {
        queue.clear();
        queue.push(from);
        mark(from);
        let mut least = from;
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            least = least.min(c);
            for &n in &self.next[c as usize] {
                if n != NONE && !occupied[n as usize] && mark(n) {
                    queue.push(n);
                }
            }
        }
        least
    }

    /// True when both cells beside `c` across `dir` are walls: a box there
    /// moving along `dir` is in a one-wide corridor.
    pub fn is_corridor(&self, c: u16, dir: Direction) -> bool {
        let across = match dir {
            Direction::North | Direction::South => [Direction::East, Direction::West],
            Direction::East | Direction::West => [Direction::North, Direction::South],
        };
        across.iter().all(|&d| self.step(c, d) == NONE)
    }

    /// The cell the box on `b` enters when pushed in `dir`, when that push
    /// can be made now: the player reaches the cell behind it (`reached`),
    /// and the cell ahead is free and not a dead square.
    pub fn push_into(
        &self,
        b: u16,
        dir: Direction,
        occupied: &[bool],
        reached: impl Fn(u16) -> bool,
    ) -> Option<u16> {
        let behind = self.step(b, dir.opposite());
        let ahead = self.step(b, dir);
        let legal = behind != NONE
            && ahead != NONE
            && reached(behind)
            && !occupied[ahead as usize]
            && !self.dead[ahead as usize];
        legal.then_some(ahead)
    }
}

/// The cells of the player's area, boxes counted as floor, and the grid's
/// map to them (`NONE` outside). A box outside on a goal is a wall there; a
/// lone box or goal outside makes the level unsolvable.
fn player_area(level: &Level) -> Result<(Vec<usize>, Vec<u16>), Unsearchable> {
    let grid = &level.grid;
    let mut index = vec![NONE; grid.len()];
    let mut cells = vec![level.player];
    index[level.player] = 0;
    let mut head = 0;
    while head < cells.len() {
        let c = cells[head];
        head += 1;
        for n in grid.neighbours(c) {
            if grid.is_floor(n) && index[n] == NONE {
                if cells.len() >= NONE as usize - 1 {
                    return Err(Unsearchable::TooLarge(grid.floor_count()));
                }
                index[n] = cells.len() as u16;
                cells.push(n);
            }
        }
    }
    let outside = |pieces: &[usize]| -> Vec<usize> {
        pieces
            .iter()
            .copied()
            .filter(|&p| index[p] == NONE)
            .collect()
    };
    let (boxes_out, goals_out) = (outside(&level.boxes), outside(&level.goals));
    let paired = boxes_out.iter().all(|b| goals_out.contains(b))
        && goals_out.iter().all(|g| boxes_out.contains(g));
    if !paired {
        return Err(Unsearchable::Unsolvable);
    }
    Ok((cells, index))
}

/// True when every cell from `c` onwards in direction `d` is a goal with
/// walls on both sides, up to a wall: a box pushed in can only go deeper, so
/// it may as well go as deep as it can at once (the goal macro).
fn goal_tunnel(next: &[[u16; 4]], is_goal: &[bool], c: u16, d: Direction) -> bool {
    let sides = match d {
        Direction::North | Direction::South => [Direction::East, Direction::West],
        Direction::East | Direction::West => [Direction::North, Direction::South],
    };
    let mut at = c;
    loop {
        let cell = at as usize;
        if !is_goal[cell] || sides.iter().any(|s| next[cell][s.index()] != NONE) {
            return false;
        }
        match next[cell][d.index()] {
            NONE => return true,
            ahead => at = ahead,
        }
    }
}

/// Fewest pushes from each cell to `goal` for a lone box: a breadth-first
/// search of pulls from the goal (a pull from `c` to `c - d` needs the player
/// at `c - d` and room at `c - 2d`).
/// Cells in `walls` count as walls (boxes frozen for good).
pub fn pull_distances(next: &[[u16; 4]], goal: u16, walls: &[u16]) -> Vec<u16> {
    let mut dist = vec![FAR; next.len()];
    let open = |c: u16| c != NONE && !walls.contains(&c);
    dist[goal as usize] = 0;
    let mut queue = vec![goal];
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        for dir in Direction::ALL {
            let to = next[c as usize][dir.index()];
            if !open(to) {
                continue;
            }
            let player = next[to as usize][dir.index()];
            if open(player) && dist[to as usize] == FAR {
                dist[to as usize] = dist[c as usize] + 1;
                queue.push(to);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn dead_squares_and_distances() {
        let level = &parse_xsb(b"######\n#@   #\n# $ .#\n#    #\n######", 100).unwrap()[0];
        let b = Board::new(level).unwrap();
        let at = |r, c| b.compact(level.grid.cell(r, c));
        // Corners are dead; the goal is at distance 0; the box two pushes away.
        assert!(b.dead[at(1, 1) as usize]);
        assert!(b.dead[at(3, 4) as usize]);
        assert!(!b.dead[at(2, 2) as usize]);
        assert_eq!(
            pull_distances(&b.next, b.goals[0], &[])[at(2, 4) as usize],
            0
        );
        assert_eq!(
            pull_distances(&b.next, b.goals[0], &[])[at(2, 2) as usize],
            2
        );
        assert_eq!(b.start_boxes, vec![at(2, 2)]);
    }

    #[test]
    fn corridors_have_walls_on_both_sides() {
        let level = &parse_xsb(b"#######\n#@$  .#\n## ####\n#######", 100).unwrap()[0];
        let b = Board::new(level).unwrap();
        let at = |r, c| b.compact(level.grid.cell(r, c));
        assert!(b.is_corridor(at(1, 3), Direction::East));
        assert!(!b.is_corridor(at(1, 2), Direction::East)); // open below
        assert!(!b.is_corridor(at(1, 3), Direction::North));
    }

    #[test]
    fn boxes_outside_the_area() {
        let on_goal = &parse_xsb(b"#######\n#@$.#*#\n#######", 100).unwrap()[0];
        assert!(Board::new(on_goal).is_ok());
        let off_goal = &parse_xsb(b"########\n#@$..#$#\n########", 100).unwrap()[0];
        assert_eq!(Board::new(off_goal).unwrap_err(), Unsearchable::Unsolvable);
    }
}
