//! The JSON records stay what they were before they were typed structs. The
//! files in `tests/data/records/` were written by the binary of that time,
//! with the arguments in [`WRITTEN_BY`]; this binary writes the same bytes
//! on the same input (timings aside), and `bench --resume` and `bench
//! --merge` read them back to the same summaries, every limit of its kind.

mod common;

use sokoban::moves::{Limit, Outcome};
use sokoban::output::LevelRecord;
use sokoban::tools::bench::{MultiSummaryRecord, SingleSummaryRecord};
use sokoban::tools::shard::Shard;

const DATA: &str = "tests/data/records";
const LEVELS: &str = "tests/data/records/levels.xsb";
const JUDGE: &str = "samples/judge-sample.txt";

/// Each file, the arguments that wrote it (before the input) and the exit status.
const WRITTEN_BY: [(&str, &str, i32); 8] = [
    (
        "bench-multi.jsonl",
        "bench --multi --json --max-nodes 2000 --jobs 1 --threads 1",
        3,
    ),
    (
        "bench-multi-shard-0.jsonl",
        "bench --multi --json --max-nodes 2000 --jobs 1 --threads 1 --shard 0/2",
        3,
    ),
    (
        "bench-multi-shard-1.jsonl",
        "bench --multi --json --max-nodes 2000 --jobs 1 --threads 1 --shard 1/2",
        3,
    ),
    (
        "solve-multi.jsonl",
        "--multi --json --max-nodes 2000 --threads 1",
        3,
    ),
    (
        "solve-multi-memory-shard-1.jsonl",
        "--multi --json --max-memory 1 --threads 1 --shard 1/2",
        3,
    ),
    ("bench-single.jsonl", "bench --json", 0),
    ("bench-single-shard-1.jsonl", "bench --json --shard 1/2", 0),
    ("solve-single.jsonl", "--json", 0),
];

/// The fields that differ from run to run: times and the ratios of times.
const TIMED: [&str; 6] = [
    "seconds",
    "flood_seconds",
    "ratio",
    "median_ratio",
    "max_ratio",
    "median_seconds",
];

/// The arguments of `written_by` with `more` after them.
fn args<'a>(written_by: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    written_by
        .split_whitespace()
        .chain(more.iter().copied())
        .collect()
}

fn file(name: &str) -> String {
    let path = format!("{}/{DATA}/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

fn path(name: &str) -> String {
    format!("{DATA}/{name}")
}

/// `text` with the value of every timed field replaced by `T`.
fn untimed(text: &str) -> String {
    let mut out = text.to_string();
    for key in TIMED {
        let field = format!("\"{key}\":");
        let mut from = 0;
        while let Some(at) = out[from..].find(&field) {
            let start = from + at + field.len();
            let len = out[start..]
                .find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
                .unwrap_or(out.len() - start);
            out.replace_range(start..start + len, "T");
            from = start;
        }
    }
    out
}

fn input_of(name: &str) -> &'static str {
    if name.contains("single") {
        JUDGE
    } else {
        LEVELS
    }
}

/// `text` with the counts of every record stopped by the memory limit
/// replaced by `N`: how far a search gets before it looks at its memory
/// depends on how often it looks, which follows the clock.
fn memory_counts_aside(text: &str) -> String {
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut line = line.to_string();
        if line.contains("\"memory limit ") {
            for key in ["\"generated\":", "\"states\":"] {
                if let Some(at) = line.find(key) {
                    let start = at + key.len();
                    let len = line[start..].find(|c: char| !c.is_ascii_digit()).unwrap();
                    line.replace_range(start..start + len, "N");
                }
            }
        }
        lines.push(line);
    }
    lines.join("\n")
}

#[test]
fn the_same_records_as_before_timings_aside() {
    for (name, written_by, code) in WRITTEN_BY {
        let out = common::run_in_crate(&args(written_by, &[input_of(name)]));
        assert_eq!(out.status.code(), Some(code), "{name}");
        assert_eq!(
            memory_counts_aside(&untimed(&common::stdout(&out))),
            memory_counts_aside(&untimed(&file(name))),
            "{name}"
        );
    }
    // Levels solved side by side come out in the same order.
    let (name, written_by, _) = WRITTEN_BY[0];
    let side_by_side = written_by.replace("--jobs 1", "--jobs 3");
    let out = common::run_in_crate(&args(&side_by_side, &[LEVELS]));
    assert_eq!(untimed(&common::stdout(&out)), untimed(&file(name)));
}

