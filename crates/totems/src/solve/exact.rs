//! The exact solver: the box as an exact tiling problem for the core's engine.
//!
//! The board is the box; the pieces are the bag's kinds, rotations only; every spare cell is a
//! single-cell "hole" piece, so packings with room to spare are exact tilings too. A finished
//! search proves that the bag does not fit. Before searching, a checkerboard argument rejects
//! many boxes at once: on a checkerboard a T covers three squares of one colour and one of the
//! other, the other tetrominoes two and two, so a box without spare cells takes only an even
//! number of T (in general: the pieces' colour imbalances must be able to cancel out).

use tessera_core::geometry::Lattice;
use tessera_core::runtime::Verdict;
use tessera_core::tiler::{PieceSpec, Problem, Solution, Tiler};

use super::{BoxResult, Ctx};
use crate::answer::{Answer, Dims, Placed};
use crate::bag::Bag;
use crate::shapes::PieceSet;

/// Label of the single-cell hole pieces.
const HOLE: char = '_';

/// Packs the bag into the box, or proves that it does not fit.
pub fn pack(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxResult {
    let (w, h) = dims;
    let area = u64::from(w) * u64::from(h);
    if area < bag.cells() || (area == bag.cells() && !colours_can_balance(bag, dims)) {
        return BoxResult::Impossible;
    }
    let problem = problem(bag, dims);
    let Ok(tiler) = Tiler::new(&problem) else { return BoxResult::Unknown };
    match tiler.first(ctx.threads, ctx.seed, ctx.budget) {
        Verdict::Feasible(s) | Verdict::Optimal(s) => BoxResult::Packed(answer(bag.set, &problem, &s, h)),
        Verdict::Infeasible => BoxResult::Impossible,
        Verdict::Unknown(_) => BoxResult::Unknown,
    }
}

/// Whether a box with no spare cell passes the checkerboard test: the colour imbalances of the
/// pieces (`|dark - light|` of each, whichever way it is placed) can be signed so that they add up
/// to the box's own imbalance.
pub fn colours_can_balance(bag: &Bag, (w, h): Dims) -> bool {
    let target = u64::from(w % 2 * (h % 2)); // an odd box has one more dark square
    let mut imbalances = Vec::new();
    for (k, &c) in bag.kinds().iter().zip(&bag.counts) {
        let dark = k.cells.iter().filter(|&&(x, y)| (x + y) % 2 == 0).count() as u64;
        let d = dark.abs_diff(k.size() as u64 - dark);
        imbalances.extend(std::iter::repeat_n(d, c as usize).filter(|&d| d > 0));
    }
    // Signs s with sum(s d) = target: a subset of the d summing to (sum d + target) / 2.
    let total: u64 = imbalances.iter().sum();
    if total < target || !(total + target).is_multiple_of(2) {
        return false;
    }
    let half = ((total + target) / 2) as usize;
    let mut reach = vec![false; half + 1];
    reach[0] = true;
    for d in imbalances {
        for s in (d as usize..=half).rev() {
            reach[s] |= reach[s - d as usize];
        }
    }
    reach[half]
}

/// The box as a tiling problem: board cells row by row from the top (row 0 is `y = h - 1`).
pub fn problem(bag: &Bag, (w, h): Dims) -> Problem {
    let (w, h) = (w as i32, h as i32);
    let board: Vec<(i32, i32)> = (0..h).flat_map(|r| (0..w).map(move |c| (c, r))).collect();
    let mut pieces: Vec<PieceSpec> = bag
        .kinds()
        .into_iter()
        .zip(&bag.counts)
        .filter(|(_, c)| **c > 0)
        .map(|(k, &count)| PieceSpec {
            label: k.name,
            cells: k.cells.iter().map(|&(x, y)| (x, -y)).collect(),
            count,
            mirror: false,
        })
        .collect();
    let spare = (w * h) as u64 - bag.cells();
    if spare > 0 {
        pieces.push(PieceSpec { label: HOLE, cells: vec![(0, 0)], count: spare as u32, mirror: false });
    }
    Problem { lattice: Lattice::Square, board, pieces }
}

/// A tiling of [`problem`] as an answer (holes dropped, `y` turned up).
pub fn answer(set: PieceSet, problem: &Problem, s: &Solution, h: u32) -> Answer {
    let labels: Vec<char> = problem.pieces.iter().map(|p| p.label).collect();
    let mut placed = Vec::new();
    for cells in s.piece_cells() {
        let Some(kind) = set.index(labels[s.types[cells[0]] as usize]) else { continue };
        let cells = cells
            .iter()
            .map(|&k| {
                let (c, r) = problem.board[k];
                (c, h as i32 - 1 - r)
            })
            .collect();
        placed.push(Placed { kind, cells });
    }
    Answer { placed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate;
    use tessera_core::runtime::Budget;

    fn ctx(b: &Budget) -> Ctx<'_> {
        Ctx { threads: 1, seed: 0, budget: b }
    }

    #[test]
    fn parity_rejects_odd_t_in_a_perfect_box() {
        let bag = Bag::from_letters(PieceSet::Tetrominoes, "TIOO").unwrap();
        assert!(!colours_can_balance(&bag, (4, 4)));
        assert_eq!(pack(&bag, (4, 4), &ctx(&Budget::unlimited())), BoxResult::Impossible);
        assert!(colours_can_balance(&Bag::from_letters(PieceSet::Tetrominoes, "TTOO").unwrap(), (4, 4)));
    }

    #[test]
    fn packs_with_and_without_spare_cells() {
        let b = Budget::unlimited();
        for (letters, dims) in [("IJLO", (4, 4)), ("LL", (3, 3)), ("IIIIIIIIJJ", (6, 7))] {
            let bag = Bag::from_letters(PieceSet::Tetrominoes, letters).unwrap();
            let BoxResult::Packed(a) = pack(&bag, dims, &ctx(&b)) else { panic!("{letters} in {dims:?}") };
            let checked = validate(&bag, &a).unwrap();
            assert!(checked.width <= dims.0 && checked.height <= dims.1, "{letters}: {checked:?}");
        }
        // Two O, or an L and its mirror image J, cannot share a 3x3 box, and the search proves it.
        for letters in ["OO", "LJ"] {
            let bag = Bag::from_letters(PieceSet::Tetrominoes, letters).unwrap();
            assert_eq!(pack(&bag, (3, 3), &ctx(&b)), BoxResult::Impossible, "{letters}");
        }
    }
}
