//! From a problem to what the searches need: numbered cells, every placement of every piece, the
//! board's symmetries, and which region sizes the pieces could fill.
//!
//! Cells are numbered twice. *Board cells* `0..n` follow the board's reading order and are what
//! solutions are reported in. *Bits* lay the board's bounding box out row by row along its
//! shorter side (in 3D, slice by slice in the order of the axes that gives the placements the
//! shortest spans), so that "the first free bit" walks a narrow front across the board (the
//! order that makes fill-the-first-hole searches fast) and neighbours are a fixed shift apart.

use tessera_core::geometry::{BoardIndex, Coord, Lattice, Polyform, Transform};

use crate::tiler::problem::{EMPTY, Problem};

/// A piece type as the searches see it.
#[derive(Clone, Debug)]
pub struct PieceType {
    /// The label used in drawings.
    pub label: char,
    /// Most copies a tiling uses.
    pub count: u32,
    /// Fewest copies a tiling uses (`count` unless the type has a range).
    pub min: u32,
    /// Cells per copy.
    pub size: usize,
}

/// One way to put one piece on the board: its type, and where its cells lie in the plan's list
/// of the cells of all placements (see [`Plan::cells_of`]: one list for all, not one each, so
/// that compiling meteor's 2,400 placements allocates once).
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    /// Index of its piece type.
    pub ty: usize,
    start: u32,
    len: u32,
}

/// The symmetry-breaking choice: one piece type whose placements are cut to one per orbit under
/// the board's symmetries.
#[derive(Clone, Debug)]
pub struct Restriction {
    /// The restricted piece type (it has exactly one copy).
    pub ty: usize,
    /// The index of the restricted type's first placement (a type's placements are listed
    /// together).
    pub first: usize,
    /// For each placement of the restricted type (from `first` on), if it is a kept one: the
    /// symmetries (indices into [`Plan::symmetries`]) that map it to each placement of its
    /// orbit, one per distinct image.
    pub reps: Vec<Option<Vec<u8>>>,
    /// For each kept placement of the restricted type: the symmetries other than the identity
    /// that map it to itself (empty for any other placement). A symmetry that maps a tiling to
    /// itself is one of these for the tiling's restricted piece.
    pub keepers: Vec<Vec<u8>>,
}

/// A compiled problem.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The lattice.
    pub lattice: Lattice,
    /// Board cells in lattice coordinates, in board-cell order.
    pub cells: Vec<Coord>,
    /// Bit of each board cell.
    pub bit_of: Vec<u32>,
    /// Number of bits of the bounding-box layout.
    pub nbits: usize,
    /// Bits per line of the layout (the bounding box's shorter side; in 3D, a slice across the
    /// slowest axis): bit `b` is on line `b / line`, and searches fill lines in order.
    pub line: usize,
    /// Board cells that neighbour each other, as pairs of bits grouped by their difference:
    /// `(delta, bits b such that b and b + delta are neighbouring board cells)`.
    pub shifts: Vec<(i32, Vec<u32>)>,
    /// Piece types.
    pub types: Vec<PieceType>,
    /// Every placement of every piece type (before any pruning).
    pub placements: Vec<Placement>,
    /// The covered board cells of every placement, one after the other (each placement's
    /// sorted).
    placement_cells: Vec<u32>,
    /// The board's symmetries that map the piece set to itself, as permutations of board cells
    /// (`perm[cell]` is the image); the identity first.
    pub symmetries: Vec<Vec<u32>>,
    /// Per symmetry, the piece type each type becomes (`map[ty]`): itself under rotations; under
    /// reflections, a type that may be turned over or is its own mirror image stays, and a
    /// chiral one that may not becomes the type of its mirror image.
    pub type_maps: Vec<Vec<u16>>,
    /// Per symmetry, whether it is a reflection.
    pub reflected: Vec<bool>,
    /// The symmetry-breaking restriction, when the board has symmetries and some piece type
    /// has a single copy.
    pub restriction: Option<Restriction>,
    /// `fillable[s]`: some sub-multiset of the pieces has `s` cells in all.
    pub fillable: Vec<bool>,
    /// Whether every piece is in one part: only then must a region that pieces cannot leave
    /// have a size the pieces can fill (the searches' pocket check).
    pub connected: bool,
    /// The type of the board's empty cells, when optional cells may stay empty: one-cell
    /// "pieces" placed only on them (the last type).
    pub empty: Option<usize>,
    /// Bits below this are the cells that must be covered; the optional cells come after them
    /// (see `optional_last`), and a search that has covered the others may close a tiling by
    /// leaving them all empty. `nbits` without optional cells.
    pub fixed_bits: usize,
}

