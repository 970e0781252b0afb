//! Deadlock patterns learned during a search.
//!
//! A non-optimal search on a classic level makes a mess early (a few boxes
//! shoved into a knot far from the goals), then spends millions of nodes
//! packing the other boxes in every order before it finds that the knot
//! never comes undone. The knot is a deadlock of a few boxes that no
//! freeze test sees, and each position that holds it is dead for the same
//! reason.
//!
//! So now and then the boxes off goals of an expanded position (all of
//! them when few, else each group of near neighbours) are searched alone
//! ([`SubsetSearch`]), and so are growing sets of the boxes nearest one of
//! them, in turn, boxes on goals included: many knots hold a box already
//! home. When a set is dead, it is shrunk to a core that is still dead,
//! and kept with the player's area it was proven in. From then on every
//! position holding the core's cells, with the player in that same area
//! (among the core's boxes alone), is dead at once. That is sound: taking
//! boxes away never makes a position harder, and the player's area among
//! fewer boxes is the one proven.
//!
//! Some knots are bigger than six boxes. So a position whose subtree keeps
//! the search busy (see `search::stuck`) is searched another way: all its
//! boxes but those free to move, on a bigger budget, taking away each box
//! that comes free ([`Patterns::learn_stuck`]). Its dead core is kept the
//! same way, and so is a small corral found dead (see `search::expand`).
//!
//! The fences proven at load ([`super::fence`]) are patterns of the
//! same kind, shared by every search of the level: [`PatternSet`] holds
//! either, [`Patterns`] a search's own and the shared ones.

use super::patterns::{Among, PatternSet};
use super::subset::SubsetSearch;
use crate::multi::board::{Board, Cell};
use std::collections::VecDeque;
use std::sync::Arc;

/// Patterns kept at most: a bound on memory and on the time to match.
const MAX_PATTERNS: usize = 4096;

/// Boxes in a set searched for a pattern, at most: a pattern stays small,
/// so it matches many positions.
const PATTERN_BOXES: usize = 6;

/// Boxes in a set [`Patterns::learn_stuck`] searches, at most.
const STUCK_BOXES: usize = 15;

/// Shrinks a dead set to a core that is still dead: each box in turn is
/// dropped when the rest, `least` boxes or more, is still `dead`.
fn shrink(mut core: Vec<Cell>, least: usize, mut dead: impl FnMut(&[Cell]) -> bool) -> Vec<Cell> {
    for i in (0..core.len()).rev() {
        if core.len() > least {
            let mut fewer = core.clone();
            fewer.remove(i);
            if dead(&fewer) {
                core = fewer;
            }
        }
    }
    core
}

/// The patterns learned in one search, and the fences worked out at load.
#[derive(Clone, Debug, Default)]
pub(crate) struct Patterns {
    learned: PatternSet,
    /// Fences proven dead at load ([`super::fence`]), shared.
    fences: Arc<PatternSet>,
    among: Among,
    /// Scratch: marks for the groups and neighbourhoods of boxes.
    alone: Vec<bool>,
    marks: Vec<u32>,
    stamp: u32,
    queue: Vec<Cell>,
    /// Calls to [`Patterns::learn`] so far: whose turn it is to be a seed.
    turn: usize,
}

impl Patterns {
    /// Patterns with the fences proven at load.
    pub fn with_fences(fences: Arc<PatternSet>) -> Patterns {
        Patterns {
            fences,
            ..Patterns::default()
        }
    }

    /// True when `boxes` (marked in `occupied`) hold every cell of a kept
    /// pattern or fence and the player on `player` stands in its dead area.
    /// With `moved`, the position was made by a move that left a box on
    /// that cell from one that held no fence (see
    /// [`PatternSet::matches_moved`]).
    pub fn matches(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        player: Cell,
        moved: Option<Cell>,
    ) -> bool {
        let among = &mut self.among;
        let fenced = match moved {
            Some(cell) => self
                .fences
                .matches_moved(board, (occupied, boxes), cell, player, among),
            None => self.fences.matches(board, occupied, boxes, player, among),
        };
        fenced || self.learned.matches(board, occupied, boxes, player, among)
    }

