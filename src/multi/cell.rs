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
