//! The four lattices (square, hex, triangle, cube), their symmetries, polyforms and placements.
//!
//! Cells live in *lattice coordinates* [`Coord`], the coordinate form of puzzle files:
//!
//! | lattice | a cell | its neighbours |
//! |---|---|---|
//! | square | `(x, y)` | `(x±1, y)`, `(x, y±1)` |
//! | hex | axial `(q, r)` | `(q±1, r)`, `(q, r±1)`, `(q+1, r-1)`, `(q-1, r+1)` |
//! | triangle | `(x, y, t)`, `t` 0 for an up triangle, 1 for a down one | `(x, y, 0)`: `(x, y, 1)`, `(x-1, y, 1)`, `(x, y-1, 1)` |
//! | cube | `(x, y, z)` | `(x±1, y, z)`, `(x, y±1, z)`, `(x, y, z±1)` |
//! | prism | `(x, y, t, z)`: triangle `(x, y, t)` in layer `z` | the triangle's three in its layer, and `(x, y, t, z±1)` |
//!
//! The triangles are those of the hex lattice's vertices: `(x, y, 0)` has the corners `(x, y)`,
//! `(x+1, y)` and `(x, y+1)`, and `(x, y, 1)` the corners `(x+1, y)`, `(x, y+1)` and `(x+1, y+1)`
//! (corners in axial coordinates). Every symmetry of a lattice is then a linear map of the
//! corners (see [`Transform`]).
//!
//! Pictures use *offset coordinates* `(col, row)`, row 0 at the top. On the square lattice a
//! picture cell is a lattice cell. On the hex lattice odd rows are shifted half a cell to the
//! right, as on the meteor board:
//!
//! ```text
//!  0 1 2 3 4      row 0: (q, r) = (col, 0)
//!   5 6 7 8 9     row 1: (q, r) = (col, 1)            axial neighbours of (q, r):
//!  . . . . .      row 2: (q, r) = (col - 1, 2)         (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1)
//! ```
//!
//! On the triangle lattice every character is a triangle, up where `col + row` is even and down
//! elsewhere; an up triangle shares its base with the down triangle drawn below it. Six triangles
//! round a corner (a hexagon) are drawn `###` over `###`. Picture row `row` is `y = -row`.
//! The cube lattice is drawn layer by layer (`z = 0, 1, ...`), side by side.
//!
//! The cube coordinates of an axial cell are `(q, -q - r, r)`; see [`Coord::cube`].
//!
//! A prism cell `(x, y, t, z)` is kept as the [`Coord`] `(x, y, 2z + t)`: its layer and its
//! triangle's kind in one number (see [`Coord::prism`]), so that a translation by whole layers
//! adds an even number to `z`.

/// A cell in lattice coordinates: `(x, y)` on the square lattice, axial `(q, r)` on the hex one
/// (`z` is 0 on both), `(x, y, t)` on the triangle lattice (`z` is `t`), `(x, y, z)` on the cube
/// lattice, `(x, y, 2 * layer + t)` on the prism lattice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Coord {
    /// Column-like axis (`x`, or axial `q`).
    pub x: i32,
    /// Row axis (`y`, or axial `r`); grows downwards in square and hex pictures.
    pub y: i32,
    /// The layer of a cube cell, the kind of a triangle (0 up, 1 down), twice a prism's layer
    /// plus its triangle's kind; 0 on the plane lattices.
    pub z: i32,
}

