//! The exact solver: the box as an exact tiling problem for the core's engine.
//!
//! The board is the box; the pieces are the bag's kinds, rotations only; every spare cell is a
//! single-cell "hole" piece, so packings with room to spare are exact tilings too. A finished
//! search proves that the bag does not fit. Before searching, colouring arguments reject many
//! boxes at once (see [`colours_can_balance`]): a box without spare cells takes only an even
//! number of T, and, if it has no T, an even number of L and J together.

use tessera_core::geometry::{Coord, Lattice};
use tessera_core::runtime::Verdict;
use tessera_polyform::tiler::{EngineKind, PieceSpec, Problem, Solution, Tiler};

use super::colours::colours_can_balance;
use super::{BoxVerdict, Ctx, undecided};
use crate::answer::{Answer, Dims, Placed};
use crate::bag::Bag;
use crate::shapes::PieceSet;

/// Label of the single-cell hole pieces.
const HOLE: char = '_';

/// Packs the bag into the box, or proves that it does not fit.
pub fn pack(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxVerdict {
    let area = u64::from(dims.0) * u64::from(dims.1);
    if area < bag.cells() {
        return Verdict::Infeasible;
    }
    pack_region(bag, &rectangle(dims), ctx)
}

/// Packs the bag into a region (cells in the game's axes; spare cells become holes), or proves
/// that it does not fit.
pub fn pack_region(bag: &Bag, region: &[(i32, i32)], ctx: &Ctx<'_>) -> BoxVerdict {
    let area = region.len() as u64;
    if area < bag.cells() || (area == bag.cells() && !colours_can_balance(bag, region)) {
        return Verdict::Infeasible;
    }
    let (problem, top) = problem(bag, region);
    // Building the tables of a big box takes a while: within the budget too.
    let Ok(tiler) = Tiler::within(&problem, EngineKind::Auto, ctx.budget) else { return undecided(ctx.budget) };
    match tiler.first(ctx.threads, ctx.seed, ctx.budget) {
        Verdict::Feasible(s) | Verdict::Optimal(s) => Verdict::Feasible(answer(bag.set, &problem, &s, top)),
        Verdict::Infeasible => Verdict::Infeasible,
        Verdict::Unknown(r) => Verdict::Unknown(r),
    }
}

/// The cells of a `w x h` box at the origin.
pub fn rectangle((w, h): Dims) -> Vec<(i32, i32)> {
    (0..h as i32).flat_map(|y| (0..w as i32).map(move |x| (x, y))).collect()
}

/// A region as a tiling problem, and the `y` of its top row: board cells in reading order from
/// the top (row `r` is `y = top - r`), spare cells as single-cell holes.
pub fn problem(bag: &Bag, region: &[(i32, i32)]) -> (Problem, i32) {
    let top = region.iter().map(|c| c.1).max().unwrap_or(0);
    let mut board: Vec<Coord> = region.iter().map(|&(x, y)| Coord::new(x, top - y)).collect();
    board.sort_unstable_by_key(|c| (c.y, c.x));
    let mut pieces: Vec<PieceSpec> = bag
        .kinds()
        .into_iter()
        .zip(&bag.counts)
        .filter(|(_, c)| **c > 0)
        .map(|(k, &count)| {
            PieceSpec::new(k.name, k.cells.iter().map(|&(x, y)| Coord::new(x, -y)).collect(), count, false)
        })
        .collect();
    let spare = (region.len() as u64).saturating_sub(bag.cells());
    if spare > 0 {
        pieces.push(PieceSpec::new(HOLE, vec![Coord::new(0, 0)], spare as u32, false));
    }
    (Problem::new(Lattice::Square, board, pieces), top)
}

/// A tiling of [`problem`] as an answer (holes dropped, `y` turned up).
pub fn answer(set: PieceSet, problem: &Problem, s: &Solution, top: i32) -> Answer {
    let labels: Vec<char> = problem.pieces.iter().map(|p| p.label).collect();
    let mut placed = Vec::new();
    for cells in s.piece_cells() {
        let Some(kind) = set.index(labels[s.types[cells[0]] as usize]) else { continue };
        let cells = cells
            .iter()
            .map(|&k| {
                let c = problem.board[k];
                (c.x, top - c.y)
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
    fn colours_refute_at_once() {
        let bag = Bag::from_letters(PieceSet::Tetrominoes, "TIOO").unwrap();
        assert_eq!(pack(&bag, (4, 4), &ctx(&Budget::unlimited())), Verdict::Infeasible);
    }

    #[test]
    fn packs_with_and_without_spare_cells() {
        let b = Budget::unlimited();
        for (letters, dims) in [("IJLO", (4, 4)), ("LL", (3, 3)), ("IIIIIIIIJJ", (6, 7))] {
            let bag = Bag::from_letters(PieceSet::Tetrominoes, letters).unwrap();
            let Verdict::Feasible(a) = pack(&bag, dims, &ctx(&b)) else { panic!("{letters} in {dims:?}") };
            let checked = validate(&bag, &a).unwrap();
            assert!(checked.width <= dims.0 && checked.height <= dims.1, "{letters}: {checked:?}");
        }
        // Two O, or an L and its mirror image J, cannot share a 3x3 box, and the search proves it.
        for letters in ["OO", "LJ"] {
            let bag = Bag::from_letters(PieceSet::Tetrominoes, letters).unwrap();
            assert_eq!(pack(&bag, (3, 3), &ctx(&b)), Verdict::Infeasible, "{letters}");
        }
    }
}
