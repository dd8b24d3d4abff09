//! The exact optimum S: the best expected score of a game over the full state space.
//!
//! `V(s) = 1/10 sum_d max_h (d 10^h + V(s + h))`, where `s + h` is `s` with a block on a tower of
//! height `h`, and `V = 0` once every tower is full. Every move adds one block, so the states fall
//! into *layers* by the number of blocks placed, and layer `t` needs only layer `t + 1`: the
//! computation runs from the full board down to the empty one with two layers in memory.
//!
//! **Ranks.** A state is a non-increasing vector of heights `l_1 >= ... >= l_N`. Within layer `t`
//! states are numbered in lexicographic order:
//! `rank(l) = sum_i P(N - i + 1, l_i - 1, S_i)`, with `S_i = l_i + ... + l_N` and `P` the
//! counts of [`BoxCounts`] (each term counts the states that agree before position `i` and are
//! smaller there). A move raises the first tower of a run of equal heights, at position `j`; in
//! layer `t + 1` only the terms up to `j` change, and what they change to depends only on the
//! heights up to `j`. So each run carries an *offset*, fixed once the heights up to it are known,
//! and `rank(s + h) = rank(s) + offset(h)` at every leaf.
//!
//! **Walk.** The states of a layer are visited in rank order by choosing how many towers stand at
//! height `B`, then `B - 1`, and so on down to 0 (a recursion of depth `B + 1`), accumulating the
//! rank terms and the offsets of the runs on the way. Consecutive leaves that differ only in their
//! low heights read consecutive successors, so each run's successors are read as a stream.
//!
//! **Parallel.** A layer is cut by the counts of its tallest heights into prefixes, each a
//! contiguous range of ranks; workers take prefixes as they become free and write their own range.

use std::time::Instant;

use tessera_core::runtime::{Budget, Outcome, StopReason};

use crate::count::{BoxCounts, CountError};
use crate::par::{affordable, fill_slices};
use crate::params::{MAX_B, POW10, Params};

/// Why the optimum cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// The counting table is refused.
    #[error(transparent)]
    Count(#[from] CountError),
    /// The two largest layers do not fit in memory.
    #[error("two layers of {layer} states need {bytes} bytes, more than this machine has available")]
    OutOfMemory {
        /// States in the largest layer.
        layer: u64,
        /// Bytes asked for.
        bytes: u128,
    },
}

/// The result of [`optimum`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Optimum {
    /// The game's size.
    pub params: Params,
    /// S, the optimal expected score of one game (meaningful only when complete).
    pub value: f64,
    /// States in the whole state space.
    pub states: u64,
    /// States in the largest layer.
    pub largest_layer: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Whether every layer was computed.
    pub outcome: Outcome,
}

/// Heights of the runs a block can go to at a leaf, with their rank offsets.
#[derive(Clone, Copy, Debug)]
struct Runs {
    len: usize,
    height: [u8; MAX_B as usize],
    offset: [u64; MAX_B as usize],
}

impl Runs {
    const EMPTY: Runs = Runs { len: 0, height: [0; MAX_B as usize], offset: [0; MAX_B as usize] };
}

/// A prefix of a layer's walk: the counts at heights above `h` are fixed; its states have ranks
/// `start..start + len`.
#[derive(Clone, Debug)]
struct Prefix {
    h: usize,
    placed: usize,
    rem: usize,
    a: u64,
    r: u64,
    runs: Runs,
    start: u64,
    len: u64,
}

/// The recursive walk over a layer (see the module documentation). `a` sums the rank terms of
/// the fixed positions as they will be in the next layer (one more block below them), `r` as
/// they are.
struct Walk<'a, F> {
    counts: &'a BoxCounts,
    n: usize,
    b: usize,
    runs: Runs,
    /// Rank of the next leaf.
    rank: u64,
    /// Emit prefixes at this height instead of walking on (`usize::MAX`: walk to the leaves).
    stop: usize,
    prefixes: Vec<Prefix>,
    leaf: F,
}

