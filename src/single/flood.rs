//! Walks of the player with one blocked cell (the box): breadth-first floods
//! and goal-directed searches.
//!
//! The single-box searches run many small searches, so one [`Flood`] is
//! reused: cells are marked with `base + distance`, and a new search only
//! raises `base` above every mark in use. The marks are 32-bit to halve the
//! memory traffic; when they run out the vector is cleared once and counting
//! starts again.

use crate::grid::{Direction, Grid};

/// A reusable search over floor cells with one cell treated as wall.
#[derive(Clone, Debug)]
pub struct Flood {
    /// `mark[c] >= base` means reached in the current search, at distance `mark[c] - base`.
    mark: Vec<u32>,
    base: u32,
    /// The largest mark written so far.
    high: u32,
    queue: Vec<u32>,
    /// The next f-bucket of [`Flood::distances_to`].
    later: Vec<u32>,
}

impl Flood {
    pub fn new(cells: usize) -> Flood {
        Flood {
            mark: vec![0; cells],
            base: 1,
            high: 0,
            queue: Vec::new(),
            later: Vec::new(),
        }
    }

    /// Starts a search: every mark of an earlier one falls below the new base,
    /// and the new search has room for a distance up to the number of cells.
    fn begin(&mut self) -> u32 {
        let room = self.mark.len() as u64 + 2;
        if self.high as u64 + room >= u32::MAX as u64 {
            self.mark.fill(0);
            self.high = 0;
        }
        self.base = self.high + 1;
        self.high = self.base;
        self.base
    }

