//! The fast engine's second search order: the most constrained cell or piece first.
//!
//! Filling the first free cell walks a front across the board. In a box of cubes that front is
//! a whole cross-section, and the first free cell of it is seldom the hardest to cover: a corner
//! behind a big piece may have one placement left while the search branches ten ways elsewhere.
//! Dancing links (BurrTools counts this way) branches on the item with the fewest options; this
//! search does the same over the fast engine's masks.
//!
//! A node holds the list of placements that fit it (its *candidates*, stacked per depth). It
//! counts, for every free cell, the candidates that cover it, in bit-sliced counters (one mask
//! per bit of the count, added to like a binary adder: a handful of mask operations a candidate,
//! whatever its size), and for every type its candidates. Then it branches on
//!
//! * the free cell with the fewest candidates (none: the node is dead), or
//! * a type with one copy left that has still fewer placements (none: dead); a type with `k`
//!   copies left and fewer than `k` placements is dead too.
//!
//! A child's candidates are its parent's minus those that meet the placement just made (and
//! those of a type whose copies are used up). States known to hold no tiling are remembered, as
//! in the first-cell search: what remains below a node depends only on the covered cells and the
//! copies used.
//!
//! The counters hold 0 to 7 exactly and "8 or more" (a sticky fourth bit). A node where every
//! free cell and piece has eight candidates or more (near the root) branches on the piece with
//! one copy left that has the fewest, counted exactly (on pack-11-4 that took the tree from 7.3
//! to 1.9 million nodes), and fills its first free cell if there is none. Work for threads and
//! shards is split by this order's own first levels ([`Fast::prefixes_mrv`]).
//!
//! Which order a count takes by default is decided before it starts, from random paths through
//! both trees (Knuth's estimator, see [`Estimate`]): this order where it is predicted to be
//! several times faster.

use std::ops::{BitAnd, BitOr, BitXor, ControlFlow, Not};

use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, POLL_INTERVAL, Stop, StopReason};

use crate::bits::CellBits;
use crate::tiler::engine::Visit;
use crate::tiler::fast::{Fast, MAX_TYPES};
use crate::tiler::memo::Memo;
use crate::tiler::search::split;

/// Counts in bit slices: item `b` (a cell, or a type) has bit `b` of `c[0..3]` as a three-bit
/// count, and at least 8 if bit `b` of `c[3]` is set (the low bits then wrap).
#[derive(Clone, Copy, Default)]
struct Counters<T> {
    c: [T; 4],
}

impl<T: Copy + BitAnd<Output = T> + BitOr<Output = T> + BitXor<Output = T> + Not<Output = T>> Counters<T> {
    /// Adds one to the count of every item of `m` (a ripple through the slices).
    #[inline(always)]
    fn add(&mut self, m: T) {
        let mut carry = m;
        for k in 0..3 {
            let next = self.c[k] & carry;
            self.c[k] = self.c[k] ^ carry;
            carry = next;
        }
        self.c[3] = self.c[3] | carry;
    }

    /// The items of `within` with exactly `v` (below 8).
    #[inline(always)]
    fn exactly(&self, v: u32, within: T) -> T {
        let mut set = within & !self.c[3];
        for k in 0..3 {
            set = set & if v >> k & 1 != 0 { self.c[k] } else { !self.c[k] };
        }
        set
    }
}

/// A candidate: a placement's mask, type and index, copied into the node's list (so that the
/// hot loops read the lists in order, with no lookups).
#[derive(Clone, Copy, Default)]
struct Entry<B> {
    mask: B,
    ty: u8,
    i: u32,
}

/// A node's candidates counted, by cell and by type.
#[derive(Clone, Copy, Default)]
struct Tally<B> {
    cells: Counters<B>,
    types: Counters<u64>,
}

impl<B: CellBits> Tally<B> {
    /// Counts a candidate (`keep`) or not (hot: no branch).
    #[inline(always)]
    fn add(&mut self, e: &Entry<B>, keep: bool) {
        self.cells.add(if keep { e.mask } else { B::empty() });
        self.types.add(u64::from(keep) << (e.ty % 64));
    }

    /// How many candidates type `ty` has (8 standing for 8 or more).
    fn of_type(&self, ty: usize) -> u32 {
        let c = &self.types.c;
        if c[3] >> ty & 1 != 0 { 8 } else { (0..3).map(|k| ((c[k] >> ty & 1) as u32) << k).sum() }
    }
}

