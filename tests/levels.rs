//! Regression levels from every shared collection (`tests/data/levels/`):
//! the push-optimal answer must match breadth-first search over pushes, and
//! every solution must replay to a solved level.

mod common;

use common::{reference_multi_pushes, replayed_pushes};
use sokoban::level::parse_xsb;
use sokoban::moves::parse_moves;
use sokoban::multi::{Limits, Method, MultiOptions, solve};
use sokoban::optimize::{OptimizeOptions, optimize};
use std::path::Path;
use std::time::Duration;

#[test]
fn collection_samples_are_push_optimal() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/levels");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xsb"))
        .collect();
    files.sort();
    assert!(files.len() >= 8);
    let mut checked = 0;
    for file in files {
        for level in parse_xsb(&std::fs::read(&file).unwrap(), 1 << 20).unwrap() {
            let report = solve(&level, &MultiOptions::default(), &mut |_| {});
            let expected =
                reference_multi_pushes(&level.grid, level.player, &level.boxes, &level.goals);
            let got = replayed_pushes(&level, &report.outcome).unwrap();
            assert_eq!(got, expected, "{}", level.name);
            assert!(got.is_none() || report.optimal, "{}", level.name);
            checked += 1;
        }
    }
    assert!(checked >= 20);
}

/// Levels with goal rooms (`tests/data/rooms/`): `--fast` on one and two
/// threads solves each, and the solution (macros spelled out as single
/// pushes) replays. (The searches with macros alone are unit tests of the
/// search; a lane whose macros drop every solution falls back to a search
/// without them: see the unit tests of the portfolio.)
#[test]
fn goal_room_levels_solve_fast() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rooms/rooms.xsb");
    let levels = parse_xsb(&std::fs::read(file).unwrap(), 1 << 20).unwrap();
    assert!(levels.len() >= 4);
    for level in &levels {
        for threads in [1, 2] {
            let options = MultiOptions {
                fast: true,
                threads,
                ..MultiOptions::default()
            };
            let report = solve(level, &options, &mut |_| {});
            let pushes = replayed_pushes(level, &report.outcome).unwrap();
            assert!(pushes.is_some(), "{} on {threads} threads", level.name);
        }
    }
}

/// A time limit past what any clock holds is no limit, in every search and
/// the optimizer (a library caller is not held to the command line's range).
#[test]
fn a_time_limit_past_any_clock_is_no_limit() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/multi/one.xsb");
    let level = parse_xsb(&std::fs::read(file).unwrap(), 1 << 20)
        .unwrap()
        .remove(0);
    let limits = Limits {
        time: Some(Duration::MAX),
        ..Limits::default()
    };
    for (method, fast, threads) in [
        (Method::AStar, false, 1),
        (Method::Features, false, 1),
        (Method::AStar, true, 1),
        (Method::AStar, true, 2),
    ] {
        let options = MultiOptions {
            method,
            fast,
            threads,
            limits: limits.clone(),
        };
        let report = solve(&level, &options, &mut |_| {});
        let pushes = replayed_pushes(&level, &report.outcome).unwrap();
        assert!(pushes.is_some(), "{method:?} fast={fast} threads={threads}");
    }
    let moves = parse_moves("nwwSnwwsseEnWneeesWWeesswNenW").unwrap();
    let options = OptimizeOptions {
        limits,
        threads: 2,
        ..OptimizeOptions::default()
    };
    let report = optimize(&level, &moves, &options, &mut |_| {}).unwrap();
    assert!(report.limit.is_none());
}
