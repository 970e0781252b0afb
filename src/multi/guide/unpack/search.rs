//! The backward search itself: positions of pulls from the solved one, in
//! feature cells taken in turn, each position's moves weighed by advisors.
//!
//! A position's score, best first: fewer boxes left on the board, fewer
//! areas of floor cut off, fewer boxes on goals, fewer pairs of halls cut
//! apart, and the boxes farther from the goals. Its *cell* is the best
//! score met on its path, less the distance: the search cycles over the
//! cells met so far, every other turn to the cell of the best position,
//! and takes from a cell the position its path weighed least (ties to the
//! better score). The search that keeps every box measures their distance
//! from the goals one of two ways ([`Far`]). A move weighs 1, or 0 where
//! an advisor names it: the
//! pull that takes a box off the board (a box off the goals first), or a
//! pull of a box off its goal that shuts nothing and moves it away; the
//! pull that joins areas; the one that joins halls. A move that takes a
//! box off the board is the only one an advisor names where there is one.

use super::bases::{Bases, Set, in_tunnels};
use super::pulls::{Pulled, Puller};
use crate::grid::Direction;
use crate::multi::board::{Board, Cell, Distance, UNREACHABLE};
use crate::multi::bound::Matcher;
use crate::multi::cell::reseat;
use crate::multi::guide::halls::{HallScratch, Halls};
use crate::multi::rows::RowArea;
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How far (rows and columns) a pulled box must have come from the
/// forward side to be taken off: a box pulled onto a start square right
/// beside its goal says little of the order the goals fill in.
const SINK_DISTANCE: usize = 6;

/// A position's score: lower is better, field by field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Score {
    pub boxes: u16,
    pub areas: u16,
    pub on_goals: u16,
    pub cut: u16,
    /// `u32::MAX` less the boxes' distance from the goals ([`Far`]).
    pub near: u32,
}

/// How the search that keeps every box on the board measures the boxes'
/// distance from the goals, the last field of a position's score: each
/// spreads the boxes out its own way, and a forward search reaches some of
/// those imagined boards and not others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Far {
    /// Each box's pushes to every goal, summed.
    Summed,
    /// The pushes of the cheapest matching of boxes to goals, each box to
    /// a goal of its own (Festival's measure for its strategy B).
    Matched,
}

impl Score {
    /// The feature cell of a path whose best score is `self`.
    fn cell(self) -> (u16, u16, u16, u16) {
        (self.boxes, self.on_goals, self.areas, self.cut)
    }
}

/// A pull of the backward search, read forwards: the box on `to` goes back
/// to `from` (from the start square under it when it was taken off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Step {
    pub from: Cell,
    pub to: Cell,
    pub removed: bool,
}

/// A position made, with the moves from it not taken yet.
pub(super) struct Node {
    pub boxes: Box<[Cell]>,
    /// The least cell of the player's area.
    pub player: Cell,
    bases: Set,
    pub parent: Option<(u32, Step)>,
    /// What its path weighs.
    weight: u32,
    pub score: Score,
    /// The best score on its path.
    best: Score,
    /// Its moves not taken yet, the next to take last.
    moves: Vec<Move>,
}

/// A move of a position, scored and weighed: the position it leads to is
/// its step made from there ([`Unpacker::after_step`]), kept that small
/// because most moves are never taken.
#[derive(Clone, Copy)]
struct Move {
    step: Step,
    player: Cell,
    score: Score,
    /// 0 where an advisor names it, else 1.
    weight: u32,
}

impl Move {
    /// The order moves are taken in: lightest first, then best scored.
    fn rank(&self) -> (u32, Score) {
        (self.weight, self.score)
    }
}

