//! Out-of-plan boxes: boxes standing where the packing order will soon
//! shut them off from every target still to fill (Festival's out-of-plan
//! zones, Shoham and Schaeffer's FESS).
//!
//! Once the goals of a phase hold their boxes for good, they are walls,
//! and a box on a square from which no push reaches a target of a later
//! phase can never be used again: the plan is lost while it stands there.
//! A search led by the order sees that only after the goal is filled, when
//! it is too late to get the box out cheaply. So each phase is given the
//! zone of the *next* change: the squares lost once the next goal that
//! shuts some off is filled. Boxes there are out of plan, and a search can
//! clear them while there is still room to.
//!
//! [`OutOfPlan::count`] counts them; [`OutOfPlan::distance`] measures how
//! far a box stands from the zone, in pushes out of it, for an advisor
//! that moves the nearest box farther away.

use super::packing::Packing;
use crate::multi::board::{Board, Cell, Distance, UNREACHABLE};

/// Per phase of a packing order, the out-of-plan zone and the distances
/// from it.
#[derive(Clone, Debug)]
pub(crate) struct OutOfPlan {
    /// `zone[k][c]`: a box on `c` is out of plan while phase `k` fills.
    zone: Vec<Vec<bool>>,
    /// `distance[k][c]`: pushes from the zone of phase `k` to `c`, the
    /// targets held in phase `k` counted as walls.
    distance: Vec<Vec<Distance>>,
    /// The phase being filled once `n` targets are packed in plan order.
    phase_of_packed: Vec<usize>,
}

impl OutOfPlan {
    /// The zones of `packing`'s phases on `board`.
    pub fn new(board: &Board, packing: &Packing) -> OutOfPlan {
        let phases = packing.phases.len();
        let lost: Vec<Vec<bool>> = (0..phases).map(|k| lost_after(board, packing, k)).collect();
        // A phase takes the zone of the next change, so that boxes leave it
        // before the goal that shuts it is filled (the last phase has none).
        let last = phases.saturating_sub(1);
        let zone: Vec<Vec<bool>> = (0..phases)
            .map(|k| {
                let next = (k + 1..last).find(|&t| lost[t] != lost[k]);
                lost[next.unwrap_or(k)].clone()
            })
            .collect();
        let distance = zone
            .iter()
            .enumerate()
            .map(|(k, z)| pushes_from(board, z, &packing.held(k)))
            .collect();
        let phase_of_packed = packing
            .phases
            .iter()
            .enumerate()
            .flat_map(|(k, p)| std::iter::repeat_n(k, p.len()))
            .collect();
        OutOfPlan {
            zone,
            distance,
            phase_of_packed,
        }
    }

    /// The phase being filled with `packed` targets packed in plan order
    /// (`None` once all are).
    fn phase(&self, packed: u32) -> Option<usize> {
        self.phase_of_packed.get(packed as usize).copied()
    }

    /// Boxes among `boxes` out of plan with `packed` targets packed.
    pub fn count(&self, packed: u32, boxes: &[Cell]) -> u32 {
        self.phase(packed).map_or(0, |k| {
            boxes.iter().filter(|&&b| self.zone[k][b]).count() as u32
        })
    }

    /// Bytes held by the zones and their distances.
    pub fn memory_bytes(&self) -> usize {
        let zones: usize = self.zone.iter().map(Vec::len).sum();
        let distances: usize = self.distance.iter().map(Vec::len).sum();
        zones + 2 * distances + 8 * self.phase_of_packed.len()
    }

    /// Pushes from the zone to `c` with `packed` targets packed
    /// ([`UNREACHABLE`] when none get there, or all is packed).
    pub fn distance(&self, packed: u32, c: Cell) -> Distance {
        self.phase(packed)
            .map_or(UNREACHABLE, |k| self.distance[k][c])
    }
}

