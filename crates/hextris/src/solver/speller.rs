//! The [`Speller`]: the command text that takes a unit from its spawn to a chosen lock position
//! while spelling as many phrase points as it can on the way down.
//!
//! A unit's walk never comes back to a position and every move down is final, so the walk
//! crosses the rows in order. Within a row, moves east and west and turns score nothing; a phrase
//! scores `2 len`. The best text is thus a longest path, found row by row: each position reached
//! by a phrase or a move down from above is an *entry* to its row; the entries, best first, flood
//! the positions of the row they can walk to (never through the cells their own phrase used in
//! that row); every position then tries every phrase that moves down (and the two single moves
//! down) towards the rows below. A phrase may also end the unit: its last command then locks it
//! where it stands. Each phrase is first walked from the whole row at once (a few mask
//! operations, see [`Route::row_walks`]), so a position looks only at the phrases that fit from it.
//!
//! A phrase that never moves down (turns only, moves east or west) is a step within its row:
//! from each flooded position a few moves from its entry, each such phrase is walked, never onto
//! a position the way there used; its end becomes a new entry worth the phrase more, and the row
//! is flooded again, a round per phrase chained (see [`Speller::chain_row`]). Of two ways into a
//! position that are worth as much, the one that used fewer of the row's positions is kept: it
//! leaves more room for the next phrase.
//!
//! The first occurrence of a phrase in a game is worth 300 more. The search runs on layers: on
//! the first no phrase new to the game has been spelled yet, and a new phrase lifts a way to the
//! next layer, with its bonus; each way remembers which new phrases it spelled, so none is
//! counted twice. A unit's way may spell three new phrases, and a fourth if that one locks it.
//!
//! Overlapping occurrences count: "ia! ia!" ends with its own beginning, so "ia! ia! ia!" holds
//! it twice. Such chains are offered to units that cannot turn, which have few other phrases.
//!
//! The plan is then carried out move by move; a walk within a row may still run into a cell the
//! plan forgot, and then the rest is planned again from where the unit stands (a few times at
//! most, then the unit takes the plain shortest path).

use std::cmp::Reverse;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use super::bridge::{Bridge, Carry, free_path};
use super::sweep::{DEFAULT_WORK, Sweep, Tally};
use super::unturned::Turnless;
use super::walk::{Route, RowWalks, TURNS, Walk, walk};
use crate::command::Command;
use crate::engine::bfs::{bfs, shortest_walk};
use crate::engine::reach::undo;
use crate::engine::{Board, Pos, Reach, Rules, Unit};
use crate::phrase::Phrases;
use crate::solver::PHRASE_BONUS;

/// A phrase as the planner uses it.
#[derive(Clone, Debug)]
struct Phrase {
    /// Its characters, lower-cased.
    text: Vec<u8>,
    /// The commands it spells.
    commands: Vec<Command>,
    /// Moves down among them.
    downs: usize,
    /// Whether spelling it again is worth trying: its points per row moved down are close to
    /// the best phrase's, or it needs no turn (units that cannot turn have few phrases).
    repeat: bool,
    /// The phrase of power it spells (chains spell one several times).
    base: usize,
    /// Its points: `2 len` of the base phrase per occurrence.
    points: i64,
    /// A chain: tried only by units that cannot turn, which have few other phrases.
    chain: bool,
}

/// How a position (on a layer) got its best score.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Back {
    /// Not reached.
    None,
    /// The start.
    Start,
    /// One move down from another position.
    Down { from: u32, cmd: Command },
    /// A phrase from another position (perhaps on the first layer).
    Phrase { from: u32, phrase: u16 },
    /// A walk within the row from the row's entry.
    Row { entry: u32 },
    /// A way within the row that spelled phrases staying in it (see [`Chained`]).
    Chained { index: u32 },
}

/// A way into a position that spelled phrases staying in their row, kept whole: the row is
/// flooded again after each such phrase (see [`Speller::chain_row`]), which forgets the
/// positions the way passed. One link per phrase: the walk within the row to where the phrase
/// starts, the phrase, and the link before (if any).
#[derive(Copy, Clone, Debug)]
struct Chained {
    /// How the way came into the row (never `Row` or `Chained`).
    how: Back,
    /// The link before this one (`NO_LINK`: none).
    prev: u32,
    /// Where the walk within the row goes before the phrase (`None`: the phrase starts where the
    /// link before ended, or where the way came in).
    walk_to: Option<Pos>,
    phrase: u16,
    /// The keys of the row (within a layer) this link used, in [`Speller::cells`]; with those of
    /// the links before, all the way used but its end (`spent` of them).
    cells: (u32, u32),
    spent: u32,
}

const NO_LINK: u32 = u32::MAX;

/// A piece of a unit's text.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Segment {
    Down(Command),
    Phrase(u16),
    /// A phrase whose last command locks the unit.
    LockingPhrase(u16),
    /// The head of a phrase that the next unit finishes (see [`super::bridge`]).
    Bridge(u16),
    Row(Pos),
    Lock,
}

const NONE: i64 = i64::MIN;
/// A phrase already used is tried again if its points per row reach this share of the best
/// phrase's (the others lose to it wherever both fit).
const REPEAT_SHARE: f64 = 0.7;
/// How many of the last cells of a walk within a row a phrase starting there keeps clear of
/// (phrases move within their first row a few times at most).
const WALK_MEMORY: usize = 6;
/// The longest chain of overlapping occurrences tried (see [`chains`]).
const CHAIN: usize = 10;
/// Phrases new to the game that one unit's way down may spell, besides one that ends it.
const MAX_NEW: usize = 3;
const NO_PHRASE: u16 = u16::MAX;
/// The moves that keep a unit in its row.
const ROW_MOVES: [Command; 4] = [Command::W, Command::E, Command::CW, Command::CCW];
/// Plans carried out before the unit falls back to the plain path.
const ATTEMPTS: usize = 4;
/// Floods of a row and its phrases that stay in it: each round may chain one more such phrase
/// onto the ways of the last.
const ROW_ROUNDS: usize = 24;
/// How many moves from its entry a phrase that stays in the row may start: further starts are
/// mostly worth as much as nearer ones and cost more of the row.
const ROW_REACH: usize = 4;
/// Columns either side of the start that the search keeps to in the rows above the stack (see
/// [`Band`]).
const BAND: i32 = 8;

