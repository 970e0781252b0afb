//! SOK collections through the real binary: reading titles, comments and
//! stored solutions, checking them with `verify`, writing found solutions
//! back with `--save-solutions`, and run-length encoded moves.

use sokoban::level::{Alphabet, parse_entries};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sok");
    fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Solves `input`, saving to `out`; the saved file must verify (exit 0).
fn save_and_verify(input: &str, out: &Path) -> String {
    let got = run(&["--multi", input, "--save-solutions", out.to_str().unwrap()]);
    assert_eq!(got.status.code(), Some(0), "{}", text(&got.stderr));
    let verified = run(&["verify", out.to_str().unwrap()]);
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}",
        text(&verified.stdout)
    );
    text(&verified.stdout)
}

#[test]
fn round_trip_keeps_every_line_and_every_solution_verifies() {
    let input = "samples/multi/collection.sok";
    let original = fs::read_to_string(root().join(input)).unwrap();
    let out = scratch("round-trip.sok");
    let report = save_and_verify(input, &out);
    let saved = fs::read_to_string(&out).unwrap();
    // Every original line is still there, in order: only sections were added.
    let mut saved_lines = saved.lines();
    for line in original.lines() {
        assert!(saved_lines.any(|l| l == line), "lost {line:?}");
    }
    let before = parse_entries(original.as_bytes(), Alphabet::Xsb, 1 << 20).unwrap();
    let after = parse_entries(saved.as_bytes(), Alphabet::Xsb, 1 << 20).unwrap();
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(a.level, b.level);
        assert_eq!((&a.author, &a.comments), (&b.author, &b.comments));
        assert_eq!(a.solutions[..b.solutions.len()], b.solutions[..]);
    }
    // The two stored solutions are the solver's own (one run-length encoded):
    // not added twice; only the level without one gains a section.
    let counts: Vec<usize> = after.iter().map(|e| e.solutions.len()).collect();
    assert_eq!(counts, [1, 1, 1]);
    assert_eq!(report.lines().count(), 3);
    assert!(report.contains(
        "Three: Solution (sokoban, push-optimal, 2 pushes, 3 moves): 2 1 solved optimal"
    ));
    // Saving the saved file adds nothing more: its solutions are already there.
    let again = scratch("round-trip-again.sok");
    save_and_verify(out.to_str().unwrap(), &again);
    assert_eq!(fs::read_to_string(&again).unwrap(), saved);
}

#[test]
fn plain_xsb_collection_gains_solution_sections() {
    let out = scratch("from-xsb.sok");
    let report = save_and_verify("samples/multi/collection.xsb", &out);
    assert_eq!(
        report,
        "microban 1: Solution (sokoban, push-optimal, 8 pushes, 33 moves): 8 25 solved\n\
microban 2: Solution (sokoban, push-optimal, 3 pushes, 16 moves): 3 13 solved\n\
A box stuck in a corner: no solution stored\n"
    );
}

#[test]
fn stored_solutions_are_judged_one_by_one() {
    let file = "tests/data/sok/bad-solutions.sok";
    let got = run(&["verify", file]);
    assert_eq!(got.status.code(), Some(1));
    let expected =
        fs::read_to_string(root().join("tests/data/sok/bad-solutions.expected")).unwrap();
    assert_eq!(text(&got.stdout), expected);
}

#[test]
fn titles_from_sok_keys_name_the_answers() {
    let got = run(&["--multi", "samples/multi/collection.sok"]);
    assert_eq!(got.status.code(), Some(0));
    let names: Vec<String> = text(&got.stdout)
        .split_terminator("\n\n")
        .map(|b| b.lines().next().unwrap().to_string())
        .collect();
    assert_eq!(names, ["The first", "The second", "Three"]);
}

#[test]
fn broken_sok_sections_are_input_errors() {
    let cases = [
        (
            "#####\n#@$.#\n#####\nComment:\n####\n",
            "4:1: Comment: block with no Comment-End: line",
        ),
        (
            "Solution: R\n#####\n#@$.#\n#####\n",
            "1:1: a Solution section before any level",
        ),
    ];
    for (k, (content, message)) in cases.iter().enumerate() {
        let path = scratch(&format!("broken-{k}.sok"));
        fs::write(&path, content).unwrap();
        // Every command reading the file names the same error, single-box
        // mode and `verify` (which read collections as such) too.
        let path = path.to_str().unwrap();
        for args in [
            &["--multi", path][..],
            &[path],
            &["verify", path],
            &["optimize", path],
        ] {
            let got = run(args);
            assert_eq!(got.status.code(), Some(2), "{args:?}");
            assert!(got.stdout.is_empty(), "{args:?}");
            let expected = format!("error: {path}:{message}\n");
            assert_eq!(text(&got.stderr), expected, "{args:?}");
        }
    }
}

#[test]
fn run_length_moves_wherever_moves_are_read() {
    // The olympiad sample's optimal answer, eennwwWWWWeeeeeesswwwwwwwnNN, compressed.
    let got = run(&["verify", "samples/olympiad.txt", "2e2n2w4W6e2s7wn2N"]);
    assert_eq!(text(&got.stdout), "6 22 solved optimal\n");
    let got = run(&["verify", "samples/olympiad.txt", "2(e)2n2w2(2W)6e2s7wn2N"]);
    assert_eq!(text(&got.stdout), "6 22 solved optimal\n");
    let got = run(&["verify", "samples/olympiad.txt", "2e2n2w4W6e2s7wn2N3"]);
    assert_eq!(got.status.code(), Some(1));
    assert_eq!(
        text(&got.stdout),
        "invalid: run-length code at character 18: a count with no move or group after it\n"
    );
}
