//! SOK sections: what Sokoban YASC, YSokoban and the big level archives write
//! around the boards of a collection, so their files read like any other.
//!
//! Beside a board a SOK file holds `Key: value` lines (`Title:`, `Author:`),
//! `Comment:` … `Comment-End:` blocks, and `Solution` / `Solution (name):`
//! sections whose move lines may be run-length encoded. Keys written straight
//! under a board belong to it; a solution always belongs to the level above.
//! Writing back inserts sections into the original text, so titles, comments
//! and layout survive untouched.

use super::error::{ParseError, ParseErrorKind};

/// A solution stored in a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSolution {
    /// The text in `Solution (name):`, if any.
    pub name: Option<String>,
    /// The move lines joined, as written (possibly run-length encoded).
    pub moves: String,
    /// Line of the `Solution` header.
    pub line: usize,
}

/// One SOK section, read from the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Section {
    /// `Key: value`, the key lowercased.
    Key {
        key: String,
        value: String,
    },
    /// A `Comment:` line or block.
    Comment(String),
    Solution(StoredSolution),
}

/// The section starting at `lines[i]`, if one does, and the index after it.
/// `keys` admits any `Key: value` line (straight under a board); otherwise only
/// the keys that never name a level (`Title:`, `Author:`) are sections.
pub fn section(
    lines: &[(usize, &str)],
    i: usize,
    keys: bool,
) -> Result<Option<(Section, usize)>, ParseError> {
    let (line, text) = lines[i];
    let text = text.trim();
    if let Some(s) = solution_header(text) {
        let mut moves = s.to_string();
        let mut j = i + 1;
        while j < lines.len() && is_move_line(lines[j].1.trim()) {
            moves.push_str(lines[j].1.trim());
            j += 1;
        }
        let name = solution_name(text);
        let solution = StoredSolution { name, moves, line };
        return Ok(Some((Section::Solution(solution), j)));
    }
    let Some((key, value)) = key_value(text) else {
        return Ok(None);
    };
    if key == "comment" {
        return comment(lines, i, value).map(Some);
    }
    if key == "comment-end" || key == "comment_end" {
        return Err(ParseError::new(
            line,
            1,
            ParseErrorKind::Other("Comment-End: without a Comment: before it".into()),
        ));
    }
    if keys || key == "title" || key == "author" {
        let value = value.to_string();
        return Ok(Some((Section::Key { key, value }, i + 1)));
    }
    Ok(None)
}

/// A `Comment:` line with its text, or a block up to `Comment-End:`.
fn comment(lines: &[(usize, &str)], i: usize, value: &str) -> Result<(Section, usize), ParseError> {
    if !value.is_empty() {
        return Ok((Section::Comment(value.to_string()), i + 1));
    }
    let end = (i + 1..lines.len()).find(|&j| {
        key_value(lines[j].1.trim()).is_some_and(|(k, _)| k == "comment-end" || k == "comment_end")
    });
    let Some(end) = end else {
        return Err(ParseError::new(
            lines[i].0,
            1,
            ParseErrorKind::Other("Comment: block with no Comment-End: line".into()),
        ));
    };
    let body: Vec<&str> = lines[i + 1..end].iter().map(|(_, l)| *l).collect();
    Ok((Section::Comment(body.join("\n")), end + 1))
}

/// `Key: value` with a key of letters, spaces, `-` and `_` (lowercased).
fn key_value(text: &str) -> Option<(String, &str)> {
    let (key, value) = text.split_once(':')?;
    let word = |c: char| c.is_ascii_alphabetic() || " -_".contains(c);
    (!key.is_empty() && key.starts_with(|c: char| c.is_ascii_alphabetic()) && key.chars().all(word))
        .then(|| (key.trim().to_ascii_lowercase(), value.trim()))
}

/// For `Solution`, `Solution:`, `Solution (name):` (any case), the moves
/// written on the same line (usually none).
fn solution_header(text: &str) -> Option<&str> {
    let head = text.get(..8)?;
    if !head.eq_ignore_ascii_case("solution") {
        return None;
    }
    // The word itself, not the start of another ("Solutions").
    if text[8..].starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    let mut rest = text[8..].trim_start();
    if rest.starts_with('(') {
        rest = rest[rest.find(')')? + 1..].trim_start();
    }
    if let Some(r) = rest.strip_prefix(':') {
        rest = r.trim_start();
    }
    (rest.is_empty() || is_move_line(rest)).then_some(rest)
}

fn solution_name(text: &str) -> Option<String> {
    let open = text.find('(')?;
    // The `)` closing it, not one before it (`Solution:) r2(R`).
    let close = open + text[open..].find(')')?;
    Some(text[open + 1..close].trim().to_string()).filter(|n| !n.is_empty())
}

/// A line of (possibly run-length encoded) moves: move letters, digits,
/// parentheses and spaces, with at least one letter (so `12` is a title).
pub fn is_move_line(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| "lurdLURDnsewNSEW()0123456789 ".contains(c))
}

/// The text with `blocks` inserted: each `(line, block)` goes after that
/// 1-based line (in order of lines). Line endings become `\n`.
pub fn insert_after_lines(text: &str, blocks: &[(usize, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut next = blocks.iter().peekable();
    for (k, line) in text.lines().enumerate() {
        out.push_str(line.trim_end_matches('\r'));
        out.push('\n');
        while let Some((_, block)) = next.next_if(|(at, _)| *at == k + 1) {
            out.push_str(block);
        }
    }
    for (_, block) in next {
        out.push_str(block);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solution_name_is_between_its_own_parentheses() {
        // Found by fuzzing (tests/fuzz/corpus/readers/crash-sok-nul-title).
        assert_eq!(solution_name("Solution:) r2(R"), None);
        assert_eq!(solution_name("Solution (a) (b)"), Some("a".into()));
    }

    fn one(text: &str, keys: bool) -> Option<Section> {
        let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
        section(&lines, 0, keys).unwrap().map(|(s, _)| s)
    }

    #[test]
    fn headers_and_keys() {
        let solution = |name: Option<&str>, moves: &str| {
            Some(Section::Solution(StoredSolution {
                name: name.map(String::from),
                moves: moves.into(),
                line: 1,
            }))
        };
        assert_eq!(one("Solution\nlu\nRR\n\nx", false), solution(None, "luRR"));
        assert_eq!(
            one("solution (best): 3l", false),
            solution(Some("best"), "3l")
        );
        assert_eq!(
            one("Solution (YASC 2.1):\n2(lU)", false),
            solution(Some("YASC 2.1"), "2(lU)")
        );
        assert_eq!(one("Solutions of the day", false), None);
        assert_eq!(one("Solutions", false), None);
        assert_eq!(one("Solutionsd", false), None);
        assert_eq!(one("Difficulty: 3", false), None);
        assert!(matches!(
            one("Difficulty: 3", true),
            Some(Section::Key { .. })
        ));
        assert_eq!(
            one("Comment:\n#####\nsecond\nComment-End:", false),
            Some(Section::Comment("#####\nsecond".into()))
        );
        assert_eq!(one("; 12: the end", true), None);
    }

    #[test]
    fn unclosed_comment_is_an_error() {
        let lines = [(4, "Comment:"), (5, "text")];
        assert_eq!(section(&lines, 0, false).unwrap_err().line, 4);
    }

    #[test]
    fn insertion_keeps_every_line() {
        let got = insert_after_lines("a\r\nb\nc", &[(2, "X\n".into()), (3, "Y\n".into())]);
        assert_eq!(got, "a\nb\nX\nc\nY\n");
    }
}
