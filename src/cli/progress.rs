//! A one-line progress display on stderr, shown only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    enabled: bool,
    total: usize,
    last: Instant,
    shown: bool,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            total,
            last: Instant::now(),
            shown: false,
        }
    }

    /// Reports that item `done` (0-based) named `what` is under way; redraws at most 10 times a second.
    pub fn update(&mut self, done: usize, what: &str) {
        if !self.enabled || (self.shown && self.last.elapsed() < Duration::from_millis(100)) {
            return;
        }
        self.last = Instant::now();
        self.shown = true;
        let width = 30;
        let filled = (done * width)
            .checked_div(self.total)
            .unwrap_or(0)
            .min(width);
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[K[{}{}] {}/{} {}",
            "#".repeat(filled),
            " ".repeat(width - filled),
            done,
            self.total,
            what
        );
        let _ = err.flush();
    }

    /// Clears the line.
    pub fn finish(&mut self) {
        if self.enabled && self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
