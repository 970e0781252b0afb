//! Text in, levels out: every input dialect the tool reads, and its errors.
//!
//! Parsing owns positions: each error carries the line and column it points at,
//! so the CLI can print `error: <source>:<line>:<col>: <what>` without knowing
//! the formats. Searches never see text, only [`Maze`] (one box) and
//! [`Level`] (many boxes).

mod alphabet;
mod board;
mod collection;
mod detect;
mod error;
mod single;
mod snekoban;
mod sok;
mod write;

pub use alphabet::{Alphabet, Cell};
pub use board::Row;
pub use collection::{Entry, Level, level_from_board, parse_collection, parse_entries, parse_xsb};
pub use detect::detect;
pub use error::{ParseError, ParseErrorKind};
pub use single::{
    JudgeBlock, Shape, SingleInput, judge_blocks, maze_from_rows, parse_single, parse_single_as,
};
pub use snekoban::write as write_snekoban;
pub use sok::{StoredSolution, insert_after_lines};
pub use write::{WriteError, write_levels};

use crate::grid::Grid;

/// The name of the `k`-th maze (counted from 1) of a single-box input,
/// `Maze #k`: its header in judge answer files and in the solver's answers.
pub fn maze_name(k: usize) -> String {
    format!("Maze #{k}")
}

/// An input format (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Told from the text: snekoban JSON, judge file, olympiad or XSB letters.
    #[default]
    Auto,
    Olympiad,
    Xsb,
    Judge,
    Wkbg,
    Bx,
    SnekobanJson,
}

impl Format {
    /// The letters a format forces, if any.
    pub fn alphabet(self) -> Option<Alphabet> {
        match self {
            Format::Olympiad => Some(Alphabet::Olympiad),
            Format::Xsb => Some(Alphabet::Xsb),
            Format::Wkbg => Some(Alphabet::Wkbg),
            Format::Bx => Some(Alphabet::Bx),
            Format::Auto | Format::Judge | Format::SnekobanJson => None,
        }
    }
}

/// Parses multi-box levels in a format; `Auto` tells it from the text
/// ([`detect`]).
///
/// ```
/// use sokoban::level::{Format, parse_levels};
///
/// // The same level in each format's letters.
/// let texts: [(&[u8], Format); 5] = [
///     (b"#####\n#@$.#\n#####\n", Format::Xsb),
///     (b"#####\n#SBT#\n#####\n", Format::Olympiad),
///     (b"WWWWW\nWKBGW\nWWWWW\n", Format::Wkbg),
///     (b"#####\n#&B.#\n#####\n", Format::Bx),
///     (b"3 5\n#####\n#SBT#\n#####\n0 0\n", Format::Judge),
/// ];
/// let pieces = |text, format| {
///     let level = &parse_levels(text, format, 1000).unwrap()[0];
///     (level.player, level.boxes.clone(), level.goals.clone())
/// };
/// let xsb = pieces(texts[0].0, Format::Xsb);
/// for (text, format) in texts {
///     assert_eq!(pieces(text, format), xsb, "{format:?}");
/// }
/// // Snekoban JSON: rows of cells, each a list of what stands there.
/// let json = br#"[[["wall"], ["player"], ["computer"], ["target"], ["wall"]]]"#;
/// let (_, boxes, goals) = pieces(json, Format::Auto);
/// assert_eq!((boxes.len(), goals.len()), (1, 1));
/// ```
pub fn parse_levels(
    bytes: &[u8],
    format: Format,
    max_cells: u64,
) -> Result<Vec<Level>, ParseError> {
    Ok(parse_entries_as(bytes, format, max_cells)?
        .into_iter()
        .map(|e| e.level)
        .collect())
}

