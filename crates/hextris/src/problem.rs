//! Problems as the contest gave them (JSON), checked on reading, and the source of units.
//!
//! Cells are `(x, y)` = (column, row) in the contest's *odd-r* offset layout: row 0 at the top,
//! odd rows shifted half a cell to the right.
//!
//! ```text
//!  (0,0) (1,0) (2,0)
//!     (0,1) (1,1) (2,1)
//!  (0,2) (1,2) (2,2)
//! ```

use serde::{Deserialize, Serialize};

/// The largest side of a board this crate accepts.
pub const MAX_SIDE: usize = 1024;
/// The most members a unit may have.
pub const MAX_UNIT: usize = 256;
/// The longest source (units per game).
pub const MAX_SOURCE: usize = 1_000_000;

/// A cell `(x, y)`: column and row in the odd-r offset layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Column.
    pub x: i32,
    /// Row (0 at the top).
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }
}

/// A unit as the problem gives it: its member cells and its pivot (which need not be a member).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitDef {
    /// The member cells.
    pub members: Vec<Cell>,
    /// The point it turns about.
    pub pivot: Cell,
}

/// A problem: the board, the units, and the seeds of its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// The problem's number.
    pub id: i64,
    /// The units the source draws from.
    pub units: Vec<UnitDef>,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Cells filled at the start.
    pub filled: Vec<Cell>,
    /// Units per game.
    pub source_length: usize,
    /// One game per seed.
    pub source_seeds: Vec<u32>,
}

/// Why a problem could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// Not the contest's JSON.
    #[error("not a problem: {0}")]
    Json(String),
    /// A side is zero or too large.
    #[error("a {width} x {height} board: each side must be 1..={MAX_SIDE}")]
    Size {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A filled cell outside the board.
    #[error("filled cell ({}, {}) is outside the {width} x {height} board", .cell.x, .cell.y)]
    FilledOutside {
        /// The cell.
        cell: Cell,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// No units to draw from.
    #[error("the problem has no units")]
    NoUnits,
    /// A unit without members, with too many, or with a member listed twice.
    #[error("unit {index}: {why}")]
    BadUnit {
        /// Index in `units`.
        index: usize,
        /// What is wrong.
        why: String,
    },
    /// An absurd source length.
    #[error("sourceLength {0} is beyond {MAX_SOURCE}")]
    SourceLength(usize),
    /// No seeds.
    #[error("the problem has no sourceSeeds")]
    NoSeeds,
}

impl Problem {
    /// Reads a problem from the contest's JSON and checks it.
    pub fn parse(json: &str) -> Result<Problem, ProblemError> {
        let p: Problem = serde_json::from_str(json).map_err(|e| ProblemError::Json(e.to_string()))?;
        p.check()?;
        Ok(p)
    }

    /// Checks what the rules need: a board of sane size, filled cells on it, units with
    /// distinct members near the origin, a source, seeds.
    pub fn check(&self) -> Result<(), ProblemError> {
        let (width, height) = (self.width, self.height);
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(ProblemError::Size { width, height });
        }
        if let Some(&cell) = self.filled.iter().find(|c| !self.on_board(**c)) {
            return Err(ProblemError::FilledOutside { cell, width, height });
        }
        if self.units.is_empty() {
            return Err(ProblemError::NoUnits);
        }
        for (index, u) in self.units.iter().enumerate() {
            let bad = |why: String| ProblemError::BadUnit { index, why };
            if u.members.is_empty() || u.members.len() > MAX_UNIT {
                return Err(bad(format!("{} members (must be 1..={MAX_UNIT})", u.members.len())));
            }
            let far = |c: &Cell| c.x.unsigned_abs() as usize > MAX_SIDE || c.y.unsigned_abs() as usize > MAX_SIDE;
            if u.members.iter().any(far) || far(&u.pivot) {
                return Err(bad(format!("a coordinate beyond {MAX_SIDE}")));
            }
            let mut m = u.members.clone();
            m.sort();
            if m.windows(2).any(|w| w[0] == w[1]) {
                return Err(bad("a member is listed twice".into()));
            }
        }
        if self.source_length > MAX_SOURCE {
            return Err(ProblemError::SourceLength(self.source_length));
        }
        if self.source_seeds.is_empty() {
            return Err(ProblemError::NoSeeds);
        }
        Ok(())
    }

    /// Whether a cell lies on the board.
    pub fn on_board(&self, c: Cell) -> bool {
        c.x >= 0 && c.y >= 0 && (c.x as usize) < self.width && (c.y as usize) < self.height
    }

    /// The indices into `units` of a game's units, in order: the numbers of the contest's
    /// generator started at `seed`, each modulo the number of units.
    #[must_use]
    pub fn source(&self, seed: u32) -> Vec<usize> {
        source(seed, self.source_length, self.units.len())
    }

    /// Whether `seed` is one of the problem's seeds.
    pub fn has_seed(&self, seed: u32) -> bool {
        self.source_seeds.contains(&seed)
    }
}

/// The contest's linear congruential generator: state `s' = 1103515245 s + 12345 (mod 2^32)`
/// starting from the seed; the k-th number is bits 30..16 of the k-th state (the first comes
/// from the seed itself).
#[derive(Clone, Debug)]
pub(crate) struct Lcg(u32);

impl Lcg {
    /// The generator started at `seed`.
    pub(crate) const fn new(seed: u32) -> Lcg {
        Lcg(seed)
    }
}

impl Iterator for Lcg {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let r = (self.0 >> 16) & 0x7FFF;
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        Some(r)
    }
}

/// The first `len` unit indices of a game: `r_k mod units`.
pub(crate) fn source(seed: u32, len: usize, units: usize) -> Vec<usize> {
    Lcg::new(seed).take(len).map(|r| r as usize % units.max(1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_matches_the_specification() {
        let first: Vec<u32> = Lcg::new(17).take(10).collect();
        assert_eq!(first, [0, 24107, 16552, 12125, 9427, 13152, 21440, 3383, 6873, 16117]);
        assert_eq!(Lcg::new(0).next(), Some(0));
    }

    #[test]
    fn bad_problems_are_refused_with_a_reason() {
        let ok = r#"{"id":1,"units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}],"width":5,"height":5,
                     "filled":[],"sourceLength":10,"sourceSeeds":[0]}"#;
        assert!(Problem::parse(ok).is_ok());
        let cases = [
            (ok.replace("\"width\":5", "\"width\":0"), "each side"),
            (ok.replace("\"filled\":[]", "\"filled\":[{\"x\":5,\"y\":0}]"), "outside"),
            (ok.replace("[{\"members\":[{\"x\":0,\"y\":0}],\"pivot\":{\"x\":0,\"y\":0}}]", "[]"), "no units"),
            (ok.replace("[0]}", "[]}"), "no sourceSeeds"),
            (
                ok.replace("\"members\":[{\"x\":0,\"y\":0}]", "\"members\":[{\"x\":0,\"y\":0},{\"x\":0,\"y\":0}]"),
                "twice",
            ),
            (ok.replace("\"sourceSeeds\":[0]", "\"sourceSeeds\":[-1]"), "not a problem"),
            ("{".to_string(), "not a problem"),
        ];
        for (json, why) in cases {
            let e = Problem::parse(&json).unwrap_err().to_string();
            assert!(e.contains(why), "{e} should say {why}");
        }
    }
}
