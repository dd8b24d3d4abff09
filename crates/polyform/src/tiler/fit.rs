//! Which placements fit at the first free cell, by table lookups instead of mask tests.
//!
//! The placements whose lowest bit is `f` are listed by type and cut into chunks of [`CHUNK`];
//! a chunk's placements are the bits of a `u128`. Whether a placement fits depends only on the
//! occupancy of the cells after `f` (all cells before are covered, `f` is free) and on whether
//! its type has copies left, so both are read a nibble at a time, each nibble indexing a table
//! of the chunk's placements that allow it:
//!
//! ```text
//!   cells f+1 ..= f+24          types 0..12 with copies left
//!   [n0][n1][n2][n3][n4][n5]    [t0][t1][t2]              (4 bits each)
//!     |   |   |   |   |   |       |   |   |
//!     v   v   v   v   v   v       v   v   v
//!   T0[n0] & T1[n1] & ... & T5[n5] & U0[t0] & U1[t1] & U2[t2]  =  the placements that fit
//! ```
//!
//! Nine loads and ands, whatever the number of placements, and no branch on what they find. A
//! placement reaching past the 24 cells of the window is kept by the tables and tested whole;
//! types past the first 12 get tables of their own, one per nibble of the types there are (18
//! types: two more), kept apart from the chunks.

/// Placements per chunk: one bit each in a `u128`.
pub(crate) const CHUNK: usize = 128;

/// Nibbles of occupancy after the first free cell that the tables read (24 cells).
const WINDOW: usize = 6;

/// Nibbles of available types in the main tables (12 types: meteor's 10, the pentominoes' 12).
const TYPE_NIBBLES: usize = 3;

/// Types in the main tables.
const MAIN_TYPES: usize = 4 * TYPE_NIBBLES;

use std::ops::ControlFlow;

use crate::bits::CellBits;

/// For each value of a nibble, the placements of a chunk that allow it.
type Table = [u128; 16];

/// Up to [`CHUNK`] placements filed under one bit.
struct Chunk {
    /// [`WINDOW`] occupancy tables, then [`TYPE_NIBBLES`] type tables.
    tables: [Table; WINDOW + TYPE_NIBBLES],
    /// The placements reaching past the window (tested whole).
    beyond: u128,
    /// The index of the first placement.
    base: usize,
}

/// What the tables know of one bit.
#[derive(Clone, Copy, Default)]
struct Bit {
    /// `first..end`: the chunks of the placements whose lowest bit is this one.
    first: u32,
    end: u32,
    /// The types with no placement filed at this bit or later (while filing: the types with a
    /// placement filed at this bit). A node whose first free cell is this bit and that still
    /// has copies of one of them is dead.
    expired: u64,
}

/// The fit tables of every cell.
#[derive(Default)]
pub(crate) struct FitTables {
    chunks: Vec<Chunk>,
    /// Per chunk, only with more than [`MAIN_TYPES`] types: the tables of the types past them,
    /// [`FitTables::more_nibbles`] a chunk.
    more_types: Vec<Table>,
    /// Nibbles of the types past the first [`MAIN_TYPES`] (0 with at most that many types).
    more_nibbles: usize,
    /// Whether some placement reaches past the window.
    any_beyond: bool,
    /// Per bit: its chunks and the types past their last placement.
    by_bit: Vec<Bit>,
}

impl FitTables {
    /// Bytes of tables for `placements` placements on `nbits` bits with `types` piece types (an
    /// upper bound, for choosing an engine before building).
    pub(crate) fn bytes_for(placements: usize, nbits: usize, types: usize) -> u64 {
        let more = more_nibbles(types) * std::mem::size_of::<Table>();
        ((placements / CHUNK + nbits) * (std::mem::size_of::<Chunk>() + more)) as u64
    }

    /// Makes room for `placements` placements on `nbits` bits with `types` piece types (the
    /// chunks are large: growing the list would copy them).
    pub(crate) fn reserve(&mut self, placements: usize, nbits: usize, types: usize) {
        let chunks = placements / CHUNK + nbits;
        self.chunks.reserve_exact(chunks);
        self.by_bit.reserve_exact(nbits);
        self.more_types.reserve_exact(chunks * more_nibbles(types));
    }

