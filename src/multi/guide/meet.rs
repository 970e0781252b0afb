//! The meeting table: positions reached backwards from the solved one, for
//! the forward searches of `--fast` to run into.
//!
//! A level is often hard at one end only: a goal area filled in the wrong
//! order shuts itself off, while pulled backwards the same boxes come out
//! of it in a few pulls; boxes packed in at the start may be easy to push
//! apart and hard to pull back in. So while the other lanes start, one
//! runs a greedy search of pulls from the solved position (from every area
//! the player may end in) that heads for the boxes' starting squares, and
//! keeps every position it meets. It takes its positions by two measures,
//! one after the other: for a set number of positions by each box's pulls
//! to the nearest starting square, then by the pulls the boxes need to
//! starting squares of their own (each box heading for the nearest, many
//! head for the same few and never all get back; but the first measure,
//! alone for a while, meets forward positions the second misses). The
//! switch is a count, not a share of the table: the table is built for a
//! part of the time, so a share would move with the machine's speed. The
//! positions are keyed as the forward searches key theirs (the boxes and
//! the player's least reachable cell). A forward search that generates
//! one of them has solved the level: its pushes so far, then the pulls
//! back to the solved position, reversed. The answer is not
//! push-optimal, so only the non-optimal searches look here.

use crate::grid::Direction;
use crate::multi::board::{Board, Cell, Distance, UNREACHABLE};
use crate::multi::bound::{KeptMatchings, Matcher};
use crate::multi::cell::reseat;
use crate::multi::rows::RowArea;
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Positions the table keeps at most: about two seconds' work (less with
/// few boxes), and 60 MB with 30 boxes.
const MAX_POSITIONS: usize = 600_000;
/// Positions kept by the first measure (each box's pulls to the nearest
/// starting square) before the second takes over, half of a smaller table
/// at most: at `--fast`'s usual limits the table holds 200,000 to 400,000
/// in its time.
const NEAREST_POSITIONS: usize = 128_000;
/// Bytes it may hold: on levels of hundreds of boxes, fewer positions.
pub(crate) const MAX_BYTES: usize = 96 << 20;
/// Boxes up to which they are matched to starting squares of their own:
/// past it, a matching a position costs more than the table is worth, and
/// each box heads for the nearest starting square.
const MATCHED_BOXES: usize = 48;
/// Positions kept between two asks whether to give up.
const GIVE_UP_EVERY: usize = 256;
/// Matchings of the positions kept last, held by id for their own
/// expansions: the greedy order mostly expands a position kept a moment
/// before. About 1.4 MB with [`MATCHED_BOXES`] boxes.
const RECENT_MATCHINGS: usize = 1024;

/// Where a table of `most` positions switches to the second measure.
fn switch_at(most: usize) -> usize {
    NEAREST_POSITIONS.min(most / 2)
}

/// A position reached backwards.
struct Pulled {
    /// The boxes, sorted.
    boxes: Box<[Cell]>,
    /// The player's least reachable cell.
    player: Cell,
    /// The position it was pulled from, and the push that undoes the pull:
    /// the box's cell and the direction (`None` for a solved position).
    parent: Option<(u32, Cell, Direction)>,
    /// Pulls from the solved position.
    depth: u32,
}

/// The positions of the backward search, by their key.
#[derive(Default)]
pub(crate) struct Meeting {
    nodes: Vec<Pulled>,
    index: HashMap<u64, u32>,
}

impl Meeting {
    /// Searches backwards until [`MAX_POSITIONS`] are kept (fewer on big
    /// levels, or where `max_bytes` is less than [`MAX_BYTES`]), every
    /// position is seen, or `give_up` says so. A level with more goals than
    /// boxes has no one solved position: its table is empty.
    pub fn build_within(board: &Board, give_up: &dyn Fn() -> bool, max_bytes: usize) -> Meeting {
        if board.goals.len() != board.start_boxes.len() {
            return Meeting::default();
        }
        let per_position = board.goals.len() * 2 + std::mem::size_of::<Pulled>() + 32;
        let most = MAX_POSITIONS.min(MAX_BYTES.min(max_bytes) / per_position);
        Builder::new(board).run(most, switch_at(most), give_up)
    }