/// The rows above the stack, where the unit meets no filled cell whatever its column and turn.
/// There every column is alike: the best way down from one column is the best way from any
/// other, shifted. So the search keeps to a band of columns around the start in those rows, and
/// spreads out along the last of them (which is open from wall to wall): on wide boards most
/// positions of the upper rows are never looked at.
#[derive(Copy, Clone, Debug, Default)]
struct Band {
    /// Pivot rows above this one are kept to the band (the row itself is open).
    until: i32,
    /// The band's middle column.
    center: i32,
}

impl Band {
    /// Whether a position of pivot row `y`, column `x` is looked at.
    #[inline]
    fn holds(self, x: i32, y: i32) -> bool {
        y >= self.until || (x - self.center).abs() <= BAND
    }
}

/// What one search is asked: the longest path from `start` to a lock at `target`, where
/// `blocked` are cells of the start's row already used, `used[i]` says whether phrase `i`
/// already occurs in the game, and `bridges` are the phrases the next unit may finish.
struct Query<'q> {
    reach: &'q Reach,
    unit: &'q Unit,
    start: Pos,
    blocked: &'q [Pos],
    target: Pos,
    used: &'q [bool],
    bridges: &'q [Bridge],
}

/// What one search makes before it starts (see [`Speller::tables`]).
struct Tables {
    /// The phrases worth trying (indices into the speller's phrases).
    candidates: Vec<usize>,
    /// Per row, each candidate's walks from the row and which fit from each start (see
    /// [`Speller::row_phrases`]); `words` words of candidates a start.
    walks: Vec<RowWalks>,
    live: Vec<u64>,
    words: usize,
    /// Each candidate's moves as differences of keys, per start turn and row parity: from
    /// `keyed[keyed_at[TURNS * c + turn]..]` (see [`Route::key_steps`]).
    keyed: Vec<isize>,
    keyed_at: Vec<usize>,
    /// Where each bridge's head starts (its key) and the bridge, sorted.
    heads: Vec<(usize, usize)>,
    /// Layers of the search, and the target's key.
    layers: usize,
    target_key: usize,
}

/// A position being left: where it is, its key on the first layer and on its own (`kq`), its
/// layer, its best score and its bit in the row's masks.
#[derive(Copy, Clone, Debug)]
struct At {
    pos: Pos,
    key: usize,
    kq: usize,
    layer: usize,
    here: i64,
    bit: u32,
}

/// The best end found so far: its points, the key it leaves from and its last segment.
struct End {
    points: i64,
    key: usize,
    segment: Segment,
}

impl End {
    fn offer(&mut self, points: i64, key: usize, segment: Segment) {
        if points > self.points {
            *self = End { points, key, segment };
        }
    }
}

/// An entry to a row: its key, score, how it was reached and the new phrases its way spelled.
#[derive(Copy, Clone, Debug)]
struct Entry {
    key: usize,
    value: i64,
    /// The positions of the row its way used (of two ways as good, the one that leaves more).
    spent: usize,
    how: Back,
    new: [u16; MAX_NEW],
}

/// A phrase that stays in its row, from the position at key `from` to the one at `key` (of the
/// same layer or the next), with the score, positions spent and new phrases of the way there.
#[derive(Copy, Clone, Debug)]
struct Step {
    key: usize,
    value: i64,
    spent: usize,
    new: [u16; MAX_NEW],
    from: usize,
    phrase: usize,
}

/// Buffers of the loop over a row's positions: the cells of the row after the current entry's
/// walk, and the cells a phrase must keep clear of.
#[derive(Default)]
struct Scratch {
    suffix: Vec<usize>,
    forbid: Vec<usize>,
}

/// Plans units' texts; keeps its buffers between units.
#[derive(Clone, Debug)]
pub struct Speller {
    phrases: Vec<Phrase>,
    /// Per layer and key: best score, how, and the entry of the row it came from.
    best: Vec<i64>,
    back: Vec<Back>,
    entry: Vec<u32>,
    /// The previous position on the walk from the row's entry (the entry itself for entries).
    parent: Vec<u32>,
    /// Moves from the row's entry (for the walk from the entry to a position).
    depth: Vec<u16>,
    /// Per layer and key: the phrases new to the game that the best way there spelled.
    new: Vec<[u16; MAX_NEW]>,
    stamp: Vec<u32>,
    round: u32,
    seen: Vec<Pos>,
    /// The band of the current search.
    band: Band,
    /// The queue of the flood of a row.
    queue: VecDeque<(Pos, usize)>,
    /// The links of the ways of the current search that spelled phrases staying in their row,
    /// and the cells they used.
    chained: Vec<Chained>,
    cells: Vec<usize>,
    /// Per key (within a layer): marked when the way to the position tried used it.
    mark: Vec<u32>,
    marked: u32,
    /// Per key of a layer and the next: where its best step is in a list, if it has one.
    slot: Vec<u32>,
    /// `routes[period]`: each phrase's moves worked out for units of that period (see
    /// [`Route`]), made when first needed.
    routes: [Vec<Route>; 7],
    /// The end of the game's text before the unit spelled next, and what the unit after it
    /// earns by the state its text leaves (see [`Speller::after`]).
    tail: Vec<u8>,
    bonus: Vec<i64>,
    /// The exact search's view of the phrases, for units that cannot turn (`None`: too many
    /// phrases without a turn).
    turnless: Option<Turnless>,
    /// The exact search over sweeping walks (`None`: no phrases, or too many); the most steps
    /// it may take for one unit, and per unit (by its address) if given.
    sweep: Option<Sweep>,
    sweep_work: usize,
    sweep_units: Vec<(usize, usize)>,
    /// Whether each unit's sweeping search pays, shared by the spellers of a solve (by the
    /// unit's index in `sweep_units`).
    tally: Option<Arc<Tally>>,
}

