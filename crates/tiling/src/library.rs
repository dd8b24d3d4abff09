//! The puzzles shipped with tessera (the files of `crates/tiling/puzzles/`, embedded), and
//! opening a puzzle by file name, `-` for stdin, or built-in name.

use std::io::Read;
use std::path::Path;

use crate::puzzle::{ParseError, Puzzle};

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

/// Why a puzzle could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// Neither a file nor a built-in puzzle.
    #[error("no file {0:?}, and no built-in puzzle of that name (built in: {names})", names = builtin_names().collect::<Vec<_>>().join(", "))]
    NotFound(String),
    /// The file could not be read.
    #[error("cannot read {0}: {1}")]
    Read(String, String),
    /// The file is empty.
    #[error("{0}: the file is empty: a puzzle needs a board and pieces")]
    Empty(String),
    /// The file is not a puzzle.
    #[error("{0}: {1}")]
    Parse(String, ParseError),
}

/// Opens a puzzle: `-` reads stdin, an existing path reads that file, anything else must be the
/// name of a built-in puzzle.
pub fn open(source: &str) -> Result<Puzzle, OpenError> {
    let mut text = String::new();
    if source == "-" {
        std::io::stdin().read_to_string(&mut text).map_err(|e| OpenError::Read("stdin".into(), e.to_string()))?;
    } else if Path::new(source).exists() {
        if Path::new(source).is_dir() {
            return Err(OpenError::Read(source.into(), "it is a directory".into()));
        }
        text = std::fs::read_to_string(source).map_err(|e| {
            let why =
                if e.kind() == std::io::ErrorKind::InvalidData { "it is not UTF-8 text".into() } else { e.to_string() };
            OpenError::Read(source.into(), why)
        })?;
    } else {
        return builtin(source).ok_or_else(|| OpenError::NotFound(source.into()));
    }
    if text.trim().is_empty() {
        return Err(OpenError::Empty(source.into()));
    }
    Puzzle::parse(&text).map_err(|e| OpenError::Parse(source.into(), e))
}
