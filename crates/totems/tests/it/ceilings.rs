//! The exact ceilings of the specification: with uniformly random bags, 14 of the 49 level-2
//! draws fit 3x3, and 221 of the 2401 level-3 draws fit 4x4. The exact solver must decide every
//! bag, and find exactly those.

use tessera_core::runtime::Budget;
use tessera_totems::solve::{BoxResult, Ctx, exact};
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
            BoxResult::Packed(a) => {
                let c = validate(&bag, &a).unwrap();
                assert!(c.width <= side && c.height <= side);
                fits += 1;
            }
            BoxResult::Impossible => {}
            BoxResult::Unknown => panic!("{bag} undecided"),
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
