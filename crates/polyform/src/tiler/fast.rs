//! The fast engine: its tables and its entry points.
//!
//! A [`Fast`] holds a puzzle compiled for the bit-mask search (see `search.rs`): the board as a
//! mask laid out in lines along its shorter side (see [`crate::tiler::plan`]), every placement
//! as a mask filed under its lowest bit, the tables that find which of them fit a node
//! ([`FitTables`]), the flood steps of the pocket check, and the filters of the regions that the
//! last two and three pieces tile, made on first use. The searches over these tables, and the
//! engine's entry points (splitting the search into prefixes, running workers below them,
//! looking for one tiling with random restarts), are in `search.rs`, which depends on this
//! module and not the other way round.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use tessera_core::runtime::Stop;

use crate::bits::CellBits;
use crate::tiler::fit::FitTables;
use crate::tiler::memo::pack_units;
use crate::tiler::pairs::{Filters, Piece, making_cost};
use crate::tiler::plan::Plan;

/// Most piece types the fast search handles (they are tracked in one word).
pub(crate) const MAX_TYPES: usize = 64;

/// Log2 of the largest number of dead-state entries a search starts with (the table grows as
/// the search meets more states, up to [`DEAD_BYTES`]).
const DEAD_LOG2: u32 = 20;

/// Most memory of one search's dead-state table, grown.
pub(super) const DEAD_BYTES: usize = 32 << 20;

/// Log2 of the slots a search's dead-state table starts with, for `placements` placements: in
/// proportion to the puzzle, within 2^10..2^20 entries and [`DEAD_BYTES`] (on big boards an entry
/// holds a long occupancy: allocating and clearing a huge table would cost more than the search
/// it saves). The table grows with the states the search meets.
pub(super) fn dead_log2<B>(placements: usize) -> u32 {
    let fit = (DEAD_BYTES / std::mem::size_of::<(B, u64)>()).ilog2();
    (placements * 16).next_power_of_two().trailing_zeros().clamp(10, DEAD_LOG2.min(fit))
}

/// Neighbour steps towards higher bits (and towards lower bits) in one flood step: at most 4
/// each way on both lattices.
const STEPS: usize = 4;

/// Tables of at least this many bytes in all (pocket results and dead states) are too big for
/// the processor's nearer caches: a node then prefetches its children's slots (see
/// [`Fast::prefetch_bytes`]).
const PREFETCH_BYTES: usize = 1 << 20;

/// A node of the search costs about as much as entering this many pairs into the filters (see
/// [`Fast::filters_cost`]). Counted in instructions on a development set of random planted
/// puzzles: a node 600 to 1000, a pair 45 to 50.
const PAIRS_PER_NODE: u64 = 16;

