//! `sokoban bench`: solve instances under the clock and report a table.
//!
//! For single-box grids each row also times one plain flood of the same grid
//! in the same run, so the solver's cost reads as a multiple of the cheapest
//! possible pass over the grid, whatever the machine's speed. For multi-box
//! levels each row is one level under the search limits; pushes marked `*`
//! are not proven minimal.

use super::shard::Shard;
use crate::level::{Level, Maze};
use crate::moves::{Notation, Outcome};
use crate::multi::{self, MultiOptions, MultiReport};
use crate::output::{LevelRecord, status_word};
use crate::single::flood::Flood;
use crate::single::{Algorithm, solve};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// A row of a bench table, single-box or multi-box: its line, its JSON
/// record read and written, and the totals over many.
pub trait Row: Sized {
    type Summary: Summary;
    /// The column headings.
    fn header() -> String;
    fn line(&self) -> String;
    /// The JSON record, at `index` in the whole input.
    fn record(&self, index: usize) -> LevelRecord;
    /// The row `record` was written from, its moves left out (summaries
    /// count outcomes); an error names the field missing or out of range.
    fn from_record(record: &LevelRecord) -> Result<Self, &'static str>;
    fn outcome(&self) -> &Outcome;
    fn summarize(rows: &[Self]) -> Self::Summary;
}

/// The totals over a bench run's rows, as a line or a JSON record.
pub trait Summary {
    type Record: Serialize;
    fn line(&self) -> String;
    /// The JSON summary, naming the run's shard if it was one.
    fn record(&self, shard: Option<Shard>) -> Self::Record;
}

/// One measured single-box instance.
#[derive(Clone, Debug)]
pub struct SingleRow {
    pub name: String,
    pub rows: usize,
    pub cols: usize,
    pub outcome: Outcome,
    pub states: u64,
    pub memory_bytes: usize,
    pub solve_time: Duration,
    pub flood_time: Duration,
}

impl SingleRow {
    /// Solver time over flood time.
    pub fn ratio(&self) -> f64 {
        self.solve_time.as_secs_f64() / self.flood_time.as_secs_f64().max(1e-9)
    }
}

/// Solves `maze` and times one full flood of it from the player.
pub fn measure_single(name: String, maze: &Maze, algorithm: Algorithm) -> SingleRow {
    let started = Instant::now();
    let report = solve(maze, algorithm);
    let solve_time = started.elapsed();
    let started = Instant::now();
    let mut flood = Flood::new(maze.grid.len());
    let reached = flood.run(&maze.grid, maze.player, usize::MAX, |_, _| false);
    let flood_time = started.elapsed();
    std::hint::black_box(reached);
    SingleRow {
        name,
        rows: maze.grid.rows(),
        cols: maze.grid.cols(),
        outcome: report.outcome,
        states: report.stats.states,
        memory_bytes: report.stats.memory_bytes + maze.grid.memory_bytes(),
        solve_time,
        flood_time,
    }
}

impl Row for SingleRow {
    type Summary = SingleSummary;

    fn header() -> String {
        format!(
            "{:<20} {:>11} {:>10} {:>8} {:>8} {:>10} {:>10} {:>10} {:>7}",
            "name", "size", "status", "pushes", "walks", "states", "ms", "flood ms", "ratio"
        )
    }

    fn line(&self) -> String {
        let (pushes, walks) = match &self.outcome {
            Outcome::Solved(s) => (s.pushes.to_string(), s.walks.to_string()),
            _ => ("-".into(), "-".into()),
        };
        format!(
            "{:<20} {:>11} {:>10} {:>8} {:>8} {:>10} {:>10.3} {:>10.3} {:>7.1}",
            self.name,
            format!("{}x{}", self.rows, self.cols),
            status_word(&self.outcome),
            pushes,
            walks,
            self.states,
            ms(self.solve_time),
            ms(self.flood_time),
            self.ratio()
        )
    }

    fn record(&self, index: usize) -> LevelRecord {
        LevelRecord {
            cols: Some(self.cols),
            flood_seconds: Some(self.flood_time.as_secs_f64()),
            index: Some(index),
            memory_bytes: Some(self.memory_bytes),
            ratio: Some(self.ratio()),
            rows: Some(self.rows),
            ..LevelRecord::new(
                &self.name,
                &self.outcome,
                Notation::Nsew,
                self.states,
                self.solve_time,
            )
        }
    }

