//! The demonstrations, defined once: the run that `tessera tour` judges and whose first game the
//! viewer replays, and the size whose S the tour computes.

use std::time::Instant;

use tessera_core::runtime::Budget;
use tessera_game::tour::Demo;

use crate::exact::optimum;
use crate::params::{Params, TestSet};
use crate::protocol::{Dealer, judge_in_process};
use crate::state::{State, Towers};
use crate::strategy::{StrategyError, StrategyName};

/// The judged run's test set: set 2, 50 games of the official size.
pub const SET: TestSet = TestSet::SET2;

/// The judge's seed of the run.
pub const SEED: u64 = 0;

/// The strategy that plays the run.
pub const STRATEGY: StrategyName = StrategyName::Best;

/// The size whose S the tour computes two independent ways (a mid-size game: a second or so).
pub const VALUE_SIZE: Params = Params { n: 14, b: 10 };

/// One block of a game, as played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The digit dealt.
    pub digit: u8,
    /// The height it went to.
    pub height: u32,
    /// The tower it went on (0-based), as the player names towers.
    pub tower: u32,
}

/// The run's first game: the digits the judge deals first, placed by [`STRATEGY`] as the player
/// places them.
pub fn first_game() -> Result<Vec<Block>, StrategyError> {
    let params = SET.params;
    let strategy = STRATEGY.fit(params).build(params)?;
    let mut dealer = Dealer::new(SEED);
    let (mut state, mut towers) = (State::new(params), Towers::new(params));
    let mut blocks = Vec::new();
    for _ in 0..params.blocks() {
        let digit = dealer.deal();
        let height = strategy.choose(&state, digit);
        let (Ok(()), Some(tower)) = (state.place(height), towers.take(height)) else { break };
        blocks.push(Block { digit, height, tower });
    }
    Ok(blocks)
}

/// The digits entries of `tessera tour`: the judged run (player and judge on two threads, over
/// pipes), and the exact S of [`VALUE_SIZE`] computed two independent ways (layer by layer, and
/// as the value of the optimal policy's table).
#[must_use]
pub fn tour(threads: usize) -> Vec<Demo> {
    [judged_run(), value(threads)].into_iter().flatten().collect()
}

fn judged_run() -> Option<Demo> {
    let start = Instant::now();
    let (judged, played) = judge_in_process(SET, SEED, STRATEGY).ok()?;
    let agreed = played.as_ref().is_ok_and(|p| p.total == judged.total && p.passed == Some(judged.passed));
    let ratio = judged.total as f64 / SET.p as f64;
    let verdict = if judged.passed { "passed" } else { "failed" };
    Some(Demo {
        game: "digits",
        instance: format!("set 2 ({} games)", SET.t),
        result: format!("{verdict}, total {ratio:.4} P ({})", STRATEGY.resolve(SET.params)),
        seconds: start.elapsed().as_secs_f64(),
        ok: judged.passed && agreed,
    })
}

fn value(threads: usize) -> Option<Demo> {
    let start = Instant::now();
    let params = VALUE_SIZE;
    let layered = optimum(params, threads, &Budget::unlimited(), &mut |_, _| {}).ok()?;
    let table = StrategyName::Optimal.build(params).ok().and_then(|s| s.exact_value())?;
    Some(Demo {
        game: "digits",
        instance: format!("S, N={} B={}", params.n, params.b),
        result: format!("{:.2} ({} states)", layered.value, layered.states),
        seconds: start.elapsed().as_secs_f64(),
        ok: (layered.value - table).abs() <= 1e-12 * table,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::POW10;

    #[test]
    fn the_first_game_is_the_judged_runs_first() {
        let game = first_game().unwrap();
        assert_eq!(game.len() as u64, SET.params.blocks());
        let score: u64 = game.iter().map(|b| u64::from(b.digit) * POW10[b.height as usize]).sum();
        let (judged, _) = judge_in_process(SET.with_games(1).unwrap(), SEED, STRATEGY).unwrap();
        assert_eq!(judged.scores, [score]);
    }
}
