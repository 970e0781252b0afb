//! `--shard K/N` and `bench --merge`: slices of a collection cover every
//! level exactly once, and merging their JSON lines sums to the whole run.

mod common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

const LEVELS: [&str; 4] = [
    "tests/data/levels/handmade.xsb",
    "tests/data/levels/microban.xsb",
    "tests/data/levels/for-the-kids.xsb",
    "samples/multi/collection.xsb",
];

fn records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `bench --multi --json` over the levels, whole or one shard.
fn bench(shard: Option<&str>) -> String {
    let mut args = vec!["bench", "--multi", "--json", "--max-nodes", "3000"];
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    args.extend(LEVELS);
    let out = common::run_in_crate(&args);
    assert!(out.status.code() == Some(0) || out.status.code() == Some(3));
    common::stdout(&out)
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("shard");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn shards_cover_every_level_once_and_merge_to_the_whole() {
    let whole = records(&bench(None));
    let (summary, rows) = whole.split_last().unwrap();
    let n = 4;
    let mut seen: BTreeMap<u64, String> = BTreeMap::new();
    let mut files = Vec::new();
    let mut shard_seconds = 0.0;
    for k in 0..n {
        let text = bench(Some(&format!("{k}/{n}")));
        let shard = records(&text);
        let (last, shard_rows) = shard.split_last().unwrap();
        assert_eq!(last["shard"], format!("{k}/{n}"));
        shard_seconds += last["seconds"].as_f64().unwrap();
        for row in shard_rows {
            let index = row["index"].as_u64().unwrap();
            assert_eq!(index % n, k, "{row}");
            let name = row["name"].as_str().unwrap().to_string();
            assert!(seen.insert(index, name).is_none(), "index {index} twice");
        }
        let file = scratch(&format!("{k}.jsonl"));
        std::fs::write(&file, text).unwrap();
        files.push(file);
    }
    // Every level in exactly one shard, under its name in the whole run.
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(seen.values().map(String::as_str).collect::<Vec<_>>(), names);
    assert_eq!(
        seen.keys().copied().collect::<Vec<_>>(),
        (0..rows.len() as u64).collect::<Vec<_>>()
    );
    // The merge counts what the whole run counts, and sums the shards' times.
    let mut args = vec!["bench", "--merge", "--json"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let merged = records(&common::stdout(&common::run_in_crate(&args))).remove(0);
    for key in ["levels", "solved", "optimal", "impossible", "limit"] {
        assert_eq!(merged[key], summary[key], "{key}");
    }
    assert!((merged["seconds"].as_f64().unwrap() - shard_seconds).abs() < 1e-6);
    // One file of all shards concatenated merges the same.
    let all: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let cat = scratch("all.jsonl");
    std::fs::write(&cat, all).unwrap();
    let text = common::run_in_crate(&["bench", "--merge", cat.to_str().unwrap()]);
    assert!(common::stdout(&text).starts_with(&format!(
        "solved {}/{}",
        summary["solved"], summary["levels"]
    )));
}

#[test]
fn merge_refuses_missing_and_repeated_shards() {
    let first = scratch("only-0.jsonl");
    std::fs::write(&first, bench(Some("0/2"))).unwrap();
    let f = first.to_str().unwrap();
    let out = common::run_in_crate(&["bench", "--merge", f]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.ends_with("shards missing: 1/2\n"), "{err}");
    let out = common::run_in_crate(&["bench", "--merge", f, f]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(":1:1: level index 0 appears twice"), "{err}");
}

#[test]
fn single_box_bench_and_multi_solving_shard_too() {
    let spec = [
        "bench", "--json", "--rows", "8", "--cols", "8", "--kind", "open", "--count", "7",
        "--seed", "3",
    ];
    let whole = records(&common::stdout(&common::run_in_crate(&spec)));
    let mut names = Vec::new();
    for k in 0..3 {
        let mut args = spec.to_vec();
        let shard = format!("{k}/3");
        args.extend(["--shard", &shard]);
        let part = records(&common::stdout(&common::run_in_crate(&args)));
        for row in &part[..part.len() - 1] {
            names.push((row["index"].as_u64().unwrap(), row["name"].clone()));
        }
    }
    names.sort_by_key(|(i, _)| *i);
    let expected: Vec<(u64, Value)> = whole[..whole.len() - 1]
        .iter()
        .enumerate()
        .map(|(i, r)| (i as u64, r["name"].clone()))
        .collect();
    assert_eq!(names, expected);

    let out = common::run_in_crate(&[
        "--multi",
        "--json",
        "--shard",
        "1/2",
        "samples/multi/collection.xsb",
    ]);
    let got: Vec<(u64, String)> = records(&common::stdout(&out))
        .iter()
        .map(|r| {
            (
                r["index"].as_u64().unwrap(),
                r["name"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(got, [(1, "microban 2".to_string())]);
}

#[test]
fn bad_shards_are_usage_errors() {
    for bad in ["3/3", "1/0", "x/2", "1"] {
        let out = common::run_in_crate(&["bench", "--multi", "--shard", bad, LEVELS[0]]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty());
    }
}
