//! The tiling game: exact polyform tiling puzzles on the square and hexagonal lattices.
//!
//! The engine ([`tessera_polyform::tiler`]) counts, lists or finds tilings; this crate adds the
//! puzzle text format ([`puzzle`]), the shipped puzzles ([`library`]), the Benchmarks Game
//! "meteor-contest" program ([`meteor`]), random puzzles with a planted tiling ([`random`]), an
//! independent validator ([`validate`]), evaluation runs ([`eval`]) and reports ([`report`]).
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

pub mod eval;
pub mod library;
pub mod meteor;
pub mod puzzle;
pub mod random;
pub mod report;
pub mod validate;

pub use library::{builtin, builtin_names};
pub use puzzle::{ParseError, Puzzle};
use std::time::Instant;
pub use tessera_polyform::tiler::{Counts, EngineKind, Solution, Tiler, TilingError};

use tessera_core::runtime::Budget;
use tessera_core::tour::Demo;

/// The tiling entries of `tessera tour`: meteor, and the pentominoes on 6x10.
pub fn tour(threads: usize) -> Vec<Demo> {
    let start = Instant::now();
    let tiler = meteor::tiler();
    let m = meteor::solve(&tiler, u64::MAX, threads, &Budget::unlimited());
    let mut demos = vec![Demo {
        game: "tiling",
        instance: "meteor".into(),
        result: format!("{} solutions", m.found),
        seconds: start.elapsed().as_secs_f64(),
        ok: m.found == 2098,
    }];
    let start = Instant::now();
    if let Some(p) = builtin("pentomino-6x10")
        && let Ok(t) = Tiler::new(&p.problem)
    {
        let c = t.count(threads, &Budget::unlimited());
        demos.push(Demo {
            game: "tiling",
            instance: "pentomino-6x10".into(),
            result: format!("{} tilings ({} distinct)", c.raw, c.distinct),
            seconds: start.elapsed().as_secs_f64(),
            ok: Some(c.raw) == p.expect.raw && Some(c.distinct) == p.expect.distinct,
        });
    }
    demos
}

/// Test helpers shared by the modules.
#[cfg(test)]
pub(crate) mod testing {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    /// Reads a JSON document as `T`, and checks that `T` writes it out as read (the same fields,
    /// the same values: floats compare as JSON reads them).
    pub(crate) fn reads_back<T: Serialize + DeserializeOwned>(json: &str) -> T {
        let read: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        let written = serde_json::to_value(&read).unwrap();
        assert_eq!(written, serde_json::from_str::<serde_json::Value>(json).unwrap(), "{json}");
        read
    }
}
