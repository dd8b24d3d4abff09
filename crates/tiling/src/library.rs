//! The puzzles shipped with tessera (the files of `crates/tiling/puzzles/`, embedded), and
//! opening a puzzle by file name, `-` for stdin, or built-in name.

use std::io::Read;
use std::path::Path;

use crate::puzzle::{ParseError, Puzzle};
use crate::xmpuzzle::XmPuzzle;

/// The built-in puzzles' files, by name (`puzzles/NAME.txt`), embedded.
macro_rules! puzzles {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../puzzles/", $name, ".txt")))),*]
    };
}

/// Name and text of every built-in puzzle: the demonstrations' first, then the library of
/// classic puzzles on the four lattices (see `puzzles/README.md` for their sources).
pub const BUILTIN: &[(&str, &str)] = puzzles![
    "meteor",
    "pentomino-6x10",
    "pentomino-5x12",
    "pentomino-4x15",
    "pentomino-3x20",
    "scott-8x8",
    "bedlam",
    "diabolical-cube",
    "domino-6x6",
    "domino-8x8",
    "hexiamond-3x12",
    "hexiamond-4x11-trapezoid",
    "hexiamond-4x9",
    "hexiamond-6x6",
    "hexiamond-long-hexagon",
    "hexiamond-tenyo",
    "lozenge-hexagon-2-2-2",
    "lozenge-hexagon-2-3-4",
    "lozenge-hexagon-3-3-3",
    "lozenge-hexagon-4-4-4",
    "one-sided-hexiamond-obeirne-hexagon",
    "one-sided-pentomino-3x30",
    "one-sided-pentomino-5x18",
    "one-sided-pentomino-6x15",
    "one-sided-pentomino-9x10",
    "one-sided-tetromino-4x7",
    "pentomino-8x8-corners",
    "pentomino-8x8-four-holes-1",
    "pentomino-8x8-four-holes-2",
    "pentomino-8x8-four-holes-3",
    "pentomino-8x8-four-holes-4",
    "pentomino-tetromino-8x8",
    "polyhex-34-hexagon",
    "slothouber-graatsma",
    "solid-pentomino-2x3x10",
    "solid-pentomino-2x5x6",
    "solid-pentomino-3x4x5",
    "soma",
    "tetracube-2x2x8",
    "tetracube-2x4x4",
    "tetrahex-7x4",
    "tetrahex-bumpy-triangle",
    "tetrahex-coin",
    "tetrahex-elongated-hexagon",
    "tetrahex-staggered-7x4",
    "tetrahex-triangle-7",
    "tetromino-4x5",
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

/// "did you mean a, b? " for the built-in names that share the longest start with `name` (at
/// least three characters of it, at most four names), or nothing.
fn near_names(name: &str) -> String {
    let shared = |n: &str| n.bytes().zip(name.bytes()).take_while(|(a, b)| a == b).count();
    let best = builtin_names().map(shared).max().unwrap_or(0);
    if best < 3 {
        return String::new();
    }
    let near: Vec<&str> = builtin_names().filter(|n| shared(n) == best).take(4).collect();
    format!("did you mean {}? ", near.join(", "))
}

/// Why a puzzle could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// Neither a file nor a built-in puzzle.
    #[error("no file {0:?}, and no built-in puzzle of that name ({hint}`tessera tiling list` names all {n})", hint = near_names(.0), n = BUILTIN.len())]
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
    /// A BurrTools file's problem that is not there, or one asked of another puzzle.
    #[error("{0}")]
    Problem(String),
}

/// Opens a puzzle: `-` reads stdin, an existing path reads that file, anything else must be the
/// name of a built-in puzzle. A BurrTools file (see [`crate::xmpuzzle`]) opens at its first
/// problem.
pub fn open(source: &str) -> Result<Puzzle, OpenError> {
    open_problem(source, None)
}

/// [`open`], with a BurrTools file's problem chosen by its number (from 0) or name; `problem`
/// is refused for other puzzles.
pub fn open_problem(source: &str, problem: Option<&str>) -> Result<Puzzle, OpenError> {
    let Some(bytes) = read_source(source)? else {
        if problem.is_some() {
            return Err(OpenError::Problem(format!("{source} is a built-in puzzle: --problem is for BurrTools files")));
        }
        return builtin(source).ok_or_else(|| OpenError::NotFound(source.into()));
    };
    if XmPuzzle::looks_like(&bytes) {
        let file = XmPuzzle::read(&bytes).map_err(|e| OpenError::Parse(source.into(), e))?;
        let k = file.problem_index(problem).map_err(|e| OpenError::Problem(format!("{source}: {e}")))?;
        let stem =
            Path::new(source).file_stem().map_or_else(|| source.to_string(), |s| s.to_string_lossy().into_owned());
        let name = match &file.problems[k].name {
            Some(name) if !name.is_empty() => format!("{stem}: {name}"),
            _ => format!("{stem}: problem {k}"),
        };
        return file.puzzle(k, &name).map_err(|e| OpenError::Parse(source.into(), e));
    }
    if source.ends_with(".xmpuzzle") {
        return Err(OpenError::Problem(format!("{source} is not a BurrTools file (neither gzip nor XML)")));
    }
    if problem.is_some() {
        return Err(OpenError::Problem(format!("{source} is in tessera's format: --problem is for BurrTools files")));
    }
    let text = String::from_utf8(bytes).map_err(|_| OpenError::Read(source.into(), "it is not UTF-8 text".into()))?;
    if text.trim().is_empty() {
        return Err(OpenError::Empty(source.into()));
    }
    Puzzle::parse(&text).map_err(|e| OpenError::Parse(source.into(), e))
}

/// Whether `source` names a file that looks like a BurrTools file (gzip or XML; see
/// [`XmPuzzle::looks_like`]). Reads its first bytes; stdin is never one (it cannot be read
/// twice).
pub fn is_burr_file(source: &str) -> bool {
    let mut head = [0u8; 64];
    let read = std::fs::File::open(source).and_then(|mut f| f.read(&mut head));
    source != "-" && read.is_ok_and(|n| XmPuzzle::looks_like(&head[..n]))
}

/// Opens a BurrTools file (`-` reads stdin).
pub fn open_burr(source: &str) -> Result<XmPuzzle, OpenError> {
    let Some(bytes) = read_source(source)? else { return Err(OpenError::NotFound(source.into())) };
    if !XmPuzzle::looks_like(&bytes) {
        return Err(OpenError::Problem(format!("{source} is not a BurrTools file (neither gzip nor XML)")));
    }
    XmPuzzle::read(&bytes).map_err(|e| OpenError::Parse(source.into(), e))
}

/// The bytes of `-` (stdin) or of an existing file; `None` when no such file exists.
fn read_source(source: &str) -> Result<Option<Vec<u8>>, OpenError> {
    let mut bytes = Vec::new();
    if source == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| OpenError::Read("stdin".into(), e.to_string()))?;
    } else if Path::new(source).exists() {
        if Path::new(source).is_dir() {
            return Err(OpenError::Read(source.into(), "it is a directory".into()));
        }
        bytes = std::fs::read(source).map_err(|e| OpenError::Read(source.into(), e.to_string()))?;
    } else {
        return Ok(None);
    }
    Ok(Some(bytes))
}
