//! Answers, scores and the boxes worth trying.
//!
//! The score of an answer whose bounding box is `a x b` (`a <= b`) is
//! `(2.5 * cells - a * b) * a / b`. For tetrominoes (`cells = 4 n`) that is the game's
//! `(10 n - a b) a / b`; for other pieces it keeps the game's idea: every cell of piece is worth
//! 2.5 points, every cell of box costs one, and the box should be square.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bag::Bag;
use crate::shapes::{Kind, PieceSet};

/// One placed piece: its kind (index into the set) and its cells (`x` right, `y` up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Index of its kind in the piece set.
    pub kind: usize,
    /// Its cells.
    pub cells: Vec<(i32, i32)>,
}

/// An answer: every piece of the bag, placed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Answer {
    /// The placed pieces.
    pub placed: Vec<Placed>,
}

/// The score of `cells` cells of pieces in a `w x h` box.
pub fn score(cells: u64, w: u32, h: u32) -> f64 {
    let (a, b) = (f64::from(w.min(h)), f64::from(w.max(h)));
    (2.5 * cells as f64 - a * b) * a / b
}

impl Answer {
    /// The bounding box `(width, height)`: `max x + 1` by `max y + 1`.
    pub fn bbox(&self) -> (u32, u32) {
        let cells = self.placed.iter().flat_map(|p| &p.cells);
        let (w, h) = cells.fold((0, 0), |(w, h), &(x, y)| (w.max(x + 1), h.max(y + 1)));
        (w.max(0) as u32, h.max(0) as u32)
    }

    /// The score of the answer (as the game computes it, trusting the placement).
    pub fn score(&self, set: PieceSet) -> f64 {
        let (w, h) = self.bbox();
        score((self.placed.len() * set.piece_size()) as u64, w, h)
    }

    /// The packing turned a quarter clockwise: a `width x h` box becomes `h x width`, and every
    /// piece stays a rotation of its kind (a transposition would mirror them).
    pub fn turned(&self, width: u32) -> Answer {
        let w = width as i32;
        Answer {
            placed: self
                .placed
                .iter()
                .map(|p| Placed { kind: p.kind, cells: p.cells.iter().map(|&(x, y)| (y, w - 1 - x)).collect() })
                .collect(),
        }
    }

    /// The game's `actions` object: `{"totems": [{"shape": "I", "coordinates": [[x, y], ...]}]}`.
    pub fn actions(&self, set: PieceSet) -> Actions {
        let letters: Vec<char> = set.letters().chars().collect();
        Actions {
            totems: self
                .placed
                .iter()
                .map(|p| PlacedJson { shape: letters[p.kind].to_string(), coordinates: p.cells.clone() })
                .collect(),
        }
    }

    /// Reads the game's `actions` object.
    pub fn from_actions(set: PieceSet, actions: &Actions) -> Result<Answer, String> {
        let mut placed = Vec::new();
        for t in &actions.totems {
            let mut chars = t.shape.chars();
            let kind = match (chars.next(), chars.next()) {
                (Some(c), None) => set.index(c),
                _ => None,
            }
            .ok_or_else(|| format!("unknown shape {:?}", t.shape))?;
            placed.push(Placed { kind, cells: t.coordinates.clone() });
        }
        Ok(Answer { placed })
    }

    /// Draws the packing as the game sees it: `y` up (the top line is the highest row), one
    /// letter per cell, `.` for empty cells.
    pub fn draw(&self, set: PieceSet) -> String {
        let (w, h) = self.bbox();
        let letters: Vec<char> = set.letters().chars().collect();
        let mut grid = vec![vec!['.'; w as usize]; h as usize];
        for p in &self.placed {
            for &(x, y) in &p.cells {
                if x >= 0 && y >= 0 {
                    grid[y as usize][x as usize] = letters[p.kind];
                }
            }
        }
        let mut s = String::new();
        for row in grid.iter().rev() {
            let _ = writeln!(s, "{}", row.iter().collect::<String>());
        }
        s
    }

    /// `(col, row, letter)` of every cell for a picture (row 0 at the top: `y` flipped).
    pub fn picture_cells(&self, set: PieceSet) -> Vec<(i32, i32, char)> {
        let (_, h) = self.bbox();
        let letters: Vec<char> = set.letters().chars().collect();
        let mut out = Vec::new();
        for p in &self.placed {
            out.extend(p.cells.iter().map(|&(x, y)| (x, h as i32 - 1 - y, letters[p.kind])));
        }
        out
    }

    /// The cells `(col, row)` of each piece for a picture, as [`Answer::picture_cells`] places
    /// them: pieces to outline.
    pub fn picture_pieces(&self) -> Vec<Vec<(i32, i32)>> {
        let (_, h) = self.bbox();
        self.placed.iter().map(|p| p.cells.iter().map(|&(x, y)| (x, h as i32 - 1 - y)).collect()).collect()
    }
}

/// The game's `actions` object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actions {
    /// Every placed piece.
    pub totems: Vec<PlacedJson>,
}

