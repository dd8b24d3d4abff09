//! BurrTools puzzle files (`.xmpuzzle`): read them, and turn one of their problems into a
//! [`Puzzle`].
//!
//! A file is XML (format version 2; version 1 reads the same way), usually gzip-compressed:
//! a grid type, the constraint colours, the shapes (voxel spaces) and the problems. A shape is a
//! box of `x` by `y` by `z` voxels written one character each, `x` fastest, then `y`, then `z`:
//! `#` filled, `+` variable (in a result: a cell that may stay empty), `_` empty, each optionally
//! followed by its colour's number. A problem names its pieces (shapes, each with a number of
//! copies or a range), its result shape, which piece colour may sit on which result colour, and
//! at most how many variable cells may stay empty.
//!
//! Grids 0 (cubes) and 1 (triangular prisms) become tessera's cube and prism lattices; grids 2
//! to 4 (spheres, rhombic dodecahedra, tetrahedra and octahedra) are read but not solved.
//!
//! ```
//! use tessera_tiling::xmpuzzle::XmPuzzle;
//! let xml = r#"<?xml version="1.0"?>
//! <puzzle version="2"><gridType type="0"/><colors/><shapes>
//!   <voxel x="2" y="1" z="1" type="0">##</voxel>
//!   <voxel x="2" y="2" z="1" name="Box" type="0">####</voxel>
//! </shapes><problems><problem name="square"><shapes><shape id="0" count="2"/></shapes>
//!   <result id="1"/><bitmap/></problem></problems></puzzle>"#;
//! let file = XmPuzzle::read(xml.as_bytes())?;
//! assert_eq!(file.problems[0].name.as_deref(), Some("square"));
//! let puzzle = file.puzzle(0, "two dominoes")?;
//! assert_eq!((puzzle.problem.board.len(), puzzle.problem.pieces[0].count), (4, 2));
//! # Ok::<(), tessera_tiling::ParseError>(())
//! ```

use std::io::Read;

use quick_xml::events::{BytesStart, Event};
use serde::Serialize;
use tessera_core::geometry::{Coord, Lattice};

use crate::puzzle::{Expect, ParseError, PieceSpec, Problem, Puzzle};

/// Most bytes a file may hold once decompressed (a puzzle file of many megabytes is already
/// unusual; this only keeps a damaged or hostile file from filling the memory).
const MAX_BYTES: u64 = 256 << 20;

/// Most voxels a shape's box may hold.
const MAX_VOXELS: u64 = 1 << 24;

/// Labels for a problem's pieces, in the order of its parts.
const LABELS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A BurrTools puzzle file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct XmPuzzle {
    /// The format version (1 or 2).
    pub version: u32,
    /// The grid of every shape.
    pub grid: Grid,
    /// The constraint colours as red, green, blue (colour `k` is `colours[k - 1]`).
    pub colours: Vec<[u8; 3]>,
    /// The shapes: pieces and results alike.
    pub shapes: Vec<Shape>,
    /// The problems.
    pub problems: Vec<BurrProblem>,
    /// The file's comment, if any.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub comment: String,
}

/// BurrTools' grids.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grid {
    /// 0: unit cubes.
    Cubes,
    /// 1: triangular prisms, triangles stacked in layers.
    Prisms,
    /// 2: close-packed spheres.
    Spheres,
    /// 3: rhombic dodecahedra.
    Rhombic,
    /// 4: tetrahedra and octahedra.
    TetraOcta,
}

impl Grid {
    /// The grid of a file's `type` number.
    fn of(n: u32) -> Option<Grid> {
        [Grid::Cubes, Grid::Prisms, Grid::Spheres, Grid::Rhombic, Grid::TetraOcta].get(n as usize).copied()
    }

    /// The grid's number in files.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The grid in words.
    pub fn describe(self) -> &'static str {
        match self {
            Grid::Cubes => "cubes",
            Grid::Prisms => "triangular prisms",
            Grid::Spheres => "spheres",
            Grid::Rhombic => "rhombic dodecahedra",
            Grid::TetraOcta => "tetrahedra and octahedra",
        }
    }

    /// tessera's lattice for the grid, if it has one.
    pub fn lattice(self) -> Option<Lattice> {
        match self {
            Grid::Cubes => Some(Lattice::Cube),
            Grid::Prisms => Some(Lattice::Prism),
            _ => None,
        }
    }
}

