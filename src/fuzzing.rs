//! The bodies of the fuzz targets (`tests/fuzz/`), as plain functions.
//!
//! cargo-fuzz needs nightly; these do not. The fuzz crate calls them with
//! libFuzzer's bytes, and `cargo test` (tests/fuzz_corpus.rs) replays every
//! kept input through them on stable, so a crash once found stays fixed.
//! Each panics exactly when a property fails.

use crate::grid::Grid;
use crate::level::{Alphabet, ParseError};
use crate::level::{Format, Level, parse_levels, parse_single, write_cells, write_levels};
use crate::moves::{Notation, expand_run_lengths};
use crate::multi::MultiOptions;
use crate::tools::verify::{Reading, Verdict, verify_level};

/// Grids the targets read: small, so each run is quick.
const MAX_CELLS: u64 = 4096;

/// Levels of one input the targets go on to check.
const MAX_LEVELS: usize = 4;

const FORMATS: [Format; 7] = [
    Format::Auto,
    Format::Olympiad,
    Format::Xsb,
    Format::Judge,
    Format::Wkbg,
    Format::Bx,
    Format::SnekobanJson,
];

/// Every reader: no panic, and an error points inside the input (a line of
/// it, a column of that line or just past its end).
pub fn readers(data: &[u8]) {
    for format in FORMATS {
        if let Err(e) = parse_levels(data, format, MAX_CELLS) {
            assert_inside(data, &e, format);
        }
    }
    if let Err(e) = parse_single(data, MAX_CELLS) {
        assert_inside(data, &e, Format::Auto);
    }
}

fn assert_inside(data: &[u8], e: &ParseError, format: Format) {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        e.line >= 1 && e.line <= lines.len(),
        "{format:?}: line {} of {}: {e}",
        e.line,
        lines.len()
    );
    let width = lines[e.line - 1].trim_end_matches('\r').chars().count();
    assert!(
        e.col >= 1 && e.col <= width + 1,
        "{format:?}: column {} of a line of {width}: {e}",
        e.col
    );
}

/// `convert`: every format that can write the levels reads them back the same.
pub fn convert(data: &[u8]) {
    let Ok(mut levels) = parse_levels(data, Format::Auto, MAX_CELLS) else {
        return;
    };
    levels.truncate(MAX_LEVELS);
    for format in &FORMATS[1..] {
        let Ok(text) = write_levels(&levels, *format) else {
            continue;
        };
        let back = parse_levels(text.as_bytes(), *format, MAX_CELLS)
            .unwrap_or_else(|e| panic!("{format:?} does not read its own output: {e}\n{text}"));
        assert_eq!(back.len(), levels.len(), "{format:?}\n{text}");
        for (a, b) in levels.iter().zip(&back) {
            assert_eq!(drawn(a), drawn(b), "{format:?}\n{text}");
        }
    }
}

/// A level drawn in XSB letters, what a round trip must keep.
fn drawn(level: &Level) -> String {
    write_cells(
        &level.grid,
        Alphabet::Xsb,
        level.player,
        &level.boxes,
        &level.goals,
        true,
    )
    .unwrap_or_default()
}

/// `verify`: a level (the bytes before the first NUL) and a move string (the
/// bytes after it): no panic, and in each fixed notation the verdict (the
/// first illegal step, or the counts at the end) is what a replayer written
/// apart from the library's finds.
pub fn verify(data: &[u8]) {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let moves = String::from_utf8_lossy(data.get(cut + 1..).unwrap_or_default());
    let Ok(levels) = parse_levels(&data[..cut], Format::Auto, MAX_CELLS) else {
        return;
    };
    let options = MultiOptions {
        limits: crate::multi::Limits {
            max_nodes: Some(2000),
            ..Default::default()
        },
        ..Default::default()
    };
    for level in levels.iter().take(MAX_LEVELS) {
        let _ = verify_level(level, &moves, Reading::Auto, &options);
        for notation in [Notation::Nsew, Notation::Lurd, Notation::Udlr] {
            let verdict = verify_level(level, &moves, Reading::Fixed(notation), &options);
            check_verdict(level, &moves, notation, &verdict);
        }
    }
}

