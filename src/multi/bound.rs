//! The lower bound: a minimum-cost perfect matching of boxes to goals.
//!
//! Each box must end on its own goal, and a box needs at least its push
//! distance to the goal it ends on, so the cheapest assignment of boxes to
//! goals (Hungarian method, shortest augmenting paths, O(n^3)) never
//! overestimates the pushes left: A* stays push-optimal. A push moves one box
//! one cell and changes its distances by at most one, so the bound is also
//! consistent. When no assignment has finite cost, the position is dead.

use super::board::{Cell, Distance, UNREACHABLE};

/// The matching of the last full computation, kept so that a position one
/// box away (every child of an expanded node) costs one augmenting path,
/// O(n^2), instead of a whole matching.
#[derive(Clone, Debug, Default)]
pub struct Matcher {
    n: usize,
    /// Row-major n x n costs: rows are boxes, columns goals.
    cost: Vec<u32>,
    /// What `cost` was filled from: the caller's name for the distance
    /// table (`None`: unknown) and each row's box cell. The next matrix is
    /// most often one box away (the positions of a box's move), and only
    /// its changed rows are filled again.
    cost_table: Option<usize>,
    cost_cells: Vec<Cell>,
    /// Dual values and the matching (`goal_of[j]`: 1-based row on column j).
    u: Vec<i64>,
    v: Vec<i64>,
    goal_of: Vec<usize>,
    /// Scratch for a child's matching (`row` holds the moved box's costs,
    /// or a whole shrunk cost matrix).
    su: Vec<i64>,
    sv: Vec<i64>,
    sgoal_of: Vec<usize>,
    row: Vec<u32>,
    way: Vec<usize>,
    min_v: Vec<i64>,
    used: Vec<bool>,
    /// Rows left for augmenting paths after the warm start.
    pending: Vec<usize>,
}

/// A matching kept for later (duals and assignment).
#[derive(Clone, Debug, Default)]
pub struct Saved {
    u: Vec<i64>,
    v: Vec<i64>,
    goal_of: Vec<usize>,
}

/// A cost no real assignment reaches: marks an impossible pairing.
const BLOCKED: u32 = 1 << 24;

fn cost_of(distance: &[Vec<Distance>], cell: Cell, goal: usize) -> u32 {
    let d = distance[goal][cell];
    if d == UNREACHABLE {
        BLOCKED
    } else {
        u32::from(d)
    }
}

impl Matcher {
    /// Fills the cost matrix for `boxes` (the box of row `moved`, if any,
    /// on `cell`) from the distance table the caller names `table`: only the
    /// rows that changed when the last matrix came from the same table.
    fn fill_costs(
        &mut self,
        table: Option<usize>,
        distance: &[Vec<Distance>],
        boxes: &[Cell],
        moved: Option<(usize, Cell)>,
    ) {
        let n = boxes.len();
        let reuse = table.is_some() && self.cost_table == table && self.cost_cells.len() == n;
        if !reuse {
            self.cost.clear();
            self.cost.resize(n * n, 0);
            // Any cell: every row is filled below.
            self.cost_cells.clear();
            self.cost_cells.resize(n, Cell::new(0));
        }
        self.n = n;
        self.cost_table = table;
        for (r, &b) in boxes.iter().enumerate() {
            let b = match moved {
                Some((row, cell)) if row == r => cell,
                _ => b,
            };
            if reuse && self.cost_cells[r] == b {
                continue;
            }
            self.cost_cells[r] = b;
            for (g, cost) in self.cost[r * n..(r + 1) * n].iter_mut().enumerate() {
                *cost = cost_of(distance, b, g);
            }
        }
    }

    /// Matches row `i` (1-based) into the held matching.
    fn match_row(&mut self, i: usize) {
        let (n, cost) = (self.n, &self.cost);
        add_row(
            (&mut self.u, &mut self.v, &mut self.goal_of),
            (&mut self.way, &mut self.min_v, &mut self.used),
            n,
            i,
            |r| &cost[(r - 1) * n..r * n],
        );
    }

