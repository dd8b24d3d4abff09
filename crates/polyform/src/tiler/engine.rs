//! What both tiling engines offer the solver: a search split into prefixes for parallel workers,
//! run to the end or to a first solution.

use std::ops::ControlFlow;

use tessera_core::runtime::{Budget, Outcome, Verdict};

/// What an engine calls with each solution: its plan placement indices, and the label of every
/// board cell when the run was asked for labels and the engine draws them (empty otherwise).
pub(crate) type Visit<'v> = dyn FnMut(&[u32], &[char]) -> ControlFlow<()> + 'v;

/// The solutions a count met one by one, at its leaves (plan placement indices): all of them
/// while the count reused no subtree's count and they are few, so that whoever asked for the
/// count can classify them without another search.
#[derive(Debug, Default)]
pub(crate) struct Leaves {
    /// The solutions met, the first always, the others while `all`.
    pub(crate) tilings: Vec<Vec<u32>>,
    /// Whether `tilings` holds every solution counted.
    pub(crate) all: bool,
}

impl Leaves {
    /// Most solutions kept (the first is kept anyway).
    const MOST: usize = 1 << 14;

    /// An empty list that holds every solution so far.
    pub(crate) fn new() -> Self {
        Leaves { tilings: Vec::new(), all: true }
    }

    /// A solution met at a leaf.
    pub(crate) fn push(&mut self, path: impl FnOnce() -> Vec<u32>) {
        if self.tilings.is_empty() || self.all && self.tilings.len() < Self::MOST {
            self.tilings.push(path());
        } else {
            self.all = false;
        }
    }

    /// A subtree's count reused: its solutions were not met.
    pub(crate) fn skipped(&mut self) {
        self.all = false;
    }

    /// Adds another worker's leaves.
    pub(crate) fn merge(&mut self, other: Leaves) {
        self.all &= other.all;
        if self.all {
            self.tilings.extend(other.tilings);
        } else if self.tilings.is_empty() {
            self.tilings.extend(other.tilings.into_iter().take(1));
        }
    }
}

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
    /// prefix's count as it ends; also gives the solutions it met one by one (see [`Leaves`]).
    /// `None` unless [`Engine::counts_subtrees`] (then counts visit every solution through
    /// [`Engine::run`]).
    fn count(
        &self,
        _prefixes: &[Vec<u32>],
        _next: &dyn Fn() -> Option<usize>,
        _budget: &mut Budget,
        _done: &dyn Fn(u64),
    ) -> Option<(u128, Leaves, Outcome)> {
        None
    }
    /// Takes, for enumerations, the search order predicted faster when the engine has more
    /// than one; whether that is the most-constrained-first order.
    fn choose_order(&mut self) -> bool {
        false
    }
    /// Finds one solution (plan placement indices). Engines may randomise their order from
    /// `seed`, after trying their natural order first if `natural_first`; the verdict is
    /// `Infeasible` only when a search ran to its end.
    fn first(&self, seed: u64, natural_first: bool, budget: &mut Budget) -> Verdict<Vec<u32>>;
}