impl<F: FnMut(u64, &Runs)> Walk<'_, F> {
    fn level(&mut self, h: usize, placed: usize, rem: usize, a: u64, r: u64) {
        let left = self.n - placed;
        if h == self.stop {
            let len = self.counts.get(left, h + 1, rem);
            let runs = self.runs;
            self.prefixes.push(Prefix { h, placed, rem, a, r, runs, start: self.rank, len });
            self.rank += len;
            return;
        }
        match h {
            1 => return self.last_two(left, rem, a, r),
            2 => return self.last_three(left, rem, a, r),
            _ => {}
        }
        // c towers at height h: the other left - c, at most h - 1 each, must hold rem - c h.
        let cmin = rem.saturating_sub((h - 1) * left);
        let cmax = left.min(rem / h);
        let counts = self.counts;
        let span = counts.span();
        // The offset of a run of height h starting here (used when c > 0).
        let open = h < self.b;
        let own = counts.index(left, h, rem);
        let offset = a.wrapping_add(counts.at(counts.index(left, h + 1, rem + 1))).wrapping_sub(r + counts.at(own));
        // Rank terms of the run's positions placed + k (k < c), as they are (run_r) and in the
        // next layer (run_a): P(left - k, h - 1, rem - k h (+ 1)), one step of span + h apart.
        let (mut run_a, mut run_r) = (0u64, 0u64);
        let mut i = own;
        for _ in 0..cmin {
            run_r += counts.at(i);
            run_a += counts.at(i + 1);
            i -= span + h;
        }
        for c in cmin..=cmax {
            let run = c > 0 && open;
            if run {
                self.push(h, offset);
            }
            self.level(h - 1, placed + c, rem - c * h, a + run_a, r + run_r);
            if run {
                self.runs.len -= 1;
            }
            if c < cmax {
                run_r += counts.at(i);
                run_a += counts.at(i + 1);
                i -= span + h;
            }
        }
    }

    /// Heights 2, 1 and 0, the innermost loop: the rank terms of a run of 2s are 0 or 1
    /// (`P(k, 1, s) = [s <= k]`), so they are counted rather than looked up.
    #[inline]
    fn last_three(&mut self, left: usize, rem: usize, a: u64, r: u64) {
        let cmin = rem.saturating_sub(left);
        let cmax = left.min(rem / 2);
        let open = self.b > 2;
        let raised = self.counts.at(self.counts.index(left, 3, rem + 1));
        let offset = a.wrapping_add(raised).wrapping_sub(r + u64::from(rem <= left));
        // Position k of the run counts 1 as it is if k >= rem - left, and 1 in the next layer if
        // k >= rem + 1 - left.
        let z = (rem + 1).saturating_sub(left);
        for c in cmin..=cmax {
            let run = c > 0 && open;
            if run {
                self.push(2, offset);
            }
            let (run_a, run_r) = (c.saturating_sub(z) as u64, (c - cmin) as u64);
            self.last_two(left - c, rem - 2 * c, a + run_a, r + run_r);
            if run {
                self.runs.len -= 1;
            }
        }
    }

    /// The last two heights: `rem` towers of height 1 and the rest empty; this is a leaf. The
    /// rank terms of those positions are all zero; raising a 1 counts the one state of the next
    /// layer whose last `left` heights are all 0 or 1 with one more 1, if there is room for it.
    #[inline]
    fn last_two(&mut self, left: usize, rem: usize, a: u64, r: u64) {
        debug_assert!(rem <= left);
        debug_assert_eq!(r, self.rank, "the walk visits states in rank order");
        let base = self.runs.len;
        if rem > 0 && self.b > 1 {
            self.push(1, (a + u64::from(rem < left)).wrapping_sub(r));
        }
        if rem < left {
            self.push(0, a.wrapping_sub(r));
        }
        (self.leaf)(self.rank, &self.runs);
        self.rank += 1;
        self.runs.len = base;
    }

    #[inline]
    fn push(&mut self, h: usize, offset: u64) {
        let k = self.runs.len;
        self.runs.height[k] = h as u8;
        self.runs.offset[k] = offset;
        self.runs.len = k + 1;
    }
}

/// Cuts layer `t` into prefixes (contiguous rank ranges) for the workers.
fn prefixes(counts: &BoxCounts, t: usize) -> Vec<Prefix> {
    let (n, b) = (counts.n(), counts.b());
    let size = counts.layer(t);
    let whole = || Prefix { h: b, placed: 0, rem: t, a: 0, r: 0, runs: Runs::EMPTY, start: 0, len: size };
    // Small layers are one job; others are cut by the counts at the three tallest heights.
    if size < 1 << 16 || b < 5 {
        return vec![whole()];
    }
    let mut w = Walk {
        counts,
        n,
        b,
        runs: Runs::EMPTY,
        rank: 0,
        stop: b - 3,
        prefixes: Vec::new(),
        leaf: |_: u64, _: &Runs| {},
    };
    w.level(b, 0, t, 0, 0);
    debug_assert_eq!(w.rank, size);
    w.prefixes.retain(|p| p.len > 0);
    w.prefixes
}