impl Speller {
    /// A speller for `phrases`.
    pub fn new(phrases: &Phrases) -> Speller {
        let turnless = Turnless::of(phrases);
        let sweep = Sweep::of(phrases);
        let mut phrases: Vec<Phrase> = (0..phrases.len())
            .map(|i| {
                let commands = phrases.commands(i);
                let downs = commands.iter().filter(|c| c.is_down()).count();
                let points = 2 * commands.len() as i64;
                Phrase { text: phrases.text(i).to_vec(), commands, downs, repeat: true, base: i, points, chain: false }
            })
            .collect();
        phrases.extend(chains(&phrases));
        let rate = |p: &Phrase| p.points as f64 / p.downs.max(1) as f64;
        let best = phrases.iter().map(rate).fold(0.0, f64::max);
        for p in &mut phrases {
            // A phrase that stays in its row costs no row: it is worth spelling again wherever
            // it fits.
            p.repeat = rate(p) >= REPEAT_SHARE * best || !p.commands.iter().any(|c| c.is_turn()) || p.downs == 0;
        }
        Speller {
            phrases,
            best: Vec::new(),
            back: Vec::new(),
            entry: Vec::new(),
            parent: Vec::new(),
            depth: Vec::new(),
            new: Vec::new(),
            stamp: Vec::new(),
            round: 0,
            seen: Vec::new(),
            band: Band::default(),
            queue: VecDeque::new(),
            chained: Vec::new(),
            cells: Vec::new(),
            mark: Vec::new(),
            marked: 0,
            slot: Vec::new(),
            routes: Default::default(),
            tail: Vec::new(),
            bonus: Vec::new(),
            turnless,
            sweep,
            sweep_work: DEFAULT_WORK,
            sweep_units: Vec::new(),
            tally: None,
        }
    }

    /// The same speller, its sweeping search (see the module `sweep`) kept to `work[u]` steps
    /// for unit `units[u]` (0: never) and not used for other units.
    #[must_use]
    pub(crate) fn sweeping(mut self, units: &[Unit], work: &[usize]) -> Speller {
        self.sweep_units = units.iter().zip(work).map(|(u, &w)| (std::ptr::from_ref(u) as usize, w)).collect();
        self.sweep_work = 0;
        self
    }

    /// The same speller, its sweeping searches counted in `tally` (by the index of the unit
    /// given to [`Speller::sweeping`]) and left out where they seldom win.
    #[must_use]
    pub(crate) fn tallied(mut self, tally: &Arc<Tally>) -> Speller {
        self.tally = Some(Arc::clone(tally));
        self
    }

    /// The most steps the sweeping search may take for `unit` (0: none), and the unit's index
    /// among those given to [`Speller::sweeping`].
    fn sweep_work(&self, unit: &Unit) -> (usize, Option<usize>) {
        let at = std::ptr::from_ref(unit) as usize;
        match self.sweep_units.iter().position(|&(u, _)| u == at) {
            Some(i) if self.tally.as_ref().is_some_and(|t| !t.worth(i)) => (0, Some(i)),
            Some(i) => (self.sweep_units[i].1, Some(i)),
            None => (self.sweep_work, None),
        }
    }

    /// Says that the game's text before the next unit ends with `tail` (the longest phrase's
    /// length is enough): a unit that cannot turn may finish a phrase begun there; and that the
    /// unit after it, if it cannot turn either, earns `bonus[s]` after a text that leaves the
    /// phrases' automaton in state `s` (see [`Speller::start_values`]; empty: not known).
    pub(crate) fn after(&mut self, tail: &[u8], bonus: &[i64]) {
        self.tail.clear();
        self.tail.extend_from_slice(tail);
        self.bonus.clear();
        self.bonus.extend_from_slice(bonus);
    }

    /// For a unit that cannot turn, locking at `target` on `board` with `bonus` after it: what
    /// it earns by the state of the phrases' automaton the text before it leaves (see the
    /// module `unturned`); `None` for other units.
    pub(crate) fn start_values(
        &self,
        rules: &Rules,
        board: &Board,
        unit: &Unit,
        target: Pos,
        bonus: &[i64],
    ) -> Option<Vec<i64>> {
        self.turnless.as_ref()?.start_values((rules, board, unit, target), bonus)
    }

    /// The text for `unit` from its spawn to a lock at `target` (reachable on `board`): the
    /// locking command last. `used[i]` says whether phrase `i` already occurs in the game.
    pub fn spell(&mut self, rules: &Rules, board: &Board, unit: &Unit, target: Pos, used: &[bool]) -> Vec<u8> {
        self.spell_with(rules, board, unit, target, used, Carry::spawn(unit), &[]).0
    }

    /// [`Speller::spell`] for a unit that starts as `carry` says (its text starts with the
    /// carry's), which may end with the head of one of `bridges`: returns the text and which
    /// bridge, if one; the next unit must then start from that bridge's carry.
    #[allow(clippy::too_many_arguments)]
    pub fn spell_with(
        &mut self,
        rules: &Rules,
        board: &Board,
        unit: &Unit,
        target: Pos,
        used: &[bool],
        carry: Carry,
        bridges: &[Bridge],
    ) -> (Vec<u8>, Option<usize>) {
        // A unit that cannot turn, from its spawn with nothing carried over: its best text is
        // found exactly (see the module `unturned`; it offers no phrase to the next unit).
        if unit.period == 1
            && carry.text.is_empty()
            && carry.at == unit.spawn
            && let Some(t) = &self.turnless
            && let Some(text) = t.spell((rules, board, unit, target), (&self.tail, &self.bonus), used)
        {
            return (text, None);
        }
        let from_spawn = carry.text.is_empty() && carry.at == unit.spawn;
        let general = self.spell_general((rules, board, unit, target), used, carry, bridges);
        // From the spawn with nothing carried over, the best sweeping walk (see the module
        // `sweep`) if it earns more than the general search's text (and that offers no bridge).
        if general.1.is_none()
            && from_spawn
            && let Some(sweep) = &self.sweep
            && let (work, index) = self.sweep_work(unit)
            && work > 0
        {
            let started = Instant::now();
            let swept = sweep.spell((rules, board, unit, target), &self.tail, used, work);
            let won = swept.as_ref().is_some_and(|s| s.1 > sweep.value(&self.tail, &general.0, used));
            if let (Some(tally), Some(i)) = (&self.tally, index) {
                tally.record(i, won, started.elapsed());
            }
            if let Some((text, _)) = swept.filter(|_| won) {
                return (text, None);
            }
        }
        general
    }

