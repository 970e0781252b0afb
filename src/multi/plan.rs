//! The packing plan, worked out backwards from the solved position down to
//! the real boxes, with parking.
//!
//! Filling a goal area means choosing, for each goal, which box comes in
//! and when; a box that can only reach a goal from a small corner of the
//! board must often be brought near early and left waiting. Backwards this
//! reads: from the solved position, boxes are pulled off the goals one
//! phase at a time, each to a square some box starts on (each such square
//! used once), and a box that could only be pulled into a small area is
//! first *parked*: pulled somewhere out of the way, as far as it can go,
//! where it waits for the other boxes to leave. The parking square then
//! counts as a target of its own in the phases before its box goes home.
//!
//! The search is a depth-first one over these steps:
//!
//! - Boxes leave the board only once the player has seen every start
//!   square (the player reached it, or stood beside the box on it, in some
//!   step before), so early steps park the boxes that block the way out.
//! - A box is pulled to the free start square that leaves the most choice
//!   to the goal worst off (max-min over the start squares each goal can
//!   still be pulled to), not too close to its goal (a close start square
//!   makes the rest look easier than it is), and only where the player
//!   can get back to where it stood.
//! - A box whose pulls reach less than a quarter of the squares some box
//!   can be pushed to from its start (its own square counted) is parked
//!   instead; where nothing can leave, the goal whose box can be parked
//!   farthest away is parked (each goal once), at the farthest square or
//!   the one farthest in a straight count, both tried.
//!
//! Parking squares are squares some box can be pushed to from its start,
//! out of tunnels two cells long (a box parked there shuts the way) and off
//! squares where a box coming out of a corridor cannot stop; a square may
//! serve again once its box has gone, a goal already emptied too (its own
//! box comes back after the parked one has left). Among squares equally
//! far the first in reading order is taken, as YASS scans the board.
//! The ideas are those of the packing-order search of YASS (Brian
//! Damgaard's solver), written anew here; when the search finds no plan
//! within its budget, the caller falls back on the plain peel.

use super::board::{Board, Cell, Distance, across};
use crate::grid::Direction;

/// Cells the whole search's flood fills may visit: a bound on its time
/// (tens of milliseconds), whatever the level's size.
const MAX_WORK: usize = 30_000_000;
/// Times a goal's box may be parked, over the whole search.
const MAX_PARKINGS: usize = 2_000;
/// Straight-count distance a box must keep from the start square it is
/// pulled to, outside the end game.
const MIN_START_DISTANCE: usize = 3;
/// A box whose pulls reach fewer cells than this share (in percent) of the
/// cells some box can be pushed to from its start is parked rather than
/// sent away.
const SMALL_AREA_PERCENT: usize = 25;
/// The end game: when no more than this share (in percent, rounded) of the
/// boxes is left, a box may be sent to any start square, however close.
const END_GAME_PERCENT: usize = 15;

/// A parking square's time: a box stands on `cell` from phase `from` until
/// phase `until`, when it leaves for its goal. A square may serve twice,
/// at different times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parking {
    pub cell: Cell,
    pub from: u16,
    pub until: u16,
}

/// A plan: targets by phase, the first phase filled first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Goal and parking cells per phase.
    pub phases: Vec<Vec<Cell>>,
    /// Each parking square's time.
    pub parking: Vec<Parking>,
}

/// A goal or parking square during the search.
#[derive(Clone, Debug)]
struct Target {
    cell: Cell,
    /// False for a parking square.
    real: bool,
    /// The backward step that emptied it: 0 while its box is there,
    /// [`RESERVED`] while its box is about to leave.
    step: u32,
    /// For a parking square, the step that parked its box.
    parked_at: u32,
}

/// A box about to be sent away: its target and the start square it takes.
type Removal = (usize, usize);

/// The step of a target whose box is about to leave (see [`Removal`]).
const RESERVED: u32 = u32::MAX;

/// Squares a box may be parked on, each with the player's cell after.
type ParkingSquares = Vec<(Cell, Cell)>;

/// Goals in a goal area a level needs before it is planned (YASS's
/// threshold): with fewer there is no goal area to speak of, and parking
/// boxes only gets in the way.
const MIN_AREA_GOALS: usize = 9;

