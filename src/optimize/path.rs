//! The given solution as the optimizer sees it: cut at the push that solves
//! the level, and the box placement after every push (the path the search
//! stays near).

use super::OptimizeError;
use crate::level::Level;
use crate::moves::{Move, Position, Solution};

/// A solution and the box sets along it.
pub(crate) struct Path {
    pub solution: Solution,
    /// Sorted box cells at the start and after each push.
    pub placements: Vec<Vec<u32>>,
}

impl Path {
    /// Replays `moves` on the level: the moves up to the first solved
    /// position (a walk or push letter in the wrong case is read as what
    /// the step does), or why they are no solution.
    pub(crate) fn read(level: &Level, moves: &[Move]) -> Result<Path, OptimizeError> {
        let mut pos = Position::new(&level.grid, level.player, &level.boxes);
        let mut placements = vec![cells(&pos)];
        let mut kept = Vec::new();
        if !pos.solved(&level.goals) {
            for (i, &m) in moves.iter().enumerate() {
                let pushes = pos.pushes;
                pos.apply(m, false)
                    .map_err(|why| OptimizeError::Illegal { index: i + 1, why })?;
                let push = pos.pushes > pushes;
                kept.push(Move { dir: m.dir, push });
                if push {
                    placements.push(cells(&pos));
                    if pos.solved(&level.goals) {
                        break;
                    }
                }
            }
            if !pos.solved(&level.goals) {
                return Err(OptimizeError::Unsolved);
            }
        }
        Ok(Path {
            solution: Solution::from_moves(kept),
            placements,
        })
    }
}

fn cells(pos: &Position) -> Vec<u32> {
    pos.boxes().into_iter().map(|c| c as u32).collect()
}
