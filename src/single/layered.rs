//! The default single-box search: exact (pushes, walks) in near-linear time.
//!
//! A state is (box cell, push direction): the player stands behind the box,
//! ready to push it. Costs are compared as (pushes, walks), so the states with
//! the fewest pushes p form a layer, and a layer is built from the one before:
//!
//! - every state of layer p pushes once; the states it lands on (not in an
//!   earlier layer) are layer p+1's *entries*, carrying their walks unchanged;
//! - the other states of layer p+1 are reached by walking around the box from
//!   an entry of the same box cell, and only from an entry: a walk never moves
//!   the box, and the side distances obey the triangle inequality, so one
//!   walk after the entry is always enough.
//!
//! A state reached by walking is only worth settling when its push leads to a
//! state not yet settled: otherwise nothing can use it (walks start only from
//! entries), so its walk is never measured. The walks from one entry to all
//! the sides it may improve are asked for at once, so one search serves them.
//!
//! The layers are not built whole: this is A* with the box's own distance to
//! the target as the bound ([`super::bound`]). A layer is cut into buckets by
//! f = p + bound(box cell), and buckets run in (f, p) order. A push changes
//! the bound by exactly one, so it stays in f (towards the target, into
//! bucket (f, p+1)) or enters f + 2; every entry of a bucket is known when it
//! runs, and a box cell is always entered with its fewest pushes first. The
//! first bucket to push the box onto the target ends the search, and states
//! with f above the optimum are never built: on a big grid, mostly the
//! cells near the box's shortest ways to the target.
//!
//! So no priority queue is needed: per box cell, at most four entries and four
//! states, joined by at most twelve side distances ([`SideDistances`]). The
//! whole search is a small multiple of one flood of the grid. The cost of a
//! state is (its layer, its walks), which is exactly the lexicographic
//! Dijkstra order the contract asks for; the bound only skips states.
//!
//! Tie-break (the README's "Which optimal solution is printed"): the box reaches the target by the first
//! push direction in N, S, E, W order among the optimal ones; behind every push,
//! the player keeps the side it arrived on when that is optimal, and otherwise
//! walks there from the arrival side that comes first in N, S, E, W order; each
//! walk steps in the first direction (n, s, e, w) that stays shortest.

use super::bound::{NO_PATH, push_distances};
use super::sides::SideDistances;
use super::{SingleReport, SingleStats};
use crate::grid::Direction;
use crate::level::Maze;
use crate::moves::{Move, Solution};

const UNSEEN: u32 = u32::MAX;
/// `how` values 0..4 mean "walked from the entry with that push direction".
const FROM_START: u8 = 4;
const FROM_PUSH: u8 = 5;

/// Solves a maze whose box is not on its target; see the module docs.
pub fn solve(maze: &Maze) -> SingleReport {
    debug_assert_ne!(
        maze.box_cell, maze.target,
        "solve() answers a box already home"
    );
    let bound = push_distances(&maze.grid, maze.target);
    let sides = SideDistances::new(&maze.grid, maze.player);
    if bound[maze.box_cell] == NO_PATH {
        return SingleReport::impossible(stats_of(0, &sides, maze.grid.len(), 0));
    }
    let mut search = Search::new(maze, bound, sides);
    search.start();
    loop {
        search.push_bucket();
        if search.settled.entered[maze.target] != 0 {
            return search.finish();
        }
        if !search.next_bucket() {
            return search.impossible();
        }
        search.settle_bucket();
    }
}

/// What is known of each state: its walks, how it was reached, and per box
/// cell the sides pushed into for the bucket being built.
struct Settled {
    walks: Walks,
    how: Vec<u8>,
    entered: Vec<u8>,
}

/// The buckets: the states of the one being expanded, the cells entered for
/// the next bucket of this f, and the (pushes, cell) entries stored for
/// f + 2 (`later`, in push order) and for this f (`stored`, filled while
/// f - 2 was expanded, read from `stored_at`).
#[derive(Default)]
struct Buckets {
    layer: Vec<u32>,
    cells: Vec<u32>,
    later: Vec<(u32, u32)>,
    stored: Vec<(u32, u32)>,
    stored_at: usize,
}