/// The search's state.
pub(super) struct Unpacker<'b> {
    board: &'b Board,
    bases: Bases,
    halls: Halls,
    hall_scratch: HallScratch,
    /// The position whose halls `hall_scratch` measured last, where known:
    /// its moves' cuts start from there.
    halls_of: Option<u32>,
    puller: Puller,
    pub nodes: Vec<Node>,
    index: HashMap<u64, Vec<u32>>,
    slots: HashMap<(u16, u16, u16, u16), usize>,
    /// The score of each set of boxes (in order) met: half the moves or
    /// more lead to a set another position's move led to.
    scores: HashMap<Box<[Cell]>, Score>,
    heaps: Vec<BinaryHeap<Reverse<(u32, Score, u32)>>>,
    cursor: usize,
    /// Per cell, the pushes from it to every goal, summed.
    to_goals: Vec<u32>,
    /// Per goal, the pushes to it from each cell.
    to_each_goal: Vec<Vec<Distance>>,
    /// How `near` is measured (by the matching only where every box stays).
    far: Far,
    /// The matchings of [`Far::Matched`].
    matcher: Matcher,
    /// The position whose matching `matcher` holds, and whether it is
    /// whole: its moves' matchings start from there.
    matched: Option<(u32, bool)>,
    /// Per cell, whether a pulled box may not stop there (see [`in_tunnels`]).
    in_tunnel: Vec<bool>,
    occupied: Vec<bool>,
    marks: Vec<u32>,
    stamp: u32,
    queue: Vec<Cell>,
    /// The same floods by rows, on boards with them.
    area: RowArea,
    blocked: Vec<u64>,
    /// The start square each box of the position whose moves are being
    /// found is matched to, where they are: a move that keeps its box
    /// within reach of its own keeps the others matched.
    matching: Option<Vec<usize>>,
    /// The best position so far.
    pub best: u32,
    /// Whether every box is off the board.
    done: bool,
    /// Whether boxes may leave the board (see [`Unpacker::keeping_boxes`]).
    takes_off: bool,
    /// Scratch room for the boxes after a move.
    step_boxes: Vec<Cell>,
}

