//! Evaluation runs: many bags, each solved within the game's budget and checked by the validator.
//!
//! The headline number is the rate of *optimal* answers (the bag packed into its best box), with
//! its Wilson 95% interval; next to it the rate of bags whose best box was *proven impossible*
//! (for a perfect-square level that is the luck limit: no solver can do better on those bags).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_core::stats::{Rate, Summary};
use tessera_game::eval::Record;

use crate::bag::Bag;
use crate::game::{level_bag, level_best};
use crate::shapes::PieceSet;
use crate::solve::hybrid::solve;
use crate::solve::{Ctx, Solver};
use crate::validate::validate;

/// Where the bags come from.
#[derive(Clone, Debug)]
pub enum Bags {
    /// A level's bags (random, or the lone I of level 1).
    Level(u32),
    /// `n` random pieces of a set.
    Size(PieceSet, u64),
    /// Given bags, one per job.
    List(Vec<Bag>),
}

/// What each job does.
#[derive(Clone, Debug)]
pub struct EvalConfig {
    /// The bags.
    pub bags: Bags,
    /// Time per bag.
    pub budget: Duration,
    /// Solver threads per bag.
    pub threads: usize,
    /// The solver.
    pub solver: Solver,
}

/// One bag's result (a line of an evaluation's JSON lines, after the [`Record`]'s fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The bag, as letters (to replay a job with `tessera totems solve`).
    #[serde(default)]
    pub bag: String,
    /// Pieces.
    pub pieces: u64,
    /// The answer's box.
    pub dims: (u32, u32),
    /// The answer's score.
    pub score: f64,
    /// The best box's score.
    pub best_score: f64,
    /// Whether the answer is in the best box.
    pub optimal: bool,
    /// Whether the best box was proven impossible.
    pub impossible: bool,
    /// For a level's bags: the level's best score ([`level_best`]), which the bag may not reach.
    #[serde(default)]
    pub level_best: Option<f64>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Why the answer is invalid, if it is (must never happen).
    pub invalid: Option<String>,
}

/// The bag of job `job` with seed `seed`.
pub fn job_bag(cfg: &EvalConfig, job: u64, seed: u64) -> Bag {
    let mut rng = Rng64::seed(seed);
    match &cfg.bags {
        Bags::Level(l) => level_bag(*l, &mut rng),
        Bags::Size(set, n) => Bag::random(*set, *n, &mut rng),
        Bags::List(list) => list[job as usize % list.len()].clone(),
    }
}

/// Solves one job's bag and checks the answer.
#[must_use]
pub fn run_job(cfg: &EvalConfig, job: u64, seed: u64) -> JobResult {
    let bag = job_bag(cfg, job, seed);
    let start = Instant::now();
    let budget = Budget::unlimited().with_time(cfg.budget);
    let solved = solve(&bag, cfg.solver, &Ctx { threads: cfg.threads, seed, budget: &budget });
    let seconds = start.elapsed().as_secs_f64();
    let checked = validate(&bag, &solved.answer);
    JobResult {
        bag: bag.letters(),
        pieces: bag.len(),
        dims: solved.answer.bbox(),
        score: checked.as_ref().map_or(0.0, |c| c.score),
        best_score: solved.best_score,
        optimal: checked.is_ok() && solved.optimal(),
        impossible: solved.best_box_impossible,
        level_best: match cfg.bags {
            Bags::Level(l) => Some(level_best(l)),
            _ => None,
        },
        seconds,
        invalid: checked.err().map(|e| e.to_string()),
    }
}

/// The summary of a run (`eval --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSummary {
    /// Bags.
    pub jobs: usize,
    /// Answers in the best box.
    pub optimal: Rate,
    /// Bags whose best box was proven impossible.
    pub impossible: Rate,
    /// Bags decided: packed optimally or proven impossible.
    pub decided: Rate,
    /// For a level's bags: answers scoring the level's best (what a perfect round needs).
    pub level_best: Option<Rate>,
    /// Mean score.
    pub mean_score: f64,
    /// Seconds per bag.
    pub seconds: Summary,
    /// Invalid answers (must be 0).
    pub invalid: u64,
    /// Invalid answers: `(job, seed, why)`.
    pub failures: Vec<(u64, u64, String)>,
}

/// Summarises job records (from one run or merged shards).
#[must_use]
pub fn summarise(records: &[Record<JobResult>]) -> EvalSummary {
    let n = records.len() as u64;
    let count = |f: fn(&JobResult) -> bool| records.iter().filter(|r| f(&r.result)).count() as u64;
    let seconds: Vec<f64> = records.iter().map(|r| r.result.seconds).collect();
    EvalSummary {
        jobs: records.len(),
        optimal: Rate::new(count(|r| r.optimal), n),
        impossible: Rate::new(count(|r| r.impossible), n),
        decided: Rate::new(count(|r| r.optimal || r.impossible), n),
        level_best: records
            .iter()
            .all(|r| r.result.level_best.is_some())
            .then(|| Rate::new(count(|r| r.level_best.is_some_and(|best| r.invalid.is_none() && r.score >= best)), n)),
        mean_score: if n == 0 { 0.0 } else { records.iter().map(|r| r.result.score).sum::<f64>() / n as f64 },
        seconds: Summary::of(&seconds),
        invalid: count(|r| r.invalid.is_some()),
        failures: records
            .iter()
            .filter_map(|r| r.result.invalid.as_ref().map(|why| (r.job, r.seed, why.clone())))
            .collect(),
    }
}

impl std::fmt::Display for EvalSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |x: f64| x * 1000.0;
        writeln!(f, "bags:       {}", self.jobs)?;
        writeln!(f, "optimal:    {}", self.optimal)?;
        writeln!(f, "impossible: {} (best score proven out of reach)", self.impossible)?;
        writeln!(f, "decided:    {} (optimal or proven impossible)", self.decided)?;
        if let Some(rate) = &self.level_best {
            writeln!(f, "level best: {rate} (the level's best score, as a perfect round needs)")?;
        }
        writeln!(f, "mean score: {:.2}", self.mean_score)?;
        writeln!(
            f,
            "time:       p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            ms(self.seconds.p50),
            ms(self.seconds.p99),
            ms(self.seconds.max)
        )?;
        writeln!(f, "invalid:    {}", self.invalid)?;
        for (job, seed, why) in &self.failures {
            writeln!(f, "  job {job} (seed {seed}): {why}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::testing::reads_back;

    #[test]
    fn records_and_summaries_read_back() {
        let cfg =
            EvalConfig { bags: Bags::Level(2), budget: Duration::from_millis(200), threads: 1, solver: Solver::Hybrid };
        let records: Vec<Record<JobResult>> =
            (0..3).map(|job| Record { job, of: 3, base_seed: 1, seed: job, result: run_job(&cfg, job, job) }).collect();
        for r in &records {
            let line = serde_json::to_string(r).unwrap();
            reads_back::<Record<JobResult>>(&line);
        }
        let summary = summarise(&records);
        assert_eq!((summary.jobs, summary.invalid), (3, 0));
        let json = serde_json::to_string(&summary).unwrap();
        reads_back::<EvalSummary>(&json);
    }
}
