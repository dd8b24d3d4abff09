//! The judge's check of an answer, independent of every solver: every piece of the bag used once,
//! each a rotation (never a mirror image) of its kind, no two on one cell, no negative
//! coordinate; and the score, recomputed.

use std::collections::HashSet;

use crate::answer::{Answer, score};
use crate::bag::Bag;

/// Why an answer is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// The answer places other pieces than the bag holds.
    #[error("the answer places {got} of kind {kind}, the bag holds {want}")]
    Counts {
        /// The kind's letter.
        kind: char,
        /// Placed.
        got: u32,
        /// In the bag.
        want: u32,
    },
    /// A piece is not a rotation of its kind.
    #[error("piece {index} ({kind}) at {cells:?} is not a rotation of {kind}")]
    Shape {
        /// Position in the answer.
        index: usize,
        /// The kind's letter.
        kind: char,
        /// Its cells.
        cells: Vec<(i32, i32)>,
    },
    /// Two pieces share a cell.
    #[error("cell ({0}, {1}) is covered twice")]
    Overlap(i32, i32),
    /// A cell with a negative coordinate.
    #[error("cell ({0}, {1}) has a negative coordinate")]
    Negative(i32, i32),
}

/// A checked answer's bounding box and score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checked {
    /// Width of the bounding box.
    pub width: u32,
    /// Height of the bounding box.
    pub height: u32,
    /// The score.
    pub score: f64,
}

/// Checks an answer against its bag and recomputes the score.
pub fn validate(bag: &Bag, answer: &Answer) -> Result<Checked, Invalid> {
    let kinds = bag.kinds();
    let letters: Vec<char> = bag.set.letters().chars().collect();
    let mut used = vec![0u32; kinds.len()];
    for p in &answer.placed {
        if let Some(u) = used.get_mut(p.kind) {
            *u += 1;
        }
    }
    for (k, (&got, &want)) in used.iter().zip(&bag.counts).enumerate() {
        if got != want {
            return Err(Invalid::Counts { kind: letters[k], got, want });
        }
    }
    let mut seen = HashSet::new();
    for (index, p) in answer.placed.iter().enumerate() {
        if !kinds[p.kind].matches(&p.cells) || p.cells.len() != kinds[p.kind].size() {
            return Err(Invalid::Shape { index, kind: letters[p.kind], cells: p.cells.clone() });
        }
        for &(x, y) in &p.cells {
            if x < 0 || y < 0 {
                return Err(Invalid::Negative(x, y));
            }
            if !seen.insert((x, y)) {
                return Err(Invalid::Overlap(x, y));
            }
        }
    }
    let (w, h) = answer.bbox();
    Ok(Checked { width: w, height: h, score: score(bag.cells(), w, h) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Placed;
    use crate::shapes::PieceSet;

    fn bag(letters: &str) -> Bag {
        Bag::from_letters(PieceSet::Tetrominoes, letters).unwrap()
    }

    #[test]
    fn the_documented_example_scores_24() {
        // I I I I / L O O J / L O O J / L L J J, y up.
        let a = Answer {
            placed: vec![
                Placed { kind: 0, cells: vec![(0, 3), (1, 3), (2, 3), (3, 3)] },
                Placed { kind: 2, cells: vec![(0, 0), (1, 0), (0, 1), (0, 2)] },
                Placed { kind: 3, cells: vec![(1, 1), (2, 1), (1, 2), (2, 2)] },
                Placed { kind: 1, cells: vec![(2, 0), (3, 0), (3, 1), (3, 2)] },
            ],
        };
        assert_eq!(validate(&bag("IJLO"), &a), Ok(Checked { width: 4, height: 4, score: 24.0 }));
        assert_eq!(a.draw(PieceSet::Tetrominoes), "IIII\nLOOJ\nLOOJ\nLLJJ\n");
    }

    #[test]
    fn faults_are_named() {
        let i = |cells: Vec<(i32, i32)>| Placed { kind: 0, cells };
        let ok = i(vec![(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert!(matches!(validate(&bag("II"), &Answer { placed: vec![ok.clone()] }), Err(Invalid::Counts { .. })));
        let bent = i(vec![(0, 0), (1, 0), (2, 0), (2, 1)]);
        assert!(matches!(validate(&bag("I"), &Answer { placed: vec![bent] }), Err(Invalid::Shape { .. })));
        let twice = Answer { placed: vec![ok.clone(), ok.clone()] };
        assert_eq!(validate(&bag("II"), &twice), Err(Invalid::Overlap(0, 0)));
        let neg = i(vec![(-1, 0), (0, 0), (1, 0), (2, 0)]);
        assert_eq!(validate(&bag("I"), &Answer { placed: vec![neg] }), Err(Invalid::Negative(-1, 0)));
        // A mirror image is not a rotation: an L's cells labelled J.
        let l_as_j = Placed { kind: 1, cells: vec![(0, 0), (1, 0), (0, 1), (0, 2)] };
        assert!(matches!(validate(&bag("J"), &Answer { placed: vec![l_as_j] }), Err(Invalid::Shape { .. })));
    }
}
