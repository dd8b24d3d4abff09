//! Evaluation over the official seeds: one solver run per board seed, checked by the judge, and
//! a summary (clears with their interval, per-colour breakdown, worst seeds, time percentiles).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_core::stats::{Rate, Summary, percentile};

use crate::format::Game;
use crate::generator::{dims, generate};
use crate::judge::score;
use crate::solver::{Params, solve};

/// A class of boards, told apart by the sizes and colours the generator draws first (cheap: see
/// [`dims`]). Boards must have one of `colors` (any if empty); the size limits, when both are
/// given, are alternatives: a board is in if it is small (`H*W <= max_area`) *or* thin (its
/// smaller side `<= max_side`), as the hard class is defined.
///
/// ```
/// use tessera_pairs::eval::Class;
/// let hard = Class::hard();
/// assert!(hard.admits(20, 11, 6)); // small
/// assert!(hard.admits(14, 100, 6)); // thin
/// assert!(!hard.admits(40, 40, 6) && !hard.admits(20, 11, 5));
/// assert_eq!(hard.to_string(), "C = 6, H*W <= 900 or a side <= 14");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    /// Colours admitted (empty: any).
    pub colors: Vec<usize>,
    /// At most this many tiles.
    pub max_area: Option<usize>,
    /// The smaller side at most this.
    pub max_side: Option<usize>,
}

impl Class {
    /// The class the solver finds hardest to clear: six colours, and small or thin
    /// (`H*W <= 900` or a side `<= 14`).
    #[must_use]
    pub fn hard() -> Self {
        Class { colors: vec![6], max_area: Some(900), max_side: Some(14) }
    }

    /// Whether every board is in the class.
    #[must_use]
    pub fn is_all(&self) -> bool {
        self.colors.is_empty() && self.max_area.is_none() && self.max_side.is_none()
    }

    /// Whether a board of `h` rows, `w` columns and `colors` colours is in the class.
    #[must_use]
    pub fn admits(&self, h: usize, w: usize, colors: usize) -> bool {
        let small = self.max_area.map(|a| h * w <= a);
        let thin = self.max_side.map(|s| h.min(w) <= s);
        let size = match (small, thin) {
            (None, None) => true,
            (a, b) => a.unwrap_or(false) || b.unwrap_or(false),
        };
        size && (self.colors.is_empty() || self.colors.contains(&colors))
    }

    /// The seeds of `first..=last` whose boards are in the class, in order, at most `limit` of
    /// them.
    #[must_use]
    pub fn seeds(&self, first: i64, last: i64, limit: Option<u64>) -> Vec<i64> {
        let limit = limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        self.iter(first, last).take(limit).collect()
    }

    /// The seeds of `first..=last` whose boards are in the class, lazily (millions of seeds a
    /// second: only the sizes are drawn).
    pub fn iter(&self, first: i64, last: i64) -> impl Iterator<Item = i64> + '_ {
        (first..=last).filter(|&s| {
            self.is_all() || {
                let (h, w, c) = dims(s);
                self.admits(h, w, c)
            }
        })
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.colors.is_empty() {
            let cs: Vec<String> = self.colors.iter().map(ToString::to_string).collect();
            parts.push(format!("C = {}", cs.join(" or ")));
        }
        let size: Vec<String> =
            [self.max_area.map(|a| format!("H*W <= {a}")), self.max_side.map(|s| format!("a side <= {s}"))]
                .into_iter()
                .flatten()
                .collect();
        if !size.is_empty() {
            parts.push(size.join(" or "));
        }
        if parts.is_empty() {
            return f.write_str("every board");
        }
        f.write_str(&parts.join(", "))
    }
}

/// One board seed solved: what was left, how long it took, and the moves (so that the run can be
/// replayed later). A line of an evaluation's JSON lines, after the record's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedResult {
    /// The game.
    pub game: Game,
    /// The official tester's seed of the board.
    pub board_seed: i64,
    /// Rows.
    pub h: usize,
    /// Columns.
    pub w: usize,
    /// Colours.
    pub colors: usize,
    /// Tiles left, as the judge counts them (all tiles if the moves were invalid).
    pub left: usize,
    /// The judge's score: removed / total, or -1 for an invalid move.
    pub score: f64,
    /// Wall time of the search.
    pub seconds: f64,
    /// Search iterations.
    pub iterations: u64,
    /// The moves as `[r1, c1, r2, c2]`.
    pub moves: Vec<[u8; 4]>,
    /// Whether the solver proved that no moves clear the board.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub impossible: bool,
    /// The class of boards of the run, if not every board (so that merged shards can say it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The time budget of the search in ms (so that merged shards can say it; absent from
    /// records written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_ms: Option<u64>,
}

