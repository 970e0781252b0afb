//! The Python module `sokoban._sokoban` (feature `python`), which the
//! package `sokoban` (`sokoban/__init__.py` beside this file) wraps in typed,
//! documented functions. Researchers in planning and reinforcement learning
//! work in Python; this gives them the solver, the verifier and the
//! optimizer at native speed. Everything here is glue: each function checks
//! its arguments, runs the library without the GIL (`run`), and hands back
//! plain values that the Python side turns into its classes.

mod errors;
mod gym;
mod level;
mod options;
mod report;
mod run;
mod solve;
mod tools;

use pyo3::prelude::*;

/// Reads every level of `text` in `format`; `source` names the file in errors.
#[pyfunction]
#[pyo3(signature = (text, format, source))]
fn read_levels(
    py: Python<'_>,
    text: &[u8],
    format: &str,
    source: Option<&str>,
) -> PyResult<Vec<level::PyLevel>> {
    let format = level::format_named(format)?;
    let levels = level::read(py, text, format, source)?;
    Ok(levels
        .into_iter()
        .map(|level| level::PyLevel { level })
        .collect())
}

/// The native part of the `sokoban` package: use `sokoban` itself.
#[pymodule]
mod _sokoban {
    #[pymodule_export]
    use super::level::PyLevel;
    #[pymodule_export]
    use super::read_levels;
    #[pymodule_export]
    use super::solve::{Batch, solve};
    #[pymodule_export]
    use super::tools::{optimize, single, verify};

    #[pymodule_export]
    const VERSION: &str = env!("CARGO_PKG_VERSION");
}
