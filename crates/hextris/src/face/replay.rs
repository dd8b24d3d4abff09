//! One hextris game replayed by the reference judge (never the solver's engine): the board step
//! by step on the hex lattice, the unit in play, locks and line clears, the score so far, and the
//! command string with its phrases of power.
//!
//! A game of the largest problem runs to tens of thousands of commands, so a step stores only the
//! cells it changes, and long games are shown command by command only near their start and their
//! end: in between, one step per unit locked (see [`DETAIL`]).

use crate::command::{Command, is_ignored};
use crate::judge::{self, EndState, ErrorKind, Game, Scorecard};
use crate::phrase::{Occurrence, power_score};
use crate::{Cell as Hex, Phrases, Problem};
use tessera_core::geometry::Lattice;

use tessera_game::view::{Board, Cell, Replay, Step};

/// Games of up to this many commands are replayed command by command; a longer game only for its
/// first and last `DETAIL / 2` commands, one step per unit locked in between.
pub const DETAIL: usize = 8000;

const FREE: u8 = b'.';
const FILLED: u8 = b'#';
const UNIT: u8 = b'@';

/// A game replayed: the replay, the board at the end, and the judge's scorecard.
#[derive(Debug)]
pub struct Played {
    /// Step by step.
    pub replay: Replay,
    /// The board at the end.
    pub board: Board,
    /// The judge's scorecard.
    pub scorecard: Scorecard,
}

/// The phrase score of the text up to a position that only grows.
struct PowerSoFar {
    /// Occurrences by end: `(end, phrase)`.
    ends: Vec<(usize, usize)>,
    next: usize,
    counts: Vec<usize>,
    lengths: Vec<usize>,
}

impl PowerSoFar {
    fn new(phrases: &Phrases, found: &[Occurrence]) -> PowerSoFar {
        let mut ends: Vec<(usize, usize)> = found.iter().map(|o| (o.end, o.phrase)).collect();
        ends.sort_unstable();
        let lengths = (0..phrases.len()).map(|i| phrases.text(i).len()).collect();
        PowerSoFar { ends, next: 0, counts: vec![0; phrases.len()], lengths }
    }

    fn at(&mut self, pos: usize) -> u64 {
        while self.next < self.ends.len() && self.ends[self.next].0 <= pos {
            self.counts[self.ends[self.next].1] += 1;
            self.next += 1;
        }
        self.counts.iter().zip(&self.lengths).map(|(&n, &len)| power_score(len, n)).sum()
    }
}

/// The board as shown, and the steps that change it.
struct Builder {
    width: usize,
    shown: Vec<u8>,
    /// The cells of the unit as shown (it is not shown moving between locks in long games).
    unit: Vec<Hex>,
    steps: Vec<Step>,
}

impl Builder {
    fn cell(&self, i: usize) -> (i32, i32) {
        ((i % self.width) as i32, (i / self.width) as i32)
    }

    /// A step that turns the shown board into `target`.
    fn step_to(&mut self, target: Vec<u8>, marks: Vec<(i32, i32)>, caption: String, text_at: usize, score: u64) {
        let mut step = Step { marks, caption, text_at: Some(text_at), score: Some(score), ..Step::default() };
        for (i, (&old, &new)) in self.shown.iter().zip(&target).enumerate() {
            if old != new {
                let (x, y) = self.cell(i);
                if new == FREE { step.clear.push((x, y)) } else { step.set.push((x, y, label(new))) }
            }
        }
        self.unit = (0..target.len()).filter(|&i| target[i] == UNIT).map(|i| self.hex(i)).collect();
        self.shown = target;
        self.steps.push(step);
    }

    fn hex(&self, i: usize) -> Hex {
        let (x, y) = self.cell(i);
        Hex::new(x, y)
    }

    /// The unit moved to `new`: only those cells change.
    fn step_unit(&mut self, new: &[Hex], step: Step) {
        let mut step = step;
        let w = self.width;
        let old = std::mem::replace(&mut self.unit, new.to_vec());
        for c in old.iter().filter(|c| !new.contains(c)) {
            self.shown[c.y as usize * w + c.x as usize] = FREE;
            step.clear.push((c.x, c.y));
        }
        for c in new {
            let i = c.y as usize * w + c.x as usize;
            if self.shown[i] != UNIT {
                self.shown[i] = UNIT;
                step.set.push((c.x, c.y, label(UNIT)));
            }
        }
        self.steps.push(step);
    }
}

fn label(b: u8) -> String {
    char::from(b).to_string()
}

