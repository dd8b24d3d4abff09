//! Cell sets as bit masks.
//!
//! A board's cells are numbered `0..n` in a scan order chosen by the caller; a set of cells is then
//! a bit mask. Two representations share one interface, [`CellBits`], so that a search is written
//! once and compiled for both:
//!
//! * [`Bitboard`]: one `u64`, the fast path for boards of at most 64 cells;
//! * [`WideBits<W>`]: `W` words, for boards of up to `64 * W` cells.
//!
//! [`RowSet`] is a third, row-oriented shape: one `u64` per row, for grids whose rows are at most 64
//! cells wide but which may be arbitrarily tall (packing into a box, say).
//!
//! ```
//! use tessera_polyform::bits::{Bitboard, CellBits};
//! let b = Bitboard::from_cells([0, 1, 9]);
//! assert_eq!(b.count(), 3);
//! assert_eq!(b.lowest(), Some(0));
//! assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 1, 9]);
//! // Draw it 4 cells wide:
//! assert_eq!(b.draw(4, 3), "##..\n....\n.#..\n");
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// The interface every cell-set representation offers to searches.
///
/// Bits at or beyond the board size are the caller's business: searches usually mark them as
/// permanently occupied so that `!occupied` never yields them.
pub trait CellBits:
    Copy
    + Eq
    + Ord
    + Default
    + Send
    + Sync
    + fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + 'static
{
    /// How many cells the representation can hold.
    const CAPACITY: usize;

    /// The empty set.
    fn empty() -> Self {
        Self::default()
    }
    /// The set `{i}`.
    fn single(i: usize) -> Self;
    /// Whether cell `i` is in the set.
    fn contains(&self, i: usize) -> bool;
    /// Whether the set is empty.
    fn is_empty(&self) -> bool;
    /// Number of cells in the set.
    fn count(&self) -> u32;
    /// The lowest-numbered cell, if any.
    fn lowest(&self) -> Option<usize>;
    /// The highest-numbered cell, if any.
    fn highest(&self) -> Option<usize>;
    /// The set holding only the lowest-numbered cell (empty if the set is empty).
    fn lowest_bit(self) -> Self;
    /// Every cell number moved up by `k` (cells pushed past the capacity are lost).
    fn shl(self, k: u32) -> Self;
    /// Every cell number moved down by `k` (cells pushed below 0 are lost).
    fn shr(self, k: u32) -> Self;
    /// A 64-bit digest of the set, for hashing (equal sets, equal digests).
    fn digest(&self) -> u64;
    /// The 64 cells `p..p + 64` as the bits of a word (cells past the capacity read as empty).
    fn word_at(&self, p: usize) -> u64;
    /// The 8 cells `p..p + 8` as the bits of a byte (cells past the capacity read as empty).
    #[inline]
    fn byte_at(&self, p: usize) -> u8 {
        self.word_at(p) as u8
    }

    /// Adds cell `i`.
    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= Self::single(i);
    }
    /// Whether the two sets share a cell.
    #[inline]
    fn intersects(self, other: Self) -> bool {
        !(self & other).is_empty()
    }
    /// The set of cells `0..n`.
    fn below(n: usize) -> Self {
        if n >= Self::CAPACITY { !Self::empty() } else { (!Self::empty()).shr((Self::CAPACITY - n) as u32) }
    }
    /// Builds a set from cell numbers.
    fn from_cells(cells: impl IntoIterator<Item = usize>) -> Self {
        let mut s = Self::empty();
        for i in cells {
            s.insert(i);
        }
        s
    }
    /// The cells of the set in increasing order.
    fn iter(&self) -> Cells<Self> {
        Cells(*self)
    }
    /// Draws the set as rows of `width` cells (`#` in the set, `.` not), `height` rows.
    fn draw(&self, width: usize, height: usize) -> String {
        let mut s = String::with_capacity((width + 1) * height);
        for r in 0..height {
            for c in 0..width {
                let i = r * width + c;
                s.push(if i < Self::CAPACITY && self.contains(i) { '#' } else { '.' });
            }
            s.push('\n');
        }
        s
    }
}

/// Iterator over the cells of a set, lowest first.
#[derive(Clone, Debug)]
pub struct Cells<B>(B);

impl<B: CellBits> Iterator for Cells<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.0.lowest()?;
        self.0 = self.0 ^ self.0.lowest_bit();
        Some(i)
    }
}

/// A set of at most 64 cells in one machine word.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(pub u64);

