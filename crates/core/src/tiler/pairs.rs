//! The last two pieces: a filter of the regions that two placements tile.
//!
//! Deep in a fill-the-first-cell search most of the work is at its end: with three pieces left,
//! each child placement leaves a region of two pieces' cells, and almost always the last two
//! pieces cannot tile it (meteor: 190k such children, 1049 of them lead to a tiling). The
//! search would place the child, look up what fits at its first free cell, call it, and try
//! the last piece. Instead, every pair of disjoint placements near the end of the board is
//! entered once, keyed by the region it covers and the copies it uses, into a Bloom filter
//! whose keys each set three bits of one word:
//!
//! ```text
//!   key = (region, copies)  --hash-->  word w, bits i, j, k
//!   may tile  <=>  words[w] has bits i, j and k set        (one load)
//! ```
//!
//! A region the filter rules out cannot be tiled by the two pieces left; a region it lets
//! through is searched as usual, so a false positive costs time, never a tiling.

use crate::bits::CellBits;

/// Most placements in the band of bits the filter covers: pairs are enumerated in quadratic
/// time, so the band stops growing past this many.
const BAND: usize = 500;

/// Log2 of the most words of the filter (2^12 words: 32 KB, 4 to 6 keys a word for meteor).
const MAX_WORDS_LOG2: u32 = 12;

/// A filter of the (region, copies used) that two disjoint placements cover, for the regions
/// whose first cell is at least [`PairFilter::from`].
pub(crate) struct PairFilter {
    words: Vec<u64>,
    shift: u32,
    /// Every pair of placements whose lowest bits are both at least this was entered.
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

impl PairFilter {
    /// The filter of the pairs of the `n` placements that `piece` gives (sorted by lowest bit)
    /// in the band of the last bits holding at most [`BAND`] of them; two copies of one type
    /// are paired only if `counts` has two. `None` if the band would be empty.
    pub(crate) fn new<B: CellBits>(n: usize, piece: impl Fn(usize) -> Piece<B>, counts: &[u32]) -> Option<Self> {
        // The band: the last bits, whole, as long as they hold at most BAND placements.
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
        if start == n {
            return None;
        }
        let band: Vec<Piece<B>> = (start..n).map(piece).collect();
        // About one key in six pairs of the band is a disjoint pair; three keys a word.
        let log2 = ((band.len() * band.len() / 36).max(64)).next_power_of_two().trailing_zeros().min(MAX_WORDS_LOG2);
        let from = band[0].mask.lowest().unwrap_or(0);
        let mut filter = PairFilter { words: vec![0; 1 << log2], shift: 64 - log2, from };
        // Most pairs overlap (meteor: 125k pairs, 12k disjoint ones): rather than testing every
        // pair, each placement gathers the placements that share a cell with it from a set per
        // cell (one bit a placement of the band), and only the others are visited.
        let words = band.len().div_ceil(64);
        let top = band.iter().filter_map(|p| p.mask.highest()).max().unwrap_or(from);
        let mut covering = vec![0u64; (top + 1 - from) * words];
        for (j, p) in band.iter().enumerate() {
            for bit in p.mask.iter() {
                covering[(bit - from) * words + j / 64] |= 1 << (j % 64);
            }
        }
        let mut meets = vec![0u64; words];
        for (k, a) in band.iter().enumerate() {
            meets.fill(0);
            for bit in a.mask.iter() {
                let cell = &covering[(bit - from) * words..][..words];
                meets.iter_mut().zip(cell).for_each(|(m, &c)| *m |= c);
            }
            // Only placements after `a` (each pair once; `a` meets itself).
            for (w, &m) in meets.iter().enumerate().skip(k / 64) {
                let mut apart = !m & if w == k / 64 { !0 << (k % 64) } else { !0 };
                if w == words - 1 && !band.len().is_multiple_of(64) {
                    apart &= (1 << (band.len() % 64)) - 1;
                }
                while apart != 0 {
                    let b = &band[w * 64 + apart.trailing_zeros() as usize];
                    apart &= apart - 1;
                    if a.ty != b.ty || counts[a.ty] > 1 {
                        filter.insert(a.mask | b.mask, a.unit + b.unit);
                    }
                }
            }
        }
        Some(filter)
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

    /// Whether two placements with `copies` (packed copies used) may tile `region`, whose
    /// lowest bit must be at least [`PairFilter::from`]: `false` means they cannot.
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

    /// Every pair that the filter must hold: disjoint, both in the band, of two types or of one
    /// type with two copies.
    fn must_hold<B: CellBits>(f: &PairFilter, places: &[Piece<B>], counts: &[u32]) -> Result<(), TestCaseError> {
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
            // Sparse masks (an eighth of the bits) so that many pairs are disjoint.
            let narrow: Vec<(usize, Bitboard)> = raw.iter().map(|&(t, m)| (t, Bitboard(m & m >> 1 & m >> 2))).collect();
            let places = pieces(&narrow);
            if let Some(f) = PairFilter::new(places.len(), |i| places[i], &counts) {
                must_hold(&f, &places, &counts)?;
            }
            let wide: Vec<(usize, WideBits<2>)> =
                raw.iter().map(|&(t, m)| (t, WideBits([m & m >> 1 & m >> 2, m.rotate_left(7) & m >> 3]))).collect();
            let places = pieces(&wide);
            if let Some(f) = PairFilter::new(places.len(), |i| places[i], &counts) {
                must_hold(&f, &places, &counts)?;
            }
        }
    }

    /// With few placements the band is the whole board, and it rules out most other regions.
    #[test]
    fn rules_out_what_no_pair_tiles() {
        let raw: Vec<(usize, Bitboard)> = (0..40).map(|k| (k % 2, Bitboard(0b11 << k))).collect();
        let places = pieces(&raw);
        let f = PairFilter::new(places.len(), |i| places[i], &[1, 1]).expect("a band");
        assert_eq!(f.from, 0);
        // Dominoes of types 0 and 1 (they alternate) one cell apart: fine; three cells in a row
        // are no pair at all, and four are two dominoes of one type.
        assert!(f.may_tile(Bitboard(0b11011), 1 + 16));
        assert!(f.may_tile(Bitboard(0b11011 << 4), 1 + 16));
        let ruled_out = (0..30).filter(|&k| !f.may_tile(Bitboard(0b111 << k), 1 + 16)).count();
        assert!(ruled_out >= 28, "only {ruled_out} of 30 non-tileable regions ruled out");
    }
}
