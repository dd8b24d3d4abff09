//! What the tiling commands print: text for people, JSON for programs.

use std::fmt::Write as _;

use serde::Serialize;
use tessera_core::runtime::{Outcome, StopReason};
use tessera_core::tour::plural;

use crate::puzzle::Puzzle;
use tessera_polyform::tiler::{Counts, EngineKind, Solution, Tiler};

/// A puzzle's vital statistics.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleInfo {
    /// Name.
    pub name: String,
    /// `square` or `hex`.
    pub lattice: &'static str,
    /// Board cells.
    pub cells: usize,
    /// Pieces, counted with multiplicity.
    pub pieces: u64,
    /// Piece types.
    pub types: usize,
    /// Board symmetries that map the piece set to itself.
    pub symmetries: usize,
    /// Engine used.
    pub engine: EngineKind,
}

impl PuzzleInfo {
    /// Describes a puzzle and its tiler.
    pub fn new(puzzle: &Puzzle, tiler: &Tiler) -> Self {
        PuzzleInfo {
            name: puzzle.name.clone(),
            lattice: puzzle.problem.lattice.name(),
            cells: puzzle.problem.board.len(),
            pieces: puzzle.problem.piece_count(),
            types: puzzle.problem.pieces.len(),
            symmetries: tiler.symmetries(),
            engine: tiler.engine(),
        }
    }
}

impl std::fmt::Display for PuzzleInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} ({} lattice), {} of {}, {}, {:?} engine",
            self.name,
            plural(self.cells as u64, "cell", "cells"),
            self.lattice,
            plural(self.pieces, "piece", "pieces"),
            plural(self.types as u64, "type", "types"),
            plural(self.symmetries as u64, "board symmetry", "board symmetries"),
            self.engine
        )
    }
}

/// A solution as JSON: labels in board order, the drawing's rows, and every piece's cells.
#[derive(Clone, Debug, Serialize)]
pub struct SolutionJson {
    /// One label per board cell, in the board's reading order.
    pub labels: String,
    /// The tiling drawn in the puzzle format's layout.
    pub rows: Vec<String>,
    /// Every piece: its label and its cells as picture `[col, row]` pairs (copies of one piece
    /// type share a label; this tells them apart).
    pub pieces: Vec<PieceJson>,
}

/// One placed piece.
#[derive(Clone, Debug, Serialize)]
pub struct PieceJson {
    /// The piece type's label.
    pub label: char,
    /// Its cells, `[col, row]`.
    pub cells: Vec<(i32, i32)>,
}

impl SolutionJson {
    /// Describes a tiling.
    pub fn new(tiler: &Tiler, s: &Solution) -> Self {
        let cells = &tiler.plan().cells;
        let labels = tiler.labels(s);
        let chars: Vec<char> = labels.chars().collect();
        let pieces = s
            .piece_cells()
            .into_iter()
            .map(|ks| PieceJson { label: chars[ks[0]], cells: ks.iter().map(|&k| cells[k]).collect() })
            .collect();
        SolutionJson { labels, rows: tiler.draw(s).lines().map(str::to_string).collect(), pieces }
    }
}

/// The result of counting.
#[derive(Clone, Debug, Serialize)]
pub struct CountReport {
    /// The puzzle.
    pub puzzle: PuzzleInfo,
    /// Worker threads.
    pub threads: usize,
    /// Every tiling.
    pub raw: u64,
    /// Tilings up to symmetry.
    pub distinct: u64,
    /// Whether the counts are exact.
    pub complete: bool,
    /// Why the count stopped early, if it did.
    pub stop_reason: Option<StopReason>,
    /// Wall time in seconds.
    pub seconds: f64,
    /// The counts the puzzle file states.
    pub expected_raw: Option<u64>,
    /// The distinct count the puzzle file states.
    pub expected_distinct: Option<u64>,
    /// Whether the counts match the stated ones (`None`: nothing stated or count incomplete).
    pub matches_expected: Option<bool>,
}

impl CountReport {
    /// Builds the report.
    pub fn new(puzzle: &Puzzle, tiler: &Tiler, counts: &Counts, threads: usize) -> Self {
        let complete = counts.outcome.is_complete();
        let (er, ed) = (puzzle.expect.raw, puzzle.expect.distinct);
        let stated = er.is_some() || ed.is_some();
        let matches =
            (complete && stated).then(|| er.is_none_or(|r| r == counts.raw) && ed.is_none_or(|d| d == counts.distinct));
        CountReport {
            puzzle: PuzzleInfo::new(puzzle, tiler),
            threads,
            raw: counts.raw,
            distinct: counts.distinct,
            complete,
            stop_reason: match counts.outcome {
                Outcome::Complete => None,
                Outcome::Stopped(r) => Some(r),
            },
            seconds: counts.seconds,
            expected_raw: er,
            expected_distinct: ed,
            matches_expected: matches,
        }
    }

    /// A message if the counts contradict the puzzle file.
    pub fn mismatch(&self) -> Option<String> {
        (self.matches_expected == Some(false)).then(|| {
            format!(
                "counts {} raw / {} distinct differ from the puzzle's stated {} raw / {} distinct",
                self.raw,
                self.distinct,
                self.expected_raw.map_or("?".into(), |x| x.to_string()),
                self.expected_distinct.map_or("?".into(), |x| x.to_string())
            )
        })
    }
}

impl std::fmt::Display for CountReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.puzzle)?;
        let partial = match self.stop_reason {
            Some(r) => format!(" (incomplete: {r})"),
            None => String::new(),
        };
        writeln!(f, "tilings: {} ({} up to symmetry){partial}", self.raw, self.distinct)?;
        match self.matches_expected {
            Some(true) => writeln!(f, "expected: matches the puzzle's stated counts")?,
            Some(false) => writeln!(f, "expected: MISMATCH with the puzzle's stated counts")?,
            None => {}
        }
        writeln!(
            f,
            "time: {:.3} s on {} thread{}",
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }
}

/// Lists the built-in puzzles with their sizes and stated counts.
pub fn list_builtin() -> String {
    let mut s = String::new();
    for (name, text) in crate::library::BUILTIN {
        let Ok(p) = Puzzle::parse(text) else { continue };
        let mut known = Vec::new();
        if let Some(r) = p.expect.raw {
            known.push(format!("{r} tilings"));
        }
        if let Some(d) = p.expect.distinct {
            known.push(format!("{d} distinct"));
        }
        let _ = writeln!(
            s,
            "{name:<16} {:>3} cells, {:>2} pieces  {}",
            p.problem.board.len(),
            p.problem.piece_count(),
            known.join(", ")
        );
    }
    s
}
