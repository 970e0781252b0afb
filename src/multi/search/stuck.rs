//! Subtrees that keep the search busy, searched for the knot that holds them.
//!
//! A non-optimal search can pour most of its nodes into the subtree of one
//! early push that was already fatal: the boxes it shoved have no way out,
//! but each position below still has pushes to try, and no freeze or corral
//! test sees the knot. So each node counts the expansions in its subtree,
//! and when they reach [`STUCK_SUBTREE`] the boxes that hold its position
//! fast (the others, free to move, taken away) are searched alone on a
//! bigger budget ([`Patterns::learn_stuck`]). When they are dead, so is
//! the node: every position below it is reached from it, so none is
//! expanded again, and the knot is kept as a pattern for the rest of the
//! tree.
//!
//! [`Patterns::learn_stuck`]: crate::multi::deadlock::learned::Patterns::learn_stuck

use super::Search;
use crate::multi::table::NodeId;

/// Expansions in a node's subtree at which its position is searched.
const STUCK_SUBTREE: u32 = 64;

/// Marks a node proven dead in [`Subtrees`]' counts.
const DEAD: u32 = u32::MAX;

/// Per node, the expansions in its subtree so far, or [`DEAD`].
#[derive(Default)]
pub(super) struct Subtrees {
    counts: Vec<u32>,
}

impl Subtrees {
    pub fn memory_bytes(&self) -> usize {
        self.counts.capacity() * 4
    }
}

impl Search<'_> {
    /// Counts the expansion of `node` in its own subtree and its ancestors',
    /// searching the position of any that reaches [`STUCK_SUBTREE`]. True
    /// when `node` or an ancestor is proven dead: it is not to be expanded.
    pub(super) fn in_dead_subtree(&mut self, node: NodeId) -> bool {
        let Some(mut subtrees) = self.subtrees.take() else {
            return false;
        };
        let counts = &mut subtrees.counts;
        if counts.len() < self.nodes.len() {
            counts.resize(self.nodes.len(), 0);
        }
        let mut at = Some(node);
        let mut dead = false;
        while let Some(a) = at {
            let count = &mut counts[a.index()];
            if *count == DEAD {
                dead = true;
                break;
            }
            *count += 1;
            if *count == STUCK_SUBTREE && self.holds_knot(a) {
                counts[a.index()] = DEAD;
                dead = true;
                break;
            }
            at = self.nodes.parent(a);
        }
        self.subtrees = Some(subtrees);
        dead
    }

    /// True when the boxes holding `node`'s position fast are dead alone.
    fn holds_knot(&mut self, node: NodeId) -> bool {
        let boxes = self.nodes.boxes(node).to_vec();
        let player = self.nodes.player(node);
        let prune = &mut self.prune;
        prune
            .patterns
            .learn_stuck(self.board, &mut prune.subset, &boxes, player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::multi::board::Board;
    use crate::multi::options::Method;
    use crate::multi::search::Config;
    use crate::multi::testing::SEALED;

    #[test]
    fn a_busy_node_whose_boxes_hold_a_dead_seal_is_not_expanded_again() {
        // The seal is dead; the four boxes above it are free.
        let text = SEALED;
        let level = parse_xsb(text.as_bytes(), 1000).unwrap().remove(0);
        let board = Board::new(&level).unwrap();
        let config = Config {
            method: Method::Greedy,
            ..Config::plain()
        };
        let mut s = Search::new(&board, config);
        assert!(s.subtrees.is_some(), "a non-optimal search counts subtrees");
        assert!(s.queue_root());
        let root = s.nodes.ids().next().unwrap();
        for _ in 1..STUCK_SUBTREE {
            assert!(!s.in_dead_subtree(root));
        }
        // The count reaches the mark: the seal is searched, and dead.
        assert!(s.in_dead_subtree(root));
        assert_eq!(s.prune.patterns.len(), 1);
        assert!(s.in_dead_subtree(root), "a dead node stays dead");
        // The push-optimal search keeps no counts.
        assert!(Search::new(&board, Config::plain()).subtrees.is_none());
    }
}
