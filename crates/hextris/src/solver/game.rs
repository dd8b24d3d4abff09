//! A solved game ([`Game`]), the same game with what changing it needs ([`Grown`]), and a
//! problem's score over its games.

use std::collections::BTreeMap;

use serde::Serialize;

use super::beam::Plan;
use super::bridge::Carry;
use crate::judge::Scorecard;

/// One game solved: the text and the judge's scorecard of it.
#[derive(Clone, Debug, Serialize)]
pub struct Game {
    /// The seed.
    pub seed: u32,
    /// The commands, as submitted.
    pub text: String,
    /// The judge's scorecard.
    pub scorecard: Scorecard,
    /// The beam width that found it.
    pub width: usize,
    /// Which set of weights of the portfolio.
    pub weights: usize,
    /// Whether the game stops before its end: its plan or its spelling was cut short by the
    /// time limit.
    pub partial: bool,
}

/// Whether a game spelled from `plan` stops before the game's end (see [`Game::partial`]).
pub(super) fn cut_short(plan: &Plan, scorecard: &Scorecard) -> bool {
    plan.stopped || scorecard.locked < plan.locks.len()
}

/// A game as reworking and grafting see it: the judged game, its plan, and the units whose
/// start is given (the runs of phrases grafted so far).
#[derive(Clone, Debug)]
pub struct Grown {
    /// The game.
    pub game: Game,
    /// Where its units lock.
    pub plan: Plan,
    /// The units whose start is given, by index.
    pub(crate) fixed: BTreeMap<usize, Carry>,
    /// Where each unit's text ends in the game's text (empty if unknown).
    pub ends: Vec<usize>,
    /// From this unit on, each unit's text depends on its own board alone (see
    /// [`Solver::rework`](crate::solver::Solver::rework)).
    pub free_from: usize,
}

/// The leaderboard score of a problem: the floor of the mean of its seeds' scores.
#[must_use]
pub fn problem_score(games: &[Game]) -> u64 {
    if games.is_empty() { 0 } else { games.iter().map(|g| g.scorecard.score).sum::<u64>() / games.len() as u64 }
}
