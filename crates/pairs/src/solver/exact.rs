//! An exhaustive search that clears a small set of tiles, or shows that it cannot within a
//! number of positions: the recreation of ruin and recreate, when a ruin leaves few tiles.
//!
//! Removing tiles only opens cells, so only which pairs are taken matters, not when: a position
//! is the set of tiles present (a bit per tile), and a position that failed once fails again,
//! whatever the path to it. For the same reason each same-colour pair is looked at once, up front:
//! the tiles of other colours in its rectangle (its blockers) are a bit set, and the pair is
//! removable in a position when none of them is present.
//!
//! Pairs can be given as fixed: their tiles go together, and the search pairs only the others.
//! Ruin and recreate fixes the moves that the tiles it re-pairs happened to block, which keeps the
//! search small.
//!
//! Three rules cut the search without losing a clear:
//! * **A fixed pair**, or **a colour with two free tiles left**: those tiles must go together, and
//!   removing them as soon as they can be only opens cells for the rest, so that move is the only
//!   one tried.
//! * **A deadlock**: if every tile of a set has a blocker from the set in each of its pairs, no
//!   tile of the set can go first, so the position cannot be cleared. The largest such set is
//!   found by freeing, until nothing changes, the tiles with a pair whose blockers are all free.

use std::collections::HashSet;

use crate::state::State;

/// The most tiles an exact search takes (a position is a bit set of them).
pub const MAX_TILES: usize = 64;

/// A same-colour pair of tiles (by their index in the search) and its blockers.
#[derive(Copy, Clone, Debug)]
struct Pair {
    a: u8,
    b: u8,
    /// Their colour.
    k: u8,
    /// A pair given as fixed: taken as soon as it is removable.
    fixed: bool,
    /// The tiles of other colours inside the pair's rectangle.
    blockers: u64,
}

/// Buffers of the exact search.
#[derive(Debug, Default)]
pub struct Exact {
    /// The board index of each tile.
    tiles: Vec<usize>,
    /// The tiles of each colour.
    of_color: Vec<u64>,
    pairs: Vec<Pair>,
    dead: HashSet<u64>,
    /// The moves of the positions on the current path, each position's above its parent's.
    moves: Vec<(u8, u8, u8)>,
    /// The pairs removed on the current path.
    path: Vec<(u8, u8)>,
    /// The pairs of the position being expanded whose tiles are both present, their blockers
    /// cut down to the present ones.
    here: Vec<Pair>,
}

impl Exact {
    /// Looks for removals that clear every tile present on `state` (at most [`MAX_TILES`] of
    /// them), visiting at most `limit` positions; the `fixed` pairs (board indices of two present
    /// tiles of one colour) are removed as they are, the other tiles pair freely. On success the
    /// removals are applied to `state` and returned in order; otherwise `state` is left as it was.
    pub fn clear(&mut self, state: &mut State, fixed: &[(usize, usize)], limit: u32) -> Option<Vec<(usize, usize)>> {
        self.tiles = state.remaining();
        let n = self.tiles.len();
        if n > MAX_TILES {
            return None;
        }
        self.prepare(state, fixed);
        self.dead.clear();
        self.moves.clear();
        self.path.clear();
        let mut budget = limit;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        if !self.search(all, &mut budget) {
            return None;
        }
        let removals: Vec<(usize, usize)> =
            self.path.iter().map(|&(a, b)| (self.tiles[usize::from(a)], self.tiles[usize::from(b)])).collect();
        for &(a, b) in &removals {
            state.remove(a);
            state.remove(b);
        }
        Some(removals)
    }

