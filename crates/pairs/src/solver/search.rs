//! The search: rounds of ruin and recreate until it stalls, keeping the best answer; it stops as
//! soon as the board is clear.
//!
//! Ruin and recreate is a local search with a heavy tail: most runs clear a board quickly, a few
//! get stuck on one deadlock for a long time. A round therefore ends after a number of ruins
//! without progress, and a new round starts; that number grows from round to round, so that a
//! board that needs a long search still gets it.
//!
//! The first round starts from a region sweep. A round after the first starts from the best
//! answer so far, not from a fresh sweep: every move that touches a random band of columns is
//! undone and the band is paired anew. What the search had right elsewhere is kept, and the
//! band shakes it out of the deadlock the last round stalled in; the random band keeps the
//! rounds diverse.
//!
//! On a small board an exact search ([`Decider`]) shares the time with the rounds once the first
//! half second has passed: it clears some boards the rounds miss, and proves others impossible.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::{Rng, RngExt};
use serde::Serialize;
use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, Stop, Verdict, portfolio};

use super::local::Local;
use super::prove::Decider;
use super::region::{RegionParams, RegionScratch, region_sweep};
use super::ruin::{RuinParams, improve, replay_except};
use crate::board::{Board, Cell};
use crate::moves::Move;
use crate::state::State;

/// Settings of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Settings of the region sweep that starts the first round (its trial counts also pair the
    /// band of a later round's kick).
    pub region: RegionParams,
    /// The largest share of the time left that one region sweep may take.
    pub construct_share: f64,
    /// Settings of ruin and recreate.
    pub ruin: RuinParams,
    /// Ruins without improvement that end the first round.
    pub stall: u64,
    /// The factor by which that number grows from one round to the next.
    pub stall_growth: f64,
    /// The share of the rounds after the first that start from the best answer with a band of
    /// columns undone, instead of from a fresh region sweep.
    pub kick: f64,
    /// The width of that band, as a share of the board's width (at least one column).
    pub kick_band: f64,
    /// On a board of at most [`MAX_TILES`](super::prove::MAX_TILES) tiles, the seconds after
    /// which an exact search ([`Decider`]) runs between the rounds, each time for as long as
    /// the round before it took (`None`: never).
    pub prove_after: Option<f64>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            region: RegionParams::default(),
            construct_share: 0.3,
            ruin: RuinParams::default(),
            stall: 120,
            stall_growth: 1.3,
            kick: 1.0,
            kick_band: 0.15,
            prove_after: Some(0.5),
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[must_use]
pub struct Solution {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Tiles left.
    pub left: usize,
    /// Rounds and ruins made.
    pub iterations: u64,
    /// Wall time.
    pub seconds: f64,
    /// Whether the search ended by clearing the board, or was stopped.
    pub outcome: Outcome,
    /// Whether the exact search proved that no moves clear the board.
    pub impossible: bool,
}

/// Runs `threads` independent searches (solver seeds `seed`, `seed + 1`, ...) within the budget:
/// the first to clear the board wins, else the one with the fewest tiles left.
///
/// One search runs on the calling thread: starting a worker thread costs a small board's
/// process about a tenth of its time, and no search here needs a deep stack (the deepest
/// recursion, deciding a board exactly, goes one level per pair removed: at most 128).
pub fn solve_portfolio(board: &Board, params: &Params, threads: usize, budget: &Budget, seed: u64) -> Solution {
    if threads <= 1 {
        return solve(board, params, &mut budget.fork(), &mut Rng64::seed(seed));
    }
    let best = Mutex::new(None::<Solution>);
    let impossible = std::sync::atomic::AtomicBool::new(false);
    let cleared = portfolio(threads, budget, |k, b| {
        // The exact search is deterministic: one search runs it, the others only the heuristic.
        let own = Params { prove_after: params.prove_after.filter(|_| k == 0), ..params.clone() };
        let sol = solve(board, &own, b, &mut Rng64::seed(seed.wrapping_add(k as u64)));
        if sol.left == 0 {
            return Some(sol);
        }
        impossible.fetch_or(sol.impossible, std::sync::atomic::Ordering::Relaxed);
        let mut best = best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|s| sol.left < s.left) {
            *best = Some(sol);
        }
        None
    });
    let mut sol =
        cleared.or_else(|| best.into_inner().unwrap_or_else(|e| e.into_inner())).expect("at least one search ran");
    // A proof found by one search holds for the answer of another.
    sol.impossible |= impossible.into_inner();
    sol
}

