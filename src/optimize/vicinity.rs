//! The vicinity search: the best solution among the positions near a given
//! solution's path.
//!
//! A round allows the positions whose boxes differ from some position of
//! the path in at most `boxes` boxes, each at most `radius` squares from a
//! box place of that position, and runs a Dijkstra over them on (box set,
//! player cell) with the chosen metric's cost, walks measured exactly (an
//! A*, in fact: each box's own pushes to its nearest goal bound what is left,
//! and prune what cannot beat the path). The path itself lies inside, so a round never answers worse than its path;
//! the caller grows the vicinity while rounds stop improving.

use super::Metric;
use super::walk::{Walker, goal_pushes};
use crate::grid::{Direction, Grid};
use crate::level::Level;
use crate::moves::{Limit, Move};
use crate::multi::{Limits, Progress};
use crate::rng::Rng;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How far from the path a round may stray.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vicinity {
    /// Boxes off the places of the path position they are compared with.
    pub boxes: u32,
    /// Squares (rows plus columns) each may be from the place it replaces;
    /// `u32::MAX` for anywhere.
    pub radius: u32,
}

/// The limits and counters shared by every round of one level.
pub(crate) struct Effort<'a> {
    pub limits: &'a Limits,
    pub started: Instant,
    pub expanded: u64,
    pub generated: u64,
    pub memory_peak: usize,
    pub progress: &'a mut dyn FnMut(&Progress),
    /// Raised when the A* beside the rounds has answered: the round under
    /// way stops ([`Limit::Stopped`]) so that its answer is taken at once.
    pub beside_done: Option<&'a AtomicBool>,
}

impl<'a> Effort<'a> {
    /// Nothing done yet, the clock started now.
    pub fn new(
        limits: &'a Limits,
        progress: &'a mut dyn FnMut(&Progress),
        beside_done: Option<&'a AtomicBool>,
    ) -> Effort<'a> {
        Effort {
            limits,
            started: Instant::now(),
            expanded: 0,
            generated: 0,
            memory_peak: 0,
            progress,
            beside_done,
        }
    }

    /// A limit reached, checked every so many expansions (and the progress told).
    fn check(&mut self, memory: usize, depth: u32, bound: u32) -> Option<Limit> {
        self.memory_peak = self.memory_peak.max(memory);
        if !self.expanded.is_multiple_of(1024) {
            return None;
        }
        (self.progress)(&Progress {
            expanded: self.expanded,
            generated: self.generated,
            depth,
            bound,
            elapsed: self.started.elapsed(),
        });
        if self.beside_answered() {
            return Some(Limit::Stopped);
        }
        self.limits.reached(self.started, memory)
    }

    /// True when the A* beside the rounds has answered.
    pub fn beside_answered(&self) -> bool {
        self.beside_done.is_some_and(|d| d.load(Ordering::Relaxed))
    }
}

/// The path's placements, arranged to count quickly how many boxes of a
/// position stand where some path position had them.
struct Near<'p> {
    placements: &'p [Vec<u32>],
    /// Per cell, its row in `marks`.
    row: Vec<u32>,
    /// Rows of one byte per path position: 1 where the cell holds a box.
    marks: Vec<u8>,
    vicinity: Vicinity,
}

const NONE: u32 = u32::MAX;

