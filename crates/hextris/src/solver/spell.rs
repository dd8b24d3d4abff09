//! A plan spelled into a game: each unit's text in turn, phrases carried across locks.

use std::collections::BTreeMap;

use tessera_core::runtime::Budget;

use super::Solver;
use super::beam::Plan;
use super::bridge::{self, Bridge, Carry, Next};
use super::power::Speller;
use crate::engine::{Pos, State};
use crate::judge::{Verdict, score};

impl Solver<'_> {
    /// Spells a plan and judges the text. Error-free by construction; if the judge finds an
    /// error all the same, the text is cut before it. Once `budget` runs out, the remaining
    /// units take their plain shortest paths.
    pub fn spell(&self, seed: u32, plan: &Plan, budget: &Budget) -> (String, Verdict) {
        self.spell_fixed(seed, plan, &BTreeMap::new(), budget)
    }

    /// [`Solver::spell`], with some units started elsewhere than at their spawn (`fixed[k]`:
    /// a [`Carry`]; if it is `locked`, its text is the unit's whole text, ending at its planned
    /// lock).
    pub(crate) fn spell_fixed(
        &self,
        seed: u32,
        plan: &Plan,
        fixed: &BTreeMap<usize, Carry>,
        budget: &Budget,
    ) -> (String, Verdict) {
        let source = self.problem.source(seed);
        let phrases = &self.settings.phrases;
        let mut speller = Speller::new(phrases);
        let mut used = vec![false; phrases.len()];
        let mut state = State::new(self.problem);
        let mut text = Vec::new();
        let longest = (0..phrases.len()).map(|i| phrases.text(i).len()).max().unwrap_or(0);
        let locks = &plan.locks;
        // Where the next units start when a phrase crosses locks (see [`bridge`]).
        let (mut carry, mut then): (Option<Carry>, Option<Carry>) = (None, None);
        for (k, &at) in locks.iter().enumerate() {
            let unit = &self.rules.units[source[k]];
            let t = match fixed.get(&k).cloned().or_else(|| carry.take()) {
                // The middle of a phrase that crosses two locks: the whole text is given.
                Some(c) if c.locked => {
                    carry = then.take();
                    c.text
                }
                None if budget.clone().expired() => Speller::plain(&self.rules, &state.board, unit, at),
                start => {
                    let start = start.unwrap_or_else(|| Carry::spawn(unit));
                    // Bridges never reach into a unit whose text is given.
                    let free = (1..=2).take_while(|i| !fixed.contains_key(&(k + i))).count();
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
            let counts = phrases.counts(std::str::from_utf8(&text[from..]).unwrap_or(""));
            for (u, c) in used.iter_mut().zip(counts) {
                *u |= c > 0;
            }
            state.lock(&self.rules, source[k], at);
        }
        let mut text = String::from_utf8(text).expect("commands are ASCII");
        let mut verdict = score(self.problem, seed, &text, phrases);
        if verdict.error.is_some() {
            text.truncate(verdict.commands);
            verdict = score(self.problem, seed, &text, phrases);
        }
        (text, verdict)
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
        let wanted = !used.iter().all(|&u| u) && !budget.clone().expired();
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
