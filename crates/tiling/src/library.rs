//! The puzzles shipped with tessera (the files of `crates/tiling/puzzles/`, embedded).

use crate::puzzle::Puzzle;

/// Name and text of every built-in puzzle.
pub const BUILTIN: &[(&str, &str)] = &[
    ("meteor", include_str!("../puzzles/meteor.txt")),
    ("pentomino-6x10", include_str!("../puzzles/pentomino-6x10.txt")),
    ("pentomino-5x12", include_str!("../puzzles/pentomino-5x12.txt")),
    ("pentomino-4x15", include_str!("../puzzles/pentomino-4x15.txt")),
    ("pentomino-3x20", include_str!("../puzzles/pentomino-3x20.txt")),
    ("scott-8x8", include_str!("../puzzles/scott-8x8.txt")),
];

/// The text of a built-in puzzle.
pub fn builtin_text(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// A built-in puzzle, parsed.
pub fn builtin(name: &str) -> Option<Puzzle> {
    // The shipped files are parsed in tests, so this cannot fail for a listed name.
    builtin_text(name).and_then(|t| Puzzle::parse(t).ok())
}

/// Names of the built-in puzzles.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}
