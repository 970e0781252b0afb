//! Deadlocks found by solving a few boxes alone.
//!
//! Taking boxes away never makes a position harder: every push of a solution
//! that moves one of the boxes kept is still possible without the others
//! (the cells it needs are freer), and at the end those boxes stand on goals.
//! So when the boxes of a corral, searched alone with the player where it
//! stands, can never all reach goals, the whole position is dead. The boxes
//! fencing an area off are where such deadlocks hide and where freeze tests
//! do not see them.
//!
//! The search is small on purpose: forty positions at most, fifteen boxes
//! at most. Dead corrals are usually proven in a dozen or two positions (the
//! boxes have few pushes left), while live ones would take long to finish,
//! so a search that runs out of budget answers "not proven dead" (any
//! budget from 25 to 60 positions solved the most of Microban II). Answers are
//! kept per (box set, player area), so a corral is searched once.
//!
//! A set of many boxes is searched too, for a region can be shut by many
//! boxes and still be dead in a few positions: the player has left it and
//! its door boxes can only go in a square and stick. Once the player gets
//! into the floor such a set fenced off, though, it has the run of many
//! boxes and the search would rarely end within its budget, so it gives
//! up there at once (sets of six boxes or fewer always get the whole
//! budget).
//! Keys are exact, so the maps hash them with the fast FxHash.

use super::board::{Board, Cell};
use super::deadlock::Freeze;
use crate::grid::Direction;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// Positions one search may expand before it gives up (not dead).
const BUDGET: usize = 40;
/// Sets of more boxes than this are given up on as soon as the player
/// gets into the floor they fence off.
const SMALL_SET: usize = 6;
/// Box sets larger than this are not searched (a key holds fifteen boxes
/// and the player).
pub const MAX_BOXES: usize = 15;
/// Answers kept before the cache is cleared.
const CACHE: usize = 1 << 20;

/// A position of the boxes searched: the sorted box cells, then the
/// player's cell, then [`UNUSED`] in the fields left over.
type Key = [u16; MAX_BOXES + 1];

/// Marks a field of a [`Key`] past the player: no cell has this number
/// (see [`crate::multi::board::MAX_CELLS`]), so sets of different sizes
/// never share a key.
const UNUSED: u16 = u16::MAX;

fn pack(boxes: &[Cell], player: Cell) -> Key {
    let mut key = [UNUSED; MAX_BOXES + 1];
    for (field, b) in key.iter_mut().zip(boxes) {
        *field = b.bits();
    }
    key[boxes.len()] = player.bits();
    key
}

/// The `k` boxes (into `boxes`) and the player of a key.
fn unpack(key: &Key, k: usize, boxes: &mut [Cell; MAX_BOXES]) -> Cell {
    for (b, &field) in boxes.iter_mut().zip(&key[..k]) {
        *b = Cell::from_bits(field);
    }
    Cell::from_bits(key[k])
}

/// The searcher, with scratch space and its answers so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct SubsetSearch {
    /// Answers by normalized position.
    known: FxHashMap<Key, bool>,
    /// The same answers by the player cell they were asked with.
    asked: FxHashMap<Key, bool>,
    queued: FxHashSet<Key>,
    expanded: FxHashSet<Key>,
    positions: VecDeque<Key>,
    occupied: Vec<bool>,
    reach: Vec<u32>,
    stamp: u32,
    /// `outside[c] == outside_stamp`: the player reached `c` at the start
    /// of the search, or a box stood there.
    outside: Vec<u32>,
    outside_stamp: u32,
    queue: Vec<Cell>,
    freeze: Freeze,
}

impl SubsetSearch {
    /// True when `boxes` (sorted) alone, with the player on `player`, can
    /// provably never all stand on goals. `false` means "not proven".
    pub fn dead(&mut self, board: &Board, boxes: &[Cell], player: Cell) -> bool {
        if boxes.is_empty() || boxes.len() > MAX_BOXES {
            return false;
        }
        let n = board.len();
        if self.occupied.len() != n {
            self.occupied = vec![false; n];
            self.reach = vec![0; n];
            self.outside = vec![0; n];
        }
        // Asked again with the player on the same cell: no flood needed.
        let asked = pack(boxes, player);
        if let Some(&dead) = self.asked.get(&asked) {
            return dead;
        }
        for &b in boxes {
            self.occupied[b] = true;
        }
        let least = self.flood(board, player);
        for &b in boxes {
            self.occupied[b] = false;
        }
        let start = pack(boxes, least);
        let dead = match self.known.get(&start) {
            Some(&dead) => dead,
            None => self.search(board, start, boxes.len()),
        };
        if self.known.len() >= CACHE || self.asked.len() >= CACHE {
            self.known.clear();
            self.asked.clear();
        }
        self.known.insert(start, dead);
        self.asked.insert(asked, dead);
        dead
    }

