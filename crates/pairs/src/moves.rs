//! Moves and the tester's output format: N, then N lines `r1 c1 r2 c2`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Cell;

/// A move: remove the tiles at `a` and `b`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Move {
    /// The first tile.
    pub a: Cell,
    /// The second tile.
    pub b: Cell,
}

impl Move {
    /// The move removing `a` and `b`.
    #[must_use]
    pub fn new(a: Cell, b: Cell) -> Move {
        Move { a, b }
    }

    /// The move as JSON lists it: `[r1, c1, r2, c2]`.
    #[must_use]
    pub fn to_array(self) -> [u8; 4] {
        [self.a.r, self.a.c, self.b.r, self.b.c]
    }

    /// The move of `[r1, c1, r2, c2]`.
    #[must_use]
    pub fn from_array([r1, c1, r2, c2]: [u8; 4]) -> Move {
        Move::new(Cell { r: r1, c: c1 }, Cell { r: r2, c: c2 })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} {}", self.a.r, self.a.c, self.b.r, self.b.c)
    }
}

/// Why a list of moves could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    /// No move count.
    #[error("no move count (the first line must be the number of moves)")]
    Empty,
    /// The first line is not a count.
    #[error("line 1: {0:?} is not a number of moves")]
    BadCount(String),
    /// A move line that is not four numbers.
    #[error("line {line}: {text:?} is not a move `r1 c1 r2 c2`")]
    BadMove {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// Fewer move lines than announced.
    #[error("{announced} moves announced, {found} given")]
    Missing {
        /// The count on the first line.
        announced: usize,
        /// Move lines present.
        found: usize,
    },
    /// Text after the announced moves.
    #[error("line {0}: text after the last announced move")]
    Trailing(usize),
}

/// Reads the tester's format: N, then N lines of four numbers. Blank lines at the end and `\r`
/// are ignored.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, MovesError> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let end = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    let lines = &lines[..end];
    let first = lines.first().ok_or(MovesError::Empty)?;
    let n: usize = first.parse().map_err(|_| MovesError::BadCount(first.to_string()))?;
    // Counted after the first line, so that a huge count cannot overflow.
    let found = lines.len() - 1;
    if found < n {
        return Err(MovesError::Missing { announced: n, found });
    }
    if found > n {
        return Err(MovesError::Trailing(n + 2));
    }
    lines[1..].iter().enumerate().map(|(i, l)| parse_move(l).ok_or_else(|| bad(i + 2, l))).collect()
}

fn bad(line: usize, text: &str) -> MovesError {
    MovesError::BadMove { line, text: text.to_string() }
}

/// One line `r1 c1 r2 c2` (numbers below 256).
pub fn parse_move(line: &str) -> Option<Move> {
    let v: Vec<u8> = line.split_whitespace().map(str::parse).collect::<Result<_, _>>().ok()?;
    match v[..] {
        [r1, c1, r2, c2] => Some(Move::new(Cell { r: r1, c: c1 }, Cell { r: r2, c: c2 })),
        _ => None,
    }
}

/// The tester's format: N, then one line per move, each ending in a newline.
pub fn format_moves(moves: &[Move]) -> String {
    let mut out = format!("{}\n", moves.len());
    for m in moves {
        out += &format!("{m}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let m = vec![Move::new(Cell::new(0, 1), Cell::new(2, 3)), Move::new(Cell::new(9, 9), Cell::new(9, 8))];
        assert_eq!(parse_moves(&format_moves(&m)), Ok(m));
        assert_eq!(parse_moves("0\n\n"), Ok(vec![]));
        assert_eq!(parse_moves(""), Err(MovesError::Empty));
        assert_eq!(parse_moves("x\n"), Err(MovesError::BadCount("x".into())));
        assert_eq!(parse_moves("2\n0 0 0 1\n"), Err(MovesError::Missing { announced: 2, found: 1 }));
        assert_eq!(parse_moves("1\n0 0 0 1\n1 1 1 1\n"), Err(MovesError::Trailing(3)));
        assert_eq!(parse_moves("1\n0 0 0\n"), Err(MovesError::BadMove { line: 2, text: "0 0 0".into() }));
        assert!(parse_moves("1\n0 0 0 -1\n").is_err());
    }
}
