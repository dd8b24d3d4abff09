//! totems: the Coveo Blitz 2022 inscription challenge. Pack a bag of tetrominoes ("totems") into
//! a near-square box; score `(10 n - a b) a / b`, one second per level.
//!
//! * [`shapes`], [`bag`], [`answer`]: the pieces in the game's axes, bags, answers, scores and the
//!   boxes worth trying;
//! * [`validate`]: the judge's check, independent of the solvers;
//! * [`solve`]: the solvers (exact, strips, greedy, rectangles) and the hybrid that combines
//!   them box by box;
//! * [`game`]: levels and rounds; [`net`]: the game's protocol, a local server and the bot;
//! * [`eval`]: evaluation runs; [`format`](mod@format): what the commands write as JSON;
//! * [`demo`]: the demonstrations of `tessera tour` and the viewer.
//!
//! Pack a bag within a time budget and check the answer as the game's judge would:
//!
//! ```
//! use std::time::Duration;
//!
//! use tessera_core::runtime::Budget;
//! use tessera_totems::solve::{Ctx, Solver, hybrid};
//! use tessera_totems::{Bag, PieceSet, validate::validate};
//!
//! let bag = Bag::from_letters(PieceSet::Tetrominoes, "IIJJLLOOSSTTZZ")?;
//! let budget = Budget::unlimited().with_time(Duration::from_millis(500));
//! let solved = hybrid::solve(&bag, Solver::Hybrid, &Ctx { threads: 1, seed: 1, budget: &budget });
//! validate(&bag, &solved.answer)?;
//! let (w, h) = solved.answer.bbox();
//! println!("{w}x{h}, score {} (best possible {})", solved.score, solved.best_score);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod answer;
pub mod bag;
pub mod demo;
pub mod eval;
pub mod face;
pub mod format;
pub mod game;
pub mod net;
pub mod shapes;
pub mod solve;
pub mod validate;

pub use answer::{Answer, Placed};
pub use bag::Bag;
pub use demo::tour;
pub use face::TotemsGame;
pub use shapes::PieceSet;
