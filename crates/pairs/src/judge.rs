//! The validator: applies moves with the tester's rules, cell by cell. It shares no code with the
//! solver's bit-mask state, so that it can check the solver.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Cell};
use crate::moves::Move;

/// Why a move is invalid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Invalid {
    /// A cell outside the board.
    #[error("{cell} is off the board")]
    OffBoard {
        /// The cell.
        cell: Cell,
    },
    /// The same tile twice.
    #[error("names {cell} twice")]
    SameTile {
        /// The cell.
        cell: Cell,
    },
    /// A tile removed earlier.
    #[error("{cell} was already removed")]
    Absent {
        /// The cell.
        cell: Cell,
    },
    /// Two colours.
    #[error("{a} has colour {ka} but {b} has colour {kb}")]
    Colors {
        /// The first cell.
        a: Cell,
        /// Its colour.
        ka: u8,
        /// The second cell.
        b: Cell,
        /// Its colour.
        kb: u8,
    },
    /// A tile of another colour inside the rectangle.
    #[error("{cell} of colour {found} lies in the rectangle of a colour-{color} pair")]
    Blocked {
        /// The blocking tile.
        cell: Cell,
        /// Its colour.
        found: u8,
        /// The pair's colour.
        color: u8,
    },
    /// More moves than half the tiles.
    #[error("{moves} moves, more than half of the {tiles} tiles")]
    TooMany {
        /// Moves given.
        moves: usize,
        /// Tiles on the board.
        tiles: usize,
    },
}

/// One move as replayed: the two cells and whether the move was valid (and applied).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The two cells `(r, c)` the move names.
    pub cells: [(u8, u8); 2],
    /// Whether the move was valid; invalid moves are skipped.
    pub valid: bool,
    /// Why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Invalid>,
}

/// A replay: every move, then the tiles left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// The moves in order.
    pub steps: Vec<Step>,
    /// Cells `(r, c)` still holding a tile at the end, row-major.
    pub leftover: Vec<(u8, u8)>,
}

/// Replays moves on a board: for each move, its two cells and whether it was valid (invalid moves
/// are not applied), then the cells left. For a viewer; [`score`] gives the tester's verdict.
pub fn replay(board: &Board, moves: &[Move]) -> Replay {
    let mut grid = Grid::new(board);
    let steps = moves
        .iter()
        .map(|m| {
            let error = grid.apply(m).err();
            Step { cells: [(m.a.r, m.a.c), (m.b.r, m.b.c)], valid: error.is_none(), error }
        })
        .collect();
    Replay { steps, leftover: grid.leftover() }
}

/// The tester's verdict on a list of moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[must_use = "a score says whether the moves are valid"]
pub struct Score {
    /// Tiles removed.
    pub removed: usize,
    /// Tiles on the board.
    pub total: usize,
    /// `removed / total`, or -1 if a move was invalid.
    pub score: f64,
    /// The first invalid move (0-based) and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid: Option<(usize, Invalid)>,
    /// Cells left, row-major (all moves up to the first invalid one applied).
    pub leftover: Vec<(u8, u8)>,
}

impl Score {
    /// Whether every tile was removed.
    pub fn cleared(&self) -> bool {
        self.invalid.is_none() && self.removed == self.total
    }
}

/// Scores moves like the tester: removed / total, or -1 at the first invalid move.
pub fn score(board: &Board, moves: &[Move]) -> Score {
    let total = board.tiles();
    let mut grid = Grid::new(board);
    let mut invalid = None;
    if moves.len() > total / 2 {
        invalid = Some((total / 2, Invalid::TooMany { moves: moves.len(), tiles: total }));
    } else if let Some((i, e)) = moves.iter().enumerate().find_map(|(i, m)| grid.apply(m).err().map(|e| (i, e))) {
        invalid = Some((i, e));
    }
    let removed = total - grid.left;
    let score = if invalid.is_some() { -1.0 } else { removed as f64 / total as f64 };
    Score { removed, total, score, invalid, leftover: grid.leftover() }
}

/// The board as plain cells (`None`: removed).
struct Grid<'a> {
    board: &'a Board,
    cells: Vec<Option<u8>>,
    left: usize,
}

