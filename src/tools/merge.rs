//! `bench --merge`: one summary from the JSON lines of many runs.
//!
//! Shards of a collection run apart (other machines, a job array) and each
//! writes JSON lines; concatenated, they are read back here into rows and
//! summed with the same code as one run's summary, so the merged line means
//! exactly what a single run's would. Shard summaries say which slice they
//! were, so a missing or repeated slice is caught instead of summed.

use super::bench::{MultiRow, MultiSummary, Row, SingleRow, SingleSummary};
use super::shard::Shard;
use crate::output::LevelRecord;
use serde::Deserialize;
use serde_json::error::Category;
use std::collections::BTreeSet;
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
    #[error(
        "record has no \"flood_seconds\" or \"optimal\" (not a bench or --multi --json record)"
    )]
    NotBench,
    #[error("not a bench or --json record: {0}")]
    Record(String),
    #[error("shard {} is not K/N", crate::words::quote(.0))]
    BadShard(String),
    #[error("single-box and multi-box records mixed")]
    Mixed,
    #[error("level index {0} appears twice (a shard merged twice?)")]
    IndexTwice(usize),
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
    indices: BTreeSet<usize>,
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
        (false, true) => Ok(Merged::Single(SingleRow::summarize(&all.single))),
        (true, false) => Ok(Merged::Multi(MultiRow::summarize(&all.multi))),
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
        match read_line(line) {
            Ok(Line::Summary(_)) => {}
            Ok(Line::Level(record)) => {
                done.insert(record.index.ok_or(i + 1)?);
            }
            Err(MergeError::NotJson) if i + 1 == text.lines().count() && !text.ends_with('\n') => {
                return Ok(done);
            }
            Err(_) => return Err(i + 1),
        }
    }
    Ok(done)
}

/// What a summary line says to the merge: the shard it summed, if any.
#[derive(Deserialize)]
struct SummaryMark {
    #[serde(default)]
    summary: bool,
    shard: Option<String>,
}

/// One line of a `--json` run.
enum Line {
    /// A summary, of the shard given.
    Summary(Option<Shard>),
    Level(Box<LevelRecord>),
}

fn read_line(line: &str) -> Result<Line, MergeError> {
    let mark: SummaryMark = serde_json::from_str(line).map_err(|e| match e.classify() {
        Category::Data => MergeError::Record(crate::words::clip(&e.to_string())),
        _ => MergeError::NotJson,
    })?;
    if mark.summary {
        let shard = mark
            .shard
            .map(|text| text.parse().map_err(|_| MergeError::BadShard(text)))
            .transpose()?;
        return Ok(Line::Summary(shard));
    }
    serde_json::from_str(line)
        .map(Line::Level)
        .map_err(|e| MergeError::Record(crate::words::clip(&e.to_string())))
}

fn gather(all: &mut Gathered, line: &str) -> Result<(), MergeError> {
    let record = match read_line(line)? {
        Line::Summary(shard) => {
            all.shards.extend(shard.map(|s| (s.k, s.n)));
            return Ok(());
        }
        Line::Level(record) => record,
    };
    if let Some(index) = record.index
        && !all.indices.insert(index)
    {
        return Err(MergeError::IndexTwice(index));
    }
    if record.flood_seconds.is_some() {
        all.single
            .push(SingleRow::from_record(&record).map_err(MergeError::Missing)?);
    } else if record.optimal.is_some() {
        all.multi
            .push(MultiRow::from_record(&record).map_err(MergeError::Missing)?);
    } else {
        return Err(MergeError::NotBench);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::{Limit, Outcome};
    use std::time::Duration;

    fn input(text: &str) -> (String, String) {
        ("x".into(), text.into())
    }

    /// A multi-box bench record of the level at `index`.
    fn solved(index: usize) -> String {
        format!(
            r#"{{"generated":9,"index":{index},"moves":"eN","name":"a","optimal":true,"pushes":1,"seconds":1.0,"states":5,"status":"solved","walks":1}}"#
        )
    }

    #[test]
    fn resume_reads_the_answered_indices_and_forgives_a_cut_last_line() {
        let text = format!(
            "{}\n\n{{\"summary\":true}}\n{}\n{{\"na",
            solved(4),
            solved(1)
        );
        assert_eq!(answered_indices(&text), Ok([1, 4].into()));
        let text = format!("{}\nnot json\n{{}}\n", solved(1));
        assert_eq!(answered_indices(&text), Err(2));
        assert_eq!(answered_indices("{\"index\":1}\n"), Err(1));
        let no_index = r#"{"name":"a","seconds":0,"states":0,"status":"impossible"}"#;
        assert_eq!(answered_indices(no_index), Err(1));
        assert_eq!(answered_indices(""), Ok(BTreeSet::new()));
    }

    #[test]
    fn multi_rows_sum_across_inputs_and_keep_their_limits() {
        let a = format!(
            "{}\n{{\"summary\":true,\"shard\":\"0/2\",\"levels\":1}}",
            solved(0)
        );
        let b = r#"{"generated":9,"index":1,"limit":"time limit 1 s","name":"b","optimal":false,"seconds":2.0,"states":5,"status":"limit"}

{"generated":9,"index":3,"name":"c","optimal":false,"seconds":3.0,"states":5,"status":"impossible"}
{"summary":true,"shard":"1/2","levels":2}"#;
        let Merged::Multi(s) = merge(&[input(&a), input(b)]).unwrap() else {
            panic!("not multi")
        };
        assert_eq!(
            (s.levels, s.solved, s.optimal, s.impossible, s.limited),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(s.total, Duration::from_secs(6));
        assert_eq!(s.median, Duration::from_secs(2));
        let mut all = Gathered::default();
        gather(&mut all, b.lines().next().unwrap()).unwrap();
        let limit = Limit::Time(Duration::from_secs(1));
        assert_eq!(all.multi[0].outcome, Outcome::Limit(limit));
    }

    #[test]
    fn bad_merges_are_refused_with_their_place() {
        let row = solved(4);
        let err = |inputs: &[(String, String)]| merge(inputs).unwrap_err();
        let e = err(&[input(&format!("{row}\n{row}"))]);
        assert_eq!((e.line, e.error), (2, MergeError::IndexTwice(4)));
        let e = err(&[input("\nnot json")]);
        assert_eq!((e.line, e.error), (2, MergeError::NotJson));
        let e = err(&[input(r#"{"status":"solved","seconds":1.0}"#)]);
        assert!(matches!(e.error, MergeError::Record(_)), "{e:?}");
        let e = err(&[input(&row.replace(r#""optimal":true,"#, ""))]);
        assert_eq!(e.error, MergeError::NotBench);
        let e = err(&[input(&row.replace(r#""pushes":1,"#, ""))]);
        assert_eq!(e.error, MergeError::Missing("pushes"));
        let e = err(&[input(&row.replace("solved", "won"))]);
        assert!(matches!(e.error, MergeError::Record(_)), "{e:?}");
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
        let bad = format!("{row}\n{{\"summary\":true,\"shard\":\"2/2\"}}");
        assert_eq!(
            err(&[input(&bad)]).error,
            MergeError::BadShard("2/2".into())
        );
        let single = r#"{"cols":7,"flood_seconds":0.5,"index":0,"memory_bytes":9,"name":"g","ratio":2.0,"rows":1,"seconds":1.0,"states":0,"status":"impossible"}"#;
        assert_eq!(err(&[input(&row), input(single)]).error, MergeError::Mixed);
        assert_eq!(err(&[input("\n")]).error, MergeError::Empty);
    }
}
