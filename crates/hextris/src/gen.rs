//! New problems in the contest's format, from a seed: to tune a solver on one set of problems
//! and measure it on another it has never seen.
//!
//! Two kinds ([`Kind`]):
//!
//! * **contest-like** problems follow the 25 official ones. Each starts from an official problem
//!   drawn at random (its *template*), which keeps the official pairings of board size, source
//!   length and seeds: the board is the template's within a factor 0.8..1.25 each way (8..=120
//!   columns, 6..=60 rows), the source length within 0.75..1.33 (20..=1620 units), the number of
//!   seeds the template's (1, 5, 10 or 50). The units are the template's own set a third of the
//!   time; otherwise as many as the template has (within a factor 0.5..1.5, at most 54), each
//!   an official unit or, as often, a random connected polyform of an official unit's size
//!   (1..=17 cells) whose pivot is a central member or, two times in five, a free cell beside
//!   the members. The board is empty (10 official boards in 25), or holds a picture of letters
//!   drawn with lines (6 in 25), scattered cells (1), a stack of nearly full rows at the bottom
//!   (3: rows with a hole or two, a well, a rough heap), or walls of rows across (5: staggered,
//!   spaced, or a few partial rows), in the official boards' shares of filled cells;
//! * **small** problems are puzzles: 5..=12 columns, 5..=10 rows, a quarter to a third of the
//!   cells filled in nearly full rows at the bottom (one to three gaps each, so that lines can be
//!   cleared), a source of 1..=4 units drawn from 1..=4 units of 2..=6 cells, one or two seeds.
//!
//! Either way the top rows hold no filled cell (the tallest unit's rows, and 15% of the rows of
//! a contest-like board at least), so every unit spawns on free cells ([`playable`] checks it);
//! no row starts full; the first seed is 0 but one time in 25 (as in the official problems) and
//! the others are distinct numbers below 2^15, as the contest's were.
//!
//! Sets for tuning come from seeds 1..=99, the set for reporting from seed 2026 (see the
//! hextris manual).
//!
//! ```
//! use tessera_core::rng::Rng64;
//! use tessera_hextris::r#gen::{self, Kind};
//!
//! let p = r#gen::problem(Kind::Small, 2000, &mut Rng64::seed(7));
//! assert!(r#gen::playable(&p).is_ok());
//! assert!((5..=12).contains(&p.width) && (1..=4).contains(&p.source_length));
//! // A numbered set: the same seed gives the same problems.
//! let set = r#gen::set(5, 3, 1)?;
//! assert_eq!(set.iter().map(|g| g.problem.id).collect::<Vec<_>>(), [1000, 1001, 1002]);
//! assert_eq!((set[0].kind, set[2].kind), (Kind::Contest, Kind::Small));
//! assert_eq!(set, r#gen::set(5, 3, 1)?);
//! # Ok::<(), tessera_hextris::r#gen::GenError>(())
//! ```

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::OnceLock;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use tessera_core::geometry::{Coord, Lattice};
use tessera_core::rng::{Rng64, derive_seed};

use crate::builtin;
use crate::engine::MAX_WIDTH;
use crate::format::{GAME, ProblemStats};
use crate::judge::spawned;
use crate::problem::{Cell, Problem, ProblemError, UnitDef};

/// The id of a set's first problem: the official problems are 0..=24 (and the finals' 25..=32).
pub const FIRST_ID: i64 = 1000;
/// The most problems a set may have.
pub const MAX_COUNT: usize = 100_000;
/// Seeds are below this, as the contest's were (its generator's numbers are 15 bits).
pub const SEED_LIMIT: u32 = 1 << 15;

/// Tries at a random unit before settling for something smaller.
const ATTEMPTS: usize = 32;
/// How often a contest-like problem takes its template's whole unit set.
const WHOLE_SET: f64 = 1.0 / 3.0;
/// How often a unit of a contest-like problem is an official one (else a random polyform).
const OFFICIAL_UNIT: f64 = 0.5;
/// How often a small problem's unit is an official one (of 2..=6 cells).
const OFFICIAL_SMALL_UNIT: f64 = 0.4;
/// How often a random unit's pivot is a member (62 of the 101 distinct official units).
const MEMBER_PIVOT: f64 = 0.6;
/// How often the first seed is 0 (24 of the 25 official problems).
const ZERO_FIRST: f64 = 24.0 / 25.0;

