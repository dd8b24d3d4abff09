//! Puzzles: a board and a set of pieces, and their text format.
//!
//! ```text
//! # Comments start with '#' (outside pictures).
//! name pentominoes 6x10
//! lattice square            # or: hex, triangle, cube
//! mirror yes                # default for pieces: may they be turned over?
//! expect raw 9356 distinct 2339
//! source Haselgrove and Haselgrove, 1960   # where the counts come from (free text)
//!
//! board                     # a picture: any character but '.' and ' ' is a cell
//! ##########
//! ...
//!
//! piece F                   # a one-character label, then optionally xCOUNT and mirror/fixed
//! .##
//! ##.
//! .#.
//! ```
//!
//! A picture runs from the line after its header to the next blank line (or the end of the file).
//! On the hex lattice cells are separated by spaces and odd rows start with one extra space, as
//! the meteor board is drawn; on the triangle lattice every character is a triangle, up where
//! column + row is even (both from 0), so that six triangles round a corner read `###` over `###`:
//!
//! ```text
//! board
//! # # # # #
//!  # # # # #
//! ```
//!
//! Any board or piece may instead be given as coordinates (cube ones must be): a header ending
//! in the word `cells` is followed by one cell per line, integers separated by spaces, until a
//! blank line. Square `x y`; hex `q r` (axial); triangle `x y t`, t = 0 up and 1 down, where
//! `(x, y, 0)` touches `(x, y, 1)`, `(x-1, y, 1)` and `(x, y-1, 1)`; cube `x y z`:
//!
//! ```text
//! lattice cube
//! board cells
//! 0 0 0
//! 1 0 0
//!
//! piece A fixed cells
//! 0 0 0
//! ```

use std::fmt::Write as _;

use tessera_core::geometry::{Coord, Lattice, Polyform};
pub use tessera_polyform::tiler::problem::{MAX_CELLS, PieceSpec, Problem, draw, picture};
use tessera_polyform::tiler::problem::{check_extent, picture_cells, show};

/// The words that start directives; a picture line that starts with one is almost surely a
/// directive that lost the blank line before it.
const KEYWORDS: [&str; 7] = ["name", "lattice", "mirror", "expect", "source", "board", "piece"];

/// Known solution counts, as stated by the puzzle file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expect {
    /// Every tiling.
    pub raw: Option<u64>,
    /// Tilings up to the board's symmetries.
    pub distinct: Option<u64>,
}

/// A tiling puzzle: a named problem, with the counts its file states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A human-readable name.
    pub name: String,
    /// The board and the pieces.
    pub problem: Problem,
    /// Known counts, if the file gives them.
    pub expect: Expect,
    /// Where the puzzle or its counts come from, if the file says.
    pub source: Option<String>,
}

/// A malformed puzzle file: the line (1-based; 0 for the file as a whole) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number (0 for the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 { f.write_str(&self.message) } else { write!(f, "line {}: {}", self.line, self.message) }
    }
}

impl std::error::Error for ParseError {}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line, message: message.into() })
}

/// A picture block as read, before the lattice is known.
struct Block {
    header_line: usize,
    kind: BlockKind,
    /// Whether the rows are coordinates (`cells`) rather than a picture.
    coordinates: bool,
    rows: Vec<(usize, String)>,
}

enum BlockKind {
    Board,
    Piece { label: char, count: u32, mirror: Option<bool> },
}

