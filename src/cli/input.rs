//! Reading input: level files and standard input under `--max-input`, and
//! the one reader of an argument that is a file, a move string or `-`.
//!
//! Every command reads through here, so `-` means standard input wherever a
//! file is read, and a file name is never judged as moves: an argument that
//! is no file must read as moves, or it is an error naming both.

use super::CliError;
use clap::Args;
use sokoban::level::{Level, ParseError};
use sokoban::moves::parse_moves;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Default `--max-input`: 1 GiB, ten times a collection of a million levels.
const DEFAULT_MAX_INPUT_MB: u64 = 1024;

/// `--max-input` in bytes, set once at start; every reader obeys it.
static MAX_INPUT: OnceLock<u64> = OnceLock::new();

/// `--max-input`, on the commands that read input.
#[derive(Debug, Args, Clone)]
pub struct InputArgs {
    /// Largest input file (or standard input) read, in MB: a larger one is refused before it
    /// is read into memory.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MAX_INPUT_MB, value_parser = super::limit::count(1, u64::MAX))]
    max_input: u64,
}

impl InputArgs {
    /// Makes `--max-input` the bound of every read that follows.
    pub fn apply(&self) {
        let _ = MAX_INPUT.set(self.max_input.saturating_mul(1 << 20));
    }
}

fn max_input() -> u64 {
    *MAX_INPUT.get_or_init(|| DEFAULT_MAX_INPUT_MB << 20)
}

/// Reads every input and parses each with `parse`, before anything is
/// solved or printed: an invalid input leaves nothing partial on stdout.
pub fn parse_inputs<T>(
    files: &[PathBuf],
    parse: impl Fn(&[u8]) -> Result<T, ParseError>,
) -> Result<Vec<(String, T)>, CliError> {
    read_inputs(files)?
        .into_iter()
        .map(|input| match parse(&input.bytes) {
            Ok(parsed) => Ok((input.source, parsed)),
            Err(error) => Err(CliError::Parse {
                input: input.source,
                error,
            }),
        })
        .collect()
}

/// Every level of every input, parsed by `parse` (see [`parse_inputs`]).
pub fn parse_levels_of(
    files: &[PathBuf],
    parse: impl Fn(&[u8]) -> Result<Vec<Level>, ParseError>,
) -> Result<Vec<Level>, CliError> {
    Ok(parse_inputs(files, parse)?
        .into_iter()
        .flat_map(|(_, levels)| levels)
        .collect())
}

/// An input: where it came from (for messages) and its bytes.
pub struct Input {
    pub source: String,
    pub bytes: Vec<u8>,
}

/// Reads every file (or stdin for none or `-`). With stdin a terminal and no
/// file named, refuses with a hint instead of waiting silently.
pub fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, CliError> {
    if files.is_empty() && std::io::stdin().is_terminal() {
        return Err(CliError::Usage(
            "no input: give a FILE, or pipe a grid into standard input (sokoban < maze.txt); see --help"
                .into(),
        ));
    }
    let stdin_only = [PathBuf::from("-")];
    let files = if files.is_empty() {
        &stdin_only[..]
    } else {
        files
    };
    files.iter().map(|path| read_input(path)).collect()
}

/// One file, or stdin for `-`.
pub fn read_input(path: &Path) -> Result<Input, CliError> {
    if path.as_os_str() == "-" {
        return Ok(Input {
            source: STDIN.into(),
            bytes: read_stdin()?,
        });
    }
    Ok(Input {
        source: path.display().to_string(),
        bytes: read_file(path)?,
    })
}

/// How standard input is named in messages.
pub const STDIN: &str = "<stdin>";

/// All of standard input, up to `--max-input`.
pub fn read_stdin() -> Result<Vec<u8>, CliError> {
    read_limited(STDIN, std::io::stdin().lock())
}

/// Reads one file, refused when over `--max-input` (told from its size
/// first, so a huge file is never read).
pub fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    let source = path.display().to_string();
    let read_error = |error| CliError::Read {
        input: source.clone(),
        error,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let limit = max_input();
    if file.metadata().map_err(read_error)?.len() > limit {
        return Err(CliError::TooBig {
            input: source,
            limit,
        });
    }
    read_limited(&source, file)
}

/// Reads at most `--max-input` bytes (pipes and devices tell no size).
fn read_limited(source: &str, reader: impl Read) -> Result<Vec<u8>, CliError> {
    let limit = max_input();
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| CliError::Read {
            input: source.into(),
            error,
        })?;
    if bytes.len() as u64 > limit {
        return Err(CliError::TooBig {
            input: source.into(),
            limit,
        });
    }
    Ok(bytes)
}

/// An argument read as an answer: the text, and the file it came from
/// (`None` when the argument was the moves themselves).
pub struct Given {
    pub text: String,
    pub file: Option<String>,
}

/// The answer an argument stands for: `-` standard input, a file's text,
/// or else the argument itself, which must then be written in the letters
/// of moves (or be `Impossible.`): a name that is no file is never judged
/// as moves.
pub fn given(arg: &str) -> Result<Given, CliError> {
    let from = |source: &str, bytes: Vec<u8>| Given {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        file: Some(source.to_string()),
    };
    if arg == "-" {
        if std::io::stdin().is_terminal() {
            return Err(CliError::Usage(
                "'-' reads standard input, and it is a terminal: pipe the answer in".into(),
            ));
        }
        return Ok(from(STDIN, read_stdin()?));
    }
    // A pipe or a device (`<(cmd)`, /dev/stdin) is read like a file.
    let path = Path::new(arg);
    if path.exists() && !path.is_dir() {
        return Ok(from(arg, read_file(path)?));
    }
    // Only letters that may stand in moves: a bad run-length code is the
    // answer's fault, judged as such; anything else names a missing file.
    let move_letters = |c: char| "nsewlurdNSEWLURD()".contains(c) || c.is_ascii_digit();
    if arg.trim() == "Impossible." || arg.chars().all(|c| move_letters(c) || c.is_whitespace()) {
        return Ok(Given {
            text: arg.to_string(),
            file: None,
        });
    }
    let what = if path.is_dir() {
        "a folder, not a file"
    } else {
        "no such file"
    };
    let why = parse_moves(arg)
        .err()
        .map_or(String::new(), |e| format!(" ({e})"));
    Err(CliError::Usage(format!(
        "{}: {what}, and not a move string{why}",
        sokoban::words::quote(arg)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_argument_is_a_file_moves_or_an_error() {
        let moves = given("eennW 2(nN)").unwrap();
        assert_eq!((moves.text.as_str(), moves.file), ("eennW 2(nN)", None));
        assert!(given("Impossible.").unwrap().file.is_none());
        let file = given("Cargo.toml").unwrap();
        assert_eq!(file.file.as_deref(), Some("Cargo.toml"));
        assert!(file.text.contains("[package]"));
        // A bad run-length code is an answer, judged later.
        assert!(given("2e3").unwrap().file.is_none());
        for typo in ["nonexistent.txt", "answers/", "eennX"] {
            let Err(CliError::Usage(why)) = given(typo) else {
                panic!("{typo} read as an answer");
            };
            assert!(why.contains("no such file, and not a move string"), "{why}");
        }
        let Err(CliError::Usage(why)) = given("src") else {
            panic!("a folder read as an answer");
        };
        assert!(why.contains("a folder, not a file"), "{why}");
    }
}
