//! The packing order: in which order the goals can be filled.
//!
//! A goal area with few ways in must be filled from the back: a box placed
//! by the entrance too early shuts out the goals behind it, and a search
//! over pushes pays for every wrong order in every arrangement of the boxes
//! still outside. So the order is worked out once, backwards, from the
//! solved position. First a quick *peel*: every box on a goal that can be
//! pulled out, alone and with the others standing still, to a square some
//! box starts on (at least three pulls away) is taken off; those goals are
//! the *last* phase to fill. From the boxes left the same again, and so on
//! until every goal is empty; goals whose boxes can never be pulled out
//! that way form the first phase. With three phases or more the goal area
//! is *ordered*, and where it holds nine goals or more next to others, the
//! full backward plan of [`super::plan`] (each box sent to a start square
//! of its own, boxes parked on the way) replaces the peel when it finds one.
//! The unpacking plan of [`super::unpack`] makes an order of its own
//! ([`Packing::unpacked`]), one target a phase, for the searches of `--fast`
//! that follow it.
//!
//! Read forwards, the phases say which targets to fill next; inside a phase
//! the order is free. A target is a goal, or a *parking square* where a box
//! waits until a later phase sends it to its goal: the parking square must
//! hold a box from its phase until then, and is free after.
//! [`Packing::score`] measures a position against the order: how many
//! targets are filled in plan order, and how far the nearest loose box is
//! from an empty target of the current phase, in pushes with the goals of
//! the phases before it counted as walls (they are full by then).
//! The order is advice for the non-optimal searches, never a pruning rule.

use super::plan::{Parking, backward_plan, worth_planning};
use super::unpack::unpack_plan;
use crate::grid::Direction;
use crate::multi::board::{Board, Cell, Distance, UNREACHABLE};
use std::collections::{HashSet, VecDeque};

/// Moves the unpacking search may take: on classic levels it takes every
/// box off within a few hundred.
const UNPACK_STEPS: usize = 2000;

/// Pull positions the backward search may visit in all.
const MAX_PULL_STATES: usize = 100_000;
/// Pulls a box must make from its goal to the square it is sent to: a start
/// square next to the goal would make the box look free when it is not.
const MIN_PULLS_OUT: u32 = 3;

/// Phases an order needs for [`Packing::ordered`]: with fewer (goals in the
/// open, most puzzle levels) a search led by it has little to follow.
const ORDERED_PHASES: usize = 3;

/// What [`Packing::plan_score_at`] charges for a box that cannot reach the
/// goals being filled (a quarter of a goal's price in that search).
pub(crate) const LOST_BOX: u32 = 8;

/// Marks a cell without a goal in [`Packing::goal_phase`].
const NO_PHASE: u16 = u16::MAX;

/// The phases of a level's targets, in filling order, and the distances
/// the forward search measures boxes by.
#[derive(Clone, Debug)]
pub(crate) struct Packing {
    /// Target cells (goals and parking squares) per phase, the first
    /// phase filled first.
    pub phases: Vec<Vec<Cell>>,
    /// Per cell, the phase of the goal on it.
    goal_phase: Vec<u16>,
    /// The parking squares' times.
    parking: Vec<Parking>,
    /// Per cell, whether it is a parking square at some time.
    is_parking: Vec<bool>,
    /// Whether the order is worth following (see [`Packing::ordered`]).
    ordered: bool,
    /// Whether the order is a backward plan's (see [`Packing::planned`]).
    planned: bool,
    /// `distance[k][i][c]`: pushes from `c` to the `i`-th target of phase
    /// `k` with the goals of the phases before `k` as walls.
    distance: Vec<Vec<Vec<Distance>>>,
    /// `walk[k][i][c]`: steps over the floor (boxes aside) from the `i`-th
    /// target of phase `k` to `c`.
    walk: Vec<Vec<Vec<Distance>>>,
}

/// The box the opener may move for free (see [`Packing::opener`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Opener {
    /// The box's cell.
    pub cell: Cell,
    /// The empty target it stands nearest to: phase and index in it.
    target: (usize, usize),
    /// Its steps from that target.
    steps: Distance,
}

