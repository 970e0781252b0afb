//! Goal rooms: goals behind a one-cell entrance, filled in an order worked out
//! before the search (the goal-room macro of `--fast`).
//!
//! Many levels keep their goals in a room that boxes can only enter through
//! one cell. Filling it is a puzzle of its own (a box placed too early shuts
//! out the goals behind it), and a search over pushes pays for every wrong
//! order in every arrangement of the boxes still outside. So the room is
//! solved once, backwards: from the full room, a breadth-first search over
//! pulls (every box in the room may move) finds the fewest pulls that take
//! some box out through the entrance; from the boxes left, the next; and so
//! on until the room is empty. Read forwards, that is a fixed series of room
//! arrangements, and for each the pushes that bring one more box in from the
//! entrance (and may shift the boxes already in).
//!
//! The search then turns a push onto the entrance into the whole next step
//! at once, never pushes a box inside the room otherwise, and never moves
//! one that is in. That drops solutions (other orders and arrangements), so
//! a search with these macros is not push-optimal and never proves a level
//! impossible; `--fast` keeps plain A* beside it.

use crate::grid::Direction;
use crate::multi::board::{Board, Cell};
use rustc_hash::FxHashMap as HashMap;

/// The room of a cell outside every room.
const NO_ROOM: u8 = u8::MAX;

/// Levels with more cells get no rooms (finding them floods once per cell).
const MAX_LEVEL_CELLS: usize = 4000;
/// Room cells are bits of a `u64`.
const MAX_ROOM_CELLS: usize = 64;
/// Positions one backward step may visit before the room is given up, and
/// all steps of all rooms together (about a second on the biggest rooms).
const MAX_STEP_POSITIONS: usize = 200_000;
const MAX_POSITIONS: usize = 1_000_000;
/// Positions between two asks whether to give up.
const GIVE_UP_EVERY: usize = 1024;

/// One step of filling a room: a box pushed onto the entrance in `arrive`,
/// then `pushes` (of any boxes in the room).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub arrive: Direction,
    /// Each push as (the box's cell before it, direction).
    pub pushes: Vec<(Cell, Direction)>,
}

impl Plan {
    /// Where the player stands after the last push (a plan has one at least).
    pub fn player_end(&self) -> Cell {
        let (from, _) = self.pushes.last().expect("a plan pushes a box in");
        *from
    }
}

/// One goal room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalRoom {
    /// The one cell through which boxes enter (not part of the room).
    pub entrance: Cell,
    /// `boxes[k]`: the room's box cells (sorted) once `k` boxes are in; the
    /// last holds every goal of the room.
    pub boxes: Vec<Vec<Cell>>,
    /// `plans[k]`: the step from `boxes[k]` to `boxes[k + 1]`.
    pub plans: Vec<Plan>,
}

/// The goal rooms of a level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rooms {
    /// Per cell, the room it belongs to (`NO_ROOM` outside; may be empty).
    room: Vec<u8>,
    pub rooms: Vec<GoalRoom>,
}

