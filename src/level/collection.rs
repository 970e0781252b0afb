//! Level collections for the multi-box mode, in XSB or another dialect.
//!
//! A collection is levels separated by blank lines or by lines that are not
//! level rows: titles, `Title:`-style metadata, `;` comments. The first such
//! line before a level names it. XSB rows may be run-length encoded (`4#-$`,
//! with `|` between rows), as some collections store them.

use super::board::{Alphabet, Board, Row, decode, numbered_lines, read_board};
use super::error::{ParseError, ParseErrorKind};
use super::sok::{self, Section, StoredSolution};
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
///
/// ```
/// use sokoban::level::parse_xsb;
///
/// let text = b"; first\n#####\n#@$.#\n#####\n\n; second\n######\n#@$ .#\n######\n";
/// let levels = parse_xsb(text, 1000).unwrap();
/// let names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
/// assert_eq!(names, ["first", "second"]);
/// assert_eq!((levels[1].boxes.len(), levels[1].goals.len()), (1, 1));
/// ```
pub fn parse_xsb(bytes: &[u8], max_cells: u64) -> Result<Vec<Level>, ParseError> {
    parse_collection(bytes, Alphabet::Xsb, max_cells)
}

/// Parses one level or a whole collection written in `alphabet`.
pub fn parse_collection(
    bytes: &[u8],
    alphabet: Alphabet,
    max_cells: u64,
) -> Result<Vec<Level>, ParseError> {
    Ok(parse_entries(bytes, alphabet, max_cells)?
        .into_iter()
        .map(|e| e.level)
        .collect())
}

/// A level of a collection with what its SOK sections say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub level: Level,
    pub author: Option<String>,
    pub comments: Vec<String>,
    pub solutions: Vec<StoredSolution>,
    /// The last line of its board and the sections under it: where a new
    /// solution section goes.
    pub end_line: usize,
}

impl Entry {
    /// A level with nothing said about it (a format without SOK sections).
    pub fn bare(level: Level) -> Entry {
        Entry {
            end_line: level.line,
            level,
            author: None,
            comments: Vec::new(),
            solutions: Vec::new(),
        }
    }
}

/// True when `lines` are a collection rather than one grid: more than one
/// board, or a line that is neither a level row nor blank (a title, a
/// comment, a SOK section). A line that starts like a row with a stray
/// character, or holds only the letters and spaces, counts as a row, so its
/// error is the grid's.
pub(super) fn is_collection(lines: &[(usize, &str)], alphabet: Alphabet) -> bool {
    let mut boards = 0;
    let mut in_board = false;
    for &(_, text) in lines {
        let letters = || {
            let t = text.trim();
            !t.is_empty() && t.chars().all(|c| c == ' ' || alphabet.is_cell_char(c))
        };
        let row = is_row(alphabet, text) || looks_like_broken_row(alphabet, text) || letters();
        if row && !in_board {
            boards += 1;
        }
        if !row && !text.trim().is_empty() {
            return true;
        }
        in_board = row;
    }
    boards > 1
}

/// What the lines before a board say about it. Only the last block (lines
/// between blank lines) before the board counts, so a collection's header does
/// not name its first level; its first line is the title unless `Title:` says.
#[derive(Default)]
struct Pending {
    title: Option<String>,
    keyed_title: bool,
    author: Option<String>,
    comments: Vec<String>,
    block_open: bool,
}

impl Pending {
    /// A non-blank line that is not a board row: a new block resets what is known.
    fn open(&mut self) {
        if !self.block_open {
            *self = Pending {
                block_open: true,
                ..Pending::default()
            };
        }
    }

    fn note(&mut self, text: &str) {
        if text.trim().is_empty() {
            self.block_open = false;
            return;
        }
        // SOK raw notes, for someone reading the file: never a title.
        if text.trim_start().starts_with("::") {
            return;
        }
        self.open();
        if self.title.is_none() {
            self.title = Some(title_of(text));
        }
    }
}

