//! `sokoban verify`: check a given answer against a level, as a judge would.
//!
//! An answer is a move string in any notation (the case of a letter tells a
//! push from a walk; an all-capital `U D L R` string that only makes sense
//! without that distinction is read as `udlr`), an empty line (the box is
//! already home), or `Impossible.`. It is replayed move by move; single-box
//! answers are also compared with the solver's optimum.

use crate::level::{Level, Maze};
use crate::moves::{
    BadMoves, Illegal, Move, Notation, Outcome, ReplayError, expand_run_lengths, parse_moves,
    replay,
};
use crate::multi::{self, MultiOptions};
use crate::single::{Algorithm, solve};

/// How to read the letters of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reading {
    /// `nsew` or `lurd` by case; all-capital `UDLR` falls back to `udlr`.
    #[default]
    Auto,
    Fixed(Notation),
}

/// The judgement of one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A character that is no move, or a broken run-length code.
    Unreadable(BadMoves),
    /// The first step that cannot be made.
    Illegal(ReplayError),
    /// The moves replay; counts, whether the level ends solved, and (single
    /// box) the optimum: `Some(None)` when the solver finds no solution.
    Replayed {
        pushes: u64,
        walks: u64,
        solved: bool,
        optimum: Option<Option<(u64, u64)>>,
        notation: Notation,
    },
    /// The answer says `Impossible.`; `optimum` is the solver's solution if any.
    ClaimedImpossible { optimum: Option<(u64, u64)> },
    /// No answer was given for this level.
    Missing,
    /// The claim could not be settled: the search reached a limit.
    Unchecked(crate::moves::Limit),
}

impl Verdict {
    /// True when the answer is right (and, with `require_optimal`, optimal).
    pub fn accepted(&self, require_optimal: bool) -> bool {
        match self {
            Verdict::Replayed {
                pushes,
                walks,
                solved,
                optimum,
                ..
            } => {
                *solved
                    && (!require_optimal || optimum.is_none_or(|o| o == Some((*pushes, *walks))))
            }
            Verdict::ClaimedImpossible { optimum } => optimum.is_none(),
            _ => false,
        }
    }

    /// One line saying what was found.
    pub fn describe(&self) -> String {
        match self {
            Verdict::Unreadable(b) => format!("invalid: {b}"),
            Verdict::Illegal(e) => format!("illegal: {e}"),
            Verdict::Replayed {
                pushes,
                walks,
                solved,
                optimum,
                notation,
            } => {
                let mut s = format!(
                    "{pushes} {walks} {}",
                    if *solved { "solved" } else { "not solved" }
                );
                if *solved {
                    match optimum {
                        Some(Some(o)) if *o == (*pushes, *walks) => s.push_str(" optimal"),
                        Some(Some((p, w))) => {
                            s.push_str(&format!(" not optimal (optimum: {p} {w})"))
                        }
                        _ => {}
                    }
                }
                if *notation == Notation::Udlr {
                    s.push_str(" (read as udlr)");
                }
                s
            }
            Verdict::ClaimedImpossible { optimum: None } => "Impossible. correct".into(),
            Verdict::ClaimedImpossible {
                optimum: Some((p, w)),
            } => format!("Impossible. wrong (a solution exists: {p} {w})"),
            Verdict::Missing => "missing answer".into(),
            Verdict::Unchecked(why) => {
                format!("Impossible. not checked (search stopped: {why})")
            }
        }
    }
}

