//! The boxes' start squares, seen from the backward search: which cells a
//! box on each can be pushed to, which start squares can take any box of
//! their group, and whether the boxes left can still each go back to a
//! start square of its own.

use crate::grid::Direction;
use crate::multi::board::{Board, Cell};

/// Start squares and what a lone box on each can reach.
pub(super) struct Bases {
    /// The start squares, in the board's order.
    pub cells: Vec<Cell>,
    /// Per cell, its index among `cells`.
    index: Vec<Option<u16>>,
    /// `reach[i][c]`: a box on the `i`-th start square can be pushed to `c`,
    /// the other boxes away and the player starting where it does.
    reach: Vec<Vec<bool>>,
    /// Per start square, the one goal a box on it can reach, where it can
    /// reach only one: that goal's box can only be this square's.
    pub private: Vec<Option<Cell>>,
}

impl Bases {
    pub fn new(board: &Board) -> Bases {
        let cells = board.start_boxes.clone();
        let mut index = vec![None; board.len()];
        for (i, &c) in cells.iter().enumerate() {
            index[c] = Some(i as u16);
        }
        let reach: Vec<Vec<bool>> = cells
            .iter()
            .map(|&c| lone_box_reach(board, c, board.start_player))
            .collect();
        let private = reach
            .iter()
            .map(|reached| {
                let mut goals = board.goals.iter().filter(|&&g| reached[g]);
                goals.next().filter(|_| goals.next().is_none()).copied()
            })
            .collect();
        Bases {
            cells,
            index,
            reach,
            private,
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// The index of the start square on `c`, if any.
    pub fn at(&self, c: Cell) -> Option<usize> {
        self.index[c].map(usize::from)
    }

    /// True when a box on `c` could come from one of the start squares
    /// `left` (pushed there alone).
    pub fn reachable(&self, left: &Set, c: Cell) -> bool {
        left.iter().any(|i| self.reach[i][c])
    }

    /// The start squares among `left` that a box on any other of them can
    /// be pushed to, the `boxes` standing as walls (the largest such group,
    /// where a box may be taken off at any of its squares: whichever box
    /// comes, the others can still be sent to the rest).
    pub fn interchangeable(&self, board: &Board, boxes: &[Cell], left: &Set) -> Set {
        let mut walls = vec![false; board.len()];
        for &b in boxes {
            walls[b] = true;
        }
        let ids: Vec<usize> = left.iter().collect();
        let reach: Vec<Vec<bool>> = ids
            .iter()
            .map(|&i| pushes_reach(board, &walls, self.cells[i]))
            .collect();
        let mut best = Set::empty(self.len());
        let mut seen = vec![false; ids.len()];
        for a in 0..ids.len() {
            if seen[a] {
                continue;
            }
            let mut group = Set::empty(self.len());
            for b in a..ids.len() {
                let both = reach[a][self.cells[ids[b]]] && reach[b][self.cells[ids[a]]];
                if both {
                    seen[b] = true;
                    group.insert(ids[b]);
                }
            }
            if group.count() > best.count() {
                best = group;
            }
        }
        best
    }

    /// True when each of `boxes` can still go back to a start square of
    /// its own among `left` (a matching of boxes to start squares).
    pub fn matched(&self, boxes: &[Cell], left: &Set) -> bool {
        self.matching(boxes, left).is_some()
    }

    /// A start square of its own among `left` for each of `boxes` (their
    /// indices, box by box), where there is such a matching.
    pub fn matching(&self, boxes: &[Cell], left: &Set) -> Option<Vec<usize>> {
        let ids: Vec<usize> = left.iter().collect();
        if ids.len() < boxes.len() {
            return None;
        }
        // Kuhn's augmenting paths: `owner[k]` is the box on `ids[k]`.
        let mut owner: Vec<Option<usize>> = vec![None; ids.len()];
        let mut seen = vec![false; ids.len()];
        for b in 0..boxes.len() {
            seen.fill(false);
            if !self.augment(b, boxes, &ids, &mut owner, &mut seen) {
                return None;
            }
        }
        let mut square = vec![0; boxes.len()];
        for (k, owner) in owner.iter().enumerate() {
            if let Some(b) = owner {
                square[*b] = ids[k];
            }
        }
        Some(square)
    }

    /// True when `boxes` are matched among `left` given `square`, a
    /// matching of every box but the `i`-th (each's start square, box by
    /// box; the `i`-th's is not read): the `i`-th finds one by an
    /// augmenting path, where matching all anew would take one a box.
    pub fn rematched(&self, boxes: &[Cell], left: &Set, square: &[usize], i: usize) -> bool {
        let ids: Vec<usize> = left.iter().collect();
        let mut owner: Vec<Option<usize>> = vec![None; ids.len()];
        for (j, sq) in square.iter().enumerate() {
            if j != i {
                let k = ids.binary_search(sq).expect("a start square left");
                owner[k] = Some(j);
            }
        }
        let mut seen = vec![false; ids.len()];
        self.augment(i, boxes, &ids, &mut owner, &mut seen)
    }

    /// True when a box on the `i`-th start square can be pushed to `c`.
    pub fn reaches(&self, i: usize, c: Cell) -> bool {
        self.reach[i][c]
    }

    fn augment(
        &self,
        b: usize,
        boxes: &[Cell],
        ids: &[usize],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for k in 0..ids.len() {
            if seen[k] || !self.reach[ids[k]][boxes[b]] {
                continue;
            }
            seen[k] = true;
            let free = match owner[k] {
                None => true,
                Some(other) => self.augment(other, boxes, ids, owner, seen),
            };
            if free {
                owner[k] = Some(b);
                return true;
            }
        }
        false
    }
}

/// Per cell, whether a box pulled there would wait inside a tunnel: a run
/// of two cells or more, one wide, walls on both sides across it. Such a
/// box only blocks the way. Start squares are always free, and so is the
/// run's first cell (its west or north end) where no start square is in
/// it: a box may wait at one mouth, as Festival's pull search lets it.
/// Freeing the other mouth too let the plan park a box in the one way
/// into a goal room (Sasquatch I 34).
pub(super) fn in_tunnels(board: &Board) -> Vec<bool> {
    let mut inside = vec![false; board.len()];
    let is_start = |c: Cell| board.start_boxes.contains(&c);
    for dir in [Direction::East, Direction::South] {
        for c in board.cells() {
            let starts_run = board
                .step(c, dir.opposite())
                .is_none_or(|p| !board.is_corridor(p, dir));
            if !board.is_corridor(c, dir) || !starts_run {
                continue;
            }
            let mut run = vec![c];
            while let Some(n) = board.step(*run.last().expect("a cell"), dir) {
                if !board.is_corridor(n, dir) {
                    break;
                }
                run.push(n);
            }
            if run.len() < 2 {
                continue;
            }
            let mouth_free = !run.iter().any(|&x| is_start(x));
            for (k, &x) in run.iter().enumerate() {
                inside[x] |= !(is_start(x) || (k == 0 && mouth_free));
            }
        }
    }
    inside
}

/// A set of start squares by index, as bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Set(Box<[u64]>);

impl Set {
    pub fn empty(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)].into_boxed_slice())
    }

    pub fn full(n: usize) -> Set {
        let mut s = Set::empty(n);
        for i in 0..n {
            s.insert(i);
        }
        s
    }

    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            (0..64)
                .filter(move |&j| w >> j & 1 == 1)
                .map(move |j| k * 64 + j)
        })
    }

    /// A hash of the set, to key positions by.
    pub fn hash(&self) -> u64 {
        self.0.iter().fold(0x9E37_79B9_7F4A_7C15, |acc, &w| {
            (acc ^ w).wrapping_mul(0x0100_0000_01B3).rotate_left(17)
        })
    }
}

