//! The open lists: the order in which each method expands nodes.
//!
//! Entries are never removed when a node gets a better key: the node is
//! pushed again and the stale entry skipped when popped (lazy deletion).

use crate::multi::options::Method;
use crate::multi::table::NodeId;
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The open list in the shape each method needs.
pub(super) enum Frontier {
    /// Best first on a packed key (lower first), ties by node number.
    Heap(BinaryHeap<Reverse<(u64, NodeId)>>),
    Queue(VecDeque<NodeId>),
    Stack(Vec<NodeId>),
    /// One heap per feature cell, the cells popped from in turn.
    Cells(FeatureCells),
    /// Two of those over the same nodes, each ranking a cell's nodes its
    /// own way, popped from in turn (the flag: the first pops next). The
    /// first keeps the nodes' features for both.
    TwoOrders(Box<[FeatureCells; 2]>, bool),
    /// One stack per score, the best score's newest node first.
    Buckets(ScoreBuckets),
}

/// Picks in this many go to the rover of [`ScoreBuckets`].
const ROVER_EVERY: u64 = 8;

/// The open list of [`Method::Plan`], laid out as YASS's: per score (the
/// key's high half) a stack, the best score popped first, its newest node
/// first, so the search dives along pushes no worse than the last; one pick
/// in [`ROVER_EVERY`] goes instead to a rover that walks up through the
/// worse scores in turn, so a plan that leads astray is not followed alone.
#[derive(Default)]
pub(super) struct ScoreBuckets {
    stacks: Vec<Vec<(u64, NodeId)>>,
    /// No stack below this one holds a node.
    least: usize,
    /// The score the rover takes from next.
    rover: usize,
    picks: u64,
    len: usize,
}

impl ScoreBuckets {
    /// Scores past this share the last stack.
    const MAX_SCORE: usize = 1 << 20;

    fn push(&mut self, key: u64, node: NodeId) {
        let at = ((key >> 32) as usize).min(Self::MAX_SCORE);
        if at >= self.stacks.len() {
            self.stacks.resize_with(at + 1, Vec::new);
        }
        self.stacks[at].push((key, node));
        self.least = self.least.min(at);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u64, NodeId)> {
        if self.len == 0 {
            return None;
        }
        while self.stacks[self.least].is_empty() {
            self.least += 1;
        }
        self.picks += 1;
        let mut at = self.least;
        if self.picks.is_multiple_of(ROVER_EVERY) {
            self.rover = self.rover.max(self.least + 1);
            while self.rover < self.stacks.len() && self.stacks[self.rover].is_empty() {
                self.rover += 1;
            }
            if self.rover < self.stacks.len() {
                at = self.rover;
                self.rover += 1;
            } else {
                self.rover = 0;
            }
        }
        self.len -= 1;
        self.stacks[at].pop()
    }
}

/// The open list of the feature searches: per feature value a heap like
/// [`Frontier::Heap`]'s, and a round-robin over the values met so far.
#[derive(Default)]
pub(super) struct FeatureCells {
    slot: HashMap<u32, usize>,
    heaps: Vec<BinaryHeap<Reverse<(u64, NodeId)>>>,
    /// Per heap, its feature value.
    values: Vec<u32>,
    cursor: usize,
    /// When set, every other pop is from the cell of least feature value.
    favour_least: bool,
    turn: bool,
    len: usize,
    /// Per node, its feature value, worked out when first queued.
    feature: Vec<u32>,
}

impl FeatureCells {
    fn push(&mut self, key: u64, node: NodeId) {
        self.push_in(self.feature[node.index()], key, node);
    }

    /// Queues `node` in the cell of `feature` (a node's feature kept
    /// elsewhere: see [`Frontier::TwoOrders`]).
    fn push_in(&mut self, feature: u32, key: u64, node: NodeId) {
        let next = self.heaps.len();
        let at = *self.slot.entry(feature).or_insert(next);
        if at == next {
            self.heaps.push(BinaryHeap::new());
            self.values.push(feature);
        }
        self.heaps[at].push(Reverse((key, node)));
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u64, NodeId)> {
        if self.len == 0 {
            return None;
        }
        self.turn = !self.turn;
        if self.favour_least && self.turn {
            let least = (0..self.heaps.len())
                .filter(|&i| !self.heaps[i].is_empty())
                .min_by_key(|&i| self.values[i]);
            if let Some(Reverse(e)) = least.and_then(|i| self.heaps[i].pop()) {
                self.len -= 1;
                return Some(e);
            }
        }
        loop {
            let at = self.cursor % self.heaps.len();
            self.cursor = at + 1;
            if let Some(Reverse(e)) = self.heaps[at].pop() {
                self.len -= 1;
                return Some(e);
            }
        }
    }
}