    /// [`Meeting::build_within`] the table's own bound on bytes, for tests.
    #[cfg(test)]
    pub fn build(board: &Board, give_up: &dyn Fn() -> bool) -> Meeting {
        Meeting::build_within(board, give_up, MAX_BYTES)
    }

    /// A table of `most` positions at most, for tests.
    #[cfg(test)]
    pub fn build_at_most(board: &Board, most: usize) -> Meeting {
        Builder::new(board).run(most, switch_at(most), &|| false)
    }

    /// The pushes from a forward position (its sorted `boxes`, the player's
    /// least cell `player`, and its key `hash` as [`Board::hash_of`] makes
    /// it) to the solved position, as (box cell, direction) single pushes,
    /// when the table holds it.
    pub fn path_from(
        &self,
        hash: u64,
        boxes: &[Cell],
        player: Cell,
    ) -> Option<Vec<(Cell, Direction)>> {
        let &at = self.index.get(&hash)?;
        let found = &self.nodes[at as usize];
        if *found.boxes != *boxes || found.player != player {
            return None;
        }
        let mut pushes = Vec::with_capacity(found.depth as usize);
        let mut at = at as usize;
        while let Some((parent, from, dir)) = self.nodes[at].parent {
            pushes.push((from, dir));
            at = parent as usize;
        }
        Some(pushes)
    }

    /// Positions held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn memory_bytes(&self) -> usize {
        let boxes: usize = self.nodes.first().map_or(0, |n| n.boxes.len() * 2);
        self.nodes.capacity() * (std::mem::size_of::<Pulled>() + boxes) + self.index.capacity() * 16
    }
}

/// The backward search under way.
struct Builder<'b> {
    board: &'b Board,
    /// Per starting square, the fewest pushes from it to each cell for a
    /// lone box (so the fewest pulls back to it).
    to_start: Vec<Vec<Distance>>,
    /// Per cell, the fewest of those.
    from_start: Vec<Distance>,
    /// Matches boxes to starting squares, each box to its own (on levels of
    /// [`MATCHED_BOXES`] at most; `None` on bigger ones).
    matcher: Option<Matcher>,
    /// The expanded position's boxes in the order of the matcher's rows.
    rows: Vec<Cell>,
    recent: KeptMatchings<()>,
    table: Meeting,
    open: OpenLists,
    occupied: Vec<bool>,
    /// The same boxes as row masks, on boards with rows ([`Board::rows`]).
    blocked: Vec<u64>,
    /// The expanded position's area: cells marked with `stamp`, or on
    /// boards with rows, `area`.
    marks: Vec<u32>,
    stamp: u32,
    area: RowArea,
    /// The floods of new positions, apart (the expanded area stays marked).
    child_marks: Vec<u32>,
    child_stamp: u32,
    child_area: RowArea,
    queue: Vec<Cell>,
}

