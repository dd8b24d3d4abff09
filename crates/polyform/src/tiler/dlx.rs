//! The generic engine: the puzzle as an exact-cover problem for the core's dancing-links solver.
//!
//! Items are the board cells (each covered once) and the piece types (a type with `k` copies is
//! one item used exactly `k` times, or a number of times in its range, so identical copies are
//! never permuted; the board's empty cells are a type of one-cell pieces). Options are all
//! placements, unpruned and without symmetry breaking: this engine shares no search code with the
//! fast one, which makes it the cross-check in tests, and it handles boards of any size.

use crate::exact_cover::{Bounds, ExactCover};
use tessera_core::runtime::{Budget, Outcome, Stop, StopReason, Verdict};

use crate::tiler::engine::{Engine, Visit};
use crate::tiler::plan::Plan;

/// The exact-cover formulation of a plan.
pub(crate) struct Dlx {
    problem: ExactCover,
}

impl Dlx {
    pub(crate) fn new(plan: &Plan) -> Dlx {
        let mut problem = ExactCover::new();
        let n = plan.len();
        problem.add_items(n, Bounds::ONCE);
        let type_items: Vec<usize> =
            plan.types.iter().map(|t| problem.add_item(Bounds { min: t.min, max: t.count })).collect();
        for p in &plan.placements {
            let mut items: Vec<usize> = plan.cells_of(p).iter().map(|&c| c as usize).collect();
            items.push(type_items[p.ty]);
            // Cells are distinct board cells and every option holds one, and option k must be
            // placement k: a failure here is a bug, not bad input.
            if let Err(e) = problem.add_option(&items) {
                unreachable!("placement {items:?} is not an exact-cover option: {e}");
            }
        }
        Dlx { problem }
    }
}

impl Engine for Dlx {
    fn prefixes(&self, min: usize) -> Vec<Vec<u32>> {
        // Options were added in placement order, so option k is placement k.
        let prefixes = self.problem.prefixes(min);
        prefixes.into_iter().map(|p| p.into_iter().map(|o| o as u32).collect()).collect()
    }

    fn run(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        _labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome {
        let (mut ids, mut prefix) = (Vec::new(), Vec::new());
        let mut searcher = self.problem.searcher();
        while let Some(k) = next() {
            if budget.expired() {
                return Outcome::Stopped(budget.reason().unwrap_or(StopReason::Cancelled));
            }
            prefix.clear();
            prefix.extend(prefixes[k].iter().map(|&o| o as usize));
            let outcome = searcher.solve_below(&prefix, budget, |options| {
                ids.clear();
                ids.extend(options.iter().map(|&o| o as u32));
                visit(&ids, &[])
            });
            if !outcome.is_complete() {
                return outcome;
            }
        }
        Outcome::Complete
    }

    fn first(&self, _seed: u64, _natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>> {
        self.problem.first(budget).map(|options| options.into_iter().map(|o| o as u32).collect())
    }
}
