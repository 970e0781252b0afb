//! From the goal node back to moves: the pushes along the parent links,
//! macros spelled out as single pushes, each preceded by the shortest walk
//! to it.

use super::Search;
use crate::grid::Direction;
use crate::moves::Solution;
use crate::multi::board::Cell;
use crate::multi::table::NodeId;

impl Search<'_> {
    /// The moves from the start to `goal`.
    pub(super) fn rebuild(&mut self, goal: NodeId) -> Solution {
        self.rebuild_joined(goal, &[])
    }

    /// The moves from the start to `node`, then the single pushes `rest`.
    pub(super) fn rebuild_joined(&mut self, node: NodeId, rest: &[(Cell, Direction)]) -> Solution {
        let board = self.board;
        let mut singles = self.single_pushes(node);
        singles.extend_from_slice(rest);
        self.occupied.fill(false);
        for &b in &board.start_boxes {
            self.occupied[b] = true;
        }
        let moves = board
            .spelled_out(&mut self.occupied, board.start_player, &singles)
            .expect("the search only pushes from reachable cells");
        Solution::from_moves(moves)
    }

    /// Every single push from the start to `goal`, as (box cell, direction).
    fn single_pushes(&self, goal: NodeId) -> Vec<(Cell, Direction)> {
        let board = self.board;
        let mut pushes = Vec::new();
        let mut at = goal;
        while let Some(parent) = self.nodes.parent(at) {
            pushes.push(self.push_of(at));
            at = parent;
        }
        pushes.reverse();
        let mut singles = Vec::new();
        for push in pushes {
            match push.step {
                None => {
                    let mut at = push.from;
                    for _ in 0..push.count {
                        singles.push((at, push.dir));
                        at = board.step(at, push.dir).expect("a push's cells are floor");
                    }
                }
                Some((r, k)) => {
                    let rooms = self.config.rooms.expect("room steps come from room macros");
                    singles.push((push.from, push.dir));
                    singles.extend_from_slice(&rooms.rooms[r as usize].plans[k as usize].pushes);
                }
            }
        }
        singles
    }
}
