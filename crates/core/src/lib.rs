//! The shared core of tessera.
//!
//! Everything here is used by more than one search in the workspace:
//!
//! * [`geometry`]: the square and hexagonal lattices, their symmetries, polyforms, orientations
//!   and placements;
//! * [`runtime`]: stop conditions ([`runtime::Budget`]), search verdicts, parallel workers;
//! * [`rng`]: a fast seeded random number generator;
//! * [`stats`] and [`eval`]: summaries, Wilson intervals, and sharded parallel evaluation runs;
//! * [`svg`]: pictures of labelled boards;
//! * [`tour`]: the shape of a game's entry in `tessera tour`.

pub mod eval;
pub mod geometry;
pub mod rng;
pub mod runtime;
pub mod stats;
pub mod svg;
pub mod tour;
