//! An independent check of a tiling, given as one label per board cell.
//!
//! It shares nothing with the searches but the lattice transforms: for each piece label it splits
//! the cells carrying that label into copies of the piece, trying every rotation (and mirror image
//! if allowed) at the lowest remaining cell, so that touching copies of one piece are handled.
//! A copy's coloured cells must lie on board cells of colours they match; cells left empty
//! ([`EMPTY`]) must be optional ones, no more than the puzzle allows; each piece is used a number
//! of times in its range.

use std::collections::{HashMap, HashSet};

use tessera_core::geometry::{Coord, Lattice, Transform};

use tessera_polyform::tiler::Problem;
use tessera_polyform::tiler::problem::{EMPTY, show};

/// Why a labelling is not a tiling of the puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// Not one label per board cell.
    #[error("{got} labels for a board of {want} cells")]
    Length {
        /// Labels given.
        got: usize,
        /// Board cells.
        want: usize,
    },
    /// A cell carries a label that names no piece.
    #[error("cell {cell} has label {label:?}, which names no piece")]
    UnknownLabel {
        /// The label.
        label: char,
        /// The cell, in the coordinate form: `(x y)` or `(x y z)`.
        cell: String,
    },
    /// A cell that must be covered is left empty.
    #[error("cell {0} is left empty, but it must be covered")]
    Uncovered(String),
    /// More optional cells are left empty than the puzzle allows.
    #[error("{got} cells are left empty, but at most {most} may be")]
    Holes {
        /// Cells left empty.
        got: usize,
        /// The puzzle's limit.
        most: u32,
    },
    /// A piece covers a number of cells that is no allowed number of copies.
    #[error("piece {label:?} covers {got} cells, but {min} to {max} copies of {size} cells are allowed")]
    Area {
        /// The piece.
        label: char,
        /// Cells labelled with it.
        got: usize,
        /// Fewest copies.
        min: u32,
        /// Most copies.
        max: u32,
        /// Cells per copy.
        size: usize,
    },
    /// The cells of a piece cannot be split into copies of its shape (with its colours on board
    /// cells they match).
    #[error("the cells labelled {0:?} are not copies of that piece")]
    Shape(char),
}

/// Checks that `labels` (one per board cell, in the board's order; [`EMPTY`] for an optional
/// cell left empty) is a tiling of the problem.
pub fn validate(puzzle: &Problem, labels: &[char]) -> Result<(), Invalid> {
    if labels.len() != puzzle.board.len() {
        return Err(Invalid::Length { got: labels.len(), want: puzzle.board.len() });
    }
    let lattice = puzzle.lattice;
    let mut empty = 0;
    for (k, (&c, &label)) in puzzle.board.iter().zip(labels).enumerate() {
        if label == EMPTY {
            if !puzzle.is_optional(k) {
                return Err(Invalid::Uncovered(show(lattice, c)));
            }
            empty += 1;
        } else if !puzzle.pieces.iter().any(|p| p.label == label) {
            return Err(Invalid::UnknownLabel { label, cell: show(lattice, c) });
        }
    }
    if let Some(most) = puzzle.max_holes.filter(|&m| empty > m as usize) {
        return Err(Invalid::Holes { got: empty, most });
    }
    let colour_at: HashMap<Coord, u8> = puzzle.board.iter().enumerate().map(|(k, &c)| (c, puzzle.colour(k))).collect();
    for p in &puzzle.pieces {
        let mut cells: HashSet<Coord> =
            puzzle.board.iter().zip(labels).filter(|&(_, &l)| l == p.label).map(|(&c, _)| c).collect();
        let size = p.cells.len();
        let copies = cells.len() / size;
        if !cells.len().is_multiple_of(size) || copies < p.min as usize || copies > p.count as usize {
            let (label, got, min, max) = (p.label, cells.len(), p.min, p.count);
            return Err(Invalid::Area { label, got, min, max, size });
        }
        let variants: Vec<Vec<(Coord, u8)>> = lattice
            .transforms(p.mirror)
            .map(|t: Transform| p.cells.iter().enumerate().map(|(k, &c)| (t.apply(c), p.colour(k))).collect())
            .collect();
        let fits = |c: &Coord, colour: u8| cells_colour(&colour_at, c).is_some_and(|b| puzzle.allows(colour, b));
        if !split(lattice, &mut cells, &variants, &fits) {
            return Err(Invalid::Shape(p.label));
        }
    }
    Ok(())
}

