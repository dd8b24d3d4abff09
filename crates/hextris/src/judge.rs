//! The reference rules and scorer: a plain, literal reading of the contest's rules, written
//! apart from the solver's engine so that it can check the solver.
//!
//! It keeps the board as a grid of booleans, the unit as a list of cells, turns cells one at a
//! time in cube coordinates and remembers every position the unit has had in a hash set. It
//! reproduces the organisers' evaluator on every vector of `score_vectors.json`, error
//! reports and counts included.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::command::{Command, is_ignored, turn};
use crate::phrase::{Phrases, power_score};
use crate::problem::{Cell, Problem, UnitDef};

/// What went wrong, if anything; any error scores the whole game 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// A character that spells no command (and is not ignored).
    IllegalChar,
    /// A command brought the unit back to a position it had before.
    RepeatedPosition,
    /// A command after the game had ended.
    AfterEnd,
    /// The seed is not one of the problem's.
    InvalidSeed,
}

/// How the game stood after the last command.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndState {
    /// Every unit of the source was locked.
    SourceExhausted,
    /// The next unit could not be placed.
    BoardFull,
    /// The commands ran out while the game went on.
    InProgress,
    /// An error ended it.
    Error,
    /// The seed is not the problem's: nothing was played.
    NotPlayed,
}

/// The judge's scorecard of one game: the score, its parts and how the game ended, with the
/// counts the official evaluator reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scorecard {
    /// Points for locked units and cleared lines, line bonus included (0 after an error).
    pub move_score: u64,
    /// Points for phrases of power (0 after an error).
    pub power_score: u64,
    /// `move_score + power_score`, or 0 after an error.
    pub score: u64,
    /// The cause of an error.
    pub error: Option<ErrorKind>,
    /// What the organisers' evaluator prints: `none`, `invalid-command`,
    /// `repeated-position(<command>)`, `command-after-game-end` or
    /// `seed/problem not in problem file`.
    pub evaluator_error: String,
    /// How the game stood at the end.
    pub end_state: EndState,
    /// Commands carried out (the one that caused an error is not counted).
    pub commands: usize,
    /// Units locked.
    pub locked: usize,
    /// The distinct phrases credited (none after an error), ordered ignoring case.
    pub phrases: Vec<String>,
    /// How often each phrase occurs in the text (listed even after an error), phrases that do
    /// not occur left out.
    pub phrase_counts: Vec<(String, usize)>,
    /// Lines cleared in all.
    pub lines_cleared: usize,
    /// The line bonus inside `move_score`.
    pub line_bonus: u64,
}

/// One event of a game, for replays: a command carried out, and what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Index of the character in the solution text.
    pub at: usize,
    /// The command.
    pub command: Command,
    /// Whether it locked the unit (then `cleared` lines went and the next unit came).
    pub locked: bool,
    /// Lines cleared by the lock.
    pub cleared: usize,
    /// The move score after the command.
    pub move_score: u64,
}

/// A unit on the board: its member cells and its pivot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Member cells, sorted (a position is the pivot and the set of cells).
    pub cells: Vec<Cell>,
    /// The pivot.
    pub pivot: Cell,
}

impl Piece {
    fn new(mut cells: Vec<Cell>, pivot: Cell) -> Piece {
        cells.sort();
        Piece { cells, pivot }
    }

    /// The piece after `cmd` (which may put it off the board or on filled cells).
    pub fn after(&self, cmd: Command) -> Piece {
        match cmd {
            Command::CW | Command::CCW => {
                let cw = cmd == Command::CW;
                Piece::new(self.cells.iter().map(|&c| turn(c, self.pivot, cw)).collect(), self.pivot)
            }
            _ => Piece::new(self.cells.iter().map(|&c| cmd.step(c)).collect(), cmd.step(self.pivot)),
        }
    }
}

/// A game in progress under the reference rules.
#[derive(Clone, Debug)]
pub struct Game<'p> {
    problem: &'p Problem,
    filled: Vec<bool>,
    source: Vec<usize>,
    /// Index of the current unit in `source`.
    next: usize,
    piece: Option<Piece>,
    visited: HashSet<Piece>,
    ended: Option<EndState>,
    move_score: u64,
    ls_old: usize,
    commands: usize,
    locked: usize,
    lines_cleared: usize,
    line_bonus: u64,
}

