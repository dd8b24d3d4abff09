//! A tiling problem: a board and piece types, in picture coordinates; and pictures as text.
//!
//! Pictures use offset coordinates `(col, row)`, row 0 at the top. On the square lattice each
//! character is a cell; on the hex lattice cells are separated by spaces and odd rows start with
//! one extra space, as the meteor board is drawn. In both, `.` and space are not cells.

use tessera_core::geometry::{Lattice, Polyform};

/// Most cells a board may have (and pieces may cover in all).
pub const MAX_CELLS: usize = 1 << 16;

/// Most rows or columns a picture may span.
pub const MAX_SIDE: i32 = 4096;

/// Largest area of a picture's bounding box (holes included).
pub const MAX_AREA: i64 = 1 << 20;

/// A piece type: its shape (picture cells), how many copies, whether it may be turned over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// One-character label, used to draw solutions.
    pub label: char,
    /// Cells as picture coordinates `(col, row)`.
    pub cells: Vec<(i32, i32)>,
    /// Number of identical copies (at least 1).
    pub count: u32,
    /// Whether mirror images may be used.
    pub mirror: bool,
}

/// A board and the pieces that must cover it exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The lattice of board and pieces.
    pub lattice: Lattice,
    /// Board cells as picture coordinates `(col, row)`, in reading order (row by row).
    pub board: Vec<(i32, i32)>,
    /// The piece types.
    pub pieces: Vec<PieceSpec>,
}

impl Problem {
    /// Checks the problem against the solvers' limits: a board and pieces, pieces in one part,
    /// counts of at least one, labels used once, pictures within [`MAX_SIDE`] and [`MAX_AREA`], at
    /// most [`MAX_CELLS`] cells of board and of pieces.
    pub fn check(&self) -> Result<(), String> {
        if self.board.is_empty() || self.board.len() > MAX_CELLS {
            return Err(format!("the board must have 1 to {MAX_CELLS} cells"));
        }
        check_extent(&self.board).map_err(|e| format!("the board is {e}"))?;
        if self.pieces.is_empty() || self.piece_area() > MAX_CELLS as u64 {
            return Err(format!("there must be pieces, of at most {MAX_CELLS} cells in all"));
        }
        for (k, p) in self.pieces.iter().enumerate() {
            if p.cells.is_empty() || p.count == 0 {
                return Err(format!("piece {:?} needs cells and a count of at least 1", p.label));
            }
            check_extent(&p.cells).map_err(|e| format!("piece {:?} is {e}", p.label))?;
            if self.pieces[..k].iter().any(|q| q.label == p.label) {
                return Err(format!("piece label {:?} is used twice", p.label));
            }
            if !Polyform::from_offsets(self.lattice, p.cells.iter().copied()).is_connected() {
                return Err(format!("piece {:?} is in several parts: every cell must touch another", p.label));
            }
        }
        Ok(())
    }

    /// Total cells of all pieces, counted with multiplicity.
    pub fn piece_area(&self) -> u64 {
        self.pieces.iter().map(|p| p.cells.len() as u64 * u64::from(p.count)).sum()
    }

    /// Total number of pieces, counted with multiplicity.
    pub fn piece_count(&self) -> u64 {
        self.pieces.iter().map(|p| u64::from(p.count)).sum()
    }
}

/// Whether cells span at most [`MAX_SIDE`] on a side and [`MAX_AREA`] cells of bounding box;
/// the error says how big they are.
pub fn check_extent(cells: &[(i32, i32)]) -> Result<(), String> {
    let span = |f: fn(&(i32, i32)) -> i32| {
        let (lo, hi) = (cells.iter().map(f).min().unwrap_or(0), cells.iter().map(f).max().unwrap_or(0));
        i64::from(hi) - i64::from(lo) + 1
    };
    let (w, h) = (span(|c| c.0), span(|c| c.1));
    if w > i64::from(MAX_SIDE) || h > i64::from(MAX_SIDE) || w * h > MAX_AREA {
        return Err(format!("{w} wide and {h} high: at most {MAX_SIDE} on a side and {MAX_AREA} cells in all"));
    }
    Ok(())
}