/// What a voxel holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// `_`: nothing.
    Empty,
    /// `#`: filled.
    Filled,
    /// `+`: filled or not (in a result, a cell that may stay empty).
    Variable,
}

/// A shape: a box of voxels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shape {
    /// Its name, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The box: voxels along x, y and z.
    pub size: [u32; 3],
    /// Each voxel's state, `x` fastest, then `y`, then `z`.
    #[serde(skip)]
    pub states: Vec<State>,
    /// Each voxel's colour (0: neutral), in the same order.
    #[serde(skip)]
    pub colours: Vec<u8>,
    /// The file's line of the shape, for messages.
    #[serde(skip)]
    pub line: usize,
}

impl Shape {
    /// The voxels that are not empty: `(x, y, z)`, state and colour.
    pub fn voxels(&self) -> impl Iterator<Item = ([i32; 3], State, u8)> + '_ {
        let [sx, sy, _] = self.size.map(|s| s as usize);
        self.states.iter().zip(&self.colours).enumerate().filter(|(_, (s, _))| **s != State::Empty).map(
            move |(k, (&s, &c))| {
                let (x, y, z) = (k % sx, k / sx % sy, k / (sx * sy));
                ([x as i32, y as i32, z as i32], s, c)
            },
        )
    }

    /// How many voxels are in a state.
    pub fn count(&self, state: State) -> usize {
        self.states.iter().filter(|&&s| s == state).count()
    }
}

/// A problem: pieces, a result, colour constraints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BurrProblem {
    /// Its name, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The pieces: shapes with their numbers of copies, in the file's order.
    pub parts: Vec<Part>,
    /// The result shape (an index into the shapes).
    pub result: usize,
    /// At most this many variable result cells stay empty (BurrTools heeds it only with
    /// ranges of copies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_holes: Option<u32>,
    /// Which piece colour may sit on which result colour: `(piece, result)`, numbered from 1.
    pub matches: Vec<(u8, u8)>,
    /// The assemblies the file says BurrTools found, if it was solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored_assemblies: Option<u64>,
    /// The solutions the file says BurrTools found, if it was solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored_solutions: Option<u64>,
    /// The file's line of the problem, for messages.
    #[serde(skip)]
    pub line: usize,
}

/// A piece of a problem: a shape and its copies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Part {
    /// The shape (an index into the shapes).
    pub shape: usize,
    /// Fewest copies.
    pub min: u32,
    /// Most copies.
    pub max: u32,
    /// The group it belongs to, for taking the puzzle apart, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line, message: message.into() })
}

impl XmPuzzle {
    /// Whether bytes look like a BurrTools file: gzip-compressed, or XML.
    pub fn looks_like(bytes: &[u8]) -> bool {
        bytes.starts_with(&[0x1f, 0x8b]) || bytes.trim_ascii_start().starts_with(b"<")
    }

    /// Reads a file's bytes, gzip-compressed or plain XML. Errors name the line of the XML
    /// (decompressed) where it went wrong.
    pub fn read(bytes: &[u8]) -> Result<XmPuzzle, ParseError> {
        let xml = decompress(bytes)?;
        let root = Element::parse(&xml)?;
        XmPuzzle::from_root(&root)
    }

    /// The index of a problem named by its number (from 0, as `burrTxt -o` counts) or its name;
    /// the first when `which` is `None`.
    pub fn problem_index(&self, which: Option<&str>) -> Result<usize, String> {
        if self.problems.is_empty() {
            return Err("the file holds no problem".into());
        }
        let Some(which) = which else { return Ok(0) };
        if let Some(k) = self.problems.iter().position(|p| p.name.as_deref() == Some(which)) {
            return Ok(k);
        }
        match which.parse::<usize>() {
            Ok(k) if k < self.problems.len() => Ok(k),
            _ => Err(format!(
                "no problem {which:?}: the file holds {} (numbered from 0{})",
                self.problems.len(),
                self.problem_names()
            )),
        }
    }

    /// ", named ..." for the problems that have names, for messages.
    fn problem_names(&self) -> String {
        let named: Vec<String> =
            self.problems.iter().enumerate().filter_map(|(k, p)| Some(format!("{k} {:?}", p.name.as_ref()?))).collect();
        if named.is_empty() { String::new() } else { format!("; {}", named.join(", ")) }
    }

