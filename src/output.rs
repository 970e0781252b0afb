//! Answers as text and JSON, the same for every mode and for `bench`.
//!
//! The searches return [`Outcome`]s; this module alone decides how they read,
//! so the contract's output lines live in one place.

use crate::grid::Grid;
use crate::level::{Alphabet, Level, Maze, render_cells};
use crate::moves::{Move, Notation, Outcome, Position, format_moves};
use serde_json::{Value, json};
use std::time::Duration;

/// The answer line: the moves, `Impossible.`, or `No solution found (<limit>).`
pub fn answer_line(outcome: &Outcome, notation: Notation) -> String {
    match outcome {
        Outcome::Solved(s) => format_moves(&s.moves, notation),
        Outcome::Impossible => "Impossible.".to_string(),
        Outcome::Limit(why) => format!("No solution found ({why})."),
    }
}

/// The `status` word of a JSON record.
pub fn status_word(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Solved(_) => "solved",
        Outcome::Impossible => "impossible",
        Outcome::Limit(_) => "limit",
    }
}

/// One JSON record, in the shape the README documents: name, status, moves/pushes/walks when solved,
/// states and seconds, plus any `extra` fields.
pub fn json_record(
    name: &str,
    outcome: &Outcome,
    notation: Notation,
    states: u64,
    elapsed: Duration,
    extra: &[(&str, Value)],
) -> String {
    let mut record = serde_json::Map::new();
    record.insert("name".into(), json!(name));
    record.insert("status".into(), json!(status_word(outcome)));
    if let Outcome::Solved(s) = outcome {
        record.insert("moves".into(), json!(format_moves(&s.moves, notation)));
        record.insert("pushes".into(), json!(s.pushes));
        record.insert("walks".into(), json!(s.walks));
    }
    if let Outcome::Limit(why) = outcome {
        record.insert("limit".into(), json!(why.to_string()));
    }
    record.insert("states".into(), json!(states));
    record.insert("seconds".into(), json!(elapsed.as_secs_f64()));
    for (k, v) in extra {
        record.insert((*k).into(), v.clone());
    }
    Value::Object(record).to_string()
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
    use crate::moves::{Limit, Move, Solution};

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
        let rec = json_record("Maze #1", &solved, Notation::Nsew, 7, Duration::ZERO, &[]);
        let v: Value = serde_json::from_str(&rec).unwrap();
        assert_eq!(v["status"], "solved");
        assert_eq!(v["moves"], "eN");
        assert_eq!(
            (v["pushes"].as_u64(), v["walks"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(v["states"], 7);
        let rec = json_record(
            "x",
            &Outcome::Impossible,
            Notation::Nsew,
            0,
            Duration::ZERO,
            &[],
        );
        let v: Value = serde_json::from_str(&rec).unwrap();
        assert!(v.get("moves").is_none());
        assert_eq!(v["status"], "impossible");
    }
}
