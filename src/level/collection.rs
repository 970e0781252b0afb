//! Level collections for the multi-box mode, in XSB or another dialect.
//!
//! A collection is levels separated by blank lines or by lines that are not
//! level rows: titles, `Title:`-style metadata, `;` comments. The first such
//! line before a level names it. XSB rows may be run-length encoded (`4#-$`,
//! with `|` between rows), as some collections store them.

use super::board::{Alphabet, Board, Row, decode, numbered_lines, read_board};
use super::error::{ParseError, ParseErrorKind};
use crate::grid::Grid;

/// A multi-box level: one player, as many boxes as goals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Its title, or `Level k` (k counts from 1 in its file).
    pub name: String,
    /// Line of its first row in the source.
    pub line: usize,
    pub grid: Grid,
    pub player: usize,
    /// Box cells, in reading order.
    pub boxes: Vec<usize>,
    /// Goal cells, in reading order.
    pub goals: Vec<usize>,
    /// The letters it was written in, so traces and conversions answer in kind.
    pub alphabet: Alphabet,
}

impl Level {
    /// The level drawn in its own letters with pieces at the given cells.
    pub fn render(&self, player: usize, boxes: &[usize]) -> String {
        super::render_cells(&self.grid, self.alphabet, player, boxes, &self.goals)
    }
}

/// True for a run-length character of XSB rows.
fn is_rle(alphabet: Alphabet, c: char) -> bool {
    alphabet == Alphabet::Xsb && (c.is_ascii_digit() || c == '|')
}

/// True for a line that is a level row: the dialect's characters (or XSB
/// run-length digits) only. Where space and `.` are cells (XSB, bx), the line
/// must also hold a wall, a piece or `-`, so titles like `...` stay titles.
fn is_row(alphabet: Alphabet, text: &str) -> bool {
    let cells = !text.is_empty()
        && text
            .chars()
            .all(|c| alphabet.is_cell_char(c) || is_rle(alphabet, c));
    match alphabet {
        Alphabet::Xsb => cells && text.contains(['#', '@', '+', '$', '*', '-', '_']),
        Alphabet::Bx => cells && text.contains(['#', 'B', 'X', '&', '%']),
        Alphabet::Olympiad | Alphabet::Wkbg => cells,
    }
}

/// Lines that start like a row but hold a stray character: inside a level they are errors.
fn looks_like_broken_row(alphabet: Alphabet, text: &str) -> bool {
    text.trim_start().starts_with(alphabet.wall())
}

/// Parses one XSB level or a whole collection.
pub fn parse_xsb(bytes: &[u8], max_cells: u64) -> Result<Vec<Level>, ParseError> {
    parse_collection(bytes, Alphabet::Xsb, max_cells)
}

/// Parses one level or a whole collection written in `alphabet`.
pub fn parse_collection(
    bytes: &[u8],
    alphabet: Alphabet,
    max_cells: u64,
) -> Result<Vec<Level>, ParseError> {
    let text = decode(bytes)?;
    let lines: Vec<(usize, &str)> = numbered_lines(text).collect();
    let mut levels = Vec::new();
    let mut title: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        let (line, text) = lines[i];
        if !is_row(alphabet, text) {
            if let Some(col) = stray_tab(alphabet, text) {
                return Err(ParseError::new(line, col, ParseErrorKind::Tab));
            }
            let before_row = i + 1 < lines.len() && is_row(alphabet, lines[i + 1].1);
            if looks_like_broken_row(alphabet, text) && before_row {
                return Err(broken_row(alphabet, line, text));
            }
            if title.is_none() && !text.trim().is_empty() {
                title = Some(title_of(text));
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && is_row(alphabet, lines[i].1) {
            i += 1;
        }
        if i < lines.len() && looks_like_broken_row(alphabet, lines[i].1) {
            let (line, text) = lines[i];
            if let Some(col) = stray_tab(alphabet, text) {
                return Err(ParseError::new(line, col, ParseErrorKind::Tab));
            }
            return Err(broken_row(alphabet, line, text));
        }
        let mut rows = Vec::new();
        for &(line, text) in &lines[start..i] {
            if alphabet == Alphabet::Xsb {
                expand_rle(line, text, &mut rows)?;
            } else {
                rows.push(Row::new(line, text));
            }
        }
        let name = title
            .take()
            .unwrap_or_else(|| format!("Level {}", levels.len() + 1));
        let board = read_board(&rows, alphabet, max_cells)?;
        levels.push(level_from_board(name, board, rows[0].line)?);
    }
    if levels.is_empty() {
        let kind = if lines.iter().all(|(_, l)| l.trim().is_empty()) {
            ParseErrorKind::Empty
        } else {
            ParseErrorKind::Other("no level rows found (a level row holds # walls)".into())
        };
        return Err(ParseError::new(1, 1, kind));
    }
    Ok(levels)
}

/// The unknown-character error for a row with a stray character.
fn broken_row(alphabet: Alphabet, line: usize, text: &str) -> ParseError {
    let (col, ch) = text
        .chars()
        .enumerate()
        .find(|(_, c)| !(alphabet.is_cell_char(*c) || is_rle(alphabet, *c)))
        .map(|(c, ch)| (c + 1, ch))
        .unwrap_or((1, ' '));
    ParseError::new(line, col, ParseErrorKind::Unknown(ch, alphabet))
}

fn stray_tab(alphabet: Alphabet, text: &str) -> Option<usize> {
    if looks_like_broken_row(alphabet, text) {
        text.chars().position(|c| c == '\t').map(|p| p + 1)
    } else {
        None
    }
}

fn title_of(text: &str) -> String {
    let t = text.trim().trim_start_matches(';').trim();
    match t.split_once(':') {
        Some((key, rest)) if key.eq_ignore_ascii_case("title") => rest.trim().to_string(),
        _ => t.to_string(),
    }
}

/// Expands run-length counts (`3#` is `###`) and `|` row breaks; plain rows pass through.
fn expand_rle<'a>(line: usize, text: &'a str, rows: &mut Vec<Row<'a>>) -> Result<(), ParseError> {
    if !text.contains(|c: char| c.is_ascii_digit() || c == '|') {
        rows.push(Row::new(line, text));
        return Ok(());
    }
    let mut row = String::new();
    let mut count: Option<usize> = None;
    for (i, ch) in text.chars().enumerate() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d as usize;
            if n > 1 << 16 {
                return Err(ParseError::new(line, i + 1, ParseErrorKind::BadRunLength));
            }
            count = Some(n);
        } else if ch == '|' {
            if count.is_some() {
                return Err(ParseError::new(line, i + 1, ParseErrorKind::BadRunLength));
            }
            rows.push(Row::new(
                line,
                std::mem::take(&mut row).trim_end().to_string(),
            ));
        } else {
            for _ in 0..count.take().unwrap_or(1) {
                row.push(ch);
            }
        }
    }
    if count.is_some() {
        return Err(ParseError::new(
            line,
            text.chars().count(),
            ParseErrorKind::BadRunLength,
        ));
    }
    rows.push(Row::new(line, row.trim_end().to_string()));
    Ok(())
}