/// The moves an answer spells and how they were read, or its verdict when it
/// is not a move string.
fn read_answer(
    text: &str,
    reading: Reading,
    check: impl Fn(&[Move], Notation) -> Result<(), ReplayError>,
) -> Result<(Vec<Move>, Notation), Verdict> {
    let text = &expand_run_lengths(text).map_err(|e| Verdict::Unreadable(e.into()))?;
    let moves = parse_moves(text).map_err(Verdict::Unreadable)?;
    match reading {
        Reading::Fixed(n) => Ok((moves, n)),
        Reading::Auto => {
            let letters = text.chars().filter(|c| !c.is_whitespace());
            let udlr_only = letters.clone().all(|c| "UDLR".contains(c));
            let strict = if text.contains(['n', 's', 'e', 'w', 'N', 'S', 'E', 'W']) {
                Notation::Nsew
            } else {
                Notation::Lurd
            };
            if udlr_only
                && !moves.is_empty()
                && let Err(e) = check(&moves, strict)
                && e.why == Illegal::PushWithoutBox
                && check(&moves, Notation::Udlr).is_ok()
            {
                return Ok((moves, Notation::Udlr));
            }
            Ok((moves, strict))
        }
    }
}

/// Judges an answer to a single-box maze, and compares it with the optimum.
///
/// ```
/// use sokoban::level::parse_single;
/// use sokoban::tools::verify::{Reading, verify_maze};
///
/// let maze = parse_single(b"#######\n#S.B.T#\n#######", 100).unwrap().mazes.remove(0);
/// let verdict = verify_maze(&maze, "eEE", Reading::Auto);
/// assert_eq!(verdict.describe(), "2 1 solved optimal");
/// assert!(verdict.accepted(true));
/// assert!(!verify_maze(&maze, "eE", Reading::Auto).accepted(false));
/// ```
pub fn verify_maze(maze: &Maze, answer: &str, reading: Reading) -> Verdict {
    let optimum = || match solve(maze, Algorithm::Layered).outcome {
        Outcome::Solved(s) => Some((s.pushes, s.walks)),
        _ => None,
    };
    if answer.trim() == "Impossible." {
        return Verdict::ClaimedImpossible { optimum: optimum() };
    }
    let boxes = [maze.box_cell];
    let check =
        |moves: &[Move], n: Notation| replay(&maze.grid, maze.player, &boxes, moves, n).map(|_| ());
    let (moves, notation) = match read_answer(answer, reading, check) {
        Ok(m) => m,
        Err(v) => return v,
    };
    match replay(&maze.grid, maze.player, &boxes, &moves, notation) {
        Err(e) => Verdict::Illegal(e),
        Ok(end) => Verdict::Replayed {
            pushes: end.pushes,
            walks: end.walks,
            solved: end.has_box(maze.target),
            optimum: Some(optimum()),
            notation,
        },
    }
}

/// Judges an answer to a multi-box level (no optimality: that needs a full
/// search). A claim of `Impossible.` is checked by a search under `options`.
///
/// ```
/// use sokoban::level::parse_xsb;
/// use sokoban::multi::MultiOptions;
/// use sokoban::tools::verify::{Reading, Verdict, verify_level};
///
/// let levels = parse_xsb(b"#######\n#@$ .##\n# $ . #\n#######\n", 100).unwrap();
/// let options = MultiOptions::default();
/// let verdict = verify_level(&levels[0], "RRlldRR", Reading::Auto, &options);
/// assert_eq!(verdict.describe(), "4 3 solved");
/// let verdict = verify_level(&levels[0], "RRu", Reading::Auto, &options);
/// assert!(matches!(verdict, Verdict::Illegal(_)));
/// assert_eq!(verdict.describe(), "illegal: move 3 (u) walks into a wall");
/// ```
pub fn verify_level(
    level: &Level,
    answer: &str,
    reading: Reading,
    options: &MultiOptions,
) -> Verdict {
    if answer.trim() == "Impossible." {
        return match multi::solve(level, options, &mut |_| {}).outcome {
            Outcome::Solved(s) => Verdict::ClaimedImpossible {
                optimum: Some((s.pushes, s.walks)),
            },
            Outcome::Impossible => Verdict::ClaimedImpossible { optimum: None },
            Outcome::Limit(why) => Verdict::Unchecked(why),
        };
    }
    let check = |moves: &[Move], n: Notation| {
        replay(&level.grid, level.player, &level.boxes, moves, n).map(|_| ())
    };
    let (moves, notation) = match read_answer(answer, reading, check) {
        Ok(m) => m,
        Err(v) => return v,
    };
    match replay(&level.grid, level.player, &level.boxes, &moves, notation) {
        Err(e) => Verdict::Illegal(e),
        Ok(end) => Verdict::Replayed {
            pushes: end.pushes,
            walks: end.walks,
            solved: end.solved(&level.goals),
            optimum: None,
            notation,
        },
    }
}

