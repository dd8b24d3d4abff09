//! digits: Code Jam 2021 Round 1B "Digit Blocks": online stochastic placement of digits on towers.

pub mod count;
pub mod eval;
pub mod exact;
pub mod expected;
mod par;
pub mod params;
pub mod process;
pub mod protocol;
pub mod state;
pub mod strategy;

pub use params::{Params, TestSet};
pub use state::{State, Towers};
pub use strategy::{Strategy, StrategyName};

use tessera_core::tour::Demo;

/// The digits entries of `tessera tour`.
pub fn tour(_threads: usize) -> Vec<Demo> {
    Vec::new()
}
