//! Ruin and recreate around the tiles left over: drop every move that touches a square window
//! around a leftover tile, replay the rest in order (dropping the moves that the restored tiles
//! now block), finish with the randomised greedy, and keep the result if it leaves no more tiles.
//!
//! Unlike prefix reuse, the window cuts moves from anywhere in the sequence, so a tile stranded
//! by an early move can be rescued without redoing everything after it. Some ruins use no window:
//! leftover tiles take the place of earlier tiles of their colour instead, each in a move it can
//! be removed with at that point of the sequence; or one move anywhere is dropped, far from the
//! leftovers, which changes what the moves after it leave open.

use rand::{Rng, RngExt};
use tessera_core::runtime::{Budget, Stop};

use super::exact::Exact;
use super::local::{Local, shuffle};
use crate::moves::Move;
use crate::state::{EMPTY, State};

/// Settings of ruin and recreate.
#[derive(Clone, Debug, PartialEq)]
pub struct RuinParams {
    /// The largest window radius (Chebyshev distance around the chosen leftover tile).
    pub max_radius: usize,
    /// The largest box spanning two leftover tiles that is ruined whole.
    pub max_area: usize,
    /// Recreations in a row without improvement before a ruin is given up.
    pub patience: u32,
    /// The most recreations per ruin.
    pub max_trials: u32,
    /// The share of recreations that first restore the moves the ruin invalidated (see
    /// [`Local::hold`]).
    pub hold: f64,
    /// The acceptance temperature, in tiles (0: never accept a worse solution).
    pub temperature: f64,
    /// The share of ruins that drop one move drawn from the whole sequence instead of clearing a
    /// window.
    pub single: f64,
    /// The share of the other ruins that hand tiles of earlier moves to leftover tiles instead
    /// of clearing a window.
    pub swap: f64,
    /// The share of ruins, when at most `exact_left` tiles are left, that keep back up to
    /// `exact_moves` moves of the leftovers' colours and pair what is left at the end by an
    /// exhaustive search of at most `exact_positions` positions.
    pub exact: f64,
    /// See `exact`.
    pub exact_left: usize,
    /// See `exact`.
    pub exact_moves: usize,
    /// See `exact`.
    pub exact_positions: u32,
}

