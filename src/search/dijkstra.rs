//! Dijkstra's algorithm with a keyed priority queue (decrease-key), over numbered states.

use priority_queue::PriorityQueue;
use std::cmp::Reverse;

/// What [`dijkstra`] found: the first goal settled and the parent links to rebuild its path.
#[derive(Clone, Debug)]
pub struct Dijkstra {
    /// The goal state reached and its cost, or `None` when no goal is reachable.
    pub goal: Option<(usize, u64)>,
    /// `parent[s]` is the state `s` was reached from (`u32::MAX` for starts and unreached states).
    pub parent: Vec<u32>,
    /// States taken off the queue.
    pub expanded: u64,
}

impl Dijkstra {
    /// The states from a start to `state`, in order.
    pub fn path_to(&self, state: usize) -> Vec<usize> {
        let mut path = vec![state];
        let mut s = state;
        while self.parent[s] != u32::MAX {
            s = self.parent[s] as usize;
            path.push(s);
        }
        path.reverse();
        path
    }
}

/// Cheapest path from any of `starts` (state, initial cost) to a state for which
/// `is_goal` holds, over states `0..n`.
///
/// `successors(s, out)` appends `(next, edge_cost)` pairs to `out`.
///
/// Contract: edge costs are non-negative (they are unsigned) and the sum of costs
/// along any path must fit in a `u64`. The goal returned is the first settled, so
/// its cost is minimal. Ties are broken by state number (smaller first), which
/// makes the result deterministic. Memory: one `u64` and one `u32` per state plus
/// the queue.
///
/// ```
/// use sokoban::search::dijkstra;
/// // 0 -> 1 (cost 5), 0 -> 2 (cost 1), 2 -> 1 (cost 1)
/// let edges = [vec![(1, 5), (2, 1)], vec![], vec![(1, 1)]];
/// let found = dijkstra(3, &[(0, 0)], |s, out| out.extend(&edges[s]), |s| s == 1);
/// assert_eq!(found.goal, Some((1, 2)));
/// assert_eq!(found.path_to(1), vec![0, 2, 1]);
/// ```
pub fn dijkstra<FS, FG>(
    n: usize,
    starts: &[(usize, u64)],
    mut successors: FS,
    mut is_goal: FG,
) -> Dijkstra
where
    FS: FnMut(usize, &mut Vec<(usize, u64)>),
    FG: FnMut(usize) -> bool,
{
    let mut best = vec![u64::MAX; n];
    let mut parent = vec![u32::MAX; n];
    let mut settled = vec![false; n];
    let mut queue: PriorityQueue<usize, Reverse<(u64, usize)>> = PriorityQueue::new();
    for &(s, cost) in starts {
        if cost < best[s] {
            best[s] = cost;
            queue.push_increase(s, Reverse((cost, s)));
        }
    }
    let mut expanded = 0;
    let mut out = Vec::new();
    while let Some((s, Reverse((cost, _)))) = queue.pop() {
        settled[s] = true;
        expanded += 1;
        if is_goal(s) {
            return Dijkstra {
                goal: Some((s, cost)),
                parent,
                expanded,
            };
        }
        out.clear();
        successors(s, &mut out);
        for &(next, step) in &out {
            let c = cost + step;
            if !settled[next] && c < best[next] {
                best[next] = c;
                parent[next] = s as u32;
                queue.push_increase(next, Reverse((c, next)));
            }
        }
    }
    Dijkstra {
        goal: None,
        parent,
        expanded,
    }
}