impl Opener {
    /// The same opener, its box moved on to `cell`.
    pub fn moved_to(self, cell: Cell) -> Opener {
        Opener { cell, ..self }
    }
}

/// A position measured against the packing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PackScore {
    /// Targets filled in plan order: every target of the full phases, and the
    /// filled goals of the first phase not full.
    pub packed: u32,
    /// Pushes from the nearest box not packed to the nearest empty target of
    /// that phase ([`UNREACHABLE`] when none can get there; 0 when all is packed).
    pub next: u32,
}

impl Packing {
    /// Works out the order: the backward plan where the level has a goal
    /// area worth planning and one is found, else the peel's (one phase
    /// when any order will do, as far as the peel can tell). It is
    /// [`Packing::ordered`] when either finds three phases or more: the
    /// peel finds one where the player starts walled in among the goals
    /// (Sasquatch I 36), the plan tries every area the player may stand in.
    pub fn find(board: &Board) -> Packing {
        let phases = peel(board);
        let plan = worth_planning(board)
            .then(|| backward_plan(board))
            .flatten();
        let ordered = phases
            .len()
            .max(plan.as_ref().map_or(0, |p| p.phases.len()));
        let mut packing = match plan {
            Some(plan) => Packing {
                planned: true,
                ..Packing::with_parking(board, plan.phases, plan.parking)
            },
            None => Packing::with_parking(board, phases, Vec::new()),
        };
        packing.ordered = ordered >= ORDERED_PHASES;
        packing
    }

    /// The order of the unpacking plan ([`super::unpack`]), one target a
    /// phase, where the backward search finds one (within [`UNPACK_STEPS`]
    /// moves, until `give_up`) of three targets or more.
    pub fn unpacked(board: &Board, give_up: &dyn Fn() -> bool) -> Option<Packing> {
        let plan = unpack_plan(board, UNPACK_STEPS, give_up)?;
        let packing = Packing::with_parking(board, plan.phases, plan.parking);
        packing.ordered.then_some(Packing {
            planned: true,
            ..packing
        })
    }

    /// True when the order is a backward plan's ([`super::plan`]), not the
    /// peel's.
    pub fn planned(&self) -> bool {
        self.planned
    }

    /// The order of `phases` (goals and parking squares; each parking
    /// square's times in `parking`).
    fn with_parking(board: &Board, phases: Vec<Vec<Cell>>, parking: Vec<Parking>) -> Packing {
        let mut goal_phase = vec![NO_PHASE; board.len()];
        let mut is_parking = vec![false; board.len()];
        for p in &parking {
            is_parking[p.cell] = true;
        }
        let mut walls: Vec<Cell> = Vec::new();
        let mut distance = Vec::with_capacity(phases.len());
        for (k, phase) in phases.iter().enumerate() {
            // A parking square may lie on a goal emptied before (read
            // backwards): its box waits there, the goal's own comes later.
            let parked = |g: Cell| {
                parking
                    .iter()
                    .any(|p| p.cell == g && usize::from(p.from) == k)
            };
            let goals: Vec<Cell> = phase
                .iter()
                .copied()
                .filter(|&g| board.is_goal[g] && !parked(g))
                .collect();
            for &g in &goals {
                goal_phase[g] = k as u16;
            }
            distance.push(
                phase
                    .iter()
                    .map(|&g| board.pull_distances(g, &walls))
                    .collect(),
            );
            walls.extend(goals);
        }
        let walk = phases
            .iter()
            .map(|phase| phase.iter().map(|&g| floor_steps(board, g)).collect())
            .collect();
        Packing {
            walk,
            ordered: phases.len() >= ORDERED_PHASES,
            planned: false,
            phases,
            goal_phase,
            parking,
            is_parking,
            distance,
        }
    }