/// The squares lost once phase `k` is full: not a goal of phase `k` or
/// before, not dead, and no push reaches a target of a later phase from
/// there with those goals as walls. None after the last phase.
fn lost_after(board: &Board, packing: &Packing, k: usize) -> Vec<bool> {
    let n = board.len();
    let mut wall = vec![false; n];
    for c in board.cells() {
        wall[c] = packing.goal_phase_of(c).is_some_and(|p| p <= k);
    }
    let later: Vec<Cell> = packing.phases[k + 1..].iter().flatten().copied().collect();
    if later.is_empty() {
        return vec![false; n];
    }
    let open_later: Vec<Cell> = later.into_iter().filter(|&t| !wall[t]).collect();
    let to_later = board.box_distances(&open_later, &wall, true);
    board
        .cells()
        .map(|c| !wall[c] && !board.dead[c] && to_later[c] == UNREACHABLE)
        .collect()
}

/// Pushes from the cells of `zone` to every cell, `walls` standing.
fn pushes_from(board: &Board, zone: &[bool], walls: &[Cell]) -> Vec<Distance> {
    let mut wall = vec![false; board.len()];
    for &c in walls {
        wall[c] = true;
    }
    let starts: Vec<Cell> = board.cells().filter(|&c| zone[c] && !wall[c]).collect();
    board.box_distances(&starts, &wall, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, parse_xsb};

    /// `marked` drawn over the level of `text`: `x` where it holds, the
    /// level's own character elsewhere.
    fn drawn(text: &str, level: &Level, board: &Board, marked: impl Fn(Cell) -> bool) -> String {
        let mut rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        for c in board.cells().filter(|&c| marked(c)) {
            let (r, col) = level.grid.position(board.cells[c.index()]);
            rows[r][col] = 'x';
        }
        let rows: Vec<String> = rows.into_iter().map(String::from_iter).collect();
        rows.join("\n")
    }

    /// A row of goals filled from the west, with two columns below it
    /// that only the first two goals serve.
    const WEST_FIRST: &str = "\
#########
#....   #
#  #$$$ #
#  #$ @ #
#       #
#########";

    #[test]
    fn a_phase_takes_the_zone_its_next_change_shuts() {
        let level = parse_xsb(WEST_FIRST.as_bytes(), 1000).unwrap().remove(0);
        let board = Board::new(&level).unwrap();
        let packing = Packing::unpacked(&board, &|| false).expect("a plan");
        let at = |r, c| board.compact(level.grid.cell(r, c));
        let order: Vec<Vec<Cell>> = (1..5).map(|c| vec![at(1, c)]).collect();
        assert_eq!(packing.phases, order);
        let oop = OutOfPlan::new(&board, &packing);
        let draw = |marked: &dyn Fn(Cell) -> bool| drawn(WEST_FIRST, &level, &board, marked);
        // Filling the first goal shuts off the west column: no push gets a
        // box there to the other goals. Filling the second shuts off the
        // next column too, and that zone is the first phase's already.
        let lost = lost_after(&board, &packing, 0);
        let west_column = "#########\n#....   #\n#x #$$$ #\n#x #$ @ #\n#       #\n#########";
        assert_eq!(draw(&|c| lost[c]), west_column);
        let both_columns = "#########\n#....   #\n#xx#$$$ #\n#xx#$ @ #\n#       #\n#########";
        for k in 0..3 {
            assert_eq!(draw(&|c| oop.zone[k][c]), both_columns, "phase {k}");
        }
        assert!(!oop.zone[3].iter().any(|&z| z), "the last phase has none");
        // Counted by the targets packed: with all four packed, none.
        let boxes = [at(2, 1), at(2, 4), at(2, 5), at(3, 4)];
        assert_eq!(oop.count(0, &boxes), 1);
        assert_eq!(oop.count(4, &boxes), 0);
        // Pushes from the zone: a box below it is one push away.
        assert_eq!(oop.distance(0, at(3, 2)), 0);
        assert_eq!(oop.distance(0, at(4, 2)), 1);
        assert_eq!(oop.distance(4, at(4, 2)), UNREACHABLE);
    }
}
