//! The push-level search: A* (default) and the other methods over one loop.
//!
//! A state is the box set plus the normalized player (the smallest cell the
//! player can reach without pushing). Successors are single pushes; each is
//! pruned by dead squares, freeze deadlocks and an infinite matching bound
//! (boxes frozen on goals count as walls for it, so goals they cut off show),
//! and when a PI-corral exists only its pushes are expanded. A node with a
//! corral whose boxes alone cannot all reach goals is dead (see
//! [`super::subset`]). A box pushed into a dead-end tunnel of goals is pushed
//! on to the deepest free goal in one move (it can only go deeper, and
//! nothing else can reach past it). In the non-optimal `--fast` lanes, a box
//! pushed onto a goal room's entrance goes through the room's next step at
//! once (see [`super::room`]), boxes in a room are never pushed otherwise, and
//! a box pushed along a one-wide corridor rides it to its end.
//! A node is closed when it is expanded, never when it is generated, and a
//! shorter path to a known node updates it (and reopens it if need be), so
//! A* with the admissible matching bound returns a push-optimal solution.
//! Ties on f prefer the smaller bound (deeper nodes), then the older node.

use super::board::{Board, NONE, pull_distances};
use super::bound::{Matcher, Saved};
use super::corral::Corrals;
use super::deadlock::Freeze;
use super::room::Rooms;
use super::subset::SubsetSearch;
use super::table::{Key, Nodes};
use super::{Limits, Method, MultiStats, Progress};
use crate::grid::Direction;
use crate::moves::{Move, Outcome, Solution};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::collections::{BinaryHeap, VecDeque};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A move of the search: one box pushed `count` times in one direction
/// (more than once for the goal macro), or pushed onto a goal room's
/// entrance and then the room's next step (`step`: room and step number).
#[derive(Clone, Copy, Debug)]
struct Push {
    /// The box's cell before the first push.
    from: u16,
    dir: Direction,
    count: u16,
    step: Option<(u8, u16)>,
}

/// Marks a node's `pushed_dir` as a goal-room step (its `pushed_len` then
/// holds the room in the high byte and the step in the low one).
const ROOM_STEP: u8 = 0x10;

/// Why a search with goal-room macros ran out of positions: not a proof
/// that the level is impossible (the macros drop solutions).
pub const MACROS_EXHAUSTED: &str = "no solution with goal-room macros";

impl Push {
    /// The box's cell after the last push. A room step moves several boxes
    /// and has no one end cell: callers check `step` first.
    fn end(&self, board: &Board) -> u16 {
        debug_assert!(self.step.is_none(), "a room step has no one end cell");
        (0..self.count).fold(self.from, |cell, _| board.step(cell, self.dir))
    }
}

/// Boxes frozen on goals for good, and the push distances to the goals left
/// with those boxes counted as walls: goals they cut off show up as an
/// infinite bound at once.
struct Frozen {
    /// Frozen box cells, sorted.
    cells: Vec<u16>,
    /// `distance[g][c]` for the goals not under a frozen box.
    distance: Vec<Vec<u16>>,
}

impl Frozen {
    /// True when `self` holds every box `earlier` held, and more: the
    /// earlier table's matching can be shrunk to this one.
    fn grew_from(&self, earlier: &Frozen) -> bool {
        self.cells.len() > earlier.cells.len()
            && earlier
                .cells
                .iter()
                .all(|c| self.cells.binary_search(c).is_ok())
    }
}

/// The open list in the shape each method needs.
enum Frontier {
    /// Best first on a packed key (lower first), ties by node number.
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
    Queue(VecDeque<u32>),
    Stack(Vec<u32>),
    /// One heap per feature cell, the cells popped from in turn.
    Cells(FeatureCells),
}

/// The open list of [`Method::Features`]: per feature value a heap like
/// [`Frontier::Heap`]'s, and a round-robin over the values met so far.
#[derive(Default)]
struct FeatureCells {
    slot: HashMap<u32, usize>,
    heaps: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    cursor: usize,
    len: usize,
}

impl FeatureCells {
    fn push(&mut self, feature: u32, key: u64, node: u32) {
        let next = self.heaps.len();
        let at = *self.slot.entry(feature).or_insert(next);
        if at == next {
            self.heaps.push(BinaryHeap::new());
        }
        self.heaps[at].push(Reverse((key, node)));
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        loop {
            let at = self.cursor % self.heaps.len();
            self.cursor = at + 1;
            if let Some(Reverse(e)) = self.heaps[at].pop() {
                self.len -= 1;
                return Some(e);
            }
        }
    }
}

