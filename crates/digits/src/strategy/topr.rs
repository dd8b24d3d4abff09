//! Top-R dynamic programming: the optimal policy among those that choose freely only in the top R
//! rows and fill the rows below one tower at a time.
//!
//! With `L = B - R`, a state of the restricted game is
//!
//! * how many towers stand at each height `L..=B` (the *region*), and
//! * for the towers below `L`: all empty but one, the *filling* tower, of height `p < L`.
//!
//! A block goes either on a region tower (any open height `L..B`) or on the filling tower, which
//! joins the region when it reaches `L` (the next block below then starts a new one). The optimal
//! values of this restricted game are computed exactly, state by state, and the policy picks the
//! move that maximises `d 10^h + V(after)`. With `R = B` nothing is restricted: the values are the
//! exact optimum of the full game (the `optimal` strategy).
//!
//! **Index.** The region counts and the number of towers below form a multiset of N towers over
//! `R + 2` categories (below, `L`, ..., `B`; `R + 1` when `L = 0`), ranked in the combinatorial
//! number system: with the towers sorted by category `x_1 <= ... <= x_N`, the rank is
//! `sum_i C(x_i + i - 1, i)`, so raising the last tower of category `k` (at sorted position `i`)
//! adds `C(k + i - 1, i - 1)`. A state's index is `rank * max(L, 1) + p`. Every move increases the
//! index, so the values are filled from the last index down, each from values already known.

use crate::exact::mean_of_best;
use crate::par::affordable;
use crate::params::{MAX_B, POW10, Params};
use crate::state::State;
use crate::strategy::{Strategy, StrategyError};

/// The top-R values and policy for one game size.
#[derive(Clone)]
pub struct TopR {
    params: Params,
    r: u32,
    /// `L = B - R`, the lowest row of the region.
    low: u32,
    /// Filling heights per rank: `max(L, 1)`.
    width: usize,
    /// Categories: below (when `L > 0`), then heights `L..=B`.
    cats: usize,
    /// `C(m, k)` at `m * (cats + 1) + k`, for `m <= N + cats`, `k <= cats`.
    binom: Vec<u64>,
    values: Vec<f64>,
}

impl std::fmt::Debug for TopR {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TopR(R={}, {}, {} states)", self.r, self.params, self.values.len())
    }
}

/// States of the top-R game of a size (`None` past 64 bits): `C(N + cats - 1, cats - 1) max(L, 1)`.
pub fn state_count(params: Params, r: u32) -> Option<u64> {
    let low = params.b.checked_sub(r)?;
    let cats = u64::from(r) + if low > 0 { 2 } else { 1 };
    let ranks = crate::count::binomial(u64::from(params.n) + cats - 1, cats - 1)?;
    u64::try_from(ranks.checked_mul(u128::from(low.max(1)))?).ok()
}

impl TopR {
    /// Solves the top-R game of size `params`, refusing if it has more than `max_states` states.
    pub fn new(params: Params, r: u32, max_states: u64) -> Result<TopR, StrategyError> {
        if r == 0 || r > params.b {
            return Err(StrategyError::BadRows { r, b: params.b });
        }
        let states = state_count(params, r).filter(|&s| s <= max_states);
        let Some(states) = states else {
            return Err(StrategyError::TooLarge {
                name: format!("top{r}"),
                params,
                states: state_count(params, r),
                max: max_states,
            });
        };
        let low = params.b - r;
        let cats = r as usize + if low > 0 { 2 } else { 1 };
        let rows = params.n as usize + cats + 1;
        let mut binom = vec![0u64; rows * (cats + 1)];
        for m in 0..rows {
            binom[m * (cats + 1)] = 1;
            for k in 1..=cats.min(m) {
                binom[m * (cats + 1) + k] = binom[(m - 1) * (cats + 1) + k - 1] + binom[(m - 1) * (cats + 1) + k];
            }
        }
        let mut values = Vec::new();
        if !affordable(u128::from(states) * 8) {
            return Err(StrategyError::OutOfMemory { states });
        }
        values.try_reserve_exact(states as usize).map_err(|_| StrategyError::OutOfMemory { states })?;
        values.resize(states as usize, 0.0);
        let mut t = TopR { params, r, low, width: low.max(1) as usize, cats, binom, values };
        t.solve();
        Ok(t)
    }

    /// Rows the policy chooses in (R).
    pub fn rows(&self) -> u32 {
        self.r
    }

    /// States of the restricted game.
    pub fn states(&self) -> usize {
        self.values.len()
    }

    /// The exact expected score of one game under this policy.
    pub fn value(&self) -> f64 {
        self.values[0]
    }

    #[inline]
    fn c(&self, m: usize, k: usize) -> u64 {
        self.binom[m * (self.cats + 1) + k]
    }

    /// Height of category `k` (not the below category).
    #[inline]
    fn height(&self, k: usize) -> u32 {
        if self.low > 0 { self.low + k as u32 - 1 } else { k as u32 }
    }

