//! A lower bound on the pushes left: the box's own distance to the target.
//!
//! A push moves the box one cell and needs the cell behind it free. Counting
//! the fewest pushes from a cell as if the player could always get behind the
//! box, and as if any push could also be made the other way round, never
//! exceeds the real count; cells from which no pushes at all lead to the
//! target (dead squares, one-way pockets) get no bound and are never entered. The layered search uses it as an A* heuristic:
//! states whose pushes plus bound pass the optimum are never built.
//!
//! Both relaxations are needed for the search to stay exact and simple: one
//! push changes the bound by exactly one (it is a distance in an undirected
//! graph, and the grid is bipartite), so the search's f = pushes + bound only
//! grows in steps of 0 or 2. A one-way bound (pushes only forwards) is
//! larger, but a push into a pocket can raise it by 3 or more, and then a
//! box cell can be entered with more pushes before it is entered with fewer.

use crate::grid::{Direction, Grid};

/// The bound of a cell from which no push sequence reaches the target.
pub const NO_PATH: u32 = u32::MAX;

/// Marks a cell pass 1 found live, until pass 2 gives it its distance.
const LIVE: u32 = u32::MAX - 1;

/// Per cell, the fewest pushes from it to `target` with the player ignored
/// and every push allowed both ways, among the cells from which pushes made
/// as the rules allow can bring the box to the target; [`NO_PATH`] for the
/// others (dead squares, pockets a box cannot leave). Two breadth-first
/// searches from the target: over pulls, for those cells, then over pushes
/// both ways between them.
///
/// ```
/// use sokoban::level::parse_single;
/// use sokoban::single::bound::{push_distances, NO_PATH};
///
/// let maze = &parse_single(b"#######\n#S.B.T#\n#######\n", 100).unwrap().mazes[0];
/// let bound = push_distances(&maze.grid, maze.target);
/// assert_eq!(bound[maze.box_cell], 2);
/// // A box against the west wall has no cell to be pushed from.
/// assert_eq!(bound[maze.player], NO_PATH);
/// ```
pub fn push_distances(grid: &Grid, target: usize) -> Vec<u32> {
    let mut bound = vec![NO_PATH; grid.len()];
    if grid.is_wall(target) {
        return bound;
    }
    bound[target] = LIVE;
    let mut queue = vec![target as u32];
    let mut head = 0;
    while head < queue.len() {
        let to = queue[head] as usize;
        head += 1;
        for d in Direction::ALL {
            // The box came to `to` pushed in direction `d`: from `to - d`,
            // with the player on `to - 2d`.
            let from = grid.step(to, d.opposite());
            if grid.is_floor(from)
                && bound[from] == NO_PATH
                && grid.is_floor(grid.step(from, d.opposite()))
            {
                bound[from] = LIVE;
                queue.push(from as u32);
            }
        }
    }
    bound[target] = 0;
    queue.clear();
    queue.push(target as u32);
    head = 0;
    while head < queue.len() {
        let to = queue[head] as usize;
        head += 1;
        let next = bound[to] + 1;
        for d in Direction::ALL {
            // A box on `from` moves to `to` by a push in direction `d` (the
            // player behind `from`), or the other way (the player behind `to`).
            let from = grid.step(to, d.opposite());
            if bound[from] == LIVE
                && (grid.is_floor(grid.step(from, d.opposite())) || grid.is_floor(grid.step(to, d)))
            {
                bound[from] = next;
                queue.push(from as u32);
            }
        }
    }
    bound
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_single;

    /// Brute force: the live cells by relaxing pushes as made, then the
    /// distances by relaxing pushes both ways between live cells.
    fn relaxed(grid: &Grid, target: usize) -> Vec<u32> {
        let mut live = vec![false; grid.len()];
        live[target] = true;
        let mut changed = true;
        while changed {
            changed = false;
            for c in 0..grid.len() {
                if grid.is_wall(c) || live[c] {
                    continue;
                }
                for d in Direction::ALL {
                    let (to, behind) = (grid.step(c, d), grid.step(c, d.opposite()));
                    if grid.is_floor(behind) && live[to] {
                        live[c] = true;
                        changed = true;
                    }
                }
            }
        }
        let mut bound = vec![NO_PATH; grid.len()];
        bound[target] = 0;
        loop {
            let mut changed = false;
            for c in 0..grid.len() {
                if !live[c] {
                    continue;
                }
                for d in Direction::ALL {
                    let (to, behind) = (grid.step(c, d), grid.step(c, d.opposite()));
                    let pushable = grid.is_floor(behind) || grid.floor_at(grid.step(to, d));
                    if live[to] && pushable && bound[to] != NO_PATH {
                        let via = bound[to] + 1;
                        if via < bound[c] {
                            bound[c] = via;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return bound;
            }
        }
    }

    #[test]
    fn matches_relaxation_on_a_walled_room() {
        let text = b"########\n\
                     #S.....#\n\
                     #.##.#.#\n\
                     #..B...#\n\
                     #.#..#T#\n\
                     #......#\n\
                     ########\n";
        let maze = &parse_single(text, 100).unwrap().mazes[0];
        let bound = push_distances(&maze.grid, maze.target);
        assert_eq!(bound, relaxed(&maze.grid, maze.target));
        assert_ne!(bound[maze.box_cell], NO_PATH);
    }

    /// The property the layered search relies on: every push between two
    /// cells with a bound changes it by exactly one.
    #[test]
    fn a_push_changes_the_bound_by_one() {
        use crate::tools::generator::{GenSpec, Kind, generate};
        let mut checked = 0;
        for kind in Kind::ALL {
            for seed in 0..8 {
                let spec = GenSpec {
                    rows: 25,
                    cols: 30,
                    kind,
                    walls: 30,
                    width: 1 + seed as usize % 3,
                    loops: 10,
                    seed,
                };
                let Some(maze) = generate(&spec, 0) else {
                    continue;
                };
                let (grid, bound) = (&maze.grid, push_distances(&maze.grid, maze.target));
                assert_eq!(bound, relaxed(grid, maze.target));
                for c in (0..grid.len()).filter(|&c| bound[c] != NO_PATH) {
                    for d in Direction::ALL {
                        let (to, behind) = (grid.step(c, d), grid.step(c, d.opposite()));
                        if grid.is_floor(to) && grid.is_floor(behind) && bound[to] != NO_PATH {
                            assert_eq!(bound[c].abs_diff(bound[to]), 1);
                        }
                    }
                }
                checked += 1;
            }
        }
        assert!(checked >= 25, "only {checked} grids checked");
    }
}
