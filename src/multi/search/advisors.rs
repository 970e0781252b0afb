//! The packing search's advisors that each name one child: the doors, the
//! hotspot, the explorer and the out-of-plan advisors of Festival's
//! feature-space search (Shoham and Schaeffer's FESS).
//!
//! Where the packing search counts box moves (see [`super::advice`]), a
//! move costs one, and nothing where it fills a goal of the phase being
//! filled, joins areas, or is the opener's. Those advisors say where the
//! plan goes; these say what makes room for it. After a node's box moves,
//! each looks at the new children that keep the goals packed, and names
//! the best (most goals packed, then fewest areas, doors shut, hotspots)
//! of those that improve its own measure:
//!
//! - *doors*: fewer pairs of halls cut apart (see [`Halls::cut`]);
//! - *hotspots*: fewer boxes in another's way (see [`Hotspots`]);
//! - *explorer*: a move the box can be pushed back from that lets the
//!   player reach a side of another box it could not push from before;
//! - *out of plan*, where the node has boxes out of plan (see
//!   [`OutOfPlan`]): a move the box can be pushed back from that makes
//!   nothing above worse and takes the box farther from the zone, the box
//!   nearest it first, then the move that takes it farthest.
//!
//! A named child costs what its parent did, so the search takes it before
//! the other moves of its parent: it clears the way without paying for each
//! step of it, and still tries everything else after.

use super::Search;
use crate::grid::Direction;
use crate::multi::board::{Board, Cell, Distance, UNREACHABLE};
use crate::multi::cell::CellPairs;
use crate::multi::guide::halls::{HallScratch, Halls};
use crate::multi::guide::hotspots::Hotspots;
use crate::multi::guide::packing::Packing;
use crate::multi::table::NodeId;
use std::cmp::Reverse;

#[cfg(doc)]
use crate::multi::guide::out_of_plan::OutOfPlan;

/// Cells past which the explorer's table of box moves that can be undone
/// (cells times cells bits) is not built.
const MAX_REVERSIBLE_CELLS: usize = 2_000;

/// Which advisors a search follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AdvisorSet(u8);

impl AdvisorSet {
    /// The doors advisor.
    pub const DOORS: AdvisorSet = AdvisorSet(1);
    /// The hotspot advisor.
    pub const HOTSPOTS: AdvisorSet = AdvisorSet(2);
    /// The explorer.
    pub const EXPLORER: AdvisorSet = AdvisorSet(4);
    /// The doors, hotspot and explorer advisors: those that make room.
    pub const MAKE_ROOM: AdvisorSet = AdvisorSet(7);
    /// The out-of-plan advisor.
    pub const OUT_OF_PLAN: AdvisorSet = AdvisorSet(8);
    /// None.
    pub const NONE: AdvisorSet = AdvisorSet(0);

    /// True when every advisor of `other` is in the set.
    pub const fn has(self, other: AdvisorSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// The advisors of both sets.
    pub const fn with(self, other: AdvisorSet) -> AdvisorSet {
        AdvisorSet(self.0 | other.0)
    }
}

/// The level's measures, built on first use, and the children of the
/// expansion at hand.
#[derive(Default)]
pub(super) struct Advisors {
    measures: Option<Measures>,
    /// The children the expansion at hand added.
    pub children: Vec<NodeId>,
}

/// What the advisors measure a position by.
struct Measures {
    halls: Halls,
    hall_scratch: HallScratch,
    hotspots: Hotspots,
    /// The boxes' bits for [`Hotspots::count`].
    hot_boxes: Vec<u64>,
    /// `(a, b)` when a lone box on `a` can be pushed to `b` (empty when
    /// the set has neither the explorer nor the out-of-plan advisor, or
    /// the level is too big).
    reaches: CellPairs,
    /// Boxes of the position measured.
    occupied: Vec<bool>,
    /// Player floods: the parent's marks and the child's.
    parent_marks: Vec<u32>,
    child_marks: Vec<u32>,
    /// The stamps of the parent's flood and of the last child's: each
    /// child's flood has a stamp of its own, so that no mark of a
    /// sibling's area is taken for its own.
    stamp: u32,
    child_stamp: u32,
    queue: Vec<Cell>,
}

impl Measures {
    /// The measures of `set`'s advisors (the others' tables left empty).
    fn new(board: &Board, set: AdvisorSet) -> Measures {
        let n = board.len();
        let mut reaches = CellPairs::default();
        let undoes = set.has(AdvisorSet::EXPLORER) || set.has(AdvisorSet::OUT_OF_PLAN);
        if undoes && n <= MAX_REVERSIBLE_CELLS {
            reaches = CellPairs::new(n);
            for b in board.cells() {
                let to_b = board.pull_distances(b, &[]);
                for a in board.cells().filter(|&a| to_b[a] != UNREACHABLE) {
                    reaches.insert(a, b);
                }
            }
        }
        Measures {
            halls: Halls::new(board),
            hall_scratch: HallScratch::default(),
            hotspots: if set.has(AdvisorSet::HOTSPOTS) {
                Hotspots::new(board)
            } else {
                Hotspots::default()
            },
            hot_boxes: Vec::new(),
            reaches,
            occupied: vec![false; n],
            parent_marks: vec![0; n],
            child_marks: vec![0; n],
            stamp: 0,
            child_stamp: 0,
            queue: Vec::new(),
        }
    }

