//! Multi-box mode: parse every level first, then solve and print each.

use super::TraceArg;
use super::interrupt;
use super::lane::{failure, guarded};
use super::progress::Progress;
use super::{CliError, SolveArgs, Status, parse_levels_of, read_inputs};
use serde_json::json;
use sokoban::level::{
    Alphabet, Entry, Format, Level, insert_after_lines, parse_entries, parse_levels,
};
use sokoban::moves::{Notation, Outcome, Solution, format_moves, parse_moves};
use sokoban::multi::{MultiReport, solve};
use sokoban::output::{TraceBoard, answer_line, json_record, trace};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let options = args.search.options(1)?;
    let (levels, mut saving) = match &args.save_solutions {
        Some(out) => {
            let saving = Saving::read(args, out)?;
            (
                saving.entries.iter().map(|e| e.level.clone()).collect(),
                Some(saving),
            )
        }
        None => (
            parse_levels_of(&args.files, |bytes| {
                parse_levels(bytes, args.format.into(), args.max_cells)
            })?,
            None,
        ),
    };
    let one = levels.len() == 1;
    let levels = super::bench::select(args.shard, levels);
    let progress = if levels.len() == 1 {
        Progress::spinner()
    } else {
        Progress::new(levels.len())
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut limited = false;
    let (mut answered, mut failed) = (0, 0);
    interrupt::watch();
    for (k, (index, level)) in levels.iter().enumerate() {
        progress.update(k, &level.name);
        let started = Instant::now();
        let solved = guarded(&level.name, || {
            let report = solve(level, &options, &mut |p| progress.search(&level.name, p));
            let search = &mut |p: &_| progress.search(&level.name, p);
            super::optimize::improve(args.optimize, level, report, &options, started, search)
        });
        let elapsed = started.elapsed();
        let report = match solved {
            Ok(report) => report,
            Err(why) => {
                failed += 1;
                let error = failure(&level.name, &why);
                progress.print(&mut std::io::stderr(), |e| writeln!(e, "{error}"))?;
                continue;
            }
        };
        if !interrupt::is_final(&report.outcome) {
            break;
        }
        answered += 1;
        limited |= matches!(report.outcome, Outcome::Limit(_));
        if let (Some(saving), Some(s)) = (&mut saving, report.outcome.solution()) {
            saving.add(*index, s, report.optimal);
        }
        let answer = Answer {
            level,
            index: *index,
            report: &report,
            elapsed,
            one,
        };
        if k + 1 == levels.len() {
            progress.finish();
        }
        // The answer goes to stdout, often the same terminal as the bar.
        progress.print(&mut out, |out| answer.print(out, args))?;
        out.flush()?;
    }
    progress.finish();
    if let Some(saving) = saving {
        saving.write()?;
    }
    if answered + failed < levels.len() {
        interrupt::note(answered, levels.len());
        return Ok(Status::Interrupted.into());
    }
    if failed > 0 {
        return Ok(Status::Failed.into());
    }
    Ok(Status::limited_if(limited))
}

/// `--save-solutions`: the input collection, kept as text, and the solution
/// sections to add under its levels.
struct Saving {
    out: PathBuf,
    text: String,
    entries: Vec<Entry>,
    blocks: Vec<(usize, String)>,
}

impl Saving {
    fn read(args: &SolveArgs, out: &Path) -> Result<Saving, CliError> {
        let usage = |what: &str| CliError::Usage(format!("--save-solutions {what}"));
        if args.files.len() > 1 {
            return Err(usage("writes one collection: give one input file"));
        }
        let alphabet = match Format::from(args.format) {
            Format::Auto => Alphabet::Xsb,
            f => f
                .alphabet()
                .ok_or_else(|| usage("needs levels in a letter format"))?,
        };
        let input = read_inputs(&args.files)?.remove(0);
        let parse_error = |error| CliError::Parse {
            input: input.source.clone(),
            error,
        };
        let entries = parse_entries(&input.bytes, alphabet, args.max_cells).map_err(parse_error)?;
        // Parsing checked the text is UTF-8.
        let text = String::from_utf8_lossy(&input.bytes).into_owned();
        Ok(Saving {
            out: out.to_path_buf(),
            text,
            entries,
            blocks: Vec::new(),
        })
    }

    /// Adds a solution of level `k`, in LURD as SOK files write them, unless
    /// the level already holds the same moves.
    fn add(&mut self, k: usize, solution: &Solution, optimal: bool) {
        let entry = &self.entries[k];
        let moves = format_moves(&solution.moves, Notation::Lurd);
        let known = entry.solutions.iter().any(|s| {
            parse_moves(&s.moves).is_ok_and(|m| format_moves(&m, Notation::Lurd) == moves)
        });
        if known {
            return;
        }
        let header = format!(
            "Solution (sokoban{}, {} pushes, {} moves):",
            if optimal { ", push-optimal" } else { "" },
            solution.pushes,
            solution.pushes + solution.walks
        );
        self.blocks
            .push((entry.end_line, format!("{header}\n{moves}\n")));
    }

    fn write(self) -> Result<(), CliError> {
        let text = insert_after_lines(&self.text, &self.blocks);
        std::fs::write(&self.out, text).map_err(|error| CliError::Write {
            output: self.out.display().to_string(),
            error,
        })
    }
}

/// One level's result, as printed.
struct Answer<'a> {
    level: &'a Level,
    /// In the whole input (differs from the position under `--shard`).
    index: usize,
    report: &'a MultiReport,
    elapsed: Duration,
    /// The only level of the input: no header line.
    one: bool,
}

impl Answer<'_> {
    fn print(&self, out: &mut impl Write, args: &SolveArgs) -> std::io::Result<()> {
        let (level, report) = (self.level, self.report);
        let notation = Notation::from(args.notation);
        if args.stats {
            self.print_stats(notation);
        }
        if args.json {
            let record = json_record(
                &level.name,
                &report.outcome,
                notation,
                report.stats.expanded,
                self.elapsed,
                &[
                    ("generated", json!(report.stats.generated)),
                    (
                        "optimal",
                        json!(report.optimal && report.outcome.solution().is_some()),
                    ),
                ],
            );
            return writeln!(
                out,
                "{}",
                super::bench::indexed(record, args.shard, self.index)
            );
        }
        if !self.one {
            writeln!(out, "{}", level.name)?;
        }
        writeln!(out, "{}", answer_line(&report.outcome, notation))?;
        if let (Some(step), Some(s)) = (args.trace, report.outcome.solution()) {
            let board = TraceBoard::from(level);
            let moves_too = step == TraceArg::Moves;
            write!(out, "{}", trace(&board, &s.moves, moves_too, notation))?;
        }
        if !self.one {
            writeln!(out)?;
        }
        Ok(())
    }

    /// `--stats`: the figures on stderr.
    fn print_stats(&self, notation: Notation) {
        let report = self.report;
        let counts = match report.outcome.solution() {
            Some(s) => format!(
                "pushes {} walks {} moves {}{}",
                s.pushes,
                s.walks,
                s.pushes + s.walks,
                if report.optimal {
                    " (push-optimal)"
                } else {
                    ""
                }
            ),
            None => answer_line(&report.outcome, notation),
        };
        eprintln!(
            "{}: {counts}, expanded {}, generated {}, lower bound {}, memory {} bytes, {:.3} s",
            self.level.name,
            report.stats.expanded,
            report.stats.generated,
            report.stats.lower_bound,
            report.stats.memory_bytes,
            self.elapsed.as_secs_f64()
        );
    }
}
