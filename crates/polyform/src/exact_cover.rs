//! A generic exact-cover solver with multiplicities (dancing links).
//!
//! Items carry bounds: an item with bounds `1..=1` must be covered exactly once, and the search
//! branches on those (fewest remaining options first). An item with other bounds `min..=max` is a
//! *counted* item: it is never branched on, only counted; it is closed when `max` chosen options
//! use it, and a solution needs at least `min`. Identical pieces are one counted item with
//! bounds `k..=k`, so their `k!` permutations are never enumerated: each solution is one set of
//! options, produced once.
//!
//! ```
//! use tessera_polyform::exact_cover::{Bounds, ExactCover};
//! use tessera_core::runtime::Never;
//! // Cover a 1x4 strip with two identical dominoes: one way, not 2! ways.
//! let mut ec = ExactCover::new();
//! let cells = ec.add_items(4, Bounds::ONCE);
//! let dominoes = ec.add_item(Bounds::exactly(2));
//! for c in 0..3 {
//!     ec.add_option(&[cells + c, cells + c + 1, dominoes]).unwrap();
//! }
//! assert_eq!(ec.count(&mut Never).0, 1);
//! ```

use std::ops::ControlFlow;

use tessera_core::runtime::{Outcome, POLL_INTERVAL, Stop, StopReason, Verdict};

/// How many chosen options may use an item.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// At least this many.
    pub min: u32,
    /// At most this many.
    pub max: u32,
}

impl Bounds {
    /// Exactly once: a branching item.
    pub const ONCE: Bounds = Bounds { min: 1, max: 1 };
    /// Exactly `k` times.
    pub const fn exactly(k: u32) -> Bounds {
        Bounds { min: k, max: k }
    }
    fn branches(self) -> bool {
        self == Bounds::ONCE
    }
}

/// A malformed exact-cover problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactCoverError {
    /// An option names an item that was not added.
    #[error("option names item {0}, but there are only {1} items")]
    NoSuchItem(usize, usize),
    /// An option names an item twice.
    #[error("option names item {0} twice")]
    Repeated(usize),
    /// An option has no exactly-once item, so the search could never choose it.
    #[error("option {0:?} has no exactly-once item")]
    NoBranchingItem(Vec<usize>),
    /// Bounds with `min > max` or `max == 0`.
    #[error("item bounds {0}..={1} are empty")]
    BadBounds(u32, u32),
}

/// An exact-cover problem: items with bounds and options (sets of items).
#[derive(Clone, Debug, Default)]
pub struct ExactCover {
    bounds: Vec<Bounds>,
    options: Vec<Vec<usize>>,
}

impl ExactCover {
    /// An empty problem.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds an item; returns its index.
    ///
    /// # Panics
    /// If the bounds are empty (`min > max` or `max == 0`); see [`ExactCover::try_add_item`].
    pub fn add_item(&mut self, bounds: Bounds) -> usize {
        self.try_add_item(bounds).unwrap_or_else(|e| panic!("{e}"))
    }
    /// Adds an item, checking its bounds; returns its index.
    pub fn try_add_item(&mut self, bounds: Bounds) -> Result<usize, ExactCoverError> {
        if bounds.min > bounds.max || bounds.max == 0 {
            return Err(ExactCoverError::BadBounds(bounds.min, bounds.max));
        }
        self.bounds.push(bounds);
        Ok(self.bounds.len() - 1)
    }
    /// Adds `n` items with the same bounds; returns the index of the first.
    pub fn add_items(&mut self, n: usize, bounds: Bounds) -> usize {
        let first = self.bounds.len();
        for _ in 0..n {
            self.add_item(bounds);
        }
        first
    }
    /// Adds an option; returns its index.
    pub fn add_option(&mut self, items: &[usize]) -> Result<usize, ExactCoverError> {
        let n = self.bounds.len();
        for (k, &i) in items.iter().enumerate() {
            if i >= n {
                return Err(ExactCoverError::NoSuchItem(i, n));
            }
            if items[..k].contains(&i) {
                return Err(ExactCoverError::Repeated(i));
            }
        }
        if !items.iter().any(|&i| self.bounds[i].branches()) {
            return Err(ExactCoverError::NoBranchingItem(items.to_vec()));
        }
        self.options.push(items.to_vec());
        Ok(self.options.len() - 1)
    }

