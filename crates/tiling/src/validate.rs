//! An independent check of a tiling, given as one label per board cell.
//!
//! It shares nothing with the searches but the lattice transforms: for each piece label it splits
//! the cells carrying that label into copies of the piece, trying every rotation (and mirror image
//! if allowed) at the lowest remaining cell, so that touching copies of one piece are handled.

use std::collections::HashSet;

use tessera_core::geometry::{Coord, Lattice, Transform};

use tessera_polyform::tiler::Problem;
use tessera_polyform::tiler::problem::show;

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
    /// A piece covers the wrong number of cells.
    #[error("piece {label:?} covers {got} cells, but {count} copies of {size} cells cover {want}")]
    Area {
        /// The piece.
        label: char,
        /// Cells labelled with it.
        got: usize,
        /// Copies.
        count: u32,
        /// Cells per copy.
        size: usize,
        /// `count * size`.
        want: usize,
    },
    /// The cells of a piece cannot be split into copies of its shape.
    #[error("the cells labelled {0:?} are not copies of that piece")]
    Shape(char),
}

/// Checks that `labels` (one per board cell, in the board's order) is a tiling of the problem.
pub fn validate(puzzle: &Problem, labels: &[char]) -> Result<(), Invalid> {
    if labels.len() != puzzle.board.len() {
        return Err(Invalid::Length { got: labels.len(), want: puzzle.board.len() });
    }
    let lattice = puzzle.lattice;
    for (&c, &label) in puzzle.board.iter().zip(labels) {
        if !puzzle.pieces.iter().any(|p| p.label == label) {
            return Err(Invalid::UnknownLabel { label, cell: show(lattice, c) });
        }
    }
    for p in &puzzle.pieces {
        let mut cells: HashSet<Coord> =
            puzzle.board.iter().zip(labels).filter(|&(_, &l)| l == p.label).map(|(&c, _)| c).collect();
        let want = p.cells.len() * p.count as usize;
        if cells.len() != want {
            let (label, got, count, size) = (p.label, cells.len(), p.count, p.cells.len());
            return Err(Invalid::Area { label, got, count, size, want });
        }
        let variants: Vec<Vec<Coord>> =
            lattice.transforms(p.mirror).map(|t: Transform| p.cells.iter().map(|&c| t.apply(c)).collect()).collect();
        if !split(lattice, &mut cells, &variants) {
            return Err(Invalid::Shape(p.label));
        }
    }
    Ok(())
}

/// Whether `cells` is a disjoint union of translates of the variants.
fn split(lattice: Lattice, cells: &mut HashSet<Coord>, variants: &[Vec<Coord>]) -> bool {
    let Some(&low) = cells.iter().min() else { return true };
    for v in variants {
        // The lowest cell is one of the copy's cells: try each (of its kind, on triangles).
        for &anchor in v.iter().filter(|a| lattice != Lattice::Triangle || a.z == low.z) {
            let (from, to) = (lattice.translation(anchor), lattice.translation(low));
            let moved: Vec<Coord> =
                v.iter().map(|c| Coord::at(c.x - from.x + to.x, c.y - from.y + to.y, c.z - from.z + to.z)).collect();
            if moved.iter().all(|c| cells.contains(c)) {
                for c in &moved {
                    cells.remove(c);
                }
                if split(lattice, cells, variants) {
                    return true;
                }
                cells.extend(moved);
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
