//! The one place a text's format is told from the text (`--format auto`).
//!
//! Every reader (both solving modes, `verify`, `convert`, `bench`,
//! `optimize`, `play`) asks here, so one file is never read as a judge file
//! by one command and as a collection by another.

use super::Format;
use super::board::numbered_lines;

/// The concrete format of `text`: `format` itself unless it is `Auto`.
/// Auto reads snekoban JSON when the first non-blank line starts with `[`,
/// the judge format when that line is a header (a whole number and one
/// more word: `rows cols`, so a bare `1` is a level's title), olympiad
/// letters when level rows use only those, and XSB otherwise.
///
/// ```
/// use sokoban::level::{Format, detect};
///
/// assert_eq!(detect("3 5\n#####\n#SBT#\n#####\n0 0\n", Format::Auto), Format::Judge);
/// assert_eq!(detect("1\n#####\n#@$.#\n#####\n", Format::Auto), Format::Xsb);
/// assert_eq!(detect("S.B.T\n", Format::Auto), Format::Olympiad);
/// assert_eq!(detect("S.B.T\n", Format::Wkbg), Format::Wkbg);
/// ```
pub fn detect(text: &str, format: Format) -> Format {
    if format != Format::Auto {
        return format;
    }
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if first.starts_with('[') {
        Format::SnekobanJson
    } else if is_judge_header(first) {
        Format::Judge
    } else if looks_olympiad(text) {
        Format::Olympiad
    } else {
        Format::Xsb
    }
}

/// A judge header: two words, the first a whole number (a header with a
/// bad second word is still one, so its error names the header).
fn is_judge_header(line: &str) -> bool {
    let mut words = line.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(rows), Some(_), None) => rows.chars().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// True when some line is a row of olympiad letters holding a piece, and
/// no line is a row of XSB letters holding one.
fn looks_olympiad(text: &str) -> bool {
    let mut olympiad = false;
    for (_, row) in numbered_lines(text) {
        // A stray space before an olympiad row is that row's error.
        let letters = row.trim_start();
        if letters.chars().all(|c| "#.SBT".contains(c)) && letters.contains(['S', 'B', 'T']) {
            olympiad = true;
        }
        if row.chars().all(|c| "#@+$*.-_ ".contains(c)) && row.contains(['@', '+', '$', '*']) {
            return false;
        }
    }
    olympiad
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One case a line: the text (`\n` escaped) | the format told.
    const CASES: &str = r"
[[['wall']]]|SnekobanJson
  \n 3 5\n#####|Judge
1 x\nSBT|Judge
0 0|Judge
1\n####\n#@$.#\n####|Xsb
12 Steps Ahead\n####\n#@$.#\n####|Xsb
; 1\n####\n#@$.#\n####|Xsb
Title: 1\n####\n#@$.#\n####|Xsb
S.B.T|Olympiad
#####\n#SBT#\n#####|Olympiad
#####\n#@$.#\n#####|Xsb
#####\n#S@B#\n#####|Xsb
#SBT#\n#@$.#|Xsb
";

    #[test]
    fn each_shape_is_told_apart() {
        for case in CASES.lines().filter(|l| !l.is_empty()) {
            let (text, want) = case.split_once('|').unwrap();
            let got = detect(&text.replace("\\n", "\n"), Format::Auto);
            assert_eq!(format!("{got:?}"), want, "{case}");
        }
    }
}
