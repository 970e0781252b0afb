//! Halls: the open parts of the floor, and which of them the boxes cut
//! apart.
//!
//! A hall is a group of 2x2 blocks of floor, each sharing an edge with the
//! next (a lone block is no hall), and its cells; the cells between halls
//! are corridors. Two halls are *joined* when the player could walk from
//! one to the other through corridors, or step straight across. A
//! position *cuts* a pair of halls joined on the empty board when some
//! part of one, as the boxes leave it, no longer reaches the other (or a
//! hall is full of boxes). The number of pairs cut is the room
//! connectivity of Festival's feature space (Shoham and Schaeffer's FESS):
//! where the number of areas counts the pockets boxes make, this counts the
//! doors they shut.

use crate::multi::board::{Board, Cell};

/// Halls counted at most: past it (a maze of small rooms) the measure
/// says little, and the pairs fit one word per hall.
const MAX_HALLS: usize = 64;

/// The halls of a board and the pairs joined when it is empty.
#[derive(Clone, Debug, Default)]
pub(crate) struct Halls {
    /// Per cell, its hall (`None` on corridors, and on a cell two halls share).
    hall: Vec<Option<u8>>,
    /// Per hall, its cells.
    cells: Vec<Vec<Cell>>,
    /// Per hall, the halls joined to it on the empty board, as bits.
    joined: Vec<u64>,
}

/// Scratch space for [`Halls::cut`], which keeps there what
/// [`Halls::cut_after_move`] starts from.
#[derive(Default)]
pub(crate) struct HallScratch {
    marks: Marks,
    /// The corridor pieces of the position [`Halls::cut`] measured last.
    base: Pieces,
    /// Per hall, the halls every part of it met there (one way).
    base_met: Vec<u64>,
    /// The pieces of a position measured on its own since.
    other: Pieces,
    /// Per hall, the halls met in the position at hand.
    met: Vec<u64>,
}

/// The walks' marks.
#[derive(Default)]
struct Marks {
    /// Per cell, the stamp of the last walk through it.
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<Cell>,
}

/// The free corridor cells of a position, split into pieces.
#[derive(Default)]
struct Pieces {
    /// Per cell, its corridor piece and 1 (0 on halls and boxes).
    piece_of: Vec<u32>,
    pieces: Vec<Piece>,
    /// The hall cells beside each piece (boxes there or not), piece by
    /// piece, each piece's by hall.
    doors: Vec<Cell>,
    /// Per piece, the stamp of the last walk through it.
    piece_seen: Vec<u32>,
}

/// A piece of corridor: free corridor cells joined by their edges.
struct Piece {
    /// The halls beside it, as bits.
    halls: u64,
    /// Its range in [`Pieces::doors`].
    doors: std::ops::Range<usize>,
}

impl Halls {
    /// The halls of `board`: none when it has fewer than two or more than
    /// [`MAX_HALLS`].
    pub fn new(board: &Board) -> Halls {
        let Some((hall, count)) = mark_halls(board) else {
            return Halls::default();
        };
        let mut cells = vec![Vec::new(); count];
        for c in board.cells() {
            if let Some(h) = hall[c] {
                cells[h as usize].push(c);
            }
        }
        let mut halls = Halls {
            hall,
            cells,
            joined: Vec::new(),
        };
        let empty = vec![false; board.len()];
        halls.joined = halls.joined_now(board, &empty, &mut HallScratch::default());
        halls
    }

    /// Pairs of halls joined on the empty board and cut with boxes on the
    /// cells `occupied` marks; `scratch` keeps what a position one box
    /// move away is measured from (see [`Halls::cut_after_move`]).
    pub fn cut(&self, board: &Board, occupied: &[bool], scratch: &mut HallScratch) -> u32 {
        if self.joined.is_empty() {
            return 0;
        }
        let s = scratch;
        s.make_room(board.len());
        self.met_by_all(board, occupied, &mut s.base, &mut s.marks, &mut s.base_met);
        self.lost(&s.base_met)
    }

