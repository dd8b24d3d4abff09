//! What a position evaluation looks at, computed a row mask at a time.
//!
//! On the odd-r layout a cell `(x, y)` has its two upper neighbours in row `y - 1`: columns
//! `x - 1` and `x` when `y` is even, `x` and `x + 1` when `y` is odd. So the row above, shifted
//! by the row's parity, lines up with the cells it covers.
//!
//! Every feature but the stack's height is a sum over rows of a term that depends on the row,
//! the row above and the cells of the row above that units can reach from the top. A placement
//! that clears no line changes the rows it fills, the row below them, and the reachable cells
//! further down only until they agree with the board's before; a row cache keeps a board's row
//! terms so that a placement is valued from those rows alone.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use tessera_core::rng::Rng64;

use crate::engine::Board;
use crate::engine::reach::fill_runs;

/// Number of board features.
pub const FEATURES: usize = 8;

/// The features of a board, all "more is worse" except `full_rows`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Features {
    /// Sum over filled cells of their height above the floor, over the board's height.
    pub height: f64,
    /// The stack's height (rows from the first filled row to the floor), over the board height.
    pub top: f64,
    /// Free cells under exactly one filled upper neighbour.
    pub half_covered: f64,
    /// Free cells under two filled upper neighbours.
    pub covered: f64,
    /// Free cells that no unit can reach from the top (they open only when lines clear).
    pub enclosed: f64,
    /// Sum over rows of the square of their filled share: rows close to clearing.
    pub full_rows: f64,
    /// Changes between free and filled along rows beyond the two of a row filled from one
    /// side (walls count as filled).
    pub roughness: f64,
    /// Sum over rows holding a filled cell of `exp(-free / 6)`, with `free` the row's free
    /// cells: rows a few cells short of clearing, however wide the board (more is better).
    pub near_full: f64,
}

impl Features {
    /// The features of `board`.
    #[must_use]
    pub fn of(board: &Board) -> Features {
        let rows = board.rows();
        let mut terms = [0.0; FEATURES];
        let (mut above, mut open) = (0, board.full());
        for (y, &row) in rows.iter().enumerate() {
            let (t, o) = row_terms(board, y, row, above, open);
            add(&mut terms, &t);
            (above, open) = (row, o);
        }
        terms[1] = top_term(board, board.top());
        Features::from_array(terms)
    }

    /// The features as a vector, in the order of [`Weights::features`].
    pub fn to_array(self) -> [f64; FEATURES] {
        [
            self.height,
            self.top,
            self.half_covered,
            self.covered,
            self.enclosed,
            self.full_rows,
            self.roughness,
            self.near_full,
        ]
    }

    fn from_array(a: [f64; FEATURES]) -> Features {
        let [height, top, half_covered, covered, enclosed, full_rows, roughness, near_full] = a;
        Features { height, top, half_covered, covered, enclosed, full_rows, roughness, near_full }
    }
}