/// Visits the states of one prefix in rank order: `leaf(rank, runs)`.
fn walk_prefix(counts: &BoxCounts, p: &Prefix, leaf: impl FnMut(u64, &Runs)) {
    let mut w = Walk {
        counts,
        n: counts.n(),
        b: counts.b(),
        runs: p.runs,
        rank: p.start,
        stop: usize::MAX,
        prefixes: Vec::new(),
        leaf,
    };
    w.level(p.h, p.placed, p.rem, p.a, p.r);
    debug_assert_eq!(w.rank, p.start + p.len);
}

/// Digits as floating-point numbers.
const DIGITS: [f64; 10] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0];

/// `10^h` as doubles (exact).
const POWERS: [f64; MAX_B as usize + 1] = {
    let mut t = [0.0; MAX_B as usize + 1];
    let mut h = 0;
    while h <= MAX_B as usize {
        t[h] = POW10[h] as f64;
        h += 1;
    }
    t
};

/// The value of a state from its successors': `1/10 sum_d max_k (d 10^h_k + next[rank + off_k])`.
#[inline]
fn state_value(next: &[f64], rank: u64, runs: &Runs) -> f64 {
    let (heights, offsets) = (&runs.height[..runs.len], &runs.offset[..runs.len]);
    mean_of_best(heights.iter().zip(offsets).map(|(&h, &off)| (u32::from(h), next[rank.wrapping_add(off) as usize])))
}

/// `1/10 sum_{d=0..9} max_k (d 10^h_k + w_k)` over moves `(h_k, w_k)` with `w_k >= 0`: the value of
/// a state whose moves score `d 10^h_k` now and lead to states worth `w_k`. 0 without moves.
#[inline]
pub(crate) fn mean_of_best(moves: impl Iterator<Item = (u32, f64)>) -> f64 {
    // Every value is at least 0, so 0 starts each maximum. The ten maxima are kept as five
    // pairs, which the compiler turns into packed operations (d 10^h is exact in a double).
    let mut best = [[0.0f64; 2]; 5];
    for (h, w) in moves {
        let p = POWERS[h as usize];
        for (j, pair) in best.iter_mut().enumerate() {
            let v = [DIGITS[2 * j] * p + w, DIGITS[2 * j + 1] * p + w];
            pair[0] = if v[0] > pair[0] { v[0] } else { pair[0] };
            pair[1] = if v[1] > pair[1] { v[1] } else { pair[1] };
        }
    }
    best.iter().map(|pair| pair[0] + pair[1]).sum::<f64>() / 10.0
}

/// Computes the values of layer `t` into `out` from those of layer `t + 1` in `next`. Returns
/// `false` if the budget ran out before every prefix was done.
fn layer(counts: &BoxCounts, t: usize, next: &[f64], out: &mut [f64], threads: usize, budget: &Budget) -> bool {
    let jobs = prefixes(counts, t);
    let lens: Vec<usize> = jobs.iter().map(|p| p.len as usize).collect();
    fill_slices(out, &lens, threads, budget, |j, _, mine| {
        let p = &jobs[j];
        walk_prefix(counts, p, |rank, runs| {
            mine[(rank - p.start) as usize] = state_value(next, rank, runs);
        });
    })
}

/// Computes S, the optimal expected score of a game of size `params`, on `threads` threads.
/// `on_layer(states_done, states_total)` is called after each layer. A stopped budget (Ctrl-C)
/// ends the computation early with [`Outcome::Stopped`].
pub fn optimum(
    params: Params,
    threads: usize,
    budget: &Budget,
    on_layer: &mut dyn FnMut(u64, u64),
) -> Result<Optimum, ExactError> {
    optimum_with(params, threads, budget, &mut |done, total, _| on_layer(done, total))
}

/// [`optimum`], showing every layer's values (in rank order, from the full board down to the
/// empty one) to `see(states_done, states_total, values)` as they are computed.
pub fn optimum_with(
    params: Params,
    threads: usize,
    budget: &Budget,
    see: &mut dyn FnMut(u64, u64, &[f64]),
) -> Result<Optimum, ExactError> {
    let start = Instant::now();
    let counts = BoxCounts::new(params.n, params.b)?;
    let top = params.n as usize * params.b as usize;
    let largest = counts.largest_layer();
    let states: u64 = (0..=top).map(|t| counts.layer(t)).sum();
    // Both buffers at full size once (fresh zeroed pages), then used as slices: no clearing per
    // layer.
    let mut next = alloc(largest)?;
    let mut cur = alloc(largest)?;
    let mut next_len = 1;
    // The full board: nothing more to score.
    next[0] = 0.0;
    let mut done = 1;
    see(done, states, &next[..next_len]);
    let mut outcome = Outcome::Complete;
    for t in (0..top).rev() {
        let size = counts.layer(t) as usize;
        if !layer(&counts, t, &next[..next_len], &mut cur[..size], threads, budget) {
            outcome = Outcome::Stopped(budget.stop_reason().unwrap_or(StopReason::Interrupted));
            break;
        }
        std::mem::swap(&mut cur, &mut next);
        next_len = size;
        done += size as u64;
        see(done, states, &next[..next_len]);
    }
    let value = if outcome.is_complete() { next[0] } else { f64::NAN };
    Ok(Optimum { params, value, states, largest_layer: largest, seconds: start.elapsed().as_secs_f64(), outcome })
}

