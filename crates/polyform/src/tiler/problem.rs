//! A tiling problem: a board and piece types, in lattice coordinates; and pictures as text.
//!
//! Cells are [`Coord`]s in the lattice's coordinate form (see [`tessera_core::geometry`]).
//! Pictures use offset coordinates `(col, row)`, row 0 at the top. On the square lattice each
//! character is a cell; on the hex lattice cells are separated by spaces and odd rows start with
//! one extra space, as the meteor board is drawn; on the triangle lattice each character is a
//! triangle, up where `col + row` is even. In all, `.` and space are not cells. Cube boards are
//! drawn layer by layer, side by side.

use tessera_core::geometry::{Coord, Lattice, to_corner};

/// Most cells a board may have (and pieces may cover in all).
pub const MAX_CELLS: usize = 1 << 16;

/// Most cells a board or piece may span along any axis.
pub const MAX_SIDE: i32 = 4096;

/// Largest volume of a bounding box of lattice coordinates (holes included).
pub const MAX_AREA: i64 = 1 << 20;

/// The label of an optional board cell left empty, in drawings and labellings of tilings (no
/// piece may take it: it marks holes in pictures).
pub const EMPTY: char = '.';

/// A piece type: its shape (picture cells), how many copies, whether it may be turned over, and
/// the colours of its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// One-character label, used to draw solutions.
    pub label: char,
    /// Cells in lattice coordinates.
    pub cells: Vec<Coord>,
    /// Most copies a tiling uses (at least 1); identical copies are interchangeable.
    pub count: u32,
    /// Fewest copies a tiling uses: `count` for a plain piece, less for a piece with a range.
    pub min: u32,
    /// Whether mirror images may be used.
    pub mirror: bool,
    /// The colour of each cell, in the order of `cells` (0 is neutral); empty: every cell
    /// neutral.
    pub colours: Vec<u8>,
}

impl PieceSpec {
    /// A piece of `count` copies exactly, every cell neutral.
    pub fn new(label: char, cells: Vec<Coord>, count: u32, mirror: bool) -> Self {
        PieceSpec { label, cells, count, min: count, mirror, colours: Vec::new() }
    }

    /// Whether a tiling may use fewer copies than `count`.
    pub fn has_range(&self) -> bool {
        self.min < self.count
    }

    /// The colour of cell `k` (0: neutral).
    pub fn colour(&self, k: usize) -> u8 {
        self.colours.get(k).copied().unwrap_or(0)
    }
}

/// A board and the pieces that must cover it: every board cell exactly once, but the optional
/// ones, which may stay empty; each piece type with a number of copies in its range; a piece's
/// coloured cell only on a board cell of a colour it matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The lattice of board and pieces.
    pub lattice: Lattice,
    /// Board cells in lattice coordinates; solutions are reported in this order.
    pub board: Vec<Coord>,
    /// The piece types.
    pub pieces: Vec<PieceSpec>,
    /// Whether each board cell may stay empty; empty: none may.
    pub optional: Vec<bool>,
    /// The colour of each board cell (0 is neutral); empty: every cell neutral.
    pub colours: Vec<u8>,
    /// Which piece colour may cover which board colour, as `(piece, board)` pairs. A neutral
    /// cell (colour 0) of either matches any cell of the other.
    pub matches: Vec<(u8, u8)>,
    /// At most this many optional cells may stay empty (`None`: as many as the pieces leave).
    pub max_holes: Option<u32>,
    /// Whether a tiling and its mirror image are distinct (BurrTools' "keep mirror solutions"):
    /// distinct tilings are then counted up to the board's rotations only.
    pub keep_mirrors: bool,
}

impl Problem {
    /// A board to cover exactly with the pieces: no optional cell, no colour.
    pub fn new(lattice: Lattice, board: Vec<Coord>, pieces: Vec<PieceSpec>) -> Self {
        Problem {
            lattice,
            board,
            pieces,
            optional: Vec::new(),
            colours: Vec::new(),
            matches: Vec::new(),
            max_holes: None,
            keep_mirrors: false,
        }
    }

