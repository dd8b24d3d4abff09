//! The tiling solver: count, list or find tilings of a problem, with symmetry reduction and
//! parallel workers.
//!
//! Symmetry: let `G` be the board's symmetries that map the piece set to itself. When `G` is not
//! trivial and some piece type `P` has one copy, the fast engine keeps only the placements of `P`
//! that are the smallest of their orbit under `G` (see [`crate::tiler::plan::Restriction`]). Every tiling
//! is `g(S)` for exactly one found tiling `S` and one symmetry `g` from a fixed set of
//! representatives (one per image of `P`'s placement), so listing `g(S)` over those
//! representatives yields every tiling exactly once, and counting needs no listing at all: each
//! found tiling stands for `reps` tilings and for `|Stab(S)| * reps / |G|` classes.
//!
//! ```
//! use tessera_core::geometry::Lattice;
//! use tessera_core::runtime::Budget;
//! use tessera_polyform::tiler::{Tiler, problem::from_pictures};
//! // Three identical dominoes on a 3x2 board: 3 tilings, 2 up to symmetry.
//! let problem = from_pictures(Lattice::Square, "###\n###", &[('D', 3, true, "##")]).unwrap();
//! let counts = Tiler::new(&problem).unwrap().count(1, &Budget::unlimited());
//! assert_eq!((counts.raw, counts.distinct), (3, 2));
//! ```

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::bits::{Bitboard, CellBits, WideBits};
use serde::Serialize;
use tessera_core::geometry::Lattice;
use tessera_core::rng::derive_seed;
use tessera_core::runtime::{Budget, Outcome, Stop, StopReason, Verdict, portfolio, split_work};

use crate::tiler::dlx::Dlx;
use crate::tiler::engine::{Engine, Leaves};
use crate::tiler::fast::{Fast, MAX_TYPES};
use crate::tiler::fit::FitTables;
use crate::tiler::fixed::{FixedTilings, symmetry_classes};
use crate::tiler::plan::{Group, Plan};
use crate::tiler::problem::{Problem, draw, picture};
use crate::tiler::progress::CountProgress;
use crate::tiler::search::add_weighted;

/// Most pieces for a single worker to search on the caller's thread (a few hundred bytes of
/// stack a piece); deeper searches get a thread with a deep stack.
const SHALLOW: u32 = 1024;

/// Which search to use (by these names in `--engine`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum EngineKind {
    /// The fast bit-mask search when the board fits (bounding box of at most 4096 cells, at most
    /// 64 piece types), dancing links otherwise; for counts and enumerations of bigger solids
    /// (cubes or prisms in more than one layer), the fast engine's order (`fast` or
    /// `constrained`) that random paths through both trees predict to be several times faster
    /// (they take a few percent of the time they predict).
    #[default]
    Auto,
    /// The fast bit-mask search.
    Fast,
    /// Generic dancing links (no pruning, no symmetry breaking).
    Dlx,
    /// The fast engine's tables searched most constrained first: the cell or the piece with the
    /// fewest placements left, as dancing links branches (puzzles with ranges of copies are
    /// searched as by `fast`). Several times faster than `fast` on some boxes of distinct
    /// pieces, slower on most other puzzles.
    Constrained,
}

/// Most shards a count may be split into.
pub const MAX_SHARDS: u64 = 4096;

/// Why a puzzle cannot be solved as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TilingError {
    /// The problem breaks the limits of [`Problem::check`].
    #[error("bad puzzle: {0}")]
    BadPuzzle(String),
    /// Building the tables was stopped by the budget.
    #[error("stopped before the tables were built: {0}")]
    Stopped(StopReason),
    /// A share of a split count that does not exist (see [`Tiler::count_shard`]).
    #[error("bad shard {0}/{1}: expected I/N with 1 <= I <= N <= {max}", max = MAX_SHARDS)]
    BadShard(u64, u64),
    /// The fast engine was requested for a puzzle it cannot take.
    #[error(
        "the fast engine takes boards whose bounding box has at most 4096 cells, at most 64 piece types, and placement masks and tables of at most 256 MiB in all (this puzzle: {0} cells, {1} types, {2} MiB): the dancing-links engine takes any puzzle"
    )]
    TooBigForFast(usize, usize, u64),
}

/// A tiling: the piece type and the piece of every board cell.
///
/// Pieces are numbered in the order of their first cell on the board, so equal tilings have equal
/// values, and two tilings whose copies of one piece type lie differently differ even where they
/// carry the same labels.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solution {
    /// Piece type index of each board cell, in board-cell order.
    pub types: Vec<u16>,
    /// Piece number of each board cell (0 for the piece holding cell 0, and so on).
    pub pieces: Vec<u32>,
}

