//! The push-level search: A* (default) and the other methods over one loop.
//!
//! A state is the box set plus the normalized player (the smallest cell the
//! player can reach without pushing). Successors are single pushes; each is
//! pruned by dead squares, freeze deadlocks and an infinite matching bound,
//! and when a PI-corral exists only its pushes are expanded.
//! A node is closed when it is expanded, never when it is generated, and a
//! shorter path to a known node updates it (and reopens it if need be), so
//! A* with the admissible matching bound returns a push-optimal solution.
//! Ties on f prefer the smaller bound (deeper nodes), then the older node.

use super::board::{Board, NONE};
use super::bound::Matcher;
use super::corral::Corrals;
use super::deadlock::Freeze;
use super::table::{Key, Nodes};
use super::{Limits, Method, MultiStats, Progress};
use crate::grid::Direction;
use crate::moves::{Move, Outcome, Solution};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Instant;

/// The open list in the shape each method needs.
enum Frontier {
    /// Best first on a packed key (lower first), ties by node number.
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
    Queue(VecDeque<u32>),
    Stack(Vec<u32>),
}

impl Frontier {
    fn push(&mut self, key: u64, node: u32) {
        match self {
            Frontier::Heap(h) => h.push(Reverse((key, node))),
            Frontier::Queue(q) => q.push_back(node),
            Frontier::Stack(s) => s.push(node),
        }
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        match self {
            Frontier::Heap(h) => h.pop().map(|Reverse(e)| e),
            Frontier::Queue(q) => q.pop_front().map(|n| (0, n)),
            Frontier::Stack(s) => s.pop().map(|n| (0, n)),
        }
    }

    fn len(&self) -> usize {
        match self {
            Frontier::Heap(h) => h.len(),
            Frontier::Queue(q) => q.len(),
            Frontier::Stack(s) => s.len(),
        }
    }
}

/// Search state shared by the helpers.
struct Search<'b> {
    board: &'b Board,
    method: Method,
    /// Weight on the bound for `--fast` (1 = plain A*).
    weight: u32,
    /// True when the answer must have the fewest pushes.
    optimal: bool,
    nodes: Nodes,
    frontier: Frontier,
    matcher: Matcher,
    freeze: Freeze,
    corrals: Corrals,
    occupied: Vec<bool>,
    /// Flood stamps: `reach[c] == stamp` marks a cell the expanded node's
    /// player reaches; `seen` does the same for a child's normalization.
    reach: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
    stats: MultiStats,
}

