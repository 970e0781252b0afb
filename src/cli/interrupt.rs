//! Ctrl-C on long runs: finished answers are already printed and flushed,
//! so an interrupt only has to stop the level under way, let the run print
//! its summary, and exit 130 (the shell's status for SIGINT). A second
//! Ctrl-C ends the process at once.

use sokoban::moves::{Limit, Outcome};
use sokoban::multi::options::{interrupt, interrupted};

/// Installs the handler (once per process; later calls do nothing).
pub fn watch() {
    let _ = ctrlc::set_handler(|| {
        if interrupted() {
            std::process::exit(super::Status::Interrupted as i32);
        }
        interrupt();
    });
}

/// True once Ctrl-C was pressed.
pub fn pressed() -> bool {
    interrupted()
}

/// True when `outcome` is final: not a search cut short by Ctrl-C.
pub fn is_final(outcome: &Outcome) -> bool {
    !(pressed() && matches!(outcome, Outcome::Limit(Limit::Stopped)))
}

/// The note on stderr when a run was cut short.
pub fn note(answered: usize, total: usize) {
    let total = sokoban::words::count(total as u64, "level", "levels");
    note!("interrupted: {answered} of {total} answered");
}
