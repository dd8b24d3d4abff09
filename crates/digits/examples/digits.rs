//! The digits library: games of a small Digit Blocks played by the best strategy, its exact
//! expected score, and the optimum S it is measured against.
//!
//! `cargo run --release -p tessera-digits --example digits`

use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_digits::{Params, StrategyName, eval::play_game, exact, expected::expected_score};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let params = Params { n: 5, b: 4 };
    let strategy = StrategyName::Best.build(params)?;
    let mut rng = Rng64::seed(1);
    let games = 1000;
    let mut total = 0.0;
    for _ in 0..games {
        total += play_game(strategy.as_ref(), params, &mut rng)? as f64;
    }
    let value = expected_score(strategy.as_ref(), params, 1, &Budget::unlimited())?;
    let optimum = exact::optimum(params, 1, &Budget::unlimited(), &mut |_, _| {})?;
    println!(
        "{params}: {games} games average {:.1}; expected {:.1}; optimum S = {:.1}",
        total / games as f64,
        value.value,
        optimum.value
    );
    Ok(())
}