/// The two kinds of problems.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Modelled on the 25 official problems.
    Contest,
    /// A small puzzle: a few units on a small board.
    Small,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Contest => "contest",
            Kind::Small => "small",
        })
    }
}

/// Why a set cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// More small problems than problems.
    #[error("{small} small problems asked for in a set of {count}")]
    TooManySmall {
        /// Small problems asked for.
        small: usize,
        /// Problems in the set.
        count: usize,
    },
    /// A set beyond [`MAX_COUNT`].
    #[error("a set of {0} problems: at most {MAX_COUNT}")]
    TooMany(usize),
    /// A problem came out unplayable (a bug of the generator).
    #[error("problem {id}: {why}")]
    Unplayable {
        /// The problem's id.
        id: i64,
        /// What is wrong.
        why: Unplayable,
    },
}

/// Why a problem is useless or against the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unplayable {
    /// Not a valid problem at all.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// Wider than the solver's engine plays.
    #[error("{0} columns: the solver plays at most {MAX_WIDTH}")]
    TooWide(usize),
    /// A unit whose spawn position leaves the board or covers a filled cell: the game would
    /// end as soon as it came.
    #[error("unit {unit} cannot spawn: cell ({}, {}) is {}", .cell.x, .cell.y, if *.off { "off the board" } else { "filled" })]
    Spawn {
        /// Index in `units`.
        unit: usize,
        /// The cell at fault.
        cell: Cell,
        /// Off the board (else filled).
        off: bool,
    },
}

/// Checks what a generated problem must be: valid ([`Problem::check`]), narrow enough for the
/// solver's engine, and every unit's spawn position on the board and on free cells of the
/// starting board.
pub fn playable(problem: &Problem) -> Result<(), Unplayable> {
    problem.check()?;
    if problem.width > MAX_WIDTH {
        return Err(Unplayable::TooWide(problem.width));
    }
    let filled: BTreeSet<Cell> = problem.filled.iter().copied().collect();
    for (unit, def) in problem.units.iter().enumerate() {
        let piece = spawned(def, problem.width);
        if let Some(&cell) = piece.cells.iter().find(|&&c| !problem.on_board(c) || filled.contains(&c)) {
            return Err(Unplayable::Spawn { unit, cell, off: !problem.on_board(cell) });
        }
    }
    Ok(())
}

/// One problem of a set, with its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// Its kind.
    pub kind: Kind,
    /// The problem.
    pub problem: Problem,
}

impl Generated {
    /// The file it goes in (see [`file_name`]).
    #[must_use]
    pub fn file_name(&self) -> String {
        file_name(self.problem.id)
    }
}

/// The file of problem `id`: `problem_<id>.json`, as the official problems are named.
#[must_use]
pub fn file_name(id: i64) -> String {
    format!("problem_{id}.json")
}

/// A generated problem's figures, for a summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenRow {
    /// Its kind.
    pub kind: Kind,
    /// Its file's name.
    pub file: String,
    /// Size, filled cells, units, source length, seeds.
    #[serde(flatten)]
    pub stats: ProblemStats,
}

/// What a set is: the `--json` summary of `tessera hextris gen`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenSummary {
    /// Always [`GAME`].
    pub game: String,
    /// The seed of the set.
    pub seed: u64,
    /// The folder written to.
    pub dir: String,
    /// Small problems among them.
    pub small: usize,
    /// The problems, by id.
    pub problems: Vec<GenRow>,
}

impl GenSummary {
    /// The summary of `set`, made from `seed` and written to `dir`.
    #[must_use]
    pub fn new(seed: u64, dir: String, set: &[Generated]) -> GenSummary {
        let problems: Vec<GenRow> = set
            .iter()
            .map(|g| GenRow { kind: g.kind, file: g.file_name(), stats: ProblemStats::of(&g.problem) })
            .collect();
        let small = set.iter().filter(|g| g.kind == Kind::Small).count();
        GenSummary { game: GAME.to_string(), seed, dir, small, problems }
    }
}