/// Solves the board of `board_seed` with `budget_ms` and the solver seed `seed`, and judges it.
#[must_use]
pub fn run_job(board_seed: i64, budget_ms: u64, seed: u64) -> SeedResult {
    let board = generate(board_seed);
    let mut budget = Budget::unlimited().with_time(Duration::from_millis(budget_ms));
    let sol = solve(&board, &Params::default(), &mut budget, &mut Rng64::seed(seed));
    let judged = score(&board, &sol.moves);
    SeedResult {
        game: Game::Pairs,
        board_seed,
        h: board.height(),
        w: board.width(),
        colors: board.colors(),
        left: if judged.invalid.is_some() { judged.total } else { judged.total - judged.removed },
        score: judged.score,
        seconds: sol.seconds,
        iterations: sol.iterations,
        moves: sol.moves.iter().map(|m| m.to_array()).collect(),
        impossible: sol.impossible,
        class: None,
        budget_ms: Some(budget_ms),
    }
}

/// Clears and scores of the seeds with one number of colours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ByColors {
    /// Colours.
    pub colors: usize,
    /// Seeds.
    pub seeds: u64,
    /// Seeds cleared.
    pub cleared: u64,
    /// Mean score.
    pub mean_score: f64,
}

/// A seed that was not cleared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Leftover {
    /// Board seed.
    pub board_seed: i64,
    /// Rows, columns, colours.
    pub size: (usize, usize, usize),
    /// Tiles left.
    pub left: usize,
    /// Whether the solver proved that no moves clear the board.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub impossible: bool,
}

/// What an evaluation found (`eval --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSummary {
    /// The game.
    pub game: Game,
    /// Time budget per seed in ms (if the records agree on one).
    pub budget_ms: Option<u64>,
    /// Seeds run.
    pub seeds: u64,
    /// The smallest and the largest board seed run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_range: Option<(i64, i64)>,
    /// Seeds cleared, with the 95% Wilson interval of the rate.
    pub cleared: Rate,
    /// Mean score (the contest's absolute score per seed).
    pub mean_score: f64,
    /// Seeds with an invalid answer (must be 0).
    pub invalid: u64,
    /// Per number of colours.
    pub by_colors: Vec<ByColors>,
    /// Every seed not cleared, most tiles left first.
    pub not_cleared: Vec<Leftover>,
    /// Seeds proven impossible to clear (all among `not_cleared`).
    #[serde(default)]
    pub impossible: u64,
    /// Search time per seed: median, 90th and 99th percentile, maximum.
    pub seconds_p50_p90_p99_max: [f64; 4],
    /// Total search time.
    pub total_seconds: f64,
    /// The class of boards the seeds were drawn from, if the records name one (not every board).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

/// Summarises per-seed results; the budget, if not given, is the records' when they all agree.
#[must_use]
pub fn summarise(results: &[SeedResult], budget_ms: Option<u64>) -> EvalSummary {
    let n = results.len() as u64;
    let cleared = results.iter().filter(|r| r.left == 0 && r.score == 1.0).count() as u64;
    let scores: Vec<f64> = results.iter().map(|r| r.score).collect();
    let mut by_colors = Vec::new();
    for colors in 2..=crate::board::MAX_COLORS {
        let of: Vec<&SeedResult> = results.iter().filter(|r| r.colors == colors).collect();
        if !of.is_empty() {
            by_colors.push(ByColors {
                colors,
                seeds: of.len() as u64,
                cleared: of.iter().filter(|r| r.left == 0).count() as u64,
                mean_score: of.iter().map(|r| r.score).sum::<f64>() / of.len() as f64,
            });
        }
    }
    let mut not_cleared: Vec<Leftover> = results
        .iter()
        .filter(|r| r.left > 0)
        .map(|r| Leftover {
            board_seed: r.board_seed,
            size: (r.h, r.w, r.colors),
            left: r.left,
            impossible: r.impossible,
        })
        .collect();
    not_cleared.sort_by_key(|l| (std::cmp::Reverse(l.left), l.board_seed));
    let mut secs: Vec<f64> = results.iter().map(|r| r.seconds).collect();
    secs.sort_by(f64::total_cmp);
    let pct = |p: f64| if secs.is_empty() { 0.0 } else { percentile(&secs, p) };
    // The records' budget, when they all agree (records of older runs have none).
    let agreed = results.first().and_then(|r| r.budget_ms).filter(|&b| results.iter().all(|r| r.budget_ms == Some(b)));
    let seeds = results.iter().map(|r| r.board_seed);
    EvalSummary {
        game: Game::Pairs,
        budget_ms: budget_ms.or(agreed),
        seeds: n,
        seed_range: seeds.clone().min().zip(seeds.max()),
        cleared: Rate::new(cleared, n),
        mean_score: if scores.is_empty() { 0.0 } else { Summary::of(&scores).mean },
        invalid: results.iter().filter(|r| r.score < 0.0).count() as u64,
        by_colors,
        impossible: results.iter().filter(|r| r.impossible && r.left > 0).count() as u64,
        not_cleared,
        seconds_p50_p90_p99_max: [pct(50.0), pct(90.0), pct(99.0), secs.last().copied().unwrap_or(0.0)],
        total_seconds: secs.iter().sum(),
        // The records' class, when they all agree (the CLI refuses a mix).
        class: results
            .first()
            .and_then(|r| r.class.clone())
            .filter(|c| results.iter().all(|r| r.class.as_ref() == Some(c))),
    }
}