    /// Checks the problem against the solvers' limits: a board and pieces, cells of the lattice
    /// each given once, counts of at least one and ranges within them, labels used once (and
    /// not [`EMPTY`]), a flag and a colour per board cell and a colour per piece cell when any
    /// are given, extents within [`MAX_SIDE`] and [`MAX_AREA`], at most [`MAX_CELLS`] cells of
    /// board and of pieces. A piece may be in several parts (BurrTools allows that); the text
    /// format asks for it to be said.
    pub fn check(&self) -> Result<(), String> {
        if self.board.is_empty() || self.board.len() > MAX_CELLS {
            return Err(format!("the board must have 1 to {MAX_CELLS} cells"));
        }
        check_cells(self.lattice, &self.board).map_err(|e| format!("the board {e}"))?;
        check_extent(&self.board).map_err(|e| format!("the board is {e}"))?;
        let n = self.board.len();
        if !self.optional.is_empty() && self.optional.len() != n {
            return Err(format!("{} optional flags for {n} board cells", self.optional.len()));
        }
        if !self.colours.is_empty() && self.colours.len() != n {
            return Err(format!("{} colours for {n} board cells", self.colours.len()));
        }
        if self.pieces.is_empty() || self.piece_area() > MAX_CELLS as u64 {
            return Err(format!("there must be pieces, of at most {MAX_CELLS} cells in all"));
        }
        for (k, p) in self.pieces.iter().enumerate() {
            if p.cells.is_empty() || p.count == 0 {
                return Err(format!("piece {:?} needs cells and a count of at least 1", p.label));
            }
            if p.min > p.count {
                return Err(format!(
                    "piece {:?} has the range {}..{}: its least is more than its most",
                    p.label, p.min, p.count
                ));
            }
            if p.label == EMPTY {
                return Err(format!("{EMPTY:?} cannot label a piece: it marks empty cells"));
            }
            check_cells(self.lattice, &p.cells).map_err(|e| format!("piece {:?} {e}", p.label))?;
            check_extent(&p.cells).map_err(|e| format!("piece {:?} is {e}", p.label))?;
            if !p.colours.is_empty() && p.colours.len() != p.cells.len() {
                return Err(format!("piece {:?} has {} colours for {} cells", p.label, p.colours.len(), p.cells.len()));
            }
            if self.pieces[..k].iter().any(|q| q.label == p.label) {
                return Err(format!("piece label {:?} is used twice", p.label));
            }
        }
        Ok(())
    }

    /// Total cells of all pieces, counted with multiplicity (the most copies of each).
    pub fn piece_area(&self) -> u64 {
        self.pieces.iter().map(|p| p.cells.len() as u64 * u64::from(p.count)).sum()
    }

    /// Total cells of the fewest copies of each piece.
    pub fn least_piece_area(&self) -> u64 {
        self.pieces.iter().map(|p| p.cells.len() as u64 * u64::from(p.min)).sum()
    }

    /// Total number of pieces, counted with multiplicity (the most copies of each).
    pub fn piece_count(&self) -> u64 {
        self.pieces.iter().map(|p| u64::from(p.count)).sum()
    }

    /// Whether some piece has a range of copies.
    pub fn has_ranges(&self) -> bool {
        self.pieces.iter().any(PieceSpec::has_range)
    }

    /// The same problem with its optional cells settled where the pieces leave them no choice:
    /// without ranges, pieces of as many cells as the cells that must be covered leave every
    /// optional cell empty (they are dropped from the board), and pieces of as many cells as
    /// the whole board cover every one (they become plain cells). `None` if neither holds, or
    /// if settling them would change the board's symmetries (the optional cells are part of
    /// its shape). The searches then see a plain board: its cells in lines, its pockets
    /// checked, no empty cells to place.
    pub fn settled(&self) -> Option<Problem> {
        let holes = self.optional_cells();
        if holes == 0 || self.has_ranges() {
            return None;
        }
        let (area, cells) = (self.piece_area(), self.board.len() as u64);
        let mut settled = self.clone();
        if area == cells - holes as u64 && self.max_holes.is_none_or(|h| holes as u64 <= u64::from(h)) {
            let keep: Vec<usize> = (0..self.board.len()).filter(|&k| !self.is_optional(k)).collect();
            settled.board = keep.iter().map(|&k| self.board[k]).collect();
            if !self.colours.is_empty() {
                settled.colours = keep.iter().map(|&k| self.colour(k)).collect();
            }
        } else if area != cells {
            return None;
        }
        settled.optional = Vec::new();
        settled.max_holes = None;
        (crate::tiler::plan::symmetry_count(self) == crate::tiler::plan::symmetry_count(&settled)).then_some(settled)
    }

    /// Whether board cell `k` may stay empty.
    pub fn is_optional(&self, k: usize) -> bool {
        self.optional.get(k).copied().unwrap_or(false)
    }

    /// Number of board cells that may stay empty.
    pub fn optional_cells(&self) -> usize {
        self.optional.iter().filter(|&&o| o).count()
    }

    /// The colour of board cell `k` (0: neutral).
    pub fn colour(&self, k: usize) -> u8 {
        self.colours.get(k).copied().unwrap_or(0)
    }

    /// Whether any board or piece cell has a colour.
    pub fn has_colours(&self) -> bool {
        self.colours.iter().chain(self.pieces.iter().flat_map(|p| &p.colours)).any(|&c| c != 0)
    }

    /// Whether a piece cell of colour `piece` may cover a board cell of colour `board`.
    pub fn allows(&self, piece: u8, board: u8) -> bool {
        piece == 0 || board == 0 || self.matches.contains(&(piece, board))
    }