    /// The label of each part of problem `k` in its [`Puzzle`], with the shape's name.
    pub fn labels(&self, k: usize) -> Vec<(char, String)> {
        let problem = &self.problems[k];
        let parts = problem.parts.iter().filter(|p| p.max > 0);
        parts
            .zip(labels())
            .map(|(part, label)| {
                let shape = &self.shapes[part.shape];
                let name = shape.name.clone().unwrap_or_else(|| format!("S{}", part.shape + 1));
                (label, name)
            })
            .collect()
    }

    /// Problem `k` as a tessera puzzle named `name` (see `docs/tiling.md` for what maps to
    /// what): the result's filled cells are board cells, its variable ones optional cells; each
    /// part is a piece of its shape's filled voxels, never turned over (a solid piece cannot be),
    /// with its range of copies; colours and their constraints as the file gives them; the
    /// limit of empty cells only with ranges, as BurrTools heeds it. Variable cells that the
    /// pieces leave no choice about are settled (see [`Problem::settled`]).
    pub fn puzzle(&self, k: usize, name: &str) -> Result<Puzzle, ParseError> {
        let problem = &self.problems[k];
        let Some(lattice) = self.grid.lattice() else {
            return err(
                0,
                format!(
                    "grid {} ({}) is not supported: tessera solves grids 0 (cubes) and 1 (triangular prisms)",
                    self.grid.number(),
                    self.grid.describe()
                ),
            );
        };
        // Without constraint colours BurrTools ignores the voxels' colours.
        let coloured = !self.colours.is_empty();
        let cell = |v: [i32; 3]| match lattice {
            // A triangle's picture row runs down; BurrTools' y runs up.
            Lattice::Prism => {
                let t = Lattice::Triangle.from_offset(v[0], -v[1]);
                Coord::prism(t.x, t.y, t.z, v[2])
            }
            _ => Coord::at(v[0], v[1], v[2]),
        };
        let result = &self.shapes[problem.result];
        let voxels: Vec<_> = result.voxels().collect();
        let mut board = Problem::new(lattice, voxels.iter().map(|v| cell(v.0)).collect(), Vec::new());
        if voxels.iter().any(|v| v.1 == State::Variable) {
            board.optional = voxels.iter().map(|v| v.1 == State::Variable).collect();
        }
        if coloured && voxels.iter().any(|v| v.2 != 0) {
            board.colours = voxels.iter().map(|v| v.2).collect();
        }
        for (part, label) in problem.parts.iter().filter(|p| p.max > 0).zip(labels()) {
            let shape = &self.shapes[part.shape];
            let filled: Vec<_> = shape.voxels().filter(|v| v.1 == State::Filled).collect();
            if filled.is_empty() {
                return err(shape.line, format!("shape {} has no filled voxel: it cannot be a piece", part.shape + 1));
            }
            let mut piece = PieceSpec::new(label, filled.iter().map(|v| cell(v.0)).collect(), part.max, false);
            piece.min = part.min;
            if coloured && filled.iter().any(|v| v.2 != 0) {
                piece.colours = filled.iter().map(|v| v.2).collect();
            }
            board.pieces.push(piece);
        }
        if board.pieces.is_empty() {
            return err(problem.line, "the problem has no pieces");
        }
        if board.board.is_empty() {
            return err(result.line, format!("the result shape {} has no filled voxel", problem.result + 1));
        }
        board.matches = problem.matches.clone();
        board.max_holes = problem.max_holes.filter(|_| board.has_ranges());
        board.check().or_else(|e| err(problem.line, e))?;
        // Variable cells the pieces leave no choice about (all empty, or all covered) are
        // settled: the search then sees a plain board.
        let board = board.settled().unwrap_or(board);
        let source = Some(format!("BurrTools file, problem {k}"));
        Ok(Puzzle { name: name.to_string(), problem: board, expect: Expect::default(), source })
    }

