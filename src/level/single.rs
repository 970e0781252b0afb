//! Single-box inputs: one olympiad grid, or the judge format of many mazes.
//!
//! The judge format (UVa 589 / POJ 1475) is `r c` header lines each followed by
//! `r` rows, ended by `0 0` or the end of input. A single grid is everything
//! else but a collection of levels (titles, notes, several boards), which
//! is refused with the advice to use `--multi`. [`super::detect`] tells
//! the shapes apart, as it does for every reader.

use super::board::{Alphabet, Board, Row, decode, detect_alphabet, numbered_lines, read_board};
use super::collection::{is_collection, parse_entries};
use super::error::{ParseError, ParseErrorKind};
use super::{Format, Maze, detect};

/// Which shape the input had; the output follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One grid: the answer is one line.
    Grid,
    /// Judge format: `Maze #k`, the answer, an empty line, per maze.
    Judge,
}

/// A parsed single-box input.
#[derive(Clone, Debug)]
pub struct SingleInput {
    pub shape: Shape,
    pub mazes: Vec<Maze>,
}

/// Parses single-box input bytes, its shape and letters told from the text.
/// `max_cells` bounds each grid.
///
/// ```
/// use sokoban::level::{Shape, parse_single};
///
/// // One olympiad grid.
/// let input = parse_single(b"#####\n#SBT#\n#####\n", 100).unwrap();
/// assert_eq!((input.shape, input.mazes.len()), (Shape::Grid, 1));
/// // The judge format: `rows cols` headers, `0 0` to end.
/// let judge = parse_single(b"1 3\nSBT\n1 4\nS.BT\n0 0\n", 100).unwrap();
/// assert_eq!((judge.shape, judge.mazes.len()), (Shape::Judge, 2));
/// // A bad letter is an error with its line and column.
/// let error = parse_single(b"#####\n#SBTx#\n", 100).unwrap_err();
/// assert_eq!((error.line, error.col), (2, 5));
/// ```
pub fn parse_single(bytes: &[u8], max_cells: u64) -> Result<SingleInput, ParseError> {
    parse_single_as(bytes, Format::Auto, max_cells)
}

/// Parses single-box input bytes in a given format (`Auto` tells it from the text).
pub fn parse_single_as(
    bytes: &[u8],
    format: Format,
    max_cells: u64,
) -> Result<SingleInput, ParseError> {
    let text = decode(bytes)?;
    let told = detect(text, format);
    if told == Format::SnekobanJson {
        let board = super::snekoban::read(text, max_cells)?;
        return Ok(SingleInput {
            shape: Shape::Grid,
            mazes: vec![maze_from_board(board, 1)?],
        });
    }
    let lines: Vec<(usize, &str)> = numbered_lines(text).collect();
    let Some(first) = lines.iter().position(|(_, l)| !l.trim().is_empty()) else {
        return Err(ParseError::new(1, 1, ParseErrorKind::Empty));
    };
    if told == Format::Judge {
        let mut mazes = Vec::new();
        for block in judge_blocks(&lines[first..], max_cells)? {
            mazes.push(maze_from_rows(&block.rows, None, max_cells).map_err(|e| block.locate(e))?);
        }
        return Ok(SingleInput {
            shape: Shape::Judge,
            mazes,
        });
    }
    let alphabet = told.alphabet().unwrap_or(Alphabet::Xsb);
    if is_collection(&lines, alphabet) {
        return Err(collection_error(bytes, alphabet, max_cells, lines[first].0));
    }
    let end = lines
        .iter()
        .rposition(|(_, l)| !l.is_empty())
        .unwrap_or(first)
        + 1;
    let rows = to_rows(&lines[first..end]);
    // Under `Auto` the grid's own letters decide (a grid mixing both
    // alphabets is an error at the letter that mixes them).
    let maze = maze_from_rows(&rows, format.alphabet(), max_cells)?;
    Ok(SingleInput {
        shape: Shape::Grid,
        mazes: vec![maze],
    })
}

/// The error for a collection given where one grid is read: the
/// collection's own error when it is broken (an unclosed `Comment:`, a bad
/// level), else the advice to use `--multi`.
fn collection_error(bytes: &[u8], alphabet: Alphabet, max_cells: u64, first: usize) -> ParseError {
    match parse_entries(bytes, alphabet, max_cells) {
        Ok(entries) => {
            let multi_box = entries.iter().any(|e| e.level.boxes.len() > 1);
            ParseError::new(first, 1, ParseErrorKind::Collection { multi_box })
        }
        Err(e) => e,
    }
}

fn to_rows<'a>(lines: &[(usize, &'a str)]) -> Vec<Row<'a>> {
    lines
        .iter()
        .map(|&(line, text)| Row::new(line, text))
        .collect()
}

