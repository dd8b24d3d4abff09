//! The solver's board: per-colour row masks, so that the partners of a tile are found with a
//! few word operations per row.
//!
//! For colour `k` and row `r`, `open[k][r]` has bit `c` set when cell `(r, c)` holds colour `k`
//! or is empty, and `tiles[k][r]` when it holds a tile of colour `k`. A pair of colour `k` is
//! removable when every row of its rectangle is open over the rectangle's columns. Removing
//! tiles only opens cells, so a removable pair stays removable until one of its tiles is taken.

use std::fmt;

use crate::board::{Board, Cell};
use crate::moves::Move;

/// A removed cell.
pub const EMPTY: u8 = u8::MAX;

/// A row mask as the partner queries use it: `u128` for any board, `u64` when the board is at
/// most 64 columns wide (half the work per operation; the masks are stored as `u128`, and the
/// high half of a narrow board's is always zero).
trait Mask:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
    + std::ops::Sub<Output = Self>
{
    const BITS: u32;
    const ZERO: Self;
    const ONE: Self;
    const ALL: Self;
    /// The low `BITS` bits of a stored row.
    fn of(row: u128) -> Self;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;

    /// The bits `lo..=hi` (`lo <= hi < BITS`).
    #[inline]
    fn span(lo: u32, hi: u32) -> Self {
        let upto = if hi >= Self::BITS - 1 { Self::ALL } else { (Self::ONE << (hi + 1)) - Self::ONE };
        upto & !((Self::ONE << lo) - Self::ONE)
    }

    /// The run of set bits around bit `c` (which must be set), as `(lo, hi)`.
    #[inline]
    fn run_around(self, c: u32) -> (u32, u32) {
        let right = (!self >> c).trailing_zeros().min(Self::BITS - c); // set bits from c upwards
        let left = ((!self) << (Self::BITS - 1 - c)).leading_zeros().min(c + 1); // and downwards
        (c + 1 - left, c + right - 1)
    }
}

macro_rules! mask {
    ($t:ty) => {
        impl Mask for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const ALL: Self = <$t>::MAX;
            #[inline]
            fn of(row: u128) -> Self {
                row as $t
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
        }
    };
}
mask!(u64);
mask!(u128);

/// The bits `lo..=hi` of a row mask (`lo <= hi <= 127`).
#[inline]
fn span(lo: u32, hi: u32) -> u128 {
    <u128 as Mask>::span(lo, hi)
}

/// A board being cleared, with the masks the partner queries need.
#[derive(Clone)]
pub struct State {
    h: usize,
    w: usize,
    colors: usize,
    color: Vec<u8>,
    open: Vec<u128>,
    tiles: Vec<u128>,
    /// The columns of the board as a mask.
    cols: u128,
    /// `ceil(2^32 / w)`: a cell index's row is `(i * w_inv) >> 32` (see [`State::rc`]).
    w_inv: u64,
    left: usize,
}

impl State {
    /// The full board.
    pub fn new(board: &Board) -> State {
        let (h, w, colors) = (board.height(), board.width(), board.colors());
        let mut s = State {
            h,
            w,
            colors,
            color: board.cells().to_vec(),
            open: vec![0; colors * h],
            tiles: vec![0; colors * h],
            cols: span(0, w as u32 - 1),
            w_inv: (1u64 << 32).div_ceil(w as u64),
            left: h * w,
        };
        for r in 0..h {
            for c in 0..w {
                let k = usize::from(board.get(r, c));
                s.open[k * h + r] |= 1 << c;
                s.tiles[k * h + r] |= 1 << c;
            }
        }
        s
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.h
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.w
    }

    /// Colours.
    pub fn colors(&self) -> usize {
        self.colors
    }

    /// Tiles left.
    pub fn left(&self) -> usize {
        self.left
    }

    /// The colour at a cell index (`r * w + c`), or [`EMPTY`].
    #[inline]
    pub fn at(&self, i: usize) -> u8 {
        self.color[i]
    }

    /// The cell of index `i`.
    #[inline]
    pub fn cell(&self, i: usize) -> Cell {
        let (r, c) = self.rc(i);
        Cell::new(r, c)
    }

    /// The row and column of index `i`, by a multiplication instead of a division (the
    /// partner queries and removals need them for every tile they touch). Exact while
    /// `i * w < 2^32`: a board has at most 128 x 128 cells.
    #[inline]
    fn rc(&self, i: usize) -> (usize, usize) {
        let r = ((i as u64 * self.w_inv) >> 32) as usize;
        (r, i - r * self.w)
    }