impl<'p> Game<'p> {
    /// A new game of `problem` with `seed` (any seed: [`score`] checks that it is the problem's).
    #[must_use]
    pub fn new(problem: &'p Problem, seed: u32) -> Game<'p> {
        let mut filled = vec![false; problem.width * problem.height];
        for c in &problem.filled {
            filled[c.y as usize * problem.width + c.x as usize] = true;
        }
        let mut g = Game {
            problem,
            filled,
            source: problem.source(seed),
            next: 0,
            piece: None,
            visited: HashSet::new(),
            ended: None,
            move_score: 0,
            ls_old: 0,
            commands: 0,
            locked: 0,
            lines_cleared: 0,
            line_bonus: 0,
        };
        g.spawn();
        g
    }

    /// The unit in play, if the game goes on.
    pub fn piece(&self) -> Option<&Piece> {
        self.piece.as_ref()
    }

    /// Whether cell `(x, y)` is filled.
    pub fn is_filled(&self, c: Cell) -> bool {
        self.problem.on_board(c) && self.filled[c.y as usize * self.problem.width + c.x as usize]
    }

    /// The problem played.
    pub fn problem(&self) -> &Problem {
        self.problem
    }

    /// The move score so far.
    pub fn move_score(&self) -> u64 {
        self.move_score
    }

    /// Units locked so far.
    pub fn locked(&self) -> usize {
        self.locked
    }

    /// How the game ended, if it did.
    pub fn ended(&self) -> Option<EndState> {
        self.ended
    }

    /// Index of the unit in play in the source (the number of units spawned before it).
    pub fn unit_index(&self) -> usize {
        self.next
    }

    fn valid(&self, p: &Piece) -> bool {
        p.cells.iter().all(|&c| self.problem.on_board(c) && !self.is_filled(c))
    }

    /// Places the next unit of the source, or ends the game.
    fn spawn(&mut self) {
        if self.next >= self.source.len() {
            self.ended = Some(EndState::SourceExhausted);
            self.piece = None;
            return;
        }
        let piece = spawned(&self.problem.units[self.source[self.next]], self.problem.width);
        self.visited.clear();
        if self.valid(&piece) {
            self.visited.insert(piece.clone());
            self.piece = Some(piece);
        } else {
            self.ended = Some(EndState::BoardFull);
            self.piece = None;
        }
    }

    /// Carries out one command. `Err` is a repeated position (the game is then over, with an
    /// error); a command after the end is the caller's to refuse.
    pub fn apply(&mut self, cmd: Command) -> Result<Option<usize>, ErrorKind> {
        let Some(piece) = self.piece.take() else { return Err(ErrorKind::AfterEnd) };
        let moved = piece.after(cmd);
        if !self.valid(&moved) {
            self.commands += 1;
            let cleared = self.lock(&piece);
            self.next += 1;
            self.spawn();
            return Ok(Some(cleared));
        }
        if self.visited.contains(&moved) {
            self.piece = Some(piece);
            self.ended = Some(EndState::Error);
            return Err(ErrorKind::RepeatedPosition);
        }
        self.commands += 1;
        self.visited.insert(moved.clone());
        self.piece = Some(moved);
        Ok(None)
    }

    /// Fills the piece's cells, clears full rows, scores; returns the number of rows cleared.
    fn lock(&mut self, piece: &Piece) -> usize {
        let w = self.problem.width;
        for c in &piece.cells {
            self.filled[c.y as usize * w + c.x as usize] = true;
        }
        let rows: Vec<Vec<bool>> = self.filled.chunks(w).map(<[bool]>::to_vec).collect();
        let kept: Vec<Vec<bool>> = rows.into_iter().filter(|r| !r.iter().all(|&f| f)).collect();
        let ls = self.problem.height - kept.len();
        let mut filled = vec![false; ls * w];
        filled.extend(kept.into_iter().flatten());
        self.filled = filled;
        let size = piece.cells.len() as u64;
        let points = size + 100 * (1 + ls as u64) * ls as u64 / 2;
        let bonus = if self.ls_old > 1 { (self.ls_old as u64 - 1) * points / 10 } else { 0 };
        self.move_score += points + bonus;
        self.line_bonus += bonus;
        self.lines_cleared += ls;
        self.ls_old = ls;
        self.locked += 1;
        ls
    }
}

/// A unit at its spawn position: moved to the top row, centred (an odd spare column goes to the
/// right), in the orientation the problem gives.
pub(crate) fn spawned(unit: &UnitDef, width: usize) -> Piece {
    let min_x = unit.members.iter().map(|c| c.x).min().unwrap_or(0);
    let min_y = unit.members.iter().map(|c| c.y).min().unwrap_or(0);
    let w = unit.members.iter().map(|c| c.x - min_x).max().unwrap_or(0) + 1;
    let left = (width as i32 - w).div_euclid(2);
    let shift = |c: &Cell| Cell::new(c.x - min_x + left, c.y - min_y);
    Piece::new(unit.members.iter().map(shift).collect(), shift(&unit.pivot))
}

/// Plays `solution` for `seed` of `problem` and scores it as the contest did.
#[must_use]
pub fn score(problem: &Problem, seed: u32, solution: &str, phrases: &Phrases) -> Scorecard {
    score_steps(problem, seed, solution, phrases, |_, _| {})
}

/// [`score`], calling `on_step` after every command carried out, with the game as it then is.
pub fn score_steps(
    problem: &Problem,
    seed: u32,
    solution: &str,
    phrases: &Phrases,
    mut on_step: impl FnMut(&Step, &Game<'_>),
) -> Scorecard {
    let counts = phrases.counts(solution);
    let phrase_counts: Vec<(String, usize)> =
        (0..phrases.len()).filter(|&i| counts[i] > 0).map(|i| (phrases.name(i).to_string(), counts[i])).collect();
    if !problem.has_seed(seed) {
        return Scorecard {
            evaluator_error: "seed/problem not in problem file".into(),
            phrase_counts,
            ..failed(ErrorKind::InvalidSeed, EndState::NotPlayed, 0, 0)
        };
    }
    let mut game = Game::new(problem, seed);
    let mut error: Option<(ErrorKind, String)> = None;
    for (at, ch) in solution.char_indices() {
        if is_ignored(ch) {
            continue;
        }
        if let Some((_, report)) = &mut error {
            // The evaluator reports any command after an error as a command after the end.
            *report = "command-after-game-end".into();
            break;
        }
        if game.ended.is_some() {
            error = Some((ErrorKind::AfterEnd, "command-after-game-end".into()));
            break;
        }
        let Some(cmd) = Command::from_char(ch) else {
            error = Some((ErrorKind::IllegalChar, "invalid-command".into()));
            continue;
        };
        match game.apply(cmd) {
            Ok(cleared) => {
                let step = Step {
                    at,
                    command: cmd,
                    locked: cleared.is_some(),
                    cleared: cleared.unwrap_or(0),
                    move_score: game.move_score,
                };
                on_step(&step, &game);
            }
            Err(kind) => error = Some((kind, format!("repeated-position({})", cmd.evaluator_name()))),
        }
    }
    if let Some((kind, report)) = error {
        return Scorecard {
            evaluator_error: report,
            phrase_counts,
            lines_cleared: game.lines_cleared,
            line_bonus: game.line_bonus,
            ..failed(kind, EndState::Error, game.commands, game.locked)
        };
    }
    let power: u64 = (0..phrases.len()).map(|i| power_score(phrases.text(i).len(), counts[i])).sum();
    let mut credited: Vec<String> = phrase_counts.iter().map(|(p, _)| p.clone()).collect();
    credited.sort_by_key(|p| p.to_ascii_lowercase());
    Scorecard {
        move_score: game.move_score,
        power_score: power,
        score: game.move_score + power,
        error: None,
        evaluator_error: "none".into(),
        end_state: game.ended.unwrap_or(EndState::InProgress),
        commands: game.commands,
        locked: game.locked,
        phrases: credited,
        phrase_counts,
        lines_cleared: game.lines_cleared,
        line_bonus: game.line_bonus,
    }
}

/// The game after `solution`'s commands, up to the first error or the end (ignored characters
/// skipped, characters that spell nothing stop it).
#[must_use]
pub fn replay<'p>(problem: &'p Problem, seed: u32, solution: &str) -> Game<'p> {
    let mut game = Game::new(problem, seed);
    for ch in solution.chars().filter(|&c| !is_ignored(c)) {
        match Command::from_char(ch) {
            Some(cmd) if game.ended.is_none() && game.apply(cmd).is_ok() => {}
            _ => break,
        }
    }
    game
}

