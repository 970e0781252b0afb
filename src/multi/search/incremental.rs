//! The matching bound, kept up to date push by push.
//!
//! A child differs from its parent by one box, so its matching is the
//! parent's plus one augmenting path; when boxes freeze on goals, the
//! parent's matching shrinks instead. [`IncrementalBound`] owns everything
//! that hand-off needs: the distance tables per set of boxes frozen on goals,
//! the matcher and the parent's matching, and a cache of recent parents'
//! matchings so that a child expanded long after its parent resumes too.
//! The positions of a box's move, expanded right after they are made, keep
//! the matching their own bound was found with, and start from it.

use super::push::Push;
use crate::multi::board::{Board, Cell, Distance};
use crate::multi::bound::{KeptMatchings, Matcher};
use crate::multi::table::NodeId;
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// Boxes frozen on goals for good, and the push distances to the goals left
/// with those boxes counted as walls: goals they cut off show up as an
/// infinite bound at once.
pub(super) struct Frozen {
    /// The table's number in its search (the matcher's name for it).
    pub id: usize,
    /// Frozen box cells, sorted.
    pub cells: Vec<Cell>,
    /// `distance[g][c]` for the goals not under a frozen box.
    pub distance: Vec<Vec<Distance>>,
}

impl Frozen {
    /// True when `self` holds every box `earlier` held, and more: the
    /// earlier table's matching can be shrunk to this one.
    pub fn grew_from(&self, earlier: &Frozen) -> bool {
        self.cells.len() > earlier.cells.len()
            && earlier
                .cells
                .iter()
                .all(|c| self.cells.binary_search(c).is_ok())
    }

    fn is_frozen(&self, cell: Cell) -> bool {
        self.cells.binary_search(&cell).is_ok()
    }
}

/// How many expanded nodes keep their matching (a few dozen bytes a box
/// each): A* often comes back to a child long after its parent (65,536
/// expand 10-15% more nodes a second than 4,096 on Microban II).
const SAVED_MATCHINGS: usize = 65536;

/// The bound of a search's positions, computed from scratch or from the
/// expanded node's matching.
pub(super) struct IncrementalBound {
    matcher: Matcher,
    /// Scratch: the boxes being matched.
    movable: Vec<Cell>,
    tables: HashMap<Vec<Cell>, Rc<Frozen>>,
    /// The expanded node's boxes not frozen, in its matching order, and
    /// whether the matcher holds their matching.
    parent_movable: Vec<Cell>,
    parent_matched: bool,
    /// Expanded nodes' and kept children's matchings, by node number, each
    /// with its frozen set's table and its movable boxes in matching order.
    saved: KeptMatchings<Rc<Frozen>>,
    /// The row and cell of the moved box when the last child's bound came
    /// from the parent's matching by one augmenting path, for
    /// [`IncrementalBound::keep_child`].
    last_moved: Option<(usize, Cell)>,
}

impl Default for IncrementalBound {
    fn default() -> IncrementalBound {
        IncrementalBound {
            matcher: Matcher::default(),
            movable: Vec::new(),
            tables: HashMap::default(),
            parent_movable: Vec::new(),
            parent_matched: false,
            saved: KeptMatchings::new(SAVED_MATCHINGS),
            last_moved: None,
        }
    }
}

impl IncrementalBound {
    /// The distance table for this set of frozen cells (sorted).
    pub fn table(&mut self, board: &Board, cells: Vec<Cell>) -> Rc<Frozen> {
        if let Some(t) = self.tables.get(&cells) {
            return t.clone();
        }
        let distance = board
            .goals
            .iter()
            .filter(|g| !cells.contains(g))
            .map(|&g| board.pull_distances(g, &cells))
            .collect();
        let table = Rc::new(Frozen {
            id: self.tables.len(),
            cells: cells.clone(),
            distance,
        });
        self.tables.insert(cells, table.clone());
        table
    }

    /// The matching bound of the boxes not frozen, over the goals left,
    /// from scratch; `None` when no matching is finite.
    pub fn bound(&mut self, frozen: &Frozen, boxes: &[Cell]) -> Option<u32> {
        self.movable.clear();
        self.movable
            .extend(boxes.iter().filter(|&&b| !frozen.is_frozen(b)));
        self.matcher
            .bound_with(Some(frozen.id), &frozen.distance, &self.movable)
    }

