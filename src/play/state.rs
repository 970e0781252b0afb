//! The game's position and history, with no terminal in sight.
//!
//! Every step goes through [`crate::moves::Position::apply`], the rules
//! `verify` and the solvers' answers are checked with, so the game cannot
//! allow a move they would reject. Undo replays the history from the start
//! with [`crate::moves::replay`] rather than running the rules backwards.

use crate::grid::Direction;
use crate::level::Level;
use crate::moves::{Illegal, Move, Notation, Position, ReplayError, replay};

/// A collection being played: the current level, its position and history.
#[derive(Clone, Debug)]
pub struct Game {
    levels: Vec<Level>,
    index: usize,
    player: usize,
    boxes: Vec<usize>,
    pushes: u64,
    walks: u64,
    /// Moves made since the level started, oldest first.
    done: Vec<Move>,
    /// Moves undone, most recently undone last (what redo makes again).
    undone: Vec<Move>,
}

impl Game {
    /// Starts level `index` (0-based) of `levels`; `None` when there is no such level.
    pub fn new(levels: Vec<Level>, index: usize) -> Option<Game> {
        let level = levels.get(index)?;
        let (player, boxes) = (level.player, level.boxes.clone());
        let mut boxes = boxes;
        boxes.sort_unstable();
        Some(Game {
            levels,
            index,
            player,
            boxes,
            pushes: 0,
            walks: 0,
            done: Vec::new(),
            undone: Vec::new(),
        })
    }

    pub fn level(&self) -> &Level {
        &self.levels[self.index]
    }

    /// 0-based index of the current level.
    pub fn index(&self) -> usize {
        self.index
    }

    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    pub fn player(&self) -> usize {
        self.player
    }

    /// Box cells in index order.
    pub fn boxes(&self) -> &[usize] {
        &self.boxes
    }

    pub fn pushes(&self) -> u64 {
        self.pushes
    }

    /// Every step made: walks and pushes.
    pub fn moves(&self) -> u64 {
        self.pushes + self.walks
    }

    /// The moves made since the level started.
    pub fn history(&self) -> &[Move] {
        &self.done
    }

    /// True when every goal holds a box.
    pub fn solved(&self) -> bool {
        self.position().solved(&self.level().goals)
    }

    /// The current level with its pieces where they are now: what a solver
    /// asked for help starts from.
    pub fn level_now(&self) -> Level {
        Level {
            player: self.player,
            boxes: self.boxes.clone(),
            ..self.level().clone()
        }
    }

    fn position(&self) -> Position<'_> {
        let mut pos = Position::new(&self.level().grid, self.player, &self.boxes);
        pos.pushes = self.pushes;
        pos.walks = self.walks;
        pos
    }

    /// The position after `m`, as plain data (it must not borrow the level).
    fn after(&self, m: Move, strict_case: bool) -> Result<Snapshot, Illegal> {
        let mut pos = self.position();
        pos.apply(m, strict_case)?;
        Ok(Snapshot::of(&pos))
    }

    fn take(&mut self, s: Snapshot) {
        self.player = s.player;
        self.boxes = s.boxes;
        self.pushes = s.pushes;
        self.walks = s.walks;
    }

    /// Steps towards `dir`, pushing a box that is in the way; the move made,
    /// or why it cannot be made (the position is then unchanged).
    pub fn step(&mut self, dir: Direction) -> Result<Move, Illegal> {
        let next = self.after(Move::walk(dir), false)?;
        let made = Move {
            dir,
            push: next.pushes > self.pushes,
        };
        self.take(next);
        self.record(made);
        Ok(made)
    }

    /// Makes a move as written: a push letter must push and a walk letter
    /// must not (unless `strict_case` is false, for `udlr` strings).
    pub fn apply(&mut self, m: Move, strict_case: bool) -> Result<(), Illegal> {
        let next = self.after(m, strict_case)?;
        let made = Move {
            dir: m.dir,
            push: next.pushes > self.pushes,
        };
        self.take(next);
        self.record(made);
        Ok(())
    }

    /// A new move ends what redo could bring back, unless it is that very move.
    fn record(&mut self, m: Move) {
        if self.undone.last() == Some(&m) {
            self.undone.pop();
        } else {
            self.undone.clear();
        }
        self.done.push(m);
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.done.pop() else {
            return false;
        };
        self.undone.push(last);
        self.replay_history();
        true
    }

    /// Makes the last undone move again; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(m) = self.undone.last().copied() else {
            return false;
        };
        self.apply(m, true).is_ok()
    }

    /// Back to the level's start. The moves played can be redone.
    pub fn restart(&mut self) {
        while let Some(m) = self.done.pop() {
            self.undone.push(m);
        }
        self.replay_history();
    }

    /// Opens level `index` (0-based) from its start; false when there is none.
    pub fn open(&mut self, index: usize) -> bool {
        if index >= self.levels.len() {
            return false;
        }
        self.index = index;
        self.done.clear();
        self.undone.clear();
        self.replay_history();
        true
    }

    /// Sets the position to the level's start followed by the history.
    fn replay_history(&mut self) {
        let level = &self.levels[self.index];
        let end: Result<Position<'_>, ReplayError> = replay(
            &level.grid,
            level.player,
            &level.boxes,
            &self.done,
            Notation::Lurd,
        );
        let end = Snapshot::of(&end.expect("the history was made by legal moves"));
        self.take(end);
    }
}

