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
//! A searcher made with the fences proven at load
//! ([`super::fence`]) drops every child that holds one: a fence of
//! five boxes whose pushes all lead into a smaller dead fence is then
//! proven in a few positions.
//!
//! Keys are exact, so the maps hash them with the fast FxHash.

use super::freeze::Freeze;
use super::patterns::{Among, PatternSet};
use crate::grid::Direction;
use crate::multi::board::{Board, Cell};
use crate::multi::rows::RowArea;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::sync::Arc;

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
/// Positions a search of a stuck set ([`SubsetSearch::stuck`]) may expand.
const STUCK_BUDGET: usize = 500;

/// How one search runs: its budget, and its two shortcuts.
#[derive(Clone, Copy)]
struct Rule {
    budget: usize,
    /// Past [`SMALL_SET`] boxes, give up once the player gets into the
    /// floor the boxes fenced off at the start.
    give_up_inside: bool,
    /// Take a free box away (see [`SubsetSearch::free_box`]) instead of
    /// pushing: the boxes left are harder to place than all of them.
    take_free: bool,
}

const CORRAL_RULE: Rule = Rule {
    budget: BUDGET,
    give_up_inside: true,
    take_free: false,
};

const STUCK_RULE: Rule = Rule {
    budget: STUCK_BUDGET,
    give_up_inside: false,
    take_free: true,
};

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

/// The number of boxes in a key: the fields before its player.
fn count(key: &Key) -> usize {
    key.iter().rposition(|&f| f != UNUSED).unwrap_or(0)
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
    /// The answers of [`SubsetSearch::stuck`], by normalized position.
    stuck_known: FxHashMap<Key, bool>,
    queued: FxHashSet<Key>,
    expanded: FxHashSet<Key>,
    positions: VecDeque<Key>,
    occupied: Vec<bool>,
    /// The same boxes as row masks, on boards with rows
    /// ([`Board::rows`]): their floods go a row at a time.
    blocked: Vec<u64>,
    /// The player's area just flooded, on boards with rows; on others
    /// `reach[c] == stamp` marks it.
    area: RowArea,
    reach: Vec<u32>,
    stamp: u32,
    /// `outside[c] == outside_stamp` (on boards with rows, `c` set in
    /// `outside_rows`): the player reached `c` at the start of the search,
    /// or a box stood there.
    outside: Vec<u32>,
    outside_stamp: u32,
    outside_rows: Vec<u64>,
    /// The floods that test a push back ([`SubsetSearch::reversible`]).
    probe_area: RowArea,
    probe: Vec<u32>,
    probe_stamp: u32,
    queue: Vec<Cell>,
    freeze: Freeze,
    /// Fences proven dead at load: a child holding one is not queued.
    fences: Arc<PatternSet>,
    among: Among,
    /// Positions a search of [`SubsetSearch::dead`] may expand, when not
    /// [`BUDGET`].
    budget: Option<usize>,
}

impl SubsetSearch {
    /// A searcher that prunes by `fences`.
    pub fn with_fences(fences: Arc<PatternSet>) -> SubsetSearch {
        SubsetSearch {
            fences,
            ..SubsetSearch::default()
        }
    }

    /// The searcher with `budget` positions per [`SubsetSearch::dead`].
    pub fn with_budget(self, budget: usize) -> SubsetSearch {
        SubsetSearch {
            budget: Some(budget),
            ..self
        }
    }

    /// True when `boxes` (sorted) alone, with the player on `player`, can
    /// provably never all stand on goals. `false` means "not proven".
    pub fn dead(&mut self, board: &Board, boxes: &[Cell], player: Cell) -> bool {
        if boxes.is_empty() || boxes.len() > MAX_BOXES {
            return false;
        }
        self.size_for(board);
        // Asked again with the player on the same cell: no flood needed.
        let asked = pack(boxes, player);
        if let Some(&dead) = self.asked.get(&asked) {
            return dead;
        }
        let start = self.start_key(board, boxes, player);
        let dead = match self.known.get(&start) {
            Some(&dead) => dead,
            None => {
                let budget = self.budget.unwrap_or(BUDGET);
                self.search(
                    board,
                    start,
                    Rule {
                        budget,
                        ..CORRAL_RULE
                    },
                )
            }
        };
        if self.known.len() >= CACHE || self.asked.len() >= CACHE {
            self.known.clear();
            self.asked.clear();
        }
        self.known.insert(start, dead);
        self.asked.insert(asked, dead);
        dead
    }