/// Runs the search on a prepared board.
pub fn run(
    board: &Board,
    method: Method,
    fast: bool,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> (Outcome, MultiStats) {
    let started = Instant::now();
    let n = board.len();
    let frontier = match method {
        Method::AStar | Method::Ucs | Method::Greedy => Frontier::Heap(BinaryHeap::new()),
        Method::Bfs => Frontier::Queue(VecDeque::new()),
        Method::Dfs => Frontier::Stack(Vec::new()),
    };
    let mut s = Search {
        board,
        method,
        weight: if fast { 3 } else { 1 },
        optimal: method.optimal() && !fast,
        nodes: Nodes::new(board.start_boxes.len()),
        frontier,
        matcher: Matcher::default(),
        freeze: Freeze::default(),
        corrals: Corrals::default(),
        occupied: vec![false; n],
        reach: vec![0; n],
        seen: vec![0; n],
        stamp: 0,
        queue: Vec::new(),
        stats: MultiStats::default(),
    };
    let start_boxes = board.start_boxes.clone();
    for &b in &start_boxes {
        s.occupied[b as usize] = true;
    }
    let player = s.normalize(board.start_player, false);
    for &b in &start_boxes {
        s.occupied[b as usize] = false;
    }
    let Some(h) = s.matcher.bound(board, &start_boxes) else {
        return (Outcome::Impossible, s.stats);
    };
    s.stats.lower_bound = h;
    let hash = start_boxes
        .iter()
        .fold(board.zobrist_player[player as usize], |acc, &b| {
            acc ^ board.zobrist_box[b as usize]
        });
    let key = Key {
        boxes: &start_boxes,
        player,
        hash,
    };
    let root = s.nodes.insert(&key, 0, h, u32::MAX, NONE, 0);
    s.stats.generated = 1;
    let k = s.key(0, h);
    s.frontier.push(k, root);
    let mut last_report = Instant::now();
    let mut boxes = Vec::with_capacity(start_boxes.len());
    while let Some((k, node)) = s.frontier.pop() {
        let u = node as usize;
        if s.nodes.closed[u]
            || (matches!(s.frontier, Frontier::Heap(_)) && k != s.key(s.nodes.g[u], s.nodes.h[u]))
        {
            continue; // stale entry: closed, or queued again with a better key
        }
        s.nodes.closed[u] = true;
        s.stats.expanded += 1;
        if s.nodes.h[u] == 0 && s.nodes.boxes(node) == board.goals.as_slice() {
            s.stats.memory_bytes = s.memory_bytes();
            let solution = s.rebuild(node);
            return (Outcome::Solved(solution), s.stats);
        }
        if let Some(why) = limits.nodes_reached(s.stats.generated) {
            return (Outcome::Limit(why), s.stats);
        }
        if s.stats.expanded.is_multiple_of(256) {
            s.stats.memory_bytes = s.memory_bytes();
            if let Some(why) = limits.reached(started, s.stats.memory_bytes) {
                return (Outcome::Limit(why), s.stats);
            }
            if last_report.elapsed().as_millis() >= 100 {
                last_report = Instant::now();
                progress(&Progress {
                    expanded: s.stats.expanded,
                    generated: s.stats.generated,
                    depth: s.nodes.g[u],
                    bound: s.nodes.g[u] + s.nodes.h[u],
                    elapsed: started.elapsed(),
                });
            }
        }
        boxes.clear();
        boxes.extend_from_slice(s.nodes.boxes(node));
        s.expand(node, &boxes);
    }
    // Every position reachable without a deadlock has been seen: no solution.
    s.stats.memory_bytes = s.memory_bytes();
    (Outcome::Impossible, s.stats)
}

impl Search<'_> {
    /// The frontier key of a node: lower is expanded first.
    fn key(&self, g: u32, h: u32) -> u64 {
        let (primary, secondary) = match self.method {
            Method::AStar => (g as u64 + self.weight as u64 * h as u64, h as u64),
            Method::Ucs => (g as u64, h as u64),
            Method::Greedy => (h as u64, g as u64),
            Method::Bfs | Method::Dfs => (0, 0),
        };
        primary << 32 | secondary
    }

    fn memory_bytes(&self) -> usize {
        self.nodes.memory_bytes() + self.frontier.len() * 16 + self.occupied.len() * 5
    }

    /// The smallest cell the player reaches from `from` (boxes per `occupied`).
    /// With `keep`, the reached cells stay marked in `reach` (the parent's
    /// area, asked about for every push); otherwise `seen` is used.
    fn normalize(&mut self, from: u16, keep: bool) -> u16 {
        self.stamp += 1;
        let stamp = self.stamp;
        let marks = if keep {
            &mut self.reach
        } else {
            &mut self.seen
        };
        self.queue.clear();
        self.queue.push(from);
        marks[from as usize] = stamp;
        let mut least = from;
        let mut head = 0;
        while head < self.queue.len() {
            let c = self.queue[head];
            head += 1;
            least = least.min(c);
            for &n in &self.board.next[c as usize] {
                if n != NONE && marks[n as usize] != stamp && !self.occupied[n as usize] {
                    marks[n as usize] = stamp;
                    self.queue.push(n);
                }
            }
        }
        least
    }

    fn expand(&mut self, node: u32, boxes: &[u16]) {
        let board = self.board;
        let u = node as usize;
        let g = self.nodes.g[u] + 1;
        for &b in boxes {
            self.occupied[b as usize] = true;
        }
        self.normalize(self.nodes.player[u], true);
        let reached = self.stamp;
        let reach = &self.reach;
        let only = self.corrals.restrict(board, &self.occupied, boxes, |c| {
            reach[c as usize] == reached
        });
        let mut child = Vec::with_capacity(boxes.len());
        let parent_hash = self.nodes.hash[u] ^ board.zobrist_player[self.nodes.player[u] as usize];
        for (i, &b) in boxes.iter().enumerate() {
            for dir in Direction::ALL {
                if let Some(pushes) = &only
                    && !pushes.contains(&(b, dir))
                {
                    continue;
                }
                let behind = board.step(b, dir.opposite());
                let ahead = board.step(b, dir);
                if behind == NONE
                    || ahead == NONE
                    || self.reach[behind as usize] != reached
                    || self.occupied[ahead as usize]
                    || board.dead[ahead as usize]
                {
                    continue;
                }
                self.occupied[b as usize] = false;
                self.occupied[ahead as usize] = true;
                if !self.freeze.deadlocked(board, &self.occupied, ahead) {
                    let player = self.normalize(b, false);
                    child.clear();
                    child.extend_from_slice(boxes);
                    child[i] = ahead;
                    child.sort_unstable();
                    let hash = parent_hash
                        ^ board.zobrist_box[b as usize]
                        ^ board.zobrist_box[ahead as usize]
                        ^ board.zobrist_player[player as usize];
                    self.add_child(node, g, &child, player, hash, b, dir);
                }
                self.occupied[ahead as usize] = false;
                self.occupied[b as usize] = true;
            }
        }
        for &b in boxes {
            self.occupied[b as usize] = false;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn add_child(
        &mut self,
        parent: u32,
        g: u32,
        boxes: &[u16],
        player: u16,
        hash: u64,
        from: u16,
        dir: Direction,
    ) {
        let key = Key {
            boxes,
            player,
            hash,
        };
        if let Some(v) = self.nodes.find(&key) {
            let vi = v as usize;
            if g < self.nodes.g[vi] {
                // A shorter way in: keep it, and for the optimal methods look
                // at the node again (the others do not revisit closed nodes).
                self.nodes.g[vi] = g;
                self.nodes.parent[vi] = parent;
                self.nodes.pushed_from[vi] = from;
                self.nodes.pushed_dir[vi] = dir.index() as u8;
                if self.optimal || !self.nodes.closed[vi] {
                    self.nodes.closed[vi] = false;
                    let k = self.key(g, self.nodes.h[vi]);
                    self.frontier.push(k, v);
                }
            }
            return;
        }
        let Some(h) = self.matcher.bound(self.board, boxes) else {
            return;
        };
        let v = self
            .nodes
            .insert(&key, g, h, parent, from, dir.index() as u8);
        self.stats.generated += 1;
        let k = self.key(g, h);
        self.frontier.push(k, v);
    }

    /// The moves from the start to `goal`: each push preceded by the shortest walk to it.
    fn rebuild(&mut self, goal: u32) -> Solution {
        let board = self.board;
        let mut pushes = Vec::new();
        let mut at = goal;
        while self.nodes.parent[at as usize] != u32::MAX {
            let i = at as usize;
            pushes.push((
                self.nodes.pushed_from[i],
                Direction::from_index(self.nodes.pushed_dir[i] as usize),
            ));
            at = self.nodes.parent[i];
        }
        pushes.reverse();
        self.occupied.fill(false);
        for &b in &board.start_boxes {
            self.occupied[b as usize] = true;
        }
        let mut player = board.start_player;
        let mut moves = Vec::new();
        for (from, dir) in pushes {
            let stand = board.step(from, dir.opposite());
            moves.extend(self.walk(player, stand).into_iter().map(Move::walk));
            moves.push(Move::push(dir));
            self.occupied[from as usize] = false;
            self.occupied[board.step(from, dir) as usize] = true;
            player = from;
        }
        Solution::from_moves(moves)
    }

    /// A shortest walk avoiding boxes; at each step the first direction in
    /// n, s, e, w order that stays shortest.
    fn walk(&mut self, from: u16, to: u16) -> Vec<Direction> {
        let n = self.board.len();
        let mut dist = vec![u32::MAX; n];
        dist[to as usize] = 0;
        let mut queue = VecDeque::from([to]);
        while let Some(c) = queue.pop_front() {
            if c == from {
                break;
            }
            for &x in &self.board.next[c as usize] {
                if x != NONE && !self.occupied[x as usize] && dist[x as usize] == u32::MAX {
                    dist[x as usize] = dist[c as usize] + 1;
                    queue.push_back(x);
                }
            }
        }
        let mut path = Vec::new();
        let mut at = from;
        while at != to {
            let d = dist[at as usize];
            let dir = Direction::ALL
                .into_iter()
                .find(|&dir| {
                    let x = self.board.step(at, dir);
                    x != NONE && dist[x as usize] == d - 1
                })
                .expect("the search only pushes from reachable cells");
            path.push(dir);
            at = self.board.step(at, dir);
        }
        path
    }
}