/// The colour of a board cell.
fn cells_colour(colour_at: &HashMap<Coord, u8>, c: &Coord) -> Option<u8> {
    colour_at.get(c).copied()
}

/// Whether `cells` is a disjoint union of translates of the variants, each coloured cell where
/// `fits` lets it go.
fn split(
    lattice: Lattice,
    cells: &mut HashSet<Coord>,
    variants: &[Vec<(Coord, u8)>],
    fits: &dyn Fn(&Coord, u8) -> bool,
) -> bool {
    let Some(&low) = cells.iter().min() else { return true };
    for v in variants {
        // The lowest cell is one of the copy's cells: try each (of its kind, on triangles).
        for &(anchor, _) in v.iter().filter(|a| lattice.same_kind(a.0, low)) {
            let (from, to) = (lattice.translation(anchor), lattice.translation(low));
            let moved: Vec<(Coord, u8)> = v
                .iter()
                .map(|&(c, k)| (Coord::at(c.x - from.x + to.x, c.y - from.y + to.y, c.z - from.z + to.z), k))
                .collect();
            if moved.iter().all(|(c, k)| cells.contains(c) && fits(c, *k)) {
                for (c, _) in &moved {
                    cells.remove(c);
                }
                if split(lattice, cells, variants, fits) {
                    return true;
                }
                cells.extend(moved.iter().map(|&(c, _)| c));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_tilings_and_names_faults() {
        let p = crate::Puzzle::parse("board\n###\n###\n\npiece D x2\n##\n\npiece o x2\n#\n").unwrap().problem;
        let ok: Vec<char> = "oDDDDo".chars().collect();
        assert_eq!(validate(&p, &ok), Ok(()));
        // Two touching dominoes side by side in a 2x2 block: still a split into two dominoes.
        let block: Vec<char> = "DDoDDo".chars().collect();
        assert_eq!(validate(&p, &block), Ok(()));
        let bent: Vec<char> = "DDoDoD".chars().collect();
        assert_eq!(validate(&p, &bent), Err(Invalid::Shape('D')));
        assert!(matches!(validate(&p, &['D']), Err(Invalid::Length { .. })));
        let wrong: Vec<char> = "DDoDDx".chars().collect();
        assert!(matches!(validate(&p, &wrong), Err(Invalid::UnknownLabel { label: 'x', .. })));
        let area: Vec<char> = "DDDDDo".chars().collect();
        assert!(matches!(validate(&p, &area), Err(Invalid::Area { label: 'D', got: 5, .. })));
        assert!(matches!(validate(&p, &"DD.DDo".chars().collect::<Vec<_>>()), Err(Invalid::Uncovered(_))));
    }

    /// Optional cells may stay empty, up to the puzzle's limit; a piece's copies number within
    /// its range; coloured cells go where they match.
    #[test]
    fn optional_cells_ranges_and_colours() {
        let text = "cell + optional\ncell r colour 1\ncell b colour 2\nholes 1\nboard\n#r+\nbb#\n\npiece D x1..3\n#r\n\npiece o x0..3\n#\n";
        let p = crate::Puzzle::parse(text).unwrap().problem;
        let labels = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(validate(&p, &labels("DD.ooo")), Ok(()));
        assert_eq!(validate(&p, &labels("DD.o.o")), Err(Invalid::Uncovered("(1 1)".into())));
        // The domino's red cell cannot lie on a blue board cell: across row 2 it must.
        assert_eq!(validate(&p, &labels("oo.DDo")), Err(Invalid::Shape('D')));
        assert!(matches!(validate(&p, &labels("DDoooo")), Err(Invalid::Area { label: 'o', got: 4, .. })));
        let q = crate::Puzzle::parse(&text.replace("holes 1", "holes 0")).unwrap().problem;
        assert_eq!(validate(&q, &labels("DD.ooo")), Err(Invalid::Holes { got: 1, most: 0 }));
    }

    #[test]
    fn fixed_pieces_may_not_be_turned_over() {
        // An S tetromino that may not be mirrored cannot stand in for a Z.
        let s = "board\n###\n###\n\npiece S fixed\n.##\n##.\n\npiece o x2\n#\n";
        let p = crate::Puzzle::parse(s).unwrap().problem;
        assert_eq!(validate(&p, &"oSSSSo".chars().collect::<Vec<_>>()), Ok(()));
        assert_eq!(validate(&p, &"SSooSS".chars().collect::<Vec<_>>()), Err(Invalid::Shape('S')));
    }
}
