//! Answer files read back: the solver's own output shape, a header line per
//! level (`Maze #k` or the level's name) and the answer on the line after it.
//!
//! Three tools read them, so the rules live here once. `verify` and
//! `play --replay` read leniently: lines that are no expected header are
//! passed over, and a header's answer is the very next line. The judge reads
//! strictly: every header in order, answers in the problem's letters, nothing
//! after the last one. Both forgive CRLF and spaces around a line; the judge
//! also forgives blank lines anywhere, so there an empty answer (the box
//! starts home) is a header with no line before the next header.

use crate::level::maze_name;
use crate::words::quote;
use std::borrow::Cow;
use thiserror::Error;

/// The header lines of a file, one per level, in order.
#[derive(Clone, Copy, Debug)]
pub enum Headers<'a> {
    /// `Maze #1`, `Maze #2`, ... for this many mazes (judge answer files).
    Mazes(usize),
    /// The levels' own names.
    Names(&'a [String]),
    /// No headers: one answer line per level, for this many levels (the
    /// judge's plain input format).
    None(usize),
}

impl Headers<'_> {
    fn levels(&self) -> usize {
        match self {
            Headers::Mazes(n) | Headers::None(n) => *n,
            Headers::Names(names) => names.len(),
        }
    }

    /// The header of level `k` (from 0). Mazes are numbered past the last
    /// one too, so a surplus `Maze #k` reads as a header, not as an answer.
    fn of(&self, k: usize) -> Option<Cow<'_, str>> {
        match self {
            Headers::Mazes(_) => Some(maze_name(k + 1).into()),
            Headers::Names(names) => names.get(k).map(|n| n.as_str().into()),
            Headers::None(_) => None,
        }
    }
}

/// How strictly a file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    /// `verify` and `play`: what is no expected header is passed over, a
    /// header's answer is the next line (a blank one is an empty answer), a
    /// level without its header has no answer; never a problem.
    Lenient,
    /// The judge: blank lines skipped, every header in order, answers in
    /// `n s e w N S E W` or `Impossible.`, nothing after the last answer.
    Strict,
}

/// Why an output could not be read as answers (a presentation error).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OutputProblem {
    #[error("line {line}: expected '{header}', found {}", quote(.found))]
    MissingHeader {
        header: String,
        line: usize,
        found: String,
    },
    #[error("output ends before '{header}'")]
    MissingAnswer { header: String },
    #[error("line {line}: {} after the last answer", quote(.found))]
    Trailing { line: usize, found: String },
    #[error(
        "line {line}: {letter:?} is not a move (n s e w, N S E W) and the line is not 'Impossible.'"
    )]
    NotMoves { line: usize, letter: char },
}

/// One answer and the line it was on (0: an empty answer with no line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub line: usize,
    pub text: String,
}

/// Reads the answers of a file, per level in the order of `headers`: `None`
/// when a lenient read finds no header for the level. A strict read answers
/// every level or reports the first problem; a lenient one never fails.
pub fn read_answers(
    text: &str,
    headers: Headers,
    strictness: Strictness,
) -> Result<Vec<Option<Answer>>, OutputProblem> {
    let strict = strictness == Strictness::Strict;
    let mut lines = text
        .lines()
        .map(str::trim)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !strict || !l.is_empty())
        .peekable();
    let levels = headers.levels();
    let mut answers = vec![None; levels];
    let mut next = 0;
    while let Some((line, found)) = lines.next() {
        if next == levels {
            if strict {
                let found = found.to_string();
                return Err(OutputProblem::Trailing { line, found });
            }
            break;
        }
        let (k, answer) = if let Headers::None(_) = headers {
            (next, Some((line, found)))
        } else {
            let Some(k) = level_of(found, headers, next, strict) else {
                if strict {
                    let (header, found) = (expected(headers, next), found.to_string());
                    return Err(OutputProblem::MissingHeader {
                        header,
                        line,
                        found,
                    });
                }
                continue;
            };
            // The judge reads the next header as an empty answer; verify takes the line.
            let answer = match lines.peek() {
                Some(&(_, l)) if strict && headers.of(k + 1).as_deref() == Some(l) => None,
                _ => lines.next(),
            };
            (k, answer)
        };
        answers[k] = Some(match answer {
            Some((line, text)) => {
                if strict {
                    check_letters(line, text)?;
                }
                let text = text.to_string();
                Answer { line, text }
            }
            None => Answer::default(),
        });
        next = k + 1;
    }
    match headers {
        _ if !strict || next == levels => {}
        // An output that stops early answers the rest with empty lines.
        Headers::None(_) => answers[next..].fill(Some(Answer::default())),
        _ => {
            let header = expected(headers, next);
            return Err(OutputProblem::MissingAnswer { header });
        }
    }
    Ok(answers)
}

/// The level whose header `line` is, from level `next` on: strictly only
/// `next` itself; leniently the first match, so repeated names pair up in order.
fn level_of(line: &str, headers: Headers, next: usize, strict: bool) -> Option<usize> {
    let last = if strict { next + 1 } else { headers.levels() };
    (next..last).find(|&k| headers.of(k).as_deref() == Some(line))
}