impl<'b> Unpacker<'b> {
    pub fn new(board: &'b Board) -> Unpacker<'b> {
        let n = board.len();
        let to_each_goal = board.pulls_to_each_goal();
        let mut to_goals = vec![0u32; n];
        for distances in &to_each_goal {
            for (c, &d) in distances.iter().enumerate() {
                if d != UNREACHABLE {
                    to_goals[c] += u32::from(d);
                }
            }
        }
        Unpacker {
            board,
            bases: Bases::new(board),
            halls: Halls::new(board),
            hall_scratch: HallScratch::default(),
            halls_of: None,
            puller: Puller::new(board),
            nodes: Vec::new(),
            index: HashMap::default(),
            slots: HashMap::default(),
            scores: HashMap::default(),
            heaps: Vec::new(),
            cursor: 0,
            to_goals,
            to_each_goal,
            far: Far::Summed,
            matcher: Matcher::default(),
            matched: None,
            in_tunnel: in_tunnels(board),
            occupied: vec![false; n],
            marks: vec![0; n],
            stamp: 0,
            queue: Vec::new(),
            area: RowArea::default(),
            blocked: Vec::new(),
            matching: None,
            best: 0,
            done: false,
            takes_off: true,
            step_boxes: Vec::new(),
        }
    }

    /// The same search with no box ever taken off the board, the boxes'
    /// distance from the goals measured by `far`: its positions hold every
    /// box, positions a forward search may reach.
    pub fn keeping_boxes(board: &'b Board, far: Far) -> Unpacker<'b> {
        Unpacker {
            takes_off: false,
            far,
            ..Unpacker::new(board)
        }
    }

    /// The solved position with the player in each area the goals leave.
    pub fn add_roots(&mut self) {
        let board = self.board;
        let goals = board.goals.clone();
        self.place(&goals, true);
        let mut zone = vec![0u32; board.len()];
        let mut queue = Vec::new();
        let mut players = Vec::new();
        for c in board.cells() {
            if self.occupied[c] || zone[c] != 0 {
                continue;
            }
            let stamp = players.len() as u32 + 1;
            players.push(board.flood_player(&self.occupied, &mut zone, stamp, &mut queue, c));
        }
        let score = self.score(&goals, None);
        // Inserting a position finds its moves, which clears `occupied`.
        self.place(&goals, false);
        for least in players {
            let bases = Set::full(self.bases.len());
            let boxes = goals.clone().into_boxed_slice();
            self.insert(boxes, bases, least, None, 0, score);
        }
    }

    /// Runs until every box is off the board, `steps` moves are taken,
    /// nothing is left, or `give_up` says so.
    pub fn run(&mut self, steps: usize, give_up: &dyn Fn() -> bool) {
        let mut turn = false;
        for done in 0..steps {
            if self.done {
                return;
            }
            if done % 16 == 0 && give_up() {
                return;
            }
            turn = !turn;
            let Some(id) = self.pop(turn) else {
                return;
            };
            self.take_next_move(id);
        }
    }

    /// The next position to take a move from: from the best position's
    /// cell every other turn, else from the next cell in turn.
    fn pop(&mut self, best_cell: bool) -> Option<u32> {
        if best_cell {
            let cell = self.nodes[self.best as usize].best.cell();
            if let Some(&slot) = self.slots.get(&cell)
                && let Some(id) = self.pop_from(slot)
            {
                return Some(id);
            }
        }
        for _ in 0..self.heaps.len() {
            let slot = self.cursor % self.heaps.len();
            self.cursor = slot + 1;
            if let Some(id) = self.pop_from(slot) {
                return Some(id);
            }
        }
        None
    }

    /// The position of a cell whose next move weighs least, with a move
    /// that leads somewhere new (moves to positions made since are
    /// dropped, and the position queued again by its next).
    fn pop_from(&mut self, slot: usize) -> Option<u32> {
        while let Some(Reverse((weight, score, id))) = self.heaps[slot].pop() {
            let mut dropped = false;
            while let Some(&m) = self.nodes[id as usize].moves.last() {
                if !self.known_after(id, &m) {
                    break;
                }
                self.nodes[id as usize].moves.pop();
                dropped = true;
            }
            let node = &self.nodes[id as usize];
            match node.moves.last() {
                None => {}
                Some(m) if dropped && (node.weight + m.weight, m.score) != (weight, score) => {
                    self.queue_node(id);
                }
                Some(_) => return Some(id),
            }
        }
        None
    }

    /// Takes position `id`'s next move: a new position, its moves found
    /// and weighed; `id` waits in its cell for its move after.
    fn take_next_move(&mut self, id: u32) {
        let m = self.nodes[id as usize].moves.pop().expect("a move left");
        self.queue_node(id);
        let weight = self.nodes[id as usize].weight + m.weight;
        let mut boxes = Vec::new();
        let bases = self.after_step(id, m.step, &mut boxes);
        let bases = bases.unwrap_or_else(|| self.nodes[id as usize].bases.clone());
        let step = Some((id, m.step));
        self.insert(
            boxes.into_boxed_slice(),
            bases,
            m.player,
            step,
            weight,
            m.score,
        );
    }

    /// Puts position `id` in its cell's heap by its next move, if any.
    fn queue_node(&mut self, id: u32) {
        let node = &self.nodes[id as usize];
        let Some(next) = node.moves.last() else {
            return;
        };
        let (weight, score) = (node.weight + next.weight, next.score);
        let next_slot = self.heaps.len();
        let slot = *self.slots.entry(node.best.cell()).or_insert(next_slot);
        if slot == next_slot {
            self.heaps.push(BinaryHeap::new());
        }
        self.heaps[slot].push(Reverse((weight, score, id)));
    }

    /// Makes a new position, finds and weighs its moves, and queues it.
    fn insert(
        &mut self,
        boxes: Box<[Cell]>,
        bases: Set,
        player: Cell,
        parent: Option<(u32, Step)>,
        weight: u32,
        score: Score,
    ) {
        let key = self.key(&boxes, &bases, player);
        let id = self.nodes.len() as u32;
        let best = parent.map_or(score, |(p, _)| self.nodes[p as usize].best.min(score));
        self.nodes.push(Node {
            boxes,
            player,
            bases,
            parent,
            weight,
            score,
            best,
            moves: Vec::new(),
        });
        self.index.entry(key).or_default().push(id);
        if self.nodes[id as usize].boxes.is_empty() {
            (self.best, self.done) = (id, true);
            return;
        }
        if score < self.nodes[self.best as usize].score {
            self.best = id;
        }
        let mut moves = self.moves(id);
        self.weigh(id, &mut moves);
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank()));
        self.nodes[id as usize].moves = moves;
        self.queue_node(id);
    }