/// What a node branches on.
#[derive(Clone, Copy)]
enum Pick {
    /// The placements that cover this bit.
    Cell(usize),
    /// The placements of this type.
    Type(u8),
}

impl Pick {
    /// Whether a node that branches on this takes candidate `e` as a branch.
    #[inline(always)]
    fn takes<B: CellBits>(self, e: &Entry<B>) -> bool {
        match self {
            Pick::Cell(b) => e.mask.contains(b),
            Pick::Type(ty) => e.ty == ty,
        }
    }
}

/// What random paths from the root say of a search tree (Knuth's estimator: each path's nodes
/// weighted by the product of the branching factors above them; the mean is unbiased, though a
/// tree whose work hides in rare deep subtrees is mostly underestimated by few paths).
///
/// [`Fast::prefers_constrained`] compares the first-cell search's predicted nodes with this
/// order's predicted candidates scanned, each at its typical cost. The first-cell estimate
/// knows its pockets but not its dead states, subtree counts or filters of the last pieces, so
/// it overstates that search, most where pieces have copies; the margin asks for a clear win.
/// Made and tuned on development packings (`scripts/random-xmpuzzle pack` seeds 1, 2, 7, 11,
/// 13 and 21, BurrTools' examples, and seed 17 once it had been measured): this order ran 2.4
/// to 6 times faster where first-cell nodes were 0.23 scans or more with 300 paths (0.32 on
/// pack-7-6, 0.23 on pack-13-6); none of the packings it runs slower came above 0.10, and with
/// the paths the choice takes, above 0.073. With 64 paths pack-7-6 came out at 0.175.
#[derive(Clone, Copy, Debug, Default)]
struct Estimate {
    /// Nodes, and candidates scanned (a node of this order scans its parent's list).
    nodes: f64,
    scans: f64,
    /// Paths taken, and the candidates they scanned (what the estimate cost).
    paths: u32,
    work: u64,
}

/// Paths of the first look at the first-cell tree, which says whether the puzzle is big enough
/// to estimate further (64 cost a 5 ms count a fifth more; 16, 4%).
const FIRST_PATHS: u32 = 16;
/// First-cell trees predicted smaller than this are searched first-cell without more ado
/// (about 10 ms).
const TINY_NODES: f64 = 5e4;
/// A first-cell node's typical cost, and a candidate scanned in this order (nanoseconds;
/// measured on the development packings: 0.1 to 0.6 µs a node, 6 to 12 ns a candidate).
const FAST_NODE_NS: f64 = 150.0;
const SCAN_NS: f64 = 8.0;
/// The part of the first-cell search's predicted time the estimates may take, and their most
/// candidates scanned (about 40 ms); each order gets at least [`MIN_PATHS`] paths anyway
/// (pack-1-3's ratio of first-cell nodes to scans came out 1.4 from 6 paths, 0.015 from 300;
/// pack-13-6's 0.08 from 18).
const ESTIMATE_SHARE: f64 = 0.05;
const MAX_ESTIMATE_SCANS: f64 = 5e6;
const MIN_PATHS: u32 = 64;
/// Most candidates one estimate scans, however few its paths (about 80 ms: puzzles of
/// hundreds of pieces, whose paths are long, keep the first free cell).
const MAX_ESTIMATE_WORK: u64 = 10_000_000;
/// How many times faster this order must be predicted to be (first-cell nodes at least 0.133
/// scans).
const MARGIN: f64 = 2.5;
/// The estimates' random paths are drawn from this seed (and the next two).
const ESTIMATE_SEED: u64 = 0x6d72_7600;

/// One worker's search in the most-constrained-first order (see the module's text).
pub(super) struct Mrv<'a, B> {
    t: &'a Fast<B>,
    /// Copies left of each type.
    counts: [u32; MAX_TYPES],
    /// The types with exactly one copy left, and those with more.
    one_left: u64,
    more_left: u64,
    /// Packed copies used (the dead states' key).
    used: u64,
    /// The candidates of every node on the current path, stacked in `cand[..top]` (a buffer
    /// that only grows: a child's list is written past its parent's without clearing first).
    cand: Vec<Entry<B>>,
    top: usize,
    /// The placements each node on the current path branches on, stacked.
    branch: Vec<Entry<B>>,
    /// The placements made, root first.
    path: Vec<u32>,
    /// States known to hold no tiling (when copies used pack into a word).
    dead: Option<Memo<(B, u64), u8>>,
    nodes: u64,
    found: u64,
    ids: Vec<u32>,
    labels: Option<&'a [char]>,
    board: Vec<char>,
}

