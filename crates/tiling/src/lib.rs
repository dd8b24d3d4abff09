//! The tiling game: exact polyform tiling puzzles on the square, hex, triangle and cube lattices.
//!
//! The engine ([`tessera_polyform::tiler`]) counts, lists or finds tilings; this crate adds the
//! puzzle text format ([`puzzle`]), the shipped puzzles ([`library`]), the Benchmarks Game
//! "meteor-contest" program ([`meteor`]), random puzzles with a planted tiling ([`random`]), an
//! independent validator ([`validate`]), evaluation runs ([`eval`]), reports ([`report`]), counts
//! split across machines ([`shards`]), the demonstrations ([`demo`]) and puzzles as input for
//! Knuth's `dlx1` ([`dlx`]).
//!
//! Count the tilings of a shipped puzzle, find one and check it independently:
//!
//! ```
//! use tessera_core::runtime::Budget;
//! use tessera_tiling::{Tiler, builtin, validate::validate};
//!
//! let puzzle = builtin("pentomino-3x20").expect("a shipped puzzle");
//! let tiler = Tiler::new(&puzzle.problem)?;
//! let counts = tiler.count(1, &Budget::unlimited());
//! assert_eq!((counts.raw, counts.distinct), (8, 2));
//! let tiling = tiler.first(1, 7, &Budget::unlimited()).solution().expect("a tiling");
//! let labels: Vec<char> = tiler.labels(&tiling).chars().collect();
//! validate(&puzzle.problem, &labels)?;
//! println!("{}", tiler.draw(&tiling));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod burr;
pub mod demo;
pub mod designer;
pub mod dlx;
pub mod eval;
pub mod face;
pub mod library;
pub mod meteor;
pub mod puzzle;
pub mod random;
pub mod report;
pub mod shards;
pub mod validate;
pub mod xmpuzzle;

pub use demo::tour;
pub use face::TilingGame;
pub use library::{builtin, builtin_names};
pub use puzzle::{ParseError, Puzzle};
pub use tessera_polyform::tiler::{
    CountProgress, Counts, EngineKind, MAX_SHARDS, ShardCounts, Solution, Tiler, TilingError,
};
