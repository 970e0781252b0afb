//! `sokoban bench`: the single-box table over files or generated grids.

use super::gen_cmd::SpecArgs;
use super::progress::Progress;
use super::{AlgorithmArg, CliError, read_inputs};
use clap::Args;
use sokoban::level::{DEFAULT_MAX_CELLS, parse_single};
use sokoban::tools::bench::{
    measure_single, single_header, single_json, single_line, summarize_single, summary_json,
    summary_line,
};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Files to solve (single-box grids or judge files); or give a generator spec instead.
    files: Vec<PathBuf>,
    #[command(flatten)]
    spec: SpecArgs,
    /// Single-box search to measure.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Layered)]
    algorithm: AlgorithmArg,
    /// JSON lines instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    let mut named = Vec::new();
    if args.spec.given() {
        for (k, maze) in args.spec.mazes()?.into_iter().enumerate() {
            named.push((format!("{} #{}", kind_name(&args.spec), k + 1), maze));
        }
    } else {
        if args.files.is_empty() {
            return Err(CliError::Usage(
                "bench needs files, or a generator spec (--rows R --cols C --kind K ...)".into(),
            ));
        }
        let max_cells = args
            .spec
            .max_cells
            .max(DEFAULT_MAX_CELLS.min(args.spec.max_cells));
        for input in read_inputs(&args.files)? {
            let parsed =
                parse_single(&input.bytes, max_cells).map_err(|error| CliError::Parse {
                    input: input.source.clone(),
                    error,
                })?;
            let file = std::path::Path::new(&input.source)
                .file_name()
                .map_or(input.source.clone(), |f| f.to_string_lossy().into_owned());
            for (k, maze) in parsed.mazes.into_iter().enumerate() {
                named.push((format!("{file} #{}", k + 1), maze));
            }
        }
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    if !args.json {
        writeln!(out, "{}", single_header())?;
    }
    let mut progress = Progress::new(named.len());
    let mut rows = Vec::with_capacity(named.len());
    for (i, (name, maze)) in named.into_iter().enumerate() {
        progress.update(i, &name);
        let row = measure_single(name, &maze, args.algorithm.into());
        drop(maze);
        if args.json {
            writeln!(out, "{}", single_json(&row))?;
        } else {
            writeln!(out, "{}", single_line(&row))?;
        }
        out.flush()?;
        rows.push(row);
    }
    progress.finish();
    let summary = summarize_single(&rows);
    if args.json {
        writeln!(out, "{}", summary_json(&summary))?;
    } else {
        writeln!(out, "{}", summary_line(&summary))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn kind_name(spec: &SpecArgs) -> String {
    format!("{:?}", spec.kind).to_lowercase()
}