    /// The fixed pairs and every same-colour pair of free tiles, with their blockers, and the free
    /// tiles of each colour.
    fn prepare(&mut self, state: &State, fixed: &[(usize, usize)]) {
        let w = state.width();
        let cell = |t: usize| (t / w, t % w);
        let blockers = |a: usize, b: usize| {
            let ((ra, ca), (rb, cb), k) = (cell(a), cell(b), state.at(a));
            let (rows, cols) = (ra.min(rb)..=ra.max(rb), ca.min(cb)..=ca.max(cb));
            self.tiles.iter().enumerate().fold(0u64, |m, (z, &t)| {
                let (r, c) = cell(t);
                if state.at(t) != k && rows.contains(&r) && cols.contains(&c) { m | 1 << z } else { m }
            })
        };
        let slot = |t: usize| self.tiles.binary_search(&t).expect("a fixed pair's tiles are present") as u8;
        self.pairs.clear();
        let mut taken = 0u64;
        for &(a, b) in fixed {
            let (x, y) = (slot(a), slot(b));
            taken |= 1 << x | 1 << y;
            self.pairs.push(Pair { a: x, b: y, k: state.at(a), fixed: true, blockers: blockers(a, b) });
        }
        self.of_color.clear();
        self.of_color.resize(state.colors(), 0);
        let free: Vec<(usize, usize)> =
            self.tiles.iter().copied().enumerate().filter(|&(x, _)| taken >> x & 1 == 0).collect();
        for &(x, t) in &free {
            self.of_color[usize::from(state.at(t))] |= 1 << x;
        }
        for (i, &(x, a)) in free.iter().enumerate() {
            for &(y, b) in free[i + 1..].iter().filter(|&&(_, b)| state.at(b) == state.at(a)) {
                self.pairs.push(Pair {
                    a: x as u8,
                    b: y as u8,
                    k: state.at(a),
                    fixed: false,
                    blockers: blockers(a, b),
                });
            }
        }
    }

    /// Collects into `here` the pairs whose tiles are both present, with the blockers present.
    fn gather(&mut self, present: u64) {
        self.here.clear();
        // Hot loop: one pass over every pair per position; the tests below see only these.
        for p in &self.pairs {
            if present >> p.a & present >> p.b & 1 == 1 {
                self.here.push(Pair { blockers: p.blockers & present, ..*p });
            }
        }
    }