impl CellBits for Bitboard {
    const CAPACITY: usize = 64;
    #[inline]
    fn single(i: usize) -> Self {
        Bitboard(1u64 << i)
    }
    #[inline]
    fn contains(&self, i: usize) -> bool {
        self.0 >> i & 1 != 0
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0 == 0
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    fn lowest(&self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }
    #[inline]
    fn highest(&self) -> Option<usize> {
        (self.0 != 0).then(|| 63 - self.0.leading_zeros() as usize)
    }
    #[inline]
    fn lowest_bit(self) -> Self {
        Bitboard(self.0 & self.0.wrapping_neg())
    }
    #[inline]
    fn shl(self, k: u32) -> Self {
        Bitboard(self.0.checked_shl(k).unwrap_or(0))
    }
    #[inline]
    fn shr(self, k: u32) -> Self {
        Bitboard(self.0.checked_shr(k).unwrap_or(0))
    }
    #[inline]
    fn digest(&self) -> u64 {
        self.0
    }
    #[inline]
    fn word_at(&self, p: usize) -> u64 {
        self.0.checked_shr(p as u32).unwrap_or(0)
    }
}

/// Draws the set as an 8x8 board, cell 0 at the top left.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#x})", self.0)?;
        f.write_str(&self.draw(8, 8))
    }
}

macro_rules! word_ops {
    ($t:ident $(<$w:ident>)?) => {
        impl$(<const $w: usize>)? BitAnd for $t$(<$w>)? {
            type Output = Self;
            #[inline]
            fn bitand(mut self, o: Self) -> Self {
                self &= o;
                self
            }
        }
        impl$(<const $w: usize>)? BitOr for $t$(<$w>)? {
            type Output = Self;
            #[inline]
            fn bitor(mut self, o: Self) -> Self {
                self |= o;
                self
            }
        }
    };
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        self.0 &= o.0;
    }
}
impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        self.0 |= o.0;
    }
}
impl BitXor for Bitboard {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        Bitboard(self.0 ^ o.0)
    }
}
impl Not for Bitboard {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}
word_ops!(Bitboard);

/// A set of at most `64 * W` cells in `W` words (cell `i` is bit `i % 64` of word `i / 64`).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct WideBits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for WideBits<W> {
    fn default() -> Self {
        WideBits([0; W])
    }
}

/// Ordered as a `64 * W`-bit number (the highest word decides first).
impl<const W: usize> Ord for WideBits<W> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.iter().rev().cmp(o.0.iter().rev())
    }
}
impl<const W: usize> PartialOrd for WideBits<W> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl<const W: usize> CellBits for WideBits<W> {
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn single(i: usize) -> Self {
        let mut s = Self::default();
        s.0[i / 64] = 1 << (i % 64);
        s
    }
    #[inline]
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(&self) -> Option<usize> {
        let k = self.0.iter().position(|&w| w != 0)?;
        Some(64 * k + self.0[k].trailing_zeros() as usize)
    }
    #[inline]
    fn highest(&self) -> Option<usize> {
        let k = self.0.iter().rposition(|&w| w != 0)?;
        Some(64 * k + 63 - self.0[k].leading_zeros() as usize)
    }
    #[inline]
    fn lowest_bit(self) -> Self {
        match self.0.iter().position(|&w| w != 0) {
            Some(k) => {
                let mut s = Self::default();
                s.0[k] = self.0[k] & self.0[k].wrapping_neg();
                s
            }
            None => self,
        }
    }
    #[inline]
    fn shl(self, k: u32) -> Self {
        let mut out = Self::default();
        if k < 64 {
            // The usual case (a flood step, a placement moved along the board): each word takes
            // its own bits moved up and the top `k` bits of the word below. `(w >> 1) >> (63 - k)`
            // is `w >> (64 - k)`, and 0 when `k` is 0: no branch, so the loop unrolls.
            out.0[0] = self.0[0] << k;
            for i in 1..W {
                out.0[i] = self.0[i] << k | (self.0[i - 1] >> 1) >> (63 - k);
            }
            return out;
        }
        let (words, bits) = ((k / 64) as usize, k % 64);
        for i in (words..W).rev() {
            let src = i - words;
            let mut w = self.0[src] << bits;
            if bits > 0 && src > 0 {
                w |= self.0[src - 1] >> (64 - bits);
            }
            out.0[i] = w;
        }
        out
    }
    #[inline]
    fn word_at(&self, p: usize) -> u64 {
        let (k, b) = (p / 64, p % 64);
        let lo = self.0.get(k).map_or(0, |w| w >> b);
        let hi = if b > 0 { self.0.get(k + 1).map_or(0, |w| w << (64 - b)) } else { 0 };
        lo | hi
    }
    #[inline]
    fn digest(&self) -> u64 {
        self.0.iter().fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29))
    }
    #[inline]
    fn shr(self, k: u32) -> Self {
        let mut out = Self::default();
        if k < 64 {
            // As in `shl`: each word takes the low `k` bits of the word above.
            for i in 0..W - 1 {
                out.0[i] = self.0[i] >> k | (self.0[i + 1] << 1) << (63 - k);
            }
            out.0[W - 1] = self.0[W - 1] >> k;
            return out;
        }
        let (words, bits) = ((k / 64) as usize, k % 64);
        for i in 0..W.saturating_sub(words) {
            let src = i + words;
            let mut w = self.0[src] >> bits;
            if bits > 0 && src + 1 < W {
                w |= self.0[src + 1] << (64 - bits);
            }
            out.0[i] = w;
        }
        out
    }
}

