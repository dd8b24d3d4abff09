//! How to solve ([`Settings`]) and a problem set up for it ([`Solver`]): its engine tables, each
//! unit's expected phrase points per row, and plans made with them.
//!
//! The solver's other work is done by methods of [`Solver`] in the modules that hold it:
//! spelling plans (`spell`), reworking games (`rework`) and grafting phrases (`graft`).

use std::sync::Arc;

use tessera_core::runtime::Budget;

use super::beam::{self, Plan};
use super::features::{Portfolio, Weights};
use super::speller::Speller;
use super::sweep::{DEFAULT_WORK, Tally, work_for};
use crate::engine::{Board, EngineError, Reach, Rules, State};
use crate::phrase::Phrases;
use crate::problem::Problem;

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

/// A problem prepared for solving: its engine tables and each unit's expected phrase points per
/// row.
#[derive(Clone, Debug)]
pub struct Solver<'p> {
    pub(super) problem: &'p Problem,
    pub(super) rules: Rules,
    pub(super) rates: Vec<f64>,
    pub(super) settings: Settings,
    /// Per unit: most steps of its sweeping search (see the module `sweep`; 0: none), and how
    /// often it was tried and won, over every game of the solve.
    pub(super) sweep_work: Vec<usize>,
    pub(super) tally: Arc<Tally>,
}

impl<'p> Solver<'p> {
    /// Prepares `problem`. Phrases that bring a unit back to a position it held are left out
    /// (see [`Phrases::revisiting`](crate::phrase::Phrases::revisiting)): no unit spells one in
    /// its fall, and looking for them across locks cost more than it won on a random set.
    pub fn new(problem: &'p Problem, settings: &Settings) -> Result<Solver<'p>, EngineError> {
        Solver::with_sweep_work(problem, settings, DEFAULT_WORK, 1)
    }

    /// [`Solver::new`] for a solve of `seconds` (`None`: no time limit) on `threads` threads:
    /// the sweeping search gets a share of each unit's time (see [`work_for`]).
    pub(crate) fn timed(
        problem: &'p Problem,
        settings: &Settings,
        seconds: Option<f64>,
        threads: usize,
    ) -> Result<Solver<'p>, EngineError> {
        let units = problem.source_seeds.len() * problem.source_length;
        Solver::with_sweep_work(problem, settings, work_for(seconds, threads, units), threads)
    }

    /// A solver whose units get sweeping searches of at most `work` steps (while they pay,
    /// see [`Tally`]).
    fn with_sweep_work(
        problem: &'p Problem,
        settings: &Settings,
        work: usize,
        threads: usize,
    ) -> Result<Solver<'p>, EngineError> {
        let rules = Rules::new(problem)?;
        let settings = Settings { phrases: settings.phrases.without_revisiting(), ..settings.clone() };
        let sweep_work = vec![work; rules.units.len()];
        let rates = unit_rates(&rules, &settings.phrases, &sweep_work);
        let tally = Arc::new(Tally::new(rules.units.len(), threads));
        Ok(Solver { problem, rules, rates, settings, sweep_work, tally })
    }

    /// A speller for the solver's phrases.
    pub(crate) fn speller(&self) -> Speller {
        Speller::new(&self.settings.phrases).sweeping(&self.rules.units, &self.sweep_work).tallied(&self.tally)
    }

    /// The expected phrase points per row of each unit.
    pub fn rates(&self) -> &[f64] {
        &self.rates
    }

    /// Plans a game with weights `k` of the portfolio and a beam of `width`.
    #[must_use]
    pub fn plan(&self, seed: u32, k: usize, width: usize, budget: &mut Budget) -> Plan {
        self.plan_with(seed, &self.settings.portfolio[k], width, budget)
    }

    /// Plans a game with `weights` and a beam of `width`.
    #[must_use]
    pub(crate) fn plan_with(&self, seed: u32, weights: &Weights, width: usize, budget: &mut Budget) -> Plan {
        let source = self.problem.source(seed);
        let start = State::new(self.problem);
        beam::plan(&self.rules, &self.rates, &start, &source, weights, width, budget)
    }

    /// The `top` games of a beam of `width` with weights `k` that promise most, best first.
    #[must_use]
    pub(crate) fn plans(&self, seed: u32, k: usize, width: usize, top: usize, budget: &mut Budget) -> Vec<Plan> {
        let source = self.problem.source(seed);
        let start = State::new(self.problem);
        let weights = &self.settings.portfolio[k];
        beam::plans(&self.rules, &self.rates, &start, &source, weights, width, top, budget)
    }
}

/// The phrase points each unit spells per row on the way down an empty board of the problem's
/// size (every phrase already used, so no first-use bonus): what the planner expects a row moved
/// down to be worth. `sweep_work`: per unit, as [`Speller::sweeping`] takes it.
#[must_use]
pub(crate) fn unit_rates(rules: &Rules, phrases: &Phrases, sweep_work: &[usize]) -> Vec<f64> {
    let board = Board::empty(rules.width, rules.height);
    let mut speller = Speller::new(phrases).sweeping(&rules.units, sweep_work);
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