impl Default for RuinParams {
    fn default() -> Self {
        RuinParams {
            max_radius: 6,
            max_area: 400,
            patience: 4,
            max_trials: 16,
            hold: 0.5,
            temperature: 3.0,
            single: 0.35,
            swap: 0.3,
            exact: 0.3,
            exact_left: 8,
            exact_moves: 4,
            exact_positions: 3000,
        }
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

/// Improves `moves` (valid from `start`) until the board is clear, the budget stops, or `stall`
/// ruins in a row have not improved on the best; returns the best moves and the tiles they leave,
/// and counts ruins in `iterations`.
pub fn improve(
    start: &State,
    moves: Vec<Move>,
    params: &RuinParams,
    stall: u64,
    budget: &mut Budget,
    rng: &mut impl Rng,
    iterations: &mut u64,
) -> (Vec<Move>, usize) {
    let mut cur = moves;
    let mut left = leftover(start, &cur);
    let mut best = (left.len(), cur.clone());
    let mut since_best = 0;
    let mut local = Local::default();
    let (mut exact, mut kept, mut fixed) = (Exact::default(), Vec::new(), Vec::new());
    local.hold = params.hold;
    let mut next = Vec::with_capacity(cur.len() + 1);
    while !left.is_empty() && since_best < stall && !budget.should_stop(1) {
        *iterations += 1;
        since_best += 1;
        let mut state = start.clone();
        next.clear();
        local.preferred.clear();
        if left.len() <= params.exact_left && rng.random::<f64>() < params.exact {
            // Some moves of the leftovers' colours are kept back to the end, where an
            // exhaustive search pairs what is left: its success clears the board. The moves
            // they block of the other colours stay as they were (fixed), which keeps the
            // search small; those of the leftovers' colours may pair anew.
            choose_kept(start, &cur, &left, params.exact_moves, rng, &mut kept);
            fixed.clear();
            replay_keeping(&mut state, &cur, &kept, &mut next, &mut fixed);
            fixed.retain(|&(a, _)| !left.iter().any(|&t| start.at(t) == start.at(a)));
            if let Some(pairs) = exact.clear(&mut state, &fixed, params.exact_positions) {
                next.extend(pairs.iter().map(|&(a, b)| Move::new(start.cell(a), start.cell(b))));
                return (next, 0);
            }
            // Otherwise the recreation below pairs what is left, as after any ruin.
        } else if !cur.is_empty() && rng.random::<f64>() < params.single {
            // A small change far from the leftovers: the replay after it may take other ways.
            let skip = rng.random_range(0..cur.len());
            replay_without(&mut state, &cur, skip, &mut next, &mut local.preferred);
        } else if rng.random::<f64>() < params.swap {
            let mut waiting = left.clone();
            shuffle(&mut waiting, rng);
            waiting.truncate(rng.random_range(1..=waiting.len()));
            let from = rng.random_range(0..cur.len().max(1));
            replay_swapping(&mut state, &cur, from, &mut waiting, &mut next, &mut local.preferred);
        } else {
            let window = choose_window(start.width(), &left, params, rng);
            replay_outside(&mut state, &cur, window, &mut next, &mut local.preferred);
        }
        // The replay is the costly part: several recreations are tried from it.
        // The tiles left over before go first in the list (see `Local::front`).
        local.active.clear();
        local.active.extend(left.iter().copied().filter(|&i| state.at(i) != EMPTY));
        local.front = local.active.len();
        local.active.extend(state.remaining().into_iter().filter(|i| !left.contains(i)));
        let found = local.settle(&mut state, rng, None, params.patience, params.max_trials);
        // Annealing-style acceptance: no worse always, worse by `d` tiles with chance
        // exp(-d / temperature), so that a deadlock can be left through a worse position.
        let worse = found.saturating_sub(left.len()) as f64;
        if worse == 0.0 || rng.random::<f64>() < (-worse / params.temperature.max(1e-9)).exp() {
            local.apply_best(&mut state, &mut next);
            std::mem::swap(&mut cur, &mut next);
            left = state.remaining();
            if left.len() < best.0 {
                best = (left.len(), cur.clone());
                since_best = 0;
            }
        }
    }
    (best.1, best.0)
}

/// Half of the time a square around a leftover tile; otherwise the box spanning two leftover
/// tiles (a deadlock between far tiles is undone there), unless that box is too large.
fn choose_window(w: usize, left: &[usize], params: &RuinParams, rng: &mut impl Rng) -> Window {
    let cell = |t: usize| (t / w, t % w);
    let a = cell(left[rng.random_range(0..left.len())]);
    if rng.random_range(0..2) == 0 {
        let window = Window::spanning(a, cell(left[rng.random_range(0..left.len())]), rng.random_range(0..3));
        if window.area() <= params.max_area {
            return window;
        }
    }
    let u = rng.random::<f64>();
    Window::around(a.0, a.1, 1 + (u * u * params.max_radius as f64) as usize)
}

/// Replays `moves` on `state`, skipping those with a tile in `window` and those that are no
/// longer valid; the moves kept are pushed to `out`, the cells of those no longer valid to
/// `deferred`.
fn replay_outside(
    state: &mut State,
    moves: &[Move],
    window: Window,
    out: &mut Vec<Move>,
    deferred: &mut Vec<(usize, usize)>,
) {
    let holds = |c: crate::board::Cell| window.holds(usize::from(c.r), usize::from(c.c));
    replay_except(state, moves, |_, m| holds(m.a) || holds(m.b), out, deferred);
}

/// Replays `moves` on `state` but the one at index `skip`, as [`replay_outside`] does.
fn replay_without(
    state: &mut State,
    moves: &[Move],
    skip: usize,
    out: &mut Vec<Move>,
    deferred: &mut Vec<(usize, usize)>,
) {
    replay_except(state, moves, |i, _| i == skip, out, deferred);
}

/// Replays the moves that are not `dropped` (given their index), as [`replay_outside`] does.
pub(super) fn replay_except(
    state: &mut State,
    moves: &[Move],
    dropped: impl Fn(usize, Move) -> bool,
    out: &mut Vec<Move>,
    deferred: &mut Vec<(usize, usize)>,
) {
    for (i, &m) in moves.iter().enumerate() {
        // Tiles restored by the ruin may now block a later move.
        if !dropped(i, m) && !replay_move(state, m, out) {
            deferred.push((state.index(m.a), state.index(m.b)));
        }
    }
}

/// Applies `m` and appends it to `out` if it is still valid; `false` if it is not.
fn replay_move(state: &mut State, m: Move, out: &mut Vec<Move>) -> bool {
    let (a, b) = (state.index(m.a), state.index(m.b));
    let valid = state.can_remove(a, b);
    if valid {
        state.remove(a);
        state.remove(b);
        out.push(m);
    }
    valid
}

/// Marks in `kept` (one flag per move) up to `most` moves, at least one, of the colours of the
/// tiles `left`, drawn at random.
fn choose_kept(start: &State, moves: &[Move], left: &[usize], most: usize, rng: &mut impl Rng, kept: &mut Vec<bool>) {
    kept.clear();
    kept.resize(moves.len(), false);
    let of_left = |m: &Move| left.iter().any(|&t| start.at(t) == start.at(start.index(m.a)));
    let candidates: Vec<usize> = (0..moves.len()).filter(|&i| of_left(&moves[i])).collect();
    if candidates.is_empty() {
        return;
    }
    for _ in 0..rng.random_range(1..=most.max(1)) {
        kept[candidates[rng.random_range(0..candidates.len())]] = true;
    }
}

/// Replays the moves not `kept` on `state`, in order; the kept tiles stay, and so do those of
/// the moves they block, which are dropped from `out` and listed in `blocked`.
fn replay_keeping(
    state: &mut State,
    moves: &[Move],
    kept: &[bool],
    out: &mut Vec<Move>,
    blocked: &mut Vec<(usize, usize)>,
) {
    for (&m, _) in moves.iter().zip(kept).filter(|&(_, &k)| !k) {
        if !replay_move(state, m, out) {
            blocked.push((state.index(m.a), state.index(m.b)));
        }
    }
}

/// Replays `moves` on `state`; from index `from` on, a move of the colour of a tile in
/// `waiting` gives one of its tiles to that tile instead, if the two can be removed then, and its
/// other tile is left for the recreation (each waiting tile takes one such tile). Moves no
/// longer valid are deferred as in [`replay_outside`].
///
/// This undoes a deadlock of leftover tiles from afar: a leftover tile takes the place of an
/// earlier tile of its colour, and the tile that loses its partner is often free to pair with
/// another leftover at the end.
fn replay_swapping(
    state: &mut State,
    moves: &[Move],
    from: usize,
    waiting: &mut Vec<usize>,
    out: &mut Vec<Move>,
    deferred: &mut Vec<(usize, usize)>,
) {
    'moves: for (i, &m) in moves.iter().enumerate() {
        let (a, b) = (state.index(m.a), state.index(m.b));
        if i >= from {
            for (wi, &t) in waiting.iter().enumerate() {
                for x in [a, b] {
                    if state.can_remove(t, x) {
                        state.remove(t);
                        state.remove(x);
                        out.push(Move::new(state.cell(t), state.cell(x)));
                        waiting.swap_remove(wi);
                        continue 'moves;
                    }
                }
            }
        }
        if !replay_move(state, m, out) {
            deferred.push((a, b));
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

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::board::Board;
    use crate::judge::score;

    #[test]
    fn a_leftover_tile_takes_an_earlier_tiles_place() {
        // The 0s at (0, 1) and (0, 2) were paired, leaving (0, 0) and (0, 3); handing (0, 1) to
        // (0, 0) leaves (0, 2) for (0, 3), and the 1s are replayed as they were.
        let board = Board::parse("0000\n1111\n").unwrap();
        let cell = |r, c| crate::board::Cell::new(r, c);
        let cur =
            [Move::new(cell(0, 1), cell(0, 2)), Move::new(cell(1, 0), cell(1, 1)), Move::new(cell(1, 2), cell(1, 3))];
        let mut state = State::new(&board);
        let (mut out, mut deferred) = (Vec::new(), Vec::new());
        let mut waiting = vec![0];
        replay_swapping(&mut state, &cur, 0, &mut waiting, &mut out, &mut deferred);
        assert!(waiting.is_empty() && deferred.is_empty());
        assert_eq!(out, [Move::new(cell(0, 0), cell(0, 1)), cur[1], cur[2]]);
        assert_eq!(state.remaining(), [2, 3]);
        assert!(state.can_remove(2, 3));
        let verdict = score(&board, &out);
        assert!(verdict.invalid.is_none());
        assert_eq!(verdict.total - verdict.removed, state.left());
        // From a later index the first move is replayed as it was.
        let mut state = State::new(&board);
        let (mut out, mut waiting) = (Vec::new(), vec![0]);
        replay_swapping(&mut state, &cur, 1, &mut waiting, &mut out, &mut deferred);
        assert_eq!((out, waiting), (cur.to_vec(), vec![0]));
    }

    #[test]
    fn improving_keeps_the_moves_valid_and_never_worse() {
        let board = crate::generator::generate(14); // 16 x 22, 6 colours
        let start = State::new(&board);
        let mut rng = Rng64::seed(2);
        let mut local = Local::over(start.remaining());
        let mut state = start.clone();
        local.settle(&mut state, &mut rng, None, 1, 1);
        let mut greedy = Vec::new();
        local.apply_best(&mut state, &mut greedy);
        let before = state.left();
        let swaps = RuinParams { swap: 0.5, single: 0.0, ..RuinParams::default() };
        let singles = RuinParams { single: 1.0, ..RuinParams::default() };
        // Every ruin an exhaustive search of what a few kept-back moves leave.
        let exact = RuinParams { exact: 1.0, exact_left: usize::MAX, ..RuinParams::default() };
        for params in [swaps, singles, exact] {
            let (mut budget, mut iterations) = (Budget::unlimited(), 0);
            let (moves, left) = improve(&start, greedy.clone(), &params, 300, &mut budget, &mut rng, &mut iterations);
            let verdict = score(&board, &moves);
            assert!(verdict.invalid.is_none(), "{:?}", verdict.invalid);
            assert_eq!(verdict.total - verdict.removed, left);
            assert!(left <= before, "{left} > {before}");
        }
    }

    #[test]
    fn a_dropped_move_defers_the_moves_it_opened() {
        // The 0s at the ends can go only after the 1s between them.
        let board = Board::parse("0110\n").unwrap();
        let cell = |r, c| crate::board::Cell::new(r, c);
        let cur = [Move::new(cell(0, 1), cell(0, 2)), Move::new(cell(0, 0), cell(0, 3))];
        let (mut state, mut out, mut deferred) = (State::new(&board), Vec::new(), Vec::new());
        replay_without(&mut state, &cur, 0, &mut out, &mut deferred);
        assert_eq!((out, deferred, state.left()), (vec![], vec![(0, 3)], 4));
        let (mut state, mut out, mut deferred) = (State::new(&board), Vec::new(), Vec::new());
        replay_without(&mut state, &cur, 1, &mut out, &mut deferred);
        assert_eq!((out, deferred, state.remaining()), (vec![cur[0]], vec![], vec![0, 3]));
    }

    #[test]
    fn kept_moves_stay_to_the_end_with_the_moves_they_block() {
        // The 1s in column 1 are kept back: the 0s that were paired across them stay too.
        let board = Board::parse("0100\n0100\n").unwrap();
        let cell = |r, c| crate::board::Cell::new(r, c);
        let cur = [
            Move::new(cell(0, 1), cell(1, 1)),
            Move::new(cell(0, 0), cell(0, 2)),
            Move::new(cell(1, 0), cell(1, 2)),
            Move::new(cell(0, 3), cell(1, 3)),
        ];
        let start = State::new(&board);
        let (mut state, mut out) = (start.clone(), Vec::new());
        let mut blocked = Vec::new();
        replay_keeping(&mut state, &cur, &[true, false, false, false], &mut out, &mut blocked);
        assert_eq!(blocked, [(0, 2), (4, 6)]);
        assert_eq!(out, [cur[3]]);
        assert_eq!(state.remaining(), [0, 1, 2, 4, 5, 6]);
        let mut kept = Vec::new();
        choose_kept(&start, &cur, &[1], 3, &mut Rng64::seed(1), &mut kept);
        assert_eq!(kept, [true, false, false, false], "only the move of 1s can be kept for a 1");
    }
}
