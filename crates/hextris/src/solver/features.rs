//! What a position evaluation looks at, computed a row mask at a time.
//!
//! On the odd-r layout a cell `(x, y)` has its two upper neighbours in row `y - 1`: columns
//! `x - 1` and `x` when `y` is even, `x` and `x + 1` when `y` is odd. So the row above, shifted
//! by the row's parity, lines up with the cells it covers.

use serde::{Deserialize, Serialize};

use crate::engine::Board;
use crate::engine::reach::fill_runs;

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
}

impl Features {
    /// The features of `board`.
    pub fn of(board: &Board) -> Features {
        let rows = board.rows();
        let (w, h) = (board.width() as u32, rows.len());
        let full = board.full();
        // A filled column left of the row (bit 0) and right of it (bit w + 1) once shifted.
        let walls = 1u128 | 1 << (w + 1);
        let pairs = (1u128 << (w + 1)) - 1; // neighbour pairs (bit i, bit i + 1) for i in 0..=w
        let mut f = Features::default();
        let mut above = 0u128; // filled cells of the row above
        let mut open = full; // free cells of the row above that units reach from the top
        let top = board.top();
        for (y, &row) in rows.iter().enumerate() {
            let free = !row & full;
            let (nw, ne) = if y % 2 == 0 { (above << 1, above) } else { (above, above >> 1) };
            if y > top {
                f.covered += (free & nw & ne).count_ones() as f64;
                f.half_covered += (free & (nw ^ ne)).count_ones() as f64;
                let (onw, one) = if y % 2 == 0 { (open << 1, open) } else { (open, open >> 1) };
                open = fill_runs(free, free & (onw | one));
                f.enclosed += (free & !open).count_ones() as f64;
            } else {
                open = free;
            }
            if row != 0 {
                let filled = row.count_ones();
                f.height += (filled * (h - y) as u32) as f64;
                let share = filled as f64 / w as f64;
                f.full_rows += share * share;
                let padded = (row << 1) | walls;
                f.roughness += ((padded ^ (padded >> 1)) & pairs).count_ones() as f64 - 2.0;
            }
            above = row;
        }
        let scale = 1.0 / h.max(1) as f64;
        f.height *= scale;
        f.top = (h - top) as f64 * scale;
        f
    }

    /// The features as a vector, in the order of [`Weights`].
    pub fn to_array(self) -> [f64; FEATURES] {
        [self.height, self.top, self.half_covered, self.covered, self.enclosed, self.full_rows, self.roughness]
    }
}

/// Number of board features.
pub const FEATURES: usize = 7;

/// How much each feature and the lock depth count in a position's value (in points).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// Weights of [`Features::to_array`], in points per unit of feature.
    pub features: [f64; FEATURES],
    /// Points expected from phrases of power per row a unit moves down.
    pub power_per_row: f64,
}

impl Weights {
    /// The weights tessera ships, tuned by `tessera hextris tune` (see the README).
    pub fn tuned() -> Weights {
        serde_json::from_str(include_str!("../../data/weights.json")).expect("the shipped weights parse")
    }

    /// The value of a board's features.
    pub fn value(&self, f: &Features) -> f64 {
        f.to_array().iter().zip(&self.features).map(|(a, b)| a * b).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
