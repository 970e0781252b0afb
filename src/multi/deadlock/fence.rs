//! Fences: a few boxes around a pocket of floor, proven dead at load.
//!
//! Boxes that close a pocket (a cell or two of floor, a dead end, a room
//! the player cannot enter) are often dead for good: each can only be
//! pushed into the pocket, where it sticks, or along the fence into
//! another of its boxes. No freeze
//! test sees that, for every box can still move. A corral test sees it once
//! the pocket is closed in a search, but a corral's boxes are searched
//! alone, and a search of many boxes that walks into a smaller fence of its
//! own runs out of budget before it can tell.
//!
//! So at load every pocket's fence is searched alone ([`SubsetSearch`]),
//! with the player in each area outside it, and so is the fence with one
//! box more beside it (a box that holds a fence box in place). The dead
//! ones are kept as patterns: the main search drops a position that holds
//! one (see [`super::learned`]), and a subset search drops a child
//! that does, which is what lets it prove bigger fences in a few positions.
//! Smaller fences are proven first, so the bigger ones are searched with
//! them.

use super::freeze::Freeze;
use super::patterns::{Among, PatternSet};
use super::subset::SubsetSearch;
use crate::multi::board::{Board, Cell};
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// Boxes in a fence, at most: the pocket's fence and one holder.
const MAX_FENCE: usize = 6;

/// Fences tried at load, at most: on a level of a hundred floor cells some
/// four thousand are, in a tenth of a second; on bigger ones this bounds
/// the time.
const MAX_CANDIDATES: usize = 20_000;

/// Levels of more floor cells have no fences: every flood of a candidate
/// costs as much as the board, and in open floor nearly none is dead.
const MAX_CELLS: usize = 2_000;

/// A pocket grown past this many fence cells is given up on: in open floor
/// the fence only grows.
const WIDE_FENCE: usize = 4 * MAX_FENCE;

/// Positions each search may expand: a fence is dead in a few positions
/// or not at all, and twenty prove nearly every fence forty do, in half
/// the time.
const BUDGET: usize = 20;

/// Floor cells in a pocket, at most.
const MAX_POCKET: usize = 30;

/// The fences of `board` proven dead, each with the player's area it is
/// dead in, found until `give_up` says to stop (those proven by then are
/// kept: each is sound alone).
pub(crate) fn fences(board: &Board, give_up: &dyn Fn() -> bool) -> PatternSet {
    let mut set = PatternSet::default();
    let Some(candidates) = candidates(board, give_up) else {
        return set;
    };
    let mut among = Among::default();
    let mut freeze = Freeze::default();
    let mut occupied = vec![false; board.len()];
    for size in 1..=MAX_FENCE {
        let fenced = SubsetSearch::with_fences(Arc::new(set.clone()));
        let mut subset = fenced.with_budget(BUDGET);
        let mut proven = Vec::new();
        for (fence, pocket) in candidates.iter().filter(|(f, _)| f.len() == size) {
            if give_up() {
                break;
            }
            for &c in fence {
                occupied[c] = true;
            }
            // A frozen fence is found by the freeze tests anyway.
            let frozen = fence
                .iter()
                .any(|&c| freeze.deadlocked(board, &occupied, c));
            for player in outside_areas(board, fence, *pocket, &mut among) {
                let known = frozen || set.matches(board, &occupied, fence, player, &mut among);
                if !known && subset.dead(board, fence, player) {
                    proven.push((fence.clone(), player));
                }
            }
            for &c in fence {
                occupied[c] = false;
            }
        }
        for (fence, player) in proven {
            set.push(board, fence, player);
        }
    }
    set
}

/// The least cells of the areas among `fence` alone that the player may
/// stand in: all but the pocket's.
fn outside_areas(board: &Board, fence: &[Cell], pocket: Cell, among: &mut Among) -> Vec<Cell> {
    let inside = among.area_of(board, fence, pocket);
    let mut areas = Vec::new();
    for &f in fence {
        for n in board.neighbours(f) {
            if fence.contains(&n) {
                continue;
            }
            let least = among.area_of(board, fence, n);
            if least != inside && !areas.contains(&least) {
                areas.push(least);
            }
        }
    }
    areas
}

/// Every pocket's fence, and each fence with one box beside it, with a cell
/// of its pocket: sorted, each set once, none on a dead square. `None`
/// when `give_up` says to stop first.
fn candidates(board: &Board, give_up: &dyn Fn() -> bool) -> Option<Vec<(Vec<Cell>, Cell)>> {
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    if board.len() > MAX_CELLS {
        return Some(out);
    }
    for x in board.cells() {
        if give_up() {
            return None;
        }
        if out.len() >= MAX_CANDIDATES {
            break;
        }
        for pocket in pockets(board, x) {
            let fence = around(board, &pocket, &[]);
            if fence.iter().any(|&c| board.dead[c]) {
                continue;
            }
            let mut add = |set: Vec<Cell>| {
                if seen.insert(set.clone()) {
                    out.push((set, x));
                }
            };
            for holder in around(board, &fence, &pocket) {
                if !board.dead[holder] {
                    let mut more = fence.clone();
                    more.push(holder);
                    more.sort_unstable();
                    add(more);
                }
            }
            add(fence);
        }
    }
    Some(out)
}

