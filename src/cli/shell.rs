//! `sokoban completions SHELL` and `sokoban manpage`: so the tool installs
//! into shells and `man` like any other command, generated from the same
//! clap definition as `--help` so they never drift from it.

use super::{Cli, CliError};
use clap::{Args, CommandFactory, ValueEnum};
use std::io::Write;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for.
    #[arg(value_enum)]
    shell: ShellArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ShellArg {
    Bash,
    Zsh,
    Fish,
    Powershell,
}

/// Writes the completion script for one shell on stdout.
pub fn completions(args: &CompletionsArgs) -> Result<ExitCode, CliError> {
    use clap_complete::Shell;
    let shell = match args.shell {
        ShellArg::Bash => Shell::Bash,
        ShellArg::Zsh => Shell::Zsh,
        ShellArg::Fish => Shell::Fish,
        ShellArg::Powershell => Shell::PowerShell,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sokoban", &mut script);
    write_out(&script)
}

/// Writes the man page (roff) on stdout.
pub fn manpage() -> Result<ExitCode, CliError> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    write_out(&page)
}

fn write_out(bytes: &[u8]) -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
