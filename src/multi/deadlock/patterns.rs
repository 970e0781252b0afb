//! The store of dead box patterns: the box cells of each (with the
//! player's area it is dead in) one after another, indexed by their
//! smallest cell and by every cell, and the flood that tells the player's
//! area among a pattern's boxes alone.
//!
//! Both kinds of pattern live here: the fences proven at load
//! ([`super::fence`]) and those a search learns ([`super::learned`]). The
//! subset search ([`super::subset`]) drops a child that holds a fence, so
//! it and the learning both take this store, and neither takes the other's.

use crate::multi::board::{Board, Cell};
use crate::multi::rows::RowArea;

/// Dead box sets, each with the player's area it is dead in (its least
/// cell among the set's boxes alone), indexed by the set's smallest cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct PatternSet {
    /// The patterns' box cells (each sorted), one after another.
    cells: Vec<Cell>,
    /// Per pattern, where its cells end in `cells`.
    ends: Vec<u32>,
    /// Per pattern, the least cell of the player's area it is dead in.
    least: Vec<Cell>,
    /// Per pattern, its cells' [`signature`].
    signature: Vec<u64>,
    /// Per board cell, the patterns whose smallest cell it is.
    anchored: Vec<Vec<u32>>,
    /// Per board cell, the patterns holding it.
    holding: Vec<Vec<u32>>,
}

impl PatternSet {
    /// True when `boxes` (marked in `occupied`) hold every cell of a
    /// pattern and the player on `player` stands in its dead area.
    pub fn matches(
        &self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        player: Cell,
        among: &mut Among,
    ) -> bool {
        if self.ends.is_empty() {
            return false;
        }
        let held = signature(boxes);
        boxes
            .iter()
            .any(|&b| self.any_of(&self.anchored[b], held, board, occupied, player, among))
    }

    /// [`PatternSet::matches`] for a position just made by pushing a box
    /// onto `moved` from one that matched no pattern: only a pattern
    /// holding `moved` can match (the other patterns' boxes stayed, and so
    /// did the player's area among them: the player walked to the push in
    /// it, and the box left a cell next to it). The boxes are given both
    /// ways, marked in `occupied` and listed in `boxes`.
    pub fn matches_moved(
        &self,
        board: &Board,
        (occupied, boxes): (&[bool], &[Cell]),
        moved: Cell,
        player: Cell,
        among: &mut Among,
    ) -> bool {
        if self.ends.is_empty() {
            return false;
        }
        let held = signature(boxes);
        self.any_of(&self.holding[moved], held, board, occupied, player, among)
    }

    /// True when one of the patterns `ids` matches, the boxes' cells having
    /// the [`signature`] `held`.
    fn any_of(
        &self,
        ids: &[u32],
        held: u64,
        board: &Board,
        occupied: &[bool],
        player: Cell,
        among: &mut Among,
    ) -> bool {
        ids.iter().any(|&p| {
            let p = p as usize;
            // Most patterns miss a box, and most of those a signature bit.
            if self.signature[p] & !held != 0 {
                return false;
            }
            let cells = self.cells_of(p);
            cells.iter().all(|&c| occupied[c])
                && among.area_of(board, cells, player) == self.least[p]
        })
    }

    /// Keeps `core`, dead with the player in the area whose least cell
    /// among `core` alone is `least`.
    pub fn push(&mut self, board: &Board, core: Vec<Cell>, least: Cell) {
        if self.anchored.len() != board.len() {
            self.anchored = vec![Vec::new(); board.len()];
            self.holding = vec![Vec::new(); board.len()];
        }
        let id = self.ends.len() as u32;
        self.anchored[core[0]].push(id);
        for &c in &core {
            self.holding[c].push(id);
        }
        self.cells.extend_from_slice(&core);
        self.ends.push(self.cells.len() as u32);
        self.least.push(least);
        self.signature.push(signature(&core));
    }