/// A set of `count` problems from `seed`: ids [`FIRST_ID`]` + i`, the last `small` of them
/// small, the others contest-like. Problem `i` comes from its own generator (seeded with
/// [`derive_seed`]`(seed, i)`), so it is the same in every set of the seed that has it with the
/// same kind.
pub fn set(seed: u64, count: usize, small: usize) -> Result<Vec<Generated>, GenError> {
    if count > MAX_COUNT {
        return Err(GenError::TooMany(count));
    }
    if small > count {
        return Err(GenError::TooManySmall { small, count });
    }
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let kind = if i < count - small { Kind::Contest } else { Kind::Small };
        let id = FIRST_ID + i as i64;
        let problem = problem(kind, id, &mut Rng64::seed(derive_seed(seed, i as u64)));
        playable(&problem).map_err(|why| GenError::Unplayable { id, why })?;
        out.push(Generated { kind, problem });
    }
    Ok(out)
}

/// A problem of `kind` numbered `id`, drawn with `rng`. It is always [`playable`].
pub fn problem(kind: Kind, id: i64, rng: &mut impl Rng) -> Problem {
    match kind {
        Kind::Contest => contest(id, rng),
        Kind::Small => small(id, rng),
    }
}

/// The official problems and their distinct units, read once.
#[derive(Debug)]
struct Model {
    official: Vec<Problem>,
    /// The distinct official units.
    units: Vec<UnitDef>,
    /// The sizes of all official units, a size as often as the problems have it.
    sizes: Vec<usize>,
}

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let official: Vec<Problem> = (0..builtin::COUNT).filter_map(builtin::problem).collect();
        let mut units: Vec<UnitDef> = Vec::new();
        for u in official.iter().flat_map(|p| &p.units) {
            if !units.contains(u) {
                units.push(u.clone());
            }
        }
        let sizes = official.iter().flat_map(|p| &p.units).map(|u| u.members.len()).collect();
        Model { official, units, sizes }
    })
}

/// `n` times a random factor in `lo..hi`, rounded.
fn jitter(n: usize, lo: f64, hi: f64, rng: &mut impl Rng) -> usize {
    (n as f64 * rng.random_range(lo..hi)).round() as usize
}

/// A contest-like problem (see the module's documentation).
fn contest(id: i64, rng: &mut impl Rng) -> Problem {
    let m = model();
    let t = &m.official[rng.random_range(0..m.official.len())];
    let width = jitter(t.width, 0.8, 1.25, rng).clamp(8, 120);
    let height = jitter(t.height, 0.8, 1.25, rng).clamp(6, 60);
    // Units at most two fifths of the width and a third of the height, as the official ones.
    let fit = Fit { span: width * 2 / 5, rows: height / 3 };
    let units = contest_units(t, fit, rng);
    let top = tallest(&units).max((height * 3).div_ceil(20));
    let filled = contest_board(width, height, top, rng);
    let source_length = jitter(t.source_length, 0.75, 1.33, rng).clamp(20, 1620);
    let source_seeds = seeds(t.source_seeds.len(), rng);
    Problem { id, units, width, height, filled, source_length, source_seeds }
}

/// A small problem (see the module's documentation).
fn small(id: i64, rng: &mut impl Rng) -> Problem {
    let width: usize = rng.random_range(5..=12);
    let height: usize = rng.random_range(5..=10);
    let source_length = rng.random_range(1..=4);
    let fit = Fit { span: width.div_ceil(2), rows: (height - 1) / 2 };
    let units: Vec<UnitDef> = (0..rng.random_range(1..=source_length)).map(|_| small_unit(fit, rng)).collect();
    let top = tallest(&units) + 1;
    let filled = small_board(width, height, top, rng);
    let source_seeds = seeds(rng.random_range(1..=2), rng);
    Problem { id, units, width, height, filled, source_length, source_seeds }
}

