//! `sokoban optimize`: shorter solutions of levels, from given ones or from
//! the `--fast` answer, printed in the solver's shapes.

use super::collect::{Collection, Driver, Named, Timed, timed};
use super::input::read_input;
use super::interrupt;
use super::progress::Progress;
use super::{CliError, FormatArg, LimitArgs, MethodArg, NotationArg, SearchArgs};
use clap::{Args, ValueEnum};
use serde::Serialize;
use sokoban::level::{Entry, Format, Level, detect, insert_after_lines, parse_entries_as};
use sokoban::moves::{Notation, Outcome, Solution, format_moves, parse_moves};
use sokoban::multi::{Limits, MultiOptions, MultiReport, Progress as SearchProgress, solve};
use sokoban::optimize::{Metric, OptimizeOptions, OptimizeReport, optimize, read_solution};
use sokoban::output::{LevelRecord, answer_line, write_json_line};
use sokoban::words::count;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
#[command(mut_arg("time_limit", |a| a.help(
    "Seconds per level, the `--fast` solve of a level without a solution included [default: none: the search stops when its widest round gains nothing]"
)))]
#[command(mut_arg("threads", |a| a.help(
    "Threads per level: with two or more, push-optimal A* of --metric pushes runs beside the rounds for the whole time (with one, first, for a quarter), and the --fast solve of a level without a solution runs its searches side by side [default: the cores]"
)))]
pub struct OptimizeArgs {
    /// The levels: an XSB level or collection, or any format the solver reads (`-` for stdin).
    levels: PathBuf,
    /// The solutions to start from: a SOK collection of the same levels (its `Solution`
    /// sections), an answer file in the solver's output shape (text or `--json`), or a move
    /// string for one level; `-` for stdin. When absent: the levels file's own `Solution`
    /// sections; a level without one starts from the `--fast` answer.
    solutions: Option<String>,
    /// What to minimize: moves (then pushes) or pushes (then moves).
    #[arg(long, value_enum, default_value_t = MetricArg::Moves)]
    metric: MetricArg,
    #[command(flatten)]
    limits: LimitArgs,
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
    #[command(flatten)]
    cells: super::limit::CellsArgs,
    #[command(flatten)]
    pub(super) input: super::input::InputArgs,
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

/// A level and the solutions to start from.
struct Task {
    level: Level,
    start: Start,
    candidates: Vec<String>,
}

impl Named for Task {
    fn name(&self) -> &str {
        &self.level.name
    }
}

/// One level's result.
struct Answer {
    /// The optimized solution, or what the `--fast` solve said when there
    /// was no solution to start from.
    outcome: Outcome,
    /// Where the start came from, and the optimizing, when there was a start.
    optimized: Option<(Start, OptimizeReport)>,
}

pub fn run(args: &OptimizeArgs) -> Result<ExitCode, CliError> {
    if args.levels.as_os_str() == "-" && args.solutions.as_deref() == Some("-") {
        return Err(CliError::Usage(
            "standard input is read once: give the levels or the solutions as a file".into(),
        ));
    }
    let mut input = read_levels(args)?;
    let tasks = tasks(args, &mut input)?;
    let (fast, options) = (fast_options(args)?, optimize_options(args)?);
    let solve = |task: &Task, progress: &Progress| {
        let search = &mut |p: &_| progress.search(&task.level.name, p);
        timed(|| answer(task, &fast, &options, search))
    };
    let printing = Printing {
        args,
        one: tasks.len() == 1,
        input,
        blocks: Vec::new(),
    };
    Driver::levels(tasks.len()).run(tasks, solve, printing)
}

/// Each level (moved out of `input`) with its index and the solutions to
/// start from: those given on the command line, else its stored ones.
fn tasks(args: &OptimizeArgs, input: &mut Levels) -> Result<Vec<(usize, Task)>, CliError> {
    let mut given = match &args.solutions {
        Some(arg) => Some(super::starts::read(arg, &input.levels)?),
        None => None,
    };
    let levels = std::mem::take(&mut input.levels);
    let mut tasks = Vec::new();
    for (k, level) in levels.into_iter().enumerate() {
        let (start, candidates) = match &mut given {
            Some(given) => (Start::Given, std::mem::take(&mut given[k])),
            None => (Start::Stored, stored_of(input, k)),
        };
        let task = Task {
            level,
            start,
            candidates,
        };
        tasks.push((k, task));
    }
    Ok(tasks)
}

/// Each answer printed as the solver prints it, and the `Solution` sections
/// `--save-solutions` writes at the end.
struct Printing<'a> {
    args: &'a OptimizeArgs,
    /// The only level of the input: no header line.
    one: bool,
    input: Levels,
    blocks: Vec<(usize, String)>,
}