fn add(a: &mut [f64; FEATURES], b: &[f64; FEATURES]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

fn top_term(board: &Board, top: usize) -> f64 {
    (board.height() - top) as f64 / board.height().max(1) as f64
}

/// Row `y`'s terms (the `top` term left at 0), given the row above and its cells reachable from
/// the top; also this row's reachable cells.
#[inline]
fn row_terms(board: &Board, y: usize, row: u128, above: u128, open_above: u128) -> ([f64; FEATURES], u128) {
    let h = board.height();
    let full = board.full();
    let free = !row & full;
    let even = y.is_multiple_of(2);
    let (nw, ne) = if even { (above << 1, above) } else { (above, above >> 1) };
    let (onw, one) = if even { (open_above << 1, open_above) } else { (open_above, open_above >> 1) };
    // Cells reachable from the row above, spread along runs of free cells (most rows are all
    // reachable or not at all).
    let seed = free & (onw | one);
    let open = if seed == free || seed == 0 { seed } else { fill_runs(free, seed) };
    let mut t = [0.0; FEATURES];
    t[2] = (free & (nw ^ ne)).count_ones() as f64;
    t[3] = (free & nw & ne).count_ones() as f64;
    t[4] = (free & !open).count_ones() as f64;
    if row != 0 {
        let w = board.width() as u32;
        let filled = row.count_ones();
        t[0] = (filled as usize * (h - y)) as f64 / h as f64;
        let share = filled as f64 / w as f64;
        t[5] = share * share;
        t[7] = NEAR_FULL[(w - filled) as usize];
        // A filled column left of the row (bit 0) and right of it (bit w + 1) once shifted;
        // neighbour pairs (bit i, bit i + 1) for i in 0..=w.
        let padded = (row << 1) | 1 | 1 << (w + 1);
        let pairs = (1u128 << (w + 1)) - 1;
        t[6] = ((padded ^ (padded >> 1)) & pairs).count_ones() as f64 - 2.0;
    }
    (t, open)
}

/// `exp(-free / 6)` for a row with `free` free cells (`free` < 128, the widest board).
static NEAR_FULL: LazyLock<[f64; 128]> = LazyLock::new(|| std::array::from_fn(|free| (-(free as f64) / 6.0).exp()));

/// A board's row terms, to value placements on it from the rows they change.
#[derive(Clone, Debug, Default)]
pub(crate) struct RowCache {
    /// Row terms.
    terms: Vec<[f64; FEATURES]>,
    /// Sums of the terms of rows `0..y`.
    before: Vec<[f64; FEATURES]>,
    /// Cells of each row reachable from the top.
    open: Vec<u128>,
    top: usize,
}

impl RowCache {
    /// The row terms of `board`.
    #[cfg(test)]
    pub fn new(board: &Board) -> RowCache {
        let mut c = RowCache::default();
        c.reset(board);
        c
    }

    /// Recomputes the cache for `board`.
    pub fn reset(&mut self, board: &Board) {
        let rows = board.rows();
        self.terms.clear();
        self.open.clear();
        self.before.clear();
        let (mut above, mut open) = (0, board.full());
        let mut sum = [0.0; FEATURES];
        for (y, &row) in rows.iter().enumerate() {
            self.before.push(sum);
            let (t, o) = row_terms(board, y, row, above, open);
            add(&mut sum, &t);
            self.terms.push(t);
            self.open.push(o);
            (above, open) = (row, o);
        }
        self.before.push(sum);
        self.top = board.top();
    }

    /// The features of `board`, which is the cached board with cells added in rows
    /// `first..=last` and no line cleared.
    pub fn features_after(&self, board: &Board, first: usize, last: usize) -> Features {
        let rows = board.rows();
        let h = rows.len();
        let mut sum = self.before[first];
        let (mut above, mut open) =
            if first == 0 { (0, board.full()) } else { (rows[first - 1], self.open[first - 1]) };
        let mut y = first;
        while y < h {
            let (t, o) = row_terms(board, y, rows[y], above, open);
            add(&mut sum, &t);
            y += 1;
            // Below the changed rows, once the reachable cells agree, the rest is as before.
            if y < h && y > last + 1 && o == self.open[y - 1] {
                let tail = sub(&self.before[h], &self.before[y]);
                add(&mut sum, &tail);
                break;
            }
            (above, open) = (rows[y - 1], o);
        }
        sum[1] = top_term(board, self.top.min(board.top()));
        Features::from_array(sum)
    }
}

fn sub(a: &[f64; FEATURES], b: &[f64; FEATURES]) -> [f64; FEATURES] {
    let mut out = *a;
    for (x, y) in out.iter_mut().zip(b) {
        *x -= y;
    }
    out
}

/// How much each feature and the lock depth count in a position's value (in points).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// Weights of [`Features::to_array`], in points per unit of feature. A set written before
    /// the later features existed lists fewer; those it lacks weigh 0.
    #[serde(deserialize_with = "padded")]
    pub features: [f64; FEATURES],
    /// How much the phrase points expected from the rows a unit moves down count (1: as much
    /// as the points they are expected to bring).
    pub power: f64,
}

/// Reads up to [`FEATURES`] weights, the missing ones 0.
fn padded<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[f64; FEATURES], D::Error> {
    let listed = Vec::<f64>::deserialize(d)?;
    if listed.len() > FEATURES {
        return Err(serde::de::Error::invalid_length(listed.len(), &"at most as many weights as features"));
    }
    let mut out = [0.0; FEATURES];
    out[..listed.len()].copy_from_slice(&listed);
    Ok(out)
}

/// The weights tessera ships: a few sets, each the best on some problems, tuned by
/// `tessera hextris tune` (see the README). The solver tries each and keeps the best.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Portfolio {
    /// How the sets were made (the tuning command's settings).
    pub made_by: String,
    /// The sets.
    pub weights: Vec<Weights>,
}

impl Portfolio {
    /// The shipped portfolio.
    pub(crate) fn shipped() -> Portfolio {
        serde_json::from_str(include_str!("../../data/weights.json")).expect("the shipped weights parse")
    }
}

impl Weights {
    /// The first set of the shipped portfolio.
    #[must_use]
    pub fn tuned() -> Weights {
        Portfolio::shipped().weights.swap_remove(0)
    }

