//! `sokoban bench`: the single-box table over files or generated grids.

use super::gen_cmd::SpecArgs;
use super::interrupt;
use super::lane::{failure, guarded};
use super::progress::Progress;
use super::{
    AlgorithmArg, CliError, SearchArgs, Status, parse_inputs, parse_levels_of, read_inputs,
};
use clap::Args;
use serde_json::json;
use sokoban::level::{parse_single, parse_xsb};
use sokoban::tools::bench::{
    MultiRow, measure_multi, measure_single, multi_header, multi_json, multi_line,
    multi_summary_json, multi_summary_line, single_header, single_json, single_line,
    summarize_multi, summarize_single, summary_json, summary_line,
};
use sokoban::tools::merge::{Merged, answered_indices, merge};
use sokoban::tools::shard::Shard;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;

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
    /// Multi-box levels (XSB files and collections) instead of single-box grids.
    #[arg(long)]
    multi: bool,
    #[command(flatten)]
    search: SearchArgs,
    /// Multi-box: levels solved at once (rows keep the input order).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
    /// Only the levels (or grids) whose 0-based index in the whole input is K mod N; JSON
    /// records then carry `index`, and the summary `shard`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Read FILES as JSON lines of earlier `--json` runs (shards concatenated or not) and print
    /// their combined summary.
    #[arg(long, conflicts_with = "shard")]
    merge: bool,
    /// Skip the levels (or grids) already answered in FILE, the JSON lines of an earlier
    /// `--json` run (cut short or not; a missing FILE is an empty one). Append the new lines to
    /// it and `--merge` it for the summary of the whole run.
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    resume: Option<PathBuf>,
}

pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    if args.merge {
        return run_merge(args);
    }
    if args.multi {
        return run_multi(args);
    }
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
        for (source, parsed) in parse_inputs(&args.files, |bytes| {
            parse_single(bytes, args.spec.max_cells)
        })? {
            let file = std::path::Path::new(&source)
                .file_name()
                .map_or(source.clone(), |f| f.to_string_lossy().into_owned());
            for (k, maze) in parsed.mazes.into_iter().enumerate() {
                named.push((format!("{file} #{}", k + 1), maze));
            }
        }
    }
    let named = unanswered(args, select(args.shard, named))?;
    let total = named.len();
    let mut out = BufWriter::new(std::io::stdout().lock());
    if !args.json {
        writeln!(out, "{}", single_header())?;
    }
    let progress = Progress::new(named.len());
    let mut rows = Vec::with_capacity(named.len());
    interrupt::watch();
    for (i, (index, (name, maze))) in named.into_iter().enumerate() {
        if interrupt::pressed() {
            break;
        }
        progress.update(i, &name);
        let row = measure_single(name, &maze, args.algorithm.into());
        drop(maze);
        let line = if args.json {
            with_index(single_json(&row), index)
        } else {
            single_line(&row)
        };
        progress.print(&mut out, |out| writeln!(out, "{line}"))?;
        out.flush()?;
        rows.push(row);
    }
    progress.finish();
    let summary = summarize_single(&rows);
    if args.json {
        writeln!(out, "{}", shard_summary(summary_json(&summary), args.shard))?;
    } else {
        writeln!(out, "{}{}", summary_line(&summary), shard_words(args.shard))?;
    }
    out.flush()?;
    if rows.len() < total {
        interrupt::note(rows.len(), total);
        return Ok(Status::Interrupted.into());
    }
    Ok(ExitCode::SUCCESS)
}

/// The items not yet answered in the `--resume` file, if one is given.
fn unanswered<T>(args: &BenchArgs, items: Vec<(usize, T)>) -> Result<Vec<(usize, T)>, CliError> {
    let Some(path) = &args.resume else {
        return Ok(items);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => {
            return Err(CliError::Read {
                input: path.display().to_string(),
                error,
            });
        }
    };
    let done = answered_indices(&text).map_err(|line| {
        CliError::Usage(format!(
            "{}:{line}:1: not a bench --json record with an index",
            path.display()
        ))
    })?;
    Ok(items
        .into_iter()
        .filter(|(index, _)| !done.contains(index))
        .collect())
}

fn kind_name(spec: &SpecArgs) -> String {
    format!("{:?}", spec.kind).to_lowercase()
}