    /// [`Speller::spell_with`] by the general search: the best path over the unit's positions,
    /// phrases and the moves between them as steps.
    fn spell_general(
        &mut self,
        (rules, board, unit, target): (&Rules, &Board, &Unit, Pos),
        used: &[bool],
        carry: Carry,
        bridges: &[Bridge],
    ) -> (Vec<u8>, Option<usize>) {
        let reach = Reach::new(rules, board, unit);
        // The last pivot row where no turn of the unit reaches a filled row.
        let reach_down = (0..unit.period).flat_map(|r| [0, 1].map(|parity| unit.orient(r, parity).max_dy)).max();
        let open = board.top() as i32 - reach_down.unwrap_or(0) - 1;
        // Units that cannot turn spell long chains of one phrase, which must start where they
        // end up: no band for them (they have six times fewer positions anyway).
        let until = if unit.period > 1 { open } else { i32::MIN };
        self.band = Band { until, center: carry.at.x as i32 };
        let start = Walker { text: carry.text.clone(), at: carry.at, row: carry.row.clone() };
        let mut walker = start.clone();
        for _ in 0..ATTEMPTS {
            let blocked: Vec<Pos> = walker.row.iter().copied().filter(|&p| p != walker.at).collect();
            let query = Query { reach: &reach, unit, start: walker.at, blocked: &blocked, target, used, bridges };
            let Some(segments) = self.search(&query) else { break };
            if walker.follow(&reach, unit, target, &segments, &self.phrases, bridges) {
                let bridge = match segments.last() {
                    Some(Segment::Bridge(b)) => Some(*b as usize),
                    _ => None,
                };
                return (walker.text, bridge);
            }
        }
        // The shortest way from where the unit started (its carry kept), or else from its spawn.
        let mut walker = start;
        let blocked: Vec<Pos> = walker.row.iter().copied().filter(|&p| p != walker.at).collect();
        if let Some(path) = free_path(&reach, unit, walker.at, &blocked, target)
            && let Some(lock) = reach.locking(target).next()
        {
            walker.text.extend(path.iter().chain([&lock]).map(|c| c.letter() as u8));
            return (walker.text, None);
        }
        (plain_text(&reach, unit, target), None)
    }

    /// The plain text for `unit` to lock at `target`: the shortest path and a locking command.
    pub fn plain(rules: &Rules, board: &Board, unit: &Unit, target: Pos) -> Vec<u8> {
        plain_text(&Reach::new(rules, board, unit), unit, target)
    }

    /// The longest path of `q`: its segments in order.
    fn search(&mut self, q: &Query<'_>) -> Option<Vec<Segment>> {
        let n = q.reach.keys();
        // Layer l: l phrases new to the game spelled so far by this unit.
        let layers = 1 + q.used.iter().filter(|&&u| !u).count().min(MAX_NEW);
        self.clear_layers(layers * n);
        let s = q.reach.key(q.start)?;
        self.best[s] = 0;
        self.back[s] = Back::Start;
        let kt = q.reach.key(q.target)?;
        let mut t = self.tables(q, layers, kt);
        self.chained.clear();
        self.cells.clear();
        let in_row: Vec<usize> = t.candidates.iter().copied().filter(|&i| self.phrases[i].downs == 0).collect();
        let mut end = End { points: NONE, key: 0, segment: Segment::Lock };
        let mut scratch = Scratch::default();
        for y in q.start.y as i32..=q.target.y as i32 {
            let band = self.band;
            // The row's positions, with their keys on the first layer.
            let row: Vec<(Pos, usize)> =
                q.reach.reachable_in_row(y).filter(|(p, _)| band.holds(p.x as i32, y)).collect();
            self.row_phrases(q.reach, (&row, y), q.target, &t.candidates, &mut t.walks, &mut t.live);
            for layer in 0..layers {
                match in_row.is_empty() {
                    true => self.close_row(q.reach, q.unit, &row, layer * n, q.blocked),
                    false => self.chain_row(q, (&row, y), (layer, layers), &in_row),
                }
                self.leave_row(q, &t, (&row, y, layer), &mut end, &mut scratch);
            }
        }
        if end.points == NONE {
            return None;
        }
        self.segments(q.reach, end.key, end.segment)
    }

    /// Empties the tables of `len` keys (all layers).
    fn clear_layers(&mut self, len: usize) {
        self.best.clear();
        self.best.resize(len, NONE);
        self.back.clear();
        self.back.resize(len, Back::None);
        self.entry.resize(len, 0);
        self.parent.resize(len, 0);
        self.depth.resize(len, 0);
        self.new.clear();
        self.new.resize(len, [NO_PHRASE; MAX_NEW]);
        if self.stamp.len() < len {
            self.stamp.resize(len, 0);
        }
    }

    /// The tables of one search: its candidate phrases and their moves, and where the bridges'
    /// heads start.
    fn tables(&mut self, q: &Query<'_>, layers: usize, target_key: usize) -> Tables {
        // A bridge's head ends at the target, so it can only start at one position: its moves
        // undone from the target. Sorted by that position's key.
        let mut heads: Vec<(usize, usize)> = q
            .bridges
            .iter()
            .enumerate()
            .filter_map(|(b, bridge)| {
                let (_, moves) = bridge.head.split_last()?;
                let from = moves.iter().rev().fold(q.target, |p, &c| undo(q.unit, p, c));
                Some((q.reach.reachable_key(from)?, b))
            })
            .collect();
        heads.sort_unstable();
        // The phrases worth trying: not used yet, or worth repeating; chains only for units
        // that cannot turn.
        let candidates: Vec<usize> = (0..self.phrases.len())
            .filter(|&i| {
                let p = &self.phrases[i];
                (!q.used[p.base] || p.repeat) && (!p.chain || q.unit.period == 1)
            })
            .collect();
        self.make_routes(q.unit.period);
        let (period, cands) = (q.unit.period as usize, candidates.len());
        let words = cands.div_ceil(64);
        // Each candidate's moves as differences of keys, per start turn and row parity: from
        // `keyed[keyed_at[TURNS * c + turn]..]` (see [`Route::key_steps`]).
        let (mut keyed, mut keyed_at) = (Vec::new(), Vec::with_capacity(TURNS * cands));
        for &i in &candidates {
            for turn in 0..TURNS {
                keyed_at.push(keyed.len());
                self.routes[period][TURNS * i + turn].key_steps(q.reach, (turn % 2) as i32, &mut keyed);
            }
        }
        Tables {
            walks: vec![RowWalks::default(); period * cands],
            live: vec![0u64; period * 128 * words],
            candidates,
            words,
            keyed,
            keyed_at,
            heads,
            layers,
            target_key,
        }
    }

