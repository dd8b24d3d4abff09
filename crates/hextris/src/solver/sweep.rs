//! The best text of a unit over its sweeping walks: exact over every letter of every command,
//! on a family of walks that never repeat a position.
//!
//! A sweeping walk crosses each row it enters one way, east or west (chosen as it enters), and
//! turns only in bursts: at each column it may turn up to `period - 1` times one way, then it
//! moves on along the row, down to the next row, or (at the target) locks. A burst never comes
//! back to the turn it started from and the walk never comes back to a column of its row, so no
//! position repeats. Per row and column:
//!
//! ```text
//!   arrived, running east ──burst──▶ turned, running east ──E──▶ arrived at the next column
//!                                          │
//!                                          └──▶ done with the row ──SW/SE──▶ arrived below
//!                                                (at the target: the lock)
//! ```
//!
//! (and the same running west). These states, with the phrases' automaton state and the
//! phrases the text uses first, form a graph without cycles, and the longest path from the spawn
//! to the lock, over every letter, is the best text of the family. Turns in place and runs along
//! a row are where phrases that stay in their row are spelled, one after the other; the general
//! speller (the module `speller`) finds texts outside the family, and the better text is kept.
//!
//! The work grows with the automaton's states (the phrases' letters) and doubles with each
//! phrase not used yet that the text may use first: [`Sweep::spell`] declines when it would
//! take more than [`MAX_WORK`] steps.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::command::Command;
use crate::engine::{Board, Pos, Rules, Unit};
use crate::phrase::Phrases;
use crate::solver::PHRASE_BONUS;
use crate::solver::automaton::{Automaton, MAX_PHRASES};

/// Most phrases not used yet whose first use the search follows (the others still earn their
/// points, just not their bonus).
const MAX_FRESH: usize = 3;

/// Steps (a state and a letter) a search takes per second, about: what [`work_for`] turns
/// time into.
const STEPS_PER_SECOND: f64 = 4e8;

/// The share of a unit's time (the time limit over the units of every seed) that its sweeping
/// search may take: each unit is spelled several times (plans, runners-up, reworks), and the
/// general search runs beside it.
const SWEEP_SHARE: f64 = 0.25;

/// Most steps a search takes without a time limit.
pub(crate) const MAX_WORK: usize = 1 << 26;

/// Most steps a search takes when no time limit is known (a speller or solver made without
/// one): a few milliseconds.
pub(crate) const DEFAULT_WORK: usize = 1 << 21;

/// Most values a search keeps (its memory: four bytes each).
const MAX_VALUES: usize = 1 << 24;

/// The most steps a sweeping search may take when `seconds` of `threads` threads are shared by
/// `units` units (every seed's), or [`MAX_WORK`] without a time limit.
pub(crate) fn work_for(seconds: Option<f64>, threads: usize, units: usize) -> usize {
    seconds.map_or(MAX_WORK, |t| {
        let per_unit = t * threads.max(1) as f64 / units.max(1) as f64;
        (per_unit * SWEEP_SHARE * STEPS_PER_SECOND).min(MAX_WORK as f64) as usize
    })
}

/// A unit's sweeping search is tried this many times before its wins decide whether it goes on.
const WARMUP: u32 = 8;

/// It goes on while it gives the better text at least this share of the times it is tried.
const MIN_WINS: f64 = 0.125;

/// How often each unit's sweeping search was tried and gave the better text, over every game
/// of a solve (shared by its threads): where it seldom wins it is time spent for nothing (with
/// the official phrases, say, where the general speller does better).
/// Also the time the searches took: they may take [`TIME_SHARE`] of the solve's time so far (a
/// unit is spelled many times in a solve: in every round, its runners-up, its reworks).
#[derive(Debug)]
pub(crate) struct Tally {
    tries: Vec<AtomicU32>,
    wins: Vec<AtomicU32>,
    started: Instant,
    threads: u32,
    nanos: AtomicU64,
}

