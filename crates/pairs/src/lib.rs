//! pairs: TopCoder Marathon Match 100 "SameColorPairs": remove same-coloured pairs whose bounding box holds no other colour.
//!
//! * [`board`], [`generator`]: boards, and the official tester's generator, bit-exact;
//! * [`moves`], [`judge`]: the tester's output format and an independent validator and scorer;
//! * [`state`], [`solver`]: the solver's bit-mask board and the search;
//! * [`eval`]: evaluation over the official seeds; [`format`](mod@format): what the commands write
//!   as JSON; [`demo`]: the demonstrations of `tessera tour` and the viewer.
//!
//! Make the tester's board for a seed, clear it within a budget, and score the moves with the
//! independent judge:
//!
//! ```
//! use std::time::Duration;
//!
//! use tessera_core::rng::Rng64;
//! use tessera_core::runtime::Budget;
//! use tessera_pairs::{generator::generate, judge, solver};
//!
//! let board = generate(2); // 30 x 30, 4 colours
//! let mut budget = Budget::unlimited().with_time(Duration::from_secs(2));
//! let solution = solver::solve(&board, &solver::Params::default(), &mut budget, &mut Rng64::seed(1));
//! let score = judge::score(&board, &solution.moves);
//! assert!(score.invalid.is_none());
//! println!("{} moves, {} tiles left, score {:.4}", solution.moves.len(), solution.left, score.score);
//! ```

pub mod board;
pub mod demo;
pub mod eval;
pub mod face;
pub mod format;
pub mod generator;
pub mod judge;
pub mod moves;
pub mod solver;
pub mod state;

pub use board::{Board, Cell};
pub use demo::tour;
pub use face::PairsGame;
pub use moves::Move;
