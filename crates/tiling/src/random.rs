//! Random puzzles with a planted solution: cut a board into random pieces, hand out the pieces.
//!
//! The cut grows each piece from a random free cell by adding random free neighbours until it
//! reaches a random size (or runs out of room). Pieces of the same shape (up to the allowed
//! turns) become one piece type with a count, so the puzzles exercise multiplicities too. Such a
//! puzzle always has at least one tiling: the cut itself.

use std::collections::{BTreeMap, HashSet};

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use tessera_core::geometry::{Coord, Lattice, Polyform};

use tessera_polyform::tiler::{PieceSpec, Problem};

use crate::puzzle::{Expect, Puzzle, draw, picture};

/// Labels for the piece types of random puzzles: 62, so random puzzles stay within the fast
/// engine's 64 types.
pub const LABELS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The shape of random puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomSpec {
    /// The lattice.
    pub lattice: Lattice,
    /// Board width in cells.
    pub width: u32,
    /// Board height in cells.
    pub height: u32,
    /// Board depth in layers (the cube and prism lattices; 1 elsewhere).
    pub depth: u32,
    /// Cells removed from the rectangle at random.
    pub holes: u32,
    /// Smallest piece size aimed at (a piece may end smaller when boxed in).
    pub min_piece: u32,
    /// Largest piece size.
    pub max_piece: u32,
    /// Whether pieces may be turned over.
    pub mirror: bool,
}

impl Default for RandomSpec {
    fn default() -> Self {
        RandomSpec {
            lattice: Lattice::Square,
            width: 6,
            height: 6,
            depth: 1,
            holes: 0,
            min_piece: 3,
            max_piece: 6,
            mirror: true,
        }
    }
}

impl RandomSpec {
    /// Checks that the spec makes sense.
    pub fn check(&self) -> Result<(), String> {
        if self.width == 0 || self.height == 0 || self.depth == 0 {
            return Err("the board needs a width, a height and a depth of at least 1".into());
        }
        if self.depth > 1 && !self.lattice.is_solid() {
            return Err(format!("a {} board has one layer: a depth is for the cube and prism lattices", self.lattice));
        }
        let cells = u64::from(self.width) * u64::from(self.height) * u64::from(self.depth);
        if cells > 4096 {
            return Err("random boards are limited to 4096 cells".into());
        }
        if u64::from(self.holes) >= cells {
            return Err(format!("{} holes leave no cell of the {cells} on the board", self.holes));
        }
        if self.min_piece == 0 || self.max_piece < self.min_piece {
            return Err(format!("bad piece sizes {}..{}: need 1 <= min <= max", self.min_piece, self.max_piece));
        }
        Ok(())
    }
}

/// A random puzzle and the tiling it was cut from (one label per board cell).
#[derive(Clone, Debug)]
pub struct Planted {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The planted tiling's labels, in board order.
    pub labels: Vec<char>,
}

impl Planted {
    /// The puzzle in the text format, the planted tiling drawn in comments above it.
    pub fn to_text(&self) -> String {
        let p = &self.puzzle;
        let drawing = draw(
            p.problem.lattice,
            picture(p.problem.lattice, p.problem.board.iter().copied().zip(self.labels.iter().copied())),
        );
        let mut s = format!("# A random puzzle ({}). Its planted tiling:\n", p.name);
        for line in drawing.lines() {
            s.push_str("#   ");
            s.push_str(line);
            s.push('\n');
        }
        s + &p.to_text()
    }
}

/// Cuts a random board into random pieces. Fails if the spec is bad or the cut yields more
/// distinct shapes than there are [`LABELS`].
pub fn planted(spec: &RandomSpec, name: &str, rng: &mut impl Rng) -> Result<Planted, String> {
    spec.check()?;
    let lattice = spec.lattice;
    let mut cells = board_cells(spec);
    cells.shuffle(rng);
    cells.truncate(cells.len() - spec.holes as usize);
    // In reading order, as a picture of the puzzle would give them (a solid board by layers).
    let reading = |c: &Coord| {
        let (col, row) = lattice.to_offset(*c);
        let layer = match lattice {
            Lattice::Cube => c.z,
            Lattice::Prism => c.layer(),
            _ => 0,
        };
        (layer, row, col)
    };
    cells.sort_by_key(reading);
    let pieces = cut(spec, &cells, rng);
    // Group the pieces by shape up to the allowed turns.
    let mut groups: BTreeMap<Polyform, Vec<usize>> = BTreeMap::new();
    for (k, p) in pieces.iter().enumerate() {
        let shape = Polyform::new(lattice, p.iter().copied());
        let key = shape.orientations(spec.mirror).into_iter().min().unwrap_or(shape);
        groups.entry(key).or_default().push(k);
    }
    if groups.len() > LABELS.len() {
        return Err(format!("the cut gave {} distinct shapes; at most {} are supported", groups.len(), LABELS.len()));
    }
    let mut label_of_piece = vec!['?'; pieces.len()];
    let mut specs = Vec::new();
    for ((shape, members), label) in groups.into_iter().zip(LABELS.chars()) {
        for &k in &members {
            label_of_piece[k] = label;
        }
        // As a picture of the piece would give its cells (coordinates on the solid lattices).
        let mut cells: Vec<Coord> = match lattice {
            Lattice::Cube | Lattice::Prism => shape.cells().to_vec(),
            _ => shape.offsets().into_iter().map(|(c, r)| lattice.from_offset(c, r)).collect(),
        };
        cells.sort_by_key(reading);
        specs.push(PieceSpec::new(label, cells, members.len() as u32, spec.mirror));
    }
    let mut labels = vec!['?'; cells.len()];
    for (k, p) in pieces.iter().enumerate() {
        for cell in p {
            if let Ok(i) = cells.binary_search_by_key(&reading(cell), reading) {
                labels[i] = label_of_piece[k];
            }
        }
    }
    let problem = Problem::new(lattice, cells, specs);
    let puzzle = Puzzle { name: name.to_string(), problem, expect: Expect::default(), source: None };
    Ok(Planted { puzzle, labels })
}