/// The share of a solve's time (on all its threads) the sweeping searches may take.
const TIME_SHARE: f64 = 0.5;

impl Tally {
    /// For `units` units, none tried, in a solve on `threads` threads starting now.
    pub(crate) fn new(units: usize, threads: usize) -> Tally {
        Tally {
            tries: (0..units).map(|_| AtomicU32::new(0)).collect(),
            wins: (0..units).map(|_| AtomicU32::new(0)).collect(),
            started: Instant::now(),
            threads: threads.max(1) as u32,
            nanos: AtomicU64::new(0),
        }
    }

    /// Whether unit `u`'s search is worth trying now.
    pub(crate) fn worth(&self, u: usize) -> bool {
        let tries = self.tries[u].load(Ordering::Relaxed);
        let wins = tries < WARMUP || f64::from(self.wins[u].load(Ordering::Relaxed)) >= MIN_WINS * f64::from(tries);
        let spent = Duration::from_nanos(self.nanos.load(Ordering::Relaxed));
        wins && spent <= (self.started.elapsed() * self.threads).mul_f64(TIME_SHARE)
    }

    /// Counts a try of unit `u`'s search that took `took`, and whether it `won`.
    pub(crate) fn record(&self, u: usize, won: bool, took: Duration) {
        self.tries[u].fetch_add(1, Ordering::Relaxed);
        self.nanos.fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
        if won {
            self.wins[u].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Not reached.
const NONE: i32 = i32::MIN;

/// Where a walk stands at a position of its row: arrived (about to turn) or turned (about to
/// move on), running east or west; or done with the row.
const ARRIVED: [usize; 2] = [0, 1];
const TURNED: [usize; 2] = [2, 3];
const DONE: usize = 4;
const KINDS: usize = 5;

/// The two ways along a row, as indices of the arrays above: east, west.
const EAST: usize = 0;
const WEST: usize = 1;

/// The command of each way along a row, as an index of [`Command::ALL`].
const RUN: [usize; 2] = [1, 0];

/// A letter of a command, in one automaton state: the next state, the points of the phrases
/// that end there, those phrases and the letter.
#[derive(Clone, Copy, Debug)]
struct Letter {
    to: u16,
    points: i32,
    ends: u32,
    byte: u8,
}

/// The phrases as the search needs them, made once per phrase set.
#[derive(Clone, Debug)]
pub(crate) struct Sweep {
    auto: Automaton,
    texts: Vec<Vec<u8>>,
    /// Per command of [`Command::ALL`] from `at[m].0`, `at[m].1` letters per automaton state:
    /// the letters worth trying (those in some phrase, and one other, which stands for all the
    /// others: they all lead back to the automaton's start).
    letters: Vec<Letter>,
    at: [(usize, usize); 6],
}

impl Sweep {
    /// For `phrases` (none that revisits a position); `None` when none of them stays in its
    /// row (turns, east or west only: the general speller does well with phrases that all move
    /// down, the official ones among them), or there are more than the automaton follows.
    pub(crate) fn of(phrases: &Phrases) -> Option<Sweep> {
        let in_row = (0..phrases.len()).any(|i| !phrases.commands(i).iter().any(|c| c.is_down()));
        if !in_row || phrases.len() > MAX_PHRASES {
            return None;
        }
        let texts: Vec<Vec<u8>> = (0..phrases.len()).map(|i| phrases.text(i).to_vec()).collect();
        let auto = Automaton::new(&texts.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let (mut letters, mut at) = (Vec::new(), [(0, 0); 6]);
        for (m, cmd) in Command::ALL.iter().enumerate() {
            let mut bytes: Vec<u8> = cmd.chars().bytes().filter(|b| texts.iter().any(|t| t.contains(b))).collect();
            bytes.extend(cmd.chars().bytes().find(|b| !texts.iter().any(|t| t.contains(b))));
            at[m] = (letters.len(), bytes.len());
            for s in 0..auto.states() {
                for &byte in &bytes {
                    let to = auto.step(s, byte);
                    let points = auto.ends_at(to).map(|p| 2 * texts[p].len() as i32).sum();
                    letters.push(Letter { to: to as u16, points, ends: auto.ends[to], byte });
                }
            }
        }
        Some(Sweep { auto, texts, letters, at })
    }

    /// The best sweeping text for `unit` from its spawn on `board` to a lock at `target`, after
    /// a game whose text ends with `tail` (a phrase begun there may end in this text), with its
    /// points (first uses of phrases not in `used` counted, up to [`MAX_FRESH`] of them).
    /// `None` when no sweeping walk reaches the target, or the search would take more than
    /// `work` steps (see [`work_for`]).
    pub(crate) fn spell(
        &self,
        (rules, board, unit, target): (&Rules, &Board, &Unit, Pos),
        tail: &[u8],
        used: &[bool],
        work: usize,
    ) -> Option<(Vec<u8>, i64)> {
        let fresh: Vec<usize> = (0..self.texts.len()).filter(|&p| !used[p]).take(MAX_FRESH).collect();
        let mut search = Search::new(self, (rules, board, unit, target), &fresh, work)?;
        search.solve();
        let start = tail.iter().fold(0, |s, &b| self.auto.step(s, b.to_ascii_lowercase()));
        search.spell_out(start)
    }

    /// What `text` earns after a game whose text ends with `tail`: the points of the phrases
    /// that end in it, and the first-use bonus of each phrase not in `used` that it spells.
    pub(crate) fn value(&self, tail: &[u8], text: &[u8], used: &[bool]) -> i64 {
        let mut s = tail.iter().fold(0, |s, &b| self.auto.step(s, b.to_ascii_lowercase()));
        let (mut points, mut first) = (0, 0u32);
        for &b in text {
            s = self.auto.step(s, b.to_ascii_lowercase());
            for p in self.auto.ends_at(s) {
                points += 2 * self.texts[p].len() as i64;
                if !used[p] && first >> p & 1 == 0 {
                    points += PHRASE_BONUS;
                    first |= 1 << p;
                }
            }
        }
        points
    }
}

/// One search of [`Sweep::spell`]: its values, per row, column, turn, kind, automaton state and
/// phrases first used.
struct Search<'a> {
    sweep: &'a Sweep,
    rules: &'a Rules,
    board: &'a Board,
    unit: &'a Unit,
    target: Pos,
    /// Per entry of `sweep.letters`: the phrases not used yet that end there, as bits of the
    /// masks of phrases first used (the `i`th such phrase is bit `i`).
    fresh_ends: Vec<u8>,
    /// Masks of phrases first used: `1 << fresh phrases`.
    firsts: usize,
    /// Pivot columns `x0..x0 + cols`, rows `y0..=target.y`.
    x0: i32,
    cols: usize,
    y0: i32,
    /// Per position of the box, whether the unit fits there.
    fits: Vec<bool>,
    /// The most points from each state to the lock (`NONE`: no way).
    value: Vec<i32>,
}

impl<'a> Search<'a> {
    /// `None` when the search would take more than `work` steps or keep more than
    /// [`MAX_VALUES`] values.
    fn new(
        sweep: &'a Sweep,
        (rules, board, unit, target): (&'a Rules, &'a Board, &'a Unit, Pos),
        fresh: &[usize],
        work: usize,
    ) -> Option<Search<'a>> {
        let orients = (0..unit.period).flat_map(|r| [0, 1].map(|parity| unit.orient(r, parity)));
        let (x0, x1) = orients
            .fold((i32::MAX, i32::MIN), |(lo, hi), o| (lo.min(-o.min_dx), hi.max(rules.width as i32 - 1 - o.max_dx)));
        let y0 = i32::from(unit.spawn.y);
        let (cols, rows) = ((x1 - x0 + 1).max(0) as usize, (i32::from(target.y) - y0 + 1).max(0) as usize);
        let period = usize::from(unit.period);
        let mut fits = vec![false; rows * cols * period];
        for (i, f) in fits.iter_mut().enumerate() {
            let (y, x, r) = (i / (cols * period), i / period % cols, i % period);
            *f = rules.fits(board, unit, Pos::new(x0 + x as i32, y0 + y as i32, r as u8));
        }
        // The work: per position the unit fits at, every state, letter and burst.
        let firsts = 1usize << fresh.len();
        let letters: usize = sweep.at.iter().map(|a| a.1).sum();
        let turns = sweep.at[4].1.max(sweep.at[5].1);
        let places = fits.iter().filter(|&&f| f).count();
        let steps = places * sweep.auto.states() * firsts * (letters + 4 * (period - 1) * turns);
        let n = rows * cols * period * KINDS * sweep.auto.states() * firsts;
        if steps > work || n > MAX_VALUES {
            return None;
        }
        let fresh_ends = sweep
            .letters
            .iter()
            .map(|l| fresh.iter().enumerate().fold(0u8, |m, (b, &p)| m | (((l.ends >> p) & 1) as u8) << b))
            .collect();
        Some(Search { sweep, rules, board, unit, target, fresh_ends, firsts, x0, cols, y0, fits, value: vec![NONE; n] })
    }

    /// One state's values, per automaton state and phrases first used.
    fn block(&self) -> usize {
        self.sweep.auto.states() * self.firsts
    }

    /// Whether the unit fits at `p` within the box.
    fn fits(&self, p: Pos) -> bool {
        let (x, y) = (i32::from(p.x) - self.x0, i32::from(p.y) - self.y0);
        let inside = x >= 0 && (x as usize) < self.cols && y >= 0 && p.y <= self.target.y;
        inside && self.fits[(y as usize * self.cols + x as usize) * usize::from(self.unit.period) + usize::from(p.r)]
    }

    /// Where the values of `kind` at `p` (in the box) start.
    fn at(&self, p: Pos, kind: usize) -> usize {
        let (x, y) = ((i32::from(p.x) - self.x0) as usize, (i32::from(p.y) - self.y0) as usize);
        (((y * self.cols + x) * usize::from(self.unit.period) + usize::from(p.r)) * KINDS + kind) * self.block()
    }

    fn values(&self, p: Pos, kind: usize) -> &[i32] {
        let i = self.at(p, kind);
        &self.value[i..i + self.block()]
    }

    /// The values of arriving at `p` from the row above, either way along the row.
    fn arriving(&self, p: Pos, out: &mut Vec<i32>) {
        out.clear();
        out.extend(self.values(p, ARRIVED[EAST]).iter().zip(self.values(p, ARRIVED[WEST])).map(|(&a, &b)| a.max(b)));
    }

    /// Improves `best` (a block) with every letter of command `m` followed by `next` (a block;
    /// `None`: the letter locks the unit, and nothing follows).
    fn relax(&self, m: usize, next: Option<&[i32]>, best: &mut [i32]) {
        let (first, n) = self.sweep.at[m];
        let firsts = self.firsts;
        if firsts == 1 {
            // Hot loop, no phrase left to use first: every automaton state and letter.
            for (s, b) in best.iter_mut().enumerate() {
                for l in &self.sweep.letters[first + s * n..first + (s + 1) * n] {
                    let rest = next.map_or(0, |nx| nx[usize::from(l.to)]);
                    if rest != NONE {
                        *b = (*b).max(rest + l.points);
                    }
                }
            }
            return;
        }
        // Hot loop: every automaton state, letter and mask of phrases first used.
        for s in 0..self.sweep.auto.states() {
            let row = &mut best[s * firsts..(s + 1) * firsts];
            for j in first + s * n..first + (s + 1) * n {
                let (l, ends) = (self.sweep.letters[j], usize::from(self.fresh_ends[j]));
                let to = usize::from(l.to) * firsts;
                for (f, b) in row.iter_mut().enumerate() {
                    let new = ends & !f;
                    let rest = next.map_or(0, |nx| nx[to + (f | new)]);
                    if rest != NONE {
                        *b = (*b).max(rest + l.points + PHRASE_BONUS as i32 * new.count_ones() as i32);
                    }
                }
            }
        }
    }

    /// A letter of command `m` that, followed by `next` as in [`Search::relax`], is worth `v`
    /// from automaton state `s` with phrases `f` first used: the letter, and the state and
    /// phrases first used after it.
    fn letter(&self, m: usize, next: Option<&[i32]>, (s, f): (usize, usize), v: i32) -> Option<(u8, usize, usize)> {
        let (first, n) = self.sweep.at[m];
        (first + s * n..first + (s + 1) * n).find_map(|j| {
            let (l, ends) = (self.sweep.letters[j], usize::from(self.fresh_ends[j]));
            let new = ends & !f;
            let rest = next.map_or(0, |nx| nx[usize::from(l.to) * self.firsts + (f | new)]);
            let worth = rest != NONE && rest + l.points + PHRASE_BONUS as i32 * new.count_ones() as i32 == v;
            worth.then_some((l.byte, usize::from(l.to), f | new))
        })
    }

    /// The values of a burst of turns (command `m`, CW or CCW) from `p`, running `way`: entry `k`
    /// is the block after `k` turns (the last entry: as many as fit, at most `period - 1`).
    fn burst(&self, p: Pos, way: usize, m: usize, out: &mut Vec<Vec<i32>>) {
        let mut turns = vec![p];
        while turns.len() < usize::from(self.unit.period) {
            let next = self.unit.step(turns[turns.len() - 1], Command::ALL[m]);
            if !self.fits(next) {
                break;
            }
            turns.push(next);
        }
        out.resize(turns.len(), Vec::new());
        for k in (0..turns.len()).rev() {
            let (done, rest) = out.split_at_mut(k + 1);
            let v = &mut done[k];
            v.clear();
            v.extend_from_slice(self.values(turns[k], TURNED[way]));
            if let Some(after) = rest.first() {
                self.relax(m, Some(after), v);
            }
        }
    }

    /// Solves every state, rows from the target's up.
    fn solve(&mut self) {
        let period = self.unit.period;
        let (b, cols) = (self.block(), self.cols as i32);
        let (mut best, mut below, mut bursts) = (vec![NONE; b], Vec::new(), Vec::new());
        for y in (self.y0..=i32::from(self.target.y)).rev() {
            let at = |x: i32, r: u8| Pos::new(self.x0 + x, y, r);
            // Done with the row: down to the next, or the lock.
            for p in (0..cols).flat_map(|x| (0..period).map(move |r| (x, r))).map(|(x, r)| at(x, r)) {
                if !self.fits(p) {
                    continue;
                }
                best.fill(NONE);
                for m in 2..4 {
                    let to = self.unit.step(p, Command::ALL[m]);
                    if self.fits(to) {
                        self.arriving(to, &mut below);
                        self.relax(m, Some(&below), &mut best);
                    }
                }
                if p == self.target {
                    for (m, &cmd) in Command::ALL.iter().enumerate() {
                        if !self.rules.fits(self.board, self.unit, self.unit.step(p, cmd)) {
                            self.relax(m, None, &mut best);
                        }
                    }
                }
                let i = self.at(p, DONE);
                self.value[i..i + b].copy_from_slice(&best);
            }
            // Runs east from the east end, runs west from the west end.
            for (way, xs) in [(EAST, (0..cols).rev().collect::<Vec<_>>()), (WEST, (0..cols).collect())] {
                let m = RUN[way];
                for x in xs {
                    for r in 0..period {
                        let p = at(x, r);
                        if !self.fits(p) {
                            continue;
                        }
                        best.copy_from_slice(self.values(p, DONE));
                        let to = self.unit.step(p, Command::ALL[m]);
                        if self.fits(to) {
                            self.relax(m, Some(self.values(to, ARRIVED[way])), &mut best);
                        }
                        let i = self.at(p, TURNED[way]);
                        self.value[i..i + b].copy_from_slice(&best);
                    }
                    for r in 0..period {
                        let p = at(x, r);
                        if !self.fits(p) {
                            continue;
                        }
                        best.copy_from_slice(self.values(p, TURNED[way]));
                        for m in 4..6 {
                            self.burst(p, way, m, &mut bursts);
                            for (v, &w) in best.iter_mut().zip(&bursts[0]) {
                                *v = (*v).max(w);
                            }
                        }
                        let i = self.at(p, ARRIVED[way]);
                        self.value[i..i + b].copy_from_slice(&best);
                    }
                }
            }
        }
    }

    /// The text of the best walk from the spawn, the automaton in state `s`, and its points
    /// (`None`: the target cannot be reached).
    fn spell_out(&self, mut s: usize) -> Option<(Vec<u8>, i64)> {
        let mut p = self.unit.spawn;
        if !self.fits(p) {
            return None;
        }
        let mut f = 0;
        let firsts = self.firsts;
        let get = |p: Pos, kind: usize, s: usize, f: usize| self.values(p, kind)[s * firsts + f];
        let mut kind =
            if get(p, ARRIVED[EAST], s, f) >= get(p, ARRIVED[WEST], s, f) { ARRIVED[EAST] } else { ARRIVED[WEST] };
        let total = get(p, kind, s, f);
        if total == NONE {
            return None;
        }
        let (mut text, mut bursts, mut below) = (Vec::new(), Vec::new(), Vec::new());
        // Each step finds a move worth what the state's value says: values are exact.
        loop {
            let v = get(p, kind, s, f);
            match kind {
                DONE => {
                    if p == self.target {
                        for (m, &cmd) in Command::ALL.iter().enumerate() {
                            if self.rules.fits(self.board, self.unit, self.unit.step(p, cmd)) {
                                continue;
                            }
                            if let Some((byte, _, _)) = self.letter(m, None, (s, f), v) {
                                text.push(byte);
                                return Some((text, i64::from(total)));
                            }
                        }
                    }
                    let down = (2..4).find_map(|m| {
                        let to = self.unit.step(p, Command::ALL[m]);
                        if !self.fits(to) {
                            return None;
                        }
                        self.arriving(to, &mut below);
                        self.letter(m, Some(&below), (s, f), v).map(|l| (to, l))
                    });
                    let (to, (byte, ns, nf)) = down?;
                    text.push(byte);
                    (p, s, f) = (to, ns, nf);
                    let east = get(p, ARRIVED[EAST], s, f) >= get(p, ARRIVED[WEST], s, f);
                    kind = ARRIVED[if east { EAST } else { WEST }];
                }
                k if TURNED.contains(&k) => {
                    let way = usize::from(k == TURNED[WEST]);
                    if get(p, DONE, s, f) == v {
                        kind = DONE;
                        continue;
                    }
                    let m = RUN[way];
                    let to = self.unit.step(p, Command::ALL[m]);
                    let (byte, ns, nf) = self.letter(m, Some(self.values(to, ARRIVED[way])), (s, f), v)?;
                    text.push(byte);
                    (p, s, f, kind) = (to, ns, nf, ARRIVED[way]);
                }
                _ => {
                    let way = usize::from(kind == ARRIVED[WEST]);
                    kind = TURNED[way];
                    if get(p, kind, s, f) == v {
                        continue;
                    }
                    // A burst of turns one way: the way worth `v`, then its letters.
                    let m = (4..6).find(|&m| {
                        self.burst(p, way, m, &mut bursts);
                        bursts[0][s * firsts + f] == v
                    })?;
                    self.burst(p, way, m, &mut bursts);
                    let mut k = 0;
                    while bursts[k][s * firsts + f] != get(p, kind, s, f) {
                        let (byte, ns, nf) = self.letter(m, Some(&bursts[k + 1]), (s, f), bursts[k][s * firsts + f])?;
                        text.push(byte);
                        (p, s, f, k) = (self.unit.step(p, Command::ALL[m]), ns, nf, k + 1);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tessera_core::rng::Rng64;

    use super::*;
    use crate::engine::Reach;
    use crate::problem::{Cell, Problem, UnitDef};

    /// Where a sweeping walk stands (see the module's picture), and the end of its text so far
    /// (as long as the longest phrase less one) and the phrases it used first (a mask).
    type Node = (Pos, usize, usize, Vec<u8>, u32);

    /// The most points any sweeping walk from `node` to a lock at `target` earns, every letter of
    /// every command tried, phrases found by their text (remembered by node).
    fn brute(
        (rules, board, unit, target): (&Rules, &Board, &Unit, Pos),
        (phrases, used): (&Phrases, &[bool]),
        node: Node,
        memo: &mut HashMap<Node, Option<i64>>,
    ) -> Option<i64> {
        if let Some(&v) = memo.get(&node) {
            return v;
        }
        let (p, kind, way, ref end, first) = node;
        let fits = |q: Pos| q.y <= target.y && rules.fits(board, unit, q);
        let longest = (0..phrases.len()).map(|i| phrases.text(i).len()).max().unwrap();
        // Arrived (kind 0, or 10 + k: k turns of a burst made clockwise, 20 + k: counter-
        // clockwise): the burst may stop (turned). Turned: the row may be done.
        let mut best: Option<i64> = match kind {
            DONE => None,
            0 | 10..=29 => brute((rules, board, unit, target), (phrases, used), (p, 1, way, end.clone(), first), memo),
            _ => brute((rules, board, unit, target), (phrases, used), (p, DONE, way, end.clone(), first), memo),
        };
        // Every letter of `cmd`, then on from (`to`, `kind`, `way`), or nothing more (a lock).
        let mut try_cmd = |cmd: Command, next: Option<(Pos, usize, usize)>, memo: &mut HashMap<Node, Option<i64>>| {
            // Letters in no phrase are all alike: the command's own letter stands for them.
            let in_some = |b: &u8| (0..phrases.len()).any(|i| phrases.text(i).contains(b));
            for b in cmd.chars().bytes().filter(|b| in_some(b) || *b == cmd.letter() as u8) {
                let mut text = end.clone();
                text.push(b);
                let (mut points, mut now) = (0, first);
                for (i, &was_used) in used.iter().enumerate() {
                    if text.ends_with(phrases.text(i)) {
                        points += 2 * phrases.text(i).len() as i64;
                        if !was_used && now >> i & 1 == 0 {
                            (points, now) = (points + PHRASE_BONUS, now | 1 << i);
                        }
                    }
                }
                let keep = text.len().saturating_sub(longest - 1);
                let rest = match next {
                    None => Some(0),
                    Some((to, k, w)) => brute(
                        (rules, board, unit, target),
                        (phrases, used),
                        (to, k, w, text[keep..].to_vec(), now),
                        memo,
                    ),
                };
                if let Some(r) = rest {
                    best = best.max(Some(r + points));
                }
            }
        };
        match kind {
            DONE => {
                if p == target {
                    for cmd in Command::ALL.into_iter().filter(|&c| !rules.fits(board, unit, unit.step(p, c))) {
                        try_cmd(cmd, None, memo);
                    }
                }
                for cmd in [Command::SW, Command::SE] {
                    let to = unit.step(p, cmd);
                    if fits(to) {
                        try_cmd(cmd, Some((to, 0, EAST)), memo);
                        try_cmd(cmd, Some((to, 0, WEST)), memo);
                    }
                }
            }
            // Arrived: a burst of turns one way goes on while they fit, `period - 1` at most.
            0 | 10..=29 => {
                for (cmd, base) in [(Command::CW, 10), (Command::CCW, 20)] {
                    let made = if kind >= base && kind < base + 10 {
                        kind - base
                    } else if kind == 0 {
                        0
                    } else {
                        continue;
                    };
                    let to = unit.step(p, cmd);
                    if made + 1 < usize::from(unit.period) && fits(to) {
                        try_cmd(cmd, Some((to, base + made + 1, way)), memo);
                    }
                }
            }
            // Turned: on along the row.
            _ => {
                let cmd = Command::ALL[RUN[way]];
                let to = unit.step(p, cmd);
                if fits(to) {
                    try_cmd(cmd, Some((to, 0, way)), memo);
                }
            }
        }
        memo.insert(node, best);
        best
    }

    /// A small problem: `width` x 5, a few filled cells in the lower rows, one unit.
    fn problem(rng: &mut Rng64, width: usize, unit: UnitDef) -> Problem {
        let filled = (0..width * 5).filter(|i| i / width >= 3 && rng.below(3) == 0);
        Problem {
            id: 1,
            units: vec![unit],
            width,
            height: 5,
            filled: filled.map(|i| Cell::new((i % width) as i32, (i / width) as i32)).collect(),
            source_length: 1,
            source_seeds: vec![0],
        }
    }

    #[test]
    fn the_best_sweeping_text_is_what_brute_force_finds() {
        let mut rng = Rng64::seed(56);
        // A unit that turns six ways, one that turns three ways, one that cannot turn.
        let units = [
            UnitDef { members: vec![Cell::new(0, 0), Cell::new(1, 0)], pivot: Cell::new(0, 0) },
            UnitDef { members: vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 0)], pivot: Cell::new(1, 0) },
            UnitDef { members: vec![Cell::new(0, 0)], pivot: Cell::new(0, 0) },
        ];
        let sets: [&[&str]; 3] = [&["dd", "pd", "ia"], &["dkd", "b", "ppp"], &["kk", "ddd", "bp"]];
        let (mut compared, mut earning) = (0, 0);
        for case in 0..18 {
            let p = problem(&mut rng, 4 + case % 3, units[case % 3].clone());
            let phrases = Phrases::new(sets[case / 6].iter().map(|s| s.to_string())).unwrap();
            let (rules, board) = (Rules::new(&p).unwrap(), Board::of(&p));
            let unit = &rules.units[0];
            let sweep = Sweep::of(&phrases).unwrap();
            let tail: &[u8] = [b"".as_slice(), b"d", b"dk"][case % 3];
            let used: Vec<bool> = (0..phrases.len()).map(|i| (case + i) % 2 == 0).collect();
            for target in Reach::new(&rules, &board, unit).resting() {
                let mut memo = HashMap::new();
                let start = |way| (unit.spawn, 0, way, tail.to_vec(), 0);
                let game = ((&rules, &board, unit, target), (&phrases, used.as_slice()));
                let expected =
                    [EAST, WEST].map(|w| brute(game.0, game.1, start(w), &mut memo)).into_iter().max().flatten();
                let got = sweep.spell((&rules, &board, unit, target), tail, &used, MAX_WORK);
                assert_eq!(got.as_ref().map(|g| g.1), expected, "case {case}, target {target:?}");
                let Some((text, points)) = got else { continue };
                // The text is worth what the search says, and it is a legal game locking there.
                assert_eq!(sweep.value(tail, &text, &used), points, "case {case}: {text:?}");
                let text = String::from_utf8(text).unwrap();
                let card = crate::judge::score(&p, 0, &text, &phrases);
                assert_eq!((card.error, card.locked), (None, 1), "case {case}: {text:?}");
                compared += 1;
                earning += usize::from(points > 0);
            }
        }
        assert!(compared > 40 && earning > 20, "{compared} targets compared, {earning} earning");
    }
}