/// The last line of `text`, a summary.
fn summary<'a, T: serde::Deserialize<'a>>(text: &'a str) -> T {
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

fn merged(files: &[&str]) -> String {
    let mut args = vec!["bench", "--merge", "--json"];
    let paths: Vec<String> = files.iter().map(|f| path(f)).collect();
    args.extend(paths.iter().map(String::as_str));
    let out = common::run_in_crate(&args);
    assert!(matches!(out.status.code(), Some(0 | 3)), "{files:?}");
    common::stdout(&out)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1e-3)
}

#[test]
fn merges_sum_to_the_summaries_written() {
    let whole: MultiSummaryRecord = summary(&file("bench-multi.jsonl"));
    assert_eq!((whole.levels, whole.limit, whole.shard), (6, 2, None));
    for files in [
        &["bench-multi.jsonl"][..],
        &["bench-multi-shard-0.jsonl", "bench-multi-shard-1.jsonl"],
        &["solve-multi.jsonl"],
    ] {
        let mut got: MultiSummaryRecord = summary(&merged(files));
        if files.len() == 1 && files[0] == "bench-multi.jsonl" {
            assert!(close(got.seconds, whole.seconds), "{got:?}");
            assert!(close(got.median_seconds, whole.median_seconds));
        }
        (got.seconds, got.median_seconds) = (whole.seconds, whole.median_seconds);
        assert_eq!(got, whole, "{files:?}");
    }
    let shard: MultiSummaryRecord = summary(&file("bench-multi-shard-0.jsonl"));
    assert_eq!(shard.shard, Some(Shard { k: 0, n: 2 }));
    let whole: SingleSummaryRecord = summary(&file("bench-single.jsonl"));
    let got: SingleSummaryRecord = summary(&merged(&["bench-single.jsonl"]));
    for (a, b) in [
        (got.seconds, whole.seconds),
        (got.flood_seconds, whole.flood_seconds),
        (got.median_ratio, whole.median_ratio),
        (got.max_ratio, whole.max_ratio),
    ] {
        assert!(close(a, b), "{got:?}");
    }
    assert_eq!(
        (got.instances, got.solved, got.impossible),
        (whole.instances, whole.solved, whole.impossible)
    );
    // Single-box solving records are no bench records.
    let out = common::run_in_crate(&["bench", "--merge", &path("solve-single.jsonl")]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn resume_solves_only_what_the_file_lacks() {
    let (_, written_by, _) = WRITTEN_BY[0];
    let resume = path("bench-multi-shard-0.jsonl");
    let out = common::run_in_crate(&args(written_by, &["--resume", &resume, LEVELS]));
    assert_eq!(out.status.code(), Some(3));
    let text = common::stdout(&out);
    let rest = file("bench-multi-shard-1.jsonl");
    let records = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        untimed(&lines[..lines.len() - 1].join("\n"))
    };
    assert_eq!(records(&text), records(&rest));
    // Nothing left to solve: only the summary, of no levels.
    let resume = path("bench-multi.jsonl");
    let out = common::run_in_crate(&args(written_by, &["--resume", &resume, LEVELS]));
    let none: MultiSummaryRecord = summary(&common::stdout(&out));
    assert_eq!((none.levels, common::stdout(&out).lines().count()), (0, 1));
    let resume = path("bench-single-shard-1.jsonl");
    let out = common::run_in_crate(&["bench", "--json", "--resume", &resume, JUDGE]);
    let whole = file("bench-single.jsonl");
    let expected: Vec<&str> = whole.lines().step_by(2).take(2).collect();
    assert_eq!(
        records(&common::stdout(&out)),
        untimed(&expected.join("\n"))
    );
}

#[test]
fn every_limit_reads_back_of_its_kind() {
    let limits = |name: &str| -> Vec<Outcome> {
        file(name)
            .lines()
            .filter_map(|l| serde_json::from_str::<LevelRecord>(l).ok())
            .map(|r| r.outcome().unwrap())
            .filter(|o| matches!(o, Outcome::Limit(_)))
            .collect()
    };
    let nodes = Outcome::Limit(Limit::Nodes(2000));
    assert_eq!(limits("bench-multi.jsonl"), [nodes.clone(), nodes]);
    let memory = Outcome::Limit(Limit::Memory(1 << 20));
    assert_eq!(limits("solve-multi-memory-shard-1.jsonl"), [memory]);
}