/// Checks a multi-box board: one player, as many boxes as goals, at least one.
pub fn level_from_board(
    name: String,
    board: Board,
    first_line: usize,
) -> Result<Level, ParseError> {
    let player = board.one_player(first_line)?;
    if board.boxes.is_empty() {
        return Err(ParseError::new(first_line, 1, ParseErrorKind::NoBoxes));
    }
    if board.boxes.len() != board.goals.len() {
        return Err(ParseError::new(
            first_line,
            1,
            ParseErrorKind::BoxGoalMismatch {
                boxes: board.boxes.len(),
                goals: board.goals.len(),
            },
        ));
    }
    Ok(Level {
        name,
        line: first_line,
        grid: board.grid,
        player,
        boxes: board.boxes.iter().map(|p| p.cell).collect(),
        goals: board.goals.iter().map(|p| p.cell).collect(),
        alphabet: board.alphabet,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::error::ParseErrorKind as K;

    fn err(text: &str) -> (usize, usize, K) {
        let e = parse_xsb(text.as_bytes(), 1 << 20).unwrap_err();
        (e.line, e.col, e.kind)
    }

    #[test]
    fn collection_with_titles_and_comments() {
        let text = "; first\n#####\n#@$.#\n#####\n\nTitle: Second\nAuthor: Someone\n#####\n#.$@#\n#####\n\n####\n#@*#\n####\n";
        let levels = parse_xsb(text.as_bytes(), 1000).unwrap();
        let names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["first", "Second", "Level 3"]);
        assert_eq!(levels[1].line, 8);
        assert_eq!(levels[2].boxes, levels[2].goals);
    }

    #[test]
    fn run_length_rows_expand() {
        let a = parse_xsb(b"5#|#@$.#|5#", 100).unwrap();
        let b = parse_xsb(b"#####\n#@$.#\n#####", 100).unwrap();
        assert_eq!(a[0].grid, b[0].grid);
        assert_eq!(a[0].boxes, b[0].boxes);
        let c = parse_xsb(b"#####\n#@$.#\n5#", 100).unwrap();
        assert_eq!(c[0].grid, b[0].grid);
    }

    #[test]
    fn level_errors() {
        assert_eq!(
            err("#####\n#@$$.#\n#####"),
            (1, 1, K::BoxGoalMismatch { boxes: 2, goals: 1 })
        );
        assert_eq!(err("#####\n# $.#\n#####"), (1, 1, K::NoPlayer));
        assert_eq!(err("#####\n#@ .#\n#####"), (1, 1, K::NoBoxes));
        assert_eq!(
            err("######\n#@$.@#\n######"),
            (2, 5, K::SecondPlayer { line: 2, col: 2 })
        );
        assert_eq!(
            err("#####\n#@$x.#\n#####"),
            (2, 4, K::Unknown('x', Alphabet::Xsb))
        );
        assert_eq!(err("#####\n#@$\t.#\n#####"), (2, 4, K::Tab));
        assert_eq!(err(""), (1, 1, K::Empty));
    }
}
