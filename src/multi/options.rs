//! What a multi-box solve is asked to do and what it reports back: the
//! method, the limits (and the typed [`Limit`] a search stops on), the
//! options, the counters and the progress snapshots.
//!
//! Everything here is plain data, so the searches, the `--fast` portfolio
//! and the command line all depend on this file and it depends on none of them.

use crate::moves::{Limit, Outcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Raised once for the whole process (by the command line's Ctrl-C
/// handler): every search running stops at its next check with
/// [`Limit::Stopped`], and none starts again.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Stops every multi-box search of this process, now and later.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Lets searches run again after [`interrupt`]: for a host that goes on
/// after an interrupt (the Python module, once the stopped solves ended).
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::Relaxed);
}

/// True once [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Search method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// A* on pushes with the matching bound: push-optimal.
    #[default]
    AStar,
    /// Breadth-first over pushes: push-optimal, no bound to guide it.
    Bfs,
    /// Depth-first: finds some solution, usually long.
    Dfs,
    /// Uniform cost (Dijkstra on pushes), ties broken by the bound: push-optimal.
    Ucs,
    /// Greedy best-first on the bound alone: fast, not optimal.
    Greedy,
    /// Greedy best-first inside each cell of a feature space (the number of
    /// areas the boxes cut the floor into), the cells taken in turn: a
    /// search that keeps trying every kind of position it has met, in the
    /// manner of Festival's FESS. Not optimal.
    Features,
    /// The feature search with a box's whole path as one step: after each
    /// expansion, the boxes it moved are pushed on as far as they go, every
    /// position reached generated at once. Not optimal.
    BoxMoves,
    /// A feature search led by the packing order (see `multi::guide::packing`):
    /// cells by the goals filled in plan order and the areas, nodes by the
    /// detours from the plan (box moves that fill no goal of the phase
    /// being filled, or with goals in the open, pushes off the plan), then
    /// by the packing score, so the search follows the plan and tries the
    /// fewest detours first. Not optimal.
    Packing,
    /// Greedy along the packing order, as YASS searches: a node's score is
    /// its pushes off the plan, a fixed price per goal not packed in plan
    /// order, and how far the box just pushed is from the goals being
    /// filled; the newest of the best goes first, so the search keeps
    /// pushing one box home (see `multi::guide::packing`). Not optimal.
    Plan,
}

impl Method {
    /// True when the method's answers have the fewest pushes, run as it is
    /// (the whole rule, with weights and macros, is the search's `Config::optimal`).
    pub fn optimal(self) -> bool {
        matches!(self, Method::AStar | Method::Bfs | Method::Ucs)
    }

    /// True when the method follows the packing order.
    pub fn uses_packing(self) -> bool {
        matches!(self, Method::Packing | Method::Plan)
    }
}

/// Resident memory beyond the live bytes a search counts, as a part of
/// them: `1 / ALLOCATOR_SHARE`.
const ALLOCATOR_SHARE: usize = 8;

/// When to give up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub max_nodes: Option<u64>,
    /// Bytes of search memory (nodes, table, open list).
    pub max_memory: usize,
}

/// Default memory bound: 4 GiB, a sixth of the 24 GiB machines this runs on.
pub const DEFAULT_MAX_MEMORY_MB: usize = 4096;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: None,
            max_nodes: None,
            max_memory: DEFAULT_MAX_MEMORY_MB << 20,
        }
    }
}

impl Limits {
    /// The node limit, when `nodes` generated reach it (checked at every
    /// expansion, so the count is exact).
    pub fn nodes_reached(&self, nodes: u64) -> Option<Limit> {
        match self.max_nodes {
            Some(n) if nodes >= n => Some(Limit::Nodes(n)),
            _ => None,
        }
    }

    /// Names in `outcome`, when it hit a limit, the limit the user set (as
    /// these limits are) that is reached by now, not what a part of the
    /// run was given of it.
    pub fn name_users_limit(
        &self,
        outcome: &mut Outcome,
        started: Instant,
        generated: u64,
        memory: usize,
    ) {
        if let Outcome::Limit(why) = outcome
            && let Some(whole) = self
                .nodes_reached(generated)
                .or_else(|| self.reached(started, memory))
        {
            *why = whole;
        }
    }

    /// The time or memory limit, when reached (or [`Limit::Stopped`] once
    /// the process was interrupted).
    pub fn reached(&self, started: Instant, memory: usize) -> Option<Limit> {
        if interrupted() {
            return Some(Limit::Stopped);
        }
        if let Some(t) = self.time
            && started.elapsed() >= t
        {
            return Some(Limit::Time(t));
        }
        // The estimate counts live bytes; the allocator keeps about an
        // eighth more resident (the blocks vectors left when they grew).
        if memory + memory / ALLOCATOR_SHARE >= self.max_memory {
            return Some(Limit::Memory(self.max_memory));
        }
        None
    }
}

/// Options of a multi-box solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MultiOptions {
    pub method: Method,
    /// A portfolio of searches beside plain A* (the feature-space searches,
    /// and weighted A* from three threads): reaches harder levels, not
    /// optimal (see `multi::portfolio`).
    pub fast: bool,
    pub limits: Limits,
    /// Threads for the `--fast` portfolio (0 or 1: one after another).
    pub threads: usize,
}

/// Counters of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MultiStats {
    pub expanded: u64,
    pub generated: u64,
    pub memory_bytes: usize,
    /// The matching bound of the start position.
    pub lower_bound: u32,
}

impl MultiStats {
    /// Adds the counters of a search run after this one (memory: the larger).
    pub fn then(&mut self, later: &MultiStats) {
        self.expanded += later.expanded;
        self.generated += later.generated;
        self.memory_bytes = self.memory_bytes.max(later.memory_bytes);
        self.lower_bound = later.lower_bound;
    }
}

/// A snapshot for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub expanded: u64,
    pub generated: u64,
    /// Pushes of the node being expanded (for [`Method::Packing`], its
    /// path cost: its detours from the plan, less those that join areas).
    pub depth: u32,
    /// Its f value (pushes plus bound).
    pub bound: u32,
    pub elapsed: Duration,
}
