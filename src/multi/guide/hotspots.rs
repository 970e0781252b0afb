//! Hotspots: boxes that stand in another box's way to the goals.
//!
//! A box off a goal on cell `a` is a hotspot when some other box off a
//! goal, on cell `b`, could reach fewer goals by pushes on the empty board
//! were `a` a wall. The pairs are worked out once per level, so a
//! position's hotspots are a lookup per box against the others. It is one of
//! Festival's features (Shoham and Schaeffer's FESS): a move that lowers
//! the count clears a blocker out of the way, which the packing search's
//! advisors try early.

use crate::multi::board::{Board, Cell, UNREACHABLE};
use crate::multi::cell::CellPairs;

/// The most work (cells times cells times goals) the table may take: past
/// it a level has no hotspots, for the table would take seconds.
const MAX_WORK: usize = 40_000_000;

/// Per blocking cell, the cells whose goals it cuts down.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hotspots {
    /// `(a, b)` when a wall on `a` leaves a box on `b` fewer goals it can
    /// be pushed to.
    blocks: CellPairs,
}

impl Hotspots {
    /// The table of `board` (empty where it would take too long).
    pub fn new(board: &Board) -> Hotspots {
        let n = board.len();
        if n * n * board.goals.len() > MAX_WORK {
            return Hotspots::default();
        }
        let mut blocks = CellPairs::new(n);
        let open = goals_reached(board, None);
        for a in board.cells() {
            if board.dead[a] || board.is_goal[a] {
                continue;
            }
            let walled = goals_reached(board, Some(a));
            for b in board.cells() {
                let cut = b != a && !board.dead[b] && !board.is_goal[b];
                if cut && walled[b.index()] < open[b.index()] {
                    blocks.insert(a, b);
                }
            }
        }
        Hotspots { blocks }
    }

    /// True when a box on `a` blocks a box on `b`.
    pub fn blocks(&self, a: Cell, b: Cell) -> bool {
        self.blocks.contains(a, b)
    }

    /// The boxes among `boxes` that block another: pair by pair, or with
    /// many boxes, each box's row against the boxes' bits (set in `taken`,
    /// scratch kept by the caller: this runs for every child measured).
    pub fn count(&self, boxes: &[Cell], taken: &mut Vec<u64>) -> u32 {
        if self.blocks.is_empty() {
            return 0;
        }
        if boxes.len() <= self.blocks.words() {
            return self.count_pairwise(boxes);
        }
        taken.clear();
        taken.resize(self.blocks.words(), 0);
        for &b in boxes {
            taken[b.index() / 64] |= 1 << (b.index() % 64);
        }
        let row = |a: Cell| self.blocks.row(a);
        let taken: &[u64] = taken;
        let hot = |a: Cell| row(a).iter().zip(taken).any(|(r, t)| r & t != 0);
        boxes.iter().filter(|&&a| hot(a)).count() as u32
    }

    fn count_pairwise(&self, boxes: &[Cell]) -> u32 {
        let hot = |a: Cell| boxes.iter().any(|&b| self.blocks(a, b));
        boxes.iter().filter(|&&a| hot(a)).count() as u32
    }
}

/// Per cell, the goals a lone box there can be pushed to, with a wall on
/// `wall`.
fn goals_reached(board: &Board, wall: Option<Cell>) -> Vec<u16> {
    let mut reached = vec![0u16; board.len()];
    let walls: Vec<Cell> = wall.into_iter().collect();
    for &g in &board.goals {
        if Some(g) == wall {
            continue;
        }
        for (c, d) in board.pull_distances(g, &walls).into_iter().enumerate() {
            if d != UNREACHABLE {
                reached[c] += 1;
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
        let level = parse_xsb(text.as_bytes(), 1 << 20).unwrap().remove(0);
        Board::new(&level).unwrap()
    }

    #[test]
    fn a_box_in_a_corridor_blocks_the_boxes_behind_it() {
        // The corridor leads to the goals: the box nearer them blocks the
        // box behind it, not the other way round.
        let text = "\
#########
#@ $ $..#
#########";
        let b = board(text);
        let spots = Hotspots::new(&b);
        let boxes = b.start_boxes.clone();
        let (near, far) = (boxes[1], boxes[0]);
        assert!(spots.blocks(near, far));
        assert!(!spots.blocks(far, near));
        assert_eq!(spots.count(&boxes, &mut Vec::new()), 1);
        assert_eq!(spots.count_pairwise(&boxes), 1);
        assert_eq!(spots.count(&boxes[..1], &mut Vec::new()), 0);
    }

    #[test]
    fn boxes_in_the_open_block_nothing() {
        let text = "\
#######
#@    #
# $ $ #
#     #
# . . #
#######";
        let b = board(text);
        let spots = Hotspots::new(&b);
        assert_eq!(spots.count(&b.start_boxes, &mut Vec::new()), 0);
    }
}
