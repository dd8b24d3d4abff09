//! The totems library: a bag of tetrominoes packed by the hybrid solver within half a second,
//! checked by the game's own validator, and its score against the best the bag allows.
//!
//! `cargo run --release -p tessera-totems --example totems [LETTERS]`

use std::time::Duration;

use tessera_core::runtime::Budget;
use tessera_totems::solve::{Ctx, Solver, hybrid};
use tessera_totems::{Bag, PieceSet, validate::validate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let letters = std::env::args().nth(1).unwrap_or_else(|| "IIJJLLOOSSTTZZIJLOST".into());
    let bag = Bag::from_letters(PieceSet::Tetrominoes, &letters)?;
    let budget = Budget::unlimited().with_time(Duration::from_millis(500));
    let solved = hybrid::solve(&bag, Solver::Hybrid, &Ctx { threads: 1, seed: 1, budget: &budget });
    validate(&bag, &solved.answer)?;
    let (w, h) = solved.answer.bbox();
    println!("{} pieces in {w}x{h}: score {} (the best box allows {})", letters.len(), solved.score, solved.best_score);
    Ok(())
}
