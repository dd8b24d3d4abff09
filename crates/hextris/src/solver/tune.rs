//! Tuning the position evaluation: the cross-entropy method per problem, then a small portfolio
//! of the resulting weights chosen so that every problem has a good set in it.
//!
//! A set of weights is worth the points its width-1 plans promise (move score plus expected
//! phrase points) on *training* games: seeds drawn at random, never the problem's own, so that
//! the official seeds stay a fair test. Per problem, the cross-entropy method searches the
//! logarithms of the weights' sizes (signs stay as in the start set): the good weights of
//! different features differ by factors of a million, and a step that is a factor moves them
//! all alike. A feature the start set does not use (weight 0) starts at the size of the set's
//! largest weight, with a wide spread. Then every problem's best set is tried on every problem,
//! and sets are picked one at a time, each adding the most to the sum over problems of the best
//! picked set's share of the best known points.
//!
//! Ctrl-C stops the tuning with nothing to keep ([`Tuning::Stopped`]): the sets are picked only
//! once every problem is tuned and every set valued on every problem.

use std::sync::Mutex;

use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::{Budget, interrupted, split_work};

use super::features::{FEATURES, Portfolio, Weights, gauss};
use super::setup::{Settings, Solver};
use crate::engine::EngineError;
use crate::problem::Problem;

/// How to tune.
#[derive(Clone, Debug)]
pub struct Options {
    /// Training games per problem.
    pub seeds: usize,
    /// Generations of the cross-entropy method per problem.
    pub iterations: usize,
    /// Sets of weights drawn per generation.
    pub population: usize,
    /// Sets of weights to keep.
    pub keep: usize,
    /// Threads.
    pub threads: usize,
    /// Random seed (training seeds and steps).
    pub seed: u64,
    /// Sets of weights from an earlier portfolio, candidates beside the new ones.
    pub with: Vec<Weights>,
    /// Keep every set of `with` and pick `keep` more beside them.
    pub keep_earlier: bool,
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

/// Weights as the cross-entropy method sees them: a fixed sign and a base-10 logarithm of the
/// size per weight (the features' weights, then `power`), so that a step is a factor and weights
/// of very different sizes move alike.
#[derive(Clone, Debug)]
struct LogWeights {
    sign: Vec<f64>,
    log: Vec<f64>,
}

/// The sign a feature's weight has when a set does not use it: "more is worse" but for the
/// rows near clearing (and `power`, which is last).
const NATURAL_SIGN: [f64; FEATURES + 1] = [-1.0, -1.0, -1.0, -1.0, -1.0, 1.0, -1.0, 1.0, 1.0];

impl LogWeights {
    /// `w` in log form; a weight of 0 starts at the size of the set's largest weight, with its
    /// feature's natural sign (`unused` reports which).
    fn of(w: &Weights) -> (LogWeights, Vec<bool>) {
        let all: Vec<f64> = w.features.iter().copied().chain([w.power]).collect();
        let largest = all.iter().map(|x| x.abs()).fold(1.0, f64::max).log10();
        let unused: Vec<bool> = all.iter().map(|&x| x == 0.0).collect();
        let sign = all.iter().zip(NATURAL_SIGN).map(|(&x, n)| if x == 0.0 { n } else { x.signum() }).collect();
        let log = all.iter().map(|&x| if x == 0.0 { largest } else { x.abs().log10() }).collect();
        (LogWeights { sign, log }, unused)
    }

