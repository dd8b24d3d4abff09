//! The hybrid: boxes from the best score down, a solver chosen per box, all within the budget.
//!
//! Per box (see [`pack_box`]):
//! * no spare cell (a perfect packing): the colouring tests first; then up to 16 pieces the
//!   exact solver, which decides; beyond, the strips solver, then (boxes up to 32 x 32) the exact
//!   solver with what is left of the box's time (it may still find a packing, or prove there is
//!   none);
//! * spare cells: up to 64 cells of box the exact solver, which decides; beyond, the greedy and
//!   strips (the spare cells at the box's far end) racing each other on two or more threads (on
//!   one, the greedy first), then (up to 32 x 32) exact.
//!
//! It starts from the [`wells`] packing, near-square and found in a few milliseconds, and tries
//! only the boxes that score better. The best box gets most of the time; if it is proven
//! impossible or times out, the next boxes, which have room to spare, usually take milliseconds;
//! each gets most of what is left, the last that can beat the answer in hand all of it.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tessera_core::runtime::{Verdict, portfolio};

use super::{BoxVerdict, Ctx, Solver, colours, exact, greedy, pack, strips, undecided, wells};
use crate::answer::{Answer, Dims, candidate_boxes};
use crate::bag::Bag;

/// What happened to one box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// The box.
    pub dims: Dims,
    /// Its score, if packed.
    pub score: f64,
    /// What the solver said about it.
    pub result: TrialResult,
    /// Seconds spent on it.
    pub seconds: f64,
}

/// What a solver said about one box: its [`BoxVerdict`] without the packing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrialResult {
    /// Packed.
    Packed,
    /// Proven impossible.
    Impossible,
    /// Neither, within the time given.
    Unknown,
}

/// The hybrid's answer and how it got there.
#[derive(Clone, Debug)]
#[must_use]
pub struct Solved {
    /// The answer (every piece placed).
    pub answer: Answer,
    /// Its score.
    pub score: f64,
    /// The best-scoring box of all ([`candidate_boxes`]' first).
    pub best_box: Dims,
    /// That box's score: what an optimal answer scores.
    pub best_score: f64,
    /// Whether the best score was proven out of reach: every box giving it proven impossible.
    pub best_box_impossible: bool,
    /// The boxes tried, in order.
    pub trials: Vec<Trial>,
}

impl Solved {
    /// Whether the answer reaches the best box's score.
    pub fn optimal(&self) -> bool {
        self.score >= self.best_score
    }
}

/// Solves a bag: boxes from the best down with the given solver (the hybrid picks per box),
/// within `ctx.budget`.
pub fn solve(bag: &Bag, solver: Solver, ctx: &Ctx<'_>) -> Solved {
    let boxes = candidate_boxes(bag);
    let (best_box, best_score) = boxes.first().copied().unwrap_or(((0, 0), 0.0));
    let mut answer = fallback(bag);
    let mut best = answer.score(bag.set);
    let mut trials = Vec::new();
    for (k, &(dims, box_score)) in boxes.iter().enumerate() {
        if box_score <= best || ctx.budget.is_spent() {
            break;
        }
        // The best box may take most of the time; the others share what is left, the last box
        // that can beat the answer in hand all of it.
        let last = boxes.get(k + 1).is_none_or(|next| next.1 <= best);
        let share = if last {
            1.0
        } else if k == 0 {
            0.85
        } else {
            0.7
        };
        let slice = ctx.budget.time_left().map_or(Duration::from_secs(3600), |t| t.mul_f64(share));
        let start = Instant::now();
        let result = pack(solver, bag, dims, &Ctx { budget: &ctx.budget.within(slice), ..ctx.clone() });
        let seconds = start.elapsed().as_secs_f64();
        let (result, s) = match result {
            Verdict::Feasible(a) | Verdict::Optimal(a) => {
                let s = a.score(bag.set);
                if s > best {
                    (answer, best) = (a, s);
                }
                (TrialResult::Packed, s)
            }
            Verdict::Infeasible => (TrialResult::Impossible, 0.0),
            Verdict::Unknown(_) => (TrialResult::Unknown, 0.0),
        };
        trials.push(Trial { dims, score: s, result, seconds });
        // A packing whose bounding box came out smaller than the box may score less than the
        // box would: then the next boxes may still do better.
        if result == TrialResult::Packed && s >= box_score {
            break;
        }
    }
    // Several boxes may give the best score (2 x 4 and 3 x 4 for two pieces with an I).
    let top = boxes.iter().take_while(|b| b.1 >= best_score).count();
    let best_box_impossible = trials.len() >= top && trials[..top].iter().all(|t| t.result == TrialResult::Impossible);
    Solved { answer, score: best, best_box, best_score, best_box_impossible, trials }
}