    /// Starts the expansion of `node` (its boxes `boxes`, its frozen set
    /// `frozen`), made from `parent` by `push`: takes up the node's own
    /// kept matching when there is one (see [`IncrementalBound::keep_child`]),
    /// else resumes the parent's (with the same frozen set, one augmenting
    /// path for the moved box; when boxes froze on goals with the last push,
    /// the parent's matching shrunk).
    pub fn begin_parent(
        &mut self,
        board: &Board,
        (node, parent): (NodeId, Option<NodeId>),
        push: Push,
        frozen: &Rc<Frozen>,
        boxes: &[Cell],
    ) {
        self.parent_movable.clear();
        self.parent_matched = false;
        if let Some((_, movable, matching)) = self
            .saved
            .get(node.index())
            .filter(|(table, ..)| Rc::ptr_eq(table, frozen))
        {
            self.matcher
                .take_up(matching, Some(frozen.id), &frozen.distance, movable);
            self.parent_movable.extend_from_slice(movable);
            self.parent_matched = true;
            return;
        }
        if let Some((table, movable, saved)) = parent.and_then(|p| self.saved.get(p.index()))
            && push.step.is_none()
        {
            if Rc::ptr_eq(table, frozen) {
                let cell = push.end(board);
                if let Some(row) = movable.iter().position(|&b| b == push.from) {
                    self.matcher.resume(
                        saved,
                        Some(frozen.id),
                        &frozen.distance,
                        movable,
                        row,
                        cell,
                    );
                    self.parent_movable.extend_from_slice(movable);
                    self.parent_movable[row] = cell;
                    self.parent_matched = true;
                }
            } else if frozen.grew_from(table) {
                let (table, movable) = (table.clone(), movable.to_vec());
                self.matcher.load(saved);
                self.parent_movable = movable;
                self.parent_matched = true;
                let shrunk = self.shrunk_bound(board, frozen, &table, boxes, push);
                if shrunk.is_some() && self.parent_matched {
                    self.matcher.adopt_shrunk();
                    self.parent_movable.clone_from(&self.movable);
                } else {
                    self.parent_movable.clear();
                    self.parent_matched = false;
                }
            }
        }
        if !self.parent_matched {
            self.parent_movable
                .extend(boxes.iter().filter(|&&b| !frozen.is_frozen(b)));
        }
    }

    /// The bound of a child of the expanded node (whose frozen set is
    /// `parent_table`): from the parent's matching when one box moved to
    /// `moved_to` with the frozen set unchanged, or when boxes froze on
    /// goals; from scratch otherwise.
    pub fn child_bound(
        &mut self,
        board: &Board,
        frozen: &Frozen,
        parent_table: &Frozen,
        boxes: &[Cell],
        push: Push,
        moved_to: Option<Cell>,
    ) -> Option<u32> {
        let row = moved_to.and_then(|_| self.parent_movable.iter().position(|&b| b == push.from));
        self.last_moved = None;
        match (moved_to, row) {
            (Some(cell), Some(row)) => {
                if !self.parent_matched {
                    self.matcher.bound_with(
                        Some(frozen.id),
                        &frozen.distance,
                        &self.parent_movable,
                    );
                    self.parent_matched = true;
                }
                self.last_moved = Some((row, cell));
                self.matcher.bound_moved(&frozen.distance, row, cell)
            }
            (None, _) if push.step.is_none() && frozen.grew_from(parent_table) => {
                if !self.parent_matched {
                    self.matcher.bound_with(
                        Some(parent_table.id),
                        &parent_table.distance,
                        &self.parent_movable,
                    );
                    self.parent_matched = true;
                }
                self.shrunk_bound(board, frozen, parent_table, boxes, push)
            }
            _ => {
                self.parent_matched = false;
                self.bound(frozen, boxes)
            }
        }
    }

    /// Ends the expansion of `node`: keeps its matching, when the matcher
    /// holds it, for its children's expansions.
    pub fn end_parent(&mut self, node: NodeId, frozen: &Rc<Frozen>) {
        if !self.parent_matched {
            return;
        }
        let owner = (node.index(), frozen.clone());
        self.saved.keep(owner, &self.parent_movable, &self.matcher);
    }

    /// Keeps the matching of the child just bounded, now `node`, when it
    /// came from the parent's by one moved box: a box's move expands its
    /// positions at once, and each then starts from its own matching.
    pub fn keep_child(&mut self, node: NodeId, frozen: &Rc<Frozen>) {
        let Some((row, cell)) = self.last_moved.take() else {
            return;
        };
        let owner = (node.index(), frozen.clone());
        self.saved
            .keep_moved(owner, &self.parent_movable, (row, cell), &self.matcher);
    }