    /// The phase of the target on `c` as seen from phase `k`: a parking
    /// square's time that holds `k` (else its next time), else the goal's
    /// (a parking square may lie on a goal filled after its times);
    /// `None` when `c` is no target then.
    fn phase_of(&self, c: Cell, k: usize) -> Option<u16> {
        if self.is_parking[c] {
            let k = k as u16;
            let times = self.parking.iter().filter(|p| p.cell == c && p.until > k);
            if let Some(from) = times.map(|p| p.from).min() {
                return Some(from);
            }
        }
        (self.goal_phase[c] != NO_PHASE).then_some(self.goal_phase[c])
    }

    /// The phase of the goal on `c`, when it is a goal filled for good
    /// (not a parking square then).
    pub fn goal_phase_of(&self, c: Cell) -> Option<usize> {
        (self.goal_phase[c] != NO_PHASE).then(|| usize::from(self.goal_phase[c]))
    }

    /// The targets holding their boxes while phase `k` fills: the goals of
    /// the phases before it, and the parking squares whose time holds `k`.
    pub fn held(&self, k: usize) -> Vec<Cell> {
        let goals = (0..self.goal_phase.len())
            .map(Cell::new)
            .filter(|&c| self.goal_phase_of(c).is_some_and(|p| p < k));
        let parked = self.parking.iter().filter(|p| {
            let (from, until) = (usize::from(p.from), usize::from(p.until));
            from < k && k < until
        });
        goals.chain(parked.map(|p| p.cell)).collect()
    }

    /// Goals and parking squares in all.
    pub fn targets(&self) -> u32 {
        self.phases.iter().map(Vec::len).sum::<usize>() as u32
    }

    /// True when the order is worth following step by step: a goal area
    /// filled from the inside out, in [`ORDERED_PHASES`] phases or more.
    pub fn ordered(&self) -> bool {
        self.ordered
    }

    /// The phase being filled: the first with an empty goal, or an earlier
    /// one whose parking square has lost its box before its time (`None`
    /// when every goal holds a box).
    pub fn current_phase(&self, occupied: &[bool]) -> Option<usize> {
        let goal_phase = (0..self.phases.len()).find(|&k| {
            self.phases[k]
                .iter()
                .any(|&g| !occupied[g] && usize::from(self.goal_phase[g]) == k)
        })?;
        let waiting = self
            .parking
            .iter()
            .filter(|p| !occupied[p.cell] && usize::from(p.until) > goal_phase)
            .map(|p| usize::from(p.from));
        waiting.chain([goal_phase]).min()
    }

    /// [`Method::Plan`]'s phase along a path, as YASS keeps it: the
    /// parent's phase `parent` (the number of phases once all is packed),
    /// moved back when the box just pushed left `from`, a target of a phase
    /// already reached (a parking square only while its box is due to stay
    /// there), then on past every phase whose targets all hold boxes
    /// (`occupied` after the push). Worked out from the boxes alone, a
    /// parking square whose box leaves in the first phase with a goal of its
    /// own would be passed over from the start, and the search would fill
    /// that goal with a box the plan keeps for a later one (Sasquatch I 36).
    ///
    /// [`Method::Plan`]: crate::multi::options::Method::Plan
    pub fn path_phase(&self, parent: usize, occupied: &[bool], from: Option<Cell>) -> usize {
        let mut p = parent;
        if let Some(c) = from {
            if self.goal_phase[c] != NO_PHASE {
                p = p.min(usize::from(self.goal_phase[c]));
            }
            for t in self.parking.iter().filter(|t| t.cell == c) {
                let (from, until) = (usize::from(t.from), usize::from(t.until));
                if from <= p && p < until {
                    p = from;
                }
            }
        }
        while p < self.phases.len() && self.phases[p].iter().all(|&c| occupied[c]) {
            p += 1;
        }
        p
    }

    /// True when a push of a box from `from` to `end`, in a position whose
    /// current phase is `k` (`occupied` as before the push), follows the
    /// plan: it fills an empty target of phase `k`, or brings the box closer to one.
    pub fn follows_plan(&self, k: usize, occupied: &[bool], from: Cell, end: Cell) -> bool {
        let mut closer = false;
        for (i, &g) in self.phases[k].iter().enumerate() {
            if occupied[g] {
                continue;
            }
            if g == end {
                return true;
            }
            let d = &self.distance[k][i];
            closer |= d[end] < d[from];
        }
        closer
    }

