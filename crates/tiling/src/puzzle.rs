//! Puzzles: a board and a set of pieces, and their text format.
//!
//! ```text
//! # Comments start with '#' (outside pictures).
//! name pentominoes 6x10
//! lattice square            # or: hex, triangle, cube, prism
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
//! Puzzles of the kind BurrTools solves say more (see `docs/tiling.md`): what a picture
//! character means beyond a plain cell (`cell + optional`: a board cell that may stay empty;
//! `cell r colour 1`: a cell of colour 1, on the board or on a piece), which piece colour may
//! cover which board colour (`match 1 2`, or `match none`; without `match` lines a colour
//! matches itself, and a neutral cell anything), at most how many optional cells stay empty
//! (`holes N`), a range of copies (`piece A x0..3`, `x2..` for as many as fit) and pieces in
//! several parts (`piece A loose`).
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
//! Any board or piece may instead be given as coordinates (cube and prism ones must be): a header
//! ending in the word `cells` is followed by one cell per line, integers separated by spaces
//! (then, optionally, a character of a `cell` line), until a blank line. Square `x y`; hex `q r`
//! (axial); triangle `x y t`, t = 0 up and 1 down, where `(x, y, 0)` touches `(x, y, 1)`,
//! `(x-1, y, 1)` and `(x, y-1, 1)`; cube `x y z`; prism `x y t z`, the triangle `x y t` in layer
//! `z`:
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
use tessera_polyform::tiler::problem::{check_extent, picture_chars, show};

/// The words that start directives; a picture line that starts with one is almost surely a
/// directive that lost the blank line before it.
const KEYWORDS: [&str; 10] =
    ["name", "lattice", "mirror", "expect", "source", "cell", "match", "holes", "board", "piece"];

/// Known solution counts, as stated by the puzzle file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expect {
    /// Every tiling.
    pub raw: Option<u128>,
    /// Tilings up to the board's symmetries.
    pub distinct: Option<u128>,
    /// Assemblies as BurrTools counts them (see `docs/tiling.md`).
    pub assemblies: Option<u128>,
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
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        // Quoted text from the file may hold control characters (a terminal would act on an
        // escape sequence): those are written escaped.
        for c in self.message.chars() {
            match c.is_control() {
                true => write!(f, "{}", c.escape_default())?,
                false => write!(f, "{c}")?,
            }
        }
        Ok(())
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
    Piece(PieceHeader),
}

/// What a `piece` line says.
struct PieceHeader {
    label: char,
    /// Fewest copies.
    min: u32,
    /// Most copies (`None`: as many as fit on the board).
    max: Option<u32>,
    mirror: Option<bool>,
    /// Whether its cells may lie apart (several parts).
    loose: bool,
}

/// What a picture character (or a coordinate line's last word) means, as a `cell` line says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CellKind {
    optional: bool,
    colour: u8,
}