/// Draws a game's board as text: odd rows shifted right, `#` filled, `@` the unit in play,
/// `.` free.
pub fn picture(game: &Game<'_>) -> String {
    let mut out = String::new();
    for (x, y, label) in labels(game) {
        match x {
            0 if y % 2 == 1 => out.push(' '),
            0 => {}
            _ => out.push(' '),
        }
        out.push(label);
        if x + 1 == game.problem().width as i32 {
            out.push('\n');
        }
    }
    out
}

/// Every cell of the board, row by row, labelled `@` (the unit in play), `#` (filled) or `.`:
/// what [`picture`] draws, and what an SVG of the board colours.
pub fn labels(game: &Game<'_>) -> Vec<(i32, i32, char)> {
    let p = game.problem();
    let unit: HashSet<Cell> = game.piece().map(|u| u.cells.iter().copied().collect()).unwrap_or_default();
    let label = |c: Cell| {
        if unit.contains(&c) {
            '@'
        } else if game.is_filled(c) {
            '#'
        } else {
            '.'
        }
    };
    (0..p.height as i32)
        .flat_map(|y| (0..p.width as i32).map(move |x| (x, y)))
        .map(|(x, y)| (x, y, label(Cell::new(x, y))))
        .collect()
}

fn failed(kind: ErrorKind, end_state: EndState, commands: usize, locked: usize) -> Scorecard {
    Scorecard {
        move_score: 0,
        power_score: 0,
        score: 0,
        error: Some(kind),
        evaluator_error: String::new(),
        end_state,
        commands,
        locked,
        phrases: Vec::new(),
        phrase_counts: Vec::new(),
        lines_cleared: 0,
        line_bonus: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(json: &str) -> Problem {
        Problem::parse(json).unwrap()
    }

    const DOT: &str = r#"{"id":0,"units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}],"width":3,"height":2,
                          "filled":[{"x":0,"y":1},{"x":1,"y":1}],"sourceLength":2,"sourceSeeds":[0]}"#;

    #[test]
    fn a_unit_spawns_centred_in_the_top_row() {
        let p = problem(DOT);
        let piece = spawned(&p.units[0], p.width);
        assert_eq!(piece.cells, [Cell::new(1, 0)]);
        let wide = UnitDef { members: vec![Cell::new(2, 1), Cell::new(3, 1)], pivot: Cell::new(2, 1) };
        // Two columns on a width of 5: one spare column left, two right.
        assert_eq!(spawned(&wide, 5).cells, [Cell::new(1, 0), Cell::new(2, 0)]);
    }

    #[test]
    fn a_full_row_clears_and_scores() {
        let p = problem(DOT);
        // E to (2,0), SE to (2,1), then SE off the board locks it there and row 1 is full.
        let v = score(&p, 0, "bll", &Phrases::official());
        assert_eq!((v.locked, v.lines_cleared, v.move_score), (1, 1, 101));
        assert_eq!(v.end_state, EndState::InProgress);
        // The second unit locks at (0,0) on its second W; the source is then exhausted.
        let v = score(&p, 0, "bllpppl", &Phrases::official());
        assert_eq!(v.error, Some(ErrorKind::AfterEnd), "{v:?}");
    }

    #[test]
    fn replays_stop_at_the_first_error_and_draw_the_board() {
        let p = problem(DOT);
        let g = replay(&p, 0, "bll\np");
        assert_eq!(g.locked(), 1);
        assert_eq!(picture(&g), "@ . .\n . . .\n");
        assert_eq!(replay(&p, 0, "bpl").piece().unwrap().cells, [Cell::new(2, 0)]);
    }

    #[test]
    fn errors_score_nothing() {
        let p = problem(DOT);
        let v = score(&p, 0, "bp", &Phrases::official());
        assert_eq!((v.error, v.score, v.commands), (Some(ErrorKind::RepeatedPosition), 0, 1));
        assert_eq!(v.evaluator_error, "repeated-position(MoveLeft)");
        let v = score(&p, 0, "b#", &Phrases::official());
        assert_eq!((v.error, v.evaluator_error.as_str()), (Some(ErrorKind::IllegalChar), "invalid-command"));
        let v = score(&p, 7, "", &Phrases::official());
        assert_eq!((v.error, v.end_state), (Some(ErrorKind::InvalidSeed), EndState::NotPlayed));
    }
}