/// One maze of a judge file: its header's line and its rows.
pub struct JudgeBlock<'a> {
    pub header_line: usize,
    pub rows: Vec<Row<'a>>,
}

impl JudgeBlock<'_> {
    /// An empty maze has no row to point at: its errors point at its header.
    pub fn locate(&self, e: ParseError) -> ParseError {
        if self.rows.iter().all(|r| r.text.is_empty()) {
            ParseError::new(self.header_line, 1, e.kind)
        } else {
            e
        }
    }
}

/// Splits judge-format lines into mazes, checking headers against their rows.
pub fn judge_blocks<'a>(
    lines: &[(usize, &'a str)],
    max_cells: u64,
) -> Result<Vec<JudgeBlock<'a>>, ParseError> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (line, text) = lines[i];
        if text.trim().is_empty() {
            i += 1;
            continue;
        }
        let (rows, cols) = parse_header(line, text)?;
        if rows == 0 && cols == 0 {
            break;
        }
        // Saturating: a header of two huge numbers must not wrap under the limit.
        let cells = (rows as u64).saturating_mul(cols as u64);
        if cells > max_cells {
            return Err(ParseError::new(
                line,
                1,
                ParseErrorKind::TooLarge {
                    cells,
                    limit: max_cells,
                },
            ));
        }
        let body = &lines[i + 1..lines.len().min(i + 1 + rows)];
        if body.len() < rows {
            return Err(ParseError::new(
                line,
                1,
                ParseErrorKind::MissingRows {
                    expected: rows,
                    found: body.len(),
                },
            ));
        }
        let grid_rows = to_rows(body);
        for row in &grid_rows {
            if row.width() != cols {
                let col = row.width().min(cols) + 1;
                return Err(ParseError::new(
                    row.line,
                    col,
                    ParseErrorKind::RowWidth {
                        expected: cols,
                        found: row.width(),
                    },
                ));
            }
        }
        blocks.push(JudgeBlock {
            header_line: line,
            rows: grid_rows,
        });
        i += 1 + rows;
    }
    Ok(blocks)
}

fn parse_header(line: usize, text: &str) -> Result<(usize, usize), ParseError> {
    let bad = || {
        let col = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
        ParseError::new(
            line,
            col,
            ParseErrorKind::BadHeader(text.trim().to_string()),
        )
    };
    let mut words = text.split_whitespace();
    let (Some(r), Some(c), None) = (words.next(), words.next(), words.next()) else {
        return Err(bad());
    };
    match (r.parse::<usize>(), c.parse::<usize>()) {
        (Ok(r), Ok(c)) => Ok((r, c)),
        _ => Err(bad()),
    }
}

/// Reads one grid (in `alphabet`, or told from its letters) and checks it
/// holds exactly one player, box and target.
pub fn maze_from_rows(
    rows: &[Row],
    alphabet: Option<Alphabet>,
    max_cells: u64,
) -> Result<Maze, ParseError> {
    let alphabet = match alphabet {
        Some(a) => a,
        None => detect_alphabet(rows)?,
    };
    let board = read_board(rows, alphabet, max_cells)?;
    maze_from_board(board, rows.first().map_or(1, |r| r.line))
}

