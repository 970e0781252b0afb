//! The solver as the game's helper: a solve from the current position, or
//! the optimizer on the solution played, on a background thread, so the
//! board keeps answering keys while it runs.
//!
//! One-box levels go to the exact single-box solver; the rest to the
//! multi-box search under a time limit (its own clock: the search stops
//! itself and the thread ends with it). The optimizer has its own clock too.

use crate::level::{Level, Maze};
use crate::moves::{Limit, Move, Outcome, Solution};
use crate::multi::{self, Limits, MultiOptions};
use crate::optimize::{self, Metric, OptimizeError, OptimizeOptions};
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

/// Time the optimizer gets per press: its first rounds, where most of the
/// gain is, fit in it, and the player waits no longer than for a hint.
pub const OPTIMIZE_TIME: Duration = Duration::from_secs(5);

/// The limits the game's optimizer runs under.
pub fn optimize_limits() -> Limits {
    Limits {
        time: Some(OPTIMIZE_TIME),
        max_memory: MAX_MEMORY,
        ..Limits::default()
    }
}

/// What optimizing a played solution came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Optimized {
    /// Fewer moves (or as many moves and fewer pushes) than the given one.
    Shorter(Solution),
    /// Nothing better; what cut the search short, if anything.
    NoShorter(Option<Limit>),
}

/// What an optimization thread answers.
pub type OptimizeAnswer = Result<Optimized, OptimizeError>;

/// Optimizes `moves`, a solution of `level` from its start, for moves.
pub fn optimize_now(level: &Level, moves: &[Move], limits: &Limits) -> OptimizeAnswer {
    let options = OptimizeOptions {
        metric: Metric::Moves,
        limits: limits.clone(),
        threads: 1,
    };
    let report = optimize::optimize(level, moves, &options, &mut |_| {})?;
    let cost = |s: &Solution| options.metric.cost(s);
    Ok(if cost(&report.solution) < cost(&report.input) {
        Optimized::Shorter(report.solution)
    } else {
        Optimized::NoShorter(report.limit)
    })
}

/// Work under way on its own thread, answering a `T`.
#[derive(Debug)]
pub struct Pending<T> {
    answer: Receiver<T>,
    /// The answer when the thread died without one (a panic in the search).
    died: T,
}

impl<T: Clone + Send + 'static> Pending<T> {
    fn spawn(died: T, work: impl FnOnce() -> T + Send + 'static) -> Pending<T> {
        let (send, answer) = channel();
        std::thread::spawn(move || {
            // The game may have quit or moved on: nobody listening is fine.
            let _ = send.send(work());
        });
        Pending { answer, died }
    }

    /// The answer once it is there.
    pub fn poll(&self) -> Option<T> {
        match self.answer.try_recv() {
            Ok(answer) => Some(answer),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(self.died.clone()),
        }
    }
}

impl Pending<Outcome> {
    /// Starts solving `level` (its current pieces) in the background.
    pub fn start(level: Level, time_limit: Duration) -> Pending<Outcome> {
        let died = Outcome::Limit(Limit::Stopped);
        Pending::spawn(died, move || solve_now(&level, time_limit))
    }
}

impl Pending<OptimizeAnswer> {
    /// Starts optimizing `moves`, a solution of `level` from its start.
    pub fn optimize(level: Level, moves: Vec<Move>, limits: Limits) -> Pending<OptimizeAnswer> {
        let died = Ok(Optimized::NoShorter(Some(Limit::Stopped)));
        Pending::spawn(died, move || optimize_now(&level, &moves, &limits))
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
    fn the_optimizer_answers_shorter_or_says_there_is_nothing_shorter() {
        let level = parse_xsb(b"#######\n#@$  .#\n#     #\n#######\n", 100)
            .unwrap()
            .remove(0);
        let limits = Limits {
            time: None,
            max_nodes: Some(100_000),
            ..Limits::default()
        };
        let long = crate::moves::parse_moves("RswneRR").unwrap();
        let Ok(Optimized::Shorter(s)) = optimize_now(&level, &long, &limits) else {
            panic!("the detour is not dropped");
        };
        assert_eq!(format_moves(&s.moves, Notation::Lurd), "RRR");
        let best = crate::moves::parse_moves("RRR").unwrap();
        assert_eq!(
            optimize_now(&level, &best, &limits),
            Ok(Optimized::NoShorter(None))
        );
        let unsolved = crate::moves::parse_moves("RR").unwrap();
        assert_eq!(
            optimize_now(&level, &unsolved, &limits),
            Err(OptimizeError::Unsolved)
        );
        let pending = Pending::optimize(level, long, limits);
        let answer = loop {
            if let Some(a) = pending.poll() {
                break a;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(matches!(answer, Ok(Optimized::Shorter(s)) if s.moves.len() == 3));
    }

    #[test]
    fn the_hint_ends_at_the_first_push() {
        let moves = crate::moves::parse_moves("rrUlD").unwrap();
        assert_eq!(format_moves(next_push(&moves), Notation::Lurd), "rrU");
        let walks = crate::moves::parse_moves("rr").unwrap();
        assert_eq!(next_push(&walks).len(), 2);
    }
}
