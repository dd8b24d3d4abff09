//! Piece kinds in the game's axes, and the piece sets bags are drawn from.
//!
//! The game puts `x` to the right and **`y` up**, `(0, 0)` at the bottom left. Pieces may be
//! rotated but never mirrored, so J and L (and S and Z) are different kinds.
//!
//! ```text
//!  I: ####     O: ##    T: ###    J:  #    L: #     S:  ##    Z: ##
//!                 ##        #         #       #        ##         ##
//!                                    ##       ##
//! ```

use std::fmt;

/// A piece kind: a one-letter name and its cells in the game's axes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kind {
    /// The letter the game uses for it.
    pub name: char,
    /// Its cells (`x` right, `y` up) in one orientation, normalised (smallest `x` and `y` are 0).
    pub cells: Vec<(i32, i32)>,
}

impl Kind {
    /// A kind from its cells (normalised here).
    pub fn new(name: char, cells: &[(i32, i32)]) -> Self {
        Kind { name, cells: normalise(cells) }
    }

    /// Number of cells.
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The distinct rotations (quarter turns counter-clockwise, no mirror images), each
    /// normalised, the kind's own orientation first.
    pub fn rotations(&self) -> Vec<Vec<(i32, i32)>> {
        let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
        let mut cur = self.cells.clone();
        for _ in 0..4 {
            if !out.contains(&cur) {
                out.push(cur.clone());
            }
            cur = normalise(&cur.iter().map(|&(x, y)| (-y, x)).collect::<Vec<_>>());
        }
        out
    }

    /// Whether `cells` (anywhere on the grid) are this kind, rotated.
    pub fn matches(&self, cells: &[(i32, i32)]) -> bool {
        let shape = normalise(cells);
        self.rotations().contains(&shape)
    }
}

/// Moves cells so that the smallest `x` and `y` are 0, and sorts them.
pub(crate) fn normalise(cells: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let x0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut out: Vec<(i32, i32)> = cells.iter().map(|&(x, y)| (x - x0, y - y0)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The piece sets a bag may be drawn from (by these names in `--pieces`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum PieceSet {
    /// The seven tetrominoes of the game: I J L O S T Z.
    #[default]
    #[cfg_attr(feature = "clap", value(alias = "tetromino"))]
    Tetrominoes,
    /// The twelve pentominoes F I L N P T U V W X Y Z (rotated, never mirrored, like totems).
    #[cfg_attr(feature = "clap", value(alias = "pentomino"))]
    Pentominoes,
}

impl PieceSet {
    /// The letters of the set's kinds, in kind order.
    pub const fn letters(self) -> &'static str {
        match self {
            PieceSet::Tetrominoes => "IJLOSTZ",
            PieceSet::Pentominoes => "FILNPTUVWXYZ",
        }
    }

    /// The set's kinds, in kind order.
    pub fn kinds(self) -> Vec<Kind> {
        let table: &[(char, &[(i32, i32)])] = match self {
            // Exactly the orientations of the game's documentation (y up).
            PieceSet::Tetrominoes => &[
                ('I', &[(0, 0), (1, 0), (2, 0), (3, 0)]),
                ('J', &[(0, 0), (1, 0), (1, 1), (1, 2)]),
                ('L', &[(0, 0), (1, 0), (0, 1), (0, 2)]),
                ('O', &[(0, 0), (1, 0), (0, 1), (1, 1)]),
                ('S', &[(0, 0), (1, 0), (1, 1), (2, 1)]),
                ('T', &[(0, 1), (1, 1), (2, 1), (1, 0)]),
                ('Z', &[(1, 0), (2, 0), (0, 1), (1, 1)]),
            ],
            PieceSet::Pentominoes => &[
                ('F', &[(1, 0), (0, 1), (1, 1), (1, 2), (2, 2)]),
                ('I', &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
                ('L', &[(0, 0), (1, 0), (0, 1), (0, 2), (0, 3)]),
                ('N', &[(0, 0), (1, 0), (1, 1), (2, 1), (3, 1)]),
                ('P', &[(0, 0), (0, 1), (1, 1), (0, 2), (1, 2)]),
                ('T', &[(1, 0), (1, 1), (0, 2), (1, 2), (2, 2)]),
                ('U', &[(0, 0), (1, 0), (2, 0), (0, 1), (2, 1)]),
                ('V', &[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)]),
                ('W', &[(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
                ('X', &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
                ('Y', &[(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)]),
                ('Z', &[(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)]),
            ],
        };
        table.iter().map(|&(name, cells)| Kind::new(name, cells)).collect()
    }

    /// Index of the kind with this letter.
    pub fn index(self, letter: char) -> Option<usize> {
        self.letters().find(letter.to_ascii_uppercase())
    }

    /// Cells of every piece of the set (all kinds have the same size).
    pub const fn piece_size(self) -> usize {
        match self {
            PieceSet::Tetrominoes => 4,
            PieceSet::Pentominoes => 5,
        }
    }
}

impl fmt::Display for PieceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PieceSet::Tetrominoes => "tetrominoes",
            PieceSet::Pentominoes => "pentominoes",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tetromino_rotations() {
        let kinds = PieceSet::Tetrominoes.kinds();
        let n: Vec<usize> = kinds.iter().map(|k| k.rotations().len()).collect();
        // I 2, J 4, L 4, O 1, S 2, T 4, Z 2.
        assert_eq!(n, vec![2, 4, 4, 1, 2, 4, 2]);
        // J and L are mirror images, never rotations of each other; likewise S and Z.
        let (j, l, s, z) = (&kinds[1], &kinds[2], &kinds[4], &kinds[6]);
        assert!(!l.rotations().contains(&j.cells) && !z.rotations().contains(&s.cells));
        assert!(j.matches(&[(5, 5), (6, 5), (6, 6), (6, 7)]));
        assert!(!j.matches(&[(5, 5), (6, 5), (5, 6), (5, 7)]));
    }

    #[test]
    fn pentominoes_are_twelve_distinct_free_shapes() {
        let kinds = PieceSet::Pentominoes.kinds();
        assert_eq!(kinds.len(), 12);
        assert!(kinds.iter().all(|k| k.size() == 5));
        let n: Vec<usize> = kinds.iter().map(|k| k.rotations().len()).collect();
        assert_eq!(n, vec![4, 2, 4, 4, 4, 4, 4, 4, 4, 1, 4, 2]);
        assert_eq!(PieceSet::Pentominoes.index('x'), Some(9));
        assert_eq!(PieceSet::Tetrominoes.index('Q'), None);
    }
}
