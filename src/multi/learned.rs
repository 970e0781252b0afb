//! Deadlock patterns learned during the search.
//!
//! A position whose boxes off goals are few is tested by solving those
//! boxes alone ([`SubsetSearch`]); when they are dead, the set is shrunk
//! to a minimal dead core and kept if it is dead wherever the player stands.
//! Every later position holding all of a kept pattern's cells is dead
//! without a search: the mess a search made early in the level is then
//! recognised in every arrangement of the other boxes, not found again
//! in each.

use super::board::Board;
use super::subset::{MAX_BOXES, SubsetSearch};

/// Patterns kept at most (a bound on memory and matching time).
const MAX_PATTERNS: usize = 4096;

/// The kept patterns, each indexed by its smallest cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Patterns {
    cells: Vec<Vec<u16>>,
    /// Per board cell, the patterns whose smallest cell it is.
    anchored: Vec<Vec<u32>>,
    marks: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
}

impl Patterns {
    /// True when the boxes hold every cell of a kept pattern.
    pub fn matches(&self, occupied: &[bool], boxes: &[u16]) -> bool {
        if self.cells.is_empty() {
            return false;
        }
        boxes.iter().any(|&b| {
            self.anchored[b as usize].iter().any(|&p| {
                self.cells[p as usize]
                    .iter()
                    .all(|&c| occupied[c as usize])
            })
        })
    }

    /// Tests the boxes off goals (when few) of a position with the player
    /// on `player`; true when they are dead (and a pattern was kept).
    pub fn learn(
        &mut self,
        board: &Board,
        subset: &mut SubsetSearch,
        boxes: &[u16],
        player: u16,
    ) -> bool {
        let mut set: Vec<u16> = boxes
            .iter()
            .copied()
            .filter(|&b| !board.is_goal[b as usize])
            .collect();
        if set.len() < 2 || set.len() > MAX_BOXES || !subset.dead(board, &set, player) {
            return false;
        }
        let mut i = set.len();
        while i > 0 && set.len() > 2 {
            i -= 1;
            let mut fewer = set.clone();
            fewer.remove(i);
            if subset.dead(board, &fewer, player) {
                set = fewer;
            }
        }
        if self.cells.len() < MAX_PATTERNS && self.dead_everywhere(board, subset, &set) {
            self.keep(board, set);
        }
        true
    }

    /// True when `set` is dead with the player in every area it leaves.
    fn dead_everywhere(&mut self, board: &Board, subset: &mut SubsetSearch, set: &[u16]) -> bool {
        let n = board.len();
        if self.marks.len() != n {
            self.marks = vec![0; n];
        }
        let mut occupied = vec![false; n];
        for &b in set {
            occupied[b as usize] = true;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        for c in 0..n as u16 {
            if occupied[c as usize] || self.marks[c as usize] == stamp {
                continue;
            }
            board.flood_player(&occupied, &mut self.marks, stamp, &mut self.queue, c);
            if !subset.dead(board, set, c) {
                return false;
            }
        }
        true
    }

    fn keep(&mut self, board: &Board, set: Vec<u16>) {
        if self.anchored.len() != board.len() {
            self.anchored = vec![Vec::new(); board.len()];
        }
        let id = self.cells.len() as u32;
        self.anchored[set[0] as usize].push(id);
        self.cells.push(set);
    }

    /// Bytes held, for the memory limit.
    pub fn memory_bytes(&self) -> usize {
        self.cells.len() * (MAX_BOXES * 2 + 24) + self.anchored.len() * 24
    }
}
