//! `--fast`: a portfolio of searches run side by side (or one after another
//! on one thread), the first answer winning.
//!
//! No one search is best everywhere: the feature-space searches reach the
//! most levels, which of them leads depends on the shape of the goal area
//! ([`GoalArea`]), plain A* settles some they miss and proves its answers
//! push-optimal, and weighted A* adds more with more threads. Each thread
//! runs a *lane*: a list of [`Phase`]s taken one after another, and then,
//! where its last search gave up early, one of the searches no lane runs
//! (see [`spares`]). The lanes
//! but plain A* share one table of positions reached backwards from the
//! solved one ([`crate::multi::guide::meet`]), built by the last of them while the others
//! start: the first to run into it has an answer.

use super::board::Board;
use super::options::{Limits, Method, MultiOptions, MultiStats, Progress, interrupted};
use super::search::{self, AdvisorSet, CellOrder, Config};
use crate::moves::{Limit, Outcome};
use crate::multi::deadlock::fence;
use crate::multi::deadlock::patterns::PatternSet;
use crate::multi::guide::meet::{self, Meeting};
use crate::multi::guide::packing::Packing;
use crate::multi::guide::room::Rooms;
use crate::multi::guide::unpack::{Far, Imagined, imagine};
use crate::multi::waypoint;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// One search of a lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Phase {
    pub method: Method,
    /// Weight on the bound (1 = the method as it is).
    pub weight: u32,
    /// The share of the lane's limits it may use: 1 = all that is left,
    /// `k` = a `k`-th of them, and the next phase runs after it.
    pub share: u32,
    /// Whether boxes go into goal rooms by their macros (see [`crate::multi::guide::room`]).
    pub macros: bool,
    /// Whether a search led by the packing order follows the unpacking
    /// plan (see [`crate::multi::guide::unpack`]) where there is one.
    pub unpacked: bool,
    /// Which of a cell's positions a search led by the packing order
    /// takes first (see [`CellOrder`]).
    pub order: CellOrder,
    /// The advisors a search led by the packing order follows besides the
    /// packing advisor's (see [`AdvisorSet`]).
    pub advisors: AdvisorSet,
    /// Where the search heads for an imagined board, the packing known from
    /// there (see [`crate::multi::waypoint`]): the one spread out by this
    /// measure of the boxes' distance from the goals.
    pub waypoint: Option<Far>,
}

impl Phase {
    const fn new(method: Method, weight: u32, share: u32, macros: bool) -> Phase {
        Phase {
            method,
            weight,
            share,
            macros,
            unpacked: false,
            order: CellOrder::NearFirst,
            advisors: AdvisorSet::MAKE_ROOM,
            waypoint: None,
        }
    }

    /// The phase heading for the imagined board spread out by `far`.
    const fn by_waypoint(self, far: Far) -> Phase {
        Phase {
            waypoint: Some(far),
            ..self
        }
    }

    /// The phase led by the unpacking plan.
    const fn unpacked(self) -> Phase {
        Phase {
            unpacked: true,
            ..self
        }
    }

    /// The phase with `order` inside a cell.
    const fn in_order(self, order: CellOrder) -> Phase {
        Phase { order, ..self }
    }

    /// The phase following the `advisors`.
    const fn advised_by(self, advisors: AdvisorSet) -> Phase {
        Phase { advisors, ..self }
    }

    /// The one phase whose answers are push-optimal.
    const PLAIN_ASTAR: Phase = Phase::new(Method::AStar, 1, 1, false);
}

/// The shape of a level's goals, which decides the searches of `--fast`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoalArea {
    /// No packing order of three phases or more: goals spread out.
    Spread,
    /// A goal area filled from the inside out, as on classic levels.
    Ordered,
    /// Ordered, with goal rooms behind one-cell entrances.
    OrderedRooms,
    /// Ordered, and planned backwards down to the real boxes (see
    /// [`crate::multi::guide::plan`]).
    Planned,
    /// Planned, with goal rooms.
    PlannedRooms,
}

/// The nodes the plan search of `--fast` may generate without packing a
/// target more than before: where it finds its way it packs one at least
/// every 200,000 or so, and where it is lost it gives way to the search
/// after it early.
const PLAN_STALL: u64 = 250_000;