    /// Visits every solution (as the sorted list of its option indices) until the visitor breaks
    /// or `stop` says so.
    pub fn solve<S, V>(&self, stop: &mut S, visit: V) -> Outcome
    where
        S: Stop,
        V: FnMut(&[usize]) -> ControlFlow<()>,
    {
        self.solve_below(&[], stop, visit)
    }

    /// Visits every solution that holds the options of `prefix` (chosen first, in their order),
    /// as [`ExactCover::solve`] does. A prefix that names no option, or whose options cannot be
    /// chosen together, has no solution below it.
    ///
    /// Together with [`ExactCover::prefixes`], this splits one search into independent parts
    /// (a [`Searcher`] searches below many prefixes for the cost of building one).
    pub fn solve_below<S, V>(&self, prefix: &[usize], stop: &mut S, visit: V) -> Outcome
    where
        S: Stop,
        V: FnMut(&[usize]) -> ControlFlow<()>,
    {
        self.searcher().solve_below(prefix, stop, visit)
    }

    /// A search ready to run below any number of prefixes, its links built once.
    pub fn searcher(&self) -> Searcher<'_> {
        Searcher { ec: self, links: Links::build(self), held: Vec::new() }
    }

    /// Splits the search into at least `min` prefixes when it can: lists of options such that
    /// every solution holds exactly one of them (see [`ExactCover::solve_below`]). They are the
    /// nodes of one level of the search tree (or leaves above it): level by level, each prefix
    /// is extended by every option that can join it and covers the exactly-once item that the
    /// search would branch on there (the open one with the fewest options, the first of them);
    /// prefixes that no option extends are dropped (no solution holds them). The split depends
    /// only on the problem and `min`.
    pub fn prefixes(&self, min: usize) -> Vec<Vec<usize>> {
        let (mut links, mut held) = (Links::build(self), Vec::new());
        let mut level: Vec<Vec<usize>> = vec![Vec::new()];
        while level.len() < min {
            let (mut next, mut grew) = (Vec::new(), false);
            for p in &level {
                links.hold(self, &mut held, p);
                match links.branch_item() {
                    None => next.push(p.clone()),
                    Some(i) => {
                        let mut x = links.down[i];
                        while x != i {
                            next.push([&p[..], &[links.option[x]]].concat());
                            grew = true;
                            x = links.down[x];
                        }
                    }
                }
            }
            level = next;
            if !grew {
                break;
            }
        }
        level
    }

    /// Whether the options can be chosen together: each exists, and no item is used more often
    /// than its bounds allow.
    fn can_choose(&self, options: &[usize]) -> bool {
        let mut used = vec![0u32; self.bounds.len()];
        for &o in options {
            let Some(items) = self.options.get(o) else { return false };
            items.iter().for_each(|&i| used[i] += 1);
        }
        used.iter().zip(&self.bounds).all(|(&u, b)| u <= b.max)
    }

    /// Counts the solutions.
    pub fn count<S: Stop>(&self, stop: &mut S) -> (u64, Outcome) {
        let mut n = 0;
        let outcome = self.solve(stop, |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        (n, outcome)
    }
    /// The first solution found.
    pub fn first<S: Stop>(&self, stop: &mut S) -> Verdict<Vec<usize>> {
        let mut found = None;
        let outcome = self.solve(stop, |s| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        match (found, outcome) {
            (Some(s), _) => Verdict::Feasible(s),
            (None, Outcome::Complete) => Verdict::Infeasible,
            (None, Outcome::Stopped(r)) => Verdict::Unknown(r),
        }
    }
}

/// An exact-cover search whose links are built once, to search below many prefixes (see
/// [`ExactCover::prefixes`]).
pub struct Searcher<'a> {
    ec: &'a ExactCover,
    links: Links,
    /// The options chosen on the links, outside any search: the last prefix searched.
    held: Vec<usize>,
}

