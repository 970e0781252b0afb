//! What [`Method::Packing`] knows of each node: how far it is along the
//! packing order, and what it pays for the pushes that led to it. The
//! plan search ([`Method::Plan`]) keeps its score here too: see
//! [`Advice::record_plan`].
//!
//! The search is laid out as Festival's feature-space search is (Shoham and
//! Schaeffer's FESS): a node's *cell* is the best its path has done, the
//! most goals packed in plan order, then the fewest areas the boxes cut
//! the floor into there, and then, where the search counts them, the
//! fewest boxes out of plan (see [`OutOfPlan`]). So a node that lifts a
//! box off a goal to rearrange the room, or cuts the floor up further on
//! its way, stays where its progress is, and only a step forward opens a
//! new cell. The cells are visited
//! in turn, and every other turn goes to the most advanced cell. A pushed box
//! is pushed on at once along every path it can take, so a box's whole move
//! is one step, and inside a cell nodes are taken by what their path cost,
//! counted in moves as FESS counts: a box's move costs one however far it
//! goes, nothing when it fills an empty goal of the phase being filled (the
//! move the packing advisor proposes) or when its first push joins two
//! areas, and where no move of a node fills one, nothing for the opener's
//! move: the loose box nearest the next target taken farthest from it, to
//! make way for the box that fills it (see [`Packing::opener`]). The child
//! each of the doors, hotspot and explorer advisors names costs nothing
//! either (see [`super::advisors`]). Ties go to the better packing score
//! (nearest boxes first), or, searching far first, to the most goals packed
//! and then to the boxes farthest from the goals, as Festival ranks them
//! (see [`CellOrder`]: each settles levels the other misses, and a search
//! may keep both, taking from each in turn). Counting pushes instead, with
//! every push towards the next goals free, made each combination of loose
//! boxes edging closer free too, and the search drowned in them.
//!
//! That needs an order to follow: where the packing order has fewer than
//! three phases (goals in the open, most puzzle levels), a search led by
//! it runs breadth-first over the pushes off the plan, so there the cells
//! are the areas alone and nodes are taken greedily by cost plus score.
//!
//! [`Method::Packing`]: crate::multi::options::Method::Packing
//! [`Method::Plan`]: crate::multi::options::Method::Plan

use crate::multi::board::{Board, Cell};
use crate::multi::guide::out_of_plan::OutOfPlan;
use crate::multi::guide::packing::{PackScore, Packing};
use crate::multi::table::NodeId;

/// What a goal filled in plan order is worth, in pushes, in the score.
const PACKED_BONUS: u64 = 32;

/// Which of a cell's nodes a search led by an order takes first, of those
/// whose paths cost the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum CellOrder {
    /// The better packing score: the bound, the next box's pushes and the
    /// goals not packed, the nearer boxes first.
    #[default]
    NearFirst,
    /// Festival's order of a node's children: the most goals packed, then
    /// the *larger* bound (boxes out of the way of the goals still to fill).
    FarFirst,
    /// Both over one table: an open list for each, taken from in turn.
    Both,
}

/// Per node, its measure against the packing order.
#[derive(Default)]
pub(super) struct Advice {
    /// False when the order says little (see [`Packing::ordered`]): then
    /// cells are the areas alone and the key is greedy.
    ordered: bool,
    /// Following an order, which of a cell's nodes come first.
    order: CellOrder,
    /// Goals not packed in plan order (high half) and the pushes of the
    /// next box to its goal (low half).
    score: Vec<u32>,
    /// The best its path has done, lower better: the most goals packed in
    /// plan order (high half), then the fewest areas there (low half).
    best: Vec<u32>,
    /// The areas the node's boxes cut the floor into.
    areas: Vec<u16>,
    /// The plan search: the fewest targets left unpacked by any node so
    /// far, and the nodes generated when it was first seen.
    fewest_unpacked: Option<(u32, u64)>,
    /// The plan search: per node, the phase its path has reached (see
    /// [`Packing::path_phase`]).
    plan_phase: Vec<u16>,
    /// The order's out-of-plan zones, where the search counts the boxes
    /// in them (see [`OutOfPlan`]).
    pub out_of_plan: Option<OutOfPlan>,
}

impl Advice {
    /// The advice of `packing`, its cells' nodes taken in `order`; with
    /// `out_of_plan`, a cell also counts the boxes out of plan.
    pub fn new(board: &Board, packing: &Packing, order: CellOrder, out_of_plan: bool) -> Advice {
        let ordered = packing.ordered();
        Advice {
            ordered,
            order,
            out_of_plan: (ordered && out_of_plan).then(|| OutOfPlan::new(board, packing)),
            ..Advice::default()
        }
    }

    /// The boxes among `boxes` out of plan with `packed` targets packed
    /// (0 where the search does not count them).
    pub fn out_of_plan(&self, packed: u32, boxes: &[Cell]) -> u32 {
        self.out_of_plan
            .as_ref()
            .map_or(0, |o| o.count(packed, boxes))
    }

    /// True when the search follows the order as FESS does.
    pub fn ordered(&self) -> bool {
        self.ordered
    }