impl Solution {
    /// A tiling from each cell's type and a numbering of its pieces by numbers below the number
    /// of cells.
    fn new(types: Vec<u16>, raw: &[u32]) -> Self {
        let mut map = vec![u32::MAX; raw.len()];
        let mut next = 0;
        let pieces = raw
            .iter()
            .map(|&p| {
                let m = &mut map[p as usize];
                if *m == u32::MAX {
                    *m = next;
                    next += 1;
                }
                *m
            })
            .collect();
        Solution { types, pieces }
    }

    /// The cells of each piece, in piece order.
    pub fn piece_cells(&self) -> Vec<Vec<usize>> {
        let n = self.pieces.iter().map(|&p| p as usize + 1).max().unwrap_or(0);
        let mut out = vec![Vec::new(); n];
        for (k, &p) in self.pieces.iter().enumerate() {
            out[p as usize].push(k);
        }
        out
    }
}

/// Solution counts (128 bits: domino tilings of a 14x14 board already need 77).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[must_use = "counts say whether they are exact (their outcome)"]
pub struct Counts {
    /// Every tiling.
    pub raw: u128,
    /// Tilings up to the board's symmetries.
    pub distinct: u128,
    /// Number of board symmetries used (1: none).
    pub symmetries: usize,
    /// The group of those symmetries.
    pub group: Group,
    /// Whether the counts are exact (the search finished).
    pub outcome: Outcome,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// A puzzle ready to be solved.
pub struct Tiler {
    plan: Plan,
    pub(super) engine: Box<dyn Engine>,
    kind: EngineKind,
    /// Whether the engine was left to choose (see [`Tiler::choose_order`]).
    auto: bool,
}

impl std::fmt::Debug for Tiler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tiler").field("cells", &self.plan.len()).field("engine", &self.kind).finish()
    }
}

/// Some of a search's prefixes, and where to count those done.
#[derive(Clone, Copy)]
pub(super) struct Share<'a> {
    pub(super) prefixes: &'a [Vec<u32>],
    pub(super) progress: Option<&'a CountProgress>,
    /// Whether this share counts the tilings that the symmetries other than the identity fix,
    /// when the count finds its classes by Burnside's lemma (exactly one share of a split does;
    /// see [`Tiler::tally`]).
    pub(super) fixed: bool,
}

/// What a count gathers: tilings, the numerator of the distinct count (see [`Tiler::tally`]),
/// the smallest tiling among the first each worker found, and whether it finished.
pub(super) struct Tally {
    pub(super) raw: u128,
    pub(super) numerator: u128,
    pub(super) sample: Option<Solution>,
    pub(super) outcome: Outcome,
}

/// One found tiling with the symmetries that map it to the tilings it stands for.
struct Found<'a> {
    sol: Solution,
    reps: &'a [u8],
}

const IDENTITY: [u8; 1] = [0];

/// Nodes of Burnside's searches (see [`Tiler::tally_by_counts`]) a whole count spends per
/// tiling before it visits the tilings instead: about what visiting one costs (a tiling's
/// pieces, and the dead ends on the way).
const FIXED_NODES_PER_TILING: u64 = 64;

/// Nodes of Burnside's searches a whole count spends, however few its tilings.
const FIXED_NODES_LEAST: u64 = 1 << 10;

/// Most memory the fast engine may spend on placement masks and fit tables.
const FAST_MASK_BYTES: u64 = 256 << 20;

impl Tiler {
    /// Compiles a puzzle for the automatically chosen engine.
    pub fn new(puzzle: &Problem) -> Result<Tiler, TilingError> {
        Self::with_engine(puzzle, EngineKind::Auto)
    }

    /// Compiles a puzzle for the given engine.
    pub fn with_engine(puzzle: &Problem, kind: EngineKind) -> Result<Tiler, TilingError> {
        Self::within(puzzle, kind, &Budget::unlimited())
    }

    /// Compiles a puzzle for the given engine, unless the budget runs out first (building the
    /// fast engine's tables takes a while on boards of a thousand cells and more).
    pub fn within(puzzle: &Problem, kind: EngineKind, budget: &Budget) -> Result<Tiler, TilingError> {
        puzzle.check().map_err(TilingError::BadPuzzle)?;
        let plan = Plan::new(puzzle);
        // The fast engine keeps two board-wide masks per placement and its fit tables: on huge
        // boards with many placements that is too much memory, and dancing links (sparse) takes
        // over.
        let words = plan.nbits.div_ceil(64).next_power_of_two() as u64;
        let mask_bytes = plan.placements.len() as u64 * words * 16
            + FitTables::bytes_for(plan.placements.len(), plan.nbits, plan.types.len());
        let fits = plan.nbits <= 4096 && plan.types.len() <= MAX_TYPES && mask_bytes <= FAST_MASK_BYTES;
        let auto = kind == EngineKind::Auto;
        let kind = match kind {
            EngineKind::Auto if fits => EngineKind::Fast,
            EngineKind::Auto => EngineKind::Dlx,
            EngineKind::Fast | EngineKind::Constrained if !fits => {
                return Err(TilingError::TooBigForFast(plan.nbits, plan.types.len(), mask_bytes >> 20));
            }
            k => k,
        };
        let mut stop = budget.worker();
        let engine: Box<dyn Engine> = match kind {
            EngineKind::Dlx => Box::new(Dlx::new(&plan)),
            _ => fast_engine(&plan, &mut stop, kind == EngineKind::Constrained)
                .ok_or_else(|| TilingError::Stopped(stop.reason().unwrap_or(StopReason::Cancelled)))?,
        };
        Ok(Tiler { plan, engine, kind, auto })
    }

