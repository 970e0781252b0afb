//! Where the player can walk: the expanded node's area, kept marked while
//! its pushes are tried, and floods for the children's normalized player
//! cells and for the feature search's area counts. The positions of a
//! box's move are expanded right after they are made, so each keeps its
//! area from then (the parent's with two cells traded, or the flood that
//! normalized it), and its expansion floods nothing. Counting a child's
//! areas floods only the floor outside its player's area, which is known
//! by then the same two ways.

use crate::multi::board::{Board, Cell};
use crate::multi::rows::{FloorRows, RowArea};

/// Flood marks and scratch, reused for every flood of a search.
pub(super) struct PlayerArea {
    /// The board's rows, when it has them: areas are then row masks, and
    /// floods go a row at a time.
    rows: Option<FloorRows>,
    /// The expanded node's area: one bit a cell (row masks, with rows).
    parent: Vec<u64>,
    /// Cells in the expanded node's area.
    parent_len: usize,
    /// `seen[c] == stamp` marks a cell of the other floods.
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<Cell>,
    /// With rows: the last normalized child's area, the boxes of the
    /// flood, and the scratch of the area counts.
    child: RowArea,
    blocked: Vec<u64>,
    counts: RowArea,
    /// Areas kept for the positions of a box's move, back to back.
    kept: Vec<u64>,
    kept_len: Vec<usize>,
}

/// How a child's area was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChildArea {
    /// The parent's, the box's new cell out and the cell it left in.
    Traded { entered: Cell, left: Cell },
    /// Flooded: the cells are in the queue (with rows, the child area).
    Flooded,
}

impl PlayerArea {
    pub fn new(board: &Board) -> PlayerArea {
        let cells = board.len();
        let words = board.rows.as_ref().map_or(cells.div_ceil(64), |r| r.len());
        PlayerArea {
            rows: board.rows.clone(),
            parent: vec![0; words],
            parent_len: 0,
            seen: vec![0; cells],
            stamp: 0,
            queue: Vec::new(),
            child: RowArea::default(),
            blocked: Vec::new(),
            counts: RowArea::default(),
            kept: Vec::new(),
            kept_len: Vec::new(),
        }
    }

    /// Floods the expanded node's area from `from` (its `boxes`, marked in
    /// `occupied`) and keeps it marked; returns the smallest cell in it.
    pub fn flood_parent(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        from: Cell,
    ) -> Cell {
        if self.rows.is_some() {
            // The flood a child's normalized player takes, kept as the parent's.
            let least = self.normalize(board, occupied, boxes, from);
            self.parent.copy_from_slice(&self.child.rows);
            self.parent_len = count_bits(&self.parent);
            return least;
        }
        self.parent.fill(0);
        let parent = &mut self.parent;
        let least = board.flood_marking(occupied, &mut self.queue, from, |c| {
            let new = !has(parent, c);
            if new {
                set(parent, c);
            }
            new
        });
        self.parent_len = self.queue.len();
        least
    }

    /// True when `c` is in the expanded node's area.
    #[inline]
    pub fn in_parent(&self, c: Cell) -> bool {
        match &self.rows {
            Some(rows) => rows.has(&self.parent, c),
            None => has(&self.parent, c),
        }
    }

    /// Cells in the expanded node's area.
    pub fn parent_len(&self) -> usize {
        self.parent_len
    }

    /// Keeps the area of the child just made (`how` it was found, before
    /// any other flood), for its expansion as a position of a box's move;
    /// returns its number.
    pub fn keep_child(&mut self, how: ChildArea) -> u32 {
        let at = self.kept.len();
        let len = match how {
            ChildArea::Traded { entered, left } => {
                self.kept.extend_from_slice(&self.parent);
                let grew = !self.in_parent(entered);
                let area = &mut self.kept[at..];
                match &self.rows {
                    Some(rows) => {
                        rows.put(area, entered, false);
                        rows.put(area, left, true);
                    }
                    None => {
                        unset(area, entered);
                        set(area, left);
                    }
                }
                self.parent_len + grew as usize
            }
            ChildArea::Flooded if self.rows.is_some() => {
                self.kept.extend_from_slice(&self.child.rows);
                count_bits(&self.child.rows)
            }
            ChildArea::Flooded => {
                self.kept.resize(at + self.parent.len(), 0);
                for &c in &self.queue {
                    set(&mut self.kept[at..], c);
                }
                self.queue.len()
            }
        };
        self.kept_len.push(len);
        (self.kept_len.len() - 1) as u32
    }

    /// Takes kept area `k` as the expanded node's.
    pub fn load_kept(&mut self, k: u32) {
        let words = self.parent.len();
        let at = k as usize * words;
        self.parent.copy_from_slice(&self.kept[at..at + words]);
        self.parent_len = self.kept_len[k as usize];
    }

    /// Forgets the kept areas (their move is over).
    pub fn clear_kept(&mut self) {
        self.kept.clear();
        self.kept_len.clear();
    }