impl Puzzle {
    /// Parses the text format (see the module documentation).
    pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
        let mut name = None;
        let mut lattice = None;
        let mut mirror = true;
        let mut expect = Expect::default();
        let mut source = None;
        let mut blocks: Vec<Block> = Vec::new();
        let mut in_picture = false;
        for (k, raw) in text.lines().enumerate() {
            let line = k + 1;
            let row = raw.trim_end();
            if row.is_empty() {
                in_picture = false;
                continue;
            }
            if in_picture {
                if let Some(word) = row.split_whitespace().next().filter(|w| KEYWORDS.contains(w)) {
                    return err(line, format!("{word:?} inside a picture: end the picture with a blank line first"));
                }
                if let Some(b) = blocks.last_mut() {
                    b.rows.push((line, row.to_string()));
                }
                continue;
            }
            let content = row.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let mut words = content.split_whitespace();
            let keyword = words.next().unwrap_or("");
            let args: Vec<&str> = words.collect();
            match keyword {
                "name" => name = Some(args.join(" ")),
                "lattice" => lattice = Some(parse_lattice(line, &args)?),
                "mirror" => mirror = parse_yes_no(line, &args)?,
                "expect" => parse_expect(line, &args, &mut expect)?,
                "source" => source = Some(row.trim_start()["source".len()..].trim().to_string()),
                "board" => {
                    let coordinates = args == ["cells"];
                    if !coordinates {
                        no_args(line, "board", &args)?;
                    }
                    if blocks.iter().any(|b| matches!(b.kind, BlockKind::Board)) {
                        return err(line, "a second board: a puzzle has exactly one");
                    }
                    blocks.push(Block { header_line: line, kind: BlockKind::Board, coordinates, rows: Vec::new() });
                    in_picture = true;
                }
                "piece" => {
                    let coordinates = args.last() == Some(&"cells");
                    let args = if coordinates { &args[..args.len() - 1] } else { &args[..] };
                    let kind = parse_piece_header(line, args)?;
                    blocks.push(Block { header_line: line, kind, coordinates, rows: Vec::new() });
                    in_picture = true;
                }
                other => {
                    return err(
                        line,
                        format!(
                            "unknown directive {other:?} (expected name, lattice, mirror, expect, source, board or piece)"
                        ),
                    );
                }
            }
        }
        if text.trim().is_empty() {
            return err(0, "the file is empty: a puzzle needs a board and pieces");
        }
        let lattice = lattice.unwrap_or(Lattice::Square);
        let mut board = None;
        let mut pieces: Vec<PieceSpec> = Vec::new();
        for b in blocks {
            let cells = block_cells(lattice, &b)?;
            match b.kind {
                BlockKind::Board => board = Some(cells),
                BlockKind::Piece { label, count, mirror: m } => {
                    if pieces.iter().any(|p| p.label == label) {
                        return err(b.header_line, format!("piece label {label:?} is used twice"));
                    }
                    if !Polyform::new(lattice, cells.iter().copied()).is_connected() {
                        return err(
                            b.header_line,
                            format!("piece {label:?} is in several parts: every cell must touch another side by side"),
                        );
                    }
                    pieces.push(PieceSpec { label, cells, count, mirror: m.unwrap_or(mirror) });
                }
            }
        }
        let Some(board) = board else { return err(0, "no board: add a 'board' line followed by its picture") };
        if board.len() > MAX_CELLS {
            return err(0, format!("the board has {} cells; at most {MAX_CELLS} are supported", board.len()));
        }
        if pieces.is_empty() {
            return err(0, "no pieces: add 'piece X' lines, each followed by its picture");
        }
        let problem = Problem { lattice, board, pieces };
        if problem.piece_area() > MAX_CELLS as u64 {
            let area = problem.piece_area();
            return err(0, format!("the pieces cover {area} cells in all; at most {MAX_CELLS} are supported"));
        }
        Ok(Puzzle { name: name.unwrap_or_else(|| "puzzle".to_string()), problem, expect, source })
    }

    /// Writes the puzzle in the text format ([`Puzzle::parse`] reads it back): pictures, but
    /// coordinates on the cube lattice.
    pub fn to_text(&self) -> String {
        self.write(self.problem.lattice == Lattice::Cube)
    }

    /// Writes the puzzle in the text format with every board and piece as coordinates
    /// (`cells`), for scripts.
    pub fn to_cells_text(&self) -> String {
        self.write(true)
    }

    fn write(&self, coordinates: bool) -> String {
        let mut s = String::new();
        let p = &self.problem;
        let _ = writeln!(s, "name {}", self.name);
        let _ = writeln!(s, "lattice {}", p.lattice);
        if let Some(source) = &self.source {
            let _ = writeln!(s, "source {source}");
        }
        if self.expect.raw.is_some() || self.expect.distinct.is_some() {
            s.push_str("expect");
            if let Some(r) = self.expect.raw {
                let _ = write!(s, " raw {r}");
            }
            if let Some(d) = self.expect.distinct {
                let _ = write!(s, " distinct {d}");
            }
            s.push('\n');
        }
        let block = |s: &mut String, cells: &[Coord], label: char| {
            if coordinates {
                for &c in cells {
                    let coords: Vec<String> = c.coords(p.lattice).iter().map(i32::to_string).collect();
                    let _ = writeln!(s, "{}", coords.join(" "));
                }
            } else {
                s.push_str(&draw(p.lattice, picture(p.lattice, cells.iter().map(|&c| (c, label)))));
            }
        };
        let cells = if coordinates { " cells" } else { "" };
        let _ = writeln!(s, "\nboard{cells}");
        block(&mut s, &p.board, '#');
        for piece in &p.pieces {
            let _ = write!(s, "\npiece {}", piece.label);
            if piece.count != 1 {
                let _ = write!(s, " x{}", piece.count);
            }
            let _ = writeln!(s, " {}{cells}", if piece.mirror { "mirror" } else { "fixed" });
            block(&mut s, &piece.cells, piece.label);
        }
        s
    }
}

