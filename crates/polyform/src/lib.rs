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
//!
//! Tile a board with pieces drawn as pictures: count the tilings, and draw one.
//!
//! ```
//! use tessera_core::geometry::Lattice;
//! use tessera_core::runtime::Budget;
//! use tessera_polyform::tiler::{Tiler, problem::from_pictures};
//!
//! // Two L-trominoes and a domino, each used once, turned over freely, on a 2x4 board.
//! let pieces = [('L', 2, true, "#.\n##"), ('D', 1, true, "##")];
//! let problem = from_pictures(Lattice::Square, "####\n####", &pieces)?;
//! let tiler = Tiler::new(&problem)?;
//! let counts = tiler.count(1, &Budget::unlimited());
//! println!("{} tilings, {} up to symmetry", counts.raw, counts.distinct);
//! let tiling = tiler.first(1, 0, &Budget::unlimited()).solution().expect("a tiling");
//! println!("{}", tiler.draw(&tiling));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bits;
pub mod exact_cover;
pub mod tiler;