impl Collection for Printing<'_> {
    type Item = Task;
    type Answer = Timed<Answer>;

    fn outcome(timed: &Timed<Answer>) -> &Outcome {
        &timed.report.outcome
    }

    /// Ctrl-C ends the optimizing with the best found so far: printed, the
    /// run stops after it.
    fn cut_short(_: &Timed<Answer>) -> bool {
        interrupt::pressed()
    }

    fn print(
        &mut self,
        out: &mut dyn Write,
        k: usize,
        task: Task,
        timed: Timed<Answer>,
    ) -> io::Result<()> {
        let answer = &timed.report;
        if let (Some(entries), Some((_, report))) = (&self.input.entries, &answer.optimized) {
            let block = solution_block(self.args, &entries[k], &report.solution);
            self.blocks.extend(block);
        }
        print(out, self.args, &task.level, answer, timed.elapsed, self.one)
    }

    fn finish(self, _: &mut dyn Write) -> Result<(), CliError> {
        match &self.args.save_solutions {
            Some(path) => save(path, &self.input, self.blocks),
            None => Ok(()),
        }
    }
}

/// Reads and parses the levels file (SOK sections too when it is letters).
fn read_levels(args: &OptimizeArgs) -> Result<Levels, CliError> {
    let input = read_input(&args.levels)?;
    let format = Format::from(args.format);
    let entries =
        parse_entries_as(&input.bytes, format, args.cells.max_cells).map_err(|error| {
            CliError::Parse {
                input: input.source.clone(),
                error,
            }
        })?;
    // Parsing checked the text is UTF-8.
    let text = String::from_utf8_lossy(&input.bytes).into_owned();
    let letters = detect(&text, format).alphabet().is_some();
    if args.save_solutions.is_some() && !letters {
        return Err(CliError::Usage(
            "--save-solutions needs levels in a letter format".into(),
        ));
    }
    Ok(Levels {
        levels: entries.iter().map(|e| e.level.clone()).collect(),
        entries: letters.then_some(entries),
        text,
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

/// Optimizes one level from the best of its candidates, or from the
/// `--fast` answer when none of them solves it.
fn answer(
    task: &Task,
    fast: &MultiOptions,
    options: &OptimizeOptions,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Answer {
    let started = Instant::now();
    let level = &task.level;
    let metric = options.metric;
    let mut best: Option<Solution> = None;
    for text in &task.candidates {
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
            Err(why) => note!("warning: {}: {why}", level.name),
        }
    }
    let (start, solution) = match best {
        Some(s) => (task.start, s),
        None => {
            let report = solve(level, fast, progress);
            match report.outcome {
                Outcome::Solved(s) => (Start::Fast, s),
                outcome => {
                    return Answer {
                        outcome,
                        optimized: None,
                    };
                }
            }
        }
    };
    let mut options = options.clone();
    // The time the `--fast` solve left.
    if let (Start::Fast, Some(t)) = (start, options.limits.time) {
        let left = t.saturating_sub(started.elapsed());
        options.limits.time = Some(left.max(Duration::from_millis(1)));
    }
    let report = optimize(level, &solution.moves, &options, progress)
        .expect("a solution read by read_solution is optimized");
    Answer {
        outcome: Outcome::Solved(report.solution.clone()),
        optimized: Some((start, report)),
    }
}

/// The search arguments of the `--fast` solve of a level with no solution.
fn search_args(args: &OptimizeArgs) -> SearchArgs {
    SearchArgs {
        method: MethodArg::Astar,
        fast: true,
        limits: args.limits.clone(),
    }
}

fn fast_options(args: &OptimizeArgs) -> Result<MultiOptions, CliError> {
    search_args(args).options(1)
}

fn optimize_options(args: &OptimizeArgs) -> Result<OptimizeOptions, CliError> {
    let fast = fast_options(args)?;
    Ok(OptimizeOptions {
        metric: args.metric.into(),
        limits: fast.limits,
        threads: fast.threads,
    })
}

/// Prints one level's result as the solver does (text or JSON), and the
/// figures with `--stats`.
fn print(
    out: &mut dyn Write,
    args: &OptimizeArgs,
    level: &Level,
    answer: &Answer,
    elapsed: Duration,
    one: bool,
) -> io::Result<()> {
    let notation = Notation::from(args.notation);
    let outcome = &answer.outcome;
    if args.stats {
        print_stats(level, answer, elapsed);
    }
    if args.json {
        let optimized = answer.optimized.as_ref();
        let states = optimized.map_or(0, |(_, report)| report.stats.generated);
        let record = OptimizedRecord {
            base: LevelRecord::new(&level.name, outcome, notation, states, elapsed),
            extra: optimized.and_then(|(start, report)| extras(args, *start, report)),
        };
        return write_json_line(out, &record);
    }
    if !one {
        writeln!(out, "{}", level.name)?;
    }
    writeln!(out, "{}", answer_line(outcome, notation))?;
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
    let Some((start, report)) = &answer.optimized else {
        return;
    };
    let (a, b) = (&report.input, &report.solution);
    let stats = &report.stats;
    let stopped = report
        .limit
        .as_ref()
        .map_or(String::new(), |l| format!(", cut short ({l})"));
    note!(
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
        "Solution (sokoban optimize, {metric}, {}, {}):",
        count(s.pushes, "push", "pushes"),
        count(s.pushes + s.walks, "move", "moves")
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
        &OptimizeOptions {
            metric,
            limits,
            threads: options.threads,
        },
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