impl Frontier {
    /// [`Frontier::Cells`] twice: [`Frontier::push`] queues in the first,
    /// [`Frontier::push_second`] in the second, and pops alternate, the
    /// second list first (either list falls back on the other when empty).
    pub fn two_orders() -> Frontier {
        Frontier::TwoOrders(Box::default(), false)
    }

    pub fn for_method(method: Method) -> Frontier {
        match method {
            Method::AStar | Method::Ucs | Method::Greedy => Frontier::Heap(BinaryHeap::new()),
            Method::Features | Method::BoxMoves | Method::Packing => {
                Frontier::Cells(FeatureCells::default())
            }
            Method::Plan => Frontier::Buckets(ScoreBuckets::default()),
            Method::Bfs => Frontier::Queue(VecDeque::new()),
            Method::Dfs => Frontier::Stack(Vec::new()),
        }
    }

    /// True when popped keys must match the node's current key (the others
    /// pop nodes in the order pushed, and a stale entry is only a closed node).
    pub fn keyed(&self) -> bool {
        matches!(
            self,
            Frontier::Heap(_) | Frontier::Cells(_) | Frontier::TwoOrders(..) | Frontier::Buckets(_)
        )
    }

    /// From now on every other pop is from the cell of least feature value.
    pub fn favour_least(&mut self) {
        match self {
            Frontier::Cells(c) => c.favour_least = true,
            Frontier::TwoOrders(lists, _) => lists.iter_mut().for_each(|c| c.favour_least = true),
            _ => {}
        }
    }

    /// True when `node` must be given its feature ([`Frontier::set_feature`])
    /// before it is pushed.
    pub fn needs_feature(&self, node: NodeId) -> bool {
        match self {
            Frontier::Cells(c) => node.index() >= c.feature.len(),
            Frontier::TwoOrders(lists, _) => node.index() >= lists[0].feature.len(),
            _ => false,
        }
    }

    pub fn set_feature(&mut self, node: NodeId, feature: u32) {
        let c = match self {
            Frontier::Cells(c) => c,
            Frontier::TwoOrders(lists, _) => &mut lists[0],
            _ => return,
        };
        c.feature.resize(node.index() + 1, 0);
        c.feature[node.index()] = feature;
    }

    pub fn push(&mut self, key: u64, node: NodeId) {
        match self {
            Frontier::Heap(h) => h.push(Reverse((key, node))),
            Frontier::Queue(q) => q.push_back(node),
            Frontier::Stack(s) => s.push(node),
            Frontier::Cells(c) => c.push(key, node),
            Frontier::TwoOrders(lists, _) => lists[0].push(key, node),
            Frontier::Buckets(b) => b.push(key, node),
        }
    }

    /// Queues `node` by its key in the second order of
    /// [`Frontier::TwoOrders`] (the other lists have one order).
    pub fn push_second(&mut self, key: u64, node: NodeId) {
        if let Frontier::TwoOrders(lists, _) = self {
            let feature = lists[0].feature[node.index()];
            lists[1].push_in(feature, key, node);
        }
    }

    pub fn pop(&mut self) -> Option<(u64, NodeId)> {
        match self {
            Frontier::Heap(h) => h.pop().map(|Reverse(e)| e),
            Frontier::Queue(q) => q.pop_front().map(|n| (0, n)),
            Frontier::Stack(s) => s.pop().map(|n| (0, n)),
            Frontier::Cells(c) => c.pop(),
            Frontier::TwoOrders(lists, first_next) => {
                let now = usize::from(!*first_next);
                *first_next = !*first_next;
                lists[now].pop().or_else(|| lists[1 - now].pop())
            }
            Frontier::Buckets(b) => b.pop(),
        }
    }