    fn from_record(record: &LevelRecord) -> Result<SingleRow, &'static str> {
        let flood_seconds = record.flood_seconds.ok_or("flood_seconds")?;
        Ok(SingleRow {
            name: record.name.clone(),
            rows: record.rows.ok_or("rows")?,
            cols: record.cols.ok_or("cols")?,
            outcome: record.outcome()?,
            states: record.states,
            memory_bytes: record.memory_bytes.ok_or("memory_bytes")?,
            solve_time: seconds(record.seconds, "seconds")?,
            flood_time: seconds(flood_seconds, "flood_seconds")?,
        })
    }

    fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    fn summarize(rows: &[SingleRow]) -> SingleSummary {
        let mut ratios: Vec<f64> = rows.iter().map(SingleRow::ratio).collect();
        ratios.sort_by(f64::total_cmp);
        SingleSummary {
            instances: rows.len(),
            solved: rows
                .iter()
                .filter(|r| matches!(r.outcome, Outcome::Solved(_)))
                .count(),
            impossible: rows
                .iter()
                .filter(|r| r.outcome == Outcome::Impossible)
                .count(),
            solve_time: rows.iter().map(|r| r.solve_time).sum(),
            flood_time: rows.iter().map(|r| r.flood_time).sum(),
            median_ratio: ratios.get(ratios.len() / 2).copied().unwrap_or(0.0),
            max_ratio: ratios.last().copied().unwrap_or(0.0),
        }
    }
}

/// Seconds read back from the record field `field`.
fn seconds(seconds: f64, field: &'static str) -> Result<Duration, &'static str> {
    Duration::try_from_secs_f64(seconds).map_err(|_| field)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Totals over all rows.
#[derive(Clone, Debug, Default)]
pub struct SingleSummary {
    pub instances: usize,
    pub solved: usize,
    pub impossible: usize,
    pub solve_time: Duration,
    pub flood_time: Duration,
    pub median_ratio: f64,
    pub max_ratio: f64,
}

/// The summary line of a single-box `bench --json` run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SingleSummaryRecord {
    pub flood_seconds: f64,
    pub impossible: usize,
    pub instances: usize,
    pub max_ratio: f64,
    pub median_ratio: f64,
    pub seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub solved: usize,
    /// Always true: it tells a summary from a level's record.
    pub summary: bool,
}

impl Summary for SingleSummary {
    type Record = SingleSummaryRecord;

    fn line(&self) -> String {
        format!(
            "{}: {} solved, {} impossible; solve {:.3} ms, flood {:.3} ms, total ratio {:.1}, median ratio {:.1}, max ratio {:.1}",
            crate::words::count(self.instances as u64, "instance", "instances"),
            self.solved,
            self.impossible,
            ms(self.solve_time),
            ms(self.flood_time),
            self.solve_time.as_secs_f64() / self.flood_time.as_secs_f64().max(1e-9),
            self.median_ratio,
            self.max_ratio
        )
    }

    fn record(&self, shard: Option<Shard>) -> SingleSummaryRecord {
        SingleSummaryRecord {
            flood_seconds: self.flood_time.as_secs_f64(),
            impossible: self.impossible,
            instances: self.instances,
            max_ratio: self.max_ratio,
            median_ratio: self.median_ratio,
            seconds: self.solve_time.as_secs_f64(),
            shard,
            solved: self.solved,
            summary: true,
        }
    }
}

/// One measured multi-box level.
#[derive(Clone, Debug)]
pub struct MultiRow {
    pub name: String,
    pub outcome: Outcome,
    pub optimal: bool,
    pub expanded: u64,
    pub generated: u64,
    pub time: Duration,
}

impl MultiRow {
    /// The row of the level `name` solved as `report` says, in `time`.
    pub fn new(name: &str, report: &MultiReport, time: Duration) -> MultiRow {
        MultiRow {
            name: name.to_string(),
            optimal: report.optimal && report.outcome.solution().is_some(),
            outcome: report.outcome.clone(),
            expanded: report.stats.expanded,
            generated: report.stats.generated,
            time,
        }
    }
}

/// Solves one level under the options' limits.
pub fn measure_multi(level: &Level, options: &MultiOptions) -> MultiRow {
    let started = Instant::now();
    let report = multi::solve(level, options, &mut |_| {});
    MultiRow::new(&level.name, &report, started.elapsed())
}

/// The JSON record of a multi-box solve (`bench --multi` and `--multi`
/// solving), the moves in `notation`, with its index in the whole input when
/// it has one.
pub fn multi_record(row: &MultiRow, notation: Notation, index: Option<usize>) -> LevelRecord {
    LevelRecord {
        generated: Some(row.generated),
        index,
        optimal: Some(row.optimal),
        ..LevelRecord::new(&row.name, &row.outcome, notation, row.expanded, row.time)
    }
}

impl Row for MultiRow {
    type Summary = MultiSummary;

    fn header() -> String {
        format!(
            "{:<28} {:>10} {:>8} {:>8} {:>12} {:>9}",
            "name", "status", "pushes", "moves", "nodes", "seconds"
        )
    }

    fn line(&self) -> String {
        let (pushes, moves) = match &self.outcome {
            Outcome::Solved(s) => (
                format!("{}{}", s.pushes, if self.optimal { "" } else { "*" }),
                (s.pushes + s.walks).to_string(),
            ),
            _ => ("-".into(), "-".into()),
        };
        format!(
            "{:<28} {:>10} {:>8} {:>8} {:>12} {:>9.3}",
            self.name,
            status_word(&self.outcome),
            pushes,
            moves,
            self.expanded,
            self.time.as_secs_f64()
        )
    }

    fn record(&self, index: usize) -> LevelRecord {
        multi_record(self, Notation::Nsew, Some(index))
    }

    fn from_record(record: &LevelRecord) -> Result<MultiRow, &'static str> {
        Ok(MultiRow {
            name: record.name.clone(),
            outcome: record.outcome()?,
            optimal: record.optimal.ok_or("optimal")?,
            expanded: record.states,
            generated: record.generated.ok_or("generated")?,
            time: seconds(record.seconds, "seconds")?,
        })
    }

    fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    fn summarize(rows: &[MultiRow]) -> MultiSummary {
        let mut times: Vec<Duration> = rows.iter().map(|r| r.time).collect();
        times.sort();
        MultiSummary {
            levels: rows.len(),
            solved: rows
                .iter()
                .filter(|r| r.outcome.solution().is_some())
                .count(),
            optimal: rows.iter().filter(|r| r.optimal).count(),
            impossible: rows
                .iter()
                .filter(|r| r.outcome == Outcome::Impossible)
                .count(),
            limited: rows
                .iter()
                .filter(|r| matches!(r.outcome, Outcome::Limit(_)))
                .count(),
            total: times.iter().sum(),
            median: times.get(times.len() / 2).copied().unwrap_or_default(),
            slowest: times.last().copied().unwrap_or_default(),
            expanded: rows.iter().map(|r| r.expanded).sum(),
        }
    }
}