    /// Files the placements whose lowest bit is `low` (the next bit: bits are filed in order),
    /// as `(type, mask)`, sorted by type; `first` is the index of the first of them, `types`
    /// the number of piece types.
    pub(crate) fn file<B: CellBits>(&mut self, low: usize, first: usize, list: &[(usize, B)], types: usize) {
        debug_assert_eq!(self.by_bit.len(), low);
        self.more_nibbles = more_nibbles(types);
        let first_chunk = self.chunks.len() as u32;
        let present = list.iter().fold(0u64, |m, &(ty, _)| m | 1 << ty);
        for (k, part) in list.chunks(CHUNK).enumerate() {
            let all = if part.len() == CHUNK { !0 } else { (1u128 << part.len()) - 1 };
            let more_at = self.more_types.len();
            self.more_types.resize(more_at + self.more_nibbles, [0; 16]);
            // Each table from one entry per bit of the nibble (see below): for occupancy, the
            // placements that miss the cell (all, less those that cover it); for types, the
            // placements of the type.
            let mut single = [[0u128; 4]; WINDOW + TYPE_NIBBLES];
            single[..WINDOW].iter_mut().for_each(|s| *s = [all; 4]);
            let mut beyond = 0;
            for (k, &(ty, mask)) in part.iter().enumerate() {
                let bit = 1u128 << k;
                let mut cells = mask.word_at(low + 1) & ((1 << (4 * WINDOW)) - 1);
                while cells != 0 {
                    let c = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    single[c / 4][c % 4] &= !bit;
                }
                if ty < MAIN_TYPES {
                    single[WINDOW + ty / 4][ty % 4] |= bit;
                }
                for (j, table) in self.more_types[more_at..].iter_mut().enumerate() {
                    set_where(table, bit, |v| allows_type(ty, TYPE_NIBBLES + j, v));
                }
                if mask.highest().unwrap_or(0) > low + 4 * WINDOW {
                    beyond |= bit;
                }
            }
            // A value of occupancy allows what each of its cells allows; a value of types allows
            // the placements of its types and those of types outside the nibble. (The chunk is
            // filled where it lies: it is large.)
            self.chunks.push(Chunk { tables: [[0; 16]; WINDOW + TYPE_NIBBLES], beyond, base: first + k * CHUNK });
            let chunk = self.chunks.last_mut().unwrap_or_else(|| unreachable!("just pushed"));
            for (j, (table, single)) in chunk.tables.iter_mut().zip(&single).enumerate() {
                let occupancy = j < WINDOW;
                table[0] = if occupancy { all } else { all & !single.iter().fold(0, |a, &s| a | s) };
                for v in 1..16 {
                    let (rest, bit) = (table[v & (v - 1)], single[v.trailing_zeros() as usize]);
                    table[v] = if occupancy { rest & bit } else { rest | bit };
                }
            }
            self.any_beyond |= beyond != 0;
        }
        self.by_bit.push(Bit { first: first_chunk, end: self.chunks.len() as u32, expired: present });
    }

    /// Closes the tables after the last bit (`types` piece types in all).
    pub(crate) fn finish(&mut self, types: usize) {
        let all = if types >= 64 { !0 } else { (1u64 << types) - 1 };
        let mut seen = 0;
        for bit in self.by_bit.iter_mut().rev() {
            seen |= bit.expired;
            bit.expired = all & !seen;
        }
    }

    /// The placements of chunk `c` that fit: `window` is the occupancy after the first free
    /// cell, `avail` the types with copies left; `occ` and `mask` (of a placement index) test
    /// placements past the window.
    #[inline(always)]
    fn fits<B: CellBits>(&self, c: usize, window: u64, avail: u64, occ: B, mask: &impl Fn(usize) -> B) -> u128 {
        let (w, a) = (window as usize, avail as usize);
        let chunk = &self.chunks[c];
        // Hot: nine loads and ands (the loops unroll).
        let mut fits = !0u128;
        for (j, table) in chunk.tables[..WINDOW].iter().enumerate() {
            fits &= table[(w >> (4 * j)) & 15];
        }
        for (j, table) in chunk.tables[WINDOW..].iter().enumerate() {
            fits &= table[(a >> (4 * j)) & 15];
        }
        if self.more_nibbles > 0 {
            fits &= more_types(&self.more_types[c * self.more_nibbles..][..self.more_nibbles], avail);
        }
        if self.any_beyond && fits & chunk.beyond != 0 {
            fits = test_whole(fits, chunk, occ, mask);
        }
        fits
    }

