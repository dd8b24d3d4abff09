//! What the tiling commands print: text for people, JSON for programs.
//!
//! Every JSON document is a type here, written and read back with serde: [`CountReport`]
//! (counting), [`FirstReport`] (one tiling), [`SolutionList`] (every tiling, written as found by
//! [`SolutionListWriter`]); the evaluation's are [`crate::eval::JobResult`] and
//! [`crate::eval::EvalSummary`].

use std::fmt::Write as _;
use std::io;

use serde::{Deserialize, Deserializer, Serialize};
use tessera_core::geometry::Lattice;
use tessera_core::runtime::{Outcome, StopReason, Verdict};
use tessera_game::tour::plural;

use crate::designer::{Reason, Uniqueness, why_none};
use crate::puzzle::Puzzle;
use tessera_polyform::tiler::plan::Group;
use tessera_polyform::tiler::{Counts, EngineKind, Solution, Tiler};

/// A puzzle's vital statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleInfo {
    /// Name.
    pub name: String,
    /// The lattice.
    pub lattice: Lattice,
    /// Board cells.
    pub cells: usize,
    /// Pieces, counted with multiplicity.
    pub pieces: u64,
    /// Piece types.
    pub types: usize,
    /// Board symmetries that map the piece set to itself.
    pub symmetries: usize,
    /// Their group: what "distinct" counts up to.
    #[serde(default)]
    pub group: GroupJson,
    /// Where the puzzle or its counts come from, if its file says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Engine used.
    #[serde(deserialize_with = "engine_by_name")]
    pub engine: EngineKind,
}

/// The symmetry group of a puzzle in JSON: `{"name": "D2", "order": 4, "reflections": 2}`
/// (`name`: `Cn` or `Dn` on the plane lattices, null on the cube lattice).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupJson {
    /// `Cn` (rotations only) or `Dn` (with reflections) on the plane lattices.
    pub name: Option<String>,
    /// Number of symmetries, the identity included.
    pub order: usize,
    /// How many of them are reflections.
    pub reflections: usize,
    /// In words, as the text output says it.
    pub description: String,
}

impl From<Group> for GroupJson {
    fn from(g: Group) -> Self {
        GroupJson { name: g.name(), order: g.order, reflections: g.reflections, description: g.to_string() }
    }
}

/// Reads an engine by the name it is written with (`auto`, `fast` or `dlx`).
pub(crate) fn engine_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<EngineKind, D::Error> {
    EngineKind::deserialize(d)
}

