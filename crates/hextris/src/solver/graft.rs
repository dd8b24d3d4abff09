//! Long phrases grafted onto a finished game, wherever they fit.
//!
//! On small boards the longest phrases need more moves down than two units can make: "in his
//! house at r'lyeh dead cthulhu waits dreaming." moves down 28 times, and a unit on a board 15
//! rows high falls 14 rows at most. Such a phrase has to run through several units, each locked
//! by whichever of its commands is blocked, wherever that leaves it:
//!
//! ```text
//!   unit k:    spawn ... p  [phrase: i n   h i s   h o u s e ... (a blocked move locks it)]
//!   unit k+1:  spawn        [phrase, continued ...               (locked the same way)    ]
//!   unit k+2:  spawn        [... d r e a m i n g .]  then spelled on its way to a lock
//! ```
//!
//! A phrase's letters are fixed commands, so once the unit and the position `p` where it starts
//! are chosen, the whole run is determined: [`Solver::graft`] tries every position each of the
//! last units can reach, plays the phrase through, and for each run that the rules allow (no
//! repeated position, the game not over before the phrase is) plans the rest of the game again
//! from where the run leaves it. Each unit a run takes spells nothing else and the locks a phrase
//! chooses are rarely good ones, so the runs that take the fewest units are tried first, and among
//! them the latest (where the board matters least); the judge's score decides.

use std::collections::HashSet;

use tessera_core::runtime::{Budget, split_work};

use super::beam::{self, Plan};
use super::bridge::Carry;
use super::features::Weights;
use super::game::{Game, Grown};
use super::setup::Solver;
use crate::command::Command;
use crate::engine::{Pos, Reach, Rules, State, Unit};

/// Units whose runs are tried per phrase, counted back from the end of the game.
const LAST_UNITS: usize = 40;

/// Most runs whose games are planned and spelled, per phrase.
const RUNS: usize = 400;

/// A phrase played through some units: where each locks, how each starts (all but the last
/// with their whole text, the last where the phrase leaves it), and the game after the last
/// lock.
#[derive(Clone, Debug)]
struct Run {
    /// The first unit of the run.
    first: usize,
    starts: Vec<Carry>,
    locks: Vec<Pos>,
    state: State,
}

/// A unit on its way: where it stands, the positions of its row it has been in, its text.
struct Walker {
    at: Pos,
    row: HashSet<Pos>,
    text: Vec<u8>,
}

impl Walker {
    fn spawn(rules: &Rules, source: &[usize], state: &State) -> Option<Walker> {
        let unit = &rules.units[*source.get(state.locked)?];
        rules.fits(&state.board, unit, unit.spawn).then(|| Walker {
            at: unit.spawn,
            row: HashSet::from([unit.spawn]),
            text: Vec::new(),
        })
    }

    /// Carries out `cmd` (spelled `letter`): `Ok(true)` if it moved, `Ok(false)` if it was
    /// blocked (the unit locks where it stands), `Err` if it would repeat a position.
    fn step(&mut self, rules: &Rules, unit: &Unit, state: &State, cmd: Command, letter: u8) -> Result<bool, ()> {
        let q = unit.step(self.at, cmd);
        self.text.push(letter);
        if !rules.fits(&state.board, unit, q) {
            return Ok(false);
        }
        if q.y != self.at.y {
            self.row.clear();
        }
        if !self.row.insert(q) {
            return Err(());
        }
        self.at = q;
        Ok(true)
    }
}

