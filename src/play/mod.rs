//! `sokoban play`: the levels the solver reads, played in a terminal, with
//! the solver at hand for hints and solutions and the optimizer for
//! shorter versions of the player's own.
//!
//! Split so that almost all of it is tested without a terminal: [`state`]
//! is the position and its history (on the crate's one rules engine),
//! [`app`] what the player asked for, [`helper`] the solver and the
//! optimizer on a background thread, [`view`] the drawing. The command line owns the terminal and the
//! keys.

pub mod app;
pub mod helper;
pub mod state;
pub mod view;

pub use app::{Action, App, Hint, Note, Request};
pub use state::Game;

use crate::level::Level;
use crate::moves::{Move, parse_moves};
use crate::multi::{Limits, MultiOptions};
use crate::tools::answers::answer_to;
use crate::tools::verify::{Reading, Verdict, verify_level};
use std::time::Duration;

/// What `--replay` plays on level `index`: the moves up to the first illegal
/// one, and `verify`'s verdict on the whole answer. `text` is a move string,
/// or an answer file naming levels (the level's own answer is taken).
pub fn replay_plan(
    levels: &[Level],
    index: usize,
    text: &str,
    time_limit: Duration,
) -> (Vec<Move>, Verdict) {
    let names: Vec<String> = levels.iter().map(|l| l.name.clone()).collect();
    let Some(answer) = answer_to(text, &names, index) else {
        return (Vec::new(), Verdict::Missing);
    };
    let options = MultiOptions {
        limits: Limits {
            time: Some(time_limit),
            ..Limits::default()
        },
        ..MultiOptions::default()
    };
    let verdict = verify_level(&levels[index], &answer, Reading::Auto, &options);
    let mut moves = parse_moves(&answer).unwrap_or_default();
    match &verdict {
        Verdict::Illegal(e) => moves.truncate(e.index - 1),
        Verdict::Replayed { .. } => {}
        _ => moves.clear(),
    }
    (moves, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::moves::{Notation, format_moves};

    #[test]
    fn a_replay_stops_before_the_first_illegal_step() {
        let levels = parse_xsb(
            b"; a\n######\n#@ $.#\n######\n\n; b\n####\n#@*#\n####\n",
            100,
        )
        .unwrap();
        let t = Duration::from_secs(5);
        let (moves, verdict) = replay_plan(&levels, 0, "rRR", t);
        assert_eq!(format_moves(&moves, Notation::Lurd), "rR");
        assert_eq!(
            verdict.describe(),
            "illegal: move 3 (R) pushes a box into a wall"
        );
        let (moves, verdict) = replay_plan(&levels, 0, "eE\n", t);
        assert_eq!(moves.len(), 2);
        assert!(verdict.accepted(false));
        let (moves, verdict) = replay_plan(&levels, 1, "a\nrR\n\nb\n\n", t);
        assert!(moves.is_empty());
        assert!(verdict.accepted(false));
        let (_, verdict) = replay_plan(&levels, 0, "rx", t);
        assert!(matches!(verdict, Verdict::Unreadable(_)));
    }
}