impl<'a, B: CellBits> Mrv<'a, B> {
    /// A search over `t`'s tables, drawing tilings with `labels` if given; `remember`: keep a
    /// table of dead states (a search does; splitting into prefixes reads none).
    fn new(t: &'a Fast<B>, labels: Option<&'a [char]>, remember: bool) -> Self {
        Mrv {
            t,
            counts: [0; MAX_TYPES],
            one_left: 0,
            more_left: 0,
            used: 0,
            cand: Vec::new(),
            top: 0,
            branch: Vec::new(),
            path: Vec::with_capacity(t.pieces),
            dead: t.used_bits.filter(|_| remember).map(|_| Memo::new(t.dead_log2)),
            nodes: 0,
            found: 0,
            ids: Vec::new(),
            labels,
            board: if labels.is_some() { vec![' '; t.cells] } else { Vec::new() },
        }
    }

    /// Sets the masks of types by copies left after type `ty`'s count changed.
    #[inline(always)]
    fn recount(&mut self, ty: usize) {
        let bit = 1u64 << ty;
        let left = self.counts[ty];
        self.one_left = if left == 1 { self.one_left | bit } else { self.one_left & !bit };
        self.more_left = if left > 1 { self.more_left | bit } else { self.more_left & !bit };
    }

    /// Searches below a prefix.
    fn start(&mut self, prefix: &[u32], visit: &mut Visit<'_>, budget: &mut Budget) -> ControlFlow<StopReason> {
        let (occ, tally) = self.set_up(prefix);
        self.node(occ, 0, &tally, visit, budget)
    }

    /// The placements the node after `prefix` branches on (empty if it is dead), or `None` if
    /// the prefix fills the board.
    fn branches(&mut self, prefix: &[u32]) -> Option<Vec<u32>> {
        let (occ, tally) = self.set_up(prefix);
        let free = !occ;
        if free.is_empty() {
            return None;
        }
        let Some(pick) = self.pick(free, 0, &tally) else { return Some(Vec::new()) };
        let hits = self.cand[..self.top].iter().filter(|e| pick.takes(e));
        Some(hits.map(|e| e.i).collect())
    }

    /// Makes the node after `prefix` the root: its copies left, its candidates (the search's
    /// first list) and their tally; returns its occupancy and tally.
    fn set_up(&mut self, prefix: &[u32]) -> (B, Tally<B>) {
        let t = self.t;
        let mut occ = t.start;
        self.counts = [0; MAX_TYPES];
        self.counts[..t.counts.len()].copy_from_slice(&t.counts);
        self.used = 0;
        self.path.clear();
        for &i in prefix {
            let ty = usize::from(t.tys[i as usize]);
            occ |= t.masks[i as usize];
            self.counts[ty] -= 1;
            self.used += t.units[ty];
            self.path.push(i);
        }
        for ty in 0..t.counts.len() {
            self.recount(ty);
        }
        self.cand.clear();
        let mut tally = Tally::default();
        for (i, (&mask, &ty)) in t.masks.iter().zip(&t.tys).enumerate() {
            if self.counts[usize::from(ty)] > 0 && !mask.intersects(occ) {
                let e = Entry { mask, ty, i: i as u32 };
                self.cand.push(e);
                tally.add(&e, true);
            }
        }
        self.top = self.cand.len();
        (occ, tally)
    }

