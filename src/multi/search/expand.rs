//! Expanding a node: every push the rules and the pruning allow.
//!
//! Pruning, in the order it is met: a box frozen off a goal kills the node;
//! in the non-optimal searches, so does a learned deadlock (see
//! [`crate::multi::deadlock::learned`]); when a PI-corral exists only its pushes are
//! tried, and a corral whose boxes alone can never all reach goals kills
//! the node (see [`crate::multi::deadlock::corral`], [`crate::multi::deadlock::subset`]; not
//! at the positions the packing search's box moves pass through, see
//! `allowed_pushes`); a push onto a dead square is never made; a push
//! that freezes a box off a goal, or whose bound is infinite, makes no
//! child. A box pushed into a dead-end tunnel of goals goes on to the
//! deepest free goal in one move (it can only go deeper, and nothing else
//! can reach past it).

use super::incremental::Frozen;
use super::player::ChildArea;
use super::push::Push;
use super::{AdvisorSet, Pruning, Search};
use crate::grid::Direction;
use crate::multi::board::{Cell, Distance};
use crate::multi::cell::reseat;
use crate::multi::guide::packing::{Opener, Packing};
use crate::multi::options::Method;
use crate::multi::table::{Key, NodeId};
use std::rc::Rc;

/// One expanded node in this many is searched for a new learned deadlock:
/// a knot shows up in very many nodes, so a sample finds it, at an eighth
/// of the cost (learning at every node solved no more of Boxxle I and took
/// up to three times as long on Microban II). The positions a box's move
/// passes through are never searched: each differs from the node the move
/// began at by that box alone, so searching them all (a few hundred for one
/// move) repeats that node's search over and over.
const LEARN_EVERY: u64 = 8;

/// Boxes in a small corral searched alone, at most (see
/// [`Corrals::small_sets`](crate::multi::deadlock::corral::Corrals::small_sets)).
const SMALL_CORRAL: usize = 8;

/// The pushes (box cell, direction) of a PI-corral: the only ones tried.
type CorralPushes = Vec<(Cell, Direction)>;

/// The node being expanded, as every push from it needs it.
pub(super) struct Expansion<'a> {
    pub node: NodeId,
    /// The node's cost so far: its pushes (for the searches led by the
    /// packing order, its pushes off the plan, or its box moves off the
    /// plan where the packing search counts box moves).
    pub g: u32,
    pub boxes: &'a [Cell],
    pub frozen: Rc<Frozen>,
    /// The smallest cell of the player's area (its normalized cell).
    least: Cell,
    /// The node's hash without its player.
    boxes_hash: u64,
    /// With a packing order, the phase the node is filling.
    phase: Option<usize>,
    /// The box the packing search may move away from the next target for
    /// free (see [`Packing::opener`]).
    opener: Option<Opener>,
}

/// A box pushed on along its paths after the push that began its move (box
/// moves): only it is pushed.
#[derive(Clone, Copy, Debug)]
pub(super) struct MovingBox {
    /// The cell it stands on.
    pub cell: Cell,
    /// What the path cost before its move began.
    pub before: u32,
    /// Its player's area, kept when it was made (see
    /// [`PlayerArea::keep_child`](super::player::PlayerArea::keep_child)).
    pub area: Option<u32>,
    /// Where the box is the opener's, the opener.
    pub opener: Option<Opener>,
}

/// What the opener found among a node's box moves.
#[derive(Default)]
pub(super) struct Opening {
    /// Some move filled a target.
    filled: bool,
    /// The child where the opener's box ends farthest from its target.
    best: Option<(NodeId, Distance)>,
}

/// A child position about to be added.
pub(super) struct Child<'a> {
    pub g: u32,
    pub boxes: &'a [Cell],
    pub player: Cell,
    /// How its player's area was found (before any other flood).
    pub area: ChildArea,
    pub hash: u64,
    pub push: Push,
}

