//! The solver: where each unit locks (a beam search over the known source), then the text that
//! takes each unit there while spelling phrases of power, then the judge's score of the result.
//!
//! [`solve`] is anytime: it plays every seed with a beam of width 1, then 2, 4, ... while the
//! time lasts, keeping each seed's best game as the judge scores it.

pub mod beam;
pub mod features;
pub mod power;

use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use tessera_core::runtime::{Budget, split_work};

use crate::engine::{EngineError, Rules, State};
use crate::judge::{Verdict, score};
use crate::phrase::Phrases;
use crate::problem::Problem;
pub use features::Weights;
use power::Speller;

/// How to solve.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The position evaluation.
    pub weights: Weights,
    /// The phrases of power to spell.
    pub phrases: Phrases,
    /// The widest beam to try.
    pub max_width: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { weights: Weights::tuned(), phrases: Phrases::official(), max_width: 1 << 16 }
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
    /// Whether the search was stopped before the end of the game (the text then stops early).
    pub partial: bool,
}

/// Plays one game with a beam of `width`: plan the locks, spell the way to each, judge the text.
/// A search stopped by `budget` gives the game as far as it got. Error-free by construction; if
/// the judge finds an error all the same, the text is cut before it.
pub fn play(
    problem: &Problem,
    rules: &Rules,
    seed: u32,
    settings: &Settings,
    width: usize,
    budget: &mut Budget,
) -> Game {
    let source = problem.source(seed);
    let start = State::new(problem);
    let plan = beam::plan(rules, &start, &source, &settings.weights, width, budget);
    let mut speller = Speller::new(&settings.phrases);
    let mut used = vec![false; settings.phrases.len()];
    let mut state = start;
    let mut text = Vec::new();
    for (k, &p) in plan.locks.iter().enumerate() {
        let unit = &rules.units[source[k]];
        let t = speller.spell(rules, &state.board, unit, p, &used);
        text.extend_from_slice(&t);
        let counts = settings.phrases.counts(std::str::from_utf8(&t).unwrap_or(""));
        for (u, c) in used.iter_mut().zip(counts) {
            *u |= c > 0;
        }
        state.lock(rules, source[k], p);
    }
    let mut text = String::from_utf8(text).expect("commands are ASCII");
    let mut verdict = score(problem, seed, &text, &settings.phrases);
    if verdict.error.is_some() {
        text.truncate(verdict.commands);
        verdict = score(problem, seed, &text, &settings.phrases);
    }
    Game { seed, text, verdict, width, partial: plan.stopped }
}

/// What [`solve`] reports as it goes.
#[derive(Clone, Debug)]
pub struct Round {
    /// Beam width of the round.
    pub width: usize,
    /// Seeds improved in this round.
    pub improved: usize,
    /// The problem's score (floor of the mean over seeds) after the round.
    pub score: u64,
    /// Time since the start.
    pub seconds: f64,
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
    let rules = Rules::new(problem)?;
    let seeds = &problem.source_seeds;
    let best: Mutex<Vec<Option<Game>>> = Mutex::new(vec![None; seeds.len()]);
    let started = Instant::now();
    let mut width = 1;
    loop {
        let improved = Mutex::new(0);
        split_work(
            seeds.len(),
            threads,
            budget,
            || (),
            |_, j, b| {
                let game = play(problem, &rules, seeds[j], settings, width, b);
                let mut best = best.lock().unwrap_or_else(|e| e.into_inner());
                if best[j].as_ref().is_none_or(|g| game.verdict.score > g.verdict.score) {
                    best[j] = Some(game);
                    *improved.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                }
                true
            },
        );
        let games = best.lock().unwrap_or_else(|e| e.into_inner());
        let total: u64 = games.iter().map(|g| g.as_ref().map_or(0, |g| g.verdict.score)).sum();
        on_round(&Round {
            width,
            improved: improved.into_inner().unwrap_or(0),
            score: total / seeds.len() as u64,
            seconds: started.elapsed().as_secs_f64(),
        });
        drop(games);
        if budget.clone().expired() || width >= settings.max_width {
            break;
        }
        width *= 2;
    }
    let games = best.into_inner().unwrap_or_else(|e| e.into_inner());
    // A seed never reached (no time at all) gets the empty text, which scores 0 and is valid.
    Ok(games
        .into_iter()
        .zip(seeds)
        .map(|(g, &seed)| {
            g.unwrap_or_else(|| {
                let verdict = score(problem, seed, "", &settings.phrases);
                Game { seed, text: String::new(), verdict, width: 0, partial: true }
            })
        })
        .collect())
}

/// The leaderboard score of a problem: the floor of the mean of its seeds' scores.
pub fn problem_score(games: &[Game]) -> u64 {
    if games.is_empty() { 0 } else { games.iter().map(|g| g.verdict.score).sum::<u64>() / games.len() as u64 }
}
