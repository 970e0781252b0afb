//! Single-box mode: parse every input first, then solve and print each maze.

use super::TraceArg;
use super::progress::Progress;
use super::{CliError, SolveArgs, Status, parse_inputs};
use sokoban::level::{Shape, SingleInput, parse_single_as};
use sokoban::moves::{Notation, Outcome};
use sokoban::output::{TraceBoard, answer_line, json_record, trace};
use sokoban::single::solve;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let parsed: Vec<SingleInput> = parse_inputs(&args.files, |bytes| {
        parse_single_as(bytes, args.format.into(), args.max_cells)
    })?
    .into_iter()
    .map(|(_, input)| input)
    .collect();
    let notation = Notation::from(args.notation);
    let total: usize = parsed.iter().map(|p| p.mazes.len()).sum();
    let progress = Progress::new(total);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut done = 0;
    let mut limited = false;
    for input in &parsed {
        for (k, maze) in input.mazes.iter().enumerate() {
            let name = sokoban::level::maze_name(k + 1);
            progress.update(done, &name);
            let started = Instant::now();
            let report = solve(maze, args.algorithm.into());
            let elapsed = started.elapsed();
            done += 1;
            if done == total {
                progress.finish();
            }
            limited |= matches!(report.outcome, Outcome::Limit(_));
            // The answer goes to stdout, often the same terminal as the bar.
            progress.print(&mut out, |out| {
                if args.stats {
                    let counts = match report.outcome.solution() {
                        Some(s) => format!("pushes {} walks {}", s.pushes, s.walks),
                        None => answer_line(&report.outcome, notation),
                    };
                    eprintln!(
                        "{name}: {counts}, states {}, searches {}, memory {} bytes, {} us",
                        report.stats.states,
                        report.stats.searches,
                        report.stats.memory_bytes + maze.grid.memory_bytes(),
                        elapsed.as_micros()
                    );
                }
                if args.json {
                    let record = json_record(
                        &name,
                        &report.outcome,
                        notation,
                        report.stats.states,
                        elapsed,
                        &[],
                    );
                    writeln!(out, "{record}")?;
                } else {
                    let line = answer_line(&report.outcome, notation);
                    if input.shape == Shape::Judge {
                        writeln!(out, "{name}")?;
                    }
                    writeln!(out, "{line}")?;
                    if let (Some(step), Some(s)) = (args.trace, report.outcome.solution()) {
                        let board = TraceBoard::from(maze);
                        write!(
                            out,
                            "{}",
                            trace(&board, &s.moves, step == TraceArg::Moves, notation)
                        )?;
                    }
                    if input.shape == Shape::Judge {
                        writeln!(out)?;
                    }
                }
                Ok(())
            })?;
        }
    }
    progress.finish();
    out.flush()?;
    Ok(Status::limited_if(limited))
}