    /// Readies the tiler for counts and enumerations: when the engine was left to choose
    /// ([`EngineKind::Auto`]) and is the fast one, takes the search order predicted faster
    /// (see [`EngineKind::Auto`]; [`Tiler::engine`] then says which). A search for one tiling
    /// needs none of this: it fills the first free cell in either order.
    pub fn choose_order(mut self) -> Self {
        if self.auto && self.kind == EngineKind::Fast && solid(&self.plan) && self.engine.choose_order() {
            self.kind = EngineKind::Constrained;
        }
        self
    }

    /// The compiled puzzle.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The engine in use (never `Auto`).
    pub fn engine(&self) -> EngineKind {
        self.kind
    }

    /// Number of board symmetries used to reduce and classify tilings.
    pub fn symmetries(&self) -> usize {
        self.plan.symmetries.len().max(1)
    }

    /// The group of the board symmetries used to reduce and classify tilings.
    pub fn group(&self) -> Group {
        self.plan.group()
    }

    /// Counts all tilings and the distinct ones, on `threads` workers.
    pub fn count(&self, threads: usize, budget: &Budget) -> Counts {
        self.count_with_sample(threads, budget).0
    }

    /// Counts all tilings and the distinct ones, and keeps one of the tilings found (for a
    /// picture, say), on `threads` workers.
    pub fn count_with_sample(&self, threads: usize, budget: &Budget) -> (Counts, Option<Solution>) {
        let start = Instant::now();
        let tally = self.tally(None, threads, budget);
        (self.counts_of(&tally, start), tally.sample)
    }

    /// Counts the tilings below `share` (every tiling when `None`) on `threads` workers.
    ///
    /// Besides the raw count it sums `|Stab(T)|` over the tilings `T` counted: by the
    /// orbit-stabiliser theorem a class of `|G| / |Stab(T)|` tilings adds exactly `|G|`, so that
    /// sum divided by `|G|` is the number of classes, and sums over any split of the tilings
    /// add up to the whole one's (unlike numbers of classes, which a split may cut).
    pub(super) fn tally(&self, share: Option<Share<'_>>, threads: usize, budget: &Budget) -> Tally {
        if let Some(tally) = self.tally_by_counts(share, threads, budget) {
            return tally;
        }
        let progress = share.and_then(|s| s.progress);
        // Per worker: raw and distinct counts (times |G|), the first tiling, and buffers for the
        // symmetry test (hot: one call a tiling found, which builds no tiling).
        let on_found = |acc: &mut (u64, u64, Option<Solution>, Fixed), ids: &[u32], _: &[char]| {
            let (k, weighed) = self.weighed(ids, &mut acc.3);
            acc.0 += k;
            acc.1 += weighed;
            if acc.2.is_none() {
                acc.2 = Some(self.found(ids).sol);
            }
            if let Some(p) = progress {
                p.add_found(k);
            }
            ControlFlow::Continue(())
        };
        let init = || (0u64, 0u64, None, Fixed::default());
        let (accs, outcome) = self.drive(share, threads, budget, None, init, on_found);
        // Each worker's sums fit 64 bits: it visited each tiling.
        let (raw, numerator) = accs.iter().fold((0, 0), |a, b| (a.0 + u128::from(b.0), a.1 + u128::from(b.1)));
        let sample = accs.into_iter().filter_map(|a| a.2).min();
        Tally { raw, numerator, sample, outcome }
    }

    /// What a tiling found by the engine adds to a count and to its numerator (see
    /// [`Tiler::tally`]): the tilings it stands for (the symmetry-breaking piece's images), and
    /// as many times the symmetries that map it to itself.
    fn weighed(&self, ids: &[u32], fixed: &mut Fixed) -> (u64, u64) {
        let restricted = self.restricted(ids);
        let k = restricted.and_then(|id| self.plan.reps_of(id)).map_or(1, <[u8]>::len) as u64;
        if self.plan.symmetries.len() <= 1 {
            return (k, k);
        }
        let keepers = restricted.and_then(|id| self.plan.keepers_of(id));
        (k, fixed.stabiliser(&self.plan, ids, keepers) * k)
    }

