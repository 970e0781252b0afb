//! `sokoban.Level`: a multi-box level as Python sees it. Levels are values:
//! a step or a replay gives a new level holding the position reached, so an
//! agent's plan can be checked move by move without copying anything by
//! hand. Cells are `(row, column)` from the top left, as numpy indexes them.

use super::errors::{illegal_move, parse_error};
use super::gym;
use crate::grid::Direction;
use crate::level::{Alphabet, DEFAULT_MAX_CELLS, Format, Level, parse_levels, render_cells};
use crate::moves::{Move, Position, parse_moves};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A Sokoban level: walls, goals, boxes and the player.
///
/// Level(text, name=None) reads one level from text or a list of rows, in any
/// format the command line reads. Levels are values: `step` and `replay`
/// return a new level. Cells are (row, column) from 0 at the top left;
/// str(level) is the board in XSB letters.
#[pyclass(name = "Level", module = "sokoban", frozen)]
#[derive(Clone)]
pub struct PyLevel {
    pub level: Level,
}

/// The format a name from Python stands for.
pub fn format_named(name: &str) -> PyResult<Format> {
    Ok(match name {
        "auto" => Format::Auto,
        "xsb" => Format::Xsb,
        "olympiad" => Format::Olympiad,
        "judge" => Format::Judge,
        "wkbg" => Format::Wkbg,
        "bx" => Format::Bx,
        "snekoban-json" => Format::SnekobanJson,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown format {other:?} (auto, xsb, olympiad, judge, wkbg, bx, snekoban-json)"
            )));
        }
    })
}

/// Every level of `text` in `format`; a `ParseError` naming `source`.
pub fn read(
    py: Python<'_>,
    text: &[u8],
    format: Format,
    source: Option<&str>,
) -> PyResult<Vec<Level>> {
    parse_levels(text, format, DEFAULT_MAX_CELLS).map_err(|e| parse_error(py, &e, source))
}

/// The one level of `text`, renamed when `name` is given.
fn one(py: Python<'_>, text: &str, format: Format, name: Option<String>) -> PyResult<PyLevel> {
    let mut levels = read(py, text.as_bytes(), format, None)?;
    if levels.len() != 1 {
        return Err(PyValueError::new_err(format!(
            "the text holds {} levels; sokoban.read_levels reads them all",
            levels.len()
        )));
    }
    let mut level = levels.remove(0);
    if let Some(name) = name {
        level.name = name;
    }
    Ok(PyLevel { level })
}

/// A direction named by a letter (`u d l r` or `n s e w`, either case) or a
/// word (`up`, `north`, ...).
fn direction_named(name: &str) -> PyResult<Direction> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "u" | "n" | "up" | "north" => Direction::North,
        "d" | "s" | "down" | "south" => Direction::South,
        "l" | "w" | "left" | "west" => Direction::West,
        "r" | "e" | "right" | "east" => Direction::East,
        _ => {
            return Err(PyValueError::new_err(format!(
                "{name:?} is not a direction (u d l r, n s e w, up, down, left, right)"
            )));
        }
    })
}

impl PyLevel {
    fn cell(&self, cell: usize) -> (usize, usize) {
        self.level.grid.position(cell)
    }

    fn cells(&self, cells: &[usize]) -> Vec<(usize, usize)> {
        cells.iter().map(|&c| self.cell(c)).collect()
    }

    /// The board in XSB letters, one line per row.
    pub fn xsb(&self) -> String {
        let l = &self.level;
        render_cells(&l.grid, Alphabet::Xsb, l.player, &l.boxes, &l.goals)
    }

    /// The level after `moves`, each checked; `strict`: letter case must
    /// tell walks from pushes. The error is an `IllegalMove`.
    fn after(&self, py: Python<'_>, moves: &[Move], strict: bool) -> PyResult<PyLevel> {
        let l = &self.level;
        let mut position = Position::new(&l.grid, l.player, &l.boxes);
        for (index, &m) in moves.iter().enumerate() {
            position.apply(m, strict).map_err(|why| {
                let letter = crate::moves::Notation::Lurd.letter(m);
                illegal_move(py, index, letter, why)
            })?;
        }
        let mut level = l.clone();
        level.player = position.player;
        level.boxes = position.boxes();
        Ok(PyLevel { level })
    }

    /// What makes two levels the same position: walls, goals, boxes, player.
    fn key(&self) -> (String, usize) {
        (self.xsb(), self.level.grid.cols())
    }
}

#[pymethods]
impl PyLevel {
    /// Reads one level from text or a list of rows, in any format the
    /// command line reads; ParseError (with line and column) when it cannot.
    #[new]
    #[pyo3(signature = (text, name = None))]
    fn new(py: Python<'_>, text: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<PyLevel> {
        if let Ok(s) = text.cast::<PyString>() {
            return one(py, &s.to_cow()?, Format::Auto, name);
        }
        let rows: Vec<String> = text.extract()?;
        one(py, &rows.join("\n"), Format::Auto, name)
    }

