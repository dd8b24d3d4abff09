//! The demonstration instances, defined once: `tessera tour`'s hextris entries ([`crate::tour`])
//! and the viewer's demonstration solve them.

use std::time::{Duration, Instant};

use tessera_core::runtime::Budget;
use tessera_game::tour::Demo;

use crate::builtin;
use crate::problem::Problem;
use crate::solver::{self, Game, Settings};

/// A demonstration instance: a built-in problem cut to its first seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The built-in problem's number.
    pub problem: usize,
    /// What the organisers' sample solution for it scores, if they published one.
    pub sample: Option<u64>,
}

/// Problem 6, seed 0 (10 x 10, 150 units), whose official sample solution scores 3261.
pub const SMALL: Instance = Instance { problem: 6, sample: Some(3261) };

/// Problem 14, seed 0 (50 x 50, 500 units).
pub const LARGE: Instance = Instance { problem: 14, sample: None };

/// Every demonstration instance, as the tour shows them.
pub const ALL: [Instance; 2] = [SMALL, LARGE];

/// The time the tour gives each instance.
const TOUR_TIME: Duration = Duration::from_millis(1500);

impl Instance {
    /// The problem, cut to its first seed.
    #[must_use]
    pub fn problem(self) -> Problem {
        let mut p = builtin::problem(self.problem).expect("demonstrations are built-in problems");
        p.source_seeds.truncate(1);
        p
    }

    /// The problem and its game, solved within `time` on `threads` threads with the default
    /// settings (no game if the solver refuses the problem).
    #[must_use]
    pub fn solve(self, time: Duration, threads: usize) -> (Problem, Option<Game>) {
        let p = self.problem();
        let budget = Budget::unlimited().with_time(time);
        let games = solver::solve(&p, &Settings::default(), &budget, threads, |_| {}).unwrap_or_default();
        (p, games.into_iter().next())
    }

    /// The tour's entry: solved within 1.5 s and checked by the judge; the game must score, and
    /// more than the sample if there is one. A run past twice its time says so.
    #[must_use]
    pub fn tour(self, threads: usize) -> Demo {
        let start = Instant::now();
        let (p, g) = self.solve(TOUR_TIME, threads);
        let score = g.as_ref().map_or(0, |g| g.scorecard.score);
        let phrases = g.as_ref().map_or(0, |g| g.scorecard.phrases.len());
        let valid = g.as_ref().is_some_and(|g| g.scorecard.error.is_none());
        let seconds = start.elapsed().as_secs_f64();
        let mut result = match self.sample {
            Some(s) => format!("score {score}, {phrases} phrases (sample {s})"),
            None => format!("score {score}, {phrases} phrases"),
        };
        // A run far past its time is a defect the score alone would hide; it is told, not
        // failed, since a loaded machine may cause it too.
        if seconds > 2.0 * TOUR_TIME.as_secs_f64() {
            result += &format!(", ran {seconds:.1} s of its {:.1} s", TOUR_TIME.as_secs_f64());
        }
        Demo {
            game: "hextris",
            instance: format!("problem {}, seed {}", self.problem, p.source_seeds[0]),
            result,
            seconds,
            // Every built-in problem has moves that score: a score of 0 is a failure.
            ok: valid && score > 0 && self.sample.is_none_or(|s| score > s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_are_built_in_problems_cut_to_their_first_seed() {
        for d in ALL {
            let p = d.problem();
            assert_eq!((p.id, p.source_seeds.len()), (d.problem as i64, 1));
        }
        assert_eq!(SMALL.problem().source_seeds, [0], "the seed of the official sample");
    }
}
