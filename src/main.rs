//! The `sokoban` binary: a thin layer over the library.
//!
//! Arguments, reading files and stdin, printing, and mapping every error to an
//! exit status in one place (`main`). Nothing here solves anything.

mod cli;

use clap::Parser;
use cli::{Cli, CliError};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_status().into()
        }
    }
}
