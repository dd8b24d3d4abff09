//! The fast search: fill the first free cell, with bit masks.
//!
//! The board is one bit mask ([`CellBits`]: one word up to 64 cells, several beyond), laid out in
//! lines along its shorter side (see [`crate::plan`]). Every placement is a mask, filed under its
//! lowest bit and its piece type. At each node the search takes the first free cell `f`: every
//! placement that can cover it has `f` as its lowest bit (all lower cells are covered), so the
//! candidates are a table lookup, one short list per piece type that has copies left.
//!
//! Two prunings:
//! * *Pockets.* The lines that no placed piece touches yet are open. A flood from the open lines
//!   walks back into the few lines the placed pieces reach; every free cell it cannot reach is in
//!   a closed pocket, whose size must be a sum of piece sizes. Placements that close off such a
//!   pocket on the empty board are dropped before the search starts. With the last two pieces
//!   the check is skipped (it costs more than it saves there).
//! * *Dead states.* What remains to do below a node depends only on the covered cells and the
//!   copies used, not on the path; a table remembers states whose subtree held no tiling (see
//!   [`Memo`]). It is read first, before the candidates are gathered.

use std::ops::ControlFlow;

use crate::bits::CellBits;
use crate::rng::Rng64;
use crate::runtime::{Budget, Outcome, POLL_INTERVAL, Stop, StopReason, Verdict};

use crate::tiler::plan::Plan;