    /// The held matching's cost, or `None` when it uses an impossible pairing.
    fn held_total(&self) -> Option<u32> {
        let n = self.n;
        let total: i64 = (1..=n)
            .map(|j| self.cost[(self.goal_of[j] - 1) * n + (j - 1)] as i64)
            .sum();
        (total < BLOCKED as i64).then_some(total as u32)
    }

    /// The matching bound of `boxes` over a distance table
    /// `distance[g][cell]` with one row per goal still to fill, for as many
    /// boxes; `table` names that table for [`Matcher::fill_costs`] (the same
    /// name must always mean the same table). Kept for [`Matcher::bound_moved`].
    pub fn bound_with(
        &mut self,
        table: Option<usize>,
        distance: &[Vec<Distance>],
        boxes: &[Cell],
    ) -> Option<u32> {
        let n = boxes.len();
        debug_assert_eq!(n, distance.len());
        self.v.clear();
        self.v.resize(n + 1, 0);
        self.match_from_goal_duals(table, distance, boxes)
    }

    /// [`Matcher::bound_with`], warm-started from the goals' duals of the
    /// last matching (the same goals, other boxes): only rows whose best
    /// goal by reduced cost is taken need an augmenting path. Searches
    /// whose positions follow one another closely but not one box apart (a
    /// best-first order) match far fewer rows so.
    pub fn bound_warm(
        &mut self,
        table: Option<usize>,
        distance: &[Vec<Distance>],
        boxes: &[Cell],
    ) -> Option<u32> {
        if self.v.len() != boxes.len() + 1 {
            return self.bound_with(table, distance, boxes);
        }
        self.match_from_goal_duals(table, distance, boxes)
    }

    /// The matching of `boxes` from the goals' duals held in `v`: each
    /// row's dual is its least reduced cost (so the duals stay feasible),
    /// a row whose cheapest goal is still free takes it at once, tight, and
    /// only the rest need an augmenting path.
    fn match_from_goal_duals(
        &mut self,
        table: Option<usize>,
        distance: &[Vec<Distance>],
        boxes: &[Cell],
    ) -> Option<u32> {
        let n = boxes.len();
        self.fill_costs(table, distance, boxes, None);
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.goal_of.clear();
        self.goal_of.resize(n + 1, 0);
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        for i in 1..=n {
            let row = &self.cost[(i - 1) * n..i * n];
            let reduced = row.iter().zip(&self.v[1..]).map(|(&c, &v)| c as i64 - v);
            let least = reduced.clone().min().expect("a row has n > 0 costs");
            let j = 1 + reduced.take_while(|&r| r != least).count();
            self.u[i] = least;
            if self.goal_of[j] == 0 {
                self.goal_of[j] = i;
            } else {
                pending.push(i);
            }
        }
        for &i in &pending {
            self.match_row(i);
        }
        self.pending = pending;
        self.held_total()
    }

    /// The matching held now, written into `saved` (its vectors reused), to
    /// resume later with [`Matcher::resume`].
    pub fn save_into(&self, saved: &mut Saved) {
        saved.u.clone_from(&self.u);
        saved.v.clone_from(&self.v);
        saved.goal_of.clone_from(&self.goal_of);
    }

    /// Holds a saved matching again as it was (its costs are not kept: only
    /// [`Matcher::bound_shrunk`] may follow, which needs none).
    pub fn load(&mut self, saved: &Saved) {
        self.n = saved.goal_of.len() - 1;
        self.u.clone_from(&saved.u);
        self.v.clone_from(&saved.v);
        self.goal_of.clone_from(&saved.goal_of);
    }

    /// Holds the matching of the last [`Matcher::bound_shrunk`], so that the
    /// position it was computed for can have children of its own.
    pub fn adopt_shrunk(&mut self) {
        self.n = self.sgoal_of.len() - 1;
        std::mem::swap(&mut self.u, &mut self.su);
        std::mem::swap(&mut self.v, &mut self.sv);
        std::mem::swap(&mut self.goal_of, &mut self.sgoal_of);
        std::mem::swap(&mut self.cost, &mut self.row);
        self.cost_table = None;
    }

