//! `--threads` and `--jobs` change how fast, never what: the push-optimal
//! answers are the same at 1, 2 and 64; and a level whose solve panics is
//! reported as an error for that level while the rest of the run goes on.

use serde_json::Value;
use std::process::{Command, Output};

const LEVELS: &str = "samples/multi/collection.xsb";

fn run(args: &[&str], fault: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sokoban"));
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RUST_BACKTRACE", "0")
        .args(args);
    if let Some(level) = fault {
        command.env("SOKOBAN_FAULT_LEVEL", level);
    }
    command.output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// (name, status, pushes) of each level record of a `--json` run.
fn answers(out: &Output) -> Vec<(Value, Value, Value)> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["summary"] != true)
        .map(|r| (r["name"].clone(), r["status"].clone(), r["pushes"].clone()))
        .collect()
}

#[test]
fn jobs_and_threads_at_1_2_and_64_give_the_same_push_optimal_answers() {
    let first = run(&["bench", "--multi", "--json", "--jobs", "1", LEVELS], None);
    let expected = answers(&first);
    assert_eq!(expected.len(), 3);
    for n in ["1", "2", "64"] {
        let out = run(&["bench", "--multi", "--json", "--jobs", n, LEVELS], None);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(answers(&out), expected, "--jobs {n}");
        let out = run(&["--multi", "--json", "--threads", n, LEVELS], None);
        assert_eq!(answers(&out), expected, "--threads {n}");
        let args = [
            "bench",
            "--multi",
            "--json",
            "--fast",
            "--threads",
            n,
            "--jobs",
            n,
            LEVELS,
        ];
        assert_eq!(answers(&run(&args, None)), expected, "--fast --threads {n}");
    }
}

#[test]
fn a_panicking_level_is_an_error_and_the_run_goes_on() {
    for jobs in ["1", "2", "64"] {
        let out = run(
            &["bench", "--multi", "--json", "--jobs", jobs, LEVELS],
            Some("microban 2"),
        );
        assert_eq!(out.status.code(), Some(4), "--jobs {jobs}");
        let names: Vec<Value> = answers(&out).into_iter().map(|a| a.0).collect();
        assert_eq!(names, ["microban 1", "A box stuck in a corner"]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.ends_with(
            "error: microban 2: internal error, level skipped: fault injected by SOKOBAN_FAULT_LEVEL\n"
        ), "{err}");
    }
    let out = run(&["--multi", LEVELS], Some("microban 1"));
    assert_eq!(out.status.code(), Some(4));
    let text = stdout(&out);
    assert!(!text.contains("microban 1"));
    assert!(
        text.starts_with("microban 2\n") && text.ends_with("Impossible.\n\n"),
        "{text}"
    );
}
