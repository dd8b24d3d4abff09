//! The JSON that hextris reads and writes, typed:
//!
//! * [`Submission`]: one solution as the contest took them; a list of them is what `solve`
//!   writes and what `score`, `show` and the viewer read;
//! * [`ScoreReport`]: the judge's scorecards of a problem's submissions and its leaderboard score;
//! * [`ProblemStats`]: a problem's size, units and seeds;
//! * [`crate::eval::ProblemResult`] (a problem solved, every seed's game included), inside an
//!   [`crate::eval::EvalRecord`] (what the problem was given, whether Ctrl-C cut it short), and
//!   [`crate::eval::EvalSummary`] (an evaluation without the games): what evaluations write.
//!
//! Every report says `"game": "hextris"` ([`GAME`]).

use serde::{Deserialize, Serialize};

use crate::judge::{Scorecard, score};
use crate::phrase::Phrases;
use crate::problem::Problem;

/// The game's name, as every report gives it in its `game` field.
pub const GAME: &str = "hextris";

/// One solution as the contest took them: `{"problemId", "seed", "tag", "solution"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// The problem's id.
    #[serde(rename = "problemId")]
    pub problem_id: i64,
    /// The seed.
    pub seed: u32,
    /// A free-form tag (may be left out).
    #[serde(default)]
    pub tag: String,
    /// The commands.
    pub solution: String,
}

/// One seed's submission judged: the seed and the [`Scorecard`]'s fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoredSeed {
    /// The seed.
    pub seed: u32,
    /// The judge's scorecard.
    #[serde(flatten)]
    pub scorecard: Scorecard,
}

/// A problem's submissions judged, as the contest's leaderboard counted them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreReport {
    /// Always [`GAME`].
    pub game: String,
    /// The problem's id.
    pub problem: i64,
    /// The leaderboard score: the floor of the mean over all the problem's seeds, a seed
    /// without a submission counting 0.
    pub score: u64,
    /// The problem's seeds without a submission.
    pub missing_seeds: usize,
    /// Submissions for other problems, left out.
    pub other_problems: usize,
    /// The phrases of power judged with, as given.
    pub phrase_set: Vec<String>,
    /// The seeds judged, in the order of their last submission.
    pub seeds: Vec<ScoredSeed>,
}

impl ScoreReport {
    /// Judges the `submissions` for `problem` with `phrases`: as the contest did, a seed's last
    /// submission is the one that counts.
    #[must_use]
    pub fn judge(problem: &Problem, submissions: &[Submission], phrases: &Phrases) -> ScoreReport {
        let mut seeds: Vec<ScoredSeed> = Vec::new();
        let mut other_problems = 0;
        for s in submissions {
            if s.problem_id != problem.id {
                other_problems += 1;
                continue;
            }
            seeds.retain(|x| x.seed != s.seed);
            seeds.push(ScoredSeed { seed: s.seed, scorecard: score(problem, s.seed, &s.solution, phrases) });
        }
        let judged = |seed: u32| seeds.iter().find(|x| x.seed == seed);
        let total: u64 = problem.source_seeds.iter().map(|&seed| judged(seed).map_or(0, |x| x.scorecard.score)).sum();
        let missing_seeds = problem.source_seeds.iter().filter(|&&seed| judged(seed).is_none()).count();
        ScoreReport {
            game: GAME.to_string(),
            problem: problem.id,
            score: total / problem.source_seeds.len() as u64,
            missing_seeds,
            other_problems,
            phrase_set: phrases.names().to_vec(),
            seeds,
        }
    }
}

/// A problem's size, units and seeds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemStats {
    /// The problem's id.
    pub problem: i64,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Cells of the board.
    pub cells: usize,
    /// Cells filled at the start.
    pub filled: usize,
    /// Distinct units.
    pub units: usize,
    /// The fewest and the most cells of a unit.
    pub unit_sizes: [usize; 2],
    /// Units per game.
    pub source_length: usize,
    /// Seeds, each a game.
    pub seeds: usize,
}

impl ProblemStats {
    /// The figures of `problem`.
    #[must_use]
    pub fn of(problem: &Problem) -> ProblemStats {
        let sizes = problem.units.iter().map(|u| u.members.len());
        ProblemStats {
            problem: problem.id,
            width: problem.width,
            height: problem.height,
            cells: problem.width * problem.height,
            filled: problem.filled.len(),
            units: problem.units.len(),
            unit_sizes: [sizes.clone().min().unwrap_or(0), sizes.max().unwrap_or(0)],
            source_length: problem.source_length,
            seeds: problem.source_seeds.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn a_submission_reads_and_writes_the_contest_fields() {
        let s: Submission = serde_json::from_str(r#"{"problemId": 6, "seed": 0, "solution": "ei!"}"#).unwrap();
        assert_eq!(s.tag, "", "the tag may be left out");
        let json = serde_json::to_string(&Submission { tag: "t".into(), ..s }).unwrap();
        assert_eq!(json, r#"{"problemId":6,"seed":0,"tag":"t","solution":"ei!"}"#);
    }

    #[test]
    fn the_last_submission_of_a_seed_counts_and_missing_seeds_score_zero() {
        let p = builtin::problem(6).unwrap();
        let sub =
            |seed, solution: &str| Submission { problem_id: 6, seed, tag: String::new(), solution: solution.into() };
        let other = Submission { problem_id: 7, ..sub(0, "") };
        let list = [sub(0, "ei!"), other, sub(13120, "ei!"), sub(0, "")];
        let r = ScoreReport::judge(&p, &list, &Phrases::official());
        assert_eq!((r.other_problems, r.missing_seeds), (1, p.source_seeds.len() - 2));
        assert_eq!(r.seeds.iter().map(|x| x.seed).collect::<Vec<_>>(), [13120, 0]);
        assert_eq!(r.seeds[1].scorecard.score, 0, "the last submission of seed 0 is empty");
        assert_eq!(r.score, r.seeds[0].scorecard.score / p.source_seeds.len() as u64);
        let again: ScoreReport = serde_json::from_value(serde_json::to_value(&r).unwrap()).unwrap();
        assert_eq!(again, r);
    }
}