    fn from_root(root: &Element) -> Result<XmPuzzle, ParseError> {
        if root.name != "puzzle" {
            return err(root.line, format!("<{}> where a BurrTools file has <puzzle>", root.name));
        }
        root.known(&["version"])?;
        let version = root.number("version")?.ok_or_else(|| missing(root, "version"))?;
        if version != 1 && version != 2 {
            return err(root.line, format!("format version {version}: tessera reads versions 1 and 2"));
        }
        let mut file = XmPuzzle {
            version,
            grid: Grid::Cubes,
            colours: Vec::new(),
            shapes: Vec::new(),
            problems: Vec::new(),
            comment: String::new(),
        };
        for e in &root.children {
            match e.name.as_str() {
                "gridType" => {
                    e.known(&["type"])?;
                    let n = e.number("type")?.ok_or_else(|| missing(e, "type"))?;
                    file.grid = Grid::of(n).ok_or_else(|| ParseError {
                        line: e.line,
                        message: format!("unknown grid type {n} (BurrTools has 0 to 4)"),
                    })?;
                }
                "colors" => {
                    for c in e.children.iter().filter(|c| c.name == "color") {
                        c.known(&["red", "green", "blue"])?;
                        let channel = |name| Ok::<u8, ParseError>(c.number(name)?.unwrap_or(0).min(255) as u8);
                        file.colours.push([channel("red")?, channel("green")?, channel("blue")?]);
                    }
                }
                "shapes" => {
                    for s in e.children.iter().filter(|s| s.name == "voxel") {
                        file.shapes.push(read_shape(s)?);
                    }
                }
                "problems" => {
                    for p in e.children.iter().filter(|p| p.name == "problem") {
                        file.problems.push(read_problem(p)?);
                    }
                }
                "comment" => file.comment = e.text.trim().to_string(),
                _ => {}
            }
        }
        for p in &file.problems {
            let check = |id: usize, line: usize| {
                if id < file.shapes.len() {
                    Ok(())
                } else {
                    err(line, format!("shape id {id}, but the file has {} shapes", file.shapes.len()))
                }
            };
            check(p.result, p.line)?;
            for part in &p.parts {
                check(part.shape, p.line)?;
            }
            let colours = file.colours.len();
            if let Some(&(a, b)) = p.matches.iter().find(|&&(a, b)| usize::from(a.max(b)) > colours) {
                return err(
                    p.line,
                    format!("a colour pair ({} {}) names a colour the file does not define", a - 1, b - 1),
                );
            }
        }
        Ok(file)
    }
}

/// The labels of a problem's pieces, in order: letters, digits, then letters of other alphabets.
fn labels() -> impl Iterator<Item = char> {
    LABELS.chars().chain('\u{00c0}'..'\u{0250}').chain('\u{0391}'..'\u{03a9}')
}

fn missing(e: &Element, attribute: &str) -> ParseError {
    ParseError { line: e.line, message: format!("<{}> needs a '{attribute}' attribute", e.name) }
}

/// A `<voxel>` element: its box and its voxels.
fn read_shape(e: &Element) -> Result<Shape, ParseError> {
    e.known(&["x", "y", "z", "type", "name", "weight", "hx", "hy", "hz"])?;
    let size = |a| e.number(a)?.ok_or_else(|| missing(e, a));
    let size = [size("x")?, size("y")?, size("z")?];
    let voxels: u64 = size.iter().map(|&s| u64::from(s)).product();
    if voxels > MAX_VOXELS {
        return err(
            e.line,
            format!("a shape of {} by {} by {} voxels: at most {MAX_VOXELS} are read", size[0], size[1], size[2]),
        );
    }
    match e.number("type")? {
        Some(0) => {}
        Some(t) => return err(e.line, format!("unknown voxel type {t} (BurrTools writes 0)")),
        None => return Err(missing(e, "type")),
    }
    let (mut states, mut colours) = (Vec::with_capacity(voxels as usize), Vec::with_capacity(voxels as usize));
    let mut colour: Option<u32> = None;
    for ch in e.text.chars().filter(|c| !c.is_whitespace()) {
        let state = match ch {
            '#' => State::Filled,
            '+' => State::Variable,
            '_' => State::Empty,
            '0'..='9' if !states.is_empty() => {
                let c = colour.unwrap_or(0) * 10 + ch.to_digit(10).unwrap_or(0);
                if c > 63 {
                    return err(e.line, format!("a voxel of colour {c}: colours are numbered up to 63"));
                }
                colour = Some(c);
                continue;
            }
            other => {
                return err(
                    e.line,
                    format!("{other:?} in a shape: voxels are '#', '+' or '_', each with its colour's number"),
                );
            }
        };
        if let (Some(c), Some(last)) = (colour.take(), colours.last_mut()) {
            *last = c as u8;
        }
        if states.len() as u64 == voxels {
            return err(
                e.line,
                format!("more voxels than the shape's {voxels} ({} by {} by {})", size[0], size[1], size[2]),
            );
        }
        states.push(state);
        colours.push(0);
    }
    if let (Some(c), Some(last)) = (colour, colours.last_mut()) {
        *last = c as u8;
    }
    // An empty text is an empty shape.
    if !states.is_empty() && states.len() as u64 != voxels {
        return err(
            e.line,
            format!(
                "{} voxels where the shape's box has {voxels} ({} by {} by {})",
                states.len(),
                size[0],
                size[1],
                size[2]
            ),
        );
    }
    if states.is_empty() {
        states = vec![State::Empty; voxels as usize];
        colours = vec![0; voxels as usize];
    }
    Ok(Shape { name: e.attr("name").map(str::to_string), size, states, colours, line: e.line })
}