    /// [`Tiler::tally`] by the engine's own count, which remembers subtree counts (`None` when
    /// the engine has none, or when Burnside's searches below take longer than visiting the
    /// tilings would). The numerator is then found by Burnside's lemma: `|G|` times the classes
    /// is the sum over the symmetries `g` of the tilings that `g` fixes, the raw count for the
    /// identity and [`FixedTilings`] for the others (added by the share holding the first
    /// prefix, so that shards still add up).
    fn tally_by_counts(&self, share: Option<Share<'_>>, threads: usize, budget: &Budget) -> Option<Tally> {
        if !self.engine.counts_subtrees() {
            return None;
        }
        let progress = share.and_then(|s| s.progress);
        let init = || (0u128, Leaves::new());
        let (accs, outcome) = self.drive_with(share, threads, budget, init, |acc, prefixes, next, b| {
            let done = |n: u64| {
                if let Some(p) = progress {
                    p.add_found(n);
                }
            };
            // `counts_subtrees` said yes, so the engine counts.
            let (n, leaves, outcome) =
                self.engine.count(prefixes, next, b, &done).unwrap_or((0, Leaves::new(), Outcome::Complete));
            acc.0 += n;
            acc.1.merge(leaves);
            outcome
        });
        let raw = accs.iter().try_fold(0u128, |sum, a| sum.checked_add(a.0));
        let (raw, outcome) = match raw {
            Some(raw) => (raw, outcome),
            None => (u128::MAX, Outcome::Stopped(StopReason::Overflow)),
        };
        let mut leaves = Leaves::new();
        accs.into_iter().for_each(|a| leaves.merge(a.1));
        let sample = leaves.tilings.iter().map(|ids| self.found(ids).sol).min();
        // A whole count that met every tiling one by one classifies them as visiting does.
        if share.is_none() && outcome.is_complete() && leaves.all {
            let mut fixed = Fixed::default();
            let numerator = leaves.tilings.iter().map(|ids| u128::from(self.weighed(ids, &mut fixed).1)).sum();
            return Some(Tally { raw, numerator, sample, outcome });
        }
        let mut numerator = raw;
        if share.is_none_or(|s| s.fixed) && outcome.is_complete() && self.plan.area_fits() {
            // Burnside's searches cost more than visiting the tilings on some puzzles (a few
            // tilings of a box with symmetric walls: the searches fill its inside in many ways
            // that no symmetry fixes). A whole count gives them as many nodes as visiting the
            // tilings would take, and visits instead once they have spent that (rent or buy);
            // a shard cannot (shards must all find the classes the same way).
            let (whole, fixed) = (share.is_none(), FixedTilings::new(&self.plan));
            let limit =
                u64::try_from(raw).unwrap_or(u64::MAX).saturating_mul(FIXED_NODES_PER_TILING).max(FIXED_NODES_LEAST);
            let mut stop = if whole { budget.worker().with_nodes(limit) } else { budget.worker() };

            for (g, members) in symmetry_classes(&self.plan) {
                // A class of symmetries that act as the identity fixes every tiling.
                let fixed = if g == 0 { Ok(raw) } else { fixed.count(g, &mut stop) };
                match fixed.and_then(|n| add_weighted(numerator, n, members)) {
                    Ok(sum) => numerator = sum,
                    Err(StopReason::Nodes) if whole => return None,
                    Err(r) => return Some(Tally { raw, numerator, sample, outcome: Outcome::Stopped(r) }),
                }
            }
        }
        Some(Tally { raw, numerator, sample, outcome })
    }

