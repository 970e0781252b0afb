//! The player's area flooded a grid row at a time, as 64-bit masks.
//!
//! Every search floods the player's area many times a node: the searches
//! of a few boxes alone ([`crate::multi::deadlock::subset`]) once a position, over a board
//! nearly empty; the main search for each child's normalized player and
//! for the feature searches' area counts; the meeting table for each
//! position it keeps. Cell by cell, those floods took a third to a half of
//! the time. With each grid row one mask, a flood fills whole runs of a
//! row at once (an add carries a seed up its run, a doubling fill takes it
//! down) and passes to the rows above and below only what grew, so it
//! costs a few operations a row rather than a few a cell. Boards whose
//! grid is wider than 64 cells, border included, have no rows
//! ([`FloorRows::new`] gives `None`) and are flooded a cell at a time; the
//! two ways find the same areas, and the searches the same nodes.

use super::cell::Cell;

/// The board's floor as one mask a grid row, and where each cell is.
#[derive(Clone, Debug)]
pub struct FloorRows {
    floor: Vec<u64>,
    /// Doubling steps that fill the longest run a row can hold.
    doublings: u32,
    /// The row (times 64) and column of each cell.
    at: Vec<u32>,
    /// The cell at each row (times 64) and column, where there is one.
    cell_at: Vec<Option<Cell>>,
}

impl FloorRows {
    /// The rows of the floor whose grid cells (row-major, `stride` a row)
    /// are `cells`, in compact order; `None` when a row is wider than a mask.
    pub fn new(cells: &[usize], stride: usize) -> Option<FloorRows> {
        if stride > 64 {
            return None;
        }
        let rows = cells.iter().map(|&g| g / stride + 1).max().unwrap_or(0);
        let mut floor = vec![0u64; rows];
        let mut at = Vec::with_capacity(cells.len());
        let mut cell_at = vec![None; rows * 64];
        for (k, &g) in cells.iter().enumerate() {
            let (row, col) = (g / stride, g % stride);
            floor[row] |= 1 << col;
            at.push((row * 64 + col) as u32);
            cell_at[row * 64 + col] = Some(Cell::new(k));
        }
        // A flood's runs lie within the floor's, and the longest of those
        // is often far shorter than the grid is wide.
        let longest = floor.iter().map(|&r| longest_run(r)).max().unwrap_or(0);
        let doublings = usize::BITS - longest.saturating_sub(1).leading_zeros();
        Some(FloorRows {
            floor,
            doublings,
            at,
            cell_at,
        })
    }

    /// Grid rows, the masks a [`RowArea`] or a set of blocked cells needs.
    pub fn len(&self) -> usize {
        self.floor.len()
    }

    /// The row and the bit of `c`.
    #[inline]
    fn place(&self, c: Cell) -> (usize, u64) {
        let at = self.at[c.index()] as usize;
        (at / 64, 1 << (at % 64))
    }

    /// True when `c` is set in the row masks `rows`.
    #[inline]
    pub fn has(&self, rows: &[u64], c: Cell) -> bool {
        let (row, bit) = self.place(c);
        rows[row] & bit != 0
    }

    /// Sets (`on`) or clears `c` in the row masks `rows`.
    #[inline]
    pub fn put(&self, rows: &mut [u64], c: Cell, on: bool) {
        let (row, bit) = self.place(c);
        if on {
            rows[row] |= bit;
        } else {
            rows[row] &= !bit;
        }
    }
}

/// The most set bits side by side in `mask`.
fn longest_run(mut mask: u64) -> usize {
    let mut longest = 0;
    while mask != 0 {
        mask &= mask >> 1;
        longest += 1;
    }
    longest
}

/// Cells [`RowArea::least`] looks at before it takes the area's cells one
/// by one.
const FIRST_CELLS: usize = 8;

/// The cells of a row's `free` mask that a run of them joins to `seeds`
/// (a subset of `free`): up by the carry of an add, down by a doubling fill
/// of `D` steps (runs up to `2^D` cells long). `D` is a constant so that
/// the steps unroll into shifts by constants.
#[inline]
fn fill_runs<const D: u32>(free: u64, seeds: u64) -> u64 {
    let up = (free.wrapping_add(seeds) ^ free) & free | seeds;
    let (mut down, mut through) = (seeds, free);
    for k in 0..D {
        let shift = 1 << k;
        down |= through & (down >> shift);
        through &= through >> shift;
    }
    up | down
}

/// A player's area as row masks, with the scratch its flood needs.
#[derive(Clone, Debug, Default)]
pub struct RowArea {
    pub rows: Vec<u64>,
    stack: Vec<usize>,
    /// The floor a flood may enter.
    open: Vec<u64>,
}

impl RowArea {
    /// Floods the area from `from` over the floor not `blocked` (row masks).
    pub fn flood(&mut self, floor: &FloorRows, blocked: &[u64], from: Cell) {
        self.open.clear();
        let free = floor.floor.iter().zip(blocked).map(|(f, b)| f & !b);
        self.open.extend(free);
        let (row, bit) = floor.place(from);
        let open = std::mem::take(&mut self.open);
        self.flood_open(&open, floor.doublings, row, bit);
        self.open = open;
    }

    /// Floods the area of the cells `open` (row masks) from the one `bit`
    /// of `row`; `doublings` is [`fill_runs`]' `D`.
    fn flood_open(&mut self, open: &[u64], doublings: u32, row: usize, bit: u64) {
        match doublings {
            0..=3 => self.flood_runs::<3>(open, row, bit),
            4 => self.flood_runs::<4>(open, row, bit),
            5 => self.flood_runs::<5>(open, row, bit),
            _ => self.flood_runs::<6>(open, row, bit),
        }
    }