/// The cells of the spec's box: `width` x `height` picture cells (triangles: `width` in a row),
/// `depth` layers of them on the cube and prism lattices.
fn board_cells(spec: &RandomSpec) -> Vec<Coord> {
    let (w, h, d) = (spec.width as i32, spec.height as i32, spec.depth as i32);
    let plane = move |z: i32| (0..h).flat_map(move |r| (0..w).map(move |c| (c, r, z)));
    let cell = |(c, r, z): (i32, i32, i32)| match spec.lattice {
        Lattice::Cube => Coord::at(c, r, z),
        Lattice::Prism => {
            let t = Lattice::Triangle.from_offset(c, r);
            Coord::prism(t.x, t.y, t.z, z)
        }
        plane => plane.from_offset(c, r),
    };
    (0..d).flat_map(plane).map(cell).collect()
}

/// Cuts the board cells into pieces (lists of cells).
fn cut(spec: &RandomSpec, cells: &[Coord], rng: &mut impl Rng) -> Vec<Vec<Coord>> {
    let lattice = spec.lattice;
    let mut free: HashSet<Coord> = cells.iter().copied().collect();
    let mut order = cells.to_vec();
    order.shuffle(rng);
    let mut pieces = Vec::new();
    for seed in order {
        if !free.remove(&seed) {
            continue;
        }
        let target = rng.random_range(spec.min_piece..=spec.max_piece) as usize;
        let mut piece = vec![seed];
        while piece.len() < target {
            let frontier: Vec<Coord> =
                piece.iter().flat_map(|&c| lattice.neighbours(c)).filter(|n| free.contains(n)).collect();
            if frontier.is_empty() {
                break;
            }
            let next = frontier[rng.random_range(0..frontier.len())];
            free.remove(&next);
            piece.push(next);
        }
        pieces.push(piece);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate;
    use tessera_core::rng::Rng64;

    #[test]
    fn the_planted_tiling_is_valid() {
        for (k, lattice) in tessera_core::geometry::LATTICES.into_iter().enumerate() {
            for seed in 0..20 {
                let (height, depth) = if lattice.is_solid() { (3, 2) } else { (6, 1) };
                let spec =
                    RandomSpec { lattice, height, depth, holes: 3, mirror: seed % 2 == 0, ..RandomSpec::default() };
                let p = planted(&spec, "t", &mut Rng64::seed(seed + 100 * k as u64)).unwrap();
                assert_eq!(p.puzzle.problem.board.len(), 33);
                assert_eq!(validate(&p.puzzle.problem, &p.labels), Ok(()), "{}", p.puzzle.to_text());
                // The text format round-trips it, with or without the planted tiling.
                assert_eq!(Puzzle::parse(&p.puzzle.to_text()).unwrap(), p.puzzle);
                assert_eq!(Puzzle::parse(&p.to_text()).unwrap(), p.puzzle);
            }
        }
    }

    #[test]
    fn bad_specs_are_refused() {
        let mut rng = Rng64::seed(1);
        for spec in [
            RandomSpec { width: 0, ..RandomSpec::default() },
            RandomSpec { holes: 36, ..RandomSpec::default() },
            RandomSpec { min_piece: 4, max_piece: 3, ..RandomSpec::default() },
            RandomSpec { width: 100, height: 100, ..RandomSpec::default() },
            RandomSpec { depth: 2, ..RandomSpec::default() },
        ] {
            assert!(planted(&spec, "t", &mut rng).is_err(), "{spec:?}");
        }
    }
}