    /// The bound of a child whose boxes froze on goals, from the parent's
    /// matching held by the matcher (see [`Matcher::bound_shrunk`]).
    fn shrunk_bound(
        &mut self,
        board: &Board,
        frozen: &Frozen,
        parent_table: &Frozen,
        boxes: &[Cell],
        push: Push,
    ) -> Option<u32> {
        let end = push.end(board);
        self.movable.clear();
        let mut old_row = Vec::with_capacity(boxes.len());
        for &b in boxes {
            if frozen.is_frozen(b) {
                continue;
            }
            self.movable.push(b);
            if b == end {
                old_row.push(None);
            } else if let Some(r) = self.parent_movable.iter().position(|&x| x == b) {
                old_row.push(Some(r));
            } else {
                // Not a box the parent's matching knows: match from scratch.
                self.parent_matched = false;
                return self.bound(frozen, boxes);
            }
        }
        let mut old_col = Vec::with_capacity(self.movable.len());
        let mut column = 0;
        for g in &board.goals {
            if parent_table.is_frozen(*g) {
                continue;
            }
            if !frozen.is_frozen(*g) {
                old_col.push(column);
            }
            column += 1;
        }
        self.matcher
            .bound_shrunk(&frozen.distance, &self.movable, &old_row, &old_col)
    }

    /// Bytes held by the tables and the kept matchings.
    pub fn memory_bytes(&self, board: &Board) -> usize {
        let tables: usize = self
            .tables
            .values()
            .map(|t| t.distance.len() * board.len() * 2)
            .sum();
        tables + self.saved.used() * (board.start_boxes.len() + 1) * 26
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Direction;
    use crate::level::parse_xsb;
    use crate::multi::table::test_ids as ids;

    /// `boxes` with the box on `from` pushed one cell along `dir`, and that push.
    fn pushed(board: &Board, boxes: &[Cell], from: Cell, dir: Direction) -> (Vec<Cell>, Push) {
        let to = board.step(from, dir).unwrap();
        assert!(!boxes.contains(&to));
        let mut after: Vec<Cell> = boxes
            .iter()
            .map(|&b| if b == from { to } else { b })
            .collect();
        after.sort_unstable();
        let push = Push {
            from,
            dir,
            count: 1,
            step: None,
        };
        (after, push)
    }

    #[test]
    fn a_kept_child_starts_from_its_own_matching_with_the_same_bounds() {
        let text = b"#########\n#.  $  .#\n# $ .$  #\n#.   $ @#\n#  $ .  #\n#########";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let mut inc = IncrementalBound::default();
        let mut fresh = IncrementalBound::default();
        let frozen = inc.table(&board, Vec::new());
        let scratch = fresh.table(&board, Vec::new());
        let [root, child, other] = ids(3)[..] else {
            unreachable!()
        };
        let boxes = board.start_boxes.clone();
        let at = |row, col| board.compact(level.grid.cell(row, col));
        let (b, c) = (at(2, 2), at(2, 5));
        let (after, push) = pushed(&board, &boxes, b, Direction::West);
        let end = push.end(&board);
        inc.begin_parent(&board, (root, None), push, &frozen, &boxes);
        let h = inc.child_bound(&board, &frozen, &frozen, &after, push, Some(end));
        assert_eq!(h, fresh.bound(&scratch, &after));
        inc.keep_child(child, &frozen);
        inc.end_parent(root, &frozen);
        // Other work in between: a position with another box moved.
        let (elsewhere, away) = pushed(&board, &boxes, c, Direction::North);
        inc.begin_parent(&board, (other, None), away, &frozen, &elsewhere);
        // The child, with no parent to resume from, starts from its own matching.
        inc.begin_parent(&board, (child, None), push, &frozen, &after);
        assert!(inc.parent_matched);
        // Each of its children is bounded as from scratch.
        for (&from, dir) in after.iter().flat_map(|b| Direction::ALL.map(|d| (b, d))) {
            let Some(to) = board.step(from, dir).filter(|to| !after.contains(to)) else {
                continue;
            };
            let (next, again) = pushed(&board, &after, from, dir);
            let h = inc.child_bound(&board, &frozen, &frozen, &next, again, Some(to));
            assert_eq!(h, fresh.bound(&scratch, &next), "{from:?} {dir:?}");
        }
    }
}
