//! Times the planner and the speller apart: plans a built-in problem's first seed once (the
//! first set of weights), then spells that plan on one thread several times, and prints the
//! planning time, the median spelling time, the score, and hashes of the plan and of the text
//! (two builds that plan or spell alike print the same hash).
//!
//! ```text
//! cargo run --release -p tessera-hextris --example spell -- [PROBLEM] [RUNS] [UNITS] [WIDTH]
//! ```
//!
//! PROBLEM is a qualifying problem's number (default 24), RUNS the spellings timed (default
//! 3), UNITS cuts the source to that many units (by default, or 0, the problem's own length),
//! WIDTH is the beam's width (default 1).

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
        Some(Ok(0)) | None => {}
        Some(Ok(units)) => problem.source_length = units,
        Some(Err(_)) => {
            eprintln!("error: UNITS is a whole number");
            std::process::exit(2);
        }
    }
    let width = match arg(4) {
        Some(Ok(w)) if w > 0 => w,
        None => 1,
        Some(_) => {
            eprintln!("error: WIDTH is a positive whole number");
            std::process::exit(2);
        }
    };
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
    let plan = solver.plan(seed, 0, width, &mut Budget::unlimited());
    let planned = started.elapsed().as_secs_f64();
    let (mut times, mut last) = (Vec::new(), None);
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let grown = solver.grow(seed, &plan, (0, 1), (&Budget::unlimited(), &Budget::unlimited()), 1);
        times.push(started.elapsed().as_secs_f64());
        last = Some(grown.game);
    }
    times.sort_by(f64::total_cmp);
    let game = last.expect("at least one run");
    let hash =
        |bytes: &mut dyn Iterator<Item = u64>| bytes.fold(0u64, |h, b| h.wrapping_mul(1_000_003).wrapping_add(b));
    let plan_hash = hash(&mut plan.locks.iter().flat_map(|p| [p.x as u64, p.y as u64, p.r as u64]));
    let text_hash = hash(&mut game.text.bytes().map(u64::from));
    println!(
        "problem {n}: planned in {planned:.3} s (width {width}, plan {plan_hash:016x}); spelled in {:.3} s (median of {}); score {}; text {text_hash:016x}",
        times[times.len() / 2],
        times.len(),
        game.scorecard.score
    );
}
