//! Answers handed to Python as plain dictionaries, one shape for every
//! function that solves; `sokoban/__init__.py` makes them `Solution`s.

use crate::moves::{Limit, Notation, Outcome, format_moves};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Duration;

/// One answer, ready to cross into Python.
#[derive(Clone, Debug)]
pub struct Answer {
    pub name: String,
    pub outcome: Outcome,
    pub optimal: bool,
    pub nodes: u64,
    pub generated: u64,
    pub time: Duration,
}

/// The word Python's `Limit` enum has for a limit.
fn limit_kind(limit: &Limit) -> &'static str {
    match limit {
        Limit::Time(_) => "time",
        Limit::Nodes(_) => "nodes",
        Limit::Memory(_) => "memory",
        Limit::Stopped => "interrupted",
        Limit::TooLarge { .. } => "too_large",
        Limit::MacrosExhausted | Limit::Stalled | Limit::WalkCount => "other",
    }
}

impl Answer {
    /// The keyword arguments of Python's `Solution`.
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("name", &self.name)?;
        let (status, limit) = match &self.outcome {
            Outcome::Solved(s) => {
                d.set_item("moves", format_moves(&s.moves, Notation::Lurd))?;
                d.set_item("pushes", s.pushes)?;
                d.set_item("walks", s.walks)?;
                ("solved", None)
            }
            Outcome::Impossible => ("impossible", None),
            Outcome::Limit(why) => ("limit", Some(why)),
        };
        d.set_item("status", status)?;
        d.set_item("limit", limit.map(limit_kind))?;
        d.set_item("reason", limit.map(|l| l.to_string()))?;
        d.set_item("optimal", self.optimal && status == "solved")?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("generated", self.generated)?;
        d.set_item("seconds", self.time.as_secs_f64())?;
        Ok(d)
    }
}
