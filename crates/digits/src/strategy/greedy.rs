//! The simple greedy of the seed write-up: nines on top, other digits below, tallest tower first.

use crate::state::State;
use crate::strategy::Strategy;

/// A nine goes on the tallest tower that is not full (so it tops a tower as soon as one has a
/// single place left); any other digit goes on the tallest tower with at least two places left,
/// keeping the top places free for nines, unless there is none.
///
/// "Tallest first" is the write-up's "leftmost tower first": towers are filled one at a time.
#[derive(Copy, Clone, Debug, Default)]
pub struct Greedy;

impl Strategy for Greedy {
    fn choose(&self, state: &State, digit: u8) -> u32 {
        let b = state.b();
        let any = state.tallest_below(b);
        let pick = if digit == 9 { any } else { state.tallest_below(b - 1).or(any) };
        pick.unwrap_or_else(|| panic!("no move left in {state:?}"))
    }
}
