//! Single-box mode: the olympiad problem "Pushing Boxes".
//!
//! One player, one box, one target; the answer has the fewest pushes, then the
//! fewest walks. Two searches give the same optimum: [`Algorithm::Layered`]
//! (default, near-linear, see `single::layered`) and [`Algorithm::Dijkstra`] (a
//! packed-cost Dijkstra with a keyed priority queue, see `single::dijkstra`).
//! Both work on (box cell, push direction) states, never on the product of all
//! player cells and all box cells: between pushes only the side of the box
//! the player stands on matters (`single::sides`).

pub mod bound;
pub(crate) mod cut;
pub(crate) mod dijkstra;
pub(crate) mod flood;
pub(crate) mod layered;
pub(crate) mod sides;

use crate::level::Maze;
use crate::moves::{Limit, Outcome, Solution};

/// Which single-box search to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Algorithm {
    /// Push layers with per-cell side closures; no priority queue.
    #[default]
    Layered,
    /// Dijkstra over the same states with a keyed priority queue.
    Dijkstra,
}

/// What a single-box search measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SingleStats {
    /// States settled (layered) or taken off the queue (Dijkstra).
    pub states: u64,
    /// Searches run to measure walks round the box.
    pub searches: u64,
    /// Bytes of the search's own arrays, grid excluded.
    pub memory_bytes: usize,
}

/// The answer of a single-box search and its statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SingleReport {
    pub outcome: Outcome,
    pub stats: SingleStats,
}

impl SingleReport {
    fn solved(solution: Solution, stats: SingleStats) -> SingleReport {
        SingleReport {
            outcome: Outcome::Solved(solution),
            stats,
        }
    }

    fn impossible(stats: SingleStats) -> SingleReport {
        SingleReport {
            outcome: Outcome::Impossible,
            stats,
        }
    }

    /// Walk counts are 32-bit (the packed cost's low half); a longer optimum is refused.
    fn overflow(stats: SingleStats) -> SingleReport {
        SingleReport {
            outcome: Outcome::Limit(Limit::WalkCount),
            stats,
        }
    }
}

/// Solves a maze exactly: fewest pushes, then fewest walks.
///
/// ```
/// use sokoban::level::parse_single;
/// use sokoban::moves::{format_moves, Notation};
/// use sokoban::single::{solve, Algorithm};
///
/// let maze = &parse_single(b"#####\n#S.B.T#\n", 100).unwrap().mazes[0];
/// let report = solve(maze, Algorithm::Layered);
/// let solution = report.outcome.solution().unwrap();
/// assert_eq!(format_moves(&solution.moves, Notation::Nsew), "eEE");
/// assert_eq!((solution.pushes, solution.walks), (2, 1));
/// ```
pub fn solve(maze: &Maze, algorithm: Algorithm) -> SingleReport {
    if maze.box_cell == maze.target {
        return SingleReport::solved(Solution::default(), SingleStats::default());
    }
    match algorithm {
        Algorithm::Layered => layered::solve(maze),
        Algorithm::Dijkstra => dijkstra::solve(maze),
    }
}
