//! Inputs built to exhaust memory or the stack get a clear answer, never an
//! abort: each is refused (exit 2, `error: <source>:<line>:<col>: ...`) or
//! answered, before anything of its claimed size is allocated.

use std::path::PathBuf;
use std::process::Output;

mod common;

use common::{bin, feed};

fn run(args: &[&str], input: &[u8]) -> Output {
    feed(bin().args(args), input)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("input_limits");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_judge_header_of_99999_by_99999_is_refused_before_allocation() {
    for mode in [&[][..], &["--multi"]] {
        let out = run(mode, b"99999 99999\n#S#\n");
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            "error: <stdin>:1:1: grid of 9999800001 cells is larger than the limit of 16777216 \
             (raise it with --max-cells)\n"
        );
    }
}

#[test]
fn an_input_over_max_input_is_refused_unread_from_a_file_or_a_pipe() {
    // Three megabytes of one row, against a limit of one.
    let row = vec![b'#'; 3 << 20];
    let file = scratch("one-row.txt", &row);
    let file = file.to_str().unwrap();
    for args in [
        vec!["--max-input", "1", file],
        vec!["--multi", "--max-input", "1", file],
        vec!["bench", "--multi", "--max-input", "1", file],
        vec!["verify", "--max-input", "1", file, "N"],
    ] {
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&out),
            format!(
                "error: {file}:1:1: input larger than the limit of 1 MB (raise it with --max-input)\n"
            )
        );
    }
    let out = run(&["--max-input", "1"], &row);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("error: <stdin>:1:1: input larger than the limit of 1 MB"));
    // Under the limit the same row is read, and judged as a grid.
    let out = run(&["--max-input", "4", file], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(":1:1: no player in the grid\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn run_length_counts_cannot_spell_out_more_than_max_cells() {
    // 120 kB of `65536#` would be 2.6 GB of rows.
    let text = format!("#@$.#|{}\n", "65536#".repeat(20_000));
    let out = run(&["--multi"], text.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: <stdin>:1:1542: grid of 16777221 cells is larger than the limit of 16777216 \
         (raise it with --max-cells)\n"
    );
}

#[test]
fn a_collection_of_many_tiny_levels_is_answered_level_by_level() {
    let n = 100_000;
    let text = "#####\n#@$.#\n#####\n\n".repeat(n);
    let out = run(&["--multi"], text.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().filter(|l| *l == "E").count(), n);
    assert!(stdout.ends_with(&format!("Level {n}\nE\n\n")));
}

#[test]
fn a_level_over_the_searchable_cell_count_is_a_limit_answer() {
    // 300 x 300 open floor: more cells than the multi-box search numbers.
    let mut text = format!("{}\n#@$.{}#\n", "#".repeat(302), " ".repeat(296));
    for _ in 0..298 {
        text += &format!("#{}#\n", " ".repeat(300));
    }
    text += &"#".repeat(302);
    let out = run(&["--multi"], text.as_bytes());
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "No solution found (level of 89699 floor cells is too large).\n"
    );
}

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    let deep = "[".repeat(200_000);
    let out = run(&["--multi"], deep.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: <stdin>:1:"),
        "{}",
        stderr(&out)
    );
    let file = scratch("deep.jsonl", format!("{deep}\n").as_bytes());
    let file = file.to_str().unwrap();
    for args in [
        vec!["bench", "--merge", file],
        vec!["bench", "--multi", "--resume", file, "-"],
    ] {
        let out = run(&args, b"#####\n#@$.#\n#####\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with(&format!("error: {file}:1:1: ")));
    }
}

#[test]
fn a_memory_request_beyond_the_machine_is_clamped_with_a_warning() {
    let level = b"#######\n#@$ . #\n#  $. #\n#######\n";
    let out = run(&["--multi", "--max-memory", "999999999"], level);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).starts_with("warning: --max-memory 999999999 MB is more than this machine's "),
        "{}",
        stderr(&out)
    );
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 1);
    let out = run(&["--multi", "--max-memory", "64"], level);
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
}

#[test]
fn a_judge_header_whose_cell_count_overflows_is_refused() {
    // Found by fuzzing: the product wrapped around under the limit.
    let out = run(&["--multi"], b"18888888444444 8888888888444444\n#\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("grid of {} cells is larger", u64::MAX)),
        "{}",
        stderr(&out)
    );
}

#[test]
fn errors_in_run_length_rows_point_at_the_letter_as_written() {
    // Found by fuzzing: the column counted expanded cells, past the line's end.
    let out = run(&["--multi"], b"#######\n#5 @.@#\n#$    #\n#######\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: <stdin>:2:6: a second player (the first is at line 2, column 4)\n"
    );
}