    /// The single pushes from position `id` back to the solved one (each
    /// a box's cell and the direction), where no box on its path left the
    /// board.
    pub fn pushes_back(&mut self, id: u32) -> Option<Vec<(Cell, Direction)>> {
        let mut pushes = Vec::new();
        let mut at = id;
        while let Some((parent, step)) = self.nodes[at as usize].parent {
            if step.removed {
                return None;
            }
            let least = self.nodes[at as usize].player;
            let pulls = self.single_pulls(parent, step, least)?;
            pushes.extend(
                pulls
                    .into_iter()
                    .rev()
                    .map(|(to, dir)| (to, dir.opposite())),
            );
            at = parent;
        }
        Some(pushes)
    }

    /// The single pulls of `step` from position `parent` that end with the
    /// player's least cell `least`, first to last: the box's cell after each
    /// and the way the player stepped.
    fn single_pulls(
        &mut self,
        parent: u32,
        step: Step,
        least: Cell,
    ) -> Option<Vec<(Cell, Direction)>> {
        let board = self.board;
        let node = &self.nodes[parent as usize];
        let (before, player) = (node.boxes.clone(), node.player);
        let stamp = self.mark_area(&before, player);
        let marks = &self.marks;
        let found = self
            .puller
            .pulls(board, &mut self.occupied, step.from, |c| marks[c] == stamp);
        self.place(&before, false);
        let k = found
            .iter()
            .position(|p| p.to == step.to && p.least == least)?;
        let pulls = self.puller.pulls_to(k);
        Some(
            pulls
                .into_iter()
                .map(|(j, dir)| (found[j].to, dir))
                .collect(),
        )
    }

    fn key(&self, boxes: &[Cell], bases: &Set, player: Cell) -> u64 {
        self.board.hash_of(boxes, player) ^ bases.hash()
    }

    /// The boxes (into `boxes`) after `step` from position `id`, and the
    /// start squares left where the step takes its box off the board
    /// (`None`: those of `id`).
    fn after_step(&self, id: u32, step: Step, boxes: &mut Vec<Cell>) -> Option<Set> {
        let node = &self.nodes[id as usize];
        boxes.clear();
        boxes.extend_from_slice(&node.boxes);
        let i = boxes
            .iter()
            .position(|&b| b == step.from)
            .expect("a box moved");
        if !step.removed {
            boxes[i] = step.to;
            reseat(boxes, i);
            return None;
        }
        boxes.remove(i);
        let mut bases = node.bases.clone();
        bases.remove(self.bases.at(step.to).expect("a start square"));
        Some(bases)
    }

    /// Whether move `m` of position `id` leads to a position made already.
    fn known_after(&mut self, id: u32, m: &Move) -> bool {
        let mut boxes = std::mem::take(&mut self.step_boxes);
        let bases = self.after_step(id, m.step, &mut boxes);
        let bases = bases.as_ref().unwrap_or(&self.nodes[id as usize].bases);
        let known = self.known(&boxes, bases, m.player);
        self.step_boxes = boxes;
        known
    }

    fn known(&self, boxes: &[Cell], bases: &Set, player: Cell) -> bool {
        let key = self.key(boxes, bases, player);
        self.index.get(&key).is_some_and(|ids| {
            ids.iter().any(|&id| {
                let n = &self.nodes[id as usize];
                n.player == player && *n.boxes == *boxes && n.bases == *bases
            })
        })
    }

    /// Weighs the moves of position `id`: 0 for those an advisor names,
    /// and for the first where there are two or fewer.
    fn weigh(&self, id: u32, moves: &mut [Move]) {
        let advised = self.advised(id, moves);
        let few = moves.len() <= 2;
        for (k, m) in moves.iter_mut().enumerate() {
            m.weight = u32::from(!(advised.contains(&k) || (few && k == 0)));
        }
    }