    /// The smallest cell the player reaches from `from` among `boxes`
    /// (marked in `occupied`): the normalized player.
    pub fn normalize(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        from: Cell,
    ) -> Cell {
        if let Some(rows) = &self.rows {
            return self.child.flood_among(rows, &mut self.blocked, boxes, from);
        }
        self.stamp += 1;
        board.flood_player(occupied, &mut self.seen, self.stamp, &mut self.queue, from)
    }

    /// The number of areas the boxes (`boxes`, marked in `occupied`) cut
    /// the free floor into: by rows where the board has them, else by
    /// floods where `child` says how the player's area of this position
    /// was just found, before any other flood: that area is not flooded
    /// again.
    pub fn count_areas(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        child: Option<ChildArea>,
    ) -> u32 {
        if let Some(rows) = &self.rows {
            return self.counts.count_areas(rows, boxes);
        }
        // A flood's cells are still marked with the current stamp.
        if child != Some(ChildArea::Flooded) {
            self.stamp += 1;
        }
        let traded = match child {
            Some(ChildArea::Traded { entered, left }) => Some((entered, left)),
            _ => None,
        };
        let players =
            |c: Cell| traded.is_some_and(|(e, l)| c == l || (c != e && has(&self.parent, c)));
        let mut areas = child.is_some() as u32;
        for c in board.cells() {
            if !occupied[c] && self.seen[c] != self.stamp && !players(c) {
                areas += 1;
                board.flood_player(occupied, &mut self.seen, self.stamp, &mut self.queue, c);
            }
        }
        areas
    }
}

fn count_bits(bits: &[u64]) -> usize {
    bits.iter().map(|w| w.count_ones() as usize).sum()
}

fn has(bits: &[u64], c: Cell) -> bool {
    bits[c.index() / 64] >> (c.index() % 64) & 1 != 0
}

fn set(bits: &mut [u64], c: Cell) {
    bits[c.index() / 64] |= 1 << (c.index() % 64);
}

fn unset(bits: &mut [u64], c: Cell) {
    bits[c.index() / 64] &= !(1 << (c.index() % 64));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    /// `occupied` for boxes on `boxes`.
    fn occupied(cells: usize, boxes: &[Cell]) -> Vec<bool> {
        let mut taken = vec![false; cells];
        for &b in boxes {
            taken[b] = true;
        }
        taken
    }

    #[test]
    fn a_child_area_kept_or_counted_from_is_what_a_flood_of_the_child_finds() {
        // Two rooms; the box in the door keeps the player out of the right one.
        let text = b"#########\n#   #  .#\n# $ $   #\n#@  #  .#\n#########";
        let level = &parse_xsb(text, 100).unwrap()[0];
        let with_rows = Board::new(level).unwrap();
        assert!(with_rows.rows.is_some());
        // By floods, as on boards too wide for rows.
        let mut by_cells = with_rows.clone();
        by_cells.rows = None;
        for board in [&with_rows, &by_cells] {
            let rows = board.rows.is_some();
            let at = |row, col| board.compact(level.grid.cell(row, col));
            let (left_box, door_box) = (at(2, 2), at(2, 4));
            let mut area = PlayerArea::new(board);
            let before_boxes = [left_box, door_box];
            let before = occupied(board.len(), &before_boxes);
            area.flood_parent(board, &before, &before_boxes, at(3, 1));
            // The left box pushed west: the area trades one cell for the other.
            let traded_boxes = [at(2, 1), door_box];
            let traded = occupied(board.len(), &traded_boxes);
            let how = ChildArea::Traded {
                entered: at(2, 1),
                left: left_box,
            };
            let first = area.keep_child(how);
            let count = |taken: &[bool], boxes: &[Cell]| {
                PlayerArea::new(board).count_areas(board, taken, boxes, None)
            };
            let areas = area.count_areas(board, &traded, &traded_boxes, Some(how));
            assert_eq!(
                (areas, count(&traded, &traded_boxes)),
                (2, 2),
                "rows {rows}"
            );
            // The door box pushed east, the player in the door: found by a flood.
            let opened_boxes = [left_box, at(2, 5)];
            let opened = occupied(board.len(), &opened_boxes);
            area.normalize(board, &opened, &opened_boxes, door_box);
            let how = ChildArea::Flooded;
            let second = area.keep_child(how);
            let areas = area.count_areas(board, &opened, &opened_boxes, Some(how));
            assert_eq!(
                (areas, count(&opened, &opened_boxes)),
                (2, 2),
                "rows {rows}"
            );
            let children = [
                (first, &traded, &traded_boxes, left_box),
                (second, &opened, &opened_boxes, door_box),
            ];
            for (kept, taken, boxes, stand) in children {
                let mut fresh = PlayerArea::new(board);
                fresh.flood_parent(board, taken, boxes, stand);
                area.load_kept(kept);
                assert_eq!(area.parent_len(), fresh.parent_len());
                for c in board.cells() {
                    assert_eq!(area.in_parent(c), fresh.in_parent(c), "cell {c:?}");
                }
            }
            assert!(area.in_parent(door_box) && !area.in_parent(at(1, 7)));
        }
    }
}
