//! One push-level search: A* (default) or another method over one loop.
//!
//! A state is the box set plus the normalized player (the smallest cell the
//! player can reach without pushing). The loop here pops nodes from the
//! open list ([`frontier`]), checks the limits and expands ([`expand`]):
//! single pushes, pruned by dead squares, freeze deadlocks, dead corrals and
//! an infinite bound ([`incremental`]), with tunnel slides and, in the
//! `--fast` lanes, goal-room steps, tunnel rides and box moves
//! ([`macros`]); the non-optimal searches also by learned deadlocks, the
//! fences proven at load and small corrals. [`rebuild`] turns the goal
//! node back into moves.
//!
//! A node is closed when it is expanded, never when it is generated, and a
//! shorter path to a known node updates it (and reopens it if need be), so
//! A* with the admissible matching bound returns a push-optimal solution.
//! Ties on f prefer the smaller bound (deeper nodes), then the older node.

mod advice;
mod advisors;
mod expand;
mod frontier;
mod incremental;
mod macros;
mod pace;
mod player;
mod push;
mod rebuild;
mod stuck;

use super::board::{Board, Cell};
use super::options::{Limits, Method, MultiStats, Progress};
use super::table::{Key, NodeId, Nodes, StoredPush};
use crate::grid::Direction;
use crate::moves::{Limit, Outcome};
use crate::multi::deadlock::corral::Corrals;
use crate::multi::deadlock::freeze::Freeze;
use crate::multi::deadlock::learned::Patterns;
use crate::multi::deadlock::patterns::PatternSet;
use crate::multi::deadlock::subset::SubsetSearch;
use crate::multi::guide::meet::Meeting;
use crate::multi::guide::packing::{Opener, Packing};
use crate::multi::guide::room::Rooms;
use advice::Advice;
pub(crate) use advice::CellOrder;
pub(crate) use advisors::AdvisorSet;
use frontier::Frontier;
use incremental::{Frozen, IncrementalBound};
use pace::Pace;
use player::{ChildArea, PlayerArea};
use push::Push;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use stuck::Subtrees;

/// Which search to run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config<'r> {
    pub method: Method,
    /// Weight on the bound in A* (1 = plain A*, more for `--fast`).
    pub weight: u32,
    /// Goal rooms filled by their macros, for the non-optimal `--fast`
    /// lanes: boxes then go into goal rooms by the macros only (see
    /// [`crate::multi::guide::room`]) and ride tunnels (one-wide corridors they are
    /// pushed along from inside) to their ends.
    pub rooms: Option<&'r Rooms>,
    /// The order to fill the goals in ([`Method::Packing`] only).
    pub packing: Option<&'r Packing>,
    /// Positions reached backwards from the solved one, once another
    /// lane has built them: a child found there ends the search
    /// (non-optimal searches only).
    pub meet: Option<&'r OnceLock<Meeting>>,
    /// [`Method::Plan`]: the nodes it may generate without packing a
    /// target more than before ([`Limit::Stalled`] then); `None`: no end
    /// but the limits.
    pub stall: Option<u64>,
    /// Fences proven dead at load ([`crate::multi::deadlock::fence`]), for the subset
    /// searches and, in non-optimal searches, the positions themselves.
    pub fences: Option<&'r Arc<PatternSet>>,
    /// [`Method::Packing`] led by an order: which of a cell's positions
    /// that cost the same come first (see [`CellOrder`]).
    pub order: CellOrder,
    /// [`Method::Packing`] led by an order: the advisors besides the
    /// packing advisor, the joins of areas and the opener (see
    /// [`advisors`]).
    pub advisors: AdvisorSet,
}

impl Config<'_> {
    /// Plain A*: push-optimal.
    pub fn plain() -> Config<'static> {
        Config {
            method: Method::AStar,
            weight: 1,
            rooms: None,
            packing: None,
            meet: None,
            stall: None,
            fences: None,
            order: CellOrder::NearFirst,
            advisors: AdvisorSet::MAKE_ROOM,
        }
    }

    /// True when the search's answers have the fewest pushes: a
    /// push-optimal method at weight 1, without goal-room macros. The one
    /// rule: the search prunes by it, and `solve` and the `--fast`
    /// portfolio report by it.
    pub fn optimal(&self) -> bool {
        self.method.optimal() && self.weight == 1 && self.rooms.is_none() && self.meet.is_none()
    }

    /// The meeting table, when there is one and it is built.
    pub fn meeting(&self) -> Option<&Meeting> {
        self.meet.and_then(OnceLock::get)
    }
}

