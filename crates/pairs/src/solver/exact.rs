//! An exhaustive search that clears a small set of tiles, or shows that it cannot within a
//! number of positions: the recreation of ruin and recreate, when a ruin leaves few tiles.
//!
//! Removing tiles only opens cells, so only which pairs are taken matters, not when: a position
//! is the set of tiles removed, and a position that failed once fails again, whatever the path
//! to it.

use std::collections::HashSet;

use crate::state::{EMPTY, State};

/// The most tiles an exact search takes (a position is a bit set of them).
pub const MAX_TILES: usize = 64;

/// Buffers of the exact search.
#[derive(Debug, Default)]
pub struct Exact {
    tiles: Vec<usize>,
    slot: Vec<u8>,
    dead: HashSet<u64>,
    pairs: Vec<(usize, usize)>,
}

impl Exact {
    /// Looks for removals that clear every tile present on `state` (at most [`MAX_TILES`] of
    /// them), visiting at most `limit` positions. On success the removals are applied to `state`
    /// and returned in order; otherwise `state` is left as it was.
    pub fn clear(&mut self, state: &mut State, limit: u32) -> Option<Vec<(usize, usize)>> {
        self.tiles = state.remaining();
        if self.tiles.len() > MAX_TILES {
            return None;
        }
        self.slot.clear();
        self.slot.resize(state.height() * state.width(), u8::MAX);
        for (s, &t) in self.tiles.iter().enumerate() {
            self.slot[t] = s as u8;
        }
        self.dead.clear();
        self.pairs.clear();
        let mut budget = limit;
        if self.search(state, 0, &mut budget) { Some(std::mem::take(&mut self.pairs)) } else { None }
    }

    /// Depth first from the position `removed` (a bit per tile); `true` once every tile is gone,
    /// with the removals left applied and listed in `pairs`.
    fn search(&mut self, state: &mut State, removed: u64, budget: &mut u32) -> bool {
        let n = self.tiles.len();
        if removed.count_ones() as usize == n {
            return true;
        }
        if *budget == 0 || self.dead.contains(&removed) {
            return false;
        }
        *budget -= 1;
        // The tile with the fewest partners now goes first; a tile without any waits (removals
        // elsewhere may open its way), so every removable pair is tried, those of the most
        // constrained tiles first.
        let mut moves: Vec<(u32, usize, usize)> = Vec::new();
        let mut count = vec![0u32; n];
        for (&t, c) in self.tiles.iter().zip(&mut count) {
            if state.at(t) == EMPTY {
                continue;
            }
            state.for_each_partner(t, |j| {
                *c += 1;
                if j > t {
                    moves.push((0, t, j));
                }
                true
            });
        }
        if moves.is_empty() {
            self.dead.insert(removed);
            return false;
        }
        for m in &mut moves {
            m.0 = count[usize::from(self.slot[m.1])].min(count[usize::from(self.slot[m.2])]);
        }
        moves.sort_unstable();
        for &(_, a, b) in &moves {
            let k = state.at(a);
            state.remove(a);
            state.remove(b);
            self.pairs.push((a, b));
            let bits = 1u64 << self.slot[a] | 1u64 << self.slot[b];
            if self.search(state, removed | bits, budget) {
                return true;
            }
            self.pairs.pop();
            state.restore(b, k);
            state.restore(a, k);
            if *budget == 0 {
                return false;
            }
        }
        self.dead.insert(removed);
        false
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::board::{Board, Cell};
    use crate::judge::score;
    use crate::moves::Move;

    /// Whether `cells` (`h` rows, `u8::MAX` for empty) can be cleared, by trying every removable
    /// pair at every step: the rectangle rule checked cell by cell, apart from [`State`].
    fn brute(h: usize, w: usize, cells: &mut Vec<u8>) -> bool {
        let tiles: Vec<usize> = (0..h * w).filter(|&i| cells[i] != u8::MAX).collect();
        if tiles.is_empty() {
            return true;
        }
        for (x, &a) in tiles.iter().enumerate() {
            for &b in &tiles[x + 1..] {
                let k = cells[a];
                let (r0, r1) = ((a / w).min(b / w), (a / w).max(b / w));
                let (c0, c1) = ((a % w).min(b % w), (a % w).max(b % w));
                let clear = (r0..=r1).all(|r| (c0..=c1).all(|c| cells[r * w + c] == k || cells[r * w + c] == u8::MAX));
                if cells[b] == k && clear {
                    (cells[a], cells[b]) = (u8::MAX, u8::MAX);
                    let found = brute(h, w, cells);
                    (cells[a], cells[b]) = (k, k);
                    if found {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn clears_exactly_the_sets_that_can_be_cleared() {
        let stuck = Board::parse("01\n10\n").unwrap();
        let mut s = State::new(&stuck);
        assert!(Exact::default().clear(&mut s, 1000).is_none());
        assert_eq!(s.left(), 4, "a failed search leaves the state as it was");
        let mut rng = Rng64::seed(9);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..300 {
            // 3 x 4 boards of 2 or 3 colours with every count even.
            let colors = rng.random_range(2..=3u8);
            let mut cells: Vec<u8> = (0..12).map(|_| rng.random_range(0..colors)).collect();
            for k in 0..colors {
                if cells.iter().filter(|&&c| c == k).count() % 2 == 1 {
                    let last = cells.iter().rposition(|&c| c == k).unwrap();
                    cells[last] = (k + 1) % colors;
                }
            }
            if cells.iter().filter(|&&c| c == 0).count() % 2 == 1 {
                continue;
            }
            let text: String =
                cells.chunks(4).map(|r| r.iter().map(|&k| char::from(b'0' + k)).collect::<String>() + "\n").collect();
            let Ok(board) = Board::parse(&text) else { continue };
            let mut state = State::new(&board);
            let found = Exact::default().clear(&mut state, u32::MAX);
            assert_eq!(found.is_some(), brute(3, 4, &mut cells.clone()), "{text}");
            if let Some(pairs) = found {
                yes += 1;
                assert_eq!(state.left(), 0);
                let moves: Vec<Move> =
                    pairs.iter().map(|&(a, b)| Move::new(Cell::new(a / 4, a % 4), Cell::new(b / 4, b % 4))).collect();
                let verdict = score(&board, &moves);
                assert!(verdict.invalid.is_none() && verdict.removed == 12, "{text}");
            } else {
                no += 1;
                assert_eq!(state.left(), 12);
            }
        }
        assert!(yes > 20 && no > 20, "both kinds are tried: {yes} cleared, {no} not");
    }
}
