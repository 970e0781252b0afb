//! The board's geometry: cells, walls, directions and neighbours.
//!
//! Every search in the crate works on flat cell indices, so that per-cell data
//! lives in plain vectors and a neighbour is one addition. The grid is stored
//! with a one-cell wall border around the level as written: a step from any
//! floor cell therefore always lands inside the vector, and no search has to
//! check bounds.

use std::fmt;

/// One of the four moves on the board. North is up (the previous row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    North,
    South,
    East,
    West,
}

impl Direction {
    /// All four, in the crate's fixed preference order (used for every tie-break).
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// The direction's position in [`Direction::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction at position `i` of [`Direction::ALL`].
    pub fn from_index(i: usize) -> Direction {
        Direction::ALL[i]
    }

    pub fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::East => Direction::West,
            Direction::West => Direction::East,
        }
    }

    /// Row and column change of one step.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Direction::North => (-1, 0),
            Direction::South => (1, 0),
            Direction::East => (0, 1),
            Direction::West => (0, -1),
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Direction::North => "north",
            Direction::South => "south",
            Direction::East => "east",
            Direction::West => "west",
        };
        f.write_str(name)
    }
}

/// Walls and floor of a level, with a wall border so that steps never leave the vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    rows: usize,
    cols: usize,
    /// Row length of the padded storage (`cols + 2`).
    stride: usize,
    wall: Vec<bool>,
}

impl Grid {
    /// An all-wall grid of `rows` x `cols` cells as written (the border is added here).
    pub fn new(rows: usize, cols: usize) -> Grid {
        let stride = cols + 2;
        Grid {
            rows,
            cols,
            stride,
            wall: vec![true; stride * (rows + 2)],
        }
    }

    /// Rows of the level as written.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the level as written (the longest row).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Index distance between vertically adjacent cells (`cols + 2`).
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Number of cell indices, border included: the length per-cell vectors need.
    pub fn len(&self) -> usize {
        self.wall.len()
    }

    /// True when the level has no cells at all.
    pub fn is_empty(&self) -> bool {
        self.rows == 0 || self.cols == 0
    }

    /// The cell index of (row, col), both counted from 0 in the level as written.
    pub fn cell(&self, row: usize, col: usize) -> usize {
        debug_assert!(row < self.rows && col < self.cols);
        (row + 1) * self.stride + col + 1
    }

    /// (row, col) of a cell index inside the level as written.
    pub fn position(&self, cell: usize) -> (usize, usize) {
        (cell / self.stride - 1, cell % self.stride - 1)
    }

    pub fn is_wall(&self, cell: usize) -> bool {
        self.wall[cell]
    }

    pub fn is_floor(&self, cell: usize) -> bool {
        !self.wall[cell]
    }

    /// Like [`Grid::is_floor`], but any index outside the vector is wall.
    pub fn floor_at(&self, cell: usize) -> bool {
        self.wall.get(cell).is_some_and(|w| !w)
    }

    pub fn set_floor(&mut self, cell: usize) {
        self.wall[cell] = false;
    }

    pub fn set_wall(&mut self, cell: usize) {
        self.wall[cell] = true;
    }

    /// Index offset of one step in `dir`.
    pub fn offset(&self, dir: Direction) -> isize {
        match dir {
            Direction::North => -(self.stride as isize),
            Direction::South => self.stride as isize,
            Direction::East => 1,
            Direction::West => -1,
        }
    }

    /// The neighbour of `cell` in `dir`. Defined for every cell not on the border,
    /// which includes every floor cell.
    pub fn step(&self, cell: usize, dir: Direction) -> usize {
        cell.wrapping_add_signed(self.offset(dir))
    }

    /// The four neighbours of a non-border cell, in [`Direction::ALL`] order.
    pub fn neighbours(&self, cell: usize) -> [usize; 4] {
        let s = self.stride;
        [cell - s, cell + s, cell + 1, cell - 1]
    }

    /// Number of floor cells.
    pub fn floor_count(&self) -> usize {
        self.wall.iter().filter(|w| !**w).count()
    }

    /// Bytes held by the grid (for `--stats`).
    pub fn memory_bytes(&self) -> usize {
        self.wall.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_and_positions_round_trip() {
        let g = Grid::new(3, 4);
        let c = g.cell(1, 2);
        assert_eq!(g.position(c), (1, 2));
        assert_eq!(g.position(g.step(c, Direction::North)), (0, 2));
        assert_eq!(g.position(g.step(c, Direction::South)), (2, 2));
        assert_eq!(g.position(g.step(c, Direction::East)), (1, 3));
        assert_eq!(g.position(g.step(c, Direction::West)), (1, 1));
        for d in Direction::ALL {
            assert_eq!(g.step(g.step(c, d), d.opposite()), c);
            assert_eq!(g.neighbours(c)[d.index()], g.step(c, d));
        }
    }

    #[test]
    fn border_is_wall() {
        let mut g = Grid::new(1, 1);
        let c = g.cell(0, 0);
        g.set_floor(c);
        for n in g.neighbours(c) {
            assert!(g.is_wall(n));
        }
        assert_eq!(g.floor_count(), 1);
    }
}