fn maze_from_board(board: Board, first_line: usize) -> Result<Maze, ParseError> {
    let at = |p: &super::board::Placed, kind| ParseError::new(p.line, p.col, kind);
    let missing = |kind| ParseError::new(first_line, 1, kind);
    let player = board.one_player(first_line)?;
    let box_cell = match board.boxes.as_slice() {
        [] => return Err(missing(ParseErrorKind::NoBox)),
        [b] => b.cell,
        [_, b, ..] => return Err(at(b, ParseErrorKind::SecondBox)),
    };
    let target = match board.goals.as_slice() {
        [] => return Err(missing(ParseErrorKind::NoTarget)),
        [t] => t.cell,
        [_, t, ..] => return Err(at(t, ParseErrorKind::SecondTarget)),
    };
    Ok(Maze {
        grid: board.grid,
        alphabet: board.alphabet,
        player,
        box_cell,
        target,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::error::ParseErrorKind as K;

    fn err(text: &str) -> (usize, usize, K) {
        let e = parse_single(text.as_bytes(), 1 << 24).unwrap_err();
        (e.line, e.col, e.kind)
    }

    #[test]
    fn a_bad_header_column_counts_characters() {
        // Found by fuzzing: the column counted the bytes of a wide space.
        let lines = [(1, "\u{2006}x")];
        let e = judge_blocks(&lines, 100).err().unwrap();
        assert_eq!((e.line, e.col), (1, 2));
    }

    #[test]
    fn one_grid_with_crlf_and_blank_edges() {
        let input = parse_single(b"\r\n#####\r\n#SBT#\r\n#####\r\n\r\n", 1000).unwrap();
        assert_eq!(input.shape, Shape::Grid);
        let m = &input.mazes[0];
        assert_eq!(m.grid.position(m.player), (1, 1));
        assert_eq!(m.grid.position(m.box_cell), (1, 2));
        assert_eq!(m.grid.position(m.target), (1, 3));
        assert_eq!(m.alphabet, Alphabet::Olympiad);
    }

    #[test]
    fn xsb_letters_with_box_on_target() {
        let m = &parse_single(b"#####\n#@ *#\n#####\n", 1000).unwrap().mazes[0];
        assert_eq!(m.box_cell, m.target);
        assert_eq!(m.alphabet, Alphabet::Xsb);
    }

    #[test]
    fn judge_format_reads_until_zero_zero() {
        let input = parse_single(b"1 3\nSBT\n\n2 3\nS..\nB.T\n0 0\ngarbage", 1000).unwrap();
        assert_eq!(input.shape, Shape::Judge);
        assert_eq!(input.mazes.len(), 2);
        let input = parse_single(b"1 3\nSBT\n", 1000).unwrap();
        assert_eq!(input.mazes.len(), 1);
    }

    #[test]
    fn piece_count_errors() {
        assert_eq!(err("..B.T"), (1, 1, K::NoPlayer));
        assert_eq!(err("S.S.B.T"), (1, 3, K::SecondPlayer { line: 1, col: 1 }));
        assert_eq!(err("S...T"), (1, 1, K::NoBox));
        assert_eq!(err("S.B\nB.T"), (2, 1, K::SecondBox));
        assert_eq!(err("\n\nS.B"), (3, 1, K::NoTarget));
        assert_eq!(err("S.BTT"), (1, 5, K::SecondTarget));
    }

    #[test]
    fn judge_errors() {
        assert_eq!(err("2 x\nSBT\n"), (1, 1, K::BadHeader("2 x".into())));
        assert_eq!(err("1 3\nSBT\nfoo\n"), (3, 1, K::BadHeader("foo".into())));
        assert_eq!(
            err("3 3\nSBT\n...\n"),
            (
                1,
                1,
                K::MissingRows {
                    expected: 3,
                    found: 2
                }
            )
        );
        assert_eq!(
            err("2 3\nSBT\n....\n"),
            (
                3,
                4,
                K::RowWidth {
                    expected: 3,
                    found: 4
                }
            )
        );
        assert_eq!(
            err("2 3\nSBT\n..\n"),
            (
                3,
                3,
                K::RowWidth {
                    expected: 3,
                    found: 2
                }
            )
        );
        assert_eq!(err("0 3\n"), (1, 1, K::NoPlayer));
    }

    /// Collections are refused with the advice to use `--multi`, whatever
    /// their first line; a broken one gives its own error.
    #[test]
    fn a_collection_is_no_grid() {
        let multi = K::Collection { multi_box: true };
        let single = K::Collection { multi_box: false };
        let two = "#####\n#@$.#\n#####\n";
        let many = "######\n#@$$..#\n######\n";
        let cases = [
            (format!("; one\n{many}"), (1, 1, multi.clone())),
            (format!("\n1\n{many}\n2\n{two}"), (2, 1, multi.clone())),
            (format!("{two}\n{many}"), (1, 1, multi.clone())),
            (format!("Title: x\n{two}"), (1, 1, single.clone())),
            (format!("{two}\n{two}"), (1, 1, single)),
            (format!("{many}Title: y\n"), (1, 1, multi)),
            (
                format!("1\n{many}Comment:\nnever closed\n"),
                (
                    5,
                    1,
                    K::Other("Comment: block with no Comment-End: line".into()),
                ),
            ),
            (
                format!("; one\n{many}\n; two\n######\n#@$ ..#\n######\n"),
                (7, 1, K::BoxGoalMismatch { boxes: 1, goals: 2 }),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(err(&text), want, "{text}");
        }
        // A stray letter in a row, or a space before one, is the grid's error.
        assert_eq!(
            err("#####\n#SBx#\n"),
            (2, 4, K::Unknown('x', Alphabet::Olympiad))
        );
        assert_eq!(err(" S.BT\n"), (1, 1, K::Unknown(' ', Alphabet::Olympiad)));
    }

    #[test]
    fn empty_and_blank_inputs() {
        assert_eq!(err(""), (1, 1, K::Empty));
        assert_eq!(err("  \n\r\n"), (1, 1, K::Empty));
    }

    #[test]
    fn judge_size_limit_is_checked_from_the_header() {
        let e = parse_single(b"5000 5000\n", 1 << 24).unwrap_err();
        assert_eq!(
            e.kind,
            K::TooLarge {
                cells: 25_000_000,
                limit: 1 << 24
            }
        );
    }
}
