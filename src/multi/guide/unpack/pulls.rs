//! A box's moves in the backward search: every cell it can be pulled to,
//! pull after pull, the player walking between pulls and the other boxes
//! standing still, each with the player's cell after the last pull and the
//! least cell of the player's area there (the flood that found the pull
//! found it too).

use crate::grid::Direction;
use crate::multi::board::{Board, Cell};
use crate::multi::rows::{FloorRows, RowArea};

/// Where a box's pulls end: its cell, the player's, and the least cell of
/// the player's area with the box there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pulled {
    pub to: Cell,
    pub player: Cell,
    pub least: Cell,
}

/// Scratch space for the player's floods while a box is pulled about.
pub(super) struct Puller {
    marks: Vec<u32>,
    stamp: u32,
    queue: Vec<Cell>,
    /// The same floods by rows, on boards with them ([`Board::rows`]).
    area: RowArea,
    blocked: Vec<u64>,
    seen: Vec<[bool; 4]>,
    /// The box's cell after each pull and the way the player stepped, in
    /// the order found; the `k`-th is the `k`-th [`Pulled`] of the last
    /// [`Puller::pulls`].
    states: Vec<(Cell, Direction)>,
    /// Per state, the one its pull was made from (`None` for a first pull).
    before: Vec<Option<u32>>,
    /// The least cell of the last flood's area.
    least: Cell,
}

impl Puller {
    pub fn new(board: &Board) -> Puller {
        Puller {
            marks: vec![0; board.len()],
            stamp: 0,
            queue: Vec::new(),
            area: RowArea::default(),
            blocked: vec![0; board.rows.as_ref().map_or(0, FloorRows::len)],
            seen: vec![[false; 4]; board.len()],
            states: Vec::new(),
            before: Vec::new(),
            least: Cell::new(0),
        }
    }

    /// Every (cell, player cell) the box on `from` can be pulled to, the
    /// player standing in `area` (`area(c)` true inside) and `occupied`
    /// holding every box, `from` included. Each cell comes once per side
    /// the player can end on; `occupied` is as it was after.
    pub fn pulls(
        &mut self,
        board: &Board,
        occupied: &mut [bool],
        from: Cell,
        area: impl Fn(Cell) -> bool,
    ) -> Vec<Pulled> {
        for s in &mut self.seen {
            *s = [false; 4];
        }
        self.states.clear();
        self.before.clear();
        // A pull in `dir`: the player beside the box steps on, the box follows.
        for dir in Direction::ALL {
            let Some(side) = board.step(from, dir) else {
                continue;
            };
            let beyond = board.step(side, dir);
            if area(side) && beyond.is_some_and(|b| !occupied[b]) {
                self.seen[side][dir.index()] = true;
                self.states.push((side, dir));
                self.before.push(None);
            }
        }
        occupied[from] = false;
        if let Some(rows) = &board.rows {
            self.blocked.iter_mut().for_each(|r| *r = 0);
            for c in board.cells().filter(|&c| occupied[c]) {
                rows.put(&mut self.blocked, c, true);
            }
        }
        let mut out = Vec::new();
        let mut head = 0;
        // The box's cell of the last flood, whose area holds the player.
        let mut flooded: Option<Cell> = None;
        while let Some(&(c, dir)) = self.states.get(head) {
            head += 1;
            let player = board.step(c, dir).expect("the player stepped there");
            if flooded != Some(c) || !self.reached(board, player) {
                self.flood(board, occupied, c, player);
                flooded = Some(c);
            }
            let least = self.least;
            out.push(Pulled {
                to: c,
                player,
                least,
            });
            for d in Direction::ALL {
                let Some(side) = board.step(c, d) else {
                    continue;
                };
                let free = board.step(side, d).is_some_and(|b| !occupied[b] && b != c);
                if free && !self.seen[side][d.index()] && self.reached(board, side) {
                    self.seen[side][d.index()] = true;
                    self.states.push((side, d));
                    self.before.push(Some(head as u32 - 1));
                }
            }
        }
        occupied[from] = true;
        out
    }

    /// The pulls of the last [`Puller::pulls`] that lead to its `k`-th,
    /// first to last, by their index among its [`Pulled`]s, each with the
    /// way the player stepped (the box following).
    pub fn pulls_to(&self, k: usize) -> Vec<(usize, Direction)> {
        let mut chain = vec![(k, self.states[k].1)];
        let mut at = k;
        while let Some(before) = self.before[at] {
            at = before as usize;
            chain.push((at, self.states[at].1));
        }
        chain.reverse();
        chain
    }

    /// Floods the player's area from `player`, the box on `c` and the
    /// other boxes on `occupied`, and keeps its least cell.
    fn flood(&mut self, board: &Board, occupied: &mut [bool], c: Cell, player: Cell) {
        if let Some(rows) = &board.rows {
            rows.put(&mut self.blocked, c, true);
            self.area.flood(rows, &self.blocked, player);
            rows.put(&mut self.blocked, c, false);
            self.least = self.area.least(rows).unwrap_or(player);
            return;
        }
        occupied[c] = true;
        self.stamp += 1;
        self.least = board.flood_player(
            occupied,
            &mut self.marks,
            self.stamp,
            &mut self.queue,
            player,
        );
        occupied[c] = false;
    }

    /// True when the last flood reached `c`.
    fn reached(&self, board: &Board, c: Cell) -> bool {
        match &board.rows {
            Some(rows) => self.area.contains(rows, c),
            None => self.marks[c] == self.stamp,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn a_box_in_a_corridor_is_pulled_back_towards_the_player() {
        let level = &parse_xsb(b"#######\n#@  $.#\n#######", 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let at = |c| board.compact(level.grid.cell(1, c));
        let mut occupied = vec![false; board.len()];
        occupied[at(4)] = true;
        let area = |c: Cell| c != at(4) && c != at(5);
        let mut puller = Puller::new(&board);
        let got = puller.pulls(&board, &mut occupied, at(4), area);
        // Pulled west to columns 3 and 2 (the player ends one further west);
        // never to column 1, where no room is left for the player.
        let cells: Vec<Cell> = got.iter().map(|p| p.to).collect();
        assert_eq!(cells, vec![at(3), at(2)]);
        assert_eq!(got[1].player, at(1));
        // The player's area west of the box: its least cell is column 1's.
        assert!(got.iter().all(|p| p.least == at(1)));
        assert!(occupied[at(4)]);
    }
}
