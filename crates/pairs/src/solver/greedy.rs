//! The randomised greedy: visit the tiles left in a shuffled order, pair each with a random
//! partner if it has one, and sweep again until a sweep removes nothing. The result cannot be
//! extended. The solver uses it to finish a construction that ran out of time.

use rand::{Rng, RngExt};

use crate::moves::Move;
use crate::state::{EMPTY, State};

/// Shuffles `v` in place (Fisher-Yates).
pub fn shuffle<T>(v: &mut [T], rng: &mut impl Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}

/// Runs the greedy on `state`, appending its moves.
pub fn greedy(state: &mut State, rng: &mut impl Rng, moves: &mut Vec<Move>) {
    let mut order = state.remaining();
    shuffle(&mut order, rng);
    let mut partners = Vec::new();
    loop {
        let before = state.left();
        for &i in &order {
            if state.at(i) == EMPTY {
                continue;
            }
            partners.clear();
            state.for_each_partner(i, |j| {
                partners.push(j);
                true
            });
            if !partners.is_empty() {
                let j = partners[rng.random_range(0..partners.len())];
                moves.push(Move::new(state.cell(i), state.cell(j)));
                state.remove(i);
                state.remove(j);
            }
        }
        if state.left() == before {
            return;
        }
        order.retain(|&i| state.at(i) != EMPTY);
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::board::Board;
    use crate::judge::score;

    #[test]
    fn the_greedy_cannot_be_extended() {
        let board = crate::generator::generate(2);
        let mut state = State::new(&board);
        let mut moves = Vec::new();
        greedy(&mut state, &mut Rng64::seed(3), &mut moves);
        assert!(score(&board, &moves).invalid.is_none());
        assert!(state.remaining().iter().all(|&i| !state.has_partner(i)));
        let tiny = Board::parse("01\n10\n").unwrap();
        let mut s = State::new(&tiny);
        greedy(&mut s, &mut Rng64::seed(1), &mut Vec::new());
        assert_eq!(s.left(), 4, "no pair of a 2x2 checkerboard is removable");
    }
}
