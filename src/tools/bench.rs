//! `sokoban bench`: solve instances under the clock and report a table.
//!
//! For single-box grids each row also times one plain flood of the same grid
//! in the same run, so the solver's cost reads as a multiple of the cheapest
//! possible pass over the grid, whatever the machine's speed. For multi-box
//! levels each row is one level under the search limits; pushes marked `*`
//! are not proven minimal.

use crate::level::{Level, Maze};
use crate::moves::{Notation, Outcome};
use crate::multi::{self, MultiOptions};
use crate::output::{json_record, status_word};
use crate::single::flood::Flood;
use crate::single::{Algorithm, solve};
use serde_json::json;
use std::time::{Duration, Instant};

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

/// Column headings of the single-box table.
pub fn single_header() -> String {
    format!(
        "{:<20} {:>11} {:>10} {:>8} {:>8} {:>10} {:>10} {:>10} {:>7}",
        "name", "size", "status", "pushes", "walks", "states", "ms", "flood ms", "ratio"
    )
}

/// One table row.
pub fn single_line(row: &SingleRow) -> String {
    let (pushes, walks) = match &row.outcome {
        Outcome::Solved(s) => (s.pushes.to_string(), s.walks.to_string()),
        _ => ("-".into(), "-".into()),
    };
    format!(
        "{:<20} {:>11} {:>10} {:>8} {:>8} {:>10} {:>10.3} {:>10.3} {:>7.1}",
        row.name,
        format!("{}x{}", row.rows, row.cols),
        status_word(&row.outcome),
        pushes,
        walks,
        row.states,
        ms(row.solve_time),
        ms(row.flood_time),
        row.ratio()
    )
}

/// One JSON line for a row.
pub fn single_json(row: &SingleRow) -> String {
    json_record(
        &row.name,
        &row.outcome,
        Notation::Nsew,
        row.states,
        row.solve_time,
        &[
            ("rows", json!(row.rows)),
            ("cols", json!(row.cols)),
            ("flood_seconds", json!(row.flood_time.as_secs_f64())),
            ("ratio", json!(row.ratio())),
            ("memory_bytes", json!(row.memory_bytes)),
        ],
    )
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

pub fn summarize_single(rows: &[SingleRow]) -> SingleSummary {
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

pub fn summary_line(s: &SingleSummary) -> String {
    format!(
        "{} instances: {} solved, {} impossible; solve {:.3} ms, flood {:.3} ms, total ratio {:.1}, median ratio {:.1}, max ratio {:.1}",
        s.instances,
        s.solved,
        s.impossible,
        ms(s.solve_time),
        ms(s.flood_time),
        s.solve_time.as_secs_f64() / s.flood_time.as_secs_f64().max(1e-9),
        s.median_ratio,
        s.max_ratio
    )
}

pub fn summary_json(s: &SingleSummary) -> String {
    json!({
        "summary": true,
        "instances": s.instances,
        "solved": s.solved,
        "impossible": s.impossible,
        "seconds": s.solve_time.as_secs_f64(),
        "flood_seconds": s.flood_time.as_secs_f64(),
        "median_ratio": s.median_ratio,
        "max_ratio": s.max_ratio,
    })
    .to_string()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
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

/// Solves one level under the options' limits.
pub fn measure_multi(level: &Level, options: &MultiOptions) -> MultiRow {
    let started = Instant::now();
    let report = multi::solve(level, options, &mut |_| {});
    MultiRow {
        name: level.name.clone(),
        optimal: report.optimal && report.outcome.solution().is_some(),
        outcome: report.outcome,
        expanded: report.stats.expanded,
        generated: report.stats.generated,
        time: started.elapsed(),
    }
}

pub fn multi_header() -> String {
    format!(
        "{:<28} {:>10} {:>8} {:>8} {:>12} {:>9}",
        "name", "status", "pushes", "moves", "nodes", "seconds"
    )
}

pub fn multi_line(row: &MultiRow) -> String {
    let (pushes, moves) = match &row.outcome {
        Outcome::Solved(s) => (
            format!("{}{}", s.pushes, if row.optimal { "" } else { "*" }),
            (s.pushes + s.walks).to_string(),
        ),
        _ => ("-".into(), "-".into()),
    };
    format!(
        "{:<28} {:>10} {:>8} {:>8} {:>12} {:>9.3}",
        row.name,
        status_word(&row.outcome),
        pushes,
        moves,
        row.expanded,
        row.time.as_secs_f64()
    )
}

pub fn multi_json(row: &MultiRow) -> String {
    json_record(
        &row.name,
        &row.outcome,
        Notation::Nsew,
        row.expanded,
        row.time,
        &[
            ("generated", json!(row.generated)),
            ("optimal", json!(row.optimal)),
        ],
    )
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
}

pub fn summarize_multi(rows: &[MultiRow]) -> MultiSummary {
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
    }
}

pub fn multi_summary_line(s: &MultiSummary) -> String {
    format!(
        "solved {}/{} ({} push-optimal), {} impossible, {} gave up; total {:.3} s, median {:.3} s",
        s.solved,
        s.levels,
        s.optimal,
        s.impossible,
        s.limited,
        s.total.as_secs_f64(),
        s.median.as_secs_f64()
    )
}

pub fn multi_summary_json(s: &MultiSummary) -> String {
    json!({
        "summary": true,
        "levels": s.levels,
        "solved": s.solved,
        "optimal": s.optimal,
        "impossible": s.impossible,
        "limit": s.limited,
        "seconds": s.total.as_secs_f64(),
        "median_seconds": s.median.as_secs_f64(),
    })
    .to_string()
}
