//! The lower bound: a minimum-cost perfect matching of boxes to goals.
//!
//! Each box must end on its own goal, and a box needs at least its push
//! distance to the goal it ends on, so the cheapest assignment of boxes to
//! goals (Hungarian method, shortest augmenting paths, O(n^3)) never
//! overestimates the pushes left: A* stays push-optimal. A push moves one box
//! one cell and changes its distances by at most one, so the bound is also
//! consistent. When no assignment has finite cost, the position is dead.

use super::board::{Board, FAR};

/// Reusable buffers for [`Matcher::bound`].
#[derive(Clone, Debug, Default)]
pub struct Matcher {
    cost: Vec<u32>,
    u: Vec<i64>,
    v: Vec<i64>,
    way: Vec<usize>,
    goal_of: Vec<usize>,
    min_v: Vec<i64>,
    used: Vec<bool>,
}

/// A cost no real assignment reaches: marks an impossible pairing.
const BLOCKED: u32 = 1 << 24;

impl Matcher {
    /// The matching bound for boxes on `boxes`, or `None` when some box cannot
    /// reach any goal left to it (a deadlock).
    pub fn bound(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        self.bound_with(&board.distance, boxes)
    }

    /// The same over a distance table `distance[g][cell]` with one row per
    /// goal still to fill, for as many boxes.
    pub fn bound_with(&mut self, distance: &[Vec<u16>], boxes: &[u16]) -> Option<u32> {
        let n = boxes.len();
        debug_assert_eq!(n, distance.len());
        if n == 0 {
            return Some(0);
        }
        self.cost.clear();
        for &b in boxes {
            for row in distance {
                let d = row[b as usize];
                self.cost.push(if d == FAR { BLOCKED } else { d as u32 });
            }
        }
        let total = self.assign(n);
        if total >= BLOCKED as i64 {
            None
        } else {
            Some(total as u32)
        }
    }

    /// Hungarian method on the n x n `cost` matrix (rows: boxes, columns: goals).
    fn assign(&mut self, n: usize) -> i64 {
        let inf = i64::MAX / 4;
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(n + 1, 0);
        self.way.clear();
        self.way.resize(n + 1, 0);
        // goal_of[j]: the row (1-based) matched to column j; 0 = none.
        self.goal_of.clear();
        self.goal_of.resize(n + 1, 0);
        for i in 1..=n {
            self.goal_of[0] = i;
            let mut j0 = 0;
            self.min_v.clear();
            self.min_v.resize(n + 1, inf);
            self.used.clear();
            self.used.resize(n + 1, false);
            loop {
                self.used[j0] = true;
                let i0 = self.goal_of[j0];
                let mut delta = inf;
                let mut j1 = 0;
                for j in 1..=n {
                    if !self.used[j] {
                        let cur = self.cost[(i0 - 1) * n + (j - 1)] as i64 - self.u[i0] - self.v[j];
                        if cur < self.min_v[j] {
                            self.min_v[j] = cur;
                            self.way[j] = j0;
                        }
                        if self.min_v[j] < delta {
                            delta = self.min_v[j];
                            j1 = j;
                        }
                    }
                }
                for j in 0..=n {
                    if self.used[j] {
                        self.u[self.goal_of[j]] += delta;
                        self.v[j] -= delta;
                    } else {
                        self.min_v[j] -= delta;
                    }
                }
                j0 = j1;
                if self.goal_of[j0] == 0 {
                    break;
                }
            }
            loop {
                let j1 = self.way[j0];
                self.goal_of[j0] = self.goal_of[j1];
                j0 = j1;
                if j0 == 0 {
                    break;
                }
            }
        }
        (1..=n)
            .map(|j| self.cost[(self.goal_of[j] - 1) * n + (j - 1)] as i64)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(cost: &[u32], n: usize) -> u32 {
        fn go(cost: &[u32], n: usize, row: usize, used: &mut Vec<bool>) -> u32 {
            if row == n {
                return 0;
            }
            let mut best = u32::MAX;
            for j in 0..n {
                if !used[j] {
                    used[j] = true;
                    let rest = go(cost, n, row + 1, used);
                    used[j] = false;
                    best = best.min(cost[row * n + j].saturating_add(rest));
                }
            }
            best
        }
        go(cost, n, 0, &mut vec![false; n])
    }

    #[test]
    fn matches_brute_force() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        let mut m = Matcher::default();
        for n in 1..=6 {
            for _ in 0..200 {
                let cost: Vec<u32> = (0..n * n).map(|_| next() % 20).collect();
                m.cost = cost.clone();
                assert_eq!(m.assign(n) as u32, brute(&cost, n));
            }
        }
    }
}