/// A search engine over a compiled puzzle. Searches can be split into independent prefixes (lists
/// of the engine's own placement handles) for parallel workers.
pub(crate) trait Engine: Send + Sync {
    /// Splits the search into at least `min` independent prefixes when the tree allows it.
    fn prefixes(&self, min: usize) -> Vec<Vec<u32>>;
    /// Searches below the prefixes that `next` hands out (indices into `prefixes`) until it has
    /// no more, calling `visit` with each solution as plan placement indices. One call is one
    /// worker's share: state worth keeping between prefixes is kept.
    fn run(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Outcome;
    /// Finds one solution (plan placement indices). Engines may randomise their order from
    /// `seed`, after trying their natural order first if `natural_first`; the verdict is
    /// `Infeasible` only when a search ran to its end.
    fn first(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>>;
}

/// The plan index of the fillers that pad each group of placements to a multiple of four.
const FILLER: u32 = u32::MAX;

/// With this many pieces left or fewer, the pocket check is skipped: the candidate scans of the
/// last pieces find a dead end for less than the check costs (meteor: 1.1% fewer instructions,
/// 4% fewer mispredicted branches; 6x10: 3.6% fewer instructions).
const NO_POCKETS_LEFT: usize = 2;

/// Most piece types the fast search handles (they are tracked in one word).
pub(crate) const MAX_TYPES: usize = 64;

/// Neighbour steps towards higher bits (and towards lower bits) in one flood step: at most 4
/// each way on both lattices.
const STEPS: usize = 4;

/// Nodes of the first restart of [`Engine::first`]; later ones get multiples (Luby sequence).
const RESTART_NODES: u64 = 20_000;

/// Log2 of the largest number of dead-state entries per search.
const DEAD_LOG2: u32 = 20;

/// Most memory of one search's dead-state table.
const DEAD_BYTES: usize = 32 << 20;

/// Per-cell type sets, in 16-bit words when there are at most 16 piece types (a quarter of the
/// cache footprint: these tables are read at every node).
enum TypeSets {
    Narrow(Vec<u16>),
    Wide(Vec<u64>),
}

impl TypeSets {
    fn new(n_types: usize, len: usize) -> Self {
        if n_types <= 16 { TypeSets::Narrow(vec![0; len]) } else { TypeSets::Wide(vec![0; len]) }
    }
    #[inline]
    fn get(&self, i: usize) -> u64 {
        match self {
            TypeSets::Narrow(v) => u64::from(v[i]),
            TypeSets::Wide(v) => v[i],
        }
    }
    fn add(&mut self, i: usize, ty: usize) {
        match self {
            TypeSets::Narrow(v) => v[i] |= 1 << ty,
            TypeSets::Wide(v) => v[i] |= 1 << ty,
        }
    }
    /// Makes every 256-entry block hold, at `byte`, the union over the supersets of `byte`.
    fn spread_to_subsets(&mut self) {
        match self {
            TypeSets::Narrow(v) => v.chunks_mut(256).for_each(spread_to_subsets),
            TypeSets::Wide(v) => v.chunks_mut(256).for_each(spread_to_subsets),
        }
    }
}

/// Makes `table[byte]` hold the union of `table[b]` over every `b` that contains `byte`.
fn spread_to_subsets<T: Copy + std::ops::BitOrAssign>(table: &mut [T]) {
    for bit in 0..8 {
        for byte in 0..256 {
            if byte & 1 << bit == 0 {
                let above = table[byte | 1 << bit];
                table[byte] |= above;
            }
        }
    }
}

/// The fast engine's tables for one cell-set representation `B`.
pub(crate) struct Fast<B> {
    n_types: usize,
    /// Bits that are never free: holes in the bounding box and bits past it.
    start: B,
    /// `ranges[bit * n_types + ty]`: the placements of type `ty` whose lowest bit is `bit`,
    /// padded with fillers (plan index [`FILLER`], a full mask) to a multiple of four.
    ranges: Vec<(u32, u32)>,
    /// Number of placements filed under each bit (all types, fillers included).
    per_bit: Vec<u32>,
    masks: Vec<B>,
    /// `hope[bit * 512 + byte]` (and `+ 256 + byte`): the types with a placement filed under
    /// `bit` that misses every occupied cell of `byte`, the occupancy of the 8 bits after `bit`
    /// (of the 8 after those). Two lookups rule out most dead ends and most types before any
    /// placement is tried.
    hope: TypeSets,
    /// `expired[bit]`: the types with no placement filed at `bit` or later. A node whose first
    /// free cell is `bit` and that still has copies of one of them is dead.
    expired: Vec<u64>,
    /// Piece type of each placement.
    ty: Vec<u8>,
    /// Plan placement index of each placement.
    ids: Vec<u32>,
    /// `open_after[bit]`: the lines after the line of `bit`. A placement whose last bit is `bit`
    /// leaves them open.
    open_after: Vec<B>,
    counts: Vec<u32>,
    /// Pieces in all.
    pieces: usize,
    /// What one more copy of each type adds to the packed count of copies used.
    units: [u64; MAX_TYPES],
    /// Whether the copies used pack into 64 bits (one field per type), keying [`Memo`].
    packs: bool,
    /// Flood steps: `(k, bits whose neighbour is k bits higher)`; unused entries hold no bits.
    up: [(u32, B); STEPS],
    /// Flood steps: `(k, bits whose neighbour is k bits lower)`.
    down: [(u32, B); STEPS],
    fillable: Vec<bool>,
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
            ranges: vec![(0, 0); plan.nbits.max(1) * plan.types.len()],
            per_bit: vec![0; plan.nbits.max(1)],
            masks: Vec::new(),
            hope: TypeSets::new(plan.types.len(), plan.nbits.max(1) * 512),
            expired: vec![0; plan.nbits.max(1)],
            ty: Vec::new(),
            ids: Vec::new(),
            open_after: (0..plan.nbits.max(1))
                .map(|b| !B::below((b / plan.line.max(1) + 1) * plan.line.max(1)))
                .collect(),
            pieces: counts.iter().map(|&c| c as usize).sum(),
            counts,
            units: [0; MAX_TYPES],
            packs: units.is_some(),
            up: [(0, B::empty()); STEPS],
            down: [(0, B::empty()); STEPS],
            fillable: plan.fillable.clone(),
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
        for (u, x) in f.units.iter_mut().zip(units.unwrap_or_default()) {
            *u = x;
        }
        f.file_placements(plan, stop)?;
        Some(f)
    }

    /// Keeps the placements worth trying and files them by lowest bit and type; `None` if
    /// stopped.
    fn file_placements(&mut self, plan: &Plan, stop: &mut dyn Stop) -> Option<()> {
        let line = plan.line.max(1);
        let restricted = plan.restriction.as_ref().map(|r| r.ty);
        let mut kept = Vec::new();
        for (id, p) in plan.placements.iter().enumerate() {
            // The pocket check floods the board: poll now and then.
            if id % 256 == 255 && stop.should_stop(0) {
                return None;
            }
            if Some(p.ty) == restricted && plan.reps_of(id).is_none() {
                continue;
            }
            let mask = B::from_cells(p.cells.iter().map(|&c| plan.bit_of[c as usize] as usize));
            // On the empty board, the lines outside the placement's own are full and open.
            let (first, last) = (mask.lowest().unwrap_or(0) / line, mask.highest().unwrap_or(0) / line);
            let outside = B::below(first * line) | !B::below((last + 1) * line);
            if self.pockets_ok(self.start | mask, outside) {
                kept.push((mask.lowest().unwrap_or(0), p.ty, mask, id as u32));
            }
        }
        kept.sort_by_key(|k| (k.0, k.1, k.3));
        let mut last = vec![None; self.n_types];
        for &(low, ty, _, _) in &kept {
            last[ty] = Some(low);
        }
        for (bit, expired) in self.expired.iter_mut().enumerate() {
            *expired = (0..self.n_types).filter(|&ty| last[ty].is_none_or(|l| l < bit)).fold(0, |m, ty| m | 1 << ty);
        }
        for group in kept.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
            let (low, ty) = (group[0].0, group[0].1);
            let first = self.masks.len() as u32;
            for &(_, _, mask, id) in group {
                // A placement misses the occupied cells of `byte` iff `byte` is a subset of the
                // complement of its own cells there: mark the complement, spread to subsets.
                self.hope.add(low * 512 + usize::from(!mask.byte_at(low + 1)), ty);
                self.hope.add(low * 512 + 256 + usize::from(!mask.byte_at(low + 9)), ty);
                self.masks.push(mask);
                self.ty.push(ty as u8);
                self.ids.push(id);
            }
            // Pad the group to a multiple of four with fillers (full masks, which meet any
            // non-empty occupancy), so that candidate scans run in whole chunks of four.
            while !self.masks.len().is_multiple_of(4) {
                self.masks.push(!B::empty());
                self.ty.push(ty as u8);
                self.ids.push(FILLER);
            }
            self.ranges[low * self.n_types + ty] = (first, self.masks.len() as u32);
        }
        for (low, n) in self.per_bit.iter_mut().enumerate() {
            *n = self.ranges[low * self.n_types..(low + 1) * self.n_types].iter().map(|r| r.1 - r.0).sum();
        }
        self.hope.spread_to_subsets();
        Some(())
    }