/// Totals over multi-box rows.
#[derive(Clone, Debug, Default)]
pub struct MultiSummary {
    pub levels: usize,
    pub solved: usize,
    pub optimal: usize,
    pub impossible: usize,
    pub limited: usize,
    pub total: Duration,
    pub median: Duration,
    /// The longest level.
    pub slowest: Duration,
    /// Nodes expanded over all levels.
    pub expanded: u64,
}

/// The summary line of a multi-box `bench --json` run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MultiSummaryRecord {
    pub impossible: usize,
    pub levels: usize,
    /// Levels that reached a limit.
    pub limit: usize,
    pub median_seconds: f64,
    pub optimal: usize,
    pub seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub solved: usize,
    /// Always true: it tells a summary from a level's record.
    pub summary: bool,
}

impl Summary for MultiSummary {
    type Record = MultiSummaryRecord;

    fn line(&self) -> String {
        format!(
            "solved {}/{} ({} push-optimal), {} impossible, {} gave up; total {:.3} s, median {:.3} s, \
             slowest {:.3} s, {:.0} nodes/s",
            self.solved,
            self.levels,
            self.optimal,
            self.impossible,
            self.limited,
            self.total.as_secs_f64(),
            self.median.as_secs_f64(),
            self.slowest.as_secs_f64(),
            self.expanded as f64 / self.total.as_secs_f64().max(1e-9)
        )
    }

    fn record(&self, shard: Option<Shard>) -> MultiSummaryRecord {
        MultiSummaryRecord {
            impossible: self.impossible,
            levels: self.levels,
            limit: self.limited,
            median_seconds: self.median.as_secs_f64(),
            optimal: self.optimal,
            seconds: self.total.as_secs_f64(),
            shard,
            solved: self.solved,
            summary: true,
        }
    }
}
