//! Deadlocks beyond dead squares: boxes frozen in place off their goals.
//!
//! A box is blocked along an axis when a wall (or a box already known not to
//! move) stands on either side, when both sides are dead squares, or when a
//! box on either side is itself frozen. While a box is being examined it
//! counts as a wall, so chains and rings of boxes that hold each other in
//! place are found; an examination that fails is undone, so a box is never
//! wrongly left counted as a wall. A frozen group with a box off its goal
//! can never be solved.

use crate::grid::Direction;
use crate::multi::board::{Board, Cell};

/// Finds freeze deadlocks around a box that has just moved.
#[derive(Clone, Debug, Default)]
pub struct Freeze {
    /// Boxes assumed not to move in the current examination.
    fixed: Vec<Cell>,
}

impl Freeze {
    /// True when the box on `moved` is frozen together with a box off a goal.
    /// `occupied[c]` says whether compact cell `c` holds a box.
    pub fn deadlocked(&mut self, board: &Board, occupied: &[bool], moved: Cell) -> bool {
        self.group(board, occupied, moved)
            .is_some_and(|g| g.iter().any(|&b| !board.is_goal[b]))
    }

    /// The boxes frozen together with the box on `b` (itself included), or
    /// `None` when it can still move. Frozen boxes never move again.
    pub fn group(&mut self, board: &Board, occupied: &[bool], b: Cell) -> Option<&[Cell]> {
        self.fixed.clear();
        if self.frozen(board, occupied, b) {
            Some(&self.fixed)
        } else {
            None
        }
    }

    fn frozen(&mut self, board: &Board, occupied: &[bool], b: Cell) -> bool {
        let mark = self.fixed.len();
        self.fixed.push(b);
        let frozen = self.blocked(board, occupied, b, [Direction::West, Direction::East])
            && self.blocked(board, occupied, b, [Direction::North, Direction::South]);
        if !frozen {
            self.fixed.truncate(mark);
        }
        frozen
    }

    fn blocked(&mut self, board: &Board, occupied: &[bool], b: Cell, axis: [Direction; 2]) -> bool {
        let [Some(p), Some(q)] = axis.map(|d| board.step(b, d)) else {
            return true; // a wall
        };
        if self.fixed.contains(&p) || self.fixed.contains(&q) {
            return true;
        }
        if board.dead[p] && board.dead[q] {
            return true;
        }
        (occupied[p] && self.frozen(board, occupied, p))
            || (occupied[q] && self.frozen(board, occupied, q))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn check(text: &str, moved: (usize, usize)) -> bool {
        let level = &parse_xsb(text.as_bytes(), 1000).unwrap()[0];
        let board = Board::new(level).unwrap();
        let mut occupied = vec![false; board.len()];
        for &b in &board.start_boxes {
            occupied[b] = true;
        }
        let moved = board.compact(level.grid.cell(moved.0, moved.1));
        Freeze::default().deadlocked(&board, &occupied, moved)
    }

    #[test]
    fn two_boxes_against_a_wall() {
        // Side by side against the top wall: neither can ever move.
        assert!(check("#######\n#. $$.#\n#  @  #\n#######", (1, 3)));
        // The same on goals is fine.
        assert!(!check("#######\n# **  #\n#  @  #\n#######", (1, 3)));
        // Apart, each can still slide along the wall to a goal.
        assert!(!check("#######\n#.$ $.#\n#  @  #\n#######", (1, 4)));
    }

    #[test]
    fn square_of_four_boxes() {
        assert!(check(
            "########\n#      #\n# $$   #\n# $$ @ #\n#  ....#\n########",
            (2, 2)
        ));
    }
}