impl std::fmt::Debug for Searcher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher").field("options", &self.ec.options.len()).finish()
    }
}

impl Searcher<'_> {
    /// [`ExactCover::solve_below`], on these links (left as they were found).
    pub fn solve_below<S, V>(&mut self, prefix: &[usize], stop: &mut S, mut visit: V) -> Outcome
    where
        S: Stop,
        V: FnMut(&[usize]) -> ControlFlow<()>,
    {
        if !self.ec.can_choose(prefix) {
            return Outcome::Complete;
        }
        self.links.hold(self.ec, &mut self.held, prefix);
        // Each node scans the open branching items, so on big problems poll every few nodes.
        let branching = self.ec.bounds.iter().filter(|b| b.branches()).count() as u64;
        let poll = (POLL_INTERVAL * 256 / branching.max(256)).max(1);
        let chosen = prefix.to_vec();
        let mut search = Search { links: &mut self.links, stop, visit: &mut visit, chosen, nodes: 0, poll };
        // The search undoes its own choices, even when it stops early: the prefix stays held
        // for the next one, which often shares all but its last option.
        match search.run() {
            ControlFlow::Continue(()) => Outcome::Complete,
            ControlFlow::Break(r) => Outcome::Stopped(r),
        }
    }
}

/// The dancing-links arrays. Nodes `1..=n` are item headers (0 is the root of the list of
/// branching items); each option's nodes follow a spacer node.
struct Links {
    left: Vec<usize>,
    right: Vec<usize>,
    up: Vec<usize>,
    down: Vec<usize>,
    /// Item of a node; for a spacer, `SPACER`.
    top: Vec<usize>,
    /// Option index of a node.
    option: Vec<usize>,
    /// Remaining options per item header.
    len: Vec<usize>,
    /// Uses left per counted item (`max - used`), and uses still needed (`min - used`, may go
    /// negative).
    room: Vec<i64>,
    need: Vec<i64>,
    bounds: Vec<Bounds>,
}

const SPACER: usize = usize::MAX;

impl Links {
    fn build(ec: &ExactCover) -> Links {
        let n = ec.bounds.len();
        let total = 1 + n + ec.options.iter().map(|o| o.len() + 1).sum::<usize>() + 1;
        let mut l = Links {
            left: vec![0; n + 1],
            right: vec![0; n + 1],
            up: (0..total).collect(),
            down: (0..total).collect(),
            top: vec![0; total],
            option: vec![usize::MAX; total],
            len: vec![0; n + 1],
            room: ec.bounds.iter().map(|b| i64::from(b.max)).collect(),
            need: ec.bounds.iter().map(|b| if b.branches() { 0 } else { i64::from(b.min) }).collect(),
            bounds: ec.bounds.clone(),
        };
        l.room.insert(0, 0);
        l.need.insert(0, 0);
        l.bounds.insert(0, Bounds::ONCE);
        // The root list holds only the branching items.
        let mut last = 0;
        for i in 1..=n {
            if l.bounds[i].branches() {
                l.right[last] = i;
                l.left[i] = last;
                last = i;
            }
        }
        l.right[last] = 0;
        l.left[0] = last;
        // Options, each preceded by a spacer whose `up` is the first node of the option before
        // it and whose `down` is the last node of the option after it (Knuth's layout), so that
        // an option's nodes can be walked cyclically without knowing where it starts.
        let mut x = n + 1;
        let mut prev_first = x;
        for (k, opt) in ec.options.iter().enumerate() {
            l.top[x] = SPACER;
            l.up[x] = prev_first;
            l.down[x] = x + opt.len();
            prev_first = x + 1;
            x += 1;
            for &item in opt {
                let i = item + 1;
                l.top[x] = i;
                l.option[x] = k;
                l.up[x] = l.up[i];
                l.down[x] = i;
                let u = l.up[i];
                l.down[u] = x;
                l.up[i] = x;
                l.len[i] += 1;
                x += 1;
            }
        }
        l.top[x] = SPACER;
        l.up[x] = prev_first;
        l
    }

