//! The solver: where each unit locks (a beam search over the known source), then the text that
//! takes each unit there while spelling phrases of power, then the judge's score of the result.
//!
//! [`solve`] is anytime. It first plans every seed with a beam of width 1 under each set of
//! weights of the portfolio and keeps, per seed, the set whose plan promises most; then it widens
//! the beam (2, 4, 8, ...) while time is left. A plan is spelled and judged only when it promises
//! more than the seed's best so far; each seed keeps its best game as the judge scores it.
//! Finally, the phrases a seed's best game misses are grafted onto it where they run through
//! several units (see [`Solver::graft`]), with a share of the time kept for that.

pub mod beam;
pub mod bridge;
pub mod features;
mod graft;
pub mod power;
mod spell;
pub mod tune;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use tessera_core::runtime::{Budget, split_work};

use crate::engine::{Board, EngineError, Reach, Rules, State};
use crate::judge::{Verdict, score};
use crate::phrase::Phrases;
use crate::problem::Problem;
use beam::Plan;
use bridge::Carry;
pub use features::{Portfolio, Weights};
pub use graft::Grown;
use power::Speller;

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
    /// Whether the search was stopped before the end of the game (the text then stops early).
    pub partial: bool,
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
        Game { seed, text, verdict, width, weights: k, partial: plan.stopped }
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

/// What [`solve`] reports after each round.
#[derive(Clone, Debug)]
pub struct Round {
    /// Beam width of the round (0: the phrases grafted at the end, see [`Solver::graft`]).
    pub width: usize,
    /// Seeds improved in this round.
    pub improved: usize,
    /// The problem's score (floor of the mean over seeds) after the round.
    pub score: u64,
    /// Time since the start.
    pub seconds: f64,
}

/// A seed's best so far.
#[derive(Clone, Debug, Default)]
struct Best {
    /// The portfolio's sets ranked by their width-1 plans, best first.
    ranked: Vec<usize>,
    /// The best plan's expected points.
    promise: f64,
    game: Option<Game>,
    /// The best game's plan (and the runs grafted onto it).
    grown: Option<Grown>,
}

impl Best {
    /// Keeps `game` (planned by `plan`, with the units of `fixed` given) if it scores more.
    fn offer(&mut self, game: Game, plan: &Plan, fixed: BTreeMap<usize, Carry>) -> bool {
        if self.game.as_ref().is_some_and(|g| game.verdict.score <= g.verdict.score) {
            return false;
        }
        self.grown = Some(Grown { game: game.clone(), plan: plan.clone(), fixed });
        self.game = Some(game);
        true
    }
}