fn expected(headers: Headers, k: usize) -> String {
    headers.of(k).unwrap_or_default().into_owned()
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

/// A lenient read of an answer file for the levels `names`: per level its
/// answer, `None` when the file has no header for it.
pub fn answers_by_name(text: &str, names: &[String]) -> Vec<Option<String>> {
    match read_answers(text, Headers::Names(names), Strictness::Lenient) {
        Ok(answers) => answers.into_iter().map(|a| a.map(|a| a.text)).collect(),
        // A lenient read passes over what it does not understand instead.
        Err(_) => vec![None; names.len()],
    }
}

/// The answer to level `index` in `text`, which is either an answer file
/// (its first non-blank line is one of `names`) or, whole, the answer itself.
pub fn answer_to(text: &str, names: &[String], index: usize) -> Option<String> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    if first.is_some_and(|line| names.iter().any(|n| n == line)) {
        answers_by_name(text, names)
            .into_iter()
            .nth(index)
            .flatten()
    } else {
        Some(text.trim().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One case a line: strictness | headers (`mazes N`, `names a,b`, `lines N`)
    /// | the text (`\n` and `\r` escaped) | the answers as `line:text`, `-`
    /// for none, or the problem. `NOT` stands for the end of a letter problem.
    const CASES: &str = r#"
strict|mazes 3|\r\nMaze #1  \r\n\r\n\r\nEE \r\nMaze #2\r\n\r\nMaze #3\nImpossible.\n\n\n|5:EE 0: 9:Impossible.
strict|mazes 1|Maze #1\nEE|2:EE
strict|mazes 1|Maze #1\n|0:
strict|mazes 1|EE\n|error: line 1: expected 'Maze #1', found "EE"
strict|mazes 2|Maze #2\nEE\n|error: line 1: expected 'Maze #1', found "Maze #2"
strict|mazes 2|Maze #1\nEE\n|error: output ends before 'Maze #2'
strict|mazes 1|Maze #1\nMaze #2\n|error: line 2: "Maze #2" after the last answer
strict|mazes 1|Maze #1\nEx\n|error: line 2: 'x' NOT
strict|lines 2|\nEE\n\nww\n|2:EE 4:ww
strict|lines 3|EE\n|1:EE 0: 0:
strict|lines 1|EE\nww\n|error: line 2: "ww" after the last answer
strict|lines 1|rRR\n|error: line 1: 'r' NOT
strict|lines 0||
lenient|names Maze #1,Maze #2,Maze #3|Maze #1\neE\n\nMaze #3\nImpossible.\n\n|2:eE - 5:Impossible.
lenient|names Maze #1,Maze #2,Maze #3|Maze #1\n\nMaze #2|2: 0: -
lenient|names Maze #1,Maze #2,Maze #3|notes\nMaze #2\r\nrR \nMaze #1\nEE\n|- 3:rR -
lenient|names Maze #1,Maze #2,Maze #3|Maze #1\nMaze #2\neE\n|2:Maze #2 - -
lenient|names a,b,a|a\nrR\nb\n\na\nlL\n|2:rR 4: 6:lL
"#;

    /// Strictly: the surplus `Maze #2` is surplus, not a bad answer; blank
    /// lines vanish. Leniently: a blank line after a header is an empty
    /// answer (the box starts home), other lines are passed over, the line
    /// after a header is its answer, and repeated names pair up in order.
    #[test]
    fn strict_reads_as_the_judge_does_and_lenient_as_verify() {
        let not_moves = "is not a move (n s e w, N S E W) and the line is not 'Impossible.'";
        for case in CASES.lines().filter(|l| !l.is_empty()) {
            let [strictness, headers, text, want] = case.splitn(4, '|').collect::<Vec<_>>()[..]
            else {
                panic!("bad case {case}")
            };
            let strictness = match strictness {
                "strict" => Strictness::Strict,
                _ => Strictness::Lenient,
            };
            let (kind, arg) = headers.split_once(' ').unwrap();
            let names: Vec<String> = arg.split(',').map(String::from).collect();
            let headers = match kind {
                "mazes" => Headers::Mazes(arg.parse().unwrap()),
                "lines" => Headers::None(arg.parse().unwrap()),
                _ => Headers::Names(&names),
            };
            let text = text.replace("\\n", "\n").replace("\\r", "\r");
            let got = match read_answers(&text, headers, strictness) {
                Ok(answers) => answers
                    .iter()
                    .map(|a| {
                        a.as_ref()
                            .map_or("-".into(), |a| format!("{}:{}", a.line, a.text))
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                Err(p) => format!("error: {p}"),
            };
            assert_eq!(got, want.replace("NOT", not_moves), "{case}");
        }
    }

    #[test]
    fn a_text_is_an_answer_file_when_it_opens_with_a_header() {
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let cases = [
            ("a\nrR\n\nb\n\n", 1, Some("")),
            ("\n  a\r\nrR\n", 0, Some("rR")),
            ("a\nrR\n", 1, None),
            (" rR \n", 1, Some("rR")),
            ("rR\na\nlL\n", 0, Some("rR\na\nlL")),
        ];
        for (text, index, want) in cases {
            assert_eq!(
                answer_to(text, &names, index).as_deref(),
                want,
                "{text:?} {index}"
            );
        }
        assert_eq!(
            answers_by_name("b\nuU\n", &names),
            [None, Some("uU".to_string())]
        );
    }
}