    /// Floods from `from` (not `blocked`, not walls) in distance order, calling
    /// `visit(cell, distance)` for each cell reached; stops early when `visit`
    /// returns true. Returns the number of cells reached.
    pub fn run(
        &mut self,
        grid: &Grid,
        from: usize,
        blocked: usize,
        mut visit: impl FnMut(usize, u64) -> bool,
    ) -> usize {
        let base = self.begin();
        self.queue.clear();
        if grid.is_wall(from) || from == blocked {
            return 0;
        }
        self.mark[from] = base;
        self.queue.push(from as u32);
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head] as usize;
            head += 1;
            let d = self.mark[cell] - base;
            if visit(cell, d as u64) {
                break;
            }
            for next in grid.neighbours(cell) {
                if grid.is_floor(next) && next != blocked && self.mark[next] < base {
                    self.mark[next] = base + d + 1;
                    self.queue.push(next as u32);
                }
            }
        }
        if let Some(&last) = self.queue.last() {
            self.high = self.high.max(self.mark[last as usize]);
        }
        head
    }

    /// Lengths of shortest walks from `from` to each of `targets` avoiding
    /// `blocked`, written to `out` (`None` for a target not reached).
    ///
    /// A* with the Manhattan distance to the nearest target (consistent, so
    /// each target's distance is exact when it is taken off the queue, and
    /// one search serves them all). It is exact on open floor, so a short
    /// detour costs a handful of cells, not a flood of its radius. Targets
    /// must share a colour of the grid's checkerboard (the sides of one cell
    /// do): then f = g + h only grows in steps of 2, and two buckets replace
    /// the heap. A target that cannot be reached makes the search explore
    /// all of `from`'s area: callers ask only about connected ones.
    pub fn distances_to(
        &mut self,
        grid: &Grid,
        from: usize,
        targets: &[usize],
        blocked: usize,
        out: &mut [Option<u64>],
    ) {
        out.fill(None);
        let base = self.begin();
        self.queue.clear();
        self.later.clear();
        if grid.is_wall(from) || from == blocked {
            return;
        }
        let stride = grid.stride();
        let goals: Vec<(usize, usize)> =
            targets.iter().map(|&t| (t / stride, t % stride)).collect();
        let h = |r: usize, c: usize| {
            goals
                .iter()
                .map(|&(tr, tc)| (r.abs_diff(tr) + c.abs_diff(tc)) as u32)
                .min()
                .unwrap_or(0)
        };
        let mut left = targets.len();
        self.mark[from] = base;
        self.queue.push(from as u32);
        let mut f = h(from / stride, from % stride);
        loop {
            while let Some(cell) = self.queue.pop() {
                let cell = cell as usize;
                let g = self.mark[cell] - base;
                let (r, c) = (cell / stride, cell % stride);
                let here = h(r, c);
                if g + here != f {
                    continue; // queued again later with a shorter walk
                }
                if here == 0 {
                    for (k, &t) in targets.iter().enumerate() {
                        if t == cell && out[k].is_none() {
                            out[k] = Some(g as u64);
                            left -= 1;
                        }
                    }
                    if left == 0 {
                        return;
                    }
                }
                let steps = [(r - 1, c), (r + 1, c), (r, c + 1), (r, c - 1)];
                for (next, (nr, nc)) in grid.neighbours(cell).into_iter().zip(steps) {
                    if grid.is_wall(next) || next == blocked {
                        continue;
                    }
                    let m = self.mark[next];
                    if m < base || m > base + g + 1 {
                        self.mark[next] = base + g + 1;
                        self.high = self.high.max(base + g + 1);
                        if h(nr, nc) < here {
                            self.queue.push(next as u32);
                        } else {
                            self.later.push(next as u32);
                        }
                    }
                }
            }
            if self.later.is_empty() {
                return;
            }
            std::mem::swap(&mut self.queue, &mut self.later);
            f += 2;
        }
    }

    /// Distance of `cell` in the last search, if it was reached.
    pub fn distance(&self, cell: usize) -> Option<u64> {
        (self.mark[cell] >= self.base).then(|| (self.mark[cell] - self.base) as u64)
    }

    /// A shortest walk from `from` to `to` avoiding `blocked`, or `None`.
    ///
    /// Tie-break: at every step the walk takes the first direction in
    /// n, s, e, w order that stays on a shortest walk.
    pub fn walk(
        &mut self,
        grid: &Grid,
        from: usize,
        to: usize,
        blocked: usize,
    ) -> Option<Vec<Direction>> {
        // Flood from the destination so distances lead back to it from `from`.
        self.run(grid, to, blocked, |cell, _| cell == from);
        let mut left = self.distance(from)?;
        let mut path = Vec::with_capacity(left as usize);
        let mut at = from;
        while left > 0 {
            let dir = Direction::ALL
                .into_iter()
                .find(|&d| self.distance(grid.step(at, d)) == Some(left - 1))
                .expect("a reached cell has a neighbour one step closer");
            path.push(dir);
            at = grid.step(at, dir);
            left -= 1;
        }
        Some(path)
    }

    pub fn memory_bytes(&self) -> usize {
        self.mark.len() * 4 + (self.queue.capacity() + self.later.capacity()) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(rows: usize, cols: usize) -> Grid {
        let mut g = Grid::new(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                g.set_floor(g.cell(r, c));
            }
        }
        g
    }

    #[test]
    fn walk_goes_around_the_blocked_cell_preferring_north() {
        let g = open(3, 3);
        let mut f = Flood::new(g.len());
        let path = f
            .walk(&g, g.cell(1, 0), g.cell(1, 2), g.cell(1, 1))
            .unwrap();
        use Direction::*;
        assert_eq!(path, vec![North, East, East, South]);
        // Reused floods do not see each other's marks.
        assert_eq!(
            f.walk(&g, g.cell(0, 0), g.cell(0, 0), g.cell(1, 1)),
            Some(vec![])
        );
        assert_eq!(
            f.walk(&g, g.cell(0, 0), g.cell(2, 2), g.cell(1, 1))
                .unwrap()
                .len(),
            4
        );
    }

    #[test]
    fn goal_directed_distance_matches_the_flood() {
        let mut g = open(7, 9);
        for (r, c) in [
            (1, 1),
            (1, 2),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 5),
            (5, 5),
            (3, 6),
            (2, 6),
        ] {
            g.set_wall(g.cell(r, c));
        }
        let mut f = Flood::new(g.len());
        let floor: Vec<usize> = (0..g.len()).filter(|&c| g.is_floor(c)).collect();
        for &blocked in &[g.cell(2, 2), g.cell(4, 4), usize::MAX] {
            for &a in &floor {
                f.run(&g, a, blocked, |_, _| false);
                let want: Vec<Option<u64>> = floor.iter().map(|&b| f.distance(b)).collect();
                for (&b, &w) in floor.iter().zip(&want) {
                    let mut got = [None];
                    f.distances_to(&g, a, &[b], blocked, &mut got);
                    assert_eq!(got[0], w);
                }
                // Several targets of one checkerboard colour at once.
                let same: Vec<usize> = floor
                    .iter()
                    .copied()
                    .filter(|&b| (b % g.stride() + b / g.stride()).is_multiple_of(2))
                    .take(3)
                    .collect();
                let mut got = vec![None; same.len()];
                f.distances_to(&g, a, &same, blocked, &mut got);
                let expect: Vec<Option<u64>> = same
                    .iter()
                    .map(|&b| want[floor.iter().position(|&x| x == b).unwrap()])
                    .collect();
                assert_eq!(got, expect);
            }
        }
    }

    #[test]
    fn walled_off_is_none() {
        let mut g = open(1, 3);
        g.set_wall(g.cell(0, 1));
        let mut f = Flood::new(g.len());
        assert_eq!(f.walk(&g, g.cell(0, 0), g.cell(0, 2), usize::MAX), None);
        let mut got = [Some(0)];
        f.distances_to(&g, g.cell(0, 0), &[g.cell(0, 2)], usize::MAX, &mut got);
        assert_eq!(got, [None]);
    }
}