    /// True when `boxes` (sorted) alone, with the player on `player`, can
    /// provably never all stand on goals, by a search of [`STUCK_BUDGET`]
    /// positions that takes free boxes away as it goes: for the boxes a
    /// search keeps coming back to (see [`SubsetSearch::held_boxes`]).
    pub fn stuck(&mut self, board: &Board, boxes: &[Cell], player: Cell) -> bool {
        if boxes.is_empty() || boxes.len() > MAX_BOXES {
            return false;
        }
        self.size_for(board);
        let start = self.start_key(board, boxes, player);
        if let Some(&dead) = self.stuck_known.get(&start) {
            return dead;
        }
        let dead = self.search(board, start, STUCK_RULE);
        if self.stuck_known.len() >= CACHE {
            self.stuck_known.clear();
        }
        self.stuck_known.insert(start, dead);
        dead
    }

    /// The key a search of `boxes` starts from: the player normalized in
    /// its area among them.
    fn start_key(&mut self, board: &Board, boxes: &[Cell], player: Cell) -> Key {
        self.occupy_all(board, boxes, true);
        let least = self.flood(board, player);
        self.occupy_all(board, boxes, false);
        pack(boxes, least)
    }

    /// The boxes that hold a position fast: all of `boxes` but those that
    /// can be pushed and pushed back, then those free to go along a row and
    /// a column, taken away in sweeps (the player's area grows as they go,
    /// and each sweep looks at the boxes left in the area it leaves).
    /// Sorted, as `boxes` is.
    pub fn held_boxes(&mut self, board: &Board, boxes: &[Cell], player: Cell) -> Vec<Cell> {
        self.size_for(board);
        let mut left = boxes.to_vec();
        self.occupy_all(board, &left, true);
        for pass in [Self::reversible, Self::free_box] {
            loop {
                self.flood(board, player);
                let before = left.len();
                let mut freed = Vec::new();
                left.retain(|&b| {
                    let free = pass(&mut *self, board, b);
                    if free {
                        freed.push(b);
                    }
                    !free
                });
                self.occupy_all(board, &freed, false);
                if left.len() == before {
                    break;
                }
            }
        }
        self.occupy_all(board, &left, false);
        left
    }

    /// True when the box on `b` can be pushed one step from the player's
    /// area just flooded and then pushed back (the player gets round it).
    fn reversible(&mut self, board: &Board, b: Cell) -> bool {
        for d in Direction::ALL {
            let (Some(behind), Some(ahead)) = (board.step(b, d.opposite()), board.step(b, d))
            else {
                continue;
            };
            let Some(beyond) = board.step(ahead, d) else {
                continue;
            };
            if !self.reached(board, behind) || self.occupied[ahead] || self.occupied[beyond] {
                continue;
            }
            // The player on `b` with the box on `ahead`: can it reach `beyond`?
            self.occupy(board, b, false);
            self.occupy(board, ahead, true);
            let back = self.probe_reaches(board, b, beyond);
            self.occupy(board, ahead, false);
            self.occupy(board, b, true);
            if back {
                return true;
            }
        }
        false
    }

    /// Sizes the scratch space for `board`.
    fn size_for(&mut self, board: &Board) {
        let n = board.len();
        let rows = board.rows.as_ref().map_or(0, |r| r.len());
        if self.occupied.len() != n || self.blocked.len() != rows {
            self.occupied = vec![false; n];
            self.reach = vec![0; n];
            self.outside = vec![0; n];
            self.probe = vec![0; n];
            self.blocked = vec![0; rows];
        }
    }