/// The deadlock detectors, each with its scratch space.
#[derive(Default)]
struct Pruning {
    freeze: Freeze,
    corrals: Corrals,
    subset: SubsetSearch,
    patterns: Patterns,
}

impl Pruning {
    /// The detectors, with the fences when the search has them.
    fn for_config(config: &Config<'_>) -> Pruning {
        let Some(fences) = config.fences else {
            return Pruning::default();
        };
        Pruning {
            subset: SubsetSearch::with_fences(Arc::clone(fences)),
            patterns: Patterns::with_fences(Arc::clone(fences)),
            ..Pruning::default()
        }
    }
}

/// Search state shared by the helpers.
struct Search<'b> {
    board: &'b Board,
    config: Config<'b>,
    nodes: Nodes,
    frontier: Frontier,
    /// Per cell, whether a box stands there in the position at hand.
    occupied: Vec<bool>,
    area: PlayerArea,
    bound: IncrementalBound,
    prune: Pruning,
    /// Per goal room, the boxes in it at the expanded node (with macros).
    in_room: Vec<u16>,
    /// [`Method::BoxMoves`]: the nodes just generated by one push, the
    /// cell the pushed box reached, its kept player area, and the opener
    /// where that box is the opener's.
    fresh: Vec<(NodeId, Cell, u32, Option<Opener>)>,
    /// Per node, with a packing order: its measure against it.
    advice: Advice,
    /// The advisors that name one child each (see [`advisors`]).
    advisors: advisors::Advisors,
    /// When the time limit runs out, for the work within one expansion.
    deadline: Option<Instant>,
    /// A child found in the meeting table, and its pushes to the goal.
    met: Option<(NodeId, Vec<(Cell, Direction)>)>,
    /// What the opener found among the box moves of the node being expanded
    /// (see [`Packing::opener`]).
    opening: expand::Opening,
    /// Whether the nodes made before the meeting table was there have
    /// been looked up in it.
    looked_back: bool,
    /// The non-optimal searches: the expansions below each node.
    subtrees: Option<Subtrees>,
    stats: MultiStats,
}

