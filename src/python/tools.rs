//! The tools around the solver, from Python: replaying a move string as a
//! judge would (`verify`), shortening a solution (`optimize`), and the
//! olympiad's single-box problem (`single`).

use super::errors::parse_error;
use super::level::PyLevel;
use super::options::Given;
use super::report::Answer;
use super::run::off_gil;
use crate::level::{DEFAULT_MAX_CELLS, maze_name, parse_single};
use crate::moves::{Move, Notation, Outcome, Position, parse_moves};
use crate::optimize::{Metric, OptimizeOptions, optimize as improve};
use crate::single::{Algorithm, solve as solve_single};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Instant;

/// Reads a move string; a `ValueError` names what is wrong with it.
fn moves_of(text: &str) -> PyResult<Vec<Move>> {
    parse_moves(text).map_err(|e| PyValueError::new_err(format!("bad move string: {e}")))
}

/// Replays `moves` on `level` (see `sokoban.verify`): pushes and walks made,
/// whether it ends solved, and the first illegal step, if any, as
/// `(index from 0, letter, reason)`.
#[pyfunction]
#[pyo3(signature = (level, moves, strict))]
pub fn verify<'py>(
    py: Python<'py>,
    level: PyRef<'py, PyLevel>,
    moves: &str,
    strict: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let steps = moves_of(moves)?;
    let notation = if moves.contains(['n', 's', 'e', 'w', 'N', 'S', 'E', 'W']) {
        Notation::Nsew
    } else {
        Notation::Lurd
    };
    let l = &level.level;
    let mut position = Position::new(&l.grid, l.player, &l.boxes);
    let mut illegal = None;
    for (index, &m) in steps.iter().enumerate() {
        if let Err(why) = position.apply(m, strict) {
            illegal = Some((index, notation.letter(m).to_string(), why.to_string()));
            break;
        }
    }
    let d = PyDict::new(py);
    d.set_item("pushes", position.pushes)?;
    d.set_item("walks", position.walks)?;
    d.set_item("solved", illegal.is_none() && position.solved(&l.goals))?;
    d.set_item("illegal", illegal)?;
    Ok(d)
}

/// Shortens the solution `moves` of `level` (see `sokoban.optimize`).
#[pyfunction]
#[pyo3(signature = (level, moves, metric, time_limit, max_nodes, max_memory_mb, threads))]
#[allow(clippy::too_many_arguments)]
pub fn optimize<'py>(
    py: Python<'py>,
    level: PyRef<'py, PyLevel>,
    moves: &str,
    metric: &str,
    time_limit: Option<f64>,
    max_nodes: Option<i64>,
    max_memory_mb: Option<i64>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let metric = match metric {
        "moves" => Metric::Moves,
        "pushes" => Metric::Pushes,
        other => {
            let why = format!("metric must be \"moves\" or \"pushes\", not {other:?}");
            return Err(PyValueError::new_err(why));
        }
    };
    let given = Given {
        time_limit,
        max_nodes,
        max_memory_mb,
        threads,
    };
    let options = OptimizeOptions {
        metric,
        limits: given.limits(1)?,
        threads: given.threads(1)?,
    };
    let steps = moves_of(moves)?;
    let l = &level.level;
    let started = Instant::now();
    let report = off_gil(py, || improve(l, &steps, &options, &mut |_| {}))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let answer = Answer {
        name: l.name.clone(),
        outcome: Outcome::Solved(report.solution),
        optimal: false,
        nodes: report.stats.expanded,
        generated: report.stats.generated,
        time: started.elapsed(),
    };
    answer.to_dict(py)
}

/// Solves one single-box grid exactly (see `sokoban.single`).
#[pyfunction]
pub fn single<'py>(py: Python<'py>, grid: &str) -> PyResult<Bound<'py, PyDict>> {
    let input =
        parse_single(grid.as_bytes(), DEFAULT_MAX_CELLS).map_err(|e| parse_error(py, &e, None))?;
    let [maze] = input.mazes.as_slice() else {
        let why = format!(
            "single() takes one grid, not {} mazes of a judge file",
            input.mazes.len()
        );
        return Err(PyValueError::new_err(why));
    };
    let started = Instant::now();
    let report = off_gil(py, || solve_single(maze, Algorithm::Layered))?;
    let answer = Answer {
        name: maze_name(1),
        optimal: true,
        outcome: report.outcome,
        nodes: report.stats.states,
        generated: report.stats.states,
        time: started.elapsed(),
    };
    answer.to_dict(py)
}