    /// The new positions one box's pulls lead to from position `id`: where
    /// a box can be taken off the board, only such moves (one a box).
    fn moves(&mut self, id: u32) -> Vec<Move> {
        let board = self.board;
        let node = &self.nodes[id as usize];
        let (boxes, left, player) = (node.boxes.clone(), node.bases.clone(), node.player);
        self.matching = self.bases.matching(&boxes, &left);
        let stamp = self.mark_area(&boxes, player);
        let mut pulled: Vec<(usize, Pulled)> = Vec::new();
        for (i, &b) in boxes.iter().enumerate() {
            let marks = &self.marks;
            let found = self
                .puller
                .pulls(board, &mut self.occupied, b, |c| marks[c] == stamp);
            for p in found {
                if !self.in_tunnel[p.to] && self.bases.reachable(&left, p.to) {
                    pulled.push((i, p));
                }
            }
        }
        let sinks = if self.takes_off {
            self.sinks(&boxes, &left, &pulled)
        } else {
            Vec::new()
        };
        self.place(&boxes, false);
        let mut moves = Vec::new();
        for (i, p) in pulled {
            let sink = sinks.iter().find(|&&(j, to, _)| j == i && to == p.to);
            if !sinks.is_empty() && sink.is_none_or(|s| s.2 != p.player) {
                continue;
            }
            if let Some(m) = self.make_move((id, &boxes), &left, i, p, sink.is_some()) {
                moves.push(m);
            }
        }
        moves
    }

    /// The pulls that take a box off the board: from a goal onto the start
    /// square whose box only that goal can take, where there are such;
    /// else onto a start square left in the largest group whose squares
    /// can take any of its boxes, far enough from where the box was. The
    /// other boxes must still be matched to start squares of their own.
    /// One a box; none from the group while a square of it is out of the
    /// player's reach.
    fn sinks(
        &self,
        boxes: &[Cell],
        left: &Set,
        pulled: &[(usize, Pulled)],
    ) -> Vec<(usize, Cell, Cell)> {
        let private = self.private_sinks(boxes, left, pulled);
        if !private.is_empty() {
            return private;
        }
        let board = self.board;
        let on_base = |p: &Pulled| self.bases.at(p.to).is_some_and(|k| left.contains(k));
        if !pulled.iter().any(|(_, p)| on_base(p)) {
            return Vec::new();
        }
        let group = self.bases.interchangeable(board, boxes, left);
        if group
            .iter()
            .any(|k| self.marks[self.bases.cells[k]] != self.stamp)
        {
            return Vec::new();
        }
        let far = |i: usize, p: &Pulled, k: usize| {
            group.contains(k) && board.manhattan(boxes[i], p.to) >= SINK_DISTANCE
        };
        self.sinks_where(boxes, left, pulled, far)
    }

    /// The pulls of a box off a goal onto the start square whose box can
    /// reach that goal alone: whatever the order, that goal's box comes
    /// from there.
    fn private_sinks(
        &self,
        boxes: &[Cell],
        left: &Set,
        pulled: &[(usize, Pulled)],
    ) -> Vec<(usize, Cell, Cell)> {
        let own = |i: usize, _: &Pulled, k: usize| {
            left.contains(k) && self.bases.private[k] == Some(boxes[i])
        };
        self.sinks_where(boxes, left, pulled, own)
    }

    /// The pulls onto a start square `k` that `takes` (given the box's
    /// index and its pulls) where the other boxes stay matched without
    /// `k`; one a box, its first such pull.
    fn sinks_where(
        &self,
        boxes: &[Cell],
        left: &Set,
        pulled: &[(usize, Pulled)],
        takes: impl Fn(usize, &Pulled, usize) -> bool,
    ) -> Vec<(usize, Cell, Cell)> {
        let mut sinks: Vec<(usize, Cell, Cell)> = Vec::new();
        for &(i, p) in pulled {
            let Some(k) = self.bases.at(p.to).filter(|&k| takes(i, &p, k)) else {
                continue;
            };
            if !sinks.iter().any(|s| s.0 == i) && self.leaves_matched(boxes, left, i, k) {
                sinks.push((i, p.to, p.player));
            }
        }
        sinks
    }