impl<'b> Builder<'b> {
    fn new(board: &'b Board) -> Builder<'b> {
        let to_start: Vec<Vec<Distance>> = board
            .start_boxes
            .iter()
            .map(|&s| push_distances(board, s))
            .collect();
        let mut from_start = vec![UNREACHABLE; board.len()];
        for distances in &to_start {
            for (c, &d) in distances.iter().enumerate() {
                from_start[c] = from_start[c].min(d);
            }
        }
        Builder {
            board,
            to_start,
            from_start,
            matcher: (board.start_boxes.len() <= MATCHED_BOXES).then(Matcher::default),
            rows: Vec::new(),
            recent: KeptMatchings::new(RECENT_MATCHINGS),
            table: Meeting::default(),
            open: OpenLists::default(),
            occupied: vec![false; board.len()],
            blocked: vec![0; board.rows.as_ref().map_or(0, |r| r.len())],
            marks: vec![0; board.len()],
            stamp: 0,
            area: RowArea::default(),
            child_marks: vec![0; board.len()],
            child_stamp: 0,
            child_area: RowArea::default(),
            queue: Vec::new(),
        }
    }

    /// Keeps `most` positions at most, taking them by the second measure
    /// once it holds `switch`.
    fn run(mut self, most: usize, switch: usize, give_up: &dyn Fn() -> bool) -> Meeting {
        let goals = self.board.goals.clone();
        for &g in &goals {
            self.occupied[g] = true;
        }
        // One root per area, its cells flooded into `queue`.
        let mut rooted = vec![false; self.board.len()];
        for c in self.board.cells() {
            if !self.occupied[c] && !rooted[c] {
                self.stamp += 1;
                let (marks, stamp) = (&mut self.marks, self.stamp);
                let least =
                    self.board
                        .flood_player(&self.occupied, marks, stamp, &mut self.queue, c);
                self.keep(&goals, least, None, 0, None);
                for &x in &self.queue {
                    rooted[x] = true;
                }
            }
        }
        for &g in &goals {
            self.occupied[g] = false;
        }
        let mut asked = 0;
        while let Some(id) = self.open.pop(self.table.nodes.len() >= switch) {
            let kept = self.table.nodes.len();
            if kept >= most {
                break;
            }
            if kept >= asked + GIVE_UP_EVERY {
                asked = kept;
                if give_up() {
                    break;
                }
            }
            self.expand(id);
        }
        self.table
    }

    /// Floods the player's area from `from` (`occupied` holding the boxes);
    /// returns its least cell, the area's cells left marked with `stamp`.
    fn flood(&mut self, from: Cell) -> Cell {
        if let Some(rows) = &self.board.rows {
            self.area.flood(rows, &self.blocked, from);
            return self.area.least(rows).unwrap_or(from);
        }
        self.stamp += 1;
        let (marks, stamp) = (&mut self.marks, self.stamp);
        self.board
            .flood_player(&self.occupied, marks, stamp, &mut self.queue, from)
    }

    /// True when the expanded position's area holds `c`.
    #[inline]
    fn in_area(&self, c: Cell) -> bool {
        match &self.board.rows {
            Some(rows) => self.area.contains(rows, c),
            None => self.marks[c] == self.stamp,
        }
    }

    /// Puts a box on `c` (`on`) or takes it away.
    #[inline]
    fn occupy(&mut self, c: Cell, on: bool) {
        self.occupied[c] = on;
        if let Some(rows) = &self.board.rows {
            rows.put(&mut self.blocked, c, on);
        }
    }

    /// The least cell of the player's area from `from` in a new position
    /// (`occupied` holding its boxes), the expanded one's area left marked.
    fn flood_child(&mut self, from: Cell) -> Cell {
        if let Some(rows) = &self.board.rows {
            self.child_area.flood(rows, &self.blocked, from);
            return self.child_area.least(rows).unwrap_or(from);
        }
        self.child_stamp += 1;
        let (marks, stamp) = (&mut self.child_marks, self.child_stamp);
        self.board
            .flood_player(&self.occupied, marks, stamp, &mut self.queue, from)
    }

    /// The least cell of the player's area after the box on `b` was pulled
    /// onto `to` (`occupied` as after the pull) from the expanded position,
    /// whose area is marked and whose least cell is `least`: without a
    /// flood when the area only trades `to` for `b` (see
    /// [`Board::only_trades`]; the player stood on `to`, inside the area).
    fn least_after_pull(&mut self, least: Cell, b: Cell, to: Cell, back: Cell) -> Cell {
        let in_area = |c: Cell| self.in_area(c);
        if self
            .board
            .only_trades(&self.occupied, b, to, least, in_area)
        {
            least.min(b)
        } else {
            self.flood_child(back)
        }
    }

    /// Keeps the position of sorted `boxes` with the player's least cell
    /// `least`, unless it is held already or its boxes cannot each be
    /// pulled to a starting square of their own. `moved` is the pull that
    /// made it from the expanded position (the row of the pulled box in
    /// that position's boxes, and where it went): its matching is then
    /// the held one's, one box moved.
    fn keep(
        &mut self,
        boxes: &[Cell],
        least: Cell,
        parent: Option<(u32, Cell, Direction)>,
        depth: u32,
        moved: Option<(usize, Cell)>,
    ) {
        let hash = self.board.hash_of(boxes, least);
        if self.table.index.contains_key(&hash) {
            return;
        }
        let matched = match (&mut self.matcher, moved) {
            (None, _) => None,
            (Some(m), Some((row, to))) => Some(m.bound_moved(&self.to_start, row, to)),
            (Some(m), None) => Some(m.bound_with(None, &self.to_start, boxes)),
        };
        if matched.is_some_and(|far| far.is_none()) {
            return;
        }
        let nearest = boxes.iter().map(|&b| u32::from(self.from_start[b])).sum();
        let id = self.table.nodes.len() as u32;
        if let (Some(m), Some((row, to))) = (&self.matcher, moved) {
            self.recent
                .keep_moved((id as usize, ()), &self.rows, (row, to), m);
        }
        self.table.index.insert(hash, id);
        self.open.push(id, depth, matched.flatten(), nearest);
        self.table.nodes.push(Pulled {
            boxes: boxes.into(),
            player: least,
            parent,
            depth,
        });
    }

    /// Every pull from the position `id`.
    fn expand(&mut self, id: u32) {
        let node = &self.table.nodes[id as usize];
        let boxes = node.boxes.clone();
        let (player, depth) = (node.player, node.depth);
        for &b in boxes.iter() {
            self.occupy(b, true);
        }
        self.flood(player);
        let mut pulls = Vec::new();
        for (i, &b) in boxes.iter().enumerate() {
            for dir in Direction::ALL {
                let Some(to) = self.board.step(b, dir).filter(|&to| self.in_area(to)) else {
                    continue;
                };
                let back = self
                    .board
                    .step(to, dir)
                    .filter(|&back| !self.occupied[back]);
                if let Some(back) = back
                    && self.from_start[to] != UNREACHABLE
                {
                    pulls.push((i, to, back, dir));
                }
            }
        }
        // The expanded position's matching, for its children's: its own,
        // kept with it, or matched afresh.
        let kept = self.matcher.as_ref().and(self.recent.get(id as usize));
        // Only a kept matching may hold the boxes in another order.
        let reordered = kept.is_some();
        self.rows.clear();
        self.rows
            .extend_from_slice(kept.map_or(&boxes[..], |(_, rows, _)| rows));
        if let Some(m) = &mut self.matcher {
            let bound = match kept {
                Some((_, rows, saved)) => m.take_up(saved, Some(0), &self.to_start, rows),
                None => m.bound_warm(Some(0), &self.to_start, &boxes),
            };
            if bound.is_none() {
                pulls.clear();
            }
        }
        let mut child = boxes.to_vec();
        for (i, to, back, dir) in pulls {
            let b = boxes[i];
            let row = if reordered {
                self.rows.iter().position(|&r| r == b).unwrap_or(i)
            } else {
                i
            };
            self.occupy(b, false);
            self.occupy(to, true);
            child.copy_from_slice(&boxes);
            child[i] = to;
            reseat(&mut child, i);
            let least = self.least_after_pull(player, b, to, back);
            let parent = Some((id, to, dir.opposite()));
            self.keep(&child, least, parent, depth + 1, Some((row, to)));
            self.occupy(to, false);
            self.occupy(b, true);
        }
        for &b in boxes.iter() {
            self.occupy(b, false);
        }
    }
}

/// The open positions of the backward search in two lists, each by how
/// far its boxes are from the starting squares (three per pull) plus its
/// depth, the newest first on ties: one by each box's pulls to the
/// nearest, taken from first, the other by the cheapest matching of boxes
/// to starting squares of their own (none past [`MATCHED_BOXES`]), taken
/// from once the table holds [`NEAREST_POSITIONS`] (or half its most).
#[derive(Default)]
struct OpenLists {
    matched: BinaryHeap<Reverse<(u32, Reverse<u32>)>>,
    nearest: BinaryHeap<Reverse<(u32, Reverse<u32>)>>,
    /// Per position, whether it was taken (from either list).
    taken: Vec<bool>,
}

impl OpenLists {
    /// Adds the new position `id` (ids come in order) at `depth` pulls.
    fn push(&mut self, id: u32, depth: u32, matched: Option<u32>, nearest: u32) {
        if let Some(far) = matched {
            self.matched.push(Reverse((3 * far + depth, Reverse(id))));
        }
        self.nearest
            .push(Reverse((3 * nearest + depth, Reverse(id))));
        self.taken.push(false);
    }

