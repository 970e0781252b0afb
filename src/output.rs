//! Answers as text and JSON, the same for every mode and for `bench`.
//!
//! The searches return [`Outcome`]s; this module alone decides how they read,
//! so the contract's output lines live in one place.

use crate::grid::Grid;
use crate::level::{Alphabet, Level, Maze, render_cells};
use crate::moves::{Limit, Move, Notation, Outcome, Position, Solution, format_moves};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::time::Duration;

/// The answer line: the moves, `Impossible.`, or `No solution found (<limit>).`
pub fn answer_line(outcome: &Outcome, notation: Notation) -> String {
    match outcome {
        Outcome::Solved(s) => format_moves(&s.moves, notation),
        Outcome::Impossible => "Impossible.".to_string(),
        Outcome::Limit(why) => format!("No solution found ({why})."),
    }
}

/// An answer as the solving modes print it: under its name when it has one
/// (a level of a collection, a maze of a judge file), then an empty line;
/// with `traced` the board after every push (or move, when its flag is
/// set) of a solution.
pub fn write_answer(
    out: &mut dyn Write,
    name: Option<&str>,
    outcome: &Outcome,
    notation: Notation,
    traced: Option<(TraceBoard, bool)>,
) -> std::io::Result<()> {
    if let Some(name) = name {
        writeln!(out, "{name}")?;
    }
    writeln!(out, "{}", answer_line(outcome, notation))?;
    if let (Some((board, every_move)), Some(s)) = (traced, outcome.solution()) {
        write!(out, "{}", trace(&board, &s.moves, every_move, notation))?;
    }
    if name.is_some() {
        writeln!(out)?;
    }
    Ok(())
}

/// The `status` word of a JSON record.
pub fn status_word(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Solved(_) => "solved",
        Outcome::Impossible => "impossible",
        Outcome::Limit(_) => "limit",
    }
}

/// The `status` of a JSON record: the [`status_word`] of its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordStatus {
    Solved,
    Impossible,
    Limit,
}

impl RecordStatus {
    pub fn of(outcome: &Outcome) -> RecordStatus {
        match outcome {
            Outcome::Solved(_) => RecordStatus::Solved,
            Outcome::Impossible => RecordStatus::Impossible,
            Outcome::Limit(_) => RecordStatus::Limit,
        }
    }
}

/// One level's JSON record, as solving (`--json`, `--multi --json`) and
/// `bench --json` write it and `bench --resume` and `bench --merge` read it
/// back. serde writes the fields in the order declared, which is
/// alphabetical as the records have always been; a field of one mode only
/// is `None` in the others and then left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelRecord {
    /// `bench` single-box: the grid's columns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// `bench` single-box: seconds of one plain flood of the grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flood_seconds: Option<f64>,
    /// Multi-box: nodes generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated: Option<u64>,
    /// The level's place in the whole input: always in `bench`, with
    /// `--shard` when solving.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// What stopped the search, in the words of `No solution found (...)`.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "limit_text")]
    pub limit: Option<Limit>,
    /// `bench` single-box: the search's memory and the grid's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    pub name: String,
    /// Multi-box: the pushes are proven minimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pushes: Option<u64>,
    /// `bench` single-box: solve seconds over flood seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// `bench` single-box: the grid's rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    pub seconds: f64,
    /// States settled (single-box) or nodes expanded (multi-box).
    pub states: u64,
    pub status: RecordStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walks: Option<u64>,
}

impl LevelRecord {
    /// The fields every record has: name, the outcome (status, and the moves
    /// and counts or the limit), states and seconds.
    pub fn new(
        name: &str,
        outcome: &Outcome,
        notation: Notation,
        states: u64,
        elapsed: Duration,
    ) -> LevelRecord {
        let solution = outcome.solution();
        LevelRecord {
            cols: None,
            flood_seconds: None,
            generated: None,
            index: None,
            limit: match outcome {
                Outcome::Limit(why) => Some(*why),
                _ => None,
            },
            memory_bytes: None,
            moves: solution.map(|s| format_moves(&s.moves, notation)),
            name: name.to_string(),
            optimal: None,
            pushes: solution.map(|s| s.pushes),
            ratio: None,
            rows: None,
            seconds: elapsed.as_secs_f64(),
            states,
            status: RecordStatus::of(outcome),
            walks: solution.map(|s| s.walks),
        }
    }

