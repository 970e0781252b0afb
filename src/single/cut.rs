//! Which sides of a box the player can walk between without pushing it.
//!
//! With the box on cell `b`, two of `b`'s neighbours are connected in the grid
//! minus `b` exactly when the two edges to them lie in one biconnected block.
//! One depth-first search (Tarjan's low-links, iterative so deep mazes cannot
//! overflow the stack) labels, for every cell, its four sides by the component
//! of the grid minus that cell they fall in. Afterwards the question costs one
//! byte read, and no flood is ever started towards a side it cannot reach.

use crate::grid::{Direction, Grid};

/// Per cell, a 2-bit component label for each of its four sides.
#[derive(Clone, Debug)]
pub struct SideGroups {
    labels: Vec<u8>,
}

impl SideGroups {
    /// Labels every cell of the floor component that contains `root`.
    /// Cells outside it keep label 0 on every side and must not be asked about.
    pub fn new(grid: &Grid, root: usize) -> SideGroups {
        let n = grid.len();
        let mut labels = vec![0u8; n];
        if grid.is_wall(root) {
            return SideGroups { labels };
        }
        // disc: discovery time (0 = unseen); low: low-link; children: per
        // cell, a bit for each side whose neighbour is its DFS child. The
        // stack holds (cell, next side to try, side of the parent).
        let mut disc = vec![0u32; n];
        let mut low = vec![0u32; n];
        let mut children = vec![0u8; n];
        let mut stack: Vec<(u32, u8, u8)> = vec![(root as u32, 0, u8::MAX)];
        let mut time = 1u32;
        disc[root] = time;
        low[root] = time;
        while let Some(top) = stack.last_mut() {
            let (v, side, parent) = (top.0 as usize, top.1, top.2);
            if side < 4 {
                top.1 += 1;
                let w = grid.neighbours(v)[side as usize];
                if grid.is_wall(w) || side == parent {
                    continue;
                }
                if disc[w] == 0 {
                    time += 1;
                    disc[w] = time;
                    low[w] = time;
                    children[v] |= 1 << side;
                    let back = Direction::from_index(side as usize).opposite().index() as u8;
                    stack.push((w as u32, 0, back));
                } else {
                    low[v] = low[v].min(disc[w]);
                }
                continue;
            }
            stack.pop();
            if let Some(&(p, _, _)) = stack.last() {
                let p = p as usize;
                low[p] = low[p].min(low[v]);
            }
            labels[v] = label_sides(grid, v, v == root, children[v], &disc, &low);
        }
        SideGroups { labels }
    }

    /// The component label of the side of `cell` in direction `side`.
    pub fn label(&self, cell: usize, side: Direction) -> u8 {
        (self.labels[cell] >> (2 * side.index())) & 3
    }

    /// True when the player can walk between two floor sides of a box on `cell`.
    pub fn connected(&self, cell: usize, a: Direction, b: Direction) -> bool {
        self.label(cell, a) == self.label(cell, b)
    }

    pub fn memory_bytes(&self) -> usize {
        self.labels.len()
    }
}

/// The four side labels of a finished cell `v`, packed 2 bits each. The
/// parent and every ancestor side are group 0; each child whose subtree has
/// no edge above `v` is a group of its own; a side reached by a back edge
/// from below joins the child whose subtree holds it (subtrees are
/// contiguous ranges of discovery times, in the children's order).
fn label_sides(
    grid: &Grid,
    v: usize,
    is_root: bool,
    children: u8,
    disc: &[u32],
    low: &[u32],
) -> u8 {
    let near = grid.neighbours(v);
    let mut side = [0u8; 4];
    let mut next_label = if is_root { 0 } else { 1 };
    // (discovery time, label) of each child, in discovery order.
    let mut kids: [(u32, u8); 4] = [(0, 0); 4];
    let mut count = 0;
    for i in 0..4 {
        if children & (1 << i) != 0 {
            let w = near[i];
            let label = if is_root || low[w] >= disc[v] {
                next_label += 1;
                next_label - 1
            } else {
                0
            };
            side[i] = label;
            kids[count] = (disc[w], label);
            count += 1;
        }
    }
    kids[..count].sort_unstable();
    for i in 0..4 {
        let w = near[i];
        if children & (1 << i) != 0 || grid.is_wall(w) || disc[w] < disc[v] {
            continue;
        }
        side[i] = kids[..count]
            .iter()
            .rev()
            .find(|(t, _)| *t <= disc[w])
            .map_or(0, |&(_, label)| label);
    }
    side[0] | side[1] << 2 | side[2] << 4 | side[3] << 6
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single::flood::Flood;

    fn grid(text: &str) -> Grid {
        let lines: Vec<&str> = text.lines().collect();
        let cols = lines.iter().map(|l| l.len()).max().unwrap();
        let mut g = Grid::new(lines.len(), cols);
        for (r, l) in lines.iter().enumerate() {
            for (c, ch) in l.chars().enumerate() {
                if ch == '.' {
                    g.set_floor(g.cell(r, c));
                }
            }
        }
        g
    }

    /// Checks every floor cell's side pairs against floods.
    fn agrees_with_floods(g: &Grid) {
        let root = (0..g.len()).find(|&c| g.is_floor(c)).unwrap();
        let groups = SideGroups::new(g, root);
        let mut flood = Flood::new(g.len());
        let mut reach = vec![false; g.len()];
        flood.run(g, root, usize::MAX, |c, _| {
            reach[c] = true;
            false
        });
        for b in (0..g.len()).filter(|&c| reach[c]) {
            for a in Direction::ALL {
                for c in Direction::ALL {
                    let (sa, sc) = (g.step(b, a), g.step(b, c));
                    if g.is_wall(sa) || g.is_wall(sc) {
                        continue;
                    }
                    flood.run(g, sa, b, |_, _| false);
                    let walkable = flood.distance(sc).is_some();
                    assert_eq!(
                        groups.connected(b, a, c),
                        walkable,
                        "cell {b} sides {a} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn labels_match_floods() {
        agrees_with_floods(&grid("....\n.#..\n....\n..#.\n.#.."));
        agrees_with_floods(&grid(".....\n.###.\n.#...\n.#.#.\n...#."));
        agrees_with_floods(&grid("...\n...\n..."));
        agrees_with_floods(&grid(".#.\n...\n.#."));
        agrees_with_floods(&grid("........."));
    }
}
