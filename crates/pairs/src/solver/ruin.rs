//! Ruin and recreate around the tiles left over: drop every move that touches a square window
//! around a leftover tile, replay the rest in order (dropping the moves that the restored tiles
//! now block), finish with the randomised greedy, and keep the result if it leaves no more tiles.
//!
//! Unlike prefix reuse, the window cuts moves from anywhere in the sequence, so a tile stranded
//! by an early move can be rescued without redoing everything after it.

use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Stop};

use super::greedy::{Pick, Scratch, greedy, shuffle};
use crate::moves::Move;
use crate::state::State;

/// Settings of ruin and recreate.
#[derive(Clone, Debug, PartialEq)]
pub struct RuinParams {
    /// The largest window radius (Chebyshev distance around the chosen leftover tile).
    pub max_radius: usize,
    /// The largest box spanning two leftover tiles that is ruined whole.
    pub max_area: usize,
}

impl Default for RuinParams {
    fn default() -> Self {
        RuinParams { max_radius: 6, max_area: 400 }
    }
}

/// A rectangle of cells, rows `r0..=r1`, columns `c0..=c1`.
#[derive(Copy, Clone, Debug)]
struct Window {
    r0: usize,
    r1: usize,
    c0: usize,
    c1: usize,
}

impl Window {
    /// The square of cells within `radius` of `(r, c)`.
    fn around(r: usize, c: usize, radius: usize) -> Window {
        Window { r0: r.saturating_sub(radius), r1: r + radius, c0: c.saturating_sub(radius), c1: c + radius }
    }

    /// The bounding box of two cells, widened by `margin`.
    fn spanning((ra, ca): (usize, usize), (rb, cb): (usize, usize), margin: usize) -> Window {
        Window {
            r0: ra.min(rb).saturating_sub(margin),
            r1: ra.max(rb) + margin,
            c0: ca.min(cb).saturating_sub(margin),
            c1: ca.max(cb) + margin,
        }
    }

    fn area(self) -> usize {
        (self.r1 - self.r0 + 1) * (self.c1 - self.c0 + 1)
    }

    #[inline]
    fn holds(self, r: usize, c: usize) -> bool {
        (self.r0..=self.r1).contains(&r) && (self.c0..=self.c1).contains(&c)
    }
}

/// Improves `moves` (valid from `start`) until the board is clear or the budget stops; returns
/// the best moves and counts iterations in `iterations`.
pub fn improve(
    start: &State,
    moves: Vec<Move>,
    params: &RuinParams,
    budget: &mut Budget,
    rng: &mut Rng64,
    iterations: &mut u64,
) -> Vec<Move> {
    let mut cur = moves;
    let mut left = leftover(start, &cur);
    let mut scratch = Scratch::default();
    let mut first = Vec::new();
    let mut next = Vec::with_capacity(cur.len() + 1);
    while !left.is_empty() && !budget.should_stop(1) {
        *iterations += 1;
        let window = choose_window(start.width(), &left, params, rng);
        let mut state = start.clone();
        next.clear();
        replay_outside(&mut state, &cur, window, &mut next);
        // Half of the time the stranded tiles choose first.
        first.clear();
        if rng.below(2) == 0 {
            first.extend_from_slice(&left);
            shuffle(&mut first, rng);
        }
        let pick = if rng.below(4) == 0 { Pick::Nearest } else { Pick::Random };
        greedy(&mut state, rng, pick, &first, &mut next, &mut scratch);
        if state.left() <= left.len() {
            std::mem::swap(&mut cur, &mut next);
            left = state.remaining();
        }
    }
    cur
}

/// Half of the time a square around a leftover tile; otherwise the box spanning two leftover
/// tiles (a deadlock between far tiles is undone there), unless that box is too large.
fn choose_window(w: usize, left: &[usize], params: &RuinParams, rng: &mut Rng64) -> Window {
    let pick = |rng: &mut Rng64| {
        let t = left[rng.below(left.len() as u64) as usize];
        (t / w, t % w)
    };
    let a = pick(rng);
    if rng.below(2) == 0 {
        let window = Window::spanning(a, pick(rng), rng.below(3) as usize);
        if window.area() <= params.max_area {
            return window;
        }
    }
    let u = rng.unit();
    Window::around(a.0, a.1, 1 + (u * u * params.max_radius as f64) as usize)
}

/// Replays `moves` on `state`, skipping those with a tile in `window` and those that are no
/// longer valid; the moves kept are pushed to `out`.
fn replay_outside(state: &mut State, moves: &[Move], window: Window, out: &mut Vec<Move>) {
    for &m in moves {
        let holds = |c: crate::board::Cell| window.holds(usize::from(c.r), usize::from(c.c));
        if holds(m.a) || holds(m.b) {
            continue;
        }
        let (a, b) = (state.index(m.a), state.index(m.b));
        // Tiles restored inside the window may now block a later move.
        if state.can_remove(a, b) {
            state.remove(a);
            state.remove(b);
            out.push(m);
        }
    }
}

/// The tiles `moves` leave on `start`.
fn leftover(start: &State, moves: &[Move]) -> Vec<usize> {
    let mut s = start.clone();
    for &m in moves {
        s.apply(m);
    }
    s.remaining()
}