    fn weights(&self) -> Weights {
        let v = |i: usize| self.sign[i] * 10f64.powf(self.log[i]);
        Weights { features: std::array::from_fn(v), power: v(FEATURES) }
    }
}

/// The cross-entropy method on one problem from `start`: each generation draws `population`
/// sets around the mean (a Gaussian per log-weight), values them on the training games in
/// parallel, and moves the mean and spread to those of the best quarter. Returns the best set
/// seen, with its worth and the start's.
fn cross_entropy(case: &Case<'_>, start: &Weights, opts: &Options, rng: &mut Rng64) -> (Weights, f64, f64) {
    let (mut mean, unused) = LogWeights::of(start);
    // A factor of 10 either way, 100 for weights the start does not use.
    let mut spread: Vec<f64> = unused.iter().map(|&u| if u { 2.0 } else { 1.0 }).collect();
    let first = case.worth(start);
    let (mut best, mut best_worth) = (start.clone(), first);
    let population = opts.population.max(2);
    let elite = (population / 4).max(2);
    for _ in 0..opts.iterations {
        if interrupted() {
            // The plans stop at once: what they promise no longer means anything.
            break;
        }
        let drawn: Vec<LogWeights> = (0..population)
            .map(|_| {
                let log = mean.log.iter().zip(&spread).map(|(m, s)| m + s * gauss(rng)).collect();
                LogWeights { sign: mean.sign.clone(), log }
            })
            .collect();
        let worth = in_parallel(population, opts.threads, |j| case.worth(&drawn[j].weights()));
        let mut order: Vec<usize> = (0..population).collect();
        order.sort_by(|&a, &b| worth[b].total_cmp(&worth[a]));
        if worth[order[0]] > best_worth {
            (best, best_worth) = (drawn[order[0]].weights(), worth[order[0]]);
        }
        let top = &order[..elite];
        for (i, (mean, spread)) in mean.log.iter_mut().zip(&mut spread).enumerate() {
            let m = top.iter().map(|&j| drawn[j].log[i]).sum::<f64>() / elite as f64;
            let var = top.iter().map(|&j| (drawn[j].log[i] - m).powi(2)).sum::<f64>() / elite as f64;
            // A floor on the spread keeps the search from settling on one lucky draw.
            (*mean, *spread) = (m, var.sqrt().max(MIN_SPREAD));
        }
    }
    (best, best_worth, first)
}

/// `f(0..jobs)` computed on `threads` threads, in order.
fn in_parallel(jobs: usize, threads: usize, f: impl Fn(usize) -> f64 + Sync) -> Vec<f64> {
    let out = Mutex::new(vec![0.0; jobs]);
    split_work(
        jobs,
        threads,
        &Budget::unlimited(),
        || (),
        |_, j, _| {
            let v = f(j);
            out.lock().unwrap_or_else(|e| e.into_inner())[j] = v;
            true
        },
    );
    out.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The smallest spread of a log-weight (a factor of 10^0.1, about 1.26).
const MIN_SPREAD: f64 = 0.1;

/// What [`tune`] came to.
#[derive(Clone, Debug)]
pub enum Tuning {
    /// The portfolio picked.
    Done(Portfolio),
    /// Ctrl-C stopped it after `done` of the `of` problems were tuned: no portfolio.
    Stopped {
        /// Problems tuned.
        done: usize,
        /// Problems to tune.
        of: usize,
    },
}

/// Tunes weights from `start` on `problems`; `progress` hears a line per finished problem.
pub fn tune(
    problems: &[Problem],
    start: &Weights,
    opts: &Options,
    progress: impl Fn(&str) + Sync,
) -> Result<Tuning, EngineError> {
    let settings = Settings { portfolio: vec![start.clone()], ..Settings::default() };
    let cases: Vec<Case<'_>> = problems
        .iter()
        .map(|p| Ok(Case { solver: Solver::new(p, &settings)?, seeds: training_seeds(p, opts.seeds, opts.seed) }))
        .collect::<Result<_, EngineError>>()?;
    // Per problem: the cross-entropy method, its population valued in parallel.
    let mut found = Vec::with_capacity(cases.len());
    for (i, case) in cases.iter().enumerate() {
        let mut rng = Rng64::seed(derive_seed(opts.seed ^ 0x7475_6e65, i as u64));
        let (x, fx, first) = cross_entropy(case, start, opts, &mut rng);
        if interrupted() {
            return Ok(Tuning::Stopped { done: i, of: cases.len() });
        }
        progress(&format!(
            "problem {}: {:.0} -> {:.0} points over {} games",
            problems[i].id,
            first,
            fx,
            case.seeds.len()
        ));
        found.push(x);
    }
    let mut candidates = vec![start.clone()];
    candidates.extend(opts.with.iter().cloned());
    candidates.extend(found);
    // Every candidate on every problem.
    let n = candidates.len();
    let flat = in_parallel(cases.len() * n, opts.threads, |job| cases[job / n].worth(&candidates[job % n]));
    if interrupted() {
        return Ok(Tuning::Stopped { done: cases.len(), of: cases.len() });
    }
    let worth: Vec<&[f64]> = flat.chunks(n).collect();
    let share: Vec<Vec<f64>> = worth
        .iter()
        .map(|row| {
            let top = row.iter().copied().fold(f64::MIN, f64::max).max(1.0);
            row.iter().map(|v| v / top).collect()
        })
        .collect();
    // The earlier sets are candidates 1..=with.len() (candidate 0 is the start).
    let kept: Vec<usize> = if opts.keep_earlier { (1..=opts.with.len()).collect() } else { Vec::new() };
    let picked = pick(&share, kept, opts.keep);
    let with = opts
        .with_name
        .as_ref()
        .map_or(String::new(), |w| format!(" --with {w}{}", if opts.keep_earlier { " --keep-earlier" } else { "" }));
    let made_by = format!(
        "tessera hextris tune --seeds {} --iterations {} --population {} --keep {} --seed {}{with} ({} problems)",
        opts.seeds,
        opts.iterations,
        opts.population,
        opts.keep,
        opts.seed,
        problems.len()
    );
    Ok(Tuning::Done(Portfolio { made_by, weights: picked.into_iter().map(|c| candidates[c].clone()).collect() }))
}

/// Greedily picks `keep` columns of `share` (problems by candidates) beside those of `kept`,
/// maximising the sum over problems of the best picked column.
fn pick(share: &[Vec<f64>], kept: Vec<usize>, keep: usize) -> Vec<usize> {
    let n = share.first().map_or(0, Vec::len);
    let keep = keep + kept.len();
    let mut picked = kept;
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
        assert_eq!(pick(&share, vec![], 2), [1, 3]);
        assert_eq!(pick(&share, vec![], 9).len(), 4);
        // With candidate 0 kept, candidate 3 adds most (problems 1 and 2), then candidate 1.
        assert_eq!(pick(&share, vec![0], 2), [0, 3, 1]);
    }

    #[test]
    fn log_weights_give_the_set_back_and_place_unused_weights() {
        let mut w = Weights { features: [-3.0e5, 2.0, -0.5, -40.0, -1.0, 0.25, -7.0, 0.0], power: 0.75 };
        let (lw, unused) = LogWeights::of(&w);
        assert_eq!(unused, [false, false, false, false, false, false, false, true, false]);
        let back = lw.weights();
        // The unused near-full weight starts at the largest size, with its natural sign (+).
        assert!((back.features[7] - 3.0e5).abs() < 1e-6);
        w.features[7] = back.features[7];
        for (a, b) in back.features.iter().chain([&back.power]).zip(w.features.iter().chain([&w.power])) {
            assert!((a - b).abs() <= 1e-9 * b.abs(), "{back:?} != {w:?}");
        }
    }

    #[test]
    fn training_seeds_are_not_the_problems_own() {
        let p = crate::builtin::problem(6).unwrap();
        let seeds = training_seeds(&p, 20, 1);
        assert_eq!(seeds.len(), 20);
        assert!(seeds.iter().all(|s| !p.has_seed(*s)));
    }
}