/// `n` distinct seeds below [`SEED_LIMIT`], the first one 0 most of the time.
fn seeds(n: usize, rng: &mut impl Rng) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(n);
    if rng.random_bool(ZERO_FIRST) {
        out.push(0);
    }
    while out.len() < n {
        let s = rng.random_range(0..SEED_LIMIT);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The most columns and rows a unit may span on a board.
#[derive(Copy, Clone, Debug)]
struct Fit {
    span: usize,
    rows: usize,
}

impl Fit {
    fn holds(self, u: &UnitDef) -> bool {
        let (span, rows) = extent(u);
        span <= self.span.max(1) && rows <= self.rows.max(1)
    }
}

/// The columns and rows a unit's members span.
fn extent(u: &UnitDef) -> (usize, usize) {
    let xs = u.members.iter().map(|c| c.x);
    let ys = u.members.iter().map(|c| c.y);
    let span = xs.clone().max().unwrap_or(0) - xs.min().unwrap_or(0) + 1;
    let rows = ys.clone().max().unwrap_or(0) - ys.min().unwrap_or(0) + 1;
    (span as usize, rows as usize)
}

/// The rows of the tallest unit: where it spawns, no cell may be filled.
fn tallest(units: &[UnitDef]) -> usize {
    units.iter().map(|u| extent(u).1).max().unwrap_or(1)
}

/// A contest-like problem's units: its template's set, or a mix of official and random units.
fn contest_units(t: &Problem, fit: Fit, rng: &mut impl Rng) -> Vec<UnitDef> {
    if rng.random_bool(WHOLE_SET) && t.units.iter().all(|u| fit.holds(u)) {
        return t.units.clone();
    }
    let n = jitter(t.units.len(), 0.5, 1.5, rng).clamp(1, 54);
    (0..n).map(|_| contest_unit(fit, rng)).collect()
}

/// An official unit that fits, or a random one of an official unit's size (sizes as often as
/// the official problems have them).
fn contest_unit(fit: Fit, rng: &mut impl Rng) -> UnitDef {
    let m = model();
    if !rng.random_bool(OFFICIAL_UNIT) {
        return polyform(m.sizes[rng.random_range(0..m.sizes.len())], fit, rng);
    }
    for _ in 0..ATTEMPTS {
        let unit = &m.units[rng.random_range(0..m.units.len())];
        if fit.holds(unit) {
            return unit.clone();
        }
    }
    polyform(1, fit, rng)
}

/// An official unit of 2..=6 cells that fits, or a random one of 2..=6 cells.
fn small_unit(fit: Fit, rng: &mut impl Rng) -> UnitDef {
    if rng.random_bool(OFFICIAL_SMALL_UNIT) {
        let pool: Vec<&UnitDef> =
            model().units.iter().filter(|u| (2..=6).contains(&u.members.len()) && fit.holds(u)).collect();
        if !pool.is_empty() {
            return pool[rng.random_range(0..pool.len())].clone();
        }
    }
    let size = rng.random_range(2..=6);
    polyform(size, fit, rng)
}

/// A random connected unit of `size` cells (fewer if that many will not fit), its pivot a
/// central member or a free cell beside the members.
fn polyform(size: usize, fit: Fit, rng: &mut impl Rng) -> UnitDef {
    for n in (1..=size).rev() {
        for _ in 0..ATTEMPTS {
            let cells = grow(n, rng);
            let turns_about = pivot(&cells, rng);
            if let Some(u) = normalised(&cells, turns_about)
                && fit.holds(&u)
            {
                return u;
            }
        }
    }
    UnitDef { members: vec![Cell::new(0, 0)], pivot: Cell::new(0, 0) }
}

/// `n` connected cells (axial coordinates), each added beside a random earlier one.
fn grow(n: usize, rng: &mut impl Rng) -> Vec<Coord> {
    let mut cells = vec![Coord::new(0, 0)];
    while cells.len() < n {
        let from = cells[rng.random_range(0..cells.len())];
        let next = Lattice::Hex.neighbours(from).nth(rng.random_range(0..6)).unwrap_or(from);
        if !cells.contains(&next) {
            cells.push(next);
        }
    }
    cells
}

/// Cells apart on the hex lattice (axial coordinates).
fn distance(a: Coord, b: Coord) -> i32 {
    let (dq, dr) = (a.x - b.x, a.y - b.y);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// A pivot: the most central member, or the most central free cell beside the members (ties
/// drawn at random).
fn pivot(cells: &[Coord], rng: &mut impl Rng) -> Coord {
    let candidates: Vec<Coord> = if rng.random_bool(MEMBER_PIVOT) {
        cells.to_vec()
    } else {
        let beside: BTreeSet<Coord> =
            cells.iter().flat_map(|&c| Lattice::Hex.neighbours(c)).filter(|c| !cells.contains(c)).collect();
        beside.into_iter().collect()
    };
    let spread = |p: Coord| cells.iter().map(|&c| distance(p, c)).sum::<i32>();
    let least = candidates.iter().map(|&p| spread(p)).min().unwrap_or(0);
    let central: Vec<Coord> = candidates.into_iter().filter(|&p| spread(p) == least).collect();
    central.get(rng.random_range(0..central.len().max(1))).copied().unwrap_or(cells[0])
}

/// The unit in the contest's coordinates: the members' top row is row 0 and their leftmost
/// column 0 (moved by whole lattice steps, so the shape is kept); `None` if the pivot would
/// have a negative coordinate (no official unit has one).
fn normalised(cells: &[Coord], pivot: Coord) -> Option<UnitDef> {
    let top = cells.iter().map(|c| c.y).min().unwrap_or(0);
    let offset = |c: Coord| Lattice::Hex.to_offset(Coord::new(c.x, c.y - top));
    let left = cells.iter().map(|&c| offset(c).0).min().unwrap_or(0);
    let cell = |c: Coord| {
        let (x, y) = offset(c);
        Cell::new(x - left, y)
    };
    let mut members: Vec<Cell> = cells.iter().map(|&c| cell(c)).collect();
    members.sort_by_key(|c| (c.y, c.x));
    let pivot = cell(pivot);
    (pivot.x >= 0 && pivot.y >= 0).then_some(UnitDef { members, pivot })
}

/// A board being drawn: filled cells by row.
#[derive(Clone, Debug)]
struct Sketch {
    width: usize,
    height: usize,
    cells: Vec<bool>,
}

impl Sketch {
    fn new(width: usize, height: usize) -> Sketch {
        Sketch { width, height, cells: vec![false; width * height] }
    }

    /// Fills `(x, y)` if it is on the board.
    fn fill(&mut self, x: i32, y: i32) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            self.cells[y as usize * self.width + x as usize] = true;
        }
    }

    fn is_filled(&self, x: usize, y: usize) -> bool {
        self.cells[y * self.width + x]
    }

    fn count(&self) -> usize {
        self.cells.iter().filter(|&&f| f).count()
    }

    /// Cells to fill for a share of the board.
    fn goal(&self, share: f64) -> usize {
        (share * (self.width * self.height) as f64).round() as usize
    }

    /// The filled cells, by row: none in the top `top` rows, and a random cell of every full
    /// row freed (no row starts full).
    fn finish(mut self, top: usize, rng: &mut impl Rng) -> Vec<Cell> {
        let w = self.width;
        for y in 0..self.height {
            let row = &mut self.cells[y * w..(y + 1) * w];
            if y < top {
                row.fill(false);
            } else if row.iter().all(|&f| f) {
                row[rng.random_range(0..w)] = false;
            }
        }
        (0..self.height)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| self.is_filled(x, y))
            .map(|(x, y)| Cell::new(x as i32, y as i32))
            .collect()
    }
}

