//! What both tiling engines offer the solver: a search split into prefixes for parallel workers,
//! run to the end or to a first solution.

use std::ops::ControlFlow;

use tessera_core::runtime::{Budget, Outcome, Verdict};

/// What an engine calls with each solution: its plan placement indices, and the label of every
/// board cell when the run was asked for labels and the engine draws them (empty otherwise).
pub(crate) type Visit<'v> = dyn FnMut(&[u32], &[char]) -> ControlFlow<()> + 'v;

/// A search engine over a compiled puzzle. Searches can be split into independent prefixes (lists
/// of the engine's own placement handles) for parallel workers.
pub(crate) trait Engine: Send + Sync {
    /// Splits the search into at least `min` independent prefixes when the tree allows it:
    /// every solution lies below exactly one of them. The split depends only on the compiled
    /// puzzle and `min` (never on threads or timing), so that a count split across machines
    /// adds up.
    fn prefixes(&self, min: usize) -> Vec<Vec<u32>>;
    /// Searches below the prefixes that `next` hands out (indices into `prefixes`) until it has
    /// no more, calling `visit` with each solution as plan placement indices (and, if the
    /// engine can, with its labels by board cell, given `labels`, the label of each type). One
    /// call is one worker's share: state worth keeping between prefixes is kept.
    fn run(
        &self,
        prefixes: &[Vec<u32>],
        next: &dyn Fn() -> Option<usize>,
        budget: &mut Budget,
        labels: Option<&[char]>,
        visit: &mut Visit<'_>,
    ) -> Outcome;
    /// Whether [`Engine::count`] remembers the counts of subtrees (a count then uses it
    /// instead of visiting every solution, and finds the classes by Burnside's lemma).
    fn counts_subtrees(&self) -> bool {
        false
    }
    /// Counts the solutions below the prefixes that `next` hands out, each weighted by the
    /// solutions it stands for (the fast engine breaks symmetry), calling `done` with each
    /// prefix's count as it ends; also gives the first solution met. `None` unless
    /// [`Engine::counts_subtrees`] (then counts visit every solution through [`Engine::run`]).
    fn count(
        &self,
        _prefixes: &[Vec<u32>],
        _next: &dyn Fn() -> Option<usize>,
        _budget: &mut Budget,
        _done: &dyn Fn(u64),
    ) -> Option<(u64, Option<Vec<u32>>, Outcome)> {
        None
    }
    /// Finds one solution (plan placement indices). Engines may randomise their order from
    /// `seed`, after trying their natural order first if `natural_first`; the verdict is
    /// `Infeasible` only when a search ran to its end.
    fn first(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>>;
}