/// Plays `phrase` for unit `state.locked`, brought from its spawn to `from` by `path`, then
/// takes the unit the phrase ends with straight down to a lock. `None` if the rules forbid it.
fn play(rules: &Rules, source: &[usize], state: &State, path: &[Command], phrase: &[u8]) -> Option<Run> {
    let mut run = Run { first: state.locked, starts: Vec::new(), locks: Vec::new(), state: state.clone() };
    let mut w = Walker::spawn(rules, source, &run.state)?;
    let moves = path.iter().map(|&c| (c, c.letter() as u8));
    let spelled = phrase.iter().map(|&b| (Command::from_char(b as char).unwrap_or(Command::W), b));
    let mut in_phrase = 0;
    for (i, (cmd, letter)) in moves.chain(spelled).enumerate() {
        // The game must not end before the phrase does.
        let unit = &rules.units[source[run.state.locked]];
        in_phrase += usize::from(i >= path.len());
        if !w.step(rules, unit, &run.state, cmd, letter).ok()? {
            if i < path.len() {
                return None;
            }
            run.locks.push(w.at);
            run.starts.push(Carry { text: std::mem::take(&mut w.text), at: w.at, row: Vec::new(), locked: true });
            run.state.lock(rules, source[run.state.locked], w.at);
            if in_phrase < phrase.len() {
                w = Walker::spawn(rules, source, &run.state)?;
            } else {
                return Some(run);
            }
        }
    }
    // Where the phrase leaves the unit, the speller takes over; it locks where going straight
    // down (a new row each time, so never a repeat) takes it.
    let unit = &rules.units[source[run.state.locked]];
    let carry = Carry { text: w.text.clone(), at: w.at, row: w.row.iter().copied().collect(), locked: false };
    loop {
        let down =
            [Command::SW, Command::SE].into_iter().find(|&c| rules.fits(&run.state.board, unit, unit.step(w.at, c)));
        let cmd = down.unwrap_or(Command::SW);
        if !w.step(rules, unit, &run.state, cmd, cmd.letter() as u8).ok()? {
            break;
        }
    }
    run.locks.push(w.at);
    run.starts.push(carry);
    run.state.lock(rules, source[run.state.locked], w.at);
    Some(run)
}