    /// Bytes held by the answers kept, for the memory limit.
    pub fn memory_bytes(&self) -> usize {
        // A bucket holds the pair and a control byte.
        let bucket = std::mem::size_of::<(Key, bool)>() + 1;
        (self.known.capacity() + self.asked.capacity()) * bucket
    }

    /// Breadth-first over pushes of the `k` boxes alone: `false` as soon as
    /// all stand on goals, the budget runs out or (past [`SMALL_SET`] boxes)
    /// the player gets into the floor they fenced off at the start, `true`
    /// when positions run out. A child is queued normalized when its area
    /// just trades one cell for another (see `child_player`), else with
    /// the player where the push leaves it, and the flood that expands it
    /// normalizes it: no child costs a flood of its own.
    fn search(&mut self, board: &Board, start: Key, k: usize) -> bool {
        self.queued.clear();
        self.expanded.clear();
        self.positions.clear();
        self.queued.insert(start);
        self.positions.push_back(start);
        let mut boxes = [Cell::new(0); MAX_BOXES];
        let mut child = [Cell::new(0); MAX_BOXES];
        let mut dead = true;
        while let Some(key) = self.positions.pop_front() {
            let player = unpack(&key, k, &mut boxes);
            let boxes = &boxes[..k];
            if boxes.iter().all(|&b| board.is_goal[b]) {
                dead = false;
                break;
            }
            // Queued normalized and met before: no flood needed.
            if self.expanded.contains(&key) {
                continue;
            }
            for &b in boxes {
                self.occupied[b] = true;
            }
            let least = self.flood(board, player);
            if self.expanded.is_empty() {
                self.mark_outside(boxes);
            }
            if !self.expanded.insert(pack(boxes, least)) {
                for &b in boxes {
                    self.occupied[b] = false;
                }
                continue;
            }
            let opened = k > SMALL_SET && self.opened();
            if opened || self.expanded.len() > BUDGET {
                for &b in boxes {
                    self.occupied[b] = false;
                }
                dead = false;
                break;
            }
            let reached = self.stamp;
            for (i, &b) in boxes.iter().enumerate() {
                for dir in Direction::ALL {
                    let reach = &self.reach;
                    let Some(ahead) =
                        board.push_into(b, dir, &self.occupied, |c| reach[c] == reached)
                    else {
                        continue;
                    };
                    self.occupied[b] = false;
                    self.occupied[ahead] = true;
                    if !self.freeze.deadlocked(board, &self.occupied, ahead) {
                        child[..k].copy_from_slice(boxes);
                        child[i] = ahead;
                        child[..k].sort_unstable();
                        let next = pack(&child[..k], self.child_player(board, b, ahead, least));
                        if self.queued.insert(next) {
                            self.positions.push_back(next);
                        }
                    }
                    self.occupied[ahead] = false;
                    self.occupied[b] = true;
                }
            }
            for &b in boxes {
                self.occupied[b] = false;
            }
        }
        dead
    }

    /// The player of a child where a box went from `b` to `ahead`
    /// (`occupied` as after the push, `reach` still the parent's area, whose
    /// smallest cell is `least`): the child's normalized cell when the area
    /// just trades `ahead` for `b`, else `b` (normalized when the child is
    /// expanded). Children normalized here are queued once, not once for
    /// each cell their player can stand on.
    fn child_player(&self, board: &Board, b: Cell, ahead: Cell, least: Cell) -> Cell {
        let inside = |c: Cell| self.reach[c] == self.stamp;
        if board.only_trades(&self.occupied, b, ahead, least, inside) {
            least.min(b)
        } else {
            b
        }
    }

    /// Marks the cells the player reaches at the start of a search (just
    /// flooded) and the cells its boxes stand on: the rest of the floor is
    /// what the boxes fence off.
    fn mark_outside(&mut self, boxes: &[Cell]) {
        self.outside_stamp += 1;
        for &c in self.queue.iter().chain(boxes) {
            self.outside[c] = self.outside_stamp;
        }
    }