/// Parses multi-box levels in a format with what their SOK sections say
/// (letter formats have them; a judge file or snekoban JSON has none).
pub fn parse_entries_as(
    bytes: &[u8],
    format: Format,
    max_cells: u64,
) -> Result<Vec<Entry>, ParseError> {
    let text = board::decode(bytes)?;
    let levels = match detect(text, format) {
        Format::SnekobanJson => {
            let board = snekoban::read(text, max_cells)?;
            vec![level_from_board("Level 1".into(), board, 1)?]
        }
        Format::Judge => judge_levels(text, max_cells)?,
        letters => {
            let alphabet = letters.alphabet().unwrap_or(Alphabet::Xsb);
            return parse_entries(bytes, alphabet, max_cells);
        }
    };
    Ok(levels.into_iter().map(Entry::bare).collect())
}

/// The mazes of a judge file as levels named `Maze #k`.
fn judge_levels(text: &str, max_cells: u64) -> Result<Vec<Level>, ParseError> {
    let lines: Vec<(usize, &str)> = board::numbered_lines(text).collect();
    let blocks = judge_blocks(&lines, max_cells)?;
    if blocks.is_empty() {
        return Err(ParseError::new(1, 1, ParseErrorKind::Empty));
    }
    blocks
        .iter()
        .enumerate()
        .map(|(k, block)| {
            let alphabet = board::detect_alphabet(&block.rows)?;
            let b = board::read_board(&block.rows, alphabet, max_cells)?;
            level_from_board(maze_name(k + 1), b, block.header_line).map_err(|e| block.locate(e))
        })
        .collect()
}

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

/// Draws a board in `alphabet`, with pieces at the given cells. Where the
/// alphabet has no letter for a cell (olympiad letters for a box or player on
/// the target), the box or player is drawn.
pub fn render_cells(
    grid: &Grid,
    alphabet: Alphabet,
    player: usize,
    boxes: &[usize],
    goals: &[usize],
) -> String {
    write_cells(grid, alphabet, player, boxes, goals, true)
        .expect("lenient drawing always succeeds")
}

/// Draws a board in `alphabet`; `None` when a cell has no letter and
/// `lenient` is false (conversions must not lose a goal).
pub fn write_cells(
    grid: &Grid,
    alphabet: Alphabet,
    player: usize,
    boxes: &[usize],
    goals: &[usize],
    lenient: bool,
) -> Option<String> {
    let mut boxed = vec![false; grid.len()];
    let mut goal = vec![false; grid.len()];
    for &b in boxes {
        boxed[b] = true;
    }
    for &g in goals {
        goal[g] = true;
    }
    let mut out = String::new();
    for r in 0..grid.rows() {
        if r > 0 {
            out.push('\n');
        }
        let mut line = String::new();
        for c in 0..grid.cols() {
            let cell = grid.cell(r, c);
            let meaning = Cell {
                wall: grid.is_wall(cell),
                player: cell == player,
                boxed: boxed[cell],
                goal: goal[cell],
            };
            let ch = match alphabet.write(meaning) {
                Some(ch) => ch,
                None if lenient => alphabet.write(Cell {
                    goal: false,
                    ..meaning
                })?,
                None => return None,
            };
            line.push(ch);
        }
        // Where floor is a space, trailing spaces read as outside the level
        // and a row of spaces and goals reads as text: XSB writes such floor
        // as `-`; bx has no other floor letter, so only a lenient drawing
        // (a trace) may drop it.
        let kept = line.trim_end().len();
        match alphabet {
            Alphabet::Xsb if !line.contains(['#', '@', '+', '$', '*']) => {
                out.push_str(&line.replace(' ', "-"))
            }
            Alphabet::Xsb => {
                out.push_str(&line[..kept]);
                out.push_str(&"-".repeat(line.len() - kept));
            }
            Alphabet::Bx
                if !lenient && (kept < line.len() || !line.contains(['#', 'B', 'X', '&', '%'])) =>
            {
                return None;
            }
            Alphabet::Bx => out.push_str(&line[..kept]),
            Alphabet::Olympiad | Alphabet::Wkbg => out.push_str(&line),
        }
    }
    Some(out)
}