/// How a board is filled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Style {
    Empty,
    Picture,
    Scatter,
    Stack,
    Walls,
}

/// How each official board is filled, by problem number.
const OFFICIAL_STYLES: [Style; 25] = {
    use Style::{Empty as E, Picture as P, Scatter as C, Stack as S, Walls as W};
    [E, P, E, P, E, P, E, P, E, W, W, E, E, E, P, E, C, S, S, S, E, W, W, W, P]
};

/// The filled cells of a contest-like board in the style of an official board drawn at random
/// (not the template's: any style goes with any size), none in the top `top` rows.
fn contest_board(width: usize, height: usize, top: usize, rng: &mut impl Rng) -> Vec<Cell> {
    let mut s = Sketch::new(width, height);
    let top = top.min(height - 1);
    match OFFICIAL_STYLES[rng.random_range(0..OFFICIAL_STYLES.len())] {
        Style::Empty => {}
        Style::Picture => picture(&mut s, top, rng),
        Style::Scatter => scatter(&mut s, top, rng),
        Style::Stack => stack(&mut s, top, rng),
        Style::Walls => walls(&mut s, top, rng),
    }
    s.finish(top, rng)
}

/// Lines of letters drawn with strokes (as the official pictures are), from just below row
/// `top` down, until 6..13% of the board is filled.
fn picture(s: &mut Sketch, top: usize, rng: &mut impl Rng) {
    let goal = s.goal(rng.random_range(0.06..0.13));
    let (w, h) = (s.width, s.height);
    let mut y = top + rng.random_range(0..=2);
    while s.count() < goal && y + 3 <= h {
        let tall = rng.random_range(5..=9).min(h - y);
        let mut x = rng.random_range(0..=w / 4);
        while x + 3 <= w && s.count() < goal {
            let wide = rng.random_range(3..=6).min(w - x);
            // Now and then a space between words.
            if rng.random_bool(0.85) {
                letter(s, x as i32, y as i32, wide as i32, tall as i32, rng);
            }
            x += wide + rng.random_range(1..=3);
        }
        y += tall + rng.random_range(1..=3);
    }
}

