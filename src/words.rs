//! The words of messages that are not search outcomes: input quoted back
//! to the user, and counted nouns.
//!
//! Every message that echoes input goes through [`quote`], so a 10 MB line
//! or a terminal escape in a contestant's output never reaches stderr, a
//! judge's feedback file or a report whole or raw.

/// The most characters of an input quoted in a message.
pub const QUOTE_CHARS: usize = 80;

/// `text` in double quotes, escaped as a Rust string literal (control
/// characters and escapes show as `\u{1b}`, never raw), cut to
/// [`QUOTE_CHARS`] characters with the count of the whole when longer.
///
/// ```
/// use sokoban::words::quote;
///
/// assert_eq!(quote("1 x"), r#""1 x""#);
/// assert_eq!(quote("\u{1b}[31m"), r#""\u{1b}[31m""#);
/// let long = quote(&"x".repeat(1000));
/// assert!(long.starts_with(&format!("\"{}", "x".repeat(80))));
/// assert!(long.ends_with("...\" (1000 characters)"));
/// ```
pub fn quote(text: &str) -> String {
    let total = text.chars().count();
    if total <= QUOTE_CHARS {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(QUOTE_CHARS).collect();
    let quoted = format!("{head:?}");
    format!("{}...\" ({total} characters)", &quoted[..quoted.len() - 1])
}

/// A message that may hold input (a library's error text), cut to a few
/// lines' worth with the escapes of [`quote`] for anything unprintable.
pub fn clip(message: &str) -> String {
    const MOST: usize = 4 * QUOTE_CHARS;
    let printable = |c: char| !c.is_control() || c == '\n';
    let total = message.chars().count();
    let mut out: String = message
        .chars()
        .take(MOST)
        .flat_map(|c| {
            let shown: String = if printable(c) {
                c.to_string()
            } else {
                c.escape_default().to_string()
            };
            shown.chars().collect::<Vec<_>>()
        })
        .collect();
    if total > MOST {
        out.push_str(&format!("... ({total} characters)"));
    }
    out
}

/// `n` and the noun, singular for one: `1 goal`, `2 goals`.
///
/// ```
/// use sokoban::words::count;
///
/// assert_eq!(count(1, "goal", "goals"), "1 goal");
/// assert_eq!(count(0, "box", "boxes"), "0 boxes");
/// ```
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_is_bounded_and_escaped() {
        let line = format!("{}\u{7}{}", "é".repeat(79), "x".repeat(10_000_000));
        let q = quote(&line);
        assert!(q.chars().count() < 2 * QUOTE_CHARS, "{q}");
        assert!(q.contains("\\u{7}") && !q.contains('\u{7}'), "{q}");
        assert!(q.ends_with("(10000080 characters)"), "{q}");
    }

    #[test]
    fn a_clipped_message_is_bounded_and_escaped() {
        let message = format!("bad \u{1b}[2J {}", "y".repeat(5000));
        let c = clip(&message);
        assert!(c.len() < 6 * QUOTE_CHARS, "{c}");
        assert!(!c.contains('\u{1b}') && c.contains("\\u{1b}"), "{c}");
        assert_eq!(clip("short"), "short");
    }
}