    /// True when a box ending on `end` fills an empty target of phase `k`.
    pub fn fills(&self, k: usize, occupied: &[bool], end: Cell) -> bool {
        self.phase_of(end, k) == Some(k as u16) && !occupied[end]
    }

    /// Measures the position with boxes on `boxes` (`occupied` marks them).
    pub fn score(&self, occupied: &[bool], boxes: &[Cell]) -> PackScore {
        let k = self.current_phase(occupied);
        PackScore {
            packed: self.packed(k, occupied),
            next: k.map_or(0, |k| self.nearest(k, occupied, boxes)),
        }
    }

    /// [`Packing::plan_score_at`] in the current phase.
    #[cfg(test)]
    pub fn plan_score(&self, occupied: &[bool], pushed: Option<Cell>) -> (u32, u32) {
        self.plan_score_at(self.current_phase(occupied), occupied, pushed)
    }

    /// What [`Method::Plan`] measures a position by (`occupied` holding its
    /// boxes, `pushed` the cell of the box just pushed, if any): the goals
    /// packed in plan order, and the price of the pushed box: `2 × (1 + d)`
    /// for `d` pushes to the nearest empty target of the current phase (2 on
    /// a goal of it), [`LOST_BOX`] when it cannot get there or has just
    /// filled a phase before it, nothing when every goal is packed.
    /// `k` is the current phase (`None` when all is packed): the plan
    /// search keeps the phase along the path (see [`Packing::path_phase`]).
    ///
    /// [`Method::Plan`]: crate::multi::options::Method::Plan
    pub fn plan_score_at(
        &self,
        k: Option<usize>,
        occupied: &[bool],
        pushed: Option<Cell>,
    ) -> (u32, u32) {
        let price = match (k, pushed) {
            (Some(k), Some(end)) => self.price(k, occupied, end),
            _ => 0,
        };
        (self.packed(k, occupied), price)
    }

    /// Targets filled in plan order, `k` being the current phase: every target
    /// of the full phases, and the filled goals of the first phase not full.
    fn packed(&self, k: Option<usize>, occupied: &[bool]) -> u32 {
        let Some(k) = k else {
            return self.targets();
        };
        let full: usize = self.phases[..k].iter().map(Vec::len).sum();
        let filled = self.phases[k].iter().filter(|&&g| occupied[g]).count();
        (full + filled) as u32
    }

    /// The price of a box just pushed onto `end` in phase `k` (see
    /// [`Packing::plan_score_at`]).
    fn price(&self, k: usize, occupied: &[bool], end: Cell) -> u32 {
        match self.phase_of(end, k).unwrap_or(NO_PHASE) {
            p if p == k as u16 => return 2,
            p if p < k as u16 => return LOST_BOX,
            _ => {}
        }
        let nearest = self.phases[k]
            .iter()
            .enumerate()
            .filter(|&(_, &g)| !occupied[g])
            .map(|(i, _)| self.distance[k][i][end])
            .min()
            .unwrap_or(UNREACHABLE);
        match nearest {
            UNREACHABLE => LOST_BOX,
            d => 2 * (1 + u32::from(d)),
        }
    }

    /// Pushes from the nearest loose box (see [`Packing::loose`]) to the
    /// nearest empty target of phase `k`.
    fn nearest(&self, k: usize, occupied: &[bool], boxes: &[Cell]) -> u32 {
        let mut best = u32::from(UNREACHABLE);
        for b in self.loose(k, boxes) {
            for (i, &g) in self.phases[k].iter().enumerate() {
                if !occupied[g] {
                    best = best.min(u32::from(self.distance[k][i][b]));
                }
            }
        }
        best
    }

    /// The loose boxes among `boxes` in phase `k`: not on a target of phase
    /// `k` or before, or on a parking square whose time is up.
    fn loose<'a>(&'a self, k: usize, boxes: &'a [Cell]) -> impl Iterator<Item = Cell> + 'a {
        let loose = move |b: &Cell| self.phase_of(*b, k).is_none_or(|p| usize::from(p) > k);
        boxes.iter().copied().filter(loose)
    }