impl Buckets {
    /// Bytes held by the lists.
    fn bytes(&self) -> usize {
        4 * (self.layer.capacity() + self.cells.capacity())
            + 8 * (self.later.capacity() + self.stored.capacity())
    }
}

/// One layered search: the maze, the bound, and the buckets at (f, pushes).
struct Search<'a> {
    maze: &'a Maze,
    bound: Vec<u32>,
    sides: SideDistances<'a>,
    settled: Settled,
    buckets: Buckets,
    states: u64,
    pushes: u32,
    f: u32,
}

impl<'a> Search<'a> {
    fn new(maze: &'a Maze, bound: Vec<u32>, sides: SideDistances<'a>) -> Search<'a> {
        let n = maze.grid.len();
        // Walks to each state; u32 keeps the arrays small, and a sum that
        // would not fit is reported rather than wrapped.
        let settled = Settled {
            walks: Walks::new(4 * n),
            how: vec![0u8; 4 * n],
            entered: vec![0u8; n],
        };
        let f = bound[maze.box_cell];
        Search {
            maze,
            bound,
            sides,
            settled,
            buckets: Buckets::default(),
            states: 0,
            pushes: 0,
            f,
        }
    }

    /// Layer 0: the player walks from its start to a side of the box.
    fn start(&mut self) {
        let maze = self.maze;
        let starts = walks_from_start(maze, &mut self.sides);
        for d in Direction::ALL {
            if let Some(w) = starts[d.opposite().index()] {
                let s = maze.box_cell * 4 + d.index();
                self.settled.walks.set(s, clamp(w));
                self.settled.how[s] = FROM_START;
                self.buckets.layer.push(s as u32);
            }
        }
        self.states = self.buckets.layer.len() as u64;
    }

    /// Pushes every state of bucket (f, pushes). A push towards the target
    /// keeps f and enters bucket (f, pushes + 1); one away from it (the
    /// bound rises by one) enters (f + 2, pushes + 1).
    fn push_bucket(&mut self) {
        let grid = &self.maze.grid;
        let Settled {
            walks,
            how,
            entered,
        } = &mut self.settled;
        let buckets = &mut self.buckets;
        for &s in &buckets.layer {
            let s = s as usize;
            let (b, d) = (s / 4, s % 4);
            let next = grid.step(b, Direction::from_index(d));
            if self.bound[next] == NO_PATH {
                continue;
            }
            let t = next * 4 + d;
            if walks.get(t) != UNSEEN {
                continue;
            }
            walks.set(t, walks.get(s));
            how[t] = FROM_PUSH;
            if entered[next] == 0 {
                if self.bound[next] < self.bound[b] {
                    buckets.cells.push(next as u32);
                } else {
                    buckets.later.push((self.pushes + 1, next as u32));
                }
            }
            entered[next] |= 1 << d;
        }
    }

    /// The answer once the box has been pushed onto the target: the entry
    /// there with the fewest walks.
    fn finish(mut self) -> SingleReport {
        let target = self.maze.target;
        let mask = self.settled.entered[target];
        let best = (0..4)
            .filter(|d| mask & (1 << d) != 0)
            .min_by_key(|&d| self.settled.walks.get(target * 4 + d))
            .expect("an entry exists");
        let goal = target * 4 + best;
        let stats = self.stats();
        let settled = &self.settled;
        match rebuild(
            self.maze,
            &settled.walks,
            &settled.how,
            goal,
            &mut self.sides,
        ) {
            Some(moves) => {
                let solution = Solution::from_moves(moves);
                debug_assert_eq!(solution.pushes, self.pushes as u64 + 1);
                debug_assert_eq!(solution.walks, settled.walks.get(goal) as u64);
                SingleReport::solved(solution, stats)
            }
            None => SingleReport::overflow(stats),
        }
    }

    fn impossible(&self) -> SingleReport {
        SingleReport::impossible(self.stats())
    }

    fn stats(&self) -> SingleStats {
        let n = self.maze.grid.len();
        stats_of(self.states, &self.sides, n, self.buckets.bytes())
    }

    /// Moves to the next bucket: (f, pushes + 1) if anything entered it,
    /// else the smallest push count stored for f, else the first bucket of
    /// f + 2. False when there is none: every reachable state is settled.
    fn next_bucket(&mut self) -> bool {
        let buckets = &mut self.buckets;
        if buckets.cells.is_empty() {
            if buckets.stored_at == buckets.stored.len() {
                std::mem::swap(&mut buckets.stored, &mut buckets.later);
                buckets.later.clear();
                buckets.stored_at = 0;
                self.f += 2;
                if buckets.stored.is_empty() {
                    return false;
                }
            }
            self.pushes = buckets.stored[buckets.stored_at].0;
        } else {
            self.pushes += 1;
        }
        while buckets.stored_at < buckets.stored.len()
            && buckets.stored[buckets.stored_at].0 == self.pushes
        {
            buckets.cells.push(buckets.stored[buckets.stored_at].1);
            buckets.stored_at += 1;
        }
        true
    }

    /// Settles every cell entered for the bucket, making its layer.
    fn settle_bucket(&mut self) {
        self.buckets.layer.clear();
        let cells = std::mem::take(&mut self.buckets.cells);
        for &b in &cells {
            debug_assert_eq!(
                self.pushes + self.bound[b as usize],
                self.f,
                "buckets run in f order"
            );
            self.settle_cell(b as usize);
        }
        self.buckets.cells = cells;
        self.buckets.cells.clear();
        self.states += self.buckets.layer.len() as u64;
    }

    /// Settles the states of box cell `b` in the bucket being built: its
    /// entries (the sides pushed into, marked in `entered`, which is
    /// cleared), and the sides walked to from an entry whose push leads to a
    /// state not yet seen.
    #[inline]
    fn settle_cell(&mut self, b: usize) {
        let walks = &self.settled.walks;
        let mask = self.settled.entered[b];
        self.settled.entered[b] = 0;
        let mut entry = [UNSEEN; 4];
        for (d, w) in entry.iter_mut().enumerate() {
            if mask & (1 << d) != 0 {
                *w = walks.get(b * 4 + d);
            }
        }
        let open = self.open_sides(b, mask);
        let (best, from) = self.walk_round(b, entry, open);
        for d in 0..4 {
            if open & (1 << d) != 0 && best[d] != UNSEEN {
                let s = b * 4 + d;
                self.settled.walks.set(s, best[d]);
                self.settled.how[s] = from[d];
                self.buckets.layer.push(s as u32);
            }
        }
    }

    /// Sides worth settling at `b`: the entries (`mask`), and unsettled
    /// sides whose push leads somewhere new. A state reached by walking is
    /// only ever used to push; when that push is blocked or lands on a state
    /// already seen (with no more pushes than this one would give it), its
    /// walk is not worth measuring.
    #[inline]
    fn open_sides(&self, b: usize, mask: u8) -> u8 {
        let walks = &self.settled.walks;
        let mut open = mask;
        for d in 0..4 {
            if mask & (1 << d) == 0 && walks.get(b * 4 + d) == UNSEEN {
                let next = self.maze.grid.step(b, Direction::from_index(d));
                if self.bound[next] != NO_PATH && walks.get(next * 4 + d) == UNSEEN {
                    open |= 1 << d;
                }
            }
        }
        open
    }

    /// The fewest walks to each open side of `b`, and where each came from:
    /// the entry itself (`FROM_PUSH`) or the entry walked from.
    #[inline]
    fn walk_round(&mut self, b: usize, entry: [u32; 4], open: u8) -> ([u32; 4], [u8; 4]) {
        let mut best = entry;
        let mut from = [FROM_PUSH; 4];
        for (e, &at_entry) in entry.iter().enumerate() {
            if at_entry == UNSEEN {
                continue;
            }
            // A walk between two sides takes at least 2 steps, so it only
            // helps an entry that arrived with at least 3 more walks.
            let mut want = 0u8;
            for (d, &so_far) in best.iter().enumerate() {
                if d != e && open & (1 << d) != 0 && so_far > at_entry.saturating_add(2) {
                    want |= 1 << d;
                }
            }
            if want == 0 {
                continue;
            }
            let arrived = Direction::from_index(e).opposite();
            // Sides are indexed by where the player stands: the opposite of the push.
            let row = self.sides.walks_from_side(b, arrived, stand_mask(want));
            for d in 0..4 {
                if want & (1 << d) == 0 {
                    continue;
                }
                let stand = Direction::from_index(d).opposite();
                if let Some(w) = row[stand.index()] {
                    let total = clamp(at_entry as u64 + w);
                    if total < best[d] {
                        (best[d], from[d]) = (total, e as u8);
                    }
                }
            }
        }
        (best, from)
    }
}

