//! `sokoban verify`: judge answers against levels; exit 1 when any is wrong.

use super::{CliError, FormatArg, Input, Status, TraceArg, read_inputs};
use clap::{Args, ValueEnum};
use sokoban::level::{
    Alphabet, DEFAULT_MAX_CELLS, Entry, Format, Level, Maze, ParseErrorKind, Shape, maze_name,
    parse_entries, parse_levels, parse_single_as,
};
use sokoban::moves::{Notation, parse_moves};
use sokoban::multi::{Limits, MultiOptions};
use sokoban::output::{TraceBoard, trace};
use sokoban::tools::answers::{answer_to, answers_by_name};
use sokoban::tools::verify::{Reading, Verdict, verify_level, verify_maze, verify_stored};
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The level: a grid, a judge file of mazes, or an XSB level or collection (`-` for stdin).
    level: PathBuf,
    /// The answer: a move string, or a file holding it (for several mazes, an
    /// answer file in the solver's output shape). When absent: the level file's
    /// own `Solution` sections (a SOK file) if it has any, else stdin.
    moves: Option<String>,
    /// Level format.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// Read the level as multi-box even when it has one box.
    #[arg(long)]
    multi: bool,
    /// How the answer is written (auto: nsew or lurd by letters, case tells pushes).
    #[arg(long, value_enum, default_value_t = ReadingArg::Auto)]
    notation: ReadingArg,
    /// Also require single-box answers to be optimal (exit 1 otherwise).
    #[arg(long)]
    optimal: bool,
    /// Draw the board after every push (or every move) of each legal answer.
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "pushes", value_name = "STEP")]
    trace: Option<TraceArg>,
    /// Multi-box: seconds allowed to check a claim of `Impossible.`
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    time_limit: f64,
    /// Largest grid accepted, in cells.
    #[arg(long, default_value_t = DEFAULT_MAX_CELLS, value_name = "N")]
    max_cells: u64,
    /// Run as a contest system's checker: `kattis INPUT JUDGE_ANSWER FEEDBACK_DIR < OUTPUT`
    /// (exit 42 accepted, 43 wrong) or `testlib INPUT OUTPUT ANSWER [REPORT]` (exit 0 ok, 1 wrong
    /// answer, 2 presentation error, 3 judge failure).
    #[arg(long, value_enum, value_name = "SYSTEM")]
    judge: Option<super::judge::System>,
    /// With --judge: the third file (kattis FEEDBACK_DIR, testlib ANSWER), then any others.
    #[arg(value_name = "FILE", requires = "judge")]
    rest: Vec<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ReadingArg {
    Auto,
    Nsew,
    Lurd,
    Udlr,
}

/// What was verified: single-box mazes or multi-box levels.
enum Subject {
    Mazes(Vec<Maze>, Shape),
    Levels(Vec<Level>),
}

