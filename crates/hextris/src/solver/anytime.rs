//! [`solve`]: the solver's use of its time, from a first game per seed to the best it can find.
//!
//! ```text
//!   round 1     every set of weights, beam width 1; each seed ranks the sets by promise
//!               (with a time limit the sets after the first plan in half the time left)
//!   widen       width 2, 4, 8, ... with each seed's best sets, while a round improves at
//!               least half the seeds and the next one fits in the time
//!   rework      the best games cut and planned again from there, until the graft's share
//!   graft       phrases a game misses, run through several units    (GRAFT_SHARE, if missing)
//!   the rest    rework again; widen once reworking finds nothing more; when neither can go
//!               on before the time is up, reworking starts over (its tries are random)
//! ```
//!
//! Short games (a few units on a small board, see the module `exact`) are searched exactly,
//! over every text, after the first round (whose games they must beat), with [`EXACT_SHARE`] of
//! the time: a seed whose search ends has its game proven optimal. When every seed's is,
//! [`solve`] returns at once; otherwise the rounds above follow, and then the exact searches go
//! on (from where they stopped) until the time is up. Each seed gets the better of its games.
//!
//! Games whose units are all single cells (see the module `single_cells`) get a beam over every
//! place each unit can lock, with its best text, right after the first round: [`CELLS_SHARE`]
//! of the time, passes four times wider each while the next is expected to fit.
//!
//! A plan is spelled and judged only when it promises more than the seed's best so far (and,
//! while spelling is cheap, the beam's runners-up too, until a round in which none of them
//! improved the seed's game); each seed keeps its best game as the judge scores it.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tessera_core::rng::Rng64;
use tessera_core::runtime::{self, Budget, split_work};

use super::beam::Plan;
use super::exact::{Exact, Outcome};
use super::game::{Game, Grown, problem_score};
use super::rework::Try;
use super::setup::{Settings, Solver};
use super::single_cells;
use super::unturned::Turnless;
use crate::engine::EngineError;
use crate::judge::score;
use crate::phrase::Phrases;
use crate::problem::Problem;

/// The share of the time the exact searches of short games get before the rounds.
const EXACT_SHARE: f64 = 0.5;

/// The share of the time the beam over games of single cells gets after the first round.
const CELLS_SHARE: f64 = 0.75;

/// The beam over games of single cells: its first width, how much wider each pass is, and its
/// widest (each layer keeps a text per game: memory grows with the width).
const CELLS_WIDTHS: (usize, usize, usize) = (4, 4, 1 << 12);

/// The share of the time left after the first set's plans that the other sets may plan in,
/// in the first round (the rest is kept for spelling the best plan).
const OTHER_SETS_SHARE: f64 = 0.5;

/// The shortest spell of reworking, in seconds.
const MIN_SLICE: f64 = 0.05;

/// How much longer a widening round is expected to take than the one before, per doubling of
/// the width (planning doubles, spelling stays).
const ROUND_GROWTH: f64 = 1.5;

/// Once widening has stalled, a round is started only if the time left is at least this many
/// times what it is expected to take.
const STALLED_ROOM: f64 = 3.0;

/// Reworking a seed's game stops after this many tries in a row that did not improve it.
const STALE_TRIES: usize = 200;

/// After this many failed tries in a row on every seed's game, the beam is widened again.
const PATIENCE: usize = 16;

/// Most tries per seed in one reworking phase.
const MAX_TRIES: usize = 1 << 20;

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

/// What a round of [`solve`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Planned every seed with a beam of [`Round::width`].
    Widen,
    /// Planned the seeds' best games again from a unit on (see [`Solver::rework`]).
    Rework,
    /// Grafted the phrases the seeds' best games miss (see [`Solver::graft`]).
    Graft,
    /// Searched short games exactly, over every text (see [`Round::proven`]).
    Exact,
    /// Searched games whose units are all single cells with a beam of [`Round::width`] over
    /// every place each unit can lock, each with its best text.
    Cells,
}

