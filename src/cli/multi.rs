//! Multi-box mode: parse every level first, then solve and print each.

use super::TraceArg;
use super::progress::Progress;
use super::{CliError, SolveArgs, Status, parse_levels_of};
use serde_json::json;
use sokoban::level::parse_levels;
use sokoban::moves::{Notation, Outcome};
use sokoban::multi::solve;
use sokoban::output::{TraceBoard, answer_line, json_record, trace};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

pub fn run(args: &SolveArgs) -> Result<ExitCode, CliError> {
    let options = args.search.options(1)?;
    let levels = parse_levels_of(&args.files, |bytes| {
        parse_levels(bytes, args.format.into(), args.max_cells)
    })?;
    let notation = Notation::from(args.notation);
    let one = levels.len() == 1;
    let mut progress = Progress::new(levels.len());
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut limited = false;
    for (k, level) in levels.iter().enumerate() {
        progress.update(k, &level.name);
        let started = Instant::now();
        let report = solve(level, &options, &mut |p| {
            progress.update(
                k,
                &format!(
                    "{}: {} nodes, {} pushes deep, bound {}, {:.1} s",
                    level.name,
                    p.expanded,
                    p.depth,
                    p.bound,
                    p.elapsed.as_secs_f64()
                ),
            )
        });
        let elapsed = started.elapsed();
        // The answer goes to stdout, often the same terminal: clear the progress line first.
        progress.finish();
        limited |= matches!(report.outcome, Outcome::Limit(_));
        if args.stats {
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
                level.name,
                report.stats.expanded,
                report.stats.generated,
                report.stats.lower_bound,
                report.stats.memory_bytes,
                elapsed.as_secs_f64()
            );
        }
        if args.json {
            let record = json_record(
                &level.name,
                &report.outcome,
                notation,
                report.stats.expanded,
                elapsed,
                &[
                    ("generated", json!(report.stats.generated)),
                    (
                        "optimal",
                        json!(report.optimal && report.outcome.solution().is_some()),
                    ),
                ],
            );
            writeln!(out, "{record}")?;
        } else {
            if !one {
                writeln!(out, "{}", level.name)?;
            }
            writeln!(out, "{}", answer_line(&report.outcome, notation))?;
            if let (Some(step), Some(s)) = (args.trace, report.outcome.solution()) {
                let board = TraceBoard::from(level);
                write!(
                    out,
                    "{}",
                    trace(&board, &s.moves, step == TraceArg::Moves, notation)
                )?;
            }
            if !one {
                writeln!(out)?;
            }
        }
        out.flush()?;
    }
    progress.finish();
    Ok(Status::limited_if(limited))
}