impl Coord {
    /// A cell of a plane lattice (`z` = 0).
    pub const fn new(x: i32, y: i32) -> Self {
        Coord { x, y, z: 0 }
    }
    /// A cell with all three coordinates.
    pub const fn at(x: i32, y: i32, z: i32) -> Self {
        Coord { x, y, z }
    }
    /// Cube coordinates `(x, y, z)` with `x + y + z = 0` of an axial hex cell.
    pub const fn cube(self) -> (i32, i32, i32) {
        (self.x, -self.x - self.y, self.y)
    }
    /// The prism cell of triangle `(x, y, t)` in layer `layer`.
    pub const fn prism(x: i32, y: i32, t: i32, layer: i32) -> Self {
        Coord { x, y, z: 2 * layer + t }
    }
    /// A prism cell's layer.
    pub const fn layer(self) -> i32 {
        self.z.div_euclid(2)
    }
    /// A prism cell's triangle kind: 0 up, 1 down.
    pub const fn kind(self) -> i32 {
        self.z.rem_euclid(2)
    }
    /// The axial cell of cube coordinates.
    pub const fn from_cube(x: i32, _y: i32, z: i32) -> Self {
        Coord::new(x, z)
    }
    const fn add(self, o: Coord) -> Coord {
        Coord { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
    const fn sub(self, o: Coord) -> Coord {
        Coord { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }
    /// The order of cells in polyforms and boards: by layer (or triangle kind), row, column.
    pub const fn key(self) -> (i32, i32, i32) {
        (self.z, self.y, self.x)
    }
    /// The coordinates as a list of the lattice's arity (2 on square and hex, 4 on the prism
    /// lattice, `x y t z`, 3 otherwise).
    pub fn coords(self, lattice: Lattice) -> Vec<i32> {
        match lattice.arity() {
            2 => vec![self.x, self.y],
            4 => vec![self.x, self.y, self.kind(), self.layer()],
            _ => vec![self.x, self.y, self.z],
        }
    }
}

/// The four lattices. Rotations are always allowed; reflections on request. In JSON, by
/// [name](Lattice::name).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Lattice {
    /// Square cells, 4 neighbours, 8 symmetries (4 rotations x mirror).
    Square,
    /// Hexagonal cells in offset rows, 6 neighbours, 12 symmetries (6 rotations x mirror).
    Hex,
    /// Triangles, 3 neighbours, 12 symmetries round a corner (6 rotations x mirror).
    Triangle,
    /// Cubes, 6 neighbours, 48 symmetries (24 rotations x mirror).
    Cube,
    /// Triangular prisms: triangles stacked in layers, 5 neighbours, 24 symmetries (12 rotations
    /// x mirror).
    Prism,
}

/// Every lattice, in the order of their names in help texts.
pub const LATTICES: [Lattice; 5] = [Lattice::Square, Lattice::Hex, Lattice::Triangle, Lattice::Cube, Lattice::Prism];

const SQUARE_DIRS: [Coord; 4] = [Coord::new(1, 0), Coord::new(0, 1), Coord::new(-1, 0), Coord::new(0, -1)];
const HEX_DIRS: [Coord; 6] =
    [Coord::new(1, 0), Coord::new(0, 1), Coord::new(-1, 1), Coord::new(-1, 0), Coord::new(0, -1), Coord::new(1, -1)];
/// From an up triangle `(x, y, 0)` to its neighbours, and from a down one `(x, y, 1)` to its.
const UP_DIRS: [Coord; 3] = [Coord::at(0, 0, 1), Coord::at(-1, 0, 1), Coord::at(0, -1, 1)];
const DOWN_DIRS: [Coord; 3] = [Coord::at(0, 0, -1), Coord::at(1, 0, -1), Coord::at(0, 1, -1)];
/// The same on the prism lattice, with the prisms above and below.
const UP_PRISM_DIRS: [Coord; 5] =
    [Coord::at(0, 0, 1), Coord::at(-1, 0, 1), Coord::at(0, -1, 1), Coord::at(0, 0, 2), Coord::at(0, 0, -2)];
const DOWN_PRISM_DIRS: [Coord; 5] =
    [Coord::at(0, 0, -1), Coord::at(1, 0, -1), Coord::at(0, 1, -1), Coord::at(0, 0, 2), Coord::at(0, 0, -2)];
const CUBE_DIRS: [Coord; 6] = [
    Coord::at(1, 0, 0),
    Coord::at(-1, 0, 0),
    Coord::at(0, 1, 0),
    Coord::at(0, -1, 0),
    Coord::at(0, 0, 1),
    Coord::at(0, 0, -1),
];

impl Lattice {
    /// The lattice's name in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Lattice::Square => "square",
            Lattice::Hex => "hex",
            Lattice::Triangle => "triangle",
            Lattice::Cube => "cube",
            Lattice::Prism => "prism",
        }
    }
    /// Integers per cell in the coordinate form: 2 on square and hex, 3 on triangle and cube, 4
    /// on the prism lattice.
    pub const fn arity(self) -> usize {
        match self {
            Lattice::Square | Lattice::Hex => 2,
            Lattice::Triangle | Lattice::Cube => 3,
            Lattice::Prism => 4,
        }
    }
    /// What a cell's coordinates are called, for messages: `x y`, `q r`, `x y t`, `x y z` or
    /// `x y t z`.
    pub const fn coordinate_names(self) -> &'static str {
        match self {
            Lattice::Square => "x y",
            Lattice::Hex => "q r",
            Lattice::Triangle => "x y t",
            Lattice::Cube => "x y z",
            Lattice::Prism => "x y t z",
        }
    }
    /// Whether the lattice is one of space (cube, prism) rather than of the plane.
    pub const fn is_solid(self) -> bool {
        matches!(self, Lattice::Cube | Lattice::Prism)
    }
    /// Whether the lattice's cells come in two kinds that no translation turns into each other
    /// (up and down triangles, on the triangle and prism lattices).
    pub const fn has_kinds(self) -> bool {
        matches!(self, Lattice::Triangle | Lattice::Prism)
    }
    /// Whether two cells are of the same kind (see [`Lattice::has_kinds`]).
    pub const fn same_kind(self, a: Coord, b: Coord) -> bool {
        match self {
            Lattice::Triangle => a.z == b.z,
            Lattice::Prism => (a.z - b.z) % 2 == 0,
            _ => true,
        }
    }
    /// Whether `c` is a cell of the lattice (a triangle's `t` is 0 or 1; plane cells have `z` 0).
    pub const fn contains(self, c: Coord) -> bool {
        match self {
            Lattice::Square | Lattice::Hex => c.z == 0,
            Lattice::Triangle => c.z == 0 || c.z == 1,
            Lattice::Cube | Lattice::Prism => true,
        }
    }
    /// Unit steps from `c` to its neighbours.
    pub const fn directions_of(self, c: Coord) -> &'static [Coord] {
        match self {
            Lattice::Square => &SQUARE_DIRS,
            Lattice::Hex => &HEX_DIRS,
            Lattice::Triangle if c.z == 0 => &UP_DIRS,
            Lattice::Triangle => &DOWN_DIRS,
            Lattice::Cube => &CUBE_DIRS,
            Lattice::Prism if c.z.rem_euclid(2) == 0 => &UP_PRISM_DIRS,
            Lattice::Prism => &DOWN_PRISM_DIRS,
        }
    }
    /// The neighbours of `c`.
    pub fn neighbours(self, c: Coord) -> impl Iterator<Item = Coord> {
        self.directions_of(c).iter().map(move |&d| c.add(d))
    }
    /// Number of rotations (4, 6, 6, 24 or 12).
    pub const fn rotations(self) -> u8 {
        match self {
            Lattice::Square => 4,
            Lattice::Hex | Lattice::Triangle => 6,
            Lattice::Cube => 24,
            Lattice::Prism => 12,
        }
    }
    /// Every symmetry of the lattice that fixes the origin (a corner of the triangle lattice):
    /// rotations first, then the mirrored ones if `mirror`. The identity comes first.
    pub fn transforms(self, mirror: bool) -> impl Iterator<Item = Transform> {
        let n = self.rotations();
        let m = if mirror { 2 } else { 1 };
        (0..m).flat_map(move |k| (0..n).map(move |rot| Transform { lattice: self, rot, mirror: k == 1 }))
    }
    /// The translation that takes the lattice's cell of `c`'s kind at the origin to `c`: `c`
    /// itself, but for triangles and prisms, whose kind `t` no translation changes.
    pub const fn translation(self, c: Coord) -> Coord {
        match self {
            Lattice::Triangle => Coord::new(c.x, c.y),
            Lattice::Prism => Coord::at(c.x, c.y, c.z - c.z.rem_euclid(2)),
            _ => c,
        }
    }
    /// Lattice coordinate of the picture cell at `(col, row)` (layer 0 on the cube and prism
    /// lattices).
    pub const fn from_offset(self, col: i32, row: i32) -> Coord {
        match self {
            Lattice::Square | Lattice::Cube => Coord::new(col, row),
            Lattice::Hex => Coord::new(col - row.div_euclid(2), row),
            Lattice::Triangle | Lattice::Prism => {
                let t = (col + row).rem_euclid(2);
                Coord::at((col + row - t).div_euclid(2), -row, t)
            }
        }
    }
    /// Picture position `(col, row)` of a lattice cell (its layer ignored on the cube and prism
    /// lattices).
    pub const fn to_offset(self, c: Coord) -> (i32, i32) {
        match self {
            Lattice::Square | Lattice::Cube => (c.x, c.y),
            Lattice::Hex => (c.x + c.y.div_euclid(2), c.y),
            Lattice::Triangle => (2 * c.x + c.y + c.z, -c.y),
            Lattice::Prism => (2 * c.x + c.y + c.z.rem_euclid(2), -c.y),
        }
    }
    /// Whether moving picture cells by `(dc, dr)` keeps them the same kind of cell (hex rows keep
    /// their indentation, triangles point the same way).
    pub const fn keeps_pictures(self, dc: i32, dr: i32) -> bool {
        match self {
            Lattice::Square | Lattice::Cube => true,
            Lattice::Hex => dr.rem_euclid(2) == 0,
            Lattice::Triangle | Lattice::Prism => (dc + dr).rem_euclid(2) == 0,
        }
    }
}

