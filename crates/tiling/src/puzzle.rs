//! Puzzles: a board and a set of pieces, and their text format.
//!
//! ```text
//! # Comments start with '#' (outside pictures).
//! name pentominoes 6x10
//! lattice square            # or: hex (odd rows shifted half a cell right)
//! mirror yes                # default for pieces: may they be turned over?
//! expect raw 9356 distinct 2339
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
//! the meteor board is drawn:
//!
//! ```text
//! board
//! # # # # #
//!  # # # # #
//! ```

use std::fmt::Write as _;

use tessera_core::geometry::{Lattice, Polyform};

/// Most cells a board may have.
pub const MAX_CELLS: usize = 1 << 16;

/// Most rows or columns a picture may span.
pub const MAX_SIDE: i32 = 4096;

/// Largest area of a picture's bounding box (holes included).
pub const MAX_AREA: i64 = 1 << 20;

/// The words that start directives; a picture line that starts with one is almost surely a
/// directive that lost the blank line before it.
const KEYWORDS: [&str; 6] = ["name", "lattice", "mirror", "expect", "board", "piece"];

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

/// Known solution counts, as stated by the puzzle file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expect {
    /// Every tiling.
    pub raw: Option<u64>,
    /// Tilings up to the board's symmetries.
    pub distinct: Option<u64>,
}

