//! Multi-box mode: full Sokoban levels, searched push by push.
//!
//! The public face is [`solve`] with the plain data of [`options`]; the rest
//! is the crate's own. The rooms, top to bottom; each imports only those
//! below it:
//!
//! - entry: this file (one level: plain search or `--fast`) and
//!   `portfolio` (`--fast`: several searches side by side, first answer
//!   wins);
//! - `search`: one search (A* or another method) over box sets: open
//!   lists, expansion and pruning, the incremental bound, macros, solution
//!   rebuilding, each in a file of its own;
//! - `guide`: what steers the non-optimal searches (packing order,
//!   backward plan with parking, the unpacking plan, goal rooms, the
//!   meeting table);
//! - `deadlock`: every proof that a position is dead (freeze, corrals,
//!   the subset search, fences, learned patterns and their store);
//! - the foundations: `board` (the level prepared once: compact cells,
//!   dead squares, push distances, Zobrist keys), `cell` (the compact
//!   cell number), `rows` (the floor as row masks, for floods a row at a
//!   time), `bound` (the matching lower bound), `table` (nodes and the
//!   transposition table), [`options`] (what a solve is asked and reports).
//!
//! `guide` and `deadlock` never import `search` or `portfolio`, nor each
//! other; the foundations import nothing above them.

pub(crate) mod board;
pub(crate) mod bound;
pub(crate) mod cell;
pub(crate) mod deadlock;
pub(crate) mod guide;
pub mod options;
pub(crate) mod portfolio;
pub(crate) mod rows;
pub(crate) mod search;
pub(crate) mod table;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod waypoint;

pub use options::{DEFAULT_MAX_MEMORY_MB, Limits, Method, MultiOptions, MultiStats, Progress};

use crate::level::Level;
use crate::moves::{Limit, Outcome};
use board::{Board, Unsearchable};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The answer of a multi-box solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiReport {
    pub outcome: Outcome,
    pub stats: MultiStats,
    /// True when a solution's push count is proven minimal (with `--fast`,
    /// when plain A* found it).
    pub optimal: bool,
}

/// Solves one level.
///
/// ```
/// use sokoban::level::parse_xsb;
/// use sokoban::multi::{solve, MultiOptions};
///
/// let level = &parse_xsb(b"#######\n#@$ . #\n#  $. #\n#######", 100).unwrap()[0];
/// let report = solve(level, &MultiOptions::default(), &mut |_| {});
/// assert_eq!(report.outcome.solution().unwrap().pushes, 3);
/// assert!(report.optimal);
/// ```
pub fn solve(
    level: &Level,
    options: &MultiOptions,
    progress: &mut dyn FnMut(&Progress),
) -> MultiReport {
    let board = match Board::new(level) {
        Ok(b) => b,
        Err(Unsearchable::Unsolvable) => {
            return MultiReport {
                outcome: Outcome::Impossible,
                stats: MultiStats::default(),
                optimal: true,
            };
        }
        Err(Unsearchable::TooLarge(cells)) => {
            return MultiReport {
                outcome: Outcome::Limit(Limit::TooLarge { cells }),
                stats: MultiStats::default(),
                optimal: false,
            };
        }
    };
    let (outcome, stats, optimal) = if options.fast {
        portfolio::fast(&board, options, progress)
    } else {
        let stop = AtomicBool::new(false);
        let packing = options
            .method
            .uses_packing()
            .then(|| guide::packing::Packing::find(&board));
        // Fences prune the non-optimal methods' positions; they are worked
        // out within a part of the time, and the search has the rest.
        let started = Instant::now();
        // A time past what the clock holds is no limit.
        let deadline = options.limits.time.and_then(|t| started.checked_add(t / 4));
        let give_up = || deadline.is_some_and(|d| Instant::now() >= d);
        let fences = (!options.method.optimal())
            .then(|| Arc::new(deadlock::fence::fences(&board, &give_up)));
        let config = search::Config {
            method: options.method,
            weight: 1,
            rooms: None,
            packing: packing.as_ref(),
            meet: None,
            stall: None,
            fences: fences.as_ref(),
            order: search::CellOrder::NearFirst,
            advisors: search::AdvisorSet::MAKE_ROOM,
        };
        let limits = Limits {
            time: options
                .limits
                .time
                .map(|t| t.saturating_sub(started.elapsed())),
            ..options.limits.clone()
        };
        let (mut outcome, stats) = search::run(&board, &config, &limits, &stop, progress);
        let (generated, memory) = (stats.generated, stats.memory_bytes);
        options
            .limits
            .name_users_limit(&mut outcome, started, generated, memory);
        (outcome, stats, config.optimal())
    };
    MultiReport {
        outcome,
        stats,
        optimal,
    }
}
