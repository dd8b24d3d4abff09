//! pairs: TopCoder Marathon Match 100 "SameColorPairs": remove same-coloured pairs whose bounding box holds no other colour.
//!
//! * [`board`], [`generator`]: boards, and the official tester's generator, bit-exact;
//! * [`moves`], [`judge`]: the tester's output format and an independent validator and scorer;
//! * [`state`], [`solver`]: the solver's bit-mask board and the search;
//! * [`eval`]: evaluation over the official seeds; [`format`](mod@format): what the commands write
//!   as JSON.
//!
//! Make the tester's board for a seed, clear it within a budget, and score the moves with the
//! independent judge:
//!
//! ```
//! use std::time::Duration;
//!
//! use tessera_core::rng::Rng64;
//! use tessera_core::runtime::Budget;
//! use tessera_pairs::{generator::generate, judge, solver};
//!
//! let board = generate(2); // 30 x 30, 4 colours
//! let mut budget = Budget::unlimited().with_time(Duration::from_secs(2));
//! let solution = solver::solve(&board, &solver::Params::default(), &mut budget, &mut Rng64::seed(1));
//! let score = judge::score(&board, &solution.moves);
//! assert!(score.invalid.is_none());
//! println!("{} moves, {} tiles left, score {:.4}", solution.moves.len(), solution.left, score.score);
//! ```

pub mod board;
pub mod eval;
pub mod format;
pub mod generator;
pub mod judge;
pub mod moves;
pub mod solver;
pub mod state;

pub use board::{Board, Cell};
pub use moves::Move;

use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, portfolio};
use tessera_core::tour::Demo;

/// The pairs entries of `tessera tour`: the contest's examples 2 (30 x 30, 4 colours) and 3
/// (100 x 100, 6 colours), solved with `threads` independent searches of at most 1 s, checked by
/// the judge.
pub fn tour(threads: usize) -> Vec<Demo> {
    [2, 3].into_iter().map(|seed| demo(seed, threads)).collect()
}

fn demo(seed: i64, threads: usize) -> Demo {
    let start = std::time::Instant::now();
    let board = generator::generate(seed);
    let budget = Budget::unlimited().with_time(std::time::Duration::from_secs(1));
    let best = std::sync::Mutex::new(None::<solver::Solution>);
    portfolio(threads, &budget, |k, b| {
        let sol = solver::solve(&board, &solver::Params::default(), b, &mut Rng64::seed(k as u64 + 1));
        let cleared = sol.left == 0;
        let mut best = best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|s| sol.left < s.left) {
            *best = Some(sol);
        }
        cleared.then_some(())
    });
    let sol = best.into_inner().unwrap_or_else(|e| e.into_inner()).expect("at least one search ran");
    let verdict = judge::score(&board, &sol.moves);
    Demo {
        game: "pairs",
        instance: format!("seed {seed}: {}x{}, C={}", board.height(), board.width(), board.colors()),
        result: format!("{} of {} tiles left, score {:.4}", sol.left, board.tiles(), verdict.score),
        seconds: start.elapsed().as_secs_f64(),
        // The judge accepts every move (a board left uncleared is reported, not failed).
        ok: verdict.invalid.is_none(),
    }
}

/// Test helpers shared by the modules.
#[cfg(test)]
pub(crate) mod testing {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    /// Reads a JSON document as `T`, and checks that `T` writes it out as read (the same fields,
    /// the same values: floats compare as JSON reads them).
    pub(crate) fn reads_back<T: Serialize + DeserializeOwned>(json: &str) -> T {
        let read: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        let written = serde_json::to_value(&read).unwrap();
        assert_eq!(written, serde_json::from_str::<serde_json::Value>(json).unwrap(), "{json}");
        read
    }
}