/// Every run of `phrase` that starts with a unit among the last [`LAST_UNITS`] of `plan` and
/// keeps to the rules, one per distinct set of locks (fewer if `budget` runs out).
fn runs(rules: &Rules, source: &[usize], start: &State, plan: &Plan, phrase: &[u8], budget: &Budget) -> Vec<Run> {
    let mut states = vec![start.clone()];
    for (k, &at) in plan.locks.iter().enumerate() {
        let mut s = states[k].clone();
        s.lock(rules, source[k], at);
        states.push(s);
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let n = plan.locks.len();
    for k in (n.saturating_sub(LAST_UNITS)..n).rev() {
        if budget.is_spent() {
            break;
        }
        let state = &states[k];
        let unit = &rules.units[source[k]];
        let reach = Reach::new(rules, &state.board, unit);
        for (p, path) in reach.paths(unit) {
            if let Some(run) = play(rules, source, state, &path, phrase)
                && seen.insert((k, run.locks.clone()))
            {
                debug_assert!(reach.is_reachable(p));
                out.push(run);
            }
        }
    }
    out
}

impl Solver<'_> {
    /// Grafts `phrase` (an index into the phrases) onto `base`: tries the runs that fit (fewest
    /// units first, then latest first) on `threads` threads, plans the rest of each game with
    /// `weights` and a beam of `width`, and returns the best game the judge scores above
    /// `base`. Runs grafted before stay if they end before the new one starts.
    pub fn graft(
        &self,
        base: &Grown,
        phrase: usize,
        weights: &Weights,
        width: usize,
        threads: usize,
        budget: &Budget,
    ) -> Option<Grown> {
        let source = self.problem.source(base.game.seed);
        let start = State::new(self.problem);
        let phrase = self.settings.phrases.text(phrase);
        let mut all = runs(&self.rules, &source, &start, &base.plan, phrase, budget);
        // Fewest units first (each unit the phrase takes spells nothing else), latest first.
        all.sort_by_key(|r| (r.locks.len(), std::cmp::Reverse(r.first)));
        all.truncate(RUNS);
        let found = split_work(
            all.len(),
            threads,
            budget,
            || None,
            |best: &mut Option<Grown>, i, b| {
                let grown = self.grown(base, &source, &all[i], weights, width, b);
                let bar = best.as_ref().unwrap_or(base).game.scorecard.score;
                if let Some(g) = grown.filter(|g| g.game.scorecard.score > bar) {
                    *best = Some(g);
                }
                true
            },
        );
        found.into_iter().flatten().max_by_key(|g| g.game.scorecard.score)
    }

    /// The game with `run` grafted onto `base`, the rest planned again; `None` if the budget ran
    /// out first or the judge did not play the whole text.
    fn grown(
        &self,
        base: &Grown,
        source: &[usize],
        run: &Run,
        weights: &Weights,
        width: usize,
        budget: &mut Budget,
    ) -> Option<Grown> {
        let after = run.first + run.locks.len();
        let mut rest = Vec::new();
        if after < source.len() {
            let p = beam::plan(&self.rules, &self.rates, &run.state, source, weights, width, budget);
            if p.stopped {
                return None;
            }
            rest = p.locks;
        }
        let locks: Vec<Pos> = base.plan.locks[..run.first].iter().chain(&run.locks).chain(&rest).copied().collect();
        // Earlier runs stay if they end before this one; one it would cut is dropped whole.
        let mut fixed = base.fixed.clone();
        if fixed.last_key_value().is_some_and(|(&k, _)| k >= run.first) {
            fixed.clear();
        }
        fixed.extend((run.first..).zip(run.starts.iter().cloned()));
        let plan = Plan { locks, move_score: 0, power: 0.0, stopped: false };
        let s = self.spell_fixed(base.game.seed, &plan, &fixed, budget, 1);
        // The speller cuts a text before an error, so a game cut short is a failed one.
        let whole = s.scorecard.error.is_none() && s.scorecard.locked == plan.locks.len();
        (whole && !budget.expired()).then(|| Grown {
            game: Game { text: s.text, scorecard: s.scorecard, partial: false, ..base.game.clone() },
            plan,
            fixed,
            ends: s.ends,
            free_from: s.free_from,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn every_reachable_position_gets_a_path_that_leads_there_without_repeats() {
        let p = builtin::problem(20).unwrap();
        let rules = Rules::new(&p).unwrap();
        let state = State::new(&p);
        for unit in &rules.units {
            let reach = Reach::new(&rules, &state.board, unit);
            let found = reach.paths(unit);
            let reachable = (0..reach.keys()).map(|k| reach.pos_of(k)).filter(|&q| reach.is_reachable(q)).count();
            assert_eq!(found.len(), reachable);
            for (target, path) in found {
                let mut at = unit.spawn;
                let mut seen = HashSet::from([at]);
                for &cmd in &path {
                    at = unit.step(at, cmd);
                    assert!(rules.fits(&state.board, unit, at) && seen.insert(at), "{path:?}");
                }
                assert_eq!(at, target);
            }
        }
    }

    #[test]
    fn a_run_is_refused_when_a_turn_repeats_a_position() {
        // A unit of one cell cannot turn: a turn leaves it where it is, a repeated position.
        let p = builtin::problem(1).unwrap();
        let rules = Rules::new(&p).unwrap();
        let source = p.source(p.source_seeds[0]);
        let state = State::new(&p);
        assert_eq!(rules.units[source[0]].period, 1);
        let run = play(&rules, &source, &state, &[], b"ei!").expect("no turn in it");
        assert_eq!(run.locks.len(), run.starts.len());
        let spelled: Vec<u8> = run.starts.iter().flat_map(|c| c.text.clone()).collect();
        assert_eq!(spelled, b"ei!");
        let last = run.starts.last().unwrap();
        assert!(!last.locked && last.row.contains(&last.at));
        assert!(play(&rules, &source, &state, &[], b"r'lyeh").is_none());
    }
}