impl PuzzleInfo {
    /// Describes a puzzle and its tiler.
    #[must_use]
    pub fn new(puzzle: &Puzzle, tiler: &Tiler) -> Self {
        PuzzleInfo {
            name: puzzle.name.clone(),
            lattice: puzzle.problem.lattice,
            cells: puzzle.problem.board.len(),
            pieces: puzzle.problem.piece_count(),
            types: puzzle.problem.pieces.len(),
            symmetries: tiler.symmetries(),
            group: tiler.group().into(),
            source: puzzle.source.clone(),
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceJson {
    /// The piece type's label.
    pub label: char,
    /// Its cells, `[col, row]` in the picture (a cube board's layers side by side).
    pub cells: Vec<(i32, i32)>,
    /// Its cells in lattice coordinates: `[x, y]`, `[q, r]`, `[x, y, t]` or `[x, y, z]`.
    #[serde(default)]
    pub coordinates: Vec<Vec<i32>>,
}

impl SolutionJson {
    /// Describes a tiling.
    #[must_use]
    pub fn new(tiler: &Tiler, s: &Solution) -> Self {
        let (lattice, cells) = (tiler.plan().lattice, &tiler.plan().cells);
        let drawn = tiler.labelled_cells(s);
        let labels = tiler.labels(s);
        let chars: Vec<char> = labels.chars().collect();
        // Optional cells left empty are no piece.
        let pieces = s
            .piece_cells()
            .into_iter()
            .filter(|ks| chars[ks[0]] != tessera_polyform::tiler::problem::EMPTY)
            .map(|ks| PieceJson {
                label: chars[ks[0]],
                cells: ks.iter().map(|&k| (drawn[k].0, drawn[k].1)).collect(),
                coordinates: ks.iter().map(|&k| cells[k].coords(lattice)).collect(),
            })
            .collect();
        SolutionJson { labels, rows: tiler.draw(s).lines().map(str::to_string).collect(), pieces }
    }
}

/// The result of counting (`solve --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountReport {
    /// The puzzle.
    pub puzzle: PuzzleInfo,
    /// Worker threads.
    pub threads: usize,
    /// Every tiling.
    pub raw: u128,
    /// Tilings up to symmetry.
    pub distinct: u128,
    /// Assemblies, as BurrTools counts them (see [`crate::burr`]); the distinct count but with
    /// ranges of copies. `None` when not counted (a count that stopped, or a shard).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assemblies: Option<u128>,
    /// Whether the counts are exact.
    pub complete: bool,
    /// Why the count stopped early, if it did.
    pub stop_reason: Option<StopReason>,
    /// Wall time in seconds.
    pub seconds: f64,
    /// The counts the puzzle file states.
    pub expected_raw: Option<u128>,
    /// The distinct count the puzzle file states.
    pub expected_distinct: Option<u128>,
    /// The assemblies the puzzle file states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_assemblies: Option<u128>,
    /// Whether the counts match the stated ones (`None`: nothing stated or count incomplete).
    pub matches_expected: Option<bool>,
    /// When the count found no tiling: the first reason found that a person can check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_tiling_reason: Option<Reason>,
}

impl CountReport {
    /// Builds the report.
    #[must_use]
    pub fn new(puzzle: &Puzzle, tiler: &Tiler, counts: &Counts, assemblies: Option<u128>, threads: usize) -> Self {
        let complete = counts.outcome.is_complete();
        let (er, ed, ea) = (puzzle.expect.raw, puzzle.expect.distinct, puzzle.expect.assemblies);
        let stated = er.is_some() || ed.is_some() || ea.is_some();
        let matches = (complete && stated).then(|| {
            er.is_none_or(|r| r == counts.raw)
                && ed.is_none_or(|d| d == counts.distinct)
                && ea.is_none_or(|a| Some(a) == assemblies)
        });
        CountReport {
            puzzle: PuzzleInfo::new(puzzle, tiler),
            threads,
            raw: counts.raw,
            distinct: counts.distinct,
            assemblies,
            complete,
            stop_reason: match counts.outcome {
                Outcome::Complete => None,
                Outcome::Stopped(r) => Some(r),
            },
            seconds: counts.seconds,
            expected_raw: er,
            expected_distinct: ed,
            expected_assemblies: ea,
            matches_expected: matches,
            no_tiling_reason: (complete && counts.raw == 0).then(|| why_none(&puzzle.problem, tiler)).flatten(),
        }
    }

    /// A message if the counts contradict the puzzle file.
    #[must_use]
    pub fn mismatch(&self) -> Option<String> {
        (self.matches_expected == Some(false)).then(|| {
            let show = |n: Option<u128>| n.map_or("?".into(), |x| x.to_string());
            let mut m = format!(
                "counts {} raw / {} distinct differ from the puzzle's stated {} raw / {} distinct",
                self.raw,
                self.distinct,
                show(self.expected_raw),
                show(self.expected_distinct)
            );
            if self.expected_assemblies.is_some() {
                m += &format!(" / {} assemblies (counted {})", show(self.expected_assemblies), show(self.assemblies));
            }
            m
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
        if self.stop_reason == Some(StopReason::Overflow) {
            // The counts so far mean nothing: say what is known.
            writeln!(f, "tilings: more than 2^128 - 1 = {} (incomplete)", u128::MAX)?;
        } else {
            writeln!(f, "tilings: {} ({} up to symmetry){partial}", self.raw, self.distinct)?;
        }
        // BurrTools' count, for its kind of puzzle (solid), or where it differs.
        if let Some(a) = self.assemblies.filter(|&a| a != self.distinct || self.puzzle.lattice.is_solid()) {
            writeln!(f, "assemblies: {a} (as BurrTools counts them)")?;
        }
        if !self.puzzle.group.description.is_empty() {
            writeln!(f, "symmetry: {}", self.puzzle.group.description)?;
        }
        if let Some(r) = &self.no_tiling_reason {
            writeln!(f, "reason: {r}")?;
        }
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

/// What a search for one tiling concluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FirstStatus {
    /// A tiling was found.
    Found,
    /// The puzzle has no tiling.
    #[serde(rename = "none")]
    NoTiling,
    /// The search stopped before knowing.
    Unknown,
}

impl FirstStatus {
    /// The status of a search's verdict.
    #[must_use]
    pub fn of<T>(verdict: &Verdict<T>) -> FirstStatus {
        match verdict {
            Verdict::Feasible(_) | Verdict::Optimal(_) => FirstStatus::Found,
            Verdict::Infeasible => FirstStatus::NoTiling,
            Verdict::Unknown(_) => FirstStatus::Unknown,
        }
    }
}

/// The result of finding one tiling (`solve --first --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstReport {
    /// The puzzle.
    pub puzzle: PuzzleInfo,
    /// Whether a tiling was found.
    pub status: FirstStatus,
    /// The tiling found, if any.
    pub solution: Option<SolutionJson>,
    /// Wall time in seconds, building the tables included.
    pub seconds: f64,
    /// Seed of the random restarts.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// When there is no tiling: the first reason found that a person can check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_tiling_reason: Option<Reason>,
}

impl FirstReport {
    /// Describes a search's verdict.
    #[must_use]
    pub fn new(
        puzzle: &Puzzle,
        tiler: &Tiler,
        verdict: &Verdict<Solution>,
        seconds: f64,
        seed: u64,
        threads: usize,
    ) -> Self {
        let solution = match verdict {
            Verdict::Feasible(s) | Verdict::Optimal(s) => Some(SolutionJson::new(tiler, s)),
            Verdict::Infeasible | Verdict::Unknown(_) => None,
        };
        FirstReport {
            puzzle: PuzzleInfo::new(puzzle, tiler),
            status: FirstStatus::of(verdict),
            solution,
            seconds,
            seed,
            threads,
            no_tiling_reason: matches!(verdict, Verdict::Infeasible)
                .then(|| why_none(&puzzle.problem, tiler))
                .flatten(),
        }
    }
}

/// The answer of `solve --fixed-pieces`: which pieces every tiling puts in one place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixedReport {
    /// The puzzle.
    pub puzzle: PuzzleInfo,
    /// Each piece type: whether it is fixed, and in how many places (up to symmetry) its copies
    /// sit across the tilings.
    pub pieces: Vec<crate::designer::PiecePlace>,
    /// Whether every tiling was visited.
    pub complete: bool,
    /// Why the visits stopped early, if they did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// Wall time in seconds, building the tables included.
    pub seconds: f64,
}

impl FixedReport {
    /// Describes where the pieces sit.
    #[must_use]
    pub fn new(
        puzzle: &Puzzle,
        tiler: &Tiler,
        pieces: Vec<crate::designer::PiecePlace>,
        outcome: Outcome,
        seconds: f64,
    ) -> Self {
        let stop_reason = match outcome {
            Outcome::Complete => None,
            Outcome::Stopped(r) => Some(r),
        };
        FixedReport {
            puzzle: PuzzleInfo::new(puzzle, tiler),
            pieces,
            complete: stop_reason.is_none(),
            stop_reason,
            seconds,
        }
    }
}

impl std::fmt::Display for FixedReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.puzzle)?;
        if self.pieces.iter().all(|p| p.places == 0) {
            writeln!(f, "no tiling: no piece has a place")?;
        }
        for p in self.pieces.iter().filter(|p| p.places > 0) {
            match p.fixed {
                true => writeln!(f, "{}: fixed (the same place in every tiling, up to symmetry)", p.label)?,
                false => writeln!(f, "{}: moves ({} places up to symmetry)", p.label, p.places)?,
            }
        }
        if let Some(r) = self.stop_reason {
            writeln!(f, "incomplete: {r} (a piece that moves moves; one said fixed may not be)")?;
        }
        writeln!(f, "time: {:.3} s", self.seconds)
    }
}