impl Plan {
    /// Compiles a problem.
    pub fn new(problem: &Problem) -> Plan {
        let lattice = problem.lattice;
        let cells = problem.board.clone();
        let index = BoardIndex::new(lattice, &cells);
        let mut types: Vec<PieceType> = problem
            .pieces
            .iter()
            .map(|p| PieceType { label: p.label, count: p.count, min: p.min, size: p.cells.len() })
            .collect();
        let mut orientations: Vec<Vec<Shape>> =
            problem.pieces.iter().map(|p| Shape::orientations(lattice, &p.cells, &p.colours, p.mirror)).collect();
        let empty = empty_cells(problem).map(|(min, count)| {
            types.push(PieceType { label: EMPTY, count, min, size: 1 });
            orientations.push(Shape::orientations(lattice, &[Coord::default()], &[], true));
            types.len() - 1
        });
        // Where each orientation may go: colours must match, and empty cells are optional ones.
        let fits = |ty: usize, shape: &Shape, at: &[u32]| {
            if Some(ty) == empty {
                return problem.is_optional(at[0] as usize);
            }
            shape.colours.is_empty()
                || at.iter().zip(&shape.colours).all(|(&c, &k)| problem.allows(k, problem.colour(c as usize)))
        };
        // Room for every placement at once (growing the lists would copy them, page by page).
        let most = orientations.iter().map(|o| o.len() * cells.len());
        let mut all = Vec::with_capacity(most.clone().sum());
        let mut placement_cells = Vec::with_capacity(most.zip(&types).map(|(n, t)| n * t.size).sum());
        // The placements of each orientation, as (first, how many): they are translates of one
        // another, which is all the layout needs to know of them.
        let mut translates = Vec::new();
        for (ty, orientations) in orientations.iter().enumerate() {
            for o in orientations {
                let first = all.len();
                index.for_each_placement(std::slice::from_ref(&o.form), |cells| {
                    if !fits(ty, o, cells) {
                        return;
                    }
                    let start = placement_cells.len();
                    placement_cells.extend_from_slice(cells);
                    // Board cells in reading order and orientations sorted by row make most
                    // placements come sorted already.
                    if !placement_cells[start..].is_sorted() {
                        placement_cells[start..].sort_unstable();
                    }
                    all.push(Placement { ty, start: start as u32, len: cells.len() as u32 });
                });
                if all.len() > first {
                    translates.push((first, (all.len() - first) as u64));
                }
            }
        }
        let shapes = translates.iter().map(|&(first, n)| {
            let p = &all[first];
            (&placement_cells[p.start as usize..][..p.len as usize], n)
        });
        let (mut bit_of, mut nbits, line) = layout(lattice, &cells, shapes);
        let mut fixed_bits = nbits;
        if (0..cells.len()).any(|k| problem.is_optional(k)) {
            (bit_of, fixed_bits) = optional_last(&bit_of, |k| problem.is_optional(k));
            nbits = cells.len();
        }
        let mirror_map = mirror_types(lattice, &types, &problem.pieces, &orientations);
        let kinds: Vec<(bool, u8)> = (0..cells.len()).map(|k| (problem.is_optional(k), problem.colour(k))).collect();
        let mirrors = mirror_map.is_some() && !problem.keep_mirrors;
        let (symmetries, reflected) = board_symmetries(lattice, &index, &kinds, mirrors);
        let identity: Vec<u16> = (0..types.len() as u16).collect();
        let type_maps: Vec<Vec<u16>> = reflected
            .iter()
            .map(|&r| if r { mirror_map.clone().unwrap_or_else(|| identity.clone()) } else { identity.clone() })
            .collect();
        let cells_of = |p: &Placement| &placement_cells[p.start as usize..][..p.len as usize];
        let fixed: Vec<bool> = (0..types.len()).map(|t| type_maps.iter().all(|m| usize::from(m[t]) == t)).collect();
        // Never the empty cells: a search may leave them empty without placing them.
        let fixed: Vec<bool> = fixed.iter().enumerate().map(|(t, &f)| f && Some(t) != empty).collect();
        let restriction = restrict(&types, &fixed, &all, cells_of, &symmetries, &bit_of);
        let connected = problem.pieces.iter().all(|p| Polyform::new(lattice, p.cells.iter().copied()).is_connected());
        Plan {
            lattice,
            shifts: shifts(lattice, &index, &bit_of),
            cells,
            bit_of,
            nbits,
            line,
            fillable: fillable(&types, problem.board.len()),
            types,
            placements: all,
            placement_cells,
            symmetries,
            type_maps,
            reflected,
            restriction,
            connected,
            empty,
            fixed_bits,
        }
    }

