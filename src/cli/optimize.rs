//! `sokoban optimize`: shorter solutions of levels, from given ones or from
//! the `--fast` answer, printed in the solver's shapes.

use super::interrupt;
use super::lane::{failure, guarded};
use super::progress::Progress;
use super::{
    CliError, FormatArg, MethodArg, NotationArg, SearchArgs, Status, read_file, read_inputs,
};
use clap::{Args, ValueEnum};
use serde::Serialize;
use sokoban::level::{
    Alphabet, DEFAULT_MAX_CELLS, Entry, Format, Level, insert_after_lines, parse_entries,
    parse_levels,
};
use sokoban::moves::{Notation, Outcome, Solution, format_moves, parse_moves};
use sokoban::multi::{Limits, MultiOptions, MultiReport, Progress as SearchProgress, solve};
use sokoban::optimize::{Metric, OptimizeOptions, OptimizeReport, optimize, read_solution};
use sokoban::output::{LevelRecord, answer_line, write_json_line};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct OptimizeArgs {
    /// The levels: an XSB level or collection (`-` for stdin).
    levels: PathBuf,
    /// The solutions to start from: a SOK collection of the same levels (its `Solution`
    /// sections), an answer file in the solver's output shape (text or `--json`), or a move
    /// string for one level. When absent: the levels file's own `Solution` sections; a level
    /// without one starts from the `--fast` answer.
    solutions: Option<String>,
    /// What to minimize: moves (then pushes) or pushes (then moves).
    #[arg(long, value_enum, default_value_t = MetricArg::Moves)]
    metric: MetricArg,
    /// Seconds per level, the `--fast` solve of a level without a solution included.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Give up growing the search after generating this many nodes per level.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Memory of the search, in MB [default: a quarter of physical memory].
    #[arg(long, value_name = "MB")]
    max_memory: Option<u64>,
    /// Threads of the `--fast` solve [default: the cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// How moves are written.
    #[arg(long, value_enum, default_value_t = NotationArg::Nsew)]
    notation: NotationArg,
    /// Print one JSON object per level instead of text.
    #[arg(long)]
    json: bool,
    /// Print the figures before and after, and the search's counters, on stderr.
    #[arg(long)]
    stats: bool,
    /// Write the levels file back to OUT (SOK) with each solution found added as a
    /// `Solution` section under its level.
    #[arg(long, value_name = "OUT")]
    save_solutions: Option<PathBuf>,
    /// Input format of the levels.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// Largest grid accepted, in cells (rows x columns).
    #[arg(long, default_value_t = DEFAULT_MAX_CELLS, value_name = "N")]
    max_cells: u64,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MetricArg {
    /// fewest moves, then fewest pushes
    Moves,
    /// fewest pushes, then fewest moves
    Pushes,
}

impl From<MetricArg> for Metric {
    fn from(m: MetricArg) -> Metric {
        match m {
            MetricArg::Moves => Metric::Moves,
            MetricArg::Pushes => Metric::Pushes,
        }
    }
}

/// The levels, their text and their stored solutions.
struct Levels {
    text: String,
    /// Parsed as a letters collection (SOK sections read), when it is one.
    entries: Option<Vec<Entry>>,
    levels: Vec<Level>,
}

/// Where a level's starting solution came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    Given,
    Stored,
    Fast,
}

impl Start {
    fn word(self) -> &'static str {
        match self {
            Start::Given => "given",
            Start::Stored => "stored",
            Start::Fast => "fast",
        }
    }
}

/// One level's result.
enum Answer {
    /// No solution to start from: what the `--fast` solve said.
    Unstarted(Outcome),
    Optimized(Start, OptimizeReport),
}

