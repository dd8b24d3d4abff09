//! The solver's engine: the same rules as [`crate::judge`], built for speed.
//!
//! A unit's position is its pivot `(x, y)` and its turn `r`, counted modulo the unit's rotational
//! period (a unit that looks the same after a half turn has three turns, a single cell on its
//! pivot has one), so two positions are equal exactly when the rules say they are. Each turn's
//! cells relative to the pivot come from the core's hex geometry, once per unit and row parity
//! (on offset rows, the column of a cell below the pivot depends on the pivot row's parity).
//! Boards are rows of 128-bit masks; reachability works on whole rows of pivots at once
//! ([`reach`]); paths between positions come from one breadth-first search (the module `bfs`).

pub(crate) mod bfs;
pub mod board;
pub mod reach;
pub mod state;

use tessera_core::geometry::{Lattice, Transform};

pub use board::{Board, MAX_WIDTH};
pub use reach::Reach;
pub use state::State;

use crate::command::Command;
use crate::problem::{Problem, UnitDef};

/// A unit's position: pivot column `x`, pivot row `y`, turn `r` (clockwise, modulo the period).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Pivot column.
    pub x: i16,
    /// Pivot row.
    pub y: i16,
    /// Clockwise turns from the spawn orientation, modulo the unit's period.
    pub r: u8,
}

impl Pos {
    /// The position `(x, y, r)`.
    pub const fn new(x: i32, y: i32, r: u8) -> Pos {
        Pos { x: x as i16, y: y as i16, r }
    }

    /// The position after `cmd`, for a unit of `period` turns (wherever that is: see
    /// [`Rules::fits`]).
    #[inline]
    pub fn step(self, cmd: Command, period: u8) -> Pos {
        let odd = self.y & 1;
        match cmd {
            Command::W => Pos { x: self.x - 1, ..self },
            Command::E => Pos { x: self.x + 1, ..self },
            Command::SW => Pos { x: self.x - 1 + odd, y: self.y + 1, r: self.r },
            Command::SE => Pos { x: self.x + odd, y: self.y + 1, r: self.r },
            Command::CW => Pos { r: if self.r + 1 == period { 0 } else { self.r + 1 }, ..self },
            Command::CCW => Pos { r: if self.r == 0 { period - 1 } else { self.r - 1 }, ..self },
        }
    }
}

/// One turn of a unit at one pivot-row parity: its cells relative to the pivot.
#[derive(Clone, Debug, Default)]
pub(crate) struct Orient {
    /// Cells `(dx, dy)` relative to the pivot.
    pub cells: Vec<(i32, i32)>,
    /// Least and greatest `dx`.
    pub min_dx: i32,
    /// Greatest `dx`.
    pub max_dx: i32,
    /// Least `dy`.
    pub min_dy: i32,
    /// Greatest `dy`.
    pub max_dy: i32,
    /// Per row `dy`, the mask of the cells' columns, counted from `min_dx`.
    pub rows: Vec<(i32, u128)>,
}

impl Orient {
    fn new(cells: Vec<(i32, i32)>) -> Orient {
        let min_dx = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let max_dx = cells.iter().map(|c| c.0).max().unwrap_or(0);
        let min_dy = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let max_dy = cells.iter().map(|c| c.1).max().unwrap_or(0);
        let rows = (min_dy..=max_dy)
            .map(|dy| (dy, cells.iter().filter(|c| c.1 == dy).fold(0u128, |m, c| m | 1 << (c.0 - min_dx))))
            .filter(|&(_, m)| m != 0)
            .collect();
        Orient { cells, min_dx, max_dx, min_dy, max_dy, rows }
    }
}

/// A unit's turns, its period and its spawn position.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Members.
    pub size: usize,
    /// Distinct turns: 1, 2, 3 or 6.
    pub period: u8,
    /// `orients[2 r + parity]`.
    orients: Vec<Orient>,
    /// Where it appears.
    pub spawn: Pos,
}

