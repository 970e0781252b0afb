//! What the player asked for and what the game is doing about it: hints,
//! solutions being animated, shorter versions of the player's own, replays,
//! saving. No terminal here either: the command line turns keys into
//! [`Action`]s and draws [`App`] with [`super::view`], so every behaviour
//! can be tested without a screen.
//!
//! What happened last is kept as a typed [`Note`]; [`super::view`] puts it
//! into words.

use super::helper::{OptimizeAnswer, Optimized, Pending, next_push, optimize_limits};
use super::state::Game;
use crate::grid::Direction;
use crate::moves::{Illegal, Limit, Move, Notation, Outcome, Solution, format_moves};
use crate::multi::Limits;
use crate::optimize::read_solution;
use crate::tools::verify::Verdict;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One thing the player can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Move(Direction),
    Undo,
    Redo,
    Restart,
    Next,
    Previous,
    /// Show a hint; on a hint already shown, make it.
    Hint,
    /// Solve from here and animate the answer.
    Solve,
    /// Shorten the solution played and animate the shorter one.
    Optimize,
    Save,
    /// Animation: pause or go on.
    Pause,
    /// Animation: one move while paused.
    Step,
    Faster,
    Slower,
    Quit,
}

/// What the solver was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    Hint,
    Solve,
    Optimize,
}

/// What happened last, for the message line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A level just opened: its number (from 1) and the count.
    Opened {
        number: usize,
        of: usize,
    },
    Blocked(Illegal),
    NothingToUndo,
    NothingToRedo,
    Restarted,
    NoMoreLevels,
    Solved {
        moves: u64,
        pushes: u64,
    },
    AlreadySolved,
    Thinking(Request),
    StillThinking,
    /// The hint: walks, then the push shown on the board.
    Hint {
        walks: usize,
        push: Direction,
    },
    /// The position changed while the solver worked.
    Stale,
    /// No solution played to optimize.
    NothingToOptimize,
    /// A shorter solution, playing from the start, and the played one's counts.
    Optimized {
        moves: u64,
        pushes: u64,
        was_moves: u64,
        was_pushes: u64,
    },
    /// Nothing shorter than the played solution; what cut the search short.
    NoShorter {
        moves: u64,
        pushes: u64,
        limit: Option<Limit>,
    },
    Unsolvable,
    GaveUp(Limit),
    Animating,
    Paused,
    Stopped,
    /// A replay ended: `verify`'s verdict on the whole move string.
    Replayed(Verdict),
    Saved(PathBuf),
    SaveFailed {
        path: PathBuf,
        error: String,
    },
}

/// The next push of a solution from the current position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub moves: Vec<Move>,
    /// The box the hint pushes and where it goes.
    pub box_cell: usize,
    pub to: usize,
}

/// A request under way, with the position it started from.
#[derive(Debug)]
struct Asked {
    request: Request,
    key: (usize, usize, Vec<usize>),
    work: Work,
}

/// What the background thread is working on.
#[derive(Debug)]
enum Work {
    /// A hint or a solution from the position.
    Solve(Pending<Outcome>),
    /// A shorter version of `was`, the solution played.
    Optimize {
        pending: Pending<OptimizeAnswer>,
        was: Solution,
    },
}

/// Moves being played out one by one.
#[derive(Clone, Debug)]
struct Animation {
    moves: VecDeque<Move>,
    paused: bool,
    /// What to say at the end (a replay's verdict).
    end: Option<Note>,
}

/// Delays between animated moves, slowest first.
const SPEEDS_MS: [u64; 9] = [800, 400, 250, 150, 100, 60, 35, 20, 10];

/// The game and everything around it.
#[derive(Debug)]
pub struct App {
    game: Game,
    note: Option<Note>,
    hint: Option<Hint>,
    asked: Option<Asked>,
    animation: Option<Animation>,
    speed: usize,
    time_limit: Duration,
    optimize_limits: Limits,
    save_dir: PathBuf,
    /// The input file's stem, the first part of a saved file's name.
    stem: String,
    quit: bool,
}