/// Turns a mask of push directions into the mask of the sides the player stands on.
fn stand_mask(push: u8) -> u8 {
    Direction::ALL
        .into_iter()
        .filter(|d| push & (1 << d.index()) != 0)
        .fold(0, |m, d| m | 1 << d.opposite().index())
}

/// Walks to each state, stored complemented so that `UNSEEN` is 0: the
/// vector starts as untouched zero pages, and a search that settles few
/// states (the bound keeps most of a big grid away) never faults the rest in.
struct Walks(Vec<u32>);

impl Walks {
    fn new(states: usize) -> Walks {
        Walks(vec![0; states])
    }

    #[inline]
    fn get(&self, state: usize) -> u32 {
        !self.0[state]
    }

    #[inline]
    fn set(&mut self, state: usize, walks: u32) {
        self.0[state] = !walks;
    }
}

/// Saturates at one below `UNSEEN`; a saturated walk count is caught when rebuilding.
fn clamp(w: u64) -> u32 {
    w.min(UNSEEN as u64 - 1) as u32
}

/// `lists`: bytes of the bucket lists.
fn stats_of(states: u64, sides: &SideDistances, n: usize, lists: usize) -> SingleStats {
    SingleStats {
        states,
        searches: sides.searches,
        memory_bytes: n * (4 * 4 + 4 + 1 + 1 + 4) + sides.memory_bytes() + lists,
    }
}

