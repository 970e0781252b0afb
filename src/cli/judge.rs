//! `sokoban verify --judge SYSTEM`: the special judge installed as a contest
//! system's checker. Each system has its own calling convention and exit
//! codes; this layer maps the library's typed [`Judgement`] onto them and
//! writes the reason where the system shows it to judges.

use super::CliError;
use clap::ValueEnum;
use sokoban::level::{ParseError, Shape, SingleInput, maze_name};
use sokoban::tools::judge::{Judgement, judge};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The checker conventions understood.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum System {
    /// Kattis / DOMjudge output validator: INPUT JUDGE_ANSWER FEEDBACK_DIR < OUTPUT; 42 / 43
    Kattis,
    /// testlib checker (Codeforces, Polygon, ejudge): INPUT OUTPUT ANSWER [REPORT]; 0 1 2 3
    Testlib,
}

/// What the checker concluded, before a system turns it into an exit code.
enum Finding {
    Accepted(String),
    Wrong(String),
    Presentation(String),
    Failure(String),
}

/// The files of one checker call.
struct Call {
    input: PathBuf,
    answer: Option<PathBuf>,
    output: Option<PathBuf>,
    /// Kattis: the feedback directory; testlib: the optional report file.
    report: Option<PathBuf>,
}

/// Runs the checker; never fails, since every fault has an exit code of its own.
pub fn run(
    system: System,
    level: &Path,
    second: Option<&str>,
    rest: &[String],
    parse: impl Fn(&[u8]) -> Result<SingleInput, ParseError>,
) -> ExitCode {
    let call = match system {
        System::Kattis => Call {
            input: level.into(),
            answer: second.map(PathBuf::from),
            output: None,
            report: rest.first().map(PathBuf::from),
        },
        System::Testlib => Call {
            input: level.into(),
            output: second.map(PathBuf::from),
            answer: rest.first().map(PathBuf::from),
            report: rest.get(1).map(PathBuf::from),
        },
    };
    let finding = check(system, &call, parse).unwrap_or_else(|e| Finding::Failure(e.to_string()));
    match system {
        System::Kattis => kattis(&call, finding),
        System::Testlib => testlib(&call, finding),
    }
}

fn check(
    system: System,
    call: &Call,
    parse: impl Fn(&[u8]) -> Result<SingleInput, ParseError>,
) -> Result<Finding, CliError> {
    let missing = |what: &str| CliError::Usage(format!("--judge {system:?}: no {what} given"));
    if matches!(system, System::Kattis) && call.report.is_none() {
        return Err(missing("FEEDBACK_DIR"));
    }
    let input = read(&call.input)?;
    let single = parse(&input).map_err(|error| CliError::Parse {
        input: call.input.display().to_string(),
        error,
    })?;
    let reference = read(
        call.answer
            .as_deref()
            .ok_or_else(|| missing("judge answer"))?,
    )?;
    let output = match &call.output {
        Some(path) => read(path)?,
        None => super::input::read_stdin()?,
    };
    let headers = single.shape == Shape::Judge;
    let judgement = judge(
        &single.mazes,
        headers,
        &String::from_utf8_lossy(&output),
        &String::from_utf8_lossy(&reference),
    );
    Ok(match judgement {
        Judgement::Accepted { mazes } => Finding::Accepted(format!(
            "{mazes} answer{} right and optimal",
            if mazes == 1 { "" } else { "s" }
        )),
        Judgement::Wrong { maze, verdict } if headers => {
            Finding::Wrong(format!("{}: {}", maze_name(maze), verdict.describe()))
        }
        Judgement::Wrong { verdict, .. } => Finding::Wrong(verdict.describe()),
        Judgement::Presentation(p) => Finding::Presentation(p.to_string()),
        Judgement::JudgeFailure(f) => Finding::Failure(f.to_string()),
    })
}

fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    super::read_file(path)
}

/// Kattis and DOMjudge: 42 accepted, 43 wrong (they have no presentation
/// verdict), any other code a judge error; the reason in the feedback directory.
fn kattis(call: &Call, finding: Finding) -> ExitCode {
    let (code, file, message) = match finding {
        Finding::Accepted(m) => (42, "judgemessage.txt", m),
        Finding::Wrong(m) => (43, "judgemessage.txt", m),
        Finding::Presentation(m) => (43, "judgemessage.txt", format!("wrong output format: {m}")),
        Finding::Failure(m) => (1, "judgeerror.txt", m),
    };
    let written = call.report.as_deref().map(|dir| {
        std::fs::create_dir_all(dir)
            .and_then(|_| std::fs::write(dir.join(file), format!("{message}\n")))
    });
    if code == 1 {
        note!("error: {message}");
    }
    if let Some(Err(e)) = written {
        note!("error: writing {file}: {e}");
        return ExitCode::from(1);
    }
    ExitCode::from(code)
}

/// testlib: 0 ok, 1 wrong answer, 2 presentation error, 3 judge failure; the
/// verdict on stderr in testlib's words, and in the report file when given.
fn testlib(call: &Call, finding: Finding) -> ExitCode {
    let (code, line) = match finding {
        Finding::Accepted(m) => (0, format!("ok {m}")),
        Finding::Wrong(m) => (1, format!("wrong answer {m}")),
        Finding::Presentation(m) => (2, format!("wrong output format {m}")),
        Finding::Failure(m) => (3, format!("FAIL {m}")),
    };
    note!("{line}");
    if let Some(report) = &call.report
        && let Err(e) = std::fs::write(report, format!("{line}\n"))
    {
        note!("FAIL writing {}: {e}", report.display());
        return ExitCode::from(3);
    }
    ExitCode::from(code)
}
