//! The multi-box searches against a plain breadth-first search over pushes,
//! on random small levels and on varied levels that need A* to update a
//! node reached again by fewer pushes; every solution is replayed.

mod common;

use common::{Rng, reference_multi_pushes, replayed_pushes};
use proptest::prelude::*;
use sokoban::grid::{Direction, Grid};
use sokoban::level::{Alphabet, Level, parse_xsb};
use sokoban::moves::Outcome;
use sokoban::multi::{Method, MultiOptions, solve};
use std::sync::OnceLock;

/// A random level: `size` x `size` inside a wall border, `walls`% inner walls,
/// `boxes` boxes and goals, or `None` when there is not enough floor.
fn random_level(size: usize, walls: usize, boxes: usize, seed: u64) -> Option<Level> {
    let mut rng = Rng::new(seed);
    let mut grid = Grid::new(size + 2, size + 2);
    let mut floor = Vec::new();
    for r in 1..=size {
        for c in 1..=size {
            if rng.below(100) >= walls {
                let cell = grid.cell(r, c);
                grid.set_floor(cell);
                floor.push(cell);
            }
        }
    }
    if floor.len() < 2 * boxes + 1 {
        return None;
    }
    let mut pick = Vec::new();
    while pick.len() < 2 * boxes + 1 {
        let c = floor[rng.below(floor.len())];
        // Goals may coincide with boxes; the player may not stand on a box.
        if !pick.contains(&c) {
            pick.push(c);
        }
    }
    let player = pick[0];
    let mut box_cells: Vec<usize> = pick[1..=boxes].to_vec();
    let mut goals: Vec<usize> = pick[boxes + 1..].to_vec();
    if rng.below(4) == 0 {
        // Sometimes a box starts on a goal.
        goals[0] = box_cells[0];
    }
    box_cells.sort();
    goals.sort();
    Some(Level {
        name: format!("random {seed}"),
        line: 1,
        grid,
        player,
        boxes: box_cells,
        goals,
        alphabet: Alphabet::Xsb,
    })
}

fn check_solution(level: &Level, outcome: &Outcome) -> Result<Option<u64>, TestCaseError> {
    replayed_pushes(level, outcome).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn optimal_methods_match_breadth_first_pushes(
        size in 3usize..=7,
        walls in 0usize..=30,
        boxes in 1usize..=3,
        seed in any::<u64>(),
    ) {
        let level = random_level(size, walls, boxes, seed);
        prop_assume!(level.is_some(), "too little floor for the boxes");
        let level = level.unwrap();
        let expected = reference_multi_pushes(&level.grid, level.player, &level.boxes, &level.goals);
        for method in [Method::AStar, Method::Ucs, Method::Bfs] {
            let options = MultiOptions { method, ..MultiOptions::default() };
            let report = solve(&level, &options, &mut |_| {});
            let got = check_solution(&level, &report.outcome)?;
            prop_assert_eq!(got, expected, "{:?} on {}", method, level.name);
        }
        // The others must find a legal solution exactly when one exists.
        // `--fast` runs its searches one after another, or side by side on 2 and 4 threads.
        let others = [
            (Method::Dfs, false, 1),
            (Method::Greedy, false, 1),
            (Method::Features, false, 1),
            (Method::BoxMoves, false, 1),
            (Method::Packing, false, 1),
            (Method::Plan, false, 1),
            (Method::AStar, true, 1),
            (Method::AStar, true, 2),
            (Method::AStar, true, 4),
        ];
        for (method, fast, threads) in others {
            let options = MultiOptions { method, fast, threads, ..MultiOptions::default() };
            let report = solve(&level, &options, &mut |_| {});
            let got = check_solution(&level, &report.outcome)?;
            prop_assert_eq!(got.is_some(), expected.is_some(), "{:?} fast={} threads={} on {}", method, fast, threads, level.name);
            if let (Some(g), Some(e)) = (got, expected) {
                prop_assert!(g >= e);
                // A solution marked push-optimal has the fewest pushes.
                prop_assert!(!report.optimal || g == e);
            }
        }
    }
}

/// Small levels of the shared collections whose push-optimal answer needs
/// the update of a node reached again by fewer pushes: on each, an A* that
/// keeps a node's first way in answers with more pushes. Random levels of
/// scattered walls almost never need it; these do, under any symmetry.
fn reopening_levels() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(|| {
        let text = include_bytes!("data/reopen/levels.xsb");
        parse_xsb(text, 1 << 20).unwrap()
    })
}