    /// Every way out of the positions of pivot row `y` on layer `layer`, reached by now: a
    /// lock at the target, a move down, a phrase, the head of a bridge.
    fn leave_row(
        &mut self,
        q: &Query<'_>,
        t: &Tables,
        (row, y, layer): (&[(Pos, usize)], i32, usize),
        end: &mut End,
        scratch: &mut Scratch,
    ) {
        let n = q.reach.keys();
        let base = layer * n;
        let mut last_entry = usize::MAX;
        for &(p, key) in row {
            let kq = base + key;
            let here = self.best[kq];
            if here == NONE {
                continue;
            }
            if key == t.target_key {
                end.offer(here, kq, Segment::Lock);
            }
            if y < q.target.y as i32 {
                self.moves_down(q, p, kq, base);
            }
            let bit = (key % 128) as u32;
            let mine = &t.live[(128 * p.r as usize + bit as usize) * t.words..][..t.words];
            // Heads of phrases the next unit finishes that start here.
            let first = t.heads.partition_point(|&(k, _)| k < key);
            let heads = &t.heads[first..];
            let heads = &heads[..heads.iter().take_while(|&&(k, _)| k == key).count()];
            if mine.iter().all(|&w| w == 0) && heads.is_empty() {
                continue; // no phrase can be walked from here
            }
            let e = self.entry[kq] as usize % n;
            if e != last_entry {
                self.suffix(q.reach, q.unit, e, base, q.blocked, &mut scratch.suffix);
                last_entry = e;
            }
            self.forbidden(kq, n, scratch);
            let at = At { pos: p, key, kq, layer, here, bit };
            self.phrases_from(q, t, at, mine, &scratch.forbid, end);
            self.bridges_from(q, at, heads, &scratch.forbid, end);
        }
    }

    /// The two moves down from position `p` (key `kq`, layer from `base`).
    fn moves_down(&mut self, q: &Query<'_>, p: Pos, kq: usize, base: usize) {
        let here = self.best[kq];
        for cmd in [Command::SW, Command::SE] {
            if let Some(to) = q.reach.reachable_key(q.unit.step(p, cmd)) {
                let new = self.new[kq];
                self.relax(base + to, here, Back::Down { from: kq as u32, cmd }, new);
            }
        }
    }

    /// The cells a phrase from key `kq` must keep clear of: those of its row after its entry's
    /// walk ([`Scratch::suffix`]) and the last cells of the walk to it (a phrase must not turn
    /// back onto them).
    fn forbidden(&self, kq: usize, n: usize, scratch: &mut Scratch) {
        scratch.forbid.clear();
        scratch.forbid.extend_from_slice(&scratch.suffix);
        let mut k = kq;
        for _ in 0..WALK_MEMORY {
            let up = self.parent[k] as usize;
            if up == k {
                break;
            }
            scratch.forbid.push(up % n);
            k = up;
        }
    }

    /// Every candidate phrase that can be walked from `at` (those of `mine`, a bit each),
    /// avoiding the keys of `forbid`: one that ends with a move down lifts the way there, one
    /// that locks at the target may end the search.
    fn phrases_from(&mut self, q: &Query<'_>, t: &Tables, at: At, mine: &[u64], forbid: &[usize], end: &mut End) {
        let (n, period) = (q.reach.keys(), q.unit.period as usize);
        let (base, cands) = (at.layer * n, t.candidates.len());
        let turn = 2 * at.pos.r as usize + (at.pos.y & 1) as usize;
        let row_walks = &t.walks[at.pos.r as usize * cands..][..cands];
        let fitting = mine.iter().enumerate().flat_map(|(j, &w)| ones(w.into()).map(move |c| 64 * j + c));
        for c in fitting {
            let (i, w) = (t.candidates[c], row_walks[c]);
            let (of, was_used) = (self.phrases[i].base, q.used[self.phrases[i].base]);
            // A phrase new to the game (and to this way down) lifts the way to the next layer,
            // with its bonus; on the last layer only a phrase that ends the unit still gets it.
            let fresh = !was_used && !self.new[at.kq].contains(&(of as u16));
            let lifts = fresh && at.layer + 1 < t.layers;
            let (points, downs) = (self.phrases[i].points, self.phrases[i].downs);
            let steps = &t.keyed[t.keyed_at[TURNS * c + turn]..];
            match self.routes[period][TURNS * i + turn].walk_at(w, (at.bit, at.key), forbid, steps) {
                Walk::Ends(to) if downs > 0 => {
                    let (gain, k) = match lifts {
                        true => (at.here + PHRASE_BONUS + points, base + n + to),
                        false => (at.here + points, base + to),
                    };
                    let mut new = self.new[at.kq];
                    if lifts {
                        new[at.layer] = of as u16;
                    }
                    self.relax(k, gain, Back::Phrase { from: at.kq as u32, phrase: i as u16 }, new);
                }
                Walk::Locks(to) if to == t.target_key => {
                    end.offer(at.here + points + PHRASE_BONUS * fresh as i64, at.kq, Segment::LockingPhrase(i as u16));
                }
                _ => {}
            }
        }
    }

    /// The heads of the bridges (`heads`: their start keys and indices) that start at `at`,
    /// whose next unit finishes them: a new phrase, bonus and all, if the head walks into the
    /// lock at the target.
    fn bridges_from(&mut self, q: &Query<'_>, at: At, heads: &[(usize, usize)], forbid: &[usize], end: &mut End) {
        for &(_, b) in heads {
            let bridge = &q.bridges[b];
            let fresh = !self.new[at.kq].contains(&(bridge.phrase as u16));
            let gain = at.here + PHRASE_BONUS * fresh as i64 + 2 * self.phrases[bridge.phrase].text.len() as i64;
            if gain <= end.points {
                continue;
            }
            // The step-by-step walk takes the cells to avoid as positions.
            let avoid: Vec<Pos> = forbid.iter().map(|&k| q.reach.pos_of(k)).collect();
            let ty = q.target.y as i32;
            if walk(q.reach, q.unit, at.pos, &bridge.head, ty, &avoid, &mut self.seen) == Walk::Locks(q.target) {
                *end = End { points: gain, key: at.kq, segment: Segment::Bridge(b as u16) };
            }
        }
    }

    /// Where each candidate phrase (indices into the phrases) goes from every start of pivot
    /// row `y` at once (`row` holds the starts), turned into each start's list of candidates
    /// worth walking: `walks[r * cands + c]` for candidate `c` and the row's turn `r`;
    /// `live[(128 r + b) * words..][..words]` the candidates, a bit each, that from bit `b` end
    /// with a move down or lock at `target`. A phrase that never moves down ends in its own
    /// row, where the row's flood already goes; and a phrase locks at one place from each
    /// start, so at the target from one start at most ([`Route::lock_start`]).
    fn row_phrases(
        &self,
        reach: &Reach,
        (row, y): (&[(Pos, usize)], i32),
        target: Pos,
        candidates: &[usize],
        walks: &mut [RowWalks],
        live: &mut [u64],
    ) {
        let (period, cands, words) = (reach.period() as usize, candidates.len(), candidates.len().div_ceil(64));
        let mut starts = [0u128; 6];
        for (q, key) in row {
            starts[q.r as usize] |= 1 << (key % 128);
        }
        for r in (0..period).filter(|&r| starts[r] != 0) {
            let live = &mut live[128 * r * words..][..128 * words];
            live.fill(0);
            let routes = &self.routes[period];
            for (c, &i) in candidates.iter().enumerate() {
                let route = &routes[TURNS * i + 2 * r + (y & 1) as usize];
                let lock_from = route.lock_start(y, target).and_then(|p| reach.bit(p));
                let w = route.row_walks(reach, y, target.y.into()).keep(self.phrases[i].downs > 0, lock_from);
                walks[r * cands + c] = w;
                for b in ones(w.open() & starts[r]) {
                    live[b * words + c / 64] |= 1 << (c % 64);
                }
            }
        }
    }

