//! Where the player can walk: the expanded node's area, kept marked while
//! its pushes are tried, and floods for the children's normalized player
//! cells and for the feature search's area counts.

use crate::grid::Direction;
use crate::multi::board::{Board, NONE};

/// Flood marks and scratch, reused for every flood of a search.
pub(super) struct PlayerArea {
    /// `reach[c] == parent` marks a cell of the expanded node's area.
    reach: Vec<u32>,
    /// The same for the other floods.
    seen: Vec<u32>,
    stamp: u32,
    parent: u32,
    /// Cells in the expanded node's area.
    parent_len: usize,
    queue: Vec<u16>,
}

impl PlayerArea {
    pub fn new(cells: usize) -> PlayerArea {
        PlayerArea {
            reach: vec![0; cells],
            seen: vec![0; cells],
            stamp: 0,
            parent: 0,
            parent_len: 0,
            queue: Vec::new(),
        }
    }

    /// Floods the expanded node's area from `from` (boxes per `occupied`)
    /// and keeps it marked; returns the smallest cell in it.
    pub fn flood_parent(&mut self, board: &Board, occupied: &[bool], from: u16) -> u16 {
        self.stamp += 1;
        self.parent = self.stamp;
        let least =
            board.flood_player(occupied, &mut self.reach, self.stamp, &mut self.queue, from);
        self.parent_len = self.queue.len();
        least
    }

    /// True when `c` is in the expanded node's area.
    pub fn in_parent(&self, c: u16) -> bool {
        self.reach[c as usize] == self.parent
    }

    /// Cells in the expanded node's area.
    pub fn parent_len(&self) -> usize {
        self.parent_len
    }

    /// The smallest cell the player reaches from `from`: the normalized player.
    pub fn normalize(&mut self, board: &Board, occupied: &[bool], from: u16) -> u16 {
        self.stamp += 1;
        board.flood_player(occupied, &mut self.seen, self.stamp, &mut self.queue, from)
    }

    /// The number of areas the boxes cut the free floor into.
    pub fn count_areas(&mut self, board: &Board, occupied: &[bool]) -> u32 {
        self.stamp += 1;
        let mut areas = 0u32;
        for c in 0..board.len() as u16 {
            if !occupied[c as usize] && self.seen[c as usize] != self.stamp {
                areas += 1;
                board.flood_player(occupied, &mut self.seen, self.stamp, &mut self.queue, c);
            }
        }
        areas
    }

    /// True when a box newly on `cell` (it came from `freed`, where the
    /// player now stands) leaves the expanded node's area connected: the
    /// area cells around `cell` form one run on the ring of its eight
    /// neighbours, so every walk through `cell` has a way round it.
    /// Sufficient, not necessary.
    pub fn keeps_whole(&self, board: &Board, occupied: &[bool], cell: u16, freed: u16) -> bool {
        let inside =
            |c: u16| c != NONE && !occupied[c as usize] && (c == freed || self.in_parent(c));
        // The ring in order N, NE, E, SE, S, SW, W, NW.
        let order = [
            Direction::North,
            Direction::East,
            Direction::South,
            Direction::West,
        ];
        let mut ring = [false; 8];
        for (k, &d) in order.iter().enumerate() {
            let e = order[(k + 1) % 4];
            let (a, c) = (board.step(cell, d), board.step(cell, e));
            ring[2 * k] = inside(a);
            let corner = if a != NONE {
                board.step(a, e)
            } else if c != NONE {
                board.step(c, d)
            } else {
                NONE
            };
            ring[2 * k + 1] = inside(corner);
        }
        // Count the runs of area cells that hold a side neighbour of `cell`.
        let mut runs = 0;
        for k in 0..8 {
            if ring[k] && !ring[(k + 7) % 8] {
                let side = (k..k + 8).take_while(|&j| ring[j % 8]).any(|j| j % 2 == 0);
                runs += side as u32;
            }
        }
        runs <= 1
    }
}
