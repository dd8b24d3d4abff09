//! Square and hexagonal lattices, their symmetries, polyforms and placements.
//!
//! Cells live in *lattice coordinates* [`Coord`]: `(x, y)` on the square lattice and axial
//! `(q, r)` on the hexagonal lattice, where every symmetry is a linear map. Pictures use *offset
//! coordinates* `(col, row)`: on the hex lattice odd rows are shifted half a cell to the right,
//! as on the meteor board:
//!
//! ```text
//!  0 1 2 3 4      row 0: (q, r) = (col, 0)
//!   5 6 7 8 9     row 1: (q, r) = (col, 1)            axial neighbours of (q, r):
//!  . . . . .      row 2: (q, r) = (col - 1, 2)         (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1)
//! ```
//!
//! The cube coordinates of an axial cell are `(q, -q - r, r)`; see [`Coord::cube`].

/// A cell in lattice coordinates: `(x, y)` on the square lattice, axial `(q, r)` on the hex one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Coord {
    /// Column-like axis (`x`, or axial `q`).
    pub x: i32,
    /// Row axis (`y`, or axial `r`); grows downwards in pictures.
    pub y: i32,
}

impl Coord {
    /// Builds a coordinate.
    pub const fn new(x: i32, y: i32) -> Self {
        Coord { x, y }
    }
    /// Cube coordinates `(x, y, z)` with `x + y + z = 0` of an axial hex cell.
    pub const fn cube(self) -> (i32, i32, i32) {
        (self.x, -self.x - self.y, self.y)
    }
    /// The axial cell of cube coordinates.
    pub const fn from_cube(x: i32, _y: i32, z: i32) -> Self {
        Coord { x, y: z }
    }
    const fn add(self, o: Coord) -> Coord {
        Coord { x: self.x + o.x, y: self.y + o.y }
    }
    const fn sub(self, o: Coord) -> Coord {
        Coord { x: self.x - o.x, y: self.y - o.y }
    }
}

/// The two lattices. Rotations are always allowed; reflections on request. In JSON, by
/// [name](Lattice::name).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lattice {
    /// Square cells, 4 neighbours, 8 symmetries (4 rotations x mirror).
    Square,
    /// Hexagonal cells in offset rows, 6 neighbours, 12 symmetries (6 rotations x mirror).
    Hex,
}

const SQUARE_DIRS: [Coord; 4] = [Coord::new(1, 0), Coord::new(0, 1), Coord::new(-1, 0), Coord::new(0, -1)];
const HEX_DIRS: [Coord; 6] =
    [Coord::new(1, 0), Coord::new(0, 1), Coord::new(-1, 1), Coord::new(-1, 0), Coord::new(0, -1), Coord::new(1, -1)];

impl Lattice {
    /// The lattice's name in files and on the command line: `square` or `hex`.
    pub const fn name(self) -> &'static str {
        match self {
            Lattice::Square => "square",
            Lattice::Hex => "hex",
        }
    }
    /// Unit steps to the neighbours of a cell.
    pub const fn directions(self) -> &'static [Coord] {
        match self {
            Lattice::Square => &SQUARE_DIRS,
            Lattice::Hex => &HEX_DIRS,
        }
    }
    /// The neighbours of `c`.
    pub fn neighbours(self, c: Coord) -> impl Iterator<Item = Coord> {
        self.directions().iter().map(move |&d| c.add(d))
    }
    /// Number of rotations (4 or 6).
    pub const fn rotations(self) -> u8 {
        match self {
            Lattice::Square => 4,
            Lattice::Hex => 6,
        }
    }
    /// Every symmetry of the lattice that fixes the origin: rotations first, then the mirrored
    /// ones if `mirror`. The identity comes first.
    pub fn transforms(self, mirror: bool) -> impl Iterator<Item = Transform> {
        let n = self.rotations();
        let m = if mirror { 2 } else { 1 };
        (0..m).flat_map(move |k| (0..n).map(move |rot| Transform { lattice: self, rot, mirror: k == 1 }))
    }
    /// Lattice coordinate of the picture cell at `(col, row)`.
    pub const fn from_offset(self, col: i32, row: i32) -> Coord {
        match self {
            Lattice::Square => Coord::new(col, row),
            Lattice::Hex => Coord::new(col - row.div_euclid(2), row),
        }
    }
    /// Picture position `(col, row)` of a lattice cell.
    pub const fn to_offset(self, c: Coord) -> (i32, i32) {
        match self {
            Lattice::Square => (c.x, c.y),
            Lattice::Hex => (c.x + c.y.div_euclid(2), c.y),
        }
    }
}