/// Parses a collection with its SOK sections (titles, authors, comments, solutions).
pub fn parse_entries(
    bytes: &[u8],
    alphabet: Alphabet,
    max_cells: u64,
) -> Result<Vec<Entry>, ParseError> {
    let text = decode(bytes)?;
    let lines: Vec<(usize, &str)> = numbered_lines(text).collect();
    let mut entries: Vec<Entry> = Vec::new();
    let mut next = Pending::default();
    // Straight under a board (no blank line yet): `Key:` lines belong to it.
    let mut under_board = false;
    let mut i = 0;
    while i < lines.len() {
        let (line, text) = lines[i];
        if let Some((section, after)) = sok::section(&lines, i, under_board)? {
            let last = lines[after - 1].0;
            take_section(section, under_board, &mut entries, &mut next, line, last)?;
            i = after;
            continue;
        }
        if !is_row(alphabet, text) {
            if let Some(col) = stray_tab(alphabet, text) {
                return Err(ParseError::new(line, col, ParseErrorKind::Tab));
            }
            let before_row = i + 1 < lines.len() && is_row(alphabet, lines[i + 1].1);
            if looks_like_broken_row(alphabet, text) && before_row {
                return Err(broken_row(alphabet, line, text));
            }
            under_board = false;
            next.note(text);
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && is_row(alphabet, lines[i].1) {
            i += 1;
        }
        let level = read_level(
            alphabet,
            &lines,
            start,
            i,
            max_cells,
            next.title.take(),
            entries.len(),
        )?;
        let pending = std::mem::take(&mut next);
        entries.push(Entry {
            level,
            author: pending.author,
            comments: pending.comments,
            solutions: Vec::new(),
            end_line: lines[i - 1].0,
        });
        under_board = true;
    }
    if entries.is_empty() {
        let kind = if lines.iter().all(|(_, l)| l.trim().is_empty()) {
            ParseErrorKind::Empty
        } else {
            ParseErrorKind::Other("no level rows found (a level row holds # walls)".into())
        };
        return Err(ParseError::new(1, 1, kind));
    }
    Ok(entries)
}

/// The level whose rows are `lines[start..end]`, named `title` or `Level k`.
fn read_level(
    alphabet: Alphabet,
    lines: &[(usize, &str)],
    start: usize,
    end: usize,
    max_cells: u64,
    title: Option<String>,
    before: usize,
) -> Result<Level, ParseError> {
    if end < lines.len() && looks_like_broken_row(alphabet, lines[end].1) {
        let (line, text) = lines[end];
        if let Some(col) = stray_tab(alphabet, text) {
            return Err(ParseError::new(line, col, ParseErrorKind::Tab));
        }
        return Err(broken_row(alphabet, line, text));
    }
    let mut rows = Vec::new();
    let mut expanded = 0;
    for &(line, text) in &lines[start..end] {
        if alphabet == Alphabet::Xsb {
            expand_rle(line, text, &mut rows, (&mut expanded, max_cells))?;
        } else {
            rows.push(Row::new(line, text));
        }
    }
    let name = title.unwrap_or_else(|| format!("Level {}", before + 1));
    let board = read_board(&rows, alphabet, max_cells)?;
    level_from_board(name, board, rows[0].line)
}

/// Files a SOK section (lines `line..=last`) under the level above or the next one.
fn take_section(
    section: Section,
    under_board: bool,
    entries: &mut [Entry],
    next: &mut Pending,
    line: usize,
    last: usize,
) -> Result<(), ParseError> {
    if let Section::Solution(solution) = section {
        let Some(entry) = entries.last_mut() else {
            let why = "a Solution section before any level".to_string();
            return Err(ParseError::new(line, 1, ParseErrorKind::Other(why)));
        };
        entry.solutions.push(solution);
        entry.end_line = last;
        return Ok(());
    }
    match entries.last_mut() {
        Some(entry) if under_board => {
            entry.end_line = last;
            match section {
                Section::Key { key, value } if key == "title" && !value.is_empty() => {
                    entry.level.name = value
                }
                Section::Key { key, value } if key == "author" => entry.author = Some(value),
                Section::Comment(c) => entry.comments.push(c),
                _ => {}
            }
        }
        _ => {
            next.open();
            match section {
                Section::Key { key, value }
                    if key == "title" && !next.keyed_title && !value.is_empty() =>
                {
                    next.title = Some(value);
                    next.keyed_title = true;
                }
                Section::Key { key, value } if key == "author" => next.author = Some(value),
                Section::Comment(c) => next.comments.push(c),
                _ => {}
            }
        }
    }
    Ok(())
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
/// `(expanded, max_cells)`: the cells the level's rows spelled out so far and
/// the limit they may not pass, checked before each run is written out, so a
/// few bytes of counts never become gigabytes of rows.
fn expand_rle<'a>(
    line: usize,
    text: &'a str,
    rows: &mut Vec<Row<'a>>,
    (expanded, max_cells): (&mut u64, u64),
) -> Result<(), ParseError> {
    if !text.contains(|c: char| c.is_ascii_digit() || c == '|') {
        rows.push(Row::new(line, text));
        return Ok(());
    }
    let mut row = String::new();
    let mut sources: Vec<u32> = Vec::new();
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
            let spelled = std::mem::take(&mut row).trim_end().to_string();
            rows.push(Row::expanded(line, spelled, std::mem::take(&mut sources)));
        } else {
            let n = count.take().unwrap_or(1);
            *expanded += n as u64;
            if *expanded > max_cells {
                let kind = ParseErrorKind::TooLarge {
                    cells: *expanded,
                    limit: max_cells,
                };
                return Err(ParseError::new(line, i + 1, kind));
            }
            row.extend(std::iter::repeat_n(ch, n));
            sources.extend(std::iter::repeat_n(i as u32 + 1, n));
        }
    }
    if count.is_some() {
        return Err(ParseError::new(
            line,
            text.chars().count(),
            ParseErrorKind::BadRunLength,
        ));
    }
    rows.push(Row::expanded(line, row.trim_end().to_string(), sources));
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
    fn sok_sections_belong_where_sok_puts_them() {
        let text = ":: raw notes ::\nTitle: The set\nAuthor: Someone\n\n:: more ::\n1\n#####\n#@$.#\n#####\nTitle: One\n\
Author: A\nComment:\n#####\nComment-End:\nSolution (mine):\n2(R)\n\nSolution: rR\n\n\
; two\nAuthor: B\n#####\n#.$@#\n#####\n";
        let entries = parse_entries(text.as_bytes(), Alphabet::Xsb, 1000).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.level.name.as_str()).collect();
        // The header's title names no level; a title under a board names it.
        assert_eq!(names, ["One", "two"]);
        assert_eq!(entries[0].author.as_deref(), Some("A"));
        assert_eq!(entries[0].comments, ["#####"]);
        let moves: Vec<&str> = entries[0]
            .solutions
            .iter()
            .map(|s| s.moves.as_str())
            .collect();
        assert_eq!(moves, ["2(R)", "rR"]);
        assert_eq!(entries[0].solutions[0].name.as_deref(), Some("mine"));
        // New solutions go after the last one already there.
        assert_eq!(entries[0].end_line, 18);
        assert_eq!(entries[1].author.as_deref(), Some("B"));
        assert!(entries[1].solutions.is_empty());
        assert_eq!(entries[1].end_line, 24);
    }

    #[test]
    fn sok_errors() {
        let e = parse_xsb(b"#####\n#@$.#\n#####\nComment:\nno end", 100).unwrap_err();
        assert_eq!((e.line, e.col), (4, 1));
        let e = parse_xsb(b"Solution: R\n#####\n#@$.#\n#####", 100).unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_xsb(b"Comment-End:\n#####\n#@$.#\n#####", 100).unwrap_err();
        assert_eq!(e.line, 1);
    }

    #[test]
    fn run_length_counts_stop_at_the_cell_limit_before_expanding() {
        let text = format!("#@$.#|{}\n", "65536#".repeat(1000));
        let e = parse_xsb(text.as_bytes(), 1 << 20).unwrap_err();
        // The 16th run passes 2^20 cells: it is pointed at, nothing past it is written.
        let cells = 5 + 16 * 65536;
        let kind = K::TooLarge {
            cells,
            limit: 1 << 20,
        };
        assert_eq!(e, ParseError::new(1, 6 + 16 * 6, kind));
        assert!(parse_xsb(b"#####|#@$.#|#####", 15).is_ok());
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