/// A letter in the box: three of eight strokes or more (bars at the top, middle and bottom,
/// uprights on either side above and below the middle, a diagonal).
fn letter(s: &mut Sketch, x0: i32, y0: i32, w: i32, h: i32, rng: &mut impl Rng) {
    let (mid, right, bottom) = (y0 + h / 2, x0 + w - 1, y0 + h - 1);
    let mut strokes = [false; 8];
    while strokes.iter().filter(|&&b| b).count() < 3 {
        strokes[rng.random_range(0..8)] = true;
    }
    let bars = [y0, mid, bottom];
    let uprights = [(x0, y0, mid), (right, y0, mid), (x0, mid, bottom), (right, mid, bottom)];
    for (&y, _) in bars.iter().zip(&strokes[..3]).filter(|(_, on)| **on) {
        (x0..=right).for_each(|x| s.fill(x, y));
    }
    for (&(x, from, to), _) in uprights.iter().zip(&strokes[3..7]).filter(|(_, on)| **on) {
        (from..=to).for_each(|y| s.fill(x, y));
    }
    if strokes[7] {
        // Down to the south-east from the top-left corner.
        let mut x = x0;
        for y in y0..=bottom {
            s.fill(x, y);
            x += y & 1;
        }
    }
}

/// Cells filled at random below row `top + 1`, 8..16% of the board.
fn scatter(s: &mut Sketch, top: usize, rng: &mut impl Rng) {
    let goal = s.goal(rng.random_range(0.08..0.16));
    let (w, h) = (s.width, s.height);
    let room = w * h.saturating_sub(top + 1);
    // Each try fills a free cell or finds one filled already; the tries are bounded all the same.
    for _ in 0..4 * room {
        if s.count() >= goal.min(room / 2) {
            break;
        }
        s.fill(rng.random_range(0..w) as i32, rng.random_range(top + 1..h) as i32);
    }
}

/// A stack at the bottom, 25..45% of the board: full rows but for a hole or two (as problem
/// 17), full rows but for a winding well (as problem 19), or a rough heap of columns with holes
/// (as the bottom of problem 18).
fn stack(s: &mut Sketch, top: usize, rng: &mut impl Rng) {
    let rows = (s.goal(rng.random_range(0.25..0.45)) / s.width).clamp(1, s.height - top);
    let ys = (s.height - rows) as i32..s.height as i32;
    match rng.random_range(0..3) {
        0 => holed_rows(s, ys, rng),
        1 => well(s, ys, rng),
        _ => heap(s, ys, rng),
    }
}

/// Rows `ys` filled but for a hole or two.
fn holed_rows(s: &mut Sketch, ys: Range<i32>, rng: &mut impl Rng) {
    for y in ys {
        (0..s.width as i32).for_each(|x| s.fill(x, y));
        // `finish` frees a cell of every full row; some rows lose one more.
        if rng.random_bool(0.3) {
            s.cells[y as usize * s.width + rng.random_range(0..s.width)] = false;
        }
    }
}