    /// The segments of the best way, read back from its end at key `k` (of its layer).
    fn segments(&self, reach: &Reach, mut k: usize, last: Segment) -> Option<Vec<Segment>> {
        let n = reach.keys();
        let mut segments = vec![last];
        let mut how = self.back[k];
        // Every step goes back to an earlier row or an earlier way within one; the bound only
        // guards against a plan that went wrong.
        for _ in 0..=self.best.len() {
            match how {
                Back::Start => {
                    segments.reverse();
                    return Some(segments);
                }
                Back::None => return None,
                Back::Down { from, cmd } => {
                    segments.push(Segment::Down(cmd));
                    k = from as usize;
                }
                Back::Phrase { from, phrase } => {
                    segments.push(Segment::Phrase(phrase));
                    k = from as usize;
                }
                Back::Row { entry } => {
                    segments.push(Segment::Row(reach.pos_of(k % n)));
                    k = entry as usize;
                }
                Back::Chained { index } => {
                    let c = self.chained[index as usize];
                    segments.push(Segment::Phrase(c.phrase));
                    segments.extend(c.walk_to.map(Segment::Row));
                    how = match c.prev {
                        NO_LINK => c.how,
                        prev => Back::Chained { index: prev },
                    };
                    continue;
                }
            }
            how = self.back[k];
        }
        None
    }

    /// Works out the routes of every phrase for units of `period` turns, once.
    fn make_routes(&mut self, period: u8) {
        if self.routes[period as usize].is_empty() {
            let routes = self.phrases.iter().flat_map(|p| {
                (0..TURNS).map(move |turn| Route::new(&p.commands, period, (turn / 2) as u8, (turn % 2) as i32))
            });
            self.routes[period as usize] = routes.collect();
        }
    }

    fn relax(&mut self, k: usize, value: i64, how: Back, new: [u16; MAX_NEW]) {
        if value > self.best[k] {
            self.best[k] = value;
            self.back[k] = how;
            self.new[k] = new;
        }
    }

    /// The cells of its row that the way into entry `e` (a key of the layer at `base`) used,
    /// the entry itself excepted: where a walk from it must not go, as keys within a layer.
    fn suffix(&self, reach: &Reach, unit: &Unit, e: usize, base: usize, blocked: &[Pos], out: &mut Vec<usize>) {
        out.clear();
        match self.back[base + e] {
            // A position with no key is none the flood or a phrase can reach.
            Back::Start => out.extend(blocked.iter().filter_map(|&p| reach.key(p))),
            Back::Phrase { from, phrase } => {
                let mut p = reach.pos_of(from as usize % reach.keys());
                let end = reach.pos_of(e);
                for &cmd in &self.phrases[phrase as usize].commands {
                    p = unit.step(p, cmd);
                    if cmd.is_down() {
                        out.clear();
                    }
                    if p != end {
                        out.extend(reach.key(p));
                    }
                }
            }
            Back::Chained { mut index } => loop {
                let c = self.chained[index as usize];
                out.extend_from_slice(&self.cells[c.cells.0 as usize..c.cells.1 as usize]);
                match c.prev {
                    NO_LINK => break,
                    prev => index = prev,
                }
            },
            _ => {}
        }
    }

    /// Floods a row (`row`, pivot row `y`) on `layer` (of `layers`) from its entries, then
    /// chains phrases that stay in the row (`in_row`, indices into the phrases): a phrase
    /// walked from a flooded position to another of the row, never onto a position the way
    /// there used, makes its end a new entry with the phrase's points, and the row is flooded
    /// again; a phrase new to the game lifts its end to the next layer instead. At most
    /// [`ROW_ROUNDS`] floods, fewer once no phrase improves a position.
    fn chain_row(
        &mut self,
        q: &Query<'_>,
        (row, y): (&[(Pos, usize)], i32),
        (layer, layers): (usize, usize),
        in_row: &[usize],
    ) {
        let base = layer * q.reach.keys();
        let mut entries: Vec<Entry> = row
            .iter()
            .map(|&(_, k)| base + k)
            .filter(|&k| self.best[k] != NONE && !matches!(self.back[k], Back::Row { .. }))
            .map(|k| Entry { key: k, value: self.best[k], spent: self.spent(k), how: self.back[k], new: self.new[k] })
            .collect();
        // Each position's entry and score when its phrases were last tried: tried again only if
        // a new entry claims it.
        let mut tried = vec![(u32::MAX, NONE); row.len()];
        for round in 0..ROW_ROUNDS {
            if round > 0 {
                for &(_, k) in row {
                    self.best[base + k] = NONE;
                    self.back[base + k] = Back::None;
                }
                for e in &entries {
                    (self.best[e.key], self.back[e.key], self.new[e.key]) = (e.value, e.how, e.new);
                }
            }
            self.close_row(q.reach, q.unit, row, base, q.blocked);
            if round + 1 == ROW_ROUNDS {
                break;
            }
            let found = self.row_phrases_from(q, (row, y), (layer, layers), in_row, &mut tried);
            if found.is_empty() {
                break;
            }
            for f in found {
                match entries.iter_mut().find(|e| e.key == f.key) {
                    Some(e) if (e.value, Reverse(e.spent)) >= (f.value, Reverse(f.spent)) => {}
                    Some(e) => *e = f,
                    None => entries.push(f),
                }
            }
        }
    }

