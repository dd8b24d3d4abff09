//! Where each unit locks: a beam search over the whole known source of units.
//!
//! The source is known in advance, so the search looks ahead over it: each layer expands every
//! kept game by every lock position of the next unit, values the results (points so far, the
//! phrase points expected from the rows moved down, and the board's features), and keeps the
//! best `width` distinct boards.

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use tessera_core::runtime::{Budget, Stop};

use super::features::{Features, Weights};
use crate::engine::{Pos, Reach, Rules, State, lock_points};

/// The lock positions chosen for a game, and what they earn.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Where each unit locks, in order (the game ends after the last, by exhausting the source
    /// or by leaving no room for the next unit).
    pub locks: Vec<Pos>,
    /// The move score of the game.
    pub move_score: u64,
    /// Rows moved down by the units in all (what phrases of power are spelled along).
    pub rows_down: u64,
    /// Whether the search was stopped before the end of the game (then the plan is a prefix).
    pub stopped: bool,
}

/// A kept game: its state and how it got there.
#[derive(Clone, Debug)]
struct Node {
    state: State,
    rows_down: u64,
    /// Index of the parent in the previous layer, and the lock that led here.
    parent: u32,
    pos: Pos,
}

/// A game one lock further, before it is kept.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    value: f64,
    parent: u32,
    pos: Pos,
    hash: u64,
}

/// Plans a game: `source` lists the units (indices into `rules.units`) from `start` on.
pub fn plan(
    rules: &Rules,
    start: &State,
    source: &[usize],
    weights: &Weights,
    width: usize,
    budget: &mut Budget,
) -> Plan {
    let mut layer = vec![Node { state: start.clone(), rows_down: 0, parent: 0, pos: Pos::default() }];
    let mut history: Vec<Vec<(u32, Pos)>> = Vec::new();
    let mut best_end: Option<(f64, usize, u32)> = None; // (points, depth, index)
    let mut board = start.board.clone();
    let mut stopped = false;
    for &unit_index in &source[start.locked..] {
        if budget.should_stop(1) {
            stopped = true;
            break;
        }
        history.push(layer.iter().map(|n| (n.parent, n.pos)).collect());
        let unit = &rules.units[unit_index];
        let mut cands = Vec::new();
        for (i, node) in layer.iter().enumerate() {
            let reach = Reach::new(rules, &node.state.board, unit);
            let locks = reach.locks();
            if locks.is_empty() {
                // No room for this unit: the game ended with the previous lock.
                let points = points(&node.state, node.rows_down, weights);
                if best_end.is_none_or(|b| points > b.0) {
                    best_end = Some((points, history.len() - 1, i as u32));
                }
                continue;
            }
            for p in locks {
                board.clone_from(&node.state.board);
                let ls = rules.lock(&mut board, unit, p);
                let gained = lock_points(unit.size, ls, node.state.ls_old as usize) as f64;
                let down = (p.y - unit.spawn.y) as f64;
                let base = points(&node.state, node.rows_down, weights) + gained + weights.power_per_row * down;
                let value = base + weights.value(&Features::of(&board));
                cands.push(Candidate { value, parent: i as u32, pos: p, hash: hash_rows(board.rows()) });
            }
        }
        if cands.is_empty() {
            layer.clear();
            break;
        }
        cands.sort_unstable_by(|a, b| b.value.total_cmp(&a.value));
        let mut seen = Vec::with_capacity(width);
        let mut next = Vec::with_capacity(width);
        for c in cands {
            if next.len() == width {
                break;
            }
            if seen.contains(&c.hash) {
                continue;
            }
            seen.push(c.hash);
            let parent = &layer[c.parent as usize];
            let mut state = parent.state.clone();
            state.lock(rules, unit_index, c.pos);
            let rows_down = parent.rows_down + (c.pos.y - unit.spawn.y) as u64;
            next.push(Node { state, rows_down, parent: c.parent, pos: c.pos });
        }
        layer = next;
    }
    // The best game: the best of the last layer, or of the games that ended on the way.
    let mut best = best_end;
    for (i, node) in layer.iter().enumerate() {
        let points = points(&node.state, node.rows_down, weights);
        if best.is_none_or(|b| points > b.0) {
            best = Some((points, history.len(), i as u32));
        }
    }
    let Some((_, depth, index)) = best else {
        return Plan { locks: Vec::new(), move_score: start.move_score, rows_down: 0, stopped };
    };
    trace(&history, &layer, depth, index, stopped, rules, start, source)
}

/// The points a game has earned, counting phrases at `power_per_row` a row moved down.
fn points(state: &State, rows_down: u64, w: &Weights) -> f64 {
    state.move_score as f64 + w.power_per_row * rows_down as f64
}

/// Walks the parents back from node `index` of layer `depth` and replays the locks.
#[allow(clippy::too_many_arguments)]
fn trace(
    history: &[Vec<(u32, Pos)>],
    last: &[Node],
    depth: usize,
    index: u32,
    stopped: bool,
    rules: &Rules,
    start: &State,
    source: &[usize],
) -> Plan {
    let mut locks = Vec::with_capacity(depth);
    let (mut parent, mut pos) = if depth == history.len() {
        (last[index as usize].parent, last[index as usize].pos)
    } else {
        history[depth][index as usize]
    };
    for d in (0..depth).rev() {
        locks.push(pos);
        (parent, pos) = history[d][parent as usize];
    }
    locks.reverse();
    let mut state = start.clone();
    let mut rows_down = 0;
    for (k, &p) in locks.iter().enumerate() {
        let u = source[start.locked + k];
        rows_down += (p.y - rules.units[u].spawn.y) as u64;
        state.lock(rules, u, p);
    }
    Plan { locks, move_score: state.move_score, rows_down, stopped }
}

fn hash_rows(rows: &[u128]) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(rows)
}
