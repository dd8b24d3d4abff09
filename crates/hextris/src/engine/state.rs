//! A game as the solver sees it: the board and the score between locks, and a command-level
//! replay on the engine's tables (checked against the judge in the tests).

use std::collections::HashSet;

use super::{Board, Pos, Rules, lock_points};
use crate::command::Command;
use crate::problem::Problem;

/// The game between two locks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The filled cells.
    pub board: Board,
    /// Points for locks and lines so far.
    pub move_score: u64,
    /// Lines cleared by the last lock.
    pub ls_old: u8,
    /// Units locked so far (the index of the next unit in the source).
    pub locked: usize,
}

impl State {
    /// The start of a game.
    #[must_use]
    pub fn new(problem: &Problem) -> State {
        State { board: Board::of(problem), move_score: 0, ls_old: 0, locked: 0 }
    }

    /// Locks unit `unit` at `p` (which must fit), clears lines and scores; returns the lines.
    pub fn lock(&mut self, rules: &Rules, unit: usize, p: Pos) -> usize {
        let u = &rules.units[unit];
        let ls = rules.lock(&mut self.board, u, p);
        self.move_score += lock_points(u.size, ls, self.ls_old as usize);
        self.ls_old = ls as u8;
        self.locked += 1;
        ls
    }
}

/// How a command-level replay ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The game after the last command.
    pub state: State,
    /// Commands carried out.
    pub commands: usize,
    /// `Some(i)`: command `i` repeated a position (the game then scores 0).
    pub repeated: Option<usize>,
    /// Whether the game ended (source exhausted or no room for the next unit).
    pub over: bool,
    /// `Some(i)`: command `i` came after the end.
    pub after_end: Option<usize>,
}

/// Plays `commands` from the start of a game whose units are `source`, with the engine's own
/// tables; stops at the first error.
#[must_use]
pub fn replay(problem: &Problem, rules: &Rules, source: &[usize], commands: &[Command]) -> Replay {
    let mut r = Replay { state: State::new(problem), commands: 0, repeated: None, over: false, after_end: None };
    let mut visited = HashSet::new();
    let mut cur = spawn(rules, &r.state, source, &mut visited);
    r.over = cur.is_none();
    for (i, &cmd) in commands.iter().enumerate() {
        let Some(p) = cur else {
            r.after_end = Some(i);
            break;
        };
        let unit = &rules.units[source[r.state.locked]];
        let q = unit.step(p, cmd);
        if !rules.fits(&r.state.board, unit, q) {
            r.commands += 1;
            r.state.lock(rules, source[r.state.locked], p);
            cur = spawn(rules, &r.state, source, &mut visited);
            r.over = cur.is_none();
        } else if !visited.insert(q) {
            r.repeated = Some(i);
            break;
        } else {
            r.commands += 1;
            cur = Some(q);
        }
    }
    r
}

fn spawn(rules: &Rules, state: &State, source: &[usize], visited: &mut HashSet<Pos>) -> Option<Pos> {
    visited.clear();
    let unit = &rules.units[*source.get(state.locked)?];
    rules.fits(&state.board, unit, unit.spawn).then(|| {
        visited.insert(unit.spawn);
        unit.spawn
    })
}
