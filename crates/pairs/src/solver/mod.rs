//! The solver: an anytime search that stops as soon as the board is clear.
//!
//! * [`greedy`]: a randomised greedy that cannot be extended;
//! * [`search`]: iterated greedy from prefixes of a pool of elite solutions.

pub mod greedy;
pub mod local;
pub mod region;
pub mod ruin;
pub mod search;

pub use search::{Params, Solution, solve};