/// The meaning of a picture character: plain unless a `cell` line says otherwise.
fn kind_of(legend: &[(char, CellKind)], ch: char) -> CellKind {
    legend.iter().find(|(c, _)| *c == ch).map_or_else(CellKind::default, |&(_, k)| k)
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
        let mut legend: Vec<(char, CellKind)> = Vec::new();
        let mut matches: Vec<(u8, u8)> = Vec::new();
        let mut explicit_matches = false;
        let mut max_holes = None;
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
                "cell" => {
                    let (ch, kind) = parse_cell_kind(line, &args)?;
                    if legend.iter().any(|(c, _)| *c == ch) {
                        return err(line, format!("the character {ch:?} is given a meaning twice"));
                    }
                    legend.push((ch, kind));
                }
                "match" if args == ["none"] => explicit_matches = true,
                "match" => {
                    matches.push(parse_match(line, &args)?);
                    explicit_matches = true;
                }
                "holes" => max_holes = Some(parse_holes(line, &args)?),
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
                    let kind = BlockKind::Piece(parse_piece_header(line, args)?);
                    blocks.push(Block { header_line: line, kind, coordinates, rows: Vec::new() });
                    in_picture = true;
                }
                other => {
                    return err(
                        line,
                        format!(
                            "unknown directive {other:?} (expected name, lattice, mirror, expect, source, cell, match, holes, board or piece)"
                        ),
                    );
                }
            }
        }
        if text.trim().is_empty() {
            return err(0, "the file is empty: a puzzle needs a board and pieces");
        }
        let lattice = lattice.unwrap_or(Lattice::Square);
        let mut board: Option<Vec<(Coord, char)>> = None;
        let mut headers = Vec::new();
        for b in &blocks {
            let cells = block_cells(lattice, b, &legend)?;
            match &b.kind {
                BlockKind::Board => board = Some(cells),
                BlockKind::Piece(h) => headers.push((b.header_line, h, cells)),
            }
        }
        let Some(board) = board else { return err(0, "no board: add a 'board' line followed by its picture") };
        if board.len() > MAX_CELLS {
            return err(0, format!("the board has {} cells; at most {MAX_CELLS} are supported", board.len()));
        }
        let mut pieces: Vec<PieceSpec> = Vec::new();
        for (line, h, cells) in headers {
            pieces.push(piece_of(lattice, line, h, &cells, &legend, board.len(), mirror)?);
            if pieces[..pieces.len() - 1].iter().any(|p| p.label == h.label) {
                return err(line, format!("piece label {:?} is used twice", h.label));
            }
        }
        if pieces.is_empty() {
            return err(0, "no pieces: add 'piece X' lines, each followed by its picture");
        }
        let kinds: Vec<CellKind> = board.iter().map(|&(_, ch)| kind_of(&legend, ch)).collect();
        let mut problem = Problem::new(lattice, board.iter().map(|&(c, _)| c).collect(), pieces);
        if kinds.iter().any(|k| k.optional) {
            problem.optional = kinds.iter().map(|k| k.optional).collect();
        }
        if kinds.iter().any(|k| k.colour != 0) {
            problem.colours = kinds.iter().map(|k| k.colour).collect();
        }
        problem.max_holes = max_holes;
        // Without `match` lines a colour matches itself.
        problem.matches = if explicit_matches {
            matches
        } else {
            legend.iter().filter(|(_, k)| k.colour != 0).map(|(_, k)| (k.colour, k.colour)).collect()
        };
        problem.matches.sort_unstable();
        problem.matches.dedup();
        if problem.piece_area() > MAX_CELLS as u64 {
            let area = problem.piece_area();
            return err(0, format!("the pieces cover {area} cells in all; at most {MAX_CELLS} are supported"));
        }
        Ok(Puzzle { name: name.unwrap_or_else(|| "puzzle".to_string()), problem, expect, source })
    }

    /// Writes the puzzle in the text format ([`Puzzle::parse`] reads it back): pictures, but
    /// coordinates on the cube and prism lattices.
    pub fn to_text(&self) -> String {
        self.write(self.problem.lattice.is_solid())
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
        let e = &self.expect;
        if e.raw.is_some() || e.distinct.is_some() || e.assemblies.is_some() {
            s.push_str("expect");
            for (word, n) in [("raw", e.raw), ("distinct", e.distinct), ("assemblies", e.assemblies)] {
                if let Some(n) = n {
                    let _ = write!(s, " {word} {n}");
                }
            }
            s.push('\n');
        }
        let legend = self.legend();
        for (ch, kind) in &legend {
            let optional = if kind.optional { " optional" } else { "" };
            let colour = if kind.colour != 0 { format!(" colour {}", kind.colour) } else { String::new() };
            let _ = writeln!(s, "cell {ch}{optional}{colour}");
        }
        for &(piece, board) in &p.matches {
            let _ = writeln!(s, "match {piece} {board}");
        }
        if p.matches.is_empty() && p.has_colours() {
            // Coloured cells cover neutral ones only (without this line, each colour its own).
            s.push_str("match none\n");
        }
        if let Some(h) = p.max_holes {
            let _ = writeln!(s, "holes {h}");
        }
        let char_of = |kind: CellKind, plain: char| match kind {
            CellKind { optional: false, colour: 0 } => plain,
            k => legend.iter().find(|(_, l)| *l == k).map_or(plain, |&(c, _)| c),
        };
        let block = |s: &mut String, cells: &[(Coord, char)]| {
            if coordinates {
                for &(c, ch) in cells {
                    let coords: Vec<String> = c.coords(p.lattice).iter().map(i32::to_string).collect();
                    let mark = if legend.iter().any(|(l, _)| *l == ch) { format!(" {ch}") } else { String::new() };
                    let _ = writeln!(s, "{}{mark}", coords.join(" "));
                }
            } else {
                s.push_str(&draw(p.lattice, picture(p.lattice, cells.iter().copied())));
            }
        };
        let cells = if coordinates { " cells" } else { "" };
        let _ = writeln!(s, "\nboard{cells}");
        let board: Vec<(Coord, char)> = (0..p.board.len())
            .map(|k| (p.board[k], char_of(CellKind { optional: p.is_optional(k), colour: p.colour(k) }, '#')))
            .collect();
        block(&mut s, &board);
        for piece in &p.pieces {
            let _ = write!(s, "\npiece {}", piece.label);
            match (piece.min, piece.count) {
                (1, 1) => {}
                (min, max) if min == max => {
                    let _ = write!(s, " x{max}");
                }
                (min, max) => {
                    let _ = write!(s, " x{min}..{max}");
                }
            }
            let _ = write!(s, " {}", if piece.mirror { "mirror" } else { "fixed" });
            if !Polyform::new(p.lattice, piece.cells.iter().copied()).is_connected() {
                s.push_str(" loose");
            }
            let _ = writeln!(s, "{cells}");
            // A piece drawn with its label, but where that character means something else.
            let plain = if legend.iter().any(|(c, _)| *c == piece.label) { '#' } else { piece.label };
            let drawn: Vec<(Coord, char)> = (0..piece.cells.len())
                .map(|k| (piece.cells[k], char_of(CellKind { optional: false, colour: piece.colour(k) }, plain)))
                .collect();
            block(&mut s, &drawn);
        }
        s
    }

    /// Characters for the kinds of cells the puzzle has beyond plain ones, as `cell` lines give
    /// them: `+` for an optional cell, digits and letters for colours (none a piece's label).
    fn legend(&self) -> Vec<(char, CellKind)> {
        let p = &self.problem;
        let mut kinds: Vec<CellKind> = (0..p.board.len())
            .map(|k| CellKind { optional: p.is_optional(k), colour: p.colour(k) })
            .chain(
                p.pieces
                    .iter()
                    .flat_map(|piece| piece.colours.iter().map(|&colour| CellKind { optional: false, colour })),
            )
            .filter(|&k| k != CellKind::default())
            .collect();
        kinds.sort_unstable_by_key(|k| (k.colour, k.optional));
        kinds.dedup();
        let taken = |c: char| p.pieces.iter().any(|piece| piece.label == c);
        let mut spare = "+123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ*=%&@$?!~^<>{}[]()/|:;,'\"`"
            .chars()
            .chain('\u{00c0}'..'\u{0250}')
            .filter(move |&c| !taken(c));
        kinds.into_iter().filter_map(|k| Some((spare.next()?, k))).collect()
    }
}

