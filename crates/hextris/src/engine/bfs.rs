//! Breadth-first search over a unit's positions: the one routine behind every flood of positions
//! (the paths from the spawn, the shortest walks, the speller's walks within a row).
//!
//! In the manner of the `pathfinding` crate's free functions, [`bfs`] knows nothing of units or
//! boards: the caller says where a move leads, what reaching a node for the first time does and
//! where to stop. The caller also owns the queue and the marks, so that a search run again and
//! again (the speller floods a row for every entry of every row) allocates nothing once its
//! buffers have grown.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use super::{Pos, Unit};
use crate::command::Command;
use tessera_core::hash::Words;

/// Breadth-first search from `start`, which the caller has marked as reached.
///
/// Takes the nodes in the order they are reached and returns the first that `goal` accepts.
/// From any other node it tries each of `moves` in turn: `step` says where the move leads
/// (`None`: nowhere the search may go), and `visit(from, move, to)` whether `to` is reached for
/// the first time (the caller marks it so and keeps what it needs, such as the way back); such
/// nodes are queued. `None` once every reachable node has been taken.
#[inline]
pub(crate) fn bfs<N: Copy, M: Copy>(
    queue: &mut VecDeque<N>,
    start: N,
    moves: &[M],
    mut step: impl FnMut(N, M) -> Option<N>,
    mut visit: impl FnMut(N, M, N) -> bool,
    mut goal: impl FnMut(N) -> bool,
) -> Option<N> {
    queue.clear();
    queue.push_back(start);
    // Hot: the speller floods every row of every search with this loop.
    while let Some(node) = queue.pop_front() {
        if goal(node) {
            return Some(node);
        }
        for &m in moves {
            if let Some(to) = step(node, m)
                && visit(node, m, to)
            {
                queue.push_back(to);
            }
        }
    }
    None
}

/// A shortest walk of `unit` from `from` to `to` by `moves` through positions that pass `ok`;
/// it repeats no position, so it is legal wherever its positions are.
pub(crate) fn shortest_walk(
    unit: &Unit,
    from: Pos,
    to: Pos,
    moves: &[Command],
    ok: impl Fn(Pos) -> bool,
) -> Option<Vec<Command>> {
    // Each position reached: where from, by which move.
    let mut parent: HashMap<Pos, (Pos, Command), Words> = HashMap::default();
    let step = |p: Pos, cmd| Some(unit.step(p, cmd)).filter(|&q| q != from && ok(q));
    let visit = |p, cmd, q| match parent.entry(q) {
        Entry::Vacant(e) => {
            e.insert((p, cmd));
            true
        }
        Entry::Occupied(_) => false,
    };
    bfs(&mut VecDeque::new(), from, moves, step, visit, |p| p == to)?;
    let mut path = Vec::new();
    let mut q = to;
    while q != from {
        let (prev, cmd) = parent[&q];
        path.push(cmd);
        q = prev;
    }
    path.reverse();
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodes are numbers, a move adds to them: the search takes them nearest first and stops
    /// at the goal.
    #[test]
    fn nodes_are_taken_nearest_first_and_the_search_stops_at_the_goal() {
        let mut seen = [false; 20];
        seen[0] = true;
        let mut order = vec![0];
        let step = |n: usize, m: usize| Some(n + m).filter(|&k| k < 20);
        let visit = |_, _, to: usize| {
            let new = !std::mem::replace(&mut seen[to], true);
            if new {
                order.push(to);
            }
            new
        };
        let found = bfs(&mut VecDeque::new(), 0, &[3, 5], step, visit, |n| n == 8);
        assert_eq!(found, Some(8));
        assert_eq!(order[..6], [0, 3, 5, 6, 8, 10]);
        // Nothing new from the start: no goal.
        assert_eq!(bfs(&mut VecDeque::new(), 0, &[3, 5], step, |_, _, _| false, |n| n == 8), None);
    }
}
