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
    let width = lines[e.line - 1].chars().count();
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

/// A small grid from fuzz bytes, written as XSB text: `rows x cols` (2 to
/// `max` each), walls where a byte says so, then the player, `boxes` boxes
/// and as many goals on floor cells the bytes pick. `None` when the bytes
/// run out or the pieces do not fit.
fn small_level(data: &[u8], max: usize, boxes: usize) -> Option<String> {
    let mut bytes = data.iter().copied();
    let mut next = || bytes.next();
    let rows = 2 + next()? as usize % (max - 1);
    let cols = 2 + next()? as usize % (max - 1);
    let mut cells: Vec<u8> = (0..rows * cols)
        .map(|_| next().map(|b| if b % 3 == 0 { b'#' } else { b' ' }))
        .collect::<Option<_>>()?;
    let mut pick = |letter: u8, cells: &mut Vec<u8>| -> Option<()> {
        let free: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == b' ').collect();
        let i = *free.get(next()? as usize % free.len().max(1))?;
        cells[i] = letter;
        Some(())
    };
    pick(b'@', &mut cells)?;
    for _ in 0..boxes {
        pick(b'$', &mut cells)?;
    }
    for _ in 0..boxes {
        pick(b'.', &mut cells)?;
    }
    let text: Vec<String> = cells
        .chunks(cols)
        .map(|row| format!("#{}#", String::from_utf8_lossy(row)))
        .collect();
    let wall = "#".repeat(cols + 2);
    Some(format!("{wall}\n{}\n{wall}\n", text.join("\n")))
}

/// Single-box solving on grids up to 8x8: both algorithms give the
/// (pushes, walks) of a plain Dijkstra over (player, box) states, and the
/// answer replays to the box on the target.
pub fn single_solve(data: &[u8]) {
    let Some(text) = small_level(data, 8, 1) else {
        return;
    };
    let Ok(input) = crate::level::parse_single(text.as_bytes(), MAX_CELLS) else {
        return;
    };
    let maze = &input.mazes[0];
    let expected = reference_single(maze);
    for algorithm in [
        crate::single::Algorithm::Layered,
        crate::single::Algorithm::Dijkstra,
    ] {
        let report = crate::single::solve(maze, algorithm);
        let got = report.outcome.solution().map(|s| (s.pushes, s.walks));
        assert_eq!(got, expected, "{algorithm:?}\n{text}");
        if let Some(s) = report.outcome.solution() {
            let end = crate::moves::replay(
                &maze.grid,
                maze.player,
                &[maze.box_cell],
                &s.moves,
                Notation::Nsew,
            )
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert!(end.has_box(maze.target) && (end.pushes, end.walks) == (s.pushes, s.walks));
        }
    }
}

/// Fewest (pushes, walks) by Dijkstra over (player, box), apart from the solvers.
fn reference_single(maze: &crate::level::Maze) -> Option<(u64, u64)> {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let grid = &maze.grid;
    let mut best: HashMap<(usize, usize), (u64, u64)> = HashMap::new();
    let mut heap = BinaryHeap::from([Reverse(((0u64, 0u64), maze.player, maze.box_cell))]);
    while let Some(Reverse((cost, player, boxed))) = heap.pop() {
        if boxed == maze.target {
            return Some(cost);
        }
        if best.get(&(player, boxed)).is_some_and(|&c| c <= cost) {
            continue;
        }
        best.insert((player, boxed), cost);
        for dir in crate::grid::Direction::ALL {
            let next = grid.step(player, dir);
            if grid.is_wall(next) {
                continue;
            }
            let state = if next == boxed {
                let beyond = grid.step(next, dir);
                if grid.is_wall(beyond) {
                    continue;
                }
                ((cost.0 + 1, cost.1), next, beyond)
            } else {
                ((cost.0, cost.1 + 1), next, boxed)
            };
            heap.push(Reverse(state));
        }
    }
    None
}

