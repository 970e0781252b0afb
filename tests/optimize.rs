//! `sokoban optimize` end to end: every answer is replayed here (and by
//! `verify`), its counts measured by the replay, none worse than its start
//! (replayed too), and a known shorter solution is found from a long one,
//! whatever shape the start comes in.

mod common;

use common::{Scratch, bin};
use serde_json::Value;
use sokoban::level::{Format, Level, parse_levels};
use sokoban::moves::{Notation, parse_moves, replay};
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

/// The levels of a file.
fn levels_of(path: &Path) -> Vec<Level> {
    parse_levels(&std::fs::read(path).unwrap(), Format::Auto, 1 << 20).unwrap()
}

/// (pushes, walks) of `moves` replayed on `level`, which they must solve.
fn replayed(level: &Level, moves: &str) -> (u64, u64) {
    let moves = parse_moves(moves).unwrap();
    let end = replay(
        &level.grid,
        level.player,
        &level.boxes,
        &moves,
        Notation::Nsew,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", level.name));
    assert!(end.solved(&level.goals), "{} not solved", level.name);
    (end.pushes, end.walks)
}

/// A solved record's (pushes, walks), replayed on its level and checked
/// against the counts it states.
fn checked(level: &Level, record: &Value) -> (u64, u64) {
    assert_eq!(record["status"], "solved", "{record}");
    let counts = replayed(level, record["moves"].as_str().unwrap());
    let stated = (record["pushes"].as_u64(), record["walks"].as_u64());
    assert_eq!((Some(counts.0), Some(counts.1)), stated, "{record}");
    counts
}

fn total((pushes, walks): (u64, u64)) -> u64 {
    pushes + walks
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
    let l = &levels_of(&level)[0];
    assert_eq!(replayed(l, LONG), (8, 18));
    for metric in ["moves", "pushes"] {
        let r = &records(&[level.to_str().unwrap(), LONG, "--metric", metric])[0];
        assert_eq!(r["start"], "given");
        assert_eq!(
            (r["input_pushes"].as_u64(), r["input_walks"].as_u64()),
            (Some(8), Some(18))
        );
        let got = checked(l, r);
        assert_eq!((total(got), got.0), (SHORT_MOVES, 8));
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
    let lurd = parse_moves(text.trim()).unwrap();
    let nsew = sokoban::moves::format_moves(&lurd, Notation::Nsew);
    assert_eq!(total(replayed(&levels_of(&level)[0], &nsew)), SHORT_MOVES);
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
    assert_eq!(total(checked(&levels_of(&sok)[0], r)), SHORT_MOVES);
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

/// `--multi --fast` records of the sample collection (one thread: the same
/// answers every run), as JSON lines and as the text it prints.
fn fast_answers(dir: &Path) -> (Vec<Value>, PathBuf, PathBuf) {
    let levels = Path::new("samples/multi/collection.xsb");
    let solve = |shape: &[&str]| {
        let out = bin()
            .args(["--multi", "--fast", "--threads", "1"])
            .args(shape)
            .arg(levels)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let json = solve(&["--json"]);
    let records = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let json = write(dir, "answers.jsonl", &json);
    let text = write(dir, "answers.txt", &solve(&[]));
    (records, json, text)
}

#[test]
fn answer_files_in_the_solver_shapes_are_never_made_worse() {
    let dir = dir("answers");
    let levels = Path::new("samples/multi/collection.xsb");
    let all = levels_of(levels);
    let (starts, json, text) = fast_answers(&dir);
    for answers in [text, json] {
        let run = |metric: &str| {
            let args = [
                levels.to_str().unwrap(),
                answers.to_str().unwrap(),
                "--metric",
                metric,
            ];
            records(&args)
        };
        let (moves, pushes) = (run("moves"), run("pushes"));
        assert_eq!((moves.len(), pushes.len()), (3, 3));
        // The third level is impossible: no answer, no start.
        assert_eq!(moves[2]["status"], "impossible");
        for k in 0..2 {
            let start = checked(&all[k], &starts[k]);
            assert_eq!(moves[k]["start"], "given", "{}", moves[k]);
            let better = checked(&all[k], &moves[k]);
            assert!(total(better) <= total(start), "{better:?} {start:?}");
            let fewer = checked(&all[k], &pushes[k]);
            assert!(fewer.0 <= start.0, "{fewer:?} {start:?}");
        }
    }
}

#[test]
fn without_solutions_the_fast_answer_is_the_start() {
    let dir = dir("fast");
    let levels = "samples/multi/collection.xsb";
    let all = levels_of(Path::new(levels));
    let (starts, _, _) = fast_answers(&dir);
    let rs = records(&[levels, "--time-limit", "20", "--threads", "1"]);
    assert_eq!(rs.len(), 3);
    assert_eq!(rs[2]["status"], "impossible");
    for k in 0..2 {
        assert_eq!(rs[k]["start"], "fast", "{}", rs[k]);
        let (better, start) = (checked(&all[k], &rs[k]), checked(&all[k], &starts[k]));
        assert!(total(better) <= total(start), "{better:?} {start:?}");
    }
    // The text output is in the solver's shape: `verify` reads it back.
    let out = bin().args(["optimize", levels]).output().unwrap();
    assert!(out.status.success());
    let answers = write(
        &dir,
        "optimized.txt",
        &String::from_utf8(out.stdout).unwrap(),
    );
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
    let all = levels_of(Path::new(levels));
    let plain = solve(&[]);
    let optimized = solve(&["--optimize", "--time-limit", "20"]);
    let pushes = solve(&["--optimize=pushes"]);
    assert_eq!((plain.len(), optimized.len(), pushes.len()), (3, 3, 3));
    for k in 0..3 {
        assert_eq!(plain[k]["status"], optimized[k]["status"]);
        assert_eq!(plain[k]["status"], pushes[k]["status"]);
        if plain[k]["status"] != "solved" {
            continue;
        }
        let start = checked(&all[k], &plain[k]);
        let better = checked(&all[k], &optimized[k]);
        assert!(total(better) <= total(start), "{better:?} {start:?}");
        assert!(checked(&all[k], &pushes[k]).0 <= start.0);
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
    let all = levels_of(Path::new("tests/data/long-runs/interrupt.xsb"));
    for (level, r) in all.iter().zip(&answers) {
        let got = checked(level, r);
        let start = (r["input_pushes"].as_u64(), r["input_walks"].as_u64());
        let start = (start.0.unwrap(), start.1.unwrap());
        assert!(total(got) <= total(start), "{r}");
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
