//! The exact expected score of a strategy, over the states it can reach (no simulation).
//!
//! A forward pass collects, layer by layer, every state the strategy reaches from the empty board
//! and records its choice for each digit (checking that every choice is a legal move); a backward
//! pass then averages `d 10^h + E(after)` over the ten digits, from the full board down. Nothing
//! here shares code with the strategies' own tables, so a strategy's claimed value
//! ([`crate::Strategy::exact_value`]) can be checked against it.
//!
//! States are packed into 128-bit keys (a count per height), so the size must satisfy
//! `(B + 1) * bits(N) <= 128` (the official size takes 80 bits).

use std::time::Instant;

use tessera_core::runtime::Budget;

use crate::par::{even_pieces, fill_slices};
use crate::params::{MAX_B, POW10, Params};
use crate::state::State;
use crate::strategy::Strategy;

/// Why a strategy cannot be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpectedError {
    /// States do not fit the packed keys.
    #[error("{0}: states do not fit 128-bit keys ((B + 1) x bits(N) > 128)")]
    TooWide(Params),
    /// Too many reachable states.
    #[error("the strategy reaches more than {0} states")]
    TooMany(u64),
    /// The strategy broke the rules.
    #[error("the strategy put a {digit} on height {height} in {state}, which is not an open height")]
    IllegalMove {
        /// The state, drawn.
        state: String,
        /// The digit.
        digit: u8,
        /// The height chosen.
        height: u32,
    },
    /// Stopped (Ctrl-C).
    #[error("stopped before the end")]
    Stopped,
}

/// Most reachable states evaluated: 2^25 (keys and choices take 24 bytes each, under 1 GiB in
/// all; the official size's best strategy reaches a million).
pub const MAX_REACHABLE: u64 = 1 << 25;

/// The result of [`expected_score`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PolicyValue {
    /// The exact expected score of one game.
    pub value: f64,
    /// States the strategy reaches.
    pub states: u64,
    /// States in its largest layer.
    pub largest_layer: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Packs a state's counts into a key, `bits` per height.
#[derive(Copy, Clone, Debug)]
struct Keys {
    bits: u32,
    b: u32,
    n: u32,
}

impl Keys {
    fn new(params: Params) -> Option<Keys> {
        let bits = 32 - params.n.leading_zeros();
        ((params.b + 1) * bits <= 128).then_some(Keys { bits, b: params.b, n: params.n })
    }

    fn pack(self, s: &State) -> u128 {
        s.counts().iter().enumerate().map(|(h, &c)| u128::from(c) << (self.bits * h as u32)).sum()
    }

    fn unpack(self, key: u128) -> State {
        let mask = (1u128 << self.bits) - 1;
        let counts: Vec<u32> = (0..=self.b).map(|h| ((key >> (self.bits * h)) & mask) as u32).collect();
        let s = State::from_counts(self.b, &counts);
        debug_assert_eq!(s.n(), self.n);
        s
    }

    /// The key after a block on height `h` (one tower fewer at `h`, one more at `h + 1`).
    fn after(self, key: u128, h: u32) -> u128 {
        key + (1u128 << (self.bits * (h + 1))) - (1u128 << (self.bits * h))
    }
}

/// Choices for the ten digits, 5 bits each.
fn height_of(choices: u64, d: usize) -> u32 {
    ((choices >> (5 * d)) & 31) as u32
}

/// The exact expected score of one game of size `params` under `strategy`.
pub fn expected_score(
    strategy: &dyn Strategy,
    params: Params,
    threads: usize,
    budget: &Budget,
) -> Result<PolicyValue, ExpectedError> {
    let start = Instant::now();
    let keys = Keys::new(params).ok_or(ExpectedError::TooWide(params))?;
    let blocks = params.blocks() as usize;
    // Forward: the states of each layer (sorted keys) and their choices.
    let mut layers: Vec<Vec<u128>> = vec![vec![keys.pack(&State::new(params))]];
    let mut choices: Vec<Vec<u64>> = Vec::with_capacity(blocks);
    let mut total = 1u64;
    for _ in 0..blocks {
        let layer = layers.last().map_or(&[][..], |l| &l[..]);
        let mut mine = vec![0u64; layer.len()];
        let lens = even_pieces(layer.len(), 1024);
        let error = std::sync::Mutex::new(None);
        let complete = fill_slices(&mut mine, &lens, threads, budget, |_, at, out| {
            for (k, slot) in out.iter_mut().enumerate() {
                match choose_all(strategy, keys.unpack(layer[at + k])) {
                    Ok(c) => *slot = c,
                    Err(e) => *error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e),
                }
            }
        });
        if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        if !complete {
            return Err(ExpectedError::Stopped);
        }
        // The next layer's keys, deduplicated whenever the raw list doubles (so it never holds
        // much more than the distinct states).
        let mut next: Vec<u128> = Vec::new();
        let mut settled = 0;
        for (&key, &c) in layer.iter().zip(&mine) {
            // Each distinct height once (digits often share one).
            let mut seen = 0u32;
            for d in 0..10 {
                let h = height_of(c, d);
                if seen & (1 << h) == 0 {
                    seen |= 1 << h;
                    next.push(keys.after(key, h));
                }
            }
            if next.len() > 2 * settled.max(1 << 16) {
                next.sort_unstable();
                next.dedup();
                settled = next.len();
                if total + settled as u64 > MAX_REACHABLE {
                    return Err(ExpectedError::TooMany(MAX_REACHABLE));
                }
            }
        }
        next.sort_unstable();
        next.dedup();
        total += next.len() as u64;
        if total > MAX_REACHABLE {
            return Err(ExpectedError::TooMany(MAX_REACHABLE));
        }
        choices.push(mine);
        layers.push(next);
    }
    // Backward: E = 1/10 sum_d (d 10^h + E(after)); the full board is worth 0.
    let mut later = vec![0.0f64];
    for t in (0..blocks).rev() {
        let (layer, next_keys, made) = (&layers[t], &layers[t + 1], &choices[t]);
        let mut values = vec![0.0f64; layer.len()];
        let lens = even_pieces(layer.len(), 1024);
        let complete = fill_slices(&mut values, &lens, threads, budget, |_, at, out| {
            for (k, slot) in out.iter_mut().enumerate() {
                let (key, c) = (layer[at + k], made[at + k]);
                let mut sum = 0.0;
                for d in 0..10 {
                    let h = height_of(c, d);
                    let i = next_keys
                        .binary_search(&keys.after(key, h))
                        .expect("the forward pass collected every successor");
                    sum += (d as u64 * POW10[h as usize]) as f64 + later[i];
                }
                *slot = sum / 10.0;
            }
        });
        if !complete {
            return Err(ExpectedError::Stopped);
        }
        later = values;
    }
    let largest_layer = layers.iter().map(Vec::len).max().unwrap_or(0) as u64;
    Ok(PolicyValue { value: later[0], states: total, largest_layer, seconds: start.elapsed().as_secs_f64() })
}

/// The strategy's choices for the ten digits in a state, checked against the rules.
fn choose_all(strategy: &dyn Strategy, s: State) -> Result<u64, ExpectedError> {
    let mut c = 0u64;
    for d in 0..10u8 {
        let h = strategy.choose(&s, d);
        if h > MAX_B || !s.can_place(h) {
            return Err(ExpectedError::IllegalMove { state: format!("{s:?}"), digit: d, height: h });
        }
        c |= u64::from(h) << (5 * u32::from(d));
    }
    Ok(c)
}