/// Walk lengths from the player's start to each side of the box (indexed by
/// side direction): one goal-directed search, so a player near the box never
/// floods the grid.
pub(super) fn walks_from_start(maze: &Maze, sides: &mut SideDistances) -> [Option<u64>; 4] {
    let grid = &maze.grid;
    let near = grid.neighbours(maze.box_cell);
    let mut targets = [0; 4];
    let mut which = [0; 4];
    let mut count = 0;
    for (i, &c) in near.iter().enumerate() {
        if grid.is_floor(c) {
            (targets[count], which[count]) = (c, i);
            count += 1;
        }
    }
    let mut reached = [None; 4];
    sides.flood().distances_to(
        grid,
        maze.player,
        &targets[..count],
        maze.box_cell,
        &mut reached[..count],
    );
    let mut found = [None; 4];
    for k in 0..count {
        found[which[k]] = reached[k];
    }
    found
}

/// Rebuilds the moves ending in state `goal` from the `how` links.
/// `None` when the walk count saturated (more than `u32::MAX - 1` walks).
fn rebuild(
    maze: &Maze,
    walks: &Walks,
    how: &[u8],
    goal: usize,
    sides: &mut SideDistances,
) -> Option<Vec<Move>> {
    if walks.get(goal) >= UNSEEN - 1 {
        return None;
    }
    let grid = &maze.grid;
    let mut rev: Vec<Move> = Vec::new();
    let mut s = goal;
    loop {
        let (b, d) = (s / 4, s % 4);
        let dir = Direction::from_index(d);
        let stand = grid.step(b, dir.opposite());
        let (from, next) = match how[s] {
            FROM_PUSH => {
                rev.push(Move::push(dir));
                s = grid.step(b, dir.opposite()) * 4 + d;
                continue;
            }
            FROM_START => (maze.player, None),
            e => {
                let arrived = Direction::from_index(e as usize).opposite();
                (grid.step(b, arrived), Some(b * 4 + e as usize))
            }
        };
        let walk = sides
            .flood()
            .walk(grid, from, stand, b)
            .expect("a recorded walk exists");
        rev.extend(walk.into_iter().rev().map(Move::walk));
        match next {
            Some(t) => s = t,
            None => break,
        }
    }
    rev.reverse();
    Some(rev)
}
