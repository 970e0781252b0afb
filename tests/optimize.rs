//! `sokoban optimize` end to end: every answer replays (checked by `verify`),
//! none is worse than its start, and a known shorter solution is found from
//! a long one, whatever shape the start comes in.

mod common;

use common::{Scratch, bin};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Two boxes: pushing the near one first is 12 moves; the long solution
/// below pushes the far one first and walks around (26 moves).
const LEVEL: &str = "########\n#.   $@#\n#  #$  #\n#.     #\n########\n";
const LONG: &str = "swswwwnneeSesWWWeeeennLLLL";
const SHORT_MOVES: u64 = 12;

fn dir(test: &str) -> Scratch {
    Scratch::new(&format!("optimize-{test}"))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `optimize` with `args`; its JSON records, after checking it exited 0.
fn records(args: &[&str]) -> Vec<Value> {
    let out = bin()
        .arg("optimize")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn moves(record: &Value) -> u64 {
    record["pushes"].as_u64().unwrap() + record["walks"].as_u64().unwrap()
}

fn input_moves(record: &Value) -> u64 {
    record["input_pushes"].as_u64().unwrap() + record["input_walks"].as_u64().unwrap()
}

/// `verify` accepts `answer` for the level file `levels`.
fn verified(levels: &Path, answer: &str) -> bool {
    bin()
        .arg("verify")
        .arg(levels)
        .arg(answer)
        .arg("--multi")
        .output()
        .unwrap()
        .status
        .success()
}

#[test]
fn a_long_move_string_gets_the_known_shortest() {
    let dir = dir("string");
    let level = write(&dir, "level.xsb", LEVEL);
    for metric in ["moves", "pushes"] {
        let r = &records(&[level.to_str().unwrap(), LONG, "--metric", metric])[0];
        assert_eq!(r["status"], "solved");
        assert_eq!(r["start"], "given");
        assert_eq!((input_moves(r), r["input_pushes"].as_u64()), (26, Some(8)));
        assert_eq!((moves(r), r["pushes"].as_u64()), (SHORT_MOVES, Some(8)));
        assert!(verified(&level, r["moves"].as_str().unwrap()));
    }
}

#[test]
fn text_output_is_the_answer_line() {
    let dir = dir("text");
    let level = write(&dir, "level.xsb", LEVEL);
    let out = bin()
        .args([
            "optimize",
            level.to_str().unwrap(),
            LONG,
            "--notation",
            "lurd",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert_eq!(text.trim().len() as u64, SHORT_MOVES);
    assert!(verified(&level, text.trim()));
}

#[test]
fn stored_solutions_are_the_start_and_the_shorter_one_is_saved() {
    let dir = dir("sok");
    let sok = write(
        &dir,
        "level.sok",
        &format!("Title: two boxes\n{LEVEL}\nSolution:\n{LONG}\n"),
    );
    let out = dir.join("out.sok");
    let r = &records(&[
        sok.to_str().unwrap(),
        "--save-solutions",
        out.to_str().unwrap(),
    ])[0];
    assert_eq!(r["start"], "stored");
    assert_eq!(moves(r), SHORT_MOVES);
    let saved = std::fs::read_to_string(&out).unwrap();
    assert!(saved.contains("Solution (sokoban optimize, moves, 8 pushes, 12 moves):"));
    assert!(saved.contains(LONG));
    // verify checks every stored solution, the old and the new.
    let check = bin().arg("verify").arg(&out).output().unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn answer_files_in_the_solver_shapes_are_never_made_worse() {
    let dir = dir("answers");
    let levels = Path::new("samples/multi/collection.xsb");
    for shape in [&[][..], &["--json"][..]] {
        let solved = bin()
            .args(["--multi", "--fast", "--threads", "1"])
            .args(shape)
            .arg(levels)
            .output()
            .unwrap();
        let answers = write(&dir, "answers", &String::from_utf8(solved.stdout).unwrap());
        let rs = records(&[levels.to_str().unwrap(), answers.to_str().unwrap()]);
        let pushes = records(&[
            levels.to_str().unwrap(),
            answers.to_str().unwrap(),
            "--metric",
            "pushes",
        ]);
        assert_eq!(rs.len(), 3);
        // The third level is impossible: no answer, no start.
        assert_eq!(rs[2]["status"], "impossible");
        for (r, p) in rs.iter().zip(&pushes).take(2) {
            assert_eq!(r["start"], "given", "{r}");
            assert!(moves(r) <= input_moves(r), "{r}");
            assert!(p["pushes"].as_u64() <= p["input_pushes"].as_u64(), "{p}");
        }
    }
}

#[test]
fn without_solutions_the_fast_answer_is_the_start() {
    let mut rs = records(&["samples/multi/collection.xsb", "--time-limit", "20"]);
    rs.retain(|r| r["status"] == "solved");
    assert_eq!(rs.len(), 2);
    for r in &rs {
        assert_eq!(r["start"], "fast", "{r}");
        assert!(moves(r) <= input_moves(r), "{r}");
    }
    // The text output is in the solver's shape: `verify` reads it back.
    let dir = dir("fast");
    let levels = "samples/multi/collection.xsb";
    let out = bin().args(["optimize", levels]).output().unwrap();
    assert!(out.status.success());
    let answers = write(&dir, "answers.txt", &String::from_utf8(out.stdout).unwrap());
    assert!(verified(Path::new(levels), answers.to_str().unwrap()));
}

#[test]
fn a_wrong_solution_is_warned_about_and_the_fast_answer_used() {
    let dir = dir("wrong");
    let level = write(&dir, "level.xsb", LEVEL);
    let out = bin()
        .args(["optimize", level.to_str().unwrap(), "LLLL", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("does not solve the level"), "{stderr}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["start"], "fast");
    assert!(verified(&level, r["moves"].as_str().unwrap()));
}

#[test]
fn a_move_string_for_several_levels_is_refused() {
    let out = bin()
        .args(["optimize", "samples/multi/collection.xsb", "lurd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn solving_with_optimize_answers_shorter_and_never_worse() {
    let levels = "samples/multi/collection.xsb";
    let solve = |extra: &[&str]| -> Vec<Value> {
        let out = bin()
            .args(["--multi", "--fast", "--threads", "1", "--json", levels])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let plain = solve(&[]);
    let optimized = solve(&["--optimize", "--time-limit", "20"]);
    for (a, b) in plain.iter().zip(&optimized) {
        assert_eq!(a["status"], b["status"]);
        if a["status"] == "solved" {
            assert!(moves(b) <= moves(a), "{a} {b}");
        }
    }
    let pushes = solve(&["--optimize=pushes"]);
    for (a, b) in plain.iter().zip(&pushes) {
        assert!(b["pushes"].as_u64() <= a["pushes"].as_u64(), "{a} {b}");
    }
    let out = bin()
        .args(["--multi", "--fast", "--optimize", levels])
        .output()
        .unwrap();
    let scratch = dir("solve");
    let answers = write(
        &scratch,
        "answers.txt",
        &String::from_utf8(out.stdout).unwrap(),
    );
    assert!(verified(Path::new(levels), answers.to_str().unwrap()));
}

#[test]
fn ctrl_c_keeps_what_was_found_and_exits_130() {
    // Two easy levels, then one no search here finishes (tests/long_runs.rs).
    let child = bin()
        .args(["optimize", "tests/data/long-runs/interrupt.xsb", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (code, seen, err) = common::interrupt_after(child, 2);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted: "), "{err}");
    // The third level's answer is printed when its --fast solve had one.
    let answers: Vec<Value> = seen
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!((2..=3).contains(&answers.len()), "{seen}");
    for r in &answers {
        assert_eq!(r["status"], "solved", "{r}");
        assert!(moves(r) <= input_moves(r), "{r}");
    }
}

/// A solutions file that answers no level (garbage, empty, or unreadable)
/// is an error; one that leaves a level out is warned about.
#[test]
fn a_solutions_file_that_answers_nothing_is_refused() {
    let dir = dir("garbage");
    let levels = "samples/multi/collection.xsb";
    for (name, text) in [("garbage.txt", "hello\nworld\n"), ("empty.txt", "")] {
        let path = write(&dir, name, text);
        let out = bin()
            .args(["optimize", levels, path.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("answers none of the levels"), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
    }
    let unreadable = dir.join("folder");
    std::fs::create_dir(&unreadable).unwrap();
    let out = bin()
        .args(["optimize", levels, unreadable.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let partial = write(&dir, "partial.txt", "microban 2\nessWennwSnnwwssE\n");
    let out = bin()
        .args(["optimize", levels, partial.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("microban 1: no answer; it starts from the --fast answer"),
        "{err}"
    );
    assert!(!err.contains("microban 2:"), "{err}");
}
