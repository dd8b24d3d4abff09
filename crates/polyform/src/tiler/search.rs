//! The fast engine's depth-first search: fill the first free cell, with bit masks.
//!
//! The board is one bit mask ([`CellBits`]: one word up to 64 cells, several beyond), laid out in
//! lines along its shorter side (see [`crate::tiler::plan`]). Every placement is a mask, filed under its
//! lowest bit. At each node the search takes the first free cell `f`: every placement that can
//! cover it has `f` as its lowest bit (all lower cells are covered), so the candidates are the
//! placements filed under `f` that fit, found by table lookups ([`FitTables`](crate::tiler::fit::FitTables)) as the bits of a
//! set. A node gathers its children's candidates before calling them: a child with none is never
//! called.
//!
//! Five prunings:
//! * *Pockets.* The lines that no placed piece touches yet are open. A flood from the open lines
//!   walks back into the few lines the placed pieces reach; every free cell it cannot reach is in
//!   a closed pocket, whose size must be a sum of piece sizes. Placements that close off such a
//!   pocket on the empty board are dropped before the search starts. With the last three pieces
//!   the check is skipped (it costs more than it saves there).
//! * *Dead states.* What remains to do below a node depends only on the covered cells and the
//!   copies used, not on the path; a table remembers states whose subtree held no tiling (see
//!   [`DeadStates`], keyed by the first free cell and the bits after it when they are few). It
//!   is read in every call above the last three pieces, after the pocket check.
//! * *Pieces with nowhere to go.* Above the last three pieces, a node where some type whose
//!   copies must still be placed has no placement that fits is cut (each type remembers the
//!   placement that fitted last, which mostly still does). Deep in a box that cuts many nodes;
//!   on a flat board mostly nodes that would have died at once anyway, so each depth keeps the
//!   check only while it pays, as measured on the nodes it would have cut (see [`Gate`]).
//! * *The last two (three) pieces* (in enumerations). At a node with three (four) pieces left, a
//!   candidate whose free cells start in the band of a filter of the regions that pairs
//!   (triples) of placements tile is placed only if the filter lets them through (see
//!   [`RegionFilter`]): one load instead of a placement, a call and two (three) more levels of
//!   search. The filter of triples is made only when the band's triples are few. The filters
//!   come in once the search has visited about as many nodes as they cost to make.
//!
//! The two tables are read at a random slot at nearly every node. Once they outgrow the nearer
//! caches, a node gathers its children that have a placement that fits and prefetches their
//! slots before searching the first (see [`Run::gather`]), so those loads overlap.

use std::ops::ControlFlow;

use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, POLL_INTERVAL, Stop, StopReason, Verdict};

use crate::bits::CellBits;
use crate::tiler::engine::{Engine, Leaves, Visit};
use crate::tiler::fast::{DEAD_BYTES, Fast, MAX_TYPES, avail_of};
use crate::tiler::memo::{DeadStates, PocketResults, SubtreeCounts, Window};
use crate::tiler::pairs::RegionFilter;

/// With this many pieces left or fewer, the pocket check is skipped: the candidate scans and the
/// filter of pairs find a dead end for less than the check costs.
const NO_POCKETS_LEFT: usize = 3;

/// With this many pieces left or fewer, dead states are neither read nor written: below, the
/// filter of pairs does the work in one load, and the table stays small for the nodes above.
const NO_DEAD_LEFT: usize = 3;

// A child with three pieces left goes straight to the filter of pairs (see `Run::child`): that is
// right only while such a node has no pocket check or dead state of its own.
const _: () = assert!(NO_POCKETS_LEFT >= 3 && NO_DEAD_LEFT >= 3);

/// Log2 of the largest number of pocket-check results a search starts with (the table grows as
/// the search meets more, up to [`POCKETS_BYTES`]).
const POCKETS_LOG2: u32 = 14;

/// Most memory of one search's pocket-check results, grown.
const POCKETS_BYTES: usize = 8 << 20;

/// Where the search below a child starts: `None` if it fills the board, else its first free
/// cell, first chunk with a fitting placement and the fitting placements in it.
type Start = Option<(usize, usize, u128)>;

/// What looking for somewhere one type fits costs, in nodes of the search (measured in
/// instructions on development puzzles: a node 600 to 1,500, a type looked for about 60).
const PROBE_COST: f64 = 0.25;

/// A depth where the check does not run still runs it at one node in this many, to see whether
/// it would pay there now.
const GATE_SAMPLE: u64 = 64;

/// Depths (pieces placed) where the check may run.
const GATES: usize = 64;

/// Checks at a depth between two decisions whether it runs there.
const GATE_REVIEW: u64 = 256;

/// One node in this many that the check would cut is searched anyway (a shadow), to see what
/// cutting such nodes saves.
const SHADOW: u64 = 16;

/// What the check that every type fits somewhere says of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// Every type has somewhere to go.
    Fits,
    /// Some type has none: cut the node.
    Cut,
    /// Some type has none, but search the node anyway and count its nodes (see [`SHADOW`]).
    Shadow,
}

/// At one depth of the search: what the check that every type whose copies must still be
/// placed fits somewhere has found there. Deep in a box the check cuts many nodes (a big piece
/// with nowhere left to go); on a flat board it cuts nodes that would have died at once, and
/// costs more than it saves: each depth keeps the check while the nodes it cut would have cost
/// more than it did, as its shadows measure.
#[derive(Clone, Debug, Default)]
struct Gate {
    /// Checks run, types looked for, and nodes the check would cut.
    checks: u64,
    probes: u64,
    cuts: u64,
    /// Shadows searched, and the nodes they took.
    shadows: u64,
    shadow_nodes: u64,
}

