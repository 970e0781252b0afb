//! PI-corral pruning: when boxes fence off an area the player cannot enter,
//! and every push of those boxes goes into the area and can be made now, some
//! push into the area is needed before anything else matters.
//!
//! A corral is a connected area of free cells the player cannot reach, and
//! its boxes are all boxes next to it (areas sharing a box are merged). Until
//! one of its boxes moves, the player stays outside it. It qualifies (PI) when,
//! for each of its boxes and each direction with room on both sides,
//!
//! - **P**: a push into the corral can be made now or never before the
//!   corral's boxes move: the player's cell for it is reachable now, or inside
//!   the corral, or holds another of the corral's boxes;
//! - **I**: a push that does not go into the corral cannot be made before the
//!   corral's boxes move: the player's cell for it is inside the corral or
//!   holds another of its boxes;
//!
//! and it is not finished (some box of it off a goal, or a goal in it empty).
//! Pushes no solution makes before a corral box moves count for neither
//! test: onto a dead square, into another box of the corral, or where the
//! pushed box freezes off its goal with the corral's boxes alone (they stay
//! put until then, whatever the other boxes do). Nor does a push whose
//! player cell holds an outside box that cannot move first: along the push
//! the corral box holds it, and across it a wall or a corral box stands on
//! one side, or dead squares on both (as YASS's corral pruning reasons).
//! Then any solution's first push of a corral box goes into the corral and is
//! possible now; making it first changes only cells the other pushes before
//! it never used (and frees one), so the solution stays as short: expanding
//! only those pushes keeps A* push-optimal. With none of them left (the rest
//! go to dead squares) the position is dead. The corral with the fewest
//! pushes is used.
//!
//! Merged corrals can hold a dozen boxes and more, too many for a subset
//! search to prove dead. So the boxes of each area alone, and of growing
//! unions of areas sharing boxes, are offered too ([`Corrals::small_sets`]),
//! as YASS tests its corrals room by room.

use super::freeze::Freeze;
use super::subset::MAX_BOXES;
use crate::grid::Direction;
use crate::multi::board::{Board, Cell, across};

/// Scratch space for finding corrals.
#[derive(Clone, Debug, Default)]
pub(crate) struct Corrals {
    /// Area label per cell (`u32::MAX` for reachable cells and boxes).
    area: Vec<u32>,
    queue: Vec<Cell>,
    /// Union-find over area labels, to merge areas sharing a barrier box.
    parent: Vec<u32>,
    /// Per cell holding a box next to a corral, that corral (else `NO_AREA`).
    owner: Vec<u32>,
    /// Per corral, whether some box of it is off a goal or a goal in it empty.
    unfinished: Vec<bool>,
    /// The boxes of each unfinished corral of the last call (the first `found`).
    sets: Vec<Vec<Cell>>,
    found: usize,
    /// Per cell, whether it holds a box of the corral being tested.
    corral_box: Vec<bool>,
    freeze: Freeze,
    small: SmallSets,
}

const NO_AREA: u32 = u32::MAX;

/// Adds to a corral's boxes `set` (sorted) the boxes touching them, side by
/// side, and the boxes touching those, up to [`MAX_BOXES`] in all; keeps
/// it sorted. A box that holds a corral box in place belongs with it in a
/// deadlock test: in a door with a corral box behind it, it keeps the
/// player out as surely as the corral's own boxes (any set of boxes is
/// sound to test, see [`super::subset`]).
fn add_touching_boxes(board: &Board, occupied: &[bool], set: &mut Vec<Cell>) {
    let mut next = 0;
    while next < set.len() && set.len() < MAX_BOXES {
        let b = set[next];
        next += 1;
        for c in board.neighbours(b) {
            if occupied[c] && !set.contains(&c) && set.len() < MAX_BOXES {
                set.push(c);
            }
        }
    }
    set.sort_unstable();
}

