//! Parking: which goal's box waits out of the way, and on which square.

use super::{MAX_WORK, ParkingSquares, Planner, Target};
use crate::grid::Direction;
use crate::multi::board::{Cell, Distance, across};

impl Planner<'_> {
    /// Parks a box, one of `waiting` when there are any, else any goal's:
    /// tries goals farthest-parked first, each at two squares, searching on
    /// after each.
    pub(super) fn park(&mut self, step: u32, waiting: &[usize]) -> bool {
        let mut tried = vec![!waiting.is_empty(); self.targets.len()];
        for &t in waiting {
            tried[t] = false;
        }
        let player = self.player;
        while self.parkings > 0 && self.work < MAX_WORK {
            let Some((t, squares)) = self.parking_for(&tried) else {
                return false;
            };
            self.parkings -= 1;
            tried[t] = true;
            let goal = self.targets[t].cell;
            self.targets[t].step = step;
            self.occupied[goal] = false;
            self.left_real -= 1;
            for (square, after) in squares {
                self.occupied[square] = true;
                self.targets.push(Target {
                    cell: square,
                    real: false,
                    step: 0,
                    parked_at: step,
                });
                self.open.push(0);
                tried.push(true);
                self.player = after;
                if self.search(step + 1) {
                    return true;
                }
                self.targets.pop();
                self.open.pop();
                tried.pop();
                self.occupied[square] = false;
            }
            self.player = player;
            self.targets[t].step = 0;
            self.occupied[goal] = true;
            self.left_real += 1;
        }
        false
    }

    /// The goal (not in `tried`) whose box can be parked farthest from it,
    /// and its parking squares with the player's cell after each.
    pub(super) fn parking_for(&mut self, tried: &[bool]) -> Option<(usize, ParkingSquares)> {
        let mut best: Option<(usize, Distance, ParkingSquares)> = None;
        let pullable = self.pullable();
        for t in 0..self.targets.len() {
            let target = &self.targets[t];
            if tried[t] || !target.real || target.step != 0 || !pullable[t] {
                continue;
            }
            let Some((far, squares)) = self.parking_squares(t) else {
                continue;
            };
            let better = match &best {
                None => true,
                Some((_, d, _)) => far > *d || (far == *d && !self.is_corner(self.targets[t].cell)),
            };
            if better {
                best = Some((t, far, squares));
            }
        }
        best.map(|(t, _, squares)| (t, squares))
    }

    /// For the box on goal target `t`: the farthest square it can be pulled
    /// to (in pushes back) and the one farthest in a straight count (then
    /// farthest from the first; ties to the first in reading order), each
    /// with the player's cell after the pulls, kept only where the player
    /// can then get back to the goal.
    pub(super) fn parking_squares(&mut self, t: usize) -> Option<(Distance, ParkingSquares)> {
        let goal = self.targets[t].cell;
        let g = self.goals.iter().position(|&x| x == goal)?;
        self.occupied[goal] = false;
        let reached = self.pulls(goal, Some(self.player));
        let mut cells: Vec<(Cell, Direction)> = reached
            .into_iter()
            .filter(|&(c, _)| c != goal && self.box_reach[c] && !self.no_waiting(c))
            .collect();
        let order = &self.board.cells;
        cells.sort_by_key(|&(c, _)| (std::cmp::Reverse(self.back[g][c]), order[c.index()]));
        let primary = cells
            .iter()
            .copied()
            .find(|&(c, dir)| self.returns_after(c, dir, goal).is_some());
        let mut out = Vec::new();
        let mut far = 0;
        if let Some((c, dir)) = primary {
            far = self.back[g][c];
            out.push((c, self.after_pull(c, dir)));
            let board = self.board;
            cells.sort_by_key(|&(x, _)| {
                let away = board.manhattan(x, goal);
                (
                    std::cmp::Reverse((away, board.manhattan(x, c))),
                    board.cells[x.index()],
                )
            });
            if let Some((x, d)) = cells
                .iter()
                .copied()
                .filter(|&(x, _)| x != c)
                .find(|&(x, d)| self.returns_after(x, d, goal).is_some())
            {
                out.push((x, self.after_pull(x, d)));
            }
        }
        self.occupied[goal] = true;
        (!out.is_empty()).then_some((far, out))
    }

    /// True when a box should not wait on `c`: in a tunnel two cells long or
    /// more (walls on both sides across it, and across a neighbour along it:
    /// a box parked there blocks the way for everyone), or where a box
    /// pushed in from a corridor cannot turn (a wall on one side across), so
    /// it would be pushed on at once (YASS's "do not stop here" squares).
    pub(super) fn no_waiting(&self, c: Cell) -> bool {
        let board = self.board;
        Direction::ALL.into_iter().any(|d| {
            let tunnel = board.is_corridor(c, d)
                && board.step(c, d).is_some_and(|n| board.is_corridor(n, d));
            let from_corridor = board.step(c, d.opposite()).is_some_and(|prev| {
                !board.dead[prev]
                    && board.is_corridor(prev, d)
                    && across(d).iter().any(|&x| board.step(c, x).is_none())
            });
            tunnel || from_corridor
        })
    }

    /// True when a goal sits in a corner of walls.
    pub(super) fn is_corner(&self, cell: Cell) -> bool {
        let wall = |d: Direction| self.board.step(cell, d).is_none();
        use Direction::*;
        (wall(North) || wall(South)) && (wall(East) || wall(West))
    }
}
