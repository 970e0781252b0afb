//! Text in, levels out: every input dialect the tool reads, and its errors.
//!
//! Parsing owns positions: each error carries the line and column it points at,
//! so the CLI can print `error: <source>:<line>:<col>: <what>` without knowing
//! the formats. Searches never see text, only [`Maze`] (one box) and
//! [`Level`] (many boxes).

mod board;
mod error;
mod single;
mod xsb;

pub use board::{Alphabet, Row};
pub use error::{ParseError, ParseErrorKind};
pub use single::{Shape, SingleInput, maze_from_rows, parse_single};
pub use xsb::{Level, parse_xsb};

use crate::grid::Grid;

/// Default bound on grid size: 4096 x 4096 cells.
pub const DEFAULT_MAX_CELLS: u64 = 4096 * 4096;

/// A single-box level: one player, one box, one target on a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    pub grid: Grid,
    /// The letters it was written in, so traces and conversions answer in kind.
    pub alphabet: Alphabet,
    pub player: usize,
    pub box_cell: usize,
    pub target: usize,
}

impl Maze {
    /// The maze as text in its own alphabet (one line per row, no trailing newline).
    pub fn render(&self, player: usize, box_cell: usize) -> String {
        render_cells(
            &self.grid,
            self.alphabet,
            player,
            &[box_cell],
            &[self.target],
        )
    }
}

/// Draws a board in `alphabet`, with pieces at the given cells.
pub fn render_cells(
    grid: &Grid,
    alphabet: Alphabet,
    player: usize,
    boxes: &[usize],
    goals: &[usize],
) -> String {
    let mut out = String::new();
    for r in 0..grid.rows() {
        if r > 0 {
            out.push('\n');
        }
        let mut line = String::new();
        for c in 0..grid.cols() {
            let cell = grid.cell(r, c);
            let (p, b, g) = (cell == player, boxes.contains(&cell), goals.contains(&cell));
            let ch = match alphabet {
                Alphabet::Olympiad => match (grid.is_wall(cell), p, b, g) {
                    (true, ..) => '#',
                    (_, true, ..) => 'S',
                    (_, _, true, _) => 'B',
                    (_, _, _, true) => 'T',
                    _ => '.',
                },
                Alphabet::Xsb => match (grid.is_wall(cell), p, b, g) {
                    (true, ..) => '#',
                    (_, true, _, true) => '+',
                    (_, true, _, false) => '@',
                    (_, _, true, true) => '*',
                    (_, _, true, false) => '$',
                    (_, _, _, true) => '.',
                    _ => ' ',
                },
            };
            line.push(ch);
        }
        out.push_str(line.trim_end());
    }
    out
}