    /// Bytes held by the answers kept, for the memory limit.
    pub fn memory_bytes(&self) -> usize {
        // A bucket holds the pair and a control byte.
        let bucket = std::mem::size_of::<(Key, bool)>() + 1;
        (self.known.capacity() + self.asked.capacity() + self.stuck_known.capacity()) * bucket
    }

    /// Breadth-first over pushes of the boxes alone: `false` as soon as
    /// all stand on goals, the budget runs out or the rule gives up, `true`
    /// when positions run out. A child is queued normalized when its area
    /// just trades one cell for another (see `child_player`), else with
    /// the player where the push leaves it, and the flood that expands it
    /// normalizes it: no child costs a flood of its own.
    fn search(&mut self, board: &Board, start: Key, rule: Rule) -> bool {
        if self.holds_fence(board, &start) {
            return true;
        }
        self.queued.clear();
        self.expanded.clear();
        self.positions.clear();
        self.queued.insert(start);
        self.positions.push_back(start);
        let mut boxes = [Cell::new(0); MAX_BOXES];
        let mut dead = true;
        while let Some(key) = self.positions.pop_front() {
            let k = count(&key);
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
            self.occupy_all(board, boxes, true);
            let least = self.flood(board, player);
            if self.expanded.is_empty() {
                self.mark_outside(board, boxes);
            }
            let fresh = self.expanded.insert(pack(boxes, least));
            let opened = rule.give_up_inside && k > SMALL_SET && self.opened(board);
            if fresh && (opened || self.expanded.len() > rule.budget) {
                dead = false;
            } else if fresh {
                self.queue_children(board, boxes, least, rule);
            }
            self.occupy_all(board, boxes, false);
            if !dead {
                break;
            }
        }
        dead
    }

    /// True when the position of `key` holds a fence (after it, a child
    /// is looked at for the fences holding the box just pushed only).
    fn holds_fence(&mut self, board: &Board, key: &Key) -> bool {
        let mut boxes = [Cell::new(0); MAX_BOXES];
        let k = count(key);
        let player = unpack(key, k, &mut boxes);
        let boxes = &boxes[..k];
        self.occupy_all(board, boxes, true);
        let held = self
            .fences
            .matches(board, &self.occupied, boxes, player, &mut self.among);
        self.occupy_all(board, boxes, false);
        held
    }

    /// Queues the children of the position of `boxes` (marked in
    /// `occupied`, the player's area just flooded, its smallest cell
    /// `least`): each push that no freeze test finds dead, or, when the rule
    /// takes free boxes and one is, the position without it.
    fn queue_children(&mut self, board: &Board, boxes: &[Cell], least: Cell, rule: Rule) {
        let k = boxes.len();
        let mut child = [Cell::new(0); MAX_BOXES];
        if rule.take_free
            && let Some(i) = (0..k).find(|&i| self.free_box(board, boxes[i]))
        {
            child[..i].copy_from_slice(&boxes[..i]);
            child[i..k - 1].copy_from_slice(&boxes[i + 1..]);
            let next = pack(&child[..k - 1], least);
            if self.queued.insert(next) {
                self.positions.push_back(next);
            }
            return;
        }
        for (i, &b) in boxes.iter().enumerate() {
            for dir in Direction::ALL {
                let reached = |c| self.reached(board, c);
                let Some(ahead) = board.push_into(b, dir, &self.occupied, reached) else {
                    continue;
                };
                self.occupy(board, b, false);
                self.occupy(board, ahead, true);
                child[..k].copy_from_slice(boxes);
                child[i] = ahead;
                let taken = (&self.occupied[..], &child[..k]);
                if !self.freeze.deadlocked(board, &self.occupied, ahead)
                    && !self
                        .fences
                        .matches_moved(board, taken, ahead, b, &mut self.among)
                {
                    child[..k].sort_unstable();
                    let next = pack(&child[..k], self.child_player(board, b, ahead, least));
                    if self.queued.insert(next) {
                        self.positions.push_back(next);
                    }
                }
                self.occupy(board, ahead, false);
                self.occupy(board, b, true);
            }
        }
    }

