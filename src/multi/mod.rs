//! Multi-box mode: full Sokoban levels, searched push by push.
//!
//! [`board`] prepares a level once (compact cells, dead squares, push
//! distances, Zobrist keys); [`search`] runs A* (or another method) over box
//! sets with the matching bound of [`bound`], the freeze deadlocks of
//! [`deadlock`], the corrals of [`corral`] and the dead corrals of
//! [`subset`], storing nodes in the table of [`table`]. For `--fast`,
//! [`room`] works out how to fill goal rooms, and the search's non-optimal
//! lanes move boxes into them by those macros.

pub mod board;
pub mod bound;
pub mod corral;
pub mod deadlock;
pub mod room;
pub mod search;
pub mod subset;
pub mod table;

use crate::level::Level;
use crate::moves::Outcome;
use board::{Board, Unsearchable};
use room::Rooms;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Search method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// A* on pushes with the matching bound: push-optimal.
    #[default]
    AStar,
    /// Breadth-first over pushes: push-optimal, no bound to guide it.
    Bfs,
    /// Depth-first: finds some solution, usually long.
    Dfs,
    /// Uniform cost (Dijkstra on pushes), ties broken by the bound: push-optimal.
    Ucs,
    /// Greedy best-first on the bound alone: fast, not optimal.
    Greedy,
    /// Greedy best-first inside each cell of a feature space (the number of
    /// areas the boxes cut the floor into), the cells taken in turn: a
    /// search that keeps trying every kind of position it has met, in the
    /// manner of Festival's FESS. Not optimal.
    Features,
    /// The feature search with a box's whole path as one step: after each
    /// expansion, the boxes it moved are pushed on as far as they go, every
    /// position reached generated at once. Not optimal.
    BoxMoves,
}

impl Method {
    /// True when the method's answers have the fewest pushes (without `--fast`).
    pub fn optimal(self) -> bool {
        matches!(self, Method::AStar | Method::Bfs | Method::Ucs)
    }
}

/// When to give up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub max_nodes: Option<u64>,
    /// Bytes of search memory (nodes, table, open list).
    pub max_memory: usize,
}

/// Default memory bound: 4 GiB, a sixth of the 24 GiB machines this runs on.
pub const DEFAULT_MAX_MEMORY_MB: usize = 4096;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: None,
            max_nodes: None,
            max_memory: DEFAULT_MAX_MEMORY_MB << 20,
        }
    }
}

impl Limits {
    /// The node limit, when `nodes` generated reach it (checked at every
    /// expansion, so the count is exact), worded for `No solution found (<limit>).`
    pub fn nodes_reached(&self, nodes: u64) -> Option<String> {
        match self.max_nodes {
            Some(n) if nodes >= n => Some(format!("node limit {n}")),
            _ => None,
        }
    }

    /// The time or memory limit reached, worded likewise.
    pub fn reached(&self, started: Instant, memory: usize) -> Option<String> {
        if let Some(t) = self.time
            && started.elapsed() >= t
        {
            return Some(format!("time limit {} s", t.as_secs_f64()));
        }
        if memory >= self.max_memory {
            return Some(format!("memory limit {} MB", self.max_memory >> 20));
        }
        None
    }
}

/// Options of a multi-box solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MultiOptions {
    pub method: Method,
    /// A portfolio of searches beside plain A* (the feature-space searches,
    /// and weighted A* from three threads): reaches harder levels, not
    /// optimal (see [`fast`]).
    pub fast: bool,
    pub limits: Limits,
    /// Threads for the `--fast` portfolio (0 or 1: one after another).
    pub threads: usize,
}

/// Counters of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MultiStats {
    pub expanded: u64,
    pub generated: u64,
    pub memory_bytes: usize,
    /// The matching bound of the start position.
    pub lower_bound: u32,
}

/// A snapshot for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub expanded: u64,
    pub generated: u64,
    /// Pushes of the node being expanded.
    pub depth: u32,
    /// Its f value (pushes plus bound).
    pub bound: u32,
    pub elapsed: Duration,
}