/// Rows `ys` filled but for a well of two to four cells across that winds down them.
fn well(s: &mut Sketch, ys: Range<i32>, rng: &mut impl Rng) {
    let w = s.width as i32;
    let wide = rng.random_range(2..=4).min(w - 1);
    let mut at = rng.random_range(0..=w - wide);
    for y in ys {
        (0..w).filter(|x| !(at..at + wide).contains(x)).for_each(|x| s.fill(x, y));
        at = (at + rng.random_range(-1..=1)).clamp(0, w - wide);
    }
}

/// Columns of random heights (from a third of rows `ys` to all of them) filled from the
/// bottom, nine cells in ten.
fn heap(s: &mut Sketch, ys: Range<i32>, rng: &mut impl Rng) {
    let rows = ys.end - ys.start;
    let (low, high) = (rows / 3, rows);
    let mut height = (2 * high + 2) / 3;
    for x in 0..s.width as i32 {
        for y in ys.end - height..ys.end {
            if rng.random_bool(0.9) {
                s.fill(x, y);
            }
        }
        height = (height + rng.random_range(-2..=2)).clamp(low, high);
    }
}

/// Walls of rows below row `top`: staggered rows up from the bottom that leave gaps at
/// alternate ends (as problems 21 and 22), every other row up from the bottom with gaps at both
/// ends (as problem 23), or partial rows, some dotted (as problems 9 and 10).
fn walls(s: &mut Sketch, top: usize, rng: &mut impl Rng) {
    let room = s.height - top;
    // Two official boards of five have staggered walls, one spaced walls, two partial rows.
    match rng.random_range(0..5) {
        0 | 1 => staggered(s, room, rng),
        2 => spaced(s, room, rng),
        _ => partial_rows(s, room, rng),
    }
}

/// Rows up from the bottom (at most `room`), two patterns of gaps at their ends in turn: 25..50%
/// of the board.
fn staggered(s: &mut Sketch, room: usize, rng: &mut impl Rng) {
    // The rows are about four fifths full.
    let rows = (s.goal(rng.random_range(0.25..0.5)) * 5 / 4 / s.width).clamp(1, room);
    let patterns = [end_gaps(rng), end_gaps(rng)];
    for (k, y) in (s.height - rows..s.height).rev().enumerate() {
        let (l, r) = patterns[k % 2];
        (l..s.width as i32 - r).for_each(|x| s.fill(x, y as i32));
    }
}

/// Every other row up from the bottom (within `room` rows), with gaps of one or two cells at
/// both ends: 15..30% of the board.
fn spaced(s: &mut Sketch, room: usize, rng: &mut impl Rng) {
    let rows = (2 * s.goal(rng.random_range(0.15..0.3)) / s.width).clamp(1, room);
    for y in (s.height - rows..s.height).rev().step_by(2) {
        let (l, r) = (rng.random_range(1..=2), rng.random_range(1..=2));
        (l..s.width as i32 - r).for_each(|x| s.fill(x, y as i32));
    }
}

/// Runs of 40..90% of a row (half of them dotted) in the bottom `room` rows, until 7..19% of
/// the board is filled.
fn partial_rows(s: &mut Sketch, room: usize, rng: &mut impl Rng) {
    let goal = s.goal(rng.random_range(0.07..0.19));
    let w = s.width as i32;
    for _ in 0..room {
        if s.count() >= goal {
            break;
        }
        let y = (s.height - rng.random_range(1..=room)) as i32;
        let len = (w as f64 * rng.random_range(0.4..0.9)).round() as i32;
        let from = rng.random_range(0..=w - len);
        let step = if rng.random_bool(0.5) { 2 } else { 1 };
        (from..from + len).step_by(step).for_each(|x| s.fill(x, y));
    }
}

/// Gaps of 0..=3 cells at the ends of a row, at least one cell in all.
fn end_gaps(rng: &mut impl Rng) -> (i32, i32) {
    let (l, r) = (rng.random_range(0..=3), rng.random_range(0..=3));
    if l + r == 0 { (1, 0) } else { (l, r) }
}

