//! The last two or three pieces: filters of the regions that two or three placements tile.
//!
//! Deep in a fill-the-first-cell search most of the work is at its end: with three pieces left,
//! each child placement leaves a region of two pieces' cells, and almost always the last two
//! pieces cannot tile it. The search would place the child, look up what fits
//! at its first free cell, call it, and try the last piece. Instead, every pair of disjoint
//! placements near the end of the board is entered once, keyed by the region it covers and the
//! copies it uses, into a Bloom filter whose keys each set three bits of one word:
//!
//! ```text
//!   key = (region, copies)  --hash-->  word w, bits i, j, k
//!   may tile  <=>  words[w] has bits i, j and k set        (one load)
//! ```
//!
//! A region the filter rules out cannot be tiled by the two pieces left; a region it lets
//! through is searched as usual, so a false positive costs time, never a tiling.
//!
//! The same filter one level up holds the regions that three disjoint placements tile, for
//! nodes with four pieces left, when the band has few such triples (meteor's has; the
//! pentominoes' bands hold far more, and they do without). What both filters do on meteor is in
//! `docs/journal/2026-11-26-tiling-meteor-filter-of-triples.md`.

use std::ops::ControlFlow;

use crate::bits::CellBits;

/// Most placements in the band of bits the filter covers: pairs are enumerated in quadratic
/// time, so the band stops growing past this many.
const BAND: usize = 500;

/// Log2 of the most words of the filter (2^12 words: 32 KB).
const MAX_WORDS_LOG2: u32 = 12;

/// A filter of the (region, copies used) that two (or three) disjoint placements cover, for the
/// regions whose first cell is at least [`RegionFilter::from`].
pub(crate) struct RegionFilter {
    words: Vec<u64>,
    shift: u32,
    /// Every pair (or triple) of placements whose lowest bits are all at least this was entered.
    pub(crate) from: usize,
}

/// One placement as the filter sees it.
#[derive(Clone, Copy)]
pub(crate) struct Piece<B> {
    pub(crate) mask: B,
    /// Packed copies it uses (one unit of its type).
    pub(crate) unit: u64,
    /// Its type.
    pub(crate) ty: usize,
}

/// The filters of the regions that the last two and the last three pieces tile.
pub(crate) struct Filters {
    pub(crate) pairs: RegionFilter,
    /// Only while the triples are few (see [`TRIPLE_KEYS`]).
    pub(crate) triples: Option<RegionFilter>,
}

/// Log2 of the words of the filter of triples (2^13 words: 64 KB).
const TRIPLE_WORDS_LOG2: u32 = 13;

/// Most triples entered (four keys a word): past them the filter would let most regions through,
/// and listing them would cost more than it saves. A band with more than half as many disjoint
/// pairs gets no filter of triples.
const TRIPLE_KEYS: usize = 4 << TRIPLE_WORDS_LOG2;

impl Filters {
    /// The filters of the pairs and of the triples of the `n` placements that `piece` gives
    /// (sorted by lowest bit) in the band of the last bits holding at most [`BAND`] of them;
    /// copies of one type go together only as far as `counts` has them. `None` if the band
    /// would be empty.
    pub(crate) fn new<B: CellBits>(n: usize, piece: impl Fn(usize) -> Piece<B>, counts: &[u32]) -> Option<Self> {
        let band = band(n, &piece)?;
        let band: Vec<Piece<B>> = band.map(piece).collect();
        let from = band[0].mask.lowest().unwrap_or(0);
        // About one key in six pairs of the band is a disjoint pair; three keys a word.
        let log2 = (band.len() * band.len() / 36).max(64).next_power_of_two().trailing_zeros().min(MAX_WORDS_LOG2);
        let mut pairs = RegionFilter::empty(log2, from);
        let sets = Meets::new(&band, from);
        let mut entered = 0;
        let _ = sets.each_pair(&band, counts, false, |a, b, _| {
            pairs.insert(a.mask | b.0.mask, a.unit + b.0.unit);
            entered += 1;
            ControlFlow::Continue(())
        });
        let triples = (entered <= TRIPLE_KEYS / 2).then(|| triples(&band, &sets, counts, from)).flatten();
        Some(Filters { pairs, triples })
    }
}