    /// Whether the boxes but the `i`-th are still matched to start squares
    /// of their own once start square `k` is gone.
    fn leaves_matched(&self, boxes: &[Cell], left: &Set, i: usize, k: usize) -> bool {
        let mut fewer = left.clone();
        fewer.remove(k);
        let Some(m) = &self.matching else {
            return self.bases.matched(&without(boxes, i), &fewer);
        };
        // The other box matched to `k`, if any, looks for a square of its own.
        let Some(j) = (0..boxes.len()).find(|&j| j != i && m[j] == k) else {
            return true;
        };
        let (rest, square) = (without(boxes, i), without(m, i));
        self.bases
            .rematched(&rest, &fewer, &square, j - usize::from(j > i))
    }

    /// Whether `boxes` are still matched to start squares among `left` once
    /// the `i`-th is pulled to `to`: the others keep theirs, and it keeps
    /// its own where it still reaches it, else looks for another.
    fn still_matched(&self, boxes: &[Cell], left: &Set, i: usize, to: Cell) -> bool {
        let matching = self.matching.as_ref();
        if matching.is_some_and(|m| self.bases.reaches(m[i], to)) {
            return true;
        }
        let mut moved = boxes.to_vec();
        moved[i] = to;
        match matching {
            Some(m) => self.bases.rematched(&moved, left, m, i),
            None => self.bases.matched(&moved, left),
        }
    }

    /// The position after the `i`-th box's pulls `p` (taking it off the
    /// board when `removed`) from position `id` (its `boxes`), unless it is
    /// known or its boxes cannot all go back to start squares.
    fn make_move(
        &mut self,
        (id, boxes): (u32, &[Cell]),
        left: &Set,
        i: usize,
        p: Pulled,
        removed: bool,
    ) -> Option<Move> {
        let from = boxes[i];
        if !removed && !self.still_matched(boxes, left, i, p.to) {
            return None;
        }
        let mut next = std::mem::take(&mut self.step_boxes);
        next.clear();
        next.extend_from_slice(boxes);
        let mut removed_bases = None;
        if removed {
            next.remove(i);
            let mut bases = left.clone();
            bases.remove(self.bases.at(p.to).expect("a start square"));
            removed_bases = Some(bases);
        } else {
            next[i] = p.to;
            reseat(&mut next, i);
        }
        self.place(&next, true);
        // A box taken off leaves the player more room than its pulls had.
        let least = if removed {
            self.least(&next, p.player)
        } else {
            p.least
        };
        let known = self.known(&next, removed_bases.as_ref().unwrap_or(left), least);
        let score = (!known).then(|| self.score(&next, Some((id, boxes, (from, p.to)))));
        self.place(&next, false);
        self.step_boxes = next;
        let step = Step {
            from,
            to: p.to,
            removed,
        };
        score.map(|score| Move {
            step,
            player: least,
            score,
            weight: 1,
        })
    }

    /// The score of `boxes` (marked in `occupied`), worked out once for
    /// each set of boxes; `after` names the position they came from by one
    /// box's move, where they did (see [`Unpacker::cut`]).
    fn score(&mut self, boxes: &[Cell], after: Option<After>) -> Score {
        if let Some(&score) = self.scores.get(boxes) {
            return score;
        }
        let board = self.board;
        let areas = self.count_areas(boxes);
        let cut = self.cut(boxes, after);
        let on_goals = boxes.iter().filter(|&&b| board.is_goal[b]).count();
        let far = self.far_from_goals(boxes, after);
        let score = Score {
            boxes: boxes.len() as u16,
            areas: areas as u16,
            on_goals: on_goals as u16,
            cut: cut as u16,
            near: u32::MAX - far,
        };
        self.scores.insert(boxes.into(), score);
        score
    }