    /// Festival's opener: in phase `k`, the loose box nearest in steps over the floor to an empty
    /// target of the phase, which the packing search may move away from it
    /// for free, to make room for the box that fills it.
    pub fn opener(&self, k: usize, occupied: &[bool], boxes: &[Cell]) -> Option<Opener> {
        let mut best: Option<Opener> = None;
        for b in self.loose(k, boxes) {
            for (i, &g) in self.phases[k].iter().enumerate() {
                let steps = self.walk[k][i][b];
                if !occupied[g] && steps != UNREACHABLE && best.is_none_or(|o| steps < o.steps) {
                    best = Some(Opener {
                        cell: b,
                        target: (k, i),
                        steps,
                    });
                }
            }
        }
        best
    }

    /// The steps from its target of the opener's box moved to `end`, when
    /// that is no nearer.
    pub fn opens(&self, opener: &Opener, end: Cell) -> Option<Distance> {
        let (k, i) = opener.target;
        let steps = self.walk[k][i][end];
        (steps >= opener.steps && steps != UNREACHABLE).then_some(steps)
    }

    /// Bytes held by the distance tables.
    pub fn memory_bytes(&self) -> usize {
        let tables = self.distance.iter().chain(&self.walk);
        tables.flatten().map(|d| d.len() * 2).sum()
    }
}

/// Steps over the floor from `from` to every cell, boxes aside.
fn floor_steps(board: &Board, from: Cell) -> Vec<Distance> {
    let mut steps = vec![UNREACHABLE; board.len()];
    steps[from] = 0;
    let mut queue = Vec::new();
    board.breadth_first(&mut queue, from, |at, _, to| {
        let fresh = steps[to] == UNREACHABLE;
        if fresh {
            steps[to] = steps[at] + 1;
        }
        fresh
    });
    steps
}

/// The backward peel: phases of goals, the first to fill first.
fn peel(board: &Board) -> Vec<Vec<Cell>> {
    let n = board.len();
    let mut is_start = vec![false; n];
    for &b in &board.start_boxes {
        is_start[b] = true;
    }
    let mut occupied = vec![false; n];
    for &g in &board.goals {
        occupied[g] = true;
    }
    let mut remaining: Vec<Cell> = board.goals.clone();
    let mut backwards: Vec<Vec<Cell>> = Vec::new();
    let mut budget = MAX_PULL_STATES;
    while !remaining.is_empty() {
        let out: Vec<Cell> = remaining
            .iter()
            .copied()
            .filter(|&g| is_start[g] || pulls_out(board, &occupied, &is_start, g, &mut budget))
            .collect();
        if out.is_empty() {
            break;
        }
        for &g in &out {
            occupied[g] = false;
        }
        remaining.retain(|g| !out.contains(g));
        backwards.push(out);
    }
    if !remaining.is_empty() {
        backwards.push(remaining);
    }
    backwards.reverse();
    backwards
}

