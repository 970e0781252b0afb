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
//!
//! This file holds the plan's data and the search's state; the search's
//! parts each have a file: `steps` (which boxes leave, to which start
//! square), `parking` (which box waits, and where) and `pulls` (a lone
//! box's moves and the player's floods, within the budget).

use crate::grid::Direction;
use crate::multi::board::{Board, Cell, Distance, across};

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
}

mod parking;
mod pulls;
mod steps;
#[cfg(test)]
mod tests;