    /// The counts of a tally, timed from `start`.
    pub(super) fn counts_of(&self, tally: &Tally, start: Instant) -> Counts {
        let g = self.symmetries() as u128;
        Counts {
            raw: tally.raw,
            distinct: tally.numerator / g,
            symmetries: g as usize,
            group: self.plan.group(),
            outcome: tally.outcome,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// Visits every tiling (or, with `distinct`, one per symmetry class: the smallest of its
    /// class) in a deterministic order, on one thread, until the visitor breaks.
    pub fn for_each<V>(&self, budget: &Budget, distinct: bool, visit: V) -> Outcome
    where
        V: FnMut(&Solution) -> ControlFlow<()> + Send,
    {
        // One worker: the lock is never contended; it only lets the visitor cross to the
        // worker's deep stack.
        let visit = Mutex::new(visit);
        let (_, outcome) = self.drive(
            None,
            1,
            budget,
            None,
            || (),
            |_, ids, _| {
                let found = self.found(ids);
                let mut visit = visit.lock().unwrap_or_else(|e| e.into_inner());
                for &g in found.reps {
                    let s = self.image(&found.sol, g);
                    if distinct && !self.is_smallest_of_class(&s) {
                        continue;
                    }
                    visit(&s)?;
                }
                ControlFlow::Continue(())
            },
        );
        outcome
    }

    /// Folds every tiling into per-worker accumulators on `threads` workers (in no particular
    /// order); the fold may break to stop everything.
    pub fn fold<A, I, F>(&self, threads: usize, budget: &Budget, init: I, fold: F) -> (Vec<A>, Outcome)
    where
        A: Send,
        I: Fn() -> A + Sync,
        F: Fn(&mut A, &Solution) -> ControlFlow<()> + Sync,
    {
        self.drive(None, threads, budget, None, init, |acc, ids, _| {
            let found = self.found(ids);
            for &g in found.reps {
                fold(acc, &self.image(&found.sol, g))?;
            }
            ControlFlow::Continue(())
        })
    }

    /// Folds the labels of every tiling (one per board cell, as [`Tiler::labels`] gives them)
    /// into per-worker accumulators on `threads` workers, in no particular order; the fold may
    /// break to stop everything. Cheaper than [`Tiler::fold`] when the pieces are not needed.
    pub fn fold_labels<A, I, F>(&self, threads: usize, budget: &Budget, init: I, fold: F) -> (Vec<A>, Outcome)
    where
        A: Send,
        I: Fn() -> A + Sync,
        F: Fn(&mut A, &[char]) -> ControlFlow<()> + Sync,
    {
        let n = self.plan.len();
        let labels: Vec<char> = self.plan.types.iter().map(|t| t.label).collect();
        // Each worker keeps two buffers: the labels as found (when the engine does not draw
        // them), and an image of them.
        let with_buffers = || (init(), vec![' '; n], vec![' '; n]);
        let on_found = |(acc, found, image): &mut (A, Vec<char>, Vec<char>), ids: &[u32], drawn: &[char]| {
            let found: &[char] = if drawn.is_empty() {
                for &id in ids {
                    let p = &self.plan.placements[id as usize];
                    self.plan.cells_of(p).iter().for_each(|&c| found[c as usize] = labels[p.ty]);
                }
                found
            } else {
                drawn
            };
            for &g in self.reps(ids) {
                if g == 0 {
                    fold(acc, found)?;
                } else {
                    let map = &self.plan.type_maps[g as usize];
                    // A reflection may swap the labels of chiral pieces and their mirror images.
                    let relabel = |l: char| match labels.iter().position(|&x| x == l) {
                        Some(t) => labels[usize::from(map[t])],
                        None => l,
                    };
                    for (&to, &label) in self.plan.symmetries[g as usize].iter().zip(found.iter()) {
                        image[to as usize] = relabel(label);
                    }
                    fold(acc, image)?;
                }
            }
            ControlFlow::Continue(())
        };
        let (accs, outcome) = self.drive(None, threads, budget, Some(&labels), with_buffers, on_found);
        (accs.into_iter().map(|a| a.0).collect(), outcome)
    }

    /// Finds one tiling, on `threads` workers racing with different random orders (the first to
    /// succeed wins; see the fast engine's restarts). `seed` makes the run reproducible on one
    /// thread. Dancing links has no random order, so it runs on one thread.
    pub fn first(&self, threads: usize, seed: u64, budget: &Budget) -> Verdict<Solution> {
        if !self.plan.area_fits() {
            return Verdict::Infeasible;
        }
        let threads = if self.kind == EngineKind::Dlx { 1 } else { threads };
        let verdict = portfolio(threads, budget, |k, b| {
            // Worker 0 tries the natural order first, the others random orders from the start.
            // A verdict either way (found, or proven none) ends the race.
            match self.engine.first(derive_seed(seed, k as u64), k == 0, b) {
                Verdict::Unknown(_) => None,
                v => Some(v),
            }
        });
        match verdict.map(|v| v.map(|ids| self.found(&ids).sol)) {
            Some(v) => v,
            None => Verdict::Unknown(budget.stop_reason().unwrap_or(StopReason::Cancelled)),
        }
    }

    /// The labels of a tiling as one character per board cell, in board-cell order.
    pub fn labels(&self, s: &Solution) -> String {
        s.types.iter().map(|&t| self.plan.types[t as usize].label).collect()
    }

    /// Draws a tiling in the puzzle text format's layout.
    pub fn draw(&self, s: &Solution) -> String {
        draw(self.plan.lattice, self.labelled_cells(s))
    }

    /// `(col, row, label)` of every board cell of a tiling, in board-cell order: where its
    /// picture puts them (see [`picture`]).
    pub fn labelled_cells(&self, s: &Solution) -> Vec<(i32, i32, char)> {
        let labels = s.types.iter().map(|&t| self.plan.types[t as usize].label);
        picture(self.plan.lattice, self.plan.cells.iter().copied().zip(labels))
    }

    /// Runs the engine over the prefixes of `share` (each worker's finished prefixes counted on
    /// its progress, if any, as it takes the next one: outside the search), or when `None` over
    /// the whole search split for `threads` workers; `on_found` sees each found tiling (and its
    /// labels by board cell if `labels`, the label of each type, is given and the engine draws
    /// them; otherwise an empty list).
    fn drive<A, I, F>(
        &self,
        share: Option<Share<'_>>,
        threads: usize,
        budget: &Budget,
        labels: Option<&[char]>,
        init: I,
        on_found: F,
    ) -> (Vec<A>, Outcome)
    where
        A: Send,
        I: Fn() -> A + Sync,
        F: Fn(&mut A, &[u32], &[char]) -> ControlFlow<()> + Sync,
    {
        self.drive_with(share, threads, budget, init, |acc, prefixes, next, b| {
            self.engine.run(prefixes, next, b, labels, &mut |ids, drawn| on_found(acc, ids, drawn))
        })
    }

    /// Runs `job` on each worker over the prefixes of `share` (see [`Tiler::drive`]): it takes
    /// the worker's accumulator, the prefixes, the next prefix to search, and its budget.
    fn drive_with<A, I, J>(
        &self,
        share: Option<Share<'_>>,
        threads: usize,
        budget: &Budget,
        init: I,
        job: J,
    ) -> (Vec<A>, Outcome)
    where
        A: Send,
        I: Fn() -> A + Sync,
        J: Fn(&mut A, &[Vec<u32>], &dyn Fn() -> Option<usize>, &mut Budget) -> Outcome + Sync,
    {
        if !self.plan.area_fits() {
            return (vec![init()], Outcome::Complete);
        }
        let whole;
        let Share { prefixes, progress, .. } = match share {
            Some(share) => share,
            None => {
                whole = if threads > 1 { self.engine.prefixes(threads * 48) } else { vec![Vec::new()] };
                Share { prefixes: &whole, progress: None, fixed: true }
            }
        };
        if let Some(p) = progress {
            p.start(prefixes.len());
        }
        // Workers take the next prefix as they become free.
        let cursor = AtomicUsize::new(0);
        // A private cancel flag: a visitor that stops one worker stops them all.
        let budget = budget.fork();
        let workers = threads.max(1).min(prefixes.len()).max(1);
        let stopped = Mutex::new(None::<StopReason>);
        let work = |acc: &mut A, _: usize, b: &mut Budget| {
            // Engines ask for the next prefix once they are done with the one they hold.
            let holding = std::cell::Cell::new(false);
            let next = || {
                if holding.replace(true)
                    && let Some(p) = progress
                {
                    p.finished_one();
                }
                let k = cursor.fetch_add(1, Ordering::Relaxed);
                (k < prefixes.len()).then_some(k)
            };
            let outcome = job(acc, prefixes, &next, b);
            if let Outcome::Stopped(r) = outcome {
                let mut s = stopped.lock().unwrap_or_else(|e| e.into_inner());
                // Keep the root cause, not the cancellations it caused.
                if s.is_none() || *s == Some(StopReason::Cancelled) {
                    *s = Some(r);
                }
                b.cancel();
            }
            true
        };
        // One worker on a shallow search runs on this thread: starting a thread with a deep
        // stack is a cost that small puzzles notice.
        let depth: u32 = self.plan.types.iter().map(|t| t.count).sum();
        let accs = if workers == 1 && depth <= SHALLOW {
            let mut acc = init();
            work(&mut acc, 0, &mut budget.worker());
            vec![acc]
        } else {
            split_work(workers, workers, &budget, &init, work)
        };
        let outcome = match stopped.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(r) => Outcome::Stopped(r),
            None => Outcome::Complete,
        };
        (accs, outcome)
    }

    fn found(&self, ids: &[u32]) -> Found<'_> {
        let n = self.plan.len();
        let (mut types, mut raw) = (vec![0u16; n], vec![0u32; n]);
        for (piece, &id) in ids.iter().enumerate() {
            let p = &self.plan.placements[id as usize];
            for &c in self.plan.cells_of(p) {
                types[c as usize] = p.ty as u16;
                raw[c as usize] = piece as u32;
            }
        }
        Found { sol: Solution::new(types, &raw), reps: self.reps(ids) }
    }

