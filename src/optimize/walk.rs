//! The player's walks between pushes, and the squares a box may stand on.
//!
//! Every push of the optimizer's search costs the walk to the pushing side
//! plus one, so each expansion measures all walks at once by one
//! breadth-first search; the walk itself is only spelled out for the pushes
//! of the answer.

use crate::grid::{Direction, Grid};
use crate::moves::Move;

/// Breadth-first distances from the player, reused between searches (a
/// stamp per cell instead of clearing).
pub(crate) struct Walker {
    stamp: Vec<u32>,
    now: u32,
    dist: Vec<u32>,
    /// The step that reached each cell, as an index of [`Direction::ALL`].
    came: Vec<u8>,
    queue: Vec<usize>,
}

impl Walker {
    pub(crate) fn new(cells: usize) -> Walker {
        Walker {
            stamp: vec![0; cells],
            now: 0,
            dist: vec![0; cells],
            came: vec![0; cells],
            queue: Vec::new(),
        }
    }

    /// Measures every walk from `start` over floor free of `boxed` cells.
    pub(crate) fn reach(&mut self, grid: &Grid, boxed: &[bool], start: usize) {
        self.now += 1;
        if self.now == u32::MAX {
            self.stamp.fill(0);
            self.now = 1;
        }
        self.queue.clear();
        self.queue.push(start);
        self.stamp[start] = self.now;
        self.dist[start] = 0;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            for dir in Direction::ALL {
                let next = grid.step(cell, dir);
                if grid.is_wall(next) || boxed[next] || self.stamp[next] == self.now {
                    continue;
                }
                self.stamp[next] = self.now;
                self.dist[next] = self.dist[cell] + 1;
                self.came[next] = dir.index() as u8;
                self.queue.push(next);
            }
        }
    }

    /// Steps of the shortest walk to `cell`, if it was reached.
    pub(crate) fn distance(&self, cell: usize) -> Option<u32> {
        (self.stamp[cell] == self.now).then(|| self.dist[cell])
    }

    /// The walk to a reached `cell`, as moves.
    pub(crate) fn walk_to(&self, grid: &Grid, cell: usize) -> Vec<Move> {
        let mut moves = Vec::with_capacity(self.dist[cell] as usize);
        let mut at = cell;
        for _ in 0..self.dist[cell] {
            let dir = Direction::from_index(self.came[at] as usize);
            moves.push(Move::walk(dir));
            at = grid.step(at, dir.opposite());
        }
        moves.reverse();
        moves
    }
}

/// Per cell, the fewest pushes that take a box alone on the board from it
/// to some goal (`u32::MAX` where none can: a push there loses the level).
pub(crate) fn goal_pushes(grid: &Grid, goals: &[usize]) -> Vec<u32> {
    let mut pushes = vec![u32::MAX; grid.len()];
    let mut queue: std::collections::VecDeque<usize> = goals.iter().copied().collect();
    for &g in goals {
        pushes[g] = 0;
    }
    while let Some(to) = queue.pop_front() {
        for dir in Direction::ALL {
            // A box pushed in `dir` from `from` to `to`, the player behind it.
            let from = grid.step(to, dir.opposite());
            if grid.is_wall(from) || pushes[from] != u32::MAX {
                continue;
            }
            let behind = grid.step(from, dir.opposite());
            if grid.floor_at(behind) {
                pushes[from] = pushes[to] + 1;
                queue.push_back(from);
            }
        }
    }
    pushes
}