/// The fast engine's tables for one cell-set representation `B`.
pub(crate) struct Fast<B> {
    n_types: usize,
    /// Bits that are never free: holes in the bounding box and bits past it.
    pub(super) start: B,
    /// Which placements filed under a bit fit a node (placements are indices into `places`,
    /// filed by lowest bit, then type).
    fit: FitTables,
    /// Bits of the layout (at least 1).
    pub(super) nbits: usize,
    /// The placements' masks, filed by lowest bit, then type. (Apart from their types and open
    /// lines: a node reads the mask and type of each candidate, the open lines only of those it
    /// descends into, so the masks it reads share cache lines.)
    pub(super) masks: Vec<B>,
    /// The placements' types.
    pub(super) tys: Vec<u8>,
    /// The placements' open lines: the lines after the line of its last bit.
    pub(super) opens: Vec<B>,
    /// Plan placement index of each placement.
    pub(super) ids: Vec<u32>,
    /// How many tilings a tiling with each placement stands for: the number of images of a
    /// placement of the symmetry-breaking type (see [`Plan::reps_of`]), 1 for the others. The
    /// restricted type has one copy, so a tiling holds at most one weight above 1.
    pub(super) weights: Vec<u8>,
    /// The board cell of each bit (`u32::MAX` for bits that are no cell).
    pub(super) cell_of_bit: Vec<u32>,
    /// Number of board cells.
    pub(super) cells: usize,
    /// `open_after[bit]`: the lines after the line of `bit`. A placement whose last bit is `bit`
    /// leaves them open.
    open_after: Vec<B>,
    pub(super) counts: Vec<u32>,
    /// Pieces in all.
    pub(super) pieces: usize,
    /// What one more copy of each type adds to the packed count of copies used.
    pub(super) units: [u64; MAX_TYPES],
    /// Bits of the copies used, packed one field per type (keying [`DeadStates`](crate::tiler::memo::DeadStates)), if they fit
    /// in a word.
    pub(super) used_bits: Option<u32>,
    /// Flood steps: `(k, bits whose neighbour is k bits higher)`; unused entries hold no bits.
    up: [(u32, B); STEPS],
    /// Flood steps: `(k, bits whose neighbour is k bits lower)`.
    down: [(u32, B); STEPS],
    /// Entries of `up` and of `down` in use, the larger (see [`Fast::flood`]).
    steps: usize,
    fillable: Vec<bool>,
    /// Whether the pocket check prunes: every piece is in one part (a piece in several could
    /// reach into a closed region) and some region size is not fillable.
    pocket_check: bool,
    /// Whether some type may use fewer copies than its most: a tiling must then be checked
    /// against the least of each ([`Fast::slack`], [`Fast::required`]).
    pub(super) ranged: bool,
    /// Per type: how many of its copies a tiling may leave unused (most minus least).
    pub(super) slack: [u32; MAX_TYPES],
    /// The types that a tiling must use (a least of at least one).
    pub(super) required: u64,
    /// Bits below this must be covered; the optional cells' bits come after (see
    /// [`Plan::fixed_bits`]).
    pub(super) fixed_bits: usize,
    /// The type of empty cells, if optional cells may stay empty, and the index of its
    /// placement at each bit from `fixed_bits` on (`u32::MAX`: none).
    pub(super) empty: Option<(usize, Vec<u32>)>,
    /// The regions the last two and the last three pieces may tile (when copies used pack into
    /// a word), made by the first enumeration to visit [`Fast::filters_after`] nodes: a search
    /// for one tiling, or a small count, often ends before they would pay.
    filters: OnceLock<Option<Filters>>,
    /// Nodes an enumeration visits before it makes and uses the filters (see
    /// [`Fast::filters_cost`]).
    pub(super) filters_after: u64,
    /// Packed copies of all pieces.
    pub(super) all_used: u64,
    /// The placements' masks again, by type, then lowest bit (see [`Fast::somewhere`]).
    pub(super) by_type: Vec<B>,
    /// Where in `by_type` the placements of each type whose lowest bit is at least `b` start:
    /// entry `t * (nbits + 1) + b` (entry `t * (nbits + 1) + nbits` ends the type's).
    pub(super) type_from: Vec<u32>,
    /// Bits the longest placement spans (highest minus lowest bit plus one): a node's
    /// occupancy past its first free cell lies within them.
    pub(super) span: u32,
    /// Log2 of the slots each search's table of dead states starts with (see
    /// [`dead_log2`]).
    pub(super) dead_log2: u32,
    /// A node prefetches its children's table slots once a search's tables take this many
    /// bytes ([`PREFETCH_BYTES`]; below, they stay in cache and the prefetches only cost).
    pub(super) prefetch_bytes: usize,
    /// Whether enumerations search the most constrained cell or piece first (see `mrv.rs`).
    pub(super) mrv: bool,
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
            weights: Vec::new(),
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
            steps: 0,
            pocket_check: plan.connected && plan.fillable.iter().take(plan.len() + 1).any(|&f| !f),
            fillable: plan.fillable.clone(),
            ranged: plan.has_ranges(),
            slack: std::array::from_fn(|t| plan.types.get(t).map_or(0, |ty| ty.count - ty.min)),
            required: plan.types.iter().enumerate().filter(|(_, ty)| ty.min > 0).fold(0, |m, (t, _)| m | 1 << t),
            fixed_bits: plan.fixed_bits,
            empty: None,
            filters: OnceLock::new(),
            filters_after: u64::MAX,
            all_used: 0,
            by_type: Vec::new(),
            type_from: Vec::new(),
            span: 0,
            dead_log2: 0,
            prefetch_bytes: PREFETCH_BYTES,
            mrv: false,
        };
        let (mut up, mut down) = (0, 0);
        // A layout in lines has at most `STEPS` neighbour steps each way; one with the optional
        // cells last has no lines (and no pocket check).
        if plan.fixed_bits == plan.nbits {
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
        } else {
            f.pocket_check = false;
        }
        f.steps = up.max(down);
        for (u, x) in f.units.iter_mut().zip(units.map(|u| u.0).unwrap_or_default()) {
            *u = x;
        }
        f.all_used = f.counts.iter().zip(&f.units).map(|(&c, &u)| u64::from(c) * u).sum();
        f.file_placements(plan, stop)?;
        if let Some(e) = plan.empty {
            let mut at = vec![u32::MAX; plan.nbits.max(1) - plan.fixed_bits];
            for (i, m) in f.masks.iter().enumerate().filter(|&(i, _)| usize::from(f.tys[i]) == e) {
                at[m.lowest().unwrap_or(0) - plan.fixed_bits] = i as u32;
            }
            f.empty = Some((e, at));
        }
        f.file_by_type();
        let span = f.masks.iter().map(|m| m.highest().unwrap_or(0) - m.lowest().unwrap_or(0) + 1).max();
        f.span = span.unwrap_or(1) as u32;
        f.dead_log2 = dead_log2::<B>(f.masks.len());
        f.filters_after = f.filters_cost();
        Some(f)
    }

    /// These tables searched most constrained first (see `mrv.rs`) when `yes`, unless some type
    /// has a range of copies.
    pub(crate) fn constrained(mut self, yes: bool) -> Self {
        self.mrv = yes && !self.ranged;
        self
    }

    /// What making the filters costs, in nodes of the search ([`making_cost`] over
    /// [`PAIRS_PER_NODE`]; `u64::MAX` if there are no filters to make). An enumeration searches
    /// without them until it has visited that many nodes, then makes them: a small count,
    /// done in fewer nodes than the filters cost, never pays for them (they were two fifths of
    /// a whole count of pentominoes in 3x20), and a long one pays at most about twice what the
    /// better choice in hindsight would (the rent-or-buy rule).
    fn filters_cost(&self) -> u64 {
        if self.used_bits.is_none() || self.pieces < 3 || self.ranged {
            return u64::MAX;
        }
        making_cost(self.masks.len(), |i| self.piece(i)).map_or(u64::MAX, |steps| steps / PAIRS_PER_NODE)
    }

    /// Placement `i` as the filters see it.
    fn piece(&self, i: usize) -> Piece<B> {
        let ty = usize::from(self.tys[i]) % MAX_TYPES;
        Piece { mask: self.masks[i], unit: self.units[ty], ty }
    }

    /// Whether the filters are made (by any search).
    pub(super) fn filters_made(&self) -> bool {
        self.filters.get().is_some()
    }

    /// The filters of pairs and triples, made on first use.
    pub(super) fn filters(&self) -> Option<&Filters> {
        let make = || {
            // The filters hold the regions the last pieces tile: with ranges, which pieces are
            // the last is not known.
            if self.used_bits.is_none() || self.pieces < 3 || self.ranged {
                return None;
            }
            Filters::new(self.masks.len(), |i| self.piece(i), &self.counts)
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
        (self.ids, self.weights) = (vec![0; kept], vec![1; kept]);
        let mut next = start.clone();
        for (id, p) in plan.placements.iter().enumerate().filter(|&(id, _)| low_of[id] != u32::MAX) {
            let mask = mask_of(p);
            let at = &mut next[low_of[id] as usize];
            (self.masks[*at], self.tys[*at]) = (mask, p.ty as u8);
            self.opens[*at] = self.open_after[mask.highest().unwrap_or(0)];
            self.ids[*at] = id as u32;
            self.weights[*at] = plan.reps_of(id).map_or(1, |r| r.len() as u8);
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

    /// Files the placements' masks by type, then lowest bit, for [`Fast::somewhere`].
    fn file_by_type(&mut self) {
        let row = self.nbits + 1;
        // Counted by (type, lowest bit), then summed into starts.
        let mut from = vec![0u32; self.n_types * row + 1];
        for (&ty, mask) in self.tys.iter().zip(&self.masks) {
            from[usize::from(ty) * row + mask.lowest().unwrap_or(0) + 1] += 1;
        }
        for k in 1..from.len() {
            from[k] += from[k - 1];
        }
        let mut next = from.clone();
        self.by_type = vec![B::empty(); self.masks.len()];
        for (&ty, &mask) in self.tys.iter().zip(&self.masks) {
            let at = &mut next[usize::from(ty) * row + mask.lowest().unwrap_or(0)];
            self.by_type[*at as usize] = mask;
            *at += 1;
        }
        from.pop();
        self.type_from = from;
    }

    /// Whether some placement of type `ty` fits the free cells of `occ`, whose first free cell
    /// is `f`, looking first at the one at `*witness` (an index into `by_type`, updated to the
    /// one found): the one that fitted last mostly still does. Only placements whose lowest bit
    /// is at least `f` can fit.
    #[inline]
    pub(super) fn somewhere(&self, ty: usize, occ: B, f: usize, witness: &mut u32) -> bool {
        let row = ty * (self.nbits + 1);
        let (lo, hi) = (self.type_from[row + f] as usize, self.type_from[row + self.nbits] as usize);
        let w = (*witness as usize).clamp(lo, hi);
        // Hot: a scan of the type's masks from the witness on, then from the first that may fit
        // up to it.
        let found = match self.by_type[w..hi].iter().position(|m| !m.intersects(occ)) {
            Some(k) => w + k,
            None => match self.by_type[lo..w].iter().position(|m| !m.intersects(occ)) {
                Some(k) => lo + k,
                None => return false,
            },
        };
        *witness = found as u32;
        true
    }

    /// The first chunk at `f`, the first free cell of `occ`, with a placement that fits (its
    /// type in `avail`), and those that fit in it (see [`FitTables::first_fitting`]: `need`, the
    /// types whose copies must still be placed, is `avail` without ranges).
    #[inline(always)]
    pub(super) fn fitting(&self, f: usize, occ: B, avail: u64, need: u64) -> Option<(usize, u128)> {
        self.fit.first_fitting(f, occ, (avail, need), &|i| self.masks[i])
    }

    /// Calls `visit` with every placement from [`Fast::fitting`]'s answer on, until it breaks.
    #[inline]
    pub(super) fn each_fitting<R>(
        &self,
        at: (usize, usize, u128),
        occ: B,
        avail: u64,
        visit: impl FnMut(usize) -> ControlFlow<R>,
    ) -> ControlFlow<R> {
        self.fit.for_each(at, (occ, avail, &|i| self.masks[i]), visit)
    }

    /// Every placement that fits at the first free cell of `occ` (`None` when the board is full),
    /// with `counts` copies left of each type.
    pub(super) fn all_fitting(&self, occ: B, counts: &[u32]) -> Option<Vec<u32>> {
        let f = (!occ).lowest()?;
        let mut out = Vec::new();
        let avail = avail_of(counts);
        if let Some((c, fits)) = self.fitting(f, occ, avail, self.need_of(counts)) {
            let _ = self.each_fitting((f, c, fits), occ, avail, |i| {
                out.push(i as u32);
                ControlFlow::<()>::Continue(())
            });
        }
        Some(out)
    }

    /// One flood step: `set` and its neighbours along the first `N` steps each way (a number
    /// fixed at compile time, so the loops unroll).
    #[inline]
    fn grow<const N: usize>(&self, set: B) -> B {
        let mut grown = set;
        for &(k, from) in &self.up[..N] {
            grown |= (set & from).shl(k);
        }
        for &(k, from) in &self.down[..N] {
            grown |= (set & from).shr(k);
        }
        grown
    }

    /// Everything in `within` connected to `from` (which lies in `within`), in steps of as many
    /// neighbours as the lattice has each way (entries past them hold no bits): two on square
    /// and triangle boards, three on cube ones, four on hex ones.
    fn flood(&self, from: B, within: B) -> B {
        match self.steps {
            0..=2 => self.flood_in::<2>(from, within),
            3 => self.flood_in::<3>(from, within),
            _ => self.flood_in::<STEPS>(from, within),
        }
    }

    fn flood_in<const N: usize>(&self, mut from: B, within: B) -> B {
        loop {
            let grown = self.grow::<N>(from) & within;
            // Once all of `within` is reached there is nothing left to grow into: stop without
            // the step that would only find so.
            if grown == from || grown == within {
                return grown;
            }
            from = grown;
        }
    }

    /// Whether every free region closed off from `open` has a fillable size. The flood starts
    /// from the open lines and walks back into the few lines the placed pieces reach; whatever
    /// free cell it cannot reach is in a closed pocket, measured exactly. With `open` empty every
    /// region is measured.
    #[inline]
    pub(super) fn pockets_ok(&self, occ: B, open: B) -> bool {
        if !self.pocket_check {
            return true;
        }
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
pub(super) fn avail_of(counts: &[u32]) -> u64 {
    (0..counts.len()).filter(|&k| counts[k] > 0).fold(0, |a, k| a | 1 << k)
}

impl<B> Fast<B> {
    /// The types whose copies must still be placed, with `counts` copies left of each: those
    /// with copies left, without ranges; those with more left than they may leave unused, with.
    pub(super) fn need_of(&self, counts: &[u32]) -> u64 {
        (0..counts.len())
            .filter(|&k| counts[k] > if self.ranged { self.slack[k] } else { 0 })
            .fold(0, |a, k| a | 1 << k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{Bitboard, WideBits};
    use crate::tiler::engine::Engine;
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

    /// Thirteen one-sided pentominoes on a board without symmetry (168 tilings).
    fn thirteen_one_sided() -> Plan {
        let pieces = [
            ('N', 1, false, "##..\n.###"),
            ('n', 1, false, "..##\n###."),
            ('P', 1, false, "##\n##\n#."),
            ('p', 1, false, "##\n##\n.#"),
            ('T', 1, false, "###\n.#.\n.#."),
            ('U', 1, false, "#.#\n###"),
            ('V', 1, false, "#..\n#..\n###"),
            ('W', 1, false, "#..\n##.\n.##"),
            ('X', 1, false, ".#.\n###\n.#."),
            ('Y', 1, false, "..#.\n####"),
            ('y', 1, false, ".#..\n####"),
            ('Z', 1, false, "##.\n.#.\n.##"),
            ('z', 1, false, ".##\n.#.\n##."),
        ];
        let board = "##############\n#############\n#############\n#############\n############.";
        Plan::new(&from_pictures(Lattice::Square, board, &pieces).unwrap())
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
        eprintln!(
            "fast {} dlx {} cells {} nbits {}",
            listed.len(),
            tilings(&crate::tiler::dlx::Dlx::new(&plan)).len(),
            plan.len(),
            plan.nbits
        );
        assert!(!listed.is_empty());
        assert_eq!(listed, tilings(&crate::tiler::dlx::Dlx::new(&plan)));
    }

    /// More than 12 piece types (types past the fit tables' main nibbles), and a search whose
    /// table of dead states starts at 16 slots, so that it doubles many times on the way: the
    /// enumeration lists exactly the tilings dancing links lists. Thirteen one-sided pentominoes
    /// on a board without symmetry (168 tilings).
    #[test]
    fn many_types_and_a_growing_dead_state_table_keep_every_tiling() {
        let plan = thirteen_one_sided();
        assert!(plan.types.len() > 12 && plan.restriction.is_none() && plan.nbits > 64);
        let mut fast = Fast::<WideBits<2>>::new(&plan, &mut Budget::unlimited().worker()).unwrap();
        let expected = tilings(&crate::tiler::dlx::Dlx::new(&plan));
        assert!(!expected.is_empty());
        // Keys of 41 bits: whole in a table of 16 slots, narrow in one of 2^11; with children's
        // slots prefetched at every node, and never.
        for (log2, prefetch_bytes) in [(4, 0), (11, 0), (11, usize::MAX)] {
            (fast.dead_log2, fast.prefetch_bytes) = (log2, prefetch_bytes);
            assert_eq!(tilings(&fast), expected, "from 2^{log2} slots, prefetch from {prefetch_bytes} bytes");
        }
    }

    /// The filters of pairs and triples may come into an enumeration at any node: from the
    /// start, part way (at the first poll of the budget), or never, it lists exactly the tilings
    /// dancing links lists (the thirteen one-sided pentominoes above).
    #[test]
    fn filters_may_come_in_at_any_node() {
        let plan = thirteen_one_sided();
        let mut fast = Fast::<WideBits<2>>::new(&plan, &mut Budget::unlimited().worker()).unwrap();
        let expected = tilings(&crate::tiler::dlx::Dlx::new(&plan));
        for after in [u64::MAX, tessera_core::runtime::POLL_INTERVAL, 0] {
            fast.filters_after = after;
            assert_eq!(tilings(&fast), expected, "filters after {after} nodes");
            assert_eq!(fast.filters_made(), after < u64::MAX, "filters after {after} nodes");
        }
    }

    /// A count by subtrees (a type with copies) gives the number of tilings that dancing links
    /// lists, with the children's table slots prefetched at every node and never.
    #[test]
    fn counts_by_subtrees_with_and_without_prefetching() {
        let pieces = [('L', 3, true, "#.\n#.\n##"), ('I', 1, true, "####"), ('T', 2, true, "###\n.#.")];
        let (plan, mut fast) = engine("#######\n#######\n#######\n###....", &pieces);
        assert!(plan.restriction.is_none() && fast.counts_subtrees());
        let expected = tilings(&crate::tiler::dlx::Dlx::new(&plan)).len() as u128;
        assert!(expected > 0);
        for prefetch_bytes in [0, usize::MAX] {
            fast.prefetch_bytes = prefetch_bytes;
            let (taken, mut budget) = (std::cell::Cell::new(false), Budget::unlimited());
            let next = || (!taken.replace(true)).then_some(0);
            let (n, _, outcome) = fast.count(&[Vec::new()], &next, &mut budget, &|_| {}).unwrap();
            assert_eq!((n, outcome), (expected, Outcome::Complete), "prefetch from {prefetch_bytes} bytes");
        }
    }

    /// `somewhere` says whether some placement of a type fits exactly when one of the type's
    /// placements misses every covered cell, wherever its witness points, on random
    /// occupancies covered up to their first free cell (as the search's are).
    #[test]
    fn somewhere_finds_a_fitting_placement_or_none() {
        let pieces = [('L', 2, true, "#.\n#.\n##"), ('I', 1, true, "####"), ('T', 1, true, "###\n.#.")];
        let (_, fast) = engine("######\n######\n######\n######", &pieces);
        let mut rng = tessera_core::rng::Rng64::seed(5);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..2000 {
            let f = rng.below(20) as usize;
            let mut occ = fast.start | Bitboard::below(f);
            for b in f + 1..fast.nbits {
                if rng.below(4) == 0 {
                    occ |= Bitboard::from_cells([b]);
                }
            }
            for ty in 0..pieces.len() {
                let expected =
                    (0..fast.masks.len()).any(|i| usize::from(fast.tys[i]) == ty && !fast.masks[i].intersects(occ));
                let mut witness = rng.below(fast.masks.len() as u64) as u32;
                assert_eq!(fast.somewhere(ty, occ, f, &mut witness), expected, "type {ty}, first free {f}");
                if expected {
                    assert!(!fast.by_type[witness as usize].intersects(occ), "the witness fits");
                }
                (yes, no) = if expected { (yes + 1, no) } else { (yes, no + 1) };
            }
        }
        assert!(yes > 100 && no > 100, "both answers met: {yes} yes, {no} no");
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
}