    /// Every phrase of `in_row` from every flooded position of the row (see
    /// [`Speller::chain_row`]): the new entries of this layer it makes (a new phrase's ends on
    /// the next layer are relaxed at once).
    fn row_phrases_from(
        &mut self,
        q: &Query<'_>,
        (row, y): (&[(Pos, usize)], i32),
        (layer, layers): (usize, usize),
        in_row: &[usize],
        tried: &mut [(u32, i64)],
    ) -> Vec<Entry> {
        let n = q.reach.keys();
        let base = layer * n;
        if self.mark.len() < n {
            self.mark.resize(n, 0);
        }
        if self.slot.len() < 2 * n {
            self.slot.resize(2 * n, u32::MAX);
        }
        // The best step found into each key (of this layer or the next), `slot`ted by key.
        let mut steps: Vec<Step> = Vec::new();
        let (mut used, mut seen) = (Vec::new(), Vec::new());
        for (j, &(p, key)) in row.iter().enumerate() {
            let kq = base + key;
            let here = self.best[kq];
            if here == NONE || tried[j] == (self.entry[kq], here) || self.depth[kq] as usize > ROW_REACH {
                continue;
            }
            tried[j] = (self.entry[kq], here);
            self.row_way(q, kq, &mut used);
            self.marked += 1;
            for &k in &used {
                self.mark[k] = self.marked;
            }
            for &i in in_row {
                let phrase = &self.phrases[i];
                // Hot: every phrase from every position of a row, each round. Walked command by
                // command, never onto a position the way used or the phrase passed.
                let (mut to, mut fits) = (p, true);
                seen.clear();
                seen.push(key);
                for &cmd in &phrase.commands {
                    let next = q.unit.step(to, cmd);
                    match q.reach.key(next) {
                        Some(k) if self.mark[k] != self.marked && !seen.contains(&k) && q.reach.is_valid(next) => {
                            seen.push(k);
                            to = next;
                        }
                        _ => {
                            fits = false;
                            break;
                        }
                    }
                }
                let Some(tk) = q.reach.reachable_key(to).filter(|_| fits && self.band.holds(to.x as i32, y)) else {
                    continue;
                };
                let of = phrase.base;
                let fresh = !q.used[of] && !self.new[kq].contains(&(of as u16));
                let lifts = fresh && layer + 1 < layers;
                let (value, k) = match lifts {
                    true => (here + PHRASE_BONUS + phrase.points, base + n + tk),
                    false => (here + phrase.points, base + tk),
                };
                let spent = used.len() + seen.len() - 1;
                if value <= self.best[k] {
                    continue;
                }
                let mut new = self.new[kq];
                if lifts {
                    new[layer] = of as u16;
                }
                let step = Step { key: k, value, spent, new, from: kq, phrase: i };
                match self.slot[k - base] as usize {
                    s if s == u32::MAX as usize => {
                        self.slot[k - base] = steps.len() as u32;
                        steps.push(step);
                    }
                    s if (steps[s].value, Reverse(steps[s].spent)) < (value, Reverse(spent)) => steps[s] = step,
                    _ => {}
                }
            }
        }
        // The ways of the best steps, kept whole; those to the next layer relaxed there.
        for step in &steps {
            self.slot[step.key - base] = u32::MAX;
        }
        let mut found = Vec::new();
        for step in steps {
            let how = self.chain(q, step.from, step.phrase, step.spent);
            match step.key >= base + n {
                true => self.relax(step.key, step.value, how, step.new),
                false => found.push(Entry { key: step.key, value: step.value, spent: step.spent, how, new: step.new }),
            }
        }
        found
    }

    /// The way to key `kq` (of the current row) and then phrase `i` from there, kept whole (see
    /// [`Chained`]), `spent` positions of the row used but its end.
    fn chain(&mut self, q: &Query<'_>, kq: usize, i: usize, spent: usize) -> Back {
        let n = q.reach.keys();
        let p = q.reach.pos_of(kq % n);
        let e = self.entry[kq] as usize;
        let start = self.cells.len();
        let (how, prev) = match self.back[e] {
            Back::Chained { index } => (self.chained[index as usize].how, index),
            how => {
                // The first link: what the way into the row used.
                let mut suffix = Vec::new();
                self.suffix(q.reach, q.unit, e % n, e - e % n, q.blocked, &mut suffix);
                self.cells.extend(suffix);
                (how, NO_LINK)
            }
        };
        // The walk from the entry, the phrase's start and its cells but its end.
        let mut k = kq;
        while k != e {
            k = self.parent[k] as usize;
            self.cells.push(k % n);
        }
        self.cells.push(kq % n);
        let commands = &self.phrases[i].commands;
        let mut at = p;
        for &cmd in &commands[..commands.len() - 1] {
            at = q.unit.step(at, cmd);
            self.cells.extend(q.reach.key(at));
        }
        let walk_to = (e != kq).then_some(p);
        let cells = (start as u32, self.cells.len() as u32);
        self.chained.push(Chained { how, prev, walk_to, phrase: i as u16, cells, spent: spent as u32 });
        Back::Chained { index: (self.chained.len() - 1) as u32 }
    }

    /// How many positions of its row the way into entry `k` used (counted for chained ways only).
    fn spent(&self, k: usize) -> usize {
        match self.back[k] {
            Back::Chained { index } => self.chained[index as usize].spent as usize,
            _ => 0,
        }
    }

    /// The keys of its row (within a layer) that the way to `kq` used, `kq` excepted: the walk
    /// from its entry and what the way into the entry used.
    fn row_way(&self, q: &Query<'_>, kq: usize, out: &mut Vec<usize>) {
        let n = q.reach.keys();
        // The entry first: `suffix` starts the list afresh.
        let mut e = kq;
        for _ in 0..n {
            if self.parent[e] as usize == e {
                break;
            }
            e = self.parent[e] as usize;
        }
        self.suffix(q.reach, q.unit, e % n, e - e % n, q.blocked, out);
        let mut k = kq;
        while k != e {
            k = self.parent[k] as usize;
            out.push(k % n);
        }
    }

