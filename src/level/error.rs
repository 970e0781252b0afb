//! Typed parse errors with the line and column they point at.
//!
//! The CLI prints them as `error: <source>:<line>:<col>: <what>`; tests compare
//! the [`ParseErrorKind`] itself, so messages can be reworded without breaking them.

use super::alphabet::Alphabet;
use crate::words::{count, quote};
use thiserror::Error;

/// What is wrong with an input, without its position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    #[error("empty input")]
    Empty,
    #[error("input is not valid UTF-8")]
    NotUtf8,
    #[error("tab character (grids use spaces, not tabs)")]
    Tab,
    #[error("unknown character {0:?} ({letters})", letters = .1.letters())]
    Unknown(char, Alphabet),
    #[error("grid mixes olympiad letters (S B T) with XSB letters (@ + $ *)")]
    MixedAlphabets,
    #[error("no player in the grid")]
    NoPlayer,
    #[error("a second player (the first is at line {line}, column {col})")]
    SecondPlayer { line: usize, col: usize },
    #[error("no box in the grid")]
    NoBox,
    #[error("a second box (single-box mode takes exactly one; use --multi for more)")]
    SecondBox,
    #[error("no target in the grid")]
    NoTarget,
    #[error("a second target (single-box mode takes exactly one; use --multi for more)")]
    SecondTarget,
    #[error("{} but {}", count(*.boxes as u64, "box", "boxes"), count(*.goals as u64, "goal", "goals"))]
    BoxGoalMismatch { boxes: usize, goals: usize },
    #[error("no boxes in the level")]
    NoBoxes,
    #[error("invalid maze header {} (expected two numbers: rows cols)", quote(.0))]
    BadHeader(String),
    #[error("maze header says {} but {found} follow", count(*.expected as u64, "row", "rows"))]
    MissingRows { expected: usize, found: usize },
    #[error("row has {} but the maze header says {expected}", count(*.found as u64, "cell", "cells"))]
    RowWidth { expected: usize, found: usize },
    #[error(
        "grid of {cells} cells is larger than the limit of {limit} (raise it with --max-cells)"
    )]
    TooLarge { cells: u64, limit: u64 },
    /// Single-box mode given a collection: titles, notes or several levels.
    #[error("this is a {} level collection: use --multi", if *.multi_box { "multi-box" } else { "single-box" })]
    Collection { multi_box: bool },
    #[error("invalid run-length count")]
    BadRunLength,
    #[error("{0}")]
    Other(String),
}

/// A parse error at a position (1-based line and column, counted in characters).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}:{col}: {kind}")]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub kind: ParseErrorKind,
}

impl ParseErrorKind {
    /// True when the input is read as multi-box levels instead: a second box
    /// or target, or a collection.
    pub fn wants_multi(&self) -> bool {
        matches!(
            self,
            ParseErrorKind::SecondBox
                | ParseErrorKind::SecondTarget
                | ParseErrorKind::Collection { .. }
        )
    }
}

impl ParseError {
    pub fn new(line: usize, col: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { line, col, kind }
    }
}
