//! `sokoban verify`: judge answers against levels; exit 1 when any is wrong.

use super::input::{given, read_input, read_stdin};
use super::{CliError, FormatArg, Input, Status, TraceArg};
use clap::{Args, ValueEnum};
use sokoban::level::{Entry, Format, Maze, Shape, maze_name, parse_entries_as, parse_single_as};
use sokoban::moves::{Notation, parse_moves};
use sokoban::multi::{Limits, MultiOptions};
use sokoban::output::{TraceBoard, trace};
use sokoban::tools::answers::{answer_to, answers_by_name};
use sokoban::tools::verify::{Reading, Verdict, verify_level, verify_maze, verify_stored};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The level: a grid, a judge file of mazes, or an XSB level or collection (`-` for stdin).
    level: PathBuf,
    /// The answer: a move string, or a file holding it (for several mazes, an
    /// answer file in the solver's output shape), `-` for stdin. When absent: the level
    /// file's own `Solution` sections (a SOK file) if it has any, else stdin.
    moves: Option<String>,
    /// Level format.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// Read the level as multi-box even when it has one box.
    #[arg(long, conflicts_with = "judge")]
    multi: bool,
    /// How the answer is written (auto: nsew or lurd by letters, case tells pushes).
    #[arg(long, value_enum, default_value_t = ReadingArg::Auto, conflicts_with = "judge")]
    notation: ReadingArg,
    /// Also require single-box answers to be optimal (exit 1 otherwise).
    #[arg(long, conflicts_with = "judge")]
    optimal: bool,
    /// Draw the board after every push (or every move) of each legal answer.
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "pushes", value_name = "STEP", conflicts_with = "judge")]
    trace: Option<TraceArg>,
    /// Multi-box: seconds allowed to check a claim of `Impossible.`
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = super::limit::seconds, conflicts_with = "judge")]
    time_limit: Duration,
    #[command(flatten)]
    cells: super::limit::CellsArgs,
    #[command(flatten)]
    pub(super) input: super::input::InputArgs,
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

/// What was verified: single-box mazes or multi-box levels (with what their
/// SOK sections say, the stored solutions among it).
enum Subject {
    Mazes(Vec<Maze>, Shape),
    Levels(Vec<Entry>),
}

pub fn run(args: &VerifyArgs) -> Result<ExitCode, CliError> {
    if let Some(system) = args.judge {
        let format = Format::from(args.format);
        return Ok(super::judge::run(
            system,
            &args.level,
            args.moves.as_deref(),
            &args.rest,
            |bytes| parse_single_as(bytes, format, args.cells.max_cells),
        ));
    }
    if args.level.as_os_str() == "-" && args.moves.as_deref().is_none_or(|m| m == "-") {
        return Err(CliError::Usage(
            "standard input is read once: give the level or the answer as a file".into(),
        ));
    }
    let input = read_input(&args.level)?;
    let subject = subject(args, &input)?;
    if let (None, Subject::Levels(entries)) = (&args.moves, &subject)
        && entries.iter().any(|e| !e.solutions.is_empty())
    {
        return verify_entries(args, entries);
    }
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
        Subject::Levels(entries) => entries.iter().map(|e| e.level.name.clone()).collect(),
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
            (Some(a), Subject::Levels(entries)) => {
                verify_level(&entries[k].level, a, reading, &options)
            }
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
                Subject::Levels(e) => TraceBoard::from(&e[k].level),
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

/// The mazes or levels of the input: single-box mazes unless `--multi` is
/// given or the input is a multi-box level or a collection.
fn subject(args: &VerifyArgs, input: &Input) -> Result<Subject, CliError> {
    let format = Format::from(args.format);
    let levels =
        || parse_entries_as(&input.bytes, format, args.cells.max_cells).map(Subject::Levels);
    let parsed = if args.multi {
        levels()
    } else {
        match parse_single_as(&input.bytes, format, args.cells.max_cells) {
            Ok(single) => Ok(Subject::Mazes(single.mazes, single.shape)),
            Err(e) if e.kind.wants_multi() => levels(),
            Err(e) => Err(e),
        }
    };
    parsed.map_err(|error| CliError::Parse {
        input: input.source.clone(),
        error,
    })
}

/// The search that checks a claim of `Impossible.`, under `--time-limit`.
fn claim_options(args: &VerifyArgs) -> MultiOptions {
    MultiOptions {
        limits: Limits {
            time: Some(args.time_limit),
            ..Limits::default()
        },
        ..MultiOptions::default()
    }
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
    if let Some(arg) = moves {
        return Ok(given(arg)?.text);
    }
    if std::io::stdin().is_terminal() {
        return Err(CliError::Usage(
            "no answer: give MOVES (a move string or a file), or pipe it into standard input"
                .into(),
        ));
    }
    let bytes = read_stdin()?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