/// A `<problem>` element.
fn read_problem(e: &Element) -> Result<BurrProblem, ParseError> {
    e.known(&["name", "state", "assemblies", "solutions", "time", "maxHoles"])?;
    let solved = e.number("state")?.is_some_and(|s| s != 0);
    let mut p = BurrProblem {
        name: e.attr("name").map(str::to_string),
        parts: Vec::new(),
        result: usize::MAX,
        max_holes: e.number("maxHoles")?,
        matches: Vec::new(),
        stored_assemblies: if solved { e.number("assemblies")?.map(u64::from) } else { None },
        stored_solutions: if solved { e.number("solutions")?.map(u64::from) } else { None },
        line: e.line,
    };
    for c in &e.children {
        match c.name.as_str() {
            "shapes" => {
                for s in c.children.iter().filter(|s| s.name == "shape") {
                    p.parts.push(read_part(s)?);
                }
            }
            "result" => {
                c.known(&["id"])?;
                p.result = c.number("id")?.ok_or_else(|| missing(c, "id"))? as usize;
            }
            "bitmap" => {
                for pair in c.children.iter().filter(|x| x.name == "pair") {
                    pair.known(&["piece", "result"])?;
                    let colour = |a| {
                        let n = pair.number(a)?.ok_or_else(|| missing(pair, a))?;
                        u8::try_from(n + 1).ok().filter(|&k| k <= 63).ok_or_else(|| ParseError {
                            line: pair.line,
                            message: format!("colour {n} in a pair: colours are numbered 0 to 62 there"),
                        })
                    };
                    p.matches.push((colour("piece")?, colour("result")?));
                }
            }
            _ => {}
        }
    }
    if p.result == usize::MAX {
        return err(e.line, "the problem has no <result id=...>");
    }
    p.matches.sort_unstable();
    p.matches.dedup();
    Ok(p)
}

/// A `<shape>` of a problem: an id and a count, or a range.
fn read_part(e: &Element) -> Result<Part, ParseError> {
    e.known(&["id", "count", "min", "max", "group"])?;
    let shape = e.number("id")?.ok_or_else(|| missing(e, "id"))? as usize;
    let (min, max) = match (e.number("count")?, e.number("min")?, e.number("max")?) {
        (Some(n), _, _) => (n, n),
        (None, Some(min), Some(max)) if min <= max => (min, max),
        (None, Some(min), Some(max)) => {
            return err(e.line, format!("the range {min}..{max}: its least is more than its most"));
        }
        _ => return err(e.line, "a problem's <shape> needs a 'count', or a 'min' and a 'max'"),
    };
    // A group can also be given as a child (pieces in several groups); one is enough here.
    let group = e.number("group")?.or(e
        .children
        .iter()
        .find(|g| g.name == "group")
        .and_then(|g| g.number("group").ok().flatten()));
    Ok(Part { shape, min, max, group: group.filter(|&g| g != 0) })
}

/// The file's bytes, decompressed if they are gzip's, at most [`MAX_BYTES`].
fn decompress(bytes: &[u8]) -> Result<Vec<u8>, ParseError> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        if bytes.len() as u64 > MAX_BYTES {
            return err(0, format!("the file has over {MAX_BYTES} bytes"));
        }
        return Ok(bytes.to_vec());
    }
    let mut out = Vec::new();
    let read = flate2::read::MultiGzDecoder::new(bytes).take(MAX_BYTES + 1).read_to_end(&mut out);
    match read {
        Err(e) => err(0, format!("not a readable gzip file ({e}) after {} bytes of it", out.len())),
        Ok(_) if out.len() as u64 > MAX_BYTES => {
            err(0, format!("the file holds over {MAX_BYTES} bytes once decompressed"))
        }
        Ok(_) => Ok(out),
    }
}

/// An XML element: its name, attributes, children, text and line.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Element>,
    text: String,
    line: usize,
}