    /// The matching of the last [`Matcher::bound_moved`] child, written into
    /// `saved`: the child's own expansion takes it up with
    /// [`Matcher::take_up`] instead of matching its moved box again.
    pub fn save_moved_into(&self, saved: &mut Saved) {
        saved.u.clone_from(&self.su);
        saved.v.clone_from(&self.sv);
        saved.goal_of.clone_from(&self.sgoal_of);
    }

    /// Holds the saved matching of `boxes` themselves (see
    /// [`Matcher::save_moved_into`]) over `distance`, named `table`.
    pub fn take_up(
        &mut self,
        saved: &Saved,
        table: Option<usize>,
        distance: &[Vec<Distance>],
        boxes: &[Cell],
    ) -> Option<u32> {
        self.fill_costs(table, distance, boxes, None);
        self.u.clone_from(&saved.u);
        self.v.clone_from(&saved.v);
        self.goal_of.clone_from(&saved.goal_of);
        self.held_total()
    }

    /// Takes up a saved matching of `boxes` over `distance` again, then moves
    /// the box of row `moved` to `cell` for good: the matching of a child of
    /// the saved position, at the price of one augmenting path.
    pub fn resume(
        &mut self,
        saved: &Saved,
        table: Option<usize>,
        distance: &[Vec<Distance>],
        boxes: &[Cell],
        moved: usize,
        cell: Cell,
    ) -> Option<u32> {
        self.fill_costs(table, distance, boxes, Some((moved, cell)));
        self.u.clone_from(&saved.u);
        self.v.clone_from(&saved.v);
        self.goal_of.clone_from(&saved.goal_of);
        let i = moved + 1;
        if let Some(j) = (1..=self.n).find(|&j| self.goal_of[j] == i) {
            self.goal_of[j] = 0;
        }
        // With u = 0 the row's reduced costs are non-negative (v never grows).
        self.u[i] = 0;
        self.match_row(i);
        self.held_total()
    }

    /// The bound of the last [`Matcher::bound_with`] position with the box of
    /// row `moved` (its index in that box list) now on `cell`: the old
    /// matching minus that row, one augmenting path to put it back.
    pub fn bound_moved(
        &mut self,
        distance: &[Vec<Distance>],
        moved: usize,
        cell: Cell,
    ) -> Option<u32> {
        let n = self.n;
        let i = moved + 1;
        self.su.clone_from(&self.u);
        self.sv.clone_from(&self.v);
        self.sgoal_of.clone_from(&self.goal_of);
        if let Some(j) = (1..=n).find(|&j| self.sgoal_of[j] == i) {
            self.sgoal_of[j] = 0;
        }
        // With u = 0 the row's reduced costs are non-negative (v never grows).
        self.su[i] = 0;
        self.row.clear();
        self.row.extend((0..n).map(|g| cost_of(distance, cell, g)));
        let (cost, row) = (&self.cost, &self.row);
        let row_of = |r: usize| {
            if r == i {
                &row[..]
            } else {
                &cost[(r - 1) * n..r * n]
            }
        };
        add_row(
            (&mut self.su, &mut self.sv, &mut self.sgoal_of),
            (&mut self.way, &mut self.min_v, &mut self.used),
            n,
            i,
            row_of,
        );
        let total: i64 = (1..=n)
            .map(|j| row_of(self.sgoal_of[j])[j - 1] as i64)
            .sum();
        (total < BLOCKED as i64).then_some(total as u32)
    }

