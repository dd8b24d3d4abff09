//! Evaluation on random planted puzzles: how often, and how fast, the engine solves them.
//!
//! Every job cuts a random board into random pieces (see [`crate::random`]), asks the engine for
//! a tiling (or for all of them), and checks the answer with the independent validator. A planted
//! puzzle always has a tiling, so "no tiling" is a bug and counts as wrong.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, Verdict};
use tessera_core::stats::{Rate, Summary};
use tessera_game::eval::Record;

use crate::random::{RandomSpec, planted};
use crate::validate::validate;
use tessera_polyform::tiler::{EngineKind, Tiler};

/// What each job does.
#[derive(Clone, Debug)]
pub struct EvalConfig {
    /// The random puzzles.
    pub spec: RandomSpec,
    /// Count every tiling instead of finding one.
    pub count: bool,
    /// Time limit per puzzle.
    pub budget: Option<Duration>,
    /// Engine.
    pub engine: EngineKind,
}

/// One job's result (a line of an evaluation's JSON lines, after the [`Record`]'s fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// Board cells.
    pub cells: usize,
    /// Pieces, counted with multiplicity.
    pub pieces: u64,
    /// Piece types.
    pub types: usize,
    /// Whether a tiling was found (and, when counting, the count finished).
    pub solved: bool,
    /// Whether the answer is wrong: no tiling claimed for a planted puzzle, or a tiling that
    /// fails validation.
    pub wrong: bool,
    /// Whether no puzzle could be made from this seed (the cut gave too many shapes, say): the
    /// job counts neither as solved nor as wrong.
    #[serde(default)]
    pub skipped: bool,
    /// Tilings counted (count mode only).
    pub tilings: Option<u128>,
    /// Wall time in seconds.
    pub seconds: f64,
    /// What went wrong, if anything.
    pub note: Option<String>,
}

/// Runs one job with the given seed.
#[must_use]
pub fn run_job(cfg: &EvalConfig, seed: u64) -> JobResult {
    let mut result = JobResult {
        cells: 0,
        pieces: 0,
        types: 0,
        solved: false,
        wrong: false,
        skipped: false,
        tilings: None,
        seconds: 0.0,
        note: None,
    };
    let made = planted(&cfg.spec, &format!("random-{seed}"), &mut Rng64::seed(seed)).and_then(|p| {
        Tiler::with_engine(&p.puzzle.problem, cfg.engine)
            .map(|t| (p, if cfg.count { t.choose_order() } else { t }))
            .map_err(|e| e.to_string())
    });
    let (p, tiler) = match made {
        Ok(made) => made,
        Err(e) => {
            result.skipped = true;
            result.note = Some(e);
            return result;
        }
    };
    let problem = &p.puzzle.problem;
    (result.cells, result.pieces, result.types) = (problem.board.len(), problem.piece_count(), problem.pieces.len());
    let start = Instant::now();
    let budget = Budget::unlimited().with_time_opt(cfg.budget);
    let check = |labels: String| validate(problem, &labels.chars().collect::<Vec<_>>()).err().map(|e| e.to_string());
    if cfg.count {
        let (counts, sample) = tiler.count_with_sample(1, &budget);
        result.tilings = Some(counts.raw);
        result.solved = counts.outcome == Outcome::Complete && counts.raw > 0;
        result.note = match sample {
            Some(s) => check(tiler.labels(&s)),
            None if counts.outcome == Outcome::Complete => Some("no tiling found for a planted puzzle".into()),
            None => None,
        };
        result.wrong = result.note.is_some();
    } else {
        match tiler.first(1, seed, &budget) {
            Verdict::Feasible(s) | Verdict::Optimal(s) => {
                result.solved = true;
                result.note = check(tiler.labels(&s));
            }
            Verdict::Infeasible => result.note = Some("claimed infeasible, but the puzzle is planted".into()),
            Verdict::Unknown(_) => {}
        }
        result.wrong = result.note.is_some();
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}

/// The summary of an evaluation (`eval --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSummary {
    /// Jobs summarised.
    pub jobs: usize,
    /// Jobs for which no puzzle could be made (not in the rates).
    pub skipped: u64,
    /// Puzzles solved within the budget, of those made.
    pub solved: Rate,
    /// Wrong answers (must be 0).
    pub wrong: u64,
    /// Seconds per puzzle.
    pub seconds: Summary,
    /// Board cells per puzzle.
    pub cells: Summary,
    /// Tilings per puzzle (count mode).
    pub tilings: Option<Summary>,
    /// Jobs that went wrong: `(job, seed, note)`.
    pub failures: Vec<(u64, u64, String)>,
}

/// Summarises job records (from one run or merged shards).
#[must_use]
pub fn summarise(records: &[Record<JobResult>]) -> EvalSummary {
    let skipped = records.iter().filter(|r| r.result.skipped).count() as u64;
    let made: Vec<&JobResult> = records.iter().map(|r| &r.result).filter(|r| !r.skipped).collect();
    let solved = made.iter().filter(|r| r.solved).count() as u64;
    let seconds: Vec<f64> = made.iter().map(|r| r.seconds).collect();
    let cells: Vec<f64> = made.iter().map(|r| r.cells as f64).collect();
    let tilings: Vec<f64> = made.iter().filter_map(|r| r.tilings).map(|t| t as f64).collect();
    EvalSummary {
        jobs: records.len(),
        skipped,
        solved: Rate::new(solved, made.len() as u64),
        wrong: records.iter().filter(|r| r.result.wrong).count() as u64,
        seconds: Summary::of(&seconds),
        cells: Summary::of(&cells),
        tilings: (!tilings.is_empty()).then(|| Summary::of(&tilings)),
        failures: records
            .iter()
            .filter(|r| r.result.wrong)
            .map(|r| (r.job, r.seed, r.result.note.clone().unwrap_or_default()))
            .collect(),
    }
}

impl std::fmt::Display for EvalSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "puzzles: {} (mean {:.1} cells)", self.jobs, self.cells.mean)?;
        if self.skipped > 0 {
            writeln!(f, "skipped: {} (no puzzle could be made from the seed; the job records say why)", self.skipped)?;
        }
        writeln!(f, "solved:  {}", self.solved)?;
        writeln!(f, "wrong:   {}", self.wrong)?;
        let ms = |x: f64| x * 1000.0;
        writeln!(
            f,
            "time:    mean {:.2} ms, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(self.seconds.mean),
            ms(self.seconds.p50),
            ms(self.seconds.p99),
            ms(self.seconds.max)
        )?;
        if let Some(t) = &self.tilings {
            writeln!(f, "tilings: mean {:.1}, p50 {:.0}, max {:.0}", t.mean, t.p50, t.max)?;
        }
        for (job, seed, note) in &self.failures {
            writeln!(f, "  job {job} (seed {seed}): {note}")?;
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
        let cfg = EvalConfig { spec: RandomSpec::default(), count: false, budget: None, engine: EngineKind::Auto };
        let records: Vec<Record<JobResult>> = (0..3)
            .map(|job| Record { job, of: 3, base_seed: 1, seed: job + 10, result: run_job(&cfg, job + 10) })
            .collect();
        for r in &records {
            let line = serde_json::to_string(r).unwrap();
            reads_back::<Record<JobResult>>(&line);
        }
        let summary = summarise(&records);
        assert_eq!((summary.jobs, summary.wrong), (3, 0));
        let json = serde_json::to_string(&summary).unwrap();
        reads_back::<EvalSummary>(&json);
    }
}
