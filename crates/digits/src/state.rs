//! The state of a game: how many towers stand at each height.
//!
//! Towers are interchangeable (a block's worth depends only on its digit and its height), so a
//! state is the multiset of tower heights, kept as a count per height. [`Towers`] maps a height
//! chosen by a strategy back to a concrete tower number for the protocol.
//!
//! ```
//! use tessera_digits::{Params, State};
//! let mut s = State::new(Params::new(3, 2).unwrap());
//! s.place(0).unwrap();
//! s.place(1).unwrap();
//! s.place(0).unwrap();
//! assert_eq!(format!("{s:?}"), "State(B=2: 2 1 0)");
//! assert_eq!(s.open_heights().collect::<Vec<_>>(), vec![0, 1]);
//! ```

use std::fmt;

use crate::params::{MAX_B, Params};

/// A move that the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// No tower stands at that height.
    #[error("no tower has height {0}")]
    NoTower(u32),
    /// Towers at that height are full.
    #[error("towers of height {0} are full")]
    Full(u32),
}

/// How many towers stand at each height `0..=B`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct State {
    counts: [u32; MAX_B as usize + 1],
    b: u32,
    placed: u32,
}

impl State {
    /// The start of a game: every tower empty.
    pub fn new(params: Params) -> State {
        let mut counts = [0; MAX_B as usize + 1];
        counts[0] = params.n;
        State { counts, b: params.b, placed: 0 }
    }

    /// A state from its count per height (`counts[h]` towers of height `h`, `h` in `0..=b`).
    pub fn from_counts(b: u32, counts: &[u32]) -> State {
        assert!(b <= MAX_B && counts.len() == b as usize + 1, "counts for heights 0..=B");
        let mut c = [0; MAX_B as usize + 1];
        c[..counts.len()].copy_from_slice(counts);
        let placed = counts.iter().enumerate().map(|(h, &k)| h as u32 * k).sum();
        State { counts: c, b, placed }
    }

    /// Blocks per tower (B).
    pub fn b(&self) -> u32 {
        self.b
    }

    /// Towers (N).
    pub fn n(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The game's size.
    pub fn params(&self) -> Params {
        Params { n: self.n(), b: self.b }
    }

    /// Towers of height `h`.
    pub fn count(&self, h: u32) -> u32 {
        self.counts.get(h as usize).copied().unwrap_or(0)
    }

    /// Counts per height `0..=B`.
    pub fn counts(&self) -> &[u32] {
        &self.counts[..=self.b as usize]
    }

    /// Blocks placed so far (the sum of the heights).
    pub fn placed(&self) -> u32 {
        self.placed
    }

    /// Blocks still to come.
    pub fn remaining(&self) -> u64 {
        self.params().blocks() - u64::from(self.placed)
    }

    /// Whether every tower is full.
    pub fn is_over(&self) -> bool {
        self.counts[self.b as usize] == self.n()
    }

    /// The heights a block can go to (some tower stands there and is not full), lowest first.
    pub fn open_heights(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.b).filter(|&h| self.counts[h as usize] > 0)
    }

    /// The tallest tower of height below `limit` that can take a block, if any.
    pub(crate) fn tallest_below(&self, limit: u32) -> Option<u32> {
        (0..limit.min(self.b)).rev().find(|&h| self.counts[h as usize] > 0)
    }

    /// Whether a block can go to a tower of height `h`.
    pub fn can_place(&self, h: u32) -> bool {
        h < self.b && self.counts[h as usize] > 0
    }

    /// Puts a block on a tower of height `h`.
    pub fn place(&mut self, h: u32) -> Result<(), MoveError> {
        if h >= self.b {
            return Err(MoveError::Full(h));
        }
        if self.counts[h as usize] == 0 {
            return Err(MoveError::NoTower(h));
        }
        self.counts[h as usize] -= 1;
        self.counts[h as usize + 1] += 1;
        self.placed += 1;
        Ok(())
    }

    /// The state after a block on a tower of height `h` (which must be open).
    pub fn after(&self, h: u32) -> State {
        let mut s = *self;
        s.place(h).unwrap_or_else(|e| panic!("illegal move in {s:?}: {e}"));
        s
    }

    /// The heights of all towers, tallest first.
    pub fn heights(&self) -> Vec<u32> {
        (0..=self.b).rev().flat_map(|h| std::iter::repeat_n(h, self.counts[h as usize] as usize)).collect()
    }
}

impl fmt::Debug for State {
    /// `State(B=15: 15 15 14 3 0 0)`: the tower heights, tallest first (runs of more than three
    /// equal heights as `0x17`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State(B={}:", self.b)?;
        for h in (0..=self.b).rev() {
            match self.counts[h as usize] {
                0 => {}
                k @ 1..=3 => (0..k).try_for_each(|_| write!(f, " {h}"))?,
                k => write!(f, " {h}x{k}")?,
            }
        }
        write!(f, ")")
    }
}

/// Concrete towers, numbered `0..N`: which tower a block goes to when a strategy picks a height.
///
/// Towers of each height are kept on a stack, so a move is O(1) for any N.
#[derive(Clone, Debug)]
pub struct Towers {
    by_height: Vec<Vec<u32>>,
}

impl Towers {
    /// `n` empty towers of capacity `b`.
    pub fn new(params: Params) -> Towers {
        let mut by_height = vec![Vec::new(); params.b as usize + 1];
        by_height[0] = (0..params.n).rev().collect();
        Towers { by_height }
    }

    /// Moves a tower of height `h` up by one block and returns its number (0-based): empty
    /// towers are taken in order 0, 1, 2, ...; otherwise the tower that reached height `h` last,
    /// so that building on one tower keeps naming the same tower.
    pub fn take(&mut self, h: u32) -> Option<u32> {
        let h = h as usize;
        if h + 1 >= self.by_height.len() {
            return None;
        }
        let tower = self.by_height[h].pop()?;
        self.by_height[h + 1].push(tower);
        Some(tower)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_errors() {
        let p = Params::new(2, 2).unwrap();
        let mut s = State::new(p);
        assert_eq!(s.place(1), Err(MoveError::NoTower(1)));
        assert_eq!(s.place(2), Err(MoveError::Full(2)));
        for h in [0, 1, 0, 1] {
            s.place(h).unwrap();
        }
        assert!(s.is_over());
        assert_eq!(s.remaining(), 0);
        assert_eq!(s.open_heights().count(), 0);
        assert_eq!(s.heights(), vec![2, 2]);
        assert_eq!(format!("{:?}", State::new(Params::new(5, 3).unwrap())), "State(B=3: 0x5)");
    }

    #[test]
    fn towers_follow_heights() {
        let p = Params::new(3, 2).unwrap();
        let mut t = Towers::new(p);
        assert_eq!(t.take(0), Some(0));
        assert_eq!(t.take(0), Some(1));
        assert_eq!(t.take(1), Some(1));
        assert_eq!(t.take(2), None);
        assert_eq!(t.take(1), Some(0));
        assert_eq!(t.take(1), None);
        assert_eq!(t.take(0), Some(2));
    }
}
