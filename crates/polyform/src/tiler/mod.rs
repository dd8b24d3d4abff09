//! Exact tiling: cover a board exactly with copies of pieces, on any of the four lattices.
//!
//! A [`Problem`] is a board (any shape, holes allowed) and piece types (each with a count, turned
//! over or not). A [`Tiler`] counts its tilings (all of them, and up to the board's symmetries),
//! lists them, or finds one, under a [`tessera_core::runtime::Budget`] and on several threads. Two
//! engines: a fast bit-mask search (fill the first free cell, prune regions that no set of pieces
//! fits, remember dead states, break the board's symmetry on one piece) and generic dancing links
//! ([`crate::exact_cover`]), kept as the fallback for huge boards and as the cross-check in tests.
//!
//! A count too long for one machine splits into shards that add up ([`Tiler::count_shard`]).
//!
//! Packing with room to spare is exact tiling too: add single-cell "hole" pieces for the spare
//! cells.

mod dlx;
mod engine;
mod fast;
mod fit;
mod fixed;
mod memo;
mod mrv;
mod pairs;
pub mod plan;
pub mod problem;
mod progress;
mod search;
mod shard;
mod slots;
mod solver;

pub use problem::{PieceSpec, Problem};
pub use progress::CountProgress;
pub use shard::ShardCounts;
pub use solver::{Counts, EngineKind, MAX_SHARDS, Solution, Tiler, TilingError};
