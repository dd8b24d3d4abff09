//! What a position evaluation looks at, computed a row mask at a time.
//!
//! On the odd-r layout a cell `(x, y)` has its two upper neighbours in row `y - 1`: columns
//! `x - 1` and `x` when `y` is even, `x` and `x + 1` when `y` is odd. So the row above, shifted
//! by the row's parity, lines up with the cells it covers.
//!
//! Every feature but the stack's height is a sum over rows of a term that depends on the row,
//! the row above and the cells of the row above that units can reach from the top. A placement
//! that clears no line changes the rows it fills, the row below them, and the reachable cells
//! further down only until they agree with the board's before; a row cache keeps the weighted
//! sum of each of a board's rows so that a placement is valued from those rows alone. A row's
//! terms are whole-number counts of masks but for the height and the two full-row terms, which
//! depend on the row's index and its count of filled cells only: tables of the weights give
//! them.

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
        let (h, w) = (board.height(), board.width());
        let mut terms = [0.0; FEATURES];
        for (y, c, _) in rows_from_top(board) {
            let (full_rows, near_full) = full_terms(c.filled as usize, w);
            let t = [
                (c.filled as usize * (h - y)) as f64 / h as f64,
                0.0,
                c.half_covered as f64,
                c.covered as f64,
                c.enclosed as f64,
                full_rows,
                c.roughness as f64,
                near_full,
            ];
            add(&mut terms, &t);
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

/// What row `y` counts towards the features but the height terms, as whole numbers.
#[derive(Clone, Copy, Debug, Default)]
struct RowCounts {
    filled: u32,
    half_covered: u32,
    covered: u32,
    enclosed: u32,
    /// Changes between free and filled beyond two (0 for a free row).
    roughness: u32,
}

/// The ones of `x`, with a shortcut for none. The build targets plain x86-64, where a count
/// is a dozen instructions per word, and most masks counted here are empty.
#[inline]
fn ones(x: u128) -> u32 {
    if x == 0 { 0 } else { x.count_ones() }
}

/// Row `y`'s counts, given the row above and its cells reachable from the top; also this row's
/// reachable cells.
#[inline]
fn row_counts(board: &Board, y: usize, row: u128, above: u128, open_above: u128) -> (RowCounts, u128) {
    let free = !row & board.full();
    let even = y.is_multiple_of(2);
    let (nw, ne) = if even { (above << 1, above) } else { (above, above >> 1) };
    let (onw, one) = if even { (open_above << 1, open_above) } else { (open_above, open_above >> 1) };
    // Cells reachable from the row above, spread along runs of free cells (most rows are all
    // reachable or not at all).
    let seed = free & (onw | one);
    let open = if seed == free || seed == 0 { seed } else { fill_runs(free, seed) };
    let mut c = RowCounts {
        half_covered: ones(free & (nw ^ ne)),
        covered: ones(free & nw & ne),
        enclosed: ones(free & !open),
        ..RowCounts::default()
    };
    if row != 0 {
        // A filled column left of the row (bit 0) and right of it (bit w + 1) once shifted;
        // neighbour pairs (bit i, bit i + 1) for i in 0..=w. A row never stays full (it
        // clears), so there are at least the two changes of the walls.
        let w = board.width() as u32;
        let padded = (row << 1) | 1 | 1 << (w + 1);
        let pairs = (1u128 << (w + 1)) - 1;
        c.filled = row.count_ones();
        c.roughness = ((padded ^ (padded >> 1)) & pairs).count_ones().saturating_sub(2);
    }
    (c, open)
}

/// The counts and reachable cells of the rows from the board's first filled row down, with
/// their indices. Rows above are free, unfilled and open: they count nothing.
fn rows_from_top(board: &Board) -> impl Iterator<Item = (usize, RowCounts, u128)> + '_ {
    let (mut above, mut open) = (0, board.full());
    board.rows().iter().enumerate().skip(board.top()).map(move |(y, &row)| {
        let (c, o) = row_counts(board, y, row, above, open);
        (above, open) = (row, o);
        (y, c, o)
    })
}

/// The full-rows and near-full terms of a row with `filled` of its `width` cells filled: the
/// squared filled share, and `exp(-free / 6)` (0 for a row with nothing filled).
fn full_terms(filled: usize, width: usize) -> (f64, f64) {
    let share = filled as f64 / width as f64;
    let near = if filled == 0 { 0.0 } else { (-((width - filled) as f64) / 6.0).exp() };
    (share * share, near)
}

/// A set of weights turned into the value of a row's counts on boards of one size: the
/// features' weighted sum split by rows, so that a placement is valued by adding up a few
/// numbers per row it changes.
#[derive(Clone, Debug)]
struct RowValues {
    /// Per row, the height weight times the row's height over the board's (per filled cell).
    height: Vec<f64>,
    /// Per count of filled cells, the weighted full-rows and near-full terms.
    filled: Vec<f64>,
    /// The weights of the half-covered, covered and enclosed cells and of the roughness.
    half_covered: f64,
    covered: f64,
    enclosed: f64,
    roughness: f64,
}

