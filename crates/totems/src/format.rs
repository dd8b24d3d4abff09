//! What the totems commands write as JSON, typed: [`SolveReport`] (one bag) and [`RoundReport`]
//! (a round); an evaluation's are [`crate::eval::JobResult`] and [`crate::eval::EvalSummary`].

use serde::{Deserialize, Serialize};
use tessera_core::runtime::StopReason;

use crate::answer::{Actions, Dims};
use crate::bag::Bag;
use crate::game::LevelResult;
use crate::solve::hybrid::{Solved, Trial};
use crate::validate::Checked;

/// One bag packed (`solve --json`): the game's actions object, the box and the score, and how
/// the solver got there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    /// The answer, as the game takes it.
    pub actions: Actions,
    /// The answer's box: width and height.
    #[serde(rename = "box")]
    pub dims: Dims,
    /// The answer's score.
    pub score: f64,
    /// The best box's score: what an optimal answer scores.
    pub best_score: f64,
    /// Whether the answer reaches the best score.
    pub optimal: bool,
    /// Whether the best score was proven out of reach.
    pub best_box_impossible: bool,
    /// The boxes tried, in order.
    pub trials: Vec<Trial>,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Why the search was cut short, if it was (a Ctrl-C): the answer is the best found by then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<StopReason>,
}

impl SolveReport {
    /// The report of a bag's answer, as the validator checked it.
    #[must_use]
    pub fn new(bag: &Bag, solved: &Solved, checked: &Checked, seconds: f64) -> Self {
        SolveReport {
            actions: solved.answer.actions(bag.set),
            dims: (checked.width, checked.height),
            score: checked.score,
            best_score: solved.best_score,
            optimal: solved.optimal(),
            best_box_impossible: solved.best_box_impossible,
            trials: solved.trials.clone(),
            seconds,
            stopped: None,
        }
    }
}

/// A round of the game as played (`round --json`); with the rounds played first when rounds were
/// played until a perfect one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundReport {
    /// Rounds played to get this one, if rounds were played until a perfect one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u64>,
    /// The round's seed.
    pub seed: u64,
    /// Its levels.
    pub levels: Vec<LevelResult>,
    /// Its score: the levels' sum.
    pub score: f64,
    /// Why the round ended before its last level, if it did (a Ctrl-C, after the level it cut
    /// short): its levels and score are partial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<StopReason>,
}

impl RoundReport {
    /// The report of a round's levels.
    #[must_use]
    pub fn new(seed: u64, levels: Vec<LevelResult>) -> Self {
        let score = levels.iter().map(|l| l.score).sum();
        RoundReport { rounds: None, seed, levels, score, stopped: None }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tessera_core::runtime::Budget;
    use tessera_core::testing::reads_back;

    use super::*;
    use crate::PieceSet;
    use crate::game::{RoundConfig, play_round};
    use crate::solve::hybrid::solve;
    use crate::solve::{Ctx, Solver};
    use crate::validate::validate;

    #[test]
    fn a_solve_report_reads_back() {
        let bag = Bag::from_letters(PieceSet::Tetrominoes, "IJLOT").unwrap();
        let budget = Budget::unlimited().with_time(Duration::from_secs(1));
        let solved = solve(&bag, Solver::Hybrid, &Ctx { threads: 1, seed: 0, budget: &budget });
        let report = SolveReport::new(&bag, &solved, &validate(&bag, &solved.answer).unwrap(), 0.25);
        let json = serde_json::to_string(&report).unwrap();
        assert!(json.contains(r#""box":["#) && json.contains(r#""result":"packed""#), "{json}");
        reads_back::<SolveReport>(&json);
    }

    #[test]
    fn a_round_report_reads_back() {
        let cfg = RoundConfig { budget: Duration::from_millis(100), threads: 1, solver: Solver::Hybrid };
        let mut report = RoundReport::new(5, play_round(5, &cfg, true));
        let json = serde_json::to_string(&report).unwrap();
        assert!(!json.contains("rounds"));
        assert_eq!(reads_back::<RoundReport>(&json).rounds, None);
        report.rounds = Some(3);
        let json = serde_json::to_string(&report).unwrap();
        assert_eq!(reads_back::<RoundReport>(&json).rounds, Some(3));
    }
}