/// True when `board` has a goal area worth planning for: enough goals in
/// groups of two or more, where a goal joins its neighbour only with a wall
/// or a goal beside it across that step (as YASS counts: goals strung out
/// in a line through open floor are no area).
pub(crate) fn worth_planning(board: &Board) -> bool {
    let mut group = vec![usize::MAX; board.len()];
    let mut in_groups = 0;
    let mut stack = Vec::new();
    // Goals row by row, as YASS numbers them: a goal may join a group
    // found from one before it and not the other way round.
    let mut goals = board.goals.clone();
    goals.sort_by_key(|&c| board.cells[c.index()]);
    for (id, &g) in goals.iter().enumerate() {
        if group[g] != usize::MAX {
            continue;
        }
        group[g] = id;
        stack.push(g);
        let mut size = 0;
        while let Some(at) = stack.pop() {
            size += 1;
            for dir in Direction::ALL {
                let Some(n) = board.step(at, dir).filter(|&n| board.is_goal[n]) else {
                    continue;
                };
                let held = across(dir)
                    .iter()
                    .any(|&d| board.step(at, d).is_none_or(|x| board.is_goal[x]));
                if held && group[n] == usize::MAX {
                    group[n] = id;
                    stack.push(n);
                }
            }
        }
        if size > 1 {
            in_groups += size;
        }
    }
    in_groups >= MIN_AREA_GOALS
}

/// Works out a plan for `board`, or `None` when the search finds none.
pub(crate) fn backward_plan(board: &Board) -> Option<Plan> {
    let mut planner = Planner::new(board);
    if planner.work >= MAX_WORK {
        return None;
    }
    for player in planner.player_areas() {
        planner.reset(player);
        if planner.search(1) {
            return Some(planner.plan());
        }
        if planner.work >= MAX_WORK {
            break;
        }
    }
    None
}

struct Planner<'b> {
    board: &'b Board,
    /// Start squares, and per cell its index among them.
    starts: Vec<Cell>,
    start_at: Vec<Option<usize>>,
    /// The goals, row by row.
    goals: Vec<Cell>,
    /// Per goal (by index in `goals`): the start squares its box
    /// could be pulled to on the empty board.
    goal_reach: Vec<Vec<bool>>,
    /// Per goal: pushes from each cell back to it on the empty board.
    back: Vec<Vec<Distance>>,
    targets: Vec<Target>,
    /// Per target: its goal reach's start squares still free.
    open: Vec<usize>,
    used: Vec<bool>,
    seen: Vec<bool>,
    occupied: Vec<bool>,
    player: Cell,
    /// Boxes still on the board, and real goals still holding one.
    left: usize,
    left_real: usize,
    small_area: usize,
    /// Per cell, whether some box can be pushed there from its start
    /// square (the others off the board): only such cells park a box.
    box_reach: Vec<bool>,
    end_game: usize,
    parkings: usize,
    work: usize,
    marks: Vec<u32>,
    stamp: u32,
    queue: Vec<Cell>,
}