    /// True when the box on `b` can be pushed both along a row and along a
    /// column from the player's area just flooded, onto live floor: such a
    /// box is taken to go where it likes, and a search that drops it asks
    /// about the boxes that cannot.
    fn free_box(&mut self, board: &Board, b: Cell) -> bool {
        let reached = |c: Cell| self.reached(board, c);
        let pushable = |dirs: [Direction; 2]| {
            dirs.iter()
                .any(|&d| board.push_into(b, d, &self.occupied, reached).is_some())
        };
        pushable([Direction::East, Direction::West])
            && pushable([Direction::North, Direction::South])
    }

    /// The player of a child where a box went from `b` to `ahead`
    /// (`occupied` as after the push, `reach` still the parent's area, whose
    /// smallest cell is `least`): the child's normalized cell when the area
    /// just trades `ahead` for `b`, else `b` (normalized when the child is
    /// expanded). Children normalized here are queued once, not once for
    /// each cell their player can stand on.
    fn child_player(&self, board: &Board, b: Cell, ahead: Cell, least: Cell) -> Cell {
        let inside = |c: Cell| self.reached(board, c);
        if board.only_trades(&self.occupied, b, ahead, least, inside) {
            least.min(b)
        } else {
            b
        }
    }

    /// Marks the cells the player reaches at the start of a search (just
    /// flooded) and the cells its boxes stand on: the rest of the floor is
    /// what the boxes fence off.
    fn mark_outside(&mut self, board: &Board, boxes: &[Cell]) {
        if board.rows.is_some() {
            let (area, blocked) = (&self.area.rows, &self.blocked);
            self.outside_rows.clear();
            self.outside_rows
                .extend(area.iter().zip(blocked).map(|(a, b)| a | b));
            return;
        }
        self.outside_stamp += 1;
        for &c in self.queue.iter().chain(boxes) {
            self.outside[c] = self.outside_stamp;
        }
    }

    /// True when the player's area just flooded reaches into the floor the
    /// boxes fenced off at the start. With many boxes, a search that gets
    /// in there has the run of them and would rarely end within its budget.
    fn opened(&self, board: &Board) -> bool {
        if board.rows.is_some() {
            let (area, outside) = (&self.area.rows, &self.outside_rows);
            return area.iter().zip(outside).any(|(a, o)| a & !o != 0);
        }
        self.queue
            .iter()
            .any(|&c| self.outside[c] != self.outside_stamp)
    }

    /// Floods the player's area from `from` (in `area`, or marked in
    /// `reach` with a new stamp); returns its smallest cell.
    fn flood(&mut self, board: &Board, from: Cell) -> Cell {
        if let Some(rows) = &board.rows {
            self.area.flood(rows, &self.blocked, from);
            return self.area.least(rows).unwrap_or(from);
        }
        self.stamp += 1;
        board.flood_player(
            &self.occupied,
            &mut self.reach,
            self.stamp,
            &mut self.queue,
            from,
        )
    }

    /// True when the player's area just flooded holds `c`.
    #[inline]
    fn reached(&self, board: &Board, c: Cell) -> bool {
        match &board.rows {
            Some(rows) => self.area.contains(rows, c),
            None => self.reach[c] == self.stamp,
        }
    }

    /// True when the player reaches `to` from `from` (a flood of its own,
    /// leaving the area just flooded as it is).
    fn probe_reaches(&mut self, board: &Board, from: Cell, to: Cell) -> bool {
        if let Some(rows) = &board.rows {
            self.probe_area.flood(rows, &self.blocked, from);
            return self.probe_area.contains(rows, to);
        }
        self.probe_stamp += 1;
        board.flood_player(
            &self.occupied,
            &mut self.probe,
            self.probe_stamp,
            &mut self.queue,
            from,
        );
        self.probe[to] == self.probe_stamp
    }