/// Judges a solution stored with a level (a SOK `Solution` section): a level
/// with one box is judged as a single-box maze, so its optimality is known too.
/// SOK files write LURD, case telling pushes, so all capitals are never udlr.
pub fn verify_stored(level: &Level, moves: &str, options: &MultiOptions) -> Verdict {
    let reading = Reading::Fixed(Notation::Lurd);
    match (level.boxes.as_slice(), level.goals.as_slice()) {
        (&[box_cell], &[target]) => {
            let maze = Maze {
                grid: level.grid.clone(),
                alphabet: level.alphabet,
                player: level.player,
                box_cell,
                target,
            };
            verify_maze(&maze, moves, reading)
        }
        _ => verify_level(level, moves, reading, options),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_single;

    fn maze() -> Maze {
        parse_single(b"#######\n#S.B.T#\n#.....#\n#######", 100)
            .unwrap()
            .mazes
            .remove(0)
    }

    #[test]
    fn optimal_and_not() {
        let m = maze();
        let v = verify_maze(&m, "eEE", Reading::Auto);
        assert_eq!(v.describe(), "2 1 solved optimal");
        assert!(v.accepted(true));
        let v = verify_maze(&m, "eweEE", Reading::Auto);
        assert_eq!(v.describe(), "2 3 solved not optimal (optimum: 2 1)");
        assert!(v.accepted(false) && !v.accepted(true));
        let v = verify_maze(&m, "eE", Reading::Auto);
        assert_eq!(v.describe(), "1 1 not solved");
        assert!(!v.accepted(false));
    }

    #[test]
    fn every_illegal_class() {
        let m = maze();
        let cases = [
            ("n", Illegal::IntoWall, 1),
            ("ee", Illegal::WalkIntoBox, 2),
            ("E", Illegal::PushWithoutBox, 1),
            ("eEEE", Illegal::BoxIntoWall, 4),
        ];
        for (answer, why, index) in cases {
            match verify_maze(&m, answer, Reading::Auto) {
                Verdict::Illegal(e) => assert_eq!((e.why, e.index), (why, index), "{answer}"),
                other => panic!("{answer}: {other:?}"),
            }
        }
        assert!(matches!(
            verify_maze(&m, "eXE", Reading::Auto),
            Verdict::Unreadable(_)
        ));
    }

    #[test]
    fn notations_and_claims() {
        let m = maze();
        assert_eq!(
            verify_maze(&m, "rRR", Reading::Auto).describe(),
            "2 1 solved optimal"
        );
        // All capitals: a walk then pushes only make sense as udlr.
        assert_eq!(
            verify_maze(&m, "RRR", Reading::Auto).describe(),
            "2 1 solved optimal (read as udlr)"
        );
        assert!(matches!(
            verify_maze(&m, "RRR", Reading::Fixed(Notation::Lurd)),
            Verdict::Illegal(_)
        ));
        assert_eq!(
            verify_maze(&m, "Impossible.", Reading::Auto).describe(),
            "Impossible. wrong (a solution exists: 2 1)"
        );
        let stuck = parse_single(b"#####\n#S.T#\n#B..#\n#####", 100)
            .unwrap()
            .mazes
            .remove(0);
        assert!(verify_maze(&stuck, "Impossible.", Reading::Auto).accepted(true));
    }
}