    /// Searches the boxes off goals of a position (the player on `player`)
    /// alone: all of them when they are [`PATTERN_BOXES`] or fewer, else each
    /// group of neighbours among them. True when a set is dead, and then a
    /// core of it is kept as a pattern.
    pub fn learn(
        &mut self,
        board: &Board,
        subset: &mut SubsetSearch,
        boxes: &[Cell],
        player: Cell,
    ) -> bool {
        let off: Vec<Cell> = boxes
            .iter()
            .copied()
            .filter(|&b| !board.is_goal[b])
            .collect();
        let mut candidates = if off.len() <= PATTERN_BOXES {
            vec![off.clone()]
        } else {
            self.groups(board, &off)
        };
        // One box off a goal per call, in turn, with the boxes around it.
        if !off.is_empty() {
            self.turn = self.turn.wrapping_add(1);
            let seed = off[self.turn % off.len()];
            for near in self.neighbourhoods(board, boxes, seed) {
                if !candidates.contains(&near) {
                    candidates.push(near);
                }
            }
        }
        let Some(core) = candidates
            .into_iter()
            .find(|c| c.len() >= 2 && c.len() <= PATTERN_BOXES && subset.dead(board, c, player))
        else {
            return false;
        };
        let core = shrink(core, 2, |fewer| subset.dead(board, fewer, player));
        self.keep(board, core, player);
        true
    }

    /// Searches the boxes that hold a position fast (see
    /// [`SubsetSearch::held_boxes`]) alone, when they are not all of its
    /// boxes (past [`STUCK_BOXES`], those off goals and the ones home
    /// nearest them): for a position whose subtree keeps the search busy.
    /// True when they are dead, and then a core of them is kept as a
    /// pattern.
    pub fn learn_stuck(
        &mut self,
        board: &Board,
        subset: &mut SubsetSearch,
        boxes: &[Cell],
        player: Cell,
    ) -> bool {
        let mut held = subset.held_boxes(board, boxes, player);
        if held.len() > STUCK_BOXES && held.len() < boxes.len() {
            held = self.nearest_home(board, &held);
        }
        if held.is_empty() || held.len() > STUCK_BOXES || held.len() == boxes.len() {
            return false;
        }
        if !subset.stuck(board, &held, player) {
            return false;
        }
        let core = shrink(held, 1, |fewer| subset.stuck(board, fewer, player));
        self.keep(board, core, player);
        true
    }