impl Frontier {
    fn push(&mut self, key: u64, node: u32) {
        match self {
            Frontier::Heap(h) => h.push(Reverse((key, node))),
            Frontier::Queue(q) => q.push_back(node),
            Frontier::Stack(s) => s.push(node),
            Frontier::Cells(_) => unreachable!("feature cells are pushed with their feature"),
        }
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        match self {
            Frontier::Heap(h) => h.pop().map(|Reverse(e)| e),
            Frontier::Queue(q) => q.pop_front().map(|n| (0, n)),
            Frontier::Stack(s) => s.pop().map(|n| (0, n)),
            Frontier::Cells(c) => c.pop(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Frontier::Heap(h) => h.len(),
            Frontier::Queue(q) => q.len(),
            Frontier::Stack(s) => s.len(),
            Frontier::Cells(c) => c.len,
        }
    }
}

/// Search state shared by the helpers.
struct Search<'b> {
    board: &'b Board,
    method: Method,
    /// Weight on the bound in A* (1 = plain A*, more for `--fast`).
    weight: u32,
    /// True when the answer must have the fewest pushes.
    optimal: bool,
    nodes: Nodes,
    frontier: Frontier,
    matcher: Matcher,
    freeze: Freeze,
    corrals: Corrals,
    subset: SubsetSearch,
    occupied: Vec<bool>,
    /// Flood stamps: `reach[c] == stamp` marks a cell the expanded node's
    /// player reaches; `seen` does the same for a child's normalization.
    reach: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
    stats: MultiStats,
    /// Distance tables by set of frozen boxes.
    frozen: HashMap<Vec<u16>, Rc<Frozen>>,
    movable: Vec<u16>,
    /// The expanded node's boxes not frozen, in its order, and whether the
    /// matcher holds their matching (children then cost one augmenting path).
    parent_movable: Vec<u16>,
    parent_matched: bool,
    /// Matchings of recently expanded nodes, so that expanding one of their
    /// children resumes from them (best-first search often does so soon):
    /// a cache with one slot per node number modulo its size, whose vectors
    /// are reused, so keeping a matching allocates nothing.
    saved: Vec<SavedMatching>,
    saved_count: usize,
    /// Goal rooms filled by macros (`--fast` lanes), and per room the
    /// number of boxes in it at the expanded node.
    rooms: Option<&'b Rooms>,
    in_room: Vec<u16>,
    /// Per node, its feature cell ([`Method::Features`] only).
    feature: Vec<u32>,
    /// [`Method::BoxMoves`]: the nodes just generated by one push, and the
    /// cell the pushed box reached.
    fresh: Vec<(u32, u16)>,
}

/// An expanded node's matching: its frozen set's table, its movable boxes
/// in matching order, and the matcher's state.
#[derive(Default)]
struct SavedMatching {
    /// The node, or `u32::MAX` for an empty slot.
    node: u32,
    table: Option<Rc<Frozen>>,
    movable: Vec<u16>,
    matching: Saved,
}

/// How many expanded nodes keep their matching (a few dozen bytes a box
/// each): on Microban II 124 and 130, 65536 expand 10-15% more nodes a
/// second than 4096, where A* often comes back to a child long after its
/// parent.
const SAVED_MATCHINGS: usize = 65536;

/// Extra expansions of [`Method::BoxMoves`] after one expansion: on the
/// Sasquatch levels measured, 200 and 1000 solved the same levels at the
/// same speed (a box's reachable positions rarely take more), 20 fewer.
const BOX_MOVE_EXPANSIONS: usize = 200;