/// One placed piece in the game's JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedJson {
    /// Its letter.
    pub shape: String,
    /// Its cells as `[x, y]` pairs.
    pub coordinates: Vec<(i32, i32)>,
}

/// A box: width and height.
pub type Dims = (u32, u32);

/// The boxes `(a, b)` with `a <= b` worth trying for a bag, best score first (ties: smaller area
/// first): big enough for the cells, at least as long as every kind's shortest extent, and
/// scoring more than zero.
pub fn candidate_boxes(bag: &Bag) -> Vec<(Dims, f64)> {
    let cells = bag.cells();
    let kinds: Vec<Kind> = bag.kinds().into_iter().zip(&bag.counts).filter(|(_, c)| **c > 0).map(|(k, _)| k).collect();
    // Each kind must fit in some rotation: its short side within a, its long side within b.
    let extents: Vec<(u32, u32)> = kinds
        .iter()
        .map(|k| {
            let w = k.cells.iter().map(|c| c.0).max().unwrap_or(0) as u32 + 1;
            let h = k.cells.iter().map(|c| c.1).max().unwrap_or(0) as u32 + 1;
            (w.min(h), w.max(h))
        })
        .collect();
    let limit = (2.5 * cells as f64) as u64;
    let mut out = Vec::new();
    let mut a = 1u64;
    while a * a <= limit {
        let b_min = cells.div_ceil(a).max(a);
        for b in b_min..=limit / a {
            let (a32, b32) = (a as u32, b as u32);
            if extents.iter().all(|&(s, l)| s <= a32 && l <= b32) {
                out.push(((a32, b32), score(cells, a32, b32)));
            }
        }
        a += 1;
    }
    out.sort_by(|x, y| y.1.total_cmp(&x.1).then((x.0.0 * x.0.1).cmp(&(y.0.0 * y.0.1))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_the_optimal_round() {
        // The best possible round: 1.5, 11, 24, 44, 96, 176, 384, 751, 1536, 3004 = 6027.5.
        let best: Vec<f64> = [(1, 1, 4), (2, 3, 3), (4, 4, 4), (8, 6, 6), (16, 8, 8), (32, 12, 12), (64, 16, 16)]
            .iter()
            .chain(&[(128, 23, 23), (256, 32, 32), (512, 46, 46)])
            .map(|&(n, w, h)| score(4 * n, w, h))
            .collect();
        assert_eq!(best, vec![1.5, 11.0, 24.0, 44.0, 96.0, 176.0, 384.0, 751.0, 1536.0, 3004.0]);
        assert_eq!(best.iter().sum::<f64>(), 6027.5);
    }

    #[test]
    fn boxes_for_a_level_3_bag() {
        // Four pieces with an I: 4x4 (24 points), then 4x5 (16), 5x5 (15), 3x6 (11).
        let bag = Bag::from_letters(PieceSet::Tetrominoes, "IJLO").unwrap();
        let boxes = candidate_boxes(&bag);
        let dims: Vec<Dims> = boxes.iter().take(4).map(|b| b.0).collect();
        assert_eq!(dims, vec![(4, 4), (4, 5), (5, 5), (3, 6)]);
        assert_eq!(boxes[0].1, 24.0);
        // A lone I cannot go in a 2x2 box or 2x3: its box is 1x4.
        let i = Bag::from_letters(PieceSet::Tetrominoes, "I").unwrap();
        assert_eq!(candidate_boxes(&i)[0], ((1, 4), 1.5));
    }

    #[test]
    fn json_and_transposition() {
        let set = PieceSet::Tetrominoes;
        let a = Answer { placed: vec![Placed { kind: 0, cells: vec![(0, 0), (1, 0), (2, 0), (3, 0)] }] };
        let json = serde_json::to_string(&a.actions(set)).unwrap();
        assert_eq!(json, r#"{"totems":[{"shape":"I","coordinates":[[0,0],[1,0],[2,0],[3,0]]}]}"#);
        let back: Actions = serde_json::from_str(&json).unwrap();
        assert_eq!(Answer::from_actions(set, &back).unwrap(), a);
        let t = a.turned(4);
        assert_eq!(t.bbox(), (1, 4));
        assert_eq!(t.draw(set), "I\nI\nI\nI\n");
    }

    #[test]
    fn pictures_put_y_down_for_cells_and_pieces_alike() {
        let set = PieceSet::Tetrominoes;
        let o = Placed { kind: 3, cells: vec![(0, 0), (1, 0), (0, 1), (1, 1)] };
        let i = Placed { kind: 0, cells: vec![(0, 2), (1, 2), (2, 2), (3, 2)] };
        let a = Answer { placed: vec![o, i] };
        let pieces = a.picture_pieces();
        assert_eq!(pieces[1], [(0, 0), (1, 0), (2, 0), (3, 0)], "the top row of the game is row 0");
        let cells: Vec<(i32, i32)> = a.picture_cells(set).iter().map(|c| (c.0, c.1)).collect();
        assert_eq!(cells, pieces.concat());
    }
}