impl<'p> Near<'p> {
    fn new(cells: usize, placements: &'p [Vec<u32>], vicinity: Vicinity) -> Near<'p> {
        let len = placements.len();
        // Row 0 is all zeros: the row of every cell no path position boxes.
        let mut row = vec![0; cells];
        let mut marks = vec![0; len];
        for (i, placement) in placements.iter().enumerate() {
            for &b in placement {
                if row[b as usize] == 0 {
                    row[b as usize] = (marks.len() / len) as u32;
                    marks.resize(marks.len() + len, 0);
                }
                marks[row[b as usize] as usize * len + i] = 1;
            }
        }
        Near {
            placements,
            row,
            marks,
            vicinity,
        }
    }

    fn marks_of(&self, cell: u32) -> &[u8] {
        let len = self.placements.len();
        let r = self.row[cell as usize] as usize;
        &self.marks[r * len..(r + 1) * len]
    }

    /// Per path position, how many of `boxes` stand on its places.
    fn counts(&self, boxes: &[u32], counts: &mut Vec<u16>) {
        counts.clear();
        counts.resize(self.placements.len(), 0);
        for &b in boxes {
            for (c, &m) in counts.iter_mut().zip(self.marks_of(b)) {
                *c += m as u16;
            }
        }
    }

    /// True when `child` (the parent, whose `counts` are given, with the box
    /// at `from` pushed to `to`) lies in the vicinity.
    fn contains(&self, grid: &Grid, counts: &[u16], from: u32, to: u32, child: &[u32]) -> bool {
        let need = (child.len() as u32).saturating_sub(self.vicinity.boxes) as u16;
        let (left, came) = (self.marks_of(from), self.marks_of(to));
        let matched = |i: usize| counts[i] + came[i] as u16 - left[i] as u16;
        (0..counts.len()).any(|i| matched(i) >= need && self.within_radius(grid, i, child))
    }

    /// True when the boxes of `child` off the places of path position `i`
    /// can each take the place of one it left, within the radius.
    fn within_radius(&self, grid: &Grid, i: usize, child: &[u32]) -> bool {
        if self.vicinity.radius == u32::MAX {
            return true;
        }
        let off: Vec<u32> = child
            .iter()
            .copied()
            .filter(|&b| self.marks_of(b)[i] == 0)
            .collect();
        let left: Vec<u32> = self.placements[i]
            .iter()
            .copied()
            .filter(|b| child.binary_search(b).is_err())
            .collect();
        pairs_within(grid, &off, &left, self.vicinity.radius)
    }
}

/// True when `off` and `left` pair up, each pair at most `radius` apart.
fn pairs_within(grid: &Grid, off: &[u32], left: &[u32], radius: u32) -> bool {
    let Some((&first, rest)) = off.split_first() else {
        return true;
    };
    let (r0, c0) = grid.position(first as usize);
    (0..left.len()).any(|j| {
        let (r1, c1) = grid.position(left[j] as usize);
        let near = (r0.abs_diff(r1) + c0.abs_diff(c1)) as u64 <= radius as u64;
        near && {
            let mut others = left.to_vec();
            others.swap_remove(j);
            pairs_within(grid, rest, &others, radius)
        }
    })
}

/// The least cost of `pushes` pushes, on either metric (each is a move too).
fn bound(pushes: u32) -> u64 {
    ((pushes as u64) << 32) | pushes as u64
}

/// A position reached: its box set lives in the arena at its index.
#[derive(Clone, Copy)]
struct Node {
    player: u32,
    parent: u32,
    /// The cost so far.
    cost: u64,
    /// The pushes left at least: each box's fewest to a goal, summed.
    left: u32,
    /// The next node with the same hash.
    next: u32,
    /// The cell the box was pushed from, and the direction's index.
    from: u32,
    dir: u8,
    closed: bool,
}

/// One level's search, its tables reused by every round.
pub(crate) struct Search<'l> {
    level: &'l Level,
    metric: Metric,
    goal_pushes: Vec<u32>,
    goal: Vec<bool>,
    boxed: Vec<bool>,
    walker: Walker,
    box_keys: Vec<u64>,
    player_keys: Vec<u64>,
    nodes: Vec<Node>,
    arena: Vec<u32>,
    table: FxHashMap<u64, u32>,
    open: BinaryHeap<Reverse<(u64, u32)>>,
}

