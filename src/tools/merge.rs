//! `bench --merge`: one summary from the JSON lines of many runs.
//!
//! Shards of a collection run apart (other machines, a job array) and each
//! writes JSON lines; concatenated, they are read back here into rows and
//! summed with the same code as one run's summary, so the merged line means
//! exactly what a single run's would. Shard summaries say which slice they
//! were, so a missing or repeated slice is caught instead of summed.

use super::bench::{
    MultiRow, MultiSummary, SingleRow, SingleSummary, summarize_multi, summarize_single,
};
use crate::moves::{Limit, Outcome, Solution};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::time::Duration;
use thiserror::Error;

/// The combined summary of single-box or multi-box runs.
#[derive(Clone, Debug)]
pub enum Merged {
    Single(SingleSummary),
    Multi(MultiSummary),
}

/// What is wrong with the merged records.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MergeError {
    #[error("not a JSON object")]
    NotJson,
    #[error("record has no {0:?} (not a bench or --json record)")]
    Missing(&'static str),
    #[error("unknown status {0:?}")]
    Status(String),
    #[error("shard {0:?} is not K/N")]
    BadShard(String),
    #[error("single-box and multi-box records mixed")]
    Mixed,
    #[error("level index {0} appears twice (a shard merged twice?)")]
    IndexTwice(u64),
    #[error("shard {0} appears twice")]
    ShardTwice(String),
    #[error("shard summaries of different splits ({0} and {1})")]
    Splits(String, String),
    #[error("shards missing: {0}")]
    ShardsMissing(String),
    #[error("no records to merge")]
    Empty,
}

/// An error and where: the source's name and its 1-based line (0: the whole merge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub source: String,
    pub line: usize,
    pub error: MergeError,
}

#[derive(Default)]
struct Gathered {
    single: Vec<SingleRow>,
    multi: Vec<MultiRow>,
    indices: BTreeSet<u64>,
    shards: Vec<(usize, usize)>,
}

/// Merges `(source, text)` inputs of JSON lines (blank lines skipped).
pub fn merge(inputs: &[(String, String)]) -> Result<Merged, Located> {
    let mut all = Gathered::default();
    for (source, text) in inputs {
        for (i, line) in text.lines().enumerate() {
            let at = |error| Located {
                source: source.clone(),
                line: i + 1,
                error,
            };
            if !line.trim().is_empty() {
                gather(&mut all, line).map_err(at)?;
            }
        }
    }
    let whole = |error| Located {
        source: inputs
            .iter()
            .map(|(s, _)| s.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        line: 0,
        error,
    };
    check_shards(&all.shards).map_err(whole)?;
    match (all.single.is_empty(), all.multi.is_empty()) {
        (true, true) => Err(whole(MergeError::Empty)),
        (false, true) => Ok(Merged::Single(summarize_single(&all.single))),
        (true, false) => Ok(Merged::Multi(summarize_multi(&all.multi))),
        (false, false) => Err(whole(MergeError::Mixed)),
    }
}

/// The `index` of every level record in `text`, JSON lines of bench
/// `--json` runs (summaries skipped): the levels `--resume` need not solve.
/// A last line cut short without its newline (a run killed while writing)
/// is not an answer; any other line that is not such a record is an error,
/// given as its 1-based line number.
pub fn answered_indices(text: &str) -> Result<BTreeSet<usize>, usize> {
    let mut done = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str::<Value>(line).ok();
        let record = value.as_ref().and_then(Value::as_object);
        let Some(record) = record else {
            let cut_short = i + 1 == text.lines().count() && !text.ends_with('\n');
            return if cut_short { Ok(done) } else { Err(i + 1) };
        };
        if record.get("summary").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        let index = record.get("index").and_then(Value::as_u64).ok_or(i + 1)?;
        done.insert(index as usize);
    }
    Ok(done)
}

fn gather(all: &mut Gathered, line: &str) -> Result<(), MergeError> {
    let value: Value = serde_json::from_str(line).map_err(|_| MergeError::NotJson)?;
    let record = value.as_object().ok_or(MergeError::NotJson)?;
    if record.get("summary").and_then(Value::as_bool) == Some(true) {
        if let Some(shard) = record.get("shard").and_then(Value::as_str) {
            let parsed: super::shard::Shard = shard
                .parse()
                .map_err(|_| MergeError::BadShard(shard.to_string()))?;
            all.shards.push((parsed.k, parsed.n));
        }
        return Ok(());
    }
    if let Some(index) = record.get("index").and_then(Value::as_u64)
        && !all.indices.insert(index)
    {
        return Err(MergeError::IndexTwice(index));
    }
    if record.contains_key("flood_seconds") {
        all.single.push(single_row(record)?);
    } else if record.contains_key("optimal") {
        all.multi.push(multi_row(record)?);
    } else {
        return Err(MergeError::Missing("flood_seconds\" or \"optimal"));
    }
    Ok(())
}

