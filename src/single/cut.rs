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
        // disc: discovery time (0 = unseen); low: low-link; last: the largest
        // discovery time in the subtree; parent_dir: the step that discovered
        // the cell; next_dir: the DFS's cursor over the cell's neighbours.
        let mut disc = vec![0u32; n];
        let mut low = vec![0u32; n];
        let mut last = vec![0u32; n];
        let mut parent_dir = vec![u8::MAX; n];
        let mut next_dir = vec![0u8; n];
        let mut order: Vec<u32> = Vec::new();
        let mut stack: Vec<u32> = vec![root as u32];
        let mut time = 1u32;
        disc[root] = time;
        low[root] = time;
        order.push(root as u32);
        while let Some(&top) = stack.last() {
            let v = top as usize;
            let d = next_dir[v];
            if d < 4 {
                next_dir[v] = d + 1;
                let dir = Direction::from_index(d as usize);
                let w = grid.step(v, dir);
                if grid.is_wall(w) {
                    continue;
                }
                if disc[w] == 0 {
                    time += 1;
                    disc[w] = time;
                    low[w] = time;
                    parent_dir[w] = d;
                    stack.push(w as u32);
                    order.push(w as u32);
                } else if parent_dir[v] == u8::MAX
                    || dir != Direction::from_index(parent_dir[v] as usize).opposite()
                {
                    low[v] = low[v].min(disc[w]);
                }
            } else {
                stack.pop();
                last[v] = time;
                if let Some(&p) = stack.last() {
                    let p = p as usize;
                    low[p] = low[p].min(low[v]);
                }
            }
        }
        drop(next_dir);
        for &v in &order {
            let v = v as usize;
            let is_root = v == root;
            let mut side = [0u8; 4];
            let mut child_label = [u8::MAX; 4];
            let mut next_label = if is_root { 0 } else { 1 };
            // Children first: each child cut off from the ancestors is its own group.
            for (i, &w) in grid.neighbours(v).iter().enumerate() {
                if grid.is_floor(w) && parent_dir[w] as usize == i && disc[w] > disc[v] {
                    let label = if is_root || low[w] >= disc[v] {
                        next_label += 1;
                        next_label - 1
                    } else {
                        0
                    };
                    child_label[i] = label;
                    side[i] = label;
                }
            }
            for (i, &w) in grid.neighbours(v).iter().enumerate() {
                if grid.is_wall(w) || child_label[i] != u8::MAX || disc[w] < disc[v] {
                    // Walls do not matter; the parent and ancestors are group 0.
                    continue;
                }
                // A descendant reached by a back edge: it lies in one child's subtree.
                for (j, &c) in grid.neighbours(v).iter().enumerate() {
                    if child_label[j] != u8::MAX && disc[c] <= disc[w] && disc[w] <= last[c] {
                        side[i] = child_label[j];
                    }
                }
            }
            labels[v] = side[0] | side[1] << 2 | side[2] << 4 | side[3] << 6;
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
