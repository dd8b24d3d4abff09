//! The demonstrations: the puzzles that `tessera tour` solves and the viewer shows, defined once.

use std::time::Instant;

use tessera_core::runtime::Budget;
use tessera_game::tour::Demo;

use crate::library::builtin;
use crate::puzzle::Puzzle;
use crate::{Tiler, meteor};

/// A demonstration: a built-in puzzle, and whether its tilings are shown one per symmetry class.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DemoPuzzle {
    /// The built-in puzzle's name.
    pub name: &'static str,
    /// Whether its tilings are shown one per symmetry class.
    pub distinct: bool,
}

impl DemoPuzzle {
    /// The puzzle (every demonstration is a built-in puzzle).
    #[must_use]
    pub fn puzzle(self) -> Option<Puzzle> {
        builtin(self.name)
    }
}

/// The demonstrations: meteor, every one of its solutions, and the pentominoes on 6x10, their
/// tilings up to symmetry.
pub const DEMOS: [DemoPuzzle; 2] =
    [DemoPuzzle { name: meteor::PUZZLE, distinct: false }, DemoPuzzle { name: "pentomino-6x10", distinct: true }];

/// The tiling entries of `tessera tour`: meteor solved by the benchmark's program, the other
/// demonstrations counted (every tiling, and those distinct up to symmetry).
#[must_use]
pub fn tour(threads: usize) -> Vec<Demo> {
    DEMOS
        .iter()
        .filter_map(|&d| if d.name == meteor::PUZZLE { Some(meteor_entry(threads)) } else { count_entry(d, threads) })
        .collect()
}

/// Meteor by the benchmark's program: all 2098 solutions.
fn meteor_entry(threads: usize) -> Demo {
    let start = Instant::now();
    let tiler = meteor::tiler();
    let m = meteor::solve(&tiler, u64::MAX, threads, &Budget::unlimited());
    Demo {
        game: "tiling",
        instance: meteor::PUZZLE.into(),
        result: format!("{} solutions", m.found),
        seconds: start.elapsed().as_secs_f64(),
        ok: m.found == 2098,
    }
}

/// A puzzle's tilings counted, against the counts its file states.
fn count_entry(d: DemoPuzzle, threads: usize) -> Option<Demo> {
    let start = Instant::now();
    let p = d.puzzle()?;
    let c = Tiler::new(&p.problem).ok()?.count(threads, &Budget::unlimited());
    Some(Demo {
        game: "tiling",
        instance: d.name.into(),
        result: format!("{} tilings ({} distinct)", c.raw, c.distinct),
        seconds: start.elapsed().as_secs_f64(),
        ok: Some(c.raw) == p.expect.raw && Some(c.distinct) == p.expect.distinct,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demonstration_is_built_in() {
        for d in DEMOS {
            assert!(d.puzzle().is_some(), "{}", d.name);
        }
    }
}