fn check_verdict(level: &Level, moves: &str, notation: Notation, verdict: &Verdict) {
    let expected = match verdict {
        Verdict::Illegal(e) => Err(*e),
        Verdict::Replayed {
            pushes,
            walks,
            solved,
            ..
        } => Ok((*pushes, *walks, *solved)),
        _ => return,
    };
    let Ok(text) = expand_run_lengths(moves) else {
        panic!("a verdict on moves that do not expand: {verdict:?}");
    };
    if let Some(got) = Replayer::new(level).run(&text, notation) {
        assert_eq!(
            got.map_err(|e| (e.0, e.1)),
            expected.map_err(|e| (e.index, e.letter))
        );
    }
}

/// A second replayer, on (row, column) pairs, sharing nothing with
/// [`crate::moves`] but the grid's walls.
struct Replayer<'a> {
    grid: &'a Grid,
    player: (isize, isize),
    boxes: Vec<(isize, isize)>,
    goals: Vec<(isize, isize)>,
}

impl<'a> Replayer<'a> {
    fn new(level: &'a Level) -> Replayer<'a> {
        let at = |cell: usize| {
            let (r, c) = level.grid.position(cell);
            (r as isize, c as isize)
        };
        Replayer {
            grid: &level.grid,
            player: at(level.player),
            boxes: level.boxes.iter().map(|&b| at(b)).collect(),
            goals: level.goals.iter().map(|&g| at(g)).collect(),
        }
    }

    fn wall(&self, (r, c): (isize, isize)) -> bool {
        let (rows, cols) = (self.grid.rows() as isize, self.grid.cols() as isize);
        r < 0
            || c < 0
            || r >= rows
            || c >= cols
            || self.grid.is_wall(self.grid.cell(r as usize, c as usize))
    }

    /// `(pushes, walks, solved)`, or the 1-based index and letter of the
    /// first illegal step; `None` for a letter this replayer does not read.
    #[allow(clippy::type_complexity)]
    fn run(
        mut self,
        text: &str,
        notation: Notation,
    ) -> Option<Result<(u64, u64, bool), (usize, char)>> {
        let (mut pushes, mut walks) = (0, 0);
        let letters = text.chars().filter(|c| !c.is_whitespace());
        for (i, letter) in letters.enumerate() {
            let (dr, dc) = match letter.to_ascii_lowercase() {
                'n' | 'u' => (-1, 0),
                's' | 'd' => (1, 0),
                'e' | 'r' => (0, 1),
                'w' | 'l' => (0, -1),
                _ => return None,
            };
            let push = letter.is_ascii_uppercase();
            let strict = notation != Notation::Udlr;
            let next = (self.player.0 + dr, self.player.1 + dc);
            let beyond = (next.0 + dr, next.1 + dc);
            let boxed = self.boxes.iter().position(|&b| b == next);
            let shown = crate::moves::Notation::letter(
                notation,
                crate::moves::Move {
                    dir: direction(dr, dc),
                    push,
                },
            );
            let illegal = Err((i + 1, shown));
            match boxed {
                _ if self.wall(next) => return Some(illegal),
                Some(_) if strict && !push => return Some(illegal),
                Some(_) if self.wall(beyond) || self.boxes.contains(&beyond) => {
                    return Some(illegal);
                }
                Some(k) => {
                    self.boxes[k] = beyond;
                    pushes += 1;
                }
                None if strict && push => return Some(illegal),
                None => walks += 1,
            }
            self.player = next;
        }
        let solved = self.goals.iter().all(|g| self.boxes.contains(g));
        Some(Ok((pushes, walks, solved)))
    }
}

fn direction(dr: isize, dc: isize) -> crate::grid::Direction {
    use crate::grid::Direction::*;
    match (dr, dc) {
        (-1, _) => North,
        (1, _) => South,
        (_, 1) => East,
        _ => West,
    }
}
