//! The fast search: fill the first free cell, with bit masks.
//!
//! The board is one bit mask ([`CellBits`]: one word up to 64 cells, several beyond), laid out in
//! lines along its shorter side (see [`crate::tiler::plan`]). Every placement is a mask, filed under its
//! lowest bit. At each node the search takes the first free cell `f`: every placement that can
//! cover it has `f` as its lowest bit (all lower cells are covered), so the candidates are the
//! placements filed under `f` that fit, found by table lookups ([`FitTables`]) as the bits of a
//! set. A node gathers its children's candidates before calling them: a child with none is never
//! called.
//!
//! Four prunings:
//! * *Pockets.* The lines that no placed piece touches yet are open. A flood from the open lines
//!   walks back into the few lines the placed pieces reach; every free cell it cannot reach is in
//!   a closed pocket, whose size must be a sum of piece sizes. Placements that close off such a
//!   pocket on the empty board are dropped before the search starts. With the last three pieces
//!   the check is skipped (it costs more than it saves there).
//! * *Dead states.* What remains to do below a node depends only on the covered cells and the
//!   copies used, not on the path; a table remembers states whose subtree held no tiling (see
//!   [`DeadStates`], keyed by the first free cell and the bits after it when they are few). It
//!   is read in every call above the last three pieces, after the pocket check.
//! * *The last two (three) pieces* (in enumerations). At a node with three (four) pieces left, a
//!   candidate whose free cells start in the band of a filter of the regions that pairs
//!   (triples) of placements tile is placed only if the filter lets them through (see
//!   [`RegionFilter`]): one load instead of a placement, a call and two (three) more levels of
//!   search. The filter of triples is made only when the band's triples are few (meteor: 27k).

use std::ops::ControlFlow;
use std::sync::OnceLock;

use crate::bits::CellBits;
use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, POLL_INTERVAL, Stop, StopReason, Verdict};

use crate::tiler::fit::FitTables;
use crate::tiler::memo::{DeadStates, PocketResults, Window, pack_units};
use crate::tiler::pairs::{Filters, Piece, RegionFilter};
use crate::tiler::plan::Plan;

/// What an engine calls with each solution: its plan placement indices, and the label of every
/// board cell when the run was asked for labels and the engine draws them (empty otherwise).
pub(crate) type Visit<'v> = dyn FnMut(&[u32], &[char]) -> ControlFlow<()> + 'v;

