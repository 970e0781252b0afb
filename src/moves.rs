//! Moves, their notations, and replaying a move string on a board.
//!
//! One replay serves both modes and `verify`: it checks every step against the
//! rules (walls, boxes, a push letter only where a box moves) so that every
//! answer the tests see can be checked without trusting the solver.

use crate::grid::{Direction, Grid};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

/// One step of the player: a walk, or a push of the box in front of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub dir: Direction,
    pub push: bool,
}

impl Move {
    pub fn walk(dir: Direction) -> Move {
        Move { dir, push: false }
    }

    pub fn push(dir: Direction) -> Move {
        Move { dir, push: true }
    }
}

/// A solution: its moves and their counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solution {
    pub moves: Vec<Move>,
    pub pushes: u64,
    pub walks: u64,
}

impl Solution {
    /// Counts pushes and walks of a move list.
    pub fn from_moves(moves: Vec<Move>) -> Solution {
        let pushes = moves.iter().filter(|m| m.push).count() as u64;
        let walks = moves.len() as u64 - pushes;
        Solution {
            moves,
            pushes,
            walks,
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved(Solution),
    /// The whole search space was explored: no solution exists.
    Impossible,
    /// A limit was reached first; its `Display` names it.
    Limit(Limit),
}

/// What stopped a search before it had an answer. The searches return it;
/// its `Display` gives the words of `No solution found (<limit>).`, of JSON
/// records and of the game's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The time limit the user set.
    Time(std::time::Duration),
    /// The limit on nodes generated.
    Nodes(u64),
    /// The limit on search memory, in bytes.
    Memory(usize),
    /// Another search of the same solve answered first.
    Stopped,
    /// A search that fills goal rooms by macros ran out of positions: not a
    /// proof that the level is impossible (the macros drop solutions).
    MacrosExhausted,
    /// The plan search of `--fast` packed no target more than before within
    /// its budget of nodes, and gave way to the next search.
    Stalled,
    /// A multi-box level with more floor cells than the search can number.
    TooLarge { cells: usize },
    /// A single-box answer whose walk count does not fit the counters.
    WalkCount,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Time(t) => write!(f, "time limit {} s", t.as_secs_f64()),
            Limit::Nodes(n) => write!(f, "node limit {n}"),
            Limit::Memory(bytes) => write!(f, "memory limit {} MB", bytes >> 20),
            Limit::Stopped => f.write_str("stopped"),
            Limit::MacrosExhausted => f.write_str("no solution with goal-room macros"),
            Limit::Stalled => f.write_str("no progress along the packing order"),
            Limit::TooLarge { cells } => write!(f, "level of {cells} floor cells is too large"),
            Limit::WalkCount => write!(f, "walk count over {}", u32::MAX - 1),
        }
    }
}

/// Words that a [`Limit`] never writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("unknown limit")]
pub struct UnknownLimit;

/// Reads back the words a limit writes (`bench --resume`, `--merge`). A
/// memory limit comes back in
/// whole MB, as it was written.
impl FromStr for Limit {
    type Err = UnknownLimit;

    fn from_str(words: &str) -> Result<Limit, UnknownLimit> {
        let number = |text: &str| text.parse::<u64>().map_err(|_| UnknownLimit);
        let fixed = [
            (Limit::Stopped, Limit::Stopped.to_string()),
            (Limit::MacrosExhausted, Limit::MacrosExhausted.to_string()),
            (Limit::WalkCount, Limit::WalkCount.to_string()),
            (Limit::Stalled, Limit::Stalled.to_string()),
        ];
        if let Some((limit, _)) = fixed.iter().find(|(_, w)| w == words) {
            return Ok(*limit);
        }
        if let Some(seconds) = between(words, "time limit ", " s") {
            let seconds = seconds.parse::<f64>().map_err(|_| UnknownLimit)?;
            return Duration::try_from_secs_f64(seconds)
                .map(Limit::Time)
                .map_err(|_| UnknownLimit);
        }
        if let Some(nodes) = words.strip_prefix("node limit ") {
            return Ok(Limit::Nodes(number(nodes)?));
        }
        if let Some(mb) = between(words, "memory limit ", " MB") {
            let bytes = number(mb)?.checked_mul(1 << 20).ok_or(UnknownLimit)?;
            return usize::try_from(bytes)
                .map(Limit::Memory)
                .map_err(|_| UnknownLimit);
        }
        if let Some(cells) = between(words, "level of ", " floor cells is too large") {
            let cells = usize::try_from(number(cells)?).map_err(|_| UnknownLimit)?;
            return Ok(Limit::TooLarge { cells });
        }
        Err(UnknownLimit)
    }
}