    /// The group of symmetries used: its order and how many are reflections.
    pub fn group(&self) -> Group {
        let order = self.symmetries.len().max(1);
        let reflections = self.reflected.iter().filter(|&&r| r).count();
        Group { lattice: self.lattice, order, reflections }
    }

    /// Number of board cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the board has no cell.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Whether some choice of copies in the types' ranges (the board's empty cells included)
    /// has exactly as many cells as the board: otherwise no tiling exists.
    pub fn area_fits(&self) -> bool {
        let least: usize = self.types.iter().map(|t| t.size * t.min as usize).sum();
        let most: usize = self.types.iter().map(|t| t.size * t.count as usize).sum();
        least <= self.cells.len() && self.cells.len() <= most
    }

    /// Whether some type may use fewer copies than its most (the board's empty cells count): a
    /// search then checks each tiling's copies against the types' least.
    pub fn has_ranges(&self) -> bool {
        self.types.iter().any(|t| t.min < t.count)
    }

    /// The covered board cells of a placement, sorted.
    #[inline]
    pub fn cells_of(&self, p: &Placement) -> &[u32] {
        &self.placement_cells[p.start as usize..][..p.len as usize]
    }

    /// For a kept placement of the restricted piece: one symmetry (index into
    /// [`Plan::symmetries`]) per distinct image of it. `None` for any other placement.
    pub fn reps_of(&self, placement: usize) -> Option<&[u8]> {
        self.restriction.as_ref().and_then(|r| r.reps.get(placement.wrapping_sub(r.first))?.as_deref())
    }

    /// For a kept placement of the restricted piece: the symmetries other than the identity
    /// that map it to itself (see [`Restriction::keepers`]). `None` for any other placement.
    pub fn keepers_of(&self, placement: usize) -> Option<&[u8]> {
        self.reps_of(placement)?;
        self.restriction.as_ref().map(|r| r.keepers[placement - r.first].as_slice())
    }
}

/// The range of the board's empty cells, when optional cells may stay empty: `(least, most)`.
/// Without ranges of copies the pieces' cells fix how many stay empty (none: no empty type; too
/// many or too few: no tiling, and no empty type either). With ranges any number up to the
/// optional cells and [`Problem::max_holes`].
fn empty_cells(problem: &Problem) -> Option<(u32, u32)> {
    let optional = problem.optional_cells() as u64;
    let most = problem.max_holes.map_or(optional, |h| optional.min(u64::from(h)));
    if most == 0 {
        return None;
    }
    if problem.has_ranges() {
        return Some((0, most as u32));
    }
    let left = (problem.board.len() as u64).checked_sub(problem.piece_area())?;
    (left > 0 && left <= most).then_some((left as u32, left as u32))
}

/// A piece's shape in one orientation: its cells in normal form, and their colours in the same
/// order (empty: all neutral).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Shape {
    form: Polyform,
    colours: Vec<u8>,
}

impl Shape {
    /// The distinct orientations of a piece (see [`Polyform::orientations`]): with colours, two
    /// that cover the same cells with other colours are distinct.
    fn orientations(lattice: Lattice, cells: &[Coord], colours: &[u8], mirror: bool) -> Vec<Shape> {
        if colours.iter().all(|&c| c == 0) {
            let forms = Polyform::new(lattice, cells.iter().copied()).orientations(mirror);
            return forms.into_iter().map(|form| Shape { form, colours: Vec::new() }).collect();
        }
        let mut out: Vec<Shape> = Vec::new();
        for t in lattice.transforms(mirror) {
            let image = Shape::image(lattice, cells, colours, t);
            if !out.contains(&image) {
                out.push(image);
            }
        }
        out
    }

    /// The image of coloured cells under a lattice symmetry, in normal form.
    fn image(lattice: Lattice, cells: &[Coord], colours: &[u8], t: Transform) -> Shape {
        let mut pairs: Vec<(Coord, u8)> = cells.iter().zip(colours).map(|(&c, &k)| (t.apply(c), k)).collect();
        // Polyforms sort their cells by key and translate them, which keeps that order.
        pairs.sort_by_key(|p| p.0.key());
        Shape { form: Polyform::new(lattice, pairs.iter().map(|p| p.0)), colours: pairs.iter().map(|p| p.1).collect() }
    }

    /// The mirror image (any reflection: shapes are compared by their sets of orientations).
    fn mirrored(&self, lattice: Lattice) -> Shape {
        let reflection = Transform { lattice, rot: 0, mirror: true };
        if self.colours.is_empty() {
            return Shape { form: self.form.transformed(reflection), colours: Vec::new() };
        }
        Shape::image(lattice, self.form.cells(), &self.colours, reflection)
    }
}

