//! The keyword arguments the Python functions share (`fast`, `time_limit`,
//! `max_nodes`, `max_memory_mb`, `threads`, `jobs`), checked and turned into
//! the library's options with the command line's defaults, so a level solved
//! from Python gets the answer `sokoban --multi` gives it.

use crate::multi::{DEFAULT_MAX_MEMORY_MB, Limits, Method, MultiOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::time::Duration;

/// The limits as given from Python, before they are checked.
#[derive(Clone, Copy, Debug, Default)]
pub struct Given {
    pub time_limit: Option<f64>,
    pub max_nodes: Option<i64>,
    pub max_memory_mb: Option<i64>,
    pub threads: Option<i64>,
}

/// The machine's cores (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A count that must be 1 or more.
pub fn positive(name: &str, value: Option<i64>) -> PyResult<Option<u64>> {
    match value {
        Some(n) if n < 1 => Err(PyValueError::new_err(format!(
            "{name} must be 1 or more, not {n}"
        ))),
        v => Ok(v.map(|n| n as u64)),
    }
}

impl Given {
    /// The search limits for each of `jobs` levels solved at once.
    pub fn limits(&self, jobs: usize) -> PyResult<Limits> {
        let time = match self.time_limit {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "time_limit must be a positive number of seconds, not {t}"
                )));
            }
        };
        let max_nodes = positive("max_nodes", self.max_nodes)?;
        let max_memory = match positive("max_memory_mb", self.max_memory_mb)? {
            Some(mb) => mb.saturating_mul(1 << 20),
            None => default_memory(jobs),
        };
        Ok(Limits {
            time,
            max_nodes,
            max_memory: usize::try_from(max_memory).unwrap_or(usize::MAX),
        })
    }

    /// Threads for each of `jobs` levels: as given, else the cores shared out.
    pub fn threads(&self, jobs: usize) -> PyResult<usize> {
        let given = positive("threads", self.threads)?.map(|n| n as usize);
        Ok(given.unwrap_or((cores() / jobs.max(1)).max(1)))
    }

    /// The options of a multi-box solve, one of `jobs` at once.
    pub fn multi(&self, fast: bool, jobs: usize) -> PyResult<MultiOptions> {
        Ok(MultiOptions {
            method: Method::AStar,
            fast,
            limits: self.limits(jobs)?,
            threads: self.threads(jobs)?,
        })
    }
}

/// As the command line: a quarter of physical memory, shared by the jobs.
fn default_memory(jobs: usize) -> u64 {
    match physical_memory() {
        Some(bytes) => bytes / 4 / jobs.max(1) as u64,
        None => (DEFAULT_MAX_MEMORY_MB as u64) << 20,
    }
}

/// The machine's memory in bytes, from `/proc/meminfo` (Linux).
fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