/// The board of a game as it stands: filled cells and the unit in play.
fn grid(game: &Game<'_>) -> Vec<u8> {
    let p = game.problem();
    let mut g: Vec<u8> = (0..p.height as i32)
        .flat_map(|y| (0..p.width as i32).map(move |x| (x, y)))
        .map(|(x, y)| if game.is_filled(Hex::new(x, y)) { FILLED } else { FREE })
        .collect();
    for c in game.piece().map_or(&[][..], |u| &u.cells) {
        g[c.y as usize * p.width + c.x as usize] = UNIT;
    }
    g
}

/// The text as shown: a character the page could not index like the judge (not ASCII) becomes
/// `?`, which spells no command either, so the scorecard and the phrases are the same.
fn ascii(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii() { c } else { '?' }).collect()
}

/// Replays `solution` for `seed` of `problem` with the official phrases.
pub fn play(title: &str, problem: &Problem, seed: u32, solution: &str) -> Played {
    play_within(title, problem, seed, solution, DETAIL)
}

/// [`play`], commands shown one by one in games of up to `detail` commands, and near the ends of
/// longer ones.
fn play_within(title: &str, problem: &Problem, seed: u32, solution: &str, detail: usize) -> Played {
    let phrases = Phrases::official();
    let text = ascii(solution);
    let found = phrases.occurrences(&text);
    let mut power = PowerSoFar::new(&phrases, &found);
    let total = judge::score(problem, seed, &text, &phrases).commands;
    let shown = |k: usize| total <= detail || k < detail / 2 || k + detail / 2 >= total;
    let (w, units) = (problem.width, problem.source_length);
    let start_game = Game::new(problem, seed);
    let mut start = grid(&start_game);
    if !problem.has_seed(seed) {
        start.iter_mut().filter(|b| **b == UNIT).for_each(|b| *b = FREE);
    }
    let mut piece: Vec<Hex> = start_game.piece().map(|u| u.cells.clone()).unwrap_or_default();
    let unit = if problem.has_seed(seed) { piece.clone() } else { Vec::new() };
    let mut b = Builder { width: w, shown: start.clone(), unit, steps: Vec::new() };
    let mut filled: Vec<bool> = start.iter().map(|&c| c == FILLED).collect();
    let (mut k, mut last_at, mut score_before) = (0, None, 0);
    let scorecard = judge::score_steps(problem, seed, &text, &phrases, |s, game| {
        let at = s.at + 1;
        let score = s.move_score + power.at(at);
        let now: Vec<Hex> = game.piece().map(|u| u.cells.clone()).unwrap_or_default();
        // After a lock the judge has moved on to the next unit.
        let unit_no = if s.locked { game.unit_index() } else { game.unit_index() + 1 };
        if s.locked {
            let mut a: Vec<u8> = filled.iter().map(|&f| if f { FILLED } else { FREE }).collect();
            for c in &piece {
                a[c.y as usize * w + c.x as usize] = FILLED;
            }
            let gained = s.move_score - score_before;
            let locked: Vec<(i32, i32)> = piece.iter().map(|c| (c.x, c.y)).collect();
            let what = format!("unit {unit_no} of {units} locked: +{gained} points");
            if s.cleared > 0 {
                let full: Vec<usize> =
                    (0..problem.height).filter(|y| a[y * w..(y + 1) * w].iter().all(|&c| c == FILLED)).collect();
                let marks = full.iter().flat_map(|&y| (0..w).map(move |x| (x as i32, y as i32))).collect();
                let rows: Vec<String> = full.iter().map(usize::to_string).collect();
                let full_rows = if s.cleared == 1 { "1 line full (row" } else { "lines full (rows" };
                let n = if s.cleared == 1 { String::new() } else { format!("{} ", s.cleared) };
                let caption = format!("{what}, {n}{full_rows} {})", rows.join(", "));
                b.step_to(a, marks, caption, at, score);
                let next = match game.ended() {
                    Some(EndState::BoardFull) => "the next unit does not fit: the game is over".to_string(),
                    Some(_) => "no units left: the game is over".to_string(),
                    None => format!("unit {} of {units} comes in", unit_no + 1),
                };
                let cleared = if s.cleared == 1 { "1 line".to_string() } else { format!("{} lines", s.cleared) };
                b.step_to(grid(game), Vec::new(), format!("{cleared} cleared; {next}"), at, score);
            } else {
                b.step_to(grid(game), locked, what, at, score);
            }
            filled =
                (0..w * problem.height).map(|i| game.is_filled(Hex::new((i % w) as i32, (i / w) as i32))).collect();
            score_before = s.move_score;
        } else if shown(k) {
            let pivot = game.piece().map(|u| u.pivot).filter(|c| problem.on_board(*c));
            let ch = text[s.at..].chars().next().unwrap_or('?');
            let caption = format!("unit {unit_no} of {units}, command {} of {total}: {} ({ch:?})", k + 1, s.command);
            let marks = pivot.map(|c| vec![(c.x, c.y)]).unwrap_or_default();
            b.step_unit(&now, Step { marks, caption, text_at: Some(at), score: Some(score), ..Step::default() });
        }
        piece = now;
        last_at = Some(s.at);
        k += 1;
    });
    let end = ending(&text, last_at, &scorecard);
    let marks = if scorecard.error.is_some() { piece.iter().map(|c| (c.x, c.y)).collect() } else { Vec::new() };
    b.steps.push(Step { marks, caption: end.0, text_at: Some(end.1), score: Some(scorecard.score), ..Step::default() });
    let cells =
        |g: &[u8]| -> Vec<Cell> { g.iter().enumerate().map(|(i, &c)| (b.cell(i).0, b.cell(i).1, label(c))).collect() };
    let final_cells = cells(&b.shown);
    let start_cells = cells(&start);
    let how = if total > detail {
        format!("; commands 1-{} and the last {} one by one, one step per unit in between", detail / 2, detail / 2)
    } else {
        String::new()
    };
    let long = format!("{title}: {} x {}, {} commands{how}", problem.width, problem.height, total);
    let mut replay = Replay::new(long, Lattice::Hex, start_cells, b.steps, "step");
    replay.text = Some(text);
    replay.highlights = found.iter().map(|o| (o.start, o.end)).collect();
    replay.labels = false;
    replay.verdict = true;
    colour(&mut replay.palette);
    let mut board = Board::new(format!("{title}: the end"), Lattice::Hex, final_cells, caption(&scorecard, units));
    board.labels = false;
    colour(&mut board.palette);
    Played { replay, board, scorecard }
}