    /// The boxes of `held` off goals, and as many of its boxes on goals as
    /// [`STUCK_BOXES`] leaves room for, the nearest to those off goals over
    /// the floor first: a knot is local, and boxes home far from the boxes
    /// still out seldom take part in it. Sorted; all of `held` but boxes
    /// on goals when more than [`STUCK_BOXES`] are off goals.
    fn nearest_home(&mut self, board: &Board, held: &[Cell]) -> Vec<Cell> {
        self.size_for(board);
        let mut kept: Vec<Cell> = held
            .iter()
            .copied()
            .filter(|&b| !board.is_goal[b])
            .collect();
        for &b in held {
            self.alone[b] = true;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        for &b in &kept {
            self.marks[b] = stamp;
        }
        let mut queue: VecDeque<Cell> = kept.iter().copied().collect();
        while let Some(c) = queue.pop_front() {
            if kept.len() >= STUCK_BOXES {
                break;
            }
            for n in board.neighbours(c) {
                if self.marks[n] == stamp {
                    continue;
                }
                self.marks[n] = stamp;
                if self.alone[n] && kept.len() < STUCK_BOXES {
                    kept.push(n);
                }
                queue.push_back(n);
            }
        }
        for &b in held {
            self.alone[b] = false;
        }
        kept.sort_unstable();
        kept
    }

    /// The boxes of `off` in groups: boxes two steps apart or less are in
    /// one group.
    fn groups(&mut self, board: &Board, off: &[Cell]) -> Vec<Vec<Cell>> {
        self.size_for(board);
        for &b in off {
            self.alone[b] = true;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let mut groups = Vec::new();
        for &start in off {
            if self.marks[start] == stamp {
                continue;
            }
            self.marks[start] = stamp;
            let mut group = vec![start];
            let mut i = 0;
            while i < group.len() {
                let b = group[i];
                i += 1;
                for n in board.neighbours(b) {
                    for m in std::iter::once(n).chain(board.neighbours(n)) {
                        if self.alone[m] && self.marks[m] != stamp {
                            self.marks[m] = stamp;
                            group.push(m);
                        }
                    }
                }
            }
            group.sort_unstable();
            groups.push(group);
        }
        for &b in off {
            self.alone[b] = false;
        }
        groups
    }

    /// Around `seed`, the boxes of `boxes` nearest to it over the floor, in
    /// growing sets: the nearest boxes of any kind, and the nearest boxes on
    /// goals. A knot often holds boxes already home (goals
    /// walled in by them, a box that can reach only goals they stand on),
    /// and a small core is proven in a few positions where a search of six
    /// boxes would run out of budget.
    fn neighbourhoods(&mut self, board: &Board, boxes: &[Cell], seed: Cell) -> Vec<Vec<Cell>> {
        self.size_for(board);
        for &b in boxes {
            self.alone[b] = true;
        }
        let mut out: Vec<Vec<Cell>> = Vec::new();
        let mut add = |set: &[Cell]| {
            let mut set = set.to_vec();
            set.sort_unstable();
            if !out.contains(&set) {
                out.push(set);
            }
        };
        let (near, home) = self.nearest(board, seed);
        for k in 2..=near.len() {
            add(&near[..k]);
        }
        for k in 2..=home.len() {
            add(&home[..k]);
        }
        for &b in boxes {
            self.alone[b] = false;
        }
        out
    }

    /// From `seed` over the floor, breadth first: `seed` and the boxes
    /// (marked in `alone`) nearest to it, and `seed` and the nearest boxes
    /// on goals, [`PATTERN_BOXES`] in all at most each.
    fn nearest(&mut self, board: &Board, seed: Cell) -> (Vec<Cell>, Vec<Cell>) {
        self.stamp += 1;
        let stamp = self.stamp;
        self.marks[seed] = stamp;
        let (mut near, mut home) = (vec![seed], vec![seed]);
        let (marks, alone) = (&mut self.marks, &self.alone);
        board.breadth_first(&mut self.queue, seed, |_, _, c| {
            // Both full: the search runs dry.
            let full = near.len() == PATTERN_BOXES && home.len() == PATTERN_BOXES;
            if full || marks[c] == stamp {
                return false;
            }
            marks[c] = stamp;
            if alone[c] {
                if near.len() < PATTERN_BOXES {
                    near.push(c);
                }
                if board.is_goal[c] && home.len() < PATTERN_BOXES {
                    home.push(c);
                }
            }
            true
        });
        (near, home)
    }

    /// Sizes the scratch space for `board`.
    fn size_for(&mut self, board: &Board) {
        if self.marks.len() != board.len() {
            self.marks = vec![0; board.len()];
            self.alone = vec![false; board.len()];
        }
    }

    /// Keeps `core`, dead with the player on `player`, while there is room.
    pub fn keep(&mut self, board: &Board, core: Vec<Cell>, player: Cell) {
        if self.learned.len() >= MAX_PATTERNS {
            return;
        }
        let least = self.among.area_of(board, &core, player);
        self.learned.push(board, core, least);
    }

    /// How many patterns are learned.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.learned.len()
    }

    /// Bytes held, for the memory limit (the shared fences not counted).
    pub fn memory_bytes(&self) -> usize {
        self.learned.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn board(text: &str) -> (crate::level::Level, Board) {
        let level = parse_xsb(text.as_bytes(), 1 << 20).unwrap().remove(0);
        let board = Board::new(&level).unwrap();
        (level, board)
    }

    /// Two boxes side by side against the top wall, off the goals along it:
    /// neither can ever move, wherever the third box is.
    const KNOT: &str = "##########\n\
                        #  $$ ...#\n\
                        #        #\n\
                        # $  @   #\n\
                        #        #\n\
                        ##########";

    #[test]
    fn a_dead_knot_is_kept_and_found_again_among_other_boxes() {
        let (level, b) = board(KNOT);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut subset = SubsetSearch::default();
        let mut patterns = Patterns::default();
        let mut occupied = vec![false; b.len()];
        let mut boxes = b.start_boxes.clone();
        boxes.sort_unstable();
        let player = b.start_player;
        assert!(patterns.learn(&b, &mut subset, &boxes, player));
        // The core is the knot alone: the third box is not part of it.
        assert_eq!(patterns.len(), 1);
        let mut knot = vec![at(1, 3), at(1, 4)];
        knot.sort_unstable();
        assert_eq!(patterns.learned.pattern(0).0, knot);
        // The knot with the third box elsewhere: dead at once.
        let mut other = vec![at(1, 3), at(1, 4), at(2, 7)];
        other.sort_unstable();
        for &x in &other {
            occupied[x] = true;
        }
        assert!(patterns.matches(&b, &occupied, &other, player, None));
        // Without the knot: not matched.
        occupied.fill(false);
        let mut free = vec![at(1, 3), at(2, 4), at(2, 7)];
        free.sort_unstable();
        for &x in &free {
            occupied[x] = true;
        }
        assert!(!patterns.matches(&b, &occupied, &free, player, None));
    }

    #[test]
    fn the_boxes_holding_a_busy_position_are_kept_when_dead() {
        // Two boxes seal a pocket off the goals; the four in the room above
        // are free to move, and left out of the search.
        let (level, b) = board(crate::multi::testing::SEALED);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut subset = SubsetSearch::default();
        let mut patterns = Patterns::default();
        let player = b.start_player;
        assert!(patterns.learn_stuck(&b, &mut subset, &b.start_boxes, player));
        // Neither box of the seal is dead alone: the core is both.
        let seal = [at(5, 4), at(5, 5)];
        assert_eq!(
            (patterns.len(), patterns.learned.pattern(0).0),
            (1, &seal[..])
        );
        // The seal with the other boxes anywhere: dead at once.
        let mut occupied = vec![false; b.len()];
        let mut other = vec![at(1, 5), at(3, 2), seal[0], seal[1]];
        other.sort_unstable();
        for &x in &other {
            occupied[x] = true;
        }
        assert!(patterns.matches(&b, &occupied, &other, player, None));
        // A live position (the seal pushed up onto goals) teaches nothing.
        let mut patterns = Patterns::default();
        let mut open = vec![at(2, 5), at(2, 3), at(3, 7), at(4, 4), at(4, 5), at(2, 8)];
        open.sort_unstable();
        assert!(!patterns.learn_stuck(&b, &mut subset, &open, player));
        assert_eq!(patterns.len(), 0);
    }

    #[test]
    fn among_many_boxes_off_goals_the_dead_group_is_found() {
        // Eight boxes off goals, more than one search takes: the knot at
        // the top is searched as a group of its own.
        let (level, b) = board(
            "############\n\
             #  $$ ....##\n\
             #          #\n\
             # $  $  $  #\n\
             #          #\n\
             # $  $ @ $ #\n\
             #   ....   #\n\
             ############",
        );
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut boxes = b.start_boxes.clone();
        boxes.sort_unstable();
        assert!(boxes.len() > PATTERN_BOXES);
        let mut patterns = Patterns::default();
        assert!(patterns.learn(&b, &mut SubsetSearch::default(), &boxes, b.start_player));
        let mut knot = [at(1, 3), at(1, 4)];
        knot.sort_unstable();
        assert_eq!(
            (patterns.len(), patterns.learned.pattern(0).0),
            (1, &knot[..])
        );
    }

    #[test]
    fn a_knot_with_a_box_already_home_is_found() {
        // The loose box can reach only the goal the other box stands on,
        // and that box can never leave it: neither alone is dead.
        let (level, b) = board(
            "#########\n\
             #@.$ *  #\n\
             #########",
        );
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut subset = SubsetSearch::default();
        for alone in [[at(1, 3)], [at(1, 5)]] {
            assert!(!subset.dead(&b, &alone, b.start_player));
        }
        let mut boxes = b.start_boxes.clone();
        boxes.sort_unstable();
        let mut patterns = Patterns::default();
        assert!(patterns.learn(&b, &mut subset, &boxes, b.start_player));
        assert_eq!(
            (patterns.len(), patterns.learned.pattern(0).0),
            (1, &boxes[..])
        );
    }

    #[test]
    fn boxes_that_can_reach_goals_teach_nothing() {
        let (_, b) = board(
            "#######\n\
             #     #\n\
             # $$  #\n\
             # ..@ #\n\
             #######",
        );
        let mut subset = SubsetSearch::default();
        let mut patterns = Patterns::default();
        let mut boxes = b.start_boxes.clone();
        boxes.sort_unstable();
        assert!(!patterns.learn(&b, &mut subset, &boxes, b.start_player));
        assert_eq!(patterns.len(), 0);
    }

    #[test]
    fn every_match_agrees_with_brute_force() {
        use crate::multi::testing::{random_level, solvable};
        let mut rng = crate::rng::Rng::new(0x5EED_4A77);
        let (mut kept, mut matched) = (0, 0);
        for case in 0..4000 {
            let Some(b) = random_level(&mut rng, case) else {
                continue;
            };
            let mut boxes = b.start_boxes.clone();
            boxes.sort_unstable();
            let mut patterns = Patterns::default();
            if !patterns.learn(&b, &mut SubsetSearch::default(), &boxes, b.start_player) {
                continue;
            }
            kept += 1;
            let core = patterns.learned.pattern(0).0.to_vec();
            assert!(
                !solvable(&b, &core, b.start_player),
                "case {case}: a live core"
            );
            // The core with one more box anywhere, the player anywhere.
            for extra in b.cells() {
                let player = Cell::new(rng.below(b.len()));
                if core.contains(&extra) || extra == player || core.contains(&player) {
                    continue;
                }
                let mut more = core.clone();
                more.push(extra);
                more.sort_unstable();
                let mut occupied = vec![false; b.len()];
                for &x in &more {
                    occupied[x] = true;
                }
                if patterns.matches(&b, &occupied, &more, player, None) {
                    matched += 1;
                    assert!(
                        !solvable(&b, &more, player),
                        "case {case}: matched but solvable"
                    );
                }
            }
        }
        // Patterns are kept and matched often enough for the check to mean something.
        assert!(kept > 20 && matched > 100, "kept {kept} matched {matched}");
    }
}