    /// [`Halls::cut`] of the position it measured last with one box moved
    /// from `from` to `to` (`occupied` marks the boxes after the move).
    /// Only the halls [`Halls::touched`] names are walked again: where both
    /// cells are on halls the corridors are as they were, and elsewhere
    /// only the pieces beside the box change (split into pieces afresh).
    /// (With no position measured before, it measures afresh.)
    pub fn cut_after_move(
        &self,
        board: &Board,
        occupied: &[bool],
        scratch: &mut HallScratch,
        (from, to): (Cell, Cell),
    ) -> u32 {
        if self.joined.is_empty() {
            return 0;
        }
        let s = scratch;
        s.make_room(board.len());
        if s.base_met.len() != self.cells.len() {
            self.met_by_all(board, occupied, &mut s.other, &mut s.marks, &mut s.met);
            return self.lost(&s.met);
        }
        s.met.clone_from(&s.base_met);
        let mut touched = self.touched(board, &s.base, (from, to));
        let pieces = if let (Some(_), Some(_)) = (self.hall[from], self.hall[to]) {
            &mut s.base
        } else {
            self.corridor_pieces(board, occupied, &mut s.other, &mut s.marks.stack);
            &mut s.other
        };
        while touched != 0 {
            let h = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            s.met[h] = self.met_by_every_part(board, occupied, pieces, &mut s.marks, h);
        }
        self.lost(&s.met)
    }

    /// The halls whose walks a box moved `from` `to` may change, as bits,
    /// given the corridor `pieces` before the move: the halls of the two
    /// cells, and where either is a corridor cell, the halls beside the
    /// pieces it splits or joins (no other hall's cells or pieces change).
    fn touched(&self, board: &Board, pieces: &Pieces, (from, to): (Cell, Cell)) -> u64 {
        let mut touched = 0u64;
        let piece_halls = |c: Cell| match pieces.piece_of[c] {
            0 => 0,
            id => pieces.pieces[id as usize - 1].halls,
        };
        for c in [from, to] {
            match self.hall[c] {
                Some(h) => touched |= 1 << h,
                None => touched |= piece_halls(c),
            }
        }
        if self.hall[from].is_none() {
            for next in board.neighbours(from) {
                touched |= self.hall[next].map_or_else(|| piece_halls(next), |h| 1 << h);
            }
        }
        touched
    }

    /// The pairs joined on the empty board that `met` does not join.
    fn lost(&self, met: &[u64]) -> u32 {
        let lost: u32 = (0..self.joined.len())
            .map(|h| (self.joined[h] & !both_ways(met, h)).count_ones())
            .sum();
        lost / 2
    }

    /// Per hall, the halls it is joined to with boxes on `occupied`.
    fn joined_now(&self, board: &Board, occupied: &[bool], s: &mut HallScratch) -> Vec<u64> {
        s.make_room(board.len());
        self.met_by_all(board, occupied, &mut s.other, &mut s.marks, &mut s.met);
        (0..s.met.len()).map(|h| both_ways(&s.met, h)).collect()
    }

    /// Splits the corridors of the position with boxes on `occupied` into
    /// `pieces`, and puts what every part of each hall meets into `met`.
    fn met_by_all(
        &self,
        board: &Board,
        occupied: &[bool],
        pieces: &mut Pieces,
        marks: &mut Marks,
        met: &mut Vec<u64>,
    ) {
        self.corridor_pieces(board, occupied, pieces, &mut marks.stack);
        met.clear();
        for h in 0..self.cells.len() {
            met.push(self.met_by_every_part(board, occupied, pieces, marks, h));
        }
    }

    /// The halls every part of hall `h` meets (each part reaching them)
    /// with boxes on `occupied`, through the corridor `pieces` of that
    /// position. The corridors are split into pieces once, so that each
    /// walk crosses a piece in one step.
    fn met_by_every_part(
        &self,
        board: &Board,
        occupied: &[bool],
        pieces: &mut Pieces,
        marks: &mut Marks,
        h: usize,
    ) -> u64 {
        marks.stamp += 1;
        let (mut all, mut any) = (u64::MAX, false);
        for &start in &self.cells[h] {
            if !occupied[start] && marks.seen[start] != marks.stamp {
                any = true;
                all &= self.met_from(board, occupied, pieces, marks, (h, start));
            }
        }
        if any { all & !(1 << h) } else { 0 }
    }