    /// The symmetries that map a tiling found by the engine to the tilings it stands for (the
    /// fast engine restricts one piece to break the board's symmetry).
    fn reps(&self, ids: &[u32]) -> &[u8] {
        self.restricted(ids).and_then(|id| self.plan.reps_of(id)).unwrap_or(&IDENTITY)
    }

    /// The kept placement of the restricted piece in a tiling found by the engine, if the
    /// engine restricts one (the fast engine does, when the board has symmetries).
    fn restricted(&self, ids: &[u32]) -> Option<usize> {
        if !matches!(self.kind, EngineKind::Fast | EngineKind::Constrained) {
            return None;
        }
        ids.iter().map(|&id| id as usize).find(|&id| self.plan.reps_of(id).is_some())
    }

    /// The image of a tiling under symmetry `g`.
    fn image(&self, s: &Solution, g: u8) -> Solution {
        if g == 0 {
            return s.clone();
        }
        let (perm, map) = (&self.plan.symmetries[g as usize], &self.plan.type_maps[g as usize]);
        let (mut types, mut raw) = (vec![0u16; s.types.len()], vec![0u32; s.types.len()]);
        for k in 0..s.types.len() {
            types[perm[k] as usize] = map[s.types[k] as usize];
            raw[perm[k] as usize] = s.pieces[k];
        }
        Solution::new(types, &raw)
    }

