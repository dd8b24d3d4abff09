//! Scratch experiment harness: clear rate over a seed range at a budget.
use std::time::Duration;
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_pairs::generator::generate;
use tessera_pairs::judge::score;
use tessera_pairs::solver::{Params, solve};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a: i64 = args[1].parse().unwrap();
    let b: i64 = args[2].parse().unwrap();
    let ms: u64 = args[3].parse().unwrap();
    let params = Params::default();
    let (mut cleared, mut n, mut secs) = (0, 0, 0.0);
    for seed in a..=b {
        let board = generate(seed);
        let mut budget = Budget::unlimited().with_time(Duration::from_millis(ms));
        let sol = solve(&board, &params, &mut budget, &mut Rng64::seed(seed as u64));
        let s = score(&board, &sol.moves);
        assert!(s.invalid.is_none(), "{seed}: {:?}", s.invalid);
        assert_eq!(s.total - s.removed, sol.left);
        n += 1;
        secs += sol.seconds;
        if sol.left == 0 {
            cleared += 1;
        } else {
            println!(
                "seed {seed}: {}x{} C={} left {} iters {}",
                board.height(),
                board.width(),
                board.colors(),
                sol.left,
                sol.iterations
            );
        }
    }
    println!("cleared {cleared}/{n}, mean time {:.3}s", secs / n as f64);
}
