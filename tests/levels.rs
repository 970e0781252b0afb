//! Regression levels from every shared collection (`tests/data/levels/`):
//! the push-optimal answer must match breadth-first search over pushes, and
//! every solution must replay to a solved level.

mod common;

use common::{reference_multi_pushes, replayed_pushes};
use sokoban::level::parse_xsb;
use sokoban::multi::{MultiOptions, solve};
use std::path::Path;

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

/// Levels with goal rooms (`tests/data/rooms/`): a search that fills the
/// rooms by their macros solves each, and the solution (macros spelled out
/// as single pushes) replays; so does `--fast` on one and two threads.
/// (When the macros drop every solution, a lane falls back to a search
/// without them: see the unit tests of `multi`.)
#[test]
fn goal_room_macros_replay() {
    use sokoban::multi::board::Board;
    use sokoban::multi::room::Rooms;
    use sokoban::multi::{Limits, Method, search};
    use std::sync::atomic::AtomicBool;

    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rooms/rooms.xsb");
    let levels = parse_xsb(&std::fs::read(file).unwrap(), 1 << 20).unwrap();
    assert!(levels.len() >= 4);
    for level in &levels {
        let board = Board::new(level).unwrap();
        let rooms = Rooms::find(&board);
        assert!(!rooms.is_empty(), "{} has a goal room", level.name);
        let stop = AtomicBool::new(false);
        for (method, weight) in [
            (Method::Greedy, 1),
            (Method::AStar, 3),
            (Method::Features, 1),
        ] {
            let (outcome, _) = search::run(
                &board,
                method,
                weight,
                Some(&rooms),
                &Limits::default(),
                &stop,
                &mut |_| {},
            );
            let pushes = replayed_pushes(level, &outcome).unwrap();
            assert!(pushes.is_some(), "{} {method:?} {weight}", level.name);
        }
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