/// A position copied out of a [`Position`], which borrows its grid.
struct Snapshot {
    player: usize,
    boxes: Vec<usize>,
    pushes: u64,
    walks: u64,
}

impl Snapshot {
    fn of(pos: &Position<'_>) -> Snapshot {
        Snapshot {
            player: pos.player,
            boxes: pos.boxes(),
            pushes: pos.pushes,
            walks: pos.walks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Direction::{East, North, South, West};
    use crate::level::parse_xsb;

    /// Two levels: a corridor with one box two steps from its goal, and a
    /// box already home.
    fn game() -> Game {
        let text = b"; first\n#######\n#@ $ .#\n#######\n\n; second\n####\n#@*#\n####\n";
        Game::new(parse_xsb(text, 1000).unwrap(), 0).unwrap()
    }

    #[test]
    fn walks_and_pushes_are_counted_and_a_wall_stops_the_player() {
        let mut g = game();
        assert_eq!(g.step(East), Ok(Move::walk(East)));
        assert_eq!(g.step(East), Ok(Move::push(East)));
        assert_eq!((g.moves(), g.pushes()), (2, 1));
        let before = (g.player(), g.boxes().to_vec());
        assert_eq!(g.step(North), Err(Illegal::IntoWall));
        assert_eq!((g.player(), g.boxes().to_vec()), before);
        assert_eq!(g.history().len(), 2);
    }

    #[test]
    fn a_box_against_a_wall_does_not_move() {
        let mut g = game();
        for _ in 0..3 {
            g.step(East).unwrap();
        }
        assert!(g.solved());
        assert_eq!(g.step(East), Err(Illegal::BoxIntoWall));
        assert!(g.solved());
    }

    #[test]
    fn undo_and_redo_cross_pushes() {
        let mut g = game();
        let start = (g.player(), g.boxes().to_vec());
        for _ in 0..3 {
            g.step(East).unwrap();
        }
        let end = (g.player(), g.boxes().to_vec());
        assert!(g.undo() && g.undo());
        assert_eq!((g.moves(), g.pushes()), (1, 0));
        assert!(!g.solved());
        assert!(g.undo());
        assert_eq!((g.player(), g.boxes().to_vec()), start);
        assert!(!g.undo());
        assert!(g.redo() && g.redo() && g.redo());
        assert!(!g.redo());
        assert_eq!((g.player(), g.boxes().to_vec()), end);
        assert!(g.solved());
    }

    #[test]
    fn a_new_move_ends_redo_but_the_undone_move_itself_keeps_it() {
        let mut g = game();
        g.step(East).unwrap();
        g.step(East).unwrap();
        g.undo();
        g.undo();
        g.step(East).unwrap(); // the undone move: the redo of the push stays
        assert!(g.redo());
        assert_eq!(g.pushes(), 1);
        g.undo();
        g.step(West).unwrap();
        assert!(!g.redo());
    }

    #[test]
    fn restart_goes_back_to_the_start_and_can_be_redone() {
        let mut g = game();
        let start = (g.player(), g.boxes().to_vec());
        g.step(East).unwrap();
        g.step(East).unwrap();
        g.restart();
        assert_eq!(
            (g.player(), g.boxes().to_vec(), g.moves()),
            (start.0, start.1, 0)
        );
        assert!(g.redo() && g.redo());
        assert_eq!(g.pushes(), 1);
    }

    #[test]
    fn levels_open_from_their_start() {
        let mut g = game();
        g.step(East).unwrap();
        assert!(g.open(1));
        assert_eq!((g.index(), g.level().name.as_str()), (1, "second"));
        assert_eq!(g.moves(), 0);
        assert!(g.solved());
        assert!(!g.undo());
        assert!(!g.open(2));
        assert!(g.open(0));
        assert!(!g.solved());
        assert_eq!(g.moves(), 0);
    }

    #[test]
    fn written_moves_keep_their_case_rules() {
        let mut g = game();
        assert_eq!(
            g.apply(Move::push(East), true),
            Err(Illegal::PushWithoutBox)
        );
        g.apply(Move::walk(East), true).unwrap();
        assert_eq!(g.apply(Move::walk(East), true), Err(Illegal::WalkIntoBox));
        g.apply(Move::walk(East), false).unwrap();
        assert_eq!(g.history(), &[Move::walk(East), Move::push(East)]);
        assert_eq!(g.step(South), Err(Illegal::IntoWall));
    }

    #[test]
    fn level_now_carries_the_current_pieces() {
        let mut g = game();
        g.step(East).unwrap();
        g.step(East).unwrap();
        let now = g.level_now();
        assert_eq!(
            (now.player, now.boxes.clone()),
            (g.player(), g.boxes().to_vec())
        );
        assert_eq!(now.goals, g.level().goals);
    }
}
