//! gym-sokoban's two arrays, to and from levels. `room_fixed` holds what
//! never moves (0 wall, 1 floor, 2 goal), `room_state` the whole position
//! (0 wall, 1 floor, 2 empty goal, 3 box on a goal, 4 box, 5 player; 6, the
//! player on a goal, is read too, as some renderers write it). A level read
//! from text may have floor outside its walls: those cells become walls.

use super::errors::parse_error;
use crate::level::{Level, ParseError, ParseErrorKind};
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// The rows of integers in a numpy array or a list of lists.
pub fn codes(array: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<i64>>> {
    let rows = if array.hasattr("tolist")? {
        array.call_method0("tolist")?
    } else {
        array.clone()
    };
    rows.extract()
        .map_err(|_| PyValueError::new_err("a gym room is a 2-D array of integers"))
}

/// The XSB letter of one cell, or what is wrong with its codes.
fn letter(fixed: i64, state: i64) -> Result<char, String> {
    if !(0..=2).contains(&fixed) || !(0..=6).contains(&state) {
        return Err(format!(
            "codes {fixed} (room_fixed) and {state} (room_state) are not gym-sokoban's"
        ));
    }
    if (fixed == 0) != (state == 0) {
        return Err(format!(
            "room_fixed says {fixed} but room_state says {state}: one is a wall, the other not"
        ));
    }
    let goal = fixed == 2 || matches!(state, 2 | 3 | 6);
    Ok(match (state, goal) {
        (0, _) => '#',
        (3 | 4, true) => '*',
        (3 | 4, false) => '$',
        (5 | 6, true) => '+',
        (5 | 6, false) => '@',
        (_, true) => '.',
        (_, false) => '-',
    })
}

/// The two rooms as XSB text, one line per row (so a parse error's line and
/// column are the cell's row and column, from 1).
pub fn to_xsb(py: Python<'_>, fixed: &[Vec<i64>], state: &[Vec<i64>]) -> PyResult<String> {
    let shape = |rows: &[Vec<i64>]| (rows.len(), rows.first().map_or(0, Vec::len));
    if shape(fixed) != shape(state) || fixed.iter().chain(state).any(|r| r.len() != shape(fixed).1)
    {
        return Err(PyValueError::new_err(
            "room_fixed and room_state must be 2-D arrays of the same shape",
        ));
    }
    let mut text = String::new();
    for (r, (f, s)) in fixed.iter().zip(state).enumerate() {
        for (c, (&f, &s)) in f.iter().zip(s).enumerate() {
            let ch = letter(f, s).map_err(|why| {
                let at = ParseError::new(r + 1, c + 1, ParseErrorKind::Other(why));
                parse_error(py, &at, None)
            })?;
            text.push(ch);
        }
        text.push('\n');
    }
    Ok(text)
}

/// The cells joined to the player's by floor (boxes do not block): the level.
fn inside(level: &Level) -> Vec<bool> {
    let grid = &level.grid;
    let mut seen = vec![false; grid.len()];
    let mut stack = vec![level.player];
    seen[level.player] = true;
    while let Some(cell) = stack.pop() {
        for next in grid.neighbours(cell) {
            if grid.is_floor(next) && !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    for &c in level.boxes.iter().chain(&level.goals) {
        seen[c] = true;
    }
    seen
}

/// The `(room_fixed, room_state)` numpy arrays of a level.
pub fn arrays<'py>(py: Python<'py>, level: &Level) -> PyResult<Bound<'py, PyTuple>> {
    let numpy = py
        .import("numpy")
        .map_err(|_| PyImportError::new_err("Level.to_gym needs numpy: pip install numpy"))?;
    let grid = &level.grid;
    let inside = inside(level);
    let mut marks = vec![(false, false); grid.len()];
    for &b in &level.boxes {
        marks[b].0 = true;
    }
    for &g in &level.goals {
        marks[g].1 = true;
    }
    let (mut fixed, mut state) = (Vec::new(), Vec::new());
    for r in 0..grid.rows() {
        let (mut f, mut s) = (Vec::new(), Vec::new());
        for c in 0..grid.cols() {
            let cell = grid.cell(r, c);
            let (boxed, goal) = marks[cell];
            let floor = grid.is_floor(cell) && inside[cell];
            f.push(match (floor, goal) {
                (false, _) => 0i64,
                (true, false) => 1,
                (true, true) => 2,
            });
            s.push(match (floor, boxed, goal) {
                (false, ..) => 0i64,
                _ if cell == level.player => 5,
                (_, true, true) => 3,
                (_, true, false) => 4,
                (_, false, true) => 2,
                _ => 1,
            });
        }
        fixed.push(f);
        state.push(s);
    }
    let array = |rows: Vec<Vec<i64>>| numpy.call_method1("array", (rows,));
    PyTuple::new(py, [array(fixed)?, array(state)?])
}