    fn place(&mut self, boxes: &[Cell], on: bool) {
        for &b in boxes {
            self.occupied[b] = on;
        }
    }

    /// Doors shut and hotspots of `boxes` (placed on `occupied`), each
    /// where `set` has its advisor (0 where not): the parent's, or where
    /// given the box move from it, a child's.
    fn doors_and_hotspots(
        &mut self,
        board: &Board,
        boxes: &[Cell],
        set: AdvisorSet,
        moved: Option<(Cell, Cell)>,
    ) -> (u32, u32) {
        let doors = set.has(AdvisorSet::DOORS).then(|| {
            let (occupied, scratch) = (&self.occupied, &mut self.hall_scratch);
            match moved {
                None => self.halls.cut(board, occupied, scratch),
                Some(moved) => self.halls.cut_after_move(board, occupied, scratch, moved),
            }
        });
        let hotspots = set
            .has(AdvisorSet::HOTSPOTS)
            .then(|| self.hotspots.count(boxes, &mut self.hot_boxes));
        (doors.unwrap_or(0), hotspots.unwrap_or(0))
    }

    /// True when the player, from `player` among `boxes` (placed), can
    /// push some box other than the one on `moved` in a way the parent's
    /// player (flooded into `parent_marks`) could not.
    fn opens_a_side(&mut self, board: &Board, boxes: &[Cell], player: Cell, moved: Cell) -> bool {
        let (stamp, child) = (
            self.stamp,
            next_stamp(&mut self.child_stamp, &mut self.child_marks),
        );
        let (marks, queue) = (&mut self.child_marks, &mut self.queue);
        board.flood_player(&self.occupied, marks, child, queue, player);
        boxes.iter().filter(|&&b| b != moved).any(|&b| {
            Direction::ALL.into_iter().any(|dir| {
                let behind = board.step(b, dir.opposite());
                let ahead = board.step(b, dir).filter(|&c| !self.occupied[c]);
                let side = |marks: &[u32], s| behind.is_some_and(|c| marks[c] == s);
                ahead.is_some()
                    && side(&self.child_marks, child)
                    && !side(&self.parent_marks, stamp)
            })
        })
    }
}

/// Advances a flood's stamp; where it wraps, the marks start over.
fn next_stamp(stamp: &mut u32, marks: &mut [u32]) -> u32 {
    *stamp = stamp.wrapping_add(1);
    if *stamp == 0 {
        marks.fill(0);
        *stamp = 1;
    }
    *stamp
}

/// A position as the advisors rank it: lower is better in each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Measure {
    /// Goals not packed in plan order.
    unpacked: u32,
    /// Areas the boxes cut the floor into.
    areas: u32,
    /// Pairs of halls the boxes cut apart.
    doors: u32,
    /// Boxes out of plan.
    out_of_plan: u32,
    /// Boxes in another's way.
    hotspots: u32,
}