impl std::str::FromStr for Lattice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        LATTICES
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("unknown lattice {s:?} (expected square, hex, triangle, cube or prism)"))
    }
}

impl std::fmt::Display for Lattice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A symmetry of a lattice that fixes the origin: an optional mirror, then rotation `rot`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// The lattice acted on.
    pub lattice: Lattice,
    /// Which rotation: that many turns (90 degrees on the square lattice, 60 on the hex and
    /// triangle ones), or on the cube lattice the rotation of that index in a fixed list of 24
    /// (0 is the identity). On the prism lattice, `rot % 6` turns about the layers' axis, and
    /// from 6 on the layers turned over too (a reflection of the plane with the layers' order
    /// reversed: a half turn about an axis in the plane).
    pub rot: u8,
    /// Whether to mirror before turning (on the cube lattice: the point reflection `-c`; on the
    /// prism lattice: a reflection of the plane, the layers kept).
    pub mirror: bool,
}

/// The 24 rotations of the cube as signed permutations: coordinate `k` of the image is
/// `sign[k] * c[axis[k]]`. The identity first.
const CUBE_ROTATIONS: [([usize; 3], [i32; 3]); 24] = cube_rotations();

const fn cube_rotations() -> [([usize; 3], [i32; 3]); 24] {
    let perms: [([usize; 3], i32); 6] =
        [([0, 1, 2], 1), ([1, 2, 0], 1), ([2, 0, 1], 1), ([0, 2, 1], -1), ([2, 1, 0], -1), ([1, 0, 2], -1)];
    let mut out = [([0, 1, 2], [1, 1, 1]); 24];
    let (mut n, mut p) = (0, 0);
    while p < 6 {
        let mut s = 0;
        while s < 8 {
            let sign = [1 - 2 * (s & 1), 1 - 2 * ((s >> 1) & 1), 1 - 2 * ((s >> 2) & 1)];
            // A rotation has determinant +1: the permutation's parity times the signs.
            if perms[p].1 * sign[0] * sign[1] * sign[2] == 1 {
                out[n] = (perms[p].0, sign);
                n += 1;
            }
            s += 1;
        }
        p += 1;
    }
    out
}