/// What [`solve`] reports after each round.
#[derive(Clone, Debug)]
pub struct Round {
    /// What the round did.
    pub phase: Phase,
    /// Beam width of a widening round (the widest so far after the others).
    pub width: usize,
    /// Seeds improved in a widening round; games improved when reworking.
    pub improved: usize,
    /// The problem's score (floor of the mean over seeds) after the round.
    pub score: u64,
    /// Time since the start.
    pub seconds: f64,
    /// Seeds whose game is proven optimal (by the exact search of short games), of `seeds`.
    pub proven: usize,
    pub seeds: usize,
}

/// The budget to give [`solve`] when the whole run must end within `wall` seconds: after the
/// budget runs out the solver still spells plain paths for a moment (see `LATE` in the module
/// `spell`) and judges its games, and the answer must still be written.
#[must_use]
pub fn working_seconds(wall: f64) -> f64 {
    (wall * 0.97 - 0.05).max(0.0)
}

/// Solves every seed of `problem` within `budget` on `threads` threads (see the module's
/// documentation); `on_round` hears about each round. Returns the best game of each seed, in the
/// problem's seed order.
pub fn solve(
    problem: &Problem,
    settings: &Settings,
    budget: &Budget,
    threads: usize,
    mut on_round: impl FnMut(&Round),
) -> Result<Vec<Game>, EngineError> {
    let seconds = budget.time_left().map(|t| t.as_secs_f64());
    let solver = Solver::timed(problem, settings, seconds, threads)?;
    let mut exact = Exacts::new(&solver);
    let search = Search {
        solver: &solver,
        best: Mutex::new(vec![Best::default(); problem.source_seeds.len()]),
        exact: Mutex::new(vec![None; problem.source_seeds.len()]),
        threads,
        spell_cost: Mutex::new(f64::INFINITY),
        started: Instant::now(),
        tries: AtomicU64::new(0),
    };
    let mut report = |phase, width, improved| on_round(&search.round(phase, width, improved));
    let whole = budget;
    let mut width = 1;
    report(Phase::Widen, width, search.first_round(whole));
    if let Some(turnless) = Turnless::of(&solver.settings.phrases).filter(|_| single_cells::takes(&solver.rules)) {
        let share = whole.time_left().map_or_else(|| whole.fork(), |t| whole.within(t.mul_f64(CELLS_SHARE)));
        let (widest, improved) = search.single_cells(&turnless, &share);
        report(Phase::Cells, widest, improved);
    }
    if !exact.is_empty() {
        // The games of the first round are what the exact searches must beat.
        let first = whole.time_left().map_or_else(|| whole.fork(), |t| whole.within(t.mul_f64(EXACT_SHARE)));
        exact.run(&search, &first, threads);
        report(Phase::Exact, width, 0);
        if exact.all_proven() {
            return Ok(search.games());
        }
    }
    // Of the time after the first round, a share is kept for grafting if some phrase is missing
    // and that share holds a few runs per seed (a run costs about two spellings: the rest of the
    // game planned, then the whole game spelled); the rounds get the rest.
    let seeds = problem.source_seeds.len();
    let waves = seeds.div_ceil(threads.max(1)) as f64;
    let run = 2.0 * *lock(&search.spell_cost);
    let left = whole.time_left().map(|t| t.as_secs_f64());
    let grafting = search.missing() && left.is_none_or(|t| t * GRAFT_SHARE / waves >= GRAFT_MIN_RUNS * run);
    let graft_share = if grafting { GRAFT_SHARE } else { 0.0 };
    let share = |s: f64| left.map_or_else(|| whole.fork(), |t| whole.within(Duration::from_secs_f64(t * s)));
    let rounds = share(1.0 - graft_share);
    let first = search.started.elapsed().as_secs_f64();
    let mut pace = Pace { unit: first / search.variants(1) as f64, ..Pace::default() };
    search.alternate(&mut width, &mut pace, settings.max_width, &rounds, &mut report);
    if grafting && search.missing() && !whole.is_spent() {
        search.graft(whole);
        report(Phase::Graft, width, 0);
    }
    search.alternate(&mut width, &mut pace, settings.max_width, whole, &mut report);
    // The beam cannot widen and reworking gave up, before the time is up: reworking starts over
    // (each try draws its own cut and weights), as long as a pass finds tries to make.
    while whole.time_left().is_some() && !whole.is_spent() {
        let started = Instant::now();
        search.unstale();
        search.alternate(&mut width, &mut pace, settings.max_width, whole, &mut report);
        if started.elapsed().as_secs_f64() < MIN_SLICE {
            break; // no game can be cut: nothing left to try
        }
    }
    // The exact searches not yet ended go on until the time is up.
    if !exact.is_empty() && !exact.all_proven() && whole.time_left().is_some() && !whole.is_spent() {
        exact.run(&search, whole, threads);
        report(Phase::Exact, width, 0);
    }
    Ok(search.games())
}

