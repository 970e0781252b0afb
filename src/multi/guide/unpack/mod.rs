//! The unpacking plan: the packing order and its parking squares read off
//! a backward search that takes the boxes out of the goal area and off the
//! board, the way Festival plans its first strategy (Shoham and Schaeffer's
//! FESS, with the start squares as sinks).
//!
//! From the solved position, boxes are pulled, a box's whole run of pulls
//! one move; a box pulled onto a start square that any box of its group
//! could reach (far enough from where it was, the boxes left still each
//! able to go back to a start square of its own) leaves the board together
//! with that square, and so does a box pulled off a goal onto the one
//! start square whose box can reach no other goal. The search
//! ([`search`]) runs in feature space until every box has left or its
//! budget is spent; its best position's path, read forwards, is the plan:
//! first the boxes still on the board where that position has them, then
//! each pull undone in turn, a box going back to the cell it was pulled
//! from. A box that comes to a cell and later
//! leaves it again makes that cell a parking square for that time. Where
//! no box left the board, only the order in which the goals fill is kept.
//!
//! The same search with no box ever leaving the board spreads the boxes
//! out of the goal area instead: its best position is Festival's *imagined
//! board* ([`imagine`]), which [`crate::multi::waypoint`] heads for; how
//! far the boxes stand from the goals is measured one of two ways
//! ([`Far`]), each spreading them out its own way.
//!
//! - [`bases`]: the start squares, their groups and the matching of boxes
//!   to them;
//! - [`pulls`]: one box's runs of pulls;
//! - [`search`]: the positions, their scores, cells and advisors.

mod bases;
mod pulls;
mod search;

use super::plan::{Parking, Plan};
use crate::grid::Direction;
use crate::multi::board::{Board, Cell};
pub(crate) use search::Far;
use search::{Step, Unpacker};

/// Boxes a level may have for the search: each position matches its boxes
/// to start squares anew, and past a few dozen boxes a plan of single
/// steps says little anyway.
const MAX_BOXES: usize = 64;

/// Floor cells a level may have for the search: what a box on each start
/// square can reach is worked out at load, a flood per position of it.
const MAX_CELLS: usize = 1000;

/// Where a plan's box comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// It stands there when the plan begins.
    Start,
    /// From the cell of an earlier entry.
    Cell(Cell),
    /// From some start square (a box taken off the board).
    Anywhere,
}

/// One entry of the plan: fill `cell` with a box from `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    cell: Cell,
    source: Source,
}

/// The plan of the backward search on `board`, within `steps` moves
/// taken and until `give_up`; `None` where there are more goals than
/// boxes, more than [`MAX_BOXES`] boxes or [`MAX_CELLS`] cells, or nothing
/// to follow.
pub(crate) fn unpack_plan(board: &Board, steps: usize, give_up: &dyn Fn() -> bool) -> Option<Plan> {
    let unpacker = searched(board, Unpacker::new, steps, give_up)?;
    let best = unpacker.nodes.get(unpacker.best as usize)?;
    let mut entries: Vec<Entry> = best
        .boxes
        .iter()
        .rev()
        .map(|&cell| Entry {
            cell,
            source: Source::Start,
        })
        .collect();
    let mut at = unpacker.best as usize;
    while let Some((parent, step)) = unpacker.nodes[at].parent {
        entries.push(entry_of(step));
        at = parent as usize;
    }
    let removed = best.boxes.len() < board.goals.len();
    Some(plan_of(merged(entries), removed))
}

/// Where the backward search kept whole (no box leaving the board) spreads
/// the boxes out to: Festival's *imagined board*, a waypoint for a forward
/// search that heads for its squares rather than the goals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Imagined {
    /// The boxes' cells, sorted.
    pub boxes: Vec<Cell>,
    /// The least cell of the player's area there.
    pub player: Cell,
    /// The single pushes from there to the solved position.
    pub pushes: Vec<(Cell, Direction)>,
}

/// The imagined board of `board`: the best position of the backward search
/// that takes no box off the board (fewest areas, goals, halls cut apart,
/// then the boxes farthest from the goals, by `far`), within `steps` moves
/// and until `give_up`; `None` where [`unpack_plan`] has no search, or it
/// left the goals as they were.
pub(crate) fn imagine(
    board: &Board,
    far: Far,
    steps: usize,
    give_up: &dyn Fn() -> bool,
) -> Option<Imagined> {
    let keeping = |board| Unpacker::keeping_boxes(board, far);
    let mut unpacker = searched(board, keeping, steps, give_up)?;
    let best = unpacker.best;
    unpacker.nodes[best as usize].parent?;
    let pushes = unpacker.pushes_back(best)?;
    let node = &unpacker.nodes[best as usize];
    Some(Imagined {
        boxes: node.boxes.to_vec(),
        player: node.player,
        pushes,
    })
}