    fn is_smallest_of_class(&self, s: &Solution) -> bool {
        (1..self.plan.symmetries.len()).all(|g| *s <= self.image(s, g as u8))
    }
}

/// Buffers for finding the symmetries that map a tiling to itself, kept by each worker.
#[derive(Default)]
struct Fixed {
    /// The piece (index into the tiling's placements) of every board cell.
    piece_of: Vec<u32>,
    /// The type of the piece of every board cell.
    ty_of: Vec<u16>,
    /// Under one symmetry: the piece that each piece's cells go to (`u32::MAX`: not seen yet).
    image: Vec<u32>,
}

impl Fixed {
    /// Number of the plan's symmetries that map the tiling of plan placements `ids` to itself
    /// (as [`Tiler::image`] would find, without making any image): `g` does iff the cells of
    /// each piece go to the cells of one piece, of the type `g` maps the first one's type to (a
    /// reflection may swap a chiral piece with its mirror image). Then `g` maps pieces to
    /// pieces: as a bijection of cells it reaches every piece, so no two pieces go to one.
    ///
    /// `keepers`: the symmetries other than the identity that keep the tiling's restricted
    /// piece in place, if it has one (that piece has one copy, of a type every symmetry keeps,
    /// so only those can map the tiling to itself); `None`: every symmetry is tested.
    fn stabiliser(&mut self, plan: &Plan, ids: &[u32], keepers: Option<&[u8]>) -> u64 {
        let candidates: &mut dyn Iterator<Item = usize> = match keepers {
            // Most tilings: only the identity keeps the restricted piece in place.
            Some([]) => return 1,
            Some(gs) => &mut gs.iter().map(|&g| usize::from(g)),
            None => &mut (1..plan.symmetries.len()),
        };
        self.piece_of.resize(plan.len(), 0);
        self.ty_of.resize(plan.len(), 0);
        for (k, &id) in ids.iter().enumerate() {
            let placement = &plan.placements[id as usize];
            for &c in plan.cells_of(placement) {
                self.piece_of[c as usize] = k as u32;
                self.ty_of[c as usize] = placement.ty as u16;
            }
        }
        // The identity comes first. Most symmetries send some cell to a cell of another type
        // than the one they map its type to, most often the first cell: that test needs no
        // buffer to clear (a fifth of a count of tetracubes in 2x4x4 went here before).
        let mut fixed = 1;
        for (perm, map) in candidates.map(|g| (&plan.symmetries[g], &plan.type_maps[g])) {
            let ty_of = &self.ty_of;
            let types_go = ty_of.iter().zip(perm).all(|(&t, &to)| map[usize::from(t)] == ty_of[to as usize]);
            fixed += u64::from(types_go && self.pieces_go(perm, ids.len()));
        }
        fixed
    }

    /// Whether the symmetry `perm` sends the cells of each of the `n` pieces to the cells of
    /// one piece.
    fn pieces_go(&mut self, perm: &[u32], n: usize) -> bool {
        self.image.clear();
        self.image.resize(n, u32::MAX);
        let (piece_of, image) = (&self.piece_of, &mut self.image);
        piece_of.iter().zip(perm).all(|(&p, &to)| {
            let q = piece_of[to as usize];
            match image[p as usize] {
                u32::MAX => {
                    image[p as usize] = q;
                    true
                }
                seen => seen == q,
            }
        })
    }
}

/// Whether the board is a solid of cubes or prisms (more than one layer), where the front that
/// the first free cell walks is a whole cross-section and the other order may win; on flat
/// boards the front is a line, and filling its first cell is hard to beat.
fn solid(plan: &Plan) -> bool {
    let z = plan.cells.iter().map(|c| c.z);
    matches!(plan.lattice, Lattice::Cube | Lattice::Prism) && z.clone().min() != z.max()
}