    /// The first chunk of the placements filed under `f` (the first free cell of `occ`) with
    /// one that fits (its type in `avail`), and those that fit in it; `None` when nothing fits
    /// or a type of `need` (those whose copies must still be placed: `avail` itself without
    /// ranges) has no placement filed at `f` or later.
    #[inline(always)]
    pub(crate) fn first_fitting<B: CellBits>(
        &self,
        f: usize,
        occ: B,
        (avail, need): (u64, u64),
        mask: &impl Fn(usize) -> B,
    ) -> Option<(usize, u128)> {
        let bit = self.by_bit[f];
        let (first, end) = (bit.first as usize, bit.end as usize);
        if first == end || bit.expired & need != 0 {
            return None;
        }
        let window = occ.word_at(f + 1);
        match self.fits(first, window, avail, occ, mask) {
            0 if end > first + 1 => self.later_fitting(first + 1..end, window, avail, occ, mask),
            0 => None,
            fits => Some((first, fits)),
        }
    }

    /// [`FitTables::first_fitting`] past the first chunk.
    #[cold]
    fn later_fitting<B: CellBits>(
        &self,
        chunks: std::ops::Range<usize>,
        window: u64,
        avail: u64,
        occ: B,
        mask: &impl Fn(usize) -> B,
    ) -> Option<(usize, u128)> {
        chunks.map(|c| (c, self.fits(c, window, avail, occ, mask))).find(|&(_, fits)| fits != 0)
    }

    /// Calls `visit` with the index of every placement that fits at `f` (the first free cell of
    /// `occ`), from `fits` in chunk `c` (see [`FitTables::first_fitting`]) on, until it breaks.
    /// `occ` and `avail` must be those that `first_fitting` was given (chunks after `c` are
    /// looked up with them).
    #[inline(always)]
    pub(crate) fn for_each<B: CellBits, R>(
        &self,
        (f, c, fits): (usize, usize, u128),
        (occ, avail, mask): (B, u64, &impl Fn(usize) -> B),
        mut visit: impl FnMut(usize) -> ControlFlow<R>,
    ) -> ControlFlow<R> {
        each_bit(self.chunks[c].base, fits, &mut visit)?;
        if c + 1 < self.by_bit[f].end as usize {
            return self.for_each_later((f, c + 1), (occ, avail, mask), visit);
        }
        ControlFlow::Continue(())
    }

    /// [`FitTables::for_each`] from chunk `c` on.
    #[cold]
    #[inline(never)]
    fn for_each_later<B: CellBits, R>(
        &self,
        (f, c): (usize, usize),
        (occ, avail, mask): (B, u64, &impl Fn(usize) -> B),
        mut visit: impl FnMut(usize) -> ControlFlow<R>,
    ) -> ControlFlow<R> {
        for c in c..self.by_bit[f].end as usize {
            let fits = self.fits(c, occ.word_at(f + 1), avail, occ, mask);
            each_bit(self.chunks[c].base, fits, &mut visit)?;
        }
        ControlFlow::Continue(())
    }
}

/// Calls `visit` with `base + k` for every bit `k` of `fits`, lowest first, until it breaks.
#[inline(always)]
fn each_bit<R>(base: usize, mut fits: u128, visit: &mut impl FnMut(usize) -> ControlFlow<R>) -> ControlFlow<R> {
    while fits != 0 {
        let k = fits.trailing_zeros() as usize;
        fits &= fits - 1;
        visit(base + k)?;
    }
    ControlFlow::Continue(())
}

/// The placements of a chunk allowed by the types of `avail` past the first [`MAIN_TYPES`],
/// given the chunk's tables of them: one load and and per nibble (out of line: it keeps the
/// common path short).
#[cold]
#[inline(never)]
fn more_types(tables: &[Table], avail: u64) -> u128 {
    let (mut fits, mut nibbles) = (!0u128, avail >> MAIN_TYPES);
    for table in tables {
        fits &= table[nibbles as usize & 15];
        nibbles >>= 4;
    }
    fits
}

/// Nibbles of type tables past the first [`MAIN_TYPES`] types, for `types` types.
fn more_nibbles(types: usize) -> usize {
    types.saturating_sub(MAIN_TYPES).div_ceil(4)
}

