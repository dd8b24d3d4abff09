//! The pairs library: one of the tester's boards, generated bit for bit, solved for a second,
//! and the moves scored by the independent judge.
//!
//! `cargo run --release -p tessera-pairs --example pairs [SEED]`

use std::time::Duration;

use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_pairs::{generator::generate, judge, solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: i64 = std::env::args().nth(1).map_or(Ok(2), |a| a.parse())?;
    let board = generate(seed);
    let mut budget = Budget::unlimited().with_time(Duration::from_secs(1));
    let solution = solver::solve(&board, &solver::Params::default(), &mut budget, &mut Rng64::seed(1));
    let score = judge::score(&board, &solution.moves);
    assert!(score.invalid.is_none(), "the judge accepts every move");
    println!(
        "seed {seed} ({}x{}, {} colours): {} moves, {} tiles left, score {:.4}",
        board.height(),
        board.width(),
        board.colors(),
        solution.moves.len(),
        solution.left,
        score.score
    );
    Ok(())
}