impl<'a> Grid<'a> {
    fn new(board: &'a Board) -> Self {
        Grid { board, cells: board.cells().iter().map(|&k| Some(k)).collect(), left: board.tiles() }
    }

    fn at(&self, cell: Cell) -> Option<u8> {
        self.cells[usize::from(cell.r) * self.board.width() + usize::from(cell.c)]
    }

    /// Checks a move against every rule and applies it.
    fn apply(&mut self, m: &Move) -> Result<(), Invalid> {
        for cell in [m.a, m.b] {
            if !self.board.contains(cell) {
                return Err(Invalid::OffBoard { cell });
            }
        }
        if m.a == m.b {
            return Err(Invalid::SameTile { cell: m.a });
        }
        let ka = self.at(m.a).ok_or(Invalid::Absent { cell: m.a })?;
        let kb = self.at(m.b).ok_or(Invalid::Absent { cell: m.b })?;
        if ka != kb {
            return Err(Invalid::Colors { a: m.a, ka, b: m.b, kb });
        }
        // Every cell of the bounding rectangle, one by one.
        for r in m.a.r.min(m.b.r)..=m.a.r.max(m.b.r) {
            for c in m.a.c.min(m.b.c)..=m.a.c.max(m.b.c) {
                let cell = Cell { r, c };
                if let Some(found) = self.at(cell).filter(|&k| k != ka) {
                    return Err(Invalid::Blocked { cell, found, color: ka });
                }
            }
        }
        let w = self.board.width();
        for cell in [m.a, m.b] {
            self.cells[usize::from(cell.r) * w + usize::from(cell.c)] = None;
        }
        self.left -= 2;
        Ok(())
    }

    fn leftover(&self) -> Vec<(u8, u8)> {
        let w = self.board.width();
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, k)| k.is_some())
            .map(|(i, _)| ((i / w) as u8, (i % w) as u8))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(r1: usize, c1: usize, r2: usize, c2: usize) -> Move {
        Move::new(Cell::new(r1, c1), Cell::new(r2, c2))
    }

    #[test]
    fn each_rule_is_enforced() {
        let b = Board::parse("010\n101\n").unwrap();
        let first_error = |moves: &[Move]| score(&b, moves).invalid.map(|(i, e)| (i, e.to_string()));
        assert_eq!(
            first_error(&[mv(0, 0, 0, 2)]).unwrap().1,
            "(0, 1) of colour 1 lies in the rectangle of a colour-0 pair"
        );
        assert!(matches!(score(&b, &[mv(0, 0, 2, 0)]).invalid, Some((0, Invalid::OffBoard { .. }))));
        assert!(matches!(score(&b, &[mv(0, 0, 0, 0)]).invalid, Some((0, Invalid::SameTile { .. }))));
        assert!(matches!(score(&b, &[mv(0, 0, 0, 1)]).invalid, Some((0, Invalid::Colors { .. }))));
        assert!(matches!(score(&b, &[mv(0, 1, 1, 0)]).invalid, Some((0, Invalid::Blocked { .. }))));
        let ok = Board::parse("0110\n1001\n").unwrap();
        let s = score(&ok, &[mv(0, 1, 0, 2), mv(0, 1, 1, 0)]);
        assert!(matches!(s.invalid, Some((1, Invalid::Absent { .. }))), "{s:?}");
        assert_eq!((s.removed, s.score), (2, -1.0));
        let s = score(&ok, &[mv(0, 1, 0, 2), mv(1, 1, 1, 2), mv(1, 0, 1, 3), mv(0, 0, 0, 3)]);
        assert!(s.cleared(), "{s:?}");
        assert_eq!((s.removed, s.score), (8, 1.0));
        let r = replay(&ok, &[mv(0, 1, 0, 2), mv(0, 1, 0, 2), mv(1, 1, 1, 2)]);
        assert_eq!(r.steps.iter().map(|s| s.valid).collect::<Vec<_>>(), [true, false, true]);
        assert_eq!(r.leftover, [(0, 0), (0, 3), (1, 0), (1, 3)]);
        let too_many = vec![mv(0, 0, 0, 1); 5];
        assert!(matches!(score(&ok, &too_many).invalid, Some((_, Invalid::TooMany { .. }))));
    }
}
