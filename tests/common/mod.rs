//! Shared test helpers: deliberately simple reference solvers and random
//! grids, and running the real binary on given input.
//!
//! The references share no code with the solvers they check: plain searches
//! over whole positions, written to be obviously right rather than fast.

#![allow(dead_code)]

use sokoban::grid::{Direction, Grid};
use sokoban::level::{Alphabet, Level, Maze};
use sokoban::moves::{Notation, Outcome, replay};
pub use sokoban::rng::Rng;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A folder for one test's files, removed when the test ends (pass or fail).
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh folder under the system's temporary one, named by `name` and
    /// this process (tests run in parallel, and so do test binaries).
    pub fn new(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("sokoban-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sokoban"))
}

/// Runs the binary with `args` from the crate's folder (where the tests'
/// paths start) and collects its output.
pub fn run_in_crate(args: &[&str]) -> Output {
    bin()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

/// The standard output of a run, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Reads the child's stdout until `lines` lines came (the answers finished
/// so far), sends SIGINT, and returns the exit code, all of stdout, stderr.
pub fn interrupt_after(mut child: Child, lines: usize) -> (Option<i32>, String, String) {
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    for _ in 0..lines {
        assert!(out.read_line(&mut seen).unwrap() > 0, "ended early: {seen}");
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    out.read_to_string(&mut seen).unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), seen, err)
}

/// Runs `command` with `input` on standard input and collects its output.
/// The binary may refuse before reading everything: a closed pipe is fine.
pub fn feed(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// Optimal (pushes, walks) by a plain Dijkstra over every (player cell, box cell) pair.
pub fn reference_single(maze: &Maze) -> Option<(u64, u64)> {
    let g = &maze.grid;
    let n = g.len();
    let key = |p: usize, b: usize| p * n + b;
    let mut best = vec![(u64::MAX, u64::MAX); n * n];
    let mut heap = BinaryHeap::new();
    best[key(maze.player, maze.box_cell)] = (0, 0);
    heap.push(Reverse(((0u64, 0u64), maze.player, maze.box_cell)));
    while let Some(Reverse((cost, p, b))) = heap.pop() {
        if cost > best[key(p, b)] {
            continue;
        }
        if b == maze.target {
            return Some(cost);
        }
        for d in Direction::ALL {
            let q = g.step(p, d);
            if g.is_wall(q) {
                continue;
            }
            let (next, c) = if q == b {
                let nb = g.step(b, d);
                if g.is_wall(nb) {
                    continue;
                }
                ((q, nb), (cost.0 + 1, cost.1))
            } else {
                ((q, b), (cost.0, cost.1 + 1))
            };
            if c < best[key(next.0, next.1)] {
                best[key(next.0, next.1)] = c;
                heap.push(Reverse((c, next.0, next.1)));
            }
        }
    }
    None
}

/// Fewest pushes by breadth-first search over (player region, box set) for small multi-box levels.
/// Returns `None` when no solution exists.
pub fn reference_multi_pushes(
    g: &Grid,
    player: usize,
    boxes: &[usize],
    goals: &[usize],
) -> Option<u64> {
    let mut goal_set: Vec<usize> = goals.to_vec();
    goal_set.sort();
    let normalize = |player: usize, boxes: &[usize]| -> usize {
        // smallest cell the player reaches without pushing
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([player]);
        seen.insert(player);
        let mut min = player;
        while let Some(c) = queue.pop_front() {
            min = min.min(c);
            for d in Direction::ALL {
                let q = g.step(c, d);
                if g.is_floor(q) && !boxes.contains(&q) && seen.insert(q) {
                    queue.push_back(q);
                }
            }
        }
        min
    };
    let mut start: Vec<usize> = boxes.to_vec();
    start.sort();
    let s0 = (normalize(player, &start), start);
    let mut seen = HashSet::from([s0.clone()]);
    let mut frontier = vec![s0];
    let mut depth = 0;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for (p, bs) in &frontier {
            if *bs == goal_set {
                return Some(depth);
            }
            // cells the player reaches
            let mut reach = HashSet::from([*p]);
            let mut queue = VecDeque::from([*p]);
            while let Some(c) = queue.pop_front() {
                for d in Direction::ALL {
                    let q = g.step(c, d);
                    if g.is_floor(q) && !bs.contains(&q) && reach.insert(q) {
                        queue.push_back(q);
                    }
                }
            }
            for (i, &b) in bs.iter().enumerate() {
                for d in Direction::ALL {
                    let from = g.step(b, d.opposite());
                    let to = g.step(b, d);
                    if reach.contains(&from) && g.is_floor(to) && !bs.contains(&to) {
                        let mut nb = bs.clone();
                        nb[i] = to;
                        nb.sort();
                        let s = (normalize(b, &nb), nb);
                        if seen.insert(s.clone()) {
                            next.push(s);
                        }
                    }
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    None
}

/// A random single-box maze: `wall_pct` walls, optional wall border, optional
/// corridor carving (rows of wall with gaps). `None` when fewer than 3 floor cells.
pub fn random_maze(
    rows: usize,
    cols: usize,
    wall_pct: usize,
    border: bool,
    corridors: bool,
    seed: u64,
) -> Option<Maze> {
    let mut rng = Rng::new(seed);
    let mut g = Grid::new(rows, cols);
    for r in 0..rows {
        for c in 0..cols {
            let edge = r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
            let wall = if border && edge && rows > 2 && cols > 2 {
                true
            } else if corridors && r % 2 == 1 && c % 3 != 0 {
                rng.below(100) < 80
            } else {
                rng.below(100) < wall_pct
            };
            if !wall {
                g.set_floor(g.cell(r, c));
            }
        }
    }
    let floor: Vec<usize> = (0..g.len()).filter(|&c| g.is_floor(c)).collect();
    if floor.len() < 3 {
        return None;
    }
    let mut pick = Vec::new();
    while pick.len() < 3 {
        let c = floor[rng.below(floor.len())];
        if !pick.contains(&c) {
            pick.push(c);
        }
    }
    Some(Maze {
        grid: g,
        alphabet: Alphabet::Olympiad,
        player: pick[0],
        box_cell: pick[1],
        target: pick[2],
    })
}

/// Replays a multi-box outcome: `Ok(Some(pushes))` for a solution that
/// replays legally to a solved level with the claimed counts, `Ok(None)` for
/// `Impossible.`, and an error saying what is wrong otherwise.
pub fn replayed_pushes(level: &Level, outcome: &Outcome) -> Result<Option<u64>, String> {
    match outcome {
        Outcome::Solved(s) => {
            let end = replay(
                &level.grid,
                level.player,
                &level.boxes,
                &s.moves,
                Notation::Nsew,
            )
            .map_err(|e| format!("{}: {e}", level.name))?;
            if !end.solved(&level.goals) {
                return Err(format!("{} not solved", level.name));
            }
            if (end.pushes, end.walks) != (s.pushes, s.walks) {
                return Err(format!("{}: counts differ from the replay", level.name));
            }
            Ok(Some(s.pushes))
        }
        Outcome::Impossible => Ok(None),
        Outcome::Limit(why) => Err(format!("{}: limit {why:?}", level.name)),
    }
}