impl<const W: usize> BitAndAssign for WideBits<W> {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= b;
        }
    }
}
impl<const W: usize> BitOrAssign for WideBits<W> {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
    }
}
impl<const W: usize> BitXor for WideBits<W> {
    type Output = Self;
    #[inline]
    fn bitxor(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a ^= b;
        }
        self
    }
}
impl<const W: usize> Not for WideBits<W> {
    type Output = Self;
    #[inline]
    fn not(mut self) -> Self {
        for a in self.0.iter_mut() {
            *a = !*a;
        }
        self
    }
}
word_ops!(WideBits<W>);

/// Lists the cells (a wide set has no natural width to draw it with; use [`CellBits::draw`]).
impl<const W: usize> fmt::Debug for WideBits<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WideBits<{W}>")?;
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A grid of rows at most 64 cells wide, one `u64` per row (bit `x` of row `y` is cell `(x, y)`).
///
/// Suited to packing: a shape given as row masks is tested and placed at `(x, y)` with one shift
/// and one AND per row.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RowSet {
    width: usize,
    rows: Vec<u64>,
}

impl RowSet {
    /// An empty grid of `width` x `height` cells. `width` must be at most 64.
    pub fn new(width: usize, height: usize) -> Self {
        assert!(width <= 64, "RowSet rows hold at most 64 cells");
        RowSet { width, rows: vec![0; height] }
    }
    /// Width in cells.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Height in rows.
    pub fn height(&self) -> usize {
        self.rows.len()
    }
    /// The row masks, row 0 first.
    pub fn rows(&self) -> &[u64] {
        &self.rows
    }
    /// Whether cell `(x, y)` is set.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        self.rows[y] >> x & 1 != 0
    }
    /// Sets cell `(x, y)`.
    pub fn insert(&mut self, x: usize, y: usize) {
        self.rows[y] |= 1 << x;
    }
    /// Number of set cells.
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }
    /// Whether a shape (row masks, row 0 first) moved to `(x, y)` lies inside the grid and misses
    /// every set cell.
    pub fn fits(&self, shape: &[u64], x: usize, y: usize) -> bool {
        if y + shape.len() > self.rows.len() {
            return false;
        }
        let full = if self.width == 64 { u64::MAX } else { (1u64 << self.width) - 1 };
        shape.iter().zip(&self.rows[y..]).all(|(&s, &r)| {
            let moved = s.checked_shl(x as u32).unwrap_or(0);
            moved >> x == s && moved & !full == 0 && moved & r == 0
        })
    }
    /// Sets the cells of a shape moved to `(x, y)`; the caller checked [`RowSet::fits`].
    pub fn place(&mut self, shape: &[u64], x: usize, y: usize) {
        for (r, &s) in self.rows[y..].iter_mut().zip(shape) {
            *r |= s << x;
        }
    }
    /// Clears the cells of a shape moved to `(x, y)`.
    pub fn remove(&mut self, shape: &[u64], x: usize, y: usize) {
        for (r, &s) in self.rows[y..].iter_mut().zip(shape) {
            *r &= !(s << x);
        }
    }
}

