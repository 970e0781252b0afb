//! `verify --judge`: the real binary as a Kattis / DOMjudge output validator
//! and as a testlib checker.
//!
//! Data-driven: every `tests/data/judge/NAME.out` is a contestant's output for
//! `samples/judge/input.txt`; `NAME.expected` holds the Kattis exit code, the
//! testlib exit code and the judge message.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

mod common;

use common::{bin, feed};

/// A fresh empty directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn kattis(answer: &Path, feedback: &Path, output: &[u8]) -> Output {
    let mut command = bin();
    command
        .args(["verify", "--judge", "kattis"])
        .arg(root().join("samples/judge/input.txt"))
        .arg(answer)
        .arg(feedback);
    feed(&mut command, output)
}

fn testlib(output: &Path, answer: &Path, report: Option<&Path>) -> Output {
    bin()
        .args(["verify", "--judge", "testlib"])
        .arg(root().join("samples/judge/input.txt"))
        .arg(output)
        .arg(answer)
        .args(report)
        .output()
        .unwrap()
}

struct Case {
    name: String,
    output: PathBuf,
    kattis: i32,
    testlib: i32,
    message: String,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for entry in fs::read_dir(root().join("tests/data/judge")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "out") {
            continue;
        }
        let expected = fs::read_to_string(path.with_extension("expected")).unwrap();
        let mut lines = expected.lines();
        let mut code = |system: &str| -> i32 {
            let line = lines.next().unwrap();
            line.strip_prefix(system).unwrap().trim().parse().unwrap()
        };
        let (kattis, testlib) = (code("kattis"), code("testlib"));
        out.push(Case {
            name: path.file_stem().unwrap().to_string_lossy().into(),
            kattis,
            testlib,
            message: lines.next().unwrap().to_string(),
            output: path,
        });
    }
    assert!(out.len() >= 10);
    out
}

#[test]
fn kattis_exit_codes_and_judge_message() {
    let answer = root().join("samples/judge/answer.txt");
    for case in cases() {
        let feedback = scratch(&format!("kattis-{}", case.name));
        let got = kattis(&answer, &feedback, &fs::read(&case.output).unwrap());
        assert_eq!(got.status.code(), Some(case.kattis), "{}", case.name);
        let message = fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
        assert_eq!(message, format!("{}\n", case.message), "{}", case.name);
        assert!(got.stdout.is_empty(), "{}", case.name);
    }
}

#[test]
fn testlib_exit_codes_stderr_and_report() {
    let answer = root().join("samples/judge/answer.txt");
    for case in cases() {
        let report = scratch(&format!("testlib-{}", case.name)).join("report.txt");
        let got = testlib(&case.output, &answer, Some(&report));
        assert_eq!(got.status.code(), Some(case.testlib), "{}", case.name);
        let prefix = ["ok", "wrong answer", "wrong output format", "FAIL"][case.testlib as usize];
        let stderr = String::from_utf8(got.stderr).unwrap();
        assert!(stderr.starts_with(prefix), "{}: {stderr}", case.name);
        // The Kattis message says "wrong output format:" itself; the rest is shared.
        let reason = case.message.trim_start_matches("wrong output format: ");
        assert!(stderr.contains(reason), "{}: {stderr}", case.name);
        assert_eq!(
            fs::read_to_string(&report).unwrap(),
            stderr,
            "{}",
            case.name
        );
    }
}

#[test]
fn the_worked_example_in_samples() {
    let dir = root().join("samples/judge");
    let answer = dir.join("answer.txt");
    let accepted = testlib(&dir.join("accepted.txt"), &answer, None);
    assert_eq!(accepted.status.code(), Some(0));
    let wrong = testlib(&dir.join("wrong.txt"), &answer, None);
    assert_eq!(wrong.status.code(), Some(1));
    let feedback = scratch("kattis-sample");
    let got = kattis(
        &answer,
        &feedback,
        &fs::read(dir.join("accepted.txt")).unwrap(),
    );
    assert_eq!(got.status.code(), Some(42));
}