impl RowValues {
    fn new(weights: &Weights, width: usize, height: usize) -> RowValues {
        let [w_height, _, half_covered, covered, enclosed, w_full, roughness, w_near] = weights.features;
        let filled_value = |f: usize| {
            let (full_rows, near_full) = full_terms(f, width);
            w_full * full_rows + w_near * near_full
        };
        RowValues {
            height: (0..height).map(|y| w_height * (height - y) as f64 / height as f64).collect(),
            filled: (0..=width).map(filled_value).collect(),
            half_covered,
            covered,
            enclosed,
            roughness,
        }
    }

    /// The value of row `y`'s counts.
    #[inline]
    fn of(&self, y: usize, c: RowCounts) -> f64 {
        self.height[y] * c.filled as f64
            + self.filled[c.filled as usize]
            + self.half_covered * c.half_covered as f64
            + self.covered * c.covered as f64
            + self.enclosed * c.enclosed as f64
            + self.roughness * c.roughness as f64
    }
}

/// A board's row values under one set of weights, to value placements on it from the rows
/// they change: `value_after` gives the weighted sum of the board's [`Features`] (the weights
/// times [`Features::to_array`]), up to rounding.
#[derive(Clone, Debug)]
pub(crate) struct RowCache {
    values: RowValues,
    /// The weight of the stack's height.
    top_weight: f64,
    /// Sums of the values of rows `0..y`.
    before: Vec<f64>,
    /// Cells of each row reachable from the top.
    open: Vec<u128>,
    /// The cached board's first row with a filled cell.
    top: usize,
}

impl RowCache {
    /// A cache for boards of `width` by `height` valued with `weights` (empty until
    /// [`RowCache::reset`]).
    pub fn new(weights: &Weights, width: usize, height: usize) -> RowCache {
        RowCache {
            values: RowValues::new(weights, width, height),
            top_weight: weights.features[1],
            before: Vec::with_capacity(height + 1),
            open: Vec::with_capacity(height),
            top: height,
        }
    }

    /// Recomputes the cache for `board`.
    pub fn reset(&mut self, board: &Board) {
        let top = board.top();
        self.open.clear();
        self.before.clear();
        // Rows above the stack count nothing and are open.
        self.open.resize(top, board.full());
        self.before.resize(top, 0.0);
        let mut sum = 0.0;
        for (y, c, open) in rows_from_top(board) {
            self.before.push(sum);
            sum += self.values.of(y, c);
            self.open.push(open);
        }
        self.before.push(sum);
        self.top = top;
    }

    /// The value of `board`'s features, which is the cached board with cells added in rows
    /// `first..=last` (some in row `first`) and no line cleared.
    pub fn value_after(&self, board: &Board, first: usize, last: usize) -> f64 {
        let rows = board.rows();
        let h = rows.len();
        let mut sum = self.before[first];
        let (mut above, mut open) =
            if first == 0 { (0, board.full()) } else { (rows[first - 1], self.open[first - 1]) };
        let mut y = first;
        while y < h {
            let (c, o) = row_counts(board, y, rows[y], above, open);
            sum += self.values.of(y, c);
            y += 1;
            // Below the changed rows, once the reachable cells agree, the rest is as before.
            if y < h && y > last + 1 && o == self.open[y - 1] {
                sum += self.before[h] - self.before[y];
                break;
            }
            (above, open) = (rows[y - 1], o);
        }
        // Row `first` holds one of the cells added.
        sum + self.top_weight * top_term(board, self.top.min(first))
    }

    /// The value of any `board` of the cache's size (its rows all counted afresh).
    pub fn value_of(&self, board: &Board) -> f64 {
        let rows: f64 = rows_from_top(board).map(|(y, c, _)| self.values.of(y, c)).sum();
        rows + self.top_weight * top_term(board, board.top())
    }
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

    /// The value of a board's features (the beam adds it up row by row: see `RowCache`).
    #[cfg(test)]
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
    fn cached_rows_give_the_features_value() {
        let mut rng = Rng64::seed(3);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + b.abs());
        for _ in 0..300 {
            let weights = Weights::tuned().jittered(0.5, &mut rng);
            let (w, h) = (1 + rng.below(30) as usize, 1 + rng.below(20) as usize);
            let mut b = Board::empty(w, h);
            for y in 0..h {
                if rng.below(3) > 0 && y > h / 3 {
                    b.fill(y, rng.next_u64() as u128 & b.full());
                }
            }
            b.clear_full_rows();
            let mut cache = RowCache::new(&weights, w, h);
            cache.reset(&b);
            assert!(close(cache.value_of(&b), weights.value(&Features::of(&b))), "{b:?}");
            let start = rng.below(h as u64) as usize;
            let mut after = b.clone();
            for y in start..(start + 3).min(h) {
                after.fill(y, rng.next_u64() as u128 & after.full() & rng.next_u64() as u128);
            }
            if after.rows().iter().any(|&r| r == after.full()) {
                continue;
            }
            // The rows that gained cells (`value_after` is told the first and last).
            let changed: Vec<usize> = (0..h).filter(|&y| after.rows()[y] != b.rows()[y]).collect();
            let (Some(&first), Some(&last)) = (changed.first(), changed.last()) else { continue };
            let want = weights.value(&Features::of(&after));
            let got = cache.value_after(&after, first, last);
            assert!(close(got, want), "{got} != {want}\n{after:?}");
            assert!(close(cache.value_of(&after), want), "{after:?}");
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