    /// The index of a cell.
    #[inline]
    pub fn index(&self, cell: Cell) -> usize {
        usize::from(cell.r) * self.w + usize::from(cell.c)
    }

    /// Removes the tile at index `i` (which must hold one).
    #[inline]
    pub fn remove(&mut self, i: usize) {
        let k = usize::from(self.color[i]);
        debug_assert!(k < self.colors, "removing an empty cell");
        let (r, c) = self.rc(i);
        let bit = 1u128 << c;
        self.color[i] = EMPTY;
        self.tiles[k * self.h + r] &= !bit;
        // An empty cell is open to every colour.
        for kk in 0..self.colors {
            self.open[kk * self.h + r] |= bit;
        }
        self.left -= 1;
    }

    /// Puts the tile of colour `k` back at the empty index `i` (undoes [`State::remove`]).
    #[inline]
    pub fn restore(&mut self, i: usize, k: u8) {
        debug_assert!(self.color[i] == EMPTY && usize::from(k) < self.colors, "restoring onto a tile");
        let (r, c) = self.rc(i);
        let bit = 1u128 << c;
        self.color[i] = k;
        let k = usize::from(k);
        self.tiles[k * self.h + r] |= bit;
        // The cell is closed again to every other colour.
        for kk in (0..self.colors).filter(|&kk| kk != k) {
            self.open[kk * self.h + r] &= !bit;
        }
        self.left += 1;
    }

    /// Applies a move known to be valid (no checks beyond debug assertions).
    pub fn apply(&mut self, m: Move) {
        let (a, b) = (self.index(m.a), self.index(m.b));
        debug_assert!(self.color[a] == self.color[b] && self.color[a] != EMPTY);
        self.remove(a);
        self.remove(b);
    }

    /// Whether the tiles at `a` and `b` can be removed together now: distinct, present, of one
    /// colour, and every row of their rectangle open to that colour over its columns.
    #[inline]
    pub(crate) fn can_remove(&self, a: usize, b: usize) -> bool {
        let k = self.color[a];
        if a == b || k == EMPTY || self.color[b] != k {
            return false;
        }
        let ((ra, ca), (rb, cb)) = (self.rc(a), self.rc(b));
        let cols = span(ca.min(cb) as u32, ca.max(cb) as u32);
        let open = &self.open[usize::from(k) * self.h..];
        (ra.min(rb)..=ra.max(rb)).all(|r| open[r] & cols == cols)
    }

    /// Calls `f(j)` for the index `j` of every tile that can be removed together with the tile at
    /// `i` now; stops early when `f` returns `false`.
    ///
    /// Walks rows away from row `r` in both directions while column `c` stays open, narrowing the
    /// open run around `c`: the partners in a row are the tiles inside the narrowed run.
    #[inline]
    pub fn for_each_partner(&self, i: usize, f: impl FnMut(usize) -> bool) {
        if self.w <= 64 {
            self.partners::<u64>(i, f);
        } else {
            self.partners::<u128>(i, f);
        }
    }

    /// [`State::for_each_partner`] with rows read as `M`, which must hold every column.
    #[inline]
    fn partners<M: Mask>(&self, i: usize, mut f: impl FnMut(usize) -> bool) {
        let k = usize::from(self.color[i]);
        let (r, c) = self.rc(i);
        let c = c as u32;
        let open = &self.open[k * self.h..(k + 1) * self.h];
        let tiles = &self.tiles[k * self.h..(k + 1) * self.h];
        let (lo, hi) = M::of(open[r]).run_around(c);
        if !visit(M::of(tiles[r]) & M::span(lo, hi) & !(M::ONE << c), r, self.w, &mut f) {
            return;
        }
        let win0 = M::span(lo, hi) & M::of(self.cols);
        for rows in [&mut (r + 1..self.h) as &mut dyn Iterator<Item = usize>, &mut (0..r).rev()] {
            let mut win = win0;
            for rr in rows {
                // Hot loop. The window is the run of open columns around `c` in every row so
                // far; a row open over the whole window (the common case once the board thins
                // out) leaves it as it is, and only then is no run computed.
                let x = M::of(open[rr]) & win;
                if x != win {
                    if (x >> c) & M::ONE == M::ZERO {
                        break;
                    }
                    let (l, h) = x.run_around(c);
                    win = M::span(l, h);
                }
                let t = M::of(tiles[rr]) & win;
                if t != M::ZERO && !visit(t, rr, self.w, &mut f) {
                    return;
                }
            }
        }
    }

    /// Whether the tile at `i` has a partner now.
    pub fn has_partner(&self, i: usize) -> bool {
        let mut found = false;
        self.for_each_partner(i, |_| {
            found = true;
            false
        });
        found
    }