fn check_shards(shards: &[(usize, usize)]) -> Result<(), MergeError> {
    let Some(&(_, n)) = shards.first() else {
        return Ok(());
    };
    let mut seen = vec![false; n];
    for &(k, m) in shards {
        if m != n {
            return Err(MergeError::Splits(format!("K/{n}"), format!("K/{m}")));
        }
        if std::mem::replace(&mut seen[k], true) {
            return Err(MergeError::ShardTwice(format!("{k}/{n}")));
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|&k| !seen[k])
        .map(|k| format!("{k}/{n}"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(MergeError::ShardsMissing(missing.join(", ")))
    }
}

fn number(record: &Map<String, Value>, key: &'static str) -> Result<f64, MergeError> {
    record
        .get(key)
        .and_then(Value::as_f64)
        .ok_or(MergeError::Missing(key))
}

fn count(record: &Map<String, Value>, key: &str) -> u64 {
    record.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// The outcome a record's status stands for. Summaries only count outcomes,
/// so the moves and the limit's details, which the record words, are not needed.
fn outcome(record: &Map<String, Value>) -> Result<Outcome, MergeError> {
    let status = record
        .get("status")
        .and_then(Value::as_str)
        .ok_or(MergeError::Missing("status"))?;
    match status {
        "solved" => Ok(Outcome::Solved(Solution {
            moves: Vec::new(),
            pushes: count(record, "pushes"),
            walks: count(record, "walks"),
        })),
        "impossible" => Ok(Outcome::Impossible),
        "limit" => Ok(Outcome::Limit(Limit::Stopped)),
        other => Err(MergeError::Status(other.to_string())),
    }
}

fn seconds(record: &Map<String, Value>, key: &'static str) -> Result<Duration, MergeError> {
    Ok(Duration::from_secs_f64(number(record, key)?.max(0.0)))
}

fn single_row(record: &Map<String, Value>) -> Result<SingleRow, MergeError> {
    Ok(SingleRow {
        name: String::new(),
        rows: count(record, "rows") as usize,
        cols: count(record, "cols") as usize,
        outcome: outcome(record)?,
        states: count(record, "states"),
        memory_bytes: count(record, "memory_bytes") as usize,
        solve_time: seconds(record, "seconds")?,
        flood_time: seconds(record, "flood_seconds")?,
    })
}

fn multi_row(record: &Map<String, Value>) -> Result<MultiRow, MergeError> {
    Ok(MultiRow {
        name: String::new(),
        outcome: outcome(record)?,
        optimal: record.get("optimal").and_then(Value::as_bool) == Some(true),
        expanded: count(record, "states"),
        generated: count(record, "generated"),
        time: seconds(record, "seconds")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(text: &str) -> (String, String) {
        ("x".into(), text.into())
    }

    #[test]
    fn resume_reads_the_answered_indices_and_forgives_a_cut_last_line() {
        let text = "{\"name\":\"a\",\"index\":4}\n\n{\"summary\":true}\n{\"index\":1}\n{\"na";
        assert_eq!(answered_indices(text), Ok([1, 4].into()));
        assert_eq!(answered_indices("{\"index\":1}\nnot json\n{}\n"), Err(2));
        assert_eq!(answered_indices("{\"name\":\"a\"}\n"), Err(1));
        assert_eq!(answered_indices(""), Ok(BTreeSet::new()));
    }

    #[test]
    fn multi_rows_sum_across_inputs() {
        let a = r#"{"name":"a","status":"solved","pushes":3,"walks":1,"states":5,"seconds":1.0,"optimal":true,"generated":9,"index":0}
{"summary":true,"shard":"0/2","levels":1}"#;
        let b = r#"{"name":"b","status":"limit","limit":"time limit 1 s","states":5,"seconds":2.0,"optimal":false,"generated":9,"index":1}

{"name":"c","status":"impossible","states":5,"seconds":3.0,"optimal":false,"generated":9,"index":3}
{"summary":true,"shard":"1/2","levels":2}"#;
        let Merged::Multi(s) = merge(&[input(a), input(b)]).unwrap() else {
            panic!("not multi")
        };
        assert_eq!(
            (s.levels, s.solved, s.optimal, s.impossible, s.limited),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(s.total, Duration::from_secs(6));
        assert_eq!(s.median, Duration::from_secs(2));
    }

    #[test]
    fn bad_merges_are_refused_with_their_place() {
        let row = r#"{"status":"solved","seconds":1.0,"optimal":true,"index":4}"#;
        let err = |inputs: &[(String, String)]| merge(inputs).unwrap_err();
        let e = err(&[input(&format!("{row}\n{row}"))]);
        assert_eq!((e.line, e.error), (2, MergeError::IndexTwice(4)));
        let e = err(&[input("\nnot json")]);
        assert_eq!((e.line, e.error), (2, MergeError::NotJson));
        let e = err(&[input(r#"{"status":"solved","seconds":1.0}"#)]);
        assert!(matches!(e.error, MergeError::Missing(_)));
        let shards = format!(
            "{row}\n{{\"summary\":true,\"shard\":\"0/3\"}}\n{{\"summary\":true,\"shard\":\"2/3\"}}"
        );
        let e = err(&[input(&shards)]);
        assert_eq!(e.error, MergeError::ShardsMissing("1/3".into()));
        let twice = format!(
            "{row}\n{{\"summary\":true,\"shard\":\"0/1\"}}\n{{\"summary\":true,\"shard\":\"0/1\"}}"
        );
        assert_eq!(
            err(&[input(&twice)]).error,
            MergeError::ShardTwice("0/1".into())
        );
        let single = r#"{"status":"solved","seconds":1.0,"flood_seconds":0.5}"#;
        assert_eq!(err(&[input(row), input(single)]).error, MergeError::Mixed);
        assert_eq!(err(&[input("\n")]).error, MergeError::Empty);
    }
}