#[test]
fn a_wrong_reference_answer_is_a_judge_failure() {
    let dir = root().join("samples/judge");
    // The judge's answer is not optimal: every contestant would be judged
    // against bad data, so neither system may give a verdict.
    let bad = dir.join("wrong.txt");
    let got = testlib(&dir.join("answer.txt"), &bad, None);
    assert_eq!(got.status.code(), Some(3));
    let stderr = String::from_utf8(got.stderr).unwrap();
    assert!(
        stderr.starts_with("FAIL judge answer for maze 1"),
        "{stderr}"
    );
    let feedback = scratch("kattis-bad-reference");
    let got = kattis(&bad, &feedback, &fs::read(dir.join("answer.txt")).unwrap());
    assert_eq!(got.status.code(), Some(1));
    let error = fs::read_to_string(feedback.join("judgeerror.txt")).unwrap();
    assert!(error.starts_with("judge answer for maze 1"), "{error}");
}

#[test]
fn unreadable_test_data_is_a_judge_failure() {
    let dir = root().join("samples/judge");
    let missing = dir.join("no-such-file.txt");
    let got = testlib(&dir.join("answer.txt"), &missing, None);
    assert_eq!(got.status.code(), Some(3));
    // A level that is no single-box input at all.
    let got = bin()
        .args(["verify", "--judge", "testlib"])
        .arg(root().join("samples/multi/collection.xsb"))
        .arg(dir.join("answer.txt"))
        .arg(dir.join("answer.txt"))
        .output()
        .unwrap();
    assert_eq!(got.status.code(), Some(3));
    let got = kattis(&missing, &scratch("kattis-missing"), b"");
    assert_eq!(got.status.code(), Some(1));
}

#[test]
fn a_single_grid_takes_one_answer_line_without_header() {
    let dir = scratch("grid");
    let answer = dir.join("answer.txt");
    fs::write(&answer, "eennwwWWWWeeeeeesswwwwwwwnNN\n").unwrap();
    let check = |output: &str| {
        let path = dir.join("output.txt");
        fs::write(&path, output).unwrap();
        let got = bin()
            .args(["verify", "--judge", "testlib"])
            .arg(root().join("samples/olympiad.txt"))
            .arg(&path)
            .arg(&answer)
            .output()
            .unwrap();
        (got.status.code(), String::from_utf8(got.stderr).unwrap())
    };
    assert_eq!(
        check("\r\neennwwWWWWeeeeeesswwwwwwwnNN  \r\n\r\n"),
        (Some(0), "ok 1 answer right and optimal\n".into())
    );
    assert_eq!(
        check("eennwwWWWWeeeeeesswwwwwwwnNNsn\n"),
        (
            Some(1),
            "wrong answer 6 24 solved not optimal (optimum: 6 22)\n".into()
        )
    );
    assert_eq!(check("Maze #1\neennwwWWWWeeeeeesswwwwwwwnNN\n").0, Some(2));
}

/// A contestant's line is quoted back bounded and escaped: a 10 MB line
/// holding a terminal escape never reaches the feedback file or the report
/// whole or raw.
#[test]
fn echoed_output_is_bounded_and_escaped() {
    let answer = root().join("samples/judge/answer.txt");
    let mut output = fs::read(root().join("samples/judge/accepted.txt")).unwrap();
    output.extend_from_slice(b"\x1b[2J\x07");
    output.extend(std::iter::repeat_n(b'x', 10_000_000));
    output.push(b'\n');
    let bounded = |message: &str| {
        assert!(message.len() < 400, "{} bytes", message.len());
        assert!(!message.contains(['\u{1b}', '\u{7}']), "{message}");
        assert!(message.contains(r#""\u{1b}[2J\u{7}xxx"#), "{message}");
        assert!(message.contains("(10000005 characters)"), "{message}");
    };
    let feedback = scratch("kattis-long-line");
    let got = kattis(&answer, &feedback, &output);
    assert_eq!(got.status.code(), Some(43));
    bounded(&fs::read_to_string(feedback.join("judgemessage.txt")).unwrap());
    let dir = scratch("testlib-long-line");
    let (contestant, report) = (dir.join("output.txt"), dir.join("report.txt"));
    fs::write(&contestant, &output).unwrap();
    let got = testlib(&contestant, &answer, Some(&report));
    assert_eq!(got.status.code(), Some(2));
    bounded(&String::from_utf8(got.stderr).unwrap());
    bounded(&fs::read_to_string(&report).unwrap());
}
