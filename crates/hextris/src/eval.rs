//! Evaluation: solve problems within a time each, score every game with the judge, and compare
//! with the best final-round scores of the contest.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tessera_core::runtime::Budget;

use crate::engine::EngineError;
use crate::format::GAME;
use crate::problem::Problem;
use crate::solver::{Settings, problem_score, solve, working_seconds};

/// The best score of any team in the contest's final round, for the qualifying problems it
/// re-ran (floor of the mean over seeds, all 18 phrases known).
pub const FINAL_BEST: [(i64, u64); 11] = [
    (8, 19887),
    (9, 28235),
    (10, 10004),
    (12, 13354),
    (13, 4820),
    (14, 107870),
    (15, 12048),
    (16, 16600),
    (18, 23771),
    (20, 13032),
    (24, 306206),
];

/// The final round's best score on problem `id`, if it was re-run.
#[must_use]
pub fn final_best(id: i64) -> Option<u64> {
    FINAL_BEST.iter().find(|b| b.0 == id).map(|b| b.1)
}

/// One seed's game, as an evaluation keeps it (enough to replay it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedResult {
    /// The seed.
    pub seed: u32,
    /// The judge's total.
    pub score: u64,
    /// Its move part.
    pub move_score: u64,
    /// Its phrase part.
    pub power_score: u64,
    /// Distinct phrases spelled.
    pub phrases: usize,
    /// Units locked.
    pub locked: usize,
    /// Lines cleared.
    pub lines: usize,
    /// How the game ended.
    pub end_state: String,
    /// The beam width that found it.
    pub width: usize,
    /// The commands.
    pub solution: String,
}

/// One problem solved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemResult {
    /// Always [`GAME`].
    pub game: String,
    /// The problem's id.
    pub problem: i64,
    /// Board size.
    pub width: usize,
    /// Board size.
    pub height: usize,
    /// The leaderboard score: the floor of the mean of the seeds' scores.
    pub score: u64,
    /// The floor of the mean move score.
    pub move_score: u64,
    /// The floor of the mean phrase score.
    pub power_score: u64,
    /// The fewest distinct phrases spelled in one of its games.
    pub phrases: usize,
    /// The final round's best score, if the problem was re-run there.
    pub final_best: Option<u64>,
    /// Wall time.
    pub seconds: f64,
    /// The widest beam that completed a game.
    pub width_reached: usize,
    /// Every seed's game.
    pub seeds: Vec<SeedResult>,
}

/// A problem's line of an [`EvalSummary`]: its [`ProblemResult`] without the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalRow {
    /// The problem's id.
    pub problem: i64,
    /// Seeds (games) solved.
    pub seeds: usize,
    /// The leaderboard score: the floor of the mean of the seeds' scores.
    pub score: u64,
    /// The floor of the mean move score.
    pub move_score: u64,
    /// The floor of the mean phrase score.
    pub power_score: u64,
    /// The fewest distinct phrases spelled in one of its games.
    pub phrases: usize,
    /// The final round's best score, if the problem was re-run there.
    pub final_best: Option<u64>,
    /// Wall time.
    pub seconds: f64,
    /// The widest beam that completed a game.
    pub width: usize,
}

impl From<&ProblemResult> for EvalRow {
    fn from(r: &ProblemResult) -> EvalRow {
        EvalRow {
            problem: r.problem,
            seeds: r.seeds.len(),
            score: r.score,
            move_score: r.move_score,
            power_score: r.power_score,
            phrases: r.phrases,
            final_best: r.final_best,
            seconds: r.seconds,
            width: r.width_reached,
        }
    }
}

/// An evaluation of several problems: each problem's scores, without the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSummary {
    /// Always [`GAME`].
    pub game: String,
    /// The time each problem was given, in seconds.
    pub seconds_per_problem: f64,
    /// Cores used.
    pub cores: usize,
    /// The sum of the problems' scores.
    pub total: u64,
    /// Problems whose score beats the final round's best.
    pub final_best_beaten: usize,
    /// Problems the final round re-ran (those with a best to beat).
    pub final_best_problems: usize,
    /// Each problem's scores.
    pub problems: Vec<EvalRow>,
}

impl EvalSummary {
    /// The summary of `results`, each problem solved within `seconds_per_problem` on `cores`.
    #[must_use]
    pub fn new(results: &[ProblemResult], seconds_per_problem: f64, cores: usize) -> EvalSummary {
        let targets: Vec<(u64, u64)> = results.iter().filter_map(|r| r.final_best.map(|b| (r.score, b))).collect();
        EvalSummary {
            game: GAME.to_string(),
            seconds_per_problem,
            cores,
            total: results.iter().map(|r| r.score).sum(),
            final_best_beaten: targets.iter().filter(|(score, best)| score > best).count(),
            final_best_problems: targets.len(),
            problems: results.iter().map(EvalRow::from).collect(),
        }
    }
}

/// Solves `problem` within `seconds` on `threads` threads and judges it.
pub fn run(problem: &Problem, settings: &Settings, seconds: f64, threads: usize) -> Result<ProblemResult, EngineError> {
    let started = Instant::now();
    let budget = Budget::unlimited().with_time(Duration::from_secs_f64(working_seconds(seconds)));
    let games = solve(problem, settings, &budget, threads, |_| {})?;
    let n = games.len().max(1) as u64;
    let seeds: Vec<SeedResult> = games
        .iter()
        .map(|g| SeedResult {
            seed: g.seed,
            score: g.scorecard.score,
            move_score: g.scorecard.move_score,
            power_score: g.scorecard.power_score,
            phrases: g.scorecard.phrases.len(),
            locked: g.scorecard.locked,
            lines: g.scorecard.lines_cleared,
            end_state: serde_json::to_value(g.scorecard.end_state)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            width: g.width,
            solution: g.text.clone(),
        })
        .collect();
    Ok(ProblemResult {
        game: GAME.to_string(),
        problem: problem.id,
        width: problem.width,
        height: problem.height,
        score: problem_score(&games),
        move_score: seeds.iter().map(|s| s.move_score).sum::<u64>() / n,
        power_score: seeds.iter().map(|s| s.power_score).sum::<u64>() / n,
        phrases: seeds.iter().map(|s| s.phrases).min().unwrap_or(0),
        final_best: final_best(problem.id),
        seconds: started.elapsed().as_secs_f64(),
        width_reached: seeds.iter().map(|s| s.width).max().unwrap_or(0),
        seeds,
    })
}
