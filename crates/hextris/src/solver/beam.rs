//! Where each unit locks: a beam search over the whole known source of units.
//!
//! The source is known in advance, so the search looks ahead over it: each layer expands every
//! kept game by every lock position of the next unit, values the results (points so far, the
//! phrase points expected from the rows moved down, and the board's features), and keeps the
//! best `width` distinct boards.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

use tessera_core::runtime::{Budget, Stop};

use super::features::{RowCache, Weights};
use crate::engine::{Pos, Reach, Rules, State, Unit, lock_points};
use tessera_core::hash::Words;

/// The lock positions chosen for a game, and what they earn.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Where each unit locks, in order (the game ends after the last, by exhausting the source
    /// or by leaving no room for the next unit).
    pub locks: Vec<Pos>,
    /// The move score of the game.
    pub move_score: u64,
    /// The phrase points expected from the rows the units move down.
    pub power: f64,
    /// Whether the search was stopped before the end of the game (then the plan is a prefix).
    pub stopped: bool,
}

/// A kept game: its state and how it got there.
#[derive(Clone, Debug)]
struct Node {
    state: State,
    /// Expected phrase points so far.
    power: f64,
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

/// Plans a game: `source` lists the units (indices into `rules.units`) from `start` on;
/// `rates[u]` is the phrase points unit `u` is expected to spell per row it moves down.
pub(crate) fn plan(
    rules: &Rules,
    rates: &[f64],
    start: &State,
    source: &[usize],
    weights: &Weights,
    width: usize,
    budget: &mut Budget,
) -> Plan {
    let best = plans(rules, rates, start, source, weights, width, 1, budget).into_iter().next();
    best.unwrap_or(Plan { locks: Vec::new(), move_score: start.move_score, power: 0.0, stopped: true })
}

/// [`plan`], returning the `top` games of the beam that promise most (best first): the last
/// layer's and those that ended on the way. What phrases fit is known only once a game is
/// spelled, so when spelling is cheap the runners-up are worth spelling too.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plans(
    rules: &Rules,
    rates: &[f64],
    start: &State,
    source: &[usize],
    weights: &Weights,
    width: usize,
    top: usize,
    budget: &mut Budget,
) -> Vec<Plan> {
    let mut layer = vec![Node { state: start.clone(), power: 0.0, parent: 0, pos: Pos::default() }];
    let mut history: Vec<Vec<(u32, Pos)>> = Vec::new();
    let mut ends: Vec<(f64, usize, u32)> = Vec::new(); // (points, depth, index)
    let (mut board, mut cleared) = (start.board.clone(), start.board.clone());
    let mut cache = RowCache::new(weights, board.width(), board.height());
    let mut stopped = false;
    for (n, &unit_index) in source[start.locked..].iter().enumerate() {
        // However late, the first unit is placed (its layer is one node: no time at all).
        if n > 0 && budget.should_stop(1) {
            stopped = true;
            break;
        }
        history.push(layer.iter().map(|n| (n.parent, n.pos)).collect());
        let unit = &rules.units[unit_index];
        let mut cands = Vec::new();
        let mut deepest: HashMap<u64, Pos, Words> = HashMap::default();
        for (i, node) in layer.iter().enumerate() {
            // Wide beams take long per unit: look at the clock within the layer too.
            if i % 64 == 63 && budget.should_stop(0) {
                stopped = true;
                break;
            }
            let reach = Reach::new(rules, &node.state.board, unit);
            // One placement per set of cells: the deepest pivot (the most rows to spell on).
            deepest.clear();
            for p in reach.resting() {
                let d = deepest.entry(cells_key(unit, p)).or_insert(p);
                if p.y > d.y {
                    *d = p;
                }
            }
            if deepest.is_empty() {
                // No room for this unit: the game ended with the previous lock.
                ends.push((points(&node.state, node.power), history.len() - 1, i as u32));
                continue;
            }
            cache.reset(&node.state.board);
            let node_hash = hash_rows(node.state.board.rows());
            let before = node.state.move_score as f64 + weights.power * node.power;
            let rate = rates[unit_index] * weights.power;
            // Each placement is filled into the node's board and freed again after; one that
            // fills a row is locked on a copy.
            board.clone_from(&node.state.board);
            for &p in deepest.values() {
                let ls = if rules.place(&mut board, unit, p) {
                    cleared.clone_from(&board);
                    cleared.clear_full_rows()
                } else {
                    0
                };
                let gained = lock_points(unit.size, ls, node.state.ls_old as usize) as f64;
                let down = (p.y - unit.spawn.y) as f64;
                let (value, hash) = if ls == 0 {
                    let o = unit.orient(p.r, p.y as i32);
                    let (first, last) = ((p.y as i32 + o.min_dy) as usize, (p.y as i32 + o.max_dy) as usize);
                    // Only the rows the unit fills change.
                    let (old, new) = (&node.state.board.rows()[first..=last], &board.rows()[first..=last]);
                    let hash = node_hash.wrapping_sub(hash_rows_at(first, old)).wrapping_add(hash_rows_at(first, new));
                    (cache.value_after(&board, first, last), hash)
                } else {
                    (cache.value_of(&cleared), hash_rows(cleared.rows()))
                };
                rules.unplace(&mut board, unit, p);
                let value = before + gained + rate * down + value;
                cands.push(Candidate { value, parent: i as u32, pos: p, hash });
            }
        }
        if stopped {
            history.pop();
            break;
        }
        if cands.is_empty() {
            layer.clear();
            break;
        }
        cands.sort_unstable_by(|a, b| b.value.total_cmp(&a.value));
        let mut seen: HashSet<u64, Words> = HashSet::with_capacity_and_hasher(width, Words::default());
        let mut next = Vec::with_capacity(width);
        for c in cands {
            if next.len() == width {
                break;
            }
            if !seen.insert(c.hash) {
                continue;
            }
            let parent = &layer[c.parent as usize];
            let mut state = parent.state.clone();
            state.lock(rules, unit_index, c.pos);
            let power = parent.power + rates[unit_index] * (c.pos.y - unit.spawn.y) as f64;
            next.push(Node { state, power, parent: c.parent, pos: c.pos });
        }
        layer = next;
    }
    // The best games: of the last layer, and of the games that ended on the way.
    ends.extend(layer.iter().enumerate().map(|(i, n)| (points(&n.state, n.power), history.len(), i as u32)));
    if ends.is_empty() {
        return vec![Plan { locks: Vec::new(), move_score: start.move_score, power: 0.0, stopped }];
    }
    let top = top.clamp(1, ends.len());
    ends.select_nth_unstable_by(top - 1, |a, b| b.0.total_cmp(&a.0));
    ends.truncate(top);
    ends.sort_by(|a, b| b.0.total_cmp(&a.0));
    ends.iter()
        .map(|&(_, depth, index)| trace(&history, &layer, depth, index, stopped, rules, rates, start, source))
        .collect()
}

