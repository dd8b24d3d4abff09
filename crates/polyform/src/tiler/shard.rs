//! Counts split across processes or machines, and their progress.
//!
//! A count too long for one machine is split into many prefixes of the search tree, always the
//! same ones for a given puzzle, engine and number of shards (never dependent on threads or
//! timing); shard `I` of `N` counts below prefixes `I-1`, `I-1+N`, `I-1+2N`, ... (round robin:
//! neighbouring prefixes, often alike in size, land in different shards). Each shard gives its
//! raw count and the numerator of the distinct count ([`ShardCounts`]); summed over all shards
//! they are the whole count's raw count and `|G|` times its distinct count.
//!
//! ```
//! use tessera_core::shard::Shard;
//! use tessera_core::geometry::Lattice;
//! use tessera_core::runtime::Budget;
//! use tessera_polyform::tiler::{Tiler, problem::from_pictures};
//! // Two kinds of domino on a 4x3 board, in three shards.
//! let problem = from_pictures(Lattice::Square, "####\n####\n####", &[('D', 4, true, "##"), ('E', 2, true, "##")]).unwrap();
//! let tiler = Tiler::new(&problem).unwrap();
//! let whole = tiler.count(1, &Budget::unlimited());
//! let shards: Vec<_> = (1..=3)
//!     .map(|index| tiler.count_shard(Shard { index, count: 3 }, 1, &Budget::unlimited(), None).unwrap())
//!     .collect();
//! assert_eq!(shards.iter().map(|s| s.raw).sum::<u128>(), whole.raw);
//! let numerator: u128 = shards.iter().map(|s| s.numerator).sum();
//! assert_eq!(numerator / tiler.symmetries() as u128, whole.distinct);
//! ```

use std::time::Instant;

use serde::Serialize;
use tessera_core::runtime::{Budget, Outcome};
use tessera_core::shard::Shard;

use crate::tiler::progress::CountProgress;
use crate::tiler::solver::{Counts, EngineKind, MAX_SHARDS, Share, Solution, Tiler, TilingError};

/// Prefixes per shard that a split asks for (at least): many more prefixes than shards, so that
/// their sizes, which vary a lot, even out within each shard.
const PREFIXES_PER_SHARD: usize = 64;

/// The fewest prefixes a split asks for (a count watched for progress counts them as they end).
const MIN_PREFIXES: usize = 1024;

/// One shard's share of a count split across processes (see [`Tiler::count_shard`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[must_use = "counts say whether they are exact (their outcome)"]
pub struct ShardCounts {
    /// This shard, from 1.
    pub shard: u64,
    /// Shards in all.
    pub of: u64,
    /// Prefixes of the whole split.
    pub prefixes: usize,
    /// Prefixes of this shard.
    pub shard_prefixes: usize,
    /// Prefixes of this shard searched to their end.
    pub done: usize,
    /// Names the compiled puzzle, the engine and the split: shards with different fingerprints
    /// are shares of different counts and must not be summed.
    pub fingerprint: u64,
    /// Tilings below this shard's prefixes.
    pub raw: u128,
    /// The sum of `|Stab(T)|` over those tilings `T`: the numerators of all shards add up to
    /// `group` times the number of tilings distinct up to symmetry (the distinct counts of
    /// shards would not add up: a shard may hold part of a symmetry class).
    pub numerator: u128,
    /// Number of board symmetries, `|G|` (1: none).
    pub group: u64,
    /// Whether this shard's counts are exact (its search finished).
    pub outcome: Outcome,
    /// Wall time in seconds.
    pub seconds: f64,
}

