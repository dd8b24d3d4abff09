//! Colouring arguments: cheap proofs that a bag cannot tile a region exactly.
//!
//! Colour the plane in two colours, count `dark - light` cells (the *imbalance*) of the region
//! and of every piece. Moving a piece by one cell flips the colours it covers, so each piece
//! adds `+-` the imbalance of the rotation it takes, and those must add up to the region's.
//! Three colourings:
//!
//! ```text
//!   checkerboard     columns        rows
//!   #.#.#.#.         #.#.#.#.       ########
//!   .#.#.#.#         #.#.#.#.       ........
//! ```
//!
//! A T always covers 3 + 1 squares of a checkerboard, so a rectangle without spare cells needs an
//! even number of T; on stripes an L or J always covers 3 + 1, a vertical I 4 + 0, the others
//! 2 + 2, so a bag without T needs an even number of L and J together.

use std::sync::OnceLock;

use crate::bag::Bag;
use crate::shapes::PieceSet;

/// The colourings: whether a cell is dark.
const COLOURINGS: [fn(i32, i32) -> bool; 3] =
    [|x, y| (x + y).rem_euclid(2) == 0, |x, _| x.rem_euclid(2) == 0, |_, y| y.rem_euclid(2) == 0];

/// The imbalance of cells under each colouring.
pub(crate) fn imbalances(cells: &[(i32, i32)]) -> [i64; 3] {
    COLOURINGS.map(|dark| cells.iter().map(|&(x, y)| if dark(x, y) { 1 } else { -1 }).sum())
}

/// Whether the bag passes every colouring test on a region with exactly its area.
pub fn colours_can_balance(bag: &Bag, region: &[(i32, i32)]) -> bool {
    ColourSums::new(bag).fit(imbalances(region))
}

/// The imbalances a bag's pieces can add up to, under each colouring: computed once, then any
/// number of regions are checked against them.
#[derive(Clone, Debug)]
pub struct ColourSums {
    /// Per colouring, the reachable sums as a bit set (bit `total + s` for sum `s`), and `total`.
    reach: [(Vec<u64>, u64); 3],
}

impl ColourSums {
    /// The sums of a bag.
    pub fn new(bag: &Bag) -> ColourSums {
        let options = rotation_imbalances(bag.set);
        let reach = [0, 1, 2].map(|c| {
            let pieces = bag
                .counts
                .iter()
                .zip(options)
                .filter(|(_, o)| o[c] != [0])
                .flat_map(|(&n, o)| std::iter::repeat_n(o[c].as_slice(), n as usize));
            signed_sums(pieces)
        });
        ColourSums { reach }
    }

    /// Whether the pieces can match a region of these imbalances.
    pub fn fit(&self, region: [i64; 3]) -> bool {
        self.reach.iter().zip(region).all(|((bits, total), target)| {
            let target = target.unsigned_abs();
            let at = total + target;
            target <= *total && bits[(at / 64) as usize] >> (at % 64) & 1 != 0
        })
    }
}

/// For every kind of a set and every colouring, the distinct `|imbalance|` of its rotations.
fn rotation_imbalances(set: PieceSet) -> &'static [[Vec<u64>; 3]] {
    static SETS: [OnceLock<Vec<[Vec<u64>; 3]>>; 2] = [OnceLock::new(), OnceLock::new()];
    SETS[set as usize].get_or_init(|| {
        set.kinds()
            .iter()
            .map(|k| {
                let rotations = k.rotations();
                [0, 1, 2].map(|c| {
                    let mut o: Vec<u64> = rotations.iter().map(|r| imbalances(r)[c].unsigned_abs()).collect();
                    o.sort_unstable();
                    o.dedup();
                    o
                })
            })
            .collect()
    })
}

/// The sums of one value per piece, taken from the piece's options with either sign: a bit set
/// offset so that bit `total` is 0, and `total` (the largest sum).
fn signed_sums<'a>(pieces: impl Iterator<Item = &'a [u64]> + Clone) -> (Vec<u64>, u64) {
    let total: u64 = pieces.clone().map(|o| o.iter().max().copied().unwrap_or(0)).sum();
    let words = (2 * total + 1).div_ceil(64) as usize;
    let mut reach = vec![0u64; words];
    reach[(total / 64) as usize] |= 1 << (total % 64);
    let mut next = vec![0u64; words];
    for options in pieces {
        next.iter_mut().for_each(|w| *w = 0);
        for &v in options {
            shift_or(&reach, &mut next, v as usize, true);
            shift_or(&reach, &mut next, v as usize, false);
        }
        std::mem::swap(&mut reach, &mut next);
    }
    (reach, total)
}

/// `out |= bits << by` (towards higher bits) or `out |= bits >> by`, over words.
fn shift_or(bits: &[u64], out: &mut [u64], by: usize, up: bool) {
    let (words, rem) = (by / 64, by % 64);
    for (i, out) in out.iter_mut().enumerate() {
        *out |= if up {
            let lo = i.checked_sub(words).map_or(0, |j| bits[j] << rem);
            let carry = if rem == 0 { 0 } else { i.checked_sub(words + 1).map_or(0, |j| bits[j] >> (64 - rem)) };
            lo | carry
        } else {
            let hi = bits.get(i + words).map_or(0, |&b| b >> rem);
            let carry = if rem == 0 { 0 } else { bits.get(i + words + 1).map_or(0, |&b| b << (64 - rem)) };
            hi | carry
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::exact::rectangle;

    fn fits(letters: &str, dims: (u32, u32)) -> bool {
        colours_can_balance(&Bag::from_letters(PieceSet::Tetrominoes, letters).unwrap(), &rectangle(dims))
    }

    #[test]
    fn checkerboard_wants_an_even_number_of_t() {
        assert!(!fits("TIOO", (4, 4)));
        assert!(fits("TTOO", (4, 4)));
    }

    #[test]
    fn stripes_want_an_even_number_of_l_and_j_without_t() {
        // Level-5 bags that took the search seconds to refute.
        assert!(!fits("IIJJJJJJLLLOOOZZ", (8, 8)));
        assert!(!fits("IIJJJLLOOOOSSSSZ", (8, 8)));
        assert!(!fits("LOOO", (4, 4)));
        // A T can take up the imbalance on stripes (but two are needed for the checkerboard).
        assert!(fits("LJJTTIIO", (4, 8)));
        assert!(fits("LJIOSZOOSZ", (5, 8)));
        // Odd boxes: a 5 x 4 box of stripes of 5 has an imbalance of 4, met by one vertical I.
        assert!(fits("IOOOO", (5, 4)));
    }

    #[test]
    fn sums_cover_long_shifts() {
        // 100 vertical-or-flat I: every multiple of 4 in -400..=400 on stripes, nothing else.
        let bag = Bag::from_letters(PieceSet::Tetrominoes, &"I".repeat(100)).unwrap();
        let sums = ColourSums::new(&bag);
        assert!(sums.fit([0, 400, 0]) && sums.fit([0, -396, 8]) && !sums.fit([0, 398, 0]) && !sums.fit([0, 404, 0]));
    }
}