impl Rooms {
    /// Finds the goal rooms of a board: areas that one box-free cell alone
    /// joins to the rest, holding goals and no box; of nested ones the
    /// largest that can be filled. When `give_up` says so (the time is up,
    /// or another search has answered), the rooms not yet filled are left
    /// out: working them out can take seconds on a large goal area.
    pub fn find(board: &Board, give_up: &dyn Fn() -> bool) -> Rooms {
        let n = board.len();
        let mut rooms = Rooms {
            room: vec![NO_ROOM; n],
            rooms: Vec::new(),
        };
        if n > MAX_LEVEL_CELLS || n == 0 {
            return rooms;
        }
        let mut has_box = vec![false; n];
        for &b in &board.start_boxes {
            has_box[b] = true;
        }
        let mut candidates: Vec<(Cell, Vec<Cell>)> = Vec::new();
        let mut label = vec![0u32; n];
        let mut stamp = 0u32;
        // The cell tried as an entrance, blocked like a box for the floods.
        let mut blocked = vec![false; n];
        let mut area = Vec::new();
        for e in board.cells() {
            if has_box[e] {
                continue;
            }
            blocked[e] = true;
            // Each neighbour starts a flood unless an earlier one (stamps
            // from `round` on) already took it.
            let round = stamp + 1;
            let mut areas: Vec<Vec<Cell>> = Vec::new();
            for start in board.neighbours(e) {
                if label[start] >= round {
                    continue;
                }
                stamp += 1;
                board.flood_player(&blocked, &mut label, stamp, &mut area, start);
                let goals = area.iter().any(|&c| board.is_goal[c]);
                let boxes = area.iter().any(|&c| has_box[c]);
                if goals && !boxes && area.len() <= MAX_ROOM_CELLS {
                    areas.push(area.clone());
                }
            }
            blocked[e] = false;
            // Two rooms behind one entrance would make its macro ambiguous.
            if areas.len() == 1 {
                candidates.push((e, areas.pop().expect("one area")));
            }
        }
        candidates.sort_by_key(|(_, cells)| std::cmp::Reverse(cells.len()));
        let mut budget = MAX_POSITIONS;
        for (entrance, mut cells) in candidates {
            let taken = |c: Cell| rooms.room_of(c).is_some();
            if rooms.rooms.len() >= NO_ROOM as usize
                || cells.iter().any(|&c| taken(c))
                || taken(entrance)
                || rooms
                    .rooms
                    .iter()
                    .any(|r| r.entrance == entrance || cells.contains(&r.entrance))
            {
                continue;
            }
            cells.sort_unstable();
            if let Some(room) = fill(board, entrance, &cells, &mut budget, give_up) {
                let id = rooms.rooms.len() as u8;
                for &c in &cells {
                    rooms.room[c] = id;
                }
                rooms.rooms.push(room);
            }
        }
        rooms
    }

    /// The room `cell` belongs to, if any.
    #[inline]
    pub fn room_of(&self, cell: Cell) -> Option<usize> {
        match self.room.get(cell.index()) {
            Some(&r) if r != NO_ROOM => Some(r as usize),
            _ => None,
        }
    }

    /// The room whose entrance is `cell`, if any.
    pub fn entered_at(&self, cell: Cell) -> Option<usize> {
        self.rooms.iter().position(|r| r.entrance == cell)
    }
}

/// The room's cells numbered as bits, for the backward search over the
/// room's arrangements (the player walks on the room and its entrance).
struct Local<'a> {
    board: &'a Board,
    cells: &'a [Cell],
    entrance: Cell,
    /// Each board cell's bit, [`NO_BIT`] outside the room: looked up for
    /// every cell of every flood.
    bit: Vec<u32>,
}

/// The bit of a cell outside the room.
const NO_BIT: u32 = u32::MAX;

impl Local<'_> {
    fn bit_of(&self, c: Cell) -> Option<u32> {
        Some(self.bit[c]).filter(|&b| b != NO_BIT)
    }

    /// The player stays in the room and on its entrance: the cells outside
    /// may hold boxes when the step is played.
    fn walkable(&self, c: Cell) -> bool {
        c == self.entrance || self.bit[c] != NO_BIT
    }

    /// The player's cells from `from` with boxes on `boxes`, and the
    /// smallest of them (the player's normalized cell).
    fn area(&self, boxes: u64, from: Cell) -> (Vec<Cell>, Cell) {
        // The room's cells reached, as bits, and whether the entrance is.
        let mut room = self.bit_of(from).map_or(0, |b| 1 << b);
        let mut entrance = from == self.entrance;
        let mut cells = Vec::new();
        self.board.breadth_first(&mut cells, from, |_, _, c| {
            if c == self.entrance {
                let new = !entrance;
                entrance = true;
                return new;
            }
            let Some(b) = self.bit_of(c) else {
                return false; // outside the room
            };
            let new = (boxes | room) >> b & 1 == 0;
            if new {
                room |= 1 << b;
            }
            new
        });
        let least = *cells.iter().min().expect("the start is in");
        (cells, least)
    }

    fn cells_of(&self, boxes: u64) -> Vec<Cell> {
        (0..self.cells.len() as u32)
            .filter(|b| boxes >> b & 1 == 1)
            .map(|b| self.cells[b as usize])
            .collect()
    }
}

