//! Single-box mode: parse every input first, then solve and print each maze.

use super::TraceArg;
use super::collect::{Collection, Driver, Named, Timed, timed};
use super::progress::Progress;
use super::{CliError, SolveArgs, parse_inputs};
use sokoban::level::{Maze, Shape, parse_single_as};
use sokoban::moves::{Notation, Outcome};
use sokoban::output::{LevelRecord, TraceBoard, answer_line, write_answer, write_json_line};
use sokoban::single::{SingleReport, solve};
use std::io::{self, Write};
use std::process::ExitCode;

pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let mut mazes = Vec::new();
    for (_, input) in parse_inputs(&args.files, |bytes| {
        parse_single_as(bytes, args.format.into(), args.cells.max_cells)
    })? {
        let judge = input.shape == Shape::Judge;
        for (k, maze) in input.mazes.into_iter().enumerate() {
            let name = sokoban::level::maze_name(k + 1);
            mazes.push((mazes.len(), NamedMaze { name, maze, judge }));
        }
    }
    let driver = Driver {
        progress: Progress::new(mazes.len()),
        jobs: None,
        ctrl_c: false,
        flush_each: false,
    };
    let algorithm = args.algorithm.into();
    let solve_one = |named: &NamedMaze, _: &Progress| timed(|| solve(&named.maze, algorithm));
    driver.run(mazes, solve_one, Answers { args })
}

/// A maze and its name in the output.
struct NamedMaze {
    name: String,
    maze: Maze,
    /// From a judge file: each answer under its name.
    judge: bool,
}

impl Named for NamedMaze {
    fn name(&self) -> &str {
        &self.name
    }
}

/// The answers as text or JSON, and `--stats` on stderr.
struct Answers<'a> {
    args: &'a SolveArgs,
}

impl Collection for Answers<'_> {
    type Item = NamedMaze;
    type Answer = Timed<SingleReport>;

    fn outcome(solved: &Self::Answer) -> &Outcome {
        &solved.report.outcome
    }

    fn print(
        &mut self,
        out: &mut dyn Write,
        _: usize,
        named: NamedMaze,
        solved: Timed<SingleReport>,
    ) -> io::Result<()> {
        let (args, notation) = (self.args, Notation::from(self.args.notation));
        let report = &solved.report;
        if args.stats {
            print_stats(&named, &solved, notation);
        }
        if args.json {
            let (states, elapsed) = (report.stats.states, solved.elapsed);
            let record = LevelRecord::new(&named.name, &report.outcome, notation, states, elapsed);
            return write_json_line(out, &record);
        }
        let name = named.judge.then_some(named.name.as_str());
        let traced = args
            .trace
            .map(|step| (TraceBoard::from(&named.maze), step == TraceArg::Moves));
        write_answer(out, name, &report.outcome, notation, traced)
    }
}

/// `--stats`: the figures on stderr.
fn print_stats(named: &NamedMaze, solved: &Timed<SingleReport>, notation: Notation) {
    let report = &solved.report;
    let counts = match report.outcome.solution() {
        Some(s) => format!("pushes {} walks {}", s.pushes, s.walks),
        None => answer_line(&report.outcome, notation),
    };
    note!(
        "{}: {counts}, states {}, searches {}, memory {} bytes, {} us",
        named.name,
        report.stats.states,
        report.stats.searches,
        report.stats.memory_bytes + named.maze.grid.memory_bytes(),
        solved.elapsed.as_micros()
    );
}
