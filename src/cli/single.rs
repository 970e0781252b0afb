//! Single-box mode: parse every input first, then solve and print each maze.

use super::TraceArg;
use super::collect::{Collection, Driver, select};
use super::progress::Progress;
use super::{CliError, SolveArgs, parse_inputs};
use sokoban::level::{Maze, Shape, parse_single_as};
use sokoban::moves::{Notation, Outcome};
use sokoban::output::{LevelRecord, TraceBoard, answer_line, trace, write_json_line};
use sokoban::single::{SingleReport, solve};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let mut mazes = Vec::new();
    for (_, input) in parse_inputs(&args.files, |bytes| {
        parse_single_as(bytes, args.format.into(), args.max_cells)
    })? {
        let judge = input.shape == Shape::Judge;
        for (k, maze) in input.mazes.into_iter().enumerate() {
            let name = format!("Maze #{}", k + 1);
            mazes.push(Named { name, maze, judge });
        }
    }
    let driver = Driver {
        progress: Progress::new(mazes.len()),
        jobs: None,
        ctrl_c: false,
        flush_each: false,
    };
    let algorithm = args.algorithm.into();
    let solve_one = |named: Named, _: &Progress| {
        let started = Instant::now();
        let report = solve(&named.maze, algorithm);
        Solved {
            elapsed: started.elapsed(),
            named,
            report,
        }
    };
    driver.run(select(None, mazes), solve_one, Answers { args })
}

/// A maze and its name in the output.
struct Named {
    name: String,
    maze: Maze,
    /// From a judge file: each answer under its name.
    judge: bool,
}

struct Solved {
    named: Named,
    report: SingleReport,
    elapsed: Duration,
}

/// The answers as text or JSON, and `--stats` on stderr.
struct Answers<'a> {
    args: &'a SolveArgs,
}

impl Collection for Answers<'_> {
    type Item = Named;
    type Answer = Solved;

    fn name(named: &Named) -> &str {
        &named.name
    }

    fn outcome(solved: &Solved) -> &Outcome {
        &solved.report.outcome
    }

    fn print(&mut self, out: &mut dyn Write, _: usize, solved: Solved) -> io::Result<()> {
        let (args, notation) = (self.args, Notation::from(self.args.notation));
        let Solved {
            named,
            report,
            elapsed,
        } = solved;
        if args.stats {
            let counts = match report.outcome.solution() {
                Some(s) => format!("pushes {} walks {}", s.pushes, s.walks),
                None => answer_line(&report.outcome, notation),
            };
            eprintln!(
                "{}: {counts}, states {}, searches {}, memory {} bytes, {} us",
                named.name,
                report.stats.states,
                report.stats.searches,
                report.stats.memory_bytes + named.maze.grid.memory_bytes(),
                elapsed.as_micros()
            );
        }
        if args.json {
            let states = report.stats.states;
            let record = LevelRecord::new(&named.name, &report.outcome, notation, states, elapsed);
            return write_json_line(out, &record);
        }
        if named.judge {
            writeln!(out, "{}", named.name)?;
        }
        writeln!(out, "{}", answer_line(&report.outcome, notation))?;
        if let (Some(step), Some(s)) = (args.trace, report.outcome.solution()) {
            let board = TraceBoard::from(&named.maze);
            let moves_too = step == TraceArg::Moves;
            write!(out, "{}", trace(&board, &s.moves, moves_too, notation))?;
        }
        if named.judge {
            writeln!(out)?;
        }
        Ok(())
    }
}