/// True when the box on goal `g` can be pulled, the other boxes standing
/// still, to a start square at least [`MIN_PULLS_OUT`] pulls away, the
/// player starting from its own start square.
fn pulls_out(
    board: &Board,
    occupied: &[bool],
    is_start: &[bool],
    g: Cell,
    budget: &mut usize,
) -> bool {
    let mut occupied = occupied.to_vec();
    let mut marks = vec![0u32; board.len()];
    let mut stamp = 0;
    let mut scratch = Vec::new();
    let mut seen: HashSet<(Cell, Cell)> = HashSet::new();
    let mut queue: VecDeque<(Cell, Cell, u32)> = VecDeque::new();
    queue.push_back((g, board.start_player, 0));
    while let Some((b, player, pulls)) = queue.pop_front() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        stamp += 1;
        occupied[b] = true;
        let least = board.flood_player(&occupied, &mut marks, stamp, &mut scratch, player);
        occupied[b] = false;
        if !seen.insert((b, least)) {
            continue;
        }
        for dir in Direction::ALL {
            let Some(to) = board.step(b, dir).filter(|&to| marks[to] == stamp) else {
                continue;
            };
            let Some(back) = board.step(to, dir).filter(|&back| !occupied[back]) else {
                continue;
            };
            if is_start[to] && pulls + 1 >= MIN_PULLS_OUT {
                return true;
            }
            queue.push_back((to, back, pulls + 1));
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, parse_xsb};
    use crate::multi::testing::DEAD_END;

    fn prepared(text: &str) -> (Level, Board, Packing) {
        let level = parse_xsb(text.as_bytes(), 1 << 20).unwrap().remove(0);
        let board = Board::new(&level).unwrap();
        let packing = Packing::find(&board);
        (level, board, packing)
    }

    #[test]
    fn a_dead_end_of_goals_fills_from_the_back() {
        let (level, b, packing) = prepared(DEAD_END);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let order = vec![vec![at(1, 1)], vec![at(1, 2)], vec![at(1, 3)]];
        assert_eq!(packing.phases, order);
    }

    /// Three goals in the open, any order will do.
    const OPEN: &str = "#########\n\
                        #       #\n\
                        # . . . #\n\
                        #       #\n\
                        #@ $$$  #\n\
                        #       #\n\
                        #########";

    #[test]
    fn the_unpacking_plan_orders_a_dead_end_from_the_back() {
        let (level, b, _) = prepared(DEAD_END);
        let packing = Packing::unpacked(&b, &|| false).expect("an order");
        assert!(packing.planned() && packing.ordered());
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let order = vec![vec![at(1, 1)], vec![at(1, 2)], vec![at(1, 3)]];
        assert_eq!(packing.phases, order);
    }

    #[test]
    fn goals_in_the_open_say_nothing() {
        let (_, _, packing) = prepared(OPEN);
        assert_eq!(packing.phases.len(), 1);
    }

    #[test]
    fn the_score_counts_goals_in_plan_order() {
        let (level, b, packing) = prepared(DEAD_END);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut occupied = vec![false; b.len()];
        let mut score = |boxes: &[Cell]| {
            occupied.fill(false);
            for &x in boxes {
                occupied[x] = true;
            }
            packing.score(&occupied, boxes)
        };
        // Nothing packed: the nearest box, on (3, 4), is 5 pushes from the far goal.
        assert_eq!(
            score(&b.start_boxes.clone()),
            PackScore { packed: 0, next: 5 }
        );
        // A box on the near goal first packs nothing.
        assert_eq!(score(&[at(1, 3), at(3, 4), at(3, 5)]).packed, 0);
        // The far goal then the middle one: two packed, the last box 3 pushes away.
        let two = score(&[at(1, 1), at(1, 2), at(3, 4)]);
        assert_eq!(two, PackScore { packed: 2, next: 3 });
        assert_eq!(score(&[at(1, 1), at(1, 2), at(1, 3)]).packed, 3);
    }

    #[test]
    fn the_pushed_box_is_priced_by_its_distance_to_the_goals_being_filled() {
        let (level, b, packing) = prepared(DEAD_END);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let price = |boxes: &[Cell], pushed| {
            let mut occupied = vec![false; b.len()];
            boxes.iter().for_each(|&x| occupied[x] = true);
            packing.plan_score(&occupied, Some(pushed)).1
        };
        // From (3, 4): 5 pushes to the far goal, the one being filled.
        assert_eq!(
            price(&[at(3, 4), at(3, 5), at(3, 6)], at(3, 4)),
            2 * (1 + 5)
        );
        // On the middle goal while the far one is empty: one push from it.
        assert_eq!(
            price(&[at(1, 2), at(3, 5), at(3, 6)], at(1, 2)),
            2 * (1 + 1)
        );
        // The box that fills a phase is done with: the next one is priced.
        assert_eq!(price(&[at(1, 1), at(3, 5), at(3, 6)], at(1, 1)), LOST_BOX);
        // Everything packed: nothing to price.
        assert_eq!(price(&[at(1, 1), at(1, 2), at(1, 3)], at(1, 3)), 0);
        // A goal of a one-phase order, the others empty: on a goal being filled.
        let (level, b, packing) = prepared(OPEN);
        let goal = b.compact(level.grid.cell(2, 2));
        let mut occupied = vec![false; b.len()];
        occupied[goal] = true;
        assert_eq!(packing.plan_score(&occupied, Some(goal)), (1, 2));
    }

    /// Per cell, whether a box stands there at the start.
    fn start_occupied(b: &Board) -> Vec<bool> {
        let mut occupied = vec![false; b.len()];
        for &x in &b.start_boxes {
            occupied[x] = true;
        }
        occupied
    }

    #[test]
    fn a_push_follows_the_plan_towards_the_next_goal_only() {
        let (level, b, packing) = prepared(DEAD_END);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut occupied = start_occupied(&b);
        assert_eq!(packing.current_phase(&occupied), Some(0));
        // Up into the goal row: closer to the far goal.
        assert!(packing.follows_plan(0, &occupied, at(3, 4), at(2, 4)));
        // Down, away from it: a detour.
        assert!(!packing.follows_plan(0, &occupied, at(3, 4), at(4, 4)));
        // With the far goal filled, onto the middle goal.
        occupied[at(1, 1)] = true;
        assert_eq!(packing.current_phase(&occupied), Some(1));
        assert!(packing.follows_plan(1, &occupied, at(1, 3), at(1, 2)));
    }

    #[test]
    fn the_opener_is_the_loose_box_nearest_the_next_target_moving_away() {
        let (level, b, packing) = prepared(DEAD_END);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut occupied = start_occupied(&b);
        let opener = packing.opener(0, &occupied, &b.start_boxes).expect("a box");
        assert_eq!(opener.cell, at(3, 4));
        // Down or aside: no nearer the far goal; up through the gap: nearer.
        assert_eq!(packing.opens(&opener, at(4, 4)), Some(6));
        assert_eq!(packing.opens(&opener, at(3, 3)), Some(6));
        assert_eq!(packing.opens(&opener, at(2, 4)), None);
        // A box on a goal filled before is not loose, however near it is.
        let boxes = [at(1, 1), at(3, 5), at(3, 6)];
        occupied.fill(false);
        for &x in &boxes {
            occupied[x] = true;
        }
        let opener = packing.opener(1, &occupied, &boxes).expect("a box");
        assert_eq!(opener.cell, at(3, 5));
        assert_eq!(opener.moved_to(at(4, 5)).cell, at(4, 5));
    }

    /// The dead end with a box parked on (3, 6) from the first phase until
    /// the third, when it goes to the mouth of the dead end.
    fn with_a_parked_box() -> (Level, Board, Packing) {
        let (level, b, _) = prepared(DEAD_END);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let phases = vec![
            vec![at(3, 6)],
            vec![at(1, 1)],
            vec![at(1, 2)],
            vec![at(1, 3)],
        ];
        let parking = vec![Parking {
            cell: at(3, 6),
            from: 0,
            until: 3,
        }];
        let packing = Packing::with_parking(&b, phases, parking);
        (level, b, packing)
    }

    #[test]
    fn a_parked_box_holds_its_square_until_its_time() {
        let (level, b, packing) = with_a_parked_box();
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut occupied = vec![false; b.len()];
        assert_eq!(packing.targets(), 4);
        // Nothing parked: the parking square's phase comes first.
        assert_eq!(packing.current_phase(&occupied), Some(0));
        occupied[at(3, 6)] = true;
        assert_eq!(packing.current_phase(&occupied), Some(1));
        // Its box leaving early takes the order back to it.
        occupied[at(1, 1)] = true;
        occupied[at(3, 6)] = false;
        assert_eq!(packing.current_phase(&occupied), Some(0));
        // From its time on, the square may be empty.
        occupied[at(1, 2)] = true;
        assert_eq!(packing.current_phase(&occupied), Some(3));
        assert_eq!(packing.plan_score(&occupied, None).0, 3);
    }

    /// Sasquatch I 36, whose plan parks boxes on goals emptied before:
    /// such a square is a parking square in its times and the goal after,
    /// and a phase is filled once its own goals are (not a goal parked on).
    #[test]
    fn a_goal_parked_on_is_a_parking_square_until_its_own_phase() {
        let text = include_bytes!("../../../tests/data/plan/parked-on-goals.xsb");
        let level = crate::level::parse_xsb(text, 1 << 20).unwrap().remove(0);
        let b = Board::new(&level).unwrap();
        // The player starts walled in among the goals: the peel finds one
        // phase, the plan the order.
        assert_eq!(peel(&b).len(), 1);
        let found = Packing::find(&b);
        assert!(found.ordered() && found.planned());
        let plan = backward_plan(&b).expect("a plan");
        let packing = Packing::with_parking(&b, plan.phases.clone(), plan.parking.clone());
        let on_goals: Vec<&Parking> = plan.parking.iter().filter(|p| b.is_goal[p.cell]).collect();
        assert!(!on_goals.is_empty());
        for p in on_goals {
            let goal = plan.phases.iter().rposition(|ph| ph.contains(&p.cell));
            let goal = goal.expect("the goal has its phase") as u16;
            assert!(goal >= p.until);
            assert_eq!(packing.phase_of(p.cell, usize::from(p.from)), Some(p.from));
            assert_eq!(packing.phase_of(p.cell, usize::from(goal)), Some(goal));
        }
        // Every box home: no phase left to fill.
        let mut occupied = vec![false; b.len()];
        for &g in &b.goals {
            occupied[g] = true;
        }
        assert_eq!(packing.current_phase(&occupied), None);
    }

    #[test]
    fn the_plan_search_keeps_its_phase_along_the_path() {
        let (level, b, packing) = with_a_parked_box();
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut occupied = vec![false; b.len()];
        // The start: the parking square's phase first.
        assert_eq!(packing.path_phase(0, &occupied, None), 0);
        // Parked, then the first goal filled: on past each full phase.
        occupied[at(3, 6)] = true;
        assert_eq!(packing.path_phase(0, &occupied, None), 1);
        occupied[at(1, 1)] = true;
        assert_eq!(packing.path_phase(1, &occupied, None), 2);
        // The parked box leaving before its time takes the path back to it.
        occupied[at(3, 6)] = false;
        assert_eq!(packing.path_phase(2, &occupied, Some(at(3, 6))), 0);
        // A box leaving a filled goal takes it back to that goal's phase,
        // and a phase the path has passed stays passed though a target
        // of it is empty (the parked box left in its time).
        occupied[at(1, 2)] = true;
        assert_eq!(packing.path_phase(3, &occupied, Some(at(3, 6))), 3);
        occupied[at(1, 1)] = false;
        assert_eq!(packing.path_phase(3, &occupied, Some(at(1, 1))), 1);
        // Everything home: past the last phase.
        for c in [at(1, 1), at(1, 3)] {
            occupied[c] = true;
        }
        assert_eq!(packing.path_phase(3, &occupied, None), 4);
    }

    #[test]
    fn a_parked_box_is_loose_once_its_time_comes() {
        let (level, b, packing) = with_a_parked_box();
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut occupied = vec![false; b.len()];
        let boxes = [at(1, 1), at(1, 2), at(3, 6)];
        boxes.iter().for_each(|&x| occupied[x] = true);
        // In the last phase the parked box is the one to bring in.
        let score = packing.score(&occupied, &boxes);
        assert_eq!(score.packed, 3);
        assert_eq!(
            u16::try_from(score.next).ok(),
            Some(packing.distance[3][0][at(3, 6)])
        );
        assert!(score.next < u32::from(UNREACHABLE));
        // Before its time, a box on the parking square fills it.
        assert!(packing.fills(0, &vec![false; b.len()], at(3, 6)));
        assert!(!packing.fills(3, &occupied, at(3, 6)));
    }
}