impl Transform {
    /// Applies the transform to a cell.
    pub fn apply(self, c: Coord) -> Coord {
        match self.lattice {
            Lattice::Square => {
                let (mut x, mut y) = (c.x, c.y);
                if self.mirror {
                    x = -x;
                }
                for _ in 0..self.rot {
                    (x, y) = (-y, x);
                }
                Coord::new(x, y)
            }
            Lattice::Hex => {
                let (x, y) = self.axial(c.x, c.y);
                Coord::new(x, y)
            }
            Lattice::Triangle => {
                // Three times the triangle's centre, in axial coordinates of the corners: the
                // corners' symmetries map it linearly.
                let (x, y) = self.axial(3 * c.x + 1 + c.z, 3 * c.y + 1 + c.z);
                let t = x.rem_euclid(3) - 1;
                Coord::at((x - 1 - t).div_euclid(3), (y - 1 - t).div_euclid(3), t)
            }
            Lattice::Prism => {
                let over = self.rot >= 6;
                let plane = Transform { lattice: Lattice::Triangle, rot: self.rot % 6, mirror: self.mirror != over };
                let t = plane.apply(Coord::at(c.x, c.y, c.kind()));
                let layer = if over { -c.layer() } else { c.layer() };
                Coord::prism(t.x, t.y, t.z, layer)
            }
            Lattice::Cube => {
                let v = if self.mirror { [-c.x, -c.y, -c.z] } else { [c.x, c.y, c.z] };
                let (axis, sign) = CUBE_ROTATIONS[self.rot as usize % 24];
                Coord::at(sign[0] * v[axis[0]], sign[1] * v[axis[1]], sign[2] * v[axis[2]])
            }
        }
    }

