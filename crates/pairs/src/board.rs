//! Boards: H x W tiles of colours `0..C`, as the tester writes them (H, then H rows of digits).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The largest side a board may have (rows are kept as 128-bit masks by the solver).
pub const MAX_SIDE: usize = 128;

/// The largest number of colours (one digit each).
pub const MAX_COLORS: usize = 10;

/// A cell of the board: row `r`, column `c`, 0-based.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct Cell {
    /// Row.
    pub r: u8,
    /// Column.
    pub c: u8,
}

impl Cell {
    /// The cell at row `r`, column `c`.
    pub fn new(r: usize, c: usize) -> Cell {
        Cell { r: r as u8, c: c as u8 }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.r, self.c)
    }
}

/// Why a board could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Nothing to read.
    #[error("empty board")]
    Empty,
    /// A first line announcing more rows than any board holds.
    #[error("the first line announces a number of rows of {digits} digits: far too many")]
    HugeHeader {
        /// Its digits.
        digits: usize,
    },
    /// Fewer rows than announced.
    #[error("the board announces {announced} rows but has {found}")]
    MissingRows {
        /// Rows announced on the first line.
        announced: usize,
        /// Rows present.
        found: usize,
    },
    /// Text after the last announced row.
    #[error("line {0}: text after the last row")]
    TrailingText(usize),
    /// A character other than a digit.
    #[error("line {line}: {ch:?} is not a colour digit")]
    BadChar {
        /// 1-based line number.
        line: usize,
        /// The offending character.
        ch: char,
    },
    /// Rows of different lengths.
    #[error("line {line}: row of {len} tiles, the first row has {width}")]
    Ragged {
        /// 1-based line number.
        line: usize,
        /// This row's length.
        len: usize,
        /// The first row's length.
        width: usize,
    },
    /// A side is empty or longer than [`MAX_SIDE`].
    #[error("a {h} x {w} board: each side must be 1..={MAX_SIDE}")]
    Size {
        /// Rows.
        h: usize,
        /// Columns.
        w: usize,
    },
}

/// A board: `h` rows of `w` colours, row-major.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    h: usize,
    w: usize,
    colors: usize,
    cells: Vec<u8>,
}

impl Board {
    /// A board of `h` rows of `w` colours (row-major). The number of colours is the largest
    /// colour plus one.
    pub fn new(h: usize, w: usize, cells: Vec<u8>) -> Result<Board, BoardError> {
        if h == 0 || w == 0 || h > MAX_SIDE || w > MAX_SIDE || cells.len() != h * w {
            return Err(BoardError::Size { h, w });
        }
        if let Some(i) = cells.iter().position(|&k| usize::from(k) >= MAX_COLORS) {
            return Err(BoardError::BadChar { line: i / w + 1, ch: char::from(cells[i]) });
        }
        let colors = usize::from(cells.iter().copied().max().unwrap_or(0)) + 1;
        Ok(Board { h, w, colors, cells })
    }