/// Renumbers the bits of a layout so that the cells that must be covered come first, in the
/// layout's order, and the optional ones after them, in theirs; returns the new bits and how
/// many cells come first. A search that fills the first free cell then decides the cells that
/// must be covered first, as dancing links decides its primary items first: it never branches
/// on whether an optional cell stays empty while some other cell is still open (a box with room
/// to spare, or a burr's bounding box, has many such cells). The layout's lines are lost, and
/// with them the pocket check (holes fill any pocket anyway).
fn optional_last(bit_of: &[u32], optional: impl Fn(usize) -> bool) -> (Vec<u32>, usize) {
    let mut order: Vec<usize> = (0..bit_of.len()).collect();
    order.sort_by_key(|&k| (optional(k), bit_of[k]));
    let mut bits = vec![0; bit_of.len()];
    for (rank, &k) in order.iter().enumerate() {
        bits[k] = rank as u32;
    }
    (bits, order.iter().filter(|&&k| !optional(k)).count())
}

/// Numbers the bounding box of the board (of its pictures on the plane lattices, where every
/// position is a cell) along its physically shorter sides: a plane board by rows if it is at
/// most as wide as it is high, by columns otherwise. A cube board is numbered in the order of
/// its three axes (which varies fastest, which slowest) that gives the placements the shortest
/// spans in all, from the first bit of each to its last: slice by slice across the longest
/// side, each slice along its shorter side, unless pieces lie in planes (flat pieces in a box
/// two cubes thick are best laid out layer by layer). A placement's span is how far past the
/// first free cell it reaches, so short spans keep the front the search fills narrow, as lines
/// along the shorter side do on the plane. `shapes` gives the board cells of one placement of
/// each orientation and how many placements are its translates (they all have its span); on the
/// plane lattices, which have one sensible order, it is not read.
fn layout<'a>(
    lattice: Lattice,
    cells: &[Coord],
    shapes: impl Iterator<Item = (&'a [u32], u64)>,
) -> (Vec<u32>, usize, usize) {
    let grid: Vec<[i32; 3]> = cells
        .iter()
        .map(|&c| match lattice {
            Lattice::Cube => [c.x, c.y, c.z],
            _ => {
                let (col, row) = lattice.to_offset(c);
                [col, row, if lattice == Lattice::Prism { c.layer() } else { 0 }]
            }
        })
        .collect();
    let low: [i32; 3] = std::array::from_fn(|a| grid.iter().map(|g| g[a]).min().unwrap_or(0));
    let pos: Vec<[usize; 3]> = grid.iter().map(|g| std::array::from_fn(|a| (g[a] - low[a]) as usize)).collect();
    let size: [usize; 3] = std::array::from_fn(|a| pos.iter().map(|p| p[a] + 1).max().unwrap_or(0));
    // Axes from the physically shortest (the fastest to vary) to the longest (ties: x before y
    // before z). A triangle picture's column is half a side wide and its row sqrt(3)/2 of a side
    // high, so its rows are the shorter lines unless the picture is over sqrt(3) times as wide
    // as high (they are also the connected ones: a column pairs triangles off, a row is a strip).
    let length = |a: usize| match (lattice.has_kinds(), a) {
        (true, 0) => size[a] as f64 / 2.0,
        (true, 1) => size[a] as f64 * 3f64.sqrt() / 2.0,
        _ => size[a] as f64,
    };
    let mut axes = [0, 1, 2];
    axes.sort_by(|&a, &b| length(a).total_cmp(&length(b)).then(a.cmp(&b)));
    if lattice.is_solid() {
        axes = shortest_spans(axes, &pos, size, shapes);
    }
    let strides = strides(axes, size);
    let line = if lattice.is_solid() { size[axes[0]] * size[axes[1]] } else { size[axes[1]] };
    (pos.iter().map(|p| bit(p, &strides) as u32).collect(), size.iter().product(), line)
}

/// The bit of the cell at `pos` in its box, in the layout of `strides` (see [`strides`]).
fn bit(pos: &[usize; 3], strides: &[usize; 3]) -> usize {
    pos.iter().zip(strides).map(|(p, s)| p * s).sum()
}

/// How far apart neighbours along each axis are when `axes` run from the fastest to vary to
/// the slowest in a box of `size`.
fn strides(axes: [usize; 3], size: [usize; 3]) -> [usize; 3] {
    let mut strides = [0; 3];
    strides[axes[0]] = 1;
    strides[axes[1]] = size[axes[0]];
    strides[axes[2]] = size[axes[0]] * size[axes[1]];
    strides
}

