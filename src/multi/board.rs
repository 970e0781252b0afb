//! A level prepared for the multi-box search: compact cells, goals, dead
//! squares, push distances and Zobrist keys, all computed once per level.
//!
//! The board numbers the cells the player can ever reach ([`Cell`]) and
//! keeps its per-cell tables by those numbers; a cell that may not exist
//! (the neighbour beyond a wall) is an `Option<Cell>`.
//!
//! Every walk over the board's cells (the player's area, push distances,
//! the areas corrals are made of, the walks between pushes) is the one
//! breadth-first search, [`Board::breadth_first`], told by its caller which
//! cells to enter and what to note of them; but the floods that only ask
//! which cells the player reaches go a row at a time where the board has
//! rows ([`Board::rows`], see [`super::rows`]).

pub use super::cell::{Cell, MAX_CELLS};
use super::rows::FloorRows;
use crate::grid::Direction;
use crate::level::Level;
use crate::moves::Move;
use crate::rng::Rng;

/// The neighbour table's mark for a wall (or the outside) beside a cell:
/// a plain cell number keeps the table at eight bytes a cell, where
/// `Option<Cell>` would take sixteen. [`Board::step`] turns it into `None`.
const WALL: Cell = Cell::from_bits(u16::MAX);

/// Pushes a box needs to reach a goal.
pub type Distance = u16;
/// The distance of a cell from which a box can never reach the goal.
pub const UNREACHABLE: Distance = Distance::MAX;

/// Why a level cannot be searched, decided before any search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsearchable {
    /// A box or goal the player can never reach makes the level unsolvable.
    Unsolvable,
    /// More floor than the compact cell numbers can hold.
    TooLarge(usize),
}

/// The prepared level. Per-cell tables are indexed by [`Cell`].
#[derive(Clone, Debug)]
pub struct Board {
    /// Compact cell to grid cell.
    pub cells: Vec<usize>,
    /// Neighbours in [`Direction::ALL`] order ([`WALL`] for a wall or the outside).
    next: Vec<[Cell; 4]>,
    pub is_goal: Vec<bool>,
    /// Goal cells, sorted.
    pub goals: Vec<Cell>,
    /// Cells from which a box can never reach any goal (pushes ignoring other boxes).
    pub dead: Vec<bool>,
    /// `goal_tunnel[c][d]`: a box pushed into `c` moving in direction `d` has
    /// entered a dead-end tunnel of goals, one cell wide (see [`Board::new`]).
    pub goal_tunnel: Vec<[bool; 4]>,
    pub zobrist_box: Vec<u64>,
    pub zobrist_player: Vec<u64>,
    /// Starting boxes (sorted) and player.
    pub start_boxes: Vec<Cell>,
    pub start_player: Cell,
    /// The grid's row length: a grid cell's row and column are its
    /// quotient and remainder by it.
    pub stride: usize,
    /// The floor a grid row at a time, for floods by rows (`None` on
    /// grids wider than 64 cells).
    pub rows: Option<FloorRows>,
}

impl Board {
    pub fn new(level: &Level) -> Result<Board, Unsearchable> {
        let grid = &level.grid;
        let (cells, index) = player_area(level)?;
        let n = cells.len();
        let next = cells
            .iter()
            .map(|&c| grid.neighbours(c).map(|x| index[x].unwrap_or(WALL)))
            .collect();
        // The pieces inside the area, sorted.
        let compact = |pieces: &[usize]| -> Vec<Cell> {
            let mut out: Vec<Cell> = pieces.iter().filter_map(|&c| index[c]).collect();
            out.sort_unstable();
            out
        };
        let start_boxes = compact(&level.boxes);
        let mut board = Board {
            cells,
            next,
            is_goal: Vec::new(),
            goals: Vec::new(),
            dead: Vec::new(),
            goal_tunnel: Vec::new(),
            zobrist_box: Vec::new(),
            zobrist_player: Vec::new(),
            start_boxes,
            start_player: Cell::new(0),
            stride: grid.stride(),
            rows: None,
        };
        board.rows = FloorRows::new(&board.cells, board.stride);
        board.set_goals(compact(&level.goals));
        let mut rng = Rng::new(0x5EED_50C0_BA11_0000 ^ n as u64);
        let mut random = || rng.next_u64();
        board.zobrist_box = (0..n).map(|_| random()).collect();
        board.zobrist_player = (0..n).map(|_| random()).collect();
        Ok(board)
    }