    /// The bound of a child whose boxes froze on goals (so the distance
    /// table changed), from the held matching of its parent: the rows of the
    /// frozen boxes and the columns of their goals drop out, and walls only
    /// raise costs, so the parent's duals stay feasible; the edges still
    /// tight stay matched and only the other rows (the moved box's among
    /// them) are matched again, one augmenting path each.
    ///
    /// `boxes` are the child's unfrozen boxes over the new `distance` table;
    /// `old_row[r]` is the parent row of new row `r` (`None` for the moved
    /// box), `old_col[c]` the parent column of new column `c`. The held
    /// matching is left as it was, for the parent's other children.
    pub fn bound_shrunk(
        &mut self,
        distance: &[Vec<Distance>],
        boxes: &[Cell],
        old_row: &[Option<usize>],
        old_col: &[usize],
    ) -> Option<u32> {
        let n = boxes.len();
        debug_assert!(n == old_row.len() && n == old_col.len() && n <= self.n);
        self.row.clear();
        for &b in boxes {
            self.row.extend((0..n).map(|g| cost_of(distance, b, g)));
        }
        for dual in [&mut self.su, &mut self.sv] {
            dual.clear();
            dual.resize(n + 1, 0);
        }
        self.sgoal_of.clear();
        self.sgoal_of.resize(n + 1, 0);
        // New row of each parent row.
        self.way.clear();
        self.way.resize(self.n + 1, 0);
        for (r, old) in old_row.iter().enumerate() {
            if let Some(old) = old {
                self.way[old + 1] = r + 1;
            }
        }
        let cost = &self.row;
        for (c, &old) in old_col.iter().enumerate() {
            let (c, old) = (c + 1, old + 1);
            self.sv[c] = self.v[old];
            let r = self.way[self.goal_of[old]];
            if r != 0 {
                let tight =
                    cost[(r - 1) * n + (c - 1)] as i64 == self.u[self.goal_of[old]] + self.v[old];
                if tight {
                    self.sgoal_of[c] = r;
                    self.su[r] = self.u[self.goal_of[old]];
                }
            }
        }
        let mut matched = vec![false; n + 1];
        for c in 1..=n {
            matched[self.sgoal_of[c]] = true;
        }
        let (mut way, mut used) = (Vec::new(), Vec::new());
        // Unmatched rows start at u = 0: reduced costs stay non-negative
        // (v never grows).
        for r in (1..=n).filter(|&r| !matched[r]) {
            add_row(
                (&mut self.su, &mut self.sv, &mut self.sgoal_of),
                (&mut way, &mut self.min_v, &mut used),
                n,
                r,
                |i| &cost[(i - 1) * n..i * n],
            );
        }
        let total: i64 = (1..=n)
            .map(|c| cost[(self.sgoal_of[c] - 1) * n + (c - 1)] as i64)
            .sum();
        (total < BLOCKED as i64).then_some(total as u32)
    }
}

/// Matchings kept for positions whose expansion may come soon, by number:
/// a direct-mapped cache (slot = number modulo its room), its vectors
/// reused, so keeping a matching allocates nothing once its slot has been
/// used. Taking a kept matching up costs a copy where matching the position
/// afresh costs augmenting paths, and the bound is the same either way (the
/// cost of an optimal matching). `T` is what the number alone does not tell
/// apart (the distance table the matching is over, say).
pub struct KeptMatchings<T> {
    room: usize,
    slots: Vec<KeptMatching<T>>,
    used: usize,
}

/// One slot of [`KeptMatchings`]: whose matching it holds, the boxes in the
/// order of the matcher's rows, and the matching.
struct KeptMatching<T> {
    owner: Option<(usize, T)>,
    rows: Vec<Cell>,
    matching: Saved,
}

impl<T> KeptMatchings<T> {
    /// Room for `room` matchings (none: nothing is kept); the slots are
    /// made as numbers reach them.
    pub fn new(room: usize) -> KeptMatchings<T> {
        KeptMatchings {
            room,
            slots: Vec::new(),
            used: 0,
        }
    }

    /// How many slots hold a matching.
    pub fn used(&self) -> usize {
        self.used
    }

    /// What is kept for number `number`, if still held: its tag, its
    /// boxes in row order, and its matching.
    pub fn get(&self, number: usize) -> Option<(&T, &[Cell], &Saved)> {
        let slot = self.slots.get(number % self.room.max(1))?;
        match &slot.owner {
            Some((n, tag)) if *n == number => Some((tag, &slot.rows[..], &slot.matching)),
            _ => None,
        }
    }

