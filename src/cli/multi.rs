//! Multi-box mode: parse every level first, then solve and print each.

use super::TraceArg;
use super::collect::{Collection, Driver, Timed, select, timed};
use super::progress::Progress;
use super::{CliError, SolveArgs, parse_levels_of, read_inputs};
use sokoban::level::{
    Entry, Format, Level, detect, insert_after_lines, parse_entries_as, parse_levels,
};
use sokoban::moves::{Notation, Outcome, Solution, format_moves, parse_moves};
use sokoban::multi::{MultiReport, solve};
use sokoban::output::{TraceBoard, answer_line, write_answer, write_json_line};
use sokoban::tools::bench::{MultiRow, multi_record};
use sokoban::words::count;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let options = args.search.options(1)?;
    let (levels, saving) = match &args.save_solutions {
        Some(out) => {
            let saving = Saving::read(args, out)?;
            (
                saving.entries.iter().map(|e| e.level.clone()).collect(),
                Some(saving),
            )
        }
        None => (
            parse_levels_of(&args.files, |bytes| {
                parse_levels(bytes, args.format.into(), args.cells.max_cells)
            })?,
            None,
        ),
    };
    let one = levels.len() == 1;
    let levels = select(args.shard, levels);
    let driver = Driver::levels(levels.len());
    let solve_one = |level: &Level, progress: &Progress| {
        timed(|| {
            let started = Instant::now();
            let report = solve(level, &options, &mut |p| progress.search(&level.name, p));
            let search = &mut |p: &_| progress.search(&level.name, p);
            super::optimize::improve(args.optimize, level, report, &options, started, search)
        })
    };
    let answers = Answers { args, one, saving };
    driver.run(levels, solve_one, answers)
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
        let input = read_inputs(&args.files)?.remove(0);
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
        if detect(&text, format).alphabet().is_none() {
            return Err(usage("needs levels in a letter format"));
        }
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
            "Solution (sokoban{}, {}, {}):",
            if optimal { ", push-optimal" } else { "" },
            count(solution.pushes, "push", "pushes"),
            count(solution.pushes + solution.walks, "move", "moves")
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

/// The answers as text or JSON, `--stats` on stderr, and the solutions to save.
struct Answers<'a> {
    args: &'a SolveArgs,
    /// The only level of the input: no header line.
    one: bool,
    saving: Option<Saving>,
}

impl Collection for Answers<'_> {
    type Item = Level;
    type Answer = Timed<MultiReport>;

    fn outcome(solved: &Self::Answer) -> &Outcome {
        &solved.report.outcome
    }

    fn print(
        &mut self,
        out: &mut dyn Write,
        index: usize,
        level: Level,
        solved: Timed<MultiReport>,
    ) -> io::Result<()> {
        let (args, notation) = (self.args, Notation::from(self.args.notation));
        let report = &solved.report;
        if let (Some(saving), Some(s)) = (&mut self.saving, report.outcome.solution()) {
            saving.add(index, s, report.optimal);
        }
        if args.stats {
            print_stats(&level, &solved, notation);
        }
        if args.json {
            let row = MultiRow::new(&level.name, report, solved.elapsed);
            let index = args.shard.map(|_| index);
            return write_json_line(out, &multi_record(&row, notation, index));
        }
        let name = (!self.one).then_some(level.name.as_str());
        let traced = args
            .trace
            .map(|step| (TraceBoard::from(&level), step == TraceArg::Moves));
        write_answer(out, name, &report.outcome, notation, traced)
    }

    fn finish(self, _: &mut dyn Write) -> Result<(), CliError> {
        match self.saving {
            Some(saving) => saving.write(),
            None => Ok(()),
        }
    }
}

/// `--stats`: the figures on stderr.
fn print_stats(level: &Level, solved: &Timed<MultiReport>, notation: Notation) {
    let report = &solved.report;
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
    note!(
        "{}: {counts}, expanded {}, generated {}, lower bound {}, memory {} bytes, {:.3} s",
        level.name,
        report.stats.expanded,
        report.stats.generated,
        report.stats.lower_bound,
        report.stats.memory_bytes,
        solved.elapsed.as_secs_f64()
    );
}
