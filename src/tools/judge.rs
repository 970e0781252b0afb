//! The special judge for contest systems (`verify --judge`).
//!
//! The olympiad problem accepts any optimal answer, so judges cannot diff
//! outputs; they run a checker. This module reads a contestant's output
//! strictly with [`super::answers`] (forgiving CRLF, spaces and blank lines,
//! no more), checks each answer with [`verify_maze`], and cross-checks the
//! judge's own answer file, so a wrong reference answer shows as a judge
//! failure instead of wronging contestants. The CLI maps the typed
//! [`Judgement`] onto each system's exit codes.

use super::answers::{Headers, OutputProblem, Strictness, read_answers};
use super::verify::{Reading, Verdict, verify_maze};
use crate::level::Maze;
use crate::moves::Notation;
use thiserror::Error;

/// The outcome of judging one contestant output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Every answer right and optimal.
    Accepted { mazes: usize },
    /// The first answer that is wrong (1-based maze) and why.
    Wrong { maze: usize, verdict: Verdict },
    /// The output is not in the expected shape.
    Presentation(OutputProblem),
    /// The judge's own answer file is unreadable or wrong: fix the test data.
    JudgeFailure(JudgeFailure),
}

/// A fault in the test data rather than in the contestant's output.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum JudgeFailure {
    #[error("judge answer file: {0}")]
    Unreadable(OutputProblem),
    #[error("judge answer for maze {maze} is not an optimal answer ({verdict})", verdict = .verdict.describe())]
    WrongReference { maze: usize, verdict: Verdict },
}

/// A strict read of an output: every maze's answer (empty when it has no line).
fn read_strict(text: &str, headers: Headers) -> Result<Vec<String>, OutputProblem> {
    let answers = read_answers(text, headers, Strictness::Strict)?;
    Ok(answers
        .into_iter()
        .map(|a| a.unwrap_or_default().text)
        .collect())
}

/// Judges a contestant's output against the mazes and the judge's answer file.
pub fn judge(mazes: &[Maze], headers: bool, contestant: &str, reference: &str) -> Judgement {
    let headers = if headers {
        Headers::Mazes(mazes.len())
    } else {
        Headers::None(mazes.len())
    };
    let reference = match read_strict(reference, headers) {
        Ok(r) => r,
        Err(p) => return Judgement::JudgeFailure(JudgeFailure::Unreadable(p)),
    };
    let answers = match read_strict(contestant, headers) {
        Ok(a) => a,
        Err(p) => return Judgement::Presentation(p),
    };
    let read = Reading::Fixed(Notation::Nsew);
    for (k, maze) in mazes.iter().enumerate() {
        let verdict = verify_maze(maze, &reference[k], read);
        if !verdict.accepted(true) {
            return Judgement::JudgeFailure(JudgeFailure::WrongReference {
                maze: k + 1,
                verdict,
            });
        }
        let verdict = verify_maze(maze, &answers[k], read);
        if !verdict.accepted(true) {
            return Judgement::Wrong {
                maze: k + 1,
                verdict,
            };
        }
    }
    Judgement::Accepted { mazes: mazes.len() }
}