/// The multi-box table: levels solved `--jobs` at a time, printed in input order.
fn run_multi(args: &BenchArgs) -> Result<ExitCode, CliError> {
    if args.files.is_empty() {
        return Err(CliError::Usage("bench --multi needs level files".into()));
    }
    let options = args.search.options(args.jobs as usize)?;
    let levels = unanswered(
        args,
        select(
            args.shard,
            parse_levels_of(&args.files, |bytes| parse_xsb(bytes, args.spec.max_cells))?,
        ),
    )?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    if !args.json {
        writeln!(out, "{}", multi_header())?;
        out.flush()?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs as usize)
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start {} jobs: {e}", args.jobs)))?;
    let (send, receive) = mpsc::channel::<(usize, Slot)>();
    let mut slots: Vec<Option<Slot>> = vec![None; levels.len()];
    let progress = Progress::new(levels.len());
    let (mut rows, mut failed, mut next) = (Vec::with_capacity(levels.len()), 0, 0);
    let mut done = 0;
    let mut result = Ok(());
    interrupt::watch();
    pool.in_place_scope(|scope| {
        for (i, (_, level)) in levels.iter().enumerate() {
            let send = send.clone();
            let options = &options;
            scope.spawn(move |_| {
                let _ = send.send((i, solve_slot(level, options)));
            });
        }
        drop(send);
        for (i, slot) in receive.iter() {
            done += 1;
            slots[i] = Some(slot);
            progress.update(done, &levels[i].1.name);
            // Print the finished rows that follow the ones printed, in input order.
            while let Some(Some(slot)) = slots.get(next).filter(|_| result.is_ok()) {
                let line = match slot {
                    Slot::Cut => break,
                    Slot::Failed(why) => {
                        failed += 1;
                        Err(failure(&levels[next].1.name, why))
                    }
                    Slot::Done(row) if args.json => Ok(with_index(multi_json(row), levels[next].0)),
                    Slot::Done(row) => Ok(multi_line(row)),
                };
                result = match &line {
                    Ok(line) => progress.print(&mut out, |out| writeln!(out, "{line}")),
                    Err(error) => {
                        progress.print(&mut std::io::stderr(), |e| writeln!(e, "{error}"))
                    }
                }
                .and_then(|_| out.flush());
                if let Slot::Done(row) = slot {
                    rows.push(row.clone());
                }
                next += 1;
            }
        }
    });
    result?;
    progress.finish();
    let summary = summarize_multi(&rows);
    if args.json {
        writeln!(
            out,
            "{}",
            shard_summary(multi_summary_json(&summary), args.shard)
        )?;
    } else {
        writeln!(
            out,
            "{}{}",
            multi_summary_line(&summary),
            shard_words(args.shard)
        )?;
    }
    out.flush()?;
    if next < levels.len() {
        interrupt::note(rows.len(), levels.len());
        return Ok(Status::Interrupted.into());
    }
    if failed > 0 {
        return Ok(Status::Failed.into());
    }
    Ok(Status::limited_if(summary.limited > 0))
}

/// A level's place in the output, once its solve ended.
#[derive(Clone)]
enum Slot {
    Done(MultiRow),
    /// Ctrl-C cut it short (or came before it started).
    Cut,
    /// Its solve panicked: the message.
    Failed(String),
}

fn solve_slot(level: &sokoban::level::Level, options: &sokoban::multi::MultiOptions) -> Slot {
    if interrupt::pressed() {
        return Slot::Cut;
    }
    match guarded(&level.name, || measure_multi(level, options)) {
        Ok(row) if interrupt::is_final(&row.outcome) => Slot::Done(row),
        Ok(_) => Slot::Cut,
        Err(why) => Slot::Failed(why),
    }
}

/// Every item, or with `--shard` that slice, each with its index in the whole input.
pub fn select<T>(shard: Option<Shard>, items: Vec<T>) -> Vec<(usize, T)> {
    shard.unwrap_or(Shard { k: 0, n: 1 }).select(items)
}

/// A JSON record with its index in the whole input, when sharded.
pub fn indexed(record: String, shard: Option<Shard>, index: usize) -> String {
    with_field(record, shard.map(|_| ("index", json!(index))))
}

/// A bench record with its index in the whole input, which `--resume` and
/// `--merge` read back.
fn with_index(record: String, index: usize) -> String {
    with_field(record, Some(("index", json!(index))))
}

/// The summary record naming its shard, when sharded.
fn shard_summary(record: String, shard: Option<Shard>) -> String {
    with_field(record, shard.map(|s| ("shard", json!(s.to_string()))))
}

fn with_field(record: String, field: Option<(&str, serde_json::Value)>) -> String {
    let Some((key, value)) = field else {
        return record;
    };
    match serde_json::from_str::<serde_json::Value>(&record) {
        Ok(serde_json::Value::Object(mut map)) => {
            map.insert(key.into(), value);
            serde_json::Value::Object(map).to_string()
        }
        _ => record,
    }
}

fn shard_words(shard: Option<Shard>) -> String {
    shard.map_or(String::new(), |s| format!(" (shard {s})"))
}

/// `bench --merge FILES`: the combined summary of earlier JSON lines.
fn run_merge(args: &BenchArgs) -> Result<ExitCode, CliError> {
    if args.files.is_empty() {
        return Err(CliError::Usage(
            "bench --merge needs the JSON-lines files to merge".into(),
        ));
    }
    let inputs: Vec<(String, String)> = read_inputs(&args.files)?
        .into_iter()
        .map(|i| (i.source, String::from_utf8_lossy(&i.bytes).into_owned()))
        .collect();
    let merged = merge(&inputs).map_err(|e| {
        CliError::Usage(if e.line == 0 {
            format!("{}: {}", e.source, e.error)
        } else {
            format!("{}:{}:1: {}", e.source, e.line, e.error)
        })
    })?;
    let line = match (&merged, args.json) {
        (Merged::Single(s), false) => summary_line(s),
        (Merged::Single(s), true) => summary_json(s),
        (Merged::Multi(s), false) => multi_summary_line(s),
        (Merged::Multi(s), true) => multi_summary_json(s),
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(match merged {
        Merged::Multi(s) => Status::limited_if(s.limited > 0),
        Merged::Single(_) => ExitCode::SUCCESS,
    })
}
