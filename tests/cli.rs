//! The real binary on the samples and on every class of bad input.
//!
//! Data-driven: `samples/NAME.EXT` with `samples/NAME.expected` is a solve
//! case; `tests/data/errors/NAME.txt` with `NAME.stderr` is an error case
//! (fed on stdin, so the source reads `<stdin>`).

use sokoban::level::parse_single;
use sokoban::moves::{Notation, parse_moves, replay};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

mod common;

use common::{Scratch, bin, feed};

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    feed(bin().args(args), input)
}

/// Runs `sokoban --multi LEVEL ARGS...`.
fn multi(level: &Path, args: &[&str]) -> Output {
    bin().arg("--multi").arg(level).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn files_with(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

#[test]
fn single_box_samples_match_expected_and_replay() {
    let cases = files_with("samples", "expected");
    assert!(cases.len() >= 4);
    for expected in cases {
        let input = ["txt", "xsb"]
            .iter()
            .map(|e| expected.with_extension(e))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("no input for {}", expected.display()));
        let out = bin().arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", input.display());
        let got = text(&out.stdout);
        assert_eq!(
            got,
            std::fs::read_to_string(&expected).unwrap(),
            "{}",
            input.display()
        );
        // Every printed solution replays legally to the target.
        let parsed = parse_single(&std::fs::read(&input).unwrap(), 1 << 24).unwrap();
        let answers: Vec<&str> = if got.starts_with("Maze #") {
            got.split_terminator("\n\n")
                .map(|block| block.lines().nth(1).unwrap_or(""))
                .collect()
        } else {
            got.lines().collect()
        };
        assert_eq!(answers.len(), parsed.mazes.len());
        for (maze, line) in parsed.mazes.iter().zip(answers) {
            if line == "Impossible." {
                continue;
            }
            let moves = parse_moves(line).unwrap();
            let end = replay(
                &maze.grid,
                maze.player,
                &[maze.box_cell],
                &moves,
                Notation::Nsew,
            )
            .unwrap();
            assert!(end.has_box(maze.target), "{line}");
        }
    }
}

/// Runs every `NAME.EXT` in `dir` on stdin with `args`; its stderr must be
/// `NAME.stderr`, its status 2, its stdout empty.
fn check_error_cases(dir: &str, ext: &str, args: &[&str], at_least: usize) {
    let cases = files_with(dir, ext);
    assert!(cases.len() >= at_least);
    for case in cases {
        let out = run_stdin(args, &std::fs::read(&case).unwrap());
        let want = std::fs::read_to_string(case.with_extension("stderr")).unwrap();
        assert_eq!(text(&out.stderr), want, "{}", case.display());
        assert_eq!(out.status.code(), Some(2), "{}", case.display());
        assert!(out.stdout.is_empty(), "{}", case.display());
    }
}

#[test]
fn bad_inputs_give_located_errors_and_status_2() {
    check_error_cases("tests/data/errors", "txt", &[], 15);
}

#[test]
fn crlf_ragged_rows_and_trailing_blanks_are_accepted() {
    let out = run_stdin(&[], b"#####\r\n#S.B.T  \r\n#\r\n\r\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "eEE\n");
}

#[test]
fn size_limit_is_adjustable() {
    let grid = b"S.B.T\n";
    let out = run_stdin(&["--max-cells", "4"], grid);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: <stdin>:1:1: grid of 5 cells is larger than the limit of 4 (raise it with --max-cells)\n"
    );
    let out = run_stdin(&["--max-cells", "5"], grid);
    assert_eq!(text(&out.stdout), "eEE\n");
}

#[test]
fn huge_inputs_are_refused_cleanly() {
    // One 20-million-character row: over the default limit, refused without a panic.
    let mut big = vec![b'.'; 20_000_000];
    big.extend_from_slice(b"SBT\n");
    let out = run_stdin(&[], &big);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than the limit of 16777216"));
    assert!(out.stdout.is_empty());
}

/// Input quoted back in an error is bounded and escaped: a 10 MB judge
/// header holding a terminal escape, a 10 MB snekoban object.
#[test]
fn echoed_input_is_bounded_and_escaped() {
    let long = "x".repeat(10_000_000);
    let cases = [
        (format!("1 \u{1b}[2J{long}\nSBT\n"), "(10000006 characters)"),
        (format!("[[[\"{long}\"]]]"), "(10000000 characters)"),
    ];
    for (input, total) in cases {
        let out = run_stdin(&[], input.as_bytes());
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.len() < 400, "{} bytes", err.len());
        assert!(err.contains(total) && !err.contains('\u{1b}'), "{err}");
    }
}

