//! A tiling problem: a board and piece types, in lattice coordinates; and pictures as text.
//!
//! Cells are [`Coord`]s in the lattice's coordinate form (see [`tessera_core::geometry`]).
//! Pictures use offset coordinates `(col, row)`, row 0 at the top. On the square lattice each
//! character is a cell; on the hex lattice cells are separated by spaces and odd rows start with
//! one extra space, as the meteor board is drawn; on the triangle lattice each character is a
//! triangle, up where `col + row` is even. In all, `.` and space are not cells. Cube boards are
//! drawn layer by layer, side by side.

use tessera_core::geometry::{Coord, Lattice, Polyform, to_corner};

/// Most cells a board may have (and pieces may cover in all).
pub const MAX_CELLS: usize = 1 << 16;

/// Most cells a board or piece may span along any axis.
pub const MAX_SIDE: i32 = 4096;

/// Largest volume of a bounding box of lattice coordinates (holes included).
pub const MAX_AREA: i64 = 1 << 20;

/// A piece type: its shape (picture cells), how many copies, whether it may be turned over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// One-character label, used to draw solutions.
    pub label: char,
    /// Cells in lattice coordinates.
    pub cells: Vec<Coord>,
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
    /// Board cells in lattice coordinates; solutions are reported in this order.
    pub board: Vec<Coord>,
    /// The piece types.
    pub pieces: Vec<PieceSpec>,
}