fn parse_lattice(line: usize, args: &[&str]) -> Result<Lattice, ParseError> {
    match args {
        [name] => name.parse().or_else(|e| err(line, e)),
        _ => err(line, format!("expected 'lattice square', 'hex', 'triangle' or 'cube', got {:?}", args.join(" "))),
    }
}

fn parse_yes_no(line: usize, args: &[&str]) -> Result<bool, ParseError> {
    match args {
        ["yes"] => Ok(true),
        ["no"] => Ok(false),
        _ => err(line, format!("expected 'mirror yes' or 'mirror no', got {:?}", args.join(" "))),
    }
}

fn no_args(line: usize, keyword: &str, args: &[&str]) -> Result<(), ParseError> {
    if args.is_empty() {
        Ok(())
    } else {
        err(
            line,
            format!("'{keyword}' takes no argument but 'cells' (its picture or its cells follow on the next lines)"),
        )
    }
}

fn parse_expect(line: usize, args: &[&str], expect: &mut Expect) -> Result<(), ParseError> {
    if args.is_empty() || !args.len().is_multiple_of(2) {
        return err(line, "expected 'expect raw N' and/or 'expect distinct N'");
    }
    for pair in args.chunks(2) {
        let n: u64 = pair[1].parse().or_else(|_| err(line, format!("{:?} is not a count", pair[1])))?;
        match pair[0] {
            "raw" => expect.raw = Some(n),
            "distinct" => expect.distinct = Some(n),
            other => return err(line, format!("unknown count {other:?} (expected raw or distinct)")),
        }
    }
    Ok(())
}

fn parse_piece_header(line: usize, args: &[&str]) -> Result<BlockKind, ParseError> {
    let Some((first, rest)) = args.split_first() else {
        return err(line, "a piece needs a one-character label: 'piece F'");
    };
    let mut chars = first.chars();
    let (Some(label), None) = (chars.next(), chars.next()) else {
        return err(line, format!("piece label {first:?} must be one character"));
    };
    if label == '.' {
        return err(line, "'.' cannot label a piece (it marks holes)");
    }
    let (mut count, mut mirror) = (1, None);
    for &a in rest {
        match a {
            "mirror" => mirror = Some(true),
            "fixed" => mirror = Some(false),
            _ => match a.strip_prefix('x').map(str::parse::<u32>) {
                Some(Ok(n)) if n >= 1 => count = n,
                _ => {
                    return err(
                        line,
                        format!("unexpected {a:?} (expected xCOUNT with COUNT >= 1, 'mirror' or 'fixed')"),
                    );
                }
            },
        }
    }
    Ok(BlockKind::Piece { label, count, mirror })
}

/// The cells of a block in lattice coordinates, errors naming the file's line.
fn block_cells(lattice: Lattice, block: &Block) -> Result<Vec<Coord>, ParseError> {
    let cells = if block.coordinates {
        coordinate_cells(lattice, &block.rows)?
    } else if lattice == Lattice::Cube {
        let what = match block.kind {
            BlockKind::Board => "board cells".to_string(),
            BlockKind::Piece { label, .. } => format!("piece {label} ... cells"),
        };
        return err(block.header_line, format!("cube boards and pieces are given as coordinates: write '{what}'"));
    } else {
        let offsets = picture_cells(lattice, block.rows.iter().map(|(_, row)| row.as_str()))
            .or_else(|(r, e)| err(block.rows[r].0, e))?;
        offsets.into_iter().map(|(c, r)| lattice.from_offset(c, r)).collect()
    };
    if cells.is_empty() {
        let what = match block.kind {
            BlockKind::Board => "the board".to_string(),
            BlockKind::Piece { label, .. } => format!("piece {label:?}"),
        };
        return err(block.header_line, format!("{what} has no cells (its picture must follow on the next line)"));
    }
    if cells.len() > MAX_CELLS {
        return err(block.header_line, format!("a picture of more than {MAX_CELLS} cells"));
    }
    let what = if block.coordinates { "cells" } else { "a picture" };
    check_extent(&cells).or_else(|e| err(block.header_line, format!("{what} {e}")))?;
    Ok(cells)
}

