//! The Benchmarks Game "meteor-contest" program, on the general tiling engine.
//!
//! It finds every way to cover the 50-cell board with the ten pentahexes (2098), and prints the
//! count and the lexicographically smallest and largest solutions (as 50-digit strings) drawn as
//! boards. Given a smaller limit it stops after that many solutions.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

use tessera_core::runtime::{Budget, Outcome};

use crate::library::builtin;
use tessera_polyform::tiler::Tiler;

/// The meteor board's width (cells per row).
const WIDTH: usize = 5;

/// The name of the meteor puzzle among the built-in puzzles.
pub const PUZZLE: &str = "meteor";

/// What the program reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeteorResult {
    /// Solutions found (the limit, or all of them).
    pub found: u64,
    /// Smallest solution as 50 digits (empty if none was found).
    pub min: String,
    /// Largest solution as 50 digits.
    pub max: String,
    /// Whether the search finished or reached the limit (not cut short by a budget).
    pub outcome: Outcome,
}

/// The count and the smallest and largest solutions (labels in board-cell order; comparing
/// them as characters compares the strings).
#[derive(Default)]
struct Extremes {
    found: u64,
    min: Option<Vec<char>>,
    max: Option<Vec<char>>,
}

impl Extremes {
    fn add(&mut self, s: &[char]) {
        self.found += 1;
        if self.min.as_deref().is_none_or(|m| s < m) {
            self.min = Some(s.to_vec());
        }
        if self.max.as_deref().is_none_or(|m| s > m) {
            self.max = Some(s.to_vec());
        }
    }
    fn merge(self, o: Extremes) -> Extremes {
        let min = match (self.min, o.min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // `None` is smaller than any `Some`, so `max` needs no care.
        Extremes { found: self.found + o.found, min, max: self.max.max(o.max) }
    }
}

/// A tiler for the meteor puzzle.
pub fn tiler() -> Tiler {
    let puzzle = builtin(PUZZLE).unwrap_or_else(|| unreachable!("the meteor puzzle is built in"));
    Tiler::new(&puzzle.problem).unwrap_or_else(|e| unreachable!("meteor fits the fast engine: {e}"))
}

/// Finds up to `limit` solutions on `threads` workers. With a limit below the number of
/// solutions, which ones are found depends on the search order; the run is then repeated on one
/// thread so that the answer is the same every time.
pub fn solve(tiler: &Tiler, limit: u64, threads: usize, budget: &Budget) -> MeteorResult {
    let taken = AtomicU64::new(0);
    let (parts, outcome) = tiler.fold_labels(threads, budget, Extremes::default, |acc, labels| {
        if taken.fetch_add(1, Ordering::Relaxed) >= limit {
            return ControlFlow::Break(());
        }
        acc.add(labels);
        ControlFlow::Continue(())
    });
    let limited = taken.load(Ordering::Relaxed) > limit;
    if limited && threads > 1 {
        return solve(tiler, limit, 1, budget);
    }
    let all = parts.into_iter().fold(Extremes::default(), Extremes::merge);
    MeteorResult {
        found: all.found,
        min: all.min.unwrap_or_default().into_iter().collect(),
        max: all.max.unwrap_or_default().into_iter().collect(),
        outcome: if limited { Outcome::Complete } else { outcome },
    }
}

/// The program's output, byte for byte as the benchmark's.
pub fn render(r: &MeteorResult) -> String {
    let mut out = format!("{} solutions found\n\n", r.found);
    if r.found > 0 {
        out.push_str(&board(&r.min));
        out.push('\n');
        out.push_str(&board(&r.max));
        out.push('\n');
    }
    out
}

/// Draws a 50-digit solution: every digit followed by a space, odd rows indented by one space.
fn board(s: &str) -> String {
    let mut out = String::new();
    for (r, row) in s.as_bytes().chunks(WIDTH).enumerate() {
        if r % 2 == 1 {
            out.push(' ');
        }
        for &d in row {
            let _ = write!(out, "{} ", d as char);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_merge_keeps_counts_and_bounds() {
        let mut a = Extremes::default();
        a.add(&['5']);
        a.add(&['3']);
        let mut b = Extremes::default();
        b.add(&['9']);
        let m = a.merge(b);
        assert_eq!((m.found, m.min.as_deref(), m.max.as_deref()), (3, Some(&['3'][..]), Some(&['9'][..])));
    }

    #[test]
    fn board_drawing_matches_the_benchmark_layout() {
        let s = "00001222012661126155865558633348893448934747977799";
        let drawn = board(s);
        assert!(drawn.starts_with("0 0 0 0 1 \n 2 2 2 0 1 \n2 6 6 1 1 \n"));
        assert_eq!(drawn.lines().count(), 10);
    }
}
