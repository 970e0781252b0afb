//! The package's own exceptions, raised from Rust: they are defined in Python
//! (`sokoban/_errors.py`) so that they carry named attributes (`line`,
//! `column`, `index`) and pickle like any Python exception.

use crate::level::ParseError;
use crate::moves::Illegal;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// An instance of the class `name` of `sokoban._errors`, raised.
fn raise<'py>(py: Python<'py>, name: &str, args: Bound<'py, PyTuple>) -> PyErr {
    let made = py
        .import("sokoban._errors")
        .and_then(|m| m.getattr(name))
        .and_then(|class| class.call1(args));
    match made {
        Ok(error) => PyErr::from_value(error),
        Err(e) => e,
    }
}

/// `sokoban.ParseError` for a level that cannot be read from `source`.
pub fn parse_error(py: Python<'_>, e: &ParseError, source: Option<&str>) -> PyErr {
    let args = (e.kind.to_string(), e.line, e.col, source);
    match args.into_pyobject(py) {
        Ok(args) => raise(py, "ParseError", args),
        Err(e) => e,
    }
}

/// `sokoban.IllegalMove` for the step at `index` (from 0) of a replay.
pub fn illegal_move(py: Python<'_>, index: usize, letter: char, why: Illegal) -> PyErr {
    let args = (why.to_string(), index, letter.to_string());
    match args.into_pyobject(py) {
        Ok(args) => raise(py, "IllegalMove", args),
        Err(e) => e,
    }
}