impl Gate {
    /// A shadow searched, in `nodes` nodes below it.
    fn shadowed(&mut self, nodes: u64) {
        self.shadows += 1;
        self.shadow_nodes += nodes + 1;
    }
}

/// The state of one depth-first search.
pub(super) struct Run<'a, B, const ONE: bool, const RANGED: bool> {
    t: &'a Fast<B>,
    counts: [u32; MAX_TYPES],
    /// Bit `t` set iff type `t` has copies left.
    avail: u64,
    /// Bit `t` set iff type `t` has copies that must still be placed (with `RANGED`; without,
    /// it is `avail`: see [`Run::need`]).
    need: u64,
    /// Packed copies used per type, part of the key of [`DeadStates`] (0 if counts do not pack).
    used: u64,
    /// States known to hold no tiling (when copies used pack into a word).
    dead: Option<DeadStates<B>>,
    /// Pocket-check results by the occupancy of the lines that are not open.
    pockets: PocketResults<B>,
    /// The placements on the current path: `path[..placed]`.
    path: Vec<u32>,
    placed: usize,
    /// With `shuffle`: the candidates of every node on the current path, stacked.
    cand: Vec<u32>,
    /// Nodes that prefetch: the children of every such node on the current path, stacked.
    kids: Vec<(u32, Start)>,
    ids: Vec<u32>,
    nodes: u64,
    /// Tilings visited so far.
    found: u64,
    /// When set, each node tries its candidates in a random order.
    pub(super) shuffle: Option<Rng64>,
    /// The filters of pairs and triples, when this search uses them (enumerations, once
    /// `filters_at` nodes are visited).
    pairs: Option<&'a RegionFilter>,
    triples: Option<&'a RegionFilter>,
    filters_at: u64,
    /// Per type, the index among its placements of the last one found to fit (see
    /// [`Run::all_fit`]).
    witness: [u32; MAX_TYPES],
    /// The type that [`Run::all_fit`] last found nowhere to go.
    last_misfit: usize,
    /// Per depth (pieces placed, below [`GATES`]): what the check that every type fits
    /// somewhere has found there, and (bit `d` of `fit_on`) whether it runs there.
    gates: Vec<Gate>,
    fit_on: u64,
    /// The label of each type, when tilings are to be drawn; `board` holds the drawing.
    pub(super) labels: Option<&'a [char]>,
    pub(super) board: Vec<char>,
}

impl<'a, B: CellBits, const ONE: bool, const RANGED: bool> Run<'a, B, ONE, RANGED> {
    pub(super) fn new(t: &'a Fast<B>) -> Self {
        // Pocket results likewise (both tables are written when made: small puzzles, searched
        // many times over, keep small tables).
        let pockets_log2 = (t.masks.len() * 8).next_power_of_two().trailing_zeros().clamp(10, POCKETS_LOG2);
        let mut run = Run {
            t,
            counts: [0; MAX_TYPES],
            avail: 0,
            need: 0,
            used: 0,
            dead: t
                .used_bits
                .map(|bits| DeadStates::new(t.dead_log2, DEAD_BYTES, t.nbits, bits, Window::new(t.span, t.nbits))),
            pockets: PocketResults::new(pockets_log2, POCKETS_BYTES, t.nbits, Window::new(t.span, t.nbits)),
            path: vec![0; t.pieces],
            placed: 0,
            cand: Vec::new(),
            kids: Vec::new(),
            ids: Vec::new(),
            nodes: 0,
            found: 0,
            shuffle: None,
            pairs: None,
            triples: None,
            filters_at: u64::MAX,
            witness: [0; MAX_TYPES],
            last_misfit: 0,
            gates: vec![Gate::default(); GATES],
            fit_on: !0,
            labels: None,
            board: Vec::new(),
        };
        run.reset(&t.counts, &[]);
        run
    }

    /// Makes this search use the filters of pairs and triples once it has visited `nodes`
    /// nodes (at once if that is 0 or another search made them already). They only prune
    /// subtrees that hold no tiling, so they may come in at any node.
    pub(super) fn filter_after(&mut self, nodes: u64) {
        self.filters_at = nodes;
        if nodes <= self.nodes || self.t.filters_made() {
            self.take_filters();
        }
    }

    /// Makes (if no search has yet) and uses the filters of pairs and triples.
    #[cold]
    #[inline(never)]
    fn take_filters(&mut self) {
        let filters = self.t.filters();
        (self.pairs, self.triples) = (filters.map(|f| &f.pairs), filters.and_then(|f| f.triples.as_ref()));
        self.filters_at = u64::MAX;
    }

    /// Starts over below a new prefix (keeping the dead states: they hold for any prefix).
    pub(super) fn reset(&mut self, counts: &[u32], prefix: &[u32]) {
        self.counts = [0; MAX_TYPES];
        self.counts[..counts.len()].copy_from_slice(counts);
        self.avail = avail_of(counts);
        self.need = self.t.need_of(counts);
        self.used = prefix.iter().map(|&i| self.t.units[usize::from(self.t.tys[i as usize]) % MAX_TYPES]).sum();
        self.path[..prefix.len()].copy_from_slice(prefix);
        self.placed = prefix.len();
    }

    /// Searches below a node: every tiling that extends it is visited.
    pub(super) fn search(
        &mut self,
        occ: B,
        open: B,
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        match (!occ).lowest() {
            None => self.found(visit),
            Some(f) => match self.t.fitting(f, occ, self.avail, self.need()) {
                None => ControlFlow::Continue(()),
                Some((c, fits)) => self.dfs(occ, open, (f, c, fits), visit, budget),
            },
        }
    }

