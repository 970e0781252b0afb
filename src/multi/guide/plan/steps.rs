//! The backward steps: which boxes leave the goals now, and for which
//! start square; then the next step, and back out when it fails.

use super::{MAX_WORK, MIN_START_DISTANCE, Planner, RESERVED, Removal};
use crate::multi::board::Cell;

impl Planner<'_> {
    /// One backward step and all after it: true when every box has left.
    pub(super) fn search(&mut self, step: u32) -> bool {
        if self.left == 0 {
            return true;
        }
        if self.work >= MAX_WORK {
            return false;
        }
        let seen = self.seen.clone();
        self.flood_from(self.player);
        for (i, &s) in self.starts.iter().enumerate() {
            let beside = || {
                self.board
                    .neighbours(s)
                    .any(|n| self.marks[n] == self.stamp)
            };
            if self.marks[s] == self.stamp || (self.occupied[s] && beside()) {
                self.seen[i] = true;
            }
        }
        let (mut removals, waiting) = if self.seen.iter().all(|&x| x) {
            self.candidates()
        } else {
            (Vec::new(), Vec::new())
        };
        let only_parked = removals.last().is_some_and(|&(t, _)| !self.targets[t].real);
        if only_parked && self.left_real > 0 && waiting.is_empty() {
            self.release(&mut removals);
        }
        let mut done = false;
        if !waiting.is_empty() || removals.is_empty() {
            let held = removals.clone();
            self.release(&mut removals);
            done = self.park(step, &waiting);
            if !done {
                for (t, s) in held {
                    self.reserve(t, s);
                    removals.push((t, s));
                }
            }
        }
        if !done && !removals.is_empty() {
            done = self.remove(step, &removals);
        }
        if !done {
            self.release(&mut removals);
        }
        self.seen = seen;
        done
    }

    /// The boxes that can leave now (each with its start square, reserved),
    /// and the goals whose boxes should be parked first.
    pub(super) fn candidates(&mut self) -> (Vec<Removal>, Vec<usize>) {
        let mut removals: Vec<Removal> = Vec::new();
        let mut waiting = Vec::new();
        let all_on_starts = (0..self.targets.len()).all(|t| {
            let c = self.targets[t].cell;
            self.targets[t].step != 0 || self.start_at[c].is_some()
        });
        let pullable = self.pullable();
        for (t, &can_pull) in pullable.iter().enumerate() {
            if self.targets[t].step != 0 {
                continue;
            }
            let cell = self.targets[t].cell;
            let movable =
                can_pull || (self.start_at[cell].is_some_and(|s| !self.used[s]) && all_on_starts);
            if !movable {
                continue;
            }
            let Some((start, area)) = self.start_for(t) else {
                continue;
            };
            let real = self.targets[t].real;
            if area < self.small_area && self.left > self.end_game && real {
                waiting.push(t);
                continue;
            }
            let parked_before = removals.last().is_some_and(|&(r, _)| !self.targets[r].real);
            if real && parked_before {
                self.release(&mut removals);
            } else if !real && !removals.is_empty() && !parked_before {
                continue;
            }
            self.reserve(t, start);
            removals.push((t, start));
        }
        (removals, waiting)
    }

    /// Takes start square `s` for target `t`'s box.
    pub(super) fn reserve(&mut self, t: usize, s: usize) {
        self.used[s] = true;
        self.targets[t].step = RESERVED;
        for (k, open) in self.open.iter_mut().enumerate() {
            if self.targets[k].real && self.goal_reach[k][s] {
                *open -= 1;
            }
        }
    }

    /// Gives back the start squares of `removals` and clears it.
    pub(super) fn release(&mut self, removals: &mut Vec<Removal>) {
        for (t, s) in removals.drain(..).rev() {
            self.used[s] = false;
            self.targets[t].step = 0;
            for (k, open) in self.open.iter_mut().enumerate() {
                if self.targets[k].real && self.goal_reach[k][s] {
                    *open += 1;
                }
            }
        }
    }

    /// Sends the boxes of `removals` away in one step, then searches on.
    pub(super) fn remove(&mut self, step: u32, removals: &[Removal]) -> bool {
        for &(t, _) in removals {
            let target = &mut self.targets[t];
            target.step = step;
            self.occupied[target.cell] = false;
            self.left -= 1;
            if target.real {
                self.left_real -= 1;
            }
        }
        let done = self.search(step + 1);
        if !done {
            for &(t, _) in removals {
                let target = &mut self.targets[t];
                target.step = RESERVED;
                self.occupied[target.cell] = true;
                self.left += 1;
                if target.real {
                    self.left_real += 1;
                }
            }
        }
        done
    }

    /// The free start square for target `t`'s box (max-min over the goals'
    /// remaining choices) and how many cells its pulls reach, its own
    /// included; `None` when no start square will do.
    pub(super) fn start_for(&mut self, t: usize) -> Option<(usize, usize)> {
        let cell = self.targets[t].cell;
        let real = self.targets[t].real;
        let last = self.left == 1;
        let end_game = self.left <= self.end_game;
        self.occupied[cell] = false;
        let reached = self.pulls(cell, Some(self.player));
        let area = {
            let mut cells: Vec<Cell> = reached.iter().map(|&(c, _)| c).collect();
            cells.push(cell);
            cells.sort_unstable();
            cells.dedup();
            cells.len()
        };
        let player = self.player;
        let mut best: Option<(usize, usize)> = None;
        for i in 0..self.starts.len() {
            let s = self.starts[i];
            if self.used[i] {
                continue;
            }
            // A box may stay on the start square it stands on: always from
            // a goal, from a parking square in the end game.
            let fits = if s == cell {
                real || end_game
            } else {
                let far = self.board.manhattan(s, cell) >= MIN_START_DISTANCE || end_game;
                far && reached
                    .iter()
                    .any(|&(c, d)| c == s && (last || self.returns_after(c, d, player).is_some()))
            };
            if !fits {
                continue;
            }
            let worst = (0..self.targets.len())
                .filter(|&k| self.targets[k].step == 0 && self.targets[k].real)
                .filter(|&k| self.goal_reach[k][i])
                .map(|k| self.open[k])
                .min()
                .unwrap_or(usize::MAX);
            if best.is_none_or(|(_, w)| worst > w) {
                best = Some((i, worst));
            }
        }
        self.occupied[cell] = true;
        best.map(|(i, _)| (i, area))
    }
}
