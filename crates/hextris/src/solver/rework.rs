//! Reworking a finished game: the same game up to some unit, planned again from there.
//!
//! Where a beam search ends up is chaotic: two plans that promise about the same spell
//! different scores, and the last units of a game differ most. So once the beam has been
//! widened for a while, a seed's best game is cut at a random unit and the rest is planned
//! again (with another width, or another set of weights), then spelled; the judge keeps
//! whichever game scores more, and the next cut starts from that one:
//!
//! ```text
//!   best game:   u0 u1 ... u(k-1) | uk  ... un     (its texts kept up to the cut)
//!   reworked:    u0 u1 ... u(k-1) | uk' ... un'    (planned again, only these spelled)
//! ```
//!
//! Once every phrase has been used and nothing runs across a lock, a unit's text depends on its
//! own board alone, so the texts before a cut past that point are kept as they are and only the
//! new units are spelled. Every try is a complete game judged from its first command.

use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;

use super::beam::{self, Plan};
use super::game::{Game, Grown};
use super::setup::Solver;
use super::spell::Spelled;
use crate::engine::{Pos, State};

/// A try's plan is spelled only if it promises at least this share of what the game it would
/// replace promised from the same cut (spelling costs most of a try).
const PROMISE_SHARE: f64 = 0.99;

/// Beam widths a try draws from: twice the width that found the game, halved this many times.
const HALVINGS: u64 = 3;

/// The spread of a try's weights around the game's: about 15% (see
/// [`super::features::Weights::jittered`]).
const JITTER: f64 = 0.15;

/// Of the seed's sets of weights, the best this many are drawn from besides the game's own.
const OTHER_SETS: usize = 3;

/// One try: where to cut, and how to plan the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Try {
    /// The first unit planned again.
    pub cut: usize,
    /// The beam's width.
    pub width: usize,
    /// Which set of weights of the portfolio.
    pub weights: usize,
    /// Seeds the jitter of the weights.
    pub jitter: u64,
}

impl Try {
    /// A random try on `base` (`None` if it has fewer than two units): a cut after the first
    /// unit; twice the width that found `base`, that width or half of it; the weights of
    /// `base` three times in four, otherwise one of the seed's best `OTHER_SETS` (`ranked`,
    /// best first), jittered. The beam is deterministic: without the jitter a try at the
    /// width that planned a game would often plan the same game again.
    pub(crate) fn draw(base: &Grown, ranked: &[usize], rng: &mut Rng64) -> Option<Try> {
        let n = base.plan.locks.len();
        if n < 2 {
            return None;
        }
        let cut = 1 + rng.below(n as u64 - 1) as usize;
        let width = ((2 * base.game.width) >> rng.below(HALVINGS)).max(1);
        let others: Vec<usize> = ranked.iter().copied().filter(|&k| k != base.game.weights).take(OTHER_SETS).collect();
        let weights = match rng.below(4) {
            0 if !others.is_empty() => others[rng.below(others.len() as u64) as usize],
            _ => base.game.weights,
        };
        Some(Try { cut, width, weights, jitter: rng.next_u64() })
    }
}

impl Solver<'_> {
    /// The phrase points unit `u` is expected to spell on its way to `at`.
    fn power_of(&self, u: usize, at: Pos) -> f64 {
        self.rates[u] * (at.y - self.rules.units[u].spawn.y) as f64
    }

    /// `base` planned again from unit `t.cut` on, with the try's weights (jittered) and width,
    /// spelled on `threads` threads: the judged game, if the plan promises about as much as what
    /// it replaces and the budget lasts. The runs grafted from the cut on are dropped. Past
    /// `base.free_from` only the new units are spelled, before it the whole game.
    pub fn rework(&self, base: &Grown, t: Try, threads: usize, budget: &mut Budget) -> Option<Grown> {
        let weights = self.settings.portfolio[t.weights].jittered(JITTER, &mut Rng64::seed(t.jitter));
        let seed = base.game.seed;
        let source = self.problem.source(seed);
        let locks = &base.plan.locks;
        let (mut state, mut before) = (State::new(self.problem), 0.0);
        for (k, &at) in locks[..t.cut].iter().enumerate() {
            before += self.power_of(source[k], at);
            state.lock(&self.rules, source[k], at);
        }
        let rest = beam::plan(&self.rules, &self.rates, &state, &source, &weights, t.width, budget);
        if rest.stopped || rest.locks.is_empty() {
            return None;
        }
        // What the replaced units promised: their moves' points and their rows' phrase points.
        let (mut after, mut power) = (state.clone(), 0.0);
        for (k, &at) in locks.iter().enumerate().skip(t.cut) {
            power += self.power_of(source[k], at);
            after.lock(&self.rules, source[k], at);
        }
        let was = (after.move_score - state.move_score) as f64 + power;
        let ratio = ((rest.move_score - state.move_score) as f64 + rest.power) / was;
        if ratio < PROMISE_SHARE {
            return None;
        }
        let mut fixed = base.fixed.clone();
        fixed.retain(|&k, _| k < t.cut);
        let locks = locks[..t.cut].iter().chain(&rest.locks).copied().collect();
        let plan = Plan { locks, power: before + rest.power, ..rest };
        let s = if t.cut >= base.free_from && base.ends.len() == base.plan.locks.len() {
            // The texts before the cut stay as they are.
            let kept = base.ends[t.cut - 1];
            let mut text = base.game.text.as_bytes()[..kept].to_vec();
            let mut ends = base.ends[..t.cut].to_vec();
            for unit in self.spell_rest(&source, &plan.locks[t.cut..], &fixed, state, (budget, budget), threads) {
                text.extend(unit);
                ends.push(text.len());
            }
            Spelled::judged(self.problem, seed, text, ends, base.free_from, &self.settings.phrases)
        } else {
            self.spell_fixed(seed, &plan, &fixed, budget, threads)
        };
        if budget.expired() {
            return None;
        }
        let whole = s.scorecard.error.is_none() && s.scorecard.locked == plan.locks.len();
        whole.then(|| Grown {
            // The width stays that of the widening round that found the first game.
            game: Game {
                text: s.text,
                scorecard: s.scorecard,
                weights: t.weights,
                partial: false,
                ..base.game.clone()
            },
            plan,
            fixed,
            ends: s.ends,
            free_from: s.free_from,
        })
    }
}