pub fn run(args: &VerifyArgs) -> Result<ExitCode, CliError> {
    if let Some(system) = args.judge {
        let format = Format::from(args.format);
        return Ok(super::judge::run(
            system,
            &args.level,
            args.moves.as_deref(),
            &args.rest,
            |bytes| parse_single_as(bytes, format, args.max_cells),
        ));
    }
    let input = read_inputs(std::slice::from_ref(&args.level))?.remove(0);
    if args.moves.is_none()
        && let Some(entries) = stored_solutions(args, &input.bytes)
    {
        return verify_entries(args, &entries);
    }
    let subject = subject(args, &input)?;
    let answers_text = read_answers(args.moves.as_deref())?;
    let reading = match args.notation {
        ReadingArg::Auto => Reading::Auto,
        ReadingArg::Nsew => Reading::Fixed(Notation::Nsew),
        ReadingArg::Lurd => Reading::Fixed(Notation::Lurd),
        ReadingArg::Udlr => Reading::Fixed(Notation::Udlr),
    };
    let options = claim_options(args);
    let names: Vec<String> = match &subject {
        Subject::Mazes(mazes, _) => (1..=mazes.len()).map(maze_name).collect(),
        Subject::Levels(levels) => levels.iter().map(|l| l.name.clone()).collect(),
    };
    let labelled = names.len() > 1 || matches!(subject, Subject::Mazes(_, Shape::Judge));
    // One level: the text may be its answer itself rather than an answer file.
    let answers: Vec<Option<String>> = if names.len() == 1 {
        vec![answer_to(&answers_text, &names, 0)]
    } else {
        answers_by_name(&answers_text, &names)
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut all_right = true;
    for (k, answer) in answers.iter().enumerate() {
        let verdict = match (answer, &subject) {
            (None, _) => Verdict::Missing,
            (Some(a), Subject::Mazes(mazes, _)) => verify_maze(&mazes[k], a, reading),
            (Some(a), Subject::Levels(levels)) => verify_level(&levels[k], a, reading, &options),
        };
        all_right &= verdict.accepted(args.optimal);
        if labelled {
            writeln!(out, "{}: {}", names[k], verdict.describe())?;
        } else {
            writeln!(out, "{}", verdict.describe())?;
        }
        if let (Some(step), Verdict::Replayed { notation, .. }, Some(a)) =
            (args.trace, &verdict, answer)
        {
            let moves = parse_moves(a).expect("a replayed answer parses");
            let board = match &subject {
                Subject::Mazes(m, _) => TraceBoard::from(&m[k]),
                Subject::Levels(l) => TraceBoard::from(&l[k]),
            };
            write!(
                out,
                "{}",
                trace(&board, &moves, step == TraceArg::Moves, *notation)
            )?;
        }
    }
    out.flush()?;
    Ok(verdict_status(all_right))
}

/// The mazes or levels of the input.
fn subject(args: &VerifyArgs, input: &Input) -> Result<Subject, CliError> {
    let parse_error = |error| CliError::Parse {
        input: input.source.clone(),
        error,
    };
    let format = Format::from(args.format);
    Ok(if args.multi {
        Subject::Levels(parse_levels(&input.bytes, format, args.max_cells).map_err(parse_error)?)
    } else {
        match parse_single_as(&input.bytes, format, args.max_cells) {
            Ok(single) => Subject::Mazes(single.mazes, single.shape),
            // More than one box: a multi-box level.
            Err(e)
                if matches!(
                    e.kind,
                    ParseErrorKind::SecondBox | ParseErrorKind::SecondTarget
                ) =>
            {
                Subject::Levels(
                    parse_levels(&input.bytes, format, args.max_cells).map_err(parse_error)?,
                )
            }
            Err(e) => return Err(parse_error(e)),
        }
    })
}

/// The search that checks a claim of `Impossible.`, under `--time-limit`.
fn claim_options(args: &VerifyArgs) -> MultiOptions {
    MultiOptions {
        limits: Limits {
            time: Some(Duration::from_secs_f64(args.time_limit.max(0.001))),
            ..Limits::default()
        },
        ..MultiOptions::default()
    }
}

/// The levels of the input when it is a collection holding `Solution`
/// sections (a SOK file): then those are what is checked.
fn stored_solutions(args: &VerifyArgs, bytes: &[u8]) -> Option<Vec<Entry>> {
    let alphabet = match Format::from(args.format) {
        Format::Auto => Alphabet::Xsb,
        f => f.alphabet()?,
    };
    let entries = parse_entries(bytes, alphabet, args.max_cells).ok()?;
    entries
        .iter()
        .any(|e| !e.solutions.is_empty())
        .then_some(entries)
}

/// Checks every stored solution: one line per solution (or per level with none).
fn verify_entries(args: &VerifyArgs, entries: &[Entry]) -> Result<ExitCode, CliError> {
    let options = claim_options(args);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut all_right = true;
    for entry in entries {
        let name = &entry.level.name;
        if entry.solutions.is_empty() {
            writeln!(out, "{name}: no solution stored")?;
        }
        for solution in &entry.solutions {
            let verdict = verify_stored(&entry.level, &solution.moves, &options);
            all_right &= verdict.accepted(args.optimal);
            let label = match &solution.name {
                Some(n) => format!("Solution ({n})"),
                None => "Solution".into(),
            };
            writeln!(out, "{name}: {label}: {}", verdict.describe())?;
        }
    }
    out.flush()?;
    Ok(verdict_status(all_right))
}

/// Exit 0 when every answer was right, 1 otherwise.
fn verdict_status(all_right: bool) -> ExitCode {
    if all_right {
        Status::Answered
    } else {
        Status::Rejected
    }
    .into()
}

/// The answer text: the argument itself, the file it names, or stdin.
fn read_answers(moves: Option<&str>) -> Result<String, CliError> {
    match moves {
        Some(m) if Path::new(m).is_file() => {
            std::fs::read_to_string(m).map_err(|error| CliError::Read {
                input: m.to_string(),
                error,
            })
        }
        Some(m) => Ok(m.to_string()),
        None => {
            if std::io::stdin().is_terminal() {
                return Err(CliError::Usage(
                    "no answer: give MOVES (a move string or a file), or pipe it into standard input".into(),
                ));
            }
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|error| CliError::Read {
                    input: "<stdin>".into(),
                    error,
                })?;
            Ok(text)
        }
    }
}