    /// True when the player's area just flooded reaches into the floor the
    /// boxes fenced off at the start. With many boxes, a search that gets
    /// in there has the run of them and would rarely end within its budget.
    fn opened(&self) -> bool {
        self.queue
            .iter()
            .any(|&c| self.outside[c] != self.outside_stamp)
    }

    /// Marks the player's area from `from` in `reach` with a new stamp;
    /// returns its smallest cell.
    fn flood(&mut self, board: &Board, from: Cell) -> Cell {
        self.stamp += 1;
        board.flood_player(
            &self.occupied,
            &mut self.reach,
            self.stamp,
            &mut self.queue,
            from,
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn board(text: &str) -> Board {
        Board::new(&parse_xsb(text.as_bytes(), 1000).unwrap()[0]).unwrap()
    }

    #[test]
    fn keys_of_box_sets_of_different_sizes_differ() {
        // Two boxes with the player on 7, and three boxes (one on 7) with
        // the player on cell 0: the same fields, told apart by the count.
        let cells =
            |numbers: &[usize]| -> Vec<Cell> { numbers.iter().map(|&i| Cell::new(i)).collect() };
        let c = Cell::new;
        assert_ne!(pack(&cells(&[3, 5]), c(7)), pack(&cells(&[3, 5, 7]), c(0)));
        let mut boxes = [c(0); MAX_BOXES];
        assert_eq!(unpack(&pack(&cells(&[3, 5, 7]), c(9)), 3, &mut boxes), c(9));
        assert_eq!(boxes[..3], cells(&[3, 5, 7]));
    }

    #[test]
    fn boxes_that_can_reach_goals_are_not_dead() {
        let b = board("#######\n#@ $ .#\n# $  .#\n#######");
        assert!(!SubsetSearch::default().dead(&b, &b.start_boxes, b.start_player));
    }

    #[test]
    fn two_boxes_sealing_a_pocket_off_a_goal_are_dead() {
        // The two boxes shut the pocket below them; the player is outside,
        // and either box can only be pushed down into the dead pocket or not at all.
        let text = "########\n#@  . .#\n##$$####\n#    ###\n########";
        let b = board(text);
        let mut s = SubsetSearch::default();
        let dead = s.dead(&b, &b.start_boxes, b.start_player);
        // Cross-check with the full search: the level is impossible.
        let level = &parse_xsb(text.as_bytes(), 1000).unwrap()[0];
        let report = crate::multi::solve(level, &Default::default(), &mut |_| {});
        assert_eq!(report.outcome, crate::moves::Outcome::Impossible);
        assert!(dead);
    }

    /// The player of the child of pushing the box on `from` east, as the
    /// search queues it, and the child's normalized player by a flood.
    fn queued_and_flooded(text: &str, from: Cell) -> (Cell, Cell) {
        let b = board(text);
        assert_eq!(b.start_boxes, [from], "{text}");
        let mut s = SubsetSearch::default();
        // A first question sizes the scratch tables to the board.
        s.dead(&b, &b.start_boxes, b.start_player);
        for &c in &b.start_boxes {
            s.occupied[c] = true;
        }
        let least = s.flood(&b, b.start_player);
        let ahead = b.step(from, Direction::East).unwrap();
        s.occupied[from] = false;
        s.occupied[ahead] = true;
        let queued = s.child_player(&b, from, ahead, least);
        (queued, s.flood(&b, from))
    }

    #[test]
    fn a_child_whose_area_trades_one_cell_for_another_is_queued_normalized() {
        // In the open, and in a corridor with floor shut off ahead.
        for (text, from) in [
            ("#######\n#@    #\n#  $  #\n#    .#\n#######", 7),
            ("#######\n#@ $ .#\n#######", 2),
        ] {
            let (queued, flooded) = queued_and_flooded(text, Cell::new(from));
            assert_eq!(queued, flooded, "{text}");
        }
    }

    #[test]
    fn a_child_whose_push_opens_a_door_is_normalized_when_expanded() {
        // The box stands over a door to the room below: pushed east, the
        // cell it leaves lets the player in there.
        let text = "#######\n#@ $  #\n### ###\n#.    #\n#######";
        let from = Cell::new(2);
        let (queued, flooded) = queued_and_flooded(text, from);
        assert_eq!(queued, from);
        assert_ne!(flooded, from);
    }

    /// Plain breadth-first over pushes of the boxes alone, no pruning at
    /// all: can every box stand on a goal at once?
    /// Brute force: can `boxes` all reach goals, the player on `player`?
    pub(crate) fn solvable(board: &Board, boxes: &[Cell], player: Cell) -> bool {
        solvable_within(board, boxes, player, usize::MAX).expect("no cap")
    }

    /// [`solvable`], or `None` once more than `cap` positions are seen.
    fn solvable_within(board: &Board, boxes: &[Cell], player: Cell, cap: usize) -> Option<bool> {
        let mut seen = std::collections::HashSet::new();
        let mut queue = VecDeque::from([(boxes.to_vec(), player)]);
        seen.insert((boxes.to_vec(), player));
        while let Some((boxes, player)) = queue.pop_front() {
            if boxes.iter().all(|&b| board.is_goal[b]) {
                return Some(true);
            }
            if seen.len() > cap {
                return None;
            }
            for dir in Direction::ALL {
                let Some(to) = board.step(player, dir) else {
                    continue;
                };
                let mut next = boxes.clone();
                if let Some(i) = boxes.iter().position(|&b| b == to) {
                    let Some(ahead) = board.step(to, dir).filter(|a| !boxes.contains(a)) else {
                        continue;
                    };
                    next[i] = ahead;
                    next.sort_unstable();
                }
                if seen.insert((next.clone(), to)) {
                    queue.push_back((next, to));
                }
            }
        }
        Some(false)
    }

    /// A random small level with `1..=4` boxes, none on a dead square, and
    /// up to two goals more than boxes; `None` when the draw is unusable.
    pub(crate) fn random_level(rng: &mut crate::rng::Rng, case: usize) -> Option<Board> {
        random_level_boxes(rng, case, 1, 4)
    }

    /// [`random_level`] with `least..=most` boxes.
    fn random_level_boxes(
        rng: &mut crate::rng::Rng,
        case: usize,
        least: usize,
        most: usize,
    ) -> Option<Board> {
        use crate::grid::Grid;
        use crate::level::{Alphabet, Level};
        let (rows, cols) = (4 + rng.below(3), 4 + rng.below(4));
        let mut grid = Grid::new(rows, cols);
        let mut free = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if !rng.chance(20) {
                    grid.set_floor(grid.cell(r, c));
                    free.push(grid.cell(r, c));
                }
            }
        }
        let k = least + rng.below(most - least + 1);
        if free.len() < 2 * k + 2 {
            return None;
        }
        // Distinct cells: the player, k boxes, and k to k + 2 goals.
        for i in 0..free.len() {
            let j = i + rng.below(free.len() - i);
            free.swap(i, j);
        }
        let goals = (k + rng.below(3)).min(free.len() - k - 1);
        let level = Level {
            name: format!("case {case}"),
            line: 1,
            grid,
            player: free[0],
            boxes: free[1..=k].to_vec(),
            goals: free[1 + k..1 + k + goals].to_vec(),
            alphabet: Alphabet::Xsb,
        };
        let board = Board::new(&level).ok()?;
        let usable =
            board.start_boxes.len() == k && board.start_boxes.iter().all(|&b| !board.dead[b]);
        usable.then_some(board)
    }