impl Unit {
    /// The unit's tables for a board of `width` columns.
    #[must_use]
    pub fn new(def: &UnitDef, width: usize) -> Unit {
        // Spawn: members and pivot moved so that the members start at column 0 and row 0 (a
        // plain subtraction, as the contest did), then centred, an odd spare column to the right.
        let min_x = def.members.iter().map(|c| c.x).min().unwrap_or(0);
        let min_y = def.members.iter().map(|c| c.y).min().unwrap_or(0);
        let span = def.members.iter().map(|c| c.x - min_x).max().unwrap_or(0) + 1;
        let left = (width as i32 - span).div_euclid(2);
        let at = |x: i32, y: i32| Lattice::Hex.from_offset(x - min_x + left, y - min_y);
        let pivot = at(def.pivot.x, def.pivot.y);
        let spawn = Pos::new(def.pivot.x - min_x + left, def.pivot.y - min_y, 0);
        // Members relative to the pivot in axial coordinates, where a turn is linear.
        let rel: Vec<_> = def.members.iter().map(|c| at(c.x, c.y)).map(|c| (c.x - pivot.x, c.y - pivot.y)).collect();
        let turned = |rot: u8| -> Vec<(i32, i32)> {
            let t = Transform { lattice: Lattice::Hex, rot, mirror: false };
            let mut v: Vec<(i32, i32)> = rel
                .iter()
                .map(|&(q, r)| t.apply(tessera_core::geometry::Coord::new(q, r)))
                .map(|c| (c.x, c.y))
                .collect();
            v.sort();
            v
        };
        let first = turned(0);
        let period = (1..=6u8).find(|&k| k == 6 || turned(k) == first).unwrap_or(6);
        let mut orients = Vec::with_capacity(2 * period as usize);
        for r in 0..period {
            for parity in 0..2 {
                // Axial (q, r) relative to a pivot on a row of this parity, back to offset columns.
                let cells = turned(r).into_iter().map(|(dq, dr)| (dq + (dr + parity).div_euclid(2), dr)).collect();
                orients.push(Orient::new(cells));
            }
        }
        Unit { size: def.members.len(), period, orients, spawn }
    }

    /// The cells of turn `r` for a pivot on a row of `parity` (0 even, 1 odd).
    #[inline]
    pub(crate) fn orient(&self, r: u8, parity: i32) -> &Orient {
        &self.orients[2 * r as usize + (parity & 1) as usize]
    }

    /// The cells the unit covers at `p`: each row it touches, with the row's mask of them.
    #[inline]
    pub(crate) fn masks_at(&self, p: Pos) -> impl Iterator<Item = (usize, u128)> + '_ {
        let (x, y) = (i32::from(p.x), i32::from(p.y));
        let o = self.orient(p.r, y);
        o.rows.iter().map(move |&(dy, m)| ((y + dy) as usize, m << (x + o.min_dx)))
    }

    /// The position after `cmd` (wherever that is: see [`Rules::fits`]).
    #[inline]
    pub fn step(&self, p: Pos, cmd: Command) -> Pos {
        p.step(cmd, self.period)
    }

    /// The member cells `(x, y)` at a position.
    pub fn cells(&self, p: Pos) -> impl Iterator<Item = (i32, i32)> + '_ {
        let o = self.orient(p.r, p.y as i32);
        o.cells.iter().map(move |&(dx, dy)| (p.x as i32 + dx, p.y as i32 + dy))
    }
}

/// Why the solver cannot play a problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Wider than the engine's rows.
    #[error("the solver plays boards of at most {MAX_WIDTH} columns; this one has {0}")]
    TooWide(usize),
}

/// A problem's board size and unit tables.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The units, as in the problem.
    pub units: Vec<Unit>,
    /// Whether the problem's board starts with a full row. Every lock clears every full row,
    /// so otherwise only a row the locking unit fills can be full.
    starts_full: bool,
}

impl Rules {
    /// Tables for `problem`.
    pub fn new(problem: &Problem) -> Result<Rules, EngineError> {
        if problem.width > MAX_WIDTH {
            return Err(EngineError::TooWide(problem.width));
        }
        let units = problem.units.iter().map(|u| Unit::new(u, problem.width)).collect();
        let start = Board::of(problem);
        let starts_full = start.rows().contains(&start.full());
        Ok(Rules { width: problem.width, height: problem.height, units, starts_full })
    }

    /// Whether unit `u` fits at `p`: every cell on the board and free.
    #[inline]
    pub fn fits(&self, board: &Board, u: &Unit, p: Pos) -> bool {
        let (x, y) = (p.x as i32, p.y as i32);
        let o = u.orient(p.r, y);
        if y + o.min_dy < 0
            || y + o.max_dy >= self.height as i32
            || x + o.min_dx < 0
            || x + o.max_dx >= self.width as i32
        {
            return false;
        }
        let shift = x + o.min_dx;
        o.rows.iter().all(|&(dy, m)| board.rows()[(y + dy) as usize] & (m << shift) == 0)
    }

    /// Fills the unit's cells at `p` (which must fit) and clears full rows; returns how many.
    /// `board` is one of this problem's: its starting board or one that locks made of it.
    pub fn lock(&self, board: &mut Board, u: &Unit, p: Pos) -> usize {
        // Most locks clear nothing, and then no other row needs a look.
        if self.place(board, u, p) { board.clear_full_rows() } else { 0 }
    }

