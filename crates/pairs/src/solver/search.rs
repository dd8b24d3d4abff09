//! Iterated greedy over a pool of elite solutions: replay a prefix of a pool member, finish it
//! with the randomised greedy, keep the result if it beats the pool's worst.
//!
//! Prefixes are mostly long (the tail of a solution is where tiles get stranded, and replaying a
//! long prefix is cheap), sometimes short (to leave a dead end). Ties with the worst member
//! replace it, so the pool keeps moving on plateaus.

use std::time::Instant;

use serde::Serialize;
use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, Stop};

use super::greedy::{Pick, Scratch, greedy, sweep};
use super::region::{RegionParams, RegionScratch, region_sweep};
use super::ruin::{RuinParams, improve};
use crate::board::{Board, Cell};
use crate::moves::Move;
use crate::state::State;

/// Settings of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Elite solutions kept.
    pub pool: usize,
    /// How the greedy picks partners.
    pub pick: Pick,
    /// Prefix lengths: the part redone is `len * u^tail` for a uniform `u`.
    pub tail: f64,
    /// Greedy runs from the pool before ruin and recreate takes over the best (`u64::MAX`:
    /// never).
    pub warmup: u64,
    /// Settings of ruin and recreate.
    pub ruin: RuinParams,
    /// The sweep greedy's blur in lines (see [`sweep`]); negative: the plain greedy instead.
    pub jitter: f64,
    /// The region sweep as the constructor of fresh solutions (`None`: the greedies above).
    pub region: Option<RegionParams>,
    /// The largest share of the time left that one region sweep may take.
    pub construct_share: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            pool: 8,
            pick: Pick::Random,
            tail: 3.0,
            warmup: 1,
            ruin: RuinParams::default(),
            jitter: 2.0,
            region: Some(RegionParams::default()),
            construct_share: 0.3,
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solution {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Tiles left.
    pub left: usize,
    /// Greedy runs made.
    pub iterations: u64,
    /// Wall time.
    pub seconds: f64,
    /// Whether the search ended by clearing the board, or was stopped.
    pub outcome: Outcome,
}

struct Elite {
    left: usize,
    moves: Vec<Move>,
}

/// Searches until the board is clear or the budget runs out.
///
/// A board taller than wide is solved transposed (and the moves mirrored back): the partner
/// queries walk along the rows, so the fewer the rows, the shorter the walks.
pub fn solve(board: &Board, params: &Params, budget: &mut Budget, rng: &mut Rng64) -> Solution {
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
fn solve_wide(board: &Board, params: &Params, budget: &mut Budget, rng: &mut Rng64) -> Solution {
    let t0 = Instant::now();
    let start = State::new(board);
    let mut scratch = Scratch::default();
    let mut rscratch = RegionScratch::default();
    let mut pool: Vec<Elite> = Vec::with_capacity(params.pool);
    let mut iterations = 0u64;
    let mut best = usize::MAX;
    let mut outcome = Outcome::Complete;
    // One construction is always made, so that there is an answer however small the budget.
    while best > 0 && iterations < params.warmup.max(1) {
        if iterations > 0 && budget.should_stop(1) {
            outcome = Outcome::Stopped(budget.reason().expect("a stopped budget says why"));
            break;
        }
        iterations += 1;
        let mut state = start.clone();
        let mut moves = Vec::new();
        if pool.len() == params.pool {
            let parent = &pool[rng.below(pool.len() as u64) as usize];
            let redo = (parent.moves.len() as f64 * rng.unit().powf(params.tail)) as usize;
            let keep = parent.moves.len() - redo.min(parent.moves.len());
            moves.extend_from_slice(&parent.moves[..keep]);
            for &m in &moves {
                state.apply(m);
            }
        }
        if let (Some(rp), true) = (&params.region, moves.is_empty()) {
            // The sweep gets a share of the time left; what it has not reached when that runs
            // out is finished by the plain greedy, and ruin and recreate takes over.
            let mut slice = match budget.time_left() {
                Some(t) => budget.within(t.mul_f64(params.construct_share)),
                None => budget.fork(),
            };
            if !region_sweep(&mut state, rng, rp, &mut moves, &mut rscratch, &mut slice) {
                greedy(&mut state, rng, params.pick, &[], &mut moves, &mut scratch);
            }
        } else if params.jitter >= 0.0 {
            sweep(&mut state, rng, params.jitter, &mut moves, &mut scratch);
        } else {
            greedy(&mut state, rng, params.pick, &[], &mut moves, &mut scratch);
        }
        let left = state.left();
        best = best.min(left);
        insert(&mut pool, params.pool, Elite { left, moves });
    }
    let winner = pool.into_iter().min_by_key(|e| e.left).expect("at least one greedy run");
    let (mut moves, mut left) = (winner.moves, winner.left);
    if left > 0 && outcome.is_complete() {
        moves = improve(&start, moves, &params.ruin, budget, rng, &mut iterations);
        left = board.tiles() - 2 * moves.len();
        if left > 0 {
            outcome = Outcome::Stopped(budget.reason().expect("a stopped budget says why"));
        }
    }
    Solution { moves, left, iterations, seconds: t0.elapsed().as_secs_f64(), outcome }
}

/// Adds `e` to the pool if there is room or it is no worse than the worst member (which it
/// replaces).
fn insert(pool: &mut Vec<Elite>, size: usize, e: Elite) {
    if pool.len() < size {
        pool.push(e);
        return;
    }
    let worst = (0..pool.len()).max_by_key(|&i| pool[i].left).expect("a full pool");
    if e.left <= pool[worst].left {
        pool[worst] = e;
    }
}