    /// The next position to expand: from the nearest list, or once
    /// `matched_first`, from the matched one (the other when it is empty).
    fn pop(&mut self, matched_first: bool) -> Option<u32> {
        let order = if matched_first {
            [&mut self.matched, &mut self.nearest]
        } else {
            [&mut self.nearest, &mut self.matched]
        };
        for list in order {
            while let Some(Reverse((_, Reverse(id)))) = list.pop() {
                if !std::mem::replace(&mut self.taken[id as usize], true) {
                    return Some(id);
                }
            }
        }
        None
    }
}

/// Fewest pushes from `from` to each cell for a lone box (the player
/// walking anywhere but through the box).
fn push_distances(board: &Board, from: Cell) -> Vec<Distance> {
    let mut dist = vec![UNREACHABLE; board.len()];
    dist[from] = 0;
    board.breadth_first(&mut Vec::new(), from, |at, dir, to| {
        let push = board.step(at, dir.opposite()).is_some();
        let new = push && dist[to] == UNREACHABLE;
        if new {
            dist[to] = dist[at] + 1;
        }
        new
    });
    dist
}

impl std::fmt::Debug for Meeting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Meeting({} positions)", self.nodes.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::testing::random_level;

    /// Pushes `pushes` from `boxes` with the player on `player`, checking
    /// each as the rules do: a box on the cell, the cell ahead free, the
    /// cell behind reachable. Returns the boxes at the end, sorted.
    fn pushed(
        board: &Board,
        boxes: &[Cell],
        mut player: Cell,
        pushes: &[(Cell, Direction)],
    ) -> Vec<Cell> {
        let mut occupied = vec![false; board.len()];
        for &b in boxes {
            occupied[b] = true;
        }
        for &(at, dir) in pushes {
            let behind = board.step(at, dir.opposite()).expect("floor behind");
            let ahead = board.step(at, dir).expect("floor ahead");
            assert!(
                occupied[at] && !occupied[ahead],
                "no box to push, or no room"
            );
            let mut reached = vec![player];
            let mut seen = vec![false; board.len()];
            seen[player] = true;
            while let Some(c) = reached.pop() {
                for n in board.neighbours(c) {
                    if !occupied[n] && !seen[n] {
                        seen[n] = true;
                        reached.push(n);
                    }
                }
            }
            assert!(seen[behind], "the player cannot get behind the box");
            occupied[at] = false;
            occupied[ahead] = true;
            player = at;
        }
        board.cells().filter(|&c| occupied[c]).collect()
    }

