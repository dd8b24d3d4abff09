//! Exact polyform tiling on the square and hexagonal lattices.
//!
//! A [`Puzzle`] is a board (any shape, holes allowed) and piece types (each with a count, turned
//! over or not). A [`Tiler`] counts its tilings (all of them, and up to the board's symmetries),
//! lists them, or finds one, under a [`tessera_core::runtime::Budget`] and on several threads.
//! Two engines: a fast bit-mask search (fill the first free cell, prune regions that no set of
//! pieces fits, break the board's symmetry on one piece) and generic dancing links, kept as the
//! fallback for huge boards and as the cross-check in tests.
//!
//! [`meteor`] reproduces the Benchmarks Game "meteor-contest" program on top of the engine.

mod dlx;
pub mod eval;
pub mod library;
pub mod meteor;
pub mod plan;
pub mod puzzle;
pub mod random;
pub mod report;
mod search;
pub mod solver;
pub mod validate;

pub use library::{builtin, builtin_names};
pub use puzzle::{ParseError, Puzzle};
pub use solver::{Counts, EngineKind, Solution, Tiler, TilingError};
use std::time::Instant;

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
        && let Ok(t) = Tiler::new(&p)
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
