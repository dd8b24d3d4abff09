//! A plan spelled into a game: each unit's text in turn, phrases carried across locks.
//!
//! Units are spelled in order while something links one unit's text to the next: a phrase not
//! yet used (its first use is worth 300 more, and a phrase may cross a lock), or a phrase that
//! runs on into the next unit. Once every phrase is used and nothing is carried over, each unit's
//! text depends only on its board, which the plan fixes: the rest of the game is spelled on
//! several threads.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use tessera_core::runtime::{Budget, interrupted, split_work};

use super::beam::Plan;
use super::bridge::{self, Bridge, Carry, Next};
use super::game::{Game, Grown, cut_short};
use super::setup::Solver;
use super::speller::Speller;
use super::unturned::Turnless;
use crate::engine::{Pos, State};
use crate::judge::{Scorecard, score};
use crate::phrase::Phrases;
use crate::problem::Problem;

/// A plan spelled: the text, the judge's scorecard, and what changing the plan later needs.
#[derive(Clone, Debug)]
pub(crate) struct Spelled {
    pub text: String,
    pub scorecard: Scorecard,
    /// Where each unit's text ends in `text` (empty if the judge had to cut the text short).
    pub ends: Vec<usize>,
    /// From this unit on, each unit's text depends on its own board alone: every phrase is
    /// used before it and nothing is carried into it.
    pub free_from: usize,
}

impl Spelled {
    /// Judges `text` (whose units end at `ends`). Error-free by construction; if the judge finds
    /// an error all the same, the text is cut before it.
    pub fn judged(
        problem: &Problem,
        seed: u32,
        text: Vec<u8>,
        mut ends: Vec<usize>,
        free_from: usize,
        phrases: &Phrases,
    ) -> Spelled {
        let mut text = String::from_utf8(text).expect("commands are ASCII");
        let mut scorecard = score(problem, seed, &text, phrases);
        if scorecard.error.is_some() {
            text.truncate(scorecard.commands);
            scorecard = score(problem, seed, &text, phrases);
            ends.clear();
        }
        Spelled { text, scorecard, ends, free_from }
    }
}

/// How long past the deadline units are still given plain paths. After that the game ends
/// where it is: a game may stop before its units run out, rather than overrun its deadline by
/// plain paths for every unit left.
const LATE: Duration = Duration::from_millis(50);

/// Whether the game being spelled should end now: [`LATE`] past the deadline of `end`, or at
/// once after Ctrl-C (the user then wants the answer there is, not plain paths for every unit
/// left).
fn too_late(end: &Budget) -> bool {
    interrupted() || end.overrun().is_some_and(|d| d > LATE)
}