    /// Searches below a node whose candidates are `self.cand[from..]`, counted in `tally`.
    fn node(
        &mut self,
        occ: B,
        from: usize,
        tally: &Tally<B>,
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        let free = !occ;
        if free.is_empty() {
            return self.leaf(visit);
        }
        let key = (occ, self.used);
        let hash = occ.digest() ^ self.used.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if self.dead.as_ref().is_some_and(|d| d.get(key, hash).is_some()) {
            return ControlFlow::Continue(());
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && budget.should_stop(POLL_INTERVAL) {
            return ControlFlow::Break(budget.reason().unwrap_or(StopReason::Cancelled));
        }
        let Some(pick) = self.pick(free, from, tally) else {
            return ControlFlow::Continue(());
        };
        // The placements to branch on, stacked (the children's lists go on `cand`).
        let base = self.branch.len();
        let end = self.top;
        for e in &self.cand[from..end] {
            if pick.takes(e) {
                self.branch.push(*e);
            }
        }
        let found_before = self.found;
        let mut flow = ControlFlow::Continue(());
        for k in base..self.branch.len() {
            let e = self.branch[k];
            flow = self.child(occ, (from, end), e, visit, budget);
            if flow.is_break() {
                break;
            }
        }
        self.branch.truncate(base);
        if flow.is_continue()
            && self.found == found_before
            && let Some(d) = self.dead.as_mut()
        {
            d.put(key, hash, 1);
        }
        flow
    }

    /// Places candidate `e` of a node (candidates `cand[from..end]`) and searches below.
    #[inline]
    fn child(
        &mut self,
        occ: B,
        (from, end): (usize, usize),
        e: Entry<B>,
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        let t = self.t;
        let ty = usize::from(e.ty);
        self.counts[ty] -= 1;
        self.recount(ty);
        self.used += t.units[ty];
        self.path.push(e.i);
        // A type used up: its placements go (compared by type; with copies left, by a type no
        // entry has).
        let gone = if self.counts[ty] == 0 { e.ty } else { u8::MAX };
        // Hot: the child's candidates, the parent's that miss the placement, each written
        // whether kept or not (no branch to mispredict), and tallied.
        let at = self.top;
        if self.cand.len() < at + (end - from) {
            self.cand.resize(at + (end - from), Entry::default());
        }
        let (head, child) = self.cand.split_at_mut(at);
        let (mut w, mut tally) = (0, Tally::default());
        for p in &head[from..end] {
            let keep = ((p.mask & e.mask) == B::empty()) & (p.ty != gone);
            if let Some(slot) = child.get_mut(w) {
                *slot = *p;
            }
            w += usize::from(keep);
            tally.add(p, keep);
        }
        self.top = at + w;
        let flow = self.node(occ | e.mask, at, &tally, visit, budget);
        self.top = at;
        self.path.pop();
        self.used -= t.units[ty];
        self.counts[ty] += 1;
        self.recount(ty);
        flow
    }

    /// What a node with free cells `free` and its candidates' `tally` branches on; `None` when
    /// some free cell or some type's copies have too few candidates.
    #[inline]
    fn pick(&self, free: B, from: usize, tally: &Tally<B>) -> Option<Pick> {
        let (cells, types) = (&tally.cells, &tally.types);
        if !cells.exactly(0, free).is_empty() || types.exactly(0, self.one_left | self.more_left) != 0 {
            return None;
        }
        let mut more = self.more_left;
        while more != 0 {
            let ty = more.trailing_zeros() as usize;
            more &= more - 1;
            if tally.of_type(ty) < self.counts[ty].min(8) {
                return None;
            }
        }
        // The fewest candidates: a cell before a type with one copy left with as many.
        for v in 1..8 {
            if let Some(b) = cells.exactly(v, free).lowest() {
                return Some(Pick::Cell(b));
            }
            let ty = types.exactly(v, self.one_left);
            if ty != 0 {
                return Some(Pick::Type(ty.trailing_zeros() as u8));
            }
        }
        // Every cell and type has 8 candidates or more (near the root): the type with one copy
        // left that has the fewest, counted exactly.
        if self.one_left != 0 {
            let mut per_type = [0u32; MAX_TYPES];
            for e in &self.cand[from..self.top] {
                per_type[usize::from(e.ty) % MAX_TYPES] += 1;
            }
            let mut ones = self.one_left;
            let mut best = (u32::MAX, 0);
            while ones != 0 {
                let ty = ones.trailing_zeros() as usize;
                ones &= ones - 1;
                best = best.min((per_type[ty], ty));
            }
            return Some(Pick::Type(best.1 as u8));
        }
        free.lowest().map(Pick::Cell)
    }

    /// One random path from the root (Knuth's estimator), in this search's order or, with
    /// `first_cell`, the first free cell's (a path there dies where the first-cell search's node
    /// would: no candidate for the first free cell, a type with none left, a pocket no pieces
    /// fill). Adds to `sum` the path's nodes (the sum over its depths of the product of the
    /// branching factors above: an unbiased estimate of the tree's nodes), its candidates
    /// scanned weighted likewise (this order's work), and the candidates it scanned itself.
    fn probe(&mut self, first_cell: bool, root: &(B, Tally<B>, usize), rng: &mut Rng64, sum: &mut Estimate) {
        let t = self.t;
        let (mut occ, mut tally) = (root.0, root.1);
        (self.top, self.used) = (root.2, 0);
        self.cand.truncate(root.2);
        self.counts[..t.counts.len()].copy_from_slice(&t.counts);
        (0..t.counts.len()).for_each(|ty| self.recount(ty));
        let (mut from, mut weight) = (0, 1.0);
        sum.nodes += 1.0;
        sum.scans += root.2 as f64;
        loop {
            let free = !occ;
            let Some(low) = free.lowest() else { break };
            let pick = if first_cell {
                let dead = tally.cells.exactly(0, free).contains(low)
                    || tally.types.exactly(0, self.one_left | self.more_left) != 0;
                (!dead).then_some(Pick::Cell(low))
            } else {
                self.pick(free, from, &tally)
            };
            let Some(pick) = pick else { break };
            let end = self.top;
            let hits = self.cand[from..end].iter().filter(|e| pick.takes(e)).count();
            let k = rng.below(hits as u64) as usize;
            let Some(&e) = self.cand[from..end].iter().filter(|e| pick.takes(e)).nth(k) else { break };
            if first_cell && !t.pockets_ok(occ | e.mask, B::empty()) {
                break;
            }
            let ty = usize::from(e.ty);
            self.counts[ty] -= 1;
            self.recount(ty);
            let gone = if self.counts[ty] == 0 { e.ty } else { u8::MAX };
            let mut child = Tally::default();
            for q in from..end {
                let p = self.cand[q];
                let keep = ((p.mask & e.mask) == B::empty()) & (p.ty != gone);
                child.add(&p, keep);
                if keep {
                    self.cand.push(p);
                }
            }
            sum.work += 2 * (end - from) as u64;
            weight *= hits as f64;
            sum.nodes += weight;
            sum.scans += weight * (self.cand.len() - end) as f64;
            (from, self.top, tally, occ) = (end, self.cand.len(), child, occ | e.mask);
        }
        sum.paths += 1;
    }

    /// A tiling: every cell covered.
    fn leaf(&mut self, visit: &mut Visit<'_>) -> ControlFlow<StopReason> {
        self.found += 1;
        self.t.visit_tiling(&self.path, &mut self.ids, self.labels, &mut self.board, visit)
    }
}

impl<B: CellBits> Fast<B> {
    /// [`Engine::prefixes`](crate::tiler::engine::Engine::prefixes) in the most-constrained-first
    /// order: each level branches as the search would (every tiling holds exactly one placement
    /// of a branch, as it covers the cell or is the piece's one copy), so prefixes partition the
    /// tilings and depend only on the puzzle and `min`.
    pub(super) fn prefixes_mrv(&self, min: usize) -> Vec<Vec<u32>> {
        let mut search = Mrv::new(self, None, false);
        split(min, |p| search.branches(p))
    }