/// A piece from its header and cells: its range resolved against the board, its colours from
/// the legend.
fn piece_of(
    lattice: Lattice,
    line: usize,
    h: &PieceHeader,
    cells: &[(Coord, char)],
    legend: &[(char, CellKind)],
    board: usize,
    mirror: bool,
) -> Result<PieceSpec, ParseError> {
    let label = h.label;
    let coords: Vec<Coord> = cells.iter().map(|&(c, _)| c).collect();
    if !h.loose && !Polyform::new(lattice, coords.iter().copied()).is_connected() {
        return err(
            line,
            format!("piece {label:?} is in several parts: every cell must touch another side by side (or say 'loose')"),
        );
    }
    let kinds: Vec<CellKind> = cells.iter().map(|&(_, ch)| kind_of(legend, ch)).collect();
    if let Some(k) = kinds.iter().position(|k| k.optional) {
        return err(
            line,
            format!("piece {label:?} has an optional cell ({:?}): only board cells may stay empty", cells[k].1),
        );
    }
    // As many copies as fit on the board, when no most is given.
    let max = h.max.unwrap_or((board / coords.len()) as u32).max(h.min).max(1);
    let mut piece = PieceSpec::new(label, coords, max, h.mirror.unwrap_or(mirror));
    piece.min = h.min;
    if kinds.iter().any(|k| k.colour != 0) {
        piece.colours = kinds.iter().map(|k| k.colour).collect();
    }
    Ok(piece)
}