/// Of the six orders of `axes`, the one whose layout gives the placements the least span in
/// all (`pos`: each board cell's place in its box of `size`; `shapes`: as [`layout`] takes
/// them, a translate spanning what its original does); `axes` itself on a tie.
fn shortest_spans<'a>(
    axes: [usize; 3],
    pos: &[[usize; 3]],
    size: [usize; 3],
    shapes: impl Iterator<Item = (&'a [u32], u64)>,
) -> [usize; 3] {
    const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let candidates = ORDERS.map(|o| o.map(|k| axes[k]));
    let strides = candidates.map(|c| strides(c, size));
    let mut spans = [0u64; 6];
    for (cells, n) in shapes {
        for (span, s) in spans.iter_mut().zip(&strides) {
            let bits = cells.iter().map(|&c| bit(&pos[c as usize], s));
            let (lo, hi) = bits.fold((usize::MAX, 0), |(lo, hi), b| (lo.min(b), hi.max(b)));
            *span += n * (hi + 1).saturating_sub(lo) as u64;
        }
    }
    // The first of the least: `candidates[0]` is `axes`.
    let best = (0..6).min_by_key(|&k| (spans[k], k)).unwrap_or(0);
    candidates[best]
}

/// Groups neighbouring board cells by the difference of their bits (see [`Plan::shifts`]).
fn shifts(lattice: Lattice, index: &BoardIndex, bit_of: &[u32]) -> Vec<(i32, Vec<u32>)> {
    // A handful of differences (8 at most on the hex lattice): a sorted list, not a map.
    let mut out: Vec<(i32, Vec<u32>)> = Vec::new();
    for (k, &c) in index.cells().iter().enumerate() {
        for n in lattice.neighbours(c) {
            if let Some(j) = index.get(n) {
                let delta = bit_of[j] as i32 - bit_of[k] as i32;
                let at = match out.binary_search_by_key(&delta, |g| g.0) {
                    Ok(at) => at,
                    Err(at) => {
                        out.insert(at, (delta, Vec::new()));
                        at
                    }
                };
                out[at].1.push(bit_of[k]);
            }
        }
    }
    for group in &mut out {
        group.1.sort_unstable();
    }
    out
}

/// Sizes reachable as sums of a sub-multiset of the pieces (bounded subset sum). The copies of a
/// type are taken in groups of 1, 2, 4, ... (binary splitting), so a type costs `log(count)`
/// passes, not `count`.
fn fillable(types: &[PieceType], area: usize) -> Vec<bool> {
    let mut reach = vec![false; area + 1];
    reach[0] = true;
    for t in types.iter().filter(|t| t.size > 0) {
        // More copies than fit on the board cannot change which sizes are reachable.
        let mut left = (t.count as usize).min(area / t.size);
        let mut group = 1;
        while left > 0 {
            let k = group.min(left);
            let step = k * t.size;
            for s in (step..=area).rev() {
                if reach[s - step] {
                    reach[s] = true;
                }
            }
            left -= k;
            group *= 2;
        }
    }
    reach
}

/// The symmetry group of a tiling problem: the board's symmetries that map the set of pieces
/// onto itself. In JSON: `{"name": "D2", "order": 4, "reflections": 2}` (`name` is null on the
/// cube lattice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The lattice (it tells plane groups from space groups).
    pub lattice: Lattice,
    /// Number of symmetries, the identity included.
    pub order: usize,
    /// How many of them are reflections (turn the board over).
    pub reflections: usize,
}

impl Group {
    /// The group's name on the plane lattices: `Cn` (rotations only) or `Dn` (with reflections,
    /// `2n` in all); on the cube lattice, none (the order says enough).
    pub fn name(&self) -> Option<String> {
        match self.lattice {
            l if l.is_solid() => None,
            _ if self.reflections > 0 => Some(format!("D{}", self.order / 2)),
            _ => Some(format!("C{}", self.order)),
        }
    }
}

impl serde::Serialize for Group {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Group", 3)?;
        s.serialize_field("name", &self.name())?;
        s.serialize_field("order", &self.order)?;
        s.serialize_field("reflections", &self.reflections)?;
        s.end()
    }
}

impl std::fmt::Display for Group {
    /// `D2 of order 4: 2 rotations and 2 reflections` (the identity counts as a rotation), or
    /// `C2 of order 2: 2 rotations and no reflection`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rotations = self.order - self.reflections;
        let turns = if rotations == 1 { "1 rotation".to_string() } else { format!("{rotations} rotations") };
        let flips = match self.reflections {
            0 => "no reflection".to_string(),
            1 => "1 reflection".to_string(),
            n => format!("{n} reflections"),
        };
        match self.name() {
            Some(name) => write!(f, "{name} of order {}: {turns} and {flips}", self.order),
            None => write!(f, "order {}: {turns} and {flips}", self.order),
        }
    }
}

