//! hextris: the ICFP Programming Contest 2015 game, hexagonal Tetris with phrases of power.
//!
//! * [`problem`], [`command`], [`phrase`]: the contest's problems, commands and phrases;
//! * [`judge`]: the reference rules and scorer, a literal reading of the rules that reproduces
//!   the organisers' evaluator (it shares no code with the solver's engine);
//! * [`engine`]: the solver's fast engine (row masks, turn tables, reachability by rows);
//! * [`solver`]: beam search over lock positions, phrases spelled on the way down;
//! * [`builtin`]: the 25 qualifying problems, built in;
//! * [`format`](mod@format): the JSON it reads and writes (submissions, reports), typed;
//! * [`eval`]: problems solved within a time each, against the contest's best final scores.

pub mod builtin;
pub mod command;
pub mod demo;
pub mod engine;
pub mod eval;
pub mod format;
pub mod judge;
pub mod phrase;
pub mod play;
pub mod problem;
pub mod solver;

pub use command::Command;
pub use phrase::Phrases;
pub use problem::{Cell, Problem};

use tessera_core::tour::Demo;

/// The hextris entries of `tessera tour`: the instances of [`demo::ALL`], each solved in 1.5 s
/// and checked by the judge.
pub fn tour(threads: usize) -> Vec<Demo> {
    demo::ALL.into_iter().map(|d| d.tour(threads)).collect()
}