impl<'l> Search<'l> {
    pub(crate) fn new(level: &'l Level, metric: Metric) -> Search<'l> {
        let cells = level.grid.len();
        let mut goal = vec![false; cells];
        for &g in &level.goals {
            goal[g] = true;
        }
        let mut rng = Rng::new(0x5eed_0b71_3a5e);
        Search {
            level,
            metric,
            goal_pushes: goal_pushes(&level.grid, &level.goals),
            goal,
            boxed: vec![false; cells],
            walker: Walker::new(cells),
            box_keys: (0..cells).map(|_| rng.next_u64()).collect(),
            player_keys: (0..cells).map(|_| rng.next_u64()).collect(),
            nodes: Vec::new(),
            arena: Vec::new(),
            table: FxHashMap::default(),
            open: BinaryHeap::new(),
        }
    }

    /// The cheapest solution in the vicinity of `path` (placements after
    /// each push, from the level's start) costing at most `ceiling`, with
    /// its cost; `None` when there is none; or the limit that stopped it.
    pub(crate) fn round(
        &mut self,
        path: &[Vec<u32>],
        vicinity: Vicinity,
        ceiling: u64,
        effort: &mut Effort,
    ) -> Result<Option<(u64, Vec<Move>)>, Limit> {
        let level = self.level;
        let grid = &level.grid;
        let near = Near::new(grid.len(), path, vicinity);
        self.nodes.clear();
        self.arena.clear();
        self.table.clear();
        self.open.clear();
        let start = &path[0];
        let left = start
            .iter()
            .map(|&b| self.goal_pushes[b as usize] as u64)
            .sum::<u64>();
        self.add(
            start,
            level.player as u32,
            0,
            left.min(u32::MAX as u64 / 2) as u32,
            NONE,
            (0, 0),
        );
        while let Some(Reverse((estimate, index))) = self.open.pop() {
            let node = self.nodes[index as usize];
            if node.closed || estimate != node.cost + bound(node.left) {
                continue;
            }
            let cost = node.cost;
            self.nodes[index as usize].closed = true;
            effort.expanded += 1;
            if let Some(limit) =
                effort.check(self.memory(), (cost >> 32) as u32, (ceiling >> 32) as u32)
            {
                return Err(limit);
            }
            if self.solved(index) {
                return Ok(Some((cost, self.rebuild(index))));
            }
            self.expand(index, &near, ceiling, effort);
            if let Some(limit) = effort.limits.nodes_reached(effort.generated) {
                return Err(limit);
            }
        }
        Ok(None)
    }

    /// Generates the children of node `index` that lie in the vicinity and
    /// may beat `ceiling`.
    fn expand(&mut self, index: u32, near: &Near, ceiling: u64, effort: &mut Effort) {
        let grid = &self.level.grid;
        let node = self.nodes[index as usize];
        let cost = node.cost;
        let mut counts = Vec::new();
        let mut child = Vec::with_capacity(self.level.boxes.len());
        let boxes = self.boxes(index).to_vec();
        for &b in &boxes {
            self.boxed[b as usize] = true;
        }
        self.walker.reach(grid, &self.boxed, node.player as usize);
        for (j, &b) in boxes.iter().enumerate() {
            for dir in Direction::ALL {
                let side = grid.step(b as usize, dir.opposite());
                let to = grid.step(b as usize, dir);
                let Some(walk) = self.walker.distance(side) else {
                    continue;
                };
                if grid.is_wall(to) || self.boxed[to] || self.goal_pushes[to] == u32::MAX {
                    continue;
                }
                let child_cost = cost + self.metric.push_cost(walk);
                let left =
                    (node.left + self.goal_pushes[to]).saturating_sub(self.goal_pushes[b as usize]);
                if child_cost + bound(left) > ceiling {
                    continue;
                }
                child.clear();
                child.extend_from_slice(&boxes);
                child[j] = to as u32;
                child.sort_unstable();
                let push = (b, dir.index() as u8);
                if let Some(k) = self.find(&child, b) {
                    self.lower(k, child_cost, index, push);
                    continue;
                }
                // Counted once, and only for a node with a new child.
                if counts.is_empty() {
                    near.counts(&boxes, &mut counts);
                }
                if near.contains(grid, &counts, b, to as u32, &child) {
                    effort.generated += 1;
                    self.add(&child, b, child_cost, left, index, push);
                }
            }
        }
        for &b in &boxes {
            self.boxed[b as usize] = false;
        }
    }

    fn hash(&self, boxes: &[u32], player: u32) -> u64 {
        boxes
            .iter()
            .fold(self.player_keys[player as usize], |h, &b| {
                h ^ self.box_keys[b as usize]
            })
    }

    fn boxes(&self, index: u32) -> &[u32] {
        let n = self.level.boxes.len();
        &self.arena[index as usize * n..(index as usize + 1) * n]
    }

    fn find(&self, boxes: &[u32], player: u32) -> Option<u32> {
        let mut at = *self.table.get(&self.hash(boxes, player))?;
        while at != NONE {
            let node = &self.nodes[at as usize];
            if node.player == player && self.boxes(at) == boxes {
                return Some(at);
            }
            at = node.next;
        }
        None
    }

    fn add(
        &mut self,
        boxes: &[u32],
        player: u32,
        cost: u64,
        left: u32,
        parent: u32,
        push: (u32, u8),
    ) {
        let index = self.nodes.len() as u32;
        let hash = self.hash(boxes, player);
        let next = self.table.insert(hash, index).unwrap_or(NONE);
        self.arena.extend_from_slice(boxes);
        self.nodes.push(Node {
            player,
            parent,
            cost,
            left,
            next,
            from: push.0,
            dir: push.1,
            closed: false,
        });
        self.open.push(Reverse((cost + bound(left), index)));
    }

    /// A cheaper way to a node met before.
    fn lower(&mut self, index: u32, cost: u64, parent: u32, push: (u32, u8)) {
        let node = &mut self.nodes[index as usize];
        if node.closed || cost >= node.cost {
            return;
        }
        node.cost = cost;
        node.parent = parent;
        (node.from, node.dir) = push;
        self.open.push(Reverse((cost + bound(node.left), index)));
    }

    fn solved(&self, index: u32) -> bool {
        let boxes = self.boxes(index);
        boxes.iter().filter(|&&b| self.goal[b as usize]).count() == self.level.goals.len()
    }

    /// The moves from the start to node `index`, walks spelled out.
    fn rebuild(&mut self, index: u32) -> Vec<Move> {
        let mut chain = Vec::new();
        let mut at = index;
        while self.nodes[at as usize].parent != NONE {
            chain.push(at);
            at = self.nodes[at as usize].parent;
        }
        let grid = &self.level.grid;
        let mut moves = Vec::new();
        for &child in chain.iter().rev() {
            let node = self.nodes[child as usize];
            let parent = node.parent;
            let boxes = self.boxes(parent).to_vec();
            for &b in &boxes {
                self.boxed[b as usize] = true;
            }
            let player = self.nodes[parent as usize].player as usize;
            self.walker.reach(grid, &self.boxed, player);
            let dir = Direction::from_index(node.dir as usize);
            let side = grid.step(node.from as usize, dir.opposite());
            moves.extend(self.walker.walk_to(grid, side));
            moves.push(Move::push(dir));
            for &b in &boxes {
                self.boxed[b as usize] = false;
            }
        }
        moves
    }

    /// Bytes held by the round's tables.
    fn memory(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.arena.capacity() * 4
            + self.table.capacity() * 16
            + self.open.capacity() * 16
    }
}