/// The text of `words` between `prefix` and `suffix`.
fn between<'a>(words: &'a str, prefix: &str, suffix: &str) -> Option<&'a str> {
    words.strip_prefix(prefix)?.strip_suffix(suffix)
}

impl Outcome {
    pub fn solution(&self) -> Option<&Solution> {
        match self {
            Outcome::Solved(s) => Some(s),
            _ => None,
        }
    }
}

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// Walks `n s e w`, pushes `N S E W` (the olympiad's letters).
    #[default]
    Nsew,
    /// Walks `l u r d`, pushes `L U R D` (the Sokoban community's).
    Lurd,
    /// `U D L R` for every step, no walk/push distinction (some course solvers print it).
    Udlr,
}

impl Notation {
    /// The letter of one move.
    pub fn letter(self, m: Move) -> char {
        let lower = match self {
            Notation::Nsew => match m.dir {
                Direction::North => 'n',
                Direction::South => 's',
                Direction::East => 'e',
                Direction::West => 'w',
            },
            Notation::Lurd | Notation::Udlr => match m.dir {
                Direction::North => 'u',
                Direction::South => 'd',
                Direction::East => 'r',
                Direction::West => 'l',
            },
        };
        if m.push || self == Notation::Udlr {
            lower.to_ascii_uppercase()
        } else {
            lower
        }
    }
}

/// Writes moves in a notation.
pub fn format_moves(moves: &[Move], notation: Notation) -> String {
    moves.iter().map(|&m| notation.letter(m)).collect()
}

/// A letter that is no move in any notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{letter:?} at move {index} is not a move letter (n s e w, l u r d, either case)")]
pub struct BadLetter {
    /// 1-based position among the move letters.
    pub index: usize,
    pub letter: char,
}

/// A move string that cannot be read: a stray letter or a broken run-length code.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BadMoves {
    #[error(transparent)]
    Letter(#[from] BadLetter),
    #[error(transparent)]
    RunLength(#[from] RunLengthError),
}

/// Reads a move string in `nsew` or `lurd` (case tells push from walk); white
/// space is skipped, run-length codes (`3l2U`, `2(lU)`) are expanded.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, BadMoves> {
    let text = expand_run_lengths(text)?;
    let mut out = Vec::new();
    for letter in text.chars().filter(|c| !c.is_whitespace()) {
        let dir = match letter.to_ascii_lowercase() {
            'n' | 'u' => Direction::North,
            's' | 'd' => Direction::South,
            'e' | 'r' => Direction::East,
            'w' | 'l' => Direction::West,
            _ => {
                return Err(BadLetter {
                    index: out.len() + 1,
                    letter,
                }
                .into());
            }
        };
        out.push(Move {
            dir,
            push: letter.is_ascii_uppercase(),
        });
    }
    Ok(out)
}

/// The most moves a run-length code may expand to (a guard against `999999999l`).
pub const MAX_EXPANDED_MOVES: usize = 1 << 24;

/// What is wrong with a run-length code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum RunLengthProblem {
    #[error("a count with no move or group after it")]
    DanglingCount,
    #[error("a count of 0")]
    ZeroCount,
    #[error("'(' is never closed")]
    Unclosed,
    #[error("')' with no '(' before it")]
    UnmatchedClose,
    #[error("an empty group '()'")]
    EmptyGroup,
    #[error("it expands to more than {MAX_EXPANDED_MOVES} moves")]
    TooLong,
}

/// A broken run-length code and where (1-based character of the text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("run-length code at character {index}: {why}")]
pub struct RunLengthError {
    pub index: usize,
    pub why: RunLengthProblem,
}