/// Works out the room's filling backwards (see the module docs), or `None`
/// when some arrangement on the way lets no box out within the budget.
fn fill(
    board: &Board,
    entrance: Cell,
    cells: &[Cell],
    budget: &mut usize,
    give_up: &dyn Fn() -> bool,
) -> Option<GoalRoom> {
    let mut bit = vec![NO_BIT; board.len()];
    for (i, &c) in cells.iter().enumerate() {
        bit[c] = i as u32;
    }
    let local = Local {
        board,
        cells,
        entrance,
        bit,
    };
    let mut boxes: u64 = cells
        .iter()
        .enumerate()
        .filter(|&(_, &c)| board.is_goal[c])
        .fold(0, |m, (i, _)| m | 1 << i);
    let mut arrangements = vec![local.cells_of(boxes)];
    let mut plans = Vec::new();
    while boxes != 0 {
        let (left, plan) = take_one_out(&local, boxes, budget, give_up)?;
        boxes = left;
        arrangements.push(local.cells_of(boxes));
        plans.push(plan);
    }
    arrangements.reverse();
    plans.reverse();
    Some(GoalRoom {
        entrance,
        boxes: arrangements,
        plans,
    })
}

/// A backward position: the room's boxes as bits, and the normalized player.
type Position = (u64, Cell);

/// The fewest pulls that take one box of `boxes` out onto the entrance, the
/// player ending beyond it: the boxes left, and the same moves as pushes.
fn take_one_out(
    local: &Local,
    boxes: u64,
    budget: &mut usize,
    give_up: &dyn Fn() -> bool,
) -> Option<(u64, Plan)> {
    let board = local.board;
    let entrance = local.entrance;
    // Backwards, the player starts where it could walk out after the step.
    let (_, start_player) = local.area(boxes, entrance);
    let start = (boxes, start_player);
    // Per position, the position before it and the pull (the player's
    // cell, direction).
    let mut parent: HashMap<Position, (Position, (Cell, Direction))> = HashMap::default();
    let mut queue = vec![start];
    let mut head = 0;
    while head < queue.len() {
        if queue.len() > MAX_STEP_POSITIONS || queue.len() > *budget {
            *budget = budget.saturating_sub(queue.len());
            return None;
        }
        if head % GIVE_UP_EVERY == 0 && give_up() {
            *budget = 0;
            return None;
        }
        let (set, player) = queue[head];
        head += 1;
        let (area, _) = local.area(set, player);
        for &p in &area {
            for d in Direction::ALL {
                // The player on `p` pulls the box on `p - d` towards `p + d`.
                let Some(bit) = board.step(p, d.opposite()).and_then(|b| local.bit_of(b)) else {
                    continue;
                };
                let Some(to) = board.step(p, d).filter(|_| set >> bit & 1 == 1) else {
                    continue;
                };
                let pull = (p, d);
                if p == entrance && local.bit_of(to).is_none() {
                    // Out: the box on the entrance, the player beyond it on
                    // `to`. Forwards, the box came onto the entrance from
                    // `to` (so that cell is free), pushed from the cell
                    // beyond: both must allow it.
                    if board.dead[to] || board.step(to, d).is_none() {
                        continue;
                    }
                    let plan = pushes_back(&parent, start, (set, player), pull);
                    *budget -= queue.len().min(*budget);
                    return Some((set & !(1 << bit), plan));
                }
                if !local.walkable(to) || local.bit_of(to).is_some_and(|t| set >> t & 1 == 1) {
                    continue;
                }
                let Some(pbit) = local.bit_of(p) else {
                    continue;
                };
                let next_set = set & !(1 << bit) | 1 << pbit;
                let (_, least) = local.area(next_set, to);
                let next = (next_set, least);
                if next != start && !parent.contains_key(&next) {
                    parent.insert(next, ((set, player), pull));
                    queue.push(next);
                }
            }
        }
    }
    *budget -= queue.len().min(*budget);
    None
}

