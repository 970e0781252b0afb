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
//! - [`bases`]: the start squares, their groups and the matching of boxes
//!   to them;
//! - [`pulls`]: one box's runs of pulls;
//! - [`search`]: the positions, their scores, cells and advisors.

mod bases;
mod pulls;
mod search;

use super::plan::{Parking, Plan};
use crate::multi::board::{Board, Cell};
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
    let boxes = board.start_boxes.len();
    if board.goals.len() != boxes || boxes > MAX_BOXES || board.len() > MAX_CELLS {
        return None;
    }
    let mut unpacker = Unpacker::new(board);
    unpacker.add_roots();
    unpacker.run(steps, give_up);
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
