//! Shorter solutions from a given one, in moves or in pushes.
//!
//! Solution archives keep the best known solution of every level by moves
//! and by pushes, while the solvers answer with few pushes and whatever
//! walks that push order takes (`--fast`: far from either). This module
//! takes any solution and returns one at least as good on the chosen
//! metric: [`optimize`] runs the vicinity search (`vicinity.rs`) around
//! the solution's path in rounds that stray further from it while time
//! lasts, each round starting from the best solution so far; with pushes
//! as the metric, push-optimal A* runs too: on a thread of its own beside
//! the rounds when there are two threads (the rounds start again from its
//! answer when it has fewer pushes), else first, for a share of the time.
//! Every answer is replayed before it is returned.

mod path;
mod vicinity;
mod walk;

pub use vicinity::Vicinity;

use crate::level::Level;
use crate::moves::{Illegal, Limit, Move, Solution, replay};
use crate::multi::{Limits, Progress};
use path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptimizeOptions {
    pub metric: Metric,
    pub limits: Limits,
    /// Threads to work on (1 or more): with two, the push-optimal A* of
    /// `--metric pushes` runs beside the rounds, for the whole time.
    pub threads: usize,
}

impl Default for OptimizeOptions {
    fn default() -> OptimizeOptions {
        OptimizeOptions {
            metric: Metric::default(),
            limits: Limits::default(),
            threads: 1,
        }
    }
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
    let beside = metric == Metric::Pushes && options.threads >= 2;
    let answered = AtomicBool::new(false);
    // Beside A*, the rounds hold half the memory.
    let limits = Limits {
        max_memory: options.limits.max_memory / if beside { 2 } else { 1 },
        ..options.limits.clone()
    };
    let mut effort = Effort::new(&limits, progress, beside.then_some(&answered));
    let mut stats = OptimizeStats::default();
    if metric == Metric::Pushes
        && !beside
        && let Some(fewer) = fewest_pushes(level, &options.limits, &mut effort, &best.solution)
    {
        stats.improvements += 1;
        best = fewer;
    }
    let limit = std::thread::scope(|scope| {
        let mut astar = beside.then(|| {
            scope.spawn(|| {
                let report = astar_beside(level, &options.limits);
                answered.store(true, Ordering::Relaxed);
                report
            })
        });
        improve(
            level,
            metric,
            &mut best,
            &mut effort,
            &mut stats,
            &mut astar,
        )
    });
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

/// The push-optimal A* on a thread of its own.
type Beside<'s> = std::thread::ScopedJoinHandle<'s, crate::multi::MultiReport>;

/// The rounds, from `best` on, until the widest is searched to the end or
/// a limit is reached (which it returns); the answer of `astar`, running
/// beside them, is taken between rounds once it is in (waited for at the
/// end), and the rounds start again from it when it is better.
fn improve(
    level: &Level,
    metric: Metric,
    best: &mut Path,
    effort: &mut Effort,
    stats: &mut OptimizeStats,
    astar: &mut Option<Beside>,
) -> Option<Limit> {
    let mut search = Search::new(level, metric);
    let mut round = 0;
    let mut limit = None;
    loop {
        let done = limit.is_some() || round >= ROUNDS.len() || best.solution.pushes == 0;
        let wait = done || effort.beside_answered();
        let taken = astar_answer(level, astar, wait, effort, &best.solution);
        if astar.is_none() {
            effort.beside_done = None;
        }
        if let Some(better) = taken {
            stats.improvements += 1;
            *best = better;
            if limit.is_none() {
                round = 0;
                continue;
            }
        }
        if done {
            return limit;
        }
        let ceiling = metric.cost(&best.solution);
        match search.round(&best.placements, ROUNDS[round], ceiling, effort) {
            // A* has answered: take its answer, then run the round again.
            Err(Limit::Stopped) if effort.beside_answered() => {}
            Err(reached) => limit = Some(reached),
            Ok(found) => {
                stats.rounds += 1;
                stats.widest = Some(ROUNDS[round]);
                match found.and_then(|(_, moves)| checked(level, &moves, metric, ceiling)) {
                    Some(better) => {
                        stats.improvements += 1;
                        *best = better;
                    }
                    None => round += 1,
                }
            }
        }
    }
}

/// The answer of the A* beside the rounds, once it is in (or at once when
/// `wait`), when it has fewer pushes than `best`; its work is counted in
/// `effort`.
fn astar_answer(
    level: &Level,
    astar: &mut Option<Beside>,
    wait: bool,
    effort: &mut Effort,
    best: &Solution,
) -> Option<Path> {
    if !astar.as_ref().is_some_and(|a| wait || a.is_finished()) {
        return None;
    }
    let report = match astar.take()?.join() {
        Ok(report) => report,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    fewer_pushes(level, &report, effort, best)
}

/// The answer of push-optimal A* (`report`), when it has fewer pushes than
/// `best`; its work is counted in `effort`.
fn fewer_pushes(
    level: &Level,
    report: &crate::multi::MultiReport,
    effort: &mut Effort,
    best: &Solution,
) -> Option<Path> {
    effort.expanded += report.stats.expanded;
    effort.generated += report.stats.generated;
    effort.memory_peak = effort.memory_peak.max(report.stats.memory_bytes);
    let found = report.outcome.solution()?;
    checked(
        level,
        &found.moves,
        Metric::Pushes,
        Metric::Pushes.cost(best),
    )
}

/// Push-optimal A* within the whole of `limits` but half their memory
/// (the rounds hold the other half), and [`ASTAR_NODES`] nodes when no
/// time limit bounds it.
fn astar_beside(level: &Level, limits: &Limits) -> crate::multi::MultiReport {
    let limits = Limits {
        time: limits.time,
        max_nodes: match limits.time {
            Some(_) => limits.max_nodes,
            None => Some(limits.max_nodes.unwrap_or(ASTAR_NODES).min(ASTAR_NODES)),
        },
        max_memory: limits.max_memory / 2,
    };
    push_optimal(level, limits, &mut |_| {})
}

/// Plain A* (push-optimal) on `level` within `limits`.
fn push_optimal(
    level: &Level,
    limits: Limits,
    progress: &mut dyn FnMut(&Progress),
) -> crate::multi::MultiReport {
    let options = crate::multi::MultiOptions {
        limits,
        ..Default::default()
    };
    crate::multi::solve(level, &options, progress)
}

/// Nodes the push-optimal A* may generate when no time limit shares the
/// time out.
const ASTAR_NODES: u64 = 1_000_000;

/// The push-optimal A*'s answer, when it finds one with fewer pushes than
/// `best` in a quarter of the time (or [`ASTAR_NODES`] nodes): rounds then take it
/// from there, where a path with more pushes could not reach it.
fn fewest_pushes(
    level: &Level,
    limits: &Limits,
    effort: &mut Effort,
    best: &Solution,
) -> Option<Path> {
    let limits = Limits {
        time: limits.time.map(|t| t / 4),
        max_nodes: Some(limits.max_nodes.unwrap_or(ASTAR_NODES).min(ASTAR_NODES)),
        max_memory: limits.max_memory,
    };
    let report = push_optimal(level, limits, effort.progress);
    fewer_pushes(level, &report, effort, best)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Direction;
    use crate::level::parse_xsb;
    use crate::moves::{Notation, format_moves, parse_moves};
    use crate::rng::Rng;
    use proptest::prelude::*;
    use std::collections::{BTreeSet, BinaryHeap, HashMap};

    fn level(text: &str) -> Level {
        parse_xsb(text.as_bytes(), 1000).unwrap().remove(0)
    }

    fn run(level: &Level, moves: &[Move], metric: Metric) -> OptimizeReport {
        run_on(level, moves, metric, 1)
    }

    /// [`run`] on `threads` threads (with two, A* runs beside the rounds).
    fn run_on(level: &Level, moves: &[Move], metric: Metric, threads: usize) -> OptimizeReport {
        let options = OptimizeOptions {
            metric,
            threads,
            ..OptimizeOptions::default()
        };
        optimize(level, moves, &options, &mut |_| {}).unwrap()
    }

    /// The best cost by a plain Dijkstra over every (player, boxes), one
    /// step at a time: written to be obviously right, for tiny levels.
    fn reference(level: &Level, metric: Metric) -> Option<u64> {
        let g = &level.grid;
        let start = (
            level.player,
            level.boxes.iter().copied().collect::<BTreeSet<_>>(),
        );
        let mut best = HashMap::from([(start.clone(), 0u64)]);
        let mut open = BinaryHeap::from([std::cmp::Reverse((0u64, start))]);
        while let Some(std::cmp::Reverse((cost, (p, boxes)))) = open.pop() {
            if best[&(p, boxes.clone())] < cost {
                continue;
            }
            if level.goals.iter().all(|g| boxes.contains(g)) {
                return Some(cost);
            }
            for d in Direction::ALL {
                let q = g.step(p, d);
                if g.is_wall(q) {
                    continue;
                }
                let mut next = boxes.clone();
                let push = boxes.contains(&q);
                if push {
                    let beyond = g.step(q, d);
                    if g.is_wall(beyond) || boxes.contains(&beyond) {
                        continue;
                    }
                    next.remove(&q);
                    next.insert(beyond);
                }
                let step = Solution {
                    moves: Vec::new(),
                    pushes: push as u64,
                    walks: !push as u64,
                };
                let c = cost + metric.cost(&step);
                if best.get(&(q, next.clone())).is_none_or(|&b| c < b) {
                    best.insert((q, next.clone()), c);
                    open.push(std::cmp::Reverse((c, (q, next))));
                }
            }
        }
        None
    }

    fn replays(level: &Level, s: &Solution) -> bool {
        replay(
            &level.grid,
            level.player,
            &level.boxes,
            &s.moves,
            Notation::Nsew,
        )
        .is_ok_and(|end| end.solved(&level.goals))
    }

    #[test]
    fn a_detour_is_dropped() {
        let l = level("#######\n#@$  .#\n#######");
        let report = run(&l, &parse_moves("RweRlrR").unwrap(), Metric::Moves);
        assert_eq!(format_moves(&report.solution.moves, Notation::Nsew), "EEE");
        assert_eq!((report.input.pushes, report.input.walks), (3, 4));
    }

    #[test]
    fn a_shorter_push_order_is_found_from_a_long_one() {
        // Pushing the far box first walks around twice; the best order
        // takes the near box on the way.
        let l = level("########\n#.   $@#\n#  #$  #\n#.     #\n########");
        let long = parse_moves("swswwwnneeSesWWWeeeennLLLL").unwrap();
        let long = read_solution(&l, &long).unwrap();
        for (metric, threads) in [(Metric::Moves, 1), (Metric::Pushes, 1), (Metric::Pushes, 2)] {
            let report = run_on(&l, &long.moves, metric, threads);
            assert!(replays(&l, &report.solution));
            assert_eq!(Some(metric.cost(&report.solution)), reference(&l, metric));
            assert!(metric.cost(&report.solution) < metric.cost(&long));
        }
    }

    #[test]
    fn with_pushes_as_the_metric_a_push_back_and_forth_is_dropped() {
        let l = level("#######\n#@$  .#\n#     #\n#######");
        let long = parse_moves("RRseenLLswwnRRR").unwrap();
        let report = run(&l, &long, Metric::Pushes);
        assert_eq!((report.input.pushes, report.solution.pushes), (7, 3));
        assert_eq!(report.solution.walks, 0);
        assert!(replays(&l, &report.solution));
    }

    /// `improve` with an A* beside it that answers `answer`, the rounds
    /// held to `max_nodes`: the best solution after it, and its limit.
    fn improved_beside(
        l: &Level,
        long: &[Move],
        answer: &[Move],
        max_nodes: Option<u64>,
    ) -> (Solution, Option<Limit>) {
        let limits = Limits {
            max_nodes,
            ..Limits::default()
        };
        let answered = AtomicBool::new(false);
        let mut quiet = |_: &Progress| {};
        let mut effort = Effort::new(&limits, &mut quiet, Some(&answered));
        let mut best = Path::read(l, long).unwrap();
        let mut stats = OptimizeStats::default();
        let limit = std::thread::scope(|scope| {
            let mut astar = Some(scope.spawn(|| {
                answered.store(true, Ordering::Relaxed);
                crate::multi::MultiReport {
                    outcome: crate::moves::Outcome::Solved(Solution::from_moves(answer.to_vec())),
                    stats: crate::multi::MultiStats::default(),
                    optimal: true,
                }
            }));
            improve(
                l,
                Metric::Pushes,
                &mut best,
                &mut effort,
                &mut stats,
                &mut astar,
            )
        });
        (best.solution, limit)
    }

    #[test]
    fn the_answer_of_astar_beside_the_rounds_is_taken_and_improved() {
        let l = level("########\n#.   $@#\n#  #$  #\n#.     #\n########");
        let long = parse_moves("swswwwnneeSesWWWeeeennLLLL").unwrap();
        // Fewest pushes (8), with a detour walked before the first push.
        let astar = parse_moves("snWWWWeeSesWWW").unwrap();
        let (pushes, walks) = (8, 6);
        // Rounds stopped at once: A*'s answer is still waited for and taken.
        let (found, limit) = improved_beside(&l, &long, &astar, Some(1));
        assert_eq!(limit, Some(Limit::Nodes(1)));
        assert_eq!((found.pushes, found.walks), (pushes, walks));
        // Rounds free to run: they start again from A*'s answer and drop its detour.
        let (found, limit) = improved_beside(&l, &long, &astar, None);
        assert_eq!(limit, None);
        assert!(replays(&l, &found));
        assert_eq!(found.pushes, pushes);
        assert!(found.walks < walks);
    }

    #[test]
    fn wrong_solutions_are_refused() {
        let l = level("#######\n#@$  .#\n#######");
        let refused = |m: &str| {
            optimize(
                &l,
                &parse_moves(m).unwrap(),
                &OptimizeOptions::default(),
                &mut |_| {},
            )
        };
        assert_eq!(refused("RR"), Err(OptimizeError::Unsolved));
        assert!(matches!(
            refused("w"),
            Err(OptimizeError::Illegal { index: 1, .. })
        ));
    }

    #[test]
    fn a_node_limit_keeps_the_input() {
        let l = level("########\n#.   $@#\n#  #$  #\n#.     #\n########");
        let long = parse_moves("swswwwnneeSesWWWeeeennLLLL").unwrap();
        for (metric, threads) in [(Metric::Moves, 1), (Metric::Pushes, 2)] {
            let options = OptimizeOptions {
                metric,
                limits: Limits {
                    max_nodes: Some(1),
                    ..Limits::default()
                },
                threads,
            };
            let report = optimize(&l, &long, &options, &mut |_| {}).unwrap();
            assert_eq!(report.limit, Some(Limit::Nodes(1)));
            assert!(metric.cost(&report.solution) <= metric.cost(&report.input));
        }
    }

    /// A random small level of two boxes (random inner walls, the goals and
    /// the player anywhere) and a long solution of it, made backwards: from
    /// the solved position, random walks and pulls; those steps reversed
    /// solve the level, so every level drawn has a solution to start from.
    fn solvable_level(seed: u64) -> (Level, Vec<Move>) {
        let mut rng = Rng::new(seed);
        let (rows, cols) = (5, 6);
        let mut grid = crate::grid::Grid::new(rows, cols);
        let mut floor = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                // The first cells stay floor: the pieces always fit.
                if (r, c) <= (0, 2) || !rng.chance(12) {
                    let cell = grid.cell(r, c);
                    grid.set_floor(cell);
                    floor.push(cell);
                }
            }
        }
        let mut goals = Vec::new();
        while goals.len() < 2 {
            let c = floor[rng.below(floor.len())];
            if !goals.contains(&c) {
                goals.push(c);
            }
        }
        // The player starts beside a box where it can, so pulls begin at once.
        let beside: Vec<usize> = floor
            .iter()
            .copied()
            .filter(|&c| !goals.contains(&c))
            .filter(|&c| {
                Direction::ALL
                    .iter()
                    .any(|&d| goals.contains(&grid.step(c, d)))
            })
            .collect();
        let mut player = match beside.len() {
            0 => floor
                .iter()
                .copied()
                .find(|c| !goals.contains(c))
                .unwrap_or(goals[0]),
            n => beside[rng.below(n)],
        };
        let mut boxes = goals.clone();
        let mut backwards = Vec::new();
        for _ in 0..40 + rng.below(80) {
            // A pull where one is open (mostly), else a step in a random direction.
            let free = |d: Direction| {
                let to = grid.step(player, d);
                grid.is_floor(to) && !boxes.contains(&to)
            };
            let behind = |d: Direction| {
                boxes
                    .iter()
                    .position(|&b| b == grid.step(player, d.opposite()))
            };
            let pulls: Vec<Direction> = Direction::ALL
                .into_iter()
                .filter(|&d| free(d) && behind(d).is_some())
                .collect();
            let (d, pulled) = match pulls.len() {
                n if n > 0 && rng.chance(80) => (pulls[rng.below(n)], true),
                _ => (Direction::from_index(rng.below(4)), false),
            };
            if !free(d) {
                continue;
            }
            if pulled {
                let i = behind(d).expect("a pull has a box behind");
                boxes[i] = player;
            }
            player = grid.step(player, d);
            backwards.push(Move {
                dir: d.opposite(),
                push: pulled,
            });
        }
        backwards.reverse();
        boxes.sort();
        goals.sort();
        let level = Level {
            name: format!("backwards {seed}"),
            line: 1,
            grid,
            player,
            boxes,
            goals,
            alphabet: crate::level::Alphabet::Xsb,
        };
        (level, backwards)
    }

