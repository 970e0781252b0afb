//! Walk lengths between the sides of a box: the only walks a single-box search needs.
//!
//! Between two pushes the player walks from one side of the box to another
//! with the box as an obstacle. These lengths are asked for at every state, so
//! they are answered in this order, cheapest first:
//!
//! 1. the shortest shapes: two perpendicular sides with a free corner are 2
//!    steps apart, two opposite sides with a free 3-cell detour 4 (nothing
//!    shorter exists: the grid is bipartite and the only shorter walks cross
//!    the box);
//!    Failing those, the 6-step shapes (round the box, or round the blocked
//!    corner) are tried the same way;
//! 2. a side group check ([`SideGroups`], built on first need): different
//!    groups, no walk at all;
//! 3. a corridor cell (exactly two open sides) lies on a chain of corridor
//!    cells between two junctions; every cell of the chain has the same detour
//!    length, so one flood answers the whole chain;
//! 4. otherwise one goal-directed search (A*, see [`Flood::distances_to`])
//!    from the side to every side asked about at once.
//!
//! Answers from 3 and 4 are cached per cell, so no search is ever repeated.

use super::cut::SideGroups;
use super::flood::Flood;
use crate::grid::{Direction, Grid};

const UNKNOWN: u64 = u64::MAX;

/// Exact walk lengths between the sides of a box, computed on demand.
#[derive(Clone, Debug)]
pub struct SideDistances<'g> {
    grid: &'g Grid,
    /// The player's start: the root of the side groups' search.
    root: usize,
    groups: Option<SideGroups>,
    flood: Flood,
    /// Per cell, one more than its row in `cache`, or 0: zero-filled, so the
    /// pages of cells never measured are never touched.
    slot: Vec<u32>,
    /// Per cached cell, the six side pairs (see [`pair`]).
    cache: Vec<[u64; 6]>,
    /// Walk searches run (for statistics).
    pub searches: u64,
}

/// Index of an unordered pair of distinct sides.
fn pair(a: usize, b: usize) -> usize {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    match (a, b) {
        (0, 1) => 0,
        (0, 2) => 1,
        (0, 3) => 2,
        (1, 2) => 3,
        (1, 3) => 4,
        _ => 5,
    }
}