/// What the reflections do to the piece types, if they map the set of pieces onto itself: each
/// type that may be turned over or is its own mirror image stays (the board's empty cells too);
/// each other one becomes a type of the same range of copies, also not turned over, whose shape
/// (with its colours) is its mirror image (as the one-sided pentominoes' F and F'). `None` if
/// some type has no such partner. `orientations`: each type's, as the plan places it.
fn mirror_types(
    lattice: Lattice,
    types: &[PieceType],
    pieces: &[crate::tiler::problem::PieceSpec],
    orientations: &[Vec<Shape>],
) -> Option<Vec<u16>> {
    // A type's orientations as a set (both hands when it may be turned over, or it is achiral
    // and its rotations hold both already), told by its smallest member, with whether the set
    // holds both hands and the range of copies.
    let both: Vec<bool> = (0..types.len())
        .map(|t| {
            pieces.get(t).is_none_or(|p| p.mirror) || orientations[t].contains(&orientations[t][0].mirrored(lattice))
        })
        .collect();
    let key = |t: usize| (types[t].count, types[t].min, both[t], orientations[t].iter().min());
    let keys: Vec<_> = (0..both.len()).map(key).collect();
    let mut taken = vec![false; both.len()];
    let mut map = Vec::with_capacity(both.len());
    for t in 0..both.len() {
        if both[t] {
            map.push(t as u16);
            continue;
        }
        // The mirror images of a chiral type's rotations are its mirror image's rotations.
        let smallest = orientations[t].iter().map(|o| o.mirrored(lattice)).min();
        let image = (types[t].count, types[t].min, false, smallest.as_ref());
        let partner = (0..both.len()).find(|&u| !taken[u] && keys[u] == image)?;
        taken[partner] = true;
        map.push(partner as u16);
    }
    Some(map)
}

/// How many symmetries the board of `problem` has, reflections included, its optional cells
/// and colours kept in place (see [`Problem::settled`]).
pub fn symmetry_count(problem: &Problem) -> usize {
    let index = BoardIndex::new(problem.lattice, &problem.board);
    let kinds: Vec<(bool, u8)> =
        (0..problem.board.len()).map(|k| (problem.is_optional(k), problem.colour(k))).collect();
    board_symmetries(problem.lattice, &index, &kinds, true).0.len()
}

/// The symmetries of the board that also map the piece set to itself: all rotations, and the
/// reflections too if `mirror_ok` (they map the set of pieces onto itself: see
/// [`mirror_types`]); with whether each is a reflection. A symmetry maps each board cell to one
/// of the same kind (`kinds`: whether it is optional, and its colour).
fn board_symmetries<K: PartialEq>(
    lattice: Lattice,
    index: &BoardIndex,
    kinds: &[K],
    mirror_ok: bool,
) -> (Vec<Vec<u32>>, Vec<bool>) {
    let coords = index.cells();
    let anchor = |cs: &[Coord]| cs.iter().copied().min_by_key(|c| c.key());
    let Some(a0) = anchor(coords) else { return (vec![], vec![]) };
    let (mut out, mut reflected) = (Vec::new(), Vec::new());
    for t in lattice.transforms(mirror_ok) {
        let image: Vec<Coord> = coords.iter().map(|&c| t.apply(c)).collect();
        let Some(a1) = anchor(&image) else { continue };
        // The translation taking the image's first cell to the board's (none if a triangle of
        // one kind would have to become one of the other).
        if !lattice.same_kind(a0, a1) {
            continue;
        }
        let (d0, d1) = (lattice.translation(a0), lattice.translation(a1));
        let perm: Option<Vec<u32>> = image
            .iter()
            .map(|&c| index.get(Coord::at(c.x - d1.x + d0.x, c.y - d1.y + d0.y, c.z - d1.z + d0.z)).map(|k| k as u32))
            .collect();
        if let Some(perm) = perm
            && perm.iter().enumerate().all(|(k, &to)| kinds[k] == kinds[to as usize])
            && !out.contains(&perm)
        {
            out.push(perm);
            reflected.push(t.mirror);
        }
    }
    (out, reflected)
}