    /// [`RowArea::flood_open`] with runs up to `2^D` cells long.
    fn flood_runs<const D: u32>(&mut self, open: &[u64], row: usize, bit: u64) {
        let height = open.len();
        self.rows.clear();
        self.rows.resize(height, 0);
        self.rows[row] = fill_runs::<D>(open[row], bit);
        self.stack.clear();
        self.stack.push(row);
        // A row goes on the stack each time it grows, so its neighbours see
        // all it reached.
        while let Some(r) = self.stack.pop() {
            let reached = self.rows[r];
            for next in [r.wrapping_sub(1), r + 1] {
                if next >= height {
                    continue;
                }
                let seeds = reached & open[next] & !self.rows[next];
                if seeds != 0 {
                    self.rows[next] |= fill_runs::<D>(open[next], seeds);
                    self.stack.push(next);
                }
            }
        }
    }

    /// The number of areas `boxes` cut the floor into.
    pub fn count_areas(&mut self, floor: &FloorRows, boxes: &[Cell]) -> u32 {
        let mut left = std::mem::take(&mut self.open);
        left.clear();
        left.extend_from_slice(&floor.floor);
        for &b in boxes {
            floor.put(&mut left, b, false);
        }
        let mut areas = 0;
        while let Some(row) = left.iter().position(|&r| r != 0) {
            let bit = left[row] & left[row].wrapping_neg();
            self.flood_open(&left, floor.doublings, row, bit);
            for (l, a) in left.iter_mut().zip(&self.rows) {
                *l &= !a;
            }
            areas += 1;
        }
        self.open = left;
        areas
    }

    /// True when the area holds `c`.
    #[inline]
    pub fn contains(&self, floor: &FloorRows, c: Cell) -> bool {
        floor.has(&self.rows, c)
    }

    /// The area's smallest cell (the normalized player), or `None` when it
    /// is empty. Large areas hold one of the first cells, so those are
    /// looked at first; else the area's cells are, one by one.
    pub fn least(&self, floor: &FloorRows) -> Option<Cell> {
        let first = floor.at.len().min(FIRST_CELLS);
        let early = (0..first).map(Cell::new).find(|&c| self.contains(floor, c));
        early.or_else(|| self.cells(floor).min())
    }

    /// The cells of the area.
    fn cells<'a>(&'a self, floor: &'a FloorRows) -> impl Iterator<Item = Cell> + 'a {
        self.rows.iter().enumerate().flat_map(move |(r, &mask)| {
            let bits = std::iter::successors(Some(mask), |&m| Some(m & m.wrapping_sub(1)));
            bits.take_while(|&m| m != 0)
                .filter_map(move |m| floor.cell_at[r * 64 + m.trailing_zeros() as usize])
        })
    }

    /// Floods the area from `from` with only `boxes` on the board (
    /// `blocked` is scratch, clear before and after); returns its smallest
    /// cell.
    pub fn flood_among(
        &mut self,
        floor: &FloorRows,
        blocked: &mut Vec<u64>,
        boxes: &[Cell],
        from: Cell,
    ) -> Cell {
        blocked.resize(floor.len(), 0);
        for &b in boxes {
            floor.put(blocked, b, true);
        }
        self.flood(floor, blocked, from);
        for &b in boxes {
            floor.put(blocked, b, false);
        }
        self.least(floor).unwrap_or(from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_fills_both_ways_from_each_seed_and_stops_at_its_ends() {
        let free = 0b0111_1011_1100u64;
        assert_eq!(fill_runs::<6>(free, 0b0001_0000_0000), 0b0111_1000_0000);
        assert_eq!(fill_runs::<6>(free, 0b0100_0000_0100), free);
        assert_eq!(fill_runs::<6>(free, 0b0000_0000_1000), 0b0000_0011_1100);
        // Two seeds in one run, and a run up to the top bit.
        assert_eq!(fill_runs::<6>(free, 0b0101_0000_0000), 0b0111_1000_0000);
        assert_eq!(fill_runs::<6>(u64::MAX << 60, 1 << 61), u64::MAX << 60);
        assert_eq!(fill_runs::<6>(u64::MAX, 1), u64::MAX);
    }

    #[test]
    fn the_longest_run_counts_the_widest_block_of_bits() {
        assert_eq!(longest_run(0), 0);
        assert_eq!(longest_run(0b1011_0111_0110), 3);
        assert_eq!(longest_run(u64::MAX), 64);
        assert_eq!(longest_run(1 << 63 | 1), 1);
    }

    #[test]
    fn a_flood_fills_a_whole_row_from_either_end_at_every_width() {
        for width in 1..=62 {
            // One row of floor inside the border, its cells west to east.
            let stride = width + 2;
            let cells: Vec<usize> = (0..width).map(|c| stride + 1 + c).collect();
            let floor = FloorRows::new(&cells, stride).unwrap();
            let blocked = vec![0; floor.len()];
            let mut area = RowArea::default();
            for from in [0, width - 1] {
                area.flood(&floor, &blocked, Cell::new(from));
                assert_eq!(area.rows[1].count_ones() as usize, width, "{width}");
            }
        }
        assert!(FloorRows::new(&[65], 65).is_none());
    }
}