impl App {
    /// The solver gets `time_limit` per request; `W` saves into `save_dir`.
    pub fn new(game: Game, time_limit: Duration, save_dir: &Path, stem: &str) -> App {
        let note = Note::Opened {
            number: game.index() + 1,
            of: game.level_count(),
        };
        App {
            game,
            note: Some(note),
            hint: None,
            asked: None,
            animation: None,
            speed: 4,
            time_limit,
            optimize_limits: optimize_limits(),
            save_dir: save_dir.to_path_buf(),
            stem: stem.to_string(),
            quit: false,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn note(&self) -> Option<&Note> {
        self.note.as_ref()
    }

    pub fn hint(&self) -> Option<&Hint> {
        self.hint.as_ref()
    }

    pub fn quitting(&self) -> bool {
        self.quit
    }

    /// True while the solver works on a request.
    pub fn thinking(&self) -> Option<Request> {
        self.asked.as_ref().map(|a| a.request)
    }

    /// True while moves are being played out (paused or not).
    pub fn animating(&self) -> bool {
        self.animation.is_some()
    }

    pub fn paused(&self) -> bool {
        self.animation.as_ref().is_some_and(|a| a.paused)
    }

    /// Animation speed, 1 (slowest) to 9.
    pub fn speed(&self) -> usize {
        self.speed
    }

    /// Time between two animated moves.
    pub fn step_delay(&self) -> Duration {
        Duration::from_millis(SPEEDS_MS[self.speed - 1])
    }

    /// Does what the player asked.
    pub fn handle(&mut self, action: Action) {
        match action {
            Action::Quit => self.quit = true,
            Action::Pause | Action::Step | Action::Faster | Action::Slower => self.control(action),
            Action::Hint if self.hint.is_some() => self.take_hint(),
            Action::Hint => self.ask(Request::Hint),
            Action::Solve => self.ask(Request::Solve),
            Action::Optimize => self.ask_optimize(),
            Action::Save => self.save(),
            _ => {
                if self.animation.take().is_some() {
                    self.note = Some(Note::Stopped);
                    return;
                }
                self.hint = None;
                self.play(action);
            }
        }
    }

    /// The actions that change the position.
    fn play(&mut self, action: Action) {
        let g = &mut self.game;
        self.note = match action {
            Action::Move(dir) => g.step(dir).err().map(Note::Blocked),
            Action::Undo => (!g.undo()).then_some(Note::NothingToUndo),
            Action::Redo => (!g.redo()).then_some(Note::NothingToRedo),
            Action::Restart => {
                g.restart();
                Some(Note::Restarted)
            }
            Action::Next | Action::Previous => {
                let to = match action {
                    Action::Next => g.index() + 1,
                    _ => g.index().wrapping_sub(1),
                };
                Some(if g.open(to) {
                    Note::Opened {
                        number: to + 1,
                        of: g.level_count(),
                    }
                } else {
                    Note::NoMoreLevels
                })
            }
            _ => None,
        };
        self.note_if_solved(action);
    }

    /// A move that fills the last goal says so.
    fn note_if_solved(&mut self, action: Action) {
        let moved = matches!(action, Action::Move(_) | Action::Redo | Action::Hint);
        if moved && self.note.is_none() && self.game.solved() {
            self.note = Some(Note::Solved {
                moves: self.game.moves(),
                pushes: self.game.pushes(),
            });
        }
    }

    /// Pause, step and speed keys of an animation.
    fn control(&mut self, action: Action) {
        match action {
            Action::Faster => self.speed = (self.speed + 1).min(SPEEDS_MS.len()),
            Action::Slower => self.speed = (self.speed - 1).max(1),
            Action::Pause => {
                if let Some(a) = &mut self.animation {
                    a.paused = !a.paused;
                    self.note = Some(if a.paused {
                        Note::Paused
                    } else {
                        Note::Animating
                    });
                }
            }
            _ => {
                if self.paused() {
                    self.animate_one();
                }
            }
        }
    }

    fn key(&self) -> (usize, usize, Vec<usize>) {
        let g = &self.game;
        (g.index(), g.player(), g.boxes().to_vec())
    }

    fn ask(&mut self, request: Request) {
        self.animation = None;
        self.note = Some(if self.asked.is_some() {
            Note::StillThinking
        } else if self.game.solved() {
            Note::AlreadySolved
        } else {
            self.asked = Some(Asked {
                request,
                key: self.key(),
                work: Work::Solve(Pending::start(self.game.level_now(), self.time_limit)),
            });
            Note::Thinking(request)
        });
    }

    /// Starts shortening the moves played from the level's start, when they
    /// solve it; otherwise says so and changes nothing.
    fn ask_optimize(&mut self) {
        if self.asked.is_some() {
            self.note = Some(Note::StillThinking);
            return;
        }
        let level = self.game.level();
        let Ok(was) = read_solution(level, self.game.history()) else {
            self.note = Some(Note::NothingToOptimize);
            return;
        };
        let pending = Pending::optimize(
            level.clone(),
            was.moves.clone(),
            self.optimize_limits.clone(),
        );
        self.animation = None;
        self.asked = Some(Asked {
            request: Request::Optimize,
            key: self.key(),
            work: Work::Optimize { pending, was },
        });
        self.note = Some(Note::Thinking(Request::Optimize));
    }

    /// Takes the solver's answer when it has come.
    pub fn poll_solver(&mut self) {
        let Some(asked) = &self.asked else {
            return;
        };
        let (request, stale) = (asked.request, asked.key != self.key());
        match &asked.work {
            Work::Solve(pending) => {
                let Some(outcome) = pending.poll() else {
                    return;
                };
                self.asked = None;
                if stale {
                    self.note = Some(Note::Stale);
                } else {
                    self.take_outcome(request, outcome);
                }
            }
            Work::Optimize { pending, was } => {
                let Some(answer) = pending.poll() else {
                    return;
                };
                let was = (was.pushes + was.walks, was.pushes);
                self.asked = None;
                if stale {
                    self.note = Some(Note::Stale);
                } else {
                    self.take_optimized(answer, was);
                }
            }
        }
    }

    /// A hint shown or a solution animated, or why there is none.
    fn take_outcome(&mut self, request: Request, outcome: Outcome) {
        let solution = match outcome {
            Outcome::Solved(s) => s,
            Outcome::Impossible => return self.note = Some(Note::Unsolvable),
            Outcome::Limit(why) => return self.note = Some(Note::GaveUp(why)),
        };
        match request {
            Request::Hint => self.show_hint(next_push(&solution.moves).to_vec()),
            Request::Solve | Request::Optimize => self.start_animation(solution.moves, None),
        }
    }

    /// A shorter solution played from the level's start, or the word that
    /// there is none (the board stays as it is). `was`: the played one's
    /// moves and pushes.
    fn take_optimized(&mut self, answer: OptimizeAnswer, was: (u64, u64)) {
        let (was_moves, was_pushes) = was;
        let shorter = match answer {
            Ok(Optimized::Shorter(s)) => s,
            Ok(Optimized::NoShorter(limit)) => {
                self.note = Some(Note::NoShorter {
                    moves: was_moves,
                    pushes: was_pushes,
                    limit,
                });
                return;
            }
            // The moves were read before the thread started: not expected.
            Err(_) => return self.note = Some(Note::NothingToOptimize),
        };
        let note = Note::Optimized {
            moves: shorter.pushes + shorter.walks,
            pushes: shorter.pushes,
            was_moves,
            was_pushes,
        };
        self.game.restart();
        self.start_animation(shorter.moves, Some(note.clone()));
        self.note = Some(note);
    }

    /// Marks the box the hint pushes and where it goes.
    fn show_hint(&mut self, moves: Vec<Move>) {
        let grid = &self.game.level().grid;
        let mut player = self.game.player();
        for m in &moves[..moves.len().saturating_sub(1)] {
            player = grid.step(player, m.dir);
        }
        let Some(last) = moves.last().copied() else {
            return;
        };
        let box_cell = grid.step(player, last.dir);
        self.note = Some(Note::Hint {
            walks: moves.len() - 1,
            push: last.dir,
        });
        self.hint = Some(Hint {
            to: grid.step(box_cell, last.dir),
            box_cell,
            moves,
        });
    }

    fn take_hint(&mut self) {
        let hint = self.hint.take().expect("checked by the caller");
        self.note = None;
        for m in hint.moves {
            if let Err(why) = self.game.apply(m, true) {
                self.note = Some(Note::Blocked(why));
                return;
            }
        }
        self.note_if_solved(Action::Hint);
    }

    fn start_animation(&mut self, moves: Vec<Move>, end: Option<Note>) {
        self.hint = None;
        self.note = Some(Note::Animating);
        self.animation = Some(Animation {
            moves: moves.into(),
            paused: false,
            end,
        });
    }

    /// Replays `moves` from the level's start; they must be the legal
    /// prefix `verify` found, and its verdict is shown at the end.
    pub fn replay(&mut self, moves: Vec<Move>, verdict: Verdict) {
        self.game.restart();
        self.start_animation(moves, Some(Note::Replayed(verdict)));
    }

    /// One animation step, when one is due and not paused.
    pub fn advance(&mut self) {
        if self.animation.as_ref().is_some_and(|a| !a.paused) {
            self.animate_one();
        }
    }

    fn animate_one(&mut self) {
        let Some(anim) = &mut self.animation else {
            return;
        };
        let next = anim.moves.pop_front();
        let result = next.map(|m| self.game.apply(m, false));
        if matches!(result, Some(Ok(()))) && !anim.moves.is_empty() {
            return;
        }
        let end = self.animation.take().and_then(|a| a.end);
        self.note = match result {
            Some(Err(why)) => Some(Note::Blocked(why)),
            _ => end,
        };
        if self.note.is_none() {
            self.note_if_solved(Action::Redo);
        }
    }

    /// Where `W` writes: `<file>-<level>.lurd` in the save folder.
    pub fn save_path(&self) -> PathBuf {
        let slug = |s: &str| {
            let kept: String = s
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect();
            kept.split('-')
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join("-")
        };
        let name = format!("{}-{}", slug(&self.stem), slug(&self.game.level().name));
        self.save_dir
            .join(format!("{}.lurd", name.trim_matches('-')))
    }

    fn save(&mut self) {
        let path = self.save_path();
        let text = format_moves(self.game.history(), Notation::Lurd) + "\n";
        self.note = Some(match std::fs::write(&path, text) {
            Ok(()) => Note::Saved(path),
            Err(e) => Note::SaveFailed {
                path,
                error: e.to_string(),
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Direction::{East, North, South, West};
    use crate::level::parse_xsb;
    use crate::moves::parse_moves;

    const TWO: &[u8] = b"; a\n######\n#@ $.#\n######\n\n; b\n#######\n#@$ . #\n#  $. #\n#######\n";

    fn app(dir: &Path) -> App {
        let game = Game::new(parse_xsb(TWO, 100).unwrap(), 0).unwrap();
        App::new(game, Duration::from_secs(10), dir, "two")
    }

    /// Waits for the background solve (no timing asserted: it just has to come).
    fn settle(app: &mut App) {
        while app.thinking().is_some() {
            std::thread::sleep(Duration::from_millis(5));
            app.poll_solver();
        }
    }

    #[test]
    fn a_hint_marks_the_next_push_and_a_second_press_makes_it() {
        let mut a = app(Path::new("."));
        a.handle(Action::Hint);
        assert_eq!(a.note(), Some(&Note::Thinking(Request::Hint)));
        settle(&mut a);
        let hint = a.hint().unwrap().clone();
        assert_eq!(
            a.note(),
            Some(&Note::Hint {
                walks: 1,
                push: East
            })
        );
        assert_eq!(hint.box_cell, a.game().level().boxes[0]);
        assert_eq!(hint.to, a.game().level().goals[0]);
        a.handle(Action::Hint);
        assert!(a.game().solved());
        assert_eq!(
            a.note(),
            Some(&Note::Solved {
                moves: 2,
                pushes: 1
            })
        );
        assert!(a.hint().is_none());
    }

    #[test]
    fn a_hint_for_an_old_position_is_dropped() {
        let mut a = app(Path::new("."));
        a.handle(Action::Hint);
        a.handle(Action::Move(East));
        // The answer is only taken by poll_solver, so always after the move.
        settle(&mut a);
        assert_eq!(a.note(), Some(&Note::Stale));
        assert!(a.hint().is_none());
    }

    #[test]
    fn solve_animates_to_the_end_and_pause_holds_it() {
        let mut a = app(Path::new("."));
        a.handle(Action::Next);
        a.handle(Action::Solve);
        settle(&mut a);
        assert!(a.animating());
        a.handle(Action::Pause);
        a.advance();
        assert_eq!(a.game().moves(), 0);
        a.handle(Action::Step);
        assert_eq!(a.game().moves(), 1);
        a.handle(Action::Pause);
        while a.animating() {
            a.advance();
        }
        assert!(a.game().solved());
        assert_eq!(a.game().pushes(), 3);
        assert!(matches!(a.note(), Some(Note::Solved { pushes: 3, .. })));
    }

    #[test]
    fn a_move_key_stops_an_animation() {
        let mut a = app(Path::new("."));
        a.replay(parse_moves("rR").unwrap(), Verdict::Missing);
        a.advance();
        a.handle(Action::Move(West));
        assert!(!a.animating());
        assert_eq!(a.note(), Some(&Note::Stopped));
        assert_eq!(a.game().moves(), 1);
    }

    #[test]
    fn a_replay_ends_with_its_verdict() {
        let mut a = app(Path::new("."));
        a.handle(Action::Move(East));
        a.replay(parse_moves("r").unwrap(), Verdict::Missing);
        assert_eq!(a.game().moves(), 0);
        a.advance();
        assert!(!a.animating());
        assert_eq!(a.note(), Some(&Note::Replayed(Verdict::Missing)));
        assert_eq!(a.game().moves(), 1);
    }

    #[test]
    fn unsolvable_positions_and_solved_levels_say_so() {
        let mut a = app(Path::new("."));
        a.handle(Action::Next);
        for d in [East, East, East] {
            a.handle(Action::Move(d));
        }
        // The upper box is now in the right-hand corner of the top row.
        a.handle(Action::Solve);
        settle(&mut a);
        assert_eq!(a.note(), Some(&Note::Unsolvable));
        a.handle(Action::Previous);
        a.handle(Action::Move(East));
        a.handle(Action::Move(East));
        a.handle(Action::Hint);
        assert_eq!(a.note(), Some(&Note::AlreadySolved));
        a.handle(Action::Previous);
        assert_eq!(a.note(), Some(&Note::NoMoreLevels));
    }

    #[test]
    fn a_level_the_solver_cannot_finish_in_time_says_so() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/levels/sasquatch.xsb"
        );
        let levels = parse_xsb(&std::fs::read(path).unwrap(), 10_000).unwrap();
        let game = Game::new(levels, 0).unwrap();
        // A limit too short for any search to finish: the answer is the limit.
        let mut a = App::new(game, Duration::from_nanos(1), Path::new("."), "s");
        a.handle(Action::Solve);
        settle(&mut a);
        assert_eq!(
            a.note(),
            Some(&Note::GaveUp(Limit::Time(Duration::from_nanos(1))))
        );
        assert!(!a.animating());
    }

    /// An app whose optimizer stops on nodes, not time: the same answer on
    /// any machine (the levels here finish far below the limit).
    fn app_optimizing(dir: &Path) -> App {
        let mut a = app(dir);
        a.optimize_limits = Limits {
            time: None,
            max_nodes: Some(100_000),
            ..Limits::default()
        };
        a
    }

    fn play(a: &mut App, keys: &str) {
        for m in parse_moves(keys).unwrap() {
            a.handle(Action::Move(m.dir));
        }
    }

    #[test]
    fn o_on_a_solved_game_plays_a_shorter_solution_from_the_start() {
        for (level, keys) in [(0, "rlrR"), (1, "snRRwsE"), (1, "seEwwnRR")] {
            let mut a = app_optimizing(Path::new("."));
            a.game.open(level);
            play(&mut a, keys);
            assert!(a.game().solved(), "{keys}");
            let (played_moves, played_pushes) = (a.game().moves(), a.game().pushes());
            a.handle(Action::Optimize);
            assert_eq!(a.note(), Some(&Note::Thinking(Request::Optimize)));
            assert_eq!(a.thinking(), Some(Request::Optimize));
            settle(&mut a);
            let Some(&Note::Optimized {
                moves,
                pushes,
                was_moves,
                was_pushes,
            }) = a.note()
            else {
                panic!("{keys}: {:?}", a.note());
            };
            assert_eq!((was_moves, was_pushes), (played_moves, played_pushes));
            assert!(moves < played_moves, "{keys}");
            assert_eq!(a.game().moves(), 0);
            assert!(a.animating());
            while a.animating() {
                a.advance();
            }
            assert!(a.game().solved());
            assert_eq!((a.game().moves(), a.game().pushes()), (moves, pushes));
            assert!(matches!(a.note(), Some(Note::Optimized { .. })));
        }
    }

    #[test]
    fn o_keeps_a_solution_nothing_beats() {
        let mut a = app_optimizing(Path::new("."));
        play(&mut a, "rR");
        a.handle(Action::Optimize);
        settle(&mut a);
        assert_eq!(
            a.note(),
            Some(&Note::NoShorter {
                moves: 2,
                pushes: 1,
                limit: None
            })
        );
        assert!(!a.animating());
        assert_eq!(a.game().history(), parse_moves("rR").unwrap());
    }

    #[test]
    fn o_on_an_unsolved_game_says_so_and_changes_nothing() {
        let mut a = app_optimizing(Path::new("."));
        play(&mut a, "rl");
        a.handle(Action::Optimize);
        assert_eq!(a.note(), Some(&Note::NothingToOptimize));
        assert_eq!(a.thinking(), None);
        assert_eq!(a.game().history(), parse_moves("rl").unwrap());
        assert!(!a.animating());
        assert_eq!(a.game().player(), a.game().level().player);
    }

    #[test]
    fn an_optimized_answer_for_a_position_left_is_dropped_and_quit_does_not_wait() {
        let mut a = app_optimizing(Path::new("."));
        play(&mut a, "rlrR");
        a.handle(Action::Optimize);
        a.handle(Action::Optimize);
        assert_eq!(a.note(), Some(&Note::StillThinking));
        a.handle(Action::Undo);
        settle(&mut a);
        assert_eq!(a.note(), Some(&Note::Stale));
        assert_eq!(a.game().moves(), 3);
        a.handle(Action::Redo);
        a.handle(Action::Optimize);
        a.handle(Action::Quit);
        assert!(a.quitting());
    }

    #[test]
    fn blocked_moves_and_empty_histories_are_noted() {
        let mut a = app(Path::new("."));
        a.handle(Action::Move(North));
        assert_eq!(a.note(), Some(&Note::Blocked(Illegal::IntoWall)));
        a.handle(Action::Undo);
        assert_eq!(a.note(), Some(&Note::NothingToUndo));
        a.handle(Action::Redo);
        assert_eq!(a.note(), Some(&Note::NothingToRedo));
        a.handle(Action::Move(South));
        a.handle(Action::Quit);
        assert!(a.quitting());
    }

    #[test]
    fn save_writes_lurd_named_after_the_level() {
        let dir = std::env::temp_dir().join(format!("sokoban-play-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut a = app(&dir);
        a.handle(Action::Move(East));
        a.handle(Action::Move(East));
        a.handle(Action::Save);
        let path = dir.join("two-a.lurd");
        assert_eq!(a.note(), Some(&Note::Saved(path.clone())));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "rR\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
