//! Feedback on long work: a progress bar over a collection, or a spinner
//! with a live line for one long multi-box solve, drawn on stderr by
//! indicatif only when stderr is a terminal (judges and scripts see nothing)
//! and gone when the work ends. Answers printed meanwhile go through
//! [`Progress::print`], which lifts the bar so the two never mix.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sokoban::multi::Progress as Search;
use std::io::{self, IsTerminal, Write};
use std::time::Duration;

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `total` items.
    pub fn new(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), target());
        bar.set_style(
            ProgressStyle::with_template("[{bar:30}] {pos}/{len} {elapsed} {wide_msg}")
                .expect("a valid template")
                .progress_chars("#>-"),
        );
        Progress { bar }
    }

    /// A spinner for one item whose end cannot be foreseen (one level).
    pub fn spinner() -> Progress {
        let bar = ProgressBar::with_draw_target(None, target());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {wide_msg}").expect("a valid template"),
        );
        if !bar.is_hidden() {
            bar.enable_steady_tick(Duration::from_millis(100));
        }
        Progress { bar }
    }

    /// Item `done` (0-based) named `what` is under way.
    pub fn update(&self, done: usize, what: &str) {
        if self.bar.is_hidden() {
            return;
        }
        self.bar.set_position(done as u64);
        self.bar.set_message(what.to_string());
    }

    /// The live line of a multi-box search of the level `name`.
    pub fn search(&self, name: &str, p: &Search) {
        if !self.bar.is_hidden() {
            self.bar.set_message(live_line(name, p, resident_bytes()));
        }
    }

    /// Runs `write` (printing to `out`, stdout) with the bar lifted, and
    /// flushes `out` before the bar comes back when it is shown.
    pub fn print<W: Write + ?Sized>(
        &self,
        out: &mut W,
        write: impl FnOnce(&mut W) -> io::Result<()>,
    ) -> io::Result<()> {
        if self.bar.is_hidden() {
            return write(out);
        }
        if self.bar.is_finished() {
            write(out)?;
            return out.flush();
        }
        self.bar.suspend(|| {
            write(out)?;
            out.flush()
        })
    }

    /// Clears the bar for good (before the last answer, so it does not flash back).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// stderr when it is a terminal, else nowhere.
fn target() -> ProgressDrawTarget {
    if io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// `name: 12.3 s, 1,234,567 nodes, 100,371 nodes/s, bound 57, memory 312 MB`.
fn live_line(name: &str, p: &Search, memory: Option<u64>) -> String {
    let seconds = p.elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        (p.expanded as f64 / seconds) as u64
    } else {
        0
    };
    let mut line = format!(
        "{name}: {seconds:.1} s, {} nodes, {} nodes/s, bound {}",
        grouped(p.expanded),
        grouped(rate),
        p.bound
    );
    if let Some(bytes) = memory {
        line.push_str(&format!(", memory {} MB", grouped(bytes >> 20)));
    }
    line
}

/// Thousands separated by commas, as the README writes figures.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The process's resident memory (Linux; elsewhere unknown): it counts the
/// search's tables and every thread of `--fast`, which the search's own
/// report does not give while it runs.
fn resident_bytes() -> Option<u64> {
    super::memory::resident()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_line_names_every_figure() {
        let p = Search {
            expanded: 1_234_567,
            generated: 2_000_000,
            depth: 40,
            bound: 57,
            elapsed: Duration::from_millis(12_300),
        };
        assert_eq!(
            live_line("microban 1", &p, Some(312 << 20)),
            "microban 1: 12.3 s, 1,234,567 nodes, 100,371 nodes/s, bound 57, memory 312 MB"
        );
        let start = Search {
            elapsed: Duration::ZERO,
            ..p
        };
        assert_eq!(
            live_line("x", &start, None),
            "x: 0.0 s, 1,234,567 nodes, 0 nodes/s, bound 57"
        );
    }

    #[test]
    fn figures_are_grouped() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1_000_000, "1,000,000"),
        ];
        for (n, text) in cases {
            assert_eq!(grouped(n), text);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn resident_memory_is_read_on_linux() {
        assert!(resident_bytes().is_some_and(|b| b > 0));
    }
}