/// The last step's caption and the text position it points at (the command at fault, if any).
fn ending(text: &str, last_at: Option<usize>, v: &Scorecard) -> (String, usize) {
    let from = last_at.map_or(0, |a| a + 1);
    let fault = text[from..].char_indices().find(|&(_, c)| !is_ignored(c)).map(|(i, c)| (from + i, c));
    let state = serde_json::to_value(v.end_state).ok().and_then(|s| s.as_str().map(str::to_string)).unwrap_or_default();
    match (v.error, fault) {
        (Some(ErrorKind::InvalidSeed), _) => (format!("{}: nothing is played", v.evaluator_error), 0),
        (Some(_), Some((i, c))) => {
            let what = Command::from_char(c).map_or("spells no command".to_string(), |cmd| format!("is {cmd}"));
            (format!("error at {c:?} (which {what}): {}: the game scores 0", v.evaluator_error), i + 1)
        }
        (Some(_), None) => (format!("error: {}: the game scores 0", v.evaluator_error), text.len()),
        (None, _) => (
            format!(
                "end ({}): score {} = move {} + power {}, {} phrases",
                state.replace('_', " "),
                v.score,
                v.move_score,
                v.power_score,
                v.phrases.len()
            ),
            text.len(),
        ),
    }
}

/// The lines under the final board.
fn caption(v: &Scorecard, units: usize) -> Vec<String> {
    let state = serde_json::to_value(v.end_state).ok().and_then(|s| s.as_str().map(str::to_string)).unwrap_or_default();
    let mut lines = vec![match v.error {
        Some(_) => format!("score 0: {} ({})", v.evaluator_error, state.replace('_', " ")),
        None => {
            format!("score {} = move {} + power {} ({})", v.score, v.move_score, v.power_score, state.replace('_', " "))
        }
    }];
    lines.push(format!(
        "{} of {units} units locked, {} lines cleared (line bonus {}), {} commands",
        v.locked, v.lines_cleared, v.line_bonus, v.commands
    ));
    if !v.phrase_counts.is_empty() {
        let each: Vec<String> = v.phrase_counts.iter().map(|(p, n)| format!("{p:?} x{n}")).collect();
        lines.push(format!("phrases of power: {}", each.join(", ")));
    }
    lines
}

