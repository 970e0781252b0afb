//! The solutions `optimize` starts from when SOLUTIONS is given: a move
//! string for one level, or a file (`-` for stdin) holding a SOK
//! collection's `Solution` sections, `--json` records or text answers.
//!
//! A file that answers no level is an error, and each level it leaves
//! without moves is warned about, so a wrong or empty file never passes
//! silently as "start from the `--fast` answer".

use super::CliError;
use super::input::given;
use sokoban::level::{DEFAULT_MAX_CELLS, Entry, Format, Level, maze_name, parse_entries_as};
use sokoban::moves::parse_moves;
use sokoban::output::LevelRecord;
use sokoban::tools::answers::{answer_to, answers_by_name};
use sokoban::words::{clip, quote};

/// What a file says about one level.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Found {
    /// Move strings to start from.
    Moves(Vec<String>),
    /// An answer that has no moves (`Impossible.`, a limit).
    NoMoves,
    /// Nothing about the level, or an answer that is not moves (and why).
    Missing(Option<String>),
}

/// The move strings to start each level from (empty: the `--fast` answer).
pub fn read(arg: &str, levels: &[Level]) -> Result<Vec<Vec<String>>, CliError> {
    let given = given(arg)?;
    let Some(source) = given.file else {
        if levels.len() != 1 {
            return Err(CliError::Usage(format!(
                "a move string answers one level, and the levels file holds {}",
                levels.len()
            )));
        }
        return Ok(vec![vec![given.text]]);
    };
    let found = found_in(&given.text, &source, levels)?;
    if found.iter().all(|f| matches!(f, Found::Missing(_))) {
        return Err(CliError::Usage(format!(
            "{source}: answers none of the levels (expected a SOK collection with Solution \
             sections, the solver's answers as text or --json, or a move string)"
        )));
    }
    Ok(found
        .into_iter()
        .zip(levels)
        .map(|(f, level)| match f {
            Found::Moves(moves) => moves,
            Found::NoMoves => Vec::new(),
            Found::Missing(why) => {
                let why = why.map_or("no answer".into(), |w| format!("answer is not moves ({w})"));
                note!(
                    "warning: {source}: {}: {why}; it starts from the --fast answer",
                    level.name
                );
                Vec::new()
            }
        })
        .collect())
}

/// Per level, what the file's text says about it, told by its shape.
fn found_in(text: &str, source: &str, levels: &[Level]) -> Result<Vec<Found>, CliError> {
    if let Ok(entries) = parse_entries_as(text.as_bytes(), Format::Auto, DEFAULT_MAX_CELLS)
        && entries.iter().any(|e| !e.solutions.is_empty())
    {
        let stored = |e: &Entry| match e.solutions.as_slice() {
            [] => Found::Missing(None),
            s => Found::Moves(s.iter().map(|s| s.moves.clone()).collect()),
        };
        return Ok(by_name(
            levels,
            entries.iter().map(|e| (e.level.name.clone(), stored(e))),
        ));
    }
    if text.trim_start().starts_with('{') {
        return json_answers(text, source, levels);
    }
    Ok(text_answers(text, levels))
}

/// Answers matched to levels by name when every name is found, else in order.
fn by_name(levels: &[Level], answers: impl Iterator<Item = (String, Found)>) -> Vec<Found> {
    let answers: Vec<(String, Found)> = answers.collect();
    let named = |level: &Level| answers.iter().find(|(n, _)| *n == level.name);
    if levels.iter().all(|l| named(l).is_some()) {
        return levels.iter().map(|l| named(l).unwrap().1.clone()).collect();
    }
    let mut answers = answers.into_iter().map(|(_, a)| a);
    levels
        .iter()
        .map(|_| answers.next().unwrap_or(Found::Missing(None)))
        .collect()
}

/// `--json` records, the solver's or ours: their moves, by name.
fn json_answers(text: &str, source: &str, levels: &[Level]) -> Result<Vec<Found>, CliError> {
    let mut records = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record: LevelRecord = serde_json::from_str(line).map_err(|e| {
            let why = clip(&e.to_string());
            CliError::Usage(format!(
                "{source}:{}:1: not a JSON answer record: {why}",
                k + 1
            ))
        })?;
        let found = record.moves.map_or(Found::NoMoves, |m| {
            moves_of(&m).unwrap_or_else(Found::Missing)
        });
        records.push((record.name, found));
    }
    Ok(by_name(levels, records.into_iter()))
}

/// A text answer file in the solver's shape, read as `verify` reads one:
/// headed by the levels' names, or by `Maze #k` when it opens with one of
/// those and none of the names; for one level the text may be the answer
/// itself.
fn text_answers(text: &str, levels: &[Level]) -> Vec<Found> {
    let names: Vec<String> = levels.iter().map(|l| l.name.clone()).collect();
    let mazes: Vec<String> = (1..=levels.len()).map(maze_name).collect();
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let heads = |headers: &[String]| first.is_some_and(|l| headers.iter().any(|h| h == l));
    let headers = if heads(&mazes) && !heads(&names) {
        &mazes
    } else {
        &names
    };
    let answers = match levels.len() {
        1 => vec![answer_to(text, headers, 0)],
        _ => answers_by_name(text, headers),
    };
    answers
        .into_iter()
        .map(|a| match a {
            None => Found::Missing(None),
            Some(a) if a.is_empty() => Found::Missing(None),
            Some(a) => moves_of(&a).unwrap_or_else(Found::Missing),
        })
        .collect()
}

/// One answer: moves, an answer without moves, or why it is neither.
fn moves_of(answer: &str) -> Result<Found, Option<String>> {
    let answer = answer.trim();
    if answer == "Impossible." || answer.starts_with("No solution found") {
        return Ok(Found::NoMoves);
    }
    match parse_moves(answer) {
        Ok(_) => Ok(Found::Moves(vec![answer.to_string()])),
        Err(why) => Err(Some(format!("{}: {why}", quote(answer)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sokoban::level::parse_xsb;

    fn levels() -> Vec<Level> {
        let text = "; a\n#####\n#@$.#\n#####\n\n; b\n######\n#@$ .#\n######\n";
        parse_xsb(text.as_bytes(), 1000).unwrap()
    }

    #[test]
    fn each_shape_says_what_it_knows_of_each_level() {
        let moves = |m: &str| Found::Moves(vec![m.to_string()]);
        let cases = [
            ("a\nR\n\nb\nRR\n", vec![moves("R"), moves("RR")]),
            (
                "b\nImpossible.\n",
                vec![Found::Missing(None), Found::NoMoves],
            ),
            ("Maze #1\nR\n", vec![moves("R"), Found::Missing(None)]),
            ("", vec![Found::Missing(None), Found::Missing(None)]),
            (
                "{\"name\":\"b\",\"status\":\"solved\",\"moves\":\"RR\",\"seconds\":0.1,\"states\":5}\n\
                 {\"name\":\"a\",\"status\":\"impossible\",\"seconds\":0.1,\"states\":5}",
                vec![Found::NoMoves, moves("RR")],
            ),
        ];
        for (text, want) in cases {
            assert_eq!(found_in(text, "f", &levels()).unwrap(), want, "{text}");
        }
        let garbage = found_in("a\nhello\n", "f", &levels()).unwrap();
        assert!(matches!(&garbage[0], Found::Missing(Some(why)) if why.contains("\"hello\"")));
        assert!(found_in("{oops", "f", &levels()).is_err());
    }
}
