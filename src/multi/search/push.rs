//! The moves of the search and how a node stores the one that made it.
//!
//! A move pushes one box `count` times in one direction (more than once
//! when a box slides down a tunnel of goals or rides a tunnel), or pushes
//! it onto a goal room's entrance and then does the room's next step.
//! Nodes keep five bytes of it (see [`StoredPush`]); the room step's push
//! count comes back from the room's plan.

use crate::grid::Direction;
use crate::multi::board::{Board, Cell};
use crate::multi::guide::room::Rooms;
use crate::multi::table::StoredPush;

/// A move of the search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Push {
    /// The box's cell before the first push.
    pub from: Cell,
    pub dir: Direction,
    /// Single pushes the move makes.
    pub count: u16,
    /// A goal-room step: the room and the step number.
    pub step: Option<(u8, u16)>,
}

/// Marks a stored direction code as a goal-room step (its `len` then holds
/// the room in the high byte and the step in the low one).
const ROOM_STEP: u8 = 0x10;

impl Push {
    /// The box's cell after the last push. A room step moves several boxes
    /// and has no one end cell: callers check `step` first.
    pub fn end(&self, board: &Board) -> Cell {
        debug_assert!(self.step.is_none(), "a room step has no one end cell");
        let pushed = |cell| {
            board
                .step(cell, self.dir)
                .expect("a push's cells are floor")
        };
        (0..self.count).fold(self.from, |cell, _| pushed(cell))
    }

    pub fn stored(&self) -> StoredPush {
        let dir = self.dir.index() as u8;
        match self.step {
            None => StoredPush {
                from: self.from,
                code: dir,
                len: self.count,
            },
            Some((r, k)) => StoredPush {
                from: self.from,
                code: dir | ROOM_STEP,
                len: (r as u16) << 8 | k,
            },
        }
    }

    /// The move a node stored; `rooms` are the macros of the search that made it.
    pub fn from_stored(stored: StoredPush, rooms: Option<&Rooms>) -> Push {
        let step =
            (stored.code & ROOM_STEP != 0).then_some(((stored.len >> 8) as u8, stored.len & 0xFF));
        let count = match (step, rooms) {
            (Some((r, k)), Some(rooms)) => {
                1 + rooms.rooms[r as usize].plans[k as usize].pushes.len() as u16
            }
            _ => stored.len,
        };
        Push {
            from: stored.from,
            dir: Direction::from_index((stored.code & !ROOM_STEP) as usize),
            count,
            step,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_push_reads_back_the_same() {
        for (count, step) in [(1, None), (7, None), (1, Some((3, 200)))] {
            for dir in Direction::ALL {
                let push = Push {
                    from: Cell::new(4321),
                    dir,
                    count,
                    step,
                };
                let back = Push::from_stored(push.stored(), None);
                assert_eq!(
                    (back.from, back.dir, back.step),
                    (Cell::new(4321), dir, step)
                );
                if step.is_none() {
                    assert_eq!(back.count, count);
                }
            }
        }
    }
}
