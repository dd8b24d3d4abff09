//! Region by region: the board is cut into blocks visited in a snake order from a corner, and
//! each block is cleared by a small search before the next is taken in.
//!
//! The region is every block visited so far. At each block, the tiles of the region still
//! present (those the earlier blocks left over, and the new block's) are paired only with each
//! other, by many randomised greedy trials from the same position (later trials replay a prefix
//! of the best one); the trial leaving the fewest of them is applied. A failure is thereby
//! retried where it happens instead of being multiplied over the board, and the tiles a block
//! leaves over stay in play for the blocks that follow, across the cleared area.

use rand::{Rng, RngExt};
use tessera_core::runtime::{Budget, Stop};

use super::local::Local;
use crate::moves::Move;
use crate::state::{EMPTY, State};

/// Settings of the region sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionParams {
    /// Block sides are drawn uniformly from `block.0..=block.1`.
    pub block: (usize, usize),
    /// Trials in a row that do not improve on a block's best before the block is settled.
    pub patience: u32,
    /// The most trials per block.
    pub max_trials: u32,
}

impl Default for RegionParams {
    fn default() -> Self {
        RegionParams { block: (4, 10), patience: 8, max_trials: 100 }
    }
}

/// Reusable buffers of the sweep.
#[derive(Debug, Default)]
pub(crate) struct RegionScratch {
    in_region: Vec<bool>,
    local: Local,
}

/// The blocks of a sweep in visiting order, each as its cell indices: a grid of `bh` x `bw`
/// blocks taken ring by ring from the border inwards, each ring walked around the centre from a
/// random angle in a random direction.
///
/// Tiles on the border have the fewest ways out (a tile on an edge pairs only along the edge or
/// into the board), so they are settled first, while the board behind them is still full of
/// partners; what the blocks leave over is pushed towards the centre, where the cleared area
/// around it gives it the most room.
pub fn blocks(h: usize, w: usize, bh: usize, bw: usize, rng: &mut impl Rng) -> Vec<Vec<usize>> {
    let (nr, nc) = (h.div_ceil(bh), w.div_ceil(bw));
    let start = rng.random::<f64>() * std::f64::consts::TAU;
    let turn = if rng.random_range(0..2) == 0 { 1.0 } else { -1.0 };
    let (cr, cc) = (h as f64 / 2.0, w as f64 / 2.0);
    let mut keyed: Vec<(usize, f64, usize, usize)> = Vec::with_capacity(nr * nc);
    for bi in 0..nr {
        for bj in 0..nc {
            let ring = bi.min(nr - 1 - bi).min(bj).min(nc - 1 - bj);
            let (y, x) = ((bi * bh) as f64 + bh as f64 / 2.0 - cr, (bj * bw) as f64 + bw as f64 / 2.0 - cc);
            let angle = (turn * y.atan2(x) - start).rem_euclid(std::f64::consts::TAU);
            keyed.push((ring, angle, bi, bj));
        }
    }
    keyed.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let cells = |&(_, _, bi, bj): &(usize, f64, usize, usize)| {
        let rows = bi * bh..((bi + 1) * bh).min(h);
        rows.flat_map(|r| (bj * bw..((bj + 1) * bw).min(w)).map(move |c| r * w + c)).collect()
    };
    keyed.iter().map(cells).collect()
}

/// Clears `state` block by block, appending the moves; returns `false` if the budget stopped
/// the sweep before the last block (the moves are valid either way).
pub(crate) fn region_sweep(
    state: &mut State,
    rng: &mut impl Rng,
    p: &RegionParams,
    moves: &mut Vec<Move>,
    s: &mut RegionScratch,
    budget: &mut Budget,
) -> bool {
    let (h, w) = (state.height(), state.width());
    let (bh, bw) = (rng.random_range(p.block.0..=p.block.1), rng.random_range(p.block.0..=p.block.1));
    s.in_region.clear();
    s.in_region.resize(h * w, false);
    s.local.active.clear();
    s.local.front = 0;
    for block in blocks(h, w, bh, bw, rng) {
        if budget.should_stop(1) {
            return false;
        }
        for &i in &block {
            s.in_region[i] = true;
        }
        let active = &mut s.local.active;
        active.retain(|&i| state.at(i) != EMPTY);
        active.extend(block.iter().copied().filter(|&i| state.at(i) != EMPTY));
        s.local.settle(state, rng, Some(&s.in_region), p.patience, p.max_trials);
        s.local.apply_best(state, moves);
    }
    true
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::board::Board;
    use crate::judge::score;

    #[test]
    fn blocks_cover_the_board_once() {
        let mut rng = Rng64::seed(5);
        for (h, w, bh, bw) in [(7, 5, 3, 2), (10, 10, 4, 4), (1, 9, 5, 5), (12, 3, 1, 7)] {
            let mut seen: Vec<usize> = blocks(h, w, bh, bw, &mut rng).concat();
            seen.sort_unstable();
            assert_eq!(seen, (0..h * w).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_sweep_makes_valid_moves_and_restores_undone_ones() {
        let b = crate::generator::generate(7);
        let mut state = State::new(&b);
        let (mut moves, mut s) = (Vec::new(), RegionScratch::default());
        let p = RegionParams::default();
        let mut budget = Budget::unlimited();
        assert!(region_sweep(&mut state, &mut Rng64::seed(1), &p, &mut moves, &mut s, &mut budget));
        let verdict = score(&b, &moves);
        assert!(verdict.invalid.is_none());
        assert_eq!(verdict.total - verdict.removed, state.left());
        let small = Board::parse("0110\n1001\n").unwrap();
        let mut st = State::new(&small);
        let snapshot = format!("{st:?}");
        st.remove(1);
        st.remove(2);
        st.restore(2, 1);
        st.restore(1, 1);
        assert_eq!(format!("{st:?}"), snapshot);
        assert!(st.can_remove(1, 2) && !st.can_remove(0, 3));
    }
}
