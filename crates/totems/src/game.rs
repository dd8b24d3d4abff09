//! The game: ten levels of 1, 2, 4, ..., 512 pieces, one second each, and rounds of them.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::Budget;

use crate::bag::Bag;
use crate::shapes::PieceSet;
use crate::solve::hybrid::{Solved, solve};
use crate::solve::{Ctx, Solver};
use crate::validate::validate;

/// Levels in a round.
pub const LEVELS: u32 = 10;

/// The best possible round: every level in its best box.
pub const PERFECT_ROUND: f64 = 6027.5;

/// Time per level.
pub const LEVEL_TIME: Duration = Duration::from_secs(1);

/// Pieces at a level (1-based): 1, 2, 4, ..., 512.
pub fn level_size(level: u32) -> u64 {
    1 << (level.clamp(1, LEVELS) - 1)
}

/// The best score a level can give: its bag in the best box there is for its number of pieces
/// (a lone I at level 1). Bags that cannot reach it (an I cannot go into 3 x 3) score less however
/// well they are packed. The levels' bests add up to [`PERFECT_ROUND`].
pub fn level_best(level: u32) -> f64 {
    // An O fits every box of side 2 or more, so a bag of Os is limited by its area alone.
    let letters = if level <= 1 { "I".to_string() } else { "O".repeat(level_size(level) as usize) };
    let bag = Bag::from_letters(PieceSet::Tetrominoes, &letters).unwrap_or_else(|_| Bag::empty(PieceSet::Tetrominoes));
    crate::answer::candidate_boxes(&bag).first().map_or(0.0, |b| b.1)
}

/// The bag of a level: a single I at level 1, uniformly random tetrominoes otherwise.
pub fn level_bag(level: u32, rng: &mut Rng64) -> Bag {
    if level <= 1 {
        let mut bag = Bag::empty(PieceSet::Tetrominoes);
        bag.counts[0] = 1;
        return bag;
    }
    Bag::random(PieceSet::Tetrominoes, level_size(level), rng)
}

/// One level of a round, as played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelResult {
    /// The level.
    pub level: u32,
    /// The bag, as letters.
    pub bag: String,
    /// The answer's box.
    pub dims: (u32, u32),
    /// Its score (0 if late).
    pub score: f64,
    /// The best box's score.
    pub best_score: f64,
    /// Whether the best box was proven impossible.
    pub best_box_impossible: bool,
    /// Seconds taken.
    pub seconds: f64,
}

/// How rounds are played.
#[derive(Clone, Debug)]
pub struct RoundConfig {
    /// Time per level given to the solver.
    pub budget: Duration,
    /// Solver threads.
    pub threads: usize,
    /// The solver.
    pub solver: Solver,
}

impl Default for RoundConfig {
    fn default() -> Self {
        RoundConfig { budget: LEVEL_TIME, threads: tessera_core::runtime::default_threads(), solver: Solver::Hybrid }
    }
}

/// Solves one bag within the config's budget and checks the answer with the validator; a late
/// or invalid answer scores nothing, as in the game.
pub fn play_level(level: u32, bag: &Bag, cfg: &RoundConfig, seed: u64) -> (LevelResult, Solved) {
    let start = Instant::now();
    let budget = Budget::unlimited().with_time(cfg.budget);
    let solved = solve(bag, cfg.solver, &Ctx { threads: cfg.threads, seed, budget: &budget });
    let seconds = start.elapsed().as_secs_f64();
    let checked = validate(bag, &solved.answer);
    let on_time = seconds <= LEVEL_TIME.as_secs_f64();
    let (dims, score) = match checked {
        Ok(c) if on_time => ((c.width, c.height), c.score),
        Ok(c) => ((c.width, c.height), 0.0),
        Err(_) => ((0, 0), 0.0),
    };
    let result = LevelResult {
        level,
        bag: bag.letters(),
        dims,
        score,
        best_score: solved.best_score,
        best_box_impossible: solved.best_box_impossible,
        seconds,
    };
    (result, solved)
}

/// Plays a round with the given seed (bags and solver both derive from it); `stop_early` ends it
/// at the first level that misses [`level_best`] (no perfect round any more). A Ctrl-C (the
/// runtime's interrupt) ends it after the level it cut short.
pub fn play_round(seed: u64, cfg: &RoundConfig, stop_early: bool) -> Vec<LevelResult> {
    let mut rng = Rng64::seed(seed);
    let mut levels = Vec::new();
    for level in 1..=LEVELS {
        let bag = level_bag(level, &mut rng);
        let (r, _) = play_level(level, &bag, cfg, derive_seed(seed, u64::from(level)));
        let missed = r.score < level_best(level);
        levels.push(r);
        if (stop_early && missed) || tessera_core::runtime::interrupted() {
            break;
        }
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_double() {
        let sizes: Vec<u64> = (1..=LEVELS).map(level_size).collect();
        assert_eq!(sizes, vec![1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
        let mut rng = Rng64::seed(1);
        assert_eq!(level_bag(1, &mut rng).letters(), "I");
        assert_eq!(level_bag(6, &mut rng).len(), 32);
    }

    #[test]
    fn the_levels_bests_make_the_perfect_round() {
        let bests: Vec<f64> = (1..=LEVELS).map(level_best).collect();
        assert_eq!(bests, vec![1.5, 11.0, 24.0, 44.0, 96.0, 176.0, 384.0, 751.0, 1536.0, 3004.0]);
        assert_eq!(bests.iter().sum::<f64>(), PERFECT_ROUND);
    }

    #[test]
    fn a_round_stops_at_its_first_miss_when_asked() {
        let cfg = RoundConfig { budget: Duration::from_millis(300), threads: 1, solver: Solver::Hybrid };
        let levels = play_round(3, &cfg, true);
        let misses = levels.iter().filter(|l| l.score < level_best(l.level)).count();
        assert!(misses <= 1);
        assert!(levels.len() == LEVELS as usize || misses == 1);
        assert_eq!(levels[0].score, 1.5);
    }
}