impl<'b> Planner<'b> {
    fn new(board: &'b Board) -> Planner<'b> {
        let n = board.len();
        // Row by row, as the level reads: ties go to the first.
        let mut starts = board.start_boxes.clone();
        starts.sort_by_key(|&c| board.cells[c.index()]);
        let mut start_at = vec![None; n];
        for (i, &s) in starts.iter().enumerate() {
            start_at[s] = Some(i);
        }
        let mut planner = Planner {
            board,
            starts,
            start_at,
            goals: Vec::new(),
            goal_reach: Vec::new(),
            back: Vec::new(),
            targets: Vec::new(),
            open: Vec::new(),
            used: Vec::new(),
            seen: Vec::new(),
            occupied: vec![false; n],
            player: board.start_player,
            left: 0,
            left_real: 0,
            small_area: 0,
            box_reach: Vec::new(),
            end_game: 0,
            parkings: MAX_PARKINGS,
            work: 0,
            marks: vec![0; n],
            stamp: 0,
            queue: Vec::new(),
        };
        planner.box_reach = planner.box_reachable();
        let free = planner.box_reach.iter().filter(|&&r| r).count();
        planner.small_area = free * SMALL_AREA_PERCENT / 100;
        let boxes = board.goals.len();
        planner.end_game = (boxes * END_GAME_PERCENT + 50) / 100;
        planner.goals = board.goals.clone();
        planner.goals.sort_by_key(|&c| board.cells[c.index()]);
        planner.back = planner
            .goals
            .iter()
            .map(|&g| board.pull_distances(g, &[]))
            .collect();
        planner.goal_reach = planner
            .goals
            .clone()
            .iter()
            .map(|&g| {
                let reached = planner.pulls(g, None);
                let mut reach = vec![false; planner.starts.len()];
                for (c, _) in reached {
                    if let Some(i) = planner.start_at[c] {
                        reach[i] = true;
                    }
                }
                reach
            })
            .collect();
        planner
    }

    /// One cell of each area the player may stand in around the solved
    /// position, the start player's area first.
    fn player_areas(&mut self) -> Vec<Cell> {
        let board = self.board;
        let mut goals = vec![false; board.len()];
        for &g in &board.goals {
            goals[g] = true;
        }
        let mut marks = vec![0u32; board.len()];
        let mut queue = Vec::new();
        let first = (!goals[board.start_player]).then_some(board.start_player);
        let mut areas = Vec::new();
        for c in first.into_iter().chain(board.cells()) {
            if !goals[c] && marks[c] == 0 {
                board.flood_player(&goals, &mut marks, 1, &mut queue, c);
                areas.push(c);
            }
        }
        areas
    }

    /// The solved position, the player on `player`.
    fn reset(&mut self, player: Cell) {
        let board = self.board;
        self.targets = self
            .goals
            .iter()
            .map(|&g| Target {
                cell: g,
                real: true,
                step: 0,
                parked_at: 0,
            })
            .collect();
        self.open = self
            .goal_reach
            .iter()
            .map(|r| r.iter().filter(|&&x| x).count())
            .collect();
        self.used = vec![false; self.starts.len()];
        self.seen = self.starts.iter().map(|&s| board.is_goal[s]).collect();
        self.occupied.fill(false);
        for &g in &board.goals {
            self.occupied[g] = true;
        }
        self.player = player;
        self.left = board.goals.len();
        self.left_real = self.left;
    }

    /// The plan found: steps read backwards are phases read forwards.
    fn plan(&self) -> Plan {
        let last = self.targets.iter().map(|t| t.step).max().unwrap_or(0);
        let mut phases = vec![Vec::new(); last as usize];
        let mut parking = Vec::new();
        for t in &self.targets {
            let phase = (last - t.step) as usize;
            phases[phase].push(t.cell);
            if !t.real {
                parking.push(Parking {
                    cell: t.cell,
                    from: phase as u16,
                    until: (last - t.parked_at) as u16,
                });
            }
        }
        Plan { phases, parking }
    }

    /// One backward step and all after it: true when every box has left.
    fn search(&mut self, step: u32) -> bool {
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
    fn candidates(&mut self) -> (Vec<Removal>, Vec<usize>) {
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
    fn reserve(&mut self, t: usize, s: usize) {
        self.used[s] = true;
        self.targets[t].step = RESERVED;
        for (k, open) in self.open.iter_mut().enumerate() {
            if self.targets[k].real && self.goal_reach[k][s] {
                *open -= 1;
            }
        }
    }

    /// Gives back the start squares of `removals` and clears it.
    fn release(&mut self, removals: &mut Vec<Removal>) {
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
    fn remove(&mut self, step: u32, removals: &[Removal]) -> bool {
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

    /// Parks a box, one of `waiting` when there are any, else any goal's:
    /// tries goals farthest-parked first, each at two squares, searching on
    /// after each.
    fn park(&mut self, step: u32, waiting: &[usize]) -> bool {
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
    fn parking_for(&mut self, tried: &[bool]) -> Option<(usize, ParkingSquares)> {
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
    fn parking_squares(&mut self, t: usize) -> Option<(Distance, ParkingSquares)> {
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

    /// The free start square for target `t`'s box (max-min over the goals'
    /// remaining choices) and how many cells its pulls reach, its own
    /// included; `None` when no start square will do.
    fn start_for(&mut self, t: usize) -> Option<(usize, usize)> {
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

    /// Per cell, whether some box can be pushed there from its start square,
    /// the others taken off the board and the player starting where it
    /// does (YASS's box-reachable squares).
    fn box_reachable(&mut self) -> Vec<bool> {
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
    fn pullable(&mut self) -> Vec<bool> {
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

    /// True when a box should not wait on `c`: in a tunnel two cells long or
    /// more (walls on both sides across it, and across a neighbour along it:
    /// a box parked there blocks the way for everyone), or where a box
    /// pushed in from a corridor cannot turn (a wall on one side across), so
    /// it would be pushed on at once (YASS's "do not stop here" squares).
    fn no_waiting(&self, c: Cell) -> bool {
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
    fn is_corner(&self, cell: Cell) -> bool {
        let wall = |d: Direction| self.board.step(cell, d).is_none();
        use Direction::*;
        (wall(North) || wall(South)) && (wall(East) || wall(West))
    }

    /// The player's cell after pulling a box onto `c` in direction `dir`.
    fn after_pull(&self, c: Cell, dir: Direction) -> Cell {
        self.board.step(c, dir).expect("the player stood there")
    }

    /// With a box on `c` after a pull in `dir`, `Some(())` when the player
    /// can then reach `to` (with the other boxes where they are); `None`
    /// too once the budget is spent.
    fn returns_after(&mut self, c: Cell, dir: Direction, to: Cell) -> Option<()> {
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
    fn flood_from(&mut self, from: Cell) {
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
    fn pulls(&mut self, from: Cell, player: Option<Cell>) -> Vec<(Cell, Direction)> {
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
    fn walk_box(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn boards(text: &[u8]) -> Vec<Board> {
        let levels = parse_xsb(text, 1 << 20).unwrap();
        levels.iter().map(|l| Board::new(l).unwrap()).collect()
    }

    use crate::multi::packing::tests::DEAD_END;

    /// Every goal once in the phases, every parking time once (on a goal
    /// only before that goal's phase), ending after it starts, times of one
    /// square apart; no phase empty.
    fn assert_well_formed(board: &Board, plan: &Plan) {
        assert!(plan.phases.iter().all(|p| !p.is_empty()));
        let parked = |k: usize, c: Cell| {
            plan.parking
                .iter()
                .any(|p| p.cell == c && usize::from(p.from) == k)
        };
        let mut goals: Vec<Cell> = Vec::new();
        for (k, phase) in plan.phases.iter().enumerate() {
            goals.extend(phase.iter().filter(|&&c| !parked(k, c)));
        }
        goals.sort_unstable();
        assert_eq!(goals, board.goals);
        let targets: usize = plan.phases.iter().map(Vec::len).sum();
        assert_eq!(targets, board.goals.len() + plan.parking.len());
        for (i, p) in plan.parking.iter().enumerate() {
            if board.is_goal[p.cell] {
                let goal = plan.phases.iter().rposition(|ph| ph.contains(&p.cell));
                assert!(
                    goal.is_some_and(|g| usize::from(p.until) <= g),
                    "parked on a goal too late"
                );
            }
            assert!(plan.phases[usize::from(p.from)].contains(&p.cell));
            assert!(p.from < p.until && usize::from(p.until) < plan.phases.len());
            for q in &plan.parking[..i] {
                let apart = q.until <= p.from || p.until <= q.from;
                assert!(q.cell != p.cell || apart, "one square, two boxes at once");
            }
        }
    }

    #[test]
    fn a_dead_end_of_goals_fills_from_the_back() {
        let level = parse_xsb(DEAD_END.as_bytes(), 1 << 20).unwrap().remove(0);
        let b = Board::new(&level).unwrap();
        let at = |c| b.compact(level.grid.cell(1, c));
        let plan = backward_plan(&b).expect("a plan");
        assert_well_formed(&b, &plan);
        assert!(plan.parking.is_empty());
        assert_eq!(plan.phases, vec![vec![at(1)], vec![at(2)], vec![at(3)]]);
    }

    /// Goal areas whose boxes must wait outside while others go in first
    /// (Boxxle I 81, Sokoban Perfect 33): the plan parks a box.
    #[test]
    fn a_box_that_must_wait_is_parked() {
        for b in &boards(include_bytes!("../../tests/data/plan/parking.xsb")) {
            let plan = backward_plan(b).expect("a plan");
            assert_well_formed(b, &plan);
            assert!(!plan.parking.is_empty());
        }
    }

    /// Boxxle I 48: the last box left is a parked one, on the start square
    /// it was parked on; it leaves from there (with a parking square beside
    /// a corridor, where a box cannot stop, passed over for the one before).
    #[test]
    fn the_last_parked_box_may_leave_from_its_own_start_square() {
        let text = include_bytes!("../../tests/data/plan/last-parked.xsb");
        let level = parse_xsb(text, 1 << 20).unwrap().remove(0);
        let b = Board::new(&level).unwrap();
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let plan = backward_plan(&b).expect("a plan");
        assert_well_formed(&b, &plan);
        let parked: Vec<Cell> = plan.parking.iter().map(|p| p.cell).collect();
        assert_eq!(parked, vec![at(6, 12), at(5, 11)]);
        let planner = Planner::new(&b);
        assert!(planner.no_waiting(at(5, 12)), "out of a corridor, no turn");
        assert!(!planner.no_waiting(at(5, 11)));
    }

    /// Sasquatch I 36, YASS's plan: boxes wait on goals emptied before
    /// (read backwards), their own boxes coming home after they leave.
    #[test]
    fn a_box_may_wait_on_a_goal_whose_own_box_comes_later() {
        let text = include_bytes!("../../tests/data/plan/parked-on-goals.xsb");
        let b = &boards(text)[0];
        let plan = backward_plan(b).expect("a plan");
        assert_well_formed(b, &plan);
        assert_eq!((plan.phases.len(), plan.parking.len()), (23, 14));
        assert!(plan.parking.iter().any(|p| b.is_goal[p.cell]));
    }

    #[test]
    fn only_a_goal_area_is_planned() {
        assert!(!worth_planning(&boards(DEAD_END.as_bytes())[0]));
        for b in &boards(include_bytes!("../../tests/data/plan/parking.xsb")) {
            assert!(worth_planning(b));
        }
    }

    /// A wide open level with a goal block: the work stops at the budget,
    /// here while the tables the search starts from are built.
    #[test]
    fn a_large_level_keeps_to_the_budget() {
        let mut rows = vec!["#".repeat(122)];
        for r in 0..120 {
            let mut row = vec![' '; 120];
            if (50..53).contains(&r) {
                row[50..54].fill('.');
                row[10 + r..10 + r + 4].fill('$');
            }
            if r == 119 {
                row[0] = '@';
            }
            rows.push(format!("#{}#", row.into_iter().collect::<String>()));
        }
        rows.push("#".repeat(122));
        let b = &boards(rows.join("\n").as_bytes())[0];
        assert!(worth_planning(b));
        let planner = Planner::new(b);
        // Spent while the tables are built, by at most a flood or two more.
        assert!(planner.work >= MAX_WORK, "{}", planner.work);
        assert!(planner.work <= MAX_WORK + 2 * b.len(), "{}", planner.work);
        // The search then gives up with no plan (the caller falls back on the peel).
        assert!(backward_plan(b).is_none());
    }

    #[test]
    fn plans_of_random_levels_are_well_formed() {
        let mut rng = crate::rng::Rng::new(0x9_1A4);
        let mut planned = 0;
        for case in 0..3000 {
            let Some(b) = crate::multi::subset::tests::random_level(&mut rng, case) else {
                continue;
            };
            if b.goals.len() != b.start_boxes.len() {
                continue;
            }
            if let Some(plan) = backward_plan(&b) {
                assert_well_formed(&b, &plan);
                planned += 1;
            }
        }
        assert!(planned > 20, "only {planned} random levels planned");
    }
}