/// `cell CHAR [optional] [colour N]`.
fn parse_cell_kind(line: usize, args: &[&str]) -> Result<(char, CellKind), ParseError> {
    let usage = "expected 'cell CHAR [optional] [colour N]', N from 1 to 63";
    let Some((first, rest)) = args.split_first() else { return err(line, usage) };
    let mut chars = first.chars();
    let (Some(ch), None) = (chars.next(), chars.next()) else {
        return err(line, format!("{first:?} is not one character ({usage})"));
    };
    if ch == '.' {
        return err(line, "'.' marks holes: it cannot be a cell");
    }
    let mut kind = CellKind::default();
    let mut words = rest.iter();
    while let Some(&w) = words.next() {
        match w {
            "optional" => kind.optional = true,
            "colour" | "color" => kind.colour = parse_colour(line, words.next().copied())?,
            other => return err(line, format!("unexpected {other:?} ({usage})")),
        }
    }
    Ok((ch, kind))
}

/// A colour number, 1 to 63.
fn parse_colour(line: usize, word: Option<&str>) -> Result<u8, ParseError> {
    match word.map(str::parse::<u8>) {
        Some(Ok(n @ 1..=63)) => Ok(n),
        _ => err(line, format!("{:?} is not a colour: colours are numbered 1 to 63", word.unwrap_or(""))),
    }
}

/// `match PIECE BOARD`: a piece cell of colour PIECE may cover a board cell of colour BOARD
/// (`match none`, read by the caller: no pair does).
fn parse_match(line: usize, args: &[&str]) -> Result<(u8, u8), ParseError> {
    match args {
        [piece, board] => Ok((parse_colour(line, Some(piece))?, parse_colour(line, Some(board))?)),
        _ => {
            err(line, "expected 'match PIECE BOARD' (a piece's colour and a board colour it may cover) or 'match none'")
        }
    }
}

/// `holes N`: at most N optional cells stay empty.
fn parse_holes(line: usize, args: &[&str]) -> Result<u32, ParseError> {
    match args {
        [n] => n.parse().or_else(|_| err(line, format!("{n:?} is not a number of holes"))),
        _ => err(line, "expected 'holes N': at most N optional cells stay empty"),
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
        return err(line, "expected 'expect raw N', 'expect distinct N' and/or 'expect assemblies N'");
    }
    for pair in args.chunks(2) {
        let n: u128 = pair[1].parse().or_else(|_| err(line, format!("{:?} is not a count", pair[1])))?;
        match pair[0] {
            "raw" => expect.raw = Some(n),
            "distinct" => expect.distinct = Some(n),
            "assemblies" => expect.assemblies = Some(n),
            other => return err(line, format!("unknown count {other:?} (expected raw, distinct or assemblies)")),
        }
    }
    Ok(())
}

fn parse_piece_header(line: usize, args: &[&str]) -> Result<PieceHeader, ParseError> {
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
    let mut h = PieceHeader { label, min: 1, max: Some(1), mirror: None, loose: false };
    for &a in rest {
        match a {
            "mirror" => h.mirror = Some(true),
            "fixed" => h.mirror = Some(false),
            "loose" => h.loose = true,
            _ => match a.strip_prefix('x').map(parse_copies) {
                Some(Some((min, max))) => (h.min, h.max) = (min, max),
                _ => {
                    return err(
                        line,
                        format!(
                            "unexpected {a:?} (expected xCOUNT with COUNT >= 1, a range xLEAST..MOST or xLEAST.., 'mirror', 'fixed' or 'loose')"
                        ),
                    );
                }
            },
        }
    }
    Ok(h)
}