    /// The least cell the player on `player` reaches among `boxes`.
    fn least_reached(board: &Board, boxes: &[Cell], player: Cell) -> Cell {
        let mut seen = vec![false; board.len()];
        seen[player] = true;
        let mut reached = vec![player];
        let mut least = player;
        while let Some(c) = reached.pop() {
            least = least.min(c);
            for n in board.neighbours(c) {
                if !boxes.contains(&n) && !seen[n] {
                    seen[n] = true;
                    reached.push(n);
                }
            }
        }
        least
    }

    #[test]
    fn every_position_held_pushes_back_to_the_goals() {
        let mut rng = crate::rng::Rng::new(0x3EE7);
        let (mut levels, mut checked) = (0, 0);
        for case in 0..3000 {
            let Some(board) = random_level(&mut rng, case) else {
                continue;
            };
            let table = Meeting::build(&board, &|| false);
            if board.goals.len() != board.start_boxes.len() {
                assert_eq!(table.len(), 0);
                continue;
            }
            levels += 1;
            let mut goals = board.goals.clone();
            goals.sort_unstable();
            for node in &table.nodes {
                // Keyed as the forward searches key theirs: the least cell.
                assert_eq!(least_reached(&board, &node.boxes, node.player), node.player);
                let hash = board.hash_of(&node.boxes, node.player);
                let path = table.path_from(hash, &node.boxes, node.player);
                let path = path.expect("a position held is found");
                assert_eq!(path.len(), node.depth as usize);
                assert_eq!(
                    pushed(&board, &node.boxes, node.player, &path),
                    goals,
                    "case {case}"
                );
                checked += 1;
            }
        }
        assert!(
            levels > 100 && checked > 10_000,
            "levels {levels} positions {checked}"
        );
    }