/// The answer of `solve --unique`: one solution up to symmetry, two, or none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UniqueReport {
    /// The puzzle.
    pub puzzle: PuzzleInfo,
    /// `unique`, `not_unique`, `none`, or `unknown` (the search was stopped first).
    pub verdict: String,
    /// The tilings found: one if unique, two of different classes if not.
    pub solutions: Vec<SolutionJson>,
    /// When there is no tiling: the first reason found that a person can check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_tiling_reason: Option<Reason>,
    /// Why the search stopped, if it did before knowing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// Wall time in seconds, building the tables included.
    pub seconds: f64,
}

impl UniqueReport {
    /// Describes an answer.
    #[must_use]
    pub fn new(puzzle: &Puzzle, tiler: &Tiler, answer: &Uniqueness, seconds: f64) -> Self {
        let (verdict, solutions, stop_reason) = match answer {
            Uniqueness::Unique(s) => ("unique", vec![SolutionJson::new(tiler, s)], None),
            Uniqueness::NotUnique(a, b) => {
                ("not_unique", vec![SolutionJson::new(tiler, a), SolutionJson::new(tiler, b)], None)
            }
            Uniqueness::None => ("none", Vec::new(), None),
            Uniqueness::Unknown(r) => ("unknown", Vec::new(), Some(*r)),
        };
        let no_tiling_reason = matches!(answer, Uniqueness::None).then(|| why_none(&puzzle.problem, tiler)).flatten();
        UniqueReport {
            puzzle: PuzzleInfo::new(puzzle, tiler),
            verdict: verdict.to_string(),
            solutions,
            no_tiling_reason,
            stop_reason,
            seconds,
        }
    }
}