    /// The node after `q` in its option, cyclically.
    #[inline]
    fn next(&self, q: usize) -> usize {
        if self.top[q + 1] == SPACER { self.up[q + 1] } else { q + 1 }
    }

    /// The node before `q` in its option, cyclically.
    #[inline]
    fn prev(&self, q: usize) -> usize {
        if self.top[q - 1] == SPACER { self.down[q - 1] } else { q - 1 }
    }

    /// Removes the other nodes of `p`'s option from their items' lists.
    fn hide(&mut self, p: usize) {
        let mut q = self.next(p);
        while q != p {
            let (u, d) = (self.up[q], self.down[q]);
            self.down[u] = d;
            self.up[d] = u;
            self.len[self.top[q]] -= 1;
            q = self.next(q);
        }
    }

    fn unhide(&mut self, p: usize) {
        let mut q = self.prev(p);
        while q != p {
            let (u, d) = (self.up[q], self.down[q]);
            self.down[u] = q;
            self.up[d] = q;
            self.len[self.top[q]] += 1;
            q = self.prev(q);
        }
    }

    fn cover(&mut self, i: usize) {
        let mut p = self.down[i];
        while p != i {
            self.hide(p);
            p = self.down[p];
        }
        if self.bounds[i].branches() {
            let (l, r) = (self.left[i], self.right[i]);
            self.right[l] = r;
            self.left[r] = l;
        }
    }

    fn uncover(&mut self, i: usize) {
        if self.bounds[i].branches() {
            let (l, r) = (self.left[i], self.right[i]);
            self.right[l] = i;
            self.left[r] = i;
        }
        let mut p = self.up[i];
        while p != i {
            self.unhide(p);
            p = self.up[p];
        }
    }

    /// Uses item `i` once more (the option using it is being chosen).
    fn take(&mut self, i: usize) {
        if self.bounds[i].branches() {
            self.cover(i);
        } else {
            self.room[i] -= 1;
            self.need[i] -= 1;
            if self.room[i] == 0 {
                self.cover(i);
            }
        }
    }

    fn untake(&mut self, i: usize) {
        if self.bounds[i].branches() {
            self.uncover(i);
        } else {
            if self.room[i] == 0 {
                self.uncover(i);
            }
            self.room[i] += 1;
            self.need[i] += 1;
        }
    }

    /// Moves from the options `held` (chosen, in order) to `target`, options that can go
    /// together ([`ExactCover::can_choose`]): undoes the choices past their common start, last
    /// first, then chooses the rest of `target` in order. Choosing an option takes each of its
    /// items, the first one covered hiding the option from the lists of the others (as a choice
    /// made by the search does). Neighbouring prefixes of a split share all but their last few
    /// options, so moving between them is cheap.
    fn hold(&mut self, ec: &ExactCover, held: &mut Vec<usize>, target: &[usize]) {
        let common = held.iter().zip(target).take_while(|(a, b)| a == b).count();
        for &o in held[common..].iter().rev() {
            ec.options[o].iter().rev().for_each(|&item| self.untake(item + 1));
        }
        for &o in &target[common..] {
            ec.options[o].iter().for_each(|&item| self.take(item + 1));
        }
        held.clear();
        held.extend_from_slice(target);
    }

    /// The item the search branches on: the open branching item with the fewest options left
    /// (the first such); `None` when every branching item is covered.
    fn branch_item(&self) -> Option<usize> {
        let (mut best, mut best_len) = (None, usize::MAX);
        let mut i = self.right[0];
        while i != 0 {
            if self.len[i] < best_len {
                (best, best_len) = (Some(i), self.len[i]);
            }
            i = self.right[i];
        }
        best
    }

    /// Whether every counted item got its minimum.
    fn counts_met(&self) -> bool {
        self.need.iter().all(|&n| n <= 0)
    }
}