/// The fast engine with the smallest cell-set representation that holds the board.
fn fast_engine(plan: &Plan, stop: &mut dyn Stop, constrained: bool) -> Option<Box<dyn Engine>> {
    fn boxed<B: CellBits + 'static>(f: Option<Fast<B>>, constrained: bool) -> Option<Box<dyn Engine>>
    where
        Fast<B>: Engine,
    {
        f.map(|f| Box::new(f.constrained(constrained)) as Box<dyn Engine>)
    }
    let c = constrained;
    match plan.nbits {
        0..=64 => boxed(Fast::<Bitboard>::new(plan, stop), c),
        65..=128 => boxed(Fast::<WideBits<2>>::new(plan, stop), c),
        129..=192 => boxed(Fast::<WideBits<3>>::new(plan, stop), c),
        193..=256 => boxed(Fast::<WideBits<4>>::new(plan, stop), c),
        257..=512 => boxed(Fast::<WideBits<8>>::new(plan, stop), c),
        513..=1024 => boxed(Fast::<WideBits<16>>::new(plan, stop), c),
        1025..=2048 => boxed(Fast::<WideBits<32>>::new(plan, stop), c),
        _ => boxed(Fast::<WideBits<64>>::new(plan, stop), c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiler::problem::{PieceSpec, from_pictures};
    use tessera_core::geometry::{Coord, Lattice};

    /// Counting by subtree counts, with the classes by Burnside's lemma, agrees with dancing
    /// links, which visits every tiling and asks it for its stabiliser: dominoes and an L
    /// tromino pair on square boards, lozenges in a triangle-lattice hexagon, two-cell pieces on
    /// a hex board, and dimers in a cube (boards with many symmetric tilings).
    #[test]
    fn counts_by_subtree_counts_agree_with_visits() {
        let cube: Vec<Coord> = (0..8).map(|k| Coord::at(k & 1, k >> 1 & 1, k >> 2)).collect();
        let dimer = [Coord::at(0, 0, 0), Coord::at(1, 0, 0)];
        let problems = [
            from_pictures(Lattice::Square, "####\n####\n####\n####", &[('D', 8, true, "##")]),
            from_pictures(Lattice::Square, "#####\n#####\n#####", &[('D', 6, true, "##"), ('L', 1, true, "#.\n##")]),
            from_pictures(Lattice::Triangle, "..#####.\n.#######\n.#######\n..#####.", &[('Z', 12, true, "##")]),
            from_pictures(Lattice::Hex, ". # # # .\n # # # #\n. # # # .", &[('D', 5, true, "# #")]),
            Ok(Problem::new(Lattice::Cube, cube, vec![PieceSpec::new('D', dimer.to_vec(), 4, true)])),
        ];
        for problem in problems {
            let problem = problem.unwrap();
            let fast = Tiler::with_engine(&problem, EngineKind::Fast).unwrap();
            let by_counts = fast.tally_by_counts(None, 1, &Budget::unlimited()).expect("copies: counted by subtrees");
            let dlx = Tiler::with_engine(&problem, EngineKind::Dlx).unwrap().count(1, &Budget::unlimited());
            assert!(by_counts.raw > 1 && fast.symmetries() > 1, "{problem:?}");
            assert_eq!((by_counts.raw, by_counts.numerator / fast.symmetries() as u128), (dlx.raw, dlx.distinct));
            assert!(by_counts.sample.is_some());
        }
    }

    /// Dominoes on a 2 x n strip tile it in Fibonacci(n + 1) ways, and the reflection in the
    /// long axis fixes as many, so that `|G|` times the classes is over twice the raw count:
    /// 2 x 93 (whose raw count needs 65 bits) and 2 x 182 (127 bits) are counted exactly, and
    /// 2 x 186 (129 bits) says that it overflowed.
    #[test]
    fn counts_past_64_bits_are_exact_and_past_128_say_so() {
        let strip = |n: usize| {
            let problem =
                from_pictures(Lattice::Square, &vec!["#".repeat(n); 2].join("\n"), &[('D', n as u32, true, "##")]);
            Tiler::new(&problem.unwrap()).unwrap().count(1, &Budget::unlimited())
        };
        let fib = |n: usize| (0..n).fold((0u128, 1u128), |(a, b), _| (b, a.wrapping_add(b))).0;
        for n in [90, 93, 182] {
            let fits = strip(n);
            assert_eq!((fits.raw, fits.outcome), (fib(n + 1), Outcome::Complete), "2 x {n}");
            assert!(fits.distinct > fits.raw / 2, "the reflection in the long axis fixes every tiling");
        }
        assert!(fib(94) > u128::from(u64::MAX));
        assert_eq!(strip(186).outcome, Outcome::Stopped(StopReason::Overflow));
    }

    #[test]
    fn building_the_tables_stops_with_the_budget() {
        // 1024 cells of board and 4096 placements of a lone cell: the tables take a while.
        let board = vec!["#".repeat(32); 32].join("\n");
        let problem = from_pictures(Lattice::Square, &board, &[('x', 1024, true, "#")]).unwrap();
        let spent = Budget::unlimited().with_time(std::time::Duration::ZERO);
        assert!(matches!(Tiler::within(&problem, EngineKind::Fast, &spent), Err(TilingError::Stopped(_))));
        assert!(Tiler::within(&problem, EngineKind::Fast, &Budget::unlimited()).is_ok());
    }
}