    /// The transform on the axial plane of the hex lattice.
    fn axial(self, mut x: i32, mut y: i32) -> (i32, i32) {
        if self.mirror {
            // Cube (x, y, z) -> (x, z, y): a reflection through the q axis.
            y = -x - y;
        }
        for _ in 0..self.rot {
            // Cube (x, y, z) -> (-z, -x, -y): a 60 degree turn.
            (x, y) = (-y, x + y);
        }
        (x, y)
    }
}

/// A polyform: a finite set of cells, kept in normal form (sorted by [`Coord::key`], translated
/// so that the first cell is the origin, or on the triangle lattice the triangle of its kind at
/// the origin). Two polyforms are equal iff they are translates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Polyform {
    lattice: Lattice,
    cells: Vec<Coord>,
}

impl Polyform {
    /// Normalises a set of cells (duplicates removed).
    pub fn new(lattice: Lattice, cells: impl IntoIterator<Item = Coord>) -> Self {
        let mut cells: Vec<Coord> = cells.into_iter().collect();
        cells.sort_by_key(|c| c.key());
        cells.dedup();
        if let Some(&first) = cells.first() {
            let shift = lattice.translation(first);
            for c in &mut cells {
                *c = c.sub(shift);
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
        // At most 48 images: a list beats hashing them.
        let mut out: Vec<Polyform> = Vec::with_capacity(2 * usize::from(self.lattice.rotations()));
        for p in self.lattice.transforms(mirror).map(|t| self.transformed(t)) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }
    /// The mirror image (a reflection: any one will do, polyforms being equal up to rotation).
    pub fn mirrored(&self) -> Polyform {
        self.transformed(Transform { lattice: self.lattice, rot: 0, mirror: true })
    }
    /// Whether the polyform is its own mirror image up to rotation.
    pub fn is_achiral(&self) -> bool {
        self.orientations(false).contains(&self.mirrored())
    }
    /// Whether every cell can reach every other through neighbours.
    pub fn is_connected(&self) -> bool {
        // Cells are sorted by key: a neighbour is found by binary search.
        let find = |c: Coord| self.cells.binary_search_by_key(&c.key(), |d| d.key()).ok();
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
    /// Picture cells `(col, row)` with the bounding box moved to `(0, 0)` (as near as the
    /// lattice allows: hex rows keep their indentation and triangles their direction). Plane
    /// lattices only: on the cube lattice the layers fall on each other.
    pub fn offsets(&self) -> Vec<(i32, i32)> {
        let raw: Vec<(i32, i32)> = self.cells.iter().map(|&c| self.lattice.to_offset(c)).collect();
        to_corner(self.lattice, raw)
    }
}

/// Picture cells moved as near to `(0, 0)` as the lattice allows (see [`Polyform::offsets`]).
pub fn to_corner(lattice: Lattice, cells: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    let min_row = cells.iter().map(|p| p.1).min().unwrap_or(0);
    let min_col = cells.iter().map(|p| p.0).min().unwrap_or(0);
    // Move by an even number of rows on the hex lattice, and keep col + row's parity on the
    // triangle one (moving one column less if needed).
    let dr = if lattice == Lattice::Hex { min_row - min_row.rem_euclid(2) } else { min_row };
    let dc = if lattice.keeps_pictures(min_col, dr) { min_col } else { min_col - 1 };
    cells.into_iter().map(|(c, r)| (c - dc, r - dr)).collect()
}

/// The cells of a board in lattice coordinates, numbered in the order given, over a dense grid of
/// the board's bounding box (so a board's bounding box should stay within a few million cells).
#[derive(Clone, Debug)]
pub struct BoardIndex {
    lattice: Lattice,
    cells: Vec<Coord>,
    low: Coord,
    /// Extent along x, y and z.
    size: [i32; 3],
    /// Per grid position (layer by layer, row by row): the board cell there, or `u32::MAX`.
    grid: Vec<u32>,
}

impl BoardIndex {
    /// The index of `cells` (numbered `0..`, duplicates not allowed). The grid takes 4 bytes a
    /// cell of the bounding box: callers keep it small (puzzles are checked for that first).
    ///
    /// # Panics
    /// If the bounding box is wider, higher or deeper than `i32::MAX` cells.
    pub fn new(lattice: Lattice, cells: &[Coord]) -> Self {
        let axis = |f: fn(&Coord) -> i32| {
            let lo = cells.iter().map(f).min().unwrap_or(0);
            let hi = cells.iter().map(f).max().unwrap_or(lo - 1);
            let d = i64::from(hi) - i64::from(lo) + 1;
            (lo, i32::try_from(d).unwrap_or_else(|_| panic!("a board {d} cells across")))
        };
        let ((x0, w), (y0, h), (z0, d)) = (axis(|c| c.x), axis(|c| c.y), axis(|c| c.z));
        let mut index = BoardIndex {
            lattice,
            cells: cells.to_vec(),
            low: Coord::at(x0, y0, z0),
            size: [w, h, d],
            grid: Vec::new(),
        };
        let mut grid = vec![u32::MAX; w as usize * h as usize * d as usize];
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
        let [w, h, _] = self.size.map(|s| s as usize);
        let (x, y, z) = ((c.x - self.low.x) as usize, (c.y - self.low.y) as usize, (c.z - self.low.z) as usize);
        (z * h + y) * w + x
    }

    /// Whether `c` lies inside the bounding box.
    #[inline]
    fn inside(&self, c: Coord) -> bool {
        let d = c.sub(self.low);
        (d.x as u32) < self.size[0] as u32 && (d.y as u32) < self.size[1] as u32 && (d.z as u32) < self.size[2] as u32
    }

    /// The number of the board cell at `c` (`None` off the board).
    #[inline]
    pub fn get(&self, c: Coord) -> Option<usize> {
        if !self.inside(c) {
            return None;
        }
        let k = self.grid[self.position(c)];
        (k != u32::MAX).then_some(k as usize)
    }

    /// Every placement of every orientation of a piece on the board: for each orientation and
    /// each board cell as the place of the orientation's first cell (one of its kind, on the
    /// triangle lattice), the numbers of the covered cells if all are on the board, in the
    /// orientation's order.
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
        let [w, h, _] = self.size.map(|s| s as isize);
        for o in orientations {
            let Some(&first) = o.cells.first() else { continue };
            // The orientation's box around its first cell, and each cell as a step in the grid.
            let rel: Vec<Coord> = o.cells.iter().map(|&c| c.sub(first)).collect();
            let lo = Coord::at(
                rel.iter().map(|c| c.x).min().unwrap_or(0),
                rel.iter().map(|c| c.y).min().unwrap_or(0),
                rel.iter().map(|c| c.z).min().unwrap_or(0),
            );
            let hi = Coord::at(
                rel.iter().map(|c| c.x).max().unwrap_or(0),
                rel.iter().map(|c| c.y).max().unwrap_or(0),
                rel.iter().map(|c| c.z).max().unwrap_or(0),
            );
            steps.clear();
            steps.extend(rel.iter().map(|c| (c.z as isize * h + c.y as isize) * w + c.x as isize));
            cells.resize(steps.len(), 0);
            for &anchor in &self.cells {
                // Hot: one box test per anchor, then one grid load per cell (no branch: about
                // half the anchors fail, at any of the cells). A triangle's first cell goes on
                // triangles of its kind only.
                if !self.lattice.same_kind(anchor, first) {
                    continue;
                }
                if !self.inside(anchor.add(lo)) || !self.inside(anchor.add(hi)) {
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
        for lattice in LATTICES {
            let json = serde_json::to_string(&lattice).unwrap();
            assert_eq!(json, format!("\"{}\"", lattice.name()));
            assert_eq!(serde_json::from_str::<Lattice>(&json).unwrap(), lattice);
            assert_eq!(lattice.name().parse::<Lattice>(), Ok(lattice));
        }
        assert!("cubic".parse::<Lattice>().unwrap_err().contains("cube or prism"));
    }

    /// Cells of a lattice around the origin.
    fn patch(lattice: Lattice) -> Vec<Coord> {
        let r = -3..=3;
        let layers = match lattice {
            Lattice::Square | Lattice::Hex => 0..=0,
            Lattice::Triangle => 0..=1,
            Lattice::Cube | Lattice::Prism => -3..=3,
        };
        layers.flat_map(|z| r.clone().flat_map(move |y| (-3..=3).map(move |x| Coord::at(x, y, z)))).collect()
    }

    #[test]
    fn every_lattice_symmetry_maps_neighbours_to_neighbours() {
        for lattice in LATTICES {
            let ts: Vec<Transform> = lattice.transforms(true).collect();
            assert_eq!(ts.len(), 2 * lattice.rotations() as usize);
            let cells = patch(lattice);
            // All distinct, a permutation of the lattice, and neighbours stay neighbours.
            let images: HashSet<Vec<Coord>> = ts.iter().map(|&t| cells.iter().map(|&c| t.apply(c)).collect()).collect();
            assert_eq!(images.len(), ts.len(), "{lattice}: distinct transforms");
            for &t in &ts {
                for &c in &cells {
                    let image = t.apply(c);
                    assert!(lattice.contains(image), "{lattice}: {t:?} maps {c:?} off the lattice");
                    for n in lattice.neighbours(c) {
                        assert!(
                            lattice.neighbours(image).any(|m| m == t.apply(n)),
                            "{lattice}: {t:?} parts {c:?} from {n:?}"
                        );
                    }
                }
            }
            // Neighbourhood is symmetric.
            for &c in &cells {
                for n in lattice.neighbours(c) {
                    assert!(lattice.neighbours(n).any(|m| m == c), "{lattice}: {c:?} and {n:?}");
                }
            }
        }
    }

    #[test]
    fn triangles_touch_as_the_coordinate_form_says() {
        let mut ns: Vec<Coord> = Lattice::Triangle.neighbours(Coord::at(2, 5, 0)).collect();
        ns.sort();
        assert_eq!(ns, vec![Coord::at(1, 5, 1), Coord::at(2, 4, 1), Coord::at(2, 5, 1)]);
        // Pictures: up where col + row is even, and an up triangle's base is the cell below.
        for row in -3..3 {
            for col in -3..3 {
                let c = Lattice::Triangle.from_offset(col, row);
                assert_eq!(Lattice::Triangle.to_offset(c), (col, row));
                assert_eq!(c.z == 0, (col + row) % 2 == 0);
                let beside = [Lattice::Triangle.from_offset(col - 1, row), Lattice::Triangle.from_offset(col + 1, row)];
                assert!(beside.iter().all(|&b| Lattice::Triangle.neighbours(c).any(|n| n == b)));
                let across = Lattice::Triangle.from_offset(col, if c.z == 0 { row + 1 } else { row - 1 });
                assert!(Lattice::Triangle.neighbours(c).any(|n| n == across));
            }
        }
    }

    #[test]
    fn polyiamonds_and_polycubes_have_their_orientations() {
        let tri = |cells: &[(i32, i32)]| Polyform::from_offsets(Lattice::Triangle, cells.iter().copied());
        // A lone triangle: up and down. The diamond: 3. The hexagon: 1.
        assert_eq!(tri(&[(0, 0)]).orientations(true).len(), 2);
        assert_eq!(tri(&[(0, 0), (1, 0)]).orientations(true).len(), 3);
        assert_eq!(tri(&[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]).orientations(true).len(), 1);
        // The triamond (a trapezoid, a mirror line of its own): 6.
        let t3 = tri(&[(0, 0), (1, 0), (2, 0)]);
        assert!(t3.is_connected() && t3.is_achiral());
        assert_eq!(t3.orientations(true).len(), 6);
        // The tetriamond bar (a parallelogram, a half turn of its own but no mirror line): 3 of
        // each hand.
        let bar = tri(&[(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert!(!bar.is_achiral());
        assert_eq!((bar.orientations(false).len(), bar.orientations(true).len()), (3, 6));
        let cube =
            |cells: &[(i32, i32, i32)]| Polyform::new(Lattice::Cube, cells.iter().map(|&(x, y, z)| Coord::at(x, y, z)));
        // Polycubes: a domino has 3 orientations, an L tricube 12, the chiral tetracube 12 of
        // each hand (24 with reflections), the 2x2x2 cube 1.
        assert_eq!(cube(&[(0, 0, 0), (1, 0, 0)]).orientations(true).len(), 3);
        assert_eq!(cube(&[(0, 0, 0), (1, 0, 0), (0, 1, 0)]).orientations(false).len(), 12);
        let screw = cube(&[(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)]);
        assert!(!screw.is_achiral() && screw.is_connected());
        assert_eq!((screw.orientations(false).len(), screw.orientations(true).len()), (12, 24));
        let block: Vec<(i32, i32, i32)> = (0..8).map(|k| (k & 1, k >> 1 & 1, k >> 2)).collect();
        assert_eq!(cube(&block).orientations(true).len(), 1);
        assert!(!cube(&[(0, 0, 0), (1, 0, 1)]).is_connected());
    }

    /// Prisms: a lone prism has two orientations (up and down), a stack of two prisms (one
    /// above the other) two, a diamond (two triangles side by side) of one layer three, and a
    /// chiral piece (a diamond with a prism on top of one end) twelve of each hand. Twelve
    /// rotations of a row of six triangles in two layers keep its cells within it.
    #[test]
    fn prisms_have_their_orientations() {
        let prism = |cells: &[(i32, i32, i32, i32)]| {
            Polyform::new(Lattice::Prism, cells.iter().map(|&(x, y, t, z)| Coord::prism(x, y, t, z)))
        };
        assert_eq!(prism(&[(0, 0, 0, 0)]).orientations(true).len(), 2);
        assert_eq!(prism(&[(0, 0, 0, 0), (0, 0, 0, 1)]).orientations(true).len(), 2);
        let diamond = prism(&[(0, 0, 0, 0), (0, 0, 1, 0)]);
        assert!(diamond.is_connected() && diamond.is_achiral());
        assert_eq!(diamond.orientations(false).len(), 3);
        let chiral = prism(&[(0, 0, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1), (1, 0, 0, 0)]);
        assert!(chiral.is_connected());
        assert!(!chiral.is_achiral());
        assert_eq!((chiral.orientations(false).len(), chiral.orientations(true).len()), (12, 24));
        assert!(!prism(&[(0, 0, 0, 0), (0, 0, 0, 2)]).is_connected());
        // Coordinates: x y t z round trip through the kept form.
        let c = Coord::prism(3, -1, 1, -2);
        assert_eq!((c.layer(), c.kind(), c.coords(Lattice::Prism)), (-2, 1, vec![3, -1, 1, -2]));
    }

    #[test]
    fn placements_in_a_box_and_on_triangles() {
        // Dominoes in a 2x2x2 box: 12 edges; a lone triangle on a hexagon: 6, each once.
        let cells: Vec<Coord> = (0..8).map(|k| Coord::at(k & 1, k >> 1 & 1, k >> 2)).collect();
        let domino = Polyform::new(Lattice::Cube, [Coord::at(0, 0, 0), Coord::at(1, 0, 0)]);
        assert_eq!(BoardIndex::new(Lattice::Cube, &cells).placements(&domino.orientations(true)).len(), 12);
        let hexagon: Vec<Coord> = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
            .iter()
            .map(|&(c, r)| Lattice::Triangle.from_offset(c, r))
            .collect();
        let index = BoardIndex::new(Lattice::Triangle, &hexagon);
        let one = Polyform::new(Lattice::Triangle, [Coord::at(0, 0, 0)]);
        assert_eq!(index.placements(&one.orientations(true)).len(), 6);
        let diamond = Polyform::from_offsets(Lattice::Triangle, [(0, 0), (1, 0)]);
        assert_eq!(index.placements(&diamond.orientations(true)).len(), 6, "one per inner side");
    }

    #[test]
    fn transforms_are_symmetries() {
        for lattice in LATTICES {
            let ts: Vec<_> = lattice.transforms(true).collect();
            assert_eq!(ts.len(), 2 * lattice.rotations() as usize);
            for t in ts {
                // Neighbours map to neighbours.
                let dirs: HashSet<Coord> = lattice.neighbours(Coord::default()).collect();
                for d in lattice.neighbours(Coord::default()).filter(|_| !lattice.has_kinds()) {
                    assert!(dirs.contains(&t.apply(d)), "{t:?} maps {d:?} off the lattice");
                }
            }
            // A full turn is the identity; a mirror is an involution.
            let c = Coord::at(3, -2, if lattice.is_solid() { 5 } else { 0 });
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
        let index = BoardIndex::new(Lattice::Square, &board);
        let domino = square(&[(0, 0), (1, 0)]);
        let all = index.placements(&domino.orientations(true));
        assert_eq!(all.len(), 7, "4 horizontal + 3 vertical dominoes on 3x2");
        assert!(all.contains(&vec![0, 1]) && all.contains(&vec![2, 5]));
        assert_eq!((index.get(Coord::new(2, 1)), index.get(Coord::new(3, 0))), (Some(5), None));
    }
}