pub fn run(args: &OptimizeArgs) -> Result<ExitCode, CliError> {
    let input = read_levels(args)?;
    let given = match &args.solutions {
        Some(text) => Some(read_given(text, &input.levels)?),
        None => None,
    };
    let levels = &input.levels;
    let one = levels.len() == 1;
    let progress = if one {
        Progress::spinner()
    } else {
        Progress::new(levels.len())
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut blocks = Vec::new();
    let (mut answered, mut failed, mut limited) = (0, 0, false);
    interrupt::watch();
    for (k, level) in levels.iter().enumerate() {
        progress.update(k, &level.name);
        let candidates = match &given {
            Some(given) => (Start::Given, given[k].clone()),
            None => (Start::Stored, stored_of(&input, k)),
        };
        let started = Instant::now();
        let done = guarded(&level.name, || {
            answer(args, level, candidates, &mut |p| {
                progress.search(&level.name, p)
            })
        });
        let answer = match done {
            Ok(answer) => answer?,
            Err(why) => {
                failed += 1;
                let error = failure(&level.name, &why);
                progress.print(&mut std::io::stderr(), |e| writeln!(e, "{error}"))?;
                continue;
            }
        };
        if let Answer::Unstarted(outcome) = &answer {
            if !interrupt::is_final(outcome) {
                break;
            }
            limited |= matches!(outcome, Outcome::Limit(_));
        }
        answered += 1;
        if let (Some(entries), Answer::Optimized(_, report)) = (&input.entries, &answer) {
            blocks.push(solution_block(args, &entries[k], &report.solution));
        }
        if k + 1 == levels.len() {
            progress.finish();
        }
        let elapsed = started.elapsed();
        progress.print(&mut out, |out| {
            print(out, args, level, &answer, elapsed, one)
        })?;
        out.flush()?;
        if interrupt::pressed() {
            break;
        }
    }
    progress.finish();
    if let Some(path) = &args.save_solutions {
        save(path, &input, blocks.into_iter().flatten().collect())?;
    }
    // Ctrl-C during the last level still printed what it had found.
    if answered + failed < levels.len() || interrupt::pressed() {
        interrupt::note(answered, levels.len());
        return Ok(Status::Interrupted.into());
    }
    if failed > 0 {
        return Ok(Status::Failed.into());
    }
    Ok(Status::limited_if(limited))
}

/// Reads and parses the levels file (SOK sections too when it is letters).
fn read_levels(args: &OptimizeArgs) -> Result<Levels, CliError> {
    let input = read_inputs(std::slice::from_ref(&args.levels))?.remove(0);
    let parse_error = |error| CliError::Parse {
        input: input.source.clone(),
        error,
    };
    let format = Format::from(args.format);
    let letters = match format {
        Format::Auto => Some(Alphabet::Xsb),
        f => f.alphabet(),
    };
    let entries = letters.and_then(|a| parse_entries(&input.bytes, a, args.max_cells).ok());
    let levels = match &entries {
        Some(entries) => entries.iter().map(|e| e.level.clone()).collect(),
        None => parse_levels(&input.bytes, format, args.max_cells).map_err(parse_error)?,
    };
    if args.save_solutions.is_some() && entries.is_none() {
        return Err(CliError::Usage(
            "--save-solutions needs levels in a letter format".into(),
        ));
    }
    Ok(Levels {
        text: String::from_utf8_lossy(&input.bytes).into_owned(),
        entries,
        levels,
    })
}

/// The move texts stored under level `k`.
fn stored_of(input: &Levels, k: usize) -> Vec<String> {
    input.entries.as_ref().map_or(Vec::new(), |entries| {
        entries[k]
            .solutions
            .iter()
            .map(|s| s.moves.clone())
            .collect()
    })
}

/// Optimizes one level from the best of `candidates`, or from the `--fast`
/// answer when none of them solves it.
fn answer(
    args: &OptimizeArgs,
    level: &Level,
    (start, candidates): (Start, Vec<String>),
    progress: &mut dyn FnMut(&SearchProgress),
) -> Result<Answer, CliError> {
    let started = Instant::now();
    let options = optimize_options(args)?;
    let metric = options.metric;
    let mut best: Option<Solution> = None;
    for text in &candidates {
        let read = parse_moves(text)
            .map_err(|e| e.to_string())
            .and_then(|moves| read_solution(level, &moves).map_err(|e| e.to_string()));
        match read {
            Ok(s)
                if best
                    .as_ref()
                    .is_none_or(|b| metric.cost(&s) < metric.cost(b)) =>
            {
                best = Some(s)
            }
            Ok(_) => {}
            Err(why) => eprintln!("warning: {}: {why}", level.name),
        }
    }
    let (start, solution) = match best {
        Some(s) => (start, s),
        None => {
            let report = solve(level, &fast_options(args)?, progress);
            match report.outcome {
                Outcome::Solved(s) => (Start::Fast, s),
                other => return Ok(Answer::Unstarted(other)),
            }
        }
    };
    // The time the `--fast` solve left.
    let options = match (start, options.limits.time) {
        (Start::Fast, Some(t)) => OptimizeOptions {
            limits: Limits {
                time: Some(
                    t.saturating_sub(started.elapsed())
                        .max(Duration::from_millis(1)),
                ),
                ..options.limits
            },
            ..options
        },
        _ => options,
    };
    let report = optimize(level, &solution.moves, &options, progress)
        .expect("a solution read by read_solution is optimized");
    Ok(Answer::Optimized(start, report))
}

/// The search arguments of the `--fast` solve of a level with no solution.
fn search_args(args: &OptimizeArgs) -> SearchArgs {
    SearchArgs {
        method: MethodArg::Astar,
        fast: true,
        time_limit: args.time_limit,
        max_nodes: args.max_nodes,
        max_memory: args.max_memory,
        threads: args.threads,
    }
}

fn fast_options(args: &OptimizeArgs) -> Result<MultiOptions, CliError> {
    search_args(args).options(1)
}

fn optimize_options(args: &OptimizeArgs) -> Result<OptimizeOptions, CliError> {
    Ok(OptimizeOptions {
        metric: args.metric.into(),
        limits: fast_options(args)?.limits,
    })
}

/// The solutions given on the command line, per level.
fn read_given(text: &str, levels: &[Level]) -> Result<Vec<Vec<String>>, CliError> {
    let path = Path::new(text);
    if !path.is_file() {
        if levels.len() != 1 {
            return Err(CliError::Usage(format!(
                "a move string answers one level, and the levels file holds {}",
                levels.len()
            )));
        }
        return Ok(vec![vec![text.to_string()]]);
    }
    let bytes = read_file(path)?;
    let content = String::from_utf8_lossy(&bytes);
    if let Ok(entries) = parse_entries(&bytes, Alphabet::Xsb, DEFAULT_MAX_CELLS)
        && entries.iter().any(|e| !e.solutions.is_empty())
    {
        let stored = |e: &Entry| e.solutions.iter().map(|s| s.moves.clone()).collect();
        return Ok(by_name(
            levels,
            entries.iter().map(|e| (e.level.name.clone(), stored(e))),
        ));
    }
    let answers = if content.trim_start().starts_with('{') {
        json_answers(&content, path)?
    } else {
        text_answers(&content, levels.len())
    };
    Ok(by_name(levels, answers.into_iter()))
}

/// Answers matched to levels by name when every name is found, else in order.
fn by_name(
    levels: &[Level],
    answers: impl Iterator<Item = (String, Vec<String>)>,
) -> Vec<Vec<String>> {
    let answers: Vec<(String, Vec<String>)> = answers.collect();
    let named = |level: &Level| answers.iter().find(|(n, _)| *n == level.name);
    if levels.iter().all(|l| named(l).is_some()) {
        return levels.iter().map(|l| named(l).unwrap().1.clone()).collect();
    }
    let mut answers = answers.into_iter().map(|(_, a)| a);
    levels
        .iter()
        .map(|_| answers.next().unwrap_or_default())
        .collect()
}

/// `--json` answer records: their names and moves.
fn json_answers(content: &str, path: &Path) -> Result<Vec<(String, Vec<String>)>, CliError> {
    content
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).map_err(|e| {
                CliError::Usage(format!("{}: not a JSON answer record: {e}", path.display()))
            })?;
            let name = record["name"].as_str().unwrap_or_default().to_string();
            let moves = record["moves"].as_str().map(str::to_string);
            Ok((name, moves.into_iter().collect()))
        })
        .collect()
}