    /// The first half of [`Rules::lock`]: fills the unit's cells at `p` (which must fit) and
    /// clears nothing; returns whether a row may be full (then [`Board::clear_full_rows`]
    /// finishes the lock). Every lock clears every full row, so on a board that starts with none
    /// only the rows the unit fills can be.
    pub fn place(&self, board: &mut Board, u: &Unit, p: Pos) -> bool {
        let full = board.full();
        let mut any_full = self.starts_full;
        for (row, mask) in u.masks_at(p) {
            board.fill(row, mask);
            any_full |= board.rows()[row] == full;
        }
        any_full
    }

    /// Frees the unit's cells at `p`: undoes [`Rules::place`].
    pub fn unplace(&self, board: &mut Board, u: &Unit, p: Pos) {
        for (row, mask) in u.masks_at(p) {
            board.unfill(row, mask);
        }
    }
}

/// The move score of a lock: `size + 100 (1 + ... + ls)`, plus the line bonus when the previous
/// lock cleared more than one line.
#[must_use]
pub(crate) const fn lock_points(size: usize, ls: usize, ls_old: usize) -> u64 {
    let points = size as u64 + 50 * (ls as u64) * (ls as u64 + 1);
    let bonus = if ls_old > 1 { (ls_old as u64 - 1) * points / 10 } else { 0 };
    points + bonus
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Cell;

    fn unit(members: &[(i32, i32)], pivot: (i32, i32)) -> UnitDef {
        UnitDef { members: members.iter().map(|&(x, y)| Cell::new(x, y)).collect(), pivot: Cell::new(pivot.0, pivot.1) }
    }

    #[test]
    fn periods_follow_the_symmetry() {
        assert_eq!(Unit::new(&unit(&[(0, 0)], (0, 0)), 10).period, 1);
        assert_eq!(Unit::new(&unit(&[(0, 0)], (1, 0)), 10).period, 6);
        // A bar of three turned about its middle looks the same after a half turn.
        assert_eq!(Unit::new(&unit(&[(0, 0), (1, 0), (2, 0)], (1, 0)), 10).period, 3);
        // The three neighbours of a pivot at 120 degrees from each other.
        let tri = unit(&[(1, 1), (0, 0), (0, 2)], (0, 1));
        assert_eq!(Unit::new(&tri, 10).period, 2);
    }

    #[test]
    fn spawn_cells_match_the_judge() {
        let defs = [unit(&[(2, 1), (3, 1), (2, 2)], (2, 1)), unit(&[(0, 0), (1, 0), (0, 1)], (5, 3))];
        for def in defs {
            for width in [5, 6, 10] {
                let u = Unit::new(&def, width);
                let mut ours: Vec<Cell> = u.cells(u.spawn).map(|(x, y)| Cell::new(x, y)).collect();
                ours.sort();
                assert_eq!(ours, crate::judge::spawned(&def, width).cells, "{def:?} on width {width}");
            }
        }
    }

    #[test]
    fn a_placement_freed_again_leaves_the_board_as_it_was() {
        let mut clearing = 0;
        for n in [3, 6, 14] {
            let p = crate::builtin::problem(n).unwrap();
            let rules = Rules::new(&p).unwrap();
            let source = p.source(p.source_seeds[0]);
            let mut state = State::new(&p);
            // Along a game (each unit locked at its deepest resting position), every resting
            // position of the next unit: placed and freed, the board is the same; placed and
            // cleared, it is what a lock makes.
            for &u in source.iter().take(40) {
                let unit = &rules.units[u];
                let resting: Vec<Pos> = Reach::new(&rules, &state.board, unit).resting();
                let Some(&deepest) = resting.iter().max_by_key(|q| q.y) else { break };
                for &at in &resting {
                    let mut board = state.board.clone();
                    let may_clear = rules.place(&mut board, unit, at);
                    let mut locked = state.board.clone();
                    let ls = rules.lock(&mut locked, unit, at);
                    assert!(may_clear || ls == 0, "problem {n}: a lock cleared rows place said could not be full");
                    let mut cleared = board.clone();
                    cleared.clear_full_rows();
                    assert_eq!(cleared, locked, "problem {n}");
                    clearing += usize::from(ls > 0);
                    rules.unplace(&mut board, unit, at);
                    assert_eq!(board, state.board, "problem {n}: freed again");
                }
                state.lock(&rules, u, deepest);
            }
            assert!(state.locked >= 10, "problem {n}: the game went on");
        }
        assert!(clearing > 0, "some placements clear rows");
    }

    #[test]
    fn lock_points_follow_the_rules() {
        assert_eq!(lock_points(4, 0, 0), 4);
        assert_eq!(lock_points(4, 3, 4), 604 + 181);
        assert_eq!(lock_points(4, 0, 4), 5);
        assert_eq!(lock_points(3, 2, 1), 303);
    }
}