/// Box sets by index into a position's sorted boxes, as rows of `words`
/// 64-bit words in flat vectors, with the scratch [`Corrals::small_sets`]
/// needs: it runs at every expansion, and a vector a set cost a tenth of
/// the search's time in the allocator.
#[derive(Clone, Debug, Default)]
struct SmallSets {
    words: usize,
    /// Per area, the boxes beside it.
    of: Vec<u64>,
    /// Per box, its group of boxes touching side by side (a row of `groups`).
    group_of: Vec<u32>,
    groups: Vec<u64>,
    /// The set grown from one area, and it with the boxes touching it.
    set: Vec<u64>,
    with: Vec<u64>,
    in_group: Vec<bool>,
    stack: Vec<usize>,
    /// The sets offered, as bits (to offer each once) and as cells, one
    /// after another; `found` holds each one's range in `cells`.
    seen: Vec<u64>,
    cells: Vec<Cell>,
    found: Vec<std::ops::Range<usize>>,
}

fn insert(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn count(bits: &[u64]) -> usize {
    bits.iter().map(|w| w.count_ones() as usize).sum()
}

fn meets(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(a, b)| a & b != 0)
}

/// Members of `a` not in `b`.
fn count_outside(a: &[u64], b: &[u64]) -> usize {
    a.iter()
        .zip(b)
        .map(|(a, b)| (a & !b).count_ones() as usize)
        .sum()
}

fn add(to: &mut [u64], other: &[u64]) {
    to.iter_mut().zip(other).for_each(|(a, b)| *a |= b);
}

fn members(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(k, &w)| {
        std::iter::successors(Some(w), |&m| Some(m & m.wrapping_sub(1)))
            .take_while(|&m| m != 0)
            .map(move |m| k * 64 + m.trailing_zeros() as usize)
    })
}

impl SmallSets {
    /// Empties the scratch for `areas` areas and `boxes` boxes.
    fn reset(&mut self, areas: usize, boxes: usize) {
        self.words = boxes.div_ceil(64);
        self.of.clear();
        self.of.resize(areas * self.words, 0);
        self.in_group.clear();
        self.in_group.resize(areas, false);
        self.seen.clear();
        self.cells.clear();
        self.found.clear();
    }

    fn of(&self, area: usize) -> &[u64] {
        &self.of[area * self.words..(area + 1) * self.words]
    }

    /// Starts the set grown from area `a`: its boxes alone.
    fn start_at(&mut self, a: usize) {
        self.in_group.fill(false);
        self.in_group[a] = true;
        let words = self.words;
        self.set.clear();
        self.set
            .extend_from_slice(&self.of[a * words..(a + 1) * words]);
    }

    /// Grows the set by area `b`'s boxes.
    fn grow_by(&mut self, b: usize) {
        self.in_group[b] = true;
        let words = self.words;
        add(&mut self.set, &self.of[b * words..(b + 1) * words]);
    }

    /// Per box (by index in `boxes`), the boxes of its group of boxes
    /// touching side by side, as [`add_touching_boxes`] finds them from
    /// that box.
    fn touching_groups(&mut self, board: &Board, occupied: &[bool], boxes: &[Cell]) {
        let words = self.words;
        self.group_of.clear();
        self.group_of.resize(boxes.len(), u32::MAX);
        self.groups.clear();
        for start in 0..boxes.len() {
            if self.group_of[start] != u32::MAX {
                continue;
            }
            let g = self.groups.len() / words;
            self.groups.resize((g + 1) * words, 0);
            self.group_of[start] = g as u32;
            self.stack.push(start);
            while let Some(i) = self.stack.pop() {
                insert(&mut self.groups[g * words..], i);
                for c in board.neighbours(boxes[i]).filter(|&c| occupied[c]) {
                    let j = boxes.binary_search(&c).expect("a box");
                    if self.group_of[j] == u32::MAX {
                        self.group_of[j] = g as u32;
                        self.stack.push(j);
                    }
                }
            }
        }
    }

    /// Offers `with` (boxes by index in `boxes`) unless it was offered.
    fn offer_with(&mut self, boxes: &[Cell]) {
        let words = self.words;
        if self.seen.chunks(words).any(|s| s == self.with) {
            return;
        }
        self.seen.extend_from_slice(&self.with);
        let start = self.cells.len();
        self.cells.extend(members(&self.with).map(|i| boxes[i]));
        self.found.push(start..self.cells.len());
    }

    /// Sets `with` to `set` and the groups touching its boxes.
    fn touching_set(&mut self) {
        self.with.clear();
        self.with.extend_from_slice(&self.set);
        let words = self.words;
        for i in members(&self.set) {
            let g = self.group_of[i] as usize;
            add(&mut self.with, &self.groups[g * words..(g + 1) * words]);
        }
    }

