//! Planted solutions: tile a random rectangle with random tetrominoes, hand the pieces over as a
//! bag, and require a packing at least as good as the planted one, checked by the validator.

use proptest::prelude::*;
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_core::runtime::Verdict;
use tessera_totems::answer::score;
use tessera_totems::shapes::Kind;
use tessera_totems::solve::hybrid::solve;
use tessera_totems::solve::{Ctx, Solver, exact};
use tessera_totems::validate::validate;
use tessera_totems::{Bag, PieceSet};

/// A random tiling of the `w x h` rectangle: the kind of every piece, or `None` if the search
/// finds none (fill the lowest free cell with a piece chosen in random order).
fn plant(w: i32, h: i32, rng: &mut Rng64) -> Option<Vec<usize>> {
    let kinds = PieceSet::Tetrominoes.kinds();
    let mut moves: Vec<(usize, Vec<(i32, i32)>)> = kinds
        .iter()
        .enumerate()
        .flat_map(|(i, k): (usize, &Kind)| k.rotations().into_iter().map(move |r| (i, r)))
        .collect();
    // Shuffle once: the search then tries pieces in this random order.
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut grid = vec![false; (w * h) as usize];
    let mut used = Vec::new();
    fill(w, h, &moves, &mut grid, &mut used).then_some(used)
}

fn fill(w: i32, h: i32, moves: &[(usize, Vec<(i32, i32)>)], grid: &mut [bool], used: &mut Vec<usize>) -> bool {
    let Some(first) = grid.iter().position(|&c| !c) else { return true };
    let (fx, fy) = (first as i32 % w, first as i32 / w);
    for (kind, cells) in moves {
        // Anchor the piece's lowest cell (in row-major order) on the first free cell.
        let &(ax, ay) = cells.iter().min_by_key(|&&(x, y)| (y, x)).unwrap();
        let placed: Vec<(i32, i32)> = cells.iter().map(|&(x, y)| (x - ax + fx, y - ay + fy)).collect();
        let fits =
            placed.iter().all(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y) && !grid[(y * w + x) as usize]);
        if !fits {
            continue;
        }
        placed.iter().for_each(|&(x, y)| grid[(y * w + x) as usize] = true);
        used.push(*kind);
        if fill(w, h, moves, grid, used) {
            return true;
        }
        used.pop();
        placed.iter().for_each(|&(x, y)| grid[(y * w + x) as usize] = false);
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_planted_rectangle_is_matched(w in 1i32..=8, m in 0i32..8, seed in 0u64..1000) {
        // A height that makes the area a multiple of 4, from 1 to 8.
        let step = [1, 4, 2, 4][(w % 4) as usize];
        let h = step * (1 + m % (8 / step));
        let Some(kinds) = plant(w, h, &mut Rng64::seed(seed)) else { return Ok(()) };
        let mut bag = Bag::empty(PieceSet::Tetrominoes);
        kinds.iter().for_each(|&k| bag.counts[k] += 1);
        let budget = Budget::unlimited().with_time(std::time::Duration::from_secs(10));
        let ctx = Ctx { threads: 1, seed, budget: &budget };
        // The exact solver finds the planted box itself...
        let Verdict::Feasible(a) = exact::pack(&bag, (w as u32, h as u32), &ctx) else {
            panic!("{bag} not packed into its planted {w}x{h}");
        };
        let c = validate(&bag, &a).unwrap();
        prop_assert!(c.width <= w as u32 && c.height <= h as u32);
        // ...and the game's solver scores at least as well as the planted packing.
        let s = solve(&bag, Solver::Hybrid, &ctx);
        let c = validate(&bag, &s.answer).unwrap();
        prop_assert!(c.score >= score(bag.cells(), w as u32, h as u32), "{bag}: {} in {}x{}", c.score, c.width, c.height);
    }
}