impl Element {
    /// The root element of an XML document.
    fn parse(xml: &[u8]) -> Result<Element, ParseError> {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(xml.iter().enumerate().filter(|&(_, &b)| b == b'\n').map(|(k, _)| k + 1))
            .collect();
        let line_of = |pos: u64| starts.partition_point(|&s| s as u64 <= pos);
        let mut reader = quick_xml::Reader::from_reader(xml);
        let mut stack: Vec<Element> = Vec::new();
        let mut root = None;
        loop {
            let at = reader.buffer_position();
            let event = reader.read_event().map_err(|e| {
                let line = line_of(reader.error_position());
                ParseError { line, message: format!("not well-formed XML: {e}") }
            })?;
            let line = line_of(at);
            match event {
                Event::Start(s) => stack.push(Element::open(&s, line)?),
                Event::Empty(s) => {
                    let e = Element::open(&s, line)?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(e),
                        None => root = root.or(Some(e)),
                    }
                }
                Event::End(_) => {
                    let Some(e) = stack.pop() else { return err(line, "a closing tag with nothing open") };
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(e),
                        None => root = root.or(Some(e)),
                    }
                }
                Event::Text(t) => {
                    if let Some(e) = stack.last_mut() {
                        e.text.push_str(&String::from_utf8_lossy(&t));
                    }
                }
                Event::CData(t) => {
                    if let Some(e) = stack.last_mut() {
                        e.text.push_str(&String::from_utf8_lossy(&t));
                    }
                }
                Event::GeneralRef(r) => {
                    if let Some(e) = stack.last_mut() {
                        e.text.push_str(&entity(&String::from_utf8_lossy(&r)));
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        if let Some(open) = stack.last() {
            return err(
                line_of(xml.len() as u64),
                format!("the file ends inside <{}> (opened on line {}): it is cut short", open.name, open.line),
            );
        }
        root.ok_or(ParseError { line: 0, message: "no XML element: not a BurrTools file".into() })
    }

    fn open(s: &BytesStart<'_>, line: usize) -> Result<Element, ParseError> {
        let name = String::from_utf8_lossy(s.name().as_ref()).into_owned();
        let mut attrs = Vec::new();
        for a in s.attributes() {
            let a = a.map_err(|e| ParseError { line, message: format!("a bad attribute in <{name}>: {e}") })?;
            let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
            let value = match a.unescape_value() {
                Ok(v) => v.into_owned(),
                // Latin-1 text that no declaration names, as some files have.
                Err(_) => String::from_utf8_lossy(&a.value).into_owned(),
            };
            attrs.push((key, value));
        }
        Ok(Element { name, attrs, line, ..Element::default() })
    }

    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// An error for the first attribute not in `known`: BurrTools writes no other, so another
    /// is a damaged file or one this reader would misread.
    fn known(&self, known: &[&str]) -> Result<(), ParseError> {
        match self.attrs.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some((k, _)) => err(
                self.line,
                format!("unknown attribute '{k}' in <{}> (BurrTools writes {} there)", self.name, known.join(", ")),
            ),
        }
    }

    /// A whole-number attribute, `None` if absent or empty.
    fn number(&self, key: &str) -> Result<Option<u32>, ParseError> {
        match self.attr(key).map(str::trim) {
            None | Some("") => Ok(None),
            Some(v) => v.parse().map(Some).or_else(|_| {
                err(
                    self.line,
                    format!("{key}=\"{v}\" in <{}>: expected a whole number from 0 to {}", self.name, u32::MAX),
                )
            }),
        }
    }
}

/// The text of an entity reference (`amp`, `lt`, `#65`, ...).
fn entity(name: &str) -> String {
    let code = |s: &str, radix| u32::from_str_radix(s, radix).ok().and_then(char::from_u32);
    let ch = match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        n => n.strip_prefix("#x").map_or_else(|| n.strip_prefix('#').and_then(|d| code(d, 10)), |h| code(h, 16)),
    };
    ch.map_or_else(|| format!("&{name};"), String::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A file of one grid, shapes and problems (given as XML).
    fn file(grid: u32, colours: &str, shapes: &str, problems: &str) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n  <gridType type=\"{grid}\"/>\n  <colors>{colours}</colors>\n  <shapes>\n{shapes}\n  </shapes>\n  <problems>\n{problems}\n  </problems>\n  <comment>caf\u{e9} &amp; co</comment>\n</puzzle>\n"
        )
    }

    fn gzip(text: &str) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    /// Shapes with variable cells and colours, problems with counts, ranges, a colour pair and
    /// a limit of holes: read from plain XML and from gzip alike.
    #[test]
    fn reads_shapes_problems_and_their_options() {
        let text = file(
            0,
            "<color red=\"255\" green=\"0\" blue=\"0\"/><color red=\"0\" green=\"0\" blue=\"255\"/>",
            "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#1#</voxel>\n<voxel x=\"2\" y=\"2\" z=\"1\" name=\"Box\" type=\"0\">#2#+2_</voxel>",
            "<problem name=\"first\" state=\"2\" assemblies=\"7\" maxHoles=\"1\"><shapes><shape id=\"0\" min=\"0\" max=\"2\"/></shapes><result id=\"1\"/><bitmap><pair piece=\"0\" result=\"1\"/></bitmap></problem>\n<problem><shapes><shape id=\"0\" count=\"1\" group=\"3\"/></shapes><result id=\"1\"/></problem>",
        );
        for bytes in [text.as_bytes().to_vec(), gzip(&text)] {
            assert!(XmPuzzle::looks_like(&bytes));
            let f = XmPuzzle::read(&bytes).unwrap();
            assert_eq!((f.version, f.grid, f.colours.len(), f.comment.as_str()), (2, Grid::Cubes, 2, "caf\u{e9} & co"));
            let [piece, result] = &f.shapes[..] else { panic!("two shapes") };
            assert_eq!((piece.states.clone(), piece.colours.clone()), (vec![State::Filled; 2], vec![1, 0]));
            assert_eq!(result.name.as_deref(), Some("Box"));
            assert_eq!(result.states, [State::Filled, State::Filled, State::Variable, State::Empty]);
            assert_eq!(result.colours, [2, 0, 2, 0]);
            let p = &f.problems[0];
            assert_eq!((p.parts[0].min, p.parts[0].max, p.max_holes, p.matches.clone()), (0, 2, Some(1), vec![(1, 2)]));
            assert_eq!((p.stored_assemblies, f.problems[1].parts[0].group), (Some(7), Some(3)));
            assert_eq!(f.problem_index(Some("first")), Ok(0));
            assert_eq!(f.problem_index(Some("1")), Ok(1));
            assert!(f.problem_index(Some("2")).unwrap_err().contains("holds 2 (numbered from 0; 0 \"first\")"));
            // As a puzzle: three board cells, the third optional; a piece of two, the first red;
            // the limit of holes kept (the piece has a range).
            let puzzle = f.puzzle(0, "t").unwrap();
            let pr = &puzzle.problem;
            assert_eq!(
                (pr.board.len(), pr.optional.clone(), pr.colours.clone()),
                (3, vec![false, false, true], vec![2, 0, 2])
            );
            assert_eq!((pr.pieces[0].min, pr.pieces[0].count, pr.pieces[0].mirror), (0, 2, false));
            assert_eq!(
                (pr.pieces[0].colours.clone(), pr.matches.clone(), pr.max_holes),
                (vec![1, 0], vec![(1, 2)], Some(1))
            );
            // Without a range, BurrTools ignores the limit of holes.
            assert_eq!(f.puzzle(1, "t").unwrap().problem.max_holes, None);
        }
    }

    /// Prisms: BurrTools' triangle (x, y) points up where x + y is even and its y grows upwards;
    /// two triangles side by side and one above the other are neighbours, and the diamond they
    /// make tiles a hexagon's worth of triangles.
    #[test]
    fn prisms_keep_their_neighbours() {
        // A row of six triangles, two layers: twelve prisms; pieces of two (a diamond, flat)
        // and two (a stack of two, one above the other).
        let text = file(
            1,
            "",
            "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n<voxel x=\"1\" y=\"1\" z=\"2\" type=\"0\">##</voxel>\n<voxel x=\"6\" y=\"1\" z=\"2\" type=\"0\">############</voxel>",
            "<problem><shapes><shape id=\"0\" count=\"4\"/><shape id=\"1\" count=\"2\"/></shapes><result id=\"2\"/></problem>",
        );
        let puzzle = XmPuzzle::read(text.as_bytes()).unwrap().puzzle(0, "prisms").unwrap();
        let lattice = puzzle.problem.lattice;
        assert_eq!(lattice, Lattice::Prism);
        for piece in &puzzle.problem.pieces {
            assert!(tessera_core::geometry::Polyform::new(lattice, piece.cells.iter().copied()).is_connected());
        }
        let counts = crate::Tiler::new(&puzzle.problem).unwrap().count(1, &tessera_core::runtime::Budget::unlimited());
        assert!(counts.raw > 0, "{counts:?}");
    }

    #[test]
    fn bad_files_say_where() {
        let ok_shapes = "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>";
        let ok_problem = "<problem><shapes><shape id=\"0\" count=\"1\"/></shapes><result id=\"0\"/></problem>";
        let cases: Vec<(Vec<u8>, usize, &str)> = vec![
            (b"\x1f\x8b\x08garbage".to_vec(), 0, "not a readable gzip file"),
            (b"<puzzle version=\"2\"><shapes>".to_vec(), 1, "cut short"),
            (b"<puzzle version=\"2\">\n<a></b></puzzle>".to_vec(), 2, "not well-formed XML"),
            (b"<puzzle>\n</puzzle>".to_vec(), 1, "needs a 'version'"),
            (b"<puzzle version=\"3\"/>".to_vec(), 1, "format version 3"),
            (b"<tiling/>".to_vec(), 1, "<tiling> where a BurrTools file has <puzzle>"),
            (file(7, "", ok_shapes, ok_problem).into_bytes(), 3, "unknown grid type 7"),
            (
                file(0, "", "<voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#</voxel>", ok_problem).into_bytes(),
                6,
                "1 voxels where the shape's box has 2",
            ),
            (
                file(0, "", "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#64</voxel>", ok_problem).into_bytes(),
                6,
                "colours are numbered up to 63",
            ),
            (
                file(0, "", "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#x</voxel>", ok_problem).into_bytes(),
                6,
                "'x' in a shape",
            ),
            (
                file(0, "", "<voxel x=\"1\" y=\"1\" type=\"0\">#</voxel>", ok_problem).into_bytes(),
                6,
                "needs a 'z' attribute",
            ),
            (
                file(0, "", "<voxel x=\"-1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>", ok_problem).into_bytes(),
                6,
                "x=\"-1\"",
            ),
            (
                file(0, "", "<voxel x=\"1000\" y=\"1000\" z=\"1000\" type=\"0\">#</voxel>", ok_problem).into_bytes(),
                6,
                "at most 16777216 are read",
            ),
            (
                file(
                    0,
                    "",
                    ok_shapes,
                    "<problem><shapes><shape id=\"0\" min=\"2\" max=\"1\"/></shapes><result id=\"0\"/></problem>",
                )
                .into_bytes(),
                9,
                "least is more than its most",
            ),
            (
                file(
                    0,
                    "",
                    ok_shapes,
                    "<problem><shapes><shape id=\"5\" count=\"1\"/></shapes><result id=\"0\"/></problem>",
                )
                .into_bytes(),
                9,
                "shape id 5, but the file has 1 shapes",
            ),
            (file(0, "", ok_shapes, "<problem><shapes/></problem>").into_bytes(), 9, "no <result"),
            (
                file(0, "", "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\" depth=\"2\">#</voxel>", ok_problem).into_bytes(),
                6,
                "unknown attribute 'depth' in <voxel>",
            ),
            (
                file(
                    0,
                    "",
                    ok_shapes,
                    "<problem><shapes><shape id=\"0\" copies=\"2\"/></shapes><result id=\"0\"/></problem>",
                )
                .into_bytes(),
                9,
                "unknown attribute 'copies' in <shape>",
            ),
            (
                file(
                    0,
                    "",
                    ok_shapes,
                    "<problem><shapes/><result id=\"0\"/><bitmap><pair piece=\"0\" result=\"0\"/></bitmap></problem>",
                )
                .into_bytes(),
                9,
                "names a colour the file does not define",
            ),
        ];
        for (bytes, line, what) in cases {
            let e = XmPuzzle::read(&bytes).unwrap_err();
            assert_eq!(e.line, line, "{}: {e}", String::from_utf8_lossy(&bytes));
            assert!(e.message.contains(what), "{}: {e}", String::from_utf8_lossy(&bytes));
        }
        // Read, but not a puzzle tessera solves (spheres), or no puzzle at all.
        let spheres = XmPuzzle::read(file(2, "", ok_shapes, ok_problem).as_bytes()).unwrap();
        let e = spheres.puzzle(0, "s").unwrap_err();
        assert!(e.message.contains("grid 2 (spheres) is not supported"), "{e}");
        let empty = file(0, "", "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">_</voxel>", ok_problem);
        let e = XmPuzzle::read(empty.as_bytes()).unwrap().puzzle(0, "e").unwrap_err();
        assert!(e.message.contains("no filled voxel"), "{e}");
    }
}