    /// How far `boxes` are from the goals, by the search's measure ([`Far`]).
    /// Matched one box's move from the position `after` names, the
    /// matching of that position, held, takes one augmenting path more.
    fn far_from_goals(&mut self, boxes: &[Cell], after: Option<After>) -> u32 {
        if self.far == Far::Summed {
            return boxes.iter().map(|&b| self.to_goals[b]).sum();
        }
        let distance = &self.to_each_goal;
        // Every box stands where pulls from a goal took it, so some
        // matching is whole; one that is not counts as the nearest.
        if let Some((id, before, (from, to))) = after
            && before.len() == boxes.len()
        {
            if self.matched.is_none_or(|(held, _)| held != id) {
                let whole = self.matcher.bound_warm(Some(0), distance, before);
                self.matched = Some((id, whole.is_some()));
            }
            if self.matched == Some((id, true)) {
                let i = before.iter().position(|&b| b == from).expect("a box moved");
                return self.matcher.bound_moved(distance, i, to).unwrap_or(0);
            }
        }
        self.matched = None;
        self.matcher
            .bound_warm(Some(0), distance, boxes)
            .unwrap_or(0)
    }

    /// The pairs of halls `boxes` (marked in `occupied`) cut apart: from
    /// the halls of the position they came from by one box's move, where
    /// `after` names it (that position measured first, unless it was the
    /// last measured), else afresh.
    fn cut(&mut self, boxes: &[Cell], after: Option<After>) -> u32 {
        let board = self.board;
        let Some((id, before, moved)) = after else {
            self.halls_of = None;
            return self
                .halls
                .cut(board, &self.occupied, &mut self.hall_scratch);
        };
        if self.halls_of != Some(id) {
            self.place(boxes, false);
            self.place(before, true);
            self.halls
                .cut(board, &self.occupied, &mut self.hall_scratch);
            self.place(before, false);
            self.place(boxes, true);
            self.halls_of = Some(id);
        }
        let (occupied, scratch) = (&self.occupied, &mut self.hall_scratch);
        self.halls.cut_after_move(board, occupied, scratch, moved)
    }

    /// Puts `boxes` on the board and marks the player's area from `player`
    /// with a new stamp, which it returns.
    fn mark_area(&mut self, boxes: &[Cell], player: Cell) -> u32 {
        self.place(boxes, true);
        self.stamp += 1;
        let stamp = self.stamp;
        let (occupied, marks) = (&self.occupied, &mut self.marks);
        self.board
            .flood_player(occupied, marks, stamp, &mut self.queue, player);
        stamp
    }

    /// Puts boxes on `boxes` in `occupied` (`on`) or takes them away.
    fn place(&mut self, boxes: &[Cell], on: bool) {
        for &b in boxes {
            self.occupied[b] = on;
        }
    }

    /// The areas `boxes` (marked in `occupied`) cut the floor into.
    fn count_areas(&mut self, boxes: &[Cell]) -> u32 {
        let board = self.board;
        if let Some(rows) = &board.rows {
            return self.area.count_areas(rows, boxes);
        }
        self.stamp += 1;
        let mut areas = 0;
        for c in board.cells() {
            if !self.occupied[c] && self.marks[c] != self.stamp {
                areas += 1;
                board.flood_player(
                    &self.occupied,
                    &mut self.marks,
                    self.stamp,
                    &mut self.queue,
                    c,
                );
            }
        }
        areas
    }

    /// The least cell of the player's area from `from`, `boxes` marked in
    /// `occupied`.
    fn least(&mut self, boxes: &[Cell], from: Cell) -> Cell {
        let board = self.board;
        if let Some(rows) = &board.rows {
            return self.area.flood_among(rows, &mut self.blocked, boxes, from);
        }
        self.stamp += 1;
        board.flood_player(
            &self.occupied,
            &mut self.marks,
            self.stamp,
            &mut self.queue,
            from,
        )
    }

