//! Moves bigger than one push, for the non-optimal searches: a goal room's
//! next step done at once when a box reaches its entrance (the plans of
//! [`crate::multi::guide::room`]), and the box moves of `Method::BoxMoves`.

use super::Search;
use super::expand::{Child, Expansion, MovingBox};
use super::player::ChildArea;
use super::push::Push;
use crate::grid::Direction;
use crate::multi::board::Cell;

/// Extra expansions of the box moves after one expansion: a box's
/// reachable positions rarely take more (1,000 solved the same Sasquatch
/// levels at the same speed; 20, fewer).
const BOX_MOVE_EXPANSIONS: usize = 200;

impl Search<'_> {
    /// The child of a push of the box on `b` onto the entrance of room `r`:
    /// the room's next step done at once (when the box arrives the way it
    /// plans for), the room's boxes moved to its next arrangement.
    pub(super) fn room_step(&mut self, x: &Expansion, b: Cell, dir: Direction, r: usize) {
        let rooms = self.config.rooms.expect("room macros are on");
        let room = &rooms.rooms[r];
        let k = self.in_room[r] as usize;
        let Some(plan) = room.plans.get(k).filter(|p| p.arrive == dir) else {
            return;
        };
        let (before, after) = (&room.boxes[k], &room.boxes[k + 1]);
        let mut boxes: Vec<Cell> = x
            .boxes
            .iter()
            .copied()
            .filter(|&c| c != b && !before.contains(&c))
            .chain(after.iter().copied())
            .collect();
        boxes.sort_unstable();
        let parent_cells = || before.iter().copied().chain([b]);
        move_boxes(&mut self.occupied, parent_cells(), after.iter().copied());
        if let Some(table) = self.frozen_of(&boxes) {
            let player = self
                .area
                .normalize(self.board, &self.occupied, &boxes, plan.player_end());
            let push = Push {
                from: b,
                dir,
                count: 1 + plan.pushes.len() as u16,
                step: Some((r as u8, k as u16)),
            };
            let child = Child {
                g: x.g + push.count as u32,
                boxes: &boxes,
                player,
                area: ChildArea::Flooded,
                hash: self.board.hash_of(&boxes, player),
                push,
            };
            self.add_child(x, &child, &table, None);
        }
        move_boxes(&mut self.occupied, after.iter().copied(), parent_cells());
    }

    /// Box moves (`Method::BoxMoves`, and the packing search with an order):
    /// after an expansion, pushes each box it moved on, breadth-first, as far
    /// as it goes: every position that box reaches by
    /// further pushes of its own (the other boxes staying) is generated at
    /// once, so a box's whole path is one step of the feature search, as a
    /// move is in FESS. Each such position is an ordinary node, queued in its
    /// own cell and later expanded in full. At most [`BOX_MOVE_EXPANSIONS`]
    /// extra expansions, and none once `max_nodes` are generated or the time
    /// is up (one expansion of a level of hundreds of boxes is slow); returns
    /// how many were made. `before` is what the expanded node's path cost.
    pub(super) fn push_moved_boxes_on(
        &mut self,
        boxes: &mut Vec<Cell>,
        before: u32,
        max_nodes: Option<u64>,
    ) -> usize {
        debug_assert!(self.box_moves());
        let mut at = 0;
        while at < self.fresh.len()
            && at < BOX_MOVE_EXPANSIONS
            && max_nodes.is_none_or(|m| self.stats.generated < m)
            && !self.past_deadline()
        {
            let (child, end, area, opener) = self.fresh[at];
            at += 1;
            boxes.clear();
            boxes.extend_from_slice(self.nodes.boxes(child));
            let moving = MovingBox {
                cell: end,
                before,
                area: Some(area),
                opener,
            };
            self.expand(child, boxes, Some(moving));
        }
        self.fresh.clear();
        self.area.clear_kept();
        at
    }
}

/// Takes boxes off the cells `from` and puts boxes on the cells `to`, in
/// that order, so a cell in both keeps its box.
fn move_boxes(
    occupied: &mut [bool],
    from: impl IntoIterator<Item = Cell>,
    to: impl IntoIterator<Item = Cell>,
) {
    for c in from {
        occupied[c] = false;
    }
    for c in to {
        occupied[c] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_boxes_there_and_back_keeps_shared_cells() {
        let mut occupied = vec![false; 8];
        for c in [1, 2, 6] {
            occupied[c] = true;
        }
        let before = occupied.clone();
        let cells = |numbers: [usize; 3]| numbers.map(Cell::new);
        // A step that keeps the box on 2 and moves 1 and 6 to 3 and 4.
        move_boxes(&mut occupied, cells([1, 2, 6]), cells([2, 3, 4]));
        let taken: Vec<usize> = (0..8).filter(|&c| occupied[c]).collect();
        assert_eq!(taken, vec![2, 3, 4]);
        move_boxes(&mut occupied, cells([2, 3, 4]), cells([1, 2, 6]));
        assert_eq!(occupied, before);
    }
}
