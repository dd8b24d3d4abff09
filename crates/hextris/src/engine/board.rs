//! The solver's board: one 128-bit mask per row (bit `x` is column `x`), row 0 at the top.

use std::fmt;

use crate::problem::Problem;

/// The widest board the solver plays: a row and a wall column each side fit one 128-bit mask.
pub const MAX_WIDTH: usize = 126;

/// Filled cells, row by row.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: u32,
    rows: Vec<u128>,
}

impl Board {
    /// An empty board.
    #[must_use]
    pub fn empty(width: usize, height: usize) -> Board {
        assert!((1..=MAX_WIDTH).contains(&width), "boards of 1..={MAX_WIDTH} columns");
        Board { width: width as u32, rows: vec![0; height] }
    }

    /// The problem's starting board.
    #[must_use]
    pub fn of(problem: &Problem) -> Board {
        let mut b = Board::empty(problem.width, problem.height);
        for c in &problem.filled {
            b.rows[c.y as usize] |= 1 << c.x;
        }
        b
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The rows, top first.
    pub fn rows(&self) -> &[u128] {
        &self.rows
    }

    /// A mask of every column.
    pub fn full(&self) -> u128 {
        full_mask(self.width as usize)
    }

    /// The free cells of row `y` (0 for rows off the board).
    #[inline]
    pub fn free(&self, y: i32) -> u128 {
        match self.rows.get(y as usize) {
            Some(&r) if y >= 0 => !r & self.full(),
            _ => 0,
        }
    }

    /// Whether cell `(x, y)` is filled (cells off the board are not).
    pub fn is_filled(&self, x: i32, y: i32) -> bool {
        x >= 0
            && x < self.width as i32
            && y >= 0
            && (y as usize) < self.rows.len()
            && self.rows[y as usize] >> x & 1 == 1
    }

    /// Fills `mask` in row `y`.
    #[inline]
    pub fn fill(&mut self, y: usize, mask: u128) {
        self.rows[y] |= mask;
    }

    /// Frees `mask` in row `y`.
    #[inline]
    pub fn unfill(&mut self, y: usize, mask: u128) {
        self.rows[y] &= !mask;
    }

    /// Removes every full row, moving the rows above down; returns how many went.
    pub fn clear_full_rows(&mut self) -> usize {
        let full = self.full();
        // Most locks clear nothing: look before moving anything.
        let Some(last) = self.rows.iter().rposition(|&r| r == full) else { return 0 };
        let mut write = last + 1;
        for read in (0..=last).rev() {
            if self.rows[read] != full {
                write -= 1;
                self.rows[write] = self.rows[read];
            }
        }
        self.rows[..write].fill(0);
        write
    }

    /// Filled cells in all.
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// The first row holding a filled cell (the height if none).
    pub fn top(&self) -> usize {
        self.rows.iter().position(|&r| r != 0).unwrap_or(self.rows.len())
    }
}

/// A mask of the columns `0..width`.
pub(crate) const fn full_mask(width: usize) -> u128 {
    if width >= 128 { u128::MAX } else { (1 << width) - 1 }
}

impl fmt::Debug for Board {
    /// Draws the board as the contest does: odd rows shifted right, `#` filled, `.` free.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width, self.rows.len())?;
        for (y, &r) in self.rows.iter().enumerate() {
            let cells: Vec<&str> = (0..self.width).map(|x| if r >> x & 1 == 1 { "#" } else { "." }).collect();
            writeln!(f, "{}{}", if y % 2 == 1 { " " } else { "" }, cells.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_rows_go_and_the_rest_falls() {
        let mut b = Board::empty(3, 4);
        b.fill(0, 0b010);
        b.fill(1, 0b111);
        b.fill(2, 0b001);
        b.fill(3, 0b111);
        assert_eq!(b.clear_full_rows(), 2);
        assert_eq!(b.rows(), [0, 0, 0b010, 0b001]);
        assert_eq!(b.top(), 2);
        assert!(b.is_filled(1, 2) && !b.is_filled(0, 2) && !b.is_filled(-1, 2));
        assert_eq!(format!("{b:?}"), "Board 3x4\n. . .\n . . .\n. # .\n # . .\n");
    }
}