/// Draws the grid, row 0 at the top.
impl fmt::Debug for RowSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "RowSet({}x{})", self.width, self.rows.len())?;
        for &r in &self.rows {
            let line: String = (0..self.width).map(|x| if r >> x & 1 != 0 { '#' } else { '.' }).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn model<B: CellBits>(cells: &[usize]) -> B {
        B::from_cells(cells.iter().copied())
    }

    #[test]
    fn bitboard_basics() {
        let b = Bitboard::from_cells([3, 5, 63]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.lowest(), Some(3));
        assert_eq!(b.highest(), Some(63));
        assert_eq!(Bitboard(0).highest(), None);
        assert_eq!(b.byte_at(3), 0b101);
        assert_eq!(b.byte_at(60), 0b1000);
        assert_eq!(b.lowest_bit(), Bitboard(8));
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 5, 63]);
        assert_eq!(Bitboard::below(3), Bitboard(7));
        assert_eq!(Bitboard::below(64), Bitboard(u64::MAX));
        assert_eq!(Bitboard(1).shl(64), Bitboard(0));
        assert_eq!(Bitboard::below(0), Bitboard(0));
        assert!(format!("{:?}", Bitboard(1)).contains("#......."));
    }

    #[test]
    fn wide_crosses_words() {
        let b: WideBits<3> = model(&[63, 64, 130]);
        assert_eq!(b.lowest(), Some(63));
        assert_eq!(b.highest(), Some(130));
        assert_eq!(b.shl(1).iter().collect::<Vec<_>>(), vec![64, 65, 131]);
        assert_eq!(b.shr(64).iter().collect::<Vec<_>>(), vec![0, 66]);
        assert_eq!(b.shl(70).iter().collect::<Vec<_>>(), vec![133, 134]);
        assert!(WideBits::<2>::below(128).count() == 128);
        assert_eq!(WideBits::<2>::below(70).iter().collect::<Vec<_>>(), (0..70).collect::<Vec<_>>());
        assert!(WideBits::<2>::below(0).is_empty());
        assert!(format!("{b:?}").contains("130"));
    }

    #[test]
    fn rowset_fits_and_places() {
        let mut g = RowSet::new(4, 3);
        let l = [0b1, 0b1, 0b11]; // an L: rows 0, 1, 2 of the shape
        assert!(g.fits(&l, 0, 0));
        assert!(!g.fits(&l, 3, 0), "sticks out on the right");
        assert!(!g.fits(&l, 0, 1), "sticks out at the top");
        g.place(&l, 0, 0);
        assert_eq!(g.count(), 4);
        assert!(!g.fits(&[0b1], 1, 2));
        assert!(g.fits(&[0b1], 2, 2));
        g.remove(&l, 0, 0);
        assert_eq!(g.count(), 0);
        assert!(format!("{g:?}").starts_with("RowSet(4x3)"));
    }

    proptest! {
        /// Shifts by less than a word (the flood's and the placements') on two words agree with
        /// a plain model.
        #[test]
        fn short_shifts_match_model(a in proptest::collection::btree_set(0usize..128, 0..40), k in 0u32..64) {
            let wa: WideBits<2> = model(&a.iter().copied().collect::<Vec<_>>());
            let up: Vec<usize> = a.iter().map(|&i| i + k as usize).filter(|&i| i < 128).collect();
            prop_assert_eq!(wa.shl(k).iter().collect::<Vec<_>>(), up);
            let down: Vec<usize> = a.iter().filter(|&&i| i >= k as usize).map(|&i| i - k as usize).collect();
            prop_assert_eq!(wa.shr(k).iter().collect::<Vec<_>>(), down);
        }

        /// The wide representation agrees with a plain model on every operation.
        #[test]
        fn wide_matches_model(a in proptest::collection::btree_set(0usize..256, 0..40),
                              b in proptest::collection::btree_set(0usize..256, 0..40),
                              k in 0u32..300) {
            let (wa, wb): (WideBits<4>, WideBits<4>) = (model(&a.iter().copied().collect::<Vec<_>>()),
                                                        model(&b.iter().copied().collect::<Vec<_>>()));
            let and: Vec<usize> = a.intersection(&b).copied().collect();
            prop_assert_eq!((wa & wb).iter().collect::<Vec<_>>(), and);
            prop_assert_eq!(wa.count() as usize, a.len());
            prop_assert_eq!(wa.lowest(), a.iter().next().copied());
            prop_assert_eq!(wa.highest(), a.iter().next_back().copied());
            let p = k as usize % 256;
            let byte = (0..8).filter(|j| a.contains(&(p + j))).fold(0u8, |b, j| b | 1 << j);
            prop_assert_eq!(wa.byte_at(p), byte);
            let word = (0..64).filter(|j| a.contains(&(p + j))).fold(0u64, |w, j| w | 1 << j);
            prop_assert_eq!(wa.word_at(p), word);
            let up: Vec<usize> = a.iter().map(|&i| i + k as usize).filter(|&i| i < 256).collect();
            prop_assert_eq!(wa.shl(k).iter().collect::<Vec<_>>(), up);
            let down: Vec<usize> = a.iter().filter(|&&i| i >= k as usize).map(|&i| i - k as usize).collect();
            prop_assert_eq!(wa.shr(k).iter().collect::<Vec<_>>(), down);
            // As 256-bit numbers: the set holding the highest cell of the difference is larger.
            let expected = match a.symmetric_difference(&b).max() {
                None => std::cmp::Ordering::Equal,
                Some(top) if a.contains(top) => std::cmp::Ordering::Greater,
                Some(_) => std::cmp::Ordering::Less,
            };
            prop_assert_eq!(wa.cmp(&wb), expected);
        }
    }
}