    /// Indices of the tiles left, row-major.
    pub fn remaining(&self) -> Vec<usize> {
        (0..self.color.len()).filter(|&i| self.color[i] != EMPTY).collect()
    }
}

/// Calls `f` on the cells of the bits of `bits` in row `r`; `false` if `f` asked to stop.
#[inline]
fn visit<M: Mask>(mut bits: M, r: usize, w: usize, f: &mut impl FnMut(usize) -> bool) -> bool {
    while bits != M::ZERO {
        let c = bits.trailing_zeros() as usize;
        bits = bits & (bits - M::ONE);
        if !f(r * w + c) {
            return false;
        }
    }
    true
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "State {} x {}, {} tiles left", self.h, self.w, self.left)?;
        for row in self.color.chunks(self.w) {
            let line: String = row.iter().map(|&k| if k == EMPTY { '.' } else { char::from(b'0' + k) }).collect();
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_spans() {
        assert_eq!(span(0, 127), u128::MAX);
        assert_eq!(span(2, 4), 0b11100);
        assert_eq!(0b0111_0110u128.run_around(5), (4, 6));
        assert_eq!(0b0111_0110u64.run_around(1), (1, 2));
        assert_eq!(u128::MAX.run_around(127), (0, 127));
        assert_eq!(u64::MAX.run_around(63), (0, 63));
        assert_eq!(u64::MAX.run_around(0), (0, 63));
        assert_eq!(1u64.run_around(0), (0, 0));
        assert_eq!(<u64 as Mask>::span(3, 63), u64::MAX << 3);
    }

    #[test]
    fn rows_and_columns_by_multiplication_are_exact() {
        for w in 1..=128usize {
            let b = Board::parse(&format!("{0}\n{0}\n", "1".repeat(w))).unwrap();
            let s = State::new(&b);
            for i in 0..w * 128 {
                assert_eq!(s.rc(i), (i / w, i % w), "w {w}, i {i}");
            }
        }
    }

    #[test]
    fn partners_follow_the_rectangle_rule() {
        let b = Board::parse("0100\n1011\n0010\n").unwrap();
        let mut s = State::new(&b);
        let partners = |s: &State, r: usize, c: usize| {
            let mut v = Vec::new();
            s.for_each_partner(r * 4 + c, |j| {
                v.push((j / 4, j % 4));
                true
            });
            v.sort();
            v
        };
        assert_eq!(partners(&s, 0, 0), []);
        assert_eq!(partners(&s, 0, 2), [(0, 3)], "(1, 1) is behind the 1 at (0, 1)");
        assert_eq!(partners(&s, 1, 2), [(1, 3), (2, 2)]);
        s.remove(4 + 2); // (1, 2), a 1
        s.remove(2 * 4 + 2); // (2, 2), a 1
        assert_eq!(partners(&s, 0, 2), [(0, 3)], "(2, 3) is behind the 1 at (1, 3)");
        assert_eq!(partners(&s, 1, 1), [(2, 1)], "(2, 0) is behind the 1 at (1, 0)");
        assert_eq!(s.left(), 10);
        assert!(!s.has_partner(0) && s.has_partner(1 + 4));
    }

    #[test]
    fn both_mask_widths_find_the_pairs_the_rectangle_rule_allows() {
        use rand::RngExt;
        let mut rng = tessera_core::rng::Rng64::seed(9);
        let mut narrow = 0;
        for seed in 1..=12 {
            let board = crate::generator::generate(seed);
            let mut s = State::new(&board);
            // Thin the board out at random, checking at several densities.
            for _ in 0..4 {
                for i in s.remaining() {
                    if rng.random_range(0..3) == 0 {
                        s.remove(i);
                    }
                }
                for i in s.remaining() {
                    let found = |wide: bool| {
                        let mut v = Vec::new();
                        let push = |j| {
                            v.push(j);
                            true
                        };
                        if wide {
                            s.partners::<u128>(i, push)
                        } else {
                            s.partners::<u64>(i, push)
                        }
                        v.sort_unstable();
                        v
                    };
                    let allowed: Vec<usize> = s.remaining().into_iter().filter(|&j| s.can_remove(i, j)).collect();
                    assert_eq!(found(true), allowed, "board {seed}, tile {i}");
                    if s.width() <= 64 {
                        narrow += 1;
                        assert_eq!(found(false), allowed, "board {seed}, tile {i}");
                    }
                }
            }
        }
        assert!(narrow > 1000, "the narrow path was checked on {narrow} tiles only");
    }
}
