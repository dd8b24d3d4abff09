//! Short games solved exactly: every text of the whole game, searched depth first, the best one
//! proven best when the search ends.
//!
//! A game's score is its move score plus its power, and both depend on the text alone: where
//! each unit locks follows from its commands, and the phrases from its letters. So the search is
//! over texts, letter by letter, not over lock positions with a text found for each afterwards:
//! multi-line clears, phrases that cross a lock and the 300 points of a phrase's first use are
//! all valued exactly as the rules value them. A state of the search is
//!
//! ```text
//!   (the board between locks, the unit's position, the positions it visited in its pivot row,
//!    the phrase automaton's state, the phrases used so far)
//! ```
//!
//! That is all the future depends on: a unit may never come back to a position, but moves down
//! are final, so only the positions of its current pivot row can still be repeated. Letters that
//! spell the same command and leave the automaton (Aho–Corasick over the phrases) in the same
//! state are interchangeable; one of each kind is tried. Each state's best value is kept once
//! found (a table of states), so a state reached again along another path costs one lookup.
//!
//! The bounds count the most move score each lock left can earn (the next one exactly, over
//! every place it can lock) and the most power the moves down left can spell: the `2 len`
//! points exactly (the automaton's longest paths), the 300 of first uses as a knapsack (each
//! phrase costs the moves down it needs that no other phrase can share). Beam passes find good
//! games first ([`Exact::beam`]), so that the bounds cut from the start.
//!
//! The search ends when every state is solved (the game is then proven optimal) or when the
//! budget runs out (then the best game found so far is the answer and nothing is proven). The
//! table is emptied when it reaches [`MAX_STATES`], which keeps the memory bounded: the search
//! goes on, and redoes what it forgot when it comes back to it. Only games that are small enough are
//! taken ([`Exact::new`]): a few units, a row of positions that fits in 128 bits.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{Hash, Hasher};

use tessera_core::runtime::{Budget, Stop};

use crate::command::Command;
use crate::engine::{Board, Pos, Reach, Rules, Unit, lock_points};
use crate::phrase::Phrases;
use crate::problem::Problem;
use crate::solver::PHRASE_BONUS;
use crate::solver::automaton::{self, LETTERS, MAX_PHRASES};
use tessera_core::hash::Words;

/// Longest source (units a game) the exact search takes.
pub(crate) const MAX_UNITS: usize = 8;

/// Most states kept: about 130 MB of table (a state and its entry take 65 bytes, in a table of
/// twice as many slots at most). The table is emptied when full.
const MAX_STATES: usize = 1 << 20;

/// The states solved between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// The passes of [`Exact::run`]: the most moves within one row, first and last before the
/// pass without a limit.
const FIRST_CAP: u32 = 2;
const LAST_CAP: u32 = 16;
const UNCAPPED: u32 = u32::MAX;

/// The beam passes of [`Exact::run`]: the first width (each pass four times the last), and
/// the share of the time they take at most (one in `BEAM_SHARE`).
const FIRST_WIDTH: usize = 16;
const LAST_WIDTH: usize = 1 << 14;
const BEAM_SHARE: u32 = 2;

/// The phrases' automaton (see [`automaton`]), with what the bounds need.
#[derive(Clone, Debug)]
struct Automaton {
    /// `next[s * LETTERS + letter]`.
    next: Vec<u16>,
    /// Per state: the phrases that end there (a bit set) and `2 len` summed over them.
    ends: Vec<u32>,
    points: Vec<i64>,
    /// Per state and phrase: the moves down still needed to finish the phrase, at best (the
    /// longest start of it that the text so far ends with counts as spelled).
    need: Vec<Vec<u16>>,
    /// Per phrase: the most of its moves down that an occurrence of another phrase, started
    /// before it or containing it, can spell too (see [`Bounds::power`]).
    shared: Vec<u16>,
    /// Per state: the length of its text (how far into a phrase the text is).
    depth: Vec<u16>,
}

impl Automaton {
    fn new(phrases: &[Vec<u8>], letter_of: &[u8; 256], down: &[bool]) -> Automaton {
        let listed: Vec<&[u8]> = phrases.iter().map(Vec::as_slice).collect();
        let automaton::Automaton { next, ends, texts, .. } = automaton::Automaton::new(&listed);
        let points = ends
            .iter()
            .map(|&m| (0..phrases.len()).filter(|&i| m >> i & 1 == 1).map(|i| 2 * phrases[i].len() as i64).sum())
            .collect();
        let letters: Vec<Vec<u8>> =
            phrases.iter().map(|p| p.iter().map(|&b| letter_of[usize::from(b)]).collect()).collect();
        let downs = |t: &[u8]| t.iter().filter(|&&l| down[usize::from(l)]).count() as u16;
        let need = texts
            .iter()
            .map(|t| {
                letters
                    .iter()
                    .map(|p| {
                        let done = (0..=p.len().min(t.len())).filter(|&k| t.ends_with(&p[..k])).map(|k| downs(&p[..k]));
                        downs(p) - done.max().unwrap_or(0)
                    })
                    .collect()
            })
            .collect();
        let shared = letters
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let by = |q: &Vec<u8>| {
                    if q.len() > p.len() && q.windows(p.len()).any(|w| w == p.as_slice()) {
                        return downs(p); // q holds all of p
                    }
                    // q ends with a start of p: q began first. (When p begins with q, both start
                    // at the same letter and p, the longer, counts as the first of the two.)
                    (1..q.len().min(p.len() + 1))
                        .filter(|&k| q.ends_with(&p[..k]))
                        .map(|k| downs(&p[..k]))
                        .max()
                        .unwrap_or(0)
                };
                letters.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, q)| by(q)).max().unwrap_or(0)
            })
            .collect();
        let depth = texts.iter().map(|t| t.len() as u16).collect();
        Automaton { next, ends, points, need, shared, depth }
    }

    fn states(&self) -> usize {
        self.ends.len()
    }
}