    /// Searches below a node whose first free cell, first chunk with a fitting placement and
    /// fitting placements in it are `at` (the parent finds them: a child with none is never
    /// called).
    fn dfs(
        &mut self,
        occ: B,
        open: B,
        at: (usize, usize, u128),
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        // Every cell that must be covered is: the rest may all stay empty.
        if at.0 >= self.t.fixed_bits
            && let Some(closed) = self.closed_by_holes(occ)
        {
            return if closed { self.found_with_holes(occ, visit) } else { ControlFlow::Continue(()) };
        }
        // Prune: a pocket cannot be filled, or the state is known dead (the pocket check first:
        // its table is the smaller, and a quarter of the nodes it prunes spare a dead-state read).
        let remember = self.placed + NO_DEAD_LEFT < self.t.pieces;
        if (self.placed + NO_POCKETS_LEFT < self.t.pieces && !self.pockets_ok(occ, at.0, open))
            || (remember && self.dead.as_ref().is_some_and(|d| d.contains(occ, at.0, self.used)))
        {
            return ControlFlow::Continue(());
        }
        let check = if remember && self.gated() { self.check_fit(occ, at.0) } else { Check::Fits };
        if check == Check::Cut {
            if let Some(d) = self.dead.as_mut() {
                d.insert(occ, at.0, self.used);
            }
            return ControlFlow::Continue(());
        }
        let shadow = check == Check::Shadow;
        self.count_node(budget)?;
        let (t, found_before, nodes_before) = (self.t, self.found, self.nodes);
        let flow = if self.shuffle.is_some() {
            self.shuffled(occ, open, at, visit, budget)
        } else if let Some(filter) = match t.pieces - self.placed {
            3 => self.pairs,
            4 => self.triples,
            _ => None,
        } {
            self.filtered(occ, open, at, filter, visit, budget)
        } else if self.prefetching() {
            let base = self.gather(occ, open, at, None);
            let mut flow = ControlFlow::Continue(());
            for k in base..self.kids.len() {
                let (i, start) = self.kids[k];
                flow = self.place(occ, open, i as usize, start, visit, budget);
                if flow.is_break() {
                    break;
                }
            }
            self.kids.truncate(base);
            flow
        } else {
            t.each_fitting(at, occ, self.avail, |i| self.child(occ, open, i, visit, budget))
        };
        if flow.is_continue() && remember && self.found == found_before {
            if shadow {
                self.gates[self.placed].shadowed(self.nodes - nodes_before);
            }
            if let Some(d) = self.dead.as_mut() {
                d.insert(occ, at.0, self.used);
            }
        }
        flow
    }

