//! Tuning the position evaluation: an evolution strategy per problem, then a small portfolio of
//! the resulting weights chosen so that every problem has a good set in it.
//!
//! A set of weights is worth the points its width-1 plans promise (move score plus expected
//! phrase points) on *training* games: seeds drawn at random, never the problem's own, so that
//! the official seeds stay a fair test. Per problem, a (1+1) evolution strategy perturbs every
//! weight with a Gaussian step that grows after a success and shrinks after a failure (the
//! one-fifth rule). Then every problem's best set is tried on every problem, and sets are picked
//! one at a time, each adding the most to the sum over problems of the best picked set's share
//! of the best known points.

use std::sync::Mutex;

use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::{Budget, split_work};

use super::features::{Portfolio, Weights};
use super::{Settings, Solver};
use crate::engine::EngineError;
use crate::problem::Problem;

/// How to tune.
#[derive(Clone, Debug)]
pub struct Options {
    /// Training games per problem.
    pub seeds: usize,
    /// Steps of the evolution strategy per problem.
    pub iterations: usize,
    /// Sets of weights to keep.
    pub keep: usize,
    /// Threads.
    pub threads: usize,
    /// Random seed (training seeds and steps).
    pub seed: u64,
    /// Sets of weights from an earlier portfolio, candidates beside the new ones.
    pub with: Vec<Weights>,
    /// Where those came from (for the portfolio's record of how it was made).
    pub with_name: Option<String>,
}

/// A problem's training games.
struct Case<'p> {
    solver: Solver<'p>,
    seeds: Vec<u32>,
}

impl Case<'_> {
    /// The points the width-1 plans of `w` promise, summed over the training games.
    fn worth(&self, w: &Weights) -> f64 {
        self.seeds
            .iter()
            .map(|&s| {
                let plan = self.solver.plan_with(s, w, 1, &mut Budget::unlimited());
                plan.move_score as f64 + plan.power
            })
            .sum()
    }
}

/// Training seeds for a problem: random, none of the problem's own.
fn training_seeds(p: &Problem, n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng64::seed(derive_seed(seed, p.id as u64));
    let mut out = Vec::new();
    while out.len() < n {
        let s = rng.below(1 << 15) as u32;
        if !p.has_seed(s) && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// One step of the strategy: `w` with every weight moved by a Gaussian of width `sigma` times
/// its own size (at least `floor`).
fn perturb(w: &Weights, sigma: f64, rng: &mut Rng64) -> Weights {
    let mut gauss = || {
        // Box-Muller.
        let (u, v) = (rng.unit().max(1e-12), rng.unit());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    };
    let mut out = w.clone();
    for x in &mut out.features {
        *x += sigma * x.abs().max(1.0) * gauss();
    }
    out.power = (out.power + sigma * out.power.abs().max(0.1) * gauss()).max(0.0);
    out
}

/// Tunes weights from `start` on `problems`; `progress` hears a line per finished problem.
pub fn tune(
    problems: &[Problem],
    start: &Weights,
    opts: &Options,
    progress: impl Fn(&str) + Sync,
) -> Result<Portfolio, EngineError> {
    let settings = Settings { portfolio: vec![start.clone()], ..Settings::default() };
    let cases: Vec<Case<'_>> = problems
        .iter()
        .map(|p| Ok(Case { solver: Solver::new(p, &settings)?, seeds: training_seeds(p, opts.seeds, opts.seed) }))
        .collect::<Result<_, EngineError>>()?;
    // Per problem: the evolution strategy.
    let found: Mutex<Vec<Option<Weights>>> = Mutex::new(vec![None; cases.len()]);
    split_work(
        cases.len(),
        opts.threads,
        &Budget::unlimited(),
        || (),
        |_, i, _| {
            let case = &cases[i];
            let mut rng = Rng64::seed(derive_seed(opts.seed ^ 0x7475_6e65, i as u64));
            let (mut x, mut fx, mut sigma) = (start.clone(), case.worth(start), 0.3);
            let first = fx;
            for _ in 0..opts.iterations {
                let y = perturb(&x, sigma, &mut rng);
                let fy = case.worth(&y);
                if fy >= fx {
                    (x, fx) = (y, fy);
                    sigma = (sigma * 1.5).min(2.0);
                } else {
                    sigma = (sigma * 0.9).max(0.01);
                }
            }
            progress(&format!(
                "problem {}: {:.0} -> {:.0} points over {} games",
                problems[i].id,
                first,
                fx,
                case.seeds.len()
            ));
            found.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(x);
            true
        },
    );
    let mut candidates = vec![start.clone()];
    candidates.extend(opts.with.iter().cloned());
    candidates.extend(found.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten());
    // Every candidate on every problem.
    let worth: Mutex<Vec<Vec<f64>>> = Mutex::new(vec![vec![0.0; candidates.len()]; cases.len()]);
    split_work(
        cases.len() * candidates.len(),
        opts.threads,
        &Budget::unlimited(),
        || (),
        |_, job, _| {
            let (i, c) = (job / candidates.len(), job % candidates.len());
            let v = cases[i].worth(&candidates[c]);
            worth.lock().unwrap_or_else(|e| e.into_inner())[i][c] = v;
            true
        },
    );
    let worth = worth.into_inner().unwrap_or_else(|e| e.into_inner());
    let share: Vec<Vec<f64>> = worth
        .iter()
        .map(|row| {
            let top = row.iter().copied().fold(f64::MIN, f64::max).max(1.0);
            row.iter().map(|v| v / top).collect()
        })
        .collect();
    let picked = pick(&share, opts.keep);
    let with = opts.with_name.as_ref().map_or(String::new(), |w| format!(" --with {w}"));
    let made_by = format!(
        "tessera hextris tune --seeds {} --iterations {} --keep {} --seed {}{with} ({} problems)",
        opts.seeds,
        opts.iterations,
        opts.keep,
        opts.seed,
        problems.len()
    );
    Ok(Portfolio { made_by, weights: picked.into_iter().map(|c| candidates[c].clone()).collect() })
}

/// Greedily picks `keep` columns of `share` (problems by candidates) maximising the sum over
/// problems of the best picked column.
fn pick(share: &[Vec<f64>], keep: usize) -> Vec<usize> {
    let n = share.first().map_or(0, Vec::len);
    let mut picked: Vec<usize> = Vec::new();
    let covered =
        |picked: &[usize]| -> f64 { share.iter().map(|row| picked.iter().map(|&c| row[c]).fold(0.0, f64::max)).sum() };
    while picked.len() < keep.min(n) {
        let best = (0..n).filter(|c| !picked.contains(c)).max_by(|&a, &b| {
            let with = |c: usize| covered(&[picked.as_slice(), &[c]].concat());
            with(a).total_cmp(&with(b))
        });
        match best {
            Some(c) => picked.push(c),
            None => break,
        }
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picking_covers_the_problems() {
        // Three problems, four candidates: candidate 1 is the best alone (2.2 of 3), then
        // candidate 3 completes it (best on the first two problems).
        let share = vec![vec![0.5, 0.6, 0.7, 1.0], vec![0.5, 0.6, 0.7, 1.0], vec![0.5, 1.0, 0.2, 0.1]];
        assert_eq!(pick(&share, 2), [1, 3]);
        assert_eq!(pick(&share, 9).len(), 4);
    }

    #[test]
    fn training_seeds_are_not_the_problems_own() {
        let p = crate::builtin::problem(6).unwrap();
        let seeds = training_seeds(&p, 20, 1);
        assert_eq!(seeds.len(), 20);
        assert!(seeds.iter().all(|s| !p.has_seed(*s)));
    }
}
