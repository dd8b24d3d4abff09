//! pairs: TopCoder Marathon Match 100 "SameColorPairs": remove same-coloured pairs whose bounding box holds no other colour.
//!
//! * [`board`], [`generator`]: boards, and the official tester's generator, bit-exact;
//! * [`moves`], [`judge`]: the tester's output format and an independent validator and scorer;
//! * [`state`], [`solver`]: the solver's bit-mask board and the search.

pub mod board;
pub mod generator;
pub mod judge;
pub mod moves;
pub mod solver;
pub mod state;

pub use board::{Board, Cell};
pub use moves::Move;

use tessera_core::tour::Demo;

/// The pairs entries of `tessera tour`.
pub fn tour(_threads: usize) -> Vec<Demo> {
    Vec::new()
}