    /// How many patterns are kept.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// The box cells of pattern `p`.
    fn cells_of(&self, p: usize) -> &[Cell] {
        let start = if p == 0 { 0 } else { self.ends[p - 1] };
        &self.cells[start as usize..self.ends[p] as usize]
    }

    /// The box cells of pattern `p`, and the least cell of its dead area.
    #[cfg(test)]
    pub fn pattern(&self, p: usize) -> (&[Cell], Cell) {
        (self.cells_of(p), self.least[p])
    }

    /// Bytes held, for the memory limit.
    pub fn memory_bytes(&self) -> usize {
        self.cells.len() * 6 + self.ends.len() * (4 + 2 + 8) + self.anchored.len() * 48
    }
}

/// A set of cells folded into 64 bits, a bit per cell number modulo 64: a
/// pattern whose signature has a bit the boxes' lacks cannot match, and the
/// cells of a pattern, near one another, seldom share a bit.
fn signature(cells: &[Cell]) -> u64 {
    cells.iter().fold(0, |sig, c| sig | 1 << (c.index() % 64))
}

/// Scratch space for the player's area among a few boxes alone.
#[derive(Clone, Debug, Default)]
pub(crate) struct Among {
    alone: Vec<bool>,
    marks: Vec<u32>,
    stamp: u32,
    queue: Vec<Cell>,
    /// The same flood by rows, on boards with them ([`Board::rows`]).
    area: RowArea,
    blocked: Vec<u64>,
}

impl Among {
    /// The least cell of the player's area from `player` among `cells` alone.
    pub fn area_of(&mut self, board: &Board, cells: &[Cell], player: Cell) -> Cell {
        if let Some(rows) = &board.rows {
            return self
                .area
                .flood_among(rows, &mut self.blocked, cells, player);
        }
        if self.marks.len() != board.len() {
            self.marks = vec![0; board.len()];
            self.alone = vec![false; board.len()];
        }
        for &c in cells {
            self.alone[c] = true;
        }
        self.stamp += 1;
        let least = board.flood_player(
            &self.alone,
            &mut self.marks,
            self.stamp,
            &mut self.queue,
            player,
        );
        for &c in cells {
            self.alone[c] = false;
        }
        least
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    /// An open room of 14 by 14 floor cells.
    fn open_room() -> Board {
        let wall = "#".repeat(16);
        let mut rows = vec![wall.clone(), format!("#@$.{}#", " ".repeat(11))];
        rows.extend((0..13).map(|_| format!("#{}#", " ".repeat(14))));
        rows.push(wall);
        Board::new(&parse_xsb(rows.join("\n").as_bytes(), 1000).unwrap()[0]).unwrap()
    }

    #[test]
    fn boxes_whose_signature_covers_a_pattern_match_only_when_they_hold_it() {
        let board = open_room();
        let cells = |ids: &[usize]| -> Vec<Cell> { ids.iter().map(|&i| Cell::new(i)).collect() };
        // Cells 20, 84 and 148 have the same signature bit.
        let pattern = cells(&[20, 84]);
        assert_eq!(signature(&pattern), signature(&cells(&[20, 148])));
        let player = Cell::new(0);
        let mut among = Among::default();
        let least = among.area_of(&board, &pattern, player);
        let mut set = PatternSet::default();
        set.push(&board, pattern, least);
        let mut matches = |boxes: &[Cell], moved: Cell| {
            let mut occupied = vec![false; board.len()];
            for &b in boxes {
                occupied[b] = true;
            }
            let all = set.matches(&board, &occupied, boxes, player, &mut among);
            let taken = (&occupied[..], boxes);
            let by_moved = set.matches_moved(&board, taken, moved, player, &mut among);
            assert_eq!(all, by_moved);
            all
        };
        assert!(matches(&cells(&[5, 20, 84]), Cell::new(84)));
        assert!(!matches(&cells(&[5, 20, 148]), Cell::new(20)));
        assert!(!matches(&cells(&[20, 83]), Cell::new(20)));
    }
}
