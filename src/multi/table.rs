//! The search's nodes and its transposition table.
//!
//! Nodes live in flat columns (one vector per field, keys back to back),
//! so a node costs a few dozen bytes and no allocation. The table is open
//! addressing over node numbers: the Zobrist hash finds the slot, and a hit
//! counts only when the whole key (box set and normalized player) is equal,
//! so a hash collision can never merge two positions.

use super::board::Cell;

/// A node's number in [`Nodes`], in the order nodes were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct NodeId(u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What the push that made a node stores: the cell the pushed box left,
/// a direction code and a count (see `search::push` for their meaning).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StoredPush {
    pub from: Cell,
    pub code: u8,
    pub len: u16,
}

impl Default for StoredPush {
    /// The start's (it has no push; cell 0 is the start player's).
    fn default() -> StoredPush {
        StoredPush {
            from: Cell::new(0),
            code: 0,
            len: 0,
        }
    }
}

/// The parent column's mark for the root (kept as a plain `u32` column, so
/// a node costs four bytes for it; [`Nodes::parent`] gives an `Option`).
const NO_PARENT: u32 = u32::MAX;

/// One node's key: its sorted box cells and its normalized player cell.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key<'a> {
    pub boxes: &'a [Cell],
    pub player: Cell,
    pub hash: u64,
}

/// Nodes a search may add between two limit checks (256 expansions of up
/// to a hundred children each, with room to spare).
const GROWTH_HEADROOM: usize = 1 << 15;

/// Marks a free table slot.
const FREE: u64 = u64::MAX;

/// A slot holds the node number and the top half of its hash, so most
/// mismatches are seen without touching the node's own data.
fn slot_of(node: u32, hash: u64) -> u64 {
    (hash & 0xFFFF_FFFF_0000_0000) | node as u64
}

/// All nodes of a search, with parent links for rebuilding the path.
#[derive(Clone, Debug)]
pub(crate) struct Nodes {
    width: usize,
    /// Per node, its box cells then its player cell: a lookup compares one run of memory.
    keys: Vec<Cell>,
    pub hash: Vec<u64>,
    /// Pushes from the start.
    pub g: Vec<u32>,
    /// The lower bound of pushes left.
    pub h: Vec<u32>,
    parent: Vec<u32>,
    /// The cell the pushed box left (where the player stands after the push).
    pushed_from: Vec<Cell>,
    pushed_code: Vec<u8>,
    pushed_len: Vec<u16>,
    pub closed: Vec<bool>,
    slots: Vec<u64>,
}

impl Nodes {
    pub fn new(boxes_per_node: usize) -> Nodes {
        Nodes {
            width: boxes_per_node,
            keys: Vec::new(),
            hash: Vec::new(),
            g: Vec::new(),
            h: Vec::new(),
            parent: Vec::new(),
            pushed_from: Vec::new(),
            pushed_code: Vec::new(),
            pushed_len: Vec::new(),
            closed: Vec::new(),
            slots: vec![FREE; 1024],
        }
    }

    pub fn len(&self) -> usize {
        self.hash.len()
    }