    /// True when the search keeps a second open list, far first (see
    /// [`Advice::second_key`]).
    pub fn two_orders(&self) -> bool {
        self.ordered && self.order == CellOrder::Both
    }

    /// True when `node` has not been measured yet.
    pub fn is_new(&self, node: NodeId) -> bool {
        node.index() >= self.score.len()
    }

    /// Measures a new node (reached from `parent`); `goals` is the level's
    /// goal count. Returns its cell.
    pub fn record(
        &mut self,
        node: NodeId,
        parent: Option<NodeId>,
        score: PackScore,
        goals: u32,
        areas: u32,
        out_of_plan: u32,
    ) -> u32 {
        let u = node.index();
        self.score.resize(u + 1, 0);
        self.best.resize(u + 1, 0);
        self.areas.resize(u + 1, 0);
        self.score[u] = (goals - score.packed) << 16 | score.next.min(0xFFFF);
        self.areas[u] = areas.min(0xFFFF) as u16;
        // Lower is further along: most packed first, then fewest areas,
        // then fewest boxes out of plan.
        let own = (0xFFFF - score.packed.min(0xFFFF)) << 16
            | areas.min(0xFF) << 8
            | out_of_plan.min(0xFF);
        self.best[u] = parent.map_or(own, |p| self.best[p.index()].min(own));
        if !self.ordered {
            return areas;
        }
        self.best[u]
    }

    /// The goals `node` leaves unpacked in plan order (0 before it is
    /// measured).
    pub fn unpacked(&self, node: NodeId) -> u32 {
        self.score.get(node.index()).map_or(0, |s| s >> 16)
    }

    /// The areas `node`'s boxes cut the floor into (0 before it is
    /// measured).
    pub fn areas(&self, node: NodeId) -> u32 {
        self.areas.get(node.index()).map_or(0, |&a| a as u32)
    }

    /// True when the push from `parent` to `node` joined areas of the floor
    /// (so costs nothing).
    pub fn joins_areas(&self, node: NodeId, parent: Option<NodeId>) -> bool {
        self.ordered && parent.is_some_and(|p| self.areas[node.index()] < self.areas[p.index()])
    }

    /// The frontier key inside a cell: the path's cost `g`, then the score
    /// (twice the bound `h`, the next box's pushes, and the goals not packed);
    /// far first ([`CellOrder::FarFirst`]), the cost, then the goals not
    /// packed, then the *larger* bound.
    pub fn key(&self, node: NodeId, g: u64, h: u64) -> (u64, u64) {
        self.key_in(node, g, h, self.order == CellOrder::FarFirst)
    }

    /// With [`CellOrder::Both`], the node's key in the second open list
    /// (far first); `None` for a search of one list.
    pub fn second_key(&self, node: NodeId, g: u64, h: u64) -> Option<(u64, u64)> {
        self.two_orders().then(|| self.key_in(node, g, h, true))
    }

    fn key_in(&self, node: NodeId, g: u64, h: u64, far_first: bool) -> (u64, u64) {
        let score = self.score.get(node.index()).copied().unwrap_or(0) as u64;
        let (unpacked, next) = (score >> 16, score & 0xFFFF);
        let score = 2 * h + next + PACKED_BONUS * unpacked;
        match (self.ordered, far_first) {
            (true, true) => (g, unpacked << 16 | (0xFFFF - h.min(0xFFFF))),
            (true, false) => (g, score),
            (false, _) => (g + score, h),
        }
    }

    /// [`Method::Plan`]: measures a new node by the goals it leaves
    /// unpacked and the price of its pushed box (see [`Packing::plan_score_at`]),
    /// `generated` nodes into the search.
    ///
    /// [`Method::Plan`]: crate::multi::options::Method::Plan
    pub fn record_plan(
        &mut self,
        node: NodeId,
        phase: usize,
        unpacked: u32,
        price: u32,
        generated: u64,
    ) {
        if self
            .fewest_unpacked
            .is_none_or(|(fewest, _)| unpacked < fewest)
        {
            self.fewest_unpacked = Some((unpacked, generated));
        }
        let u = node.index();
        self.score.resize(u + 1, 0);
        self.score[u] = PACKED_BONUS as u32 * unpacked + price;
        self.plan_phase.resize(u + 1, 0);
        self.plan_phase[u] = phase.min(usize::from(u16::MAX)) as u16;
    }

    /// [`Method::Plan`]: the phase `node`'s path has reached (0 before it
    /// is measured).
    ///
    /// [`Method::Plan`]: crate::multi::options::Method::Plan
    pub fn plan_phase(&self, node: NodeId) -> usize {
        self.plan_phase
            .get(node.index())
            .map_or(0, |&k| usize::from(k))
    }

    /// [`Method::Plan`]: the nodes generated when a node first left fewer
    /// targets unpacked than any before it (0 before the first node).
    ///
    /// [`Method::Plan`]: crate::multi::options::Method::Plan
    pub fn last_plan_gain(&self) -> u64 {
        self.fewest_unpacked.map_or(0, |(_, generated)| generated)
    }