    /// The same board with the goals on `goals` (sorted) instead: the same
    /// cells, so positions read the same on both.
    pub fn with_goals(&self, goals: &[Cell]) -> Board {
        let mut board = self.clone();
        board.set_goals(goals.to_vec());
        board
    }

    /// Puts the goals on `goals` (sorted), and works out what depends on
    /// them: the dead squares and the goal tunnels.
    fn set_goals(&mut self, goals: Vec<Cell>) {
        let board = self;
        board.is_goal = vec![false; board.len()];
        board.goals = goals;
        for &g in &board.goals {
            board.is_goal[g] = true;
        }
        let distance = board.pulls_to_each_goal();
        board.dead = board
            .cells()
            .map(|c| distance.iter().all(|d| d[c] == UNREACHABLE))
            .collect();
        board.goal_tunnel = board
            .cells()
            .map(|c| Direction::ALL.map(|d| board.is_goal_tunnel(c, d)))
            .collect();
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// A shortest walk from `from` to `to` around the boxes on `occupied`,
    /// a direction a step (at each the first in n, s, e, w order that stays
    /// shortest); `None` where the player cannot get there.
    pub fn walk(&self, occupied: &[bool], from: Cell, to: Cell) -> Option<Vec<Direction>> {
        let mut dist = vec![u32::MAX; self.len()];
        dist[to] = 0;
        self.breadth_first(&mut Vec::new(), to, |at, _, x| {
            let new = !occupied[x] && dist[x] == u32::MAX;
            if new {
                dist[x] = dist[at] + 1;
            }
            new
        });
        let mut path = Vec::new();
        let mut at = from;
        while at != to {
            let d = dist[at];
            let (dir, x) = Direction::ALL.into_iter().find_map(|dir| {
                let x = self.step(at, dir)?;
                (d != u32::MAX && dist[x] == d - 1).then_some((dir, x))
            })?;
            path.push(dir);
            at = x;
        }
        Some(path)
    }

    /// The moves that make the single pushes `pushes` (each a box's cell
    /// and the direction) from the player on `player` and the boxes on
    /// `occupied`, each push after the shortest walk to it, the boxes moved
    /// along; `None` where a push is not possible there.
    pub fn spelled_out(
        &self,
        occupied: &mut [bool],
        mut player: Cell,
        pushes: &[(Cell, Direction)],
    ) -> Option<Vec<Move>> {
        let mut moves = Vec::new();
        for &(at, dir) in pushes {
            let stand = self.step(at, dir.opposite())?;
            let ahead = self.step(at, dir)?;
            if !occupied[at] || occupied[ahead] {
                return None;
            }
            moves.extend(
                self.walk(occupied, player, stand)?
                    .into_iter()
                    .map(Move::walk),
            );
            moves.push(Move::push(dir));
            occupied[at] = false;
            occupied[ahead] = true;
            player = at;
        }
        Some(moves)
    }

    /// Steps between two cells along rows and columns, walls ignored.
    pub fn manhattan(&self, a: Cell, b: Cell) -> usize {
        let (a, b) = (self.cells[a.index()], self.cells[b.index()]);
        let (ra, ca) = (a / self.stride, a % self.stride);
        let (rb, cb) = (b / self.stride, b % self.stride);
        ra.abs_diff(rb) + ca.abs_diff(cb)
    }

    /// Every cell, in order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        (0..self.len()).map(Cell::new)
    }

    /// The compact cell of a grid cell inside the player's area.
    #[cfg(test)]
    pub fn compact(&self, grid_cell: usize) -> Cell {
        Cell::new(
            self.cells
                .iter()
                .position(|&c| c == grid_cell)
                .expect("a cell inside"),
        )
    }

    /// The Zobrist hash of a position: its boxes and its normalized player.
    pub fn hash_of(&self, boxes: &[Cell], player: Cell) -> u64 {
        boxes.iter().fold(self.zobrist_player[player], |acc, &b| {
            acc ^ self.zobrist_box[b]
        })
    }

