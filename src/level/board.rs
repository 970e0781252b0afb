//! Rows of characters to a [`Grid`] plus the pieces found on it.
//!
//! Both modes read their grids through here, so every dialect shares one set of
//! positions and messages. When no format is named, olympiad letters
//! (`# . S B T`) and XSB letters (`# @ + $ * .` and space) are told apart by
//! their letters, because `.` is floor in one and a goal in the other.

pub use super::alphabet::Alphabet;
use super::error::{ParseError, ParseErrorKind};
use crate::grid::Grid;
use std::borrow::Cow;

/// One text line of a grid: its 1-based line number and its characters
/// (line ending and trailing spaces already removed). Run-length encoded rows
/// arrive expanded, with the source column of each cell, so errors still
/// point at the letter as written.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    pub line: usize,
    pub text: Cow<'a, str>,
    /// For an expanded row, the 1-based source column of each cell.
    sources: Option<Vec<u32>>,
}

impl<'a> Row<'a> {
    pub fn new(line: usize, text: impl Into<Cow<'a, str>>) -> Row<'a> {
        Row {
            line,
            text: text.into(),
            sources: None,
        }
    }

    /// A row spelled out from run-length codes; `sources[c]` is the column
    /// in the source line of cell `c`.
    pub fn expanded(line: usize, text: String, sources: Vec<u32>) -> Row<'a> {
        Row {
            line,
            text: text.into(),
            sources: Some(sources),
        }
    }

    /// The source column (1-based) of cell `c` (0-based).
    pub fn col(&self, c: usize) -> usize {
        match &self.sources {
            Some(s) => s.get(c).map_or(c + 1, |&col| col as usize),
            None => c + 1,
        }
    }

    /// Cells in the row.
    pub fn width(&self) -> usize {
        self.text.chars().count()
    }
}

/// Where a piece was written: the cell and its source position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub cell: usize,
    pub line: usize,
    pub col: usize,
}

/// A grid with every player, box and goal found on it, in reading order.
#[derive(Clone, Debug)]
pub struct Board {
    pub grid: Grid,
    pub alphabet: Alphabet,
    pub players: Vec<Placed>,
    pub boxes: Vec<Placed>,
    pub goals: Vec<Placed>,
}

impl Board {
    /// The one player's cell; an error at the grid's first line when there is
    /// none, or at the second player.
    pub fn one_player(&self, first_line: usize) -> Result<usize, ParseError> {
        match self.players.as_slice() {
            [] => Err(ParseError::new(first_line, 1, ParseErrorKind::NoPlayer)),
            [p] => Ok(p.cell),
            [p, q, ..] => Err(ParseError::new(
                q.line,
                q.col,
                ParseErrorKind::SecondPlayer {
                    line: p.line,
                    col: p.col,
                },
            )),
        }
    }
}

/// Decides the alphabet of a block of rows; an error where both appear.
pub fn detect_alphabet(rows: &[Row]) -> Result<Alphabet, ParseError> {
    let mut olympiad = None;
    let mut xsb = None;
    for row in rows {
        for (i, ch) in row.text.chars().enumerate() {
            let at = (row.line, i + 1);
            match ch {
                'S' | 'B' | 'T' if olympiad.is_none() => olympiad = Some(at),
                '@' | '+' | '$' | '*' if xsb.is_none() => xsb = Some(at),
                _ => {}
            }
            if let (Some(a), Some(b)) = (olympiad, xsb) {
                let (line, col) = a.max(b);
                return Err(ParseError::new(line, col, ParseErrorKind::MixedAlphabets));
            }
        }
    }
    Ok(if xsb.is_some() {
        Alphabet::Xsb
    } else {
        Alphabet::Olympiad
    })
}

