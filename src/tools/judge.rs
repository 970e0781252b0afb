//! The special judge for contest systems (`verify --judge`).
//!
//! The olympiad problem accepts any optimal answer, so judges cannot diff
//! outputs; they run a checker. This module reads a contestant's output with
//! a judge's usual leniency about white space (CRLF, trailing spaces, extra
//! blank lines), checks each answer with [`verify_maze`], and cross-checks the
//! judge's own answer file, so a wrong reference answer shows as a judge
//! failure instead of wronging contestants. The CLI maps the typed
//! [`Judgement`] onto each system's exit codes.

use super::verify::{Reading, Verdict, verify_maze};
use crate::level::Maze;
use crate::moves::Notation;
use thiserror::Error;

/// Why an output could not be read as answers (a presentation error).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OutputProblem {
    #[error("line {line}: expected 'Maze #{maze}', found {found:?}")]
    MissingHeader {
        maze: usize,
        line: usize,
        found: String,
    },
    #[error("output ends before 'Maze #{maze}'")]
    MissingAnswer { maze: usize },
    #[error("line {line}: {found:?} after the last answer")]
    Trailing { line: usize, found: String },
    #[error(
        "line {line}: {letter:?} is not a move (n s e w, N S E W) and the line is not 'Impossible.'"
    )]
    NotMoves { line: usize, letter: char },
}

/// One answer read from an output and the line it was on (0: absent, empty answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub line: usize,
    pub text: String,
}

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

/// Reads `mazes` answers from an output; `headers` when each must follow a
/// `Maze #k` line (judge-format input). Blank lines are skipped anywhere, so
/// an empty answer (box already home) is a header with no answer line before
/// the next header or the end.
pub fn read_output(text: &str, mazes: usize, headers: bool) -> Result<Vec<Answer>, OutputProblem> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.is_empty())
        .peekable();
    let mut answers = Vec::with_capacity(mazes);
    for maze in 1..=mazes {
        let header = format!("Maze #{maze}");
        if headers {
            match lines.next() {
                None => return Err(OutputProblem::MissingAnswer { maze }),
                Some((_, l)) if l == header => {}
                Some((line, l)) => {
                    return Err(OutputProblem::MissingHeader {
                        maze,
                        line,
                        found: l.to_string(),
                    });
                }
            }
        }
        let next_header = format!("Maze #{}", maze + 1);
        let answer = match lines.peek() {
            Some(&(_, l)) if headers && l == next_header => Answer {
                line: 0,
                text: String::new(),
            },
            Some(&(line, l)) => {
                lines.next();
                check_letters(line, l)?;
                Answer {
                    line,
                    text: l.to_string(),
                }
            }
            None => Answer {
                line: 0,
                text: String::new(),
            },
        };
        answers.push(answer);
    }
    match lines.next() {
        Some((line, l)) => Err(OutputProblem::Trailing {
            line,
            found: l.to_string(),
        }),
        None => Ok(answers),
    }
}

/// The problem's answer alphabet: `n s e w` walks, `N S E W` pushes, or `Impossible.`.
fn check_letters(line: usize, text: &str) -> Result<(), OutputProblem> {
    if text == "Impossible." {
        return Ok(());
    }
    match text.chars().find(|c| !"nsewNSEW".contains(*c)) {
        Some(letter) => Err(OutputProblem::NotMoves { line, letter }),
        None => Ok(()),
    }
}

/// Judges a contestant's output against the mazes and the judge's answer file.
pub fn judge(mazes: &[Maze], headers: bool, contestant: &str, reference: &str) -> Judgement {
    let reference = match read_output(reference, mazes.len(), headers) {
        Ok(r) => r,
        Err(p) => return Judgement::JudgeFailure(JudgeFailure::Unreadable(p)),
    };
    let answers = match read_output(contestant, mazes.len(), headers) {
        Ok(a) => a,
        Err(p) => return Judgement::Presentation(p),
    };
    let read = Reading::Fixed(Notation::Nsew);
    for (k, maze) in mazes.iter().enumerate() {
        let verdict = verify_maze(maze, &reference[k].text, read);
        if !verdict.accepted(true) {
            return Judgement::JudgeFailure(JudgeFailure::WrongReference {
                maze: k + 1,
                verdict,
            });
        }
        let verdict = verify_maze(maze, &answers[k].text, read);
        if !verdict.accepted(true) {
            return Judgement::Wrong {
                maze: k + 1,
                verdict,
            };
        }
    }
    Judgement::Accepted { mazes: mazes.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_is_forgiven_and_empty_answers_kept() {
        let text = "\r\nMaze #1  \r\n\r\n\r\nEE \r\nMaze #2\r\n\r\nMaze #3\nImpossible.\n\n\n";
        let got = read_output(text, 3, true).unwrap();
        let texts: Vec<&str> = got.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(texts, ["EE", "", "Impossible."]);
        assert_eq!(got[0].line, 5);
    }

    #[test]
    fn shape_errors_are_typed() {
        assert_eq!(
            read_output("EE\n", 1, true),
            Err(OutputProblem::MissingHeader {
                maze: 1,
                line: 1,
                found: "EE".into()
            })
        );
        assert_eq!(
            read_output("Maze #1\nEE\n", 2, true),
            Err(OutputProblem::MissingAnswer { maze: 2 })
        );
        assert_eq!(
            read_output("EE\nww\n", 1, false),
            Err(OutputProblem::Trailing {
                line: 2,
                found: "ww".into()
            })
        );
        assert_eq!(
            read_output("rRR\n", 1, false),
            Err(OutputProblem::NotMoves {
                line: 1,
                letter: 'r'
            })
        );
    }
}