impl fmt::Display for EvalSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let budget =
            self.budget_ms.map_or("budgets differ or were not recorded".to_string(), |ms| format!("{ms} ms per seed"));
        let range = self
            .seed_range
            .map_or(String::new(), |(a, b)| if a == b { format!(" ({a})") } else { format!(" ({a}..{b})") });
        let plural = if self.seeds == 1 { "" } else { "s" };
        writeln!(f, "pairs eval: {} seed{plural}{range}, {budget}", self.seeds)?;
        if let Some(class) = &self.class {
            writeln!(f, "class: {class}")?;
        }
        let c = &self.cleared;
        writeln!(
            f,
            "cleared: {} of {} = {:.2}% (95% interval {:.2}%..{:.2}%)",
            c.successes,
            c.n,
            100.0 * c.rate,
            100.0 * c.low,
            100.0 * c.high
        )?;
        writeln!(f, "mean score: {:.6}", self.mean_score)?;
        if self.invalid > 0 {
            writeln!(f, "INVALID answers: {}", self.invalid)?;
        }
        for b in &self.by_colors {
            writeln!(f, "  C={}: {} of {} cleared, mean score {:.6}", b.colors, b.cleared, b.seeds, b.mean_score)?;
        }
        let [p50, p90, p99, max] = self.seconds_p50_p90_p99_max;
        writeln!(
            f,
            "time per seed: median {p50:.3} s, p90 {p90:.3} s, p99 {p99:.3} s, max {max:.3} s; total {:.1} s",
            self.total_seconds
        )?;
        if !self.not_cleared.is_empty() {
            let shown: Vec<String> = self
                .not_cleared
                .iter()
                .take(20)
                .map(|l| {
                    let proof = if l.impossible { ", impossible" } else { "" };
                    format!("{} ({}x{} C={}: {} left{proof})", l.board_seed, l.size.0, l.size.1, l.size.2, l.left)
                })
                .collect();
            let more = self.not_cleared.len().saturating_sub(20);
            let more = if more > 0 { format!(", and {more} more") } else { String::new() };
            writeln!(f, "not cleared: {}{more}", shown.join(", "))?;
        }
        if self.impossible > 0 {
            let clearable = c.n - self.impossible;
            write!(f, "proven impossible to clear: {}", self.impossible)?;
            if clearable > 0 {
                let share = 100.0 * c.successes as f64 / clearable as f64;
                write!(f, "; cleared {} of the other {clearable} = {share:.2}%", c.successes)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_takes_the_budget_and_seeds_its_records_agree_on() {
        let one = run_job(1, 300, 1);
        let summary = summarise(std::slice::from_ref(&one), None);
        assert_eq!((summary.budget_ms, summary.seed_range), (Some(300), Some((1, 1))));
        assert!(summary.to_string().starts_with("pairs eval: 1 seed (1), 300 ms per seed\n"), "{summary}");
        // Records of different budgets, or of none (written before budgets were kept).
        let other = SeedResult { board_seed: 5, budget_ms: Some(400), ..one.clone() };
        let old = SeedResult { budget_ms: None, ..one.clone() };
        for records in [[one.clone(), other], [one, old]] {
            let summary = summarise(&records, None);
            assert_eq!(summary.budget_ms, None);
            assert!(summary.to_string().contains("budgets differ or were not recorded"), "{summary}");
        }
    }
}