    #[test]
    fn every_dead_answer_agrees_with_brute_force() {
        let mut rng = crate::rng::Rng::new(0xDEAD_C0DE);
        let (mut dead, mut live) = (0, 0);
        for case in 0..4000 {
            let Some(board) = random_level(&mut rng, case) else {
                continue;
            };
            let said = SubsetSearch::default().dead(&board, &board.start_boxes, board.start_player);
            let truth = solvable(&board, &board.start_boxes, board.start_player);
            assert!(!(said && truth), "case {case} called dead but solvable");
            if said {
                dead += 1;
            } else {
                live += 1;
            }
        }
        // Both answers occur, so the check means something.
        assert!(dead > 20 && live > 20, "dead {dead} live {live}");
    }

    #[test]
    fn dead_answers_for_many_boxes_agree_with_brute_force() {
        let mut rng = crate::rng::Rng::new(0xB16_5E7);
        let (mut dead, mut checked) = (0, 0);
        for case in 0..8000 {
            let Some(board) = random_level_boxes(&mut rng, case, SMALL_SET + 1, SMALL_SET + 3)
            else {
                continue;
            };
            let (boxes, player) = (&board.start_boxes, board.start_player);
            if !SubsetSearch::default().dead(&board, boxes, player) {
                continue;
            }
            dead += 1;
            if let Some(truth) = solvable_within(&board, boxes, player, 200_000) {
                assert!(!truth, "case {case} called dead but solvable");
                checked += 1;
            }
        }
        assert!(checked > 20, "dead {dead}, checked {checked}");
    }
}
