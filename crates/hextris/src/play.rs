//! Playing a problem by hand: a session that takes typed commands a line at a time, refuses the
//! ones that would break a rule, undoes, and keeps the score as the judge would give it.
//!
//! ```text
//!  . . . @ @ . . .        typed: "ei! "   (phrases count, any case)
//! . . . . @ . . . .       unit 3 of 100 (next: 0 4 4)
//!  . . . . . . . . .      score 318 = move 12 + power 306, 1 phrase
//! # # . # # # # . #
//! ```
//!
//! Everything here goes through the reference rules ([`crate::judge`]), so what the session shows
//! is what the scorer will say about the saved solution.

use crate::command::Command;
use crate::judge::{self, EndState, Game, Scorecard};
use crate::phrase::Phrases;
use crate::problem::Problem;

/// What one typed character did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The unit moved or turned.
    Moved,
    /// The unit locked, clearing this many lines.
    Locked(usize),
    /// Refused: it would bring the unit back to a position it already had.
    Repeat(char),
    /// Refused: the character spells no command.
    Unknown(char),
    /// Refused: the game is over.
    Over,
    /// A tab or a line end, skipped (a space is a move).
    Ignored,
}

/// A game played by hand.
#[derive(Clone, Debug)]
pub struct Session<'p> {
    problem: &'p Problem,
    seed: u32,
    phrases: Phrases,
    game: Game<'p>,
    /// Every command accepted so far, as typed.
    text: String,
}

impl<'p> Session<'p> {
    /// A new game of `problem` with `seed` (one of the problem's seeds).
    #[must_use]
    pub fn new(problem: &'p Problem, seed: u32, phrases: Phrases) -> Session<'p> {
        Session { problem, seed, phrases, game: Game::new(problem, seed), text: String::new() }
    }

    /// The commands accepted so far: the solution to save.
    pub fn solution(&self) -> &str {
        &self.text
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game<'p> {
        &self.game
    }

    /// The seed played.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// Types one character.
    pub fn key(&mut self, ch: char) -> Effect {
        // A space is a command (south-east); tabs and line ends are not.
        if crate::command::is_ignored(ch) {
            return Effect::Ignored;
        }
        let Some(cmd) = Command::from_char(ch) else { return Effect::Unknown(ch) };
        if self.game.ended().is_some() {
            return Effect::Over;
        }
        // A repeated position ends a game with an error: try on a copy first.
        let mut next = self.game.clone();
        match next.apply(cmd) {
            Ok(locked) => {
                self.game = next;
                self.text.push(ch);
                locked.map_or(Effect::Moved, Effect::Locked)
            }
            Err(_) => Effect::Repeat(ch),
        }
    }

    /// Types a line; returns what each character did, in order.
    pub fn line(&mut self, line: &str) -> Vec<Effect> {
        line.chars().map(|c| self.key(c)).collect()
    }

    /// Takes back the last `n` accepted commands; returns how many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        let keep = self.text.chars().count().saturating_sub(n);
        let taken = self.text.chars().count() - keep;
        self.text = self.text.chars().take(keep).collect();
        self.game = judge::replay(self.problem, self.seed, &self.text);
        taken
    }

    /// The judge's scorecard of the solution so far.
    pub fn scorecard(&self) -> Scorecard {
        judge::score(self.problem, self.seed, &self.text, &self.phrases)
    }

    /// The board with the unit in play, and a status block beside it.
    pub fn render(&self) -> String {
        let v = self.scorecard();
        let source = self.problem.source(self.seed);
        let at = self.game.unit_index();
        let next: Vec<String> = source.iter().skip(at + 1).take(3).map(|u| u.to_string()).collect();
        let state = match self.game.ended() {
            None => format!("unit {} of {} (next: {})", (at + 1).min(source.len()), source.len(), next.join(" ")),
            Some(EndState::BoardFull) => "game over: the board is full".to_string(),
            Some(EndState::SourceExhausted) => "game over: every unit played".to_string(),
            Some(e) => format!("game over: {e:?}"),
        };
        let status = [
            format!("problem {}, seed {}", self.problem.id, self.seed),
            state,
            format!("score {} = move {} + power {}", v.score, v.move_score, v.power_score),
            format!("{} lines, {} phrases: {}", v.lines_cleared, v.phrases.len(), v.phrases.join(", ")),
            format!("{} commands", self.text.chars().count()),
        ];
        let board = judge::picture(&self.game);
        let mut out = String::new();
        for (i, row) in board.lines().enumerate() {
            out += row;
            if let Some(s) = status.get(i) {
                out += "    ";
                out += s;
            }
            out.push('\n');
        }
        for s in status.iter().skip(board.lines().count()) {
            out += s;
            out.push('\n');
        }
        out
    }
}

/// The keys, for the help text: each move's letters.
pub fn keys() -> String {
    let moves = [
        ("west", Command::W),
        ("east", Command::E),
        ("south-west", Command::SW),
        ("south-east", Command::SE),
        ("turn clockwise", Command::CW),
        ("turn counter-clockwise", Command::CCW),
    ];
    let shown = |c: &Command| match c.chars().replace(' ', "") {
        s if s.len() < c.chars().len() => format!("{s} and space"),
        s => s,
    };
    moves.iter().map(|(name, c)| format!("  {:<24}{}\n", name, shown(c))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn a_session_agrees_with_the_judge_and_refuses_repeats() {
        let p = builtin::problem(6).unwrap();
        let mut s = Session::new(&p, 0, Phrases::official());
        assert_eq!(s.key('p'), Effect::Moved); // west
        assert_eq!(s.key('b'), Effect::Repeat('b')); // back east: the position it came from
        assert_eq!(s.key('~'), Effect::Unknown('~'));
        assert_eq!(s.key('\t'), Effect::Ignored);
        // Drop the unit straight down until it locks.
        let mut locked = false;
        for _ in 0..p.height * 2 {
            let e = s.key(if s.solution().len().is_multiple_of(2) { 'a' } else { 'l' });
            if let Effect::Locked(_) = e {
                locked = true;
                break;
            }
        }
        assert!(locked);
        let v = s.scorecard();
        assert_eq!(v.error, None);
        assert_eq!(v, judge::score(&p, 0, s.solution(), &Phrases::official()));
        assert_eq!(v.locked, 1);
        assert_eq!(s.game().unit_index(), 1);
        let n = s.solution().len();
        assert_eq!(s.undo(2), 2);
        assert_eq!(s.solution().len(), n - 2);
        assert_eq!(s.game().unit_index(), 0);
        assert!(s.render().contains("score"));
    }

    #[test]
    fn phrases_typed_are_scored() {
        let p = builtin::problem(6).unwrap();
        let mut s = Session::new(&p, 0, Phrases::official());
        let effects = s.line("Ei! Ia! Ia!");
        assert!(effects.iter().all(|e| matches!(e, Effect::Moved | Effect::Locked(_))), "{effects:?}");
        assert_eq!(s.scorecard().power_score, 300 + 2 * 3 + 300 + 2 * 7);
        assert!(keys().contains("south-west"));
    }
}