/// Expands run-length codes as SOK files write them: a count before a move
/// (`3l`) or before a parenthesized group (`2(lU)`, nested freely). Text with
/// no digits or parentheses comes back unchanged.
pub fn expand_run_lengths(text: &str) -> Result<String, RunLengthError> {
    use RunLengthProblem as P;
    if !text.contains(|c: char| c.is_ascii_digit() || c == '(' || c == ')') {
        return Ok(text.to_string());
    }
    let fail = |index, why| RunLengthError { index, why };
    let mut out = String::new();
    // Open groups: where each starts in `out`, its count, its '(' position.
    let mut open: Vec<(usize, usize, usize)> = Vec::new();
    let mut count: Option<(usize, usize)> = None; // (value, position of its first digit)
    for (i, c) in text.chars().enumerate().map(|(i, c)| (i + 1, c)) {
        let times = |count: Option<(usize, usize)>| match count {
            Some((0, at)) => Err(fail(at, P::ZeroCount)),
            Some((n, _)) => Ok(n),
            None => Ok(1),
        };
        if let Some(d) = c.to_digit(10) {
            let (n, at) = count.unwrap_or((0, i));
            let n = n * 10 + d as usize;
            if n > MAX_EXPANDED_MOVES {
                return Err(fail(at, P::TooLong));
            }
            count = Some((n, at));
        } else if c == '(' {
            open.push((out.len(), times(count.take())?, i));
        } else if c == ')' {
            if let Some((_, at)) = count {
                return Err(fail(at, P::DanglingCount));
            }
            let Some((start, n, _)) = open.pop() else {
                return Err(fail(i, P::UnmatchedClose));
            };
            if out.len() == start {
                return Err(fail(i, P::EmptyGroup));
            }
            if (out.len() - start).saturating_mul(n) > MAX_EXPANDED_MOVES {
                return Err(fail(i, P::TooLong));
            }
            let group = out[start..].to_string();
            for _ in 1..n {
                out.push_str(&group);
            }
        } else if c.is_whitespace() {
            continue;
        } else {
            let n = times(count.take())?;
            if out.len() + n > MAX_EXPANDED_MOVES {
                return Err(fail(i, P::TooLong));
            }
            out.extend(std::iter::repeat_n(c, n));
        }
    }
    if let Some((_, at)) = count {
        return Err(fail(at, P::DanglingCount));
    }
    if let Some(&(_, _, at)) = open.last() {
        return Err(fail(at, P::Unclosed));
    }
    Ok(out)
}

/// Why a step cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Illegal {
    #[error("walks into a wall")]
    IntoWall,
    #[error("pushes a box into a wall")]
    BoxIntoWall,
    #[error("pushes a box into another box")]
    BoxIntoBox,
    #[error("walk letter where the step pushes a box (use upper case)")]
    WalkIntoBox,
    #[error("push letter where there is no box to push (use lower case)")]
    PushWithoutBox,
}

/// The first illegal step of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("move {index} ({letter}) {why}")]
pub struct ReplayError {
    /// 1-based index of the step.
    pub index: usize,
    pub letter: char,
    pub why: Illegal,
}

/// A position during a replay: the player and a box set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<'g> {
    grid: &'g Grid,
    pub player: usize,
    boxes: Vec<bool>,
    pub pushes: u64,
    pub walks: u64,
}