impl<'g> SideDistances<'g> {
    /// Prepares the oracle for the floor component of `player`.
    pub fn new(grid: &'g Grid, player: usize) -> SideDistances<'g> {
        SideDistances {
            grid,
            root: player,
            groups: None,
            flood: Flood::new(grid.len()),
            slot: vec![0; grid.len()],
            cache: Vec::new(),
            searches: 0,
        }
    }

    /// The reusable flood, for callers that need walks of their own.
    pub fn flood(&mut self) -> &mut Flood {
        &mut self.flood
    }

    /// Steps from side `a` to side `b` of a box on `cell`, or `None` when either
    /// side is wall or the box separates them. `cell` must be in the component.
    pub fn distance(&mut self, cell: usize, a: Direction, b: Direction) -> Option<u64> {
        self.walks_from_side(cell, a, 1 << b.index())[b.index()]
    }

    /// Steps from side `a` to every side in `want` (bit `i` for the side in
    /// direction `i`); `None` for sides not wanted, walled or cut off.
    /// Asking for several sides at once lets one search answer them all.
    #[inline]
    pub fn walks_from_side(&mut self, cell: usize, a: Direction, want: u8) -> [Option<u64>; 4] {
        let mut out = [None; 4];
        let mut pending = 0u8;
        for b in Direction::ALL {
            if want & (1 << b.index()) == 0 {
                continue;
            }
            match self.short(cell, a, b) {
                Ok(d) => out[b.index()] = d,
                Err(()) => pending |= 1 << b.index(),
            }
        }
        if pending != 0 {
            self.measure(cell, a, pending, &mut out);
        }
        out
    }

    /// The 0-, 2- and 4-step answers, and walls: `Err` when it takes a measurement.
    #[inline]
    fn short(&self, cell: usize, a: Direction, b: Direction) -> Result<Option<u64>, ()> {
        let grid = self.grid;
        let (sa, sb) = (grid.step(cell, a), grid.step(cell, b));
        if grid.is_wall(sa) || grid.is_wall(sb) {
            return Ok(None);
        }
        if a == b {
            return Ok(Some(0));
        }
        if a.opposite() != b {
            // Perpendicular: the corner cell beside both sides.
            if grid.is_floor(grid.step(sa, b)) {
                return Ok(Some(2));
            }
        } else {
            for q in perpendicular(a) {
                let (x, y, z) = (grid.step(sa, q), grid.step(cell, q), grid.step(sb, q));
                if grid.is_floor(x) && grid.is_floor(y) && grid.is_floor(z) {
                    return Ok(Some(4));
                }
            }
        }
        Err(())
    }

    /// The walks of length 6, the shortest once no 2- or 4-step shape is free:
    /// round the other three sides or outwards round the blocked corner
    /// (perpendicular sides), or a U two cells wide (opposite sides).
    fn six_step_shape(&self, cell: usize, a: Direction, b: Direction) -> bool {
        let grid = self.grid;
        // Two steps out from the border can leave the vector: such cells are wall.
        let floor = |c: usize| grid.floor_at(c);
        let (sa, sb) = (grid.step(cell, a), grid.step(cell, b));
        let paths: [[usize; 5]; 2] = if a.opposite() != b {
            let (na, nb) = (a.opposite(), b.opposite());
            let beyond = grid.step(sa, a);
            [
                [
                    grid.step(sa, nb),
                    grid.step(cell, nb),
                    grid.step(grid.step(cell, nb), na),
                    grid.step(cell, na),
                    grid.step(grid.step(cell, na), b),
                ],
                [
                    beyond,
                    grid.step(beyond, b),
                    grid.step(grid.step(beyond, b), b),
                    grid.step(grid.step(sa, b), b),
                    grid.step(sb, b),
                ],
            ]
        } else {
            perpendicular(a).map(|q| {
                [
                    grid.step(sa, q),
                    grid.step(grid.step(sa, q), q),
                    grid.step(grid.step(cell, q), q),
                    grid.step(grid.step(sb, q), q),
                    grid.step(sb, q),
                ]
            })
        };
        paths.iter().any(|path| path.iter().all(|&c| floor(c)))
    }

    /// The side groups, labelled on first use: open floor never needs them.
    fn groups(&mut self) -> &SideGroups {
        let (grid, root) = (self.grid, self.root);
        self.groups
            .get_or_insert_with(|| SideGroups::new(grid, root))
    }

    /// Steps 2 to 4 of the module docs, for the sides in `pending` that the
    /// short shapes do not settle.
    #[inline(never)]
    fn measure(&mut self, cell: usize, a: Direction, pending: u8, out: &mut [Option<u64>; 4]) {
        let grid = self.grid;
        let mut targets: [usize; 3] = [0; 3];
        let mut sides: [usize; 3] = [0; 3];
        let mut count = 0;
        for b in Direction::ALL {
            let i = b.index();
            if pending & (1 << i) == 0 {
                continue;
            }
            if self.six_step_shape(cell, a, b) {
                out[i] = Some(6);
                continue;
            }
            if !self.groups().connected(cell, a, b) {
                continue;
            }
            let p = pair(a.index(), i);
            if let Some(row) = self.cached(cell)
                && row[p] != UNKNOWN
            {
                out[i] = Some(row[p]);
                continue;
            }
            targets[count] = grid.step(cell, b);
            sides[count] = i;
            count += 1;
        }
        if count == 0 {
            return;
        }
        let open = Direction::ALL
            .into_iter()
            .filter(|&d| grid.is_floor(grid.step(cell, d)))
            .count();
        if open == 2 {
            // A corridor cell has one pair of open sides: the chain's detour.
            let b = Direction::from_index(sides[0]);
            out[sides[0]] = Some(self.fill_chain(cell, a, b));
            return;
        }
        self.searches += 1;
        let mut found = [None; 3];
        self.flood.distances_to(
            grid,
            grid.step(cell, a),
            &targets[..count],
            cell,
            &mut found[..count],
        );
        for k in 0..count {
            let d = found[k].expect("groups said the sides are connected");
            self.row_mut(cell)[pair(a.index(), sides[k])] = d;
            out[sides[k]] = Some(d);
        }
    }

    fn cached(&self, cell: usize) -> Option<&[u64; 6]> {
        let s = self.slot[cell] as usize;
        (s != 0).then(|| &self.cache[s - 1])
    }

    fn row_mut(&mut self, cell: usize) -> &mut [u64; 6] {
        if self.slot[cell] == 0 {
            self.cache.push([UNKNOWN; 6]);
            self.slot[cell] = self.cache.len() as u32;
        }
        &mut self.cache[self.slot[cell] as usize - 1]
    }

    /// Measures the detour around a corridor cell once for its whole chain.
    /// Returns the detour's length.
    fn fill_chain(&mut self, cell: usize, a: Direction, b: Direction) -> u64 {
        let grid = self.grid;
        // Walk the chain both ways from `cell` to its ends (cells with another
        // number of open sides than two), collecting its cells.
        let mut chain = vec![cell];
        let mut ends = [cell; 2];
        let mut ring = false;
        for (k, first) in [a, b].into_iter().enumerate() {
            let (mut prev, mut at) = (cell, grid.step(cell, first));
            loop {
                if at == cell {
                    ring = true;
                    break;
                }
                let open: Vec<usize> = grid
                    .neighbours(at)
                    .into_iter()
                    .filter(|&n| grid.is_floor(n))
                    .collect();
                if open.len() != 2 {
                    break;
                }
                chain.push(at);
                let next = if open[0] == prev { open[1] } else { open[0] };
                (prev, at) = (at, next);
            }
            ends[k] = at;
            if ring {
                break;
            }
        }
        let length = if ring {
            // A closed ring of corridor cells: the way round is the rest of it.
            chain.len() as u64 - 2
        } else {
            // Chain of k cells between junctions X and Y: (k - 1) + dist(X, Y)
            // with the chain cut; blocking `cell` cuts it.
            let (x, y) = (ends[0], ends[1]);
            self.searches += 1;
            let mut between = [None];
            self.flood.distances_to(grid, x, &[y], cell, &mut between);
            chain.len() as u64 - 1 + between[0].expect("groups said the sides are connected")
        };
        for c in chain {
            // Each chain cell's two open sides form its only pair.
            let open: Vec<usize> = Direction::ALL
                .into_iter()
                .filter(|&d| grid.is_floor(grid.step(c, d)))
                .map(Direction::index)
                .collect();
            self.row_mut(c)[pair(open[0], open[1])] = length;
        }
        length
    }

    pub fn memory_bytes(&self) -> usize {
        self.groups.as_ref().map_or(0, SideGroups::memory_bytes)
            + self.flood.memory_bytes()
            + self.slot.len() * 4
            + self.cache.capacity() * 48
    }
}

fn perpendicular(d: Direction) -> [Direction; 2] {
    match d {
        Direction::North | Direction::South => [Direction::East, Direction::West],
        Direction::East | Direction::West => [Direction::North, Direction::South],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::generator::{GenSpec, Kind, generate};

    /// Every side pair of every reachable cell agrees with a plain flood.
    fn agrees_with_floods(grid: &Grid, player: usize) {
        let mut sides = SideDistances::new(grid, player);
        let mut flood = Flood::new(grid.len());
        let mut reach = vec![false; grid.len()];
        flood.run(grid, player, usize::MAX, |c, _| {
            reach[c] = true;
            false
        });
        for b in (0..grid.len()).filter(|&c| reach[c]) {
            for a in Direction::ALL {
                for c in Direction::ALL {
                    let (sa, sc) = (grid.step(b, a), grid.step(b, c));
                    let want = if grid.is_wall(sa) || grid.is_wall(sc) {
                        None
                    } else {
                        flood.run(grid, sa, b, |_, _| false);
                        flood.distance(sc)
                    };
                    let got = sides.distance(b, a, c);
                    assert_eq!(got, want, "cell {:?} sides {a} {c}", grid.position(b));
                }
            }
        }
    }

    #[test]
    fn matches_floods_on_generated_grids() {
        let mut checked = 0;
        for kind in Kind::ALL {
            for width in 1..=3 {
                for seed in 0..6 {
                    let spec = GenSpec {
                        rows: 23,
                        cols: 31,
                        kind,
                        walls: 25,
                        width,
                        loops: 15,
                        seed,
                    };
                    if let Some(m) = generate(&spec, 0) {
                        agrees_with_floods(&m.grid, m.player);
                        checked += 1;
                    }
                }
            }
        }
        // Five kinds, three widths, six seeds: most grids are made.
        assert!(checked >= 60, "only {checked} grids checked");
    }

    #[test]
    fn rings_and_chains() {
        let text = [
            "#########",
            "#.......#",
            "#.#####.#",
            "#.......#",
            "#########",
            "#..#....#",
            "#.##.##.#",
            "#....#..#",
        ];
        let mut grid = Grid::new(text.len(), 9);
        for (r, row) in text.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '.' {
                    grid.set_floor(grid.cell(r, c));
                }
            }
        }
        agrees_with_floods(&grid, grid.cell(1, 1));
        agrees_with_floods(&grid, grid.cell(5, 1));
    }
}
