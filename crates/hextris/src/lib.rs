//! hextris: the ICFP Programming Contest 2015 game, hexagonal Tetris with phrases of power.
//!
//! * [`problem`], [`command`], [`phrase`]: the contest's problems, commands and phrases;
//! * [`judge`]: the reference rules and scorer, a literal reading of the rules that reproduces
//!   the organisers' evaluator (it shares no code with the solver's engine);
//! * [`engine`]: the solver's fast engine (row masks, turn tables, reachability by rows);
//! * [`solver`]: beam search over lock positions, phrases spelled on the way down;
//! * [`builtin`]: the 25 qualifying problems, built in.

pub mod builtin;
pub mod command;
pub mod engine;
pub mod judge;
pub mod phrase;
pub mod problem;
pub mod solver;

pub use command::Command;
pub use phrase::Phrases;
pub use problem::{Cell, Problem};

use tessera_core::tour::Demo;

/// The hextris entries of `tessera tour`.
pub fn tour(_threads: usize) -> Vec<Demo> {
    Vec::new()
}