/// The answer of a multi-box solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiReport {
    pub outcome: Outcome,
    pub stats: MultiStats,
    /// True when a solution's push count is proven minimal (with `--fast`,
    /// when plain A* found it).
    pub optimal: bool,
}

/// One search of a `--fast` lane: its method, the weight on the bound, the
/// share of the lane's limits it may use (1 = all that is left), and whether
/// it fills goal rooms by their macros.
type Phase = (Method, u32, u32, bool);

/// The lanes of `--fast` for a number of threads: each lane runs its phases
/// one after another, and the lanes run side by side.
///
/// The feature-space searches are the strongest. [`Method::Features`] alone
/// on one thread for 10 s solves all of Microban I and 134 of Microban II
/// (109 in 0.02 s, where weighted A* took 7 s; 130, which nothing else here
/// solved), and 5 of the 31 Sasquatch levels the lanes before it missed.
/// [`Method::BoxMoves`] solves others (Sasquatch 10, 12, 18, 31) and misses
/// some of those (3, 16, 49); neither solves Microban II 124, which plain
/// A* does in 3.4 s. So on two threads one runs the feature search all the
/// time, the other the box-move search for half the time and then plain A*
/// (two threads: Sasquatch 27 of 50 and Microban II 135; with the box-move
/// search all the time instead, Sasquatch 28 but Microban II 134; the
/// layout before these searches, plain then weighted A* beside greedy then
/// weighted A*, 19 and 134). One thread runs the three a third each; three
/// threads and more give each its own, then add weighted A* (weights 2
/// and 3) and greedy. All but plain A* use the macros of [`room`] and
/// corridor rides.
fn lanes(threads: usize) -> Vec<Vec<Phase>> {
    const ASTAR: Phase = (Method::AStar, 1, 1, false);
    const WEIGHTED: Phase = (Method::AStar, 3, 1, true);
    const FEATURES: Phase = (Method::Features, 1, 1, true);
    match threads {
        0 | 1 => vec![vec![
            (Method::Features, 1, 3, true),
            (Method::BoxMoves, 1, 3, true),
            ASTAR,
        ]],
        2 => vec![vec![FEATURES], vec![(Method::BoxMoves, 1, 2, true), ASTAR]],
        n => {
            // Six different searches at most: more lanes would repeat one
            // and thin out everyone's share of the memory.
            let mut lanes = vec![
                vec![ASTAR],
                vec![FEATURES],
                vec![(Method::BoxMoves, 1, 1, true)],
                vec![(Method::AStar, 2, 1, true)],
                vec![WEIGHTED],
                vec![(Method::Greedy, 1, 1, true)],
            ];
            lanes.truncate(n);
            lanes
        }
    }
}

/// Nodes plain A* may generate alone before the lanes of `--fast` start (a
/// few milliseconds): most small levels end within them.
const ALONE_NODES: u64 = 10_000;

/// What one lane found: the outcome, its counters, and whether the answer
/// came from plain A* (so is push-optimal).
type LaneResult = (Outcome, MultiStats, bool);

