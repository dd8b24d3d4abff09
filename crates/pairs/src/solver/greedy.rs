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