/// Text answers: one line for one level, else blocks of a name line and
/// an answer line. Lines that are no moves (`Impossible.`) answer nothing.
fn text_answers(content: &str, levels: usize) -> Vec<(String, Vec<String>)> {
    let moves_of = |line: &str| {
        parse_moves(line)
            .is_ok()
            .then(|| line.trim().to_string())
            .into_iter()
            .collect::<Vec<_>>()
    };
    let lines: Vec<&str> = content.lines().filter(|l| !l.trim().is_empty()).collect();
    if levels == 1 && lines.len() == 1 {
        return vec![(String::new(), moves_of(lines[0]))];
    }
    lines
        .chunks(2)
        .map(|pair| {
            let name = pair[0].trim().to_string();
            (name, pair.get(1).map_or(Vec::new(), |l| moves_of(l)))
        })
        .collect()
}

/// Prints one level's result as the solver does (text or JSON), and the
/// figures with `--stats`.
fn print(
    out: &mut impl Write,
    args: &OptimizeArgs,
    level: &Level,
    answer: &Answer,
    elapsed: Duration,
    one: bool,
) -> std::io::Result<()> {
    let notation = Notation::from(args.notation);
    let (outcome, extra) = match answer {
        Answer::Unstarted(outcome) => (outcome.clone(), None),
        Answer::Optimized(start, report) => (
            Outcome::Solved(report.solution.clone()),
            extras(args, *start, report),
        ),
    };
    if args.stats {
        print_stats(level, answer, elapsed);
    }
    if args.json {
        let states = match answer {
            Answer::Optimized(_, report) => report.stats.generated,
            Answer::Unstarted(_) => 0,
        };
        let record = OptimizedRecord {
            base: LevelRecord::new(&level.name, &outcome, notation, states, elapsed),
            extra,
        };
        return write_json_line(out, &record);
    }
    if !one {
        writeln!(out, "{}", level.name)?;
    }
    writeln!(out, "{}", answer_line(&outcome, notation))?;
    if !one {
        writeln!(out)?;
    }
    Ok(())
}

