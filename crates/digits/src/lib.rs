//! digits: Code Jam 2021 Round 1B "Digit Blocks": online stochastic placement of digits on towers.
//!
//! N towers hold B blocks each; N x B blocks arrive one at a time, each with a uniform random digit,
//! and each must be put on a tower that is not full before the next is shown. A block at height
//! `h` is worth `d 10^h`. The official game: 20 towers of 15, 50 games, and the total must reach
//! 98% of 50 times the optimal expected score S.
//!
//! * [`params`], [`state`]: sizes, test sets, the state as tower heights, tower numbers;
//! * [`count`], [`exact`]: the exact optimum S over the full state space, layer by layer;
//! * [`strategy`]: greedy, top-R dynamic programming, the optimal policy where it fits;
//! * [`expected`]: the exact expected score of any strategy (no simulation);
//! * [`protocol`], [`process`]: the interactive protocol (player and judge), judging a program;
//! * [`eval`]: simulated games and the odds of passing each test set;
//! * [`format`](mod@format): what the commands write as JSON.
//!
//! Play a game with a strategy, then value the strategy exactly against the optimum S:
//!
//! ```
//! use tessera_core::rng::Rng64;
//! use tessera_core::runtime::Budget;
//! use tessera_digits::{Params, StrategyName, eval::play_game, exact, expected::expected_score};
//!
//! let params = Params { n: 4, b: 3 };
//! let strategy = StrategyName::Best.build(params)?;
//! let score = play_game(strategy.as_ref(), params, &mut Rng64::seed(1))?;
//! let value = expected_score(strategy.as_ref(), params, 1, &Budget::unlimited())?;
//! let optimum = exact::optimum(params, 1, &Budget::unlimited(), &mut |_, _| {})?;
//! assert!(value.value <= optimum.value + 1e-6);
//! println!("one game: {score}; expected {:.1} of S = {:.1}", value.value, optimum.value);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod count;
pub mod eval;
pub mod exact;
pub mod expected;
pub mod format;
mod par;
pub mod params;
pub mod process;
pub mod protocol;
pub mod state;
pub mod strategy;

pub use params::{Params, TestSet};
pub use state::{State, Towers};
pub use strategy::{Strategy, StrategyName};

use std::time::Instant;

use tessera_core::runtime::Budget;
use tessera_core::tour::Demo;

/// The digits entries of `tessera tour`: a judged run of test set 2 with the `best` strategy
/// (player and judge on two threads, over pipes), and the exact S of a mid-size game computed two
/// independent ways (layer by layer, and as the value of the optimal policy's table).
pub fn tour(threads: usize) -> Vec<Demo> {
    let mut demos = Vec::new();
    let start = Instant::now();
    if let Ok((judged, played)) = protocol::judge_in_process(TestSet::SET2, 0, StrategyName::Best) {
        let agreed = played.as_ref().is_ok_and(|p| p.total == judged.total && p.passed == Some(judged.passed));
        let ratio = judged.total as f64 / TestSet::SET2.p as f64;
        let verdict = if judged.passed { "passed" } else { "failed" };
        demos.push(Demo {
            game: "digits",
            instance: "set 2 (50 games)".into(),
            result: format!("{verdict}, total {ratio:.4} P ({})", StrategyName::Best.resolve(Params::OFFICIAL)),
            seconds: start.elapsed().as_secs_f64(),
            ok: judged.passed && agreed,
        });
    }
    let start = Instant::now();
    let params = Params { n: 14, b: 10 };
    let layered = exact::optimum(params, threads, &Budget::unlimited(), &mut |_, _| {});
    let table = StrategyName::Optimal.build(params).ok().and_then(|s| s.exact_value());
    if let (Ok(o), Some(v)) = (layered, table) {
        demos.push(Demo {
            game: "digits",
            instance: format!("S, N={} B={}", params.n, params.b),
            result: format!("{:.2} ({} states)", o.value, o.states),
            seconds: start.elapsed().as_secs_f64(),
            ok: (o.value - v).abs() <= 1e-12 * v,
        });
    }
    demos
}

/// Test helpers shared by the modules.
#[cfg(test)]
pub(crate) mod testing {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    /// Reads a JSON document as `T`, and checks that `T` writes it out as read (the same fields,
    /// the same values: floats compare as JSON reads them).
    pub(crate) fn reads_back<T: Serialize + DeserializeOwned>(json: &str) -> T {
        let read: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        let written = serde_json::to_value(&read).unwrap();
        assert_eq!(written, serde_json::from_str::<serde_json::Value>(json).unwrap(), "{json}");
        read
    }
}