/// The filter of the triples of the band, unless there are more than [`TRIPLE_KEYS`].
fn triples<B: CellBits>(band: &[Piece<B>], sets: &Meets, counts: &[u32], from: usize) -> Option<RegionFilter> {
    let mut triples = RegionFilter::empty(TRIPLE_WORDS_LOG2, from);
    let mut entered = 0;
    let flow = sets.each_pair(band, counts, true, |a, (b, j), meets| {
        let (ab, units) = (a.mask | b.mask, a.unit + b.unit);
        let _ = sets.after(meets, j, |l| {
            let c = &band[l];
            if counts[c.ty] > u32::from(a.ty == c.ty) + u32::from(b.ty == c.ty) {
                triples.insert(ab | c.mask, units + c.unit);
                entered += 1;
            }
            ControlFlow::Continue(())
        });
        if entered > TRIPLE_KEYS { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    flow.is_continue().then_some(triples)
}

/// What making the filters costs, in steps of entering one pair (`None` if there is no band to
/// make them for): the band's disjoint pairs, and when they are few enough for a filter of
/// triples, [`TRIPLE_STEPS`] more. Counted in instructions on a development set of random
/// planted puzzles, an entered pair takes 45 to 50, looking for the triples 1 to 4 M in all.
pub(crate) fn making_cost<B: CellBits>(n: usize, piece: impl Fn(usize) -> Piece<B>) -> Option<u64> {
    let band: Vec<Piece<B>> = band(n, &piece)?.map(piece).collect();
    let sets = Meets::new(&band, band[0].mask.lowest().unwrap_or(0));
    let pairs: u64 = (0..band.len()).map(|k| sets.apart_after(k)).sum();
    Some(pairs + if pairs <= TRIPLE_KEYS as u64 / 2 { TRIPLE_STEPS } else { 0 })
}

/// What looking for the triples costs, in steps of entering a pair (see [`making_cost`]).
const TRIPLE_STEPS: u64 = 50_000;

/// The band: the indices of the last bits' placements, whole bits, as long as they hold at most
/// [`BAND`] placements (`None` if there is none).
fn band<B: CellBits>(n: usize, piece: &impl Fn(usize) -> Piece<B>) -> Option<std::ops::Range<usize>> {
    let lowest = |i: usize| piece(i).mask.lowest();
    let mut start = n;
    while start > 0 && n - start < BAND {
        let low = lowest(start - 1);
        let (mut lo, mut hi) = (0, start);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if lowest(mid) < low { lo = mid + 1 } else { hi = mid }
        }
        if n - lo > BAND {
            break;
        }
        start = lo;
    }
    (start < n).then_some(start..n)
}

/// For each placement of the band, the set of the band's placements that meet it (share a cell
/// with it, itself included): one bit a placement, `words` words a set.
struct Meets {
    words: usize,
    len: usize,
    sets: Vec<u64>,
}

impl Meets {
    fn new<B: CellBits>(band: &[Piece<B>], from: usize) -> Self {
        let words = band.len().div_ceil(64);
        // First the placements that cover each bit, then their union over each placement's bits.
        let top = band.iter().filter_map(|p| p.mask.highest()).max().unwrap_or(from);
        let mut covering = vec![0u64; (top + 1 - from) * words];
        for (j, p) in band.iter().enumerate() {
            for bit in p.mask.iter() {
                covering[(bit - from) * words + j / 64] |= 1 << (j % 64);
            }
        }
        let mut sets = vec![0u64; band.len() * words];
        for (set, p) in sets.chunks_mut(words).zip(band) {
            for bit in p.mask.iter() {
                set.iter_mut().zip(&covering[(bit - from) * words..]).for_each(|(m, &c)| *m |= c);
            }
        }
        Meets { words, len: band.len(), sets }
    }

    /// The placements that meet placement `k`.
    fn of(&self, k: usize) -> &[u64] {
        &self.sets[k * self.words..][..self.words]
    }

    /// Calls `visit` with every disjoint pair of the band (`a` before `b`, with `b`'s index)
    /// whose copies `counts` allows, and (if `both`; else those that meet `a`) the placements
    /// that meet either (from `b`'s word on), until it breaks. Most pairs overlap: rather than
    /// testing every pair, each placement's set of those it meets is made once, and only the
    /// others are visited.
    fn each_pair<B: CellBits>(
        &self,
        band: &[Piece<B>],
        counts: &[u32],
        both: bool,
        mut visit: impl FnMut(&Piece<B>, (&Piece<B>, usize), &[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut meets_ab = vec![0u64; self.words];
        for (k, a) in band.iter().enumerate() {
            let meets_a = self.of(k);
            self.after(meets_a, k, |j| {
                let b = &band[j];
                if counts[b.ty] <= u32::from(a.ty == b.ty) {
                    return ControlFlow::Continue(());
                }
                if !both {
                    return visit(a, (b, j), meets_a);
                }
                let w0 = j / 64;
                for ((m, &x), &y) in meets_ab[w0..].iter_mut().zip(&meets_a[w0..]).zip(&self.of(j)[w0..]) {
                    *m = x | y;
                }
                visit(a, (b, j), &meets_ab)
            })?;
        }
        ControlFlow::Continue(())
    }

    /// How many placements after `k` do not meet it.
    fn apart_after(&self, k: usize) -> u64 {
        let mut n = 0;
        let _ = self.after(self.of(k), k, |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// Calls `visit` with each placement after `k` outside `meets` (whose words from `k`'s on
    /// are set, and hold `k`: a placement meets itself), until it breaks.
    #[inline(always)]
    fn after(&self, meets: &[u64], k: usize, mut visit: impl FnMut(usize) -> ControlFlow<()>) -> ControlFlow<()> {
        let w0 = k / 64;
        for (w, &m) in meets.iter().enumerate().skip(w0) {
            let mut apart = !m;
            if w == w0 {
                apart &= !0 << (k % 64);
            }
            if w == self.words - 1 && !self.len.is_multiple_of(64) {
                apart &= (1 << (self.len % 64)) - 1;
            }
            while apart != 0 {
                let l = w * 64 + apart.trailing_zeros() as usize;
                apart &= apart - 1;
                visit(l)?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl RegionFilter {
    /// An empty filter of `2^log2` words for regions from bit `from` on.
    fn empty(log2: u32, from: usize) -> Self {
        RegionFilter { words: vec![0; 1 << log2], shift: 64 - log2, from }
    }

    /// The word and the three bits of a key.
    #[inline(always)]
    fn probe<B: CellBits>(&self, region: B, copies: u64) -> (usize, u64) {
        // The high bits of a product depend on all the key's bits: the word from the top ones,
        // the three bits from the eighteen below them.
        let h = (region.digest() ^ copies.wrapping_mul(0xff51_afd7_ed55_8ccd)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let b = h >> (self.shift - 18);
        ((h >> self.shift) as usize, 1 << (b & 63) | 1 << (b >> 6 & 63) | 1 << (b >> 12 & 63))
    }

    fn insert<B: CellBits>(&mut self, region: B, copies: u64) {
        let (w, bits) = self.probe(region, copies);
        self.words[w] |= bits;
    }

    /// Whether the placements of the filter (two, or three) with `copies` (packed copies used)
    /// may tile `region`, whose lowest bit must be at least [`RegionFilter::from`]: `false` means
    /// they cannot.
    #[inline(always)]
    pub(crate) fn may_tile<B: CellBits>(&self, region: B, copies: u64) -> bool {
        let (w, bits) = self.probe(region, copies);
        self.words[w] & bits == bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{Bitboard, WideBits};
    use proptest::prelude::*;

    /// Placements from `(type, mask)`, sorted by lowest bit, with units of one bit per type.
    fn pieces<B: CellBits>(raw: &[(usize, B)]) -> Vec<Piece<B>> {
        let mut raw: Vec<(usize, B)> = raw.iter().copied().filter(|(_, m)| !m.is_empty()).collect();
        raw.sort_by_key(|(_, m)| m.lowest());
        raw.into_iter().map(|(ty, mask)| Piece { mask, unit: 1 << (4 * ty), ty }).collect()
    }

    /// Sparse placements from random words (an eighth of the bits, so that many pairs are
    /// disjoint), on a one-word board and on a two-word one.
    fn sparse(raw: &[(usize, u64)]) -> (Vec<Piece<Bitboard>>, Vec<Piece<WideBits<2>>>) {
        let narrow: Vec<(usize, Bitboard)> = raw.iter().map(|&(t, m)| (t, Bitboard(m & m >> 1 & m >> 2))).collect();
        let wide: Vec<(usize, WideBits<2>)> =
            raw.iter().map(|&(t, m)| (t, WideBits([m & m >> 1 & m >> 2, m.rotate_left(7) & m >> 3]))).collect();
        (pieces(&narrow), pieces(&wide))
    }

    /// Every pair that the filter must hold: disjoint, both in the band, of two types or of one
    /// type with two copies.
    fn must_hold<B: CellBits>(f: &RegionFilter, places: &[Piece<B>], counts: &[u32]) -> Result<(), TestCaseError> {
        for (k, a) in places.iter().enumerate() {
            for b in &places[k + 1..] {
                let in_band = a.mask.lowest() >= Some(f.from) && b.mask.lowest() >= Some(f.from);
                if in_band && !a.mask.intersects(b.mask) && (a.ty != b.ty || counts[a.ty] > 1) {
                    prop_assert!(f.may_tile(a.mask | b.mask, a.unit + b.unit), "a tileable pair ruled out");
                }
            }
        }
        Ok(())
    }

    proptest! {
        /// The filter never rules out a region that two placements of the copies left tile
        /// (narrow and wide boards; bands cut by the placement limit).
        #[test]
        fn never_rules_out_a_tiling_pair(
            raw in proptest::collection::vec((0usize..6, any::<u64>()), 1..700),
            counts in proptest::collection::vec(1u32..3, 6),
        ) {
            let (narrow, wide) = sparse(&raw);
            if let Some(f) = Filters::new(narrow.len(), |i| narrow[i], &counts) {
                must_hold(&f.pairs, &narrow, &counts)?;
            }
            if let Some(f) = Filters::new(wide.len(), |i| wide[i], &counts) {
                must_hold(&f.pairs, &wide, &counts)?;
            }
        }
    }

    /// The filters hold exactly the keys of the band's disjoint pairs and triples that the copies
    /// allow: their words are those of filters filled by trying every pair and triple.
    fn same_as_every_pair_and_triple<B: CellBits>(places: &[Piece<B>], counts: &[u32]) -> Result<(), TestCaseError> {
        let Some(f) = Filters::new(places.len(), |i| places[i], counts) else { return Ok(()) };
        let band = &places[band(places.len(), &|i| places[i]).expect("a band")];
        let like = |p: &RegionFilter| RegionFilter::empty(p.words.len().trailing_zeros(), p.from);
        let mut pairs = like(&f.pairs);
        let mut triples = RegionFilter::empty(TRIPLE_WORDS_LOG2, f.pairs.from);
        let (mut pairs_entered, mut entered) = (0, 0);
        let allowed = |tys: &[usize]| tys.iter().all(|&t| tys.iter().filter(|&&u| u == t).count() as u32 <= counts[t]);
        for (i, a) in band.iter().enumerate() {
            for (j, b) in band.iter().enumerate().skip(i + 1) {
                if a.mask.intersects(b.mask) || !allowed(&[a.ty, b.ty]) {
                    continue;
                }
                pairs.insert(a.mask | b.mask, a.unit + b.unit);
                pairs_entered += 1;
                for c in &band[j + 1..] {
                    if !c.mask.intersects(a.mask | b.mask) && allowed(&[a.ty, b.ty, c.ty]) {
                        triples.insert(a.mask | b.mask | c.mask, a.unit + b.unit + c.unit);
                        entered += 1;
                    }
                }
            }
        }
        prop_assert_eq!(&f.pairs.words, &pairs.words, "pairs");
        // The filter of triples exists exactly when they are few, and then holds them all.
        let few = pairs_entered <= TRIPLE_KEYS / 2 && entered <= TRIPLE_KEYS;
        prop_assert_eq!(f.triples.as_ref().map(|t| &t.words), few.then_some(&triples.words), "triples");
        Ok(())
    }

    proptest! {
        /// The filters are built from exactly the right pairs and triples (narrow and wide
        /// boards, bands of one word of placements and of several).
        #[test]
        fn enter_exactly_the_disjoint_pairs_and_triples(
            raw in proptest::collection::vec((0usize..5, any::<u64>()), 1..160),
            counts in proptest::collection::vec(1u32..4, 5),
        ) {
            let (narrow, wide) = sparse(&raw);
            same_as_every_pair_and_triple(&narrow, &counts)?;
            same_as_every_pair_and_triple(&wide, &counts)?;
        }
    }

    /// With few placements the band is the whole board, and it rules out most other regions.
    #[test]
    fn rules_out_what_no_pair_tiles() {
        let raw: Vec<(usize, Bitboard)> = (0..40).map(|k| (k % 2, Bitboard(0b11 << k))).collect();
        let places = pieces(&raw);
        let f = Filters::new(places.len(), |i| places[i], &[1, 1]).expect("a band").pairs;
        assert_eq!(f.from, 0);
        // Dominoes of types 0 and 1 (they alternate) one cell apart: fine; three cells in a row
        // are no pair at all, and four are two dominoes of one type.
        assert!(f.may_tile(Bitboard(0b11011), 1 + 16));
        assert!(f.may_tile(Bitboard(0b11011 << 4), 1 + 16));
        let ruled_out = (0..30).filter(|&k| !f.may_tile(Bitboard(0b111 << k), 1 + 16)).count();
        assert!(ruled_out >= 28, "only {ruled_out} of 30 non-tileable regions ruled out");
    }
}