/// The points a game is expected to have earned.
fn points(state: &State, power: f64) -> f64 {
    state.move_score as f64 + power
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
    rates: &[f64],
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
    let mut power = 0.0;
    for (k, &p) in locks.iter().enumerate() {
        let u = source[start.locked + k];
        power += rates[u] * (p.y - rules.units[u].spawn.y) as f64;
        state.lock(rules, u, p);
    }
    Plan { locks, move_score: state.move_score, power, stopped }
}

/// A key for the cells a unit covers at `p`.
fn cells_key(unit: &Unit, p: Pos) -> u64 {
    let o = unit.orient(p.r, p.y as i32);
    let mut h = Words::default().build_hasher();
    h.write_i32(p.y as i32 + o.min_dy);
    for &(_, m) in &o.rows {
        h.write_u128(m << (p.x as i32 + o.min_dx));
    }
    h.finish()
}

/// A hash of a board's rows: the sum of each row's own hash, so that a lock changes it by the
/// rows it fills alone.
fn hash_rows(rows: &[u128]) -> u64 {
    hash_rows_at(0, rows)
}

/// The sum of the hashes of `rows`, the first of which is row `first`.
fn hash_rows_at(first: usize, rows: &[u128]) -> u64 {
    rows.iter().enumerate().fold(0u64, |sum, (k, &r)| {
        let salt = ((first + k) as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        sum.wrapping_add(mix(mix(r as u64 ^ salt) ^ (r >> 64) as u64))
    })
}

/// A 64-bit finaliser (every input bit moves every output bit).
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ x >> 31
}
