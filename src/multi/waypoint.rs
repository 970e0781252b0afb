//! A level solved by way of its imagined board, as Festival's strategies
//! led by one solve it: the boxes first go where the backward search that
//! takes no box off the board spread them out to
//! ([`crate::multi::guide::unpack::imagine`]), by a forward search with
//! those squares as its goals, and from there that backward search's pulls,
//! undone, pack them. Where the goals are hard to reach forwards, each half
//! is often easy: the forward search only spreads the boxes, in an order
//! of its own, and the packing is known.

use super::board::Board;
use super::options::{Limits, MultiStats, Progress};
use super::search::{self, Config};
use crate::moves::{Limit, Outcome, Solution};
use crate::multi::guide::unpack::Imagined;
use std::sync::atomic::AtomicBool;

/// Runs the forward search of `config` on `board` with the imagined
/// board's squares as its goals, within `limits`, then appends the pushes
/// from there to the solved position. Where the search ends with the player
/// outside the imagined board's area, or finds no way there (which proves
/// nothing of the level itself), it ends as [`Limit::Stalled`].
pub(crate) fn solve(
    board: &Board,
    imagined: &Imagined,
    config: &Config,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> (Outcome, MultiStats) {
    let spread = board.with_goals(&imagined.boxes);
    let (outcome, stats) = search::run(&spread, config, limits, stop, progress);
    let outcome = match outcome {
        Outcome::Solved(first) => packed_after(board, imagined, first)
            .map_or(Outcome::Limit(Limit::Stalled), Outcome::Solved),
        Outcome::Impossible => Outcome::Limit(Limit::Stalled),
        limit => limit,
    };
    (outcome, stats)
}

/// The moves of `first` (from the start to the imagined board's squares),
/// then the walks and pushes from there to the solved position; `None`
/// where `first` leaves the player outside the imagined board's area.
fn packed_after(board: &Board, imagined: &Imagined, first: Solution) -> Option<Solution> {
    // Walk or push, each move takes the player a step; the boxes end on the
    // imagined board's squares, the search's goals.
    let player =
        (first.moves.iter()).try_fold(board.start_player, |at, m| board.step(at, m.dir))?;
    let mut occupied = vec![false; board.len()];
    for &b in &imagined.boxes {
        occupied[b] = true;
    }
    let mut marks = vec![0; board.len()];
    let least = board.flood_player(&occupied, &mut marks, 1, &mut Vec::new(), player);
    if least != imagined.player {
        return None;
    }
    let packing = board.spelled_out(&mut occupied, player, &imagined.pushes)?;
    let mut moves = first.moves;
    moves.extend(packing);
    Some(Solution::from_moves(moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, parse_xsb};
    use crate::moves::{Notation, replay};
    use crate::multi::guide::unpack::{Far, imagine};
    use crate::multi::options::Method;

    /// The outcome of the box-move search by way of `level`'s imagined
    /// board (spread out by `far` in `steps` moves) within `nodes`, its
    /// answer replayed; `None` where there is no imagined board. Told
    /// `elsewhere`, the imagined board's player is put on one of its boxes.
    fn by_waypoint(
        level: &Level,
        far: Far,
        steps: usize,
        nodes: u64,
        elsewhere: bool,
    ) -> Option<Outcome> {
        let board = Board::new(level).ok()?;
        let mut imagined = imagine(&board, far, steps, &|| false)?;
        if elsewhere {
            imagined.player = imagined.boxes[0];
        }
        let config = Config {
            method: Method::BoxMoves,
            ..Config::plain()
        };
        let limits = Limits {
            time: None,
            max_nodes: Some(nodes),
            max_memory: 1 << 30,
        };
        let stop = AtomicBool::new(false);
        let (outcome, _) = solve(&board, &imagined, &config, &limits, &stop, &mut |_| {});
        if let Outcome::Solved(s) = &outcome {
            let grid = &level.grid;
            let end = replay(grid, level.player, &level.boxes, &s.moves, Notation::Lurd)
                .expect("a legal answer");
            assert!(end.solved(&level.goals), "{}", level.name);
        }
        Some(outcome)
    }

    fn levels(texts: &[&[u8]]) -> Vec<Level> {
        texts
            .iter()
            .flat_map(|t| parse_xsb(t, 1 << 20).unwrap())
            .collect()
    }

    #[test]
    fn an_answer_by_way_of_the_imagined_board_packs_the_goals() {
        let small = levels(&[
            include_bytes!("../../tests/data/levels/microban.xsb"),
            include_bytes!("../../tests/data/levels/microban2.xsb"),
            include_bytes!("../../tests/data/levels/dimitri-yorick.xsb"),
            include_bytes!("../../tests/data/levels/for-the-kids.xsb"),
            include_bytes!("../../tests/data/levels/sasquatch.xsb"),
            include_bytes!("../../tests/data/levels/handmade.xsb"),
        ]);
        let (mut solved, mut given_up) = (0, 0);
        for (level, far) in small
            .iter()
            .flat_map(|l| [(l, Far::Summed), (l, Far::Matched)])
        {
            match by_waypoint(level, far, 300, 20_000, false) {
                Some(Outcome::Solved(_)) => solved += 1,
                Some(Outcome::Impossible) => panic!("{}: the waypoint proves nothing", level.name),
                _ => {}
            }
            // Ending where the imagined board's player is not, it gives up.
            if let Some(outcome) = by_waypoint(level, far, 300, 20_000, true) {
                assert!(matches!(outcome, Outcome::Limit(_)), "{}", level.name);
                given_up += 1;
            }
        }
        assert!(solved >= 16 && given_up >= solved, "{solved} {given_up}");
    }

    #[test]
    fn levels_the_imagined_boards_settle() {
        // Levels no search of `--fast` pushing to the goals settles within
        // ten seconds: by the boxes' distance to every goal, summed,
        // perfect 84, Boxxle I 69 and 104 and Sasquatch I 5; by the
        // matching, Sasquatch I 40, which the other misses.
        let summed = levels(&[include_bytes!("../../tests/data/waypoint/imagined.xsb")]);
        let matched = levels(&[include_bytes!("../../tests/data/waypoint/matched.xsb")]);
        for (level, far) in (summed.iter().map(|l| (l, Far::Summed)))
            .chain(matched.iter().map(|l| (l, Far::Matched)))
        {
            let settled = |far| {
                let outcome = by_waypoint(level, far, 1000, 300_000, false);
                matches!(outcome, Some(Outcome::Solved(_)))
            };
            assert!(settled(far), "{} {far:?}", level.name);
            if far == Far::Matched {
                assert!(!settled(Far::Summed), "{}", level.name);
            }
        }
    }
}