impl Tiler {
    /// Counts shard `shard.index` of `shard.count` of the tilings on `threads` workers: the
    /// tilings below prefixes `index-1`, `index-1+count`, ... of a split of the search that
    /// depends only on the puzzle, the engine and `count`. Summed over every shard, `raw` is
    /// the number of tilings and `numerator / group` the number up to symmetry (see
    /// [`ShardCounts`]). `progress`, if given, follows the count as it goes.
    ///
    /// Both engines split their searches; dancing links splits by its own rule, so shards of
    /// the two engines have different fingerprints.
    pub fn count_shard(
        &self,
        shard: Shard,
        threads: usize,
        budget: &Budget,
        progress: Option<&CountProgress>,
    ) -> Result<ShardCounts, TilingError> {
        let (index, count) = (shard.index, shard.count);
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(TilingError::BadShard(index, count));
        }
        let start = Instant::now();
        let all = self.split(count as usize * PREFIXES_PER_SHARD);
        let mine: Vec<Vec<u32>> = all.iter().skip(index as usize - 1).step_by(count as usize).cloned().collect();
        let own = CountProgress::new();
        let progress = progress.unwrap_or(&own);
        let tally =
            self.tally(Some(Share { prefixes: &mine, progress: Some(progress), fixed: index == 1 }), threads, budget);
        Ok(ShardCounts {
            shard: index,
            of: count,
            prefixes: all.len(),
            shard_prefixes: mine.len(),
            done: if tally.outcome.is_complete() { mine.len() } else { progress.done() },
            fingerprint: self.fingerprint(&all, count),
            raw: tally.raw,
            numerator: tally.numerator,
            group: self.symmetries() as u64,
            outcome: tally.outcome,
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// [`Tiler::count_with_sample`], followed by `progress` as it goes (the search is split
    /// into many prefixes, counted as they end).
    pub fn count_observed(
        &self,
        threads: usize,
        budget: &Budget,
        progress: &CountProgress,
    ) -> (Counts, Option<Solution>) {
        let start = Instant::now();
        let prefixes = self.split(threads * 48);
        let tally =
            self.tally(Some(Share { prefixes: &prefixes, progress: Some(progress), fixed: true }), threads, budget);
        (self.counts_of(&tally, start), tally.sample)
    }

    /// A split of the search into at least `min` prefixes (and [`MIN_PREFIXES`]) when the tree
    /// allows it; none when the pieces' area is not the board's (there is no tiling).
    fn split(&self, min: usize) -> Vec<Vec<u32>> {
        if !self.plan().area_fits() {
            return Vec::new();
        }
        self.engine.prefixes(min.max(MIN_PREFIXES))
    }

    /// A fingerprint (64-bit FNV-1a, the same on every machine) of what a shard's counts depend
    /// on: the compiled puzzle (cells, piece types and placements, symmetries), the engine,
    /// the number of shards and the prefixes of the split.
    fn fingerprint(&self, prefixes: &[Vec<u32>], shards: u64) -> u64 {
        let plan = self.plan();
        let mut h = Fnv::default();
        h.word(plan.len() as u64);
        for t in &plan.types {
            [u64::from(t.label), u64::from(t.count), t.size as u64].into_iter().for_each(|x| h.word(x));
            // A range, when the type has one (the fingerprints of counts without are as before).
            if t.min != t.count {
                h.word(u64::from(t.min) | 1 << 63);
            }
        }
        for p in &plan.placements {
            h.word(p.ty as u64);
            plan.cells_of(p).iter().for_each(|&c| h.word(u64::from(c)));
        }
        h.word(self.symmetries() as u64);
        // The engine, and how the numerator is split (by stabilisers in every shard, or by
        // Burnside's lemma with the fixed tilings in the first).
        h.word(match self.engine() {
            EngineKind::Dlx => 2,
            _ if self.engine.counts_subtrees() => 3,
            _ => 1,
        });
        h.word(shards);
        h.word(prefixes.len() as u64);
        for p in prefixes {
            h.word(p.len() as u64);
            p.iter().for_each(|&i| h.word(u64::from(i)));
        }
        h.0
    }
}

/// 64-bit FNV-1a over little-endian words.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn word(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
