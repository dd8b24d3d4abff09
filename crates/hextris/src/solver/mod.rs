//! The solver: where each unit locks (a beam search over the known source), then the text that
//! takes each unit there while spelling phrases of power, then the judge's score of the result.
//!
//! [`solve`] is anytime (the module `anytime`). It first plans every seed with a beam of width 1
//! under each set of weights of the portfolio and keeps, per seed, the set whose plan promises
//! most; then it widens the beam (2, 4, 8, ...), reworks the best games (cut at a unit and
//! planned again from there, see [`Solver::rework`]) and grafts the phrases a game misses where
//! they run through several units (see [`Solver::graft`]), each with a share of the time.

mod anytime;
pub mod beam;
pub mod bridge;
pub mod features;
mod graft;
pub mod power;
mod rework;
mod spell;
pub mod tune;
mod walk;

use serde::Serialize;
use tessera_core::runtime::Budget;

use crate::engine::{Board, EngineError, Reach, Rules, State};
use crate::judge::Verdict;
use crate::phrase::Phrases;
use crate::problem::Problem;
pub use anytime::{Phase, Round, solve, working_seconds};
use beam::Plan;
pub use features::{Portfolio, Weights};
pub use graft::Grown;
use power::Speller;
pub use rework::Try;

/// How to solve.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Sets of weights for the position evaluation, tried in turn.
    pub portfolio: Vec<Weights>,
    /// The phrases of power to spell.
    pub phrases: Phrases,
    /// The widest beam to try.
    pub max_width: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { portfolio: Portfolio::shipped().weights, phrases: Phrases::official(), max_width: 1 << 16 }
    }
}

/// One game solved: the text and the judge's verdict on it.
#[derive(Clone, Debug, Serialize)]
pub struct Game {
    /// The seed.
    pub seed: u32,
    /// The commands, as submitted.
    pub text: String,
    /// The judge's verdict.
    pub verdict: Verdict,
    /// The beam width that found it.
    pub width: usize,
    /// Which set of weights of the portfolio.
    pub weights: usize,
    /// Whether the game stops before its end: its plan or its spelling was cut short by the
    /// time limit.
    pub partial: bool,
}

/// Whether a game spelled from `plan` stops before the game's end (see [`Game::partial`]).
fn cut_short(plan: &Plan, verdict: &Verdict) -> bool {
    plan.stopped || verdict.locked < plan.locks.len()
}

/// A problem prepared for solving: its engine tables and each unit's expected phrase points per
/// row.
#[derive(Clone, Debug)]
pub struct Solver<'p> {
    problem: &'p Problem,
    rules: Rules,
    rates: Vec<f64>,
    settings: Settings,
}

impl<'p> Solver<'p> {
    /// Prepares `problem`.
    pub fn new(problem: &'p Problem, settings: &Settings) -> Result<Solver<'p>, EngineError> {
        let rules = Rules::new(problem)?;
        let rates = unit_rates(&rules, &settings.phrases);
        Ok(Solver { problem, rules, rates, settings: settings.clone() })
    }

    /// The expected phrase points per row of each unit.
    pub fn rates(&self) -> &[f64] {
        &self.rates
    }

    /// Plans a game with weights `k` of the portfolio and a beam of `width`.
    pub fn plan(&self, seed: u32, k: usize, width: usize, budget: &mut Budget) -> Plan {
        self.plan_with(seed, &self.settings.portfolio[k], width, budget)
    }

    /// Plans a game with `weights` and a beam of `width`.
    pub fn plan_with(&self, seed: u32, weights: &Weights, width: usize, budget: &mut Budget) -> Plan {
        let source = self.problem.source(seed);
        let start = State::new(self.problem);
        beam::plan(&self.rules, &self.rates, &start, &source, weights, width, budget)
    }

    /// The `top` games of a beam of `width` with weights `k` that promise most, best first.
    pub fn plans(&self, seed: u32, k: usize, width: usize, top: usize, budget: &mut Budget) -> Vec<Plan> {
        let source = self.problem.source(seed);
        let start = State::new(self.problem);
        let weights = &self.settings.portfolio[k];
        beam::plans(&self.rules, &self.rates, &start, &source, weights, width, top, budget)
    }

    /// Plans and spells one game.
    pub fn play(&self, seed: u32, k: usize, width: usize, budget: &mut Budget) -> Game {
        let plan = self.plan(seed, k, width, budget);
        let (text, verdict) = self.spell(seed, &plan, budget);
        let partial = cut_short(&plan, &verdict);
        Game { seed, text, verdict, width, weights: k, partial }
    }
}

/// The phrase points each unit spells per row on the way down an empty board of the problem's
/// size (every phrase already used, so no first-use bonus): what the planner expects a row moved
/// down to be worth.
pub fn unit_rates(rules: &Rules, phrases: &Phrases) -> Vec<f64> {
    let board = Board::empty(rules.width, rules.height);
    let mut speller = Speller::new(phrases);
    let used = vec![true; phrases.len()];
    rules
        .units
        .iter()
        .map(|unit| {
            let reach = Reach::new(rules, &board, unit);
            let Some(target) =
                reach.resting().into_iter().max_by_key(|p| (p.y, -(p.x as i32 - rules.width as i32 / 2).abs()))
            else {
                return 0.0;
            };
            let rows = (target.y - unit.spawn.y) as f64;
            let text = speller.spell(rules, &board, unit, target, &used);
            let counts = phrases.counts(std::str::from_utf8(&text).unwrap_or(""));
            let points: usize = counts.iter().enumerate().map(|(i, &c)| 2 * phrases.text(i).len() * c).sum();
            if rows > 0.0 { points as f64 / rows } else { 0.0 }
        })
        .collect()
}

/// The leaderboard score of a problem: the floor of the mean of its seeds' scores.
pub fn problem_score(games: &[Game]) -> u64 {
    if games.is_empty() { 0 } else { games.iter().map(|g| g.verdict.score).sum::<u64>() / games.len() as u64 }
}