    /// The types of `avail` that may have a placement fitting at `f` (necessary, not sufficient).
    #[inline]
    fn hopeful(&self, f: usize, occ: B, avail: u64) -> u64 {
        let base = f * 512;
        avail
            & self.hope.get(base + usize::from(occ.byte_at(f + 1)))
            & self.hope.get(base + 256 + usize::from(occ.byte_at(f + 9)))
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

    /// The occupancy, open lines and copies left after a prefix.
    fn replay(&self, prefix: &[u32]) -> (B, B, Vec<u32>) {
        let (mut occ, mut open, mut counts) = (self.start, !B::empty(), self.counts.clone());
        for &i in prefix {
            let (i, m) = (i as usize, self.masks[i as usize]);
            occ |= m;
            open &= self.open_after[m.highest().unwrap_or(0)];
            counts[usize::from(self.ty[i])] -= 1;
        }
        (occ, open, counts)
    }
}

/// Bit fields, one per type, wide enough to count its copies: the unit of each field, or `None`
/// if they need more than 64 bits.
fn pack_units(counts: &[u32]) -> Option<Vec<u64>> {
    let mut offset = 0u32;
    let mut units = Vec::with_capacity(counts.len());
    for &c in counts {
        let width = 32 - c.leading_zeros();
        if offset + width > 63 {
            return None;
        }
        units.push(1u64 << offset);
        offset += width;
    }
    Some(units)
}

/// A direct-mapped table: one entry per slot, keys stored whole (a hit is never a false one), a
/// collision just overwrites. Two uses:
///
/// * *dead states*, keyed by `(occupancy, copies used)`: the subproblem below a node depends only
///   on which cells are covered and how many copies of each type are used, not on how the search
///   got there, and in fill-the-first-cell searches the same state recurs often near the end of
///   the board (other pieces, other order, same region left);
/// * *pocket checks*, keyed by the occupancy of the lines that are not open: lines before the
///   first free cell are full and open lines are empty, so that occupancy decides the check.
struct Memo<K, V> {
    /// Entries; a slot whose value is `V::default()` is free (values stored are never that).
    slots: Vec<(K, V)>,
    shift: u32,
}

impl<K: Copy + Eq + Default, V: Copy + Eq + Default> Memo<K, V> {
    fn new(log2: u32) -> Self {
        Memo { slots: vec![(K::default(), V::default()); 1 << log2], shift: 64 - log2 }
    }
    #[inline]
    fn slot(&self, hash: u64) -> usize {
        (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }
    #[inline]
    fn get(&self, key: K, hash: u64) -> Option<V> {
        let (k, v) = self.slots[self.slot(hash)];
        (v != V::default() && k == key).then_some(v)
    }
    #[inline]
    fn put(&mut self, key: K, hash: u64, value: V) {
        debug_assert!(value != V::default());
        let i = self.slot(hash);
        self.slots[i] = (key, value);
    }
}

/// The hash of a dead-state key.
#[inline]
fn state_hash<B: CellBits>(occ: B, used: u64) -> u64 {
    occ.digest() ^ used.wrapping_mul(0xff51_afd7_ed55_8ccd)
}

impl<B: CellBits> Engine for Fast<B> {
    fn prefixes(&self, min: usize) -> Vec<Vec<u32>> {
        let mut level: Vec<Vec<u32>> = vec![Vec::new()];
        while level.len() < min {
            let mut next = Vec::new();
            let mut grew = false;
            for p in &level {
                let (occ, open, counts) = self.replay(p);
                let mut run = Run::new(self, &counts, p.clone(), false);
                match run.candidates(occ) {
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
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Outcome {
        let mut run = Run::new(self, &self.counts, Vec::new(), true);
        while let Some(k) = next() {
            if budget.expired() {
                return Outcome::Stopped(budget.reason().unwrap_or(StopReason::Cancelled));
            }
            let (occ, open, counts) = self.replay(&prefixes[k]);
            run.reset(&counts, prefixes[k].clone());
            if let ControlFlow::Break(r) = run.dfs(occ, open, visit, budget) {
                return Outcome::Stopped(r);
            }
        }
        Outcome::Complete
    }

    /// Depth-first search in the natural order, then, if that takes long, restarts in random
    /// orders with growing node limits (the Luby sequence), which tames the heavy tail of
    /// first-solution times on large puzzles. Dead states are kept across restarts: they hold
    /// whatever the order.
    fn first(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>> {
        let mut run = Run::new(self, &self.counts, Vec::new(), true);
        let mut rng = Rng64::seed(seed);
        let mut restart = 0u64;
        loop {
            let (occ, open, counts) = self.replay(&[]);
            run.reset(&counts, Vec::new());
            run.shuffle = (restart > 0 || !natural_first).then(|| Rng64::seed(rng.next_u64()));
            let mut limited = budget.worker().with_nodes(RESTART_NODES.saturating_mul(luby(restart)));
            let mut found = None;
            let flow = run.dfs(
                occ,
                open,
                &mut |ids| {
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
struct Run<'a, B> {
    t: &'a Fast<B>,
    counts: [u32; MAX_TYPES],
    /// Bit `t` set iff type `t` has copies left.
    avail: u64,
    /// Packed copies used per type, the key of [`Memo`] (0 if counts do not pack).
    used: u64,
    /// States known to hold no tiling (when copies used pack into a word): occupancy to
    /// `used + 1`, in a slot chosen by both.
    dead: Option<Memo<B, u64>>,
    /// Pocket-check results by the occupancy of the lines that are not open: 1 fine, 2 not.
    pockets: Memo<B, u8>,
    stack: Vec<u32>,
    /// The candidates of every node on the current path, stacked: a node writes its own from
    /// `top` on and moves `top` past them while its children run.
    cand: Vec<u32>,
    top: usize,
    /// Room for one node's candidates (a power of two, at least the longest list of a bit).
    span: usize,
    ids: Vec<u32>,
    nodes: u64,
    /// Tilings visited so far.
    found: u64,
    /// When set, each node tries its candidates in a random order.
    shuffle: Option<Rng64>,
}

impl<'a, B: CellBits> Run<'a, B> {
    fn new(t: &'a Fast<B>, counts: &[u32], stack: Vec<u32>, remember_dead: bool) -> Self {
        // Room for the candidates of every level: pieces placed + 1 levels, each at most the
        // longest list filed under one bit.
        let depth = t.counts.iter().map(|&c| c as usize).sum::<usize>() + 1;
        let span = (t.per_bit.iter().copied().max().unwrap_or(0) as usize).next_power_of_two();
        // A dead-state table in proportion to the puzzle, within 2^10..2^20 entries and
        // DEAD_BYTES (on big boards an entry holds a long occupancy: allocating and clearing a
        // huge table would cost more than the search it saves).
        let fit = (DEAD_BYTES / std::mem::size_of::<(B, u64)>()).ilog2();
        let log2 = (t.masks.len() * 16).next_power_of_two().trailing_zeros().clamp(10, DEAD_LOG2.min(fit));
        let mut run = Run {
            t,
            counts: [0; MAX_TYPES],
            avail: 0,
            used: 0,
            dead: (remember_dead && t.packs).then(|| Memo::new(log2)),
            pockets: Memo::new(if remember_dead { 14 } else { 1 }),
            stack: Vec::new(),
            cand: vec![0; (depth + 1) * span],
            span,
            top: 0,
            ids: Vec::new(),
            nodes: 0,
            found: 0,
            shuffle: None,
        };
        run.reset(counts, stack);
        run
    }

    /// Starts over below a new prefix (keeping the dead states: they hold for any prefix).
    fn reset(&mut self, counts: &[u32], stack: Vec<u32>) {
        self.counts = [0; MAX_TYPES];
        self.counts[..counts.len()].copy_from_slice(counts);
        self.avail = (0..counts.len()).filter(|&k| counts[k] > 0).fold(0u64, |a, k| a | 1 << k);
        self.used = stack.iter().map(|&i| self.t.units[usize::from(self.t.ty[i as usize]) % MAX_TYPES]).sum();
        self.stack = stack;
        self.top = 0;
    }

    /// Writes the placements that fit at the first free cell at `cand[top..]`; returns how many,
    /// or `None` when the board is full.
    #[inline]
    fn write_candidates(&mut self, occ: B) -> Option<usize> {
        let f = (!occ).lowest()?;
        let t = self.t;
        let mut types = t.hopeful(f, occ, self.avail);
        if types == 0 || t.expired[f] & self.avail != 0 {
            return Some(0);
        }
        let row = &t.ranges[f * t.n_types..(f + 1) * t.n_types];
        // A window as long as the widest cell's list (a power of two): indices are masked into
        // it, which is free, instead of bounds-checked, and never wrap.
        let wrap = self.span - 1;
        let out = &mut self.cand[self.top..self.top + self.span];
        let mut n = 0;
        if occ.is_empty() {
            // Only at the root of a board that fills its whole word: fillers would fit here.
            while types != 0 {
                let (a, b) = row[types.trailing_zeros() as usize];
                types &= types - 1;
                for i in (a..b).filter(|&i| t.ids[i as usize] != FILLER) {
                    out[n & wrap] = i;
                    n += 1;
                }
            }
            return Some(n);
        }
        // Hot loop: every type with copies left, every placement of it at the first free cell,
        // in whole chunks of four; the index is written unconditionally and kept if the
        // placement fits (no branch).
        while types != 0 {
            let (a, b) = row[types.trailing_zeros() as usize];
            types &= types - 1;
            let (a, b) = (a as usize, b as usize);
            for (k, quad) in t.masks[a..b].chunks_exact(4).enumerate() {
                let base = a + 4 * k;
                for (i, m) in quad.iter().enumerate() {
                    out[n & wrap] = (base + i) as u32;
                    n += usize::from(!m.intersects(occ));
                }
            }
        }
        Some(n)
    }

    /// The fitting placements at the first free cell (`None` when the board is full).
    fn candidates(&mut self, occ: B) -> Option<Vec<u32>> {
        let n = self.write_candidates(occ)?;
        Some(self.cand[self.top..self.top + n].to_vec())
    }

    fn dfs(
        &mut self,
        occ: B,
        open: B,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
        budget: &mut Budget,
    ) -> ControlFlow<StopReason> {
        // Prune: the state is known dead, nothing fits, or a pocket cannot be filled.
        if self.dead.as_ref().is_some_and(|d| d.get(occ, state_hash(occ, self.used)) == Some(self.used + 1)) {
            return ControlFlow::Continue(());
        }
        let Some(n) = self.write_candidates(occ) else { return self.found(visit) };
        let t = self.t;
        if n == 0 || (self.stack.len() + NO_POCKETS_LEFT < self.t.pieces && !self.pockets_ok(occ, open)) {
            return ControlFlow::Continue(());
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && budget.should_stop(POLL_INTERVAL) {
            return ControlFlow::Break(budget.reason().unwrap_or(StopReason::Cancelled));
        }
        let (base, found_before) = (self.top, self.found);
        if let Some(rng) = self.shuffle.as_mut() {
            let cand = &mut self.cand[base..base + n];
            for k in (1..n).rev() {
                cand.swap(k, rng.below(k as u64 + 1) as usize);
            }
        }
        self.top += n;
        let mut flow = ControlFlow::Continue(());
        for k in base..base + n {
            let i = self.cand[k];
            let (ty, mask) = (usize::from(t.ty[i as usize]) % MAX_TYPES, t.masks[i as usize]);
            self.counts[ty] -= 1;
            if self.counts[ty] == 0 {
                self.avail ^= 1 << ty;
            }
            let next = occ | mask;
            if let Some(f) = (!next).lowest()
                && (t.hopeful(f, next, self.avail) == 0 || t.expired[f] & self.avail != 0)
            {
                // The child has nothing to try, or a type it still needs has no placement left
                // at or after its first free cell: skip the call.
                if self.counts[ty] == 0 {
                    self.avail ^= 1 << ty;
                }
                self.counts[ty] += 1;
                continue;
            }
            let unit = t.units[ty];
            self.used += unit;
            self.stack.push(i);
            flow = self.dfs(next, open & t.open_after[mask.highest().unwrap_or(0)], visit, budget);
            self.stack.pop();
            self.used -= unit;
            if self.counts[ty] == 0 {
                self.avail ^= 1 << ty;
            }
            self.counts[ty] += 1;
            if flow.is_break() {
                break;
            }
        }
        self.top = base;
        if flow.is_continue()
            && self.found == found_before
            && let Some(d) = self.dead.as_mut()
        {
            d.put(occ, state_hash(occ, self.used), self.used + 1);
        }
        flow
    }

    /// The pocket check, through the cache.
    #[inline]
    fn pockets_ok(&mut self, occ: B, open: B) -> bool {
        let key = occ & !open;
        let hash = key.digest();
        let result = self.pockets.get(key, hash).unwrap_or_else(|| {
            let r = if self.t.pockets_ok(occ, open) { 1 } else { 2 };
            self.pockets.put(key, hash, r);
            r
        });
        result == 1
    }

    fn found(&mut self, visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>) -> ControlFlow<StopReason> {
        self.found += 1;
        self.ids.clear();
        self.ids.extend(self.stack.iter().map(|&i| self.t.ids[i as usize]));
        match visit(&self.ids) {
            ControlFlow::Continue(()) => ControlFlow::Continue(()),
            ControlFlow::Break(()) => ControlFlow::Break(StopReason::Visitor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(seq, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
