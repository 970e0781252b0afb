//! Solving from Python: one level (`solve`), or many side by side
//! (`Batch`, behind `solve_many` and `solve_iter`). A batch solves its levels
//! on `jobs` threads of its own, in input order as `sokoban bench --jobs`
//! does, and hands each answer over as it is found, so Python can show
//! progress while the solving goes on without the GIL.

use super::level::PyLevel;
use super::options::{Given, cores, positive};
use super::report::Answer;
use super::run::{Stopping, off_gil, panic_text, quiet, wait};
use crate::level::Level;
use crate::multi::{self, MultiOptions};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Solves one level, timed.
fn solve_level(level: &Level, options: &MultiOptions) -> Answer {
    let started = Instant::now();
    let report = multi::solve(level, options, &mut |_| {});
    Answer {
        name: level.name.clone(),
        outcome: report.outcome,
        optimal: report.optimal,
        nodes: report.stats.expanded,
        generated: report.stats.generated,
        time: started.elapsed(),
    }
}

/// Solves one level (see `sokoban.solve`).
#[pyfunction]
#[pyo3(signature = (level, fast, time_limit, max_nodes, max_memory_mb, threads))]
pub fn solve<'py>(
    py: Python<'py>,
    level: PyRef<'py, PyLevel>,
    fast: bool,
    time_limit: Option<f64>,
    max_nodes: Option<i64>,
    max_memory_mb: Option<i64>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let given = Given {
        time_limit,
        max_nodes,
        max_memory_mb,
        threads,
    };
    let options = given.multi(fast, 1)?;
    let level = &level.level;
    off_gil(py, || solve_level(level, &options))?.to_dict(py)
}

/// What a worker sends: a level's position in the batch and its answer (or
/// the panic that ended its solve).
type Done = (usize, std::thread::Result<Answer>);

/// A batch under way: the answers still to come.
struct Running {
    /// `None` only while a wait has it.
    receive: Option<Receiver<Done>>,
    cancel: Arc<AtomicBool>,
    left: usize,
}

impl Running {
    /// Stops the batch: no level starts, the searches under way stop. With
    /// `py`, waits (without the GIL) until every worker has ended, so a
    /// solve started next is not stopped too; else a thread of its own holds
    /// the flag up until then.
    fn cancel(&mut self, py: Option<Python<'_>>) {
        self.cancel.store(true, Ordering::Relaxed);
        let left = std::mem::take(&mut self.left);
        let Some(receive) = self.receive.take() else {
            return;
        };
        if left == 0 {
            return;
        }
        let stopping = Stopping::start();
        let drain = move || {
            for _ in receive.iter() {}
            drop(stopping);
        };
        match py {
            Some(py) => py.detach(drain),
            None => drop(std::thread::spawn(drain)),
        }
    }
}

/// Levels solved `jobs` at a time; iterating gives `(index, answer)` pairs
/// in the order the answers come.
#[pyclass(module = "sokoban._sokoban")]
pub struct Batch {
    running: Mutex<Running>,
}

/// One worker: takes the next level not taken until none is left.
fn work(
    levels: &[Level],
    next: &AtomicUsize,
    cancel: &AtomicBool,
    options: &MultiOptions,
    send: &Sender<Done>,
) {
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= levels.len() || cancel.load(Ordering::Relaxed) {
            return;
        }
        let answer = catch_unwind(AssertUnwindSafe(|| solve_level(&levels[index], options)));
        if send.send((index, answer)).is_err() {
            return;
        }
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (levels, jobs, fast, time_limit, max_nodes, max_memory_mb, threads))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        levels: Vec<PyRef<'_, PyLevel>>,
        jobs: Option<i64>,
        fast: bool,
        time_limit: Option<f64>,
        max_nodes: Option<i64>,
        max_memory_mb: Option<i64>,
        threads: Option<i64>,
    ) -> PyResult<Batch> {
        let jobs = positive("jobs", jobs)?.map_or_else(cores, |n| n as usize);
        let given = Given {
            time_limit,
            max_nodes,
            max_memory_mb,
            threads,
        };
        let options = Arc::new(given.multi(fast, jobs)?);
        let levels: Arc<Vec<Level>> = Arc::new(levels.iter().map(|l| l.level.clone()).collect());
        quiet(py)?;
        let (send, receive) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let next = Arc::new(AtomicUsize::new(0));
        for _ in 0..jobs.min(levels.len()) {
            let (levels, next, cancel) = (levels.clone(), next.clone(), cancel.clone());
            let (options, send) = (options.clone(), send.clone());
            std::thread::spawn(move || work(&levels, &next, &cancel, &options, &send));
        }
        Ok(Batch {
            running: Mutex::new(Running {
                receive: Some(receive),
                cancel,
                left: levels.len(),
            }),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next answer to come, as `(index, answer)`; Ctrl-C stops the batch.
    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<(usize, Bound<'py, PyDict>)>> {
        let mut running = self
            .running
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this batch is being read by another thread"))?;
        loop {
            if running.left == 0 {
                return Ok(None);
            }
            let Some(receive) = running.receive.take() else {
                return Ok(None);
            };
            let (receive, got) = wait(py, receive);
            running.receive = Some(receive);
            match got {
                Ok((index, Ok(answer))) => {
                    running.left -= 1;
                    return Ok(Some((index, answer.to_dict(py)?)));
                }
                Ok((index, Err(panic))) => {
                    running.cancel(Some(py));
                    let why = panic_text(&*panic);
                    let text = format!("internal error solving level {index}: {why}");
                    return Err(PyRuntimeError::new_err(text));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(error) = py.check_signals() {
                        running.cancel(Some(py));
                        return Err(error);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => running.left = 0,
            }
        }
    }

    /// Stops the batch: levels not started never are, the searches under
    /// way stop, and this returns once they have.
    fn close(&self, py: Python<'_>) {
        if let Ok(mut running) = self.running.try_lock() {
            running.cancel(Some(py));
        }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        if let Ok(running) = self.running.get_mut() {
            running.cancel(None);
        }
    }
}
