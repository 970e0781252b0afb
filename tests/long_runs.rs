//! Nothing lost on long runs: answers are printed as each level finishes,
//! Ctrl-C (SIGINT) stops a collection run with what is done, a summary and
//! exit 130, and `bench --resume` picks the run up where it stopped.
//!
//! `tests/data/long-runs/interrupt.xsb` holds two easy levels, then one the
//! default search cannot finish in any test's lifetime (perfect 3), then an
//! easy one, so an interrupt sent after the second answer always lands on
//! the third level. `huge.xsb` is one level of 480 boxes (sasquatch8 49).

mod common;

use common::interrupt_after;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

const LEVELS: &str = "tests/data/long-runs/interrupt.xsb";

fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn ctrl_c_on_a_collection_keeps_the_answers_given_and_exits_130() {
    // Two answers of three lines each (header, moves, blank).
    let (code, out, err) = interrupt_after(start(&["--multi", LEVELS]), 6);
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(
        out,
        "microban 1\nswNeeesWnwwsseNwnEnnwSesseenWswNN\n\nmicroban 2\nessWennwSnnwwssE\n\n"
    );
    assert_eq!(err, "interrupted: 2 of 4 levels answered\n");
}

#[test]
fn ctrl_c_on_bench_prints_the_summary_of_what_is_done() {
    let child = start(&["bench", "--multi", "--jobs", "2", "--json", LEVELS]);
    let (code, out, err) = interrupt_after(child, 2);
    assert_eq!(code, Some(130), "{err}");
    let records = records(&out);
    assert_eq!(records.len(), 3, "{out}");
    assert_eq!(records[0]["index"], 0);
    assert_eq!(records[1]["index"], 1);
    assert_eq!(records[2]["summary"], true);
    assert_eq!(records[2]["levels"], 2);
    assert_eq!(records[2]["solved"], 2);
    assert!(err.contains("interrupted: 2 of 4 levels answered"), "{err}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("long_runs");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn bench_resume_skips_the_answered_levels_and_merges_to_the_whole() {
    let file = scratch("resume.jsonl");
    let _ = std::fs::remove_file(&file);
    let path = file.to_str().unwrap();
    let resume = |extra: &[&str]| {
        let mut args = vec!["bench", "--multi", "--json", "--resume", path];
        args.extend(extra);
        args.push(LEVELS);
        start(&args)
    };
    // A missing file means nothing answered yet: the run is cut after two.
    let (code, first, _) = interrupt_after(resume(&[]), 2);
    assert_eq!(code, Some(130));
    std::fs::write(&file, &first).unwrap();
    // The rest, under a node limit so perfect 3 gives up.
    let out = resume(&["--max-nodes", "2000"]).wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let second = String::from_utf8(out.stdout).unwrap();
    let indices: Vec<Value> = records(&second)
        .iter()
        .map(|r| r["index"].clone())
        .collect();
    assert_eq!(indices, [2.into(), 3.into(), Value::Null]);
    std::fs::write(&file, format!("{first}{second}")).unwrap();
    // Everything answered: nothing left to do.
    let out = resume(&[]).wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        records(&String::from_utf8(out.stdout).unwrap())[0]["levels"],
        0
    );
    // The merged file sums to the whole collection.
    let out = start(&["bench", "--merge", "--json", path])
        .wait_with_output()
        .unwrap();
    let merged = &records(&String::from_utf8(out.stdout).unwrap())[0];
    assert_eq!(
        (merged["levels"].clone(), merged["solved"].clone()),
        (4.into(), 3.into())
    );
    assert_eq!(merged["limit"], 1);
}

#[test]
fn resume_refuses_a_file_that_is_not_bench_records() {
    let file = scratch("not-records.jsonl");
    std::fs::write(&file, "{\"name\":\"x\"}\n").unwrap();
    let out = start(&[
        "bench",
        "--multi",
        "--resume",
        file.to_str().unwrap(),
        LEVELS,
    ])
    .wait_with_output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.ends_with(":1:1: not a bench --json record with an index\n"),
        "{err}"
    );
}

/// A level of 480 boxes, where one expansion takes milliseconds: under a
/// short limit every method answers with the limit, not with a kill or a
/// hang (how soon is measured by the benchmark in the README, not here).
#[test]
fn a_huge_level_under_a_short_limit_answers_with_the_limit() {
    let huge = "tests/data/long-runs/huge.xsb";
    for extra in [
        &[][..],
        &["--fast", "--threads", "1"],
        &["--fast", "--threads", "2"],
        &["--method", "plan"],
    ] {
        let mut args = vec!["--multi", "--time-limit", "0.5", huge];
        args.extend_from_slice(extra);
        let out = start(&args).wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{extra:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "No solution found (time limit 0.5 s).\n",
            "{extra:?}"
        );
    }
}