    /// Keeps the matching `matcher` holds, of `rows`, for `number`.
    pub fn keep(&mut self, (number, tag): (usize, T), rows: &[Cell], matcher: &Matcher) {
        if let Some(slot) = self.slot_for(number, tag, rows) {
            matcher.save_into(&mut slot.matching);
        }
    }

    /// Keeps the matching of the last [`Matcher::bound_moved`] child for
    /// `number`: `rows` (the parent's) with the box of row `moved.0` on
    /// `moved.1`.
    pub fn keep_moved(
        &mut self,
        (number, tag): (usize, T),
        rows: &[Cell],
        (row, cell): (usize, Cell),
        matcher: &Matcher,
    ) {
        if let Some(slot) = self.slot_for(number, tag, rows) {
            slot.rows[row] = cell;
            matcher.save_moved_into(&mut slot.matching);
        }
    }

    /// The slot of `number`, now its, holding `rows`; `None` without room.
    fn slot_for(&mut self, number: usize, tag: T, rows: &[Cell]) -> Option<&mut KeptMatching<T>> {
        if self.room == 0 {
            return None;
        }
        let at = number % self.room;
        if at >= self.slots.len() {
            self.slots.resize_with(at + 1, || KeptMatching {
                owner: None,
                rows: Vec::new(),
                matching: Saved::default(),
            });
        }
        let slot = &mut self.slots[at];
        if slot.owner.is_none() {
            self.used += 1;
        }
        slot.owner = Some((number, tag));
        slot.rows.clear();
        slot.rows.extend_from_slice(rows);
        Some(slot)
    }
}

