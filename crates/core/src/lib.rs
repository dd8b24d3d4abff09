//! The shared core of tessera: what every search uses. It knows no game and prints nothing
//! (progress and results are the callers' to show).
//!
//!
//! * [`geometry`]: the square, hex, triangle and cube lattices, their symmetries, polyforms, orientations
//!   and placements;
//! * [`runtime`]: stop conditions ([`runtime::Budget`]), search verdicts, parallel workers;
//! * [`rng`]: a fast seeded random number generator;
//! * [`hash`]: a fast hasher for maps keyed by words;
//! * [`stats`]: summaries and Wilson intervals;
//! * [`shard`]: work split across processes or machines;
//! * [`testing`]: a helper for the games' tests of their JSON formats.
//!
//! A search polls a [`runtime::Budget`] and says what it concluded with a [`runtime::Verdict`];
//! [`runtime::portfolio`] races seeded workers and stops the rest when one succeeds:
//!
//! ```
//! use std::time::Duration;
//!
//! use tessera_core::rng::{Rng64, derive_seed};
//! use tessera_core::runtime::{Budget, portfolio};
//!
//! // Two workers draw random numbers until one finds a multiple of 1000, within a second.
//! let budget = Budget::unlimited().with_time(Duration::from_secs(1));
//! let found = portfolio(2, &budget, |worker, b| {
//!     let mut rng = Rng64::seed(derive_seed(42, worker as u64));
//!     while !b.expired() {
//!         let x = rng.below(1_000_000);
//!         if x % 1000 == 0 {
//!             return Some(x);
//!         }
//!     }
//!     None
//! });
//! assert!(found.is_some_and(|x| x % 1000 == 0));
//! ```

pub mod geometry;
pub mod hash;
pub mod rng;
pub mod runtime;
pub mod shard;
pub mod stats;
pub mod testing;