    #[test]
    fn floods_by_rows_and_by_cells_build_the_same_table() {
        let mut rng = crate::rng::Rng::new(0x20_75);
        let mut compared = 0;
        for case in 0..1000 {
            let Some(board) = random_level(&mut rng, case) else {
                continue;
            };
            let mut by_cells = board.clone();
            by_cells.rows = None;
            let keys = |b: &Board| -> Vec<(Box<[Cell]>, Cell, u32)> {
                let table = Meeting::build(b, &|| false);
                let nodes = table.nodes.into_iter();
                nodes.map(|n| (n.boxes, n.player, n.depth)).collect()
            };
            assert!(board.rows.is_some());
            assert_eq!(keys(&board), keys(&by_cells), "case {case}");
            compared += 1;
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn matchings_kept_for_their_expansions_build_the_same_table() {
        let mut rng = crate::rng::Rng::new(0x4EC7);
        let text = include_bytes!("../../../tests/data/meet/sasquatch-37.xsb");
        let level = crate::level::parse_xsb(text, 1 << 20).unwrap().remove(0);
        let mut boards = vec![Board::new(&level).unwrap()];
        let levels = (0..1000).filter_map(|case| random_level(&mut rng, case));
        boards.extend(levels.filter(|b| b.goals.len() == b.start_boxes.len()));
        let mut compared = 0;
        for (case, board) in boards.iter().enumerate() {
            let build = |size| -> Vec<(Box<[Cell]>, Cell, u32)> {
                let mut builder = Builder::new(board);
                builder.recent = KeptMatchings::new(size);
                let table = builder.run(20_000, 5_000, &|| false);
                let nodes = table.nodes.into_iter();
                nodes.map(|n| (n.boxes, n.player, n.depth)).collect()
            };
            let kept = build(RECENT_MATCHINGS);
            assert_eq!(build(0), kept, "case {case}");
            compared += kept.len();
        }
        assert!(compared > 30_000, "{compared}");
    }

    #[test]
    fn a_kept_matching_is_the_new_positions_own() {
        let level = crate::level::parse_xsb(b"########\n#@$ $..#\n########", 100).unwrap();
        let board = Board::new(&level[0]).unwrap();
        let mut matcher = Matcher::default();
        let to_start: Vec<Vec<Distance>> = board
            .start_boxes
            .iter()
            .map(|&s| push_distances(&board, s))
            .collect();
        let rows = board.goals.clone();
        let far = matcher.bound_with(None, &to_start, &rows);
        let to = board.step(rows[0], Direction::West).unwrap();
        let moved = matcher.bound_moved(&to_start, 0, to);
        let mut recent = KeptMatchings::new(4);
        recent.keep_moved((9, ()), &rows, (0, to), &matcher);
        assert!(recent.get(5).is_none());
        let (_, kept_rows, saved) = recent.get(9).expect("kept");
        assert_eq!(kept_rows, &[to, rows[1]][..]);
        let taken_up = Matcher::default().take_up(saved, None, &to_start, kept_rows);
        assert_eq!(taken_up, moved);
        assert_eq!((far, moved), (Some(5), Some(4)));
    }

    #[test]
    fn a_position_not_held_is_not_found() {
        let level = crate::level::parse_xsb(b"#######\n#@$  .#\n#######", 100).unwrap();
        let board = Board::new(&level[0]).unwrap();
        let table = Meeting::build(&board, &|| false);
        // The box pulled back to every cell from the goal, the player beside it.
        assert_eq!(table.len(), 4);
        let start = board.start_boxes.clone();
        let player = board.start_player;
        let hash = board.hash_of(&start, player);
        assert!(table.path_from(hash, &start, player).is_some());
        // The same key with other boxes (a collision) is refused.
        let other = vec![board.goals[0]];
        assert!(table.path_from(hash, &other, player).is_none());
        assert!(table.path_from(hash ^ 1, &start, player).is_none());
    }

    /// Sasquatch I 37: 28 boxes among goals spread out. Each box pulled
    /// towards the nearest starting square, many head for the same few
    /// and the search never gets the boxes back; matched to starting
    /// squares of their own, it reaches the start.
    #[test]
    fn pulls_matched_to_starting_squares_reach_the_start() {
        let text = include_bytes!("../../../tests/data/meet/sasquatch-37.xsb");
        let level = crate::level::parse_xsb(text, 1 << 20).unwrap().remove(0);
        let board = Board::new(&level).unwrap();
        let table = Meeting::build(&board, &|| false);
        let start = board.start_boxes.clone();
        let player = least_reached(&board, &start, board.start_player);
        let hash = board.hash_of(&start, player);
        let path = table
            .path_from(hash, &start, player)
            .expect("the start is held");
        let mut goals = board.goals.clone();
        goals.sort_unstable();
        assert_eq!(pushed(&board, &start, player, &path), goals);
    }

    /// Past [`MATCHED_BOXES`] boxes head for the nearest starting square:
    /// a table as sound as the matched one.
    #[test]
    fn past_the_matched_boxes_each_box_heads_for_the_nearest_start() {
        let mut text = String::from("##############\n#@           #\n");
        for _ in 0..10 {
            text.push_str("# $.$.$.$.$. #\n#            #\n");
        }
        text.push_str("##############");
        let level = crate::level::parse_xsb(text.as_bytes(), 1 << 20).unwrap();
        let board = Board::new(&level[0]).unwrap();
        assert!(board.start_boxes.len() > MATCHED_BOXES);
        let table = Meeting::build_at_most(&board, 3000);
        assert!(table.len() >= 3000);
        let mut goals = board.goals.clone();
        goals.sort_unstable();
        for node in &table.nodes {
            let hash = board.hash_of(&node.boxes, node.player);
            let path = table.path_from(hash, &node.boxes, node.player).unwrap();
            assert_eq!(pushed(&board, &node.boxes, node.player, &path), goals);
        }
    }

    #[test]
    fn a_table_keeps_to_the_bytes_it_is_given() {
        let text =
            b"##########\n#@       #\n# $ $ $  #\n#        #\n# . . .  #\n#        #\n##########";
        let board = Board::new(&crate::level::parse_xsb(text, 100).unwrap()[0]).unwrap();
        let whole = Meeting::build(&board, &|| false);
        let per_position = board.goals.len() * 2 + std::mem::size_of::<Pulled>() + 32;
        assert!(whole.len() > 200);
        let small = Meeting::build_within(&board, &|| false, 100 * per_position);
        // It stops once it holds as many, after one position's pulls.
        let pulls = 4 * board.start_boxes.len();
        assert!((100..=100 + pulls).contains(&small.len()));
    }

    /// The order the positions are taken in does not hang on how many the
    /// table may hold (the switch between the measures is a count), so a
    /// table cut short holds the first positions of a longer one.
    #[test]
    fn a_shorter_table_is_the_start_of_a_longer_one() {
        let text = b"############\n#@         #\n# $ $ $ $  #\n#          #\n# . . . .  #\n#          #\n############";
        let board = Board::new(&crate::level::parse_xsb(text, 100).unwrap()[0]).unwrap();
        let keys = |most| -> Vec<(Box<[Cell]>, Cell)> {
            let table = Builder::new(&board).run(most, 500, &|| false);
            table
                .nodes
                .into_iter()
                .map(|n| (n.boxes, n.player))
                .collect()
        };
        let (short, long) = (keys(2000), keys(8000));
        assert!(short.len() >= 2000 && long.len() >= 8000);
        assert_eq!(short[..], long[..short.len()]);
    }

    #[test]
    fn a_level_of_many_boxes_keeps_fewer_positions() {
        let per_position = 400 * 2 + std::mem::size_of::<Pulled>() + 32;
        assert!(MAX_BYTES / per_position < MAX_POSITIONS);
    }
}