/// The pockets holding `x` whose fences are small (sorted): `x` alone, `x`
/// with each neighbour, the cells within each distance of `x` (a room or a
/// dead end around it), and the regions grown from `x` a cell at a time,
/// each time by the fence cell that leaves the smallest fence.
fn pockets(board: &Board, x: Cell) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    let mut keep = |p: &[Cell], fence: usize| {
        if fence > 0 && fence < MAX_FENCE {
            let mut p = p.to_vec();
            p.sort_unstable();
            if !out.contains(&p) {
                out.push(p);
            }
        }
    };
    keep(&[x], board.neighbours(x).count());
    for y in board.neighbours(x).filter(|&y| y > x) {
        keep(&[x, y], around(board, &[x, y], &[]).len());
    }
    let mut ball = vec![x];
    while ball.len() < MAX_POCKET {
        let rim = around(board, &ball, &[]);
        if rim.is_empty() || rim.len() > WIDE_FENCE {
            break;
        }
        ball.extend(rim);
        keep(&ball, around(board, &ball, &[]).len());
    }
    let mut region = vec![x];
    let mut fence = around(board, &region, &[]);
    while region.len() < MAX_POCKET && !fence.is_empty() && fence.len() <= WIDE_FENCE {
        // Taking `y` in trades it for its neighbours outside both.
        let new = |y: Cell| {
            board
                .neighbours(y)
                .filter(|n| !region.contains(n) && !fence.contains(n))
                .count()
        };
        let Some((_, i)) = (0..fence.len()).map(|i| (new(fence[i]), i)).min() else {
            break;
        };
        let y = fence.swap_remove(i);
        let fresh: Vec<Cell> = board
            .neighbours(y)
            .filter(|n| !region.contains(n) && !fence.contains(n))
            .collect();
        fence.extend(fresh);
        region.push(y);
        keep(&region, fence.len());
    }
    out
}

/// The floor cells next to `cells`, neither in them nor in `besides`,
/// sorted.
fn around(board: &Board, cells: &[Cell], besides: &[Cell]) -> Vec<Cell> {
    let mut out: Vec<Cell> = cells
        .iter()
        .flat_map(|&c| board.neighbours(c))
        .filter(|n| !cells.contains(n) && !besides.contains(n))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::multi::testing::{random_level, solvable_within};

    /// A room below reached by two one-wide doors: with a box in each door
    /// and the player above, the boxes can only go down into the room, and
    /// the player never gets in after them. No freeze test sees it: each
    /// box can still move.
    const TWO_DOORS: &str = "#########\n\
                             #@ .  . #\n\
                             ##$###$##\n\
                             ## ### ##\n\
                             #       #\n\
                             #########";

    #[test]
    fn two_boxes_shutting_a_room_off_are_a_fence() {
        let level = &parse_xsb(TWO_DOORS.as_bytes(), 1000).unwrap()[0];
        let board = Board::new(level).unwrap();
        let at = |r, c| board.compact(level.grid.cell(r, c));
        let fences = fences(&board, &|| false);
        let doors = [at(2, 2), at(2, 6)];
        let found = (0..fences.len()).any(|p| fences.pattern(p).0 == doors);
        assert!(found, "{} fences, not the doors", fences.len());
        // The level itself: brute force agrees it is dead.
        assert_eq!(
            solvable_within(&board, &board.start_boxes, board.start_player, 1 << 20),
            Some(false)
        );
    }

    #[test]
    fn every_fence_is_dead_by_brute_force() {
        let mut rng = crate::rng::Rng::new(0xFE_9CE5);
        let (mut fenced, mut checked) = (0, 0);
        for case in 0..600 {
            let Some(board) = random_level(&mut rng, case) else {
                continue;
            };
            let fences = fences(&board, &|| false);
            for p in 0..fences.len() {
                let (cells, player) = fences.pattern(p);
                fenced += 1;
                if let Some(truth) = solvable_within(&board, cells, player, 20_000) {
                    assert!(!truth, "case {case}: fence {cells:?} solvable");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "fences {fenced}, checked {checked}");
    }

    #[test]
    fn subset_searches_with_fences_prove_more_and_agree_with_brute_force() {
        let mut rng = crate::rng::Rng::new(0x5E7_FE9C);
        let (mut dead, mut more) = (0, 0);
        for case in 0..1500 {
            let Some(board) = random_level(&mut rng, case) else {
                continue;
            };
            let (boxes, player) = (&board.start_boxes, board.start_player);
            let fences = Arc::new(fences(&board, &|| false));
            if !SubsetSearch::with_fences(fences).dead(&board, boxes, player) {
                continue;
            }
            dead += 1;
            if let Some(truth) = solvable_within(&board, boxes, player, 100_000) {
                assert!(!truth, "case {case}: called dead but solvable");
            }
            more += !SubsetSearch::default().dead(&board, boxes, player) as u32;
        }
        assert!(
            dead > 20 && more > 0,
            "dead {dead}, proven only with fences {more}"
        );
    }

    #[test]
    fn a_level_past_the_cell_bound_has_no_fences() {
        // An open room: fences along its walls on a small board, none on
        // a board past the bound.
        let room = |width: usize, height: usize| {
            let wall = "#".repeat(width + 2);
            let mut rows = vec![wall.clone(), format!("#@$ {}.#", " ".repeat(width - 4))];
            rows.extend((0..height).map(|_| format!("#{}#", " ".repeat(width))));
            rows.push(wall);
            rows.join("\n")
        };
        for (width, height, some) in [(8, 4, true), (60, MAX_CELLS / 60, false)] {
            let level = &parse_xsb(room(width, height).as_bytes(), 100_000).unwrap()[0];
            let board = Board::new(level).unwrap();
            assert_eq!(board.len() > MAX_CELLS, !some);
            assert_eq!(fences(&board, &|| false).len() > 0, some, "width {width}");
        }
    }
}
