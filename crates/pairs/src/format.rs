//! What the pairs commands write as JSON, typed: [`SolveReport`] (a board solved) and
//! [`ScoreReport`] (a moves file judged); an evaluation's are [`crate::eval::SeedResult`] and
//! [`crate::eval::EvalSummary`]. Every one says [`Game::Pairs`] in its `game` field.

use serde::{Deserialize, Serialize};
use tessera_core::runtime::StopReason;

use crate::board::{Board, BoardError};
use crate::judge::Score;
use crate::moves::Move;
use crate::solver::Solution;

/// The game a document is of: always `pairs`, so that a reader tells pairs documents apart.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    /// SameColorPairs.
    #[default]
    Pairs,
}

/// A board solved: the board, the moves, and the judge's score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    /// The game.
    pub game: Game,
    /// The board's rows, as digits.
    pub board: Vec<String>,
    /// The official tester's seed of the board, if it is one of its boards.
    pub gen_seed: Option<i64>,
    /// The solver's seed.
    pub seed: u64,
    /// The moves as `[r1, c1, r2, c2]`.
    pub moves: Vec<[u8; 4]>,
    /// Tiles left.
    pub left: usize,
    /// The judge's score: removed / total.
    pub score: f64,
    /// Search iterations.
    pub iterations: u64,
    /// Wall time of the search.
    pub seconds: f64,
    /// Whether the exact search proved that no moves clear the board.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub impossible: bool,
    /// Why the search was cut short before the board was clear, if it was (a Ctrl-C): the
    /// moves are the best found by then. Absent when the search ran to its end or its budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<StopReason>,
}

impl SolveReport {
    /// The report of a solution of `board` (the tester's board of `gen_seed`, if given) found
    /// with the solver seed `seed`, which the judge scored `score`.
    #[must_use]
    pub fn new(board: &Board, gen_seed: Option<i64>, seed: u64, solution: &Solution, score: f64) -> Self {
        SolveReport {
            game: Game::Pairs,
            board: board.rows(),
            gen_seed,
            seed,
            moves: solution.moves.iter().map(|m| m.to_array()).collect(),
            left: solution.left,
            score,
            iterations: solution.iterations,
            seconds: solution.seconds,
            impossible: solution.impossible,
            stopped: None,
        }
    }

    /// The board, read from its rows.
    pub fn board(&self) -> Result<Board, BoardError> {
        if self.board.is_empty() {
            return Err(BoardError::Empty);
        }
        // With its height first: rows alone may read as a height (a board one column wide).
        Board::parse(&format!("{}\n{}\n", self.board.len(), self.board.join("\n")))
    }

    /// The moves.
    #[must_use]
    pub fn moves(&self) -> Vec<Move> {
        self.moves.iter().map(|&m| Move::from_array(m)).collect()
    }
}

/// The judge's verdict on a moves file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    /// The game.
    pub game: Game,
    /// The verdict.
    pub verdict: Score,
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;
    use tessera_core::runtime::Budget;
    use tessera_core::testing::reads_back;

    use super::*;
    use crate::generator::generate;
    use crate::judge::score;
    use crate::solver::{Params, solve};

    #[test]
    fn reports_read_back() {
        let board = generate(1);
        let sol = solve(&board, &Params::default(), &mut Budget::unlimited(), &mut Rng64::seed(1));
        let verdict = score(&board, &sol.moves);
        let report = SolveReport::new(&board, Some(1), 1, &sol, verdict.score);
        let json = serde_json::to_string(&report).unwrap();
        assert!(json.starts_with(r#"{"game":"pairs","board":["0000011101","#), "{json}");
        let read = reads_back::<SolveReport>(&json);
        assert_eq!((read.board().unwrap(), read.moves()), (board.clone(), sol.moves.clone()));
        let narrow = Board::parse("3\n2\n1\n0\n").unwrap();
        let report = SolveReport::new(&narrow, None, 1, &Solution { moves: Vec::new(), ..sol }, 0.0);
        assert_eq!(report.board().unwrap(), narrow);
        let json = serde_json::to_string(&ScoreReport { game: Game::Pairs, verdict }).unwrap();
        reads_back::<ScoreReport>(&json);
        let bad = score(&board, &[Move::from_array([0, 0, 0, 0])]);
        let json = serde_json::to_string(&ScoreReport { game: Game::Pairs, verdict: bad }).unwrap();
        assert!(reads_back::<ScoreReport>(&json).verdict.invalid.is_some());
    }

    #[test]
    fn other_games_are_not_pairs() {
        assert!(serde_json::from_str::<Game>(r#""pairs""#).is_ok());
        assert!(serde_json::from_str::<Game>(r#""hextris""#).is_err());
    }
}