/// Multi-box solving on levels up to 6x6 with 1 to 3 boxes: A*'s push
/// count is a plain BFS's over pushes, `Impossible.` exactly when that BFS
/// finds nothing, and every answer replays to a solved level.
pub fn multi_solve(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = small_level(rest, 6, 1 + first as usize % 3) else {
        return;
    };
    let Ok(levels) = crate::level::parse_xsb(text.as_bytes(), MAX_CELLS) else {
        return;
    };
    let level = &levels[0];
    let report = crate::multi::solve(level, &MultiOptions::default(), &mut |_| {});
    let expected = reference_multi(level);
    let got = report.outcome.solution().map(|s| s.pushes);
    assert_eq!(got, expected, "{:?}\n{text}", report.outcome);
    if let Some(s) = report.outcome.solution() {
        let end = crate::moves::replay(
            &level.grid,
            level.player,
            &level.boxes,
            &s.moves,
            Notation::Nsew,
        )
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(end.solved(&level.goals), "{text}");
    }
}

/// Fewest pushes by breadth-first search over (boxes, player's area).
fn reference_multi(level: &Level) -> Option<u64> {
    use std::collections::{HashSet, VecDeque};
    let grid = &level.grid;
    let area = |player: usize, boxes: &[usize]| {
        let mut seen = vec![false; grid.len()];
        let mut stack = vec![player];
        seen[player] = true;
        while let Some(c) = stack.pop() {
            for n in grid.neighbours(c) {
                if !grid.is_wall(n) && !seen[n] && !boxes.contains(&n) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        seen
    };
    let mut goals = level.goals.clone();
    goals.sort_unstable();
    let key = |boxes: &[usize], player: usize| {
        let reach = area(player, boxes);
        (boxes.to_vec(), reach.iter().position(|&r| r).unwrap_or(0))
    };
    let mut start = level.boxes.clone();
    start.sort_unstable();
    let mut seen = HashSet::from([key(&start, level.player)]);
    let mut queue = VecDeque::from([(start, level.player, 0u64)]);
    while let Some((boxes, player, pushes)) = queue.pop_front() {
        if boxes == goals {
            return Some(pushes);
        }
        let reach = area(player, &boxes);
        for (k, &b) in boxes.iter().enumerate() {
            for dir in crate::grid::Direction::ALL {
                let from = grid.step(b, dir.opposite());
                let to = grid.step(b, dir);
                if !reach[from] || grid.is_wall(to) || boxes.contains(&to) {
                    continue;
                }
                let mut moved = boxes.clone();
                moved[k] = to;
                moved.sort_unstable();
                if seen.insert(key(&moved, b)) {
                    queue.push_back((moved, b, pushes + 1));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_bytes_make_small_levels() {
        // 2 x 3 floor (1 and 2 are no wall), then player, box, goal picks.
        let bytes = [0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0];
        let text = small_level(&bytes, 8, 1).unwrap();
        assert_eq!(text, "#####\n#@$.#\n#   #\n#####\n");
        assert_eq!(small_level(&bytes[..5], 8, 1), None);
    }

    #[test]
    fn the_references_agree_with_known_answers() {
        let level = &crate::level::parse_xsb(b"#####\n#@$.#\n#   #\n#####\n", 100).unwrap()[0];
        assert_eq!(reference_multi(level), Some(1));
        let stuck = &crate::level::parse_xsb(b"#####\n#@ .#\n#$  #\n#####\n", 100).unwrap()[0];
        assert_eq!(reference_multi(stuck), None);
        let maze = &crate::level::parse_single(b"#####\n#S.B.T#\n#####", 100)
            .unwrap()
            .mazes[0];
        assert_eq!(reference_single(maze), Some((2, 1)));
    }

    #[test]
    fn the_kept_seeds_reach_the_solvers() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/corpus");
        for (target, max, boxes) in [("single_solve", 8, 1), ("multi_solve", 6, 1)] {
            let levels = std::fs::read_dir(dir.join(target))
                .unwrap()
                .filter_map(|e| small_level(&std::fs::read(e.unwrap().path()).unwrap(), max, boxes))
                .count();
            assert!(levels >= 5, "{target}: {levels} seeds make levels");
        }
    }
}
