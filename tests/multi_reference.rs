//! The multi-box searches against a plain breadth-first search over pushes,
//! on random small levels; every solution is replayed.

mod common;

use common::{Rng, reference_multi_pushes, replayed_pushes};
use proptest::prelude::*;
use sokoban::grid::Grid;
use sokoban::level::{Alphabet, Level};
use sokoban::moves::Outcome;
use sokoban::multi::{Method, MultiOptions, solve};

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