    /// Every node made so far, oldest first.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.len() as u32).map(NodeId)
    }

    pub fn boxes(&self, node: NodeId) -> &[Cell] {
        let i = node.index() * (self.width + 1);
        &self.keys[i..i + self.width]
    }

    pub fn player(&self, node: NodeId) -> Cell {
        self.keys[node.index() * (self.width + 1) + self.width]
    }

    /// The node this one was reached from; `None` for the start.
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        let p = self.parent[node.index()];
        (p != NO_PARENT).then_some(NodeId(p))
    }

    pub fn set_parent(&mut self, node: NodeId, parent: NodeId) {
        self.parent[node.index()] = parent.0;
    }

    /// The push that made `node` (the start's is the default).
    pub fn push(&self, node: NodeId) -> StoredPush {
        let u = node.index();
        StoredPush {
            from: self.pushed_from[u],
            code: self.pushed_code[u],
            len: self.pushed_len[u],
        }
    }

    pub fn set_push(&mut self, node: NodeId, push: StoredPush) {
        let u = node.index();
        self.pushed_from[u] = push.from;
        self.pushed_code[u] = push.code;
        self.pushed_len[u] = push.len;
    }

    /// The node with this key, if there is one.
    pub fn find(&self, key: &Key) -> Option<NodeId> {
        let mask = self.slots.len() - 1;
        let mut slot = key.hash as usize & mask;
        let tag = key.hash & 0xFFFF_FFFF_0000_0000;
        loop {
            let entry = self.slots[slot];
            if entry == FREE {
                return None;
            }
            let node = entry as u32;
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let i = node as usize * (self.width + 1);
                let stored = &self.keys[i..i + self.width + 1];
                if stored[self.width] == key.player && &stored[..self.width] == key.boxes {
                    return Some(NodeId(node));
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Adds a node (the caller has checked that its key is new), reached
    /// from `parent` by `push`.
    pub fn insert(
        &mut self,
        key: &Key,
        g: u32,
        h: u32,
        parent: Option<NodeId>,
        push: StoredPush,
    ) -> NodeId {
        let node = self.len() as u32;
        self.keys.extend_from_slice(key.boxes);
        self.keys.push(key.player);
        self.hash.push(key.hash);
        self.g.push(g);
        self.h.push(h);
        self.parent.push(parent.map_or(NO_PARENT, |p| p.0));
        self.pushed_from.push(push.from);
        self.pushed_code.push(push.code);
        self.pushed_len.push(push.len);
        self.closed.push(false);
        if self.len() * 2 > self.slots.len() {
            self.grow();
        } else {
            self.place(node);
        }
        NodeId(node)
    }

    fn place(&mut self, node: u32) {
        let mask = self.slots.len() - 1;
        let hash = self.hash[node as usize];
        let mut slot = hash as usize & mask;
        while self.slots[slot] != FREE {
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = slot_of(node, hash);
    }

    fn grow(&mut self) {
        self.slots = vec![FREE; self.slots.len() * 2];
        for node in 0..self.len() as u32 {
            self.place(node);
        }
    }

    /// Bytes held, for the memory limit and `--stats`. The table doubles
    /// when half full and holds its old slots and the new ones for a moment:
    /// once that can happen before the next limit check, those bytes count
    /// already, so a limit stops the search before the jump, not after it.
    pub fn memory_bytes(&self) -> usize {
        let slots = self.slots.len() * 8;
        let growing = (self.len() + GROWTH_HEADROOM) * 2 > self.slots.len();
        self.keys.capacity() * 2
            + self.len() * (8 + 4 + 4 + 4 + 2 + 1 + 2 + 1)
            + if growing { 3 * slots } else { slots }
    }
}

/// `n` node numbers as a table gives them (one-box nodes), for tests of
/// what is kept per node.
#[cfg(test)]
pub(crate) fn test_ids(n: u16) -> Vec<NodeId> {
    let mut nodes = Nodes::new(1);
    (0..n)
        .map(|i| {
            let key = Key {
                boxes: &[Cell::from_bits(i)],
                player: Cell::new(0),
                hash: i as u64,
            };
            nodes.insert(&key, 0, 0, None, StoredPush::default())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells<const N: usize>(numbers: [u16; N]) -> [Cell; N] {
        numbers.map(Cell::from_bits)
    }

    #[test]
    fn equal_hashes_do_not_merge_different_positions() {
        let mut nodes = Nodes::new(2);
        let a = Key {
            boxes: &cells([1, 2]),
            player: Cell::new(0),
            hash: 42,
        };
        let b = Key {
            boxes: &cells([1, 3]),
            player: Cell::new(0),
            hash: 42,
        };
        let c = Key {
            boxes: &cells([1, 2]),
            player: Cell::new(5),
            hash: 42,
        };
        let na = nodes.insert(&a, 0, 0, None, StoredPush::default());
        assert_eq!(nodes.find(&b), None);
        assert_eq!(nodes.find(&c), None);
        let nb = nodes.insert(&b, 1, 0, Some(na), StoredPush::default());
        assert_eq!((nodes.parent(na), nodes.parent(nb)), (None, Some(na)));
        assert_eq!(nodes.find(&a), Some(na));
        assert_eq!(nodes.find(&b), Some(nb));
        // Many keys on few hash values, through several table growths.
        let mut made = Vec::new();
        for i in 10..5000u16 {
            let boxes = cells([i, i + 1]);
            let k = Key {
                boxes: &boxes,
                player: Cell::new(0),
                hash: i as u64 % 7,
            };
            assert_eq!(nodes.find(&k), None);
            made.push((i, nodes.insert(&k, 0, 0, Some(na), StoredPush::default())));
        }
        for (i, node) in made {
            let boxes = cells([i, i + 1]);
            let k = Key {
                boxes: &boxes,
                player: Cell::new(0),
                hash: i as u64 % 7,
            };
            assert_eq!(nodes.find(&k), Some(node));
        }
        assert_eq!(nodes.find(&a), Some(na));
    }

    #[test]
    fn the_estimate_counts_a_doubling_before_it_happens() {
        let mut nodes = Nodes::new(1);
        let mut doublings = 0;
        for i in 0..200_000u32 {
            let before = nodes.memory_bytes();
            let slots = nodes.slots.len();
            let boxes = cells([i as u16]);
            let key = Key {
                boxes: &boxes,
                player: Cell::from_bits((i >> 16) as u16),
                hash: (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            };
            nodes.insert(&key, 0, 0, None, StoredPush::default());
            if nodes.slots.len() > slots {
                doublings += 1;
                // Old and new slots were both held for a moment.
                let peak = (slots + nodes.slots.len()) * 8;
                assert!(before >= peak, "{before} < {peak} at node {i}");
            }
        }
        // The headroom did not hide the first doublings.
        assert!(doublings >= 4);
    }
}