    /// Knuth's estimate of the search tree in this search's order or (`first_cell`) the first
    /// free cell's, from random paths (drawn from `seed`): at least `paths` of them, and more
    /// until they have scanned `work` candidates (but never past [`MAX_ESTIMATE_WORK`]).
    fn estimate(&self, first_cell: bool, seed: u64, work: u64, paths: u32) -> Estimate {
        let mut search = Mrv::new(self, None, false);
        let mut rng = Rng64::seed(seed);
        let (occ, tally) = search.set_up(&[]);
        let root = (occ, tally, search.top);
        let mut sum = Estimate::default();
        while (sum.paths < paths || sum.work < work) && sum.work < MAX_ESTIMATE_WORK {
            search.probe(first_cell, &root, &mut rng, &mut sum);
        }
        let n = f64::from(sum.paths.max(1));
        Estimate { nodes: sum.nodes / n, scans: sum.scans / n, ..sum }
    }

    /// Whether a count is predicted to run several times faster in the most-constrained-first
    /// order than filling the first free cell (see [`Estimate`]): [`EngineKind::Auto`]'s
    /// choice. The estimates scan candidates in proportion to the first-cell search's
    /// predicted time (no clock: the choice is the same on every machine, as shards need).
    ///
    /// [`EngineKind::Auto`]: crate::tiler::EngineKind::Auto
    pub(crate) fn prefers_constrained(&self) -> bool {
        // Ranges of copies are searched first-cell anyway; with empty cells a path is a step a
        // cell, and the order has no pruning for them.
        if self.ranged || self.empty.is_some() {
            return false;
        }
        let first = self.estimate(true, ESTIMATE_SEED, 0, FIRST_PATHS);
        if first.nodes < TINY_NODES || first.paths < FIRST_PATHS {
            return false;
        }
        let fast_ns = first.nodes * FAST_NODE_NS;
        let work = (fast_ns * ESTIMATE_SHARE / SCAN_NS).min(MAX_ESTIMATE_SCANS) as u64;
        let first = self.estimate(true, ESTIMATE_SEED + 1, work / 2, MIN_PATHS);
        let mrv = self.estimate(false, ESTIMATE_SEED + 2, work / 2, MIN_PATHS);
        // Too few paths (a huge tree whose paths are long) say too little.
        first.paths.min(mrv.paths) >= MIN_PATHS && first.nodes * FAST_NODE_NS >= MARGIN * mrv.scans * SCAN_NS
    }