/// Searches until the board is clear or the budget runs out.
///
/// A board taller than wide is solved transposed (and the moves mirrored back): the partner
/// queries walk along the rows, so the fewer the rows, the shorter the walks.
pub fn solve(board: &Board, params: &Params, budget: &mut Budget, rng: &mut impl Rng) -> Solution {
    if board.height() <= board.width() {
        return solve_wide(board, params, budget, rng);
    }
    let mut sol = solve_wide(&board.transposed(), params, budget, rng);
    for m in &mut sol.moves {
        *m = Move::new(Cell { r: m.a.c, c: m.a.r }, Cell { r: m.b.c, c: m.b.r });
    }
    sol
}

/// [`solve`] on a board no taller than wide.
fn solve_wide(board: &Board, params: &Params, budget: &mut Budget, rng: &mut impl Rng) -> Solution {
    let t0 = Instant::now();
    let start = State::new(board);
    let mut scratch = RegionScratch::default();
    let mut iterations = 0u64;
    let mut best: Option<(Vec<Move>, usize)> = None;
    let mut stall = params.stall as f64;
    // The exact search is built when it is first due: on a small board, building it takes as
    // long as the rounds take to clear most such boards.
    let (mut decider, mut may_prove) = (None::<Decider>, params.prove_after.is_some());
    let mut impossible = false;
    // One round is always made, so that there is an answer however small the budget.
    while best.as_ref().is_none_or(|b| b.1 > 0) && (best.is_none() || !budget.should_stop(1)) {
        iterations += 1;
        let round = Instant::now();
        let moves = match best.as_ref() {
            Some((moves, _)) if rng.random::<f64>() < params.kick => kicked(&start, moves, params, rng),
            _ => construct(&start, params, budget, rng, &mut scratch),
        };
        let found = improve(&start, moves, &params.ruin, stall as u64, budget, rng, &mut iterations);
        if best.as_ref().is_none_or(|b| found.1 < b.1) {
            best = Some(found);
        }
        stall *= params.stall_growth;
        let due = params.prove_after.is_some_and(|after| t0.elapsed().as_secs_f64() >= after);
        if may_prove && due && decider.is_none() && best.as_ref().is_some_and(|b| b.1 > 0) {
            decider = Decider::new(board);
            may_prove = decider.is_some();
        }
        if let Some(d) = decider.as_mut().filter(|_| due && best.as_ref().is_some_and(|b| b.1 > 0)) {
            // The best answer's pairs first: the proof dives along what the rounds have right.
            if let Some((moves, _)) = best.as_ref() {
                d.hint(moves);
            }
            // As long again as the round took (but long enough for a few positions): the
            // heuristic and the proof share the time.
            match d.run(&mut budget.within(round.elapsed().max(Duration::from_millis(50)))) {
                Verdict::Optimal(moves) => best = Some((moves, 0)),
                Verdict::Infeasible => {
                    impossible = true;
                    (decider, may_prove) = (None, false);
                }
                _ => {}
            }
        }
    }
    let (moves, left) = best.expect("one round");
    let outcome = match budget.reason() {
        Some(reason) if left > 0 => Outcome::Stopped(reason),
        _ => Outcome::Complete,
    };
    Solution { moves, left, iterations, seconds: t0.elapsed().as_secs_f64(), outcome, impossible }
}