    /// First category of the region.
    fn first_region(&self) -> usize {
        usize::from(self.low > 0)
    }

    /// The moves of a state as (height, index after), given its rank, filling height and the
    /// running totals `cum[k]` of its category counts.
    #[inline]
    fn moves(&self, rank: u64, p: usize, cum: &[usize], out: &mut [(u32, usize); 20]) -> usize {
        let mut len = 0;
        let w = self.width;
        if self.low > 0 && cum[0] > 0 {
            // The filling tower; at the top of the rows below it joins the region (rank + 1).
            let after = if p + 1 < self.low as usize { rank as usize * w + p + 1 } else { (rank as usize + 1) * w };
            out[len] = (p as u32, after);
            len += 1;
        }
        for k in self.first_region()..self.cats {
            let h = self.height(k);
            let before = if k == 0 { 0 } else { cum[k - 1] };
            if h < self.params.b && cum[k] > before {
                let i = cum[k];
                let after = rank + self.c(k + i - 1, k);
                out[len] = (h, after as usize * w + p);
                len += 1;
            }
        }
        len
    }

    /// Fills the values from the last index down (see the module documentation).
    fn solve(&mut self) {
        let cats = self.cats;
        let n = self.params.n as usize;
        let mut counts = vec![0usize; cats];
        let mut cum = vec![0usize; cats];
        let ranks = self.values.len() / self.width;
        // Category counts in decreasing rank order: lexicographically decreasing from the top
        // category down (the colexicographic order of the combinatorial number system).
        counts[cats - 1] = n;
        let mut moves = [(0u32, 0usize); 20];
        for rank in (0..ranks as u64).rev() {
            let mut acc = 0;
            for k in 0..cats {
                acc += counts[k];
                cum[k] = acc;
            }
            debug_assert_eq!(rank, self.rank(&counts));
            let top_p = if self.low > 0 && counts[0] > 0 { self.width } else { 1 };
            for p in (0..top_p).rev() {
                let len = self.moves(rank, p, &cum, &mut moves);
                let v = mean_of_best(moves[..len].iter().map(|&(h, i)| (h, self.values[i])));
                self.values[rank as usize * self.width + p] = v;
            }
            previous(&mut counts);
        }
    }

    /// The rank of category counts, from the definition.
    fn rank(&self, counts: &[usize]) -> u64 {
        let mut cum = 0;
        let mut rank = 0;
        for (k, &c) in counts.iter().enumerate() {
            rank += self.c(k + cum + c, k) - self.c(k + cum, k);
            cum += c;
        }
        rank
    }

    /// The restricted state of a game state: category counts and filling height (the tallest tower
    /// below the region).
    fn project(&self, state: &State) -> (Cats, usize) {
        let mut counts = [0usize; MAX_CATS];
        for h in 0..=self.params.b {
            let k = if h < self.low { 0 } else { self.first_region() + (h - self.low) as usize };
            counts[k] += state.count(h) as usize;
        }
        let p = if self.low > 0 { state.tallest_below(self.low).unwrap_or(0) as usize } else { 0 };
        (counts, p)
    }
}

/// Most categories: every height `0..=B` and the rows below.
const MAX_CATS: usize = MAX_B as usize + 2;

/// Counts per category.
type Cats = [usize; MAX_CATS];

/// Steps category counts to the previous ones in colexicographic order (the last call, from all
/// towers in category 0, leaves them unchanged).
fn previous(counts: &mut [usize]) {
    // Take one tower from the lowest category above 0 that has one, and pile every tower below
    // it into the category just beneath.
    let Some(k) = (1..counts.len()).find(|&k| counts[k] > 0) else { return };
    let below: usize = counts[..k].iter().sum();
    counts[..k].fill(0);
    counts[k] -= 1;
    counts[k - 1] = below + 1;
}

impl Strategy for TopR {
    fn choose(&self, state: &State, digit: u8) -> u32 {
        let (counts, p) = self.project(state);
        let counts = &counts[..self.cats];
        let mut cum = [0usize; MAX_CATS];
        let mut acc = 0;
        for (k, &c) in counts.iter().enumerate() {
            acc += c;
            cum[k] = acc;
        }
        let rank = self.rank(counts);
        let mut moves = [(0u32, 0usize); 20];
        let len = self.moves(rank, p, &cum[..self.cats], &mut moves);
        assert!(len > 0, "no move left in {state:?}");
        // The move with the best score now plus value after (the first of equals).
        let gain = |&(h, i): &(u32, usize)| (u64::from(digit) * POW10[h as usize]) as f64 + self.values[i];
        let mut best = moves[0];
        for m in &moves[1..len] {
            if gain(m) > gain(&best) {
                best = *m;
            }
        }
        best.0
    }

    fn exact_value(&self) -> Option<f64> {
        Some(self.value())
    }
}
