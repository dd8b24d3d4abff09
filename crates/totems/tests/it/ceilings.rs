//! The exact ceilings of the specification: with uniformly random bags, 14 of the 49 level-2
//! draws fit 3x3, and 221 of the 2401 level-3 draws fit 4x4. The exact solver must decide every
//! bag, and find exactly those.

use tessera_core::runtime::Budget;
use tessera_core::runtime::Verdict;
use tessera_totems::solve::{Ctx, exact};
use tessera_totems::validate::validate;
use tessera_totems::{Bag, PieceSet};

/// Draws of `n` pieces (ordered, so each is equally likely) that fit the `side x side` box.
fn fitting_draws(n: u32, side: u32) -> u32 {
    let budget = Budget::unlimited();
    let ctx = Ctx { threads: 1, seed: 0, budget: &budget };
    let mut fits = 0;
    for draw in 0..7u32.pow(n) {
        let mut bag = Bag::empty(PieceSet::Tetrominoes);
        let mut d = draw;
        for _ in 0..n {
            bag.counts[(d % 7) as usize] += 1;
            d /= 7;
        }
        match exact::pack(&bag, (side, side), &ctx) {
            Verdict::Feasible(a) | Verdict::Optimal(a) => {
                let c = validate(&bag, &a).unwrap();
                assert!(c.width <= side && c.height <= side);
                fits += 1;
            }
            Verdict::Infeasible => {}
            Verdict::Unknown(_) => panic!("{bag} undecided"),
        }
    }
    fits
}

#[test]
fn level_2_ceiling_is_14_of_49() {
    assert_eq!(fitting_draws(2, 3), 14);
}

#[test]
fn level_3_ceiling_is_221_of_2401() {
    assert_eq!(fitting_draws(4, 4), 221);
}

/// Every multiset of `n` pieces of the seven kinds, with its probability as a uniform draw.
fn multisets(n: u32) -> Vec<(Bag, f64)> {
    fn rec(kind: usize, left: u32, counts: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if kind == 6 {
            counts.push(left);
            out.push(counts.clone());
            counts.pop();
            return;
        }
        for c in 0..=left {
            counts.push(c);
            rec(kind + 1, left - c, counts, out);
            counts.pop();
        }
    }
    let mut all = Vec::new();
    rec(0, n, &mut Vec::new(), &mut all);
    let ln_fact = |k: u32| (1..=k).map(|i| f64::from(i).ln()).sum::<f64>();
    all.into_iter()
        .map(|counts| {
            let ln_p = ln_fact(n) - counts.iter().map(|&c| ln_fact(c)).sum::<f64>() - f64::from(n) * 7f64.ln();
            (Bag { set: PieceSet::Tetrominoes, counts }, ln_p.exp())
        })
        .collect()
}

/// The exact level-5 ceiling (16 pieces, 8x8): all 74613 multisets decided by the exact solver,
/// weighted by their probability. Slow (about a minute in release mode), so ignored; run with
/// `cargo test --release -p tessera-totems --test it -- --ignored level_5 --nocapture`.
#[test]
#[ignore]
fn level_5_ceiling() {
    let budget = Budget::unlimited();
    let ctx = Ctx { threads: 2, seed: 0, budget: &budget };
    let all = multisets(16);
    assert_eq!(all.len(), 74613);
    let (mut fit, mut bags, mut total) = (0.0, 0, 0.0);
    for (bag, p) in &all {
        total += p;
        match exact::pack(bag, (8, 8), &ctx) {
            Verdict::Feasible(a) | Verdict::Optimal(a) => {
                validate(bag, &a).unwrap();
                fit += p;
                bags += 1;
            }
            Verdict::Infeasible => {}
            Verdict::Unknown(_) => panic!("{bag} undecided"),
        }
    }
    assert!((total - 1.0).abs() < 1e-9);
    println!("level 5: {bags} of {} multisets fit 8x8; ceiling {:.4}%", all.len(), 100.0 * fit);
}