    /// Splits the free corridor cells into pieces, each with the halls
    /// and the hall cells beside it (boxes there or not): they depend on
    /// the boxes in the corridors alone.
    fn corridor_pieces(
        &self,
        board: &Board,
        occupied: &[bool],
        p: &mut Pieces,
        stack: &mut Vec<Cell>,
    ) {
        p.piece_of.clear();
        p.piece_of.resize(board.len(), 0);
        p.pieces.clear();
        p.doors.clear();
        for c in board.cells() {
            if self.hall[c].is_some() || occupied[c] || p.piece_of[c] != 0 {
                continue;
            }
            let id = p.pieces.len() as u32 + 1;
            let (first, mut halls) = (p.doors.len(), 0u64);
            p.piece_of[c] = id;
            stack.push(c);
            while let Some(at) = stack.pop() {
                for next in board.neighbours(at) {
                    match self.hall[next] {
                        Some(k) => {
                            halls |= 1 << k;
                            p.doors.push(next);
                        }
                        None if !occupied[next] && p.piece_of[next] == 0 => {
                            p.piece_of[next] = id;
                            stack.push(next);
                        }
                        None => {}
                    }
                }
            }
            let doors = first..p.doors.len();
            // By hall, so that a hall's walk finds its own doors at once.
            p.doors[doors.clone()].sort_unstable_by_key(|&d| self.hall[d]);
            p.pieces.push(Piece { halls, doors });
        }
        p.piece_seen.resize(p.pieces.len(), 0);
    }

    /// The halls a walk from `start` (in hall `h`) meets, through `h`'s
    /// free cells and the corridor pieces beside them; the cells and
    /// pieces it reaches keep the walk's stamp (the next walk from `h`
    /// starts from a part not reached).
    fn met_from(
        &self,
        board: &Board,
        occupied: &[bool],
        p: &mut Pieces,
        marks: &mut Marks,
        (h, start): (usize, Cell),
    ) -> u64 {
        let stamp = marks.stamp;
        let (seen, stack) = (&mut marks.seen, &mut marks.stack);
        let mut met = 0u64;
        seen[start] = stamp;
        stack.push(start);
        while let Some(at) = stack.pop() {
            for next in board.neighbours(at) {
                match self.hall[next] {
                    Some(k) if k as usize != h => met |= 1 << k,
                    Some(_) if occupied[next] || seen[next] == stamp => {}
                    Some(_) => {
                        seen[next] = stamp;
                        stack.push(next);
                    }
                    None => {
                        let piece = p.piece_of[next] as usize;
                        if piece == 0 || p.piece_seen[piece - 1] == stamp {
                            continue;
                        }
                        p.piece_seen[piece - 1] = stamp;
                        met |= p.pieces[piece - 1].halls;
                        let doors = &p.doors[p.pieces[piece - 1].doors.clone()];
                        let first = doors.partition_point(|&d| self.hall[d] < Some(h as u8));
                        for &door in &doors[first..] {
                            if self.hall[door] != Some(h as u8) {
                                break;
                            }
                            if !occupied[door] && seen[door] != stamp {
                                seen[door] = stamp;
                                stack.push(door);
                            }
                        }
                    }
                }
            }
        }
        met
    }
}

impl HallScratch {
    /// Makes room for the stamps of one more position's walks: where they
    /// would run out, every mark (the pieces' too) starts over.
    fn make_room(&mut self, cells: usize) {
        let m = &mut self.marks;
        if m.seen.len() != cells || m.stamp > u32::MAX - MAX_HALLS as u32 {
            m.seen = vec![0; cells];
            m.stamp = 0;
            self.base.piece_seen.fill(0);
            self.other.piece_seen.fill(0);
        }
    }
}

/// The halls `h` meets that meet it too, of each hall's `met`.
fn both_ways(met: &[u64], h: usize) -> u64 {
    let (mut left, mut both) = (met[h], 0u64);
    while left != 0 {
        let k = left.trailing_zeros();
        left &= left - 1;
        if met[k as usize] >> h & 1 == 1 {
            both |= 1 << k;
        }
    }
    both
}