    /// The children of a node with three (four) pieces left, in an enumeration with the filter
    /// of pairs (triples): a child whose free cells start in the filter's band goes on only if
    /// the filter lets them through (hot: one load a child, nothing placed); one whose free cells
    /// start before the band is searched as usual. (Out of line: one copy, whose loop keeps the
    /// probe in.)
    #[inline(never)]
    fn filtered(
        &mut self,
        occ: B,
        open: B,
        at: (usize, usize, u128),
        filter: &RegionFilter,
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        let t = self.t;
        let (free, copies) = (!occ, t.all_used - self.used);
        t.each_fitting(at, occ, self.avail, |i| {
            let rest = free ^ t.masks[i];
            if rest.lowest().unwrap_or(usize::MAX) < filter.from
                || filter.may_tile(rest, copies - t.units[usize::from(t.tys[i]) % MAX_TYPES])
            {
                self.child_out_of_line(occ, open, i, visit, budget)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    /// Whether the node at this depth runs the check that every type fits somewhere: where it
    /// pays (see [`Gate`]), and at one node in [`GATE_SAMPLE`] anyway.
    #[inline(always)]
    fn gated(&self) -> bool {
        let d = self.placed;
        d < GATES && (self.fit_on >> d & 1 != 0 || self.nodes.is_multiple_of(GATE_SAMPLE))
    }

    /// The check that every type whose copies must still be placed fits somewhere in the free
    /// cells of `occ` (first free cell `f`), with what it found kept in this depth's [`Gate`].
    #[inline]
    fn check_fit(&mut self, occ: B, f: usize) -> Check {
        let d = self.placed;
        let (fit, probes) = self.all_fit(occ, f);
        let g = &mut self.gates[d];
        g.checks += 1;
        g.probes += u64::from(probes);
        let check = match fit {
            true => Check::Fits,
            false if g.cuts.is_multiple_of(SHADOW) => Check::Shadow,
            false => Check::Cut,
        };
        g.cuts += u64::from(!fit);
        if g.checks.is_multiple_of(GATE_REVIEW) {
            self.review(d);
        }
        check
    }

    /// Decides again whether the check runs at depth `d`: when the nodes it cut off (at the mean
    /// of its shadows) would have cost more than the check.
    #[cold]
    fn review(&mut self, d: usize) {
        let g = &self.gates[d];
        let saved = g.cuts as f64 * (g.shadow_nodes as f64 / g.shadows.max(1) as f64);
        if saved >= PROBE_COST * g.probes as f64 {
            self.fit_on |= 1 << d;
        } else {
            self.fit_on &= !(1 << d);
        }
    }

    /// Whether every type whose copies must still be placed has a placement that fits the free
    /// cells of `occ`, and how many types it looked for.
    #[inline]
    fn all_fit(&mut self, occ: B, f: usize) -> (bool, u32) {
        let mut need = self.need();
        let mut probes = 0;
        // The type that fitted nowhere last time first: mostly the same big piece.
        let last = self.last_misfit;
        if need >> last & 1 != 0 {
            probes += 1;
            if !self.t.somewhere(last, occ, f, &mut self.witness[last]) {
                return (false, probes);
            }
            need &= !(1 << last);
        }
        while need != 0 {
            let ty = need.trailing_zeros() as usize;
            need &= need - 1;
            probes += 1;
            if !self.t.somewhere(ty, occ, f, &mut self.witness[ty]) {
                self.last_misfit = ty;
                return (false, probes);
            }
        }
        (true, probes)
    }

    /// Counts a node searched, and asks the budget now and then whether to stop.
    #[inline(always)]
    fn count_node(&mut self, budget: &mut Budget) -> ControlFlow<StopReason> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if self.nodes >= self.filters_at {
                self.take_filters();
            }
            if budget.should_stop(POLL_INTERVAL) {
                return ControlFlow::Break(budget.reason().unwrap_or(StopReason::Cancelled));
            }
        }
        ControlFlow::Continue(())
    }

    /// [`Run::child`], called (few children get past the filters).
    #[inline(never)]
    fn child_out_of_line(
        &mut self,
        occ: B,
        open: B,
        i: usize,
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        self.child(occ, open, i, visit, budget)
    }

    /// The children of a node in a random order.
    fn shuffled(
        &mut self,
        occ: B,
        open: B,
        at: (usize, usize, u128),
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        let base = self.cand.len();
        let _ = self.t.each_fitting(at, occ, self.avail, |i| {
            self.cand.push(i as u32);
            ControlFlow::<()>::Continue(())
        });
        if let Some(rng) = self.shuffle.as_mut() {
            let cand = &mut self.cand[base..];
            for k in (1..cand.len()).rev() {
                cand.swap(k, rng.below(k as u64 + 1) as usize);
            }
        }
        let mut flow = ControlFlow::Continue(());
        for k in base..self.cand.len() {
            flow = self.child(occ, open, self.cand[k] as usize, visit, budget);
            if flow.is_break() {
                break;
            }
        }
        self.cand.truncate(base);
        flow
    }

    /// Places placement `i` on a node and searches below it, if anything fits there.
    #[inline(always)]
    fn child(
        &mut self,
        occ: B,
        open: B,
        i: usize,
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        match self.start_of(occ, i) {
            Some(start) => self.place(occ, open, i, start, visit, budget),
            None => ControlFlow::Continue(()),
        }
    }

    /// Where the search below placement `i` on a node starts: `None` if nothing fits there
    /// (most children: they are skipped without a call), `Some(None)` if it fills the board,
    /// else its first free cell, first chunk and fitting placements (as [`Run::dfs`] takes).
    #[inline(always)]
    fn start_of(&self, occ: B, i: usize) -> Option<Start> {
        let t = self.t;
        let (ty, next) = (usize::from(t.tys[i]) % MAX_TYPES, occ | t.masks[i]);
        let (avail, need) = self.after(ty);
        match (!next).lowest() {
            None => Some(None),
            Some(f) => t.fitting(f, next, avail, need).map(|(c, fits)| Some((f, c, fits))),
        }
    }

    /// The types with copies left, and those whose copies must still be placed, once a copy of
    /// type `ty` is placed.
    #[inline(always)]
    fn after(&self, ty: usize) -> (u64, u64) {
        let avail = if ONE || self.counts[ty] == 1 { self.avail ^ 1 << ty } else { self.avail };
        let need = if !RANGED {
            avail
        } else if ONE || self.counts[ty] <= self.t.slack[ty] + 1 {
            self.need & !(1 << ty)
        } else {
            self.need
        };
        (avail, need)
    }

    /// The types whose copies must still be placed.
    #[inline(always)]
    fn need(&self) -> u64 {
        if RANGED { self.need } else { self.avail }
    }

    /// Places placement `i` on a node and searches below it from `at` (see [`Run::start_of`]).
    #[inline(always)]
    fn place(
        &mut self,
        occ: B,
        open: B,
        i: usize,
        at: Start,
        visit: &mut Visit<'_>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        let t = self.t;
        let (ty, next) = (usize::from(t.tys[i]) % MAX_TYPES, occ | t.masks[i]);
        let (avail, need) = self.after(ty);
        let (saved, unit) = ((self.avail, self.need), t.units[ty]);
        if !ONE {
            self.counts[ty] -= 1;
        }
        self.avail = avail;
        if RANGED {
            self.need = need;
        }
        self.used += unit;
        self.path[self.placed] = i as u32;
        self.placed += 1;
        let flow = match at {
            None => self.found(visit),
            // A child with three pieces left in an enumeration goes straight to its loop (it
            // has no pruning of its own to do, and there are many such children).
            Some(at) => match self.pairs.filter(|_| self.placed + 3 == t.pieces && self.shuffle.is_none()) {
                Some(pairs) => match self.count_node(budget) {
                    ControlFlow::Continue(()) => self.filtered(next, open & t.opens[i], at, pairs, visit, budget),
                    stop => stop,
                },
                None => self.dfs(next, open & t.opens[i], at, visit, budget),
            },
        };
        self.placed -= 1;
        self.used -= unit;
        self.avail = saved.0;
        if RANGED {
            self.need = saved.1;
        }
        if !ONE {
            self.counts[ty] += 1;
        }
        flow
    }

    /// Counts the tilings below a node, each weighted by the tilings it stands for (see
    /// [`Fast::weights`]), with the subtree counts of the states met remembered in `memo`; the
    /// first tiling met is kept in `first` (plan placement indices) if that is empty.
    pub(super) fn count(
        &mut self,
        occ: B,
        open: B,
        memo: &mut SubtreeCounts<B>,
        leaves: &mut Leaves,
        budget: &mut Budget,
    ) -> Result<u128, StopReason> {
        match (!occ).lowest() {
            None => Ok(self.leaf(leaves)),
            Some(f) => match self.t.fitting(f, occ, self.avail, self.need()) {
                None => Ok(0),
                Some((c, fits)) => self.count_below(occ, open, (f, c, fits), memo, leaves, budget),
            },
        }
    }

    /// [`Run::count`] below a node whose first free cell, first chunk and fitting placements
    /// in it are `at` (as [`Run::dfs`]).
    fn count_below(
        &mut self,
        occ: B,
        open: B,
        at: (usize, usize, u128),
        memo: &mut SubtreeCounts<B>,
        leaves: &mut Leaves,
        budget: &mut Budget,
    ) -> Result<u128, StopReason> {
        if at.0 >= self.t.fixed_bits
            && let Some(closed) = self.closed_by_holes(occ)
        {
            // The tiling's empty cells are not on the path: it is counted, not kept.
            if closed {
                leaves.skipped();
            }
            return Ok(u128::from(closed));
        }
        let left = self.t.pieces - self.placed;
        if left > NO_POCKETS_LEFT && !self.pockets_ok_called(occ, at.0, open) {
            return Ok(0);
        }
        // Dead states in their own narrow table (most states are dead, and that table stays in
        // cache), live ones with their counts.
        let remember = left > NO_DEAD_LEFT;
        if remember {
            if self.dead.as_ref().is_some_and(|d| d.contains(occ, at.0, self.used)) {
                return Ok(0);
            }
            if let Some(n) = memo.get(occ, at.0, self.used) {
                if n > 0 {
                    leaves.skipped();
                }
                return Ok(n);
            }
        }
        let check = if remember && self.gated() { self.check_fit(occ, at.0) } else { Check::Fits };
        if check == Check::Cut {
            if let Some(d) = self.dead.as_mut() {
                d.insert(occ, at.0, self.used);
            }
            return Ok(0);
        }
        let shadow = check == Check::Shadow;
        if let ControlFlow::Break(r) = self.count_node(budget) {
            return Err(r);
        }
        let (t, watch) = (self.t, shadow.then_some(self.nodes));
        let filter = match left {
            3 => self.pairs,
            4 => self.triples,
            _ => None,
        };
        let (free, copies) = (!occ, t.all_used - self.used);
        let mut total = 0u128;
        if self.prefetching() {
            // No filter this far from the leaves.
            let base = self.gather(occ, open, at, Some(memo));
            let mut n = Ok(0);
            for k in base..self.kids.len() {
                let (i, start) = self.kids[k];
                let below = self.count_place(occ, open, i as usize, start, memo, leaves, budget);
                n = below.and_then(|below| add_weighted(total, below, t.weights[i as usize].into()));
                match n {
                    Ok(sum) => total = sum,
                    Err(_) => break,
                }
            }
            self.kids.truncate(base);
            n?;
            self.keep_count(occ, at.0, memo, total, watch);
            return Ok(total);
        }
        let flow = t.each_fitting(at, occ, self.avail, |i| {
            if let Some(filter) = filter {
                let rest = free ^ t.masks[i];
                if rest.lowest().unwrap_or(usize::MAX) >= filter.from
                    && !filter.may_tile(rest, copies - t.units[usize::from(t.tys[i]) % MAX_TYPES])
                {
                    return ControlFlow::Continue(());
                }
            }
            let n = self.count_child(occ, open, i, memo, leaves, budget);
            match n.and_then(|n| add_weighted(total, n, t.weights[i].into())) {
                Ok(sum) => {
                    total = sum;
                    ControlFlow::Continue(())
                }
                Err(r) => ControlFlow::Break(r),
            }
        });
        if let ControlFlow::Break(r) = flow {
            return Err(r);
        }
        if remember {
            self.keep_count(occ, at.0, memo, total, watch);
        }
        Ok(total)
    }

    /// Keeps the count below a node: a dead state, or a subtree count (`watch`: the nodes
    /// searched before it, when it is a shadow of the check that every type fits).
    #[inline(always)]
    fn keep_count(&mut self, occ: B, f: usize, memo: &mut SubtreeCounts<B>, total: u128, watch: Option<u64>) {
        if let Some(before) = watch {
            self.gates[self.placed].shadowed(self.nodes - before);
        }
        match self.dead.as_mut() {
            Some(d) if total == 0 => d.insert(occ, f, self.used),
            _ => memo.insert(occ, f, self.used, total),
        }
    }

    /// Places placement `i` on a node and counts below it. (The same steps as [`Run::child`]:
    /// one helper taking the step below as a closure cost the enumeration 11% more instructions.)
    #[inline(always)]
    fn count_child(
        &mut self,
        occ: B,
        open: B,
        i: usize,
        memo: &mut SubtreeCounts<B>,
        leaves: &mut Leaves,
        budget: &mut Budget,
    ) -> Result<u128, StopReason> {
        match self.start_of(occ, i) {
            Some(start) => self.count_place(occ, open, i, start, memo, leaves, budget),
            None => Ok(0),
        }
    }

    /// Places placement `i` on a node and counts below it from `at` (see [`Run::start_of`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn count_place(
        &mut self,
        occ: B,
        open: B,
        i: usize,
        at: Start,
        memo: &mut SubtreeCounts<B>,
        leaves: &mut Leaves,
        budget: &mut Budget,
    ) -> Result<u128, StopReason> {
        let t = self.t;
        let (ty, next) = (usize::from(t.tys[i]) % MAX_TYPES, occ | t.masks[i]);
        let (avail, need) = self.after(ty);
        let (saved, unit) = ((self.avail, self.need), t.units[ty]);
        if !ONE {
            self.counts[ty] -= 1;
        }
        self.avail = avail;
        if RANGED {
            self.need = need;
        }
        self.used += unit;
        self.path[self.placed] = i as u32;
        self.placed += 1;
        let n = match at {
            None => Ok(self.leaf(leaves)),
            Some(at) => self.count_below(next, open & t.opens[i], at, memo, leaves, budget),
        };
        self.placed -= 1;
        self.used -= unit;
        self.avail = saved.0;
        if RANGED {
            self.need = saved.1;
        }
        if !ONE {
            self.counts[ty] += 1;
        }
        n
    }

    /// A tiling reached by a count: kept with the others met (see [`Leaves`]). (A full board
    /// whose pieces fall short of some type's least is none.)
    fn leaf(&mut self, leaves: &mut Leaves) -> u128 {
        if !self.complete() {
            return 0;
        }
        leaves.push(|| self.path[..self.placed].iter().map(|&i| self.t.ids[i as usize]).collect());
        1
    }

    /// Whether nodes prefetch their children's table slots: with more than three pieces left
    /// below them (the tables are read there) and the tables too big for the nearer caches (see
    /// [`Fast::prefetch_bytes`]).
    #[inline(always)]
    fn prefetching(&self) -> bool {
        self.placed + 1 + NO_POCKETS_LEFT.min(NO_DEAD_LEFT) < self.t.pieces
            && self.pockets.bytes + self.dead.as_ref().map_or(0, |d| d.bytes) >= self.t.prefetch_bytes
    }

    /// Pushes the children of a node that have somewhere to start (see [`Run::start_of`]) onto
    /// `kids`, and starts loading the table slots each will read (its pocket result, dead
    /// state and, in counts, subtree count); returns where they start in `kids`. The loads run
    /// side by side while the node goes on, and each child then finds its slots in cache instead
    /// of waiting on memory in turn (one-sided pentominoes in 5x18: 18.6 s -> 11.2 s). Children
    /// where nothing fits are about half, and are never loaded for.
    #[inline(always)]
    fn gather(&mut self, occ: B, open: B, at: (usize, usize, u128), memo: Option<&SubtreeCounts<B>>) -> usize {
        let (t, base) = (self.t, self.kids.len());
        let left = t.pieces - self.placed - 1;
        let mut kids = std::mem::take(&mut self.kids);
        let _ = t.each_fitting(at, occ, self.avail, |i| {
            let Some(start) = self.start_of(occ, i) else {
                return ControlFlow::<()>::Continue(());
            };
            if let Some((f, ..)) = start {
                let next = occ | t.masks[i];
                let used = self.used + t.units[usize::from(t.tys[i]) % MAX_TYPES];
                if left > NO_POCKETS_LEFT {
                    self.pockets.prefetch(next, f, open & t.opens[i]);
                }
                if left > NO_DEAD_LEFT {
                    if let Some(d) = &self.dead {
                        d.prefetch(next, f, used);
                    }
                    if let Some(memo) = memo {
                        memo.prefetch(next, f, used);
                    }
                }
            }
            kids.push((i as u32, start));
            ControlFlow::Continue(())
        });
        self.kids = kids;
        base
    }

    /// [`Run::pockets_ok`], called (the counts' copy: the enumeration's is inlined).
    #[inline(never)]
    fn pockets_ok_called(&mut self, occ: B, f: usize, open: B) -> bool {
        self.pockets_ok(occ, f, open)
    }

    /// The pocket check, through the cache. (Always inlined: with a second caller the compiler
    /// left it out of line in the enumeration, 7% more instructions on the pentominoes in 6x10.)
    #[inline(always)]
    fn pockets_ok(&mut self, occ: B, f: usize, open: B) -> bool {
        let t = self.t;
        self.pockets.get_or(occ, f, open, || t.pockets_ok(occ, open))
    }

    /// At a node whose cells that must be covered all are, with no copies left but empty cells:
    /// whether leaving every free cell empty makes a tiling (as many empty cells left as there
    /// are free cells, and within their range). `None` when some other piece has copies left
    /// (it may still go on the optional cells), or the puzzle has no empty cells.
    #[inline]
    fn closed_by_holes(&self, occ: B) -> Option<bool> {
        let e = self.t.empty.as_ref()?.0;
        if self.avail & !(1 << e) != 0 {
            return None;
        }
        let free = (!occ).count();
        let left = if ONE { (self.avail >> e & 1) as u32 } else { self.counts[e] };
        Some(free <= left && left - free <= self.t.slack[e])
    }

    /// Visits the tiling that leaves every free cell of `occ` empty (see
    /// [`Run::closed_by_holes`]).
    #[cold]
    fn found_with_holes(&mut self, occ: B, visit: &mut Visit<'_>) -> ControlFlow<StopReason> {
        let Some((e, at)) = self.t.empty.as_ref() else { return ControlFlow::Continue(()) };
        let (placed, fixed) = (self.placed, self.t.fixed_bits);
        for bit in (!occ).iter() {
            self.path[self.placed] = at[bit - fixed];
            self.placed += 1;
        }
        let free = (self.placed - placed) as u32;
        let saved = (self.avail, self.counts[*e]);
        if !ONE {
            self.counts[*e] -= free;
        }
        if ONE || self.counts[*e] == 0 {
            self.avail &= !(1 << e);
        }
        let flow = self.found(visit);
        (self.avail, self.counts[*e]) = saved;
        self.placed = placed;
        flow
    }

    /// Whether the pieces placed use at least the least copies of every type (always, without
    /// ranges: a full board then holds every copy).
    #[inline(always)]
    fn complete(&self) -> bool {
        !RANGED
            || if ONE {
                self.avail & self.t.required == 0
            } else {
                self.counts.iter().zip(&self.t.slack).all(|(&left, &slack)| left <= slack)
            }
    }

    fn found(&mut self, visit: &mut Visit<'_>) -> ControlFlow<StopReason> {
        if !self.complete() {
            return ControlFlow::Continue(());
        }
        self.found += 1;
        self.t.visit_tiling(&self.path[..self.placed], &mut self.ids, self.labels, &mut self.board, visit)
    }
}

impl<B: CellBits> Fast<B> {
    /// Hands a tiling (`path`: the placements made) to `visit` as plan placement indices (in
    /// `ids`), and drawn in `board` with `labels` when given.
    pub(super) fn visit_tiling(
        &self,
        path: &[u32],
        ids: &mut Vec<u32>,
        labels: Option<&[char]>,
        board: &mut [char],
        visit: &mut Visit<'_>,
    ) -> ControlFlow<StopReason> {
        ids.clear();
        ids.extend(path.iter().map(|&i| self.ids[i as usize]));
        if let Some(labels) = labels {
            // Drawn from the masks, which the search keeps in cache (the plan's lists of cells
            // are cold by now: reading them cost a few cache misses a placement).
            for &i in path {
                let label = labels[usize::from(self.tys[i as usize])];
                for bit in self.masks[i as usize].iter() {
                    board[self.cell_of_bit[bit] as usize] = label;
                }
            }
        }
        match visit(ids, board) {
            ControlFlow::Continue(()) => ControlFlow::Continue(()),
            ControlFlow::Break(()) => ControlFlow::Break(StopReason::Visitor),
        }
    }
}

/// Prefixes splitting a search into at least `min` (when the tree allows): level by level, each
/// prefix extended by the placements its node branches on (`branches`: `None` when the prefix
/// is a whole tiling, kept as it is; none when its node is dead). Every tiling lies below
/// exactly one prefix when every tiling holds exactly one of each node's branches.
pub(super) fn split(min: usize, mut branches: impl FnMut(&[u32]) -> Option<Vec<u32>>) -> Vec<Vec<u32>> {
    let mut level: Vec<Vec<u32>> = vec![Vec::new()];
    while level.len() < min {
        let (mut next, mut grew) = (Vec::new(), false);
        for p in &level {
            match branches(p) {
                None => next.push(p.clone()),
                Some(b) => {
                    grew |= !b.is_empty();
                    next.extend(b.iter().map(|&i| [&p[..], &[i]].concat()));
                }
            }
        }
        level = next;
        if !grew {
            break;
        }
    }
    level
}

/// `total + n * weight`, or [`StopReason::Overflow`] past 128 bits (domino tilings of a 14x14
/// board already number about 10^23, past 64 bits; of 18x18 about 10^41).
pub(super) fn add_weighted(total: u128, n: u128, weight: u64) -> Result<u128, StopReason> {
    n.checked_mul(u128::from(weight)).and_then(|w| total.checked_add(w)).ok_or(StopReason::Overflow)
}

/// Most memory of one worker's table of subtree counts, grown.
const COUNTS_BYTES: usize = 512 << 20;

/// Log2 of the slots a worker's table of subtree counts starts with (it grows with the states
/// met).
const COUNTS_LOG2: u32 = 12;

/// Nodes of the first restart of [`Engine::first`]; later ones get multiples (Luby sequence).
const RESTART_NODES: u64 = 20_000;

/// The searches of a [`Fast`] engine's tables: counting with copies, visiting, the first
/// tiling with restarts.
impl<B: CellBits> Fast<B> {
    /// [`Engine::run`], with one copy of every type (`ONE`) or not, with ranges of copies
    /// (`RANGED`) or not.
    fn run_as<const ONE: bool, const RANGED: bool>(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome {
        let mut run = Run::<B, ONE, RANGED>::new(self);
        run.filter_after(self.filters_after);
        if let Some(labels) = labels {
            run.labels = Some(labels);
            run.board = vec![' '; self.cells];
        }
        while let Some(k) = next() {
            if budget.expired() {
                return Outcome::Stopped(budget.reason().unwrap_or(StopReason::Cancelled));
            }
            let (occ, open, counts) = self.replay(&prefixes[k]);
            run.reset(&counts, &prefixes[k]);
            if let ControlFlow::Break(r) = run.search(occ, open, visit, budget) {
                return Outcome::Stopped(r);
            }
        }
        Outcome::Complete
    }

    /// [`Engine::count`] (when [`Engine::counts_subtrees`]: some type has copies), with ranges of
    /// copies (`RANGED`) or not.
    fn count_copies<const RANGED: bool>(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        done: &dyn Fn(u64),
    ) -> (u128, Leaves, Outcome) {
        let mut run = Run::<B, false, RANGED>::new(self);
        run.filter_after(self.filters_after);
        let window = Window::new(self.span, self.nbits);
        let mut memo = SubtreeCounts::new(COUNTS_LOG2, COUNTS_BYTES, self.used_bits.unwrap_or(0), window);
        let (mut total, mut leaves) = (0u128, Leaves::new());
        while let Some(k) = next() {
            if budget.expired() {
                return (total, leaves, Outcome::Stopped(budget.reason().unwrap_or(StopReason::Cancelled)));
            }
            let (occ, open, counts) = self.replay(&prefixes[k]);
            run.reset(&counts, &prefixes[k]);
            let weight: u64 = prefixes[k].iter().map(|&i| u64::from(self.weights[i as usize])).product();
            match run.count(occ, open, &mut memo, &mut leaves, budget).and_then(|n| add_weighted(total, n, weight)) {
                Ok(sum) => {
                    done(u64::try_from(sum - total).unwrap_or(u64::MAX));
                    total = sum;
                }
                Err(r) => return (total, leaves, Outcome::Stopped(r)),
            }
        }
        (total, leaves, Outcome::Complete)
    }

    /// The occupancy, open lines and copies left after a prefix.
    fn replay(&self, prefix: &[u32]) -> (B, B, Vec<u32>) {
        let (mut occ, mut open, mut counts) = (self.start, !B::empty(), self.counts.clone());
        for &i in prefix {
            let i = i as usize;
            occ |= self.masks[i];
            open &= self.opens[i];
            counts[usize::from(self.tys[i])] -= 1;
        }
        (occ, open, counts)
    }
}

impl<B: CellBits> Engine for Fast<B> {
    fn prefixes(&self, min: usize) -> Vec<Vec<u32>> {
        if self.mrv {
            return self.prefixes_mrv(min);
        }
        split(min, |p| {
            let (occ, open, counts) = self.replay(p);
            // A pocket no set of pieces fills: a dead node, no branches.
            match self.all_fitting(occ, &counts) {
                Some(_) if !self.pockets_ok(occ, open) => Some(Vec::new()),
                fitting => fitting,
            }
        })
    }