    /// Bytes held, for the memory limit (16 an entry, and what indexes them).
    pub fn memory_bytes(&self) -> usize {
        let (len, index) = match self {
            Frontier::Heap(h) => (h.len(), 0),
            Frontier::Queue(q) => (q.len(), 0),
            Frontier::Stack(s) => (s.len(), 0),
            Frontier::Cells(c) => (c.len, c.feature.capacity() * 4),
            Frontier::TwoOrders(lists, _) => {
                (lists[0].len + lists[1].len, lists[0].feature.capacity() * 4)
            }
            Frontier::Buckets(b) => (b.len, b.stacks.capacity() * size_of::<Vec<(u64, NodeId)>>()),
        };
        len * 16 + index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::table::test_ids;

    #[test]
    fn feature_cells_take_turns_and_keep_order_inside_a_cell() {
        // Node numbers come from a table, as in the search.
        let ids = test_ids(15);
        let mut cells = Frontier::for_method(Method::Features);
        for (feature, key, node) in [(1, 5, 10), (1, 3, 11), (2, 9, 12), (1, 4, 13), (7, 1, 14)] {
            assert!(cells.needs_feature(ids[node]));
            cells.set_feature(ids[node], feature);
            cells.push(key, ids[node]);
        }
        let order: Vec<usize> = std::iter::from_fn(|| cells.pop())
            .map(|(_, n)| n.index())
            .collect();
        // Cells in the order first met (1, 2, 7), each giving its lowest key.
        assert_eq!(order, [11, 12, 14, 13, 10]);
        assert!(cells.pop().is_none());
    }

    #[test]
    fn two_orders_take_turns_over_the_same_nodes() {
        let ids = test_ids(4);
        let mut lists = Frontier::two_orders();
        assert!(lists.keyed());
        // One cell; the first list ranks the nodes 0..4, the second 3..0.
        for (node, key) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
            assert!(lists.needs_feature(ids[node]));
            lists.set_feature(ids[node], 1);
            lists.push(key, ids[node]);
            lists.push_second(10 - key, ids[node]);
        }
        let (keys, nodes): (Vec<u64>, Vec<usize>) = std::iter::from_fn(|| lists.pop())
            .map(|(k, n)| (k, n.index()))
            .unzip();
        // The second list first; every node comes once from each list (the
        // search skips a node already expanded).
        assert_eq!(nodes, [3, 0, 2, 1, 1, 2, 0, 3]);
        assert_eq!(keys, [6, 1, 7, 2, 8, 3, 9, 4]);
        // A list left empty gives its turn to the other.
        lists.push(5, ids[0]);
        assert_eq!(lists.pop(), Some((5, ids[0])));
        assert_eq!(lists.pop(), None);
    }

    #[test]
    fn score_buckets_take_the_newest_of_the_best_and_rove_one_pick_in_eight() {
        let ids = test_ids(12);
        let mut buckets = Frontier::for_method(Method::Plan);
        assert!(!buckets.needs_feature(ids[0]));
        // Ten nodes of score 1, then one of score 7 and one of score 4.
        for &node in &ids[..10] {
            buckets.push(1 << 32, node);
        }
        buckets.push(7 << 32, ids[10]);
        buckets.push(4 << 32, ids[11]);
        let order: Vec<usize> = std::iter::from_fn(|| buckets.pop())
            .map(|(_, n)| n.index())
            .collect();
        // Score 1 newest first; the 8th pick roves to the next worse score
        // (4), the 16th would go on to 7, but score 1 empties first.
        assert_eq!(order, [9, 8, 7, 6, 5, 4, 3, 11, 2, 1, 0, 10]);
        assert!(buckets.pop().is_none());
    }

    #[test]
    fn favouring_the_least_cell_takes_every_other_turn() {
        let ids = test_ids(6);
        let mut cells = Frontier::for_method(Method::Packing);
        cells.favour_least();
        for (feature, node) in [(5, 0), (5, 1), (9, 2), (9, 3), (1, 4), (1, 5)] {
            cells.set_feature(ids[node], feature);
            cells.push(node as u64, ids[node]);
        }
        let order: Vec<usize> = std::iter::from_fn(|| cells.pop())
            .map(|(_, n)| n.index())
            .collect();
        // Least cell (1), then the turn (cell 5), least, turn (cell 9), then
        // the least non-empty (cell 5), the turn (cell 9).
        assert_eq!(order, [4, 0, 5, 2, 1, 3]);
    }
}