    /// The outcome the record stands for, the limit's kind kept. The moves
    /// stay text (summaries count outcomes, they never replay them), so a
    /// solution comes back with its counts and no moves. An error names the
    /// field the status needs and the record lacks.
    pub fn outcome(&self) -> Result<Outcome, &'static str> {
        match self.status {
            RecordStatus::Solved => Ok(Outcome::Solved(Solution {
                moves: Vec::new(),
                pushes: self.pushes.ok_or("pushes")?,
                walks: self.walks.ok_or("walks")?,
            })),
            RecordStatus::Impossible => Ok(Outcome::Impossible),
            RecordStatus::Limit => self.limit.map(Outcome::Limit).ok_or("limit"),
        }
    }
}

/// Writes `record` as one JSON line.
pub fn write_json_line(out: &mut dyn Write, record: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    writeln!(out)
}

/// A limit in a record, written and read in its words (`Display` and
/// `FromStr` of [`Limit`]).
mod limit_text {
    use crate::moves::Limit;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(limit: &Option<Limit>, s: S) -> Result<S::Ok, S::Error> {
        match limit {
            Some(limit) => s.collect_str(limit),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Limit>, D::Error> {
        let Some(words) = Option::<String>::deserialize(d)? else {
            return Ok(None);
        };
        match words.parse::<Limit>() {
            Ok(limit) => Ok(Some(limit)),
            Err(unknown) => Err(D::Error::custom(format!("{unknown} {words:?}"))),
        }
    }
}

/// A board to trace moves on: its walls, letters, start and goals.
pub struct TraceBoard<'a> {
    pub grid: &'a Grid,
    pub alphabet: Alphabet,
    pub player: usize,
    pub boxes: &'a [usize],
    pub goals: &'a [usize],
}

impl<'a> From<&'a Maze> for TraceBoard<'a> {
    fn from(maze: &'a Maze) -> Self {
        TraceBoard {
            grid: &maze.grid,
            alphabet: maze.alphabet,
            player: maze.player,
            boxes: std::slice::from_ref(&maze.box_cell),
            goals: std::slice::from_ref(&maze.target),
        }
    }
}

impl<'a> From<&'a Level> for TraceBoard<'a> {
    fn from(level: &'a Level) -> Self {
        TraceBoard {
            grid: &level.grid,
            alphabet: level.alphabet,
            player: level.player,
            boxes: &level.boxes,
            goals: &level.goals,
        }
    }
}

