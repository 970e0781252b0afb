//! The solver as the game's helper: a solve from the current position on a
//! background thread, so the board keeps answering keys while it runs.
//!
//! One-box levels go to the exact single-box solver; the rest to the
//! multi-box search under a time limit (its own clock: the search stops
//! itself and the thread ends with it).

use crate::level::{Level, Maze};
use crate::moves::{Limit, Move, Outcome};
use crate::multi::{self, Limits, MultiOptions};
use crate::single::{self, Algorithm};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

/// Memory the game's search may take: a quarter of the command line's default.
const MAX_MEMORY: usize = 1 << 30;

/// Solves `level` as it stands (its player and boxes are the start).
pub fn solve_now(level: &Level, time_limit: Duration) -> Outcome {
    if let ([box_cell], [target]) = (level.boxes.as_slice(), level.goals.as_slice()) {
        let maze = Maze {
            grid: level.grid.clone(),
            alphabet: level.alphabet,
            player: level.player,
            box_cell: *box_cell,
            target: *target,
        };
        return single::solve(&maze, Algorithm::Layered).outcome;
    }
    let options = MultiOptions {
        limits: Limits {
            time: Some(time_limit),
            max_memory: MAX_MEMORY,
            ..Limits::default()
        },
        threads: 1,
        ..MultiOptions::default()
    };
    multi::solve(level, &options, &mut |_| {}).outcome
}

/// A solve under way on its own thread.
#[derive(Debug)]
pub struct Pending {
    answer: Receiver<Outcome>,
}

impl Pending {
    /// Starts solving `level` (its current pieces) in the background.
    pub fn start(level: Level, time_limit: Duration) -> Pending {
        let (send, answer) = channel();
        std::thread::spawn(move || {
            // The game may have quit or moved on: nobody listening is fine.
            let _ = send.send(solve_now(&level, time_limit));
        });
        Pending { answer }
    }

    /// The answer once it is there.
    pub fn poll(&self) -> Option<Outcome> {
        match self.answer.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(TryRecvError::Empty) => None,
            // The thread died without answering (a panic in the search).
            Err(TryRecvError::Disconnected) => Some(Outcome::Limit(Limit::Stopped)),
        }
    }
}

/// The moves of a solution up to and including its first push: the hint.
pub fn next_push(moves: &[Move]) -> &[Move] {
    match moves.iter().position(|m| m.push) {
        Some(i) => &moves[..=i],
        None => moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::moves::{Notation, format_moves};

    #[test]
    fn one_box_levels_get_the_exact_answer_and_others_the_search() {
        let one = &parse_xsb(b"######\n#@ $.#\n######\n", 100).unwrap()[0];
        let s = solve_now(one, Duration::from_secs(5));
        assert_eq!(
            format_moves(&s.solution().unwrap().moves, Notation::Lurd),
            "rR"
        );
        let two = &parse_xsb(b"#######\n#@$ . #\n#  $. #\n#######", 100).unwrap()[0];
        let s = solve_now(two, Duration::from_secs(5));
        assert_eq!(s.solution().unwrap().pushes, 3);
        let stuck = &parse_xsb(b"######\n#@  .#\n#$   #\n######\n", 100).unwrap()[0];
        assert_eq!(
            solve_now(stuck, Duration::from_secs(5)),
            Outcome::Impossible
        );
    }

    #[test]
    fn the_background_solve_answers_through_its_channel() {
        let level = parse_xsb(b"######\n#@ $.#\n######\n", 100)
            .unwrap()
            .remove(0);
        let pending = Pending::start(level, Duration::from_secs(5));
        let outcome = loop {
            if let Some(o) = pending.poll() {
                break o;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(outcome.solution().unwrap().pushes, 1);
    }

    #[test]
    fn the_hint_ends_at_the_first_push() {
        let moves = crate::moves::parse_moves("rrUlD").unwrap();
        assert_eq!(format_moves(next_push(&moves), Notation::Lurd), "rrU");
        let walks = crate::moves::parse_moves("rr").unwrap();
        assert_eq!(next_push(&walks).len(), 2);
    }
}