struct Search<'a, S, V> {
    links: &'a mut Links,
    stop: &'a mut S,
    visit: &'a mut V,
    chosen: Vec<usize>,
    nodes: u64,
    /// Poll the stop condition every this many nodes.
    poll: u64,
}

impl<S: Stop, V: FnMut(&[usize]) -> ControlFlow<()>> Search<'_, S, V> {
    fn run(&mut self) -> ControlFlow<StopReason> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(self.poll) && self.stop.should_stop(self.poll) {
            return ControlFlow::Break(self.stop.reason().unwrap_or(StopReason::Cancelled));
        }
        let l = &*self.links;
        if l.right[0] == 0 {
            if l.counts_met() {
                let mut sol = self.chosen.clone();
                sol.sort_unstable();
                if (self.visit)(&sol).is_break() {
                    return ControlFlow::Break(StopReason::Visitor);
                }
            }
            return ControlFlow::Continue(());
        }
        // Choose the branching item with the fewest options left.
        let (mut best, mut best_len) = (0, usize::MAX);
        let mut i = l.right[0];
        while i != 0 {
            if l.len[i] < best_len {
                (best, best_len) = (i, l.len[i]);
            }
            i = l.right[i];
        }
        if best_len == 0 {
            return ControlFlow::Continue(());
        }
        self.links.cover(best);
        let mut x = self.links.down[best];
        let mut flow = ControlFlow::Continue(());
        while x != best {
            let mut q = self.links.next(x);
            while q != x {
                self.links.take(self.links.top[q]);
                q = self.links.next(q);
            }
            self.chosen.push(self.links.option[x]);
            flow = self.run();
            self.chosen.pop();
            let mut q = self.links.prev(x);
            while q != x {
                self.links.untake(self.links.top[q]);
                q = self.links.prev(q);
            }
            if flow.is_break() {
                break;
            }
            x = self.links.down[x];
        }
        self.links.uncover(best);
        flow
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::runtime::{Budget, Never};

    /// Knuth's example from "Dancing Links": exactly one solution, options {0, 3, 4}.
    #[test]
    fn knuth_example() {
        let mut ec = ExactCover::new();
        ec.add_items(7, Bounds::ONCE);
        for o in [&[2, 4][..], &[0, 3, 6], &[1, 2, 5], &[0, 3, 5], &[1, 6], &[3, 4, 6]] {
            ec.add_option(o).unwrap();
        }
        let mut all = Vec::new();
        let outcome = ec.solve(&mut Never, |s| {
            all.push(s.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(outcome, Outcome::Complete);
        assert_eq!(all, vec![vec![0, 3, 4]]);
    }

    /// Dominoes on a 2xN strip: Fibonacci many tilings; with one counted "domino" item the count
    /// stays the same (no permutations of identical dominoes).
    #[test]
    fn domino_strips_count_fibonacci() {
        for n in 1..=10usize {
            let mut ec = ExactCover::new();
            let cells = ec.add_items(2 * n, Bounds::ONCE);
            let dom = ec.add_item(Bounds::exactly(n as u32));
            let cell = |r: usize, c: usize| cells + r * n + c;
            for c in 0..n {
                ec.add_option(&[cell(0, c), cell(1, c), dom]).unwrap();
                if c + 1 < n {
                    for r in 0..2 {
                        ec.add_option(&[cell(r, c), cell(r, c + 1), dom]).unwrap();
                    }
                }
            }
            let fib = (0..n).fold((1u64, 1u64), |(a, b), _| (b, a + b)).0;
            assert_eq!(ec.count(&mut Never).0, fib, "2x{n}");
        }
    }

    #[test]
    fn counted_minimum_is_enforced() {
        // Cells 0, 1; option A covers both, options B0, B1 cover one each and use item "b",
        // which must be used at least twice: only {B0, B1} qualifies.
        let mut ec = ExactCover::new();
        ec.add_items(2, Bounds::ONCE);
        let b = ec.add_item(Bounds { min: 2, max: 2 });
        ec.add_option(&[0, 1]).unwrap();
        ec.add_option(&[0, b]).unwrap();
        ec.add_option(&[1, b]).unwrap();
        assert_eq!(ec.first(&mut Never), Verdict::Feasible(vec![1, 2]));
        assert_eq!(ec.count(&mut Never).0, 1);
    }

    #[test]
    fn rejects_malformed_problems() {
        let mut ec = ExactCover::new();
        ec.add_items(2, Bounds::ONCE);
        let c = ec.add_item(Bounds::exactly(3));
        assert_eq!(ec.add_option(&[5]), Err(ExactCoverError::NoSuchItem(5, 3)));
        assert_eq!(ec.add_option(&[0, 0]), Err(ExactCoverError::Repeated(0)));
        assert!(matches!(ec.add_option(&[c]), Err(ExactCoverError::NoBranchingItem(_))));
        assert_eq!(ec.try_add_item(Bounds { min: 2, max: 1 }), Err(ExactCoverError::BadBounds(2, 1)));
        assert_eq!(ec.first(&mut Never), Verdict::Infeasible);
    }

    /// The solutions below the prefixes are the solutions, each once, for any split; a
    /// prefix of options that cannot go together has none below it.
    #[test]
    fn prefixes_split_the_solutions() {
        // A 2x6 strip of cells, dominoes counted by a 6-use item.
        let n = 6;
        let mut ec = ExactCover::new();
        ec.add_items(2 * n, Bounds::ONCE);
        let dom = ec.add_item(Bounds::exactly(n as u32));
        for c in 0..n {
            ec.add_option(&[c, n + c, dom]).unwrap();
            if c + 1 < n {
                ec.add_option(&[c, c + 1, dom]).unwrap();
                ec.add_option(&[n + c, n + c + 1, dom]).unwrap();
            }
        }
        let mut whole = Vec::new();
        let _ = ec.solve(&mut Never, |s| {
            whole.push(s.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(whole.len(), 13);
        for min in [1, 2, 5, 40, 1000] {
            let prefixes = ec.prefixes(min);
            assert!(prefixes.len() >= min.min(13), "min {min}: {} prefixes", prefixes.len());
            // One searcher for every prefix, taken in reverse order, with a bad prefix between
            // each two: the links must come back as they were each time.
            let (mut below, mut searcher) = (Vec::new(), ec.searcher());
            for p in prefixes.iter().rev() {
                assert_eq!(searcher.solve_below(&[0, 1], &mut Never, |_| panic!("overlap")), Outcome::Complete);
                let outcome = searcher.solve_below(p, &mut Never, |s| {
                    assert!(p.iter().all(|o| s.contains(o)), "a solution below {p:?} without it: {s:?}");
                    below.push(s.to_vec());
                    ControlFlow::Continue(())
                });
                assert_eq!(outcome, Outcome::Complete);
            }
            below.sort();
            whole.sort();
            assert_eq!(below, whole, "min {min}");
        }
        // Options 0 and 1 share cell 0; option 99 does not exist.
        for bad in [&[0, 1][..], &[99]] {
            assert_eq!(ec.solve_below(bad, &mut Never, |_| panic!("a solution below {bad:?}")), Outcome::Complete);
        }
    }

    #[test]
    fn budget_stops_the_search() {
        // Many solutions: 2x20 domino strip (10946 tilings), a tiny node budget.
        let n = 20;
        let mut ec = ExactCover::new();
        ec.add_items(2 * n, Bounds::ONCE);
        for c in 0..n {
            ec.add_option(&[c, n + c]).unwrap();
            if c + 1 < n {
                ec.add_option(&[c, c + 1]).unwrap();
                ec.add_option(&[n + c, n + c + 1]).unwrap();
            }
        }
        let (count, outcome) = ec.count(&mut Budget::unlimited().with_nodes(2000));
        assert_eq!(outcome, Outcome::Stopped(StopReason::Nodes));
        assert!(count < 10946);
        assert_eq!(ec.count(&mut Never).0, 10946);
    }
}