    /// Reads the tester's format (H, then H rows of digits) or bare rows. Blank lines at the
    /// end and `\r` are ignored.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let end = lines.iter().rposition(|l| !l.trim().is_empty()).map_or(0, |i| i + 1);
        let lines = &lines[..end];
        let first = lines.first().ok_or(BoardError::Empty)?.trim();
        // A first line holding a number written plainly (no leading zero) announces H, unless
        // it looks like the first of bare rows (as long as the next row, and not H rows follow).
        // Alone, it is a header whose rows are missing (the tester never sends a single row).
        let header = match first.parse::<usize>() {
            Ok(h) if first == h.to_string() && lines.len() == 1 => Some(h),
            Ok(h) if first == h.to_string() => {
                (lines.len() - 1 == h || lines[1].trim().len() != first.len()).then_some(h)
            }
            // A number too large to be a count of rows, where it would be read as one.
            Err(e)
                if *e.kind() == std::num::IntErrorKind::PosOverflow
                    && !first.starts_with('0')
                    && (lines.len() == 1 || lines[1].trim().len() != first.len()) =>
            {
                return Err(BoardError::HugeHeader { digits: first.len() });
            }
            _ => None,
        };
        // Lines after the first are counted, so that a huge H cannot overflow.
        let after = lines.len() - 1;
        let (rows, offset) = match header {
            Some(h) if after < h => return Err(BoardError::MissingRows { announced: h, found: after }),
            Some(h) if after > h => return Err(BoardError::TrailingText(h + 2)),
            Some(_) => (&lines[1..], 1),
            None => (lines, 0),
        };
        Self::from_rows(rows, offset)
    }

    fn from_rows(rows: &[&str], offset: usize) -> Result<Board, BoardError> {
        let w = rows.first().map_or(0, |r| r.trim().len());
        let mut cells = Vec::with_capacity(rows.len() * w);
        for (i, row) in rows.iter().enumerate() {
            let row = row.trim();
            let line = i + offset + 1;
            if let Some(ch) = row.chars().find(|ch| !ch.is_ascii_digit()) {
                return Err(BoardError::BadChar { line, ch });
            }
            if row.len() != w {
                return Err(BoardError::Ragged { line, len: row.len(), width: w });
            }
            cells.extend(row.bytes().map(|b| b - b'0'));
        }
        Board::new(rows.len(), w, cells)
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.h
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.w
    }

    /// Colours (the largest colour plus one).
    pub fn colors(&self) -> usize {
        self.colors
    }

    /// Tiles: H x W.
    pub fn tiles(&self) -> usize {
        self.h * self.w
    }

    /// The colour of a cell.
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.w + c]
    }

    /// The colours, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Whether a cell is on the board.
    pub fn contains(&self, cell: Cell) -> bool {
        usize::from(cell.r) < self.h && usize::from(cell.c) < self.w
    }

    /// The rows as digit strings.
    pub fn rows(&self) -> Vec<String> {
        self.cells.chunks(self.w).map(|row| row.iter().map(|&k| char::from(b'0' + k)).collect()).collect()
    }

    /// The rows joined by newlines, no trailing newline (what the board vectors hash).
    pub fn text(&self) -> String {
        self.rows().join("\n")
    }

    /// The tester's input: H, then the rows, each line ending in a newline.
    pub fn tester_input(&self) -> String {
        format!("{}\n{}\n", self.h, self.text())
    }

    /// The board mirrored along its main diagonal: cell `(r, c)` becomes `(c, r)`.
    pub(crate) fn transposed(&self) -> Board {
        let cells = (0..self.tiles()).map(|i| self.get(i % self.h, i / self.h)).collect();
        Board { h: self.w, w: self.h, colors: self.colors, cells }
    }

    /// Tiles of each colour.
    pub fn counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.colors];
        for &k in &self.cells {
            counts[usize::from(k)] += 1;
        }
        counts
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {} x {}, {} colours", self.h, self.w, self.colors)?;
        for row in self.rows() {
            writeln!(f, "  {row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats_read_the_same_board() {
        let a = Board::parse("2\n0110\n1001\n").unwrap();
        let b = Board::parse("0110\r\n1001\n\n").unwrap();
        assert_eq!(a, b);
        assert_eq!((a.height(), a.width(), a.colors()), (2, 4, 2));
        assert_eq!(a.tester_input(), "2\n0110\n1001\n");
        // A board whose first row is a number: "11" with two rows of two is bare rows.
        let c = Board::parse("11\n00\n").unwrap();
        assert_eq!(c.height(), 2);
        let d = Board::parse("1\n5\n").unwrap();
        assert_eq!((d.height(), d.width(), d.colors()), (1, 1, 6));
    }

    #[test]
    fn bad_boards_say_why() {
        assert_eq!(Board::parse(""), Err(BoardError::Empty));
        assert_eq!(Board::parse("3\n01\n10\n"), Err(BoardError::MissingRows { announced: 3, found: 2 }));
        assert_eq!(Board::parse("12\n"), Err(BoardError::MissingRows { announced: 12, found: 0 }));
        assert_eq!(Board::parse("99999999999999999999\n11\n"), Err(BoardError::HugeHeader { digits: 20 }));
        // As long as the next row: bare rows.
        assert!(Board::parse("99999999999999999999\n11111111111111111111\n").is_ok());
        assert_eq!(Board::parse("01\n1a\n"), Err(BoardError::BadChar { line: 2, ch: 'a' }));
        assert_eq!(Board::parse("01\n101\n"), Err(BoardError::Ragged { line: 2, len: 3, width: 2 }));
        assert_eq!(Board::parse("x2\n01\n"), Err(BoardError::BadChar { line: 1, ch: 'x' }));
        assert!(matches!(Board::parse(&"0".repeat(129)), Err(BoardError::Size { .. })));
    }
}