/// Runs one lane's phases until one of them ends without hitting a limit
/// (or `stop` is raised by another lane). A phase with goal-room macros that
/// runs out of positions proves nothing, so it runs again without them.
fn run_lane(
    board: &Board,
    rooms: &OnceLock<Rooms>,
    phases: &[Phase],
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> LaneResult {
    let started = Instant::now();
    let mut total = MultiStats::default();
    let mut last = (Outcome::Impossible, false);
    let mut todo: std::collections::VecDeque<Phase> = phases.iter().copied().collect();
    while let Some((method, weight, share, macros)) = todo.pop_front() {
        let final_phase = todo.is_empty() || share == 1;
        // The first lane to need the rooms finds them; the others wait for it
        // (inside the lane's time: levels with big rooms take a while).
        let rooms = if macros {
            Some(rooms.get_or_init(|| Rooms::find(board)))
        } else {
            None
        };
        let left_time = limits.time.map(|t| t.saturating_sub(started.elapsed()));
        let left_nodes = limits.max_nodes.map(|n| n.saturating_sub(total.generated));
        let phase = Limits {
            time: if final_phase {
                left_time
            } else {
                Some(limits.time.map_or(Duration::from_secs(10), |t| t / share))
            },
            max_nodes: if final_phase {
                left_nodes
            } else {
                Some(limits.max_nodes.map_or(2_000_000, |n| n / share as u64))
            },
            max_memory: if final_phase {
                limits.max_memory
            } else {
                limits.max_memory / share as usize
            },
        };
        let (outcome, stats) = search::run(board, method, weight, rooms, &phase, stop, progress);
        total.expanded += stats.expanded;
        total.generated += stats.generated;
        total.memory_bytes = total.memory_bytes.max(stats.memory_bytes);
        total.lower_bound = stats.lower_bound;
        if matches!(&outcome, Outcome::Limit(why) if why == search::MACROS_EXHAUSTED) {
            todo.push_front((method, weight, share, false));
        }
        last = (
            outcome,
            method == Method::AStar && weight == 1 && rooms.is_none(),
        );
        if !matches!(last.0, Outcome::Limit(_)) || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    (last.0, total, last.1)
}

/// `--fast`: plain A* alone for [`ALONE_NODES`] nodes, then the portfolio
/// of [`lanes`] within the limits, on `options.threads` threads. The first
/// lane to finish gives the answer (any search without macros running out of
/// positions proves the level impossible) and stops the others; the limits
/// are shared: the same time for every lane, and the nodes and memory split
/// between them.
fn fast(
    board: &Board,
    options: &MultiOptions,
    progress: &mut dyn FnMut(&Progress),
) -> (Outcome, MultiStats, bool) {
    let started = Instant::now();
    let limits = &options.limits;
    // Plain A* alone first, on a small budget: what it settles gets the
    // same push-optimal answer on every run, where lanes would race.
    let alone = Limits {
        max_nodes: Some(limits.max_nodes.map_or(ALONE_NODES, |n| n.min(ALONE_NODES))),
        ..limits.clone()
    };
    // Raised by the first lane to finish (never while A* runs alone).
    let stop = AtomicBool::new(false);
    let (outcome, alone_stats) =
        search::run(board, Method::AStar, 1, None, &alone, &stop, progress);
    let users_limit = limits.nodes_reached(alone_stats.generated).is_some()
        || limits.reached(started, alone_stats.memory_bytes).is_some();
    if !matches!(outcome, Outcome::Limit(_)) || users_limit {
        let optimal = outcome.solution().is_some();
        return (outcome, alone_stats, optimal);
    }
    let lanes = lanes(options.threads);
    let count = lanes.len() as u64;
    let lane_limits = Limits {
        time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
        max_nodes: limits
            .max_nodes
            .map(|n| n.saturating_sub(alone_stats.generated) / count),
        max_memory: limits.max_memory / count as usize,
    };
    let rooms = OnceLock::new();
    // The lane that raised `stop` first: its answer is the one given.
    let first = AtomicUsize::new(usize::MAX);
    let finish = |lane: usize, result: LaneResult| {
        if !matches!(result.0, Outcome::Limit(_)) && !stop.swap(true, Ordering::Relaxed) {
            first.store(lane, Ordering::Relaxed);
        }
        result
    };
    let results: Vec<LaneResult> = std::thread::scope(|scope| {
        let others: Vec<_> = lanes[1..]
            .iter()
            .enumerate()
            .map(|(k, phases)| {
                let (lane_limits, stop, finish, rooms) = (&lane_limits, &stop, &finish, &rooms);
                scope.spawn(move || {
                    finish(
                        k + 1,
                        run_lane(board, rooms, phases, lane_limits, stop, &mut |_| {}),
                    )
                })
            })
            .collect();
        let mine = finish(
            0,
            run_lane(board, &rooms, &lanes[0], &lane_limits, &stop, progress),
        );
        let mut results = vec![mine];
        results.extend(
            others
                .into_iter()
                .map(|h| h.join().expect("a search lane panicked")),
        );
        results
    });
    // Counters add up; the memory of the search alone was freed before the lanes.
    let mut total = MultiStats {
        memory_bytes: 0,
        ..alone_stats
    };
    for (_, stats, _) in &results {
        total.expanded += stats.expanded;
        total.generated += stats.generated;
        total.memory_bytes += stats.memory_bytes;
        total.lower_bound = total.lower_bound.max(stats.lower_bound);
    }
    let winner = first.load(Ordering::Relaxed);
    let (mut outcome, _, optimal) = results
        .into_iter()
        .nth(if winner == usize::MAX { 0 } else { winner })
        .expect("every lane has a result");
    if let Outcome::Limit(why) = &mut outcome {
        // Name the limit the user set, not what was left of it.
        if let Some(whole) = limits
            .nodes_reached(total.generated)
            .or_else(|| limits.reached(started, total.memory_bytes))
        {
            *why = whole;
        }
    }
    let optimal = optimal && outcome.solution().is_some();
    (outcome, total, optimal)
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
                outcome: Outcome::Limit(format!("level of {cells} floor cells is too large")),
                stats: MultiStats::default(),
                optimal: false,
            };
        }
    };
    let (outcome, stats, optimal) = if options.fast {
        fast(&board, options, progress)
    } else {
        let stop = AtomicBool::new(false);
        let (outcome, stats) = search::run(
            &board,
            options.method,
            1,
            None,
            &options.limits,
            &stop,
            progress,
        );
        (outcome, stats, options.method.optimal())
    };
    MultiReport {
        outcome,
        stats,
        optimal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lane_retries_without_macros_that_found_nothing() {
        // Microban II 23, its goal room's steps planned for boxes arriving
        // the other way round: no box can go in, the macros find nothing.
        let text = b" ##### #####\n #   ###   #\n #@$  ##.. #\n###$#      #\n\
                     #   ## ##  #\n#       ####\n#   #   #\n#########";
        let level = &crate::level::parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let mut found = Rooms::find(&board);
        assert!(!found.is_empty());
        for plan in found.rooms.iter_mut().flat_map(|r| r.plans.iter_mut()) {
            plan.arrive = plan.arrive.opposite();
        }
        let rooms = OnceLock::from(found);
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let (alone, _) = search::run(
            &board,
            Method::Greedy,
            1,
            rooms.get(),
            &limits,
            &stop,
            &mut |_| {},
        );
        assert_eq!(alone, Outcome::Limit(search::MACROS_EXHAUSTED.into()));
        let phases = [(Method::Greedy, 1, 1, true)];
        let (outcome, _, optimal) = run_lane(&board, &rooms, &phases, &limits, &stop, &mut |_| {});
        assert!(outcome.solution().is_some());
        assert!(!optimal);
    }

    #[test]
    fn fast_answers_small_levels_alone_and_the_same_every_time() {
        // Microban II 25: lanes racing each other once answered 6 or 8 pushes.
        let text = b" #####\n##   ##\n# .$. #\n# $#$ #\n# .$. #\n#    ##\n## @##\n ####";
        let level = &crate::level::parse_xsb(text, 100).unwrap()[0];
        let plain = solve(level, &MultiOptions::default(), &mut |_| {});
        for threads in [1, 2, 4] {
            let options = MultiOptions {
                fast: true,
                threads,
                ..MultiOptions::default()
            };
            for _ in 0..5 {
                let report = solve(level, &options, &mut |_| {});
                assert_eq!(report.outcome, plain.outcome);
                assert!(report.optimal);
            }
        }
    }

    #[test]
    fn lanes_never_repeat_a_search() {
        for threads in 0..=64 {
            let lanes = lanes(threads);
            assert_eq!(lanes.len(), threads.clamp(1, 6), "{threads} threads");
            let firsts: Vec<(Method, u32)> = lanes.iter().map(|l| (l[0].0, l[0].1)).collect();
            for (i, a) in firsts.iter().enumerate() {
                assert!(
                    !firsts[i + 1..].contains(a),
                    "{threads} threads repeat {a:?}"
                );
            }
            // Plain A* (the optimal one) always runs.
            assert!(
                lanes
                    .iter()
                    .flatten()
                    .any(|p| p.0 == Method::AStar && p.1 == 1)
            );
        }
    }
}