    /// Puts a box on `c` (`on`) or takes it away.
    #[inline]
    fn occupy(&mut self, board: &Board, c: Cell, on: bool) {
        self.occupied[c] = on;
        if let Some(rows) = &board.rows {
            rows.put(&mut self.blocked, c, on);
        }
    }

    fn occupy_all(&mut self, board: &Board, boxes: &[Cell], on: bool) {
        for &b in boxes {
            self.occupy(board, b, on);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::multi::testing::{
        SEALED, random_level, random_level_boxes, solvable, solvable_within,
    };

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
        // Cross-check with brute force: the level is impossible.
        assert!(!solvable(&b, &b.start_boxes, b.start_player));
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
        s.occupy_all(&b, &b.start_boxes, true);
        let least = s.flood(&b, b.start_player);
        let ahead = b.step(from, Direction::East).unwrap();
        s.occupy(&b, from, false);
        s.occupy(&b, ahead, true);
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

    #[test]
    fn floods_by_rows_and_by_cells_give_the_same_answers() {
        let mut rng = crate::rng::Rng::new(0x20_75);
        let (mut asked, mut dead) = (0, 0);
        for case in 0..6000 {
            let Some(board) = random_level_boxes(&mut rng, case, 1, SMALL_SET + 1) else {
                continue;
            };
            let mut by_cells = board.clone();
            by_cells.rows = None;
            let (boxes, player) = (&board.start_boxes, board.start_player);
            let answers = |b: &Board| {
                let mut s = SubsetSearch::default();
                let dead = s.dead(b, boxes, player);
                (
                    dead,
                    s.stuck(b, boxes, player),
                    s.held_boxes(b, boxes, player),
                )
            };
            assert!(board.rows.is_some());
            let by_rows = answers(&board);
            assert_eq!(by_rows, answers(&by_cells), "case {case}");
            asked += 1;
            dead += (by_rows.0 || by_rows.1) as u32;
        }
        assert!(asked > 500 && dead > 20, "asked {asked}, dead {dead}");
    }

    #[test]
    fn every_stuck_answer_agrees_with_brute_force() {
        let mut rng = crate::rng::Rng::new(0x57_0C4);
        let (mut stuck, mut live) = (0, 0);
        for case in 0..4000 {
            let Some(board) = random_level_boxes(&mut rng, case, 1, 5) else {
                continue;
            };
            let (boxes, player) = (&board.start_boxes, board.start_player);
            let said = SubsetSearch::default().stuck(&board, boxes, player);
            let Some(truth) = solvable_within(&board, boxes, player, 200_000) else {
                continue;
            };
            assert!(!(said && truth), "case {case} called stuck but solvable");
            if said {
                stuck += 1;
            } else {
                live += 1;
            }
        }
        assert!(stuck > 20 && live > 20, "stuck {stuck} live {live}");
    }

    #[test]
    fn the_boxes_holding_a_position_leave_out_the_ones_free_to_move() {
        let text = SEALED;
        let b = board(text);
        let level = &parse_xsb(text.as_bytes(), 1000).unwrap()[0];
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let held = SubsetSearch::default().held_boxes(&b, &b.start_boxes, b.start_player);
        assert_eq!(held, [at(5, 4), at(5, 5)]);
    }

    #[test]
    fn a_stuck_search_takes_free_boxes_away_and_proves_what_the_small_one_cannot() {
        let b = board(SEALED);
        let (boxes, player) = (&b.start_boxes, b.start_player);
        // The boxes in the open have pushes without end for forty positions;
        // taken away one by one, they leave the seal, which is dead.
        assert!(!SubsetSearch::default().dead(&b, boxes, player));
        assert!(SubsetSearch::default().stuck(&b, boxes, player));
    }
}
