//! The compact cell number, apart from the board that numbers its cells,
//! so that the tables built beside the board ([`super::rows`]) can name
//! cells without importing it.
//!
//! The search touches only the cells the player can ever reach, so those
//! get dense numbers of 16 bits: box sets are short sorted arrays, and
//! per-cell tables are small enough to stay in cache. A per-cell table is
//! a plain vector or slice indexed by a cell (`occupied[c]`).

use std::ops::{Index, IndexMut};

/// A cell of the player's area, by its compact number (`0..board.len()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Cell(u16);

impl Cell {
    /// The cell numbered `index` (below [`MAX_CELLS`]).
    #[inline]
    pub fn new(index: usize) -> Cell {
        debug_assert!(index < MAX_CELLS, "cell {index} out of range");
        Cell(index as u16)
    }

    /// Its number, to index per-cell tables by.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Its 16 bits, for keys that pack several cells into one number.
    pub fn bits(self) -> u16 {
        self.0
    }

    /// The cell whose [`Cell::bits`] these are.
    pub const fn from_bits(bits: u16) -> Cell {
        Cell(bits)
    }
}

impl<T> Index<Cell> for [T] {
    type Output = T;
    #[inline]
    fn index(&self, c: Cell) -> &T {
        &self[c.index()]
    }
}

impl<T> IndexMut<Cell> for [T] {
    #[inline]
    fn index_mut(&mut self, c: Cell) -> &mut T {
        &mut self[c.index()]
    }
}

impl<T> Index<Cell> for Vec<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Cell) -> &T {
        &self[c.index()]
    }
}

impl<T> IndexMut<Cell> for Vec<T> {
    #[inline]
    fn index_mut(&mut self, c: Cell) -> &mut T {
        &mut self[c.index()]
    }
}

/// Levels with this much floor or more are too large: cells are 16 bits,
/// and the neighbour table keeps the top value for walls.
pub const MAX_CELLS: usize = u16::MAX as usize - 1;

/// A relation on cells, as bits: row `a` holds the cells `b` with `(a, b)`
/// in it. Empty (no rows) holds no pair.
#[derive(Clone, Debug, Default)]
pub(crate) struct CellPairs {
    /// Words per row.
    words: usize,
    bits: Vec<u64>,
}

impl CellPairs {
    /// No pairs among `n` cells.
    pub fn new(n: usize) -> CellPairs {
        let words = n.div_ceil(64);
        CellPairs {
            words,
            bits: vec![0; n * words],
        }
    }

    /// True when the relation has no rows (built for no cells).
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Puts `(a, b)` in.
    pub fn insert(&mut self, a: Cell, b: Cell) {
        let b = b.index();
        self.bits[a.index() * self.words + b / 64] |= 1 << (b % 64);
    }

    /// True when `(a, b)` is in.
    pub fn contains(&self, a: Cell, b: Cell) -> bool {
        let b = b.index();
        !self.is_empty() && self.bits[a.index() * self.words + b / 64] >> (b % 64) & 1 == 1
    }

    /// Row `a` as words (the bits of the cells `b` with `(a, b)` in).
    pub fn row(&self, a: Cell) -> &[u64] {
        &self.bits[a.index() * self.words..][..self.words]
    }

    /// The words of a row.
    pub fn words(&self) -> usize {
        self.words
    }
}

/// Keeps `boxes` sorted after the one box at `i` changed cell: it slides
/// to its place, one shift a box it passes (a push or pull moves one box,
/// so the rest of the list stays in order).
pub(crate) fn reseat(boxes: &mut [Cell], i: usize) {
    let moved = boxes[i];
    let mut at = i;
    while at > 0 && boxes[at - 1] > moved {
        boxes[at] = boxes[at - 1];
        at -= 1;
    }
    while at + 1 < boxes.len() && boxes[at + 1] < moved {
        boxes[at] = boxes[at + 1];
        at += 1;
    }
    boxes[at] = moved;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_moved_either_way_is_reseated_where_sorting_puts_it() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..2_000 {
            let n = 1 + rng.below(12);
            let mut boxes: Vec<Cell> = (0..n).map(|_| Cell::new(rng.below(40))).collect();
            boxes.sort_unstable();
            boxes.dedup();
            let i = rng.below(boxes.len());
            let to = Cell::new(rng.below(40));
            if boxes.contains(&to) {
                continue;
            }
            boxes[i] = to;
            let mut sorted = boxes.clone();
            sorted.sort_unstable();
            reseat(&mut boxes, i);
            assert_eq!(boxes, sorted);
        }
    }
}