impl std::str::FromStr for Lattice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "square" => Ok(Lattice::Square),
            "hex" => Ok(Lattice::Hex),
            _ => Err(format!("unknown lattice {s:?} (expected square or hex)")),
        }
    }
}

impl std::fmt::Display for Lattice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A symmetry of a lattice that fixes the origin: an optional mirror, then `rot` turns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// The lattice acted on.
    pub lattice: Lattice,
    /// Number of turns (90 degrees on the square lattice, 60 on the hex one).
    pub rot: u8,
    /// Whether to mirror before turning.
    pub mirror: bool,
}

impl Transform {
    /// Applies the transform to a cell.
    pub fn apply(self, mut c: Coord) -> Coord {
        match self.lattice {
            Lattice::Square => {
                if self.mirror {
                    c = Coord::new(-c.x, c.y);
                }
                for _ in 0..self.rot {
                    c = Coord::new(-c.y, c.x);
                }
            }
            Lattice::Hex => {
                if self.mirror {
                    // Cube (x, y, z) -> (x, z, y): a reflection through the q axis.
                    c = Coord::new(c.x, -c.x - c.y);
                }
                for _ in 0..self.rot {
                    // Cube (x, y, z) -> (-z, -x, -y): a 60 degree turn.
                    c = Coord::new(-c.y, c.x + c.y);
                }
            }
        }
        c
    }
}

/// A polyform: a finite set of cells, kept in normal form (sorted by row then column, translated
/// so that the first cell is the origin). Two polyforms are equal iff they are translates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Polyform {
    lattice: Lattice,
    cells: Vec<Coord>,
}

