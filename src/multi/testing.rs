//! What the tests of the multi-box files share: small levels named for
//! what they hold, random small boards, and a brute-force reference that
//! knows nothing of this crate's searches, so each search's answers can be
//! held against it.

use crate::grid::Direction;
use crate::multi::board::{Board, Cell};
use std::collections::VecDeque;

/// Two boxes sealing a pocket off the goals (they can only go down into
/// it; no freeze test sees it) and four boxes free in the open room
/// above.
pub(crate) const SEALED: &str = "############\n\
     #@         #\n\
     #  $  $ $  #\n\
     #      $   #\n\
     #  ..... . #\n\
     ####$$######\n\
     #      #\n\
     ########";

/// Three goals in a dead end, boxes coming in from below.
pub(crate) const DEAD_END: &str = "#########\n\
     #...    #\n\
     #### ## #\n\
     #@ $$$  #\n\
     #       #\n\
     #########";

/// Brute force, plain breadth-first over pushes with no pruning at all:
/// can `boxes` all stand on goals at once, the player on `player`?
pub(crate) fn solvable(board: &Board, boxes: &[Cell], player: Cell) -> bool {
    solvable_within(board, boxes, player, usize::MAX).expect("no cap")
}

/// [`solvable`], or `None` once more than `cap` positions are seen.
pub(crate) fn solvable_within(
    board: &Board,
    boxes: &[Cell],
    player: Cell,
    cap: usize,
) -> Option<bool> {
    let mut seen = std::collections::HashSet::new();
    let mut queue = VecDeque::from([(boxes.to_vec(), player)]);
    seen.insert((boxes.to_vec(), player));
    while let Some((boxes, player)) = queue.pop_front() {
        if boxes.iter().all(|&b| board.is_goal[b]) {
            return Some(true);
        }
        if seen.len() > cap {
            return None;
        }
        for dir in Direction::ALL {
            let Some(to) = board.step(player, dir) else {
                continue;
            };
            let mut next = boxes.clone();
            if let Some(i) = boxes.iter().position(|&b| b == to) {
                let Some(ahead) = board.step(to, dir).filter(|a| !boxes.contains(a)) else {
                    continue;
                };
                next[i] = ahead;
                next.sort_unstable();
            }
            if seen.insert((next.clone(), to)) {
                queue.push_back((next, to));
            }
        }
    }
    Some(false)
}

/// A random small level with `1..=4` boxes, none on a dead square, and
/// up to two goals more than boxes; `None` when the draw is unusable.
pub(crate) fn random_level(rng: &mut crate::rng::Rng, case: usize) -> Option<Board> {
    random_level_boxes(rng, case, 1, 4)
}

/// [`random_level`] with `least..=most` boxes.
pub(crate) fn random_level_boxes(
    rng: &mut crate::rng::Rng,
    case: usize,
    least: usize,
    most: usize,
) -> Option<Board> {
    use crate::grid::Grid;
    use crate::level::{Alphabet, Level};
    let (rows, cols) = (4 + rng.below(3), 4 + rng.below(4));
    let mut grid = Grid::new(rows, cols);
    let mut free = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if !rng.chance(20) {
                grid.set_floor(grid.cell(r, c));
                free.push(grid.cell(r, c));
            }
        }
    }
    let k = least + rng.below(most - least + 1);
    if free.len() < 2 * k + 2 {
        return None;
    }
    // Distinct cells: the player, k boxes, and k to k + 2 goals.
    for i in 0..free.len() {
        let j = i + rng.below(free.len() - i);
        free.swap(i, j);
    }
    let goals = (k + rng.below(3)).min(free.len() - k - 1);
    let level = Level {
        name: format!("case {case}"),
        line: 1,
        grid,
        player: free[0],
        boxes: free[1..=k].to_vec(),
        goals: free[1 + k..1 + k + goals].to_vec(),
        alphabet: Alphabet::Xsb,
    };
    let board = Board::new(&level).ok()?;
    let usable = board.start_boxes.len() == k && board.start_boxes.iter().all(|&b| !board.dead[b]);
    usable.then_some(board)
}
