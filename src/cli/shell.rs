//! `sokoban completions SHELL` and `sokoban manpage`: so the tool installs
//! into shells and `man` like any other command, generated from the same
//! clap definition as `--help` so they never drift from it.

use super::{CliError, command};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
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
    clap_complete::generate(shell, &mut command(), "sokoban", &mut script);
    if shell == Shell::Fish {
        script = fish_dollars(&String::from_utf8_lossy(&script)).into_bytes();
    }
    write_out(&script)
}

/// Escapes each `$` that starts no variable name. clap_complete writes value
/// descriptions (the XSB letters hold `$`) inside fish's double quotes, where
/// a bare `$` is a syntax error that stops fish loading the whole script.
fn fish_dollars(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    let mut chars = script.chars().peekable();
    while let Some(c) = chars.next() {
        let names_variable = chars
            .peek()
            .is_some_and(|&n| n.is_ascii_alphanumeric() || n == '_');
        if c == '$' && !names_variable {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[derive(Debug, Args)]
pub struct ManpageArgs {
    /// Write sokoban.1 and a page per subcommand (sokoban-verify.1, ...), which the first
    /// page's SUBCOMMANDS section names, into DIR (made if need be) instead of sokoban.1 on
    /// stdout.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Writes the man page (roff) on stdout, or every page into a folder.
pub fn manpage(args: &ManpageArgs) -> Result<ExitCode, CliError> {
    // `help` is clap's, and has no page of its own.
    let pages = command().disable_help_subcommand(true);
    let Some(dir) = &args.dir else {
        let mut page = Vec::new();
        clap_mangen::Man::new(pages).render(&mut page)?;
        return write_out(&page);
    };
    std::fs::create_dir_all(dir)
        .and_then(|()| clap_mangen::generate_to(pages, dir))
        .map_err(|error| CliError::Write {
            output: dir.display().to_string(),
            error,
        })?;
    Ok(ExitCode::SUCCESS)
}

fn write_out(bytes: &[u8]) -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