    /// The area not grown into yet sharing a box with `set` that adds the
    /// fewest boxes to it, and that number.
    fn next_area(&self, areas: usize) -> Option<(usize, usize)> {
        (0..areas)
            .filter(|&b| !self.in_group[b] && meets(self.of(b), &self.set))
            .map(|b| (count_outside(self.of(b), &self.set), b))
            .min()
    }
}

impl Corrals {
    /// The pushes (box cell, direction) to expand instead of all of them, or
    /// `None` when no PI-corral exists. `reached(c)` says whether the player
    /// reaches free cell `c`; `occupied[c]` whether `c` holds a box.
    pub fn restrict(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        reached: impl Fn(Cell) -> bool,
    ) -> Option<Vec<(Cell, Direction)>> {
        self.found = 0;
        self.label_areas(board, occupied, &reached);
        if self.parent.is_empty() {
            return None;
        }
        self.merge_areas(board, occupied, boxes);
        // Per unfinished corral: is it PI, and its pushes.
        let mut best: Option<Vec<(Cell, Direction)>> = None;
        let mut pushes = Vec::new();
        for root in 0..self.parent.len() as u32 {
            if self.parent[root as usize] != root || !self.unfinished[root as usize] {
                continue;
            }
            // Keep its boxes for [`Corrals::found`], PI or not.
            if self.sets.len() == self.found {
                self.sets.push(Vec::new());
            }
            let set = &mut self.sets[self.found];
            set.clear();
            set.extend(boxes.iter().filter(|&&b| self.owner[b] == root));
            add_touching_boxes(board, occupied, set);
            self.found += 1;
            let pi = self.pi_pushes(board, occupied, boxes, root, &reached, &mut pushes);
            if pi && best.as_ref().is_none_or(|p| pushes.len() < p.len()) {
                best = Some(pushes.clone());
            }
        }
        for &b in boxes {
            self.owner[b] = NO_AREA;
        }
        best
    }

    /// Labels the free areas the player does not reach, one label each.
    fn label_areas(&mut self, board: &Board, occupied: &[bool], reached: impl Fn(Cell) -> bool) {
        self.area.clear();
        self.area.resize(board.len(), NO_AREA);
        self.parent.clear();
        for start in board.cells() {
            if occupied[start] || reached(start) || self.area[start] != NO_AREA {
                continue;
            }
            let label = self.parent.len() as u32;
            self.parent.push(label);
            let area = &mut self.area;
            board.flood_marking(occupied, &mut self.queue, start, |c| {
                let new = area[c] == NO_AREA;
                if new {
                    area[c] = label;
                }
                new
            });
        }
    }

    /// Merges areas that touch the same box into corrals, and works out per
    /// box its corral (each box is next to at most one after the merge) and
    /// per corral whether it is unfinished (a box off a goal, or an empty
    /// goal inside).
    fn merge_areas(&mut self, board: &Board, occupied: &[bool], boxes: &[Cell]) {
        for &b in boxes {
            let mut first = None;
            for x in board.neighbours(b) {
                if self.area[x] != NO_AREA {
                    let r = self.find(self.area[x]);
                    match first {
                        None => first = Some(r),
                        Some(f) if f != r => self.parent[r as usize] = f,
                        _ => {}
                    }
                }
            }
        }
        // Every label points straight at its merged corral's root, so that a
        // corral test is two lookups.
        for a in 0..self.parent.len() as u32 {
            let r = self.find(a);
            self.parent[a as usize] = r;
        }
        self.unfinished.clear();
        self.unfinished.resize(self.parent.len(), false);
        self.owner.resize(board.len(), NO_AREA);
        for &b in boxes {
            if let Some(x) = board.neighbours(b).find(|&x| self.area[x] != NO_AREA) {
                let root = self.parent[self.area[x] as usize];
                self.owner[b] = root;
                self.unfinished[root as usize] |= !board.is_goal[b];
            }
        }
        for &g in &board.goals {
            let label = self.area[g];
            if label != NO_AREA && !occupied[g] {
                self.unfinished[self.parent[label as usize] as usize] = true;
            }
        }
    }