    /// The neighbour of `c` in `dir`, unless a wall is there.
    #[inline]
    pub fn step(&self, c: Cell, dir: Direction) -> Option<Cell> {
        let n = self.next[c][dir.index()];
        (n != WALL).then_some(n)
    }

    /// The neighbours of `c` that are not walls, in [`Direction::ALL`] order.
    #[inline]
    pub fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> + use<> {
        self.next[c].into_iter().filter(|&n| n != WALL)
    }

    /// Floods the player's area from `from` (cells `occupied` by boxes
    /// block), marking each cell reached with `stamp` in `marks`; `queue` is
    /// scratch. Returns the smallest cell reached: the normalized player.
    pub fn flood_player(
        &self,
        occupied: &[bool],
        marks: &mut [u32],
        stamp: u32,
        queue: &mut Vec<Cell>,
        from: Cell,
    ) -> Cell {
        self.flood_marking(occupied, queue, from, |c| {
            let new = marks[c] != stamp;
            if new {
                marks[c] = stamp;
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
        queue: &mut Vec<Cell>,
        from: Cell,
        mut mark: impl FnMut(Cell) -> bool,
    ) -> Cell {
        mark(from);
        let mut least = from;
        self.breadth_first(queue, from, |_, _, to| {
            let new = !occupied[to] && mark(to);
            if new {
                least = least.min(to);
            }
            new
        });
        least
    }

    /// The breadth-first search over the board, from `from`: the floor
    /// neighbour `to` of a cell `at` reached, in direction `dir`, is reached
    /// too when `enter(at, dir, to)` says so. `enter` marks the cells it
    /// lets in (`from` is in already), so it says yes to a cell once at
    /// most, and notes what its caller needs (a distance, a parent). The
    /// cells reached are left in `queue` in the order reached: cells in
    /// order of distance, neighbours in [`Direction::ALL`] order.
    #[inline]
    pub fn breadth_first(
        &self,
        queue: &mut Vec<Cell>,
        from: Cell,
        mut enter: impl FnMut(Cell, Direction, Cell) -> bool,
    ) {
        queue.clear();
        queue.push(from);
        let mut head = 0;
        while let Some(&at) = queue.get(head) {
            head += 1;
            for (dir, &to) in Direction::ALL.into_iter().zip(&self.next[at]) {
                if to != WALL && enter(at, dir, to) {
                    queue.push(to);
                }
            }
        }
    }

    /// True when a box newly on `cell` leaves the player's area connected,
    /// where `inside` says which cells are in that area once the box is
    /// there: those around `cell` form one run on the ring of its eight
    /// neighbours, so every walk through `cell` has a way round it.
    /// Sufficient, not necessary.
    pub fn keeps_whole(&self, cell: Cell, inside: impl Fn(Cell) -> bool) -> bool {
        let inside = |c: Option<Cell>| c.is_some_and(&inside);
        // The ring in order N, NE, E, SE, S, SW, W, NW.
        let order = [
            Direction::North,
            Direction::East,
            Direction::South,
            Direction::West,
        ];
        let mut ring = [false; 8];
        for (k, &d) in order.iter().enumerate() {
            let e = order[(k + 1) % 4];
            let (a, c) = (self.step(cell, d), self.step(cell, e));
            ring[2 * k] = inside(a);
            let corner = match (a, c) {
                (Some(a), _) => self.step(a, e),
                (None, Some(c)) => self.step(c, d),
                (None, None) => None,
            };
            ring[2 * k + 1] = inside(corner);
        }
        // Count the runs of area cells that hold a side neighbour of `cell`.
        let mut runs = 0;
        for k in 0..8 {
            if ring[k] && !ring[(k + 7) % 8] {
                let side = (k..k + 8).take_while(|&j| ring[j % 8]).any(|j| j % 2 == 0);
                runs += side as u32;
            }
        }
        runs <= 1
    }

    /// True when a box moved from `from` onto `to` (`occupied` as after the
    /// move) changes the player's area only by trading `to` for `from`: the
    /// freed cell opens onto nothing the area (`inside`, as before the
    /// move) did not hold, and `to` was outside the area or leaves it in
    /// one piece without being `least`, its smallest cell. The new area's
    /// smallest cell is then `least.min(from)`, no flood needed.
    pub fn only_trades(
        &self,
        occupied: &[bool],
        from: Cell,
        to: Cell,
        least: Cell,
        inside: impl Fn(Cell) -> bool,
    ) -> bool {
        let opens_nothing = self.neighbours(from).all(|c| occupied[c] || inside(c));
        opens_nothing
            && (!inside(to)
                || (to != least
                    && self.keeps_whole(to, |c| !occupied[c] && (c == from || inside(c)))))
    }

    /// True when both cells beside `c` across `dir` are walls: a box there
    /// moving along `dir` is in a one-wide corridor.
    pub fn is_corridor(&self, c: Cell, dir: Direction) -> bool {
        across(dir).iter().all(|&d| self.step(c, d).is_none())
    }

    /// The cell the box on `b` enters when pushed in `dir`, when that push
    /// can be made now: the player reaches the cell behind it (`reached`),
    /// and the cell ahead is free and not a dead square.
    pub fn push_into(
        &self,
        b: Cell,
        dir: Direction,
        occupied: &[bool],
        reached: impl Fn(Cell) -> bool,
    ) -> Option<Cell> {
        let behind = self.step(b, dir.opposite())?;
        let ahead = self.step(b, dir)?;
        let legal = reached(behind) && !occupied[ahead] && !self.dead[ahead];
        legal.then_some(ahead)
    }

    /// True when every cell from `c` onwards in direction `d` is a goal with
    /// walls on both sides, up to a wall: a box pushed in can only go deeper, so
    /// it may as well go as deep as it can at once (the goal macro).
    fn is_goal_tunnel(&self, c: Cell, d: Direction) -> bool {
        let mut at = c;
        loop {
            if !self.is_goal[at] || !self.is_corridor(at, d) {
                return false;
            }
            match self.step(at, d) {
                None => return true,
                Some(ahead) => at = ahead,
            }
        }
    }

    /// Per goal, in the order of `goals`, its [`Board::pull_distances`] on
    /// the empty board.
    pub fn pulls_to_each_goal(&self) -> Vec<Vec<Distance>> {
        let goals = self.goals.iter();
        goals.map(|&g| self.pull_distances(g, &[])).collect()
    }

    /// Fewest pushes from each cell to `goal` for a lone box: a breadth-first
    /// search of pulls from the goal (a pull from `c` to `c - d` needs the player
    /// at `c - d` and room at `c - 2d`).
    /// Cells in `walls` count as walls (boxes frozen for good).
    pub fn pull_distances(&self, goal: Cell, walls: &[Cell]) -> Vec<Distance> {
        let mut wall = vec![false; self.len()];
        for &c in walls {
            wall[c] = true;
        }
        self.box_distances(&[goal], &wall, true)
    }

    /// Fewest moves of a lone box between each cell and the nearest of
    /// `starts`, cells marked in `wall` counting as walls: pulls from the
    /// starts where `pulls` (the pushes from each cell to a start), else
    /// pushes out of them. A pull from `c` to `c + d` needs the player at
    /// `c + 2d`, a push from `c` to `c + d` the player at `c - d`.
    pub fn box_distances(&self, starts: &[Cell], wall: &[bool], pulls: bool) -> Vec<Distance> {
        let open = |c: Cell| !wall[c];
        let mut dist = vec![UNREACHABLE; self.len()];
        let mut queue = starts.to_vec();
        for &c in starts {
            dist[c] = 0;
        }
        let mut head = 0;
        while let Some(&at) = queue.get(head) {
            head += 1;
            for dir in Direction::ALL {
                let Some(to) = self.step(at, dir).filter(|&to| open(to)) else {
                    continue;
                };
                let player = if pulls {
                    self.step(to, dir)
                } else {
                    self.step(at, dir.opposite())
                };
                if player.is_some_and(open) && dist[to] == UNREACHABLE {
                    dist[to] = dist[at] + 1;
                    queue.push(to);
                }
            }
        }
        dist
    }
}

/// The two directions across `dir`.
pub(crate) fn across(dir: Direction) -> [Direction; 2] {
    match dir {
        Direction::North | Direction::South => [Direction::East, Direction::West],
        Direction::East | Direction::West => [Direction::North, Direction::South],
    }
}

/// The cells of the player's area, boxes counted as floor, and the grid's
/// map to them (`None` outside). A box outside on a goal is a wall there; a
/// lone box or goal outside makes the level unsolvable.
fn player_area(level: &Level) -> Result<(Vec<usize>, Vec<Option<Cell>>), Unsearchable> {
    let grid = &level.grid;
    let mut index = vec![None; grid.len()];
    let mut cells = vec![level.player];
    index[level.player] = Some(Cell::new(0));
    let mut head = 0;
    while head < cells.len() {
        let c = cells[head];
        head += 1;
        for n in grid.neighbours(c) {
            if grid.is_floor(n) && index[n].is_none() {
                if cells.len() >= MAX_CELLS {
                    return Err(Unsearchable::TooLarge(grid.floor_count()));
                }
                index[n] = Some(Cell::new(cells.len()));
                cells.push(n);
            }
        }
    }
    let outside = |pieces: &[usize]| -> Vec<usize> {
        pieces
            .iter()
            .copied()
            .filter(|&p| index[p].is_none())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::multi::rows::RowArea;
    use crate::rng::Rng;

    #[test]
    fn dead_squares_and_distances() {
        let level = &parse_xsb(b"######\n#@   #\n# $ .#\n#    #\n######", 100).unwrap()[0];
        let b = Board::new(level).unwrap();
        let at = |r, c| b.compact(level.grid.cell(r, c));
        // Corners are dead; the goal is at distance 0; the box two pushes away.
        assert!(b.dead[at(1, 1)]);
        assert!(b.dead[at(3, 4)]);
        assert!(!b.dead[at(2, 2)]);
        assert_eq!(b.pull_distances(b.goals[0], &[])[at(2, 4)], 0);
        assert_eq!(b.pull_distances(b.goals[0], &[])[at(2, 2)], 2);
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

    /// A random level up to 20 rows and 62 columns (64 with the border),
    /// a third of it walls; `None` when its box or goal is out of reach.
    fn random_board(rng: &mut Rng) -> Option<Board> {
        let (rows, cols) = (1 + rng.below(20), 3 + rng.below(60));
        let mut text = Vec::new();
        for _ in 0..rows {
            let row: Vec<u8> = (0..cols)
                .map(|_| if rng.below(3) == 0 { b'#' } else { b' ' })
                .collect();
            text.push(row);
        }
        for piece in [b'@', b'$', b'.'] {
            let (r, c) = (rng.below(rows), rng.below(cols));
            if text[r][c] != b' ' {
                return None;
            }
            text[r][c] = piece;
        }
        let text: Vec<u8> = text.join(&b'\n');
        let level = &crate::level::parse_xsb(&text, 100).ok()?[0];
        Board::new(level).ok()
    }

    #[test]
    fn row_floods_and_area_counts_agree_with_cell_floods() {
        let mut rng = Rng::new(29);
        let mut checked = 0;
        while checked < 300 {
            let Some(board) = random_board(&mut rng) else {
                continue;
            };
            let floor = board.rows.as_ref().expect("64 columns have rows");
            let mut occupied = vec![false; board.len()];
            let mut boxes = Vec::new();
            for c in board.cells() {
                if rng.below(4) == 0 {
                    occupied[c] = true;
                    boxes.push(c);
                }
            }
            let mut blocked = Vec::new();
            let mut area = RowArea::default();
            let (mut marks, mut queue, mut areas) = (vec![0; board.len()], Vec::new(), 0);
            for from in board.cells().filter(|&c| !occupied[c]) {
                if marks[from] != 0 {
                    continue;
                }
                areas += 1;
                let least = board.flood_player(&occupied, &mut marks, areas, &mut queue, from);
                assert_eq!(area.flood_among(floor, &mut blocked, &boxes, from), least);
                for c in board.cells() {
                    assert_eq!(area.contains(floor, c), marks[c] == areas);
                }
            }
            assert_eq!(area.count_areas(floor, &boxes), areas);
            checked += 1;
        }
    }
}
