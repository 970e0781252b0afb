//! When the search looks at the clock.
//!
//! The limits (time, memory, a stop from another lane, Ctrl-C) are checked
//! between expansions. A fixed count of expansions between two checks is
//! wrong both ways: on a small level thousands of expansions pass in a
//! millisecond, while on a level of hundreds of boxes one expansion (a
//! matching over every box for each of its children) takes tens of
//! milliseconds, and 256 of them are seconds past the limit. So the count
//! adapts to what the clock says: it doubles while checks come less than
//! [`CLOSE`] apart and halves when they come more than [`FAR`] apart, from
//! one expansion up to [`MOST`].

use std::time::{Duration, Instant};

/// Checks closer than this together are more than the limits need.
const CLOSE: Duration = Duration::from_millis(1);
/// Checks further apart than this make a limit late.
const FAR: Duration = Duration::from_millis(10);
/// The most expansions between two checks.
const MOST: usize = 256;

/// Counts the work done since the limits were last checked.
#[derive(Debug)]
pub(super) struct Pace {
    every: usize,
    since: usize,
    last: Instant,
}

impl Pace {
    /// The first call to [`Pace::due`] is due, so a limit below the start
    /// stops at once.
    pub fn new() -> Pace {
        Pace {
            every: 1,
            since: 0,
            last: Instant::now(),
        }
    }

    /// Counts `work` expansions; true when the limits are to be checked now.
    pub fn due(&mut self, work: usize) -> bool {
        self.since += work;
        if self.since < self.every {
            return false;
        }
        self.since = 0;
        let now = Instant::now();
        let gap = now.duration_since(self.last);
        self.last = now;
        if gap < CLOSE && self.every < MOST {
            self.every *= 2;
        } else if gap > FAR && self.every > 1 {
            self.every /= 2;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_count_is_due_and_fast_work_spaces_the_checks_out() {
        let mut pace = Pace::new();
        assert!(pace.due(1), "the first expansion checks the limits");
        // Expansions that take no time: the checks spread out to MOST.
        let mut checks = 0;
        for _ in 0..10 * MOST {
            checks += usize::from(pace.due(1));
        }
        // (A check the machine delays may halve the count once.)
        assert!(pace.every >= MOST / 2, "every {}", pace.every);
        assert!(checks < 40, "{checks} checks in {} expansions", 10 * MOST);
    }

    #[test]
    fn slow_work_is_checked_at_every_expansion() {
        let mut pace = Pace::new();
        pace.every = MOST;
        pace.last = Instant::now() - 2 * FAR;
        pace.since = MOST - 1;
        assert!(pace.due(1));
        assert_eq!(pace.every, MOST / 2, "a late check halves the count");
        let mut pace = Pace::new();
        for _ in 0..20 {
            pace.last = Instant::now() - 2 * FAR;
            pace.since = pace.every - 1;
            assert!(pace.due(1));
        }
        assert_eq!(pace.every, 1);
    }

    #[test]
    fn big_steps_of_work_count_in_full() {
        let mut pace = Pace::new();
        pace.every = 8;
        assert!(!pace.due(7));
        assert!(pace.due(200), "box moves count all their expansions");
    }
}
