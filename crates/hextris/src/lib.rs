//! hextris: the ICFP Programming Contest 2015 game, hexagonal Tetris with phrases of power.
//!
//! * [`problem`], [`command`], [`phrase`]: the contest's problems, commands and phrases;
//! * [`judge`]: the reference rules and scorer, a literal reading of the rules that reproduces
//!   the organisers' evaluator (it shares no code with the solver's engine);
//! * [`engine`]: the solver's fast engine (row masks, turn tables, reachability by rows);
//! * [`solver`]: beam search over lock positions, phrases spelled on the way down;
//! * [`builtin`]: the 25 qualifying problems, built in;
//! * [`format`](mod@format): the JSON it reads and writes (submissions, reports), typed;
//! * [`eval`]: problems solved within a time each, against the contest's best final scores.

pub mod builtin;
pub mod command;
pub mod engine;
pub mod eval;
pub mod format;
pub mod judge;
pub mod phrase;
pub mod play;
pub mod problem;
pub mod solver;

pub use command::Command;
pub use phrase::Phrases;
pub use problem::{Cell, Problem};

use std::time::{Duration, Instant};

use tessera_core::runtime::Budget;
use tessera_core::tour::Demo;

/// The hextris entries of `tessera tour`: problem 6 seed 0, whose official sample solution
/// scores 3261, and problem 14 (50 x 50, 500 units), each solved in 1.5 s and checked by the
/// judge.
pub fn tour(threads: usize) -> Vec<Demo> {
    [(6, Some(3261)), (14, None)].into_iter().map(|(n, sample)| demo(n, sample, threads)).collect()
}

fn demo(n: usize, sample: Option<u64>, threads: usize) -> Demo {
    let start = Instant::now();
    let mut p = builtin::problem(n).expect("a built-in problem");
    p.source_seeds.truncate(1);
    let budget = Budget::unlimited().with_time(Duration::from_millis(1500));
    let games = solver::solve(&p, &solver::Settings::default(), &budget, threads, |_| {}).unwrap_or_default();
    let g = games.first();
    let score = g.map_or(0, |g| g.scorecard.score);
    let phrases = g.map_or(0, |g| g.scorecard.phrases.len());
    let valid = g.is_some_and(|g| g.scorecard.error.is_none());
    Demo {
        game: "hextris",
        instance: format!("problem {n}, seed {}", p.source_seeds[0]),
        result: match sample {
            Some(s) => format!("score {score}, {phrases} phrases (sample {s})"),
            None => format!("score {score}, {phrases} phrases"),
        },
        seconds: start.elapsed().as_secs_f64(),
        ok: valid && sample.is_none_or(|s| score > s),
    }
}
