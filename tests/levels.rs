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