    /// The moves an advisor names (see the module doc).
    fn advised(&self, id: u32, moves: &[Move]) -> Vec<usize> {
        let base = self.nodes[id as usize].score;
        let board = self.board;
        let better = |a: usize, b: usize| moves[a].score < moves[b].score;
        let pick = |keep: &dyn Fn(&Move) -> bool| {
            (0..moves.len())
                .filter(|&k| keep(&moves[k]))
                .reduce(|a, b| if better(b, a) { b } else { a })
        };
        if moves.iter().any(|m| m.step.removed) {
            let loose = pick(&|m: &Move| m.step.removed && !board.is_goal[m.step.from]);
            let any = (0..moves.len())
                .filter(|&k| moves[k].step.removed)
                .min_by_key(|&k| {
                    let m = &moves[k];
                    (
                        m.score.areas,
                        Reverse(board.manhattan(m.step.from, m.step.to)),
                    )
                });
            return loose.or(any).into_iter().collect();
        }
        let pack = (0..moves.len())
            .filter(|&k| {
                let s = moves[k].score;
                board.is_goal[moves[k].step.from]
                    && s.areas <= base.areas
                    && s.cut <= base.cut
                    && s.near < base.near
            })
            .min_by_key(|&k| {
                let m = &moves[k];
                let far = Reverse(board.manhattan(m.step.from, m.step.to));
                (m.score.areas, m.score.cut, far)
            });
        let joins = pick(&|m: &Move| m.score.areas < base.areas);
        let opens = pick(&|m: &Move| m.score.cut < base.cut);
        [pack, joins, opens].into_iter().flatten().collect()
    }
}

/// The position a set of boxes came from by one box's move: its id, its
/// boxes, and the move (from, to; a box taken off the board came to its
/// start square and left).
type After<'a> = (u32, &'a [Cell], (Cell, Cell));

/// `items` but the `i`-th.
fn without<T: Copy>(items: &[T], i: usize) -> Vec<T> {
    let mut rest = items.to_vec();
    rest.remove(i);
    rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn a_moves_score_from_its_positions_halls_is_its_score_afresh() {
        let texts: [&[u8]; 4] = [
            include_bytes!("../../../../tests/data/levels/sasquatch.xsb"),
            include_bytes!("../../../../tests/data/meet/sasquatch-37.xsb"),
            include_bytes!("../../../../tests/data/levels/dimitri-yorick.xsb"),
            include_bytes!("../../../../tests/data/rooms/rooms.xsb"),
        ];
        let levels = texts.iter().flat_map(|t| parse_xsb(t, 1 << 20).unwrap());
        let (mut checked, mut cut, mut removed) = (0, 0, 0);
        for level in &levels.collect::<Vec<_>>() {
            let Ok(board) = Board::new(level) else {
                continue;
            };
            let mut unpacker = Unpacker::new(&board);
            unpacker.add_roots();
            unpacker.run(500, &|| false);
            let mut fresh = Unpacker::new(&board);
            for (id, n) in unpacker.nodes.iter().enumerate() {
                for m in &n.moves {
                    let mut boxes = Vec::new();
                    unpacker.after_step(id as u32, m.step, &mut boxes);
                    fresh.place(&boxes, true);
                    let score = fresh.score(&boxes, None);
                    fresh.place(&boxes, false);
                    assert_eq!(m.score, score, "{:?}", m.step);
                    checked += 1;
                    cut += usize::from(score.cut > 0);
                    removed += usize::from(m.step.removed);
                }
            }
        }
        assert!(
            checked > 1000 && cut > 100 && removed > 10,
            "{checked} {cut} {removed}"
        );
    }

    #[test]
    fn the_search_starts_with_the_player_in_each_area_the_goals_leave() {
        // The goal cuts the corridor in two: west of it, and the one cell east.
        let level = &parse_xsb(b"########\n#@ $ . #\n########", 100).unwrap()[0];
        let board = Board::new(level).unwrap();
        let mut unpacker = Unpacker::new(&board);
        unpacker.add_roots();
        let players: Vec<Cell> = unpacker.nodes.iter().map(|n| n.player).collect();
        assert_eq!(players.len(), 2);
        assert_ne!(players[0], players[1]);
        assert!(players.contains(&board.compact(level.grid.cell(1, 6))));
        assert!(unpacker.nodes.iter().all(|n| n.score.areas == 2));
    }
}
