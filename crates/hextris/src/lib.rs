//! hextris: the ICFP Programming Contest 2015 game, hexagonal Tetris with phrases of power.
//!
//! A built-in problem solved for one seed within a fifth of a second, and the solution scored
//! by the judge:
//!
//! ```
//! use std::time::Duration;
//!
//! use tessera_core::runtime::Budget;
//! use tessera_hextris::solver::{Settings, solve};
//! use tessera_hextris::{Phrases, builtin, judge};
//!
//! let mut problem = builtin::problem(6).expect("problems 0 to 24 are built in");
//! problem.source_seeds.truncate(1); // its first seed only
//! let budget = Budget::unlimited().with_time(Duration::from_millis(200));
//! let games = solve(&problem, &Settings::default(), &budget, 1, |_| {})?;
//! let card = judge::score(&problem, games[0].seed, &games[0].text, &Phrases::official());
//! assert!(card.error.is_none() && card.score > 0);
//! assert_eq!(card, games[0].scorecard, "the solver reports the judge's scorecard");
//! # Ok::<(), tessera_hextris::engine::EngineError>(())
//! ```
//!
//! * [`problem`], [`command`], [`phrase`]: the contest's problems, commands and phrases;
//! * [`judge`]: the reference rules and scorer, a literal reading of the rules that reproduces
//!   the organisers' evaluator (it shares no code with the solver's engine);
//! * [`engine`]: the solver's fast engine (row masks, turn tables, reachability by rows);
//! * [`solver`]: beam search over lock positions, phrases spelled on the way down;
//! * [`builtin`]: the 25 qualifying problems, built in;
//! * [`gen`](mod@gen): new problems in the contest's format from a seed, contest-like or small;
//! * [`format`](mod@format): the JSON it reads and writes (submissions, reports), typed;
//! * [`eval`]: problems solved within a time each, against the contest's best final scores;
//! * [`play`]: a problem played by hand, a line of commands at a time;
//! * [`demo`]: the demonstration instances of the tour and the viewer.

pub mod builtin;
pub mod command;
pub mod demo;
pub mod engine;
pub mod eval;
pub mod face;
pub mod format;
// `gen` is a reserved word from the 2024 edition on: the module is `r#gen`.
pub mod r#gen;
pub mod judge;
pub mod phrase;
pub mod play;
pub mod problem;
pub mod solver;

pub use command::Command;
pub use face::HextrisGame;
pub use phrase::Phrases;
pub use problem::{Cell, Problem};

use tessera_game::tour::Demo;

/// The hextris entries of `tessera tour`: the instances of [`demo::ALL`], each solved in 1.5 s
/// and checked by the judge.
pub fn tour(threads: usize) -> Vec<Demo> {
    demo::ALL.into_iter().map(|d| d.tour(threads)).collect()
}