/// One step of the Hungarian method (shortest augmenting path, e-maxx form):
/// matches row `i` (1-based), keeping the duals feasible and the matching
/// of the other rows optimal. `row_of(r)` holds row `r`'s costs, goal by
/// goal: a row's slice is looked up once a step, not once a cost.
fn add_row<'c>(
    (u, v, goal_of): (&mut [i64], &mut [i64], &mut [usize]),
    (way, min_v, used): (&mut Vec<usize>, &mut Vec<i64>, &mut Vec<bool>),
    n: usize,
    i: usize,
    row_of: impl Fn(usize) -> &'c [u32],
) {
    let inf = i64::MAX / 4;
    goal_of[0] = i;
    let mut j0 = 0;
    min_v.clear();
    min_v.resize(n + 1, inf);
    used.clear();
    used.resize(n + 1, false);
    way.resize(n + 1, 0);
    loop {
        used[j0] = true;
        let i0 = goal_of[j0];
        let (row, u0) = (&row_of(i0)[..n], u[i0]);
        let mut delta = inf;
        let mut j1 = 0;
        for j in 1..=n {
            if !used[j] {
                let cur = row[j - 1] as i64 - u0 - v[j];
                if cur < min_v[j] {
                    min_v[j] = cur;
                    way[j] = j0;
                }
                // On a tie a free column ends the path at once: the same
                // optimal cost, and on big levels with many equal distances
                // far shorter paths.
                if min_v[j] < delta || (min_v[j] == delta && goal_of[j] == 0 && goal_of[j1] != 0) {
                    delta = min_v[j];
                    j1 = j;
                }
            }
        }
        for j in 0..=n {
            if used[j] {
                u[goal_of[j]] += delta;
                v[j] -= delta;
            } else {
                min_v[j] -= delta;
            }
        }
        j0 = j1;
        if goal_of[j0] == 0 {
            break;
        }
    }
    loop {
        let j1 = way[j0];
        goal_of[j0] = goal_of[j1];
        j0 = j1;
        if j0 == 0 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(cost: &[u32], n: usize) -> u32 {
        fn go(cost: &[u32], n: usize, row: usize, used: &mut Vec<bool>) -> u32 {
            if row == n {
                return 0;
            }
            let mut best = u32::MAX;
            for j in 0..n {
                if !used[j] {
                    used[j] = true;
                    let rest = go(cost, n, row + 1, used);
                    used[j] = false;
                    best = best.min(cost[row * n + j].saturating_add(rest));
                }
            }
            best
        }
        go(cost, n, 0, &mut vec![false; n])
    }

    /// A fixed stream of small pseudo-random numbers.
    fn numbers(mut seed: u64) -> impl FnMut() -> u16 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u16
        }
    }

    /// A cell below `cells`, drawn from `next`.
    fn cell(next: &mut impl FnMut() -> u16, cells: u16) -> Cell {
        Cell::from_bits(next() % cells)
    }

    /// Distances from `cells` cells to `goals` goals: 0..20, unreachable now and then.
    fn tables(next: &mut impl FnMut() -> u16, goals: usize, cells: usize) -> Vec<Vec<Distance>> {
        (0..goals)
            .map(|_| {
                (0..cells)
                    .map(|_| {
                        if next().is_multiple_of(9) {
                            UNREACHABLE
                        } else {
                            next() % 20
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn kept_matchings_are_found_by_their_own_number_only() {
        let mut next = numbers(77);
        let distance = tables(&mut next, 4, 30);
        let boxes: Vec<Cell> = (0..4).map(|_| cell(&mut next, 30)).collect();
        let mut m = Matcher::default();
        let whole = m.bound_with(None, &distance, &boxes);
        let mut kept = KeptMatchings::new(8);
        kept.keep((3, 'a'), &boxes, &m);
        let moved = m.bound_moved(&distance, 1, boxes[0]);
        kept.keep_moved((20, 'b'), &boxes, (1, boxes[0]), &m);
        assert_eq!(kept.used(), 2);
        let (&tag, rows, saved) = kept.get(3).expect("kept");
        assert_eq!((tag, rows), ('a', &boxes[..]));
        assert_eq!(
            Matcher::default().take_up(saved, None, &distance, rows),
            whole
        );
        let (&tag, rows, saved) = kept.get(20).expect("kept");
        assert_eq!((tag, rows[1], rows[2]), ('b', boxes[0], boxes[2]));
        assert_eq!(
            Matcher::default().take_up(saved, None, &distance, rows),
            moved
        );
        // 11 shares 3's slot: it takes the slot, and 3 is no longer found.
        assert!(kept.get(11).is_none());
        kept.keep((11, 'c'), &boxes, &m);
        assert!(kept.get(3).is_none() && kept.get(11).is_some());
        assert_eq!(kept.used(), 2);
        let mut none = KeptMatchings::new(0);
        none.keep((3, 'a'), &boxes, &m);
        assert!(none.get(3).is_none() && none.used() == 0);
    }

    #[test]
    fn matches_brute_force_in_full_and_after_a_move() {
        let mut next = numbers(12345);
        let mut m = Matcher::default();
        let mut table = 0;
        for n in 1..=6 {
            for _ in 0..200 {
                // Cells 0..8 with random distances (unreachable now and then) to n goals.
                let distance = tables(&mut next, n, 8);
                table += 1;
                let named = Some(table);
                let boxes: Vec<Cell> = (0..n).map(|_| cell(&mut next, 8)).collect();
                let cost = |bs: &[Cell]| -> Vec<u32> {
                    bs.iter()
                        .flat_map(|&b| (0..n).map(move |g| (b, g)))
                        .map(|(b, g)| cost_of(&distance, b, g))
                        .collect()
                };
                let want = |bs: &[Cell]| Some(brute(&cost(bs), n)).filter(|&t| t < BLOCKED);
                assert_eq!(m.bound_with(named, &distance, &boxes), want(&boxes));
                let moved = next() as usize % n;
                let to = cell(&mut next, 8);
                let mut after = boxes.clone();
                after[moved] = to;
                assert_eq!(
                    m.bound_moved(&distance, moved, to),
                    want(&after),
                    "{boxes:?} -> {after:?}"
                );
                let mut child = Saved::default();
                m.save_moved_into(&mut child);
                // Saved and resumed later, after other work, the same (the
                // cost matrix refilled one row).
                let mut saved = Saved::default();
                m.save_into(&mut saved);
                m.bound_with(named, &distance, &after);
                assert_eq!(
                    m.resume(&saved, named, &distance, &boxes, moved, to),
                    want(&after)
                );
                assert_eq!(m.bound_moved(&distance, moved, boxes[moved]), want(&boxes));
                // The child's own matching, taken up after other work, holds
                // its bound and has children of its own.
                m.bound_with(named, &distance, &boxes);
                assert_eq!(m.take_up(&child, named, &distance, &after), want(&after));
                assert_eq!(m.bound_moved(&distance, moved, boxes[moved]), want(&boxes));
            }
        }
    }

    #[test]
    fn a_warm_start_from_other_boxes_matches_brute_force() {
        let mut next = numbers(777);
        for n in 1..=6 {
            let distance = tables(&mut next, n, 8);
            let mut m = Matcher::default();
            for _ in 0..300 {
                let boxes: Vec<Cell> = (0..n).map(|_| cell(&mut next, 8)).collect();
                let cost: Vec<u32> = boxes
                    .iter()
                    .flat_map(|&b| (0..n).map(move |g| (b, g)))
                    .map(|(b, g)| cost_of(&distance, b, g))
                    .collect();
                let want = Some(brute(&cost, n)).filter(|&t| t < BLOCKED);
                assert_eq!(m.bound_warm(Some(0), &distance, &boxes), want);
                // The held matching is a whole one: a child one box away.
                let (moved, to) = (next() as usize % n, cell(&mut next, 8));
                let mut after = boxes.clone();
                after[moved] = to;
                let cost: Vec<u32> = after
                    .iter()
                    .flat_map(|&b| (0..n).map(move |g| (b, g)))
                    .map(|(b, g)| cost_of(&distance, b, g))
                    .collect();
                let want = Some(brute(&cost, n)).filter(|&t| t < BLOCKED);
                if m.held_total().is_some() {
                    assert_eq!(m.bound_moved(&distance, moved, to), want);
                }
            }
        }
    }

    #[test]
    fn shrinking_after_boxes_freeze_matches_a_fresh_matching() {
        let mut next = numbers(777);
        let (mut held, mut fresh) = (Matcher::default(), Matcher::default());
        for n in 2..=7 {
            for _ in 0..300 {
                let old = tables(&mut next, n, 10);
                let boxes: Vec<Cell> = (0..n).map(|_| cell(&mut next, 10)).collect();
                held.bound_with(None, &old, &boxes);
                // Some goals drop out with some rows; the rest only get dearer.
                let gone = 1 + next() as usize % (n - 1);
                let kept_cols: Vec<usize> = (gone..n).collect();
                let new: Vec<Vec<Distance>> = kept_cols
                    .iter()
                    .map(|&g| {
                        old[g]
                            .iter()
                            .map(|&d| match next() % 4 {
                                0 if d != UNREACHABLE => d.saturating_add(next() % 5),
                                1 if next().is_multiple_of(6) => UNREACHABLE,
                                _ => d,
                            })
                            .collect()
                    })
                    .collect();
                // Rows `gone..n` stay, the first of them (maybe) moved.
                let mut rows: Vec<Option<usize>> = (gone..n).map(Some).collect();
                let mut cells: Vec<Cell> = boxes[gone..].to_vec();
                if next().is_multiple_of(2) {
                    rows[0] = None;
                    cells[0] = cell(&mut next, 10);
                }
                let want = fresh.bound_with(None, &new, &cells);
                assert_eq!(held.bound_shrunk(&new, &cells, &rows, &kept_cols), want);
                // The held matching is untouched: the parent's bound again.
                assert_eq!(held.held_total(), fresh.bound_with(None, &old, &boxes));
            }
        }
    }
}
