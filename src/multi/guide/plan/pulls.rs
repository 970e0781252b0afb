//! A lone box's moves (pulls back from the goals, pushes on from its
//! start) and the player's floods they need, within the search's budget
//! of flooded cells.

use super::{MAX_WORK, Planner};
use crate::grid::Direction;
use crate::multi::board::Cell;

impl Planner<'_> {
    /// Per cell, whether some box can be pushed there from its start square,
    /// the others taken off the board and the player starting where it
    /// does (YASS's box-reachable squares).
    pub(super) fn box_reachable(&mut self) -> Vec<bool> {
        let board = self.board;
        let mut reached = vec![false; board.len()];
        let mut seeds = Vec::new();
        for i in 0..self.starts.len() {
            if self.work >= MAX_WORK {
                break;
            }
            let s = self.starts[i];
            reached[s] = true;
            self.occupied[s] = true;
            self.flood_from(board.start_player);
            self.occupied[s] = false;
            for dir in Direction::ALL {
                if board
                    .step(s, dir)
                    .is_some_and(|x| self.marks[x] == self.stamp)
                {
                    seeds.push((s, dir));
                }
            }
        }
        // A push in `dir`: the player behind the box, the box onto live floor.
        let push = |p: &Self, b: Cell, dir: Direction| {
            let behind = board.step(b, dir.opposite())?;
            let to = board.step(b, dir).filter(|&to| !board.dead[to])?;
            (p.marks[behind] == p.stamp).then_some((to, dir.opposite()))
        };
        for (c, _) in self.walk_box(seeds, push) {
            reached[c] = true;
        }
        reached
    }

    /// Per target, true when the box on it can be pulled one step now.
    pub(super) fn pullable(&mut self) -> Vec<bool> {
        self.flood_from(self.player);
        let (board, marks, stamp) = (self.board, &self.marks, self.stamp);
        let free = |c: Cell| !self.occupied[c];
        self.targets
            .iter()
            .map(|t| {
                Direction::ALL.into_iter().any(|dir| {
                    board.step(t.cell, dir).is_some_and(|to| {
                        free(to)
                            && !board.dead[to]
                            && board
                                .step(to, dir)
                                .is_some_and(|b| free(b) && marks[b] == stamp)
                    })
                })
            })
            .collect()
    }

    /// The player's cell after pulling a box onto `c` in direction `dir`.
    pub(super) fn after_pull(&self, c: Cell, dir: Direction) -> Cell {
        self.board.step(c, dir).expect("the player stood there")
    }

    /// With a box on `c` after a pull in `dir`, `Some(())` when the player
    /// can then reach `to` (with the other boxes where they are); `None`
    /// too once the budget is spent.
    pub(super) fn returns_after(&mut self, c: Cell, dir: Direction, to: Cell) -> Option<()> {
        if self.work >= MAX_WORK {
            return None;
        }
        let after = self.after_pull(c, dir);
        let was = self.occupied[c];
        self.occupied[c] = true;
        self.flood_from(after);
        self.occupied[c] = was;
        (self.marks[to] == self.stamp).then_some(())
    }

    /// Floods the player's area from `from` with the current boxes.
    pub(super) fn flood_from(&mut self, from: Cell) {
        self.work += self.board.len();
        self.stamp += 1;
        self.board.flood_player(
            &self.occupied,
            &mut self.marks,
            self.stamp,
            &mut self.queue,
            from,
        );
    }

    /// Every (cell, direction of the last pull) a box on `from` (not in
    /// `occupied`) can be pulled to, the other boxes standing still; the
    /// player starts on `player`, or anywhere beside the box when `None`.
    pub(super) fn pulls(&mut self, from: Cell, player: Option<Cell>) -> Vec<(Cell, Direction)> {
        let board = self.board;
        if let Some(p) = player {
            self.occupied[from] = true;
            self.flood_from(p);
            self.occupied[from] = false;
        }
        let mut seeds = Vec::new();
        for dir in Direction::ALL {
            let Some(side) = board.step(from, dir) else {
                continue;
            };
            if player.is_none_or(|_| self.marks[side] == self.stamp) && !self.occupied[side] {
                seeds.push((from, dir));
            }
        }
        // A pull in `dir`: the player steps on from beside the box, which follows.
        let pull = |p: &Self, b: Cell, dir: Direction| {
            let to = board.step(b, dir)?;
            let next = board.step(to, dir)?;
            let free = p.marks[to] == p.stamp && !p.occupied[to] && !p.occupied[next];
            (free && !board.dead[to]).then_some((to, dir))
        };
        self.walk_box(seeds, pull)
    }

    /// Breadth-first over a lone box's positions, each a cell and the side
    /// the player stands on, from `seeds`: for each, the player's area
    /// around the box is flooded (again only when the box has moved or the
    /// player stands outside the last flood), and `step(self, box, dir)`
    /// gives the position a move in `dir` leads to, if any. Returns the
    /// positions reached past the seeds, in the order reached.
    pub(super) fn walk_box(
        &mut self,
        seeds: Vec<(Cell, Direction)>,
        step: impl Fn(&Self, Cell, Direction) -> Option<(Cell, Direction)>,
    ) -> Vec<(Cell, Direction)> {
        let board = self.board;
        let mut seen = vec![[false; 4]; board.len()];
        let mut queue: Vec<(Cell, Direction)> = Vec::new();
        for (c, side) in seeds {
            if !seen[c][side.index()] {
                seen[c][side.index()] = true;
                queue.push((c, side));
            }
        }
        let first_reached = queue.len();
        let mut head = 0;
        let mut flooded: Option<Cell> = None;
        while let Some(&(b, side)) = queue.get(head) {
            if self.work >= MAX_WORK {
                break;
            }
            head += 1;
            let stand = board
                .step(b, side)
                .expect("the player stands beside the box");
            if flooded != Some(b) || self.marks[stand] != self.stamp {
                self.occupied[b] = true;
                self.flood_from(stand);
                self.occupied[b] = false;
                flooded = Some(b);
            }
            for dir in Direction::ALL {
                if let Some((to, side)) = step(self, b, dir)
                    && !seen[to][side.index()]
                {
                    seen[to][side.index()] = true;
                    queue.push((to, side));
                }
            }
        }
        queue.split_off(first_reached)
    }
}