impl std::fmt::Display for UniqueReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.puzzle)?;
        match self.verdict.as_str() {
            "unique" => writeln!(f, "unique: one solution up to symmetry")?,
            "not_unique" => writeln!(f, "not unique: two solutions that no symmetry of the board maps to each other")?,
            "none" => writeln!(f, "none: the puzzle has no solution")?,
            _ => writeln!(f, "unknown: the search was stopped before it knew")?,
        }
        for s in &self.solutions {
            writeln!(f)?;
            for row in &s.rows {
                writeln!(f, "{row}")?;
            }
        }
        if let Some(r) = &self.no_tiling_reason {
            writeln!(f, "reason: {r}")?;
        }
        writeln!(f, "time: {:.3} s", self.seconds)
    }
}

/// The game a document is of: always `tiling`, so that a reader tells tiling documents apart.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    /// Exact polyform tiling.
    #[default]
    Tiling,
}

/// Every tiling of a puzzle, or every one up to symmetry (`solve --all --json`). A listing may
/// be too long to hold: [`SolutionListWriter`] writes it a tiling at a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolutionList {
    /// The game: `tiling` (a list written before lists said so reads as one too).
    #[serde(default)]
    pub game: Game,
    /// The puzzle.
    pub puzzle: PuzzleInfo,
    /// The tilings, in the engine's fixed order.
    pub solutions: Vec<SolutionJson>,
    /// How many were listed.
    pub count: u64,
    /// Whether only one tiling per symmetry class was listed.
    pub distinct_only: bool,
    /// Whether the listing is whole (the search was not stopped).
    pub complete: bool,
}

/// Writes a [`SolutionList`] as its tilings are found: the same text as serialising the whole
/// list, and a newline.
#[derive(Debug)]
pub struct SolutionListWriter<W> {
    out: W,
    count: u64,
}