    /// Floods a row (positions `row`, on the layer at `base`) from its entries, best first:
    /// each position gets the score of the best entry that can walk to it.
    fn close_row(&mut self, reach: &Reach, unit: &Unit, row: &[(Pos, usize)], base: usize, blocked: &[Pos]) {
        let mut entries: Vec<usize> = row
            .iter()
            .map(|&(_, k)| base + k)
            .filter(|&k| self.best[k] != NONE && !matches!(self.back[k], Back::Row { .. }))
            .collect();
        entries.sort_by_key(|&k| (Reverse(self.best[k]), self.spent(k)));
        self.round += 1;
        let round = self.round;
        let band = self.band;
        let mut forbid = Vec::new();
        for e in entries {
            if self.stamp[e] == round {
                continue; // a better entry walks here
            }
            self.stamp[e] = round;
            self.entry[e] = e as u32;
            self.parent[e] = e as u32;
            self.depth[e] = 0;
            self.suffix(reach, unit, e - base, base, blocked, &mut forbid);
            // Hot: every row of every search. A node is a position and its key on the layer.
            let step = |(at, _), cmd| {
                let q = unit.step(at, cmd);
                let k = reach.reachable_key(q)?;
                band.holds(q.x as i32, q.y as i32).then_some((q, base + k))
            };
            let visit = |(_, k): (Pos, usize), _, (_, kq): (Pos, usize)| {
                if self.stamp[kq] == round || forbid.contains(&(kq - base)) {
                    return false;
                }
                self.stamp[kq] = round;
                self.best[kq] = self.best[e];
                self.new[kq] = self.new[e];
                self.back[kq] = Back::Row { entry: e as u32 };
                self.entry[kq] = e as u32;
                self.parent[kq] = k as u32;
                self.depth[kq] = self.depth[k].saturating_add(1);
                true
            };
            bfs(&mut self.queue, (reach.pos_of(e - base), e), &ROW_MOVES, step, visit, |_| false);
        }
    }
}

/// The set bits of `m`, lowest first.
fn ones(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            b
        })
    })
}

/// Chains of occurrences that overlap: a phrase whose end is also its beginning ("ia! ia!"
/// ends with "ia!") followed by its rest, again and again, spells it once per rest added
/// ("ia! ia! ia!" holds two). For a unit that cannot turn these are the best phrases there are.
fn chains(phrases: &[Phrase]) -> Vec<Phrase> {
    let mut out = Vec::new();
    for (i, p) in phrases.iter().enumerate() {
        let n = p.text.len();
        let Some(overlap) = (1..n).rev().find(|&o| p.text[..o] == p.text[n - o..]) else { continue };
        let (mut text, mut commands) = (p.text.clone(), p.commands.clone());
        for m in 1..=CHAIN {
            text.extend_from_slice(&p.text[overlap..]);
            commands.extend_from_slice(&p.commands[overlap..]);
            let downs = commands.iter().filter(|c| c.is_down()).count();
            let points = p.points * (m as i64 + 1);
            out.push(Phrase {
                text: text.clone(),
                commands: commands.clone(),
                downs,
                repeat: true,
                base: i,
                points,
                chain: true,
            });
        }
    }
    out
}

fn plain_text(reach: &Reach, unit: &Unit, target: Pos) -> Vec<u8> {
    let mut text: Vec<u8> = reach.path_to(unit, target).unwrap_or_default().iter().map(|c| c.letter() as u8).collect();
    text.extend(reach.locking(target).next().map(|c| c.letter() as u8));
    text
}

/// Carries out a plan move by move.
#[derive(Clone, Debug)]
struct Walker {
    text: Vec<u8>,
    at: Pos,
    /// Positions of the current row visited so far.
    row: Vec<Pos>,
}

impl Walker {
    /// One move, if it is legal and new.
    fn go(&mut self, reach: &Reach, unit: &Unit, cmd: Command) -> bool {
        let next = unit.step(self.at, cmd);
        if !reach.is_valid(next) || (!cmd.is_down() && self.row.contains(&next)) {
            return false;
        }
        if cmd.is_down() {
            self.row.clear();
        }
        self.row.push(next);
        self.at = next;
        true
    }

    /// Follows `segments`; `true` once the unit is locked at `target`. On failure the walker
    /// stands after the last segment that went through.
    fn follow(
        &mut self,
        reach: &Reach,
        unit: &Unit,
        target: Pos,
        segments: &[Segment],
        phrases: &[Phrase],
        bridges: &[Bridge],
    ) -> bool {
        for (s, seg) in segments.iter().enumerate() {
            let saved = (self.text.len(), self.at, self.row.clone());
            let ok = match *seg {
                Segment::Down(cmd) => {
                    self.text.push(cmd.letter() as u8);
                    self.go(reach, unit, cmd)
                }
                Segment::Phrase(i) => {
                    let p = &phrases[i as usize];
                    self.text.extend_from_slice(&p.text);
                    p.commands.iter().all(|&c| self.go(reach, unit, c))
                }
                Segment::LockingPhrase(i) => {
                    let p = &phrases[i as usize];
                    let (last, moves) = p.commands.split_last().expect("phrases are not empty");
                    self.text.extend_from_slice(&p.text);
                    moves.iter().all(|&c| self.go(reach, unit, c))
                        && self.at == target
                        && !reach.is_valid(unit.step(target, *last))
                }
                Segment::Bridge(b) => {
                    let bridge = &bridges[b as usize];
                    let (last, moves) = bridge.head.split_last().expect("heads are not empty");
                    self.text.extend_from_slice(&bridge.head_text);
                    moves.iter().all(|&c| self.go(reach, unit, c))
                        && self.at == target
                        && !reach.is_valid(unit.step(target, *last))
                }
                Segment::Row(to) => {
                    // Keep clear of where the next phrase goes in this row.
                    let mut avoid = self.row.clone();
                    let next: &[Command] = match segments.get(s + 1) {
                        Some(Segment::Phrase(i) | Segment::LockingPhrase(i)) => &phrases[*i as usize].commands,
                        Some(Segment::Bridge(b)) => &bridges[*b as usize].head,
                        _ => &[],
                    };
                    {
                        let mut p = to;
                        for &cmd in next.iter().take_while(|c| !c.is_down()) {
                            p = unit.step(p, cmd);
                            avoid.push(p);
                        }
                    }
                    match row_walk(reach, unit, self.at, to, &avoid) {
                        Some(cmds) => cmds.iter().all(|&c| {
                            self.text.push(c.letter() as u8);
                            self.go(reach, unit, c)
                        }),
                        None => false,
                    }
                }
                Segment::Lock => match reach.locking(target).next() {
                    Some(c) if self.at == target => {
                        self.text.push(c.letter() as u8);
                        true
                    }
                    _ => false,
                },
            };
            if !ok {
                self.text.truncate(saved.0);
                (self.at, self.row) = (saved.1, saved.2);
                return false;
            }
        }
        true
    }
}

/// A shortest walk within a row from `from` to `to` through reachable positions, never through
/// `avoid`.
fn row_walk(reach: &Reach, unit: &Unit, from: Pos, to: Pos, avoid: &[Pos]) -> Option<Vec<Command>> {
    shortest_walk(unit, from, to, &ROW_MOVES, |q| reach.is_reachable(q) && !avoid.contains(&q))
}