/// `best` with every move that touches a random band of columns undone (and those that then
/// fail), the tiles left paired by randomised greedy trials, as the region sweep pairs a block.
fn kicked(start: &State, best: &[Move], params: &Params, rng: &mut impl Rng) -> Vec<Move> {
    let w = start.width();
    let band = ((w as f64 * params.kick_band).ceil() as usize).clamp(1, w);
    let c0 = rng.random_range(0..=w - band);
    let inside = |c: u8| (c0..c0 + band).contains(&usize::from(c));
    let mut state = start.clone();
    let (mut moves, mut invalid) = (Vec::with_capacity(best.len()), Vec::new());
    replay_except(&mut state, best, |_, m| inside(m.a.c) || inside(m.b.c), &mut moves, &mut invalid);
    let mut local = Local::over(state.remaining());
    local.settle(&mut state, rng, None, params.region.patience, params.region.max_trials);
    local.apply_best(&mut state, &mut moves);
    moves
}

/// A fresh answer: the region sweep, within its share of the time left; what it has not reached
/// when that runs out is finished by a plain randomised greedy.
fn construct(start: &State, params: &Params, budget: &Budget, rng: &mut impl Rng, s: &mut RegionScratch) -> Vec<Move> {
    let mut slice = match budget.time_left() {
        Some(t) => budget.within(t.mul_f64(params.construct_share)),
        None => budget.fork(),
    };
    let mut state = start.clone();
    let mut moves = Vec::new();
    if !region_sweep(&mut state, rng, &params.region, &mut moves, s, &mut slice) {
        // One randomised greedy over every tile left.
        let mut local = Local::over(state.remaining());
        local.settle(&mut state, rng, None, 1, 1);
        local.apply_best(&mut state, &mut moves);
    }
    moves
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::judge::score;

    /// The moves of `best` that touch no column of `c0..c0 + band` and are still valid when
    /// their turn comes.
    fn outside(start: &State, best: &[Move], c0: usize, band: usize) -> Vec<Move> {
        let mut state = start.clone();
        let inside = |c: u8| (c0..c0 + band).contains(&usize::from(c));
        let mut kept = Vec::new();
        for &m in best.iter().filter(|m| !inside(m.a.c) && !inside(m.b.c)) {
            let (a, b) = (state.index(m.a), state.index(m.b));
            if state.can_remove(a, b) {
                state.apply(m);
                kept.push(m);
            }
        }
        kept
    }

    /// A kicked answer starts with the moves of the best answer outside one band of columns,
    /// in order, bands at several places; it pairs the band anew until no tile left has a
    /// partner, and the judge accepts it.
    #[test]
    fn a_kick_keeps_the_moves_outside_a_band_and_stays_valid() {
        let board = crate::generator::generate(12);
        let start = State::new(&board);
        let params = Params::default();
        let mut rng = Rng64::seed(4);
        let best = construct(&start, &params, &Budget::unlimited(), &mut rng, &mut RegionScratch::default());
        let (w, band) = (board.width(), (board.width() as f64 * params.kick_band).ceil() as usize);
        let bands: Vec<Vec<Move>> = (0..=w - band).map(|c0| outside(&start, &best, c0, band)).collect();
        assert!(bands.iter().all(|kept| kept.len() < best.len()), "every band undoes some move");
        let mut places = std::collections::BTreeSet::new();
        for _ in 0..20 {
            let moves = kicked(&start, &best, &params, &mut rng);
            let verdict = score(&board, &moves);
            assert!(verdict.invalid.is_none(), "{:?}", verdict.invalid);
            let c0 = bands.iter().position(|kept| moves.starts_with(kept));
            places.insert(c0.expect("some band's moves start the answer"));
            let mut after = start.clone();
            moves.iter().for_each(|&m| after.apply(m));
            assert!(after.remaining().iter().all(|&i| !after.has_partner(i)), "the band was not paired anew");
        }
        assert!(places.len() > 1, "the band is always at the same place");
    }
}
