//! A local search over a few tiles: many randomised greedy trials from one position, each undone
//! after it is scored, later ones replaying a prefix of the best so far.
//!
//! Both the region sweep (the tiles of the blocks visited so far) and ruin and recreate (the
//! tiles freed by a ruin) use it: the position is set up once, and every trial then costs only
//! the partner queries of the tiles in play, not a replay of the whole solution.

use rand::{Rng, RngExt};

use crate::moves::Move;
use crate::state::{EMPTY, State};

/// Shuffles `v` in place (Fisher-Yates).
pub fn shuffle<T>(v: &mut [T], rng: &mut impl Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}

/// A removal done by a trial, so that it can be undone: the two cells and their colour.
#[derive(Copy, Clone, Debug)]
struct Pair {
    a: usize,
    b: usize,
    k: u8,
}

/// The tiles in play and the buffers of the trials.
#[derive(Debug, Default)]
pub struct Local {
    /// The tiles in play (indices); set by the caller before [`Local::settle`].
    pub active: Vec<usize>,
    /// The first `front` active tiles are the ones that were left over before: half of the
    /// trials visit them first.
    pub front: usize,
    /// Pairs to take whenever they become removable, before any other (for ruin and recreate:
    /// the moves that the ruin made invalid, so that most of them come back as they were).
    pub preferred: Vec<(usize, usize)>,
    /// The share of trials in which the tiles of preferred pairs are paired only with each
    /// other for as long as that makes progress.
    pub hold: f64,
    /// Marks the tiles of the preferred pairs (by index), while a settle runs.
    held: Vec<bool>,
    order: Vec<usize>,
    partners: Vec<usize>,
    cur: Vec<Pair>,
    best: Vec<Pair>,
}

impl Local {
    /// A search over the tiles `active`, with the other settings at their defaults.
    pub fn over(active: Vec<usize>) -> Local {
        Local { active, ..Local::default() }
    }

    /// Searches the removals among the active tiles that leave the fewest of them, pairing them
    /// only with tiles marked in `allowed` (any tile if `None`). Stops after `patience` trials
    /// in a row without improvement, `max_trials` trials, or a clear. `state` is left as it was;
    /// returns the fewest active tiles left, whose removals [`Local::apply_best`] then applies.
    pub fn settle(
        &mut self,
        state: &mut State,
        rng: &mut impl Rng,
        allowed: Option<&[bool]>,
        patience: u32,
        max_trials: u32,
    ) -> usize {
        self.best.clear();
        self.held.resize(state.height() * state.width(), false);
        for &(a, b) in &self.preferred {
            (self.held[a], self.held[b]) = (true, true);
        }
        let mut best_left = usize::MAX;
        let (mut stale, mut trials) = (0, 0);
        while best_left > 0 && stale < patience && trials < max_trials {
            trials += 1;
            self.cur.clear();
            // After the first trial, half of them replay a prefix of the best (mostly long).
            if best_left < usize::MAX && rng.random_range(0..2) == 0 {
                let u = rng.random::<f64>();
                let keep = self.best.len() - (self.best.len() as f64 * u * u).ceil() as usize;
                for &q in &self.best[..keep] {
                    state.remove(q.a);
                    state.remove(q.b);
                    self.cur.push(q);
                }
            }
            self.trial(state, rng, allowed);
            let left = self.active.iter().filter(|&&i| state.at(i) != EMPTY).count();
            // Ties replace the best half of the time, so that the search drifts on plateaus.
            if left < best_left || (left == best_left && rng.random_range(0..2) == 0) {
                stale = if left < best_left { 0 } else { stale + 1 };
                best_left = left;
                std::mem::swap(&mut self.best, &mut self.cur);
                undo(state, &self.best);
            } else {
                stale += 1;
                undo(state, &self.cur);
            }
        }
        for &(a, b) in &self.preferred {
            (self.held[a], self.held[b]) = (false, false);
        }
        best_left
    }

    /// Applies the best trial's removals to `state`, appending them to `moves`.
    pub fn apply_best(&self, state: &mut State, moves: &mut Vec<Move>) {
        for q in &self.best {
            moves.push(Move::new(state.cell(q.a), state.cell(q.b)));
            state.remove(q.a);
            state.remove(q.b);
        }
    }

    /// One randomised greedy among the active tiles: sweeps over them in a shuffled order,
    /// pairing each with a random allowed partner, until a sweep removes nothing.
    fn trial(&mut self, state: &mut State, rng: &mut impl Rng, allowed: Option<&[bool]>) {
        self.order.clear();
        let present = |&i: &usize| state.at(i) != EMPTY;
        let front = if rng.random_range(0..2) == 0 { self.front.min(self.active.len()) } else { 0 };
        self.order.extend(self.active[..front].iter().copied().filter(present));
        let first = self.order.len();
        shuffle(&mut self.order, rng);
        self.order.extend(self.active[front..].iter().copied().filter(present));
        shuffle(&mut self.order[first..], rng);
        // While `hold`, the tiles of preferred pairs wait for their pair (see `held`).
        let mut hold = !self.preferred.is_empty() && rng.random::<f64>() < self.hold;
        loop {
            let before = state.left();
            for &(a, b) in &self.preferred {
                if state.can_remove(a, b) {
                    self.cur.push(Pair { a, b, k: state.at(a) });
                    state.remove(a);
                    state.remove(b);
                }
            }
            for &i in &self.order {
                if state.at(i) == EMPTY || (hold && self.held[i]) {
                    continue;
                }
                // Hot loop: the partner query walks the rows of the rectangle rule with masks.
                let partners = &mut self.partners;
                partners.clear();
                state.for_each_partner(i, |j| {
                    if allowed.is_none_or(|a| a[j]) {
                        partners.push(j);
                    }
                    true
                });
                if partners.is_empty() {
                    continue;
                }
                let j = partners[rng.random_range(0..partners.len())];
                self.cur.push(Pair { a: i, b: j, k: state.at(i) });
                state.remove(i);
                state.remove(j);
            }
            if state.left() == before {
                if !hold {
                    return;
                }
                hold = false;
            }
            self.order.retain(|&i| state.at(i) != EMPTY);
        }
    }
}

/// Undoes the removals `done`, last first.
fn undo(state: &mut State, done: &[Pair]) {
    for q in done.iter().rev() {
        state.restore(q.b, q.k);
        state.restore(q.a, q.k);
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::board::Board;
    use crate::judge::score;

    #[test]
    fn one_trial_over_every_tile_cannot_be_extended() {
        let board = crate::generator::generate(2);
        let mut state = State::new(&board);
        let mut local = Local::over(state.remaining());
        let left = local.settle(&mut state, &mut Rng64::seed(3), None, 1, 1);
        assert_eq!(state.left(), board.tiles(), "settle leaves the state as it was");
        let mut moves = Vec::new();
        local.apply_best(&mut state, &mut moves);
        assert_eq!(state.left(), left);
        assert!(score(&board, &moves).invalid.is_none());
        assert!(state.remaining().iter().all(|&i| !state.has_partner(i)));
        let tiny = Board::parse("01\n10\n").unwrap();
        let mut s = State::new(&tiny);
        let mut local = Local::over(s.remaining());
        assert_eq!(local.settle(&mut s, &mut Rng64::seed(1), None, 4, 4), 4, "a 2x2 checkerboard has no move");
    }
}