    /// The (pushes, walks) of `moves` replayed on `level`, when they are
    /// legal and leave it solved.
    fn replayed(level: &Level, moves: &[Move]) -> Option<(u64, u64)> {
        let end = replay(
            &level.grid,
            level.player,
            &level.boxes,
            moves,
            Notation::Nsew,
        )
        .ok()?;
        end.solved(&level.goals).then_some((end.pushes, end.walks))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// Every level drawn has a solution, every answer is replayed and
        /// its counts measured by the replay, never by the optimizer.
        #[test]
        fn answers_replay_and_are_never_worse(seed in any::<u64>(), pushes in any::<bool>(), threads in 1usize..=2) {
            let (l, input) = solvable_level(seed);
            let metric = if pushes { Metric::Pushes } else { Metric::Moves };
            let cost = |(pushes, walks): (u64, u64)| {
                metric.cost(&Solution { moves: Vec::new(), pushes, walks })
            };
            let given = replayed(&l, &input).expect("a level made backwards is solved by its moves");
            let report = run_on(&l, &input, metric, threads);
            let answer = replayed(&l, &report.solution.moves);
            prop_assert!(answer.is_some(), "the answer does not solve {}", l.name);
            let answer = answer.unwrap();
            prop_assert_eq!(answer, (report.solution.pushes, report.solution.walks));
            prop_assert!(cost(answer) <= cost(given), "{:?} worse than {:?}", answer, given);
            let best = reference(&l, metric);
            prop_assert!(best.is_some());
            prop_assert!(cost(answer) >= best.unwrap(), "{:?} beats the optimum {:?}", answer, best);
        }
    }
}
