//! `--algorithm dijkstra`: the single-box search as a plain Dijkstra.
//!
//! Same states and edges as the layered search (a push costs one push, a walk
//! round the box its length in walks), with the cost packed into one `u64`:
//! pushes in the high 32 bits, walks in the low 32, so one integer comparison
//! is the lexicographic one. The queue is the `priority-queue` crate's keyed
//! heap with decrease-key. Kept beside the layered search as a second,
//! independent route to the same optimum, and to measure the two against each
//! other in `bench`.

use super::layered::walks_from_start;
use super::sides::SideDistances;
use super::{SingleReport, SingleStats};
use crate::grid::Direction;
use crate::level::Maze;
use crate::moves::{Move, Solution};
use crate::search::dijkstra;

const PUSH: u64 = 1 << 32;

/// Solves a maze whose box is not on its target with a packed-cost Dijkstra.
pub fn solve(maze: &Maze) -> SingleReport {
    let grid = &maze.grid;
    debug_assert_ne!(
        maze.box_cell, maze.target,
        "solve() answers a box already home"
    );
    let n = grid.len();
    let mut sides = SideDistances::new(grid, maze.player);
    let from_start = walks_from_start(maze, &mut sides);
    let starts: Vec<(usize, u64)> = Direction::ALL
        .into_iter()
        .filter_map(|d| {
            from_start[d.opposite().index()].map(|w| (maze.box_cell * 4 + d.index(), w))
        })
        .collect();
    let found = dijkstra(
        4 * n,
        &starts,
        |s, out| {
            let (b, d) = (s / 4, s % 4);
            let dir = Direction::from_index(d);
            let next = grid.step(b, dir);
            if grid.is_floor(next) {
                out.push((next * 4 + d, PUSH));
            }
            for e in Direction::ALL {
                if e.index() != d
                    && let Some(w) = sides.distance(b, dir.opposite(), e.opposite())
                {
                    out.push((b * 4 + e.index(), w));
                }
            }
        },
        |s| s / 4 == maze.target,
    );
    let stats = SingleStats {
        states: found.expanded,
        searches: 0,
        memory_bytes: n * 4 * (8 + 4 + 1),
    };
    let Some((goal, cost)) = found.goal else {
        return SingleReport::impossible(stats);
    };
    if cost & (PUSH - 1) >= PUSH - 1 {
        return SingleReport::overflow(stats);
    }
    // Rebuild: consecutive states on one cell are a walk round the box, else a push.
    let path = found.path_to(goal);
    let mut moves = Vec::new();
    let first = path[0];
    let stand = grid.step(first / 4, Direction::from_index(first % 4).opposite());
    let mut flood = super::flood::Flood::new(n);
    let walk = flood
        .walk(grid, maze.player, stand, maze.box_cell)
        .expect("start walk");
    moves.extend(walk.into_iter().map(Move::walk));
    for pair in path.windows(2) {
        let (s, t) = (pair[0], pair[1]);
        if s / 4 == t / 4 {
            let b = s / 4;
            let from = grid.step(b, Direction::from_index(s % 4).opposite());
            let to = grid.step(b, Direction::from_index(t % 4).opposite());
            let walk = flood.walk(grid, from, to, b).expect("walk round the box");
            moves.extend(walk.into_iter().map(Move::walk));
        } else {
            moves.push(Move::push(Direction::from_index(t % 4)));
        }
    }
    let solution = Solution::from_moves(moves);
    debug_assert_eq!((solution.pushes << 32) + solution.walks, cost);
    SingleReport::solved(solution, stats)
}