/// Filled cells in slate, the unit in play in orange.
fn colour(palette: &mut std::collections::BTreeMap<String, String>) {
    palette.insert(label(FILLED), "#56616d".into());
    palette.insert(label(UNIT), "#e8842a".into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use crate::judge::score;

    /// A whole game of problem 6 seed 0: a phrase, then straight down until the board is full.
    fn whole_game() -> (Problem, String) {
        let p = builtin::problem(6).unwrap();
        let long = format!("Ei!{}", "la".repeat(2000));
        let v = score(&p, 0, &long, &Phrases::official());
        assert_eq!(v.error, Some(ErrorKind::AfterEnd), "the board fills up first");
        (p, long[..v.commands].to_string())
    }

    #[test]
    fn a_game_is_replayed_as_the_judge_plays_it() {
        let (p, text) = whole_game();
        let played = play("t", &p, 0, &text);
        let v = score(&p, 0, &text, &Phrases::official());
        assert_eq!(played.scorecard, v);
        assert_eq!((v.error, v.end_state), (None, EndState::BoardFull));
        let r = &played.replay;
        assert_eq!((r.lattice, r.labels, r.unit.as_str(), r.verdict), ("hex", false, "step", true));
        assert_eq!(r.start.len(), 100);
        assert_eq!(r.highlights, [(0, 3)]);
        let locks = r.steps.iter().filter(|s| s.caption.contains("locked")).count();
        assert_eq!(locks, v.locked);
        // Every command is a step (locks with cleared lines two), plus the scorecard.
        let clears = r.steps.iter().filter(|s| s.caption.contains(" full (row")).count();
        assert_eq!(r.steps.len(), v.commands + clears + 1);
        let last = r.steps.last().unwrap();
        assert_eq!((last.score, last.text_at), (Some(v.score), Some(text.len())));
        assert!(last.caption.contains("board full") && v.power_score > 0, "{}", last.caption);
        assert_eq!(r.steps[2].score, Some(306), "'Ei!' is credited once spelled");
        // The board at the end is the judge's.
        let end = judge::replay(&p, 0, &text);
        let filled = played.board.cells.iter().filter(|c| c.2 == "#").count();
        let judge_filled = (0..100).filter(|i| end.is_filled(Hex::new(i % 10, i / 10))).count();
        assert_eq!(filled, judge_filled);
        assert!(played.board.caption[0].starts_with(&format!("score {}", v.score)));
    }

    #[test]
    fn the_cells_shown_follow_the_steps_through_line_clears() {
        use crate::solver::{Settings, Solver};
        // A beam of width 1 without a time limit: the same game on any machine, however slow.
        let p = builtin::problem(6).unwrap();
        let solver = Solver::new(&p, &Settings::default()).unwrap();
        let text = solver.play(0, 0, 1, &mut tessera_core::runtime::Budget::unlimited()).text;
        let r = play_within("t", &p, 0, &text, 1000).replay;
        let clears = r.steps.iter().filter(|s| s.caption.contains(" full (row")).count();
        assert!(clears > 0, "the solver clears lines");
        let mut board: Vec<String> = r.start.iter().map(|c| c.2.clone()).collect();
        for s in &r.steps {
            for &(x, y) in &s.clear {
                board[(y * 10 + x) as usize] = ".".into();
            }
            for (x, y, l) in &s.set {
                board[(y * 10 + x) as usize] = l.clone();
            }
            assert!(board.iter().filter(|l| *l == "@").count() <= 6, "one unit in play at most");
        }
        let end = judge::replay(&p, 0, &text);
        let unit = end.piece().map(|u| u.cells.clone()).unwrap_or_default();
        for (i, l) in board.iter().enumerate() {
            let c = Hex::new(i as i32 % 10, i as i32 / 10);
            assert_eq!((l == "#", l == "@"), (end.is_filled(c), unit.contains(&c)), "cell {i}");
        }
    }

    #[test]
    fn long_games_are_shown_one_unit_at_a_time_in_the_middle() {
        let (p, text) = whole_game();
        let v = score(&p, 0, &text, &Phrases::official());
        let r = play_within("t", &p, 0, &text, 20).replay;
        let moves = r.steps.iter().filter(|s| s.caption.contains("command")).count();
        // The first 10 and the last 10 commands, less the locks among them (every lock is shown).
        assert!((10..=20).contains(&moves), "{moves} commands shown one by one");
        assert!(r.steps[0].caption.contains("command 1 of"));
        assert_eq!(r.steps.iter().filter(|s| s.caption.contains("locked")).count(), v.locked);
        assert!(r.steps.len() < v.commands && r.title.contains("one step per unit"), "{} steps, {v:?}", r.steps.len());
        let full = play_within("t", &p, 0, &text, 20).board;
        assert_eq!(full.cells, play("t", &p, 0, &text).board.cells, "the same end");
    }

    #[test]
    fn errors_are_shown_where_they_happen() {
        let (p, _) = whole_game();
        let r = play("t", &p, 0, "lapb").replay;
        let last = r.steps.last().unwrap();
        assert!(last.caption.contains("repeated-position(MoveRight)"), "{}", last.caption);
        assert_eq!((last.text_at, last.score, last.marks.is_empty()), (Some(4), Some(0), false));
        let bad = play("t", &p, 0, "la#é").replay;
        assert_eq!(bad.text.as_deref(), Some("la#?"));
        assert!(bad.steps.last().unwrap().caption.contains("spells no command"));
        let unseeded = play("t", &p, 7, "la");
        assert_eq!(unseeded.replay.steps.len(), 1);
        assert!(unseeded.replay.start.iter().all(|c| c.2 != "@"), "nothing is played");
    }
}