impl Solver<'_> {
    /// Plans and spells one game.
    #[must_use]
    pub fn play(&self, seed: u32, k: usize, width: usize, budget: &mut Budget) -> Game {
        let plan = self.plan(seed, k, width, budget);
        let (text, scorecard) = self.spell(seed, &plan, budget);
        let partial = cut_short(&plan, &scorecard);
        Game { seed, text, scorecard, width, weights: k, partial }
    }

    /// Spells a plan and judges the text. Error-free by construction; if the judge finds an
    /// error all the same, the text is cut before it. Once `budget` runs out, the remaining
    /// units take their plain shortest paths.
    pub(crate) fn spell(&self, seed: u32, plan: &Plan, budget: &Budget) -> (String, Scorecard) {
        self.spell_on(seed, plan, budget, 1)
    }

    /// [`Solver::spell`] on `threads` threads (the same text, whatever their number).
    pub(crate) fn spell_on(&self, seed: u32, plan: &Plan, budget: &Budget, threads: usize) -> (String, Scorecard) {
        let s = self.spell_fixed(seed, plan, &BTreeMap::new(), budget, threads);
        (s.text, s.scorecard)
    }

    /// A plan spelled and judged on `threads` threads (once `spelling` runs out, the remaining
    /// units take their plain shortest paths, until 50 ms past the deadline of `end`), as a game
    /// that can be grafted onto or reworked (planned with weights `weights` of the portfolio and
    /// a beam of `width`).
    #[must_use]
    pub fn grow(
        &self,
        seed: u32,
        plan: &Plan,
        (weights, width): (usize, usize),
        (spelling, end): (&Budget, &Budget),
        threads: usize,
    ) -> Grown {
        let Spelled { text, scorecard, ends, free_from } =
            self.spell_until(seed, plan, &BTreeMap::new(), (spelling, end), threads);
        let partial = cut_short(plan, &scorecard);
        let game = Game { seed, text, scorecard, width, weights, partial };
        Grown { game, plan: plan.clone(), fixed: BTreeMap::new(), ends, free_from }
    }

    /// [`Solver::spell`], with some units started elsewhere than at their spawn (`fixed[k]`:
    /// a [`Carry`]; if it is `locked`, its text is the unit's whole text, ending at its planned
    /// lock), on `threads` threads.
    pub(crate) fn spell_fixed(
        &self,
        seed: u32,
        plan: &Plan,
        fixed: &BTreeMap<usize, Carry>,
        budget: &Budget,
        threads: usize,
    ) -> Spelled {
        self.spell_until(seed, plan, fixed, (budget, budget), threads)
    }

    /// [`Solver::spell_fixed`], with phrases spelled within `budget` and the game ended once it
    /// is [`too_late`] for `end`.
    fn spell_until(
        &self,
        seed: u32,
        plan: &Plan,
        fixed: &BTreeMap<usize, Carry>,
        (budget, end): (&Budget, &Budget),
        threads: usize,
    ) -> Spelled {
        let source = self.problem.source(seed);
        let phrases = &self.settings.phrases;
        let mut speller = self.speller();
        let mut used = vec![false; phrases.len()];
        let mut state = State::new(self.problem);
        let mut text = Vec::new();
        let longest = (0..phrases.len()).map(|i| phrases.text(i).len()).max().unwrap_or(0);
        let locks = &plan.locks;
        let bonus = self.unturned_bonus(&source, locks, &speller, budget);
        // Where the next units start when a phrase crosses locks (see [`bridge`]).
        let (mut carry, mut then): (Option<Carry>, Option<Carry>) = (None, None);
        let (mut ends, mut free_from) = (Vec::with_capacity(locks.len()), locks.len());
        for (k, &at) in locks.iter().enumerate() {
            if k > 0 && too_late(end) {
                // The game ends here (a game may stop before its units run out, but not before
                // its first: however late, a plain path for one unit takes no time).
                break;
            }
            if carry.is_none() && then.is_none() && used.iter().all(|&u| u) {
                // Nothing links the units any more: the rest on several threads.
                free_from = k;
                for t in self.spell_rest(&source, &locks[k..], fixed, state, (budget, end), threads) {
                    text.extend(t);
                    ends.push(text.len());
                }
                break;
            }
            let unit = &self.rules.units[source[k]];
            let t = match fixed.get(&k).cloned().or_else(|| carry.take()) {
                // The middle of a phrase that crosses two locks: the whole text is given.
                Some(c) if c.locked => {
                    carry = then.take();
                    c.text
                }
                None if budget.is_spent() => Speller::plain(&self.rules, &state.board, unit, at),
                start => {
                    let start = start.unwrap_or_else(|| Carry::spawn(unit));
                    // Bridges never reach into a unit whose text is given.
                    let free = (1..=2).take_while(|i| !fixed.contains_key(&(k + i))).count();
                    speller.after(&text[text.len().saturating_sub(longest)..], &bonus[k]);
                    let (t, b) = self.spell_unit(&mut speller, &state, &source, (k, free), locks, &used, start, budget);
                    if let Some(b) = b {
                        used[b.phrase] = true;
                        (carry, then) = (Some(b.carry), b.then);
                    }
                    t
                }
            };
            // Phrases used so far, those that run across units included: counted over this
            // unit's text and as much of the text before as the longest phrase.
            let from = text.len().saturating_sub(longest);
            text.extend_from_slice(&t);
            ends.push(text.len());
            let counts = phrases.counts(std::str::from_utf8(&text[from..]).unwrap_or(""));
            for (u, c) in used.iter_mut().zip(counts) {
                *u |= c > 0;
            }
            state.lock(&self.rules, source[k], at);
        }
        Spelled::judged(self.problem, seed, text, ends, free_from, phrases)
    }

    /// For each unit of a game locking at `locks`: when it and the next cannot turn, what the
    /// next one earns by the state of the phrases' automaton where this one's text ends, so that
    /// each text ends where the next does best (worked out from the last unit back); empty
    /// otherwise, or once `budget` is spent.
    fn unturned_bonus(&self, source: &[usize], locks: &[Pos], speller: &Speller, budget: &Budget) -> Vec<Vec<i64>> {
        let mut bonus = vec![Vec::new(); locks.len()];
        let units = |k: usize| &self.rules.units[source[k]];
        if budget.is_spent() || !(0..locks.len()).any(|k| Turnless::takes(&self.rules, units(k))) {
            return bonus;
        }
        let mut boards = Vec::with_capacity(locks.len());
        let mut state = State::new(self.problem);
        for (k, &at) in locks.iter().enumerate() {
            boards.push(state.board.clone());
            state.lock(&self.rules, source[k], at);
        }
        let mut next: Vec<i64> = Vec::new();
        for k in (0..locks.len()).rev() {
            if budget.is_spent() {
                break; // the units before get no bonus
            }
            bonus[k] = std::mem::take(&mut next);
            next = speller.start_values(&self.rules, &boards[k], units(k), locks[k], &bonus[k]).unwrap_or_default();
        }
        bonus
    }

    /// The texts of the units from `state` on (every phrase used, nothing carried over), each
    /// unit locking at its entry of `locks`, on `threads` threads.
    pub(crate) fn spell_rest(
        &self,
        source: &[usize],
        locks: &[Pos],
        fixed: &BTreeMap<usize, Carry>,
        mut state: State,
        (budget, end): (&Budget, &Budget),
        threads: usize,
    ) -> Vec<Vec<u8>> {
        let first = state.locked;
        let mut boards = Vec::with_capacity(locks.len());
        for (k, &at) in locks.iter().enumerate() {
            boards.push(state.board.clone());
            state.lock(&self.rules, source[first + k], at);
        }
        let used = vec![true; self.settings.phrases.len()];
        let texts: Vec<Mutex<Option<Vec<u8>>>> = locks.iter().map(|_| Mutex::new(None)).collect();
        // Every unit gets a text (spelled plainly once the budget is spent, none once it is
        // [`too_late`]), so the split itself never stops.
        split_work(
            locks.len(),
            threads,
            &Budget::unlimited(),
            || self.speller(),
            |speller, i, _| {
                let (k, at, board) = (first + i, locks[i], &boards[i]);
                let unit = &self.rules.units[source[k]];
                if too_late(end) {
                    return true;
                }
                let t = match fixed.get(&k) {
                    Some(c) if c.locked => c.text.clone(),
                    None if budget.is_spent() => Speller::plain(&self.rules, board, unit, at),
                    start => {
                        let start = start.cloned().unwrap_or_else(|| Carry::spawn(unit));
                        speller.spell_with(&self.rules, board, unit, at, &used, start, &[]).0
                    }
                };
                *texts[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(t);
                true
            },
        );
        // The game ends before the first unit without a text.
        texts.into_iter().map_while(|t| t.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
    }

    /// Spells unit `k` from `start`, offered the bridges to the next units (at most `free` of
    /// them): the text, and the bridge if it ends with the head of a phrase the next units
    /// finish.
    #[allow(clippy::too_many_arguments)]
    fn spell_unit(
        &self,
        speller: &mut Speller,
        state: &State,
        source: &[usize],
        (k, free): (usize, usize),
        locks: &[Pos],
        used: &[bool],
        start: Carry,
        budget: &Budget,
    ) -> (Vec<u8>, Option<Bridge>) {
        let (rules, p) = (&self.rules, locks[k]);
        let unit = &rules.units[source[k]];
        // The boards the next two units will see, if the plan has them (needed only while a
        // phrase is still to be spelled and there is time for bridges).
        let mut boards = Vec::new();
        let mut after = state.clone();
        let wanted = !used.iter().all(|&u| u) && !budget.is_spent();
        let ahead = if wanted { (k + 2).min(locks.len() - 1).saturating_sub(k).min(free) } else { 0 };
        for (&u, &at) in source[k..].iter().zip(&locks[k..]).take(ahead) {
            after.lock(rules, u, at);
            boards.push(after.board.clone());
        }
        let next = |i: usize| {
            boards.get(i).map(|board| Next { board, unit: &rules.units[source[k + 1 + i]], target: locks[k + 1 + i] })
        };
        let bridges = match next(0) {
            Some(n) => bridge::bridges(rules, &self.settings.phrases, used, n, next(1)),
            None => Vec::new(),
        };
        let (t, b) = speller.spell_with(rules, &state.board, unit, p, used, start.clone(), &bridges);
        match b {
            Some(b) if bridges[b].holds(rules, next(0).expect("bridges need a next unit"), next(1)) => {
                (t, Some(bridges[b].clone()))
            }
            Some(_) => (speller.spell_with(rules, &state.board, unit, p, used, start, &[]).0, None),
            None => (t, None),
        }
    }
}