/// The backward search `make` makes for `board`, run from the solved
/// position within `steps` moves and until `give_up`; `None` where there
/// are more goals than boxes, or more than [`MAX_BOXES`] boxes or
/// [`MAX_CELLS`] cells.
fn searched<'b>(
    board: &'b Board,
    make: impl FnOnce(&'b Board) -> Unpacker<'b>,
    steps: usize,
    give_up: &dyn Fn() -> bool,
) -> Option<Unpacker<'b>> {
    let boxes = board.start_boxes.len();
    if board.goals.len() != boxes || boxes > MAX_BOXES || board.len() > MAX_CELLS {
        return None;
    }
    let mut unpacker = make(board);
    unpacker.add_roots();
    unpacker.run(steps, give_up);
    Some(unpacker)
}

/// A pull undone: the box goes back to the cell it was pulled from.
fn entry_of(step: Step) -> Entry {
    let source = if step.removed {
        Source::Anywhere
    } else {
        Source::Cell(step.to)
    };
    Entry {
        cell: step.from,
        source,
    }
}

/// The entries with each box's moves one after another joined (a box that
/// fills a cell and leaves it at once goes straight on), and those that
/// leave a box where it was dropped.
fn merged(mut entries: Vec<Entry>) -> Vec<Entry> {
    let mut k = 0;
    while k < entries.len() {
        if entries[k].source == Source::Cell(entries[k].cell) {
            entries.remove(k);
            continue;
        }
        let starts = entries[k].source == Source::Start;
        if !starts
            && k + 1 < entries.len()
            && entries[k + 1].source == Source::Cell(entries[k].cell)
        {
            entries[k].cell = entries[k + 1].cell;
            entries.remove(k + 1);
            continue;
        }
        k += 1;
    }
    entries
}

