//! The demonstrations: the bags that `tessera tour` packs and the viewer shows, defined once.

use std::time::Instant;

use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_game::tour::Demo;

use crate::bag::Bag;
use crate::game::{LEVEL_TIME, level_bag};
use crate::solve::hybrid::{Solved, solve};
use crate::solve::{Ctx, Solver};
use crate::validate::validate;

/// The demonstration bags, with their names: a level-9 bag (the first of seeds 0, 1, ... with an
/// even number of T, so that its best box, 32x32, can be reached) and a level-10 bag (seed 0).
#[must_use]
pub fn demo_bags() -> [(&'static str, Bag); 2] {
    let level_9 = (0..)
        .map(|seed| level_bag(9, &mut Rng64::seed(seed)))
        .find(|b| b.count_of('T') % 2 == 0)
        .unwrap_or_else(|| level_bag(9, &mut Rng64::seed(0)));
    [("level 9", level_9), ("level 10", level_bag(10, &mut Rng64::seed(0)))]
}

/// Packs a demonstration bag as the game asks: the hybrid solver within the game's second, on
/// `threads` threads (solver seed 0).
pub fn solve_demo(bag: &Bag, threads: usize) -> Solved {
    let budget = Budget::unlimited().with_time(LEVEL_TIME);
    solve(bag, Solver::Hybrid, &Ctx { threads, seed: 0, budget: &budget })
}

/// The totems entries of `tessera tour`: each demonstration bag packed, and checked by the
/// validator; a bag is ok when its answer is valid and optimal.
#[must_use]
pub fn tour(threads: usize) -> Vec<Demo> {
    demo_bags()
        .into_iter()
        .map(|(name, bag)| {
            let start = Instant::now();
            let s = solve_demo(&bag, threads);
            let valid = validate(&bag, &s.answer).is_ok();
            let (w, h) = s.answer.bbox();
            Demo {
                game: "totems",
                instance: format!("{name} ({} pieces)", bag.len()),
                result: format!("{w}x{h}, score {}", s.score),
                seconds: start.elapsed().as_secs_f64(),
                ok: valid && s.optimal(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demonstration_bags_are_a_level_9_and_a_level_10_bag() {
        let [(nine, a), (ten, b)] = demo_bags();
        assert_eq!((nine, a.len(), ten, b.len()), ("level 9", 256, "level 10", 512));
        assert_eq!(a.count_of('T') % 2, 0, "an even number of T, or 32x32 cannot be reached");
    }
}