/// A tiling puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A human-readable name.
    pub name: String,
    /// The lattice of board and pieces.
    pub lattice: Lattice,
    /// Board cells as picture coordinates `(col, row)`, in reading order (row by row).
    pub board: Vec<(i32, i32)>,
    /// The piece types.
    pub pieces: Vec<PieceSpec>,
    /// Known counts, if the file gives them.
    pub expect: Expect,
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
                "board" => {
                    no_args(line, "board", &args)?;
                    if blocks.iter().any(|b| matches!(b.kind, BlockKind::Board)) {
                        return err(line, "a second board: a puzzle has exactly one");
                    }
                    blocks.push(Block { header_line: line, kind: BlockKind::Board, rows: Vec::new() });
                    in_picture = true;
                }
                "piece" => {
                    blocks.push(Block { header_line: line, kind: parse_piece_header(line, &args)?, rows: Vec::new() });
                    in_picture = true;
                }
                other => {
                    return err(
                        line,
                        format!("unknown directive {other:?} (expected name, lattice, mirror, expect, board or piece)"),
                    );
                }
            }
        }
        if text.trim().is_empty() {
            return err(0, "the file is empty: a puzzle needs a board and pieces (see `tessera tiling show meteor`)");
        }
        let lattice = lattice.unwrap_or(Lattice::Square);
        let mut board = None;
        let mut pieces: Vec<PieceSpec> = Vec::new();
        for b in blocks {
            let cells = picture_cells(lattice, &b)?;
            match b.kind {
                BlockKind::Board => board = Some(cells),
                BlockKind::Piece { label, count, mirror: m } => {
                    if pieces.iter().any(|p| p.label == label) {
                        return err(b.header_line, format!("piece label {label:?} is used twice"));
                    }
                    if !Polyform::from_offsets(lattice, cells.iter().copied()).is_connected() {
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
        let area: u64 = pieces.iter().map(|p| p.cells.len() as u64 * u64::from(p.count)).sum();
        if area > MAX_CELLS as u64 {
            return err(0, format!("the pieces cover {area} cells in all; at most {MAX_CELLS} are supported"));
        }
        Ok(Puzzle { name: name.unwrap_or_else(|| "puzzle".to_string()), lattice, board, pieces, expect })
    }

    /// Checks a puzzle built in code against what the parser guarantees: a board and pieces,
    /// pieces in one part, counts of at least one, labels used once, pictures within
    /// [`MAX_SIDE`] and [`MAX_AREA`], at most [`MAX_CELLS`] cells of board and of pieces.
    pub fn check(&self) -> Result<(), String> {
        let within = |cells: &[(i32, i32)]| {
            let span = |f: fn(&(i32, i32)) -> i32| {
                let (lo, hi) = (cells.iter().map(f).min().unwrap_or(0), cells.iter().map(f).max().unwrap_or(0));
                i64::from(hi) - i64::from(lo) + 1
            };
            let (w, h) = (span(|c| c.0), span(|c| c.1));
            w <= i64::from(MAX_SIDE) && h <= i64::from(MAX_SIDE) && w * h <= MAX_AREA
        };
        if self.board.is_empty() || self.board.len() > MAX_CELLS || !within(&self.board) {
            return Err(format!("the board must have 1 to {MAX_CELLS} cells within {MAX_SIDE} x {MAX_SIDE}"));
        }
        if self.pieces.is_empty() || self.piece_area() > MAX_CELLS as u64 {
            return Err(format!("there must be pieces, of at most {MAX_CELLS} cells in all"));
        }
        for (k, p) in self.pieces.iter().enumerate() {
            if p.cells.is_empty() || p.count == 0 || !within(&p.cells) {
                return Err(format!("piece {:?} needs cells, a count of at least 1 and a small picture", p.label));
            }
            if self.pieces[..k].iter().any(|q| q.label == p.label) {
                return Err(format!("piece label {:?} is used twice", p.label));
            }
            if !Polyform::from_offsets(self.lattice, p.cells.iter().copied()).is_connected() {
                return Err(format!("piece {:?} is in several parts", p.label));
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

    /// Writes the puzzle in the text format ([`Puzzle::parse`] reads it back).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "name {}", self.name);
        let _ = writeln!(s, "lattice {}", self.lattice);
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
        s.push_str("\nboard\n");
        s.push_str(&draw(self.lattice, self.board.iter().map(|&(c, r)| (c, r, '#'))));
        for p in &self.pieces {
            let _ = write!(s, "\npiece {}", p.label);
            if p.count != 1 {
                let _ = write!(s, " x{}", p.count);
            }
            let _ = writeln!(s, " {}", if p.mirror { "mirror" } else { "fixed" });
            s.push_str(&draw(self.lattice, p.cells.iter().map(|&(c, r)| (c, r, p.label))));
        }
        s
    }
}

/// Draws labelled picture cells in the text format's layout (hex: spaced and indented; holes as
/// `.`), rows from the smallest row present. Hex rows keep their parity.
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

fn parse_lattice(line: usize, args: &[&str]) -> Result<Lattice, ParseError> {
    match args {
        [name] => name.parse().or_else(|e| err(line, e)),
        _ => err(line, format!("expected 'lattice square' or 'lattice hex', got {:?}", args.join(" "))),
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
        err(line, format!("'{keyword}' takes no arguments (its picture follows on the next lines)"))
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

/// The cells of a picture as `(col, row)`.
fn picture_cells(lattice: Lattice, block: &Block) -> Result<Vec<(i32, i32)>, ParseError> {
    let mut cells = Vec::new();
    for (r, (line, row)) in block.rows.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            if ch == ' ' || ch == '.' {
                continue;
            }
            if ch.is_control() {
                return err(*line, format!("control character {ch:?} in a picture"));
            }
            let col = match lattice {
                Lattice::Square => j as i32,
                Lattice::Hex => {
                    let shift = r % 2;
                    if j < shift || (j - shift) % 2 != 0 {
                        return err(
                            *line,
                            format!(
                                "{ch:?} at column {} is between hex cells: cells are separated by spaces and odd rows start with one extra space",
                                j + 1
                            ),
                        );
                    }
                    ((j - shift) / 2) as i32
                }
            };
            cells.push((col, r as i32));
        }
    }
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
    let (w, h) = (cells.iter().map(|c| c.0).max().unwrap_or(0) + 1, block.rows.len() as i32);
    if w > MAX_SIDE || h > MAX_SIDE || i64::from(w) * i64::from(h) > MAX_AREA {
        return err(
            block.header_line,
            format!("a picture {w} wide and {h} high: at most {MAX_SIDE} on a side and {MAX_AREA} cells in all"),
        );
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
        fn parse_never_panics(text in "(board|piece [A-Z.#]( x[0-9])?( fixed)?|lattice (hex|square)|expect raw [0-9]+|[#. ]{0,6}|\\PC{0,8}|)(\n(board|piece [A-Z]|[#. ]{0,6}|\\PC{0,6}|)){0,12}") {
            match Puzzle::parse(&text) {
                Ok(p) => prop_assert!(!p.board.is_empty() && !p.pieces.is_empty()),
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
        assert_eq!(p.board.len(), 6);
        assert_eq!(p.pieces.len(), 1);
        assert_eq!((p.pieces[0].count, p.pieces[0].mirror), (3, false));
        assert_eq!(p.expect, Expect { raw: Some(3), distinct: Some(2) });
        assert_eq!(p.piece_area(), 6);
        assert_eq!(Puzzle::parse(&p.to_text()).unwrap(), p);
    }

    #[test]
    fn hex_pictures_are_spaced_and_indented() {
        let p = Puzzle::parse("lattice hex\nboard\n# # #\n # # #\n\npiece A x6\n#\n").unwrap();
        assert_eq!(p.board, vec![(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]);
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
        assert_eq!(e.line, 1);
        assert!(e.message.contains("at most 4096 on a side"), "{e}");
    }

    #[test]
    fn errors_name_the_line() {
        let cases: &[(&str, usize, &str)] = &[
            ("lattice cube\n", 1, "lattice"),
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