/// One level's JSON record: the solver's fields, then what optimizing adds.
#[derive(Serialize)]
struct OptimizedRecord {
    #[serde(flatten)]
    base: LevelRecord,
    #[serde(flatten)]
    extra: Option<Extra>,
}

/// The JSON fields beyond the solver's: the metric, the start and its
/// figures, and the limit that ended the search early.
#[derive(Serialize)]
struct Extra {
    metric: String,
    start: &'static str,
    input_pushes: u64,
    input_walks: u64,
    rounds: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

fn extras(args: &OptimizeArgs, start: Start, report: &OptimizeReport) -> Option<Extra> {
    let input = &report.input;
    Some(Extra {
        metric: format!("{:?}", args.metric).to_lowercase(),
        start: start.word(),
        input_pushes: input.pushes,
        input_walks: input.walks,
        rounds: report.stats.rounds as u64,
        stopped: report.limit.as_ref().map(ToString::to_string),
    })
}

/// `--stats`: before and after, and the counters, on stderr.
fn print_stats(level: &Level, answer: &Answer, elapsed: Duration) {
    let Answer::Optimized(start, report) = answer else {
        return;
    };
    let (a, b) = (&report.input, &report.solution);
    let stats = &report.stats;
    let stopped = report
        .limit
        .as_ref()
        .map_or(String::new(), |l| format!(", cut short ({l})"));
    eprintln!(
        "{}: {} {} moves {} pushes -> {} moves {} pushes, rounds {} ({} better), expanded {}, \
         generated {}, memory {} bytes, {:.3} s{stopped}",
        level.name,
        start.word(),
        a.pushes + a.walks,
        a.pushes,
        b.pushes + b.walks,
        b.pushes,
        stats.rounds,
        stats.improvements,
        stats.expanded,
        stats.generated,
        stats.memory_bytes,
        elapsed.as_secs_f64()
    );
}

/// The `Solution` section for level `entry`, unless it already holds these moves.
fn solution_block(args: &OptimizeArgs, entry: &Entry, s: &Solution) -> Option<(usize, String)> {
    let moves = format_moves(&s.moves, Notation::Lurd);
    let known = entry.solutions.iter().any(|stored| {
        parse_moves(&stored.moves).is_ok_and(|m| format_moves(&m, Notation::Lurd) == moves)
    });
    let metric = format!("{:?}", args.metric).to_lowercase();
    let header = format!(
        "Solution (sokoban optimize, {metric}, {} pushes, {} moves):",
        s.pushes,
        s.pushes + s.walks
    );
    (!known).then(|| (entry.end_line, format!("{header}\n{moves}\n")))
}

/// `--save-solutions`: the levels file with the new sections added.
fn save(out: &Path, input: &Levels, blocks: Vec<(usize, String)>) -> Result<(), CliError> {
    let text = insert_after_lines(&input.text, &blocks);
    std::fs::write(out, text).map_err(|error| CliError::Write {
        output: out.display().to_string(),
        error,
    })
}

/// `--multi --optimize`: a solve's answer made shorter with the time it left
/// (the push-optimal mark kept only while the push count stays).
pub fn improve(
    metric: Option<MetricArg>,
    level: &Level,
    report: MultiReport,
    options: &MultiOptions,
    started: Instant,
    progress: &mut dyn FnMut(&SearchProgress),
) -> MultiReport {
    let (Some(metric), Some(found)) = (metric, report.outcome.solution()) else {
        return report;
    };
    let time = options
        .limits
        .time
        .map(|t| t.saturating_sub(started.elapsed()));
    if interrupt::pressed() || time == Some(Duration::ZERO) {
        return report;
    }
    let limits = Limits {
        time,
        ..options.limits.clone()
    };
    let metric = metric.into();
    let Ok(better) = optimize(
        level,
        &found.moves,
        &OptimizeOptions { metric, limits },
        progress,
    ) else {
        return report;
    };
    let mut stats = report.stats;
    stats.expanded += better.stats.expanded;
    stats.generated += better.stats.generated;
    stats.memory_bytes = stats.memory_bytes.max(better.stats.memory_bytes);
    MultiReport {
        optimal: report.optimal && better.solution.pushes == found.pushes,
        outcome: Outcome::Solved(better.solution),
        stats,
    }
}