/// The cells of a picture given as rows of text, as `(col, row)`. On error, the index of the
/// offending row and what is wrong with it.
pub fn picture_cells<'a>(
    lattice: Lattice,
    rows: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<(i32, i32)>, (usize, String)> {
    let mut cells = Vec::new();
    for (r, row) in rows.into_iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            if ch == ' ' || ch == '.' {
                continue;
            }
            if ch.is_control() {
                return Err((r, format!("control character {ch:?} in a picture")));
            }
            let col = match lattice {
                Lattice::Square => j,
                Lattice::Hex => {
                    let shift = r % 2;
                    if j < shift || (j - shift) % 2 != 0 {
                        let why = "cells are separated by spaces and odd rows start with one extra space";
                        return Err((r, format!("{ch:?} at column {} is between hex cells: {why}", j + 1)));
                    }
                    (j - shift) / 2
                }
            };
            if col as i64 >= i64::from(MAX_SIDE) || r as i64 >= i64::from(MAX_SIDE) {
                return Err((r, format!("a picture reaches past {MAX_SIDE} rows or columns")));
            }
            cells.push((col as i32, r as i32));
        }
    }
    Ok(cells)
}

/// Draws labelled picture cells in the picture layout (hex: spaced and indented; holes as `.`),
/// rows from the smallest row present. Hex rows keep their parity.
pub fn draw(lattice: Lattice, cells: impl IntoIterator<Item = (i32, i32, char)>) -> String {
    let cells: Vec<(i32, i32, char)> = cells.into_iter().collect();
    if cells.is_empty() {
        return String::new();
    }
    let (c0, c1) = (cells.iter().map(|c| c.0).min().unwrap_or(0), cells.iter().map(|c| c.0).max().unwrap_or(0));
    let (mut r0, r1) = (cells.iter().map(|c| c.1).min().unwrap_or(0), cells.iter().map(|c| c.1).max().unwrap_or(0));
    if lattice == Lattice::Hex {
        // Start on an even row, so that the first line is not indented (a row of holes if needed).
        r0 -= r0.rem_euclid(2);
    }
    let width = (c1 - c0 + 1) as usize;
    let mut grid = vec![vec!['.'; width]; (r1 - r0 + 1) as usize];
    for &(c, r, l) in &cells {
        grid[(r - r0) as usize][(c - c0) as usize] = l;
    }
    let mut s = String::new();
    for (k, row) in grid.iter().enumerate() {
        let line: String = match lattice {
            Lattice::Square => row.iter().collect(),
            Lattice::Hex => {
                let indent = if (r0 + k as i32).rem_euclid(2) == 1 { " " } else { "" };
                let spaced: Vec<String> = row.iter().map(char::to_string).collect();
                format!("{indent}{}", spaced.join(" "))
            }
        };
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// A problem from pictures: the board's, and each piece type's `(label, count, mirror, picture)`.
/// Rows are separated by newlines; the pictures must be valid (this is for problems built in
/// code and tests).
///
/// ```
/// use tessera_core::geometry::Lattice;
/// use tessera_polyform::tiler::problem::from_pictures;
/// let p = from_pictures(Lattice::Square, "###\n###", &[('D', 3, true, "##")]).unwrap();
/// assert_eq!((p.board.len(), p.piece_area()), (6, 6));
/// ```
pub fn from_pictures(lattice: Lattice, board: &str, pieces: &[(char, u32, bool, &str)]) -> Result<Problem, String> {
    let read = |text: &str| picture_cells(lattice, text.lines()).map_err(|(r, e)| format!("row {}: {e}", r + 1));
    let problem = Problem {
        lattice,
        board: read(board)?,
        pieces: pieces
            .iter()
            .map(|&(label, count, mirror, picture)| Ok(PieceSpec { label, cells: read(picture)?, count, mirror }))
            .collect::<Result<_, String>>()?,
    };
    problem.check()?;
    Ok(problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_on_both_lattices() {
        assert_eq!(picture_cells(Lattice::Square, ["#.#", " #"]).unwrap(), vec![(0, 0), (2, 0), (1, 1)]);
        assert_eq!(picture_cells(Lattice::Hex, ["# #", " #"]).unwrap(), vec![(0, 0), (1, 0), (0, 1)]);
        assert_eq!(picture_cells(Lattice::Hex, ["##"]).unwrap_err().0, 0);
        assert!(draw(Lattice::Hex, [(0, 1, 'a')]).starts_with(".\n a"));
    }

    #[test]
    fn check_names_the_fault() {
        let ok = from_pictures(Lattice::Square, "##", &[('A', 2, true, "#")]).unwrap();
        assert_eq!(ok.piece_count(), 2);
        let split = from_pictures(Lattice::Square, "###", &[('A', 1, true, "#.#")]).unwrap_err();
        assert!(split.contains("several parts"), "{split}");
        let twice = from_pictures(Lattice::Square, "##", &[('A', 1, true, "#"), ('A', 1, true, "#")]).unwrap_err();
        assert!(twice.contains("twice"), "{twice}");
        let far = Problem { lattice: Lattice::Square, board: vec![(0, 0), (5000, 0)], pieces: ok.pieces.clone() };
        assert!(far.check().unwrap_err().contains("at most 4096"));
    }
}