/// Picks the piece type to restrict and cuts its placements to one per orbit: the one whose
/// bits, sorted, are smallest, so that the kept placements lie where the search starts filling
/// (and the search can give up on a branch once its front has passed them all).
fn restrict<'a>(
    types: &[PieceType],
    fixed: &[bool],
    all: &[Placement],
    cells_of: impl Fn(&Placement) -> &'a [u32],
    symmetries: &[Vec<u32>],
    bit_of: &[u32],
) -> Option<Restriction> {
    if symmetries.len() < 2 {
        return None;
    }
    let ty = choose_restricted(types, fixed, all)?;
    let first = all.iter().position(|p| p.ty == ty)?;
    let mut reps = vec![None; all[first..].iter().take_while(|p| p.ty == ty).count()];
    let mut keepers = vec![Vec::new(); reps.len()];
    let size = cells_of(&all[first]).len();
    // Per symmetry, the image's cells sorted (one buffer for all, reused), and the image's
    // bits sorted.
    let (mut cells, mut bits) = (vec![0u32; size * symmetries.len()], vec![0u32; size * symmetries.len()]);
    for (k, p) in all[first..first + reps.len()].iter().enumerate() {
        for (g, perm) in symmetries.iter().enumerate() {
            let (img, img_bits) = (&mut cells[g * size..][..size], &mut bits[g * size..][..size]);
            for ((c, b), &from) in img.iter_mut().zip(img_bits.iter_mut()).zip(cells_of(p)) {
                *c = perm[from as usize];
                *b = bit_of[*c as usize];
            }
            img.sort_unstable();
            img_bits.sort_unstable();
        }
        // Keep the placement iff it is the smallest of its orbit (the identity comes first).
        let own = &bits[..size];
        if bits.chunks(size).all(|img| own <= img) {
            let distinct = (0..symmetries.len())
                .filter(|&g| !cells[..g * size].chunks(size).any(|c| *c == cells[g * size..][..size]));
            reps[k] = Some(distinct.map(|g| g as u8).collect());
            // The type is one every symmetry keeps: the same cells are the same placement.
            keepers[k] = (1..symmetries.len())
                .filter(|&g| cells[g * size..][..size] == cells[..size])
                .map(|g| g as u8)
                .collect();
        }
    }
    Some(Restriction { ty, first, reps, keepers })
}

