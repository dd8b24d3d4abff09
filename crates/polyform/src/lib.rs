//! The polyform engine of tessera: exact tiling of a board by polyform pieces.
//!
//! * [`bits`]: cell sets as bit masks ([`bits::Bitboard`] for up to 64 cells, [`bits::WideBits`]
//!   beyond, [`bits::RowSet`] for row-wise grids), with pictures in `Debug`;
//! * [`exact_cover`]: a generic exact-cover solver with multiplicities (dancing links);
//! * [`tiler`]: exact tiling of a board by polyform pieces: the fast bit-mask engine, and dancing
//!   links as its fallback and cross-check.
//!
//! The lattices, their symmetries and the pieces' orientations come from
//! [`tessera_core::geometry`]; budgets and verdicts from [`tessera_core::runtime`]. The games
//! `tiling` (puzzles, counts, meteor) and `totems` (tetromino packing) build on this crate.

pub mod bits;
pub mod exact_cover;
pub mod tiler;
