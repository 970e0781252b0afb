//! `sokoban convert`: read levels in one format, write them in another.

use super::{CliError, FormatArg, parse_levels_of};
use clap::Args;
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
    to: FormatArg,
    #[command(flatten)]
    cells: super::limit::CellsArgs,
    #[command(flatten)]
    pub(super) input: super::input::InputArgs,
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
