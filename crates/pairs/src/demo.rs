//! The demonstrations: the boards that `tessera tour` solves and the viewer replays, defined
//! once.

use std::time::{Duration, Instant};

use tessera_core::runtime::Budget;
use tessera_game::tour::Demo;

use crate::board::Board;
use crate::generator::generate;
use crate::judge::score;
use crate::solver::{Params, Solution, solve_portfolio};

/// The demonstration boards, by the official tester's seeds: the contest's examples 2 (30 x 30,
/// 4 colours) and 3 (100 x 100, 6 colours).
pub const BOARDS: [i64; 2] = [2, 3];

/// The time a demonstration board is searched.
pub const TIME: Duration = Duration::from_secs(1);

/// Solves the board of the tester's seed `seed`: `threads` independent searches (solver seeds 1,
/// 2, ...) of at most [`TIME`].
pub fn solve_demo(seed: i64, threads: usize) -> (Board, Solution) {
    let board = generate(seed);
    let solution = solve_portfolio(&board, &Params::default(), threads, &Budget::unlimited().with_time(TIME), 1);
    (board, solution)
}

/// The pairs entries of `tessera tour`: each demonstration board solved and checked by the
/// judge; a board is ok when the judge accepts every move (one left uncleared is reported, not
/// failed).
#[must_use]
pub fn tour(threads: usize) -> Vec<Demo> {
    BOARDS
        .into_iter()
        .map(|seed| {
            let start = Instant::now();
            let (board, sol) = solve_demo(seed, threads);
            let verdict = score(&board, &sol.moves);
            Demo {
                game: "pairs",
                instance: format!("seed {seed}: {}x{}, C={}", board.height(), board.width(), board.colors()),
                result: format!("{} of {} tiles left, score {:.4}", sol.left, board.tiles(), verdict.score),
                seconds: start.elapsed().as_secs_f64(),
                ok: verdict.invalid.is_none(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demonstration_boards_are_the_contests_examples_2_and_3() {
        let sizes = BOARDS.map(|seed| {
            let b = generate(seed);
            (b.height(), b.width(), b.colors())
        });
        assert_eq!(sizes, [(30, 30, 4), (100, 100, 6)]);
    }
}