/// A child of the expanded node, measured.
#[derive(Clone, Copy, Debug)]
struct Candidate<N> {
    node: N,
    measure: Measure,
    /// True when its box can be pushed back and the player reaches a new
    /// side of another box.
    explores: bool,
    /// Where its box can be pushed back and moved away from the parent's
    /// out-of-plan zone: its pushes from the zone before and after.
    leaves_zone: Option<(Distance, Distance)>,
}

/// The children the advisors name: for each advisor, of the children that
/// leave no more goals unpacked than `parent` and improve its measure (or
/// explore), the best [`Measure`]; the first of equals. The out-of-plan
/// advisor, where `parent` has boxes out of plan, names of the children
/// that make nothing worse and take a box farther from the zone the one
/// whose box stood nearest it, then the one that takes it farthest.
fn named<N: Copy + PartialEq>(
    parent: Measure,
    children: &[Candidate<N>],
    set: AdvisorSet,
) -> Vec<N> {
    let mut best: [Option<Candidate<N>>; 3] = [None; 3];
    let mut leaving: Option<(Candidate<N>, (Distance, Distance))> = None;
    for c in children
        .iter()
        .filter(|c| c.measure.unpacked <= parent.unpacked)
    {
        let m = c.measure;
        let improves = [
            set.has(AdvisorSet::DOORS) && m.doors < parent.doors,
            set.has(AdvisorSet::HOTSPOTS) && m.hotspots < parent.hotspots,
            set.has(AdvisorSet::EXPLORER) && c.explores,
        ];
        for (k, better) in improves.into_iter().enumerate() {
            if better && best[k].is_none_or(|b| m < b.measure) {
                best[k] = Some(*c);
            }
        }
        let no_worse = m.areas <= parent.areas
            && m.doors <= parent.doors
            && m.out_of_plan <= parent.out_of_plan;
        if let Some((from, to)) = c.leaves_zone.filter(|_| parent.out_of_plan > 0 && no_worse) {
            let rank = |(f, t): (Distance, Distance)| (f, Reverse(t));
            if leaving.is_none_or(|(_, d)| rank((from, to)) < rank(d)) {
                leaving = Some((*c, (from, to)));
            }
        }
    }
    let mut nodes: Vec<N> = Vec::new();
    let leaving = leaving.map(|(c, _)| c);
    for c in best.into_iter().flatten().chain(leaving) {
        if !nodes.contains(&c.node) {
            nodes.push(c.node);
        }
    }
    nodes
}

impl Search<'_> {
    /// After the box moves of `parent`, whose path cost `before`: the
    /// child each advisor names costs `before` too.
    pub(super) fn follow_advisors(&mut self, parent: NodeId, before: u32) {
        let children = std::mem::take(&mut self.advisors.children);
        if children.is_empty() {
            return;
        }
        let (board, set) = (self.board, self.config.advisors);
        let m = self
            .advisors
            .measures
            .get_or_insert_with(|| Measures::new(board, set));
        let targets = self.config.packing.map_or(0, Packing::targets);
        let packed = |v: NodeId| targets - self.advice.unpacked(v);
        next_stamp(&mut m.stamp, &mut m.parent_marks);
        let parent_boxes = self.nodes.boxes(parent);
        m.place(parent_boxes, true);
        let (doors, hotspots) = m.doors_and_hotspots(board, parent_boxes, set, None);
        if set.has(AdvisorSet::EXPLORER) {
            let (stamp, player) = (m.stamp, self.nodes.player(parent));
            let (marks, queue) = (&mut m.parent_marks, &mut m.queue);
            board.flood_player(&m.occupied, marks, stamp, queue, player);
        }
        m.place(parent_boxes, false);
        let oop = self.advice.out_of_plan.as_ref();
        let out_of_plan = |v: NodeId, boxes: &[Cell]| oop.map_or(0, |o| o.count(packed(v), boxes));
        let measure_of = |v: NodeId, doors: u32, hotspots: u32, out_of_plan: u32| Measure {
            unpacked: self.advice.unpacked(v),
            areas: self.advice.areas(v),
            doors,
            out_of_plan,
            hotspots,
        };
        let parent_out = out_of_plan(parent, parent_boxes);
        let parent_measure = measure_of(parent, doors, hotspots, parent_out);
        let step = packed(parent);
        let mut candidates = Vec::with_capacity(children.len());
        for &v in &children {
            let boxes = self.nodes.boxes(v);
            let moved = moved_box(parent_boxes, boxes);
            if self.advice.unpacked(v) > parent_measure.unpacked || moved.is_none() {
                continue;
            }
            let (from, to) = moved.expect("one box moved");
            m.place(boxes, true);
            let (doors, hotspots) = m.doors_and_hotspots(board, boxes, set, Some((from, to)));
            let explores = set.has(AdvisorSet::EXPLORER)
                && m.reaches.contains(to, from)
                && m.opens_a_side(board, boxes, self.nodes.player(v), to);
            m.place(boxes, false);
            let leaves_zone = oop.and_then(|o| {
                let d = (o.distance(step, from), o.distance(step, to));
                let away = d.0 < d.1 && d.1 != UNREACHABLE && m.reaches.contains(to, from);
                away.then_some(d)
            });
            let measure = measure_of(v, doors, hotspots, out_of_plan(v, boxes));
            candidates.push(Candidate {
                node: v,
                measure,
                explores,
                leaves_zone,
            });
        }
        for v in named(parent_measure, &candidates, set) {
            self.lower_cost(v, before);
        }
        self.advisors.children = children;
        self.advisors.children.clear();
    }

    /// Lowers `v`'s path cost to `g` (queueing it again if it is open).
    pub(super) fn lower_cost(&mut self, v: NodeId, g: u32) {
        let u = v.index();
        if self.nodes.g[u] > g {
            self.nodes.g[u] = g;
            if !self.nodes.closed[u] {
                self.enqueue(v);
            }
        }
    }
}