/// Upper bounds on what is left to earn, from the moves down left and the phrases not yet used.
#[derive(Clone, Debug)]
struct Bounds {
    /// `phrase_points[d * states + s]`: the most `2 len` points any text earns from automaton
    /// state `s` with at most `d` moves down (any number of other letters).
    phrase_points: Vec<i64>,
    /// Per automaton state, the phrases with the moves down each still needs from there (at
    /// best) and the fewest of those no other phrase can share, fewest first:
    /// `(fewest, needed, phrase)`.
    firsts: Vec<Vec<(u16, u16, u8)>>,
    /// The most moves down the game has left (see [`Exact::downs`]).
    max_downs: usize,
}

impl Bounds {
    fn new(auto: &Automaton, down: &[bool], max_downs: usize) -> Bounds {
        let n = auto.states();
        let mut phrase_points = vec![0i64; (max_downs + 1) * n];
        for d in 0..=max_downs {
            let (below, here) = phrase_points.split_at_mut(d * n);
            let here = &mut here[..n];
            // Moves down lead to the layer below; other letters stay on this one, where a
            // longest path is found by relaxing until nothing changes (no cycle of such letters
            // finishes a phrase twice: every phrase has a move down, or it is worth nothing more).
            if d > 0 {
                for (s, value) in here.iter_mut().enumerate() {
                    for l in (0..LETTERS).filter(|&l| down[l]) {
                        let t = usize::from(auto.next[s * LETTERS + l]);
                        *value = (*value).max(auto.points[t] + below[(d - 1) * n + t]);
                    }
                }
            }
            for _round in 0..n {
                let mut changed = false;
                for s in 0..n {
                    for l in (0..LETTERS).filter(|&l| !down[l]) {
                        let t = usize::from(auto.next[s * LETTERS + l]);
                        let v = auto.points[t] + here[t];
                        if v > here[s] {
                            here[s] = v;
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        let firsts = auto
            .need
            .iter()
            .map(|need| {
                let mut v: Vec<(u16, u16, u8)> = need
                    .iter()
                    .zip(&auto.shared)
                    .enumerate()
                    .map(|(p, (&k, &s))| (k.saturating_sub(s), k, p as u8))
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();
        Bounds { phrase_points, firsts, max_downs }
    }

    /// The most power a text can still earn from automaton state `s` with at most `downs`
    /// moves down, the phrases `used` used before.
    ///
    /// The `2 len` points are the exact most of the automaton. For the 300 points of first
    /// uses, charge each move down of the text to the earliest-starting first use that spells
    /// it: a first use is charged at least the moves down it needs from `s` less those an
    /// earlier-starting phrase can share ([`Automaton::shared`]), and the charges sum to at most
    /// `downs`. So the first uses are at most the most phrases whose charges fit, which taking
    /// the cheapest first finds.
    fn power(&self, downs: usize, s: u16, used: u32) -> i64 {
        self.power_of(downs, s, used, false)
    }

    /// [`Bounds::power`], or with `smooth` the share of the first phrase that does not fit
    /// counted too (a guess that falls by a little with each move down, not by 300 at once).
    fn power_of(&self, downs: usize, s: u16, used: u32, smooth: bool) -> i64 {
        let n = self.phrase_points.len() / (self.max_downs + 1);
        let d = downs.min(self.max_downs);
        let (mut left, mut firsts) = (d, 0);
        for &(cost, need, p) in &self.firsts[usize::from(s)] {
            if used >> p & 1 == 1 || usize::from(need) > d {
                continue;
            }
            if usize::from(cost) > left {
                if smooth {
                    firsts += PHRASE_BONUS * left as i64 / i64::from(cost);
                }
                break;
            }
            left -= usize::from(cost);
            firsts += PHRASE_BONUS;
        }
        self.phrase_points[d * n + usize::from(s)] + firsts
    }
}

/// A state of the search (see the module's documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Key {
    /// The board between locks, as an index into [`Exact::boards`].
    board: u32,
    pos: Pos,
    /// The positions of the pivot row visited, one bit each.
    row: u128,
    auto: u16,
    used: u32,
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let pos = (self.pos.x as u16 as u64) << 24 | (self.pos.y as u16 as u64) << 8 | u64::from(self.pos.r);
        h.write_u64(u64::from(self.board) << 40 ^ pos);
        h.write_u64(u64::from(self.auto) << 32 | u64::from(self.used));
        h.write_u128(self.row);
    }
}

/// What is known of a state: the best value found from there on (with the letter that starts
/// it; `NO_LETTER`: the game is over) and a bound no text from there can beat. The two are
/// equal once the state is solved; a state whose search was cut by the bound keeps the bound.
#[derive(Copy, Clone, Debug)]
struct Solved {
    found: i64,
    upper: i64,
    letter: u8,
}

const NO_LETTER: u8 = u8::MAX;

/// No value: nothing found (a text of this value would never be kept).
const NOTHING: i64 = i64::MIN / 4;

/// A board between locks: the cells, the lines the last lock cleared (the line bonus of the
/// next), and the units locked.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Stage {
    board: Board,
    ls_old: u8,
    locked: u8,
}

/// Where a letter leads from a state, before its letter is known.
#[derive(Copy, Clone, Debug)]
enum Step {
    /// The unit moves to another position (then the state there).
    Move(Key),
    /// The unit locks: the move score of the lock, and the state of the next unit at its spawn
    /// (`None`: the game is over).
    Lock(u64, Option<Key>),
}

/// A letter tried from a state: where it leads, its points, and the bound of what follows.
#[derive(Copy, Clone, Debug)]
struct Child {
    letter: u8,
    step: Step,
    gain: i64,
    bound: i64,
}

/// The exact search of one seed's game.
pub(crate) struct Exact<'a> {
    rules: &'a Rules,
    source: Vec<usize>,
    auto: Automaton,
    bounds: Bounds,
    /// The letters, and each letter's command.
    letters: Vec<u8>,
    commands: Vec<Command>,
    /// Per unit: the lowest pivot column a position can have (row bits count from it), and the
    /// lowest pivot row.
    lowest: Vec<i32>,
    bottom: Vec<i32>,
    /// Per number of units locked: the most moves down the units after the next one can make
    /// (and one letter each for their locks), and the most move score all units from the next
    /// one on can earn.
    later_downs: Vec<usize>,
    later_moves: Vec<i64>,
    /// Per number of units locked: what of `later_moves` is for lines (the rest is cells).
    later_lines: Vec<i64>,
    boards: Vec<Stage>,
    board_ids: HashMap<Stage, u32>,
    /// Per stage: the lowest pivot row its next unit can reach, and the most move score its
    /// lock can earn.
    deepest: Vec<i32>,
    lock_max: Vec<i64>,
    /// The most moves within one row of the current pass (see [`Exact::run`]).
    cap: u32,
    /// Whether the beam passes have run (see [`Exact::run`]).
    beamed: bool,
    solved: HashMap<Key, Solved, Words>,
    /// The best game known: its points and text.
    best: (i64, Vec<u8>),
    /// The current text.
    path: Vec<u8>,
    nodes: u64,
    stopped: bool,
}

/// How an exact search ended.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    /// The best text known (found, or given with [`Exact::know`]).
    pub text: String,
    /// Its points (move score and power) as the search counts them.
    pub points: i64,
    /// Whether no text scores more (the search ran to its end).
    pub proven: bool,
}

impl<'a> Exact<'a> {
    /// The search of seed `seed`'s game, or `None` when the game is not small enough: more than
    /// [`MAX_UNITS`] units, a unit whose row of positions needs more than 128 bits, more than
    /// [`MAX_PHRASES`] phrases, or a phrase without a move down (the bounds need one).
    pub(crate) fn new(problem: &Problem, rules: &'a Rules, phrases: &Phrases, seed: u32) -> Option<Exact<'a>> {
        let source = problem.source(seed);
        if source.len() > MAX_UNITS || phrases.len() > MAX_PHRASES {
            return None;
        }
        let (mut lowest, mut bottom) = (Vec::new(), Vec::new());
        for unit in &rules.units {
            let (lo, hi, low) = extent(rules, unit);
            if (hi - lo + 1) * i32::from(unit.period) > 128 {
                return None;
            }
            lowest.push(lo);
            bottom.push(low);
        }
        // The letters in the automaton's numbering, and each one's command.
        let letter_of = automaton::letter_of();
        let (letters, commands): (Vec<u8>, Vec<Command>) =
            Command::ALL.iter().flat_map(|&cmd| cmd.chars().bytes().map(move |b| (b, cmd))).unzip();
        let texts: Vec<Vec<u8>> = (0..phrases.len()).map(|i| phrases.text(i).to_vec()).collect();
        let down: Vec<bool> = commands.iter().map(|c| c.is_down()).collect();
        if texts.iter().any(|t| t.iter().all(|&b| !down[usize::from(letter_of[usize::from(b)])])) {
            return None;
        }
        let auto = Automaton::new(&texts, &letter_of, &down);
        // Suffix sums over the source: moves down (spawn to the lowest row, and the lock's
        // letter) and move score (every cell, and every row the unit spans cleared).
        let height = rules.height;
        // A starting board may hold full rows: the first lock clears them too.
        let start = Board::of(problem);
        let full = start.rows().iter().filter(|&&r| r == start.full()).count();
        let most_lines = rules.units.iter().map(|u| rows_spanned(u).min(height)).max().unwrap_or(0) + full;
        let n = source.len();
        let downs: Vec<usize> =
            source.iter().map(|&u| (bottom[u] - i32::from(rules.units[u].spawn.y)).max(0) as usize + 1).collect();
        let (mut later_downs, mut later_moves) = (vec![0usize; n + 1], vec![0i64; n + 1]);
        let mut later_lines = vec![0i64; n + 1];
        for k in (0..n).rev() {
            let unit = &rules.units[source[k]];
            let lines = rows_spanned(unit).min(height);
            later_moves[k] = later_moves[k + 1] + lock_points(unit.size, lines, most_lines) as i64;
            later_lines[k] = later_moves[k] - (later_moves[k + 1] - later_lines[k + 1]) - unit.size as i64;
            later_downs[k] = if k + 1 < n { later_downs[k + 1] + downs[k + 1] } else { 0 };
        }
        let max_downs = later_downs.first().copied().unwrap_or(0) + downs.first().copied().unwrap_or(0);
        let bounds = Bounds::new(&auto, &down, max_downs);
        let mut exact = Exact {
            rules,
            source,
            auto,
            bounds,
            letters,
            commands,
            lowest,
            bottom,
            later_downs,
            later_moves,
            later_lines,
            boards: Vec::new(),
            board_ids: HashMap::new(),
            deepest: Vec::new(),
            lock_max: Vec::new(),
            cap: FIRST_CAP,
            beamed: false,
            solved: HashMap::default(),
            best: (NOTHING, Vec::new()),
            path: Vec::new(),
            nodes: 0,
            stopped: false,
        };
        exact.stage(Stage { board: start, ls_old: 0, locked: 0 });
        Some(exact)
    }

    /// Tells the search of a game known from elsewhere (`points` as the judge scores `text`):
    /// only better ones are looked for, and it is the answer if none is found.
    pub(crate) fn know(&mut self, points: i64, text: &str) {
        if points > self.best.0 {
            self.best = (points, text.as_bytes().to_vec());
        }
    }

    /// Searches until every state is solved or `budget` runs out; may be called again to go on.
    ///
    /// The first call starts with beam passes ([`Exact::beam`]), 16 states wide and four times
    /// wider each pass, for at most half its time. Then the search runs in depth-first passes:
    /// the first ones allow only a few moves within each row (2,
    /// then 4, 8, 16), which they search quickly and completely, and the games they find make
    /// the bounds of the next pass cut more; the last pass allows every move, and only it proves
    /// anything. Each pass starts its table afresh (a capped pass's bounds do not hold for the
    /// next); the last one keeps it from one call to the next.
    pub(crate) fn run(&mut self, budget: &Budget) -> Outcome {
        let mut budget = budget.clone();
        if !self.beamed {
            self.beamed = true;
            let mut share = budget.time_left().map_or_else(|| budget.fork(), |t| budget.within(t / BEAM_SHARE));
            let mut width = FIRST_WIDTH;
            let cap = std::mem::replace(&mut self.cap, UNCAPPED);
            // Wider until the time share runs out, or a pass keeps every state it meets.
            while width <= LAST_WIDTH && self.beam(width, &mut share) == Some(true) {
                width *= 4;
            }
            self.cap = cap;
        }
        let proven = loop {
            self.stopped = false;
            let done = match self.spawn(0) {
                None => {
                    self.know(0, ""); // no room for the first unit: the empty text
                    true
                }
                Some(key) => self.search(key, 0, &mut budget).is_some(),
            };
            if !done || self.cap == UNCAPPED {
                break done;
            }
            self.cap = if self.cap >= LAST_CAP { UNCAPPED } else { (self.cap * 2).max(FIRST_CAP) };
            self.solved.clear();
        };
        let (points, text) = if self.best.0 == NOTHING { (0, Vec::new()) } else { self.best.clone() };
        let text = String::from_utf8(text).expect("letters are ASCII");
        Outcome { text, points, proven }
    }

    /// One beam pass, which finds good games fast where the depth-first passes get lost in
    /// one corner of the tree, and proves nothing. Its layers are the moves down made (a lock
    /// counts as one): a layer's states first move within their rows, in a beam of their own,
    /// and every move down or lock from any of them leads to the next layer. Each beam keeps the
    /// `width` states with the best [`Exact::estimate`] of their whole game (ties: the most
    /// points so far, then the furthest into a phrase), and a state only if no text reached it
    /// with as many points before. Moves down are what phrases use up, so states compete with
    /// those that used as many. Returns whether it left states out, or `None` if the budget ran
    /// out.
    fn beam(&mut self, width: usize, budget: &mut Budget) -> Option<bool> {
        let Some(root) = self.spawn(0) else { return Some(false) };
        let mut narrowed = false;
        // Every state kept: its parent and letter (the texts).
        let mut arena: Vec<(u32, u8)> = vec![(u32::MAX, NO_LETTER)];
        let mut entries = vec![(root, 0i64, 0u32)];
        let mut seen: HashMap<Key, i64, Words> = HashMap::default();
        while !entries.is_empty() {
            // The layer of states with as many moves down behind them: moves within the row
            // first, a beam of their own; every move down or lock from any of them leads to
            // the next layer.
            let mut frontier = std::mem::take(&mut entries);
            let mut below = Kept::default();
            while !frontier.is_empty() {
                let mut beside = Kept::default();
                for &(key, prefix, id) in &frontier {
                    self.nodes += 1;
                    if self.nodes.is_multiple_of(CLOCK_EVERY) && budget.should_stop(0) {
                        return None;
                    }
                    for (b, down) in self.beam_children(key, prefix, id, &arena, &mut seen) {
                        if down { below.add(b) } else { beside.add(b) }
                    }
                }
                narrowed |= beside.all.len() > width;
                frontier = beside.best(width, &mut arena);
            }
            narrowed |= below.all.len() > width;
            entries = below.best(width, &mut arena);
        }
        Some(narrowed)
    }

    /// The states a beam pass meets from `key` (reached with `prefix` points, at `id` in
    /// `arena`) that no text reached with as many points before, each with whether it is a move
    /// down or a lock; keeps a game that ends there if it is the best known.
    fn beam_children(
        &mut self,
        key: Key,
        prefix: i64,
        id: u32,
        arena: &[(u32, u8)],
        seen: &mut HashMap<Key, i64, Words>,
    ) -> Vec<(Beamed, bool)> {
        let mut out = Vec::new();
        for c in self.children(key) {
            let here = prefix + c.gain;
            if here + c.bound <= self.best.0 {
                continue;
            }
            let (n, points, down) = match c.step {
                Step::Move(n) => (n, here, n.pos.y != key.pos.y),
                Step::Lock(p, Some(n)) => (n, here + p as i64, true),
                Step::Lock(p, None) => {
                    if here + p as i64 > self.best.0 {
                        let mut text = traced(arena, id, &self.letters);
                        text.push(self.letters[usize::from(c.letter)]);
                        self.best = (here + p as i64, text);
                    }
                    continue;
                }
            };
            if seen.get(&n).is_some_and(|&v| v >= points) {
                continue;
            }
            if seen.len() >= MAX_STATES {
                seen.clear();
            }
            seen.insert(n, points);
            let rank = (points + self.estimate(n), points, self.auto.depth[usize::from(n.auto)]);
            out.push((Beamed { rank, key: n, parent: id, letter: c.letter }, down));
        }
        out
    }

    /// Searches from `key`, reached with `prefix` points, for texts that beat the best known;
    /// returns the best value found from `key` on and a bound no text from there beats, or `None`
    /// if the search stopped.
    fn search(&mut self, key: Key, prefix: i64, budget: &mut Budget) -> Option<(i64, i64)> {
        if let Some(s) = self.solved.get(&key).copied() {
            self.offer(prefix, Some(key));
            if s.found == s.upper || prefix + s.upper <= self.best.0 {
                return Some((s.found, s.upper));
            }
        }
        self.nodes += 1;
        if self.stopped || self.nodes.is_multiple_of(CLOCK_EVERY) && budget.should_stop(0) {
            self.stopped = true;
            return None;
        }
        if self.solved.len() >= MAX_STATES {
            // Sound: what the states on the way here found is returned to them, not looked up.
            self.solved.clear();
        }
        let mut children = self.children(key);
        // The most promising first: good games early make the bounds cut more.
        children.sort_by_key(|c| std::cmp::Reverse(c.gain + c.bound));
        let mut out = Solved { found: NOTHING, upper: NOTHING, letter: NO_LETTER };
        for c in children {
            let here = prefix + c.gain;
            let (found, upper) = if here + c.bound <= self.best.0 {
                (NOTHING, c.bound) // cannot beat the best known
            } else {
                self.path.push(self.letters[usize::from(c.letter)]);
                let r = match c.step {
                    Step::Move(next) => self.search(next, here, budget),
                    Step::Lock(points, None) => {
                        self.offer(here + points as i64, None);
                        Some((points as i64, points as i64))
                    }
                    Step::Lock(points, Some(next)) => {
                        let p = points as i64;
                        self.search(next, here + p, budget).map(|(f, u)| (f + p, u + p))
                    }
                };
                self.path.pop();
                r?
            };
            if c.gain + found > out.found {
                (out.found, out.letter) = (c.gain + found, c.letter);
            }
            out.upper = out.upper.max(c.gain + upper);
        }
        out.upper = out.upper.max(out.found);
        self.solved.insert(key, out);
        Some((out.found, out.upper))
    }

    /// The letters worth trying from `key`: for each command that does not repeat a position,
    /// one letter for each state of the automaton its letters lead to.
    fn children(&mut self, key: Key) -> Vec<Child> {
        let unit = self.unit_at(key);
        let mut out = Vec::with_capacity(24);
        for cmd in Command::ALL {
            let Some(step) = self.step(key, unit, cmd) else { continue };
            let mut seen = [u16::MAX; 6];
            for l in 0..self.letters.len() {
                if self.commands[l] != cmd {
                    continue;
                }
                let to = self.auto.next[usize::from(key.auto) * LETTERS + l];
                let Some(free) = seen.iter().position(|&s| s == to || s == u16::MAX) else { continue };
                if seen[free] == to {
                    continue;
                }
                seen[free] = to;
                let (gain, used) = self.gain(key.used, to);
                let (step, bound) = match step {
                    Step::Move(n) => {
                        let n = Key { auto: to, used, ..n };
                        (Step::Move(n), self.bound(n))
                    }
                    Step::Lock(p, n) => {
                        let n = n.map(|n| Key { auto: to, used, ..n });
                        (Step::Lock(p, n), p as i64 + n.map_or(0, |n| self.bound(n)))
                    }
                };
                out.push(Child { letter: l as u8, step, gain, bound });
            }
        }
        out
    }

    /// A bound on what the game earns from `key` on: the move score of every lock left at its
    /// most, and the power of the moves down left (see [`Bounds`]).
    fn bound(&self, key: Key) -> i64 {
        let (locked, low) = self.lowest_row(key);
        let downs = (low - i32::from(key.pos.y)).max(0) as usize + 1 + self.later_downs[locked];
        let moves = self.lock_max[key.board as usize] + self.later_moves[locked + 1];
        moves + self.bounds.power(downs, key.auto, key.used)
    }

    /// The units locked before `key`'s, and the lowest pivot row its unit can reach.
    fn lowest_row(&self, key: Key) -> (usize, i32) {
        let locked = usize::from(self.boards[key.board as usize].locked);
        (locked, self.deepest[key.board as usize].min(self.bottom[self.source[locked]]))
    }

    /// What a beam pass ranks states by: [`Exact::bound`] with the units after the current one
    /// clearing no lines and going down as far as the current one can (a guess, not a bound: the
    /// bound's looser terms for those units would favour states that have locked fewer units).
    fn estimate(&self, key: Key) -> i64 {
        let (locked, low) = self.lowest_row(key);
        let above = self.bottom[self.source[locked]] - low;
        let later = self.source[locked + 1..].iter().map(|&v| {
            let spawn = i32::from(self.rules.units[v].spawn.y);
            ((self.bottom[v] - above - spawn).max(0) + 1) as usize
        });
        let downs = (low - i32::from(key.pos.y)).max(0) as usize + 1 + later.sum::<usize>();
        let cells = self.later_moves[locked + 1] - self.later_lines[locked + 1];
        self.lock_max[key.board as usize] + cells + self.bounds.power_of(downs, key.auto, key.used, true)
    }

    /// The points of entering automaton state `to` with phrases `used` used before, and the
    /// phrases used after.
    fn gain(&self, used: u32, to: u16) -> (i64, u32) {
        let ends = self.auto.ends[usize::from(to)];
        let fresh = i64::from((ends & !used).count_ones());
        (self.auto.points[usize::from(to)] + PHRASE_BONUS * fresh, used | ends)
    }

    /// Where `cmd` leads from `key` (automaton and phrases unchanged); `None` if it repeats a
    /// position.
    fn step(&mut self, key: Key, unit: &Unit, cmd: Command) -> Option<Step> {
        let stage = &self.boards[key.board as usize];
        let q = unit.step(key.pos, cmd);
        if self.rules.fits(&stage.board, unit, q) {
            let u = self.source[usize::from(stage.locked)];
            let bit = self.bit(u, q);
            let row = if q.y == key.pos.y { key.row } else { 0 };
            if row & bit != 0 || row.count_ones() > self.cap {
                return None;
            }
            return Some(Step::Move(Key { pos: q, row: row | bit, ..key }));
        }
        let (mut board, locked) = (stage.board.clone(), stage.locked);
        let ls = self.rules.lock(&mut board, unit, key.pos);
        let points = lock_points(unit.size, ls, usize::from(stage.ls_old));
        let id = self.stage(Stage { board, ls_old: ls as u8, locked: locked + 1 });
        Some(Step::Lock(points, self.spawn(id)))
    }

    /// The state of the next unit at its spawn after stage `id` (automaton and phrases to be
    /// filled in), or `None` if the game is over there.
    fn spawn(&self, id: u32) -> Option<Key> {
        let stage = &self.boards[id as usize];
        let u = *self.source.get(usize::from(stage.locked))?;
        let unit = &self.rules.units[u];
        self.rules.fits(&stage.board, unit, unit.spawn).then(|| Key {
            board: id,
            pos: unit.spawn,
            row: self.bit(u, unit.spawn),
            auto: 0,
            used: 0,
        })
    }

    /// The bit of position `p` of unit `u` in its row's set.
    fn bit(&self, u: usize, p: Pos) -> u128 {
        let period = i32::from(self.rules.units[u].period);
        1u128 << ((i32::from(p.x) - self.lowest[u]) * period + i32::from(p.r))
    }

    /// The index of a stage, added if new.
    fn stage(&mut self, stage: Stage) -> u32 {
        match self.board_ids.entry(stage) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let id = self.boards.len() as u32;
                let stage = e.key();
                let (deepest, most) = self.source.get(usize::from(stage.locked)).map_or((-1, 0), |&u| {
                    let unit = &self.rules.units[u];
                    let locks = Reach::new(self.rules, &stage.board, unit).locks();
                    // Rows full before the lock (a starting board may have some) go with it.
                    let full = stage.board.rows().iter().filter(|&&r| r == stage.board.full()).count();
                    let most = locks.iter().map(|&p| lines_at(&stage.board, unit, p)).max().unwrap_or(0) + full;
                    let deepest = locks.iter().map(|p| i32::from(p.y)).max().unwrap_or(-1);
                    (deepest, lock_points(unit.size, most, usize::from(stage.ls_old)) as i64)
                });
                self.deepest.push(deepest);
                self.lock_max.push(most);
                self.boards.push(stage.clone());
                e.insert(id);
                id
            }
        }
    }

    /// Keeps the game that follows the current text (worth `prefix`) and then the best way
    /// found on from `key` (`None`: the game ends with the text), if it beats the best known and
    /// the table still holds that way to the end of the game. Its points are counted along the
    /// way, not taken from the table (a state searched again may have changed its way).
    fn offer(&mut self, prefix: i64, key: Option<Key>) {
        let hoped = key.and_then(|k| self.solved.get(&k)).map_or(0, |s| s.found);
        if prefix + hoped <= self.best.0 {
            return;
        }
        let (mut text, mut points) = (self.path.clone(), prefix);
        let mut at = key;
        while let Some(k) = at {
            let Some(s) = self.solved.get(&k).copied() else { return };
            if s.letter == NO_LETTER {
                return; // nothing found from there (every way was cut)
            }
            text.push(self.letters[usize::from(s.letter)]);
            let (unit, to) = (self.unit_at(k), self.auto.next[usize::from(k.auto) * LETTERS + usize::from(s.letter)]);
            let (gain, used) = self.gain(k.used, to);
            points += gain;
            at = match self.step(k, unit, self.commands[usize::from(s.letter)]) {
                Some(Step::Move(n)) => Some(Key { auto: to, used, ..n }),
                Some(Step::Lock(p, next)) => {
                    points += p as i64;
                    next.map(|n| Key { auto: to, used, ..n })
                }
                None => return,
            };
        }
        if points > self.best.0 {
            self.best = (points, text);
        }
    }

    fn unit_at(&self, key: Key) -> &'a Unit {
        &self.rules.units[self.source[usize::from(self.boards[key.board as usize].locked)]]
    }
}