/// Per cell, whether a lone box on `from` can be pushed there, `walls`
/// standing in the way (the player walking anywhere but through the box:
/// quick, and more than the box can really reach).
fn pushes_reach(board: &Board, walls: &[bool], from: Cell) -> Vec<bool> {
    let mut reached = vec![false; board.len()];
    reached[from] = true;
    board.breadth_first(&mut Vec::new(), from, |at, dir, to| {
        let behind = board.step(at, dir.opposite()).is_some_and(|p| !walls[p]);
        let new = behind && !walls[to] && !reached[to];
        if new {
            reached[to] = true;
        }
        new
    });
    reached
}

/// Per cell, whether a lone box on `from` can be pushed there by the
/// player starting on `player` (walls alone in the way).
fn lone_box_reach(board: &Board, from: Cell, player: Cell) -> Vec<bool> {
    let n = board.len();
    let mut reached = vec![false; n];
    reached[from] = true;
    // States: the box's cell and the cell the player stands on beside it.
    let mut seen = vec![[false; 4]; n];
    let mut states: Vec<(Cell, Cell)> = vec![(from, player)];
    let (mut marks, mut stamp, mut queue) = (vec![0u32; n], 0, Vec::new());
    let mut occupied = vec![false; n];
    while let Some((c, stand)) = states.pop() {
        occupied[c] = true;
        stamp += 1;
        board.flood_player(&occupied, &mut marks, stamp, &mut queue, stand);
        occupied[c] = false;
        for dir in Direction::ALL {
            let behind = board.step(c, dir.opposite());
            let ahead = board.step(c, dir);
            if let (Some(behind), Some(ahead)) = (behind, ahead)
                && marks[behind] == stamp
                && !seen[ahead][dir.index()]
            {
                seen[ahead][dir.index()] = true;
                reached[ahead] = true;
                states.push((ahead, c));
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn board(text: &str) -> Board {
        Board::new(&parse_xsb(text.as_bytes(), 1000).unwrap()[0]).unwrap()
    }

    #[test]
    fn a_tunnel_keeps_only_its_first_mouth_free_unless_a_box_starts_in_it() {
        // A tunnel running south from the room, a goal in its middle: the
        // marks of its three cells, north to south.
        let marks = |text: &str| {
            let level = &parse_xsb(text.as_bytes(), 1000).unwrap()[0];
            let b = Board::new(level).unwrap();
            let inside = in_tunnels(&b);
            [2, 3, 4].map(|row| inside[b.compact(level.grid.cell(row, 3))])
        };
        let open = "#########\n#@  $   #\n### #####\n###.#####\n### #####\n#########";
        assert_eq!(marks(open), [false, true, true]);
        // With a box starting in it, only its start square is free.
        let started = "#########\n#@      #\n### #####\n###$#####\n###.#####\n#########";
        assert_eq!(marks(started), [true, false, true]);
    }

    #[test]
    fn sets_hold_what_is_put_in() {
        let mut s = Set::empty(130);
        for i in [0, 63, 64, 129] {
            s.insert(i);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 129]);
        s.remove(63);
        assert!(!s.contains(63) && s.contains(64));
        assert_eq!(s.count(), 3);
        assert_eq!(Set::full(70).count(), 70);
    }

    #[test]
    fn boxes_are_matched_to_start_squares_they_can_come_from() {
        // In a corridor a box only goes east of its start square.
        let b = board("#######\n#@ $ .#\n#######");
        let bases = Bases::new(&b);
        let all = Set::full(bases.len());
        assert!(bases.matched(&b.goals, &all));
        let west = b
            .step(b.start_boxes[0], crate::grid::Direction::West)
            .unwrap();
        assert!(!bases.matched(&[west], &all));
        assert!(!bases.matched(&b.goals, &Set::empty(1)));
    }

    #[test]
    fn a_moved_box_is_rematched_as_a_matching_anew_would() {
        // Boxes along the north wall stay on it; the one below goes anywhere.
        let b = board("#########\n#@$ $   #\n#   $  ##\n# .  . #\n#   .  #\n########");
        let bases = Bases::new(&b);
        let all = Set::full(bases.len());
        let start = &b.start_boxes;
        let square = bases.matching(start, &all).expect("matched");
        let (mut kept, mut lost) = (0, 0);
        for i in 0..start.len() {
            for c in b.cells().filter(|c| !start.contains(c)) {
                let mut moved = start.clone();
                moved[i] = c;
                let anew = bases.matched(&moved, &all);
                assert_eq!(bases.rematched(&moved, &all, &square, i), anew);
                (kept, lost) = if anew {
                    (kept + 1, lost)
                } else {
                    (kept, lost + 1)
                };
            }
        }
        assert!(kept > 0 && lost > 0);
    }
}