/// The copies of `xN` (`N >= 1`), `xA..B` (`A <= B`, `B >= 1`), `xA..` (no most) or `x..B`.
fn parse_copies(s: &str) -> Option<(u32, Option<u32>)> {
    let Some((a, b)) = s.split_once("..") else {
        let n: u32 = s.parse().ok()?;
        return (n >= 1).then_some((n, Some(n)));
    };
    let min = if a.is_empty() { 0 } else { a.parse().ok()? };
    if b.is_empty() {
        return Some((min, None));
    }
    let max: u32 = b.parse().ok()?;
    (min <= max && max >= 1).then_some((min, Some(max)))
}

/// The cells of a block in lattice coordinates, each with the character that draws it (a
/// coordinate line's last word when it is a character of a `cell` line, else `#`); errors name
/// the file's line.
fn block_cells(lattice: Lattice, block: &Block, legend: &[(char, CellKind)]) -> Result<Vec<(Coord, char)>, ParseError> {
    let cells = if block.coordinates {
        coordinate_cells(lattice, &block.rows, legend)?
    } else if lattice.is_solid() {
        let what = match &block.kind {
            BlockKind::Board => "board cells".to_string(),
            BlockKind::Piece(h) => format!("piece {} ... cells", h.label),
        };
        return err(block.header_line, format!("{lattice} boards and pieces are given as coordinates: write '{what}'"));
    } else {
        let drawn = picture_chars(lattice, block.rows.iter().map(|(_, row)| row.as_str()))
            .or_else(|(r, e)| err(block.rows[r].0, e))?;
        drawn.into_iter().map(|(c, r, ch)| (lattice.from_offset(c, r), ch)).collect()
    };
    if cells.is_empty() {
        let what = match &block.kind {
            BlockKind::Board => "the board".to_string(),
            BlockKind::Piece(h) => format!("piece {:?}", h.label),
        };
        return err(block.header_line, format!("{what} has no cells (its picture must follow on the next line)"));
    }
    if cells.len() > MAX_CELLS {
        return err(block.header_line, format!("a picture of more than {MAX_CELLS} cells"));
    }
    let what = if block.coordinates { "cells" } else { "a picture" };
    let coords: Vec<Coord> = cells.iter().map(|&(c, _)| c).collect();
    check_extent(&coords).or_else(|e| err(block.header_line, format!("{what} {e}")))?;
    Ok(cells)
}