/// The exact searches of a problem's seeds (see the module `exact`), for the seeds whose game
/// is short enough.
struct Exacts<'s> {
    /// Per seed: its search, and whether its game is proven optimal (`None` for a seed whose
    /// units come in the same order as an earlier seed's: it gets that seed's game).
    searches: Vec<Option<(Exact<'s>, bool)>>,
    /// Per seed: the earlier seed with the same units in the same order, if any.
    same: Vec<Option<usize>>,
}

impl<'s> Exacts<'s> {
    fn new(solver: &'s Solver<'_>) -> Exacts<'s> {
        let (problem, rules, phrases) = (solver.problem, &solver.rules, &solver.settings.phrases);
        let sources: Vec<Vec<usize>> = problem.source_seeds.iter().map(|&seed| problem.source(seed)).collect();
        let (mut searches, mut same): (Vec<_>, Vec<Option<usize>>) = (Vec::new(), Vec::new());
        for (j, &seed) in problem.source_seeds.iter().enumerate() {
            let twin = (0..j).find(|&i| sources[i] == sources[j] && same[i].is_none());
            same.push(twin);
            searches.push(match twin {
                Some(_) => None,
                None => Exact::new(problem, rules, phrases, seed).map(|e| (e, false)),
            });
        }
        Exacts { searches, same }
    }

    fn is_empty(&self) -> bool {
        self.searches.iter().all(Option::is_none)
    }

    fn all_proven(&self) -> bool {
        (0..self.searches.len()).all(|j| {
            let i = self.same[j].unwrap_or(j);
            self.searches[i].as_ref().is_some_and(|s| s.1)
        })
    }

    /// Runs the searches not yet ended within `budget`, on `threads` threads, each thread its
    /// seeds in turn with equal shares of its time; offers each seed's best game to `search`
    /// (and to the seeds with the same units).
    fn run(&mut self, search: &Search<'_, '_>, budget: &Budget, threads: usize) {
        let same = &self.same;
        let mut open: Vec<(usize, &mut Exact<'s>, &mut bool)> = self
            .searches
            .iter_mut()
            .enumerate()
            .filter_map(|(j, s)| s.as_mut().filter(|s| !s.1).map(|(e, p)| (j, e, p)))
            .collect();
        let threads = threads.clamp(1, open.len().max(1));
        let mut queues: Vec<Vec<(usize, &mut Exact<'s>, &mut bool)>> = (0..threads).map(|_| Vec::new()).collect();
        for (i, job) in open.drain(..).enumerate() {
            queues[i % threads].push(job);
        }
        // The search recurses once per command of the game: deep stacks.
        runtime::run_each(queues, |queue| {
            let n = queue.len();
            for (i, (j, exact, proven)) in queue.into_iter().enumerate() {
                let slice = fair_share(budget, i, n, 1);
                let twins: Vec<usize> = (0..same.len()).filter(|&k| k == j || same[k] == Some(j)).collect();
                let games = search.games();
                for g in twins.iter().filter_map(|&k| games.get(k)) {
                    exact.know(g.scorecard.score as i64, &g.text);
                }
                let outcome = exact.run(&slice);
                *proven = outcome.proven;
                for &k in &twins {
                    search.offer_exact(k, &outcome);
                }
            }
        });
    }
}

/// The share of `budget` of job `job` of `jobs` that `threads` threads take in turn: the time
/// left split evenly over the jobs still to run on each thread, this one included (no limit
/// when `budget` has none). A job that ends early leaves its time to the ones after it.
fn fair_share(budget: &Budget, job: usize, jobs: usize, threads: usize) -> Budget {
    let turns = (jobs.saturating_sub(job)).div_ceil(threads.max(1)).max(1);
    budget.time_left().map_or_else(|| budget.fork(), |t| budget.within(t / turns as u32))
}

/// A seed's best so far.
#[derive(Clone, Debug, Default)]
struct Best {
    /// The portfolio's sets ranked by their width-1 plans, best first.
    ranked: Vec<usize>,
    /// The best plan's expected points.
    promise: f64,
    /// The best game, with its plan (and the runs grafted onto it).
    grown: Option<Grown>,
    /// Tries in a row that failed to rework the best game.
    stale: usize,
    /// A round spelled the beam's runners-up and none of them improved the game: later rounds
    /// spell their best plan only.
    runners_failed: bool,
}

impl Best {
    /// The best game so far.
    fn game(&self) -> Option<&Game> {
        self.grown.as_ref().map(|g| &g.game)
    }

    /// Keeps `grown` if its game scores more.
    fn offer(&mut self, grown: Grown) -> bool {
        if self.game().is_some_and(|g| grown.game.scorecard.score <= g.scorecard.score) {
            return false;
        }
        self.grown = Some(grown);
        self.stale = 0;
        true
    }
}

/// How long the rounds take, and how the time went.
#[derive(Clone, Copy, Debug, Default)]
struct Pace {
    /// Seconds per unit of width and set of weights of the last widening round.
    unit: f64,
    /// Seconds spent widening (after the first round) and reworking.
    widened: f64,
    reworked: f64,
    /// Whether a widening round has improved no seed yet.
    stalled: bool,
}

/// The state of one [`solve`].
struct Search<'s, 'p> {
    solver: &'s Solver<'p>,
    best: Mutex<Vec<Best>>,
    /// Per seed: the best game found outside the rounds (by the exact search or the beam over
    /// games of single cells), and whether it is proven optimal.
    exact: Mutex<Vec<Option<(Game, bool)>>>,
    threads: usize,
    /// Seconds to spell one game, as last measured.
    spell_cost: Mutex<f64>,
    started: Instant,
    /// Reworking tries so far (each seeds its own generator with its number).
    tries: AtomicU64,
}

impl Search<'_, '_> {
    /// The report of a round.
    fn round(&self, phase: Phase, width: usize, improved: usize) -> Round {
        let games = self.games();
        let score = problem_score(&games);
        let proven = lock(&self.exact).iter().filter(|e| e.as_ref().is_some_and(|e| e.1)).count();
        let seconds = self.started.elapsed().as_secs_f64();
        Round { phase, width, improved, score, seconds, proven, seeds: games.len() }
    }

    /// Each seed's best game: the better of the rounds' and the exact search's. A seed never
    /// reached (no time at all) gets the empty text, which scores 0 and is valid.
    fn games(&self) -> Vec<Game> {
        let (best, exact) = (lock(&self.best), lock(&self.exact));
        let (problem, phrases) = (self.solver.problem, &self.solver.settings.phrases);
        let seeds = problem.source_seeds.iter().zip(best.iter().zip(exact.iter()));
        seeds
            .map(|(&seed, (b, e))| {
                let rounds = b.game().cloned();
                let exact = e.as_ref().map(|e| e.0.clone());
                match (rounds, exact) {
                    (Some(r), Some(e)) => {
                        if e.scorecard.score > r.scorecard.score {
                            e
                        } else {
                            r
                        }
                    }
                    (r, e) => r.or(e).unwrap_or_else(|| {
                        let scorecard = score(problem, seed, "", phrases);
                        Game { seed, text: String::new(), scorecard, width: 0, weights: 0, partial: true }
                    }),
                }
            })
            .collect()
    }

    /// Keeps the best game of seed `j`'s exact search, as the judge scores it.
    fn offer_exact(&self, j: usize, outcome: &Outcome) {
        self.offer_outside(j, (&outcome.text, outcome.points), 0, outcome.proven);
    }

    /// Keeps a game of seed `j` found outside the rounds (its text and its points as the search
    /// that found it counts them, the beam width that found it), as the judge scores it, if it
    /// scores more than the last one kept or is proven optimal.
    fn offer_outside(&self, j: usize, (text, points): (&str, i64), width: usize, proven: bool) {
        let seed = self.solver.problem.source_seeds[j];
        let scorecard = score(self.solver.problem, seed, text, &self.solver.settings.phrases);
        debug_assert_eq!(scorecard.score as i64, points, "the judge and the search differ");
        let mut outside = lock(&self.exact);
        let better = outside[j].as_ref().is_none_or(|(g, _)| {
            scorecard.score > g.scorecard.score || (proven && scorecard.score >= g.scorecard.score)
        });
        if better {
            let game = Game { seed, text: text.to_string(), scorecard, width, weights: 0, partial: false };
            outside[j] = Some((game, proven));
        }
    }

    /// Runs the beam over games of single cells (the module `single_cells`) for each seed
    /// (seeds with the same units share one run), wider each pass, while the next pass is
    /// expected to end within `budget`; the threads share the seeds, or each seed's games when
    /// there are fewer seeds than threads. Returns the widest
    /// pass run, and how many seeds it improved (on the best game before).
    fn single_cells(&self, turnless: &Turnless, budget: &Budget) -> (usize, usize) {
        let (problem, rules) = (self.solver.problem, &self.solver.rules);
        let sources: Vec<Vec<usize>> = problem.source_seeds.iter().map(|&seed| problem.source(seed)).collect();
        let firsts: Vec<usize> = (0..sources.len()).filter(|&j| !sources[..j].contains(&sources[j])).collect();
        let score = |g: &Game| g.scorecard.score;
        let before: Vec<u64> = self.games().iter().map(score).collect();
        let (mut width, mut widest, mut last) = (CELLS_WIDTHS.0, 0, 0.0);
        while width <= CELLS_WIDTHS.2 {
            let expected = last * CELLS_WIDTHS.1 as f64;
            if budget.time_left().is_some_and(|t| t.as_secs_f64() < expected) || budget.is_spent() {
                break;
            }
            let started = Instant::now();
            // Fewer seeds than threads: one seed after the other, each on every thread.
            let (workers, each) = if firsts.len() < self.threads { (1, self.threads) } else { (self.threads, 1) };
            let games = split_work(firsts.len(), workers, budget, Vec::new, |out: &mut Vec<_>, k, b| {
                let seed = problem.source_seeds[firsts[k]];
                out.push((k, single_cells::play((problem, rules, turnless), seed, (width, each), b)));
                true
            });
            let games: Vec<_> = games.into_iter().flatten().collect();
            let mut cut = games.len() < firsts.len();
            for (k, game) in games {
                let Some((text, points)) = game else {
                    cut = true;
                    continue;
                };
                for j in (0..sources.len()).filter(|&j| sources[j] == sources[firsts[k]]) {
                    self.offer_outside(j, (&text, points), width, false);
                }
            }
            if cut {
                break;
            }
            (widest, last) = (width, started.elapsed().as_secs_f64());
            width *= CELLS_WIDTHS.1;
        }
        let improved = self.games().iter().zip(&before).filter(|(g, b)| score(g) > **b).count();
        (widest, improved)
    }

    /// Whether every seed's best game has failed at least `tries` tries in a row to be reworked.
    fn stale(&self, tries: usize) -> bool {
        lock(&self.best).iter().all(|b| b.stale >= tries)
    }

    /// Widens the beam while widening improves some seed and the next round would end within
    /// `budget`. From the first round that improves none on, widening and reworking take turns
    /// so that each gets about half the time (a round is then started only if it would take at
    /// most a third of the time left, unless reworking has given up): widening's gains come in
    /// lumps (a width that improves nothing may come before one that improves much),
    /// reworking's in small steps.
    /// Reworking alone once the beam cannot widen; widening alone once every game has failed
    /// [`PATIENCE`] tries in a row to be reworked. Stops when time is up, or when the beam
    /// cannot widen and reworking gives up ([`STALE_TRIES`]).
    fn alternate(
        &self,
        width: &mut usize,
        pace: &mut Pace,
        max_width: usize,
        budget: &Budget,
        report: &mut impl FnMut(Phase, usize, usize),
    ) {
        while !budget.is_spent() {
            // A round's time grows with its width and number of sets of weights.
            // Once widening has stalled, a round must leave room for reworking too.
            let cost = pace.unit * ROUND_GROWTH * (*width * self.variants(2 * *width)) as f64;
            let room = if pace.stalled && !self.stale(STALE_TRIES) { STALLED_ROOM } else { 1.0 };
            let can_widen = *width < max_width && budget.time_left().is_none_or(|t| t.as_secs_f64() > room * cost);
            let behind = pace.reworked < pace.widened && !self.stale(PATIENCE);
            if can_widen && !(pace.stalled && behind) {
                let started = Instant::now();
                *width *= 2;
                let improved = self.widen(*width, budget);
                report(Phase::Widen, *width, improved);
                let took = started.elapsed().as_secs_f64();
                pace.unit = took / (*width * self.variants(*width)) as f64;
                pace.widened += took;
                pace.stalled |= improved == 0;
                continue;
            }
            if !can_widen && self.stale(STALE_TRIES) {
                break; // reworking gave up, and the beam cannot widen
            }
            let slice = if can_widen { pace.widened - pace.reworked } else { pace.widened };
            let started = Instant::now();
            let improved = self.rework(&budget.within(Duration::from_secs_f64(slice.max(MIN_SLICE))));
            report(Phase::Rework, *width, improved);
            pace.reworked += started.elapsed().as_secs_f64();
        }
    }

    /// Lets reworking start over on every seed.
    fn unstale(&self) {
        for b in lock(&self.best).iter_mut() {
            b.stale = 0;
        }
    }

    /// Whether some seed's best game misses a phrase.
    fn missing(&self) -> bool {
        let phrases = &self.solver.settings.phrases;
        lock(&self.best).iter().any(|b| b.game().is_some_and(|g| !unused(g, phrases).is_empty()))
    }

    /// The sets of weights a round at `width` plans each seed with: every set at width 1,
    /// later as many of the seed's best as there are threads to spare.
    fn variants(&self, width: usize) -> usize {
        let kinds = self.solver.settings.portfolio.len();
        if width == 1 { kinds } else { (self.threads / self.solver.problem.source_seeds.len()).clamp(1, kinds) }
    }

    /// A round at `width` (see [`Search::variants`]; width 1 ranks the sets per seed);
    /// returns the seeds improved. Every seed gets a game, spelled plainly if time is up.
    fn widen(&self, width: usize, budget: &Budget) -> usize {
        self.widen_sets(width, self.variants(width), budget)
    }

    /// The first round: every seed planned at width 1 under every set of weights, and its best
    /// plan spelled. With a time limit, the first set plans every seed with the whole budget and
    /// the others get at most [`OTHER_SETS_SHARE`] of the time left after it: on a big problem
    /// planning every set may take most of a short budget, and the best plan must still be
    /// spelled (a spelling the deadline overtakes ends the game where it is).
    fn first_round(&self, budget: &Budget) -> usize {
        let kinds = self.solver.settings.portfolio.len();
        if budget.time_left().is_none() || kinds == 1 {
            return self.widen(1, budget);
        }
        let mut plans = self.plan_sets(1, 0..1, budget);
        let others = budget.time_left().map_or_else(|| budget.fork(), |t| budget.within(t.mul_f64(OTHER_SETS_SHARE)));
        for (mine, more) in plans.iter_mut().zip(self.plan_sets(1, 1..kinds, &others)) {
            mine.extend(more);
        }
        self.spell_round(1, plans, budget)
    }

    /// [`Search::widen`] with `variants` sets of weights per seed (the first ones at width 1).
    fn widen_sets(&self, width: usize, variants: usize, budget: &Budget) -> usize {
        let plans = self.plan_sets(width, 0..variants, budget);
        self.spell_round(width, plans, budget)
    }

    /// Each seed's plans at `width` under the sets of weights `sets` (at width 1 the portfolio's
    /// sets by number, later the seed's ranks), every seed under one set before any under the
    /// next, within `budget`.
    fn plan_sets(&self, width: usize, sets: Range<usize>, budget: &Budget) -> Vec<Vec<(usize, Plan)>> {
        let (solver, threads) = (self.solver, self.threads);
        let seeds = &solver.problem.source_seeds;
        // When spelling is cheap, the beam's runners-up are spelled too.
        let all = *lock(&self.spell_cost) * (seeds.len() * sets.len() * RUNNERS_UP) as f64 / threads as f64;
        let top = if budget.time_left().is_some_and(|t| all * 4.0 < t.as_secs_f64()) { RUNNERS_UP } else { 1 };
        let plans: Mutex<Vec<Vec<(usize, Plan)>>> = Mutex::new(vec![Vec::new(); seeds.len()]);
        // The first plans: every seed is planned, however late, each within its share of the
        // time left (one plan may not take the time of the seeds after it).
        let first = width == 1 && sets == (0..1);
        let whole = Budget::unlimited();
        split_work(
            seeds.len() * sets.len(),
            threads,
            if first { &whole } else { budget },
            || (),
            |_, job, b| {
                let (j, v) = (job % seeds.len(), sets.start + job / seeds.len());
                let k = if width == 1 { v } else { lock(&self.best)[j].ranked[v] };
                let found = if first {
                    solver.plans(seeds[j], k, width, top, &mut fair_share(budget, job, seeds.len(), threads))
                } else {
                    solver.plans(seeds[j], k, width, top, b)
                };
                lock(&plans)[j].extend(found.into_iter().map(|plan| (k, plan)));
                true
            },
        );
        plans.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// Spells each seed's best plan of a round at `width` (and its others, when spelling is
    /// cheap; see [`Search::spell_plans`]); at width 1, ranks the sets of weights per seed by
    /// their plans' promise (sets with no plan last). Returns the seeds improved.
    fn spell_round(&self, width: usize, plans: Vec<Vec<(usize, Plan)>>, budget: &Budget) -> usize {
        let (seeds, threads) = (plans.len(), self.threads);
        let kinds = self.solver.settings.portfolio.len();
        // Spelled in parallel over seeds; threads to spare beyond one a seed spell the units of
        // a game in parallel.
        let inner = (threads / seeds).max(1);
        let improved = AtomicUsize::new(0);
        split_work(
            seeds,
            threads,
            &Budget::unlimited(),
            || (),
            |_, j, _| {
                // At width 1 every seed must get a game: its phrases may take its share of the
                // time left, not the time of the seeds after it.
                let fair;
                let spelling = if width == 1 {
                    fair = fair_share(budget, j, seeds, threads);
                    &fair
                } else {
                    budget
                };
                let mut mine = plans[j].clone();
                mine.sort_by(|a, b| promise(&b.1).total_cmp(&promise(&a.1)));
                if width == 1 {
                    let ranked = &mut lock(&self.best)[j].ranked;
                    ranked.clear();
                    for k in mine.iter().map(|p| p.0).chain(0..kinds) {
                        if !ranked.contains(&k) {
                            ranked.push(k);
                        }
                    }
                }
                let n = self.spell_plans(j, &mine, (width, inner), budget, spelling);
                improved.fetch_add(n, Ordering::Relaxed);
                true
            },
        );
        improved.into_inner()
    }

    /// Spells seed `j`'s plans (best first): the first if it promises more than the seed's
    /// best, and when spelling is cheap (a few units) the others as well, since what phrases
    /// fit is known only once spelled. Phrases are spelled within `spelling`, plain paths on
    /// until `budget` runs out. Returns 1 if the seed improved.
    fn spell_plans(
        &self,
        j: usize,
        mine: &[(usize, Plan)],
        (width, inner): (usize, usize),
        budget: &Budget,
        spelling: &Budget,
    ) -> usize {
        let solver = self.solver;
        let seeds = &solver.problem.source_seeds;
        // Whether a runner-up was spelled, and whether one improved the game.
        let (mut cheap, mut improved, mut runners) = (false, 0, (false, false));
        for (v, (k, plan)) in mine.iter().enumerate() {
            {
                let b = &lock(&self.best)[j];
                let worth = v == 0 && promise(plan) > b.promise || cheap && !b.runners_failed;
                if b.grown.is_some() && (!worth || budget.is_spent()) {
                    break;
                }
            }
            let started = Instant::now();
            let grown = solver.grow(seeds[j], plan, (*k, width), (spelling, budget), inner);
            // Cheap: spelling every seed once more takes less than a twentieth of the time left.
            let once = started.elapsed().as_secs_f64();
            *lock(&self.spell_cost) = once;
            let again = once * seeds.len() as f64;
            cheap = budget.time_left().is_some_and(|t| again * CHEAP_SHARE < t.as_secs_f64());
            let b = &mut lock(&self.best)[j];
            b.promise = b.promise.max(promise(plan));
            let better = b.offer(grown);
            if v > 0 {
                runners = (true, runners.1 || better);
            }
            if better {
                improved = 1;
            }
        }
        if runners == (true, false) {
            lock(&self.best)[j].runners_failed = true;
        }
        improved
    }

    /// Reworks each seed's best game (see [`Solver::rework`]) until `budget` runs out or every
    /// seed's game has failed [`STALE_TRIES`] tries in a row; returns the games improved. Tries
    /// run in parallel, one a thread, each on its seed's best game when it starts; each draws
    /// from its own generator, seeded by the seed and the try's number.
    fn rework(&self, budget: &Budget) -> usize {
        let seeds = lock(&self.best).len();
        let improved = AtomicUsize::new(0);
        split_work(
            seeds * MAX_TRIES,
            self.threads,
            budget,
            || (),
            |_, job, b| {
                if self.stale(STALE_TRIES) {
                    return false;
                }
                let j = job % seeds;
                let (base, ranked) = {
                    let all = lock(&self.best);
                    if all[j].stale >= STALE_TRIES {
                        return true;
                    }
                    (all[j].grown.clone(), all[j].ranked.clone())
                };
                let n = self.tries.fetch_add(1, Ordering::Relaxed);
                let mut rng = Rng64::seed(base.as_ref().map_or(0, |g| u64::from(g.game.seed)) ^ n << 32);
                let t = base.as_ref().and_then(|g| Try::draw(g, &ranked, &mut rng));
                let grown = t.zip(base.as_ref()).and_then(|(t, g)| self.solver.rework(g, t, 1, b));
                let mut all = lock(&self.best);
                if grown.is_some_and(|g| all[j].offer(g)) {
                    improved.fetch_add(1, Ordering::Relaxed);
                } else if t.is_none() {
                    // A seed with no game, or one too short to cut, gives up at once.
                    all[j].stale = STALE_TRIES;
                } else {
                    all[j].stale += 1;
                }
                true
            },
        );
        improved.into_inner()
    }

    /// Grafts the phrases each seed's best game misses (see [`Solver::graft`]), the seeds in
    /// parallel, each with an equal share of the time left.
    fn graft(&self, budget: &Budget) {
        let (solver, threads) = (self.solver, self.threads);
        let seeds = lock(&self.best).len();
        // Threads to spare beyond one a seed go to each seed's runs.
        let inner = (threads / seeds.max(1)).max(1);
        split_work(
            seeds,
            threads,
            budget,
            || (),
            |_, j, _| {
                let Some(mut grown) = lock(&self.best)[j].grown.clone() else { return true };
                // An equal share of what is left for this seed and those still to come.
                let waves = (seeds - j).div_ceil(threads.max(1)) as u32;
                let slice = budget.time_left().map_or_else(|| budget.fork(), |t| budget.within(t / waves));
                let weights = &solver.settings.portfolio[grown.game.weights];
                for phrase in unused(&grown.game, &solver.settings.phrases) {
                    if let Some(better) = solver.graft(&grown, phrase, weights, GRAFT_WIDTH, inner, &slice) {
                        grown = better;
                    }
                }
                lock(&self.best)[j].offer(grown);
                true
            },
        );
    }
}

/// The phrases `game` does not spell, longest first.
fn unused(game: &Game, phrases: &Phrases) -> Vec<usize> {
    let counts = phrases.counts(&game.text);
    let mut out: Vec<usize> = (0..phrases.len()).filter(|&i| counts[i] == 0).collect();
    out.sort_by_key(|&i| std::cmp::Reverse(phrases.text(i).len()));
    out
}

/// The points a plan promises; a plan stopped before the end of its game promises nothing
/// beyond what it has.
fn promise(plan: &Plan) -> f64 {
    plan.move_score as f64 + plan.power
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