/// A state met by a beam pass: its rank (estimate of the whole game, points so far, depth into
/// a phrase), and its parent (an index into the states kept) and the letter from there.
#[derive(Copy, Clone, Debug)]
struct Beamed {
    rank: (i64, i64, u16),
    key: Key,
    parent: u32,
    letter: u8,
}

/// The states a beam pass may keep, each once (its best way there).
#[derive(Default)]
struct Kept {
    all: Vec<Beamed>,
    at: HashMap<Key, usize, Words>,
}

impl Kept {
    fn add(&mut self, b: Beamed) {
        match self.at.entry(b.key) {
            Entry::Occupied(e) => self.all[*e.get()] = b,
            Entry::Vacant(e) => {
                e.insert(self.all.len());
                self.all.push(b);
            }
        }
    }

    /// The `width` best, each added to `arena`: `(state, points, index in the arena)`.
    fn best(mut self, width: usize, arena: &mut Vec<(u32, u8)>) -> Vec<(Key, i64, u32)> {
        if self.all.len() > width {
            self.all.select_nth_unstable_by(width, |a, b| b.rank.cmp(&a.rank));
            self.all.truncate(width);
        }
        self.all
            .iter()
            .map(|b| {
                arena.push((b.parent, b.letter));
                (b.key, b.rank.1, (arena.len() - 1) as u32)
            })
            .collect()
    }
}

