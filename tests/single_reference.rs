//! The single-box searches against the brute-force reference on random small grids.

mod common;

use common::{random_maze, reference_single};
use proptest::prelude::*;
use sokoban::level::Maze;
use sokoban::moves::{Notation, Outcome, replay};
use sokoban::single::{Algorithm, solve};
use sokoban::tools::generator::{GenSpec, Kind, generate};

/// Solves with both algorithms, replays each answer, and compares with the reference.
fn check(maze: &Maze) -> Result<(), TestCaseError> {
    let expected = reference_single(maze);
    for algorithm in [Algorithm::Layered, Algorithm::Dijkstra] {
        let report = solve(maze, algorithm);
        match (&report.outcome, expected) {
            (Outcome::Solved(s), Some((pushes, walks))) => {
                prop_assert_eq!((s.pushes, s.walks), (pushes, walks), "{:?}", algorithm);
                let end = replay(
                    &maze.grid,
                    maze.player,
                    &[maze.box_cell],
                    &s.moves,
                    Notation::Nsew,
                )
                .map_err(|e| TestCaseError::fail(format!("{algorithm:?}: {e}")))?;
                prop_assert!(end.has_box(maze.target));
                prop_assert_eq!((end.pushes, end.walks), (pushes, walks));
            }
            (Outcome::Impossible, None) => {}
            (got, want) => {
                return Err(TestCaseError::fail(format!(
                    "{algorithm:?}: got {got:?}, reference {want:?}"
                )));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn random_grids_match_the_reference(
        rows in 1usize..=12,
        cols in 1usize..=12,
        walls in 0usize..=45,
        border in any::<bool>(),
        corridors in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let maze = random_maze(rows, cols, walls, border, corridors, seed);
        prop_assume!(maze.is_some(), "no room for the pieces");
        check(&maze.unwrap())?;
    }
}

#[test]
fn box_on_target_is_the_empty_answer() {
    let maze = &sokoban::level::parse_single(b"####\n#@*#\n####", 100)
        .unwrap()
        .mazes[0];
    for algorithm in [Algorithm::Layered, Algorithm::Dijkstra] {
        let report = solve(maze, algorithm);
        assert_eq!(report.outcome.solution().unwrap().moves.len(), 0);
    }
}

#[test]
fn open_rooms_with_no_walls_match() {
    for seed in 0..200 {
        let maze = random_maze(
            1 + seed as usize % 9,
            1 + (seed as usize * 7) % 11,
            0,
            false,
            false,
            seed,
        )
        .unwrap_or_else(|| random_maze(3, 3, 0, false, false, seed).unwrap());
        check(&maze).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// Every generator kind, up to 40x40, loops and wide corridors included.
    #[test]
    fn generated_grids_match_the_reference(
        kind in 0usize..5,
        rows in 2usize..=40,
        cols in 2usize..=40,
        walls in 0u32..=45,
        width in 1usize..=3,
        loops in 0u32..=40,
        seed in any::<u64>(),
    ) {
        let spec = GenSpec { rows, cols, kind: Kind::ALL[kind], walls, width, loops, seed };
        let maze = generate(&spec, 0);
        prop_assume!(maze.is_some(), "the generator made nothing");
        check(&maze.unwrap())?;
    }
}

/// Walks round a loop of corridor: once with a junction on the loop, once as a closed ring.
#[test]
fn walks_round_corridor_loops() {
    let with_junction = "##########\n#........#\n#.######.#\n#.######.#\n#.#TSB...#\n#.#.####.#\n#.#......#\n#.#.######\n###.######\n";
    let ring = "#########\n#.......#\n#.#####.#\n#..TSB..#\n#########\n";
    for text in [with_junction, ring] {
        let maze = &sokoban::level::parse_single(text.as_bytes(), 1000)
            .unwrap()
            .mazes[0];
        check(maze).unwrap();
        let s = solve(maze, Algorithm::Layered)
            .outcome
            .solution()
            .cloned()
            .unwrap();
        assert_eq!(s.pushes, 2, "{text}");
    }
}

/// Judge-size grids: 60x60 of every generator kind against the reference.
#[test]
fn sixty_by_sixty_grids_match_the_reference() {
    let mut checked = 0;
    for (i, kind) in Kind::ALL.into_iter().enumerate() {
        for seed in 0..2u64 {
            let spec = GenSpec {
                rows: 60,
                cols: 60,
                kind,
                walls: 25,
                width: 2 + seed as usize,
                loops: 15,
                seed: seed * 31 + i as u64,
            };
            if let Some(maze) = generate(&spec, 0) {
                check(&maze).unwrap();
                checked += 1;
            }
        }
    }
    assert!(checked >= 8);
}