/// The single-copy piece type (one copy in every tiling) with the fewest placements among those
/// every symmetry maps to themselves (`fixed`): restricting a piece that the search meets early
/// and often prunes the most.
fn choose_restricted(types: &[PieceType], fixed: &[bool], all: &[Placement]) -> Option<usize> {
    let mut n = vec![0usize; types.len()];
    for p in all {
        n[p.ty] += 1;
    }
    (0..types.len()).filter(|&t| types[t].count == 1 && types[t].min == 1 && fixed[t]).min_by_key(|&t| (n[t], t))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan from a compact text: the board picture, a blank line, then per piece a header
    /// `LABEL COUNT mirror|fixed` and its picture, pieces separated by blank lines; `hex` as the
    /// first line switches lattices.
    fn plan(text: &str) -> Plan {
        let (lattice, text) = match text.strip_prefix("hex\n") {
            Some(rest) => (Lattice::Hex, rest),
            None => (Lattice::Square, text),
        };
        let mut blocks = text.split("\n\n");
        let board = blocks.next().unwrap();
        let pieces: Vec<(char, u32, bool, String)> = blocks
            .filter(|b| !b.trim().is_empty())
            .map(|b| {
                let (head, picture) = b.split_once('\n').unwrap();
                let words: Vec<&str> = head.split_whitespace().collect();
                (words[0].chars().next().unwrap(), words[1].parse().unwrap(), words[2] == "mirror", picture.to_string())
            })
            .collect();
        let specs: Vec<(char, u32, bool, &str)> = pieces.iter().map(|(l, c, m, p)| (*l, *c, *m, p.as_str())).collect();
        Plan::new(&crate::tiler::problem::from_pictures(lattice, board, &specs).unwrap())
    }

    #[test]
    fn rectangle_layout_runs_along_the_short_side() {
        let p = plan("####\n####\n\nA 4 mirror\n##");
        // 4 wide, 2 high: numbered by columns, two bits per column.
        assert_eq!(p.bit_of, vec![0, 2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(p.nbits, 8);
        assert_eq!(p.symmetries.len(), 4, "a 4x2 rectangle has 4 symmetries");
        assert!(p.restriction.is_none(), "no single-copy piece");
    }

    /// A triangle picture 10 wide and 8 high is 5 sides wide and about 6.9 high: it is laid out
    /// by rows (lines of 10 bits); one 12 wide and 6 high (6 by 5.2) by columns.
    #[test]
    fn triangle_layout_runs_along_the_physically_short_side() {
        let board = |w: usize, h: usize| vec!["#".repeat(w); h].join("\n");
        let tri = |w, h| {
            let problem =
                crate::tiler::problem::from_pictures(Lattice::Triangle, &board(w, h), &[('A', 1, true, "##")]);
            Plan::new(&problem.unwrap())
        };
        let rows = tri(10, 8);
        assert_eq!(rows.line, 10);
        assert_eq!(&rows.bit_of[..3], &[0, 1, 2], "the first row's triangles come first");
        let columns = tri(12, 6);
        assert_eq!(columns.line, 6);
        assert_eq!(&columns.bit_of[..2], &[0, 6], "reading order steps from column to column");
    }

    /// A box of `x` by `y` by `z` cubes filled with copies of one piece (rotations only).
    fn boxed(x: i32, y: i32, z: i32, piece: &[(i32, i32, i32)]) -> Plan {
        let board = (0..z).flat_map(|k| (0..y).flat_map(move |j| (0..x).map(move |i| Coord::at(i, j, k))));
        let cells = piece.iter().map(|&(i, j, k)| Coord::at(i, j, k)).collect();
        let count = (x * y * z) as u32 / piece.len() as u32;
        let piece = crate::tiler::problem::PieceSpec::new('A', cells, count, false);
        Plan::new(&Problem::new(Lattice::Cube, board.collect(), vec![piece]))
    }

    /// Pieces that lie in planes, in a box two cubes thick, are laid out layer by layer (their
    /// placements span least that way); pieces that do not are laid out slice by slice across
    /// the longest side, along the shorter sides, as boxes are by default.
    #[test]
    fn cube_layout_keeps_the_placements_spans_short() {
        // T pentominoes in a 5x4x2 box (board cells in reading order: x fastest, then y, z).
        let flat = boxed(5, 4, 2, &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0), (1, 2, 0)]);
        assert_eq!(flat.line, 20, "a 5x4 layer at a time");
        assert_eq!((flat.bit_of[1], flat.bit_of[5]), (4, 1), "each layer along its shorter side");
        let corner = boxed(4, 6, 2, &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]);
        assert_eq!(corner.line, 8, "a 2x4 slice at a time, across the 6 side");
        assert_eq!(corner.bit_of[24], 1, "the second layer's first cube is the second bit");
    }

    #[test]
    fn hex_neighbour_shifts_depend_on_row_parity() {
        let p = plan("hex\n# # #\n # # #\n# # #\n\nA 9 mirror\n#");
        let deltas: Vec<i32> = p.shifts.iter().map(|s| s.0).collect();
        // E/W = ±1, vertical = ±3, plus -4/+2 from even rows and -2/+4 from odd rows.
        assert_eq!(deltas, vec![-4, -3, -2, -1, 1, 2, 3, 4]);
    }

    #[test]
    fn fillable_is_a_bounded_subset_sum() {
        let p = plan("#########\n\nA 1 mirror\n####\n\nB 1 mirror\n#####");
        let sizes: Vec<usize> = (0..=9).filter(|&s| p.fillable[s]).collect();
        assert_eq!(sizes, vec![0, 4, 5, 9]);
        // Counts split in groups 1, 2, 4, ...: 6 copies of 3 and one of 2 reach 3k and 3k + 2.
        let p = plan("####################\n\nA 6 mirror\n###\n\nB 1 mirror\n##");
        let sizes: Vec<usize> = (0..=20).filter(|&s| p.fillable[s]).collect();
        assert_eq!(sizes, vec![0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20]);
    }

    #[test]
    fn chiral_fixed_pieces_forbid_reflections() {
        // An L tetromino that may not be turned over: a square board keeps only its 4 rotations.
        let p = plan("####\n####\n####\n####\n\nL 4 fixed\n#\n#\n##");
        assert_eq!(p.symmetries.len(), 4);
        let q = plan("####\n####\n####\n####\n\nL 4 mirror\n#\n#\n##");
        assert_eq!(q.symmetries.len(), 8);
    }

    #[test]
    fn restriction_keeps_one_placement_per_orbit() {
        // Monomino X on a 3x3 board (8 symmetries): orbits are the corners, edges and centre.
        let p = plan("###\n###\n###\n\nX 1 mirror\n#\n\no 8 mirror\n#");
        let r = p.restriction.as_ref().unwrap();
        assert_eq!(p.types[r.ty].label, 'X');
        let mut orbit_sizes: Vec<usize> = r.reps.iter().flatten().map(Vec::len).collect();
        orbit_sizes.sort_unstable();
        assert_eq!(orbit_sizes, vec![1, 4, 4]);
        // The centre is kept in place by all 8 symmetries, a corner and an edge cell by one
        // reflection each: orbit size times stabiliser is the group's order.
        for (reps, keepers) in r.reps.iter().zip(&r.keepers) {
            match reps {
                Some(reps) => assert_eq!(reps.len() * (keepers.len() + 1), 8),
                None => assert!(keepers.is_empty()),
            }
        }
        let kept = r.reps.iter().zip(&r.keepers).filter(|(reps, _)| reps.is_some());
        let mut stabilisers: Vec<usize> = kept.map(|(_, k)| k.len() + 1).collect();
        stabilisers.sort_unstable();
        assert_eq!(stabilisers, vec![2, 2, 8]);
    }
}