impl Polyform {
    /// Normalises a set of cells (duplicates removed).
    pub fn new(lattice: Lattice, cells: impl IntoIterator<Item = Coord>) -> Self {
        let mut cells: Vec<Coord> = cells.into_iter().collect();
        cells.sort_by_key(|c| (c.y, c.x));
        cells.dedup();
        if let Some(&first) = cells.first() {
            for c in &mut cells {
                *c = c.sub(first);
            }
        }
        Polyform { lattice, cells }
    }
    /// A polyform from picture cells `(col, row)`.
    pub fn from_offsets(lattice: Lattice, cells: impl IntoIterator<Item = (i32, i32)>) -> Self {
        Self::new(lattice, cells.into_iter().map(|(c, r)| lattice.from_offset(c, r)))
    }
    /// The lattice.
    pub fn lattice(&self) -> Lattice {
        self.lattice
    }
    /// The cells in normal form.
    pub fn cells(&self) -> &[Coord] {
        &self.cells
    }
    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    /// Whether the polyform has no cell.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    /// The image under a lattice symmetry, normalised.
    pub fn transformed(&self, t: Transform) -> Polyform {
        Polyform::new(self.lattice, self.cells.iter().map(|&c| t.apply(c)))
    }
    /// The distinct orientations: the images under every rotation (and every reflection if
    /// `mirror`), duplicates removed, in a fixed order starting with the polyform itself.
    pub fn orientations(&self, mirror: bool) -> Vec<Polyform> {
        // At most 12 images: a list beats hashing them.
        let mut out: Vec<Polyform> = Vec::with_capacity(2 * usize::from(self.lattice.rotations()));
        for p in self.lattice.transforms(mirror).map(|t| self.transformed(t)) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }
    /// Whether the polyform is its own mirror image up to rotation.
    pub fn is_achiral(&self) -> bool {
        let mirrored = self.transformed(Transform { lattice: self.lattice, rot: 0, mirror: true });
        self.orientations(false).contains(&mirrored)
    }
    /// Whether every cell can reach every other through neighbours.
    pub fn is_connected(&self) -> bool {
        // Cells are sorted by row then column: a neighbour is found by binary search.
        let find = |c: Coord| self.cells.binary_search_by_key(&(c.y, c.x), |d| (d.y, d.x)).ok();
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<usize> = if self.cells.is_empty() { vec![] } else { vec![0] };
        let mut reached = 0;
        while let Some(k) = stack.pop() {
            if !std::mem::replace(&mut seen[k], true) {
                reached += 1;
                stack.extend(self.lattice.neighbours(self.cells[k]).filter_map(find));
            }
        }
        reached == self.cells.len()
    }
    /// Picture cells `(col, row)` with the bounding box moved to `(0, 0)`.
    pub fn offsets(&self) -> Vec<(i32, i32)> {
        let raw: Vec<(i32, i32)> = self.cells.iter().map(|&c| self.lattice.to_offset(c)).collect();
        // Keep the row parity (it matters on the hex lattice): shift rows by an even amount only.
        let min_row = raw.iter().map(|p| p.1).min().unwrap_or(0);
        let dr = if self.lattice == Lattice::Hex { min_row - min_row.rem_euclid(2) } else { min_row };
        let moved: Vec<(i32, i32)> = raw.iter().map(|&(c, r)| (c, r - dr)).collect();
        let min_col = moved.iter().map(|p| p.0).min().unwrap_or(0);
        moved.into_iter().map(|(c, r)| (c - min_col, r)).collect()
    }
}

/// The cells of a board in lattice coordinates, numbered in the order given, over a dense grid of
/// the board's bounding box (so a board's bounding box should stay within a few million cells).
#[derive(Clone, Debug)]
pub struct BoardIndex {
    cells: Vec<Coord>,
    x0: i32,
    y0: i32,
    width: i32,
    height: i32,
    /// Per grid position (row by row): the board cell there, or `u32::MAX`.
    grid: Vec<u32>,
}

impl BoardIndex {
    /// The index of `cells` (numbered `0..`, duplicates not allowed). The grid takes 4 bytes a
    /// cell of the bounding box: callers keep it small (puzzles are checked for that first).
    ///
    /// # Panics
    /// If the bounding box is wider or higher than `i32::MAX` cells.
    pub fn new(cells: &[Coord]) -> Self {
        let (x0, y0) = (cells.iter().map(|c| c.x).min().unwrap_or(0), cells.iter().map(|c| c.y).min().unwrap_or(0));
        let extent = |d: i64| i32::try_from(d + 1).unwrap_or_else(|_| panic!("a board {} cells across", d + 1));
        let width = extent(cells.iter().map(|c| i64::from(c.x) - i64::from(x0)).max().unwrap_or(-1));
        let height = extent(cells.iter().map(|c| i64::from(c.y) - i64::from(y0)).max().unwrap_or(-1));
        let mut grid = vec![u32::MAX; width as usize * height as usize];
        let mut index = BoardIndex { cells: cells.to_vec(), x0, y0, width, height, grid: Vec::new() };
        for (k, &c) in cells.iter().enumerate() {
            grid[index.position(c)] = k as u32;
        }
        index.grid = grid;
        index
    }

    /// The board's cells.
    pub fn cells(&self) -> &[Coord] {
        &self.cells
    }