/// Runs the search on a prepared board until it solves the level, proves it
/// impossible, or reaches a limit (or `stop` is raised).
pub(crate) fn run(
    board: &Board,
    config: &Config,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> (Outcome, MultiStats) {
    let started = Instant::now();
    let mut s = Search::new(board, *config);
    if !s.queue_root() {
        return (Outcome::Impossible, s.stats);
    }
    // A time past what the clock holds is no limit.
    s.deadline = limits.time.and_then(|t| started.checked_add(t));
    let mut last_report = Instant::now();
    let mut boxes = Vec::with_capacity(board.start_boxes.len());
    let mut pace = Pace::new();
    // Expansions since the last look at the pace: this one and the box
    // moves' extra ones after the one before.
    let mut work = 1;
    while let Some((k, node)) = s.frontier.pop() {
        let u = node.index();
        if s.nodes.closed[u] || (s.frontier.keyed() && !s.is_current(k, node)) {
            continue; // stale entry: closed, or queued again with a better key
        }
        s.nodes.closed[u] = true;
        s.stats.expanded += 1;
        if s.nodes.h[u] == 0 && s.nodes.boxes(node) == board.goals.as_slice() {
            s.stats.memory_bytes = s.memory_bytes();
            let solution = s.rebuild(node);
            return (Outcome::Solved(solution), s.stats);
        }
        if let Some(why) = limits.nodes_reached(s.stats.generated) {
            return (Outcome::Limit(why), s.stats);
        }
        if s.stalled() {
            return (Outcome::Limit(Limit::Stalled), s.stats);
        }
        if pace.due(work) {
            if let Some(why) = s.checkpoint(limits, started, stop) {
                return (Outcome::Limit(why), s.stats);
            }
            if last_report.elapsed().as_millis() >= 100 {
                last_report = Instant::now();
                progress(&s.progress(node, started));
            }
            // (A node met then is joined at once: the open list may hold
            // nothing more to expand.)
            s.look_back_in_meeting();
            if let Some(joined) = s.joined() {
                return (joined, s.stats);
            }
        }
        if s.in_dead_subtree(node) {
            continue;
        }
        boxes.clear();
        boxes.extend_from_slice(s.nodes.boxes(node));
        work = 1;
        s.expand(node, &boxes, None);
        if s.box_moves() {
            let before = s.nodes.g[u];
            work += s.push_moved_boxes_on(&mut boxes, before, limits.max_nodes);
            s.open_the_way(before);
            if s.counts_box_moves() {
                s.follow_advisors(node, before);
            }
        }
        if let Some(joined) = s.joined() {
            return (joined, s.stats);
        }
    }
    // Every position reachable without a deadlock has been seen: no solution
    // (unless the macros dropped it).
    s.stats.memory_bytes = s.memory_bytes();
    if s.config.rooms.is_some() {
        return (Outcome::Limit(Limit::MacrosExhausted), s.stats);
    }
    (Outcome::Impossible, s.stats)
}

impl<'b> Search<'b> {
    fn new(board: &'b Board, config: Config<'b>) -> Search<'b> {
        let n = board.len();
        let advice = config
            .packing
            .map(|packing| {
                let out_of_plan = config.advisors.has(AdvisorSet::OUT_OF_PLAN);
                Advice::new(board, packing, config.order, out_of_plan)
            })
            .unwrap_or_default();
        let mut frontier = if advice.two_orders() {
            Frontier::two_orders()
        } else {
            Frontier::for_method(config.method)
        };
        if advice.ordered() {
            // Every other turn to the most advanced cell (see `advice`).
            frontier.favour_least();
        }
        Search {
            board,
            config,
            nodes: Nodes::new(board.start_boxes.len()),
            frontier,
            occupied: vec![false; n],
            area: PlayerArea::new(board),
            bound: IncrementalBound::default(),
            prune: Pruning::for_config(&config),
            in_room: Vec::new(),
            fresh: Vec::new(),
            advice,
            advisors: advisors::Advisors::default(),
            deadline: None,
            met: None,
            opening: expand::Opening::default(),
            looked_back: false,
            subtrees: (!config.optimal()).then(Subtrees::default),
            stats: MultiStats::default(),
        }
    }

    /// Makes the start node and queues it; false when the start is dead.
    fn queue_root(&mut self) -> bool {
        let board = self.board;
        let start_boxes = &board.start_boxes;
        for &b in start_boxes {
            self.occupied[b] = true;
        }
        let player = self
            .area
            .normalize(board, &self.occupied, start_boxes, board.start_player);
        let frozen = self.frozen_of(start_boxes);
        let bound = frozen.and_then(|f| self.bound.bound(&f, start_boxes));
        if let Some(h) = bound {
            self.stats.lower_bound = h;
            let key = Key {
                boxes: start_boxes,
                player,
                hash: board.hash_of(start_boxes, player),
            };
            let root = self.nodes.insert(&key, 0, h, None, StoredPush::default());
            self.stats.generated = 1;
            if let Some(meet) = self.config.meeting() {
                // (The board keeps the start's boxes sorted, as the table does.)
                let rest = meet.path_from(key.hash, start_boxes, player);
                self.met = rest.map(|rest| (root, rest));
            }
            // (The feature search counts the root's areas with its boxes in place.)
            self.enqueue(root);
        }
        for &b in start_boxes {
            self.occupied[b] = false;
        }
        bound.is_some()
    }

    /// True when `key` is `node`'s key now, in either open list (a node's
    /// keys change only with its cost, which both carry).
    fn is_current(&self, key: u64, node: NodeId) -> bool {
        key == self.key_of(node) || Some(key) == self.second_key_of(node)
    }

    /// The key of a node in the second open list (see [`Advice::second_key`]).
    fn second_key_of(&self, node: NodeId) -> Option<u64> {
        let u = node.index();
        let (g, h) = (self.nodes.g[u] as u64, self.nodes.h[u] as u64);
        let (primary, secondary) = self.advice.second_key(node, g, h)?;
        Some(primary << 32 | secondary)
    }

    /// The frontier key of a node: lower is expanded first.
    fn key_of(&self, node: NodeId) -> u64 {
        let u = node.index();
        let (g, h) = (self.nodes.g[u] as u64, self.nodes.h[u] as u64);
        let weight = self.config.weight as u64;
        let (primary, secondary) = match self.config.method {
            Method::AStar => (g + weight * h, h),
            Method::Ucs => (g, h),
            Method::Greedy | Method::Features | Method::BoxMoves => (h, g),
            Method::Packing => self.advice.key(node, g, h),
            Method::Plan => self.advice.plan_key(node, g),
            Method::Bfs | Method::Dfs => (0, 0),
        };
        primary << 32 | secondary
    }

    /// Puts a node on the open list; for the feature searches, in its
    /// feature cell, worked out on first sight with `occupied` holding the
    /// node's boxes: the number of areas the boxes cut the free floor into
    /// (with a packing order, together with the packing; see [`advice`]).
    fn enqueue(&mut self, node: NodeId) {
        self.enqueue_counted(node, None);
    }

    /// [`Search::enqueue`] for a child whose player's area was found `how`
    /// (see [`PlayerArea::count_areas`]).
    fn enqueue_counted(&mut self, node: NodeId, how: Option<ChildArea>) {
        if self.frontier.needs_feature(node) {
            let boxes = self.nodes.boxes(node);
            let areas = self
                .area
                .count_areas(self.board, &self.occupied, boxes, how);
            let feature = match self.config.packing {
                Some(packing) if self.advice.is_new(node) => self.measure(packing, node, areas),
                _ => areas,
            };
            self.frontier.set_feature(node, feature);
        }
        if self.config.method == Method::Plan && self.advice.is_new(node) {
            self.measure_plan(node);
        }
        let key = self.key_of(node);
        self.frontier.push(key, node);
        if let Some(key) = self.second_key_of(node) {
            self.frontier.push_second(key, node);
        }
    }

    /// True when the plan search has generated its [`Config::stall`]
    /// nodes since it last packed a target more than before.
    fn stalled(&self) -> bool {
        let since = || self.stats.generated - self.advice.last_plan_gain();
        self.config.stall.is_some_and(|stall| since() > stall)
    }

    /// [`Method::Plan`]: measures a new node (`occupied` holding its boxes)
    /// against the packing order, in the phase its path has reached.
    fn measure_plan(&mut self, node: NodeId) {
        let Some(packing) = self.config.packing else {
            return;
        };
        let parent = self.nodes.parent(node);
        let push = parent.map(|_| self.push_of(node));
        let before = parent.map_or(0, |p| self.advice.plan_phase(p));
        let phase = packing.path_phase(before, &self.occupied, push.map(|p| p.from));
        let k = (phase < packing.phases.len()).then_some(phase);
        let pushed = push.map(|p| p.end(self.board));
        let (packed, price) = packing.plan_score_at(k, &self.occupied, pushed);
        let unpacked = packing.targets() - packed;
        self.advice
            .record_plan(node, phase, unpacked, price, self.stats.generated);
    }

    /// True when each pushed box is pushed on at once along every path it
    /// can take ([`Method::BoxMoves`], and the packing search where it
    /// follows an order: a box's whole move is one step, as in FESS).
    fn box_moves(&self) -> bool {
        self.config.method == Method::BoxMoves || self.counts_box_moves()
    }

    /// True when a path costs what its box moves off the plan cost, one a
    /// move however many pushes it makes (the packing search where it
    /// follows an order, as FESS counts): see [`advice`].
    fn counts_box_moves(&self) -> bool {
        self.config.method == Method::Packing && self.advice.ordered()
    }

    /// Measures a new node against the packing order (`occupied` holding
    /// its boxes); a push that joined areas costs nothing. Returns its cell.
    fn measure(&mut self, packing: &Packing, node: NodeId, areas: u32) -> u32 {
        let score = packing.score(&self.occupied, self.nodes.boxes(node));
        let goals = packing.targets();
        let parent = self.nodes.parent(node);
        let out_of_plan = self
            .advice
            .out_of_plan(score.packed, self.nodes.boxes(node));
        let cell = self
            .advice
            .record(node, parent, score, goals, areas, out_of_plan);
        if let Some(p) = parent
            && self.advice.joins_areas(node, parent)
        {
            let u = node.index();
            self.nodes.g[u] = self.nodes.g[u].min(self.nodes.g[p.index()]);
        }
        cell
    }

    /// The frozen-on-goal boxes among `boxes` (per `occupied`) and their
    /// table, or `None` when a box is frozen off a goal.
    fn frozen_of(&mut self, boxes: &[Cell]) -> Option<Rc<Frozen>> {
        let board = self.board;
        let mut cells: Vec<Cell> = Vec::new();
        for &b in boxes {
            if !board.is_goal[b] || cells.contains(&b) {
                continue;
            }
            if let Some(group) = self.prune.freeze.group(board, &self.occupied, b) {
                if group.iter().any(|&x| !board.is_goal[x]) {
                    return None;
                }
                cells.extend_from_slice(group);
            }
        }
        cells.sort_unstable();
        cells.dedup();
        Some(self.bound.table(board, cells))
    }

    /// The move that made `node`.
    fn push_of(&self, node: NodeId) -> Push {
        Push::from_stored(self.nodes.push(node), self.config.rooms)
    }

    /// Once the meeting table is there (another lane builds it while this
    /// search runs), looks up the nodes made before it: each is looked up
    /// when made, so one met then would never be seen again.
    fn look_back_in_meeting(&mut self) {
        if self.looked_back || self.met.is_some() {
            return;
        }
        let Some(meet) = self.config.meeting() else {
            return;
        };
        self.looked_back = true;
        let nodes = &self.nodes;
        self.met = nodes.ids().find_map(|node| {
            let hash = nodes.hash[node.index()];
            let rest = meet.path_from(hash, nodes.boxes(node), nodes.player(node))?;
            Some((node, rest))
        });
    }

    /// The answer through the meeting table, once a node has met it.
    fn joined(&mut self) -> Option<Outcome> {
        let (met, rest) = self.met.take()?;
        self.stats.memory_bytes = self.memory_bytes();
        Some(Outcome::Solved(self.rebuild_joined(met, &rest)))
    }

    /// The time, memory and stop checks, made every so often.
    fn checkpoint(
        &mut self,
        limits: &Limits,
        started: Instant,
        stop: &AtomicBool,
    ) -> Option<Limit> {
        self.stats.memory_bytes = self.memory_bytes();
        if let Some(why) = limits.reached(started, self.stats.memory_bytes) {
            return Some(why);
        }
        stop.load(Ordering::Relaxed).then_some(Limit::Stopped)
    }

    /// True once the time limit has run out.
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn progress(&self, node: NodeId, started: Instant) -> Progress {
        let u = node.index();
        Progress {
            expanded: self.stats.expanded,
            generated: self.stats.generated,
            depth: self.nodes.g[u],
            bound: self.nodes.g[u] + self.nodes.h[u],
            elapsed: started.elapsed(),
        }
    }

    /// The search's own memory (the meeting table, shared by the lanes of
    /// `--fast`, is counted once, by them).
    fn memory_bytes(&self) -> usize {
        self.nodes.memory_bytes()
            + self.frontier.memory_bytes()
            + self.prune.subset.memory_bytes()
            + self.prune.patterns.memory_bytes()
            + self.occupied.len() * 13
            + self.bound.memory_bytes(self.board)
            + self.advice.memory_bytes()
            + self.config.packing.map_or(0, Packing::memory_bytes)
            + self.subtrees.as_ref().map_or(0, Subtrees::memory_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, parse_xsb};
    use crate::moves::{Notation, replay};

    fn solve_with(level: &Level, config: &Config) -> (Outcome, MultiStats) {
        let board = Board::new(level).unwrap();
        let stop = AtomicBool::new(false);
        run(&board, config, &Limits::default(), &stop, &mut |_| {})
    }

    /// The pushes of a solution that replays to a solved level.
    fn replayed(level: &Level, outcome: &Outcome) -> u64 {
        let s = outcome.solution().expect("a solution");
        let end = replay(
            &level.grid,
            level.player,
            &level.boxes,
            &s.moves,
            Notation::Nsew,
        )
        .expect("a legal solution");
        assert!(end.solved(&level.goals), "{} not solved", level.name);
        assert_eq!((end.pushes, end.walks), (s.pushes, s.walks));
        s.pushes
    }

    fn greedy(rooms: Option<&Rooms>) -> Config<'_> {
        Config {
            method: Method::Greedy,
            weight: 1,
            rooms,
            packing: None,
            meet: None,
            stall: None,
            fences: None,
            order: CellOrder::NearFirst,
            advisors: AdvisorSet::MAKE_ROOM,
        }
    }

    #[test]
    fn every_method_searches_the_same_with_floods_by_rows_and_by_cells() {
        // Puzzles and classic levels with planned goal areas, cut off at a
        // few thousand nodes: the floods by rows must change nothing but
        // the time taken.
        let files = [
            "tests/data/levels/sasquatch.xsb",
            "tests/data/plan/parking.xsb",
            "tests/data/plan/last-parked.xsb",
        ];
        let levels: Vec<Level> = files
            .iter()
            .flat_map(|f| parse_xsb(&std::fs::read(f).unwrap(), 1000).unwrap())
            .collect();
        assert_eq!(levels.len(), 5);
        let limits = Limits {
            max_nodes: Some(3000),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        for level in &levels {
            let board = Board::new(level).unwrap();
            let mut by_cells = board.clone();
            by_cells.rows = None;
            let packing = Packing::find(&board);
            for method in [
                Method::AStar,
                Method::Greedy,
                Method::Features,
                Method::BoxMoves,
                Method::Packing,
                Method::Plan,
            ] {
                let config = Config {
                    method,
                    packing: method.uses_packing().then_some(&packing),
                    ..greedy(None)
                };
                let (a, a_stats) = run(&board, &config, &limits, &stop, &mut |_| {});
                let (b, b_stats) = run(&by_cells, &config, &limits, &stop, &mut |_| {});
                let counts = |s: &MultiStats| (s.expanded, s.generated);
                let name = &level.name;
                assert!(a == b, "{name} {method:?}: the outcomes differ");
                assert_eq!(counts(&a_stats), counts(&b_stats), "{name} {method:?}");
            }
        }
    }

    #[test]
    fn a_room_shut_by_its_doors_is_dead_at_once() {
        // Boxxle I 45 after a wrong turn: the player is out of the room below,
        // the west door box can only go down one square and stick, and the
        // east door box has a box behind it. The room's own boxes fence it
        // off without the east door box, which touches only them.
        let rows = [
            "    #########",
            "    #***...*#",
            "    #*.*....#",
            "    #....*..#",
            "    ####  ###",
            "     #     ##",
            "     #      #",
            " ###### # # ###",
            " #  ##        #",
            "##       @$   #",
            "#   #####$##$##",
            "#   $  $  $ $ ###",
            "######## $#     #",
            "     # $  #  #  #",
            "     #    #$  $ #",
            "     ## $ $   $ #",
            "      ########  #",
            "             ####",
        ];
        let level = &parse_xsb(rows.join("\n").as_bytes(), 1000).unwrap()[0];
        let (outcome, stats) = solve_with(level, &Config::plain());
        assert_eq!(outcome, Outcome::Impossible);
        assert_eq!(stats.expanded, 1);
    }

    #[test]
    fn a_search_that_meets_the_backward_table_joins_the_two_halves() {
        // Microban I 2: small enough for the table to hold every position.
        let text = b"######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let table = OnceLock::from(Meeting::build(&board, &|| false));
        let config = Config {
            meet: Some(&table),
            ..greedy(None)
        };
        assert!(!config.optimal());
        let (joined, stats) = solve_with(level, &config);
        // The start is held: the answer is all the table's, the search
        // ending after its first expansion.
        assert_eq!(stats.expanded, 1);
        assert_eq!(replayed(level, &joined), 3);
    }

    #[test]
    fn nodes_made_before_the_table_is_there_are_looked_up_once_it_is() {
        // Microban I 2 again: the start is among the table's positions.
        let text = b"######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let table = OnceLock::new();
        let config = Config {
            meet: Some(&table),
            ..greedy(None)
        };
        let mut s = Search::new(&board, config);
        assert!(s.queue_root());
        s.look_back_in_meeting();
        assert!(s.met.is_none() && !s.looked_back);
        let _ = table.set(Meeting::build(&board, &|| false));
        s.look_back_in_meeting();
        let (met, rest) = s.met.take().expect("the start is held");
        let joined = Outcome::Solved(s.rebuild_joined(met, &rest));
        assert_eq!(replayed(level, &joined), 3);
    }

    #[test]
    fn a_search_meets_a_partial_table_half_way() {
        // Microban I 16, with a table of 100 positions: the start is not
        // among them, and the forward search walks until it meets one.
        let text = b" ####\n #  ####\n #     ##\n## ##   #\n#. .# @$##\n#   # $$ #\n#  .#    #\n##########";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let table = OnceLock::from(Meeting::build_at_most(&board, 100));
        let config = Config {
            meet: Some(&table),
            ..greedy(None)
        };
        let (joined, stats) = solve_with(level, &config);
        let (_, alone_stats) = solve_with(level, &greedy(None));
        assert!(stats.expanded > 1 && stats.expanded < alone_stats.expanded);
        replayed(level, &joined);
    }

    #[test]
    fn with_macros_a_box_rides_a_tunnel_in_one_move() {
        let text = b"#########\n#@$    .#\n#########";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let (plain, plain_stats) = solve_with(level, &greedy(None));
        let no_rooms = Rooms::default();
        let (ridden, ridden_stats) = solve_with(level, &greedy(Some(&no_rooms)));
        assert_eq!(replayed(level, &plain), 5);
        assert_eq!(replayed(level, &ridden), 5);
        // The start, then one node per push, or one for the whole ride.
        assert_eq!(plain_stats.generated, 6);
        assert_eq!(ridden_stats.generated, 2);
    }

    #[test]
    fn a_box_pushed_into_a_corridor_from_open_floor_stops_at_its_mouth() {
        // The box starts with floor below it: its first push stops at the
        // corridor's mouth, and from there it rides the rest in one.
        let text = b"########\n#@$   .#\n## #####\n########";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let no_rooms = Rooms::default();
        let (ridden, ridden_stats) = solve_with(level, &greedy(Some(&no_rooms)));
        assert_eq!(replayed(level, &ridden), 4);
        assert_eq!(ridden_stats.generated, 3);
    }

    /// Where the packing order applies, the packing search pays for box
    /// moves, not pushes: after the start's expansion, with every box
    /// pushed on along its paths, a move that fills the goal at the back
    /// of the dead end costs nothing however many pushes it takes, and
    /// every other move one.
    #[test]
    fn the_packing_search_counts_box_moves_off_the_plan() {
        let text = b"#########\n#...    #\n#### ## #\n#@ $$$  #\n#       #\n#########";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let packing = Packing::find(&board);
        assert!(packing.ordered());
        let back = packing.phases[0][0];
        let config = Config {
            method: Method::Packing,
            weight: 1,
            rooms: None,
            packing: Some(&packing),
            meet: None,
            stall: None,
            fences: None,
            order: CellOrder::NearFirst,
            advisors: AdvisorSet::MAKE_ROOM,
        };
        let mut s = Search::new(&board, config);
        assert!(s.queue_root());
        let (_, root) = s.frontier.pop().unwrap();
        let mut boxes = s.nodes.boxes(root).to_vec();
        s.expand(root, &boxes.clone(), None);
        s.push_moved_boxes_on(&mut boxes, 0, None);
        let mut filled = 0;
        for node in s.nodes.ids().skip(1) {
            let g = s.nodes.g[node.index()];
            if s.nodes.boxes(node).contains(&back) {
                // Up twice, then left into the tunnel: three steps at least.
                let steps = std::iter::successors(Some(node), |&n| s.nodes.parent(n)).count() - 1;
                assert!(steps >= 3);
                assert_eq!(g, 0);
                filled += 1;
            } else {
                assert!(g <= 1);
            }
        }
        assert!(filled > 0);
        let (outcome, _) = solve_with(level, &config);
        replayed(level, &outcome);
        // Far first ranks the same nodes otherwise, and both orders take
        // turns over them: each solves it too.
        for order in [CellOrder::FarFirst, CellOrder::Both] {
            let (outcome, _) = solve_with(level, &Config { order, ..config });
            replayed(level, &outcome);
        }
    }

    /// The packing search's box moves look for no corrals at the positions
    /// they pass through: where the full expansion of a position tries only
    /// the push of a PI-corral (the box beside the pocket goal, pushed in),
    /// the same position in a move still pushes its moving box on.
    #[test]
    fn box_moves_in_the_packing_search_pass_corrals_by() {
        let text =
            b"##########\n#...    ##\n#### ## ##\n#@ $ $  ##\n#  $   $.#\n#      ###\n##########";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let packing = Packing::find(&board);
        assert!(packing.ordered());
        let config = Config {
            method: Method::Packing,
            weight: 1,
            rooms: None,
            packing: Some(&packing),
            meet: None,
            stall: None,
            fences: None,
            order: CellOrder::NearFirst,
            advisors: AdvisorSet::MAKE_ROOM,
        };
        let at = |row, col| board.compact(level.grid.cell(row, col));
        // A box free to move, and the box fencing the pocket goal off.
        let (free, fence) = (at(3, 5), at(4, 7));
        let pushed_from = |moving: Option<Cell>| {
            let mut s = Search::new(&board, config);
            assert!(s.queue_root());
            let (_, root) = s.frontier.pop().unwrap();
            let boxes = s.nodes.boxes(root).to_vec();
            let moving = moving.map(|cell| expand::MovingBox {
                cell,
                before: 0,
                area: None,
                opener: None,
            });
            s.expand(root, &boxes, moving);
            let from: Vec<Cell> = s
                .nodes
                .ids()
                .skip(1)
                .map(|n| s.nodes.push(n).from)
                .collect();
            from
        };
        assert_eq!(pushed_from(None), vec![fence]);
        let moved = pushed_from(Some(free));
        assert!(!moved.is_empty());
        assert!(moved.iter().all(|&b| b == free));
    }

    /// The search led by the packing order as YASS's is: on levels with
    /// goal rooms (an order of several phases), it fills them and the
    /// solution replays.
    #[test]
    fn the_plan_search_solves_along_the_order() {
        let text = include_bytes!("../../../tests/data/rooms/rooms.xsb");
        for level in &parse_xsb(text, 1 << 20).unwrap() {
            let board = Board::new(level).unwrap();
            let packing = Packing::find(&board);
            let config = Config {
                method: Method::Plan,
                packing: Some(&packing),
                ..greedy(None)
            };
            assert!(!config.optimal());
            let (outcome, _) = solve_with(level, &config);
            replayed(level, &outcome);
        }
    }

    /// The plan search gives way when it has generated its stall budget
    /// without packing a target more: here each push brings the box one
    /// square closer, and the goal is six pushes away.
    #[test]
    fn the_plan_search_gives_up_when_it_packs_nothing_more() {
        let level = &parse_xsb(b"##########\n#@$     .#\n##########", 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let packing = Packing::find(&board);
        let plan = |stall| Config {
            method: Method::Plan,
            packing: Some(&packing),
            stall,
            ..greedy(None)
        };
        let (outcome, stats) = solve_with(level, &plan(Some(3)));
        assert_eq!(outcome, Outcome::Limit(Limit::Stalled));
        assert_eq!(stats.generated, 5);
        let (outcome, _) = solve_with(level, &plan(Some(6)));
        assert_eq!(replayed(level, &outcome), 6);
        let (outcome, _) = solve_with(level, &plan(None));
        assert_eq!(replayed(level, &outcome), 6);
    }

    /// Goal areas a box must wait outside of (`tests/data/plan/`): the
    /// packing search, led by a plan that parks it, solves each within
    /// 400,000 nodes (led by the peel, it solves neither within a million),
    /// and the solution replays.
    #[test]
    fn the_packing_search_follows_a_plan_with_parking() {
        let text = include_bytes!("../../../tests/data/plan/parking.xsb");
        for level in &parse_xsb(text, 1 << 20).unwrap() {
            let board = Board::new(level).unwrap();
            let packing = Packing::find(&board);
            let config = Config {
                method: Method::Packing,
                packing: Some(&packing),
                ..greedy(None)
            };
            let limits = Limits {
                max_nodes: Some(400_000),
                ..Limits::default()
            };
            let stop = AtomicBool::new(false);
            let (outcome, stats) = run(&board, &config, &limits, &stop, &mut |_| {});
            assert!(outcome.solution().is_some(), "{}: {stats:?}", level.name);
            replayed(level, &outcome);
        }
    }

    /// Levels with goal rooms (`tests/data/rooms/`): a search that fills the
    /// rooms by their macros solves each, and the solution (macros spelled
    /// out as single pushes) replays.
    #[test]
    fn goal_room_macros_replay() {
        let text = include_bytes!("../../../tests/data/rooms/rooms.xsb");
        let levels = parse_xsb(text, 1 << 20).unwrap();
        assert!(levels.len() >= 4);
        for level in &levels {
            let board = Board::new(level).unwrap();
            let rooms = Rooms::find(&board, &|| false);
            assert!(!rooms.rooms.is_empty(), "{} has a goal room", level.name);
            for (method, weight) in [
                (Method::Greedy, 1),
                (Method::AStar, 3),
                (Method::Features, 1),
            ] {
                let config = Config {
                    method,
                    weight,
                    rooms: Some(&rooms),
                    packing: None,
                    meet: None,
                    stall: None,
                    fences: None,
                    order: CellOrder::NearFirst,
                    advisors: AdvisorSet::MAKE_ROOM,
                };
                let (outcome, _) = solve_with(level, &config);
                replayed(level, &outcome);
            }
        }
    }
}
