//! The randomised greedy: visit the tiles left in a shuffled order, pair each with a partner if it
//! has one, and sweep again until a sweep removes nothing. The result cannot be extended.

use tessera_core::rng::Rng64;

use crate::moves::Move;
use crate::state::{EMPTY, State};

/// How a tile picks among its partners.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Uniformly at random.
    Random,
    /// The nearest (smallest rectangle), ties at random.
    Nearest,
}

/// Reusable buffers of the greedy.
#[derive(Debug, Default)]
pub struct Scratch {
    order: Vec<usize>,
    rank: Vec<u32>,
}

/// Shuffles `v` in place.
pub fn shuffle<T>(v: &mut [T], rng: &mut Rng64) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// Runs the greedy on `state`, appending its moves. `first` tiles (indices) are visited before
/// the others in each sweep, in the given order.
pub fn greedy(state: &mut State, rng: &mut Rng64, pick: Pick, first: &[usize], moves: &mut Vec<Move>, s: &mut Scratch) {
    let order = &mut s.order;
    order.clear();
    order.extend(state.remaining());
    shuffle(order, rng);
    if !first.is_empty() {
        let mut front: Vec<usize> = first.iter().copied().filter(|&i| state.at(i) != EMPTY).collect();
        front.extend(order.iter().copied().filter(|i| !first.contains(i)));
        *order = front;
    }
    loop {
        let before = state.left();
        for &i in order.iter() {
            if state.at(i) == EMPTY {
                continue;
            }
            if let Some(j) = choose(state, i, pick, rng) {
                moves.push(Move::new(state.cell(i), state.cell(j)));
                state.remove(i);
                state.remove(j);
            }
        }
        if state.left() == before {
            return;
        }
        order.retain(|&i| state.at(i) != EMPTY);
    }
}

/// A partner for the tile at `i`, if it has any.
#[inline]
fn choose(state: &State, i: usize, pick: Pick, rng: &mut Rng64) -> Option<usize> {
    let (mut best, mut best_key, mut ties) = (None, u32::MAX, 0u64);
    let w = state.width();
    let (r, c) = ((i / w) as i32, (i % w) as i32);
    state.for_each_partner(i, |j| {
        let key = match pick {
            Pick::Random => 0,
            Pick::Nearest => ((j / w) as i32 - r).unsigned_abs() + ((j % w) as i32 - c).unsigned_abs(),
        };
        // Reservoir sampling among the partners of the smallest key.
        if key < best_key {
            (best, best_key, ties) = (Some(j), key, 1);
        } else if key == best_key {
            ties += 1;
            if rng.below(ties) == 0 {
                best = Some(j);
            }
        }
        true
    });
    best
}

/// A sweep greedy: visit the tiles in the order of a sweep across the board (rows from the top
/// when the board is taller than wide, else columns from the left), each line's position blurred
/// by up to `jitter` lines, and pair each tile with the partner that comes earliest in the sweep.
/// Tiles left behind without a partner are thereby taken first as soon as a tile at the
/// frontier can reach them across the cleared area. A plain greedy sweep finishes the rest.
pub fn sweep(state: &mut State, rng: &mut Rng64, jitter: f64, moves: &mut Vec<Move>, s: &mut Scratch) {
    let (h, w) = (state.height(), state.width());
    let by_rows = h >= w;
    let order = &mut s.order;
    order.clear();
    order.extend(state.remaining());
    // Sort keys: the line (blurred), then a random tie-break along the line.
    let mut keyed: Vec<(f64, usize)> = order
        .iter()
        .map(|&i| {
            let (r, c) = (i / w, i % w);
            let line = if by_rows { r } else { c };
            (line as f64 + rng.unit() * jitter, i)
        })
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let rank = &mut s.rank;
    rank.clear();
    rank.resize(h * w, u32::MAX);
    for (k, &(_, i)) in keyed.iter().enumerate() {
        rank[i] = k as u32;
    }
    for &(_, i) in &keyed {
        if state.at(i) == EMPTY {
            continue;
        }
        let mut best = None;
        let mut best_rank = u32::MAX;
        state.for_each_partner(i, |j| {
            if rank[j] < best_rank {
                (best, best_rank) = (Some(j), rank[j]);
            }
            true
        });
        if let Some(j) = best {
            moves.push(Move::new(state.cell(i), state.cell(j)));
            state.remove(i);
            state.remove(j);
        }
    }
    greedy(state, rng, Pick::Random, &[], moves, s);
}

/// The most constrained tiles first: in each pass, count every tile's partners (up to a cap),
/// visit the tiles with the fewest first and pair each with its partner that has the fewest
/// (counts from the start of the pass), ties at random. Passes repeat until one removes nothing.
pub fn constrained(state: &mut State, rng: &mut Rng64, moves: &mut Vec<Move>, s: &mut Scratch) {
    const CAP: u32 = 24;
    let n = state.height() * state.width();
    loop {
        let before = state.left();
        let count = &mut s.rank;
        count.clear();
        count.resize(n, 0);
        let mut keyed: Vec<(u64, usize)> = Vec::with_capacity(state.left());
        for i in state.remaining() {
            let mut k = 0;
            state.for_each_partner(i, |_| {
                k += 1;
                k < CAP
            });
            count[i] = k;
            if k > 0 {
                keyed.push(((u64::from(k) << 32) | (rng.next_u64() >> 32), i));
            }
        }
        keyed.sort_unstable();
        for &(_, i) in &keyed {
            if state.at(i) == EMPTY {
                continue;
            }
            let (mut best, mut best_key) = (None, u64::MAX);
            state.for_each_partner(i, |j| {
                let key = (u64::from(count[j]) << 32) | (rng.next_u64() >> 32);
                if key < best_key {
                    (best, best_key) = (Some(j), key);
                }
                true
            });
            if let Some(j) = best {
                moves.push(Move::new(state.cell(i), state.cell(j)));
                state.remove(i);
                state.remove(j);
            }
        }
        if state.left() == before {
            return;
        }
    }
}
