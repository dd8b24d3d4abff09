//! The shared core of tessera.
//!
//! Everything here is used by more than one search in the workspace:
//!
//! * [`bits`]: cell sets as bit masks ([`bits::Bitboard`] for up to 64 cells, [`bits::WideBits`]
//!   beyond, [`bits::RowSet`] for row-wise grids), with pictures in `Debug`;
//! * [`geometry`]: the square and hexagonal lattices, their symmetries, polyforms, orientations
//!   and placements;
//! * [`exact_cover`]: a generic exact-cover solver with multiplicities (dancing links);
//! * [`runtime`]: stop conditions ([`runtime::Budget`]), search verdicts, parallel workers;
//! * [`rng`]: a fast seeded random number generator;
//! * [`stats`] and [`eval`]: summaries, Wilson intervals, and sharded parallel evaluation runs;
//! * [`tiler`]: exact tiling of a board by polyform pieces (the fast engine and its fallback);
//! * [`svg`]: pictures of labelled boards;
//! * [`tour`]: the shape of a game's entry in `tessera tour`.

pub mod bits;
pub mod eval;
pub mod exact_cover;
pub mod geometry;
pub mod rng;
pub mod runtime;
pub mod stats;
pub mod svg;
pub mod tiler;
pub mod tour;
