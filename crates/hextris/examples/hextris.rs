//! The hextris library: a qualifying problem solved for its first seed within a second, and the
//! solution scored by the independent judge with the official phrases of power.
//!
//! `cargo run --release -p tessera-hextris --example hextris [PROBLEM]`

use std::time::Duration;

use tessera_core::runtime::Budget;
use tessera_hextris::solver::{Settings, solve};
use tessera_hextris::{Phrases, builtin, judge};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let id: usize = std::env::args().nth(1).map_or(Ok(6), |a| a.parse())?;
    let mut problem = builtin::problem(id).ok_or("problems 0 to 24 are built in")?;
    problem.source_seeds.truncate(1);
    let budget = Budget::unlimited().with_time(Duration::from_secs(1));
    let games = solve(&problem, &Settings::default(), &budget, 1, |_| {})?;
    let game = &games[0];
    let card = judge::score(&problem, game.seed, &game.text, &Phrases::official());
    assert_eq!(card, game.scorecard, "the solver reports the judge's scorecard");
    println!("problem {id}, seed {}: score {} in {} commands", game.seed, card.score, game.text.len());
    Ok(())
}
