//! Breadth-first walks of the player with one blocked cell (the box).
//!
//! The single-box searches run many small floods, so one [`Flood`] is reused:
//! cells are marked with `base + distance`, and a new flood only raises `base`,
//! never clears the vector.

use crate::grid::{Direction, Grid};

/// A reusable BFS over floor cells with one cell treated as wall.
#[derive(Clone, Debug)]
pub struct Flood {
    /// `mark[c] >= base` means reached in the current flood, at distance `mark[c] - base`.
    mark: Vec<u64>,
    base: u64,
    queue: Vec<u32>,
}

impl Flood {
    pub fn new(cells: usize) -> Flood {
        Flood {
            mark: vec![0; cells],
            base: 1,
            queue: Vec::new(),
        }
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
        // Every mark of an earlier flood is below the new base.
        self.base = self.base.max(self.top() + 1);
        let base = self.base;
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
            if visit(cell, d) {
                break;
            }
            for next in grid.neighbours(cell) {
                if grid.is_floor(next) && next != blocked && self.mark[next] < base {
                    self.mark[next] = base + d + 1;
                    self.queue.push(next as u32);
                }
            }
        }
        head
    }

    /// Largest mark in use (the last queued cell is the farthest).
    fn top(&self) -> u64 {
        self.queue
            .last()
            .map_or(self.base, |&c| self.mark[c as usize])
    }

    /// Distance of `cell` in the last flood, if it was reached.
    pub fn distance(&self, cell: usize) -> Option<u64> {
        (self.mark[cell] >= self.base).then(|| self.mark[cell] - self.base)
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
        self.mark.len() * 8 + self.queue.capacity() * 4
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
    fn walled_off_is_none() {
        let mut g = open(1, 3);
        g.set_wall(g.cell(0, 1));
        let mut f = Flood::new(g.len());
        assert_eq!(f.walk(&g, g.cell(0, 0), g.cell(0, 2), usize::MAX), None);
    }
}