    /// [`Engine::run`](crate::tiler::engine::Engine::run) in the most-constrained-first order
    /// (without ranges of copies).
    pub(super) fn run_mrv(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome {
        debug_assert!(!self.ranged);
        let mut search = Mrv::new(self, labels, true);
        while let Some(k) = next() {
            if budget.expired() {
                return Outcome::Stopped(budget.reason().unwrap_or(StopReason::Cancelled));
            }
            if let ControlFlow::Break(r) = search.start(&prefixes[k], visit, budget) {
                return Outcome::Stopped(r);
            }
        }
        Outcome::Complete
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bitboard;
    use crate::tiler::plan::Plan;
    use crate::tiler::problem::from_pictures;
    use tessera_core::geometry::Lattice;

    /// The mean of many random paths comes near the tree's true size: the nodes that a search
    /// without dead states goes through (tetrominoes in a 5x8 box with a notch, so that dead
    /// ends abound).
    #[test]
    fn random_paths_estimate_the_tree_they_walk() {
        let board = "########\n########\n########\n########\n####....";
        let pieces = [
            ('I', 2, true, "####"),
            ('L', 2, true, "#.\n#.\n##"),
            ('T', 2, true, "###\n.#."),
            ('S', 3, true, ".##\n##."),
        ];
        let plan = Plan::new(&from_pictures(Lattice::Square, board, &pieces).unwrap());
        let fast = Fast::<Bitboard>::new(&plan, &mut Budget::unlimited().worker()).unwrap();
        let mut search = Mrv::new(&fast, None, false);
        let flow = search.start(&[], &mut |_, _| ControlFlow::Continue(()), &mut Budget::unlimited());
        assert!(flow.is_continue() && search.found > 0);
        let truth = (search.nodes + search.found) as f64;
        let estimate = fast.estimate(false, 7, 0, 5_000);
        assert_eq!(estimate.paths, 5_000);
        assert!((estimate.nodes / truth - 1.0).abs() < 0.1, "{} nodes estimated, {truth} walked", estimate.nodes);
        // The same paths for the same seed: the choice is the same on every machine.
        assert_eq!(fast.estimate(false, 7, 0, 500).nodes, fast.estimate(false, 7, 0, 500).nodes);
        assert!(!fast.prefers_constrained(), "a tree of {truth} nodes is too small to estimate");
    }

    /// The bit-sliced counters hold each item's count exactly below 8, and "8 or more" above.
    #[test]
    fn counters_count_each_item_up_to_eight() {
        let mut rng = Rng64::seed(3);
        for _ in 0..200 {
            let (mut counters, mut counts) = (Counters::<u64>::default(), [0u32; 64]);
            for _ in 0..rng.below(24) {
                let m = rng.next_u64() & rng.next_u64();
                counters.add(m);
                (0..64).filter(|b| m >> b & 1 != 0).for_each(|b| counts[b] += 1);
            }
            for v in 0..8 {
                let want = (0..64).filter(|&b| counts[b] == v).fold(0u64, |a, b| a | 1 << b);
                assert_eq!(counters.exactly(v, !0), want, "count {v}");
            }
            let eight = (0..64).filter(|&b| counts[b] >= 8).fold(0u64, |a, b| a | 1 << b);
            assert_eq!(counters.c[3], eight);
        }
    }
}