/// The cells of a coordinate block: one per line, as many integers as the lattice takes; the
/// error names the line at fault.
fn coordinate_cells(lattice: Lattice, rows: &[(usize, String)]) -> Result<Vec<Coord>, ParseError> {
    let arity = lattice.arity();
    let mut cells: Vec<Coord> = Vec::with_capacity(rows.len());
    let mut seen = std::collections::HashMap::with_capacity(rows.len());
    for (line, row) in rows {
        let content = row.split('#').next().unwrap_or("");
        let words: Vec<&str> = content.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        if words.len() != arity {
            let names = lattice.coordinate_names();
            return err(*line, format!("{} numbers where a {lattice} cell has {arity} ({names})", words.len()));
        }
        let mut v = [0i32; 3];
        for (slot, word) in v.iter_mut().zip(&words) {
            *slot = word.parse().or_else(|_| err(*line, format!("{word:?} is not an integer")))?;
        }
        if v.iter().any(|x| x.unsigned_abs() > 1 << 24) {
            return err(*line, format!("{content:?} lies too far out: coordinates are at most 16777216 either way"));
        }
        let c = Coord::at(v[0], v[1], v[2]);
        if !lattice.contains(c) {
            return err(*line, format!("{:?}: t is 0 for an up triangle and 1 for a down one", content.trim()));
        }
        if let Some(first) = seen.insert(c, *line) {
            return err(*line, format!("the cell {} again (first on line {first})", show(lattice, c)));
        }
        cells.push(c);
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text at all: a puzzle or an error naming a line, never a panic.
        #[test]
        fn parse_never_panics(text in "(board( cells)?|piece [A-Z.#]( x[0-9])?( fixed)?( cells)?|lattice (hex|square|triangle|cube)|expect raw [0-9]+|[#. ]{0,6}|\\PC{0,8}|)(\n(board( cells)?|piece [A-Z]( cells)?|[#. ]{0,6}|-?[0-9]{1,3}( -?[0-9]{1,2}){1,3}|\\PC{0,6}|)){0,12}") {
            match Puzzle::parse(&text) {
                Ok(p) => prop_assert!(p.problem.check().is_ok()),
                Err(e) => prop_assert!(e.line <= text.lines().count()),
            }
        }
    }

    const DOMINOES: &str = "name strip
lattice square
# a comment
expect raw 3 distinct 2

board
###
###

piece D x3 fixed
##
";

    #[test]
    fn parses_and_round_trips() {
        let p = Puzzle::parse(DOMINOES).unwrap();
        assert_eq!(p.name, "strip");
        assert_eq!(p.problem.board.len(), 6);
        assert_eq!(p.problem.pieces.len(), 1);
        assert_eq!((p.problem.pieces[0].count, p.problem.pieces[0].mirror), (3, false));
        assert_eq!(p.expect, Expect { raw: Some(3), distinct: Some(2) });
        assert_eq!(p.problem.piece_area(), 6);
        assert_eq!(Puzzle::parse(&p.to_text()).unwrap(), p);
    }

    #[test]
    fn hex_pictures_are_spaced_and_indented() {
        let p = Puzzle::parse("lattice hex\nboard\n# # #\n # # #\n\npiece A x6\n#\n").unwrap();
        let offsets: Vec<(i32, i32)> = p.problem.board.iter().map(|&c| Lattice::Hex.to_offset(c)).collect();
        assert_eq!(offsets, vec![(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]);
        assert_eq!(Puzzle::parse(&p.to_text()).unwrap(), p);
        let e = Puzzle::parse("lattice hex\nboard\n##\n\npiece A\n#\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("between hex cells"), "{e}");
    }

    #[test]
    fn huge_pictures_are_refused() {
        // Two cells 5000 rows apart: a bounding box far too big to lay out.
        let text = format!("board\n#\n{}#\n\npiece A\n#\n", ".\n".repeat(4999));
        let e = Puzzle::parse(&text).unwrap_err();
        assert_eq!(e.line, 5002, "the line of the first cell past 4096 rows");
        assert!(e.message.contains("4096"), "{e}");
        // A picture within 4096 a side but too big in area names its header.
        let wide = format!("board\n{}\n{}#\n\npiece A\n#\n", "#".repeat(4000), ".\n".repeat(300));
        let e = Puzzle::parse(&wide).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("cells in all"), "{e}");
    }

    #[test]
    fn coordinates_on_every_lattice() {
        // Six triangles round a corner, as coordinates and as a picture.
        let cells =
            "lattice triangle\nboard cells\n0 0 0\n0 0 1\n1 0 0\n0 -1 1\n1 -1 0\n1 -1 1\n\npiece A x6 cells\n0 0 0\n";
        let picture = "lattice triangle\nboard\n###\n###\n\npiece A x6\n#\n";
        let (a, b) = (Puzzle::parse(cells).unwrap(), Puzzle::parse(picture).unwrap());
        let sorted = |p: &Puzzle| {
            let mut c = p.problem.board.clone();
            c.sort();
            c
        };
        assert_eq!(sorted(&a), sorted(&b));
        // A cube puzzle reads back from its own text; a square one from its coordinates.
        let cube =
            Puzzle::parse("lattice cube\nboard cells\n0 0 0\n0 0 1 # a comment\n\npiece D fixed cells\n0 0 0\n1 0 0\n")
                .unwrap();
        assert_eq!((cube.problem.board.len(), cube.problem.lattice), (2, Lattice::Cube));
        assert_eq!(Puzzle::parse(&cube.to_text()).unwrap(), cube);
        let square = Puzzle::parse(DOMINOES).unwrap();
        assert_eq!(Puzzle::parse(&square.to_cells_text()).unwrap().problem, square.problem);
        assert!(square.to_cells_text().contains("board cells\n0 0\n1 0\n"));
    }

    #[test]
    fn bad_coordinates_name_the_line() {
        let cases: &[(&str, usize, &str)] = &[
            ("lattice cube\nboard cells\n0 0 0\n1 0\n", 4, "2 numbers where a cube cell has 3 (x y z)"),
            ("lattice hex\nboard cells\n0 0 0\n", 3, "3 numbers where a hex cell has 2 (q r)"),
            ("board cells\n0 0\n1 x\n", 3, "\"x\" is not an integer"),
            ("board cells\n0 0\n0.5 0\n", 3, "not an integer"),
            ("board cells\n0 0\n1 0\n0 0\n", 4, "the cell (0 0) again (first on line 2)"),
            ("lattice triangle\nboard cells\n0 0 2\n", 3, "t is 0 for an up triangle"),
            ("lattice cube\nboard cells\n0 0 99999999\n", 3, "too far"),
            ("board\n##\n\npiece A cells\n0 0\n2 0\n", 4, "several parts"),
            ("lattice cube\nboard cells\n0 0 0\n\npiece A cells\n0 0 0\n0 1 1\n", 5, "several parts"),
            ("lattice cube\nboard\n##\n", 2, "cube boards and pieces are given as coordinates"),
            ("lattice cubes\n", 1, "unknown lattice \"cubes\" (expected square, hex, triangle or cube)"),
            ("board cells please\n", 1, "takes no argument but 'cells'"),
        ];
        for &(text, line, what) in cases {
            let e = Puzzle::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn errors_name_the_line() {
        let cases: &[(&str, usize, &str)] = &[
            ("lattice cubic\n", 1, "lattice"),
            ("board\n#\n\npiece A\n#.#\n", 4, "several parts"),
            ("board\n##\n\npiece A\n#\npiece B\n#\n", 6, "inside a picture"),
            ("board\n#\n\npiece A x70000\n#\n", 0, "cover 70000 cells"),
            ("board\n#\n\nboard\n#\n", 4, "second board"),
            ("board\n#\n\npiece AB\n#\n", 4, "one character"),
            ("board\n#\n\npiece A x0\n#\n", 4, "COUNT"),
            ("board\n#\n\npiece A\n#\n\npiece A\n#\n", 7, "twice"),
            ("board\n#\n\npiece A\n\n", 4, "no cells"),
            ("board\n#\n", 0, "no pieces"),
            ("piece A\n#\n", 0, "no board"),
            ("bored\n", 1, "unknown directive"),
            ("expect raw many\n", 1, "not a count"),
            ("mirror maybe\n", 1, "mirror yes"),
        ];
        for &(text, line, what) in cases {
            let e = Puzzle::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }
}