impl<W: io::Write> SolutionListWriter<W> {
    /// Starts the list with its puzzle.
    pub fn begin(mut out: W, puzzle: &PuzzleInfo) -> io::Result<Self> {
        let game = serde_json::to_string(&Game::Tiling)?;
        write!(out, "{{\"game\":{game},\"puzzle\":{},\"solutions\":[", serde_json::to_string(puzzle)?)?;
        Ok(SolutionListWriter { out, count: 0 })
    }

    /// Adds a tiling.
    pub fn push(&mut self, solution: &SolutionJson) -> io::Result<()> {
        let sep = if self.count == 0 { "" } else { "," };
        write!(self.out, "{sep}{}", serde_json::to_string(solution)?)?;
        self.count += 1;
        Ok(())
    }

    /// Ends the list; gives the writer back.
    pub fn finish(mut self, distinct_only: bool, complete: bool) -> io::Result<W> {
        writeln!(self.out, "],\"count\":{},\"distinct_only\":{distinct_only},\"complete\":{complete}}}", self.count)?;
        Ok(self.out)
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
            "{name:<36} {:<8} {:>3} cells, {:>2} pieces  {}",
            p.problem.lattice.name(),
            p.problem.board.len(),
            p.problem.piece_count(),
            known.join(", ")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use tessera_core::runtime::Budget;
    use tessera_core::testing::reads_back;

    use super::*;
    use crate::library::builtin;

    fn solved(name: &str) -> (Puzzle, Tiler) {
        let puzzle = builtin(name).unwrap();
        let tiler = Tiler::new(&puzzle.problem).unwrap();
        (puzzle, tiler)
    }

    #[test]
    fn the_writer_writes_what_serialising_the_list_gives() {
        let (puzzle, tiler) = solved("pentomino-3x20");
        let mut solutions = Vec::new();
        let _ = tiler.for_each(&Budget::unlimited(), true, |s| {
            solutions.push(SolutionJson::new(&tiler, s));
            ControlFlow::Continue(())
        });
        let list = SolutionList {
            game: Game::Tiling,
            puzzle: PuzzleInfo::new(&puzzle, &tiler),
            count: solutions.len() as u64,
            solutions,
            distinct_only: true,
            complete: true,
        };
        let mut w = SolutionListWriter::begin(Vec::new(), &list.puzzle).unwrap();
        for s in &list.solutions {
            w.push(s).unwrap();
        }
        let text = String::from_utf8(w.finish(true, true).unwrap()).unwrap();
        assert_eq!(text, format!("{}\n", serde_json::to_string(&list).unwrap()));
        assert_eq!(reads_back::<SolutionList>(&text).count, list.count);
        let empty = SolutionListWriter::begin(Vec::new(), &list.puzzle).unwrap().finish(false, false).unwrap();
        let empty: SolutionList = reads_back(std::str::from_utf8(&empty).unwrap());
        assert_eq!((empty.solutions.len(), empty.count, empty.complete), (0, 0, false));
    }

    #[test]
    fn reports_read_back() {
        let (puzzle, tiler) = solved("meteor");
        let (counts, sample) = tiler.count_with_sample(1, &Budget::unlimited().with_nodes(1));
        let count = CountReport::new(&puzzle, &tiler, &counts, None, 1);
        let json = serde_json::to_string(&count).unwrap();
        reads_back::<CountReport>(&json);
        assert!(json.starts_with(r#"{"puzzle":{"name":"meteor","lattice":"hex","#), "{json}");
        let verdict = match sample {
            Some(s) => Verdict::Feasible(s),
            None => tiler.first(1, 0, &Budget::unlimited()),
        };
        let first = FirstReport::new(&puzzle, &tiler, &verdict, 0.5, 7, 1);
        assert_eq!(first.status, FirstStatus::Found);
        let json = serde_json::to_string(&first).unwrap();
        reads_back::<FirstReport>(&json);
        let none = FirstReport::new(&puzzle, &tiler, &Verdict::Infeasible, 0.5, 7, 1);
        assert!(serde_json::to_string(&none).unwrap().contains(r#""status":"none","solution":null"#));
    }
}