/// A small board: a quarter to a third of the cells filled, in rows from the bottom up, each
/// with one to three gaps (together, or apart), none in the top `top` rows.
fn small_board(width: usize, height: usize, top: usize, rng: &mut impl Rng) -> Vec<Cell> {
    let mut s = Sketch::new(width, height);
    let mut left = s.goal(rng.random_range(0.25..=1.0 / 3.0));
    let mut y = height;
    while left > 0 && y > top {
        y -= 1;
        let gaps = rng.random_range(1..=(width / 3).clamp(1, 3));
        let mut row = vec![true; width];
        if rng.random_bool(0.5) {
            let at = rng.random_range(0..=width - gaps);
            row[at..at + gaps].fill(false);
        } else {
            for _ in 0..gaps {
                row[rng.random_range(0..width)] = false;
            }
        }
        let mut xs: Vec<usize> = (0..width).filter(|&x| row[x]).collect();
        // The last row holds what is left, at random places.
        while xs.len() > left {
            xs.remove(rng.random_range(0..xs.len()));
        }
        left -= xs.len();
        xs.iter().for_each(|&x| s.fill(x as i32, y as i32));
    }
    s.finish(top, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_units_are_connected_and_keep_their_shape() {
        use tessera_core::geometry::Polyform;
        let mut rng = Rng64::seed(5);
        for size in (1..=17).chain(1..=17) {
            let cells = grow(size, &mut rng);
            let pivot = pivot(&cells, &mut rng);
            let Some(u) = normalised(&cells, pivot) else { continue };
            assert_eq!(u.members.len(), size);
            assert_eq!((u.members.iter().map(|c| c.x).min(), u.members.iter().map(|c| c.y).min()), (Some(0), Some(0)));
            let axial: Vec<Coord> = u.members.iter().map(|c| Lattice::Hex.from_offset(c.x, c.y)).collect();
            let grown = Polyform::new(Lattice::Hex, cells.iter().copied());
            assert!(grown.is_connected());
            // The same shape, and the pivot in the same place relative to it.
            assert_eq!(Polyform::new(Lattice::Hex, axial.iter().copied()), grown, "{u:?}");
            let p = Lattice::Hex.from_offset(u.pivot.x, u.pivot.y);
            let with = |cells: &[Coord], p: Coord| Polyform::new(Lattice::Hex, cells.iter().copied().chain([p]));
            assert_eq!(with(&axial, p), with(&cells, pivot), "{u:?}");
            assert!(axial.iter().map(|&c| distance(c, p)).min() <= Some(1), "{u:?}");
        }
    }

    #[test]
    fn units_too_big_for_a_board_shrink() {
        let mut rng = Rng64::seed(9);
        let u = polyform(12, Fit { span: 2, rows: 2 }, &mut rng);
        assert!(u.members.len() <= 4 && Fit { span: 2, rows: 2 }.holds(&u), "{u:?}");
    }

    #[test]
    fn hex_distance_counts_steps() {
        let o = Coord::new(0, 0);
        for n in Lattice::Hex.neighbours(o) {
            assert_eq!(distance(o, n), 1);
        }
        assert_eq!(distance(o, Coord::new(2, -1)), 2);
        assert_eq!(distance(o, Coord::new(-3, 3)), 3);
    }

    #[test]
    fn sets_refuse_impossible_counts() {
        assert_eq!(set(1, 3, 4), Err(GenError::TooManySmall { small: 4, count: 3 }));
        assert_eq!(set(1, MAX_COUNT + 1, 0), Err(GenError::TooMany(MAX_COUNT + 1)));
        assert_eq!(set(1, 0, 0), Ok(Vec::new()));
    }

    #[test]
    fn playable_finds_blocked_and_impossible_spawns() {
        let mut p = problem(Kind::Small, 1, &mut Rng64::seed(3));
        assert_eq!(playable(&p), Ok(()));
        let spawn = spawned(&p.units[0], p.width).cells[0];
        p.filled.push(spawn);
        assert_eq!(playable(&p), Err(Unplayable::Spawn { unit: 0, cell: spawn, off: false }));
        p.filled.pop();
        p.height = 1;
        p.units[0] = UnitDef { members: vec![Cell::new(0, 0), Cell::new(0, 1)], pivot: Cell::new(0, 0) };
        p.filled.clear();
        assert!(matches!(playable(&p), Err(Unplayable::Spawn { unit: 0, off: true, .. })));
        p.width = MAX_WIDTH + 1;
        assert_eq!(playable(&p), Err(Unplayable::TooWide(MAX_WIDTH + 1)));
    }
}