impl Search<'_> {
    /// Expands `node` (its boxes `boxes`), pushing only the `moving` box
    /// when it is given. `occupied` is clear before and after.
    pub(super) fn expand(&mut self, node: NodeId, boxes: &[Cell], moving: Option<MovingBox>) {
        for &b in boxes {
            self.occupied[b] = true;
        }
        // A box frozen off its goal: nothing here can be solved.
        if let Some(frozen) = self.frozen_of(boxes) {
            let push = self.push_of(node);
            let parent = self.nodes.parent(node);
            self.bound
                .begin_parent(self.board, (node, parent), push, &frozen, boxes);
            if let Some((least, only)) = self.allowed_pushes(node, boxes, moving) {
                let player = self.nodes.player(node);
                let phase = self.phase_of(node);
                let x = Expansion {
                    node,
                    g: self.cost_before(node, moving),
                    boxes,
                    frozen,
                    least,
                    boxes_hash: self.nodes.hash[node.index()] ^ self.board.zobrist_player[player],
                    phase,
                    opener: self.opener_of(phase, boxes, moving),
                };
                self.push_boxes(&x, moving.map(|m| m.cell), only.as_deref());
                self.bound.end_parent(node, &x.frozen);
            }
        }
        for &b in boxes {
            self.occupied[b] = false;
        }
    }

    /// The phase of the packing order `node` is filling (`occupied` holding
    /// its boxes).
    fn phase_of(&self, node: NodeId) -> Option<usize> {
        self.config.packing.and_then(|p| {
            if self.config.method == Method::Plan {
                let k = self.advice.plan_phase(node);
                (k < p.phases.len()).then_some(k)
            } else {
                p.current_phase(&self.occupied)
            }
        })
    }

    /// The opener of a node of the packing search that counts box moves:
    /// worked out where a move begins, the moving box's own on in it.
    fn opener_of(
        &self,
        phase: Option<usize>,
        boxes: &[Cell],
        moving: Option<MovingBox>,
    ) -> Option<Opener> {
        if !self.counts_box_moves() {
            return None;
        }
        match moving {
            Some(m) => m.opener,
            None => {
                let packing = self.config.packing?;
                packing.opener(phase?, &self.occupied, boxes)
            }
        }
    }

    /// What the path to `node` cost, as its pushes count: where the search
    /// counts box moves, a box pushed on is still in the move that began
    /// before it, and that move is paid once.
    fn cost_before(&self, node: NodeId, moving: Option<MovingBox>) -> u32 {
        match moving {
            Some(m) if self.counts_box_moves() => m.before,
            _ => self.nodes.g[node.index()],
        }
    }

    /// Floods the node's area (or takes the one kept for a position of a
    /// box's move) and looks for corrals: `None` when a corral
    /// is dead (or a learned deadlock is there, sometimes searched for
    /// anew), else the smallest cell of the area and the pushes of the
    /// PI-corral to try instead of all, if there is one.
    ///
    /// At a position a box's move passes through (`in_move`), no new
    /// deadlock is looked for, and in the packing search (where it counts
    /// box moves) no corral either: the position is expanded in full later,
    /// corrals and all, if the search gets to it, and there a corral search
    /// at every position of a move cost more than the pushes it cut. In
    /// the box-move search it paid (perfect 91 and 99 need it there).
    fn allowed_pushes(
        &mut self,
        node: NodeId,
        boxes: &[Cell],
        moving: Option<MovingBox>,
    ) -> Option<(Cell, Option<CorralPushes>)> {
        let board = self.board;
        let player = self.nodes.player(node);
        let in_move = moving.is_some();
        // A node's player is the smallest cell of its area.
        let least = match moving.and_then(|m| m.area) {
            Some(kept) => {
                self.area.load_kept(kept);
                player
            }
            None => self.area.flood_parent(board, &self.occupied, boxes, player),
        };
        let learn = !in_move && self.stats.expanded.is_multiple_of(LEARN_EVERY);
        if self.learned_dead(node, boxes, player, learn) {
            return None;
        }
        // No corral to look for there, or none at all: every free cell is
        // in the player's area.
        let skip_corrals = in_move && self.counts_box_moves();
        if skip_corrals || self.area.parent_len() + boxes.len() == board.len() {
            return Some((least, None));
        }
        let area = &self.area;
        let only = self
            .prune
            .corrals
            .restrict(board, &self.occupied, boxes, |c| area.in_parent(c));
        // A corral whose boxes alone can never all reach goals: the node is dead.
        let Pruning {
            corrals, subset, ..
        } = &mut self.prune;
        if corrals
            .found()
            .iter()
            .any(|set| subset.dead(board, set, player))
        {
            return None;
        }
        // Searches with fences test the small corrals too: a fence there
        // is proven in a few positions.
        if self.config.fences.is_some() && self.small_corral_dead(boxes, player) {
            return None;
        }
        Some((least, only))
    }

    /// True when the boxes of one of the small corrals of the last corral
    /// search (see [`Corrals::small_sets`](crate::multi::deadlock::corral::Corrals::small_sets)) are dead alone; such a fence is
    /// kept as a learned pattern.
    fn small_corral_dead(&mut self, boxes: &[Cell], player: Cell) -> bool {
        let Pruning {
            corrals,
            subset,
            patterns,
            ..
        } = &mut self.prune;
        let Some(dead) = corrals
            .small_sets(self.board, &self.occupied, boxes, SMALL_CORRAL)
            .find(|set| subset.dead(self.board, set, player))
            .map(<[Cell]>::to_vec)
        else {
            return false;
        };
        patterns.keep(self.board, dead, player);
        true
    }

    /// The non-optimal searches: true when the node holds a learned
    /// deadlock or a fence, or (when `learn`) teaches a new deadlock.
    fn learned_dead(&mut self, node: NodeId, boxes: &[Cell], player: Cell, learn: bool) -> bool {
        if self.config.optimal() {
            return false;
        }
        // The box its move left on one cell: its parent held no fence (it
        // was expanded), so only the fences holding that cell can be here.
        let moved = self.nodes.parent(node).and_then(|_| {
            let push = self.push_of(node);
            push.step.is_none().then(|| push.end(self.board))
        });
        let Pruning {
            subset, patterns, ..
        } = &mut self.prune;
        patterns.matches(self.board, &self.occupied, boxes, player, moved)
            || (learn && patterns.learn(self.board, subset, boxes, player))
    }

    /// Tries every push of every box (or of `only_box`, or the pushes in `only`).
    fn push_boxes(
        &mut self,
        x: &Expansion,
        only_box: Option<Cell>,
        only: Option<&[(Cell, Direction)]>,
    ) {
        if let Some(rooms) = self.config.rooms {
            self.in_room.clear();
            self.in_room.resize(rooms.rooms.len(), 0);
            for &b in x.boxes {
                if let Some(r) = rooms.room_of(b) {
                    self.in_room[r] += 1;
                }
            }
        }
        let mut child = Vec::with_capacity(x.boxes.len());
        // The search that takes the newest node first pushes the box it
        // pushed last again before any other, when that is no worse.
        let last = match (self.config.method, self.nodes.parent(x.node)) {
            (Method::Plan, Some(_)) => x
                .boxes
                .iter()
                .position(|&b| b == self.push_of(x.node).end(self.board)),
            _ => None,
        };
        let order = (0..x.boxes.len()).filter(|&i| Some(i) != last).chain(last);
        for i in order {
            let b = x.boxes[i];
            if only_box.is_some_and(|o| o != b) {
                continue;
            }
            // A box in a goal room stays where its macro put it.
            if self.config.rooms.is_some_and(|r| r.room_of(b).is_some()) {
                continue;
            }
            for dir in Direction::ALL {
                if only.is_some_and(|pushes| !pushes.contains(&(b, dir))) {
                    continue;
                }
                self.push_box(x, &mut child, i, dir);
            }
        }
    }

    /// The push of the `i`-th box in `dir`, when it can be made: its child
    /// (or, onto a goal room's entrance, the room's next step).
    fn push_box(&mut self, x: &Expansion, child: &mut Vec<Cell>, i: usize, dir: Direction) {
        let board = self.board;
        let b = x.boxes[i];
        let area = &self.area;
        let Some(ahead) = board.push_into(b, dir, &self.occupied, |c| area.in_parent(c)) else {
            return;
        };
        if let Some(rooms) = self.config.rooms {
            // Boxes enter a goal room only by its macro; once it is full,
            // its entrance is a cell like any other (it may be a goal).
            match rooms.entered_at(ahead) {
                Some(r) if (self.in_room[r] as usize) < rooms.rooms[r].plans.len() => {
                    self.room_step(x, b, dir, r);
                    return;
                }
                _ if rooms.room_of(ahead).is_some() => return,
                _ => {}
            }
        }
        let (end, pushes) = self.slide(ahead, dir);
        let cost = self.push_cost(x, b, end, pushes);
        self.occupied[b] = false;
        self.occupied[end] = true;
        if let Some(table) = self.child_table(&x.frozen, end) {
            // The player stands where the box was before its last push.
            let stand = board
                .step(end, dir.opposite())
                .expect("the box came from there");
            child.clear();
            child.extend_from_slice(x.boxes);
            child[i] = end;
            reseat(child, i);
            let (player, area) = self.child_player(x, (b, ahead), pushes, stand, child);
            let hash = x.boxes_hash
                ^ board.zobrist_box[b]
                ^ board.zobrist_box[end]
                ^ board.zobrist_player[player];
            let push = Push {
                from: b,
                dir,
                count: pushes,
                step: None,
            };
            let moved = Rc::ptr_eq(&table, &x.frozen).then_some(end);
            let made = Child {
                g: x.g + cost,
                boxes: child,
                player,
                area,
                hash,
                push,
            };
            let added = self.add_child(x, &made, &table, moved);
            self.note_opening(x, b, end, cost, added);
        }
        self.occupied[end] = false;
        self.occupied[b] = true;
    }

    /// What `pushes` pushes of a box from `from` to `end` cost (`occupied`
    /// as before them): their number, or for the searches led by the
    /// packing order nothing when they follow it; where the search counts box
    /// moves, one for the box's move, nothing when it fills an empty goal
    /// of the phase being filled.
    fn push_cost(&self, x: &Expansion, from: Cell, end: Cell, pushes: u16) -> u32 {
        if self.counts_box_moves() {
            let fills = |(p, k): (&Packing, usize)| p.fills(k, &self.occupied, end);
            return u32::from(!self.config.packing.zip(x.phase).is_some_and(fills));
        }
        match (self.config.packing, x.phase) {
            (Some(packing), Some(k)) if packing.follows_plan(k, &self.occupied, from, end) => 0,
            _ => pushes as u32,
        }
    }

    /// Where a box pushed onto `ahead` in `dir` stops, and after how many
    /// pushes: at once, or down a dead-end tunnel of goals, or (with macros,
    /// which are not optimal) at the end of a tunnel, unless it reaches a
    /// goal or a room first: a box pushed on along a one-wide corridor it
    /// stands in (the player following it in) would only block the corridor
    /// by stopping inside. A box pushed into a corridor from open floor
    /// stops on its first cell: one-cell corridors, as between the pillars
    /// of a lattice, are where boxes wait for others to pass.
    fn slide(&self, ahead: Cell, dir: Direction) -> (Cell, u16) {
        let board = self.board;
        let (mut end, mut pushes) = (ahead, 1u16);
        let in_tunnel = || {
            let from = board.step(ahead, dir.opposite());
            from.is_some_and(|from| board.is_corridor(from, dir))
        };
        if board.goal_tunnel[ahead][dir.index()] {
            while let Some(next) = board.step(end, dir).filter(|&next| !self.occupied[next]) {
                (end, pushes) = (next, pushes + 1);
            }
        } else if let Some(rooms) = self.config.rooms
            && in_tunnel()
        {
            let open = |next: Cell| {
                !self.occupied[next]
                    && !board.dead[next]
                    && rooms.room_of(next).is_none()
                    && rooms.entered_at(next).is_none()
            };
            while !board.is_goal[end] && board.is_corridor(end, dir) {
                let Some(next) = board.step(end, dir).filter(|&next| open(next)) else {
                    break;
                };
                (end, pushes) = (next, pushes + 1);
            }
        }
        (end, pushes)
    }

    /// The frozen table of a child whose pushed box stands on `end`: the
    /// parent's, or with the box's frozen group added when it froze on
    /// goals; `None` when it froze off a goal (a deadlock).
    fn child_table(&mut self, frozen: &Rc<Frozen>, end: Cell) -> Option<Rc<Frozen>> {
        let board = self.board;
        match self.prune.freeze.group(board, &self.occupied, end) {
            None => Some(frozen.clone()),
            Some(group) if group.iter().any(|&x| !board.is_goal[x]) => None,
            Some(group) => {
                let mut cells = frozen.cells.clone();
                cells.extend_from_slice(group);
                cells.sort_unstable();
                cells.dedup();
                Some(self.bound.table(board, cells))
            }
        }
    }

    /// The normalized player of a child whose box went from `b` onto
    /// `ahead` (and on, `pushes` in all), the player ending on `stand`
    /// among the child's `boxes`, and how its area was found.
    /// When the cell the box freed opens onto nothing new, and the cell it
    /// entered was outside the player's area or leaves the area in one
    /// piece, the area just trades one cell for the other: no flood needed.
    fn child_player(
        &mut self,
        x: &Expansion,
        (b, ahead): (Cell, Cell),
        pushes: u16,
        stand: Cell,
        boxes: &[Cell],
    ) -> (Cell, ChildArea) {
        let board = self.board;
        let area = &self.area;
        let simple = pushes == 1
            && board.only_trades(&self.occupied, b, ahead, x.least, |c| area.in_parent(c));
        if simple {
            let traded = ChildArea::Traded {
                entered: ahead,
                left: b,
            };
            (x.least.min(b), traded)
        } else {
            let player = self.area.normalize(board, &self.occupied, boxes, stand);
            (player, ChildArea::Flooded)
        }
    }

    /// Adds a child of the expanded node, or updates a known node reached
    /// by fewer pushes. `table` is the child's frozen table; `moved`, the
    /// pushed box's end cell when that table is the parent's. Returns the
    /// child when it is new.
    pub(super) fn add_child(
        &mut self,
        x: &Expansion,
        child: &Child,
        table: &Frozen,
        moved: Option<Cell>,
    ) -> Option<NodeId> {
        let key = Key {
            boxes: child.boxes,
            player: child.player,
            hash: child.hash,
        };
        if let Some(v) = self.nodes.find(&key) {
            self.reach_again(v, x.node, child);
            return None;
        }
        let h =
            self.bound
                .child_bound(self.board, table, &x.frozen, child.boxes, child.push, moved);
        let h = h?;
        let v = self
            .nodes
            .insert(&key, child.g, h, Some(x.node), child.push.stored());
        self.stats.generated += 1;
        if let Some(meet) = self.config.meeting()
            && self.met.is_none()
            && let Some(rest) = meet.path_from(child.hash, child.boxes, child.player)
        {
            self.met = Some((v, rest));
        }
        if self.box_moves() && child.push.step.is_none() {
            // Before `enqueue_counted`, whose floods would overwrite the
            // child's area in the queue.
            let area = self.area.keep_child(child.area);
            let end = child.push.end(self.board);
            let opener = x.opener.filter(|o| o.cell == child.push.from);
            self.fresh
                .push((v, end, area, opener.map(|o| o.moved_to(end))));
            self.bound.keep_child(v, &x.frozen);
        }
        self.enqueue_counted(v, Some(child.area));
        if self.counts_box_moves() && self.config.advisors != AdvisorSet::NONE {
            self.advisors.children.push(v);
        }
        Some(v)
    }

    /// Notes a child of a box move for the opener: whether the move fills
    /// a target (then there is no opener; where the search counts box
    /// moves, only such a push costs nothing), and the new child where the
    /// opener's box ends farthest from its target.
    fn note_opening(
        &mut self,
        x: &Expansion,
        b: Cell,
        end: Cell,
        cost: u32,
        added: Option<NodeId>,
    ) {
        if !self.counts_box_moves() {
            return;
        }
        self.opening.filled |= cost == 0;
        let (Some(o), Some(v), Some(packing)) = (x.opener, added, self.config.packing) else {
            return;
        };
        if o.cell != b {
            return;
        }
        if let Some(steps) = packing.opens(&o, end)
            && self.opening.best.is_none_or(|(_, s)| steps > s)
        {
            self.opening.best = Some((v, steps));
        }
    }

    /// After a node's box moves: the opener's child costs what the node
    /// did, unless some move filled a target.
    pub(super) fn open_the_way(&mut self, before: u32) {
        let opening = std::mem::take(&mut self.opening);
        if let Some((v, _)) = opening.best.filter(|_| !opening.filled) {
            self.lower_cost(v, before);
        }
    }

    /// A known node `v` reached again from `parent`: when by fewer pushes,
    /// it takes the new way in, and for the optimal methods it is looked at
    /// again (the others do not revisit closed nodes).
    ///
    /// Where the search counts box moves, a path's cost can fall along it (a
    /// move that fills a goal costs nothing, the pushes before it in the
    /// move one), so a new way in could close a loop of parents: the node
    /// keeps its path and only takes the lower cost.
    fn reach_again(&mut self, v: NodeId, parent: NodeId, child: &Child) {
        let vi = v.index();
        if child.g >= self.nodes.g[vi] {
            return;
        }
        self.nodes.g[vi] = child.g;
        if !self.counts_box_moves() {
            self.nodes.set_parent(v, parent);
            self.nodes.set_push(v, child.push.stored());
        }
        if self.config.optimal() || !self.nodes.closed[vi] {
            self.nodes.closed[vi] = false;
            self.enqueue(v);
        }
    }
}