/// The searches of `--fast` for a goal area, best first: the `core` lanes
/// run at every thread count, the `extra` searches where threads are left
/// over. A core lane is its searches in order, each but the last with its
/// share of the lane.
///
/// Where the goals are spread out the feature search solves the most, and
/// the box-move and packing searches and plain A* each settle levels the
/// others miss (the packing search led by the unpacking plan where there
/// is one: the peel order of spread goals says little); there the
/// box-move search by way of the imagined board comes first in the
/// box-move search's lane, for a third of it (Sasquatch I 5 and 19 within
/// a second or two). Where the goal
/// area is ordered the packing search led by the unpacking plan
/// ([`crate::multi::guide::unpack`]) solves the most, taking a cell's
/// positions near first; the second lane runs the packing search by the
/// peel order, the box-move search without macros (Microban II 131) and
/// the plan search by the unpacking plan, each for a part of its time.
/// Where there is a backward plan, the plan search by the unpacking plan
/// takes a quarter after the peel order, and the first lane's search
/// again, far first ([`CellOrder::FarFirst`], Festival's order inside a
/// cell), the rest: it settles levels near first misses (perfect 95
/// within three seconds), where the box-move search and the plan search
/// by the backward plan settled none (they wait for threads to spare).
/// Taking both orders in turn in the first lane loses levels that near
/// first settles within seconds (perfect 5).
/// Where that area has goal rooms, the packing search runs twice, with the
/// rooms' macros and without them, for the macros drop solutions as well
/// as positions. There the box-move search without macros opens the
/// second lane for an eighth of it and, where the area is also planned,
/// the plan search follows for a quarter: each settles levels the packing
/// searches miss, within a second or two where it does, and the packing
/// search led by the unpacking plan takes the rest, the largest part, near
/// first and far first in turn (Boxxle I 80 far first within two seconds,
/// and 68 sooner). The
/// packing search by the peel order (or the backward plan) takes a cell's
/// positions near first and far first in turn ([`CellOrder::Both`]).
/// Where an ordered area has threads to spare, they run what its two lanes
/// leave out: near first alone in the rooms' layouts, far first where the
/// area is ordered, and the box-move search without macros and the plan
/// search by the backward plan where it is planned. The packing searches led
/// by the unpacking plan follow the doors and out-of-plan advisors, and
/// count the boxes out of plan in their cells (Festival's first strategy
/// does both); the others follow the doors, hotspot and explorer advisors
/// ([`AdvisorSet`]): led by the unpacking plan, the explorer settles
/// levels the doors advisor misses, but loses more, so where an ordered or
/// planned area has a third thread, that search runs there again with
/// those three as well. The feature and
/// box-move searches and weighted A* use the goal-room macros and tunnel
/// rides. Where the goal area is ordered, the second lane's first search
/// is followed, for a sixteenth of the lane, by the box-move search by way
/// of the imagined board ([`crate::multi::waypoint`]): it settles levels
/// the searches pushing to the goals miss (Boxxle I 69, Sasquatch I 30,
/// perfect 84). Where that area has no rooms, the box-move search by way of
/// the other imagined board ([`Far`]) follows for an eighth (Sasquatch I
/// 40); with rooms, the packing search by the unpacking plan
/// that comes after could not spare it. (Git history and the issue notes
/// hold the measurements behind these lists.)
fn searches(area: GoalArea) -> (Vec<Vec<Phase>>, Vec<Phase>) {
    let features = Phase::new(Method::Features, 1, 1, true);
    let box_moves = Phase::new(Method::BoxMoves, 1, 1, true);
    let box_moves_plain = Phase::new(Method::BoxMoves, 1, 1, false);
    let packing = Phase::new(Method::Packing, 1, 1, false);
    let peel_order = packing.in_order(CellOrder::Both);
    let packing_in_rooms = Phase::new(Method::Packing, 1, 1, true).in_order(CellOrder::Both);
    let plan_first = Phase::new(Method::Plan, 1, 1, false);
    let weighted = |w| Phase::new(Method::AStar, w, 1, true);
    let plain = Phase::PLAIN_ASTAR;
    let unpacked = packing
        .unpacked()
        .advised_by(AdvisorSet::DOORS.with(AdvisorSet::OUT_OF_PLAN));
    let unpacked_all = packing
        .unpacked()
        .advised_by(AdvisorSet::MAKE_ROOM.with(AdvisorSet::OUT_OF_PLAN));
    let unpacked_far = unpacked.in_order(CellOrder::FarFirst);
    let unpacked_both = unpacked.in_order(CellOrder::Both);
    let plan_unpacked = Phase::new(Method::Plan, 1, 1, false).unpacked();
    let peel_quarter = Phase {
        share: 4,
        ..peel_order
    };
    // Where the goal area has rooms, short turns before the packing search
    // by the unpacking plan: the box-move search settles its levels there
    // within a second, and the plan search by the backward plan, greedy,
    // within a few hundred thousand nodes or not at all.
    let box_moves_eighth = Phase {
        share: 8,
        ..box_moves_plain
    };
    let plan_quarter = Phase {
        share: 4,
        ..plan_first
    };
    let box_moves_quarter = Phase {
        share: 4,
        ..box_moves_plain
    };
    // A sixteenth for the box-move search by way of the imagined board,
    // after the second lane's first search (which then starts as soon as
    // before): where it settles a level, it does within that.
    let waypoint = Phase {
        share: 16,
        ..box_moves_plain.by_waypoint(Far::Summed)
    };
    // Then, where the area has no rooms, an eighth by way of the imagined
    // board that the matching spreads out: it takes longer to work out,
    // and settles levels the other misses (Sasquatch I 40).
    let waypoint_matched = Phase {
        share: 8,
        ..box_moves_plain.by_waypoint(Far::Matched)
    };
    // Where the goals are spread out, a third of the box-move search's lane
    // before it: where two threads run that lane with two others, a ninth,
    // and the levels it settles there take it a second or so.
    let waypoint_spread = Phase {
        share: 3,
        ..box_moves_plain.by_waypoint(Far::Summed)
    };
    // A quarter each for the peel order and the box-move search, which
    // settle the levels they settle in a second or two, then the rest.
    let ordered_second = vec![
        peel_quarter,
        waypoint,
        waypoint_matched,
        box_moves_quarter,
        plan_unpacked,
    ];
    // The plan search by the unpacking plan stalls early where it is lost,
    // leaving the far-first search its part.
    let planned_second = vec![
        peel_quarter,
        waypoint,
        waypoint_matched,
        Phase {
            share: 4,
            ..plan_unpacked
        },
        unpacked_far,
    ];
    match area {
        GoalArea::Spread => (
            vec![
                vec![features],
                vec![waypoint_spread, box_moves],
                vec![unpacked],
                vec![plain],
            ],
            vec![weighted(2), weighted(3)],
        ),
        GoalArea::Ordered => (
            vec![vec![unpacked], ordered_second],
            vec![unpacked_all, features, plain, unpacked_far, weighted(2)],
        ),
        GoalArea::Planned => (
            vec![vec![unpacked], planned_second],
            vec![
                unpacked_all,
                features,
                plain,
                box_moves_plain,
                plan_first,
                weighted(2),
            ],
        ),
        GoalArea::OrderedRooms => (
            vec![
                vec![packing_in_rooms],
                vec![box_moves_eighth, waypoint, unpacked_both],
            ],
            vec![box_moves, features, plain, unpacked, weighted(2)],
        ),
        GoalArea::PlannedRooms => (
            vec![
                vec![packing_in_rooms],
                vec![box_moves_eighth, waypoint, plan_quarter, unpacked_both],
            ],
            vec![box_moves, features, plain, unpacked, weighted(2)],
        ),
    }
}

/// The lanes of `--fast` for a number of threads: each lane runs its phases
/// one after another, and the lanes run side by side.
///
/// Every thread count runs the same [`searches`] for a level: with a thread
/// for each lane of the core, each runs alone, and threads to spare add
/// the extra searches, one a thread (six to eight lanes at most, by the
/// goal area: more would repeat a search and thin out everyone's share of
/// the memory); with fewer, the first lanes run alone and the last thread
/// runs the rest of the core one after another, an equal share of its
/// time each. Where the core is
/// two lanes, one thread so runs what two run side by side, in twice
/// the time.
pub(crate) fn lanes(threads: usize, area: GoalArea) -> Vec<Vec<Phase>> {
    let (core, extra) = searches(area);
    let threads = threads.max(1);
    if threads >= core.len() {
        let extra = extra.into_iter().map(|phase| vec![phase]);
        return core.into_iter().chain(extra).take(threads).collect();
    }
    let mut lanes: Vec<Vec<Phase>> = core[..threads - 1].to_vec();
    let shared = &core[threads - 1..];
    let lanes_shared = shared.len() as u32;
    let mut last: Vec<Phase> = shared
        .iter()
        .flatten()
        .map(|&p| Phase {
            share: p.share * lanes_shared,
            ..p
        })
        .collect();
    if let Some(p) = last.last_mut() {
        p.share = 1; // what is left of the lane's limits
    }
    lanes.push(last);
    lanes
}

/// The extra searches of [`searches`] that no lane runs at `threads`
/// threads, each to run in what is left of a lane's limits: a lane whose
/// searches end early (a plan search that stalls, a search that fills its
/// memory) takes the next of them, so that no thread sits idle while the
/// clock runs.
fn spares(threads: usize, area: GoalArea) -> Vec<Phase> {
    let (core, extra) = searches(area);
    let running = threads.max(1).saturating_sub(core.len());
    extra
        .into_iter()
        .skip(running)
        .map(|p| Phase { share: 1, ..p })
        .collect()
}