/// Runs the search on a prepared board. With `rooms` (the macros of the
/// non-optimal `--fast` lanes), boxes go into goal rooms by their macros only
/// (see [`super::room`]) and ride one-wide corridors to their ends.
pub fn run(
    board: &Board,
    method: Method,
    weight: u32,
    rooms: Option<&Rooms>,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> (Outcome, MultiStats) {
    let started = Instant::now();
    let n = board.len();
    let frontier = match method {
        Method::AStar | Method::Ucs | Method::Greedy => Frontier::Heap(BinaryHeap::new()),
        Method::Features | Method::BoxMoves => Frontier::Cells(FeatureCells::default()),
        Method::Bfs => Frontier::Queue(VecDeque::new()),
        Method::Dfs => Frontier::Stack(Vec::new()),
    };
    let mut s = Search {
        board,
        method,
        weight,
        optimal: method.optimal() && weight == 1 && rooms.is_none(),
        nodes: Nodes::new(board.start_boxes.len()),
        frontier,
        matcher: Matcher::default(),
        freeze: Freeze::default(),
        corrals: Corrals::default(),
        subset: SubsetSearch::default(),
        occupied: vec![false; n],
        reach: vec![0; n],
        seen: vec![0; n],
        stamp: 0,
        queue: Vec::new(),
        stats: MultiStats::default(),
        frozen: HashMap::new(),
        movable: Vec::new(),
        parent_movable: Vec::new(),
        parent_matched: false,
        saved: Vec::new(),
        saved_count: 0,
        rooms,
        in_room: Vec::new(),
        feature: Vec::new(),
        fresh: Vec::new(),
    };
    let start_boxes = board.start_boxes.clone();
    for &b in &start_boxes {
        s.occupied[b as usize] = true;
    }
    let player = s.normalize(board.start_player, false);
    let frozen = s.frozen_of(&start_boxes);
    let Some(h) = frozen.and_then(|f| s.bound(&f, &start_boxes)) else {
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
    // (The feature search counts the root's areas with its boxes in place.)
    s.enqueue(root, k);
    for &b in &start_boxes {
        s.occupied[b as usize] = false;
    }
    let mut last_report = Instant::now();
    let mut boxes = Vec::with_capacity(start_boxes.len());
    let mut work = 0;
    while let Some((k, node)) = s.frontier.pop() {
        let u = node as usize;
        if s.nodes.closed[u]
            || (matches!(s.frontier, Frontier::Heap(_) | Frontier::Cells(_))
                && k != s.key(s.nodes.g[u], s.nodes.h[u]))
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
        // From the first expansion on, every 256 (counting the box moves'
        // extra expansions): a limit below the start stops at once.
        work += 1;
        if work >= 256 || s.stats.expanded == 1 {
            work = 0;
            s.stats.memory_bytes = s.memory_bytes();
            if let Some(why) = limits.reached(started, s.stats.memory_bytes) {
                return (Outcome::Limit(why), s.stats);
            }
            if stop.load(Ordering::Relaxed) {
                return (Outcome::Limit("stopped".into()), s.stats);
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
        if s.method == Method::BoxMoves {
            work += s.push_moved_boxes_on(&mut boxes, limits.max_nodes);
        }
    }
    // Every position reachable without a deadlock has been seen: no solution
    // (unless the macros dropped it).
    s.stats.memory_bytes = s.memory_bytes();
    if s.rooms.is_some() {
        return (Outcome::Limit(MACROS_EXHAUSTED.into()), s.stats);
    }
    (Outcome::Impossible, s.stats)
}

impl Search<'_> {
    /// The frontier key of a node: lower is expanded first.
    fn key(&self, g: u32, h: u32) -> u64 {
        let (primary, secondary) = match self.method {
            Method::AStar => (g as u64 + self.weight as u64 * h as u64, h as u64),
            Method::Ucs => (g as u64, h as u64),
            Method::Greedy | Method::Features | Method::BoxMoves => (h as u64, g as u64),
            Method::Bfs | Method::Dfs => (0, 0),
        };
        primary << 32 | secondary
    }

    /// The frozen-on-goal boxes among `boxes` (per `occupied`) and their
    /// table, or `None` when a box is frozen off a goal.
    fn frozen_of(&mut self, boxes: &[u16]) -> Option<Rc<Frozen>> {
        let mut cells: Vec<u16> = Vec::new();
        for &b in boxes {
            if !self.board.is_goal[b as usize] || cells.contains(&b) {
                continue;
            }
            if let Some(group) = self.freeze.group(self.board, &self.occupied, b) {
                if group.iter().any(|&x| !self.board.is_goal[x as usize]) {
                    return None;
                }
                cells.extend_from_slice(group);
            }
        }
        cells.sort_unstable();
        cells.dedup();
        Some(self.frozen_table(cells))
    }

    fn frozen_table(&mut self, cells: Vec<u16>) -> Rc<Frozen> {
        if let Some(t) = self.frozen.get(&cells) {
            return t.clone();
        }
        let board = self.board;
        let distance = board
            .goals
            .iter()
            .filter(|g| !cells.contains(g))
            .map(|&g| pull_distances(&board.next, g, &cells))
            .collect();
        let table = Rc::new(Frozen {
            cells: cells.clone(),
            distance,
        });
        self.frozen.insert(cells, table.clone());
        table
    }

    /// The matching bound of the boxes not frozen, over the goals left.
    fn bound(&mut self, frozen: &Frozen, boxes: &[u16]) -> Option<u32> {
        self.movable.clear();
        self.movable.extend(
            boxes
                .iter()
                .filter(|b| frozen.cells.binary_search(b).is_err()),
        );
        self.matcher.bound_with(&frozen.distance, &self.movable)
    }

    fn memory_bytes(&self) -> usize {
        let tables: usize = self
            .frozen
            .values()
            .map(|t| t.distance.len() * self.board.len() * 2)
            .sum();
        let saved = self.saved_count * (self.board.start_boxes.len() + 1) * 26;
        self.nodes.memory_bytes()
            + self.feature.capacity() * 4
            + self.subset.memory_bytes()
            + self.frontier.len() * 16
            + self.occupied.len() * 13
            + tables
            + saved
    }

    /// The smallest cell the player reaches from `from` (boxes per `occupied`).
    /// With `keep`, the reached cells stay marked in `reach` (the parent's
    /// area, asked about for every push); otherwise `seen` is used.
    fn normalize(&mut self, from: u16, keep: bool) -> u16 {
        self.stamp += 1;
        let marks = if keep {
            &mut self.reach
        } else {
            &mut self.seen
        };
        self.board
            .flood_player(&self.occupied, marks, self.stamp, &mut self.queue, from)
    }

    /// True when a box newly on `cell` (it came from `freed`, where the
    /// player now stands) leaves the player's area connected: the area cells
    /// around `cell` form one run on the ring of its eight neighbours, so
    /// every walk through `cell` has a way round it. Sufficient, not necessary.
    fn keeps_area_whole(&self, cell: u16, freed: u16, reached: u32) -> bool {
        let board = self.board;
        let inside = |c: u16| {
            c != NONE
                && !self.occupied[c as usize]
                && (c == freed || self.reach[c as usize] == reached)
        };
        // The ring in order N, NE, E, SE, S, SW, W, NW.
        let order = [
            Direction::North,
            Direction::East,
            Direction::South,
            Direction::West,
        ];
        let mut ring = [false; 8];
        for (k, &d) in order.iter().enumerate() {
            let e = order[(k + 1) % 4];
            let (a, c) = (board.step(cell, d), board.step(cell, e));
            ring[2 * k] = inside(a);
            let corner = if a != NONE {
                board.step(a, e)
            } else if c != NONE {
                board.step(c, d)
            } else {
                NONE
            };
            ring[2 * k + 1] = inside(corner);
        }
        // Count the runs of area cells that hold a side neighbour of `cell`.
        let mut runs = 0;
        for k in 0..8 {
            if ring[k] && !ring[(k + 7) % 8] {
                let side = (k..k + 8).take_while(|&j| ring[j % 8]).any(|j| j % 2 == 0);
                runs += side as u32;
            }
        }
        runs <= 1
    }

    fn expand(&mut self, node: u32, boxes: &[u16]) {
        self.expand_only(node, boxes, None);
    }

    /// [`Method::BoxMoves`]: after an expansion, pushes each box it moved on,
    /// breadth-first, as far as it goes: every position that box reaches by
    /// further pushes of its own (the other boxes staying) is generated at
    /// once, so a box's whole path is one step of the feature search, as a
    /// move is in FESS. Each such position is an ordinary node, queued in its
    /// own cell and later expanded in full. At most [`BOX_MOVE_EXPANSIONS`]
    /// extra expansions, and none once `max_nodes` are generated; returns
    /// how many were made.
    fn push_moved_boxes_on(&mut self, boxes: &mut Vec<u16>, max_nodes: Option<u64>) -> usize {
        let mut at = 0;
        while at < self.fresh.len()
            && at < BOX_MOVE_EXPANSIONS
            && max_nodes.is_none_or(|m| self.stats.generated < m)
        {
            let (child, end) = self.fresh[at];
            at += 1;
            boxes.clear();
            boxes.extend_from_slice(self.nodes.boxes(child));
            self.expand_only(child, boxes, Some(end));
        }
        self.fresh.clear();
        at
    }

    /// Expands `node`, pushing only the box on `only_box` when it is given.
    fn expand_only(&mut self, node: u32, boxes: &[u16], only_box: Option<u16>) {
        let board = self.board;
        let u = node as usize;
        let g = self.nodes.g[u] + 1;
        for &b in boxes {
            self.occupied[b as usize] = true;
        }
        let Some(frozen) = self.frozen_of(boxes) else {
            // Frozen off its goal: nothing here can be solved.
            for &b in boxes {
                self.occupied[b as usize] = false;
            }
            return;
        };
        self.parent_movable.clear();
        self.parent_matched = false;
        // Resume the parent's matching when it is kept: with the same frozen
        // set, one augmenting path for the moved box; when boxes froze on
        // goals with the last push, the parent's matching shrunk.
        let up = self.nodes.parent[u];
        let push = self.push_of(u);
        if let Some(SavedMatching {
            table: Some(table),
            movable,
            matching: saved,
            ..
        }) = self
            .saved
            .get(up as usize % SAVED_MATCHINGS)
            .filter(|slot| slot.node == up)
            && push.step.is_none()
        {
            if Rc::ptr_eq(table, &frozen) {
                let cell = push.end(board);
                if let Some(row) = movable.iter().position(|&b| b == push.from) {
                    self.matcher
                        .resume(saved, &frozen.distance, movable, row, cell);
                    self.parent_movable.extend_from_slice(movable);
                    self.parent_movable[row] = cell;
                    self.parent_matched = true;
                }
            } else if frozen.grew_from(table) {
                let (table, movable) = (table.clone(), movable.clone());
                self.matcher.load(saved);
                self.parent_movable = movable;
                self.parent_matched = true;
                let shrunk = self.shrunk_bound(&frozen, &table, boxes, push);
                if shrunk.is_some() && self.parent_matched {
                    self.matcher.adopt_shrunk();
                    self.parent_movable.clone_from(&self.movable);
                } else {
                    self.parent_movable.clear();
                    self.parent_matched = false;
                }
            }
        }
        if !self.parent_matched {
            self.parent_movable.extend(
                boxes
                    .iter()
                    .filter(|b| frozen.cells.binary_search(b).is_err()),
            );
        }
        let least = self.normalize(self.nodes.player(node), true);
        let reached = self.stamp;
        let reach = &self.reach;
        // With every free cell in the player's area there is no corral.
        let corralled = self.queue.len() + boxes.len() != board.len();
        let only = if !corralled {
            None
        } else {
            self.corrals.restrict(board, &self.occupied, boxes, |c| {
                reach[c as usize] == reached
            })
        };
        // A corral whose boxes alone can never all reach goals: the node is dead.
        if corralled {
            let player = self.nodes.player(node);
            let (corrals, subset) = (&self.corrals, &mut self.subset);
            if corrals
                .found()
                .iter()
                .any(|set| subset.dead(board, set, player))
            {
                for &b in boxes {
                    self.occupied[b as usize] = false;
                }
                return;
            }
        }
        let mut child = Vec::with_capacity(boxes.len());
        let parent_hash =
            self.nodes.hash[u] ^ board.zobrist_player[self.nodes.player(node) as usize];
        if let Some(rooms) = self.rooms {
            self.in_room.clear();
            self.in_room.resize(rooms.rooms.len(), 0);
            for &b in boxes {
                if let Some(r) = rooms.room_of(b) {
                    self.in_room[r] += 1;
                }
            }
        }
        for (i, &b) in boxes.iter().enumerate() {
            if only_box.is_some_and(|o| o != b) {
                continue;
            }
            // A box in a goal room stays where its macro put it.
            if self.rooms.is_some_and(|r| r.room_of(b).is_some()) {
                continue;
            }
            for dir in Direction::ALL {
                if let Some(pushes) = &only
                    && !pushes.contains(&(b, dir))
                {
                    continue;
                }
                let reach = &self.reach;
                let Some(ahead) =
                    board.push_into(b, dir, &self.occupied, |c| reach[c as usize] == reached)
                else {
                    continue;
                };
                if let Some(rooms) = self.rooms {
                    // Boxes enter a goal room only by its macro; once it is
                    // full, its entrance is a cell like any other (it may be a goal).
                    match rooms.entered_at(ahead) {
                        Some(r) if (self.in_room[r] as usize) < rooms.rooms[r].plans.len() => {
                            self.room_step(node, g, boxes, b, dir, r, &frozen);
                            continue;
                        }
                        _ if rooms.room_of(ahead).is_some() => continue,
                        _ => {}
                    }
                }
                // Into a dead-end tunnel of goals the box goes as deep as it can.
                let (mut end, mut pushes) = (ahead, 1u16);
                if board.goal_tunnel[ahead as usize][dir.index()] {
                    loop {
                        let next = board.step(end, dir);
                        if next == NONE || self.occupied[next as usize] {
                            break;
                        }
                        (end, pushes) = (next, pushes + 1);
                    }
                } else if let Some(rooms) = self.rooms {
                    // With macros (not optimal), a box rides a one-wide
                    // corridor to its end, unless it reaches a goal or a
                    // room; stopping inside would only block the corridor.
                    while !board.is_goal[end as usize] && board.is_corridor(end, dir) {
                        let next = board.step(end, dir);
                        if next == NONE
                            || self.occupied[next as usize]
                            || board.dead[next as usize]
                            || rooms.room_of(next).is_some()
                            || rooms.entered_at(next).is_some()
                        {
                            break;
                        }
                        (end, pushes) = (next, pushes + 1);
                    }
                }
                let stand = board.step(end, dir.opposite());
                self.occupied[b as usize] = false;
                self.occupied[end as usize] = true;
                // A box frozen off a goal is a deadlock; frozen on goals, its
                // group joins the walls of the distance tables.
                let table = match self.freeze.group(board, &self.occupied, end) {
                    None => Some(frozen.clone()),
                    Some(group) if group.iter().any(|&x| !board.is_goal[x as usize]) => None,
                    Some(group) => {
                        let mut cells = frozen.cells.clone();
                        cells.extend_from_slice(group);
                        cells.sort_unstable();
                        cells.dedup();
                        Some(self.frozen_table(cells))
                    }
                };
                if let Some(table) = table {
                    // When the cell the box freed opens onto nothing new, and
                    // the cell it entered was outside the player's area or
                    // leaves the area in one piece, the area just trades one
                    // cell for the other: no flood needed.
                    let opens_nothing = board.next[b as usize].iter().all(|&x| {
                        x == NONE || self.occupied[x as usize] || self.reach[x as usize] == reached
                    });
                    let simple = pushes == 1
                        && opens_nothing
                        && (self.reach[ahead as usize] != reached
                            || (ahead != least && self.keeps_area_whole(ahead, b, reached)));
                    let player = if simple {
                        least.min(b)
                    } else {
                        self.normalize(stand, false)
                    };
                    child.clear();
                    child.extend_from_slice(boxes);
                    child[i] = end;
                    child.sort_unstable();
                    let hash = parent_hash
                        ^ board.zobrist_box[b as usize]
                        ^ board.zobrist_box[end as usize]
                        ^ board.zobrist_player[player as usize];
                    let push = Push {
                        from: b,
                        dir,
                        count: pushes,
                        step: None,
                    };
                    let moved = Rc::ptr_eq(&table, &frozen).then_some(end);
                    self.add_child(
                        node,
                        g + pushes as u32 - 1,
                        &child,
                        player,
                        hash,
                        push,
                        &table,
                        &frozen,
                        moved,
                    );
                }
                self.occupied[end as usize] = false;
                self.occupied[b as usize] = true;
            }
        }
        for &b in boxes {
            self.occupied[b as usize] = false;
        }
        if self.parent_matched {
            let at = node as usize % SAVED_MATCHINGS;
            if at >= self.saved.len() {
                self.saved.resize_with(at + 1, || SavedMatching {
                    node: u32::MAX,
                    ..SavedMatching::default()
                });
            }
            let slot = &mut self.saved[at];
            if slot.node == u32::MAX {
                self.saved_count += 1;
            }
            slot.node = node;
            slot.table = Some(frozen.clone());
            slot.movable.clone_from(&self.parent_movable);
            self.matcher.save_into(&mut slot.matching);
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
        push: Push,
        frozen: &Frozen,
        parent_table: &Frozen,
        moved_to: Option<u16>,
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
                self.set_push(vi, push);
                if self.optimal || !self.nodes.closed[vi] {
                    self.nodes.closed[vi] = false;
                    let k = self.key(g, self.nodes.h[vi]);
                    self.enqueue(v, k);
                }
            }
            return;
        }
        // One box moved and the frozen set unchanged: update the parent's matching.
        let row = moved_to.and_then(|_| self.parent_movable.iter().position(|&b| b == push.from));
        let h = match (moved_to, row) {
            (Some(cell), Some(row)) => {
                if !self.parent_matched {
                    self.matcher
                        .bound_with(&frozen.distance, &self.parent_movable);
                    self.parent_matched = true;
                }
                self.matcher.bound_moved(&frozen.distance, row, cell)
            }
            (None, _) if push.step.is_none() && frozen.grew_from(parent_table) => {
                // Boxes froze on goals: shrink the parent's matching.
                if !self.parent_matched {
                    self.matcher
                        .bound_with(&parent_table.distance, &self.parent_movable);
                    self.parent_matched = true;
                }
                self.shrunk_bound(frozen, parent_table, boxes, push)
            }
            _ => {
                self.parent_matched = false;
                self.bound(frozen, boxes)
            }
        };
        let Some(h) = h else {
            return;
        };
        let v = self
            .nodes
            .insert(&key, g, h, parent, push.from, push.dir.index() as u8);
        self.set_push(v as usize, push);
        self.stats.generated += 1;
        let k = self.key(g, h);
        self.enqueue(v, k);
        if self.method == Method::BoxMoves && push.step.is_none() {
            self.fresh.push((v, push.end(self.board)));
        }
    }

    /// Puts a node on the open list; for [`Method::Features`], in its
    /// feature cell, worked out on first sight with `occupied` holding the
    /// node's boxes: the number of areas the boxes cut the free floor into.
    /// (Tried as features too, on the 31 Sasquatch levels the other searches
    /// missed in 10 s: areas alone solve 5 of them; areas with the boxes on
    /// goals also 5, one of them another; boxes on goals alone 1; areas
    /// with boxes frozen on goals, or with a packing order worked out
    /// backwards from the goals, the same 5.)
    fn enqueue(&mut self, node: u32, key: u64) {
        let Frontier::Cells(cells) = &mut self.frontier else {
            self.frontier.push(key, node);
            return;
        };
        let u = node as usize;
        if u >= self.feature.len() {
            self.stamp += 1;
            let mut areas = 0u32;
            for c in 0..self.board.len() as u16 {
                if !self.occupied[c as usize] && self.seen[c as usize] != self.stamp {
                    areas += 1;
                    self.board.flood_player(
                        &self.occupied,
                        &mut self.seen,
                        self.stamp,
                        &mut self.queue,
                        c,
                    );
                }
            }
            self.feature.resize(u + 1, 0);
            self.feature[u] = areas;
        }
        cells.push(self.feature[u], key, node);
    }

    /// The bound of a child whose boxes froze on goals, from the parent's
    /// matching held by the matcher (see [`Matcher::bound_shrunk`]).
    fn shrunk_bound(
        &mut self,
        frozen: &Frozen,
        parent_table: &Frozen,
        boxes: &[u16],
        push: Push,
    ) -> Option<u32> {
        let end = push.end(self.board);
        self.movable.clear();
        let mut old_row = Vec::with_capacity(boxes.len());
        for &b in boxes {
            if frozen.cells.binary_search(&b).is_ok() {
                continue;
            }
            self.movable.push(b);
            if b == end {
                old_row.push(None);
            } else if let Some(r) = self.parent_movable.iter().position(|&x| x == b) {
                old_row.push(Some(r));
            } else {
                // Not a box the parent's matching knows: match from scratch.
                self.parent_matched = false;
                return self.bound(frozen, boxes);
            }
        }
        let mut old_col = Vec::with_capacity(self.movable.len());
        let mut column = 0;
        for g in &self.board.goals {
            if parent_table.cells.binary_search(g).is_ok() {
                continue;
            }
            if frozen.cells.binary_search(g).is_err() {
                old_col.push(column);
            }
            column += 1;
        }
        self.matcher
            .bound_shrunk(&frozen.distance, &self.movable, &old_row, &old_col)
    }

    /// The push that made node `u`.
    fn push_of(&self, u: usize) -> Push {
        let (dir, len) = (self.nodes.pushed_dir[u], self.nodes.pushed_len[u]);
        let step = (dir & ROOM_STEP != 0).then_some(((len >> 8) as u8, len & 0xFF));
        let count = match (step, self.rooms) {
            (Some((r, k)), Some(rooms)) => {
                1 + rooms.rooms[r as usize].plans[k as usize].pushes.len() as u16
            }
            _ => len,
        };
        Push {
            from: self.nodes.pushed_from[u],
            dir: Direction::from_index((dir & !ROOM_STEP) as usize),
            count,
            step,
        }
    }

    /// Records the push that made node `u` (see [`ROOM_STEP`]).
    fn set_push(&mut self, u: usize, push: Push) {
        self.nodes.pushed_from[u] = push.from;
        let (dir, len) = match push.step {
            None => (push.dir.index() as u8, push.count),
            Some((r, k)) => (push.dir.index() as u8 | ROOM_STEP, (r as u16) << 8 | k),
        };
        self.nodes.pushed_dir[u] = dir;
        self.nodes.pushed_len[u] = len;
    }

    /// The child of a push of the box on `b` onto the entrance of room `r`:
    /// the room's next step done at once (when the box arrives the way it
    /// plans for), the room's boxes moved to its next arrangement.
    #[allow(clippy::too_many_arguments)]
    fn room_step(
        &mut self,
        node: u32,
        g: u32,
        boxes: &[u16],
        b: u16,
        dir: Direction,
        r: usize,
        frozen: &Rc<Frozen>,
    ) {
        let rooms = self.rooms.expect("room macros are on");
        let room = &rooms.rooms[r];
        let k = self.in_room[r] as usize;
        let Some(plan) = room.plans.get(k).filter(|p| p.arrive == dir) else {
            return;
        };
        let (before, after) = (&room.boxes[k], &room.boxes[k + 1]);
        let mut child: Vec<u16> = boxes
            .iter()
            .copied()
            .filter(|&x| x != b && !before.contains(&x))
            .chain(after.iter().copied())
            .collect();
        child.sort_unstable();
        let parent_cells = || before.iter().copied().chain([b]);
        move_boxes(&mut self.occupied, parent_cells(), after.iter().copied());
        if let Some(table) = self.frozen_of(&child) {
            let player = self.normalize(plan.player_end(), false);
            let hash = child
                .iter()
                .fold(self.board.zobrist_player[player as usize], |acc, &c| {
                    acc ^ self.board.zobrist_box[c as usize]
                });
            let push = Push {
                from: b,
                dir,
                count: 1 + plan.pushes.len() as u16,
                step: Some((r as u8, k as u16)),
            };
            let pushes = push.count as u32;
            self.add_child(
                node,
                g + pushes - 1,
                &child,
                player,
                hash,
                push,
                &table,
                frozen,
                None,
            );
        }
        move_boxes(&mut self.occupied, after.iter().copied(), parent_cells());
    }

    /// The moves from the start to `goal`: each push preceded by the shortest walk to it.
    fn rebuild(&mut self, goal: u32) -> Solution {
        let board = self.board;
        let mut pushes = Vec::new();
        let mut at = goal;
        while self.nodes.parent[at as usize] != u32::MAX {
            let i = at as usize;
            pushes.push(self.push_of(i));
            at = self.nodes.parent[i];
        }
        pushes.reverse();
        self.occupied.fill(false);
        for &b in &board.start_boxes {
            self.occupied[b as usize] = true;
        }
        // Every single push as (box cell, direction), macros spelled out.
        let mut singles: Vec<(u16, Direction)> = Vec::new();
        for push in pushes {
            match push.step {
                None => {
                    let mut at = push.from;
                    for _ in 0..push.count {
                        singles.push((at, push.dir));
                        at = board.step(at, push.dir);
                    }
                }
                Some((r, k)) => {
                    let rooms = self.rooms.expect("room steps come from room macros");
                    singles.push((push.from, push.dir));
                    singles.extend_from_slice(&rooms.rooms[r as usize].plans[k as usize].pushes);
                }
            }
        }
        let mut player = board.start_player;
        let mut moves = Vec::new();
        for (at, dir) in singles {
            let stand = board.step(at, dir.opposite());
            if stand != player {
                moves.extend(self.walk(player, stand).into_iter().map(Move::walk));
            }
            moves.push(Move::push(dir));
            self.occupied[at as usize] = false;
            self.occupied[board.step(at, dir) as usize] = true;
            player = at;
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

/// Takes boxes off the cells `from` and puts boxes on the cells `to`, in
/// that order, so a cell in both keeps its box.
fn move_boxes(
    occupied: &mut [bool],
    from: impl IntoIterator<Item = u16>,
    to: impl IntoIterator<Item = u16>,
) {
    for c in from {
        occupied[c as usize] = false;
    }
    for c in to {
        occupied[c as usize] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn feature_cells_take_turns_and_keep_order_inside_a_cell() {
        let mut cells = FeatureCells::default();
        for (feature, key, node) in [(1, 5, 10), (1, 3, 11), (2, 9, 12), (1, 4, 13), (7, 1, 14)] {
            cells.push(feature, key, node);
        }
        let order: Vec<u32> = std::iter::from_fn(|| cells.pop()).map(|(_, n)| n).collect();
        // Cells in the order first met (1, 2, 7), each giving its lowest key.
        assert_eq!(order, [11, 12, 14, 13, 10]);
        assert_eq!(cells.len, 0);
    }

    #[test]
    fn moving_boxes_there_and_back_keeps_shared_cells() {
        let mut occupied = vec![false; 8];
        for c in [1, 2, 6] {
            occupied[c] = true;
        }
        let before = occupied.clone();
        // A step that keeps the box on 2 and moves 1 and 6 to 3 and 4.
        move_boxes(&mut occupied, [1, 2, 6], [2, 3, 4]);
        let taken: Vec<usize> = (0..8).filter(|&c| occupied[c]).collect();
        assert_eq!(taken, vec![2, 3, 4]);
        move_boxes(&mut occupied, [2, 3, 4], [1, 2, 6]);
        assert_eq!(occupied, before);
    }

    fn solve_with(text: &str, rooms: Option<&Rooms>) -> (Outcome, MultiStats) {
        let level = &parse_xsb(text.as_bytes(), 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let stop = AtomicBool::new(false);
        run(
            &board,
            Method::Greedy,
            1,
            rooms,
            &Limits::default(),
            &stop,
            &mut |_| {},
        )
    }

    #[test]
    fn with_macros_a_box_rides_a_corridor_in_one_move() {
        let text = "########\n#@$   .#\n## #####\n########";
        let (plain, plain_stats) = solve_with(text, None);
        let (ridden, ridden_stats) = solve_with(text, Some(&Rooms::default()));
        assert_eq!(plain.solution().unwrap().pushes, 4);
        assert_eq!(ridden.solution().unwrap().pushes, 4);
        // The start, then one node per push, or one for the whole ride.
        assert_eq!(plain_stats.generated, 5);
        assert_eq!(ridden_stats.generated, 2);
    }
}