impl<'g> Position<'g> {
    pub fn new(grid: &'g Grid, player: usize, boxes: &[usize]) -> Position<'g> {
        let mut marks = vec![false; grid.len()];
        for &b in boxes {
            marks[b] = true;
        }
        Position {
            grid,
            player,
            boxes: marks,
            pushes: 0,
            walks: 0,
        }
    }

    pub fn has_box(&self, cell: usize) -> bool {
        self.boxes[cell]
    }

    /// Box cells in index order.
    pub fn boxes(&self) -> Vec<usize> {
        (0..self.boxes.len()).filter(|&c| self.boxes[c]).collect()
    }

    /// Makes one move, or says why it is illegal (the position is then unchanged).
    /// With `strict_case` false, the letter's case is ignored (for `udlr` strings).
    pub fn apply(&mut self, m: Move, strict_case: bool) -> Result<(), Illegal> {
        let next = self.grid.step(self.player, m.dir);
        if self.grid.is_wall(next) {
            return Err(Illegal::IntoWall);
        }
        if self.boxes[next] {
            if strict_case && !m.push {
                return Err(Illegal::WalkIntoBox);
            }
            let beyond = self.grid.step(next, m.dir);
            if self.grid.is_wall(beyond) {
                return Err(Illegal::BoxIntoWall);
            }
            if self.boxes[beyond] {
                return Err(Illegal::BoxIntoBox);
            }
            self.boxes[next] = false;
            self.boxes[beyond] = true;
            self.pushes += 1;
        } else {
            if strict_case && m.push {
                return Err(Illegal::PushWithoutBox);
            }
            self.walks += 1;
        }
        self.player = next;
        Ok(())
    }

    /// True when every goal holds a box.
    pub fn solved(&self, goals: &[usize]) -> bool {
        goals.iter().all(|&g| self.boxes[g])
    }
}

/// Replays `moves` from a start; the final position, or the first illegal step.
pub fn replay<'g>(
    grid: &'g Grid,
    player: usize,
    boxes: &[usize],
    moves: &[Move],
    notation: Notation,
) -> Result<Position<'g>, ReplayError> {
    let mut pos = Position::new(grid, player, boxes);
    for (i, &m) in moves.iter().enumerate() {
        pos.apply(m, notation != Notation::Udlr)
            .map_err(|why| ReplayError {
                index: i + 1,
                letter: notation.letter(m),
                why,
            })?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_in_words() {
        let cases = [
            (
                Limit::Time(std::time::Duration::from_millis(1500)),
                "time limit 1.5 s",
            ),
            (Limit::Nodes(7), "node limit 7"),
            (Limit::Memory(3 << 20), "memory limit 3 MB"),
            (Limit::Stopped, "stopped"),
            (Limit::MacrosExhausted, "no solution with goal-room macros"),
            (Limit::Stalled, "no progress along the packing order"),
            (
                Limit::TooLarge { cells: 9 },
                "level of 9 floor cells is too large",
            ),
            (Limit::WalkCount, "walk count over 4294967294"),
        ];
        for (limit, words) in cases {
            assert_eq!(limit.to_string(), words);
        }
    }

    #[test]
    fn notations_write_and_read_back() {
        let moves = vec![
            Move::walk(Direction::North),
            Move::push(Direction::East),
            Move::walk(Direction::West),
            Move::push(Direction::South),
        ];
        assert_eq!(format_moves(&moves, Notation::Nsew), "nEwS");
        assert_eq!(format_moves(&moves, Notation::Lurd), "uRlD");
        assert_eq!(format_moves(&moves, Notation::Udlr), "URLD");
        assert_eq!(parse_moves("nEwS").unwrap(), moves);
        assert_eq!(parse_moves("u R l\nD").unwrap(), moves);
        assert_eq!(
            parse_moves("nx").unwrap_err(),
            BadMoves::Letter(BadLetter {
                index: 2,
                letter: 'x'
            })
        );
    }

    #[test]
    fn run_lengths_expand() {
        assert_eq!(expand_run_lengths("3l2U").unwrap(), "lllUU");
        assert_eq!(expand_run_lengths("2(lU)r").unwrap(), "lUlUr");
        assert_eq!(expand_run_lengths("2(u2(rD))").unwrap(), "urDrDurDrD");
        assert_eq!(expand_run_lengths("12d").unwrap(), "d".repeat(12));
        assert_eq!(expand_run_lengths("(lu)").unwrap(), "lu");
        assert_eq!(expand_run_lengths("lurd").unwrap(), "lurd");
        assert_eq!(parse_moves("2(rR)").unwrap(), parse_moves("rRrR").unwrap());
    }

    #[test]
    fn broken_run_lengths_name_the_place() {
        use RunLengthProblem as P;
        let cases = [
            ("ll3", 3, P::DanglingCount),
            ("2(l3)", 4, P::DanglingCount),
            ("l0u", 2, P::ZeroCount),
            ("0(lu)", 1, P::ZeroCount),
            ("l(u(r)", 2, P::Unclosed),
            ("lu)", 3, P::UnmatchedClose),
            ("3()", 3, P::EmptyGroup),
            ("99999999999l", 1, P::TooLong),
            ("9999999(9999999(l))", 19, P::TooLong),
        ];
        for (text, index, why) in cases {
            assert_eq!(
                expand_run_lengths(text),
                Err(RunLengthError { index, why }),
                "{text}"
            );
            assert!(matches!(parse_moves(text), Err(BadMoves::RunLength(_))));
        }
    }

    #[test]
    fn replay_names_the_first_illegal_step() {
        let mut g = Grid::new(1, 4);
        for c in 0..4 {
            g.set_floor(g.cell(0, c));
        }
        let (p, b) = (g.cell(0, 0), g.cell(0, 1));
        let ok = replay(&g, p, &[b], &parse_moves("EE").unwrap(), Notation::Nsew).unwrap();
        assert_eq!(
            (ok.pushes, ok.walks, ok.has_box(g.cell(0, 3))),
            (2, 0, true)
        );
        let e = replay(&g, p, &[b], &parse_moves("EEE").unwrap(), Notation::Nsew).unwrap_err();
        assert_eq!((e.index, e.why), (3, Illegal::BoxIntoWall));
        let e = replay(&g, p, &[b], &parse_moves("e").unwrap(), Notation::Nsew).unwrap_err();
        assert_eq!(e.why, Illegal::WalkIntoBox);
        let e = replay(&g, p, &[b], &parse_moves("W").unwrap(), Notation::Nsew).unwrap_err();
        assert_eq!(e.why, Illegal::IntoWall);
        let e = replay(&g, b, &[], &parse_moves("E").unwrap(), Notation::Nsew).unwrap_err();
        assert_eq!(e.why, Illegal::PushWithoutBox);
        let ok = replay(&g, p, &[b], &parse_moves("RR").unwrap(), Notation::Udlr).unwrap();
        assert_eq!(ok.pushes, 2);
    }
}