impl Problem {
    /// Checks the problem against the solvers' limits: a board and pieces, cells of the lattice
    /// each given once, pieces in one part, counts of at least one, labels used once, extents
    /// within [`MAX_SIDE`] and [`MAX_AREA`], at most [`MAX_CELLS`] cells of board and of pieces.
    pub fn check(&self) -> Result<(), String> {
        if self.board.is_empty() || self.board.len() > MAX_CELLS {
            return Err(format!("the board must have 1 to {MAX_CELLS} cells"));
        }
        check_cells(self.lattice, &self.board).map_err(|e| format!("the board {e}"))?;
        check_extent(&self.board).map_err(|e| format!("the board is {e}"))?;
        if self.pieces.is_empty() || self.piece_area() > MAX_CELLS as u64 {
            return Err(format!("there must be pieces, of at most {MAX_CELLS} cells in all"));
        }
        for (k, p) in self.pieces.iter().enumerate() {
            if p.cells.is_empty() || p.count == 0 {
                return Err(format!("piece {:?} needs cells and a count of at least 1", p.label));
            }
            check_cells(self.lattice, &p.cells).map_err(|e| format!("piece {:?} {e}", p.label))?;
            check_extent(&p.cells).map_err(|e| format!("piece {:?} is {e}", p.label))?;
            if self.pieces[..k].iter().any(|q| q.label == p.label) {
                return Err(format!("piece label {:?} is used twice", p.label));
            }
            if !Polyform::new(self.lattice, p.cells.iter().copied()).is_connected() {
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

/// Whether every cell is one of the lattice's and none is given twice; the error names one
/// that is not ("has ..." or "repeats ...").
pub fn check_cells(lattice: Lattice, cells: &[Coord]) -> Result<(), String> {
    if let Some(c) = cells.iter().find(|&&c| !lattice.contains(c)) {
        let what = match lattice {
            Lattice::Triangle => "a triangle's t must be 0 (up) or 1 (down)",
            _ => "a plane cell has no third coordinate",
        };
        return Err(format!("has the cell {}: {what}", show(lattice, *c)));
    }
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    match sorted.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(format!("repeats the cell {}", show(lattice, w[0]))),
        None => Ok(()),
    }
}

/// A cell in the coordinate form, for messages: `(x y)` or `(x y z)`.
pub fn show(lattice: Lattice, c: Coord) -> String {
    let coords: Vec<String> = c.coords(lattice).iter().map(i32::to_string).collect();
    format!("({})", coords.join(" "))
}

/// Whether cells span at most [`MAX_SIDE`] along every axis and [`MAX_AREA`] cells of bounding
/// box; the error says how big they are.
pub fn check_extent(cells: &[Coord]) -> Result<(), String> {
    let span = |f: fn(&Coord) -> i32| {
        let (lo, hi) = (cells.iter().map(f).min().unwrap_or(0), cells.iter().map(f).max().unwrap_or(0));
        i64::from(hi) - i64::from(lo) + 1
    };
    let (w, h, d) = (span(|c| c.x), span(|c| c.y), span(|c| c.z));
    let side = i64::from(MAX_SIDE);
    if w > side || h > side || d > side || w * h * d > MAX_AREA {
        let depth = if d > 2 { format!(" and {d} deep") } else { String::new() };
        return Err(format!("{w} wide and {h} high{depth}: at most {MAX_SIDE} on a side and {MAX_AREA} cells in all"));
    }
    Ok(())
}

/// The cells of a picture given as rows of text, as `(col, row)` (see
/// [`Lattice::from_offset`] for their lattice coordinates). On error, the index of the offending
/// row and what is wrong with it.
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
                Lattice::Square | Lattice::Triangle => j,
                Lattice::Cube => return Err((r, "cube boards and pieces are given as cells, not pictures".into())),
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

/// The picture cells `(col, row, label)` of labelled lattice cells: where [`draw`] and SVG
/// pictures put them. Cube layers lie side by side, one column apart, lowest `z` first.
pub fn picture(lattice: Lattice, cells: impl IntoIterator<Item = (Coord, char)>) -> Vec<(i32, i32, char)> {
    let cells: Vec<(Coord, char)> = cells.into_iter().collect();
    if lattice != Lattice::Cube {
        return cells
            .into_iter()
            .map(|(c, l)| {
                let (col, row) = lattice.to_offset(c);
                (col, row, l)
            })
            .collect();
    }
    let low = |f: fn(&Coord) -> i32| cells.iter().map(|(c, _)| f(c)).min().unwrap_or(0);
    let (x0, y0, z0) = (low(|c| c.x), low(|c| c.y), low(|c| c.z));
    let width = cells.iter().map(|(c, _)| c.x - x0 + 1).max().unwrap_or(0);
    cells.into_iter().map(|(c, l)| (c.x - x0 + (c.z - z0) * (width + 1), c.y - y0, l)).collect()
}

/// Draws labelled picture cells in the picture layout (hex: spaced and indented; holes as `.`),
/// rows from the smallest row present. Hex rows keep their parity, triangles their direction;
/// on the cube lattice, columns that hold no cell (between layers) are blank.
pub fn draw(lattice: Lattice, cells: impl IntoIterator<Item = (i32, i32, char)>) -> String {
    let cells: Vec<(i32, i32, char)> = cells.into_iter().collect();
    if cells.is_empty() {
        return String::new();
    }
    let corner = to_corner(lattice, cells.iter().map(|&(c, r, _)| (c, r)).collect());
    let (c1, r1) = (corner.iter().map(|c| c.0).max().unwrap_or(0), corner.iter().map(|c| c.1).max().unwrap_or(0));
    let width = (c1 + 1) as usize;
    let mut grid = vec![vec!['.'; width]; (r1 + 1) as usize];
    for (&(c, r), &(_, _, l)) in corner.iter().zip(&cells) {
        grid[r as usize][c as usize] = l;
    }
    if lattice == Lattice::Cube {
        for col in (0..width).filter(|&c| !corner.iter().any(|p| p.0 as usize == c)) {
            grid.iter_mut().for_each(|row| row[col] = ' ');
        }
    }
    let mut s = String::new();
    for (k, row) in grid.iter().enumerate() {
        let line: String = match lattice {
            Lattice::Square | Lattice::Triangle | Lattice::Cube => row.iter().collect(),
            Lattice::Hex => {
                let indent = if k % 2 == 1 { " " } else { "" };
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
    let read = |text: &str| {
        let cells = picture_cells(lattice, text.lines()).map_err(|(r, e)| format!("row {}: {e}", r + 1))?;
        Ok::<_, String>(cells.into_iter().map(|(c, r)| lattice.from_offset(c, r)).collect::<Vec<Coord>>())
    };
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
        let far = Problem {
            lattice: Lattice::Square,
            board: vec![Coord::new(0, 0), Coord::new(5000, 0)],
            pieces: ok.pieces.clone(),
        };
        assert!(far.check().unwrap_err().contains("at most 4096"));
    }
}