/// The box that moved between two sorted box lists: its cell before and
/// after (`None` when more than one box moved, as a goal room's step does).
fn moved_box(before: &[Cell], after: &[Cell]) -> Option<(Cell, Cell)> {
    let (mut from, mut to) = (None, None);
    let (mut i, mut j) = (0, 0);
    loop {
        let left_before = match (before.get(i), after.get(j)) {
            (None, None) => return from.zip(to),
            (Some(a), Some(b)) if a == b => {
                (i, j) = (i + 1, j + 1);
                continue;
            }
            (Some(a), Some(b)) => a < b,
            (a, _) => a.is_some(),
        };
        let (seen, cell) = if left_before {
            i += 1;
            (&mut from, before[i - 1])
        } else {
            j += 1;
            (&mut to, after[j - 1])
        };
        if seen.replace(cell).is_some() {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(node: usize, measure: [u32; 4], explores: bool) -> Candidate<usize> {
        let [unpacked, areas, doors, hotspots] = measure;
        Candidate {
            node,
            measure: Measure {
                unpacked,
                areas,
                doors,
                out_of_plan: 0,
                hotspots,
            },
            explores,
            leaves_zone: None,
        }
    }

    #[test]
    fn each_advisor_names_the_best_child_that_improves_its_measure() {
        let parent = candidate(0, [3, 2, 2, 2], false).measure;
        let children = [
            // Fewer doors shut, but a goal unpacked: no advisor takes it.
            candidate(1, [4, 1, 0, 0], true),
            // Fewer doors shut, and fewer areas than the next.
            candidate(2, [3, 1, 1, 2], false),
            candidate(3, [3, 2, 0, 2], false),
            // Fewer hotspots, and one more goal packed.
            candidate(4, [2, 3, 2, 1], false),
            // Explores; nothing else.
            candidate(5, [3, 2, 2, 2], true),
        ];
        let named = named(parent, &children, AdvisorSet::MAKE_ROOM);
        assert_eq!(named, vec![2, 4, 5]);
    }

    #[test]
    fn only_the_advisors_of_the_set_name_children() {
        let parent = candidate(0, [3, 2, 2, 2], false).measure;
        let children = [
            candidate(1, [3, 2, 2, 1], true),
            candidate(2, [3, 2, 1, 2], false),
        ];
        assert_eq!(named(parent, &children, AdvisorSet::DOORS), vec![2]);
        assert_eq!(named(parent, &children, AdvisorSet::EXPLORER), vec![1]);
        assert!(named(parent, &children, AdvisorSet::NONE).is_empty());
    }

    #[test]
    fn a_child_no_advisor_likes_is_not_named() {
        let parent = candidate(0, [3, 2, 2, 2], false).measure;
        let children = [candidate(1, [3, 1, 2, 3], false)];
        assert!(named(parent, &children, AdvisorSet::MAKE_ROOM).is_empty());
    }

    #[test]
    fn the_out_of_plan_advisor_takes_the_box_nearest_the_zone_farthest() {
        let leaving = |node, areas, out_of_plan, zone| Candidate {
            node,
            measure: Measure {
                unpacked: 3,
                areas,
                doors: 2,
                out_of_plan,
                hotspots: 2,
            },
            explores: false,
            leaves_zone: Some(zone),
        };
        let mut parent = leaving(0, 2, 1, (0, 0)).measure;
        let children = [
            // Nearest the zone, but it cuts the floor up further.
            leaving(1, 3, 1, (0, 6)),
            // Farthest away, from farther off.
            leaving(2, 2, 1, (1, 9)),
            // From the zone, two pushes away; then four.
            leaving(3, 2, 1, (0, 2)),
            leaving(4, 2, 0, (0, 4)),
        ];
        assert_eq!(named(parent, &children, AdvisorSet::OUT_OF_PLAN), vec![4]);
        // Nothing out of plan: nothing to clear.
        parent.out_of_plan = 0;
        let children = [leaving(4, 2, 0, (0, 4))];
        assert!(named(parent, &children, AdvisorSet::OUT_OF_PLAN).is_empty());
    }

    #[test]
    fn a_childs_flood_sees_nothing_of_a_siblings() {
        let text = "#########\n#$  #   #\n# @ $ $ #\n#.. #  .#\n#########";
        let level = crate::level::parse_xsb(text.as_bytes(), 1000)
            .unwrap()
            .remove(0);
        let board = Board::new(&level).unwrap();
        let at = |r, c| board.compact(level.grid.cell(r, c));
        let mut m = Measures::new(&board, AdvisorSet::EXPLORER);
        // The parent: the box in the door keeps the player out of the east room.
        let parent = [at(1, 1), at(2, 4), at(2, 6)];
        next_stamp(&mut m.stamp, &mut m.parent_marks);
        m.place(&parent, true);
        let (marks, queue) = (&mut m.parent_marks, &mut m.queue);
        board.flood_player(&m.occupied, marks, m.stamp, queue, at(2, 2));
        m.place(&parent, false);
        let mut opens = |boxes: &mut [Cell], player, moved| {
            boxes.sort_unstable();
            m.place(boxes, true);
            let opens = m.opens_a_side(&board, boxes, player, moved);
            m.place(boxes, false);
            opens
        };
        // The door cleared: the player reaches the west side of the east box.
        assert!(opens(
            &mut [at(1, 1), at(2, 3), at(2, 6)],
            at(2, 4),
            at(2, 3)
        ));
        // The door still shut: nothing new, whatever the sibling reached.
        assert!(!opens(
            &mut [at(1, 2), at(2, 4), at(2, 6)],
            at(1, 1),
            at(1, 2)
        ));
    }

    #[test]
    fn the_moved_box_is_the_one_cell_each_side_lacks() {
        let cells = |v: &[usize]| v.iter().map(|&c| Cell::new(c)).collect::<Vec<_>>();
        let moved = moved_box(&cells(&[1, 4, 7]), &cells(&[1, 5, 7]));
        assert_eq!(moved, Some((Cell::new(4), Cell::new(5))));
        let moved = moved_box(&cells(&[4, 7]), &cells(&[2, 4]));
        assert_eq!(moved, Some((Cell::new(7), Cell::new(2))));
        let moved = moved_box(&cells(&[1, 4]), &cells(&[1, 9]));
        assert_eq!(moved, Some((Cell::new(4), Cell::new(9))));
        assert_eq!(moved_box(&cells(&[1, 4]), &cells(&[2, 5])), None);
        assert_eq!(moved_box(&cells(&[1, 4]), &cells(&[1, 4])), None);
    }
}