    /// Whether some tiles of the position form a deadlock (see the module's documentation);
    /// takes the pairs [`Exact::gather`] collected, and uses them up.
    ///
    /// Freeing is monotone, so the tiles left stuck at the end do not depend on the order in
    /// which pairs free them: each pass frees as it goes, and drops the pairs it used and those
    /// whose tiles are both free already, so later passes look at fewer pairs.
    fn deadlocked(&mut self, present: u64) -> bool {
        let live = &mut self.here;
        let mut stuck = present;
        loop {
            let before = stuck;
            let mut i = 0;
            // Hot loop: a pair whose blockers are all free frees its tiles; the pairs that can
            // free nothing more are swapped out of the list.
            while i < live.len() {
                let p = live[i];
                let tiles = 1u64 << p.a | 1u64 << p.b;
                if p.blockers & stuck == 0 {
                    stuck &= !tiles;
                }
                if tiles & stuck == 0 {
                    live.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if stuck == 0 {
                return false;
            }
            if stuck == before {
                return true;
            }
        }
    }

    /// Depth first from the position `present`; `true` once every tile is gone, with the
    /// removals listed in `path`.
    fn search(&mut self, present: u64, budget: &mut u32) -> bool {
        if present == 0 {
            return true;
        }
        if *budget == 0 || self.dead.contains(&present) {
            return false;
        }
        *budget -= 1;
        let base = self.moves.len();
        self.gather(present);
        if !self.push_moves(present) || self.deadlocked(present) {
            self.moves.truncate(base);
            self.dead.insert(present);
            return false;
        }
        for i in base..self.moves.len() {
            let (_, a, b) = self.moves[i];
            self.path.push((a, b));
            if self.search(present & !(1 << a | 1 << b), budget) {
                return true;
            }
            self.path.pop();
            if *budget == 0 {
                break;
            }
        }
        self.moves.truncate(base);
        if *budget > 0 {
            self.dead.insert(present);
        }
        false
    }

    /// Pushes the removable pairs of `present` (among those [`Exact::gather`] collected) onto
    /// `moves`, those of the tiles with the fewest first; or only one, if a fixed pair or the pair
    /// of a colour down to two free tiles is removable. `false` if there is none.
    fn push_moves(&mut self, present: u64) -> bool {
        let base = self.moves.len();
        let mut count = [0u8; MAX_TILES];
        for p in self.here.iter().filter(|p| p.blockers == 0) {
            if p.fixed || (self.of_color[usize::from(p.k)] & present).count_ones() == 2 {
                self.moves.truncate(base);
                self.moves.push((0, p.a, p.b));
                return true;
            }
            count[usize::from(p.a)] += 1;
            count[usize::from(p.b)] += 1;
            self.moves.push((0, p.a, p.b));
        }
        for m in &mut self.moves[base..] {
            m.0 = count[usize::from(m.1)].min(count[usize::from(m.2)]);
        }
        self.moves[base..].sort_unstable();
        self.moves.len() > base
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

    /// Whether `cells` (`h` rows, `u8::MAX` for empty) can be cleared with the `fixed` pairs kept
    /// together, by trying every removable pair at every step: the rectangle rule checked cell by
    /// cell, apart from [`State`].
    fn brute(h: usize, w: usize, cells: &mut Vec<u8>, fixed: &[(usize, usize)]) -> bool {
        let tiles: Vec<usize> = (0..h * w).filter(|&i| cells[i] != u8::MAX).collect();
        if tiles.is_empty() {
            return true;
        }
        let in_fixed = |t: usize| fixed.iter().any(|&(a, b)| a == t || b == t);
        for (x, &a) in tiles.iter().enumerate() {
            for &b in &tiles[x + 1..] {
                let allowed = fixed.contains(&(a, b)) || !in_fixed(a) && !in_fixed(b);
                let k = cells[a];
                let (r0, r1) = ((a / w).min(b / w), (a / w).max(b / w));
                let (c0, c1) = ((a % w).min(b % w), (a % w).max(b % w));
                let clear = (r0..=r1).all(|r| (c0..=c1).all(|c| cells[r * w + c] == k || cells[r * w + c] == u8::MAX));
                if allowed && cells[b] == k && clear {
                    (cells[a], cells[b]) = (u8::MAX, u8::MAX);
                    let found = brute(h, w, cells, fixed);
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
        assert!(Exact::default().clear(&mut s, &[], 1000).is_none());
        assert_eq!(s.left(), 4, "a failed search leaves the state as it was");
        let mut rng = Rng64::seed(9);
        let (mut yes, mut no, mut fixed_yes) = (0, 0, 0);
        for _ in 0..600 {
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
            // Every other board, one pair of each colour is fixed: its first tile and another.
            let mut fixed = Vec::new();
            if rng.random_range(0..2) == 0 {
                for k in 0..colors {
                    let of_k: Vec<usize> = (0..12).filter(|&i| cells[i] == k).collect();
                    if of_k.is_empty() {
                        continue;
                    }
                    fixed.push((of_k[0], of_k[rng.random_range(1..of_k.len())]));
                }
            }
            let mut state = State::new(&board);
            let found = Exact::default().clear(&mut state, &fixed, u32::MAX);
            assert_eq!(found.is_some(), brute(3, 4, &mut cells.clone(), &fixed), "{text} {fixed:?}");
            if let Some(pairs) = found {
                yes += 1;
                fixed_yes += usize::from(!fixed.is_empty());
                assert_eq!(state.left(), 0);
                assert!(fixed.iter().all(|f| pairs.contains(f)), "the fixed pairs go together");
                let moves: Vec<Move> =
                    pairs.iter().map(|&(a, b)| Move::new(Cell::new(a / 4, a % 4), Cell::new(b / 4, b % 4))).collect();
                let verdict = score(&board, &moves);
                assert!(verdict.invalid.is_none() && verdict.removed == 12, "{text}");
            } else {
                no += 1;
                assert_eq!(state.left(), 12);
            }
        }
        assert!(
            yes > 40 && no > 40 && fixed_yes > 10,
            "all kinds are tried: {yes} cleared ({fixed_yes} with fixed pairs), {no} not"
        );
    }
}