/// The cells of a coordinate block: one per line, as many integers as the lattice takes, then
/// optionally a character that says what kind of cell it is (see `cell` lines); the error
/// names the line at fault.
fn coordinate_cells(
    lattice: Lattice,
    rows: &[(usize, String)],
    legend: &[(char, CellKind)],
) -> Result<Vec<(Coord, char)>, ParseError> {
    let arity = lattice.arity();
    let mut cells: Vec<(Coord, char)> = Vec::with_capacity(rows.len());
    let mut seen = std::collections::HashMap::with_capacity(rows.len());
    for (line, row) in rows {
        let content = row.split('#').next().unwrap_or("");
        let mut words: Vec<&str> = content.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        // A character of a `cell` line after the coordinates names the kind of cell.
        let mut ch = '#';
        if let [.., last] = words[..]
            && words.len() == arity + 1
        {
            let mut chars = last.chars();
            if let (Some(c), None) = (chars.next(), chars.next())
                && legend.iter().any(|(l, _)| *l == c)
            {
                ch = c;
                words.pop();
            }
        }
        if words.len() != arity {
            let names = lattice.coordinate_names();
            return err(*line, format!("{} numbers where a {lattice} cell has {arity} ({names})", words.len()));
        }
        let mut v = [0i32; 4];
        for (slot, word) in v.iter_mut().zip(&words) {
            *slot = word.parse().or_else(|_| err(*line, format!("{word:?} is not an integer")))?;
        }
        if v.iter().any(|x| x.unsigned_abs() > 1 << 24) {
            return err(*line, format!("{content:?} lies too far out: coordinates are at most 16777216 either way"));
        }
        let c = match lattice {
            Lattice::Prism if !(0..=1).contains(&v[2]) => {
                return err(*line, format!("{:?}: t is 0 for an up triangle and 1 for a down one", content.trim()));
            }
            Lattice::Prism => Coord::prism(v[0], v[1], v[2], v[3]),
            _ => Coord::at(v[0], v[1], v[2]),
        };
        if !lattice.contains(c) {
            return err(*line, format!("{:?}: t is 0 for an up triangle and 1 for a down one", content.trim()));
        }
        if let Some(first) = seen.insert(c, *line) {
            return err(*line, format!("the cell {} again (first on line {first})", show(lattice, c)));
        }
        cells.push((c, ch));
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
        assert_eq!(p.expect, Expect { raw: Some(3), distinct: Some(2), assemblies: None });
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
            ("lattice cubes\n", 1, "unknown lattice \"cubes\" (expected square, hex, triangle, cube or prism)"),
            ("board cells please\n", 1, "takes no argument but 'cells'"),
        ];
        for &(text, line, what) in cases {
            let e = Puzzle::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }

    /// Optional cells, colours and their matches, a limit of empty cells, ranges of copies,
    /// pieces in parts, and prisms: read, and written back the same.
    #[test]
    fn burr_features_parse_and_round_trip() {
        let text = "cell + optional
cell r colour 1
cell B optional colour 2
match 1 2
holes 3

board
#r+B
####

piece A x0..2 fixed
#r

piece C x1.. loose
#.#
";
        let p = Puzzle::parse(text).unwrap();
        let pr = &p.problem;
        assert_eq!(pr.optional, vec![false, false, true, true, false, false, false, false]);
        assert_eq!(pr.colours, vec![0, 1, 0, 2, 0, 0, 0, 0]);
        assert_eq!((pr.matches.clone(), pr.max_holes), (vec![(1, 2)], Some(3)));
        let (a, c) = (&pr.pieces[0], &pr.pieces[1]);
        assert_eq!((a.min, a.count, a.mirror, a.colours.clone()), (0, 2, false, vec![0, 1]));
        // As many copies as fit: 8 cells, two a copy.
        assert_eq!((c.min, c.count), (1, 4));
        assert_eq!(Puzzle::parse(&p.to_text()).unwrap(), p);
        assert_eq!(Puzzle::parse(&p.to_cells_text()).unwrap().problem, p.problem);
        // Without `match` lines a colour matches itself.
        let same = Puzzle::parse(&text.replace("match 1 2\n", "")).unwrap();
        assert_eq!(same.problem.matches, vec![(1, 1), (2, 2)]);
        let none = Puzzle::parse(&text.replace("match 1 2", "match none")).unwrap();
        assert!(none.problem.matches.is_empty());
        assert_eq!(Puzzle::parse(&none.to_text()).unwrap(), none);
        // Prisms: x y t z, a picture is refused.
        let prism = Puzzle::parse(
            "lattice prism\ncell + optional\nboard cells\n0 0 0 0\n0 0 0 1 +\n\npiece P cells\n0 0 0 0\n",
        )
        .unwrap();
        assert_eq!(prism.problem.board, vec![Coord::prism(0, 0, 0, 0), Coord::prism(0, 0, 0, 1)]);
        assert_eq!(prism.problem.optional, vec![false, true]);
        assert_eq!(Puzzle::parse(&prism.to_text()).unwrap(), prism);
        let cases: &[(&str, usize, &str)] = &[
            ("cell + optional\nboard\n#\n\npiece A\n+\n", 5, "only board cells may stay empty"),
            ("cell r colour 64\n", 1, "colours are numbered 1 to 63"),
            ("cell rr colour 1\n", 1, "not one character"),
            ("cell r\ncell r optional\n", 2, "a meaning twice"),
            ("match 1\n", 1, "match PIECE BOARD"),
            ("holes many\n", 1, "not a number of holes"),
            ("board\n##\n\npiece A x3..2\n#\n", 4, "xLEAST..MOST"),
            ("board\n##\n\npiece A x0..0\n#\n", 4, "xLEAST..MOST"),
            ("lattice prism\nboard\n##\n", 2, "prism boards and pieces are given as coordinates"),
            ("lattice prism\nboard cells\n0 0 2 0\n", 3, "t is 0 for an up triangle"),
            ("lattice prism\nboard cells\n0 0 0\n", 3, "3 numbers where a prism cell has 4 (x y t z)"),
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
