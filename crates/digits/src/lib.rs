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
//! * [`format`](mod@format): what the commands write as JSON; [`demo`]: the demonstrations.
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
pub mod demo;
pub mod eval;
pub mod exact;
pub mod expected;
pub mod face;
pub mod format;
mod par;
pub mod params;
pub mod process;
pub mod protocol;
pub mod state;
pub mod strategy;

pub use demo::tour;
pub use face::DigitsGame;
pub use params::{Params, TestSet};
pub use state::{State, Towers};
pub use strategy::{Strategy, StrategyName};