/// `level` under symmetry `t`: bit 0 mirrors columns, bit 1 rows, bit 2
/// swaps rows and columns (the eight symmetries of the square), so the
/// search meets its choices in other orders.
fn transformed(level: &Level, t: usize) -> Level {
    let (rows, cols) = (level.grid.rows(), level.grid.cols());
    let (r2, c2) = if t & 4 != 0 {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let mut grid = Grid::new(r2, c2);
    let map = |grid: &Grid, cell: usize| {
        let (mut r, mut c) = level.grid.position(cell);
        if t & 1 != 0 {
            c = cols - 1 - c;
        }
        if t & 2 != 0 {
            r = rows - 1 - r;
        }
        if t & 4 != 0 {
            (r, c) = (c, r);
        }
        grid.cell(r, c)
    };
    for (r, c) in (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))) {
        let cell = level.grid.cell(r, c);
        if level.grid.is_floor(cell) {
            let to = map(&grid, cell);
            grid.set_floor(to);
        }
    }
    let mut boxes: Vec<usize> = level.boxes.iter().map(|&b| map(&grid, b)).collect();
    let mut goals: Vec<usize> = level.goals.iter().map(|&g| map(&grid, g)).collect();
    boxes.sort();
    goals.sort();
    Level {
        name: format!("{} (symmetry {t})", level.name),
        line: 1,
        player: map(&grid, level.player),
        grid,
        boxes,
        goals,
        alphabet: Alphabet::Xsb,
    }
}

/// `level` with one random change: a box or a goal moved a step, an empty
/// floor cell walled, or the player moved; `None` when the change does not
/// fit (the cell is taken or walled).
fn edited(level: &Level, edit: u64) -> Option<Level> {
    let mut rng = Rng::new(edit);
    let mut l = level.clone();
    let g = &level.grid;
    let floor: Vec<usize> = (0..g.rows())
        .flat_map(|r| (0..g.cols()).map(move |c| g.cell(r, c)))
        .filter(|&c| g.is_floor(c))
        .collect();
    let cell = floor[rng.below(floor.len())];
    let empty = cell != l.player && !l.boxes.contains(&cell) && !l.goals.contains(&cell);
    match rng.below(4) {
        kind @ (0 | 1) => {
            let pieces = if kind == 0 {
                &mut l.boxes
            } else {
                &mut l.goals
            };
            let i = rng.below(pieces.len());
            let to = g.step(pieces[i], Direction::ALL[rng.below(4)]);
            if g.is_wall(to) || pieces.contains(&to) || (kind == 0 && to == l.player) {
                return None;
            }
            pieces[i] = to;
            pieces.sort();
        }
        2 if empty => {
            let mut grid = Grid::new(g.rows(), g.cols());
            for &f in floor.iter().filter(|&&f| f != cell) {
                grid.set_floor(f);
            }
            l.grid = grid;
        }
        3 if !l.boxes.contains(&cell) => l.player = cell,
        _ => return None,
    }
    Some(l)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The push-optimal methods on the levels that need a node's update,
    /// under a random symmetry and up to two random edits (which may make
    /// a level impossible: then every method must say so).
    #[test]
    fn optimal_methods_match_where_a_node_is_reached_again_by_fewer_pushes(
        index in any::<prop::sample::Index>(),
        symmetry in 0usize..8,
        edits in prop::collection::vec(any::<u64>(), 0..=2),
    ) {
        let levels = reopening_levels();
        let mut level = transformed(index.get(levels), symmetry);
        for edit in edits {
            let next = edited(&level, edit);
            prop_assume!(next.is_some(), "the edit does not fit");
            level = next.unwrap();
        }
        let expected = reference_multi_pushes(&level.grid, level.player, &level.boxes, &level.goals);
        for method in [Method::AStar, Method::Ucs, Method::Bfs] {
            let options = MultiOptions { method, ..MultiOptions::default() };
            let report = solve(&level, &options, &mut |_| {});
            let got = check_solution(&level, &report.outcome)?;
            prop_assert_eq!(got, expected, "{:?} on {}", method, level.name);
        }
    }
}