/// The entries as phases: those standing at the start first, then one
/// phase an entry; a cell left again later is a parking square until then.
/// Where no box left the board, only the entries never left again count.
fn plan_of(entries: Vec<Entry>, removed: bool) -> Plan {
    let until: Vec<Option<usize>> = (0..entries.len())
        .map(|k| {
            (k + 1..entries.len()).find(|&j| entries[j].source == Source::Cell(entries[k].cell))
        })
        .collect();
    let kept: Vec<usize> = (0..entries.len())
        .filter(|&k| removed || until[k].is_none())
        .collect();
    let mut phase_of = vec![0u16; entries.len()];
    let mut phases: Vec<Vec<Cell>> = vec![Vec::new()];
    for &k in &kept {
        if entries[k].source == Source::Start {
            phases[0].push(entries[k].cell);
        } else {
            phase_of[k] = phases.len() as u16;
            phases.push(vec![entries[k].cell]);
        }
    }
    if phases[0].is_empty() {
        phases.remove(0);
        phase_of.iter_mut().for_each(|p| *p = p.saturating_sub(1));
    }
    let parking = kept
        .iter()
        .filter_map(|&k| {
            let j = until[k]?;
            Some(Parking {
                cell: entries[k].cell,
                from: phase_of[k],
                until: phase_of[j],
            })
        })
        .collect();
    Plan { phases, parking }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::multi::testing::DEAD_END;

    fn cell(k: usize) -> Cell {
        Cell::new(k)
    }

    #[test]
    fn the_imagined_boards_pushes_pack_its_boxes_onto_the_goals() {
        let texts: [&[u8]; 5] = [
            include_bytes!("../../../../tests/data/levels/sasquatch.xsb"),
            include_bytes!("../../../../tests/data/levels/microban.xsb"),
            include_bytes!("../../../../tests/data/levels/dimitri-yorick.xsb"),
            include_bytes!("../../../../tests/data/waypoint/imagined.xsb"),
            include_bytes!("../../../../tests/data/rooms/rooms.xsb"),
        ];
        let mut checked = 0;
        let levels = texts.iter().flat_map(|t| parse_xsb(t, 1 << 20).unwrap());
        for (level, far) in levels.flat_map(|l| [(l.clone(), Far::Summed), (l, Far::Matched)]) {
            let Ok(board) = Board::new(&level) else {
                continue;
            };
            let Some(imagined) = imagine(&board, far, 300, &|| false) else {
                continue;
            };
            assert_ne!(imagined.boxes, board.goals);
            let mut occupied = vec![false; board.len()];
            for &b in &imagined.boxes {
                occupied[b] = true;
            }
            let mut player = imagined.player;
            assert!(!occupied[player]);
            for &(at, dir) in &imagined.pushes {
                let stand = board.step(at, dir.opposite()).expect("floor behind");
                let ahead = board.step(at, dir).expect("floor ahead");
                assert!(occupied[at] && !occupied[ahead], "{}", level.name);
                assert!(
                    board.walk(&occupied, player, stand).is_some(),
                    "{}",
                    level.name
                );
                occupied[at] = false;
                occupied[ahead] = true;
                player = at;
            }
            let end: Vec<Cell> = board.cells().filter(|&c| occupied[c]).collect();
            assert_eq!(end, board.goals, "{}", level.name);
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
    }

    #[test]
    fn a_box_that_fills_a_cell_and_leaves_it_at_once_goes_straight_on() {
        let entries = vec![
            Entry {
                cell: cell(1),
                source: Source::Start,
            },
            Entry {
                cell: cell(5),
                source: Source::Cell(cell(1)),
            },
            Entry {
                cell: cell(6),
                source: Source::Cell(cell(5)),
            },
            Entry {
                cell: cell(7),
                source: Source::Anywhere,
            },
            Entry {
                cell: cell(7),
                source: Source::Cell(cell(7)),
            },
        ];
        let got: Vec<(Cell, Source)> = merged(entries).iter().map(|e| (e.cell, e.source)).collect();
        assert_eq!(
            got,
            vec![
                (cell(1), Source::Start),
                (cell(6), Source::Cell(cell(1))),
                (cell(7), Source::Anywhere),
            ]
        );
    }

    #[test]
    fn a_cell_left_again_is_a_parking_square_until_then() {
        let entries = vec![
            Entry {
                cell: cell(3),
                source: Source::Anywhere,
            },
            Entry {
                cell: cell(4),
                source: Source::Anywhere,
            },
            Entry {
                cell: cell(8),
                source: Source::Cell(cell(3)),
            },
        ];
        let plan = plan_of(entries.clone(), true);
        assert_eq!(
            plan.phases,
            vec![vec![cell(3)], vec![cell(4)], vec![cell(8)]]
        );
        assert_eq!(
            plan.parking,
            vec![Parking {
                cell: cell(3),
                from: 0,
                until: 2
            }]
        );
        // Where no box left the board only the cells never left again count.
        let plan = plan_of(entries, false);
        assert_eq!(plan.phases, vec![vec![cell(4)], vec![cell(8)]]);
        assert!(plan.parking.is_empty());
    }

    #[test]
    fn a_box_only_one_goal_can_take_leaves_from_beside_it() {
        // The box east of the pocket can only go one step west, onto the
        // goal in it: that start square is the goal's own, however near.
        let text = "##########\n#    #.$ #\n#  @     #\n##########";
        let level = &parse_xsb(text.as_bytes(), 100).unwrap()[0];
        let b = Board::new(level).unwrap();
        let mut unpacker = Unpacker::new(&b);
        unpacker.add_roots();
        unpacker.run(100, &|| false);
        assert!(unpacker.nodes[unpacker.best as usize].boxes.is_empty());
        let plan = unpack_plan(&b, 100, &|| false).expect("a plan");
        let pocket = b.compact(level.grid.cell(1, 6));
        assert_eq!(plan.phases, vec![vec![pocket]]);
    }

    #[test]
    fn a_dead_end_of_goals_is_planned_from_the_back() {
        let level = &parse_xsb(DEAD_END.as_bytes(), 1 << 20).unwrap()[0];
        let b = Board::new(level).unwrap();
        let plan = unpack_plan(&b, 1000, &|| false).expect("a plan");
        // Every goal is filled, the deepest first.
        let filled: Vec<Cell> = plan.phases.iter().flatten().copied().collect();
        let mut goals = filled.clone();
        goals.sort_unstable();
        assert_eq!(goals, b.goals);
        let deepest = b.compact(level.grid.cell(1, 1));
        assert_eq!(filled[0], deepest);
        assert!(plan.parking.is_empty());
    }
}
