//! `sokoban convert`: read levels in one format, write them in another.

use super::{CliError, FormatArg, parse_levels_of};
use clap::{Args, ValueEnum};
use sokoban::level::{Format, parse_levels, write_levels};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Level files; none, or `-`, reads standard input.
    files: Vec<PathBuf>,
    /// Format to read.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    from: FormatArg,
    /// Format to write.
    #[arg(long, value_enum)]
    to: WriteFormatArg,
    #[command(flatten)]
    cells: super::limit::CellsArgs,
    #[command(flatten)]
    pub(super) input: super::input::InputArgs,
}

/// The formats levels are written in: those read, but `auto`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum WriteFormatArg {
    /// # . S B T
    Olympiad,
    /// # @ + $ * . and space
    Xsb,
    /// 'rows cols' headers, rows, '0 0'
    Judge,
    /// W K B G * + . (the last is floor)
    Wkbg,
    /// # . B X & % and space
    Bx,
    /// a JSON list of rows of cells of "wall" "computer" "target" "player"
    SnekobanJson,
}

impl From<WriteFormatArg> for Format {
    fn from(f: WriteFormatArg) -> Format {
        match f {
            WriteFormatArg::Olympiad => Format::Olympiad,
            WriteFormatArg::Xsb => Format::Xsb,
            WriteFormatArg::Judge => Format::Judge,
            WriteFormatArg::Wkbg => Format::Wkbg,
            WriteFormatArg::Bx => Format::Bx,
            WriteFormatArg::SnekobanJson => Format::SnekobanJson,
        }
    }
}

pub fn run(args: &ConvertArgs) -> Result<ExitCode, CliError> {
    let levels = parse_levels_of(&args.files, |bytes| {
        parse_levels(bytes, args.from.into(), args.cells.max_cells)
    })?;
    let text =
        write_levels(&levels, Format::from(args.to)).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