/// The board at the start and after every push (or, with `every_move`, every
/// move), each under a line naming the step, each followed by an empty line.
/// The moves must be legal (they come from a solver or a verified answer).
pub fn trace(board: &TraceBoard, moves: &[Move], every_move: bool, notation: Notation) -> String {
    let draw = |pos: &Position| {
        render_cells(
            board.grid,
            board.alphabet,
            pos.player,
            &pos.boxes(),
            board.goals,
        )
    };
    let mut pos = Position::new(board.grid, board.player, board.boxes);
    let mut out = format!("start\n{}\n\n", draw(&pos));
    let mut pushes = 0;
    for (i, &m) in moves.iter().enumerate() {
        if pos.apply(m, notation != Notation::Udlr).is_err() {
            break;
        }
        pushes += m.push as usize;
        if every_move {
            out.push_str(&format!(
                "move {} ({})\n{}\n\n",
                i + 1,
                notation.letter(m),
                draw(&pos)
            ));
        } else if m.push {
            out.push_str(&format!(
                "push {pushes} ({})\n{}\n\n",
                notation.letter(m),
                draw(&pos)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Direction;
    use crate::moves::UnknownLimit;
    use crate::moves::{Move, Solution};

    #[test]
    fn traces_pushes_and_moves() {
        let maze = crate::level::parse_single(b"S.B.T", 10)
            .unwrap()
            .mazes
            .remove(0);
        let board = TraceBoard::from(&maze);
        let moves = crate::moves::parse_moves("eEE").unwrap();
        assert_eq!(
            trace(&board, &moves, false, Notation::Nsew),
            "start\nS.B.T\n\npush 1 (E)\n..SBT\n\npush 2 (E)\n...SB\n\n"
        );
        assert_eq!(
            trace(&board, &moves, true, Notation::Nsew)
                .matches("move ")
                .count(),
            3
        );
    }

    #[test]
    fn lines_and_records() {
        let solved = Outcome::Solved(Solution::from_moves(vec![
            Move::walk(Direction::East),
            Move::push(Direction::North),
        ]));
        assert_eq!(answer_line(&solved, Notation::Nsew), "eN");
        assert_eq!(answer_line(&solved, Notation::Lurd), "rU");
        assert_eq!(
            answer_line(&Outcome::Impossible, Notation::Nsew),
            "Impossible."
        );
        assert_eq!(
            answer_line(
                &Outcome::Limit(Limit::Time(Duration::from_secs(1))),
                Notation::Nsew
            ),
            "No solution found (time limit 1 s)."
        );
        for outcome in [
            &solved,
            &Outcome::Impossible,
            &Outcome::Limit(Limit::Stopped),
        ] {
            let status = serde_json::to_string(&RecordStatus::of(outcome)).unwrap();
            assert_eq!(status, format!("\"{}\"", status_word(outcome)));
        }
        let line = |record: &LevelRecord| {
            let mut out = Vec::new();
            write_json_line(&mut out, record).unwrap();
            String::from_utf8(out).unwrap()
        };
        let record = LevelRecord::new("Maze #1", &solved, Notation::Nsew, 7, Duration::ZERO);
        assert_eq!(
            line(&record),
            "{\"moves\":\"eN\",\"name\":\"Maze #1\",\"pushes\":1,\"seconds\":0.0,\"states\":7,\"status\":\"solved\",\"walks\":1}\n"
        );
        let limited = Outcome::Limit(Limit::Nodes(20));
        let record = LevelRecord {
            index: Some(3),
            ..LevelRecord::new("x", &limited, Notation::Nsew, 0, Duration::ZERO)
        };
        let text = line(&record);
        assert_eq!(
            text,
            "{\"index\":3,\"limit\":\"node limit 20\",\"name\":\"x\",\"seconds\":0.0,\"states\":0,\"status\":\"limit\"}\n"
        );
        let back: LevelRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record);
        assert_eq!(back.outcome(), Ok(limited));
        let record = LevelRecord::new("y", &solved, Notation::Nsew, 0, Duration::ZERO);
        assert_eq!(record.outcome().unwrap().solution().unwrap().pushes, 1);
        let no_counts = LevelRecord {
            walks: None,
            ..record
        };
        assert_eq!(no_counts.outcome(), Err("walks"));
    }

    #[test]
    fn every_limit_reads_back_from_its_words() {
        let limits = [
            Limit::Time(Duration::from_millis(2500)),
            Limit::Time(Duration::from_secs(10)),
            Limit::Nodes(2000),
            Limit::Memory(256 << 20),
            Limit::Stopped,
            Limit::MacrosExhausted,
            Limit::Stalled,
            Limit::TooLarge { cells: 70_000 },
            Limit::WalkCount,
        ];
        for limit in limits {
            assert_eq!(limit.to_string().parse(), Ok(limit), "{limit:?}");
        }
        for words in [
            "",
            "node limit",
            "node limit -1",
            "time limit -1 s",
            "time limit NaN s",
        ] {
            assert_eq!(words.parse::<Limit>(), Err(UnknownLimit), "{words:?}");
        }
        assert_eq!(
            "memory limit 99999999999999999 MB".parse::<Limit>(),
            Err(UnknownLimit)
        );
        let text =
            r#"{"limit":"no such limit","name":"x","seconds":0,"states":0,"status":"limit"}"#;
        let error = serde_json::from_str::<LevelRecord>(text).unwrap_err();
        assert!(error.to_string().contains("unknown limit"), "{error}");
    }
}