/// The plan of the pulls from `start` to `at`, then `last` out onto the
/// entrance: the same moves as pushes, the last pull first (pulls run from
/// the full room outwards, pushes the other way).
fn pushes_back(
    parent: &HashMap<Position, (Position, (Cell, Direction))>,
    start: Position,
    mut at: Position,
    last: (Cell, Direction),
) -> Plan {
    let mut pushes = vec![(last.0, last.1.opposite())];
    while at != start {
        let (before, (cell, dir)) = parent[&at];
        pushes.push((cell, dir.opposite()));
        at = before;
    }
    Plan {
        arrive: last.1.opposite(),
        pushes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn board(text: &str) -> (Board, crate::level::Level) {
        let level = parse_xsb(text.as_bytes(), 100).unwrap().remove(0);
        (Board::new(&level).unwrap(), level)
    }

    /// Plays a room's plans from empty to full and checks each arrangement.
    fn replay(b: &Board, rooms: &Rooms, room: &GoalRoom) {
        assert_eq!(room.boxes.len(), room.plans.len() + 1);
        assert!(room.boxes[0].is_empty());
        let mut goals: Vec<Cell> = b
            .cells()
            .filter(|&c| rooms.room_of(c).is_some() && b.is_goal[c])
            .collect();
        goals.sort_unstable();
        assert_eq!(room.boxes.last().unwrap(), &goals);
        for (k, plan) in room.plans.iter().enumerate() {
            let mut occupied: Vec<Cell> = room.boxes[k].clone();
            occupied.push(room.entrance);
            let arrived_from = b.step(room.entrance, plan.arrive.opposite()).unwrap();
            let mut player = arrived_from;
            // The player walks to each push over free cells of the room and
            // its entrance (outside, boxes may stand anywhere).
            let allowed =
                |x: Cell| rooms.room_of(x).is_some() || x == room.entrance || x == arrived_from;
            for &(from, dir) in &plan.pushes {
                let stand = b.step(from, dir.opposite()).unwrap();
                let blocked: Vec<bool> = b
                    .cells()
                    .map(|x| !allowed(x) || occupied.contains(&x))
                    .collect();
                let mut seen = Vec::new();
                b.flood_player(&blocked, &mut vec![0; b.len()], 1, &mut seen, player);
                assert!(seen.contains(&stand), "step {k}: cannot reach the push");
                let to = b.step(from, dir).unwrap();
                assert!(!occupied.contains(&to));
                let at = occupied.iter().position(|&c| c == from).expect("a box");
                occupied[at] = to;
                player = from;
            }
            occupied.sort_unstable();
            assert_eq!(occupied, room.boxes[k + 1], "step {k}");
            assert_eq!(player, plan.player_end());
        }
    }

    #[test]
    fn a_room_behind_a_door_fills_from_the_back() {
        let (b, level) = board(
            "#########\n\
             #   #####\n\
             #@$$  ..#\n\
             #   #####\n\
             #########",
        );
        let rooms = Rooms::find(&b, &|| false);
        assert_eq!(rooms.rooms.len(), 1);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        let room = &rooms.rooms[0];
        assert_eq!(room.entrance, at(2, 4));
        assert_eq!(room.boxes[1], vec![at(2, 7)]);
        // The first box goes three pushes deep, arriving eastwards.
        assert_eq!(room.plans[0].arrive, Direction::East);
        assert_eq!(room.plans[0].pushes.len(), 3);
        assert_eq!(room.plans[0].player_end(), at(2, 6));
        replay(&b, &rooms, room);
    }

    #[test]
    fn a_block_of_goals_needs_boxes_shifted() {
        // Sasquatch 3's goal room: the top row can only be filled from the
        // row below, some boxes going up and along.
        let (b, _) = board(
            "##########\n\
             #  $ $ $ #\n\
             # $ $ $  #\n\
             #  $ $   #\n\
             ###### ###\n\
             #.... @  #\n\
             #....    #\n\
             ##  ######\n\
             \x20####",
        );
        let rooms = Rooms::find(&b, &|| false);
        assert_eq!(rooms.rooms.len(), 1);
        assert_eq!(rooms.rooms[0].plans.len(), 8);
        replay(&b, &rooms, &rooms.rooms[0]);
        // Told to give up (the time is up), the room is left out.
        assert!(Rooms::find(&b, &|| true).rooms.is_empty());
    }

    #[test]
    fn no_room_with_a_box_inside_or_two_behind_one_door() {
        let (b, _) = board("########\n#@ $.$.#\n########");
        assert!(Rooms::find(&b, &|| false).rooms.is_empty());
        // Two goal pockets behind the cell above the player: no room there.
        let (b, level) = board("#####\n#. .#\n## ##\n#$$@#\n#####");
        let rooms = Rooms::find(&b, &|| false);
        let at = |r, c| b.compact(level.grid.cell(r, c));
        assert!(rooms.entered_at(at(1, 2)).is_none());
        for room in &rooms.rooms {
            replay(&b, &rooms, room);
        }
    }
}
