//! Times the speller alone: plans a built-in problem's first seed once (width 1, the first set
//! of weights), then spells that plan on one thread several times, and prints the median time,
//! the score and a hash of the text (two builds that spell alike print the same hash).
//!
//! ```text
//! cargo run --release -p tessera-hextris --example spell -- [PROBLEM] [RUNS] [UNITS]
//! ```
//!
//! PROBLEM is a qualifying problem's number (default 24), RUNS the spellings timed (default
//! 3), UNITS cuts the source to that many units (default: the problem's own length).

use std::time::Instant;

use tessera_core::runtime::Budget;
use tessera_hextris::solver::{Settings, Solver};

fn main() {
    let arg = |i: usize| std::env::args().nth(i).map(|s| s.parse::<usize>());
    let (Ok(n), Ok(runs)) = (arg(1).unwrap_or(Ok(24)), arg(2).unwrap_or(Ok(3))) else {
        eprintln!("error: PROBLEM and RUNS are whole numbers");
        std::process::exit(2);
    };
    let Some(mut problem) = tessera_hextris::builtin::problem(n) else {
        eprintln!("error: no qualifying problem {n} (0..=24)");
        std::process::exit(2);
    };
    match arg(3) {
        Some(Ok(units)) => problem.source_length = units,
        Some(Err(_)) => {
            eprintln!("error: UNITS is a whole number");
            std::process::exit(2);
        }
        None => {}
    }
    let settings = Settings::default();
    let solver = match Solver::new(&problem, &settings) {
        Ok(solver) => solver,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let seed = problem.source_seeds[0];
    let started = Instant::now();
    let plan = solver.plan(seed, 0, 1, &mut Budget::unlimited());
    let planned = started.elapsed().as_secs_f64();
    let (mut times, mut last) = (Vec::new(), None);
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let grown = solver.grow(seed, &plan, (0, 1), &Budget::unlimited(), 1);
        times.push(started.elapsed().as_secs_f64());
        last = Some(grown.game);
    }
    times.sort_by(f64::total_cmp);
    let game = last.expect("at least one run");
    let hash = game.text.bytes().fold(0u64, |h, b| h.wrapping_mul(1_000_003).wrapping_add(u64::from(b)));
    println!(
        "problem {n}: planned in {planned:.3} s; spelled in {:.3} s (median of {}); score {}; text {hash:016x}",
        times[times.len() / 2],
        times.len(),
        game.scorecard.score
    );
}