/// A search engine over a compiled puzzle. Searches can be split into independent prefixes (lists
/// of the engine's own placement handles) for parallel workers.
pub(crate) trait Engine: Send + Sync {
    /// Splits the search into at least `min` independent prefixes when the tree allows it.
    fn prefixes(&self, min: usize) -> Vec<Vec<u32>>;
    /// Searches below the prefixes that `next` hands out (indices into `prefixes`) until it has
    /// no more, calling `visit` with each solution as plan placement indices (and, if the
    /// engine can, with its labels by board cell, given `labels`, the label of each type). One
    /// call is one worker's share: state worth keeping between prefixes is kept.
    fn run(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome;
    /// Finds one solution (plan placement indices). Engines may randomise their order from
    /// `seed`, after trying their natural order first if `natural_first`; the verdict is
    /// `Infeasible` only when a search ran to its end.
    fn first(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>>;
}

/// With this many pieces left or fewer, the pocket check is skipped: the candidate scans and the
/// filter of pairs find a dead end for less than the check costs.
const NO_POCKETS_LEFT: usize = 3;

/// With this many pieces left or fewer, dead states are neither read nor written: below, the
/// filter of pairs does the work in one load, and the table stays small for the nodes above.
const NO_DEAD_LEFT: usize = 3;

// A child with three pieces left goes straight to the filter of pairs (see `Run::child`): that is
// right only while such a node has no pocket check or dead state of its own.
const _: () = assert!(NO_POCKETS_LEFT >= 3 && NO_DEAD_LEFT >= 3);

/// Most piece types the fast search handles (they are tracked in one word).
pub(crate) const MAX_TYPES: usize = 64;

/// Neighbour steps towards higher bits (and towards lower bits) in one flood step: at most 4
/// each way on both lattices.
const STEPS: usize = 4;

/// Nodes of the first restart of [`Engine::first`]; later ones get multiples (Luby sequence).
const RESTART_NODES: u64 = 20_000;

/// Log2 of the largest number of dead-state entries per search.
const DEAD_LOG2: u32 = 20;

/// Log2 of the largest number of pocket-check results kept per search.
const POCKETS_LOG2: u32 = 14;

/// Most memory of one search's dead-state table.
const DEAD_BYTES: usize = 32 << 20;

/// The fast engine's tables for one cell-set representation `B`.
pub(crate) struct Fast<B> {
    n_types: usize,
    /// Bits that are never free: holes in the bounding box and bits past it.
    start: B,
    /// Which placements filed under a bit fit a node (placements are indices into `places`,
    /// filed by lowest bit, then type).
    fit: FitTables,
    /// Bits of the layout (at least 1).
    nbits: usize,
    /// The placements' masks, filed by lowest bit, then type. (Apart from their types and open
    /// lines: a node reads the mask and type of each candidate, the open lines only of those it
    /// descends into, so the masks it reads share cache lines.)
    masks: Vec<B>,
    /// The placements' types.
    tys: Vec<u8>,
    /// The placements' open lines: the lines after the line of its last bit.
    opens: Vec<B>,
    /// Plan placement index of each placement.
    ids: Vec<u32>,
    /// The board cell of each bit (`u32::MAX` for bits that are no cell).
    cell_of_bit: Vec<u32>,
    /// Number of board cells.
    cells: usize,
    /// `open_after[bit]`: the lines after the line of `bit`. A placement whose last bit is `bit`
    /// leaves them open.
    open_after: Vec<B>,
    counts: Vec<u32>,
    /// Pieces in all.
    pieces: usize,
    /// What one more copy of each type adds to the packed count of copies used.
    units: [u64; MAX_TYPES],
    /// Bits of the copies used, packed one field per type (keying [`DeadStates`]), if they fit
    /// in a word.
    used_bits: Option<u32>,
    /// Flood steps: `(k, bits whose neighbour is k bits higher)`; unused entries hold no bits.
    up: [(u32, B); STEPS],
    /// Flood steps: `(k, bits whose neighbour is k bits lower)`.
    down: [(u32, B); STEPS],
    fillable: Vec<bool>,
    /// The regions the last two and the last three pieces may tile (when copies used pack into
    /// a word), made by the first enumeration: a search for one tiling often ends before they
    /// would pay.
    filters: OnceLock<Option<Filters>>,
    /// Packed copies of all pieces.
    all_used: u64,
    /// Bits the longest placement spans (highest minus lowest bit plus one): a node's
    /// occupancy past its first free cell lies within them.
    span: u32,
}

impl<B: CellBits> Fast<B> {
    /// Builds the tables from a plan (`plan.nbits <= B::CAPACITY`, at most [`MAX_TYPES`] types);
    /// `None` if `stop` says so first (on big boards the tables take a while).
    pub(crate) fn new(plan: &Plan, stop: &mut dyn Stop) -> Option<Self> {
        debug_assert!(plan.nbits <= B::CAPACITY && plan.types.len() <= MAX_TYPES);
        let board = B::from_cells(plan.bit_of.iter().map(|&b| b as usize));
        let counts: Vec<u32> = plan.types.iter().map(|t| t.count).collect();
        let units = pack_units(&counts);
        let mut f = Fast {
            n_types: plan.types.len(),
            start: !board,
            fit: FitTables::default(),
            nbits: plan.nbits.max(1),
            masks: Vec::new(),
            tys: Vec::new(),
            opens: Vec::new(),
            ids: Vec::new(),
            cell_of_bit: cell_of_bit(&plan.bit_of, plan.nbits),
            cells: plan.len(),
            open_after: (0..plan.nbits.max(1))
                .map(|b| !B::below((b / plan.line.max(1) + 1) * plan.line.max(1)))
                .collect(),
            pieces: counts.iter().map(|&c| c as usize).sum(),
            counts,
            units: [0; MAX_TYPES],
            used_bits: units.as_ref().map(|u| u.1),
            up: [(0, B::empty()); STEPS],
            down: [(0, B::empty()); STEPS],
            fillable: plan.fillable.clone(),
            filters: OnceLock::new(),
            all_used: 0,
            span: 0,
        };
        let (mut up, mut down) = (0, 0);
        for (delta, bits) in &plan.shifts {
            let step = (delta.unsigned_abs(), B::from_cells(bits.iter().map(|&b| b as usize)));
            if *delta > 0 {
                f.up[up] = step;
                up += 1;
            } else {
                f.down[down] = step;
                down += 1;
            }
        }
        for (u, x) in f.units.iter_mut().zip(units.map(|u| u.0).unwrap_or_default()) {
            *u = x;
        }
        f.all_used = f.counts.iter().zip(&f.units).map(|(&c, &u)| u64::from(c) * u).sum();
        f.file_placements(plan, stop)?;
        let span = f.masks.iter().map(|m| m.highest().unwrap_or(0) - m.lowest().unwrap_or(0) + 1).max();
        f.span = span.unwrap_or(1) as u32;
        Some(f)
    }

    /// The filters of pairs and triples, made on first use.
    fn filters(&self) -> Option<&Filters> {
        let make = || {
            if self.used_bits.is_none() || self.pieces < 3 {
                return None;
            }
            let ty = |i: usize| usize::from(self.tys[i]) % MAX_TYPES;
            let piece = |i: usize| Piece { mask: self.masks[i], unit: self.units[ty(i)], ty: ty(i) };
            Filters::new(self.masks.len(), piece, &self.counts)
        };
        self.filters.get_or_init(make).as_ref()
    }

    /// Keeps the placements worth trying and files them by lowest bit and type; `None` if
    /// stopped.
    fn file_placements(&mut self, plan: &Plan, stop: &mut dyn Stop) -> Option<()> {
        let line = plan.line.max(1);
        let restricted = plan.restriction.as_ref().map(|r| r.ty);
        let mask_of = |p| B::from_cells(plan.cells_of(p).iter().map(|&c| plan.bit_of[c as usize] as usize));
        // First pass: the lowest bit of each placement kept (`u32::MAX`: dropped), counted by bit.
        let mut low_of = vec![u32::MAX; plan.placements.len()];
        let mut start = vec![0usize; self.nbits + 1];
        for (id, p) in plan.placements.iter().enumerate() {
            // The pocket check floods the board: poll now and then.
            if id % 256 == 255 && stop.should_stop(0) {
                return None;
            }
            if Some(p.ty) == restricted && plan.reps_of(id).is_none() {
                continue;
            }
            let mask = mask_of(p);
            // On the empty board, the lines outside the placement's own are full and open.
            let (low, high) = (mask.lowest().unwrap_or(0), mask.highest().unwrap_or(0));
            let outside = B::below(low / line * line) | !B::below((high / line + 1) * line);
            if self.pockets_ok(self.start | mask, outside) {
                low_of[id] = low as u32;
                start[low + 1] += 1;
            }
        }
        for b in 0..self.nbits {
            start[b + 1] += start[b];
        }
        // Second pass: each kept placement straight to its place, by lowest bit, then (the plan
        // lists placements by type) type, then index.
        debug_assert!(plan.placements.windows(2).all(|w| w[0].ty <= w[1].ty));
        let kept = start[self.nbits];
        (self.masks, self.tys, self.opens) = (vec![B::empty(); kept], vec![0; kept], vec![B::empty(); kept]);
        self.ids = vec![0; kept];
        let mut next = start.clone();
        for (id, p) in plan.placements.iter().enumerate().filter(|&(id, _)| low_of[id] != u32::MAX) {
            let mask = mask_of(p);
            let at = &mut next[low_of[id] as usize];
            (self.masks[*at], self.tys[*at]) = (mask, p.ty as u8);
            self.opens[*at] = self.open_after[mask.highest().unwrap_or(0)];
            self.ids[*at] = id as u32;
            *at += 1;
        }
        self.fit.reserve(kept, self.nbits, self.n_types);
        let mut list = Vec::new();
        for low in 0..self.nbits {
            list.clear();
            let range = start[low]..start[low + 1];
            list.extend(
                self.tys[range.clone()].iter().map(|&ty| usize::from(ty)).zip(self.masks[range].iter().copied()),
            );
            self.fit.file(low, start[low], &list, self.n_types);
        }
        self.fit.finish(self.n_types);
        Some(())
    }

    /// The first chunk at `f`, the first free cell of `occ`, with a placement that fits (its
    /// type in `avail`), and those that fit in it (see [`FitTables::first_fitting`]).
    #[inline(always)]
    fn fitting(&self, f: usize, occ: B, avail: u64) -> Option<(usize, u128)> {
        self.fit.first_fitting(f, occ, avail, &|i| self.masks[i])
    }

    /// Calls `visit` with every placement from [`Fast::fitting`]'s answer on, until it breaks.
    #[inline]
    fn each_fitting<R>(
        &self,
        at: (usize, usize, u128),
        occ: B,
        avail: u64,
        visit: impl FnMut(usize) -> ControlFlow<R>,
    ) -> ControlFlow<R> {
        self.fit.for_each(at, (occ, avail, &|i| self.masks[i]), visit)
    }

    /// Every placement that fits at the first free cell of `occ` (`None` when the board is full).
    fn all_fitting(&self, occ: B, avail: u64) -> Option<Vec<u32>> {
        let f = (!occ).lowest()?;
        let mut out = Vec::new();
        if let Some((c, fits)) = self.fitting(f, occ, avail) {
            let _ = self.each_fitting((f, c, fits), occ, avail, |i| {
                out.push(i as u32);
                ControlFlow::<()>::Continue(())
            });
        }
        Some(out)
    }

    /// One flood step: `set` and its neighbours (a fixed number of steps, so the loops unroll).
    #[inline]
    fn grow(&self, set: B) -> B {
        let mut grown = set;
        for &(k, from) in &self.up {
            grown |= (set & from).shl(k);
        }
        for &(k, from) in &self.down {
            grown |= (set & from).shr(k);
        }
        grown
    }

    /// Everything in `within` connected to `from` (which lies in `within`).
    fn flood(&self, mut from: B, within: B) -> B {
        loop {
            let grown = self.grow(from) & within;
            if grown == from {
                return from;
            }
            from = grown;
        }
    }

    /// Whether every free region closed off from `open` has a fillable size. The flood starts
    /// from the open lines and walks back into the few lines the placed pieces reach; whatever
    /// free cell it cannot reach is in a closed pocket, measured exactly. With `open` empty every
    /// region is measured.
    #[inline]
    fn pockets_ok(&self, occ: B, open: B) -> bool {
        let free = !occ;
        let mut closed = free ^ self.flood(free & open, free);
        while !closed.is_empty() {
            let pocket = self.flood(closed.lowest_bit(), closed);
            if !self.fillable[pocket.count() as usize] {
                return false;
            }
            closed = closed ^ pocket;
        }
        true
    }

    /// [`Engine::run`], with one copy of every type (`ONE`) or not.
    fn run_as<const ONE: bool>(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome {
        let mut run = Run::<B, ONE>::new(self);
        let filters = self.filters();
        (run.pairs, run.triples) = (filters.map(|f| &f.pairs), filters.and_then(|f| f.triples.as_ref()));
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

/// The board cell of each of `nbits` bits, from the bit of each cell (`u32::MAX`: no cell).
fn cell_of_bit(bit_of: &[u32], nbits: usize) -> Vec<u32> {
    let mut cell = vec![u32::MAX; nbits];
    for (c, &b) in bit_of.iter().enumerate() {
        cell[b as usize] = c as u32;
    }
    cell
}

/// The types with copies left.
fn avail_of(counts: &[u32]) -> u64 {
    (0..counts.len()).filter(|&k| counts[k] > 0).fold(0, |a, k| a | 1 << k)
}

impl<B: CellBits> Engine for Fast<B> {
    fn prefixes(&self, min: usize) -> Vec<Vec<u32>> {
        let mut level: Vec<Vec<u32>> = vec![Vec::new()];
        while level.len() < min {
            let mut next = Vec::new();
            let mut grew = false;
            for p in &level {
                let (occ, open, counts) = self.replay(p);
                match self.all_fitting(occ, avail_of(&counts)) {
                    None => next.push(p.clone()),
                    Some(c) if self.pockets_ok(occ, open) => {
                        grew |= !c.is_empty();
                        next.extend(c.iter().map(|&i| [&p[..], &[i]].concat()));
                    }
                    Some(_) => {}
                }
            }
            level = next;
            if !grew {
                break;
            }
        }
        level
    }

    fn run(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome {
        if self.counts.iter().all(|&c| c == 1) {
            self.run_as::<true>(prefixes, next, budget, labels, visit)
        } else {
            self.run_as::<false>(prefixes, next, budget, labels, visit)
        }
    }

    /// Depth-first search in the natural order, then, if that takes long, restarts in random
    /// orders with growing node limits (the Luby sequence), which tames the heavy tail of
    /// first-solution times on large puzzles. Dead states are kept across restarts: they hold
    /// whatever the order.
    fn first(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>> {
        let mut run = Run::<B, false>::new(self);
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

/// The state of one depth-first search.
struct Run<'a, B, const ONE: bool> {
    t: &'a Fast<B>,
    counts: [u32; MAX_TYPES],
    /// Bit `t` set iff type `t` has copies left.
    avail: u64,
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
    ids: Vec<u32>,
    nodes: u64,
    /// Tilings visited so far.
    found: u64,
    /// When set, each node tries its candidates in a random order.
    shuffle: Option<Rng64>,
    /// The filters of pairs and triples, when this search uses them (enumerations).
    pairs: Option<&'a RegionFilter>,
    triples: Option<&'a RegionFilter>,
    /// The label of each type, when tilings are to be drawn; `board` holds the drawing.
    labels: Option<&'a [char]>,
    board: Vec<char>,
}

impl<'a, B: CellBits, const ONE: bool> Run<'a, B, ONE> {
    fn new(t: &'a Fast<B>) -> Self {
        // A dead-state table in proportion to the puzzle, within 2^10..2^20 entries and
        // DEAD_BYTES (on big boards an entry holds a long occupancy: allocating and clearing a
        // huge table would cost more than the search it saves).
        let fit = (DEAD_BYTES / std::mem::size_of::<(B, u64)>()).ilog2();
        let log2 = (t.masks.len() * 16).next_power_of_two().trailing_zeros().clamp(10, DEAD_LOG2.min(fit));
        // Pocket results likewise (both tables are written when made: small puzzles, searched
        // many times over, keep small tables).
        let pockets_log2 = (t.masks.len() * 8).next_power_of_two().trailing_zeros().clamp(10, POCKETS_LOG2);
        let mut run = Run {
            t,
            counts: [0; MAX_TYPES],
            avail: 0,
            used: 0,
            dead: t.used_bits.map(|bits| DeadStates::new(log2, t.nbits, bits, Window::new(t.span, t.nbits))),
            pockets: PocketResults::new(pockets_log2, t.nbits),
            path: vec![0; t.pieces],
            placed: 0,
            cand: Vec::new(),
            ids: Vec::new(),
            nodes: 0,
            found: 0,
            shuffle: None,
            pairs: None,
            triples: None,
            labels: None,
            board: Vec::new(),
        };
        run.reset(&t.counts, &[]);
        run
    }

    /// Starts over below a new prefix (keeping the dead states: they hold for any prefix).
    fn reset(&mut self, counts: &[u32], prefix: &[u32]) {
        self.counts = [0; MAX_TYPES];
        self.counts[..counts.len()].copy_from_slice(counts);
        self.avail = avail_of(counts);
        self.used = prefix.iter().map(|&i| self.t.units[usize::from(self.t.tys[i as usize]) % MAX_TYPES]).sum();
        self.path[..prefix.len()].copy_from_slice(prefix);
        self.placed = prefix.len();
    }

    /// Searches below a node: every tiling that extends it is visited.
    fn search(&mut self, occ: B, open: B, visit: &mut Visit<'_>, budget: &mut Budget) -> ControlFlow<StopReason> {
        match (!occ).lowest() {
            None => self.found(visit),
            Some(f) => match self.t.fitting(f, occ, self.avail) {
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
        // Prune: a pocket cannot be filled, or the state is known dead (the pocket check first:
        // its table is the smaller, and a quarter of the nodes it prunes spare a dead-state read).
        let remember = self.placed + NO_DEAD_LEFT < self.t.pieces;
        if (self.placed + NO_POCKETS_LEFT < self.t.pieces && !self.pockets_ok(occ, open))
            || (remember && self.dead.as_ref().is_some_and(|d| d.contains(occ, at.0, self.used)))
        {
            return ControlFlow::Continue(());
        }
        self.count_node(budget)?;
        let (t, found_before) = (self.t, self.found);
        let flow = if self.shuffle.is_some() {
            self.shuffled(occ, open, at, visit, budget)
        } else if let Some(filter) = match t.pieces - self.placed {
            3 => self.pairs,
            4 => self.triples,
            _ => None,
        } {
            self.filtered(occ, open, at, filter, visit, budget)
        } else {
            t.each_fitting(at, occ, self.avail, |i| self.child(occ, open, i, visit, budget))
        };
        if flow.is_continue()
            && remember
            && self.found == found_before
            && let Some(d) = self.dead.as_mut()
        {
            d.insert(occ, at.0, self.used);
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

    /// Counts a node searched, and asks the budget now and then whether to stop.
    #[inline(always)]
    fn count_node(&mut self, budget: &mut Budget) -> ControlFlow<StopReason> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && budget.should_stop(POLL_INTERVAL) {
            return ControlFlow::Break(budget.reason().unwrap_or(StopReason::Cancelled));
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
        let t = self.t;
        let (ty, next) = (usize::from(t.tys[i]) % MAX_TYPES, occ | t.masks[i]);
        // The types left below, worked out before anything is written: most children have
        // nothing that fits and are skipped without a call.
        let avail = if ONE || self.counts[ty] == 1 { self.avail ^ 1 << ty } else { self.avail };
        let (saved, unit) = (self.avail, t.units[ty]);
        let at = match (!next).lowest() {
            None => None,
            Some(f) => match t.fitting(f, next, avail) {
                None => return ControlFlow::Continue(()),
                Some((c, fits)) => Some((f, c, fits)),
            },
        };
        if !ONE {
            self.counts[ty] -= 1;
        }
        self.avail = avail;
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
        self.avail = saved;
        if !ONE {
            self.counts[ty] += 1;
        }
        flow
    }

    /// The pocket check, through the cache.
    #[inline]
    fn pockets_ok(&mut self, occ: B, open: B) -> bool {
        let t = self.t;
        self.pockets.get_or(occ & !open, || t.pockets_ok(occ, open))
    }

    fn found(&mut self, visit: &mut Visit<'_>) -> ControlFlow<StopReason> {
        self.found += 1;
        self.ids.clear();
        self.ids.extend(self.path[..self.placed].iter().map(|&i| self.t.ids[i as usize]));
        if let Some(labels) = self.labels {
            // Drawn from the masks, which the search keeps in cache (the plan's lists of cells
            // are cold by now: reading them cost a few cache misses a placement).
            for &i in &self.path[..self.placed] {
                let label = labels[usize::from(self.t.tys[i as usize])];
                for bit in self.t.masks[i as usize].iter() {
                    self.board[self.t.cell_of_bit[bit] as usize] = label;
                }
            }
        }
        match visit(&self.ids, &self.board) {
            ControlFlow::Continue(()) => ControlFlow::Continue(()),
            ControlFlow::Break(()) => ControlFlow::Break(StopReason::Visitor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bitboard;
    use crate::tiler::problem::from_pictures;
    use tessera_core::geometry::Lattice;
    use tessera_core::runtime::{Budget, Outcome, Verdict};

    /// The fast engine of a puzzle given as pictures.
    fn engine(board: &str, pieces: &[(char, u32, bool, &str)]) -> (Plan, Fast<Bitboard>) {
        let plan = Plan::new(&from_pictures(Lattice::Square, board, pieces).unwrap());
        let fast = Fast::new(&plan, &mut Budget::unlimited().worker()).unwrap();
        (plan, fast)
    }

    /// Every tiling an engine enumerates.
    fn tilings(engine: &dyn Engine) -> Vec<Vec<u32>> {
        let (mut out, taken) = (Vec::new(), std::cell::Cell::new(false));
        let next = || (!taken.replace(true)).then_some(0);
        let outcome = engine.run(&[Vec::new()], &next, &mut Budget::unlimited(), None, &mut |ids, _| {
            let mut ids = ids.to_vec();
            ids.sort_unstable();
            out.push(ids);
            ControlFlow::Continue(())
        });
        assert_eq!(outcome, Outcome::Complete);
        out.sort_unstable();
        out
    }

    /// On a small board without symmetry the filters of pairs and of triples are both made, and
    /// the enumeration they prune lists exactly the tilings dancing links lists (which shares no
    /// search code with it).
    #[test]
    fn filters_of_pairs_and_triples_keep_every_tiling() {
        let pieces =
            [('L', 2, true, "#.\n##"), ('I', 1, true, "###"), ('T', 1, true, "###\n.#."), ('O', 1, true, "##\n##")];
        let (plan, fast) = engine("#####\n#####\n####.\n###..", &pieces);
        assert!(plan.restriction.is_none(), "no symmetry: every tiling is listed as found");
        assert!(fast.filters().is_some_and(|f| f.triples.is_some()), "a filter of triples");
        let listed = tilings(&fast);
        assert!(!listed.is_empty());
        assert_eq!(listed, tilings(&crate::tiler::dlx::Dlx::new(&plan)));
    }

    /// Random orders (every node shuffles its candidates) still find exact covers, and still
    /// prove that there is none.
    #[test]
    fn random_orders_find_exact_covers_and_prove_none() {
        let (plan, fast) = engine("####\n####\n####\n####", &[('I', 2, true, "####"), ('L', 2, true, "#.\n#.\n##")]);
        for seed in 0..8 {
            let Verdict::Feasible(ids) = fast.first(seed, false, &mut Budget::unlimited()) else {
                panic!("seed {seed}")
            };
            let mut covered: Vec<u32> =
                ids.iter().flat_map(|&i| plan.cells_of(&plan.placements[i as usize]).to_vec()).collect();
            covered.sort_unstable();
            assert_eq!(covered, (0..16).collect::<Vec<u32>>(), "seed {seed}: not an exact cover");
        }
        // Each T covers three squares of one colour of a checkerboard and one of the other: three
        // of them can't cover the 2x6 board's six and six.
        let (_, fast) = engine("######\n######", &[('T', 3, true, "###\n.#.")]);
        for seed in 0..4 {
            assert!(matches!(fast.first(seed, false, &mut Budget::unlimited()), Verdict::Infeasible));
        }
    }

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(seq, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