/// Solves every seed of `problem` within `budget` on `threads` threads, widening the beam while
/// time is left; `on_round` hears about each round. Returns the best game of each seed, in the
/// problem's seed order.
pub fn solve(
    problem: &Problem,
    settings: &Settings,
    budget: &Budget,
    threads: usize,
    mut on_round: impl FnMut(&Round),
) -> Result<Vec<Game>, EngineError> {
    let solver = Solver::new(problem, settings)?;
    let seeds = &problem.source_seeds;
    let kinds = settings.portfolio.len();
    let best: Mutex<Vec<Best>> = Mutex::new(vec![Best::default(); seeds.len()]);
    let started = Instant::now();
    // Round 1: every set of weights, width 1. Later rounds: each seed's best sets (as many as
    // there are threads to spare), twice the width.
    let mut width = 1;
    // Seconds to spell one game, as last measured.
    let spell_cost = Mutex::new(f64::INFINITY);
    // The rounds' share of the time: all of it, unless some phrase is missing after the first
    // round (then a share is kept for grafting).
    let whole = budget;
    let mut rounds = budget.fork();
    let mut grafting = false;
    loop {
        let budget = &rounds;
        let variants = if width == 1 { kinds } else { (threads / seeds.len()).clamp(1, kinds) };
        // When spelling is cheap, the beam's runners-up are spelled too.
        let all = *lock(&spell_cost) * (seeds.len() * variants * RUNNERS_UP) as f64 / threads as f64;
        let top = if budget.time_left().is_some_and(|t| all * 4.0 < t.as_secs_f64()) { RUNNERS_UP } else { 1 };
        let improved = Mutex::new(0);
        let plans: Mutex<Vec<Vec<(usize, Plan)>>> = Mutex::new(vec![Vec::new(); seeds.len()]);
        split_work(
            seeds.len() * variants,
            threads,
            budget,
            || (),
            |_, job, b| {
                let (j, v) = (job / variants, job % variants);
                let k = if width == 1 { v } else { lock(&best)[j].ranked[v] };
                let found = solver.plans(seeds[j], k, width, top, b);
                lock(&plans)[j].extend(found.into_iter().map(|plan| (k, plan)));
                true
            },
        );
        let plans = plans.into_inner().unwrap_or_else(|e| e.into_inner());
        // Spell the plans that promise more than their seed's best, in parallel over seeds (every
        // seed gets a game, spelled plainly if time is up).
        split_work(
            seeds.len(),
            threads,
            &Budget::unlimited(),
            || (),
            |_, j, _| {
                let mut mine = plans[j].clone();
                mine.sort_by(|a, b| promise(&b.1).total_cmp(&promise(&a.1)));
                if width == 1
                    && let Some(b) = lock(&best).get_mut(j)
                {
                    b.ranked.clear();
                    for (k, _) in &mine {
                        if !b.ranked.contains(k) {
                            b.ranked.push(*k);
                        }
                    }
                }
                // The plan that promises most is spelled if it promises more than the seed's
                // best; when spelling is cheap (a few units), the others are spelled as well,
                // since what phrases fit is known only once spelled.
                let mut cheap = false;
                for (v, (k, plan)) in mine.iter().enumerate() {
                    {
                        let b = &lock(&best)[j];
                        let worth = v == 0 && promise(plan) > b.promise || cheap;
                        if b.game.is_some() && (!worth || budget.clone().expired()) {
                            break;
                        }
                    }
                    let started = Instant::now();
                    let (text, verdict) = solver.spell(seeds[j], plan, budget);
                    // Cheap: spelling every seed once more takes less than a twentieth of the
                    // time left.
                    let once = started.elapsed().as_secs_f64();
                    *lock(&spell_cost) = once;
                    let again = once * seeds.len() as f64;
                    cheap = budget.time_left().is_some_and(|t| again * CHEAP_SHARE < t.as_secs_f64());
                    let game = Game { seed: seeds[j], text, verdict, width, weights: *k, partial: plan.stopped };
                    let mut all = lock(&best);
                    let b = &mut all[j];
                    b.promise = b.promise.max(promise(plan));
                    if b.offer(game, plan, BTreeMap::new()) {
                        *lock(&improved) += 1;
                    }
                }
                true
            },
        );
        let total: u64 = lock(&best).iter().map(|b| b.game.as_ref().map_or(0, |g| g.verdict.score)).sum();
        on_round(&Round {
            width,
            improved: improved.into_inner().unwrap_or_else(|e| e.into_inner()),
            score: total / seeds.len() as u64,
            seconds: started.elapsed().as_secs_f64(),
        });
        if budget.clone().expired() || width >= settings.max_width {
            // The rounds' share is spent: graft, then widen again with whatever time is left.
            if !grafting || whole.clone().expired() {
                break;
            }
            grafting = false;
            if missing(&lock(&best), &settings.phrases) {
                graft_all(&solver, &best, whole, threads);
                let total: u64 = lock(&best).iter().map(|b| b.game.as_ref().map_or(0, |g| g.verdict.score)).sum();
                let seconds = started.elapsed().as_secs_f64();
                on_round(&Round { width: 0, improved: 0, score: total / seeds.len() as u64, seconds });
            }
            if whole.clone().expired() || width >= settings.max_width {
                break;
            }
            // The round the cut interrupted, again with the time left.
            rounds = whole.fork();
            continue;
        } else if width == 1 && missing(&lock(&best), &settings.phrases) {
            // Worth it if each seed's share of the time holds a few runs (a run costs about two
            // spellings: the rest of the game planned, then the whole game spelled).
            let waves = seeds.len().div_ceil(threads.max(1)) as f64;
            let run = 2.0 * *lock(&spell_cost);
            let left = rounds.time_left().map(|t| t.as_secs_f64());
            grafting = left.is_none_or(|t| t * GRAFT_SHARE / waves >= GRAFT_MIN_RUNS * run);
            if let Some(t) = left.filter(|_| grafting) {
                rounds = whole.within(Duration::from_secs_f64(t * (1.0 - GRAFT_SHARE)));
            }
        }
        width *= 2;
    }
    let best = best.into_inner().unwrap_or_else(|e| e.into_inner());
    // A seed never reached (no time at all) gets the empty text, which scores 0 and is valid.
    Ok(best
        .into_iter()
        .zip(seeds)
        .map(|(b, &seed)| {
            b.game.unwrap_or_else(|| {
                let verdict = score(problem, seed, "", &settings.phrases);
                Game { seed, text: String::new(), verdict, width: 0, weights: 0, partial: true }
            })
        })
        .collect())
}