/// `fits` without the placements past the window that meet `occ` (out of line: it keeps the
/// common path short).
#[cold]
fn test_whole<B: CellBits>(mut fits: u128, chunk: &Chunk, occ: B, mask: &impl Fn(usize) -> B) -> u128 {
    let mut unsure = fits & chunk.beyond;
    while unsure != 0 {
        let k = unsure.trailing_zeros();
        unsure &= unsure - 1;
        if mask(chunk.base + k as usize).intersects(occ) {
            fits ^= 1 << k;
        }
    }
    fits
}

/// Whether a placement of type `ty` allows value `v` of type nibble `j` (the types `4j..4j+4`
/// with copies left): its type is in another nibble, or its bit in `v` is set.
fn allows_type(ty: usize, j: usize, v: usize) -> bool {
    ty / 4 != j || v >> (ty % 4) & 1 != 0
}

/// Adds `bit` to every entry of `table` whose nibble value `allows`.
fn set_where(table: &mut Table, bit: u128, allows: impl Fn(usize) -> bool) {
    for (v, set) in table.iter_mut().enumerate() {
        if allows(v) {
            *set |= bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bitboard;
    use proptest::prelude::*;

    /// Tables for random placements under bits 0..3 (`(low, type, mask)`, sorted by low, type),
    /// and the placements as filed.
    fn build(placements: &[(usize, usize, u64)], types: usize) -> (FitTables, Vec<(usize, usize, Bitboard)>) {
        let mut sorted: Vec<(usize, usize, Bitboard)> =
            placements.iter().map(|&(low, ty, rest)| (low, ty, Bitboard((rest << (low + 1)) | 1 << low))).collect();
        sorted.sort_by_key(|p| (p.0, p.1));
        let mut fit = FitTables::default();
        for low in 0..3 {
            let first = sorted.iter().position(|p| p.0 == low).unwrap_or(sorted.len());
            let list: Vec<(usize, Bitboard)> = sorted.iter().filter(|p| p.0 == low).map(|p| (p.1, p.2)).collect();
            fit.file(low, first, &list, types);
        }
        fit.finish(types);
        (fit, sorted)
    }

    proptest! {
        /// The tables give exactly the placements under the first free cell that miss the
        /// occupancy and whose type has copies left (none if a type with copies left has no
        /// placement at that cell or later): over several chunks, past the window, with up to
        /// 64 types (those past the first 12 in tables of their own, as many as they need).
        #[test]
        fn tables_agree_with_mask_tests(
            placements in proptest::collection::vec((0usize..3, 0usize..64, any::<u64>()), 0..400),
            f in 0usize..3, occ in any::<u64>(), avail in any::<u64>(), few in 0u32..3, types in 1usize..=64,
        ) {
            // Sparse masks (a sixteenth of the bits) and occupancy (a quarter) make fits common.
            let sparse = |m: u64| m & m >> 1 & m >> 2 & m >> 3;
            let placements: Vec<_> =
                placements.into_iter().map(|(low, ty, m)| (low, ty % types, sparse(m) >> (low + 1))).collect();
            let (fit, sorted) = build(&placements, types);
            // Cells below `f` are covered, `f` is free.
            let occ = Bitboard((occ & occ >> 1 | ((1 << f) - 1)) & !(1 << f));
            // Few types left (as deep in a search) or many.
            let avail = avail & (u64::MAX >> (64 - types)) & if few > 0 { avail >> 7 & avail >> 13 } else { !0 };
            // A type with copies left and no placement at `f` or later makes the node dead.
            let dead = (0..types).any(|t| avail >> t & 1 == 1 && !sorted.iter().any(|p| p.1 == t && p.0 >= f));
            let expected: Vec<usize> = (0..sorted.len())
                .filter(|&i| !dead && sorted[i].0 == f && !sorted[i].2.intersects(occ) && avail >> sorted[i].1 & 1 == 1)
                .collect();
            let mask = |i: usize| sorted[i].2;
            let mut got = Vec::new();
            if let Some((c, fits)) = fit.first_fitting(f, occ, (avail, avail), &mask) {
                let _ = fit.for_each((f, c, fits), (occ, avail, &mask), |i| {
                    got.push(i);
                    ControlFlow::<()>::Continue(())
                });
            }
            prop_assert_eq!(got, expected);
        }
    }
}