    /// The grid position of a cell inside the bounding box.
    #[inline]
    fn position(&self, c: Coord) -> usize {
        (c.y - self.y0) as usize * self.width as usize + (c.x - self.x0) as usize
    }

    /// The number of the board cell at `c` (`None` off the board).
    #[inline]
    pub fn get(&self, c: Coord) -> Option<usize> {
        let (x, y) = (c.x.wrapping_sub(self.x0) as u32, c.y.wrapping_sub(self.y0) as u32);
        if x >= self.width as u32 || y >= self.height as u32 {
            return None;
        }
        let k = self.grid[self.position(c)];
        (k != u32::MAX).then_some(k as usize)
    }

    /// Every placement of every orientation of a piece on the board: for each orientation and
    /// each board cell as the anchor of the orientation's first cell, the numbers of the covered
    /// cells if all are on the board, in the orientation's order. (Orientations are in normal
    /// form: no cell lies in a row above the first one, which the box test below relies on.)
    ///
    /// Distinct orientations anchored at distinct cells give distinct cell sets, so the result
    /// holds no duplicates.
    pub fn placements(&self, orientations: &[Polyform]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        self.for_each_placement(orientations, |cells| out.push(cells.to_vec()));
        out
    }

    /// [`BoardIndex::placements`] handed to `visit` one at a time, in the same order, without
    /// allocating.
    pub fn for_each_placement(&self, orientations: &[Polyform], mut visit: impl FnMut(&[u32])) {
        let (mut cells, mut steps) = (Vec::new(), Vec::new());
        for o in orientations {
            // The orientation's box around its first cell, and each cell as a step in the grid.
            let (lo, hi) = (o.cells.iter().map(|c| c.x).min(), o.cells.iter().map(|c| c.x).max());
            let (Some(lo), Some(hi)) = (lo, hi) else { continue };
            let depth = o.cells.iter().map(|c| c.y).max().unwrap_or(0);
            steps.clear();
            steps.extend(o.cells.iter().map(|c| c.y as isize * self.width as isize + c.x as isize));
            cells.resize(steps.len(), 0);
            for &anchor in &self.cells {
                // Hot: one box test per anchor, then one grid load per cell (no branch: about
                // half the anchors fail, at any of the cells).
                let (x, y) = (anchor.x - self.x0, anchor.y - self.y0);
                if x + lo < 0 || x + hi >= self.width || y + depth >= self.height {
                    continue;
                }
                let base = self.position(anchor) as isize;
                let mut off_board = false;
                for (cell, &step) in cells.iter_mut().zip(&steps) {
                    *cell = self.grid[(base + step) as usize];
                    off_board |= *cell == u32::MAX;
                }
                if !off_board {
                    visit(&cells);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn square(cells: &[(i32, i32)]) -> Polyform {
        Polyform::from_offsets(Lattice::Square, cells.iter().copied())
    }

    #[test]
    fn lattices_are_named_in_json() {
        for lattice in [Lattice::Square, Lattice::Hex] {
            let json = serde_json::to_string(&lattice).unwrap();
            assert_eq!(json, format!("\"{}\"", lattice.name()));
            assert_eq!(serde_json::from_str::<Lattice>(&json).unwrap(), lattice);
        }
    }

    #[test]
    fn transforms_are_symmetries() {
        for lattice in [Lattice::Square, Lattice::Hex] {
            let ts: Vec<_> = lattice.transforms(true).collect();
            assert_eq!(ts.len(), 2 * lattice.rotations() as usize);
            for t in ts {
                // Neighbours map to neighbours.
                let dirs: HashSet<Coord> = lattice.directions().iter().copied().collect();
                for &d in lattice.directions() {
                    assert!(dirs.contains(&t.apply(d)), "{t:?} maps {d:?} off the lattice");
                }
            }
            // A full turn is the identity; a mirror is an involution.
            let c = Coord::new(3, -2);
            let turn = Transform { lattice, rot: 1, mirror: false };
            let mut d = c;
            for _ in 0..lattice.rotations() {
                d = turn.apply(d);
            }
            assert_eq!(d, c);
            let m = Transform { lattice, rot: 0, mirror: true };
            assert_eq!(m.apply(m.apply(c)), c);
        }
    }

    #[test]
    fn offset_round_trip_and_meteor_neighbours() {
        for row in -5..5 {
            for col in -5..5 {
                let c = Lattice::Hex.from_offset(col, row);
                assert_eq!(Lattice::Hex.to_offset(c), (col, row));
            }
        }
        // Even row 2, col 2: NW = (1, 1), NE = (2, 1), SW = (1, 3), SE = (2, 3).
        let c = Lattice::Hex.from_offset(2, 2);
        let mut ns: Vec<_> = Lattice::Hex.neighbours(c).map(|n| Lattice::Hex.to_offset(n)).collect();
        ns.sort();
        assert_eq!(ns, vec![(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 2)]);
        // Odd row 1, col 2: NW = (2, 0), NE = (3, 0), SW = (2, 2), SE = (3, 2).
        let c = Lattice::Hex.from_offset(2, 1);
        let mut ns: Vec<_> = Lattice::Hex.neighbours(c).map(|n| Lattice::Hex.to_offset(n)).collect();
        ns.sort();
        assert_eq!(ns, vec![(1, 1), (2, 0), (2, 2), (3, 0), (3, 1), (3, 2)]);
        // Cube coordinates sum to zero, and every neighbour is at cube distance 1.
        for n in Lattice::Hex.neighbours(c) {
            let ((a, b, d), (x, y, z)) = (c.cube(), n.cube());
            assert_eq!(x + y + z, 0);
            assert_eq!(((a - x).abs() + (b - y).abs() + (d - z).abs()) / 2, 1);
            assert_eq!(Coord::from_cube(x, y, z), n);
        }
    }

    #[test]
    fn orientation_counts() {
        // Pentominoes: F has 8, I 2, X 1, W 4.
        let f = square(&[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]);
        let i = square(&[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]);
        let x = square(&[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]);
        assert_eq!(f.orientations(true).len(), 8);
        assert_eq!(f.orientations(false).len(), 4);
        assert_eq!(i.orientations(true).len(), 2);
        assert_eq!(x.orientations(true).len(), 1);
        assert!(!f.is_achiral());
        assert!(x.is_achiral());
        // A straight hex tromino has 3 orientations, a hex "triangle" 2.
        let bar = Polyform::from_offsets(Lattice::Hex, [(0, 0), (1, 0), (2, 0)]);
        assert_eq!(bar.orientations(true).len(), 3);
        let tri = Polyform::from_offsets(Lattice::Hex, [(0, 0), (1, 0), (0, 1)]);
        assert!(tri.is_connected());
        assert_eq!(tri.orientations(true).len(), 2);
    }

    #[test]
    fn offsets_keep_hex_parity() {
        // A shape drawn on rows 1-2 must keep its shape when moved up by an even number of rows.
        let p = Polyform::from_offsets(Lattice::Hex, [(0, 1), (0, 2)]);
        let q = Polyform::from_offsets(Lattice::Hex, p.offsets());
        assert_eq!(p, q);
    }

    #[test]
    fn placements_on_a_rectangle() {
        let board: Vec<Coord> = (0..2).flat_map(|y| (0..3).map(move |x| Coord::new(x, y))).collect();
        let index = BoardIndex::new(&board);
        let domino = square(&[(0, 0), (1, 0)]);
        let all = index.placements(&domino.orientations(true));
        assert_eq!(all.len(), 7, "4 horizontal + 3 vertical dominoes on 3x2");
        assert!(all.contains(&vec![0, 1]) && all.contains(&vec![2, 5]));
        assert_eq!((index.get(Coord::new(2, 1)), index.get(Coord::new(3, 0))), (Some(5), None));
    }
}