/// The text of state `i` of `arena`.
fn traced(arena: &[(u32, u8)], mut i: u32, letters: &[u8]) -> Vec<u8> {
    let mut text = Vec::new();
    while let Some(&(parent, letter)) = arena.get(i as usize) {
        if letter == NO_LETTER {
            break;
        }
        text.push(letters[usize::from(letter)]);
        i = parent;
    }
    text.reverse();
    text
}

/// The rows a lock of `unit` at `p` fills on `board`.
fn lines_at(board: &Board, unit: &Unit, p: Pos) -> usize {
    unit.masks_at(p).filter(|&(row, mask)| board.rows()[row] | mask == board.full()).count()
}

/// Rows a unit's cells span (the most lines one lock can clear).
fn rows_spanned(unit: &Unit) -> usize {
    let spans = (0..unit.period).flat_map(|r| (0..2).map(move |parity| unit.orient(r, parity)));
    spans.map(|o| (o.max_dy - o.min_dy + 1) as usize).max().unwrap_or(0)
}

/// The lowest and highest pivot columns at which `unit` fits on a row of the board, and the
/// lowest pivot row, over every turn and row parity.
fn extent(rules: &Rules, unit: &Unit) -> (i32, i32, i32) {
    let (mut lo, mut hi, mut low) = (i32::MAX, i32::MIN, i32::MIN);
    for r in 0..unit.period {
        for parity in 0..2 {
            let o = unit.orient(r, parity);
            lo = lo.min(-o.min_dx);
            hi = hi.max(rules.width as i32 - 1 - o.max_dx);
            low = low.max(rules.height as i32 - 1 - o.max_dy);
        }
    }
    (lo, hi, low)
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::engine::state::replay;
    use crate::judge::score;
    use crate::problem::{Cell, UnitDef};

    /// The most any text of the whole game scores, by brute force: every letter of every command
    /// that occurs in a phrase, and one that occurs in none, tried in turn; each game that ends
    /// is scored by the judge.
    fn brute(problem: &Problem, rules: &Rules, phrases: &Phrases, text: &mut String) -> u64 {
        let source = problem.source(0);
        let mut best = 0;
        for cmd in Command::ALL {
            let in_some = |c: char| (0..phrases.len()).any(|i| phrases.text(i).contains(&(c as u8)));
            for c in cmd.chars().chars().filter(|&c| c == cmd.letter() || in_some(c)) {
                text.push(c);
                let commands: Vec<Command> = text.chars().filter_map(Command::from_char).collect();
                let r = replay(problem, rules, &source, &commands);
                if r.repeated.is_none() && r.after_end.is_none() {
                    let got = if r.over {
                        score(problem, 0, text, phrases).score
                    } else {
                        brute(problem, rules, phrases, text)
                    };
                    best = best.max(got);
                }
                text.pop();
            }
        }
        best
    }

    /// A small board, its lower rows partly filled, with `units` of the game.
    fn problem(rng: &mut Rng64, (width, height): (usize, usize), unit: UnitDef, units: usize) -> Problem {
        let filled = (0..width * height)
            .filter(|i| i / width >= height - height / 2 && rng.below(3) == 0)
            .map(|i| Cell::new((i % width) as i32, (i / width) as i32));
        Problem {
            id: 1,
            units: vec![unit],
            width,
            height,
            filled: filled.collect(),
            source_length: units,
            source_seeds: vec![0],
        }
    }

    /// Checks the exact search against [`brute`] on `boards` random boards of each case:
    /// single cells, one and two of them (a phrase may then cross the lock), and a pair of cells
    /// that turns.
    fn against_brute_force(boards: usize, sizes: [(usize, usize); 3]) {
        let many = Phrases::new(["ei!", "al", "ba", "ia! ia!"].map(String::from)).unwrap();
        let few = Phrases::new(["ei!", "al"].map(String::from)).unwrap();
        let cell = UnitDef { members: vec![Cell::new(0, 0)], pivot: Cell::new(0, 0) };
        let pair = UnitDef { members: vec![Cell::new(0, 0), Cell::new(1, 0)], pivot: Cell::new(0, 0) };
        let mut rng = Rng64::seed(7);
        let cases = [(sizes[0], &cell, 1, &many), (sizes[1], &cell, 2, &few), (sizes[2], &pair, 1, &few)];
        for (i, (size, unit, units, phrases)) in cases.into_iter().enumerate() {
            for _ in 0..boards {
                let p = problem(&mut rng, size, unit.clone(), units);
                let rules = Rules::new(&p).unwrap();
                let most = proven_is_brute(&p, phrases);
                // A narrow beam alone: a game the judge scores as the beam does, no better.
                let mut beam = Exact::new(&p, &rules, phrases, 0).expect("a small game");
                beam.cap = UNCAPPED;
                assert!(beam.beam(2, &mut Budget::unlimited()).is_some());
                let text = String::from_utf8(beam.best.1.clone()).unwrap();
                let judged = score(&p, 0, &text, phrases);
                assert_eq!(judged.error, None, "case {i}: {text:?}");
                assert_eq!(judged.score as i64, beam.best.0, "case {i}: {text:?}");
                assert!(judged.score <= most, "case {i}: {text:?}");
            }
        }
    }

    /// Checks that the game of `p` is proven, judge-valid, scored by the judge as by the
    /// search, and what brute force finds; returns its score.
    fn proven_is_brute(p: &Problem, phrases: &Phrases) -> u64 {
        let rules = Rules::new(p).unwrap();
        let out = Exact::new(p, &rules, phrases, 0).expect("a small game").run(&Budget::unlimited());
        assert!(out.proven);
        let judged = score(p, 0, &out.text, phrases);
        assert_eq!(judged.error, None, "{:?}", out.text);
        assert_eq!(judged.score as i64, out.points, "{:?}", out.text);
        assert_eq!(judged.score, brute(p, &rules, phrases, &mut String::new()), "{:?}", out.text);
        judged.score
    }

    #[test]
    fn later_units_may_clear_as_many_rows_as_they_span_turned() {
        // A flat pair stands up when turned: the second one can clear two rows.
        let pair = UnitDef { members: vec![Cell::new(0, 0), Cell::new(1, 0)], pivot: Cell::new(0, 0) };
        let p = Problem {
            id: 1,
            units: vec![pair],
            width: 2,
            height: 5,
            filled: vec![],
            source_length: 2,
            source_seeds: vec![0],
        };
        let phrases = Phrases::new(["kl".to_string()]).unwrap();
        let rules = Rules::new(&p).unwrap();
        let out = Exact::new(&p, &rules, &phrases, 0).expect("a small game").run(&Budget::unlimited());
        assert!(out.proven);
        // A game whose second lock clears two rows: the proven game is no worse.
        let known = score(&p, 0, "lklklpklklklp", &phrases);
        assert_eq!((known.error, known.lines_cleared), (None, 2));
        assert!(out.points >= known.score as i64, "{out:?} against {}", known.score);
    }

    #[test]
    fn a_starting_board_with_a_full_row_clears_it_at_the_first_lock() {
        let cell = UnitDef { members: vec![Cell::new(0, 0)], pivot: Cell::new(0, 0) };
        let filled = [(0, 2), (1, 2), (2, 2), (0, 3), (2, 3)].map(|(x, y)| Cell::new(x, y)).to_vec();
        let p =
            Problem { id: 1, units: vec![cell], width: 3, height: 4, filled, source_length: 1, source_seeds: vec![0] };
        proven_is_brute(&p, &Phrases::new(["ei!", "ia! ia!", "al", "la", "ll"].map(String::from)).unwrap());
    }

    #[test]
    fn the_proven_best_game_is_what_brute_force_finds() {
        against_brute_force(3, [(3, 4), (2, 3), (3, 2)]);
    }

    /// The same on larger boards (a minute or two in a release build).
    #[test]
    #[ignore = "slow: brute force over every text"]
    fn the_proven_best_game_is_what_brute_force_finds_on_larger_boards() {
        against_brute_force(2, [(3, 4), (3, 3), (3, 3)]);
    }

    #[test]
    fn the_automaton_scores_texts_as_the_rules_do() {
        let phrases = Phrases::official();
        let mut rng = Rng64::seed(3);
        let cell = UnitDef { members: vec![Cell::new(0, 0)], pivot: Cell::new(0, 0) };
        let p = problem(&mut rng, (5, 5), cell, 1);
        let rules = Rules::new(&p).unwrap();
        let exact = Exact::new(&p, &rules, &phrases, 0).expect("a small game");
        // Random texts made mostly of pieces of phrases, so that they hold many occurrences.
        for _ in 0..200 {
            let mut text = String::new();
            while text.len() < 60 {
                let p = phrases.text(rng.below(phrases.len() as u64) as usize);
                let (a, b) = (rng.below(p.len() as u64) as usize, rng.below(p.len() as u64 + 1) as usize);
                text.push_str(std::str::from_utf8(&p[a.min(b)..a.max(b)]).unwrap());
                if rng.below(4) == 0 {
                    text.push_str(std::str::from_utf8(p).unwrap());
                }
            }
            let (mut s, mut used, mut points) = (0u16, 0u32, 0i64);
            for b in text.bytes() {
                let l = exact.letters.iter().position(|&x| x == b).unwrap();
                s = exact.auto.next[usize::from(s) * LETTERS + l];
                let (gain, u) = exact.gain(used, s);
                (points, used) = (points + gain, u);
            }
            assert_eq!(points as u64, phrases.score(&text), "{text:?}");
        }
    }
}
