//! Shorter solutions from a given one, in moves or in pushes.
//!
//! Solution archives keep the best known solution of every level by moves
//! and by pushes, while the solvers answer with few pushes and whatever
//! walks that push order takes (`--fast`: far from either). This module
//! takes any solution and returns one at least as good on the chosen
//! metric: [`optimize`] runs the [`vicinity`] search around the solution's
//! path in rounds that stray further from it while time lasts, each round
//! starting from the best solution so far. Every answer is replayed before
//! it is returned.

mod path;
mod vicinity;
mod walk;

pub use vicinity::Vicinity;

use crate::level::Level;
use crate::moves::{Illegal, Limit, Move, Solution, replay};
use crate::multi::{Limits, Progress};
use path::Path;
use std::time::Instant;
use thiserror::Error;
use vicinity::{Effort, Search};

/// What "shorter" means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Metric {
    /// Fewest moves, then fewest pushes.
    #[default]
    Moves,
    /// Fewest pushes, then fewest moves.
    Pushes,
}

impl Metric {
    /// A solution's cost: the metric's count in the high half, the other
    /// count in the low half, so that integers compare as the metric does.
    pub fn cost(self, s: &Solution) -> u64 {
        let moves = s.pushes + s.walks;
        match self {
            Metric::Moves => (moves << 32) | s.pushes,
            Metric::Pushes => (s.pushes << 32) | moves,
        }
    }

    /// The cost of a push after a walk of `walk` steps.
    fn push_cost(self, walk: u32) -> u64 {
        let moves = walk as u64 + 1;
        match self {
            Metric::Moves => (moves << 32) | 1,
            Metric::Pushes => (1 << 32) | moves,
        }
    }
}

/// What to optimize, and within which limits (time, nodes and memory for
/// the whole level; Ctrl-C stops it with what was found).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptimizeOptions {
    pub metric: Metric,
    pub limits: Limits,
}

/// The rounds, vicinities growing; a round that improves is run again
/// around its answer before the next one.
pub const ROUNDS: [Vicinity; 7] = [
    Vicinity {
        boxes: 1,
        radius: 2,
    },
    Vicinity {
        boxes: 1,
        radius: 4,
    },
    Vicinity {
        boxes: 2,
        radius: 2,
    },
    Vicinity {
        boxes: 1,
        radius: u32::MAX,
    },
    Vicinity {
        boxes: 2,
        radius: 4,
    },
    Vicinity {
        boxes: 3,
        radius: 2,
    },
    Vicinity {
        boxes: 3,
        radius: 4,
    },
];

/// Counters of an optimization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OptimizeStats {
    /// Rounds finished.
    pub rounds: u32,
    /// Rounds that found a better solution.
    pub improvements: u32,
    pub expanded: u64,
    pub generated: u64,
    /// The largest a round's tables grew, in bytes.
    pub memory_bytes: usize,
    /// The widest vicinity searched to the end, if any.
    pub widest: Option<Vicinity>,
}

/// The answer of an optimization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptimizeReport {
    /// The given solution, cut at the push that solves the level.
    pub input: Solution,
    /// The best solution found: never worse than `input` on the metric.
    pub solution: Solution,
    /// What ended the rounds before the last one finished, if anything.
    pub limit: Option<Limit>,
    pub stats: OptimizeStats,
}

/// Why a given solution cannot be optimized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum OptimizeError {
    #[error("the given solution's move {index} {why}")]
    Illegal { index: usize, why: Illegal },
    #[error("the given solution does not solve the level")]
    Unsolved,
}

/// Optimizes the solution `moves` of `level`.
///
/// ```
/// use sokoban::level::parse_xsb;
/// use sokoban::moves::parse_moves;
/// use sokoban::optimize::{optimize, OptimizeOptions};
///
/// let level = &parse_xsb(b"#######\n#@$  .#\n#######", 100).unwrap()[0];
/// let long = parse_moves("RRlrR").unwrap();
/// let report = optimize(level, &long, &OptimizeOptions::default(), &mut |_| {}).unwrap();
/// assert_eq!((report.solution.pushes, report.solution.walks), (3, 0));
/// ```
pub fn optimize(
    level: &Level,
    moves: &[Move],
    options: &OptimizeOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<OptimizeReport, OptimizeError> {
    let mut best = Path::read(level, moves)?;
    let input = best.solution.clone();
    let metric = options.metric;
    let mut effort = Effort {
        limits: &options.limits,
        started: Instant::now(),
        expanded: 0,
        generated: 0,
        memory_peak: 0,
        progress,
    };
    let mut stats = OptimizeStats::default();
    let mut search = Search::new(level, metric);
    let mut limit = None;
    let mut round = 0;
    while round < ROUNDS.len() && best.solution.pushes > 0 {
        let ceiling = metric.cost(&best.solution);
        match search.round(&best.placements, ROUNDS[round], ceiling, &mut effort) {
            Err(reached) => {
                limit = Some(reached);
                break;
            }
            Ok(found) => {
                stats.rounds += 1;
                stats.widest = Some(ROUNDS[round]);
                match found.and_then(|(_, moves)| checked(level, &moves, metric, ceiling)) {
                    Some(better) => {
                        stats.improvements += 1;
                        best = better;
                    }
                    None => round += 1,
                }
            }
        }
    }
    stats.expanded = effort.expanded;
    stats.generated = effort.generated;
    stats.memory_bytes = effort.memory_peak;
    Ok(OptimizeReport {
        input,
        solution: best.solution,
        limit,
        stats,
    })
}

/// `moves` as a path, when they replay strictly, solve the level and cost
/// less than `ceiling`.
fn checked(level: &Level, moves: &[Move], metric: Metric, ceiling: u64) -> Option<Path> {
    let end = replay(
        &level.grid,
        level.player,
        &level.boxes,
        moves,
        crate::moves::Notation::Nsew,
    )
    .ok()?;
    if !end.solved(&level.goals) {
        return None;
    }
    let path = Path::read(level, moves).ok()?;
    (metric.cost(&path.solution) < ceiling).then_some(path)
}

/// A given solution as [`optimize`] reads it: the moves up to the push that
/// solves the level, each letter's case set by what the step does.
pub fn read_solution(level: &Level, moves: &[Move]) -> Result<Solution, OptimizeError> {
    Path::read(level, moves).map(|path| path.solution)
}