fn alloc(len: u64) -> Result<Vec<f64>, ExactError> {
    let bytes = u128::from(len) * 2 * 8;
    let mut v = Vec::new();
    usize::try_from(len)
        .ok()
        .filter(|_| affordable(bytes))
        .and_then(|l| v.try_reserve_exact(l).ok())
        .ok_or(ExactError::OutOfMemory { layer: len, bytes })?;
    v.resize(len as usize, 0.0);
    Ok(v)
}

/// The rank of a state within its layer, straight from the definition (for checks): heights in
/// any order.
pub fn rank_in_layer(counts: &BoxCounts, heights: &[u32]) -> u64 {
    let mut l: Vec<usize> = heights.iter().map(|&h| h as usize).collect();
    l.sort_unstable_by(|x, y| y.cmp(x));
    let mut rest: usize = l.iter().sum();
    let mut rank = 0;
    for (i, &h) in l.iter().enumerate() {
        // States equal before i and lower at i: the rest all at most h - 1.
        rank += counts.get(l.len() - i, h, rest);
        rest -= h;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every leaf's successors land where the definition of the rank says.
    #[test]
    fn offsets_match_the_ranks_of_successors() {
        for (n, b) in [(1, 3), (3, 2), (4, 4), (5, 6), (7, 3)] {
            let counts = BoxCounts::new(n, b).unwrap();
            for t in 0..(n * b) as usize {
                let mut seen = 0;
                walk_prefix(&counts, &prefixes(&counts, t)[0], |rank, runs| {
                    let s = unrank(&counts, t, rank);
                    assert_eq!(rank_in_layer(&counts, &s), rank);
                    for k in 0..runs.len {
                        let h = u32::from(runs.height[k]);
                        let mut succ = s.clone();
                        *succ.iter_mut().find(|x| **x == h).unwrap() += 1;
                        assert_eq!(rank.wrapping_add(runs.offset[k]), rank_in_layer(&counts, &succ), "{s:?} +{h}");
                    }
                    let open: Vec<u32> = (0..b).filter(|h| s.contains(h)).collect();
                    assert_eq!(runs.len, open.len(), "{s:?}");
                    seen += 1;
                });
                assert_eq!(seen, counts.layer(t));
            }
        }
    }

    /// The state of a rank, by trying every height at every position (slow, for checks).
    fn unrank(counts: &BoxCounts, t: usize, mut rank: u64) -> Vec<u32> {
        let (n, b) = (counts.n(), counts.b());
        let mut out = Vec::new();
        let (mut rest, mut cap) = (t, b);
        for i in 0..n {
            // The largest h with fewer than `rank + 1` states below it.
            let h = (0..=cap.min(rest)).rev().find(|&h| counts.get(n - i, h, rest) <= rank).unwrap();
            rank -= counts.get(n - i, h, rest);
            out.push(h as u32);
            rest -= h;
            cap = h;
        }
        out
    }

    #[test]
    fn prefixes_tile_a_large_layer() {
        let counts = BoxCounts::new(16, 12).unwrap();
        let jobs = prefixes(&counts, 96);
        assert!(jobs.len() > 10);
        let mut at = 0;
        for p in &jobs {
            assert_eq!(p.start, at);
            at += p.len;
        }
        assert_eq!(at, counts.layer(96));
    }

    #[test]
    fn tiny_games_by_hand() {
        let value = |n, b| optimum(Params::new(n, b).unwrap(), 2, &Budget::unlimited(), &mut |_, _| {}).unwrap();
        // No choice at all: one tower, or towers of one block.
        assert_eq!(value(1, 1).value, 4.5);
        assert_eq!(value(1, 2).value, 49.5);
        assert_eq!(value(3, 1).value, 13.5);
        assert_eq!(value(2, 2).states, 6);
    }
}