/// The phrases `game` does not spell, longest first.
fn unused(game: &Game, phrases: &Phrases) -> Vec<usize> {
    let counts = phrases.counts(&game.text);
    let mut out: Vec<usize> = (0..phrases.len()).filter(|&i| counts[i] == 0).collect();
    out.sort_by_key(|&i| std::cmp::Reverse(phrases.text(i).len()));
    out
}

/// Whether some seed's best game misses a phrase.
fn missing(best: &[Best], phrases: &Phrases) -> bool {
    best.iter().any(|b| b.game.as_ref().is_some_and(|g| !unused(g, phrases).is_empty()))
}

/// Grafts the phrases each seed's best game misses (see [`Solver::graft`]), the seeds in parallel, each
/// with an equal share of the time left.
fn graft_all(solver: &Solver<'_>, best: &Mutex<Vec<Best>>, budget: &Budget, threads: usize) {
    let seeds = lock(best).len();
    // Threads to spare beyond one a seed go to each seed's runs.
    let inner = (threads / seeds.max(1)).max(1);
    split_work(
        seeds,
        threads,
        budget,
        || (),
        |_, j, _| {
            let Some(mut grown) = lock(best)[j].grown.clone() else { return true };
            // An equal share of what is left for this seed and those still to come.
            let waves = (seeds - j).div_ceil(threads.max(1)) as u32;
            let slice = budget.time_left().map_or_else(|| budget.fork(), |t| budget.within(t / waves));
            let weights = &solver.settings.portfolio[grown.game.weights];
            for phrase in unused(&grown.game, &solver.settings.phrases) {
                if let Some(better) = solver.graft(&grown, phrase, weights, GRAFT_WIDTH, inner, &slice) {
                    grown = better;
                }
            }
            let Grown { game, plan, fixed } = grown;
            lock(best)[j].offer(game, &plan, fixed);
            true
        },
    );
}

/// The share of the time kept for grafting when some phrase is missing after the first round.
const GRAFT_SHARE: f64 = 0.25;

/// Grafting is tried when each seed's share of the time holds at least this many runs.
const GRAFT_MIN_RUNS: f64 = 8.0;

/// Beam width for the rest of a game after a grafted phrase.
const GRAFT_WIDTH: usize = 64;

/// Games of a beam spelled per plan when spelling is cheap: the best and its runners-up.
const RUNNERS_UP: usize = 64;

/// Spelling counts as cheap when this many more spellings of every seed fit in the time left:
/// then every plan of a round is spelled.
const CHEAP_SHARE: f64 = 20.0;

/// The points a plan promises; a plan stopped before the end of its game promises nothing
/// beyond what it has.
fn promise(plan: &Plan) -> f64 {
    plan.move_score as f64 + plan.power
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The leaderboard score of a problem: the floor of the mean of its seeds' scores.
pub fn problem_score(games: &[Game]) -> u64 {
    if games.is_empty() { 0 } else { games.iter().map(|g| g.verdict.score).sum::<u64>() / games.len() as u64 }
}