    /// The value of a board's features.
    pub(crate) fn value(&self, f: &Features) -> f64 {
        f.to_array().iter().zip(&self.features).map(|(a, b)| a * b).sum()
    }

    /// The set with each weight multiplied by `e^(spread g)`, `g` a standard normal deviate
    /// of its own: a neighbour of the set that plans other games.
    pub(crate) fn jittered(&self, spread: f64, rng: &mut Rng64) -> Weights {
        let mut out = self.clone();
        for w in out.features.iter_mut().chain([&mut out.power]) {
            *w *= (spread * gauss(rng)).exp();
        }
        out
    }
}

/// A standard normal deviate (Box-Muller).
pub(crate) fn gauss(rng: &mut Rng64) -> f64 {
    let (u, v) = (rng.unit().max(1e-12), rng.unit());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::rng::Rng64;

    #[test]
    fn features_see_holes_rows_and_roughness() {
        let mut b = Board::empty(4, 4);
        assert_eq!(Features::of(&b), Features::default());
        // Row 2 (even): filled at 1 and 2; row 3 (odd) free at 1: its upper neighbours are
        // columns 1 and 2 of row 2, both filled.
        b.fill(2, 0b0110);
        b.fill(3, 0b1101);
        let f = Features::of(&b);
        assert_eq!(f.covered, 1.0);
        assert_eq!(f.enclosed, 1.0);
        assert_eq!(f.half_covered, 0.0);
        assert_eq!(f.top, 0.5);
        assert!((f.full_rows - (0.25 + 0.5625)).abs() < 1e-12);
        // Row 2: wall|.##.|wall has 4 changes, 2 more than needed; row 3: wall|#.##|wall has 2.
        assert_eq!(f.roughness, 2.0);
        assert!((f.height - (2.0 * 2.0 + 3.0) / 4.0).abs() < 1e-12);
        // Rows 2 and 3 are 2 and 1 cells short; empty rows count nothing.
        assert!((f.near_full - ((-2.0f64 / 6.0).exp() + (-1.0f64 / 6.0).exp())).abs() < 1e-12);
    }

    #[test]
    fn sets_of_fewer_weights_read_as_zeros() {
        let old = r#"{"features": [1, 2, 3, 4, 5, 6, 7], "power": 0.5}"#;
        let w: Weights = serde_json::from_str(old).unwrap();
        assert_eq!(w.features, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0]);
        let long = r#"{"features": [1, 2, 3, 4, 5, 6, 7, 8, 9], "power": 0.5}"#;
        assert!(serde_json::from_str::<Weights>(long).is_err());
        // What is written reads back the same.
        let again: Weights = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
        assert_eq!(again, w);
    }

    #[test]
    fn cached_rows_give_the_same_features() {
        let mut rng = Rng64::seed(3);
        for _ in 0..300 {
            let (w, h) = (1 + rng.below(30) as usize, 1 + rng.below(20) as usize);
            let mut b = Board::empty(w, h);
            for y in 0..h {
                if rng.below(3) > 0 && y > h / 3 {
                    b.fill(y, rng.next_u64() as u128 & b.full());
                }
            }
            b.clear_full_rows();
            let cache = RowCache::new(&b);
            assert_eq!(cache.features_after(&b, 0, h - 1), Features::of(&b));
            let first = rng.below(h as u64) as usize;
            let mut after = b.clone();
            for y in first..(first + 3).min(h) {
                after.fill(y, rng.next_u64() as u128 & after.full() & rng.next_u64() as u128);
            }
            if after.rows().iter().any(|&r| r == after.full()) {
                continue;
            }
            let last = (first + 2).min(h - 1);
            let (got, want) = (cache.features_after(&after, first, last), Features::of(&after));
            for (g, w) in got.to_array().iter().zip(want.to_array()) {
                assert!((g - w).abs() < 1e-9, "{got:?} != {want:?}\n{after:?}");
            }
        }
    }

    #[test]
    fn jittered_weights_stay_near_and_keep_their_signs() {
        let w = Weights::tuned();
        assert_eq!(w.jittered(0.0, &mut Rng64::seed(1)), w, "no spread, no change");
        let (a, b) = (w.jittered(0.15, &mut Rng64::seed(7)), w.jittered(0.15, &mut Rng64::seed(7)));
        assert_eq!(a, b, "the same seed, the same set");
        assert_ne!(a, w.jittered(0.15, &mut Rng64::seed(8)));
        for (x, y) in a.features.iter().chain([&a.power]).zip(w.features.iter().chain([&w.power])) {
            let factor = if *y == 0.0 { 1.0 } else { x / y };
            assert!((0.4..2.5).contains(&factor), "{x} from {y}: more than six spreads away");
        }
    }
}