    /// [`Method::Plan`]'s key: the pushes off the plan `g` and the score,
    /// in one (the frontier keeps the newest first among equals).
    ///
    /// [`Method::Plan`]: crate::multi::options::Method::Plan
    pub fn plan_key(&self, node: NodeId, g: u64) -> (u64, u64) {
        let score = self.score.get(node.index()).copied().unwrap_or(0) as u64;
        (g + score, 0)
    }

    pub fn memory_bytes(&self) -> usize {
        (self.score.capacity() + self.best.capacity()) * 4
            + (self.areas.capacity() + self.plan_phase.capacity()) * 2
            + self.out_of_plan.as_ref().map_or(0, OutOfPlan::memory_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::table::test_ids as ids;

    /// Advice for a search that follows an order.
    fn ordered() -> Advice {
        Advice {
            ordered: true,
            ..Advice::default()
        }
    }

    fn score(packed: u32, next: u32) -> PackScore {
        PackScore { packed, next }
    }

    #[test]
    fn a_node_keeps_the_best_packing_of_its_path() {
        let id = ids(3);
        let mut advice = ordered();
        let root = advice.record(id[0], None, score(2, 5), 10, 3, 0);
        // A box lifted off a goal: the child stays in its parent's cell,
        // fewer areas or not.
        let lifted = advice.record(id[1], Some(id[0]), score(1, 2), 10, 2, 0);
        assert_eq!(lifted, root);
        assert!(advice.joins_areas(id[1], Some(id[0])));
        // One more goal packed: a cell further along, whatever its areas.
        let packed = advice.record(id[2], Some(id[1]), score(3, 4), 10, 5, 0);
        assert!(packed < lifted);
        assert!(!advice.joins_areas(id[2], Some(id[1])));
        // Inside a cell the path's cost comes first, then the score.
        assert!(advice.key(id[0], 1, 50) > advice.key(id[1], 0, 90));
        assert!(advice.key(id[2], 1, 4) < advice.key(id[1], 1, 4));
        assert!(advice.key(id[1], 1, 4) < advice.key(id[1], 1, 9));
        assert_eq!(advice.second_key(id[1], 1, 4), None);
        // Far first: the goals packed, then the boxes farther off.
        advice.order = CellOrder::FarFirst;
        assert!(advice.key(id[0], 1, 50) > advice.key(id[1], 0, 90));
        assert!(advice.key(id[1], 1, 9) < advice.key(id[1], 1, 4));
        assert!(advice.key(id[2], 1, 4) < advice.key(id[1], 1, 9));
        let far = advice.key(id[1], 1, 9);
        // Both: near first in the first list, far first in the second.
        advice.order = CellOrder::Both;
        assert!(advice.key(id[1], 1, 4) < advice.key(id[1], 1, 9));
        assert_eq!(advice.second_key(id[1], 1, 9), Some(far));
    }

    #[test]
    fn a_node_keeps_the_fewest_areas_where_its_path_packed_the_most() {
        let id = ids(4);
        let mut advice = ordered();
        let root = advice.record(id[0], None, score(2, 5), 10, 3, 0);
        // The floor cut up further: the child stays where its parent was.
        let worse = advice.record(id[1], Some(id[0]), score(2, 4), 10, 5, 0);
        assert_eq!(worse, root);
        // Fewer areas than any before, as many goals packed: a cell further on.
        let better = advice.record(id[2], Some(id[1]), score(2, 4), 10, 2, 0);
        assert!(better < root && better >> 16 == root >> 16);
        // One more goal packed: its own areas, more of them or not.
        let packed = advice.record(id[3], Some(id[2]), score(3, 4), 10, 6, 0);
        assert!(packed < better);
        assert_eq!(packed >> 8 & 0xFF, 6);
    }

    #[test]
    fn boxes_out_of_plan_come_after_the_areas_in_a_cell() {
        let id = ids(3);
        let mut advice = ordered();
        let root = advice.record(id[0], None, score(2, 5), 10, 3, 2);
        // One box out of plan fewer: a cell further on.
        let cleared = advice.record(id[1], Some(id[0]), score(2, 5), 10, 3, 1);
        assert!(cleared < root && cleared >> 8 == root >> 8);
        // Fewer areas count first, however many boxes are out of plan.
        let joined = advice.record(id[2], Some(id[1]), score(2, 5), 10, 2, 4);
        assert!(joined < cleared && joined & 0xFF == 4);
    }

    #[test]
    fn without_an_order_the_cells_are_the_areas_and_the_key_is_greedy() {
        let id = ids(2);
        let mut advice = Advice::default();
        assert_eq!(advice.record(id[0], None, score(2, 5), 10, 3, 0), 3);
        assert_eq!(advice.record(id[1], Some(id[0]), score(1, 2), 10, 2, 0), 2);
        assert!(!advice.joins_areas(id[1], Some(id[0])));
        // g + 2h + next + 32 * unpacked, then h.
        assert_eq!(advice.key(id[1], 3, 4), (3 + 8 + 2 + 32 * 9, 4));
        // One list, whatever the order asked for.
        advice.order = CellOrder::Both;
        assert_eq!(advice.second_key(id[1], 3, 4), None);
    }
}