    /// Reads one level written in XSB letters (# wall, @ player, + player on
    /// a goal, $ box, * box on a goal, . goal, space or - floor).
    #[staticmethod]
    #[pyo3(signature = (text, name = None))]
    fn from_xsb(py: Python<'_>, text: &str, name: Option<String>) -> PyResult<PyLevel> {
        one(py, text, Format::Xsb, name)
    }

    /// Reads one level from its rows (a list of strings).
    #[staticmethod]
    #[pyo3(signature = (rows, name = None))]
    fn from_rows(py: Python<'_>, rows: Vec<String>, name: Option<String>) -> PyResult<PyLevel> {
        one(py, &rows.join("\n"), Format::Auto, name)
    }

    /// Reads gym-sokoban's arrays (numpy or nested lists). room_fixed: 0 wall,
    /// 1 floor, 2 goal; room_state: 0 wall, 1 floor, 2 goal, 3 box on a goal,
    /// 4 box, 5 player (6, player on a goal, is read too). A bad cell raises
    /// ParseError at its row and column, counted from 1. Named "gym" unless
    /// `name` is given.
    #[staticmethod]
    #[pyo3(signature = (room_fixed, room_state, name = None))]
    fn from_gym(
        py: Python<'_>,
        room_fixed: &Bound<'_, PyAny>,
        room_state: &Bound<'_, PyAny>,
        name: Option<String>,
    ) -> PyResult<PyLevel> {
        let text = gym::to_xsb(py, &gym::codes(room_fixed)?, &gym::codes(room_state)?)?;
        one(
            py,
            &text,
            Format::Xsb,
            Some(name.unwrap_or_else(|| "gym".into())),
        )
    }

    /// (room_fixed, room_state): this position as numpy integer arrays in
    /// gym-sokoban's codes (see from_gym); floor outside the walls is wall.
    fn to_gym<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        gym::arrays(py, &self.level)
    }

    /// The level's title, or "Level k" (k counts from 1 in its file).
    #[getter]
    fn name(&self) -> &str {
        &self.level.name
    }

    /// Columns of the board.
    #[getter]
    fn width(&self) -> usize {
        self.level.grid.cols()
    }

    /// Rows of the board.
    #[getter]
    fn height(&self) -> usize {
        self.level.grid.rows()
    }

    /// The player's cell, (row, column).
    #[getter]
    fn player(&self) -> (usize, usize) {
        self.cell(self.level.player)
    }

    /// The boxes' cells in reading order.
    #[getter]
    fn boxes(&self) -> Vec<(usize, usize)> {
        self.cells(&self.level.boxes)
    }

    /// The goals' cells in reading order.
    #[getter]
    fn goals(&self) -> Vec<(usize, usize)> {
        self.cells(&self.level.goals)
    }

    /// True when every goal holds a box.
    #[getter]
    fn solved(&self) -> bool {
        let mut boxes = self.level.boxes.clone();
        boxes.sort_unstable();
        self.level
            .goals
            .iter()
            .all(|g| boxes.binary_search(g).is_ok())
    }

    /// True for a wall, and for any cell outside the board.
    fn is_wall(&self, row: i64, col: i64) -> bool {
        let grid = &self.level.grid;
        match (usize::try_from(row), usize::try_from(col)) {
            (Ok(r), Ok(c)) if r < grid.rows() && c < grid.cols() => grid.is_wall(grid.cell(r, c)),
            _ => true,
        }
    }

    /// The level after one step (u d l r, n s e w, or up, north, ...),
    /// pushing the box ahead if there is one. IllegalMove into a wall or a
    /// box that cannot move.
    fn step(&self, py: Python<'_>, direction: &str) -> PyResult<PyLevel> {
        let dir = direction_named(direction)?;
        self.after(py, &[Move::walk(dir)], false)
    }

    /// The level after a move string (LURD or nsew; run-length codes such
    /// as 3l2U expanded). With strict, letter case must tell walks from
    /// pushes. IllegalMove (with its index from 0) at the first illegal move;
    /// ValueError for a string that is not moves.
    #[pyo3(signature = (moves, *, strict = false))]
    fn replay(&self, py: Python<'_>, moves: &str, strict: bool) -> PyResult<PyLevel> {
        let moves = parse_moves(moves).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.after(py, &moves, strict)
    }

    fn __str__(&self) -> String {
        self.xsb()
    }

    fn __repr__(&self) -> String {
        let l = &self.level;
        format!(
            "<sokoban.Level {:?}: {}x{}, {} boxes>",
            l.name,
            l.grid.cols(),
            l.grid.rows(),
            l.boxes.len()
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyLevel>()
            .is_ok_and(|o| o.get().key() == self.key())
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.key().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let this = slf.get();
        let class = slf.get_type().into_any();
        Ok((class, (this.xsb(), this.level.name.clone())))
    }
}