/// Per cell its hall, and the number of halls; `None` when there are fewer
/// than two or more than [`MAX_HALLS`].
fn mark_halls(board: &Board) -> Option<(Vec<Option<u8>>, usize)> {
    use crate::grid::Direction::{East, North, South, West};
    // A block by its top-left cell: that cell, east, south and south-east.
    let block = |c: Cell| {
        let e = board.step(c, East)?;
        let s = board.step(c, South)?;
        let se = board.step(e, South)?;
        Some([c, e, s, se])
    };
    let is_block: Vec<bool> = board.cells().map(|c| block(c).is_some()).collect();
    let near = |c: Cell| {
        [North, East, South, West]
            .into_iter()
            .filter_map(move |d| board.step(c, d))
    };
    let mut id = vec![usize::MAX; board.len()];
    let mut count = 0;
    for c in board.cells() {
        if !is_block[c] || id[c] != usize::MAX || !near(c).any(|n| is_block[n]) {
            continue;
        }
        let mut stack = vec![c];
        id[c] = count;
        while let Some(at) = stack.pop() {
            for n in near(at) {
                if is_block[n] && id[n] == usize::MAX {
                    id[n] = count;
                    stack.push(n);
                }
            }
        }
        count += 1;
    }
    if !(2..=MAX_HALLS).contains(&count) {
        return None;
    }
    const SHARED: u8 = u8::MAX;
    let mut hall: Vec<Option<u8>> = vec![None; board.len()];
    for c in board.cells().filter(|&c| id[c] != usize::MAX) {
        for cell in block(c).expect("a block") {
            hall[cell] = match hall[cell] {
                None => Some(id[c] as u8),
                Some(h) if h as usize == id[c] => Some(h),
                Some(_) => Some(SHARED),
            };
        }
    }
    for h in &mut hall {
        if *h == Some(SHARED) {
            *h = None;
        }
    }
    Some((hall, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn board(text: &str) -> (crate::level::Level, Board) {
        let text = text.replace('+', "@");
        let level = parse_xsb(text.as_bytes(), 1000).unwrap().remove(0);
        let board = Board::new(&level).unwrap();
        (level, board)
    }

    #[test]
    fn a_box_in_the_corridor_between_two_halls_cuts_them() {
        let (level, b) = board("######\n#@   #\n#    #\n### ##\n#    #\n# $. #\n######");
        let halls = Halls::new(&b);
        let mut s = HallScratch::default();
        let empty = vec![false; b.len()];
        assert_eq!(halls.cut(&b, &empty, &mut s), 0);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let mut occupied = empty.clone();
        // A box in a hall leaves it whole.
        occupied[at(1, 2)] = true;
        assert_eq!(halls.cut(&b, &occupied, &mut s), 0);
        occupied[at(3, 3)] = true;
        assert_eq!(halls.cut(&b, &occupied, &mut s), 1);
    }

    #[test]
    fn a_hall_split_by_boxes_is_cut_where_a_part_reaches_nothing() {
        // The upper hall split by a wall of boxes: its right part still
        // reaches the lower hall, its left part nothing.
        let (level, b) = board("######\n#@   #\n#    #\n### ##\n#    #\n# $. #\n######");
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let halls = Halls::new(&b);
        let mut occupied = vec![false; b.len()];
        occupied[at(1, 2)] = true;
        occupied[at(2, 2)] = true;
        assert_eq!(halls.cut(&b, &occupied, &mut HallScratch::default()), 1);
    }

    /// The reference: a walk from each part of a hall through its cells
    /// and every corridor, each walk on its own.
    fn joined_by_walks(halls: &Halls, board: &Board, occupied: &[bool]) -> Vec<u64> {
        use std::collections::VecDeque;
        let count = halls.cells.len();
        let mut now = vec![0u64; count];
        for (h, cells) in halls.cells.iter().enumerate() {
            let mut in_part = vec![false; board.len()];
            let (mut all, mut any) = (u64::MAX, false);
            for &start in cells.iter().filter(|&&c| !occupied[c]) {
                if in_part[start] {
                    continue;
                }
                let (mut seen, mut met) = (vec![false; board.len()], 0u64);
                let mut queue = VecDeque::from([start]);
                seen[start] = true;
                while let Some(at) = queue.pop_front() {
                    for next in board.neighbours(at) {
                        match halls.hall[next] {
                            Some(k) if k as usize != h => met |= 1 << k,
                            _ if occupied[next] || seen[next] => {}
                            _ => {
                                seen[next] = true;
                                queue.push_back(next);
                            }
                        }
                    }
                }
                board
                    .cells()
                    .filter(|&c| seen[c])
                    .for_each(|c| in_part[c] = true);
                any = true;
                all &= met;
            }
            now[h] = if any { all & !(1 << h) } else { 0 };
        }
        let both = |h: usize, k: usize| now[h] >> k & 1 == 1 && now[k] >> h & 1 == 1;
        (0..count)
            .map(|h| {
                (0..count)
                    .filter(|&k| both(h, k))
                    .fold(0, |m, k| m | 1 << k)
            })
            .collect()
    }

    /// A random walled board of open floor and pillars, with one box.
    fn random_board(rng: &mut crate::rng::Rng) -> Option<Board> {
        let (rows, cols) = (6 + rng.below(8), 6 + rng.below(10));
        let mut grid: Vec<Vec<u8>> = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        let edge = r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
                        if edge || rng.chance(30) { b'#' } else { b' ' }
                    })
                    .collect()
            })
            .collect();
        let mut floor: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| grid[r][c] == b' ')
            .collect();
        if floor.len() < 3 {
            return None;
        }
        for (i, ch) in [b'@', b'$', b'.'].into_iter().enumerate() {
            let j = i + rng.below(floor.len() - i);
            floor.swap(i, j);
            grid[floor[i].0][floor[i].1] = ch;
        }
        let text: Vec<String> = grid
            .into_iter()
            .map(|r| String::from_utf8(r).unwrap())
            .collect();
        let level = parse_xsb(text.join("\n").as_bytes(), 1000).ok()?.remove(0);
        Board::new(&level).ok()
    }

    /// A random board with two halls or more, and its halls.
    fn random_halls(rng: &mut crate::rng::Rng) -> Option<(Board, Halls)> {
        let board = random_board(rng)?;
        let halls = Halls::new(&board);
        (!halls.cells.is_empty()).then_some((board, halls))
    }

    #[test]
    fn the_corridor_pieces_give_what_a_walk_from_every_part_gives() {
        let mut rng = crate::rng::Rng::new(47);
        let mut s = HallScratch::default();
        let mut checked = 0;
        for _ in 0..400 {
            let Some((b, halls)) = random_halls(&mut rng) else {
                continue;
            };
            for _ in 0..10 {
                let pct = 5 + rng.below(40) as u32;
                let occupied: Vec<bool> = (0..b.len()).map(|_| rng.chance(pct)).collect();
                let expected = joined_by_walks(&halls, &b, &occupied);
                assert_eq!(halls.joined_now(&b, &occupied, &mut s), expected);
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked} positions");
    }

    #[test]
    fn a_box_moved_cuts_what_the_position_measured_afresh_cuts() {
        let mut rng = crate::rng::Rng::new(48);
        let (mut s, mut fresh) = (HallScratch::default(), HallScratch::default());
        let (mut checked, mut in_halls) = (0, 0);
        for _ in 0..400 {
            let Some((b, halls)) = random_halls(&mut rng) else {
                continue;
            };
            let cells: Vec<Cell> = b.cells().collect();
            for _ in 0..10 {
                let pct = 5 + rng.below(40) as u32;
                let mut occupied: Vec<bool> = (0..b.len()).map(|_| rng.chance(pct)).collect();
                halls.cut(&b, &occupied, &mut s);
                // Several children of one parent, each from the parent's pieces.
                for _ in 0..8 {
                    let from = cells[rng.below(cells.len())];
                    let to = cells[rng.below(cells.len())];
                    if !occupied[from] || occupied[to] {
                        continue;
                    }
                    (occupied[from], occupied[to]) = (false, true);
                    let moved = halls.cut_after_move(&b, &occupied, &mut s, (from, to));
                    assert_eq!(moved, halls.cut(&b, &occupied, &mut fresh));
                    // With nothing measured before, it measures afresh.
                    let blank = &mut HallScratch::default();
                    assert_eq!(
                        halls.cut_after_move(&b, &occupied, blank, (from, to)),
                        moved
                    );
                    (occupied[from], occupied[to]) = (true, false);
                    checked += 1;
                    in_halls += usize::from(halls.hall[from].is_some() && halls.hall[to].is_some());
                }
            }
        }
        assert!(
            checked > 500 && in_halls > 100,
            "{checked} moves, {in_halls} in halls"
        );
    }

    #[test]
    fn a_board_with_one_hall_has_nothing_to_cut() {
        let (_, b) = board("######\n#@$. #\n#    #\n######");
        let halls = Halls::new(&b);
        let full = vec![true; b.len()];
        assert_eq!(halls.cut(&b, &full, &mut HallScratch::default()), 0);
    }
}
