//! The solvers. Each tries to pack a bag into one box ([`pack`]); the [`hybrid`] tries boxes
//! from the best score down and picks a solver per box.
//!
//! * [`exact`]: exact tiling (spare cells as single-cell holes) with the core's engine: finds a
//!   packing or proves there is none; instant rejection by [`colours`] arguments.
//! * [`strips`]: cuts the box into strips four cells high, splits the bag among them, and tiles
//!   each strip exactly: perfect packings of hundreds of pieces in milliseconds.
//! * [`greedy`]: the "touchpoints" greedy (each piece where it touches the most), random
//!   tie-breaks, restarted until it fits.
//! * [`rects`]: an inventory of small rectangles that a few pieces tile, a choice of rectangles
//!   whose pieces add up to the bag, and a Monte-Carlo tree search packing them into the box.
//! * [`wells`]: no box given: the pieces dropped into narrow columns, a near-square packing of
//!   any bag in a few milliseconds, where the hybrid starts.

pub mod colours;
pub mod exact;
pub mod greedy;
pub mod hybrid;
pub mod rects;
pub mod strips;
pub mod wells;

use tessera_core::runtime::{Budget, StopReason, Verdict};

use crate::answer::{Answer, Dims};
use crate::bag::Bag;

/// What a solver says about one box: a packing of the bag within it (`Feasible`), a proof that
/// the bag does not fit (`Infeasible`), or neither (`Unknown`, with why: the budget ran out, or
/// [`StopReason::GaveUp`] from a heuristic that found nothing or does not take such a box).
pub type BoxVerdict = Verdict<Answer>;

/// `Unknown`, with why: the budget's reason if it has run out, else [`StopReason::GaveUp`].
pub(crate) fn undecided(budget: &Budget) -> BoxVerdict {
    Verdict::Unknown(budget.stop_reason().unwrap_or(StopReason::GaveUp))
}

/// How a solver may run: threads, a seed, and a budget.
#[derive(Clone, Debug)]
pub struct Ctx<'a> {
    /// Worker threads.
    pub threads: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// When to give up.
    pub budget: &'a Budget,
}

/// The solvers, by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Solver {
    /// A solver per box, from the best box down (the module `hybrid`).
    #[default]
    Hybrid,
    /// Exact tiling: finds a packing or proves there is none (`exact`).
    Exact,
    /// Strips four cells high, each tiled exactly (`strips`).
    Strips,
    /// Each piece where it touches the most, restarted until the bag fits (`greedy`).
    Greedy,
    /// Small rectangles of a few pieces, packed by a tree search (`rects`).
    Rects,
}

impl std::fmt::Display for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Solver::Hybrid => "hybrid",
            Solver::Exact => "exact",
            Solver::Strips => "strips",
            Solver::Greedy => "greedy",
            Solver::Rects => "rects",
        })
    }
}

/// Packs a bag into one box with one solver (the hybrid picks one for the box).
pub fn pack(solver: Solver, bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxVerdict {
    match solver {
        Solver::Hybrid => hybrid::pack_box(bag, dims, ctx),
        Solver::Exact => exact::pack(bag, dims, ctx),
        Solver::Strips => strips::pack(bag, dims, ctx),
        Solver::Greedy => greedy::pack(bag, dims, ctx),
        Solver::Rects => rects::pack(bag, dims, ctx),
    }
}
