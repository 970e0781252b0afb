//! The `sokoban` binary: a thin layer over the library.
//!
//! Arguments, reading files and stdin, printing, and mapping every error to an
//! exit status in one place (`main`). Nothing here solves anything.
//!
//! Nothing writes to stderr but [`note!`]: a failed write there (stderr
//! closed or full) is dropped instead of panicking, as `eprintln!` would.
#![deny(clippy::print_stderr)]

/// `eprintln!` that never panics: stderr carries notes, never answers, so
/// a failed write to it must not end the run.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

mod cli;

use cli::CliError;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            note!("error: {e}");
            e.exit_status().into()
        }
    }
}
