//! Replays every kept fuzz input (`tests/fuzz/corpus/<target>/`, seeds and
//! crash cases alike) through the target's body on stable Rust: a crash the
//! fuzzer once found stays fixed without nightly or cargo-fuzz.

use std::path::Path;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz/corpus")
        .join(target);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| body(&data));
        assert!(outcome.is_ok(), "{target}: {} fails", path.display());
        count += 1;
    }
    assert!(count > 0, "{target}: no corpus");
}

#[test]
fn readers_corpus() {
    replay("readers", sokoban::fuzzing::readers);
}

#[test]
fn convert_corpus() {
    replay("convert", sokoban::fuzzing::convert);
}

#[test]
fn verify_corpus() {
    replay("verify", sokoban::fuzzing::verify);
}

#[test]
fn single_solve_corpus() {
    replay("single_solve", sokoban::fuzzing::single_solve);
}

#[test]
fn multi_solve_corpus() {
    replay("multi_solve", sokoban::fuzzing::multi_solve);
}