/// The hybrid's choice of solvers for one box (see the module documentation).
pub fn pack_box(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxVerdict {
    let area = u64::from(dims.0) * u64::from(dims.1);
    let spare = area.saturating_sub(bag.cells());
    if area < bag.cells() || (spare == 0 && !colours::colours_can_balance(bag, &exact::rectangle(dims))) {
        return Verdict::Infeasible;
    }
    let small = if spare == 0 { bag.len() <= 16 } else { area <= 64 };
    if small {
        return exact::pack(bag, dims, ctx);
    }
    let time = |share: f64| ctx.budget.time_left().map_or(Duration::from_secs(3600), |t| t.mul_f64(share));
    let with = |solver: fn(&Bag, Dims, &Ctx<'_>) -> BoxVerdict, share: f64| {
        solver(bag, dims, &Ctx { budget: &ctx.budget.within(time(share)), ..ctx.clone() })
    };
    // The heuristics leave time for the exact search only where it follows them.
    let share = if area <= EXACT_MAX_AREA { 0.6 } else { 1.0 };
    let packed = if spare == 0 {
        with(strips::pack, share)
    } else if ctx.threads >= 2 {
        // Greedy and strips race, half the threads each: the greedy wins when there is room to
        // spare, strips when the box is tight.
        with(race, share)
    } else {
        match with(greedy::pack, 0.3) {
            r @ Verdict::Feasible(_) => r,
            _ => with(strips::pack, share),
        }
    };
    if let r @ Verdict::Feasible(_) = packed {
        return r;
    }
    // The exact search on the whole box, last: it can still find a packing or prove there is
    // none, but on big boxes building its tables alone would overrun the budget.
    if area <= EXACT_MAX_AREA { exact::pack(bag, dims, ctx) } else { undecided(ctx.budget) }
}

/// Greedy and strips on the same box at once, each with half the threads; the first packing wins.
/// Boxes too big for the greedy get strips alone, on every thread.
fn race(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxVerdict {
    if !greedy::takes(dims) {
        return strips::pack(bag, dims, ctx);
    }
    let half = [ctx.threads.div_ceil(2), ctx.threads / 2];
    let found = portfolio(2, ctx.budget, |k, b| {
        let ctx = Ctx { threads: half[k], budget: b, ..ctx.clone() };
        let solver = if k == 0 { greedy::pack } else { strips::pack };
        match solver(bag, dims, &ctx) {
            Verdict::Feasible(a) => Some(a),
            _ => None,
        }
    });
    found.map_or_else(|| undecided(ctx.budget), Verdict::Feasible)
}

/// Largest box the hybrid hands to the exact search as a whole (32 x 32).
const EXACT_MAX_AREA: u64 = 1024;

/// The answer the hybrid starts from: the bag in wells (see [`wells`]), near-square, always
/// valid, in a few milliseconds.
pub fn fallback(bag: &Bag) -> Answer {
    wells::pack(bag)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceSet;
    use crate::validate::validate;
    use tessera_core::rng::Rng64;
    use tessera_core::runtime::Budget;

    #[test]
    fn the_fallback_is_valid() {
        let bag = Bag::random(PieceSet::Tetrominoes, 37, &mut Rng64::seed(2));
        let a = fallback(&bag);
        assert!(validate(&bag, &a).is_ok());
    }

    #[test]
    fn the_biggest_bags_get_a_near_square_answer_on_a_short_budget() {
        // 4096 pieces (the most a bag holds) and a tenth of a second: at worst the wells' packing,
        // a side within a few percent of the best box's 128.
        let bag = Bag::random(PieceSet::Tetrominoes, crate::bag::MAX_PIECES, &mut Rng64::seed(8));
        let budget = Budget::unlimited().with_time(Duration::from_millis(100));
        let s = solve(&bag, Solver::Hybrid, &Ctx { threads: 2, seed: 1, budget: &budget });
        let checked = validate(&bag, &s.answer).unwrap();
        assert_eq!(checked.score, s.score);
        assert!(checked.width.max(checked.height) <= 134, "{}x{}", checked.width, checked.height);
        assert!(checked.width.abs_diff(checked.height) <= 4, "{}x{}", checked.width, checked.height);
    }

    #[test]
    fn solves_every_level_in_its_best_box_or_proves_it_impossible() {
        let mut rng = Rng64::seed(4);
        for level in 1..=8u32 {
            let n = 1u64 << (level - 1);
            let bag = if level == 1 {
                Bag::from_letters(PieceSet::Tetrominoes, "I").unwrap()
            } else {
                Bag::random(PieceSet::Tetrominoes, n, &mut rng)
            };
            let budget = Budget::unlimited().with_time(Duration::from_secs(10));
            let s = solve(&bag, Solver::Hybrid, &Ctx { threads: 2, seed: 1, budget: &budget });
            let checked = validate(&bag, &s.answer).unwrap();
            assert_eq!(checked.score, s.score);
            // Level 2 (3x3) and level 3 (4x4) are often impossible; the rest must be optimal.
            assert!(s.optimal() || s.best_box_impossible, "level {level}: {bag} -> {:?}", s.trials);
            if level != 2 && level != 3 && level != 5 {
                assert!(s.optimal(), "level {level}: {bag} -> {:?}", s.trials);
            }
        }
    }
}