/// Builds the board. Cells past a row's end and outside the rows are wall.
/// Fails on unknown characters and on grids over `max_cells` cells.
pub fn read_board(rows: &[Row], alphabet: Alphabet, max_cells: u64) -> Result<Board, ParseError> {
    let first_line = rows.first().map_or(1, |r| r.line);
    let cols = rows.iter().map(Row::width).max().unwrap_or(0);
    let cells = rows.len() as u64 * cols as u64;
    if cells > max_cells {
        return Err(ParseError::new(
            first_line,
            1,
            ParseErrorKind::TooLarge {
                cells,
                limit: max_cells,
            },
        ));
    }
    let mut board = Board {
        grid: Grid::new(rows.len(), cols),
        alphabet,
        players: Vec::new(),
        boxes: Vec::new(),
        goals: Vec::new(),
    };
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.text.chars().enumerate() {
            let cell = board.grid.cell(r, c);
            let col = row.col(c);
            let placed = Placed {
                cell,
                line: row.line,
                col,
            };
            if ch == '\t' {
                return Err(ParseError::new(row.line, col, ParseErrorKind::Tab));
            }
            let Some(meaning) = alphabet.read(ch) else {
                return Err(ParseError::new(
                    row.line,
                    col,
                    ParseErrorKind::Unknown(ch, alphabet),
                ));
            };
            let (floor, player, boxed, goal) =
                (!meaning.wall, meaning.player, meaning.boxed, meaning.goal);
            if floor {
                board.grid.set_floor(cell);
            }
            if player {
                board.players.push(placed);
            }
            if boxed {
                board.boxes.push(placed);
            }
            if goal {
                board.goals.push(placed);
            }
        }
    }
    Ok(board)
}

/// Splits text into numbered lines, dropping `\r` line endings and trailing spaces.
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches(['\r', ' '])))
}

/// Decodes input bytes, pointing a UTF-8 error at its line and column.
pub fn decode(bytes: &[u8]) -> Result<&str, ParseError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let col = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        ParseError::new(line, col, ParseErrorKind::NotUtf8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<Row<'_>> {
        numbered_lines(text)
            .map(|(line, l)| Row::new(line, l))
            .collect()
    }

    #[test]
    fn alphabet_follows_letters() {
        assert_eq!(detect_alphabet(&rows("S.B.T")).unwrap(), Alphabet::Olympiad);
        assert_eq!(detect_alphabet(&rows("@ $.")).unwrap(), Alphabet::Xsb);
        let err = detect_alphabet(&rows("S.B\n@.T")).unwrap_err();
        assert_eq!((err.line, err.col), (2, 1));
        assert_eq!(err.kind, ParseErrorKind::MixedAlphabets);
    }

    #[test]
    fn ragged_rows_pad_with_wall() {
        let b = read_board(&rows("S.\n.B.T"), Alphabet::Olympiad, 100).unwrap();
        assert_eq!((b.grid.rows(), b.grid.cols()), (2, 4));
        assert!(b.grid.is_wall(b.grid.cell(0, 2)));
        assert!(b.grid.is_floor(b.grid.cell(1, 3)));
        assert_eq!(b.players[0].cell, b.grid.cell(0, 0));
        assert_eq!(b.goals[0].cell, b.grid.cell(1, 3));
    }

    #[test]
    fn unknown_and_tab_point_at_their_column() {
        let e = read_board(&rows("S.x"), Alphabet::Olympiad, 100).unwrap_err();
        assert_eq!(
            (e.line, e.col, e.kind),
            (1, 3, ParseErrorKind::Unknown('x', Alphabet::Olympiad))
        );
        let e = read_board(&rows("#\t@"), Alphabet::Xsb, 100).unwrap_err();
        assert_eq!((e.line, e.col, e.kind), (1, 2, ParseErrorKind::Tab));
    }

    #[test]
    fn too_large_is_refused_before_allocating() {
        let e = read_board(&rows("....\n...."), Alphabet::Olympiad, 7).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::TooLarge { cells: 8, limit: 7 });
    }

    #[test]
    fn utf8_error_position() {
        let e = decode(b"ab\nc\xffd").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
    }
}