    /// True when the corral with root `root` is PI; its pushes into the
    /// corral that can be made now are left in `pushes`. Pushes no solution
    /// makes before a corral box moves are left out of both tests (see
    /// [`Corrals::never_first`]).
    fn pi_pushes(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        root: u32,
        reached: impl Fn(Cell) -> bool,
        pushes: &mut Vec<(Cell, Direction)>,
    ) -> bool {
        pushes.clear();
        self.mark_corral_boxes(boxes, root);
        let mut pi = true;
        'boxes: for &b in boxes {
            if self.owner[b] != root {
                continue;
            }
            for dir in Direction::ALL {
                let (Some(ahead), Some(behind)) =
                    (board.step(b, dir), board.step(b, dir.opposite()))
                else {
                    continue; // against a wall: never possible
                };
                // Where the player could stand to make this push before
                // any box of the corral moves: a reachable cell, or a cell
                // freed by moving some other box.
                let outside_box = occupied[behind] && self.owner[behind] != root;
                let standing_now = !occupied[behind] && reached(behind);
                if !(outside_box || standing_now) || self.never_first(board, occupied, b, dir) {
                    continue;
                }
                let area = self.area[ahead];
                if area != NO_AREA && self.parent[area as usize] == root {
                    if outside_box && !self.held(board, occupied, behind, dir) {
                        pi = false; // P: possible later, not now
                        break 'boxes;
                    }
                    if standing_now {
                        pushes.push((b, dir));
                    }
                } else {
                    pi = false; // I: a push that leaves the corral alone
                    break 'boxes;
                }
            }
        }
        for &b in boxes {
            self.corral_box[b] = false;
        }
        pi
    }

    /// Marks the boxes of the corral with root `root` in `corral_box`.
    fn mark_corral_boxes(&mut self, boxes: &[Cell], root: u32) {
        self.corral_box.resize(self.owner.len(), false);
        for &b in boxes {
            self.corral_box[b] = self.owner[b] == root;
        }
    }

    /// True when no solution pushes the corral box on `b` in `dir` before
    /// some box of the corral has moved: onto a dead square, into another
    /// box of the corral, or where it freezes with the corral's boxes alone
    /// (they stay put until then, whatever the other boxes do). The corral's
    /// boxes are marked in `corral_box`.
    fn never_first(&mut self, board: &Board, occupied: &[bool], b: Cell, dir: Direction) -> bool {
        let Some(ahead) = board.step(b, dir) else {
            return true;
        };
        if board.dead[ahead] || self.corral_box[ahead] {
            return true;
        }
        if occupied[ahead] {
            return false;
        }
        self.corral_box[b] = false;
        self.corral_box[ahead] = true;
        let frozen = self.freeze.deadlocked(board, &self.corral_box, ahead);
        self.corral_box[ahead] = false;
        self.corral_box[b] = true;
        frozen
    }

    /// True when the box outside the corral on `behind` cannot move before
    /// a box of the corral does, so a push of the corral box beyond it in
    /// `dir` waits for that too: along `dir` the corral box holds it, and
    /// across, a wall or a corral box stands on one side, or both sides are
    /// dead squares. The corral's boxes are marked in `corral_box`.
    fn held(&self, board: &Board, occupied: &[bool], behind: Cell, dir: Direction) -> bool {
        let [left, right] = across(dir).map(|d| board.step(behind, d));
        let holds = |x: Option<Cell>| x.is_none_or(|x| self.corral_box[x]);
        let dead = |x: Option<Cell>| x.is_some_and(|x| board.dead[x] && !occupied[x]);
        holds(left) || holds(right) || (dead(left) && dead(right))
    }

    /// The boxes of each unfinished corral seen by the last
    /// [`Corrals::restrict`], PI or not, sorted: the boxes next to it, and
    /// the boxes touching those (see [`add_touching_boxes`]).
    pub fn found(&self) -> &[Vec<Cell>] {
        &self.sets[..self.found]
    }

    /// The boxes around each area the player does not reach, of the last
    /// [`Corrals::restrict`], and around growing unions of areas sharing
    /// boxes, each with the boxes touching them: the sets of `limit` boxes
    /// or fewer, smallest first, each once and sorted. A corral merges
    /// every area sharing a box, and a dead fence among its boxes hides in
    /// a set too big to search; these are the small ones.
    pub fn small_sets(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        limit: usize,
    ) -> impl Iterator<Item = &[Cell]> {
        debug_assert!(
            limit <= MAX_BOXES,
            "touching boxes are added up to MAX_BOXES"
        );
        let areas = self.parent.len();
        let s = &mut self.small;
        s.reset(areas, boxes.len());
        for (i, &b) in boxes.iter().enumerate() {
            for x in board.neighbours(b) {
                if self.area[x] != NO_AREA {
                    insert(&mut s.of[self.area[x] as usize * s.words..], i);
                }
            }
        }
        s.touching_groups(board, occupied, boxes);
        for a in 0..areas {
            let len = count(s.of(a));
            if len == 0 || len > limit {
                continue;
            }
            // Grow from `a`: the area sharing a box that adds fewest boxes.
            s.start_at(a);
            loop {
                s.touching_set();
                if count(&s.with) <= limit {
                    s.offer_with(boxes);
                }
                match s.next_area(areas) {
                    Some((more, b)) if count(&s.set) + more <= limit => s.grow_by(b),
                    _ => break,
                }
            }
        }
        s.found.sort_by_key(|r| r.len());
        let s = &self.small;
        s.found.iter().map(|r| &s.cells[r.clone()])
    }

    fn find(&mut self, mut a: u32) -> u32 {
        while self.parent[a as usize] != a {
            let up = self.parent[self.parent[a as usize] as usize];
            self.parent[a as usize] = up;
            a = up;
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    /// The corrals of a board's start position, and the restriction found.
    fn at_start(board: &Board) -> (Corrals, Option<Vec<(Cell, Direction)>>) {
        let mut occupied = vec![false; board.len()];
        for &b in &board.start_boxes {
            occupied[b] = true;
        }
        // The player's area, by a plain flood.
        let mut reach = vec![0; board.len()];
        board.flood_player(
            &occupied,
            &mut reach,
            1,
            &mut Vec::new(),
            board.start_player,
        );
        let mut corrals = Corrals::default();
        let pushes = corrals.restrict(board, &occupied, &board.start_boxes, |c| reach[c] == 1);
        (corrals, pushes)
    }

    /// The restriction at a level's start position, as (row, col, direction),
    /// in reading order.
    fn restricted(text: &str) -> Option<Vec<(usize, usize, Direction)>> {
        let level = &parse_xsb(text.as_bytes(), 1000).unwrap()[0];
        let board = Board::new(level).unwrap();
        let pushes = at_start(&board).1?;
        let mut found: Vec<_> = pushes
            .into_iter()
            .map(|(b, d)| {
                let (r, c) = level.grid.position(board.cells[b]);
                (r, c, d)
            })
            .collect();
        found.sort_by_key(|&(r, c, d)| (r, c, d.index()));
        Some(found)
    }

    #[test]
    fn a_box_in_a_doorway_is_the_only_push() {
        let level = "########\n#   #  #\n# @ $ .#\n#   #  #\n########";
        assert_eq!(restricted(level), Some(vec![(2, 4, Direction::East)]));
    }

    #[test]
    fn a_push_that_stays_outside_spoils_it() {
        // The box can also go east, away from the pocket below it (I fails).
        let level = "#######\n#@    #\n#  $  #\n# #.# #\n#######";
        assert_eq!(restricted(level), None);
    }

    #[test]
    fn a_push_blocked_by_an_outside_box_spoils_it() {
        // The doorway box could be pushed east once the box behind it moves
        // up onto the goal there (P fails).
        let level = "########\n#  .#  #\n#@ $$ .#\n#   #  #\n########";
        assert_eq!(restricted(level), None);
    }

    #[test]
    fn a_push_into_another_box_of_the_corral_is_left_out() {
        // The right box could go west only into the left one: not a way
        // out, so both pushes down into the pocket are all there is.
        let level = "######\n#@   #\n#$$  #\n#..###\n######";
        let pushes = restricted(level).expect("a PI-corral");
        assert_eq!(
            pushes,
            vec![(2, 1, Direction::South), (2, 2, Direction::South)]
        );
    }

    #[test]
    fn an_outside_box_that_cannot_move_first_keeps_the_corral_shut() {
        // The doorway box goes east only with the player where the box
        // beside it stands, and that box is held by the walls above and
        // below it and by the doorway box: the room can never be opened.
        let level = "########\n# .##  #\n#@ $$ .#\n#  ##  #\n########";
        assert_eq!(restricted(level), Some(vec![]));
    }

    #[test]
    fn a_push_that_freezes_with_the_corral_boxes_is_left_out() {
        // Pushed down, the left box would stick off its goal beside the box
        // in the corner; the other two pushes down are left.
        let level = "#######\n#@ .. #\n##$$$##\n#*  .##\n#######";
        let pushes = restricted(level).expect("a PI-corral");
        assert_eq!(
            pushes,
            vec![(2, 3, Direction::South), (2, 4, Direction::South)]
        );
    }

    #[test]
    fn finished_corrals_are_ignored_and_dead_ones_have_no_push() {
        // The pocket's only box is on its goal and the pocket has no goal.
        let done = "#######\n#@ .  #\n#  *  #\n# # # #\n#######";
        assert_eq!(restricted(done.replacen('.', " ", 1).as_str()), None);
        // The box can only go down into a dead pocket: no push is left.
        let dead = "#####\n#@ .#\n##$##\n## ##\n#####";
        assert_eq!(restricted(dead), Some(vec![]));
    }

    #[test]
    fn a_box_holding_a_corral_box_in_a_door_joins_its_set() {
        // Two doors into the room below: the west one's box can only go down
        // and stick there, the east one's box has a box behind it. The east
        // door box touches no cell of the room, only the box behind it.
        let text = "#########\n#@.. .. #\n####$#$##\n#     $ #\n#   $   #\n#       #\n#########";
        let level = &parse_xsb(text.as_bytes(), 1000).unwrap()[0];
        let board = Board::new(level).unwrap();
        let at = |row, col| board.compact(level.grid.cell(row, col));
        let player = board.start_player;
        let (corrals, _) = at_start(&board);
        let [set] = corrals.found() else {
            panic!("one corral: {:?}", corrals.found());
        };
        assert_eq!(set, &board.start_boxes);
        // With the east door box the room is shut for good; without it the
        // player walks in and the boxes can reach the goals.
        let mut subset = crate::multi::deadlock::subset::SubsetSearch::default();
        assert!(subset.dead(&board, set, player));
        let without: Vec<Cell> = set.iter().copied().filter(|&b| b != at(2, 6)).collect();
        assert!(!subset.dead(&board, &without, player));
    }

    #[test]
    fn a_dead_fence_hides_among_a_big_corral_in_a_small_set() {
        // Boxxle I 59 two pushes in: one corral of 14 boxes, too many to
        // search, holds a fence of five around two areas that is dead.
        let text = std::fs::read_to_string("tests/data/fence/boxxle59-dead.xsb").unwrap();
        let level = &parse_xsb(text.as_bytes(), 1000).unwrap()[0];
        let board = Board::new(level).unwrap();
        let (mut corrals, _) = at_start(&board);
        let fences = std::sync::Arc::new(crate::multi::deadlock::fence::fences(&board, &|| false));
        let mut subset = crate::multi::deadlock::subset::SubsetSearch::with_fences(fences);
        let player = board.start_player;
        let [big] = corrals.found() else {
            panic!("one corral: {:?}", corrals.found());
        };
        assert!(big.len() >= 14, "{big:?}");
        assert!(!subset.dead(&board, big, player));
        let mut occupied = vec![false; board.len()];
        for &b in &board.start_boxes {
            occupied[b] = true;
        }
        let sets: Vec<Vec<Cell>> = corrals
            .small_sets(&board, &occupied, &board.start_boxes, 8)
            .map(<[Cell]>::to_vec)
            .collect();
        assert!(sets.iter().all(|s| s.len() <= 8) && sets.is_sorted_by_key(Vec::len));
        let at = |r, c| board.compact(level.grid.cell(r, c));
        let mut fence = vec![at(10, 3), at(9, 4), at(10, 4), at(11, 5), at(11, 8)];
        fence.sort_unstable();
        assert!(sets.contains(&fence), "{sets:?}");
        assert!(subset.dead(&board, &fence, player));
        // The fences proven at load are what make it cheap.
        let mut plain = crate::multi::deadlock::subset::SubsetSearch::default();
        assert!(!plain.dead(&board, &fence, player));
    }
}