/// What the lanes of one solve share besides what they know of the level:
/// the flag the first to finish raises, and the spare searches, each handed
/// to one lane.
struct Crew<'a> {
    stop: &'a AtomicBool,
    spares: Vec<Phase>,
    next_spare: AtomicUsize,
}

impl<'a> Crew<'a> {
    fn new(stop: &'a AtomicBool, spares: Vec<Phase>) -> Crew<'a> {
        Crew {
            stop,
            spares,
            next_spare: AtomicUsize::new(0),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The next spare search no lane has taken yet.
    fn take_spare(&self) -> Option<Phase> {
        let k = self.next_spare.fetch_add(1, Ordering::Relaxed);
        self.spares.get(k).copied()
    }
}

/// The spare search a lane goes on with after its last phase ended with
/// `outcome`: one where that search gave up with the lane's limits not
/// spent (the plan search stalled, or the search filled its memory, which
/// the next has anew), while spares are left.
fn spare_after(outcome: &Outcome, crew: &Crew<'_>) -> Option<Phase> {
    let early = matches!(outcome, Outcome::Limit(Limit::Stalled | Limit::Memory(_)));
    early.then(|| crew.take_spare()).flatten()
}

/// Nodes plain A* may generate alone before the lanes of `--fast` start (a
/// few milliseconds): most small levels end within them.
const ALONE_NODES: u64 = 10_000;

/// What one lane found.
struct LaneResult {
    outcome: Outcome,
    stats: MultiStats,
    /// True when the answer came from a push-optimal search (plain A*; see
    /// [`Config::optimal`]).
    optimal: bool,
}

/// The limits of one phase: all that is left of the lane's, or its share.
fn phase_limits(phase: &Phase, last: bool, lane: &Limits, started: Instant, used: u64) -> Limits {
    if last || phase.share == 1 {
        return Limits {
            time: lane.time.map(|t| t.saturating_sub(started.elapsed())),
            max_nodes: lane.max_nodes.map(|n| n.saturating_sub(used)),
            max_memory: lane.max_memory,
        };
    }
    let share = phase.share;
    let left = |t: Duration| (t / share).min(t.saturating_sub(started.elapsed()));
    // A lane with neither a time nor a node limit still ends its shared
    // phases; under a time limit, their share of the time is their bound
    // (a node cap as well would stop them sooner with one thread than the
    // same search running in a lane of its own); under a node limit alone,
    // its share of the nodes, so that a node-limited run does the same work
    // however busy the machine is.
    let unbounded = lane.time.is_none() && lane.max_nodes.is_none();
    let default_nodes = unbounded.then_some(SHARED_PHASE_NODES);
    Limits {
        time: lane
            .time
            .map(left)
            .or(unbounded.then_some(SHARED_PHASE_TIME)),
        max_nodes: lane.max_nodes.map(|n| n / share as u64).or(default_nodes),
        max_memory: lane.max_memory / share as usize,
    }
}

/// The bounds of a shared phase in a lane without limits.
const SHARED_PHASE_TIME: Duration = Duration::from_secs(10);
const SHARED_PHASE_NODES: u64 = 2_000_000;

/// What the lanes work out about a level once, when the first needs it
/// (the others wait for it, inside their time: big levels take a while),
/// but the meeting table, which one lane builds and the others look up
/// once it is there.
#[derive(Default)]
struct Knowledge {
    rooms: OnceLock<Rooms>,
    packing: OnceLock<Packing>,
    unpacked: OnceLock<Option<Packing>>,
    meeting: OnceLock<Meeting>,
    fences: OnceLock<Arc<PatternSet>>,
    /// By [`Far::Summed`] and by [`Far::Matched`].
    imagined: [OnceLock<Option<Imagined>>; 2],
}

impl Knowledge {
    /// The search a phase runs, with what it needs worked out (the goal
    /// rooms until `give_up.rooms` says so, the meeting table, in the lane
    /// that builds it, until `give_up.meeting` does). Every search but
    /// plain A* looks for its children in the meeting table.
    fn config(&self, board: &Board, phase: &Phase, give_up: &GiveUp<'_>) -> Config<'_> {
        let mut config = Config {
            method: phase.method,
            weight: phase.weight,
            rooms: phase.macros.then(|| self.rooms(board, give_up.rooms)),
            packing: phase.method.uses_packing().then(|| {
                let unpacked = phase.unpacked.then(|| self.unpacked(board, give_up.rooms));
                unpacked.flatten().unwrap_or_else(|| self.packing(board))
            }),
            meet: None,
            stall: (phase.method == Method::Plan).then_some(PLAN_STALL),
            fences: None,
            order: phase.order,
            advisors: phase.advisors,
        };
        if !config.optimal() {
            config.meet = Some(self.meeting(board, give_up.meeting, give_up.table_bytes));
            config.fences = Some(self.fences(board, give_up.rooms));
        }
        config
    }

    /// The meeting table: built by the lane given `give_up` for it (before
    /// its search, once, in `max_bytes` at most, until `give_up` says so of
    /// the moment the build started), looked up by the others once it is
    /// there.
    fn meeting(
        &self,
        board: &Board,
        give_up: Option<&dyn Fn(Instant) -> bool>,
        max_bytes: usize,
    ) -> &OnceLock<Meeting> {
        if let Some(give_up) = give_up {
            self.meeting.get_or_init(|| {
                let began = Instant::now();
                Meeting::build_within(board, &|| give_up(began), max_bytes)
            });
        }
        &self.meeting
    }

    /// The fences proven dead, worked out once (until `give_up`).
    fn fences(&self, board: &Board, give_up: &dyn Fn() -> bool) -> &Arc<PatternSet> {
        self.fences
            .get_or_init(|| Arc::new(fence::fences(board, give_up)))
    }

    fn packing(&self, board: &Board) -> &Packing {
        self.packing.get_or_init(|| Packing::find(board))
    }

    /// The packing order of the unpacking plan, worked out once (until
    /// `give_up`), where there is one.
    fn unpacked(&self, board: &Board, give_up: &dyn Fn() -> bool) -> Option<&Packing> {
        self.unpacked
            .get_or_init(|| Packing::unpacked(board, give_up))
            .as_ref()
    }

    /// The imagined board spread out by `far`, worked out once (until
    /// `give_up`, or the time of the phase's `limits` has passed), where
    /// there is one and no measure before `far` spread the boxes out the
    /// same way (its search ran already: the phases by way of the imagined
    /// boards run in the order of the measures).
    fn imagined(
        &self,
        board: &Board,
        far: Far,
        limits: &Limits,
        give_up: &dyn Fn() -> bool,
    ) -> Option<&Imagined> {
        let by = share_deadline(Instant::now(), limits.time, 1);
        let past = || give_up() || by.is_some_and(|by| Instant::now() >= by);
        let imagined = self.imagined[far as usize]
            .get_or_init(|| imagine(board, far, IMAGINE_STEPS, &past))
            .as_ref()?;
        let before = &self.imagined[..far as usize];
        let seen = (before.iter()).any(|b| b.get().and_then(Option::as_ref) == Some(imagined));
        (!seen).then_some(imagined)
    }

    fn rooms(&self, board: &Board, give_up: &dyn Fn() -> bool) -> &Rooms {
        self.rooms.get_or_init(|| Rooms::find(board, give_up))
    }

    /// The layout of the goal area (its rooms found until `give_up`).
    fn goal_area(&self, board: &Board, give_up: &dyn Fn() -> bool) -> GoalArea {
        let packing = self.packing(board);
        if !packing.ordered() {
            return GoalArea::Spread;
        }
        let rooms = !self.rooms(board, give_up).rooms.is_empty();
        match (packing.planned(), rooms) {
            (false, false) => GoalArea::Ordered,
            (false, true) => GoalArea::OrderedRooms,
            (true, false) => GoalArea::Planned,
            (true, true) => GoalArea::PlannedRooms,
        }
    }
}

/// When working out what a lane's searches need gives up.
struct GiveUp<'a> {
    /// For the goal rooms, the fences and the unpacking plan.
    rooms: &'a dyn Fn() -> bool,
    /// For the meeting table, given the moment its build starts; `None` in
    /// the lanes that do not build it.
    meeting: Option<&'a dyn Fn(Instant) -> bool>,
    /// The bytes the meeting table may take.
    table_bytes: usize,
}

/// The goal rooms (and the fences and the unpacking plan) are worked out
/// within this part of the time a lane has left at most.
const ROOMS_SHARE: u32 = 4;
/// The meeting table is built within this part of the lane's time, counted
/// from the start of the build (after the rooms and the unpacking plan, which
/// may take all of theirs): on levels of a few
/// dozen boxes, a whole table takes seconds, which the lane building it
/// would not search.
const MEETING_SHARE: u32 = 8;

/// The meeting table takes at most this part of the memory.
const MEETING_MEMORY_SHARE: usize = 4;

/// Which lane builds the meeting table, within what part of its time, and
/// in how many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TableBuilder {
    lane: usize,
    share: u32,
    bytes: usize,
}

/// The lane that builds the meeting table: the last lane that looks into
/// it, so that the first, the strongest searches, start at once. One
/// thread runs what two run side by side in twice the time, so there the
/// table gets half the part of the time it gets in one lane of two: the
/// same seconds. It takes a part of `max_memory` (the lanes share what is
/// left).
fn table_builder(lanes: &[Vec<Phase>], threads: usize, max_memory: usize) -> Option<TableBuilder> {
    let lane = lanes
        .iter()
        .rposition(|lane| lane.iter().any(|p| *p != Phase::PLAIN_ASTAR))?;
    let share = if threads <= 1 {
        2 * MEETING_SHARE
    } else {
        MEETING_SHARE
    };
    let bytes = (max_memory / MEETING_MEMORY_SHARE).min(meet::MAX_BYTES);
    Some(TableBuilder { lane, share, bytes })
}

/// The moment a lane with `time` left from `started` on gives up work
/// worth a `share`-th of its time.
fn share_deadline(started: Instant, time: Option<Duration>, share: u32) -> Option<Instant> {
    // A time past what the clock holds is no limit.
    time.and_then(|t| started.checked_add(t / share))
}

/// Whether the meeting table's build, begun at `began` in a lane that
/// started at `started` with `time`, has spent its `share` of that time by
/// `now` (or the lane's time has run out).
fn table_past(
    started: Instant,
    time: Option<Duration>,
    began: Instant,
    share: u32,
    now: Instant,
) -> bool {
    let past = |from, share| share_deadline(from, time, share).is_some_and(|d| now >= d);
    past(began, share) || past(started, 1)
}

/// Runs one lane's phases until one of them ends without hitting a limit
/// (or the crew's `stop` is raised by another lane). A phase with goal-room
/// macros that runs out of positions proves nothing, so it runs again
/// without them; a lane whose last phase ends early goes on with a spare search
/// ([`spare_after`]). The lane given the `table` builds the meeting table.
fn run_lane(
    board: &Board,
    known: &Knowledge,
    phases: &[Phase],
    table: Option<TableBuilder>,
    limits: &Limits,
    crew: &Crew<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> LaneResult {
    let started = Instant::now();
    let mut total = MultiStats::default();
    let mut last = (Outcome::Impossible, false);
    let mut todo: VecDeque<Phase> = phases.iter().copied().collect();
    while let Some(phase) = todo.pop_front() {
        // Working out the goal rooms and the unpacking plan may take a part
        // of the time the lane has left when a phase that needs them starts
        // (a later phase's is not spent by the phases before it), and the
        // meeting table its part of the lane's time from when its build
        // starts, after them (within the lane's time); the phase's limits
        // count it.
        let halted = || crew.stopped() || interrupted();
        let left = limits.time.map(|t| t.saturating_sub(started.elapsed()));
        let rooms_by = share_deadline(Instant::now(), left, ROOMS_SHARE);
        let rooms = || halted() || rooms_by.is_some_and(|d| Instant::now() >= d);
        let meeting = table.map(|t| {
            move |began| {
                halted() || table_past(started, limits.time, began, t.share, Instant::now())
            }
        });
        let give_up = GiveUp {
            rooms: &rooms,
            meeting: meeting.as_ref().map(|m| m as &dyn Fn(Instant) -> bool),
            table_bytes: table.map_or(0, |t| t.bytes),
        };
        let config = known.config(board, &phase, &give_up);
        let phase_limits = phase_limits(&phase, todo.is_empty(), limits, started, total.generated);
        let (outcome, stats) = if let Some(far) = phase.waypoint {
            let imagined = known.imagined(board, far, &phase_limits, &rooms);
            let stop = crew.stop;
            by_waypoint(board, imagined, &config, &phase_limits, stop, progress)
        } else {
            search::run(board, &config, &phase_limits, crew.stop, progress)
        };
        total.then(&stats);
        if outcome == Outcome::Limit(Limit::MacrosExhausted) {
            todo.push_front(Phase {
                macros: false,
                ..phase
            });
        }
        last = (outcome, config.optimal());
        if !matches!(last.0, Outcome::Limit(_)) || crew.stopped() {
            break;
        }
        if todo.is_empty() {
            todo.extend(spare_after(&last.0, crew));
        }
    }
    LaneResult {
        outcome: last.0,
        stats: total,
        optimal: last.1,
    }
}

/// Moves the backward search that finds the imagined board may take: a few
/// tenths of a second on classic levels (half as many lose levels it
/// settles).
const IMAGINE_STEPS: usize = 1000;

/// A phase heading for the `imagined` board: the search of `config`
/// without what belongs to the level's own goals (their rooms, packing
/// order, fences and meeting table), to the imagined board's squares
/// within `limits`, then on to the goals (see [`crate::multi::waypoint`]).
/// Without an imagined board it ends at once.
fn by_waypoint(
    board: &Board,
    imagined: Option<&Imagined>,
    config: &Config,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> (Outcome, MultiStats) {
    let Some(imagined) = imagined else {
        return (Outcome::Limit(Limit::Stalled), MultiStats::default());
    };
    let spread = Config {
        rooms: None,
        packing: None,
        meet: None,
        fences: None,
        stall: None,
        ..*config
    };
    waypoint::solve(board, imagined, &spread, limits, stop, progress)
}

/// `--fast`: plain A* alone for [`ALONE_NODES`] nodes, then the portfolio
/// of [`lanes`] within the limits, on `options.threads` threads. The first
/// lane to finish gives the answer (any search without macros running out of
/// positions proves the level impossible) and stops the others; the limits
/// are shared: the same time for every lane, and the nodes and memory split
/// between them. Returns the outcome, the counters of every search added up,
/// and whether the answer is push-optimal.
pub(crate) fn fast(
    board: &Board,
    options: &MultiOptions,
    progress: &mut dyn FnMut(&Progress),
) -> (Outcome, MultiStats, bool) {
    let started = Instant::now();
    let limits = &options.limits;
    // Plain A* alone first, on a small budget: what it settles gets the
    // same push-optimal answer on every run, where lanes would race.
    let alone = Limits {
        max_nodes: Some(limits.max_nodes.map_or(ALONE_NODES, |n| n.min(ALONE_NODES))),
        ..limits.clone()
    };
    // Raised by the first lane to finish (never while A* runs alone).
    let stop = AtomicBool::new(false);
    let plain = Config::plain();
    let (outcome, alone_stats) = search::run(board, &plain, &alone, &stop, progress);
    let users_limit = limits.nodes_reached(alone_stats.generated).is_some()
        || limits.reached(started, alone_stats.memory_bytes).is_some();
    if !matches!(outcome, Outcome::Limit(_)) || users_limit {
        let optimal = plain.optimal() && outcome.solution().is_some();
        return (outcome, alone_stats, optimal);
    }
    let known = Knowledge::default();
    // The rooms, if the layout asks for them, within a lane's share for them.
    let left = limits.time.map(|t| t.saturating_sub(started.elapsed()));
    let rooms_by = share_deadline(Instant::now(), left, ROOMS_SHARE);
    let past = || interrupted() || rooms_by.is_some_and(|by| Instant::now() >= by);
    let area = known.goal_area(board, &past);
    let lanes = lanes(options.threads, area);
    let count = lanes.len() as u64;
    let builder = table_builder(&lanes, options.threads, limits.max_memory);
    let table_bytes = builder.map_or(0, |b| b.bytes);
    let lane_limits = Limits {
        time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
        max_nodes: limits
            .max_nodes
            .map(|n| n.saturating_sub(alone_stats.generated) / count),
        max_memory: (limits.max_memory - table_bytes) / count as usize,
    };
    let crew = Crew::new(&stop, spares(options.threads, area));
    let (results, winner) = run_lanes(
        board,
        &known,
        &lanes,
        builder,
        &lane_limits,
        &crew,
        progress,
    );
    // Counters add up; the memory of the search alone was freed before the
    // lanes, and the meeting table is counted once.
    let mut total = MultiStats {
        memory_bytes: known.meeting.get().map_or(0, Meeting::memory_bytes),
        ..alone_stats
    };
    for result in &results {
        let stats = &result.stats;
        total.expanded += stats.expanded;
        total.generated += stats.generated;
        total.memory_bytes += stats.memory_bytes;
        total.lower_bound = total.lower_bound.max(stats.lower_bound);
    }
    let LaneResult {
        mut outcome,
        optimal,
        ..
    } = results
        .into_iter()
        .nth(winner.unwrap_or(0))
        .expect("every lane has a result");
    limits.name_users_limit(&mut outcome, started, total.generated, total.memory_bytes);
    let optimal = optimal && outcome.solution().is_some();
    (outcome, total, optimal)
}

/// Runs every lane on its own thread (the first on this one, with the
/// progress display) and returns their results in lane order, with the
/// lane that finished first, if any did.
///
/// A lane that panics (a bug) stops the others at once, and the panic goes
/// on to the caller when they have ended: the level gets an error rather
/// than an answer from a search that may have been left inconsistent, and
/// no lane runs on to its time limit for nothing.
fn run_lanes(
    board: &Board,
    known: &Knowledge,
    lanes: &[Vec<Phase>],
    builder: Option<TableBuilder>,
    limits: &Limits,
    crew: &Crew<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> (Vec<LaneResult>, Option<usize>) {
    let stop = crew.stop;
    // The lane that raised `stop` first: its answer is the one given.
    let first = AtomicUsize::new(usize::MAX);
    let finish = |lane: usize, run: &mut dyn FnMut() -> LaneResult| {
        let result = catch_unwind(AssertUnwindSafe(run));
        match &result {
            Ok(r) if matches!(r.outcome, Outcome::Limit(_)) => {}
            Ok(_) if !stop.swap(true, Ordering::Relaxed) => first.store(lane, Ordering::Relaxed),
            Ok(_) => {}
            Err(_) => stop.store(true, Ordering::Relaxed),
        }
        result
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let others: Vec<_> = lanes[1..]
            .iter()
            .enumerate()
            .map(|(k, phases)| {
                let finish = &finish;
                scope.spawn(move || {
                    finish(k + 1, &mut || {
                        let table = builder.filter(|b| b.lane == k + 1);
                        run_lane(board, known, phases, table, limits, crew, &mut |_| {})
                    })
                })
            })
            .collect();
        let mine = finish(0, &mut || {
            let table = builder.filter(|b| b.lane == 0);
            run_lane(board, known, &lanes[0], table, limits, crew, progress)
        });
        let mut results = vec![mine];
        // A lane's panic is caught inside its thread, so joining never fails.
        results.extend(others.into_iter().map(|h| h.join().unwrap_or_else(Err)));
        results
    });
    let results = results
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|panic| resume_unwind(panic));
    let winner = first.load(Ordering::Relaxed);
    (results, (winner != usize::MAX).then_some(winner))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::{MultiOptions, solve};

    /// Rooms and meeting table worked out in full.
    fn never_give_up() -> GiveUp<'static> {
        GiveUp {
            rooms: &|| false,
            meeting: Some(&|_| false),
            table_bytes: usize::MAX,
        }
    }

    #[test]
    fn the_building_lane_builds_the_meeting_table_and_no_other_waits() {
        let level = &crate::level::parse_xsb(b"#######\n#@$  .#\n#######", 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let never = never_give_up();
        let features = Phase::new(Method::Features, 1, 1, true);
        let known = Knowledge::default();
        // A lane that does not build it searches without it for now.
        let looking = GiveUp {
            meeting: None,
            ..never_give_up()
        };
        let waiting = known.config(&board, &features, &looking);
        assert!(waiting.meet.is_some() && waiting.meeting().is_none());
        let building = known.config(&board, &features, &never);
        assert_eq!(building.meeting().map(Meeting::len), Some(4));
        assert_eq!(waiting.meeting().map(Meeting::len), Some(4));
        // Built once: a second lane given the work finds it done.
        let again = known.config(&board, &features, &never);
        assert!(std::ptr::eq(
            again.meeting().unwrap(),
            building.meeting().unwrap()
        ));
    }

    #[test]
    fn the_meeting_tables_part_of_the_time_counts_from_its_build() {
        let started = Instant::now();
        let time = Some(Duration::from_secs(16));
        let at = |s: f64| started + Duration::from_secs_f64(s);
        // Begun at 5 s, after the unpacking plan, it gets its whole second.
        assert!(!table_past(started, time, at(5.0), 16, at(5.9)));
        assert!(table_past(started, time, at(5.0), 16, at(6.0)));
        // Never past the lane's time, and never without a time limit.
        assert!(!table_past(started, time, at(15.5), 16, at(15.9)));
        assert!(table_past(started, time, at(15.5), 16, at(16.0)));
        assert!(!table_past(started, None, at(5.0), 16, at(1e6)));
    }

    #[test]
    fn the_last_lane_that_looks_into_the_meeting_table_builds_it() {
        for (threads, area) in (1..=8).flat_map(|t| AREAS.map(|a| (t, a))) {
            let lanes = lanes(threads, area);
            let table = table_builder(&lanes, threads, 1 << 30).unwrap();
            let looks = |lane: &Vec<Phase>| lane.iter().any(|p| *p != Phase::PLAIN_ASTAR);
            assert!(looks(&lanes[table.lane]));
            assert!(
                !lanes[table.lane + 1..].iter().any(looks),
                "{threads} {area:?}"
            );
            // One thread gives it the time it has in one lane of two.
            let expected = if threads == 1 { 2 } else { 1 } * MEETING_SHARE;
            assert_eq!(table.share, expected);
            // Its own bound on bytes, or a quarter of the memory.
            assert_eq!(table.bytes, meet::MAX_BYTES);
            let small = table_builder(&lanes, threads, 100 << 20).unwrap();
            assert_eq!(small.bytes, 25 << 20);
        }
        assert_eq!(table_builder(&[vec![Phase::PLAIN_ASTAR]], 1, 1 << 30), None);
    }

    #[test]
    fn every_search_but_plain_astar_looks_in_the_meeting_table() {
        let level = &crate::level::parse_xsb(b"#######\n#@$  .#\n#######", 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let known = Knowledge::default();
        let never = never_give_up();
        let plain = known.config(&board, &Phase::PLAIN_ASTAR, &never);
        assert!(plain.meet.is_none() && plain.optimal());
        for area in AREAS {
            let (core, extra) = searches(area);
            for phase in core.iter().flatten().chain(&extra) {
                let config = known.config(&board, phase, &never);
                let optimal = *phase == Phase::PLAIN_ASTAR;
                assert_eq!(config.meet.is_none(), optimal, "{phase:?}");
                assert_eq!(config.optimal(), optimal, "{phase:?}");
            }
        }
    }

    #[test]
    fn a_lane_retries_without_macros_that_found_nothing() {
        // Microban II 23, its goal room's steps planned for boxes arriving
        // the other way round: no box can go in, the macros find nothing.
        let text = b" ##### #####\n #   ###   #\n #@$  ##.. #\n###$#      #\n\
                     #   ## ##  #\n#       ####\n#   #   #\n#########";
        let level = &crate::level::parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let mut found = Rooms::find(&board, &|| false);
        assert!(!found.rooms.is_empty());
        for plan in found.rooms.iter_mut().flat_map(|r| r.plans.iter_mut()) {
            plan.arrive = plan.arrive.opposite();
        }
        let known = Knowledge {
            rooms: OnceLock::from(found),
            ..Knowledge::default()
        };
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let config = Config {
            method: Method::Greedy,
            weight: 1,
            rooms: known.rooms.get(),
            packing: None,
            meet: None,
            stall: None,
            fences: None,
            order: CellOrder::NearFirst,
            advisors: AdvisorSet::MAKE_ROOM,
        };
        let (alone, _) = search::run(&board, &config, &limits, &stop, &mut |_| {});
        assert_eq!(alone, Outcome::Limit(Limit::MacrosExhausted));
        let phases = [Phase::new(Method::Greedy, 1, 1, true)];
        let crew = Crew::new(&stop, Vec::new());
        let lane = run_lane(&board, &known, &phases, None, &limits, &crew, &mut |_| {});
        assert!(lane.outcome.solution().is_some());
        assert!(!lane.optimal);
    }

    #[test]
    fn the_goal_area_decides_the_searches() {
        let area = |text: &[u8]| {
            let level = &crate::level::parse_xsb(text, 1 << 20).unwrap()[0];
            let board = Board::new(level).unwrap();
            Knowledge::default().goal_area(&board, &|| false)
        };
        // Three goals down a dead-end corridor: filled from the back, one
        // phase each, behind a one-cell entrance.
        let corridor = b"###########\n#@    #####\n# $$$ #####\n#      ...#\n###########";
        assert_eq!(area(corridor), GoalArea::OrderedRooms);
        // The same goals in the open: any order will do.
        let open = b"#######\n#@    #\n# $$$ #\n#     #\n# ... #\n#     #\n#######";
        assert_eq!(area(open), GoalArea::Spread);
        // Boxxle I 48: a goal area planned backwards down to the boxes.
        let planned = include_bytes!("../../tests/data/plan/last-parked.xsb");
        assert_eq!(area(planned), GoalArea::Planned);
    }

    #[test]
    fn fast_answers_small_levels_alone_and_the_same_every_time() {
        // Microban II 25: lanes racing each other once answered 6 or 8 pushes.
        let text = b" #####\n##   ##\n# .$. #\n# $#$ #\n# .$. #\n#    ##\n## @##\n ####";
        let level = &crate::level::parse_xsb(text, 100).unwrap()[0];
        let plain = solve(level, &MultiOptions::default(), &mut |_| {});
        for threads in [1, 2, 4] {
            let options = MultiOptions {
                fast: true,
                threads,
                ..MultiOptions::default()
            };
            for _ in 0..5 {
                let report = solve(level, &options, &mut |_| {});
                assert_eq!(report.outcome, plain.outcome);
                assert!(report.optimal);
            }
        }
    }

    #[test]
    fn a_panicking_lane_stops_the_others_and_the_panic_reaches_the_caller() {
        // Boxxle I 45 (21 boxes): the feature lane alone would search until
        // its memory runs out, and without the stop nothing would be raised.
        let level = &crate::level::parse_xsb(BOXXLE_45.as_bytes(), 1000).unwrap()[0];
        let board = Board::new(level).unwrap();
        // A share of zero is a bug: the lane panics dividing by it.
        let broken = Phase::new(Method::Packing, 1, 0, false);
        let lanes = vec![
            vec![Phase::new(Method::Features, 1, 1, false)],
            vec![broken, Phase::PLAIN_ASTAR],
        ];
        let limits = Limits {
            time: None,
            max_nodes: None,
            max_memory: 256 << 20,
        };
        let stop = AtomicBool::new(false);
        let crew = Crew::new(&stop, Vec::new());
        let ran = catch_unwind(AssertUnwindSafe(|| {
            run_lanes(
                &board,
                &Knowledge::default(),
                &lanes,
                None,
                &limits,
                &crew,
                &mut |_| {},
            )
        }));
        assert!(ran.is_err());
        assert!(stop.load(Ordering::Relaxed));
    }

    const BOXXLE_45: &str = "    #########\n    #.......#\n    #.......#\n    #.......#\n\
        \x20   #### $###\n     #  $  ##\n     # $ $  #\n ###### # # ###\n\
        \x20#  ## $ $ $  #\n## $$         #\n#   #####$##$##\n#   $     $ $ ###\n\
        ######## $#     #\n     #  $ #  #  #\n     #   @#$  $ #\n     ## $ $   $ #\n\
        \x20     ########  #\n             ####\n";

    const AREAS: [GoalArea; 5] = [
        GoalArea::Spread,
        GoalArea::Ordered,
        GoalArea::OrderedRooms,
        GoalArea::Planned,
        GoalArea::PlannedRooms,
    ];

    #[test]
    fn every_thread_count_runs_the_core_and_never_repeats_a_search() {
        for (threads, area) in (0..=64).flat_map(|t| AREAS.map(|a| (t, a))) {
            let lanes = lanes(threads, area);
            let (core, extra) = searches(area);
            let most = core.len() + extra.len();
            assert_eq!(lanes.len(), threads.clamp(1, most), "{threads} threads");
            let phases: Vec<_> = lanes
                .iter()
                .flatten()
                .map(|p| {
                    (
                        p.method, p.weight, p.macros, p.unpacked, p.order, p.advisors, p.waypoint,
                    )
                })
                .collect();
            for (i, a) in phases.iter().enumerate() {
                assert!(
                    !phases[i + 1..].contains(a),
                    "{threads} threads repeat {a:?}"
                );
            }
            for search in core.iter().flatten() {
                let key = (
                    search.method,
                    search.weight,
                    search.macros,
                    search.unpacked,
                    search.order,
                    search.advisors,
                    search.waypoint,
                );
                assert!(
                    phases.contains(&key),
                    "{threads} threads, {area:?}: {key:?}"
                );
            }
            // The search that solves the most of a shape leads at every count.
            assert_eq!(lanes[0][0].method, core[0][0].method);
            assert_eq!(lanes[0][0].macros, core[0][0].macros);
            // Every lane's phases but its last take a share, together less
            // than the whole; the last what is left.
            for lane in &lanes {
                let (last, shared) = lane.split_last().unwrap();
                assert_eq!(last.share, 1);
                let taken: f64 = shared.iter().map(|p| 1.0 / f64::from(p.share)).sum();
                assert!(taken < 1.0, "{threads} threads, {area:?}: {lane:?}");
            }
        }
    }

    #[test]
    fn the_spares_are_the_extra_searches_no_lane_runs() {
        let key = |p: &Phase| {
            (
                p.method, p.weight, p.macros, p.unpacked, p.order, p.advisors, p.waypoint,
            )
        };
        for (threads, area) in (1..=8).flat_map(|t| AREAS.map(|a| (t, a))) {
            let (core, extra) = searches(area);
            let spares = spares(threads, area);
            let running: Vec<_> = lanes(threads, area).iter().flatten().map(key).collect();
            assert!(
                spares
                    .iter()
                    .all(|p| p.share == 1 && !running.contains(&key(p)))
            );
            let all = running.len() + spares.len();
            assert_eq!(
                all,
                core.iter().flatten().count() + extra.len(),
                "{threads}"
            );
        }
        assert!(spares(7, GoalArea::Ordered).is_empty());
        let all = AdvisorSet::MAKE_ROOM.with(AdvisorSet::OUT_OF_PLAN);
        assert_eq!(spares(2, GoalArea::Ordered)[0].advisors, all);
    }

    #[test]
    fn a_lane_that_ends_early_takes_the_next_spare_and_each_spare_runs_once() {
        let stop = AtomicBool::new(false);
        let crew = Crew::new(&stop, spares(2, GoalArea::Ordered));
        let stalled = Outcome::Limit(Limit::Stalled);
        // Out of time or nodes, a lane has nothing left to give a spare.
        assert_eq!(
            spare_after(&Outcome::Limit(Limit::Time(Duration::ZERO)), &crew),
            None
        );
        assert_eq!(spare_after(&Outcome::Limit(Limit::Nodes(1)), &crew), None);
        let first = spare_after(&stalled, &crew).expect("a spare");
        let second = spare_after(&Outcome::Limit(Limit::Memory(1)), &crew).expect("a spare");
        assert_eq!(first, crew.spares[0]);
        assert_eq!(second, crew.spares[1]);
        while spare_after(&stalled, &crew).is_some() {}
        assert_eq!(spare_after(&stalled, &crew), None);
    }

    #[test]
    fn the_unpacking_plans_second_run_is_far_first_where_planned_and_in_turn_with_rooms() {
        use GoalArea::*;
        let unpacked_orders = |lane: &[Phase]| -> Vec<CellOrder> {
            let by_plan = lane
                .iter()
                .filter(|p| p.method == Method::Packing && p.unpacked);
            by_plan.map(|p| p.order).collect()
        };
        for area in [Ordered, Planned, OrderedRooms, PlannedRooms] {
            let two = lanes(2, area);
            let (first, second) = (unpacked_orders(&two[0]), unpacked_orders(&two[1]));
            // Without rooms the first lane is near first, and where planned
            // the second far first; with rooms the second takes both in turn.
            let (lead, other) = match area {
                OrderedRooms | PlannedRooms => (vec![], vec![CellOrder::Both]),
                Planned => (vec![CellOrder::NearFirst], vec![CellOrder::FarFirst]),
                _ => (vec![CellOrder::NearFirst], vec![]),
            };
            assert_eq!((first, second), (lead, other), "{area:?}");
            // With rooms, near first alone runs where threads are to spare.
            let near = |t| {
                let lanes = lanes(t, area);
                let orders = lanes.iter().flat_map(|l| unpacked_orders(l));
                orders.filter(|&o| o == CellOrder::NearFirst).count()
            };
            assert!(near(7) >= 1, "{area:?}");
        }
        let spread = lanes(7, Spread);
        assert!(
            spread
                .iter()
                .flatten()
                .all(|p| p.order == CellOrder::NearFirst)
        );
    }

    #[test]
    fn the_peel_order_takes_both_orders_in_turn() {
        for (threads, area) in (1..=7).flat_map(|t| AREAS.map(|a| (t, a))) {
            for p in lanes(threads, area).iter().flatten() {
                let peel = p.method == Method::Packing && !p.unpacked;
                if peel {
                    assert_eq!(p.order, CellOrder::Both, "{threads} threads, {area:?}");
                } else if !p.unpacked {
                    assert_eq!(p.order, CellOrder::NearFirst);
                }
            }
        }
        // Every ordered area runs the peel order at two threads.
        for area in AREAS.into_iter().filter(|&a| a != GoalArea::Spread) {
            let two = lanes(2, area);
            assert!(
                two.iter().flatten().any(|p| p.order == CellOrder::Both),
                "{area:?}"
            );
        }
    }

    #[test]
    fn one_thread_runs_what_two_run_side_by_side() {
        for area in AREAS {
            let one: Vec<Method> = lanes(1, area)[0].iter().map(|p| p.method).collect();
            let two: Vec<Method> = lanes(2, area).iter().flatten().map(|p| p.method).collect();
            assert_eq!(one, two, "{area:?}");
        }
    }

    #[test]
    fn the_unpacking_plan_leads_with_the_doors_advisor_and_a_third_thread_adds_all() {
        let out_of_plan = |set: AdvisorSet| set.with(AdvisorSet::OUT_OF_PLAN);
        for area in AREAS {
            for p in lanes(2, area).iter().flatten() {
                if p.method == Method::Packing {
                    let set = if p.unpacked {
                        out_of_plan(AdvisorSet::DOORS)
                    } else {
                        AdvisorSet::MAKE_ROOM
                    };
                    assert_eq!(p.advisors, set, "{area:?}");
                }
            }
        }
        for area in [GoalArea::Ordered, GoalArea::Planned] {
            let third = lanes(3, area)[2][0];
            let shape = (third.method, third.unpacked, third.advisors);
            let set = out_of_plan(AdvisorSet::MAKE_ROOM);
            assert_eq!(shape, (Method::Packing, true, set), "{area:?}");
        }
    }

    #[test]
    fn an_imagined_board_the_measure_before_met_is_not_headed_for_again() {
        let boards = |text: &[u8]| {
            let levels = crate::level::parse_xsb(text, 1 << 20).unwrap();
            let boards = levels.iter().map(|l| Board::new(l).unwrap());
            boards.collect::<Vec<_>>()
        };
        let limits = Limits::default();
        let heads_for = |board: &Board| {
            let known = Knowledge::default();
            let summed = known.imagined(board, Far::Summed, &limits, &|| false);
            let matched = known.imagined(board, Far::Matched, &limits, &|| false);
            (summed.is_some(), matched.is_some())
        };
        // Sasquatch I 1: both measures spread its boxes out the same way.
        let same = boards(include_bytes!("../../tests/data/levels/sasquatch.xsb"));
        assert_eq!(heads_for(&same[0]), (true, false));
        // Perfect 16 and Sasquatch I 40, which only the matching settles.
        for board in &boards(include_bytes!("../../tests/data/waypoint/matched.xsb")) {
            assert_eq!(heads_for(board), (true, true));
        }
    }

    #[test]
    fn the_two_thread_layouts() {
        // (method, share, macros, led by the unpacking plan, by way of the
        // imagined board)
        type Shape = (Method, u32, bool, bool, Option<Far>);
        let shape = |area| -> Vec<Vec<Shape>> {
            lanes(2, area)
                .iter()
                .map(|l| {
                    l.iter()
                        .map(|p| (p.method, p.share, p.macros, p.unpacked, p.waypoint))
                        .collect()
                })
                .collect()
        };
        use Far::*;
        use Method::*;
        assert_eq!(
            shape(GoalArea::Spread),
            [
                vec![(Features, 1, true, false, None)],
                vec![
                    (BoxMoves, 9, false, false, Some(Summed)),
                    (BoxMoves, 3, true, false, None),
                    (Packing, 3, false, true, None),
                    (AStar, 1, false, false, None)
                ]
            ]
        );
        assert_eq!(
            shape(GoalArea::Ordered),
            [
                vec![(Packing, 1, false, true, None)],
                vec![
                    (Packing, 4, false, false, None),
                    (BoxMoves, 16, false, false, Some(Summed)),
                    (BoxMoves, 8, false, false, Some(Matched)),
                    (BoxMoves, 4, false, false, None),
                    (Plan, 1, false, true, None)
                ]
            ]
        );
        assert_eq!(
            shape(GoalArea::OrderedRooms),
            [
                vec![(Packing, 1, true, false, None)],
                vec![
                    (BoxMoves, 8, false, false, None),
                    (BoxMoves, 16, false, false, Some(Summed)),
                    (Packing, 1, false, true, None)
                ]
            ]
        );
        assert_eq!(
            shape(GoalArea::Planned),
            [
                vec![(Packing, 1, false, true, None)],
                vec![
                    (Packing, 4, false, false, None),
                    (BoxMoves, 16, false, false, Some(Summed)),
                    (BoxMoves, 8, false, false, Some(Matched)),
                    (Plan, 4, false, true, None),
                    (Packing, 1, false, true, None)
                ]
            ]
        );
        assert_eq!(
            shape(GoalArea::PlannedRooms),
            [
                vec![(Packing, 1, true, false, None)],
                vec![
                    (BoxMoves, 8, false, false, None),
                    (BoxMoves, 16, false, false, Some(Summed)),
                    (Plan, 4, false, false, None),
                    (Packing, 1, false, true, None)
                ]
            ]
        );
    }

    #[test]
    fn a_shared_phase_gets_its_share_and_the_last_what_is_left() {
        let lane = Limits {
            time: Some(Duration::from_secs(9)),
            max_nodes: Some(900),
            max_memory: 300,
        };
        let started = Instant::now();
        let third = phase_limits(
            &Phase::new(Method::Features, 1, 3, true),
            false,
            &lane,
            started,
            0,
        );
        assert_eq!(third.time, Some(Duration::from_secs(3)));
        assert_eq!((third.max_nodes, third.max_memory), (Some(300), 100));
        let rest = phase_limits(&Phase::PLAIN_ASTAR, true, &lane, started, 250);
        assert_eq!((rest.max_nodes, rest.max_memory), (Some(650), 300));
        assert!(rest.time.unwrap() <= Duration::from_secs(9));
    }

    #[test]
    fn under_a_time_limit_a_shared_phase_is_bounded_by_its_time_alone() {
        let half = |time, max_nodes| {
            let lane = Limits {
                time,
                max_nodes,
                max_memory: 300,
            };
            let phase = Phase::new(Method::Packing, 1, 2, false);
            phase_limits(&phase, false, &lane, Instant::now(), 0)
        };
        let timed = half(Some(Duration::from_secs(20)), None);
        assert_eq!(
            (timed.time, timed.max_nodes),
            (Some(Duration::from_secs(10)), None)
        );
        let unbounded = half(None, None);
        assert_eq!(unbounded.time, Some(SHARED_PHASE_TIME));
        assert_eq!(unbounded.max_nodes, Some(SHARED_PHASE_NODES));
        // A node limit alone: no clock, whatever the load.
        let counted = half(None, Some(1000));
        assert_eq!((counted.time, counted.max_nodes), (None, Some(500)));
    }
}