    fn run(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome {
        if self.mrv {
            return self.run_mrv(prefixes, next, budget, labels, visit);
        }
        if self.ranged {
            self.run_as::<false, true>(prefixes, next, budget, labels, visit)
        } else if self.counts.iter().all(|&c| c == 1) {
            self.run_as::<true, false>(prefixes, next, budget, labels, visit)
        } else {
            self.run_as::<false, false>(prefixes, next, budget, labels, visit)
        }
    }

    fn choose_order(&mut self) -> bool {
        self.mrv = self.prefers_constrained();
        self.mrv
    }

    /// Paths meet the same state again mostly when pieces have identical copies (two copies
    /// swapped, or a region tiled by other copies of the same types): with one copy of every
    /// type, remembering live states saves little (a tenth on one-sided pentominoes in 5x18)
    /// and Burnside's fixed tilings then cost more than visiting each tiling.
    fn counts_subtrees(&self) -> bool {
        !self.mrv && self.used_bits.is_some() && self.counts.iter().any(|&c| c > 1)
    }

    fn count(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        done: &dyn Fn(u64),
    ) -> Option<(u128, Leaves, Outcome)> {
        // States are keyed by the copies used, so they must pack; and with copies, `ONE` is off.
        self.counts_subtrees().then(|| match self.ranged {
            true => self.count_copies::<true>(prefixes, next, budget, done),
            false => self.count_copies::<false>(prefixes, next, budget, done),
        })
    }

    /// Depth-first search in the natural order, then, if that takes long, restarts in random
    /// orders with growing node limits (the Luby sequence), which tames the heavy tail of
    /// first-solution times on large puzzles. Dead states are kept across restarts: they hold
    /// whatever the order.
    fn first(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>> {
        match self.ranged {
            true => self.first_as::<true>(seed, natural_first, budget),
            false => self.first_as::<false>(seed, natural_first, budget),
        }
    }
}

impl<B: CellBits> Fast<B> {
    /// [`Engine::first`], with ranges of copies (`RANGED`) or not.
    fn first_as<const RANGED: bool>(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>> {
        let mut run = Run::<B, false, RANGED>::new(self);
        let mut rng = Rng64::seed(seed);
        let mut restart = 0u64;
        loop {
            let (occ, open, counts) = self.replay(&[]);
            run.reset(&counts, &[]);
            run.shuffle = (restart > 0 || !natural_first).then(|| Rng64::seed(rng.next_u64()));
            let mut limited = budget.worker().with_nodes(RESTART_NODES.saturating_mul(luby(restart)));
            let mut found = None;
            let flow = run.search(
                occ,
                open,
                &mut |ids, _| {
                    found = Some(ids.to_vec());
                    ControlFlow::Break(())
                },
                &mut limited,
            );
            match (found, flow) {
                (Some(ids), _) => return Verdict::Feasible(ids),
                (None, ControlFlow::Continue(())) => return Verdict::Infeasible,
                (None, ControlFlow::Break(StopReason::Nodes)) if !budget.expired() => restart += 1,
                (None, ControlFlow::Break(r)) => return Verdict::Unknown(budget.reason().unwrap_or(r)),
            }
        }
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... (`i` from 0): restart
/// limits within a log factor of the best fixed limit, whatever the run-time distribution.
fn luby(i: u64) -> u64 {
    let i = i + 1;
    let mut k = 1;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if i == (1 << k) - 1 { 1 << (k - 1) } else { luby(i - (1 << (k - 1))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(seq, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