#[test]
fn invalid_later_file_leaves_nothing_on_stdout() {
    let dir = Scratch::new("cli");
    let good = dir.join("good.txt");
    let bad = dir.join("bad.txt");
    std::fs::write(&good, "SBT\n").unwrap();
    std::fs::write(&bad, "SB\n").unwrap();
    let out = bin().arg(&good).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        format!("error: {}:1:1: no target in the grid\n", bad.display())
    );
    let out = bin()
        .arg(&good)
        .arg("-")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(text(&out.stderr), "error: <stdin>:1:1: empty input\n");
    let out = bin().arg(dir.join("missing.txt")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: "));
}

#[test]
fn notations_json_and_stats() {
    let out = run_stdin(&["--notation", "lurd"], b"S.B.T\n");
    assert_eq!(text(&out.stdout), "rRR\n");
    let out = run_stdin(&["--notation", "udlr"], b"S.B.T\n");
    assert_eq!(text(&out.stdout), "RRR\n");
    let out = run_stdin(&["--json"], b"1 5\nS.B.T\n1 4\nSB#T\n0 0\n");
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["name"], "Maze #1");
    assert_eq!(lines[0]["status"], "solved");
    assert_eq!(lines[0]["moves"], "eEE");
    assert_eq!(
        (lines[0]["pushes"].as_u64(), lines[0]["walks"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(lines[0]["states"].as_u64().unwrap() > 0);
    assert!(lines[0]["seconds"].as_f64().is_some());
    assert_eq!(lines[1]["status"], "impossible");
    assert!(lines[1].get("moves").is_none());
    let out = run_stdin(&["--stats"], b"S.B.T\n");
    assert_eq!(text(&out.stdout), "eEE\n");
    let err = text(&out.stderr);
    assert!(
        err.starts_with("Maze #1: pushes 2 walks 1, states "),
        "{err}"
    );
    assert!(
        err.contains(" bytes, ") && err.trim_end().ends_with(" us"),
        "{err}"
    );
}

#[test]
fn both_algorithms_print_answers_of_equal_cost() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/judge-sample.txt");
    let a = bin().arg(&sample).output().unwrap();
    let b = bin()
        .arg(&sample)
        .args(["--algorithm", "dijkstra"])
        .output()
        .unwrap();
    let count = |s: &str| {
        s.lines()
            .map(|l| (l.chars().filter(char::is_ascii_uppercase).count(), l.len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(count(&text(&a.stdout)), count(&text(&b.stdout)));
}

#[test]
fn usage_errors_exit_2() {
    let out = bin().arg("--no-such-flag").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["--notation", "xyz"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// One case a line: the arguments | the exit status | a piece of stderr
/// (`!` before it: must not appear). Limits are refused out of range with
/// the range named, the same in every command; an option that does
/// nothing in a mode is refused in it.
const OPTION_CASES: &str = "
--multi --time-limit 1e30 samples/multi/collection.xsb|2|at most 1000000000
--multi --time-limit -1 samples/multi/one.xsb|2|greater than 0
--multi --time-limit -1 samples/multi/one.xsb|2|!'-- -1'
--multi --time-limit 1e9 samples/multi/one.xsb|0|
bench --multi --time-limit 0 samples/multi/one.xsb|2|greater than 0
optimize --time-limit nan samples/multi/one.xsb|2|greater than 0
verify --time-limit 0 samples/olympiad.txt eennwwWWWWeeeeeesswwwwwwwnNN|2|greater than 0
verify --time-limit 1e30 samples/olympiad.txt eennwwWWWWeeeeeesswwwwwwwnNN|2|greater than 0
--multi --threads -1 samples/multi/one.xsb|2|from 1 to 256
bench --multi --jobs 0 samples/multi/one.xsb|2|from 1 to 256
--multi --max-nodes -5 samples/multi/one.xsb|2|a whole number, at least 0
--max-cells 0 samples/olympiad.txt|2|a whole number, at least 1
--fast samples/olympiad.txt|2|--multi
--time-limit 5 samples/olympiad.txt|2|--multi
--method bfs samples/olympiad.txt|2|--multi
--multi --algorithm dijkstra samples/multi/one.xsb|2|'--algorithm <ALGORITHM>'
--json --trace samples/olympiad.txt|2|'--trace[=<STEP>]'
bench --fast samples/olympiad.txt|2|--multi
bench --multi --algorithm dijkstra samples/multi/one.xsb|2|'--algorithm <ALGORITHM>'
bench --seed 3 samples/olympiad.txt|2|'--seed <SEED>'
bench --multi --kind maze samples/multi/one.xsb|2|'--kind <KIND>'
verify --judge testlib --optimal samples/olympiad.txt a b|2|'--optimal'
gen --rows 3 --cols 3 --max-input 5|2|unexpected argument '--max-input'
manpage --max-input 5|2|unexpected argument '--max-input'
convert --to auto samples/olympiad.txt|2|invalid value 'auto'
";

#[test]
fn options_mean_the_same_everywhere() {
    for case in OPTION_CASES.lines().filter(|l| !l.is_empty()) {
        let [args, code, piece] = case.split('|').collect::<Vec<_>>()[..] else {
            panic!("bad case {case}");
        };
        let out = common::run_in_crate(&args.split(' ').collect::<Vec<_>>());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), code.parse().ok(), "{case}: {err}");
        match piece.strip_prefix('!') {
            Some(absent) => assert!(!err.contains(absent), "{case}: {err}"),
            None => assert!(err.contains(piece), "{case}: {err}"),
        }
    }
}

#[test]
fn closed_stdout_exits_quietly() {
    // 2000 mazes print far more than a pipe buffer; the reader stops after one line.
    let mut input = String::new();
    for _ in 0..2000 {
        input.push_str("1 5\nS.B.T\n");
    }
    let mut child = bin()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

/// A failed write to stderr (here a full device) never panics: `--stats`,
/// warnings and error messages are dropped and the exit status stands.
#[test]
fn a_full_stderr_changes_nothing_but_stderr() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases: [(&[&str], i32, &str); 5] = [
        (
            &["--stats", "samples/olympiad.txt"],
            0,
            "eennwwWWWWeeeeeesswwwwwwwnNN\n",
        ),
        (
            &["--multi", "--stats", "samples/multi/one.xsb"],
            0,
            "nwwSnwwsseEnWneeesWWeesswNenW\n",
        ),
        (
            &[
                "--multi",
                "--max-memory",
                "999999999",
                "samples/multi/one.xsb",
            ],
            0,
            "nwwSnwwsseEnWneeesWWeesswNenW\n",
        ),
        (
            &[
                "optimize",
                "--stats",
                "samples/multi/one.xsb",
                "nwwSnwwsseEnWneeesWWeesswNenW",
            ],
            0,
            "",
        ),
        (&["samples/multi/collection.xsb"], 2, ""),
    ];
    for (args, code, stdout) in cases {
        let out = bin()
            .current_dir(root)
            .args(args)
            .stderr(full())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        if !stdout.is_empty() {
            assert_eq!(text(&out.stdout), stdout, "{args:?}");
        }
    }
}

#[test]
fn multi_samples_match_expected_and_replay() {
    for expected in files_with("samples/multi", "expected") {
        let input = expected.with_extension("xsb");
        let out = bin().arg("--multi").arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", input.display());
        let got = text(&out.stdout);
        assert_eq!(
            got,
            std::fs::read_to_string(&expected).unwrap(),
            "{}",
            input.display()
        );
        let levels = sokoban::level::parse_xsb(&std::fs::read(&input).unwrap(), 1 << 20).unwrap();
        let answers: Vec<String> = if levels.len() == 1 {
            vec![got.trim_end().to_string()]
        } else {
            got.split_terminator("\n\n")
                .map(|block| block.lines().nth(1).unwrap_or("").to_string())
                .collect()
        };
        assert_eq!(answers.len(), levels.len());
        for (level, line) in levels.iter().zip(&answers) {
            if line == "Impossible." {
                continue;
            }
            let moves = parse_moves(line).unwrap();
            let end = replay(
                &level.grid,
                level.player,
                &level.boxes,
                &moves,
                Notation::Nsew,
            )
            .unwrap();
            assert!(end.solved(&level.goals), "{}", level.name);
        }
    }
}

#[test]
fn multi_bad_inputs_give_located_errors_and_status_2() {
    check_error_cases("tests/data/multi-errors", "xsb", &["--multi"], 7);
}

#[test]
fn multi_limits_give_up_cleanly_with_status_3() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/multi/one.xsb");
    let out = multi(&level, &["--max-nodes", "3"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(text(&out.stdout), "No solution found (node limit 3).\n");
    let out = multi(&level, &["--max-nodes", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["status"], "limit");
    assert_eq!(v["name"], "Level 1");
    let out = multi(&level, &["--time-limit", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    // A memory bound below what the search starts with stops it at the first check.
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/levels/sasquatch.xsb");
    let out = multi(&hard, &["--max-memory", "0", "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let first: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "limit");
    assert_eq!(first["limit"], "memory limit 0 MB");
    let out = multi(&hard, &["--time-limit", "0.000001"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stdout).contains("No solution found (time limit 0.000001 s)."));
}

#[test]
fn multi_methods_json_and_stats() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/multi/collection.xsb");
    for method in [
        "astar",
        "bfs",
        "dfs",
        "ucs",
        "greedy",
        "features",
        "box-moves",
        "packing",
        "plan",
    ] {
        let out = multi(&level, &["--method", method, "--json", "--stats"]);
        assert_eq!(out.status.code(), Some(0), "{method}");
        let records: Vec<serde_json::Value> = text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let names: Vec<&str> = records
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["microban 1", "microban 2", "A box stuck in a corner"]
        );
        assert_eq!(records[2]["status"], "impossible");
        let optimal = matches!(method, "astar" | "bfs" | "ucs");
        if optimal {
            assert_eq!(records[0]["pushes"], 8, "{method}");
        }
        assert_eq!(records[0]["optimal"], optimal, "{method}");
        assert_eq!(text(&out.stderr).lines().count(), 3, "{method}");
    }
}

#[test]
fn multi_fast_on_any_number_of_threads() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/multi/collection.xsb");
    for threads in ["1", "2", "3", "5"] {
        let out = multi(&level, &["--fast", "--threads", threads, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{threads}");
        let status: Vec<String> = text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["status"].to_string())
            .collect();
        assert_eq!(
            status,
            [r#""solved""#, r#""solved""#, r#""impossible""#],
            "{threads}"
        );
    }
    // Limits name what the user set, whichever search hit it.
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/levels/sasquatch.xsb");
    let out = multi(
        &hard,
        &["--fast", "--threads", "2", "--time-limit", "0.000001"],
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stdout).contains("No solution found (time limit 0.000001 s)."));
    let out = multi(&level, &["--fast", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bench_multi_keeps_input_order_with_jobs() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/multi/collection.xsb");
    let out = bin()
        .args(["bench", "--multi", "--jobs", "2", "--json"])
        .arg(&level)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let records: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0]["name"], "microban 1");
    assert_eq!(records[2]["status"], "impossible");
    assert_eq!(records[3]["summary"], true);
    assert_eq!(records[3]["solved"], 2);
    let out = bin()
        .args(["bench", "--multi"])
        .arg(&level)
        .output()
        .unwrap();
    let table = text(&out.stdout);
    assert!(table.lines().next().unwrap().starts_with("name"));
    assert!(
        table.lines().last().unwrap().starts_with("solved "),
        "{table}"
    );
    assert!(table.contains("solved 2/3 (2 push-optimal)"), "{table}");
}

#[test]
fn gen_writes_judge_files_and_answers_that_solve() {
    let dir = Scratch::new("gen");
    let answers = dir.join("answers.txt");
    let out = bin()
        .args([
            "gen", "--rows", "12", "--cols", "15", "--kind", "maze", "--width", "2",
        ])
        .args([
            "--loops",
            "20",
            "--seed",
            "9",
            "--count",
            "5",
            "--solvable",
            "--answers",
        ])
        .arg(&answers)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let judge = out.stdout;
    assert!(text(&judge).starts_with("12 15\n"));
    assert!(text(&judge).ends_with("0 0\n"));
    // Each generated answer replays to the target with the fewest pushes,
    // then walks, by the plain reference search.
    let mazes = parse_single(&judge, 1 << 24).unwrap().mazes;
    let written = std::fs::read_to_string(&answers).unwrap();
    let blocks: Vec<&str> = written.split_terminator("\n\n").collect();
    assert_eq!(blocks.len(), mazes.len());
    for (k, (maze, block)) in mazes.iter().zip(&blocks).enumerate() {
        let (header, line) = block.split_once('\n').unwrap();
        assert_eq!(header, format!("Maze #{}", k + 1));
        let moves = parse_moves(line).unwrap();
        let end = replay(
            &maze.grid,
            maze.player,
            &[maze.box_cell],
            &moves,
            Notation::Nsew,
        )
        .unwrap();
        assert!(end.has_box(maze.target), "{header}: {line}");
        let optimum = common::reference_single(maze);
        assert_eq!(Some((end.pushes, end.walks)), optimum, "{header}");
    }
    // Same seed, same file.
    let again = bin()
        .args([
            "gen", "--rows", "12", "--cols", "15", "--kind", "maze", "--width", "2",
        ])
        .args(["--loops", "20", "--seed", "9", "--count", "5", "--solvable"])
        .output()
        .unwrap();
    assert_eq!(again.stdout, judge);
    let too_big = bin()
        .args(["gen", "--rows", "5000", "--cols", "5000"])
        .output()
        .unwrap();
    assert_eq!(too_big.status.code(), Some(2));
    assert!(text(&too_big.stderr).contains("raise it with --max-cells"));
}

#[test]
fn bench_single_reports_rows_and_summary() {
    let out = bin()
        .args([
            "bench", "--rows", "30", "--cols", "30", "--kind", "rooms", "--count", "3", "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let records: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4);
    for r in &records[..3] {
        assert!(r["flood_seconds"].as_f64().unwrap() >= 0.0);
        assert_eq!(r["rows"], 30);
    }
    assert_eq!(records[3]["instances"], 3);
}