    /// Whether the pieces' cells can number as many as the board's cells that must be covered
    /// and at most as many as all of them, the optional cells left empty within
    /// [`Problem::max_holes`]: otherwise no tiling exists.
    pub fn area_fits(&self) -> bool {
        let (least, most) = self.area_range();
        least <= most
    }

    /// The fewest and most cells the pieces of a tiling may cover, given the board: between the
    /// cells that must be covered (and all but `max_holes` of the optional ones) and all the
    /// board's cells, and between the least and most copies of the pieces.
    pub fn area_range(&self) -> (u64, u64) {
        let n = self.board.len() as u64;
        let optional = self.optional_cells() as u64;
        let holes = self.max_holes.map_or(optional, |h| optional.min(u64::from(h)));
        ((n - holes).max(self.least_piece_area()), n.min(self.piece_area()))
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
    Ok(picture_chars(lattice, rows)?.into_iter().map(|(c, r, _)| (c, r)).collect())
}

/// A picture cell `(col, row)` with the character drawn there.
pub type Drawn = (i32, i32, char);

/// [`picture_cells`] with the character drawn at each cell.
pub fn picture_chars<'a>(
    lattice: Lattice,
    rows: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Drawn>, (usize, String)> {
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
                Lattice::Cube | Lattice::Prism => {
                    let what = format!("{lattice} boards and pieces are given as cells, not pictures");
                    return Err((r, what));
                }
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
            cells.push((col as i32, r as i32, ch));
        }
    }
    Ok(cells)
}

/// The picture cells `(col, row, label)` of labelled lattice cells: where [`draw`] and SVG
/// pictures put them. Cube and prism layers lie side by side, one column apart (two on the prism
/// lattice, so that triangles keep their direction), lowest layer first.
pub fn picture(lattice: Lattice, cells: impl IntoIterator<Item = (Coord, char)>) -> Vec<(i32, i32, char)> {
    let cells: Vec<(Coord, char)> = cells.into_iter().collect();
    if !lattice.is_solid() {
        return cells
            .into_iter()
            .map(|(c, l)| {
                let (col, row) = lattice.to_offset(c);
                (col, row, l)
            })
            .collect();
    }
    // Each cell's place in its layer's picture, and its layer.
    let placed: Vec<(i32, i32, i32, char)> = cells
        .into_iter()
        .map(|(c, l)| match lattice {
            Lattice::Prism => {
                let (col, row) = lattice.to_offset(c);
                (col, row, c.layer(), l)
            }
            _ => (c.x, c.y, c.z, l),
        })
        .collect();
    let low = |f: fn(&(i32, i32, i32, char)) -> i32| placed.iter().map(f).min().unwrap_or(0);
    let (c0, r0, z0) = (low(|p| p.0), low(|p| p.1), low(|p| p.2));
    let width = placed.iter().map(|p| p.0 - c0 + 1).max().unwrap_or(0);
    // On triangles a layer moves by an even number of columns: its triangles keep their
    // direction (a triangle points up where its column plus its row is even).
    let (step, c0, r0) = match lattice {
        Lattice::Prism => ((width + 2) & !1, c0 & !1, r0 & !1),
        _ => (width + 1, c0, r0),
    };
    placed.into_iter().map(|(c, r, z, l)| (c - c0 + (z - z0) * step, r - r0, l)).collect()
}

/// Draws labelled picture cells in the picture layout (hex: spaced and indented; holes as `.`),
/// rows from the smallest row present. Hex rows keep their parity, triangles their direction;
/// on the cube and prism lattices, columns that hold no cell (between layers) are blank.
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
    if lattice.is_solid() {
        for col in (0..width).filter(|&c| !corner.iter().any(|p| p.0 as usize == c)) {
            grid.iter_mut().for_each(|row| row[col] = ' ');
        }
    }
    let mut s = String::new();
    for (k, row) in grid.iter().enumerate() {
        let line: String = match lattice {
            Lattice::Square | Lattice::Triangle | Lattice::Cube | Lattice::Prism => row.iter().collect(),
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
        board: read(board)?,
        pieces: pieces
            .iter()
            .map(|&(label, count, mirror, picture)| Ok(PieceSpec::new(label, read(picture)?, count, mirror)))
            .collect::<Result<_, String>>()?,
        ..Problem::new(lattice, Vec::new(), Vec::new())
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
        // A piece in two parts is a piece (BurrTools has them).
        assert!(from_pictures(Lattice::Square, "####", &[('A', 1, true, "#.#"), ('B', 2, true, "#")]).is_ok());
        let twice = from_pictures(Lattice::Square, "##", &[('A', 1, true, "#"), ('A', 1, true, "#")]).unwrap_err();
        assert!(twice.contains("twice"), "{twice}");
        let far = Problem::new(Lattice::Square, vec![Coord::new(0, 0), Coord::new(5000, 0)], ok.pieces.clone());
        assert!(far.check().unwrap_err().contains("at most 4096"));
    }
}
