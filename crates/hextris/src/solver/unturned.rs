//! The best text for a unit that cannot turn (a single cell about its pivot): exact.
//!
//! Such a unit only moves west, east and down (a turn would bring it back to where it stands),
//! so its walk is simple: within a row it runs one way from where it entered (coming back would
//! repeat a position), then moves down. The points of a text depend on its letters through the
//! phrases that end at each letter, which the phrases' automaton (Aho–Corasick, see `automaton`) tracks.
//! The walks therefore form a graph without cycles over
//!
//! ```text
//!   (pivot column, pivot row, run: none | east | west, automaton state, phrases first used)
//! ```
//!
//! and the longest path from the spawn to the lock at the target, over every letter of every
//! command, is the best text: rows from the bottom up, east runs from the east, west runs from
//! the west. The first use of a phrase in the game is worth 300 more, so the phrases this text
//! uses first are part of the state (only the phrases such a unit can spell, those without a
//! turn, a few at most).

use crate::command::Command;
use crate::engine::{Board, Pos, Rules, Unit};
use crate::phrase::Phrases;
use crate::solver::PHRASE_BONUS;
use crate::solver::automaton::Automaton;

/// Most phrases without a turn this exact search follows (states grow as `2^n`).
const MAX_PHRASES: usize = 4;

/// Boards of at most this many cells get the exact search (its work grows with the cells: on
/// a 50x50 board a unit would take milliseconds, and the speller's general search does well
/// enough there).
const MAX_CELLS: usize = 1024;

/// The moves of a unit that cannot turn.
const MOVES: [Command; 4] = [Command::W, Command::E, Command::SW, Command::SE];

/// Where a walk stands within its row: just entered it, or running east or west.
const RUNS: usize = 3;
const ENTERED: usize = 0;
const EAST: usize = 1;
const WEST: usize = 2;

/// Whether `cmd` takes a walk running `run` back along its row (a position repeated).
fn turns_back(cmd: Command, run: usize) -> bool {
    (cmd == Command::W && run == EAST) || (cmd == Command::E && run == WEST)
}

/// Each phrase's lower-cased text, and whether it has a turn.
pub(crate) type Listed<'a> = [(&'a [u8], bool)];

/// What the exact search needs of the phrases, made once: the automaton of those a unit that
/// cannot turn can spell (the phrases without a turn), their texts, and their indices among all.
#[derive(Clone, Debug)]
pub(crate) struct Turnless {
    auto: Automaton,
    texts: Vec<Vec<u8>>,
    spellable: Vec<usize>,
    /// What each letter worth trying does to the automaton: the next state, the points of the
    /// phrases that end there (first uses not counted), those phrases (a mask) and the letter.
    /// Per move of [`MOVES`] from `step_at[move].0`, `step_at[move].1` letters a state. The
    /// letters worth trying are those in some phrase and one of the others (a letter in no
    /// phrase leaves the automaton at its start, whichever it is).
    steps: Vec<(u16, i32, u32, u8)>,
    step_at: [(usize, usize); 4],
}

impl Turnless {
    /// For `phrases` (each one's lower-cased text and whether it has a turn); `None` if too
    /// many have no turn.
    pub(crate) fn new(phrases: &Listed<'_>) -> Option<Turnless> {
        let spellable: Vec<usize> = (0..phrases.len()).filter(|&i| !phrases[i].1).collect();
        if spellable.len() > MAX_PHRASES {
            return None;
        }
        let texts: Vec<&[u8]> = spellable.iter().map(|&i| phrases[i].0).collect();
        let auto = Automaton::new(&texts);
        let letters = MOVES.map(|cmd| {
            let (mut some, mut none) = (Vec::new(), None);
            for b in cmd.chars().bytes() {
                if texts.iter().any(|t| t.contains(&b)) {
                    some.push(b);
                } else {
                    none = none.or(Some(b));
                }
            }
            some.extend(none);
            some
        });
        let (mut steps, mut step_at) = (Vec::new(), [(0, 0); 4]);
        for (m, letters) in letters.iter().enumerate() {
            step_at[m] = (steps.len(), letters.len());
            for s in 0..auto.states() {
                for &b in letters {
                    let to = auto.step(s, b);
                    let points = auto.ends_at(to).map(|p| 2 * texts[p].len() as i32).sum();
                    steps.push((to as u16, points, auto.ends[to], b));
                }
            }
        }
        Some(Turnless { auto, texts: texts.into_iter().map(<[u8]>::to_vec).collect(), spellable, steps, step_at })
    }

    /// [`Turnless::new`] for the phrases of a game.
    pub(crate) fn of(phrases: &Phrases) -> Option<Turnless> {
        let listed: Vec<(&[u8], bool)> =
            (0..phrases.len()).map(|i| (phrases.text(i), phrases.commands(i).iter().any(|c| c.is_turn()))).collect();
        Turnless::new(&listed)
    }

    /// Whether the exact search takes `unit` (one that cannot turn, on a board of at most
    /// [`MAX_CELLS`] cells).
    pub(crate) fn takes(rules: &Rules, unit: &Unit) -> bool {
        unit.period == 1 && rules.width * rules.height <= MAX_CELLS
    }

    /// The best text (most phrase points, with a lock at `target` last) for `unit` from its
    /// spawn on `board`, after the game's text so far ends with `tail` (an occurrence may start
    /// there and end in this unit's text: the previous unit's locking command may be part of a
    /// phrase the next one finishes); `used[i]` says whether phrase `i` occurs earlier in the
    /// game. `bonus`, if not empty, is what the next unit can earn after this text, by the
    /// automaton's state where it ends (see [`Turnless::start_values`]). `None` when the unit
    /// can turn, the board is too big, or no walk reaches the target.
    pub(crate) fn spell(
        &self,
        (rules, board, unit, target): (&Rules, &Board, &Unit, Pos),
        (tail, bonus): (&[u8], &[i64]),
        used: &[bool],
    ) -> Option<Vec<u8>> {
        if !Turnless::takes(rules, unit) {
            return None;
        }
        let fresh: Vec<bool> = self.spellable.iter().map(|&i| !used[i]).collect();
        let auto = &self.auto;
        let start = tail.iter().fold(0, |s, &b| auto.step(s, b.to_ascii_lowercase()));
        let mut search = Search::new(self, (rules, board, unit, target), bonus, &fresh);
        search.solve_all();
        search.spell_out(start)
    }

    /// Every place `unit` can lock from its spawn on `board`, each with the best text (most
    /// phrase points) for every way the text can end: the automaton's state after it and the
    /// phrases it uses first. The game's text so far leaves the automaton in state `start` (a
    /// game starts in state 0), and has used the phrases of the mask `used` (bit `i`: the `i`th
    /// phrase without a turn, in the order given to [`Turnless::new`]). `None` when the
    /// unit can turn, the board is too big, or the spawn is taken.
    pub(crate) fn walks(
        &self,
        (rules, board, unit): (&Rules, &Board, &Unit),
        start: usize,
        used: u32,
    ) -> Option<Walks> {
        if !Turnless::takes(rules, unit) || !rules.fits(board, unit, unit.spawn) {
            return None;
        }
        // The phrases not used yet get a bit each in the masks of phrases first used.
        let k = self.texts.len();
        let fresh: Vec<usize> = (0..k).filter(|&p| used >> p & 1 == 0).collect();
        let firsts = 1usize << fresh.len();
        let pack = |mask: usize| fresh.iter().enumerate().fold(0, |c, (b, &p)| c | (mask >> p & 1) << b);
        let packed: Vec<usize> = (0..1 << k).map(pack).collect();
        let unpack = |c: usize| fresh.iter().enumerate().fold(0, |m, (b, &p)| m | ((c >> b & 1) << p) as u32);
        let (width, height, states) = (rules.width, rules.height, self.auto.states());
        let (sx, y0) = (unit.spawn.x as usize, unit.spawn.y as usize);
        // States: (row from the spawn's, column, run, automaton state, phrases first used).
        let cell = |x: usize, y: usize| (y - y0) * width + x;
        let block = states * firsts;
        let n = (height - y0) * width * RUNS * block;
        let (mut value, mut from, mut byte) = (vec![i32::MIN; n], vec![u32::MAX; n], vec![0u8; n]);
        // Per place, automaton state and phrases first used: the best lock there.
        let mut locks = vec![(i32::MIN, 0u32, 0u8); (height - y0) * width * block];
        value[(cell(sx, y0) * RUNS + ENTERED) * block + start * firsts] = 0;
        let mut live: Vec<(usize, i32)> = Vec::with_capacity(block);
        for y in y0..height {
            let order = [(ENTERED, false), (EAST, false), (WEST, true)];
            for (run, west) in order {
                for x in (0..width).map(|x| if west { width - 1 - x } else { x }) {
                    let here = Pos::new(x as i32, y as i32, 0);
                    if !rules.fits(board, unit, here) {
                        continue;
                    }
                    // The states of this place and run that some walk reaches, and their points.
                    let base = (cell(x, y) * RUNS + run) * block;
                    live.clear();
                    live.extend((base..base + block).filter(|&i| value[i] != i32::MIN).map(|i| (i, value[i])));
                    if live.is_empty() {
                        continue;
                    }
                    for (m, &cmd) in MOVES.iter().enumerate() {
                        // Coming back along the row would repeat a position.
                        if turns_back(cmd, run) {
                            continue;
                        }
                        let to = here.step(cmd, 1);
                        let lock = !rules.fits(board, unit, to);
                        let next_run = [WEST, EAST, ENTERED, ENTERED][m];
                        let to_base = if lock {
                            cell(x, y) * block
                        } else {
                            (cell(to.x as usize, to.y as usize) * RUNS + next_run) * block
                        };
                        let (first_step, letters) = self.step_at[m];
                        // Hot loop: every state reached, every letter worth trying.
                        for &(i, v) in &live {
                            let (s, f) = ((i - base) / firsts, (i - base) % firsts);
                            let steps = &self.steps[first_step + s * letters..first_step + (s + 1) * letters];
                            for &(ns, points, ends, b) in steps {
                                let new = packed[ends as usize] & !f;
                                let points = v + points + PHRASE_BONUS as i32 * new.count_ones() as i32;
                                let j = to_base + usize::from(ns) * firsts + (f | new);
                                if lock {
                                    if points > locks[j].0 {
                                        locks[j] = (points, i as u32, b);
                                    }
                                } else if points > value[j] {
                                    (value[j], from[j], byte[j]) = (points, i as u32, b);
                                }
                            }
                        }
                    }
                }
            }
        }
        let ends = locks
            .iter()
            .enumerate()
            .filter(|(_, l)| l.0 != i32::MIN)
            .map(|(j, &(points, from, byte))| {
                let (c, s, f) = (j / block, j % block / firsts, j % firsts);
                let pos = Pos::new((c % width) as i32, (y0 + c / width) as i32, 0);
                End { pos, state: s, first: unpack(f), points: i64::from(points), from: from as usize, byte }
            })
            .collect();
        Some(Walks { ends, from, byte })
    }

    /// What the best text of [`Turnless::spell`] earns, for each state of the automaton that
    /// the text before it may leave (phrases used first not counted): the `bonus` of the unit
    /// before, so that a game's units can be spelled from the last to the first and each text
    /// end where the next one does best. `None` as for [`Turnless::spell`].
    pub(crate) fn start_values(
        &self,
        (rules, board, unit, target): (&Rules, &Board, &Unit, Pos),
        bonus: &[i64],
    ) -> Option<Vec<i64>> {
        if !Turnless::takes(rules, unit) {
            return None;
        }
        // No first uses: the bonus is added to the points the game has made before.
        let fresh = vec![false; self.texts.len()];
        let mut search = Search::new(self, (rules, board, unit, target), bonus, &fresh);
        search.solve_all();
        let values = (0..self.auto.states()).map(|s| search.at_spawn(s).max(0)).collect();
        Some(values)
    }
}

/// Where a walk of [`Turnless::walks`] locks, and its best text's points.
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    /// Where the unit locks.
    pub(crate) pos: Pos,
    /// The automaton's state after the text.
    pub(crate) state: usize,
    /// The phrases the text uses first (a mask as in [`Turnless::walks`]).
    pub(crate) first: u32,
    /// The text's phrase points, first uses included.
    pub(crate) points: i64,
    /// The walk's state before the locking letter, and that letter.
    from: usize,
    byte: u8,
}

/// What [`Turnless::walks`] finds: every way to lock, and how to spell each.
pub(crate) struct Walks {
    /// One per place, end state and phrases first used, with the most points; by place (rows
    /// down, then columns).
    pub(crate) ends: Vec<End>,
    /// Per state of the walk: the state before it (`u32::MAX` at the spawn) and the letter
    /// from there.
    from: Vec<u32>,
    byte: Vec<u8>,
}

impl Walks {
    /// The text of `end`'s walk.
    pub(crate) fn text(&self, end: &End) -> Vec<u8> {
        let mut text = vec![end.byte];
        let mut i = end.from;
        while self.from[i] != u32::MAX {
            text.push(self.byte[i]);
            i = self.from[i] as usize;
        }
        text.reverse();
        text
    }
}

/// The longest-path search of [`Turnless::spell`].
struct Search<'a> {
    turnless: &'a Turnless,
    rules: &'a Rules,
    board: &'a Board,
    unit: &'a Unit,
    target: Pos,
    /// What the next unit earns after a text that leaves the automaton in each state (empty:
    /// nothing known).
    bonus: &'a [i64],
    /// Per mask of phrases (bit `p`: the `p`th text) the mask of those not used yet in the
    /// game, packed: the `i`th phrase not used yet is bit `i` (used phrases earn no first use).
    packed: Vec<u32>,
    /// Masks of phrases first used by the text, packed as in `packed`: `1 << fresh`.
    firsts: usize,
    /// Columns `0..cols`, rows `y0..=target.y`.
    cols: usize,
    y0: i32,
    /// Per state: the most points from there to the lock (`i64::MIN`: the lock cannot be
    /// reached), and the move and letter that get them.
    value: Vec<i64>,
    how: Vec<(u8, u8)>,
}

/// What a move to the lock is marked as in [`Search::how`].
const LOCK: u8 = 4;

/// Where a move of [`Search`] leads: nowhere useful, the lock, or the first state of a place
/// and run.
#[derive(Clone, Copy)]
enum Leads {
    Nowhere,
    Lock,
    To(usize),
}

impl<'a> Search<'a> {
    fn new(
        turnless: &'a Turnless,
        (rules, board, unit, target): (&'a Rules, &'a Board, &'a Unit, Pos),
        bonus: &'a [i64],
        fresh: &[bool],
    ) -> Search<'a> {
        // A unit that cannot turn is one cell at its pivot: the pivot stays on the board.
        let (cols, y0) = (rules.width, i32::from(unit.spawn.y));
        let rows = (i32::from(target.y) - y0 + 1).max(0) as usize;
        let k = turnless.texts.len();
        let fresh: Vec<usize> = (0..k).filter(|&p| fresh[p]).collect();
        let pack = |mask: usize| fresh.iter().enumerate().fold(0, |c, (b, &p)| c | ((mask >> p & 1) << b) as u32);
        let packed = (0..1 << k).map(pack).collect();
        let firsts = 1usize << fresh.len();
        let n = rows * cols * RUNS * turnless.auto.states() * firsts;
        Search {
            turnless,
            rules,
            board,
            unit,
            target,
            bonus,
            packed,
            firsts,
            cols,
            y0,
            value: vec![i64::MIN; n],
            how: vec![(0, 0); n],
        }
    }

    /// The index of the first state of a place and run (automaton state 0, no phrase first used).
    fn base(&self, x: i32, y: i32, run: usize) -> usize {
        let cell = (y - self.y0) as usize * self.cols + x as usize;
        (cell * RUNS + run) * self.turnless.auto.states() * self.firsts
    }

    /// Whether the unit fits with its pivot at column `x`, row `y` (within the search's box).
    fn fits(&self, x: i32, y: i32) -> bool {
        let inside = x >= 0 && x < self.cols as i32 && y >= self.y0 && y <= i32::from(self.target.y);
        inside && self.rules.fits(self.board, self.unit, Pos::new(x, y, 0))
    }

    /// Where move `m` of [`MOVES`] leads from column `x`, row `y`, on a run `run`.
    fn leads(&self, x: i32, y: i32, run: usize, m: usize) -> Leads {
        let cmd = MOVES[m];
        // Coming back along the row would repeat a position.
        if turns_back(cmd, run) {
            return Leads::Nowhere;
        }
        let here = Pos::new(x, y, 0);
        let to = here.step(cmd, 1);
        let (tx, ty) = (i32::from(to.x), i32::from(to.y));
        if !self.rules.fits(self.board, self.unit, to) {
            return if here == self.target { Leads::Lock } else { Leads::Nowhere };
        }
        if !self.fits(tx, ty) {
            return Leads::Nowhere; // below the target's row: no way back up to it
        }
        Leads::To(self.base(tx, ty, [WEST, EAST, ENTERED, ENTERED][m]))
    }

    /// Solves every state.
    fn solve_all(&mut self) {
        let (states, firsts) = (self.turnless.auto.states(), self.firsts);
        let mut best = vec![(i64::MIN, (0u8, 0u8)); states * firsts];
        for y in (self.y0..=i32::from(self.target.y)).rev() {
            // Runs east depend on the column east of them, runs west on the one west; an entry
            // on both and on the row below.
            let east = (0..self.cols as i32).rev();
            let order = east.map(|x| (EAST, x)).chain((0..self.cols as i32).map(|x| (WEST, x)));
            let order: Vec<(usize, i32)> = order.chain((0..self.cols as i32).map(|x| (ENTERED, x))).collect();
            for (run, x) in order {
                if !self.fits(x, y) {
                    continue;
                }
                best.fill((i64::MIN, (0, 0)));
                for m in 0..MOVES.len() {
                    let leads = self.leads(x, y, run, m);
                    if !matches!(leads, Leads::Nowhere) {
                        self.best_by(leads, m, &mut best);
                    }
                }
                let base = self.base(x, y, run);
                for (i, &(v, how)) in best.iter().enumerate() {
                    (self.value[base + i], self.how[base + i]) = (v, how);
                }
            }
        }
    }

    /// Improves `best` (per automaton state and phrases first used, as in [`Search::value`]
    /// from a place's first state) with move `m`, which `leads` somewhere.
    fn best_by(&self, leads: Leads, m: usize, best: &mut [(i64, (u8, u8))]) {
        let t = self.turnless;
        let (first_step, letters) = t.step_at[m];
        let firsts = self.firsts;
        let how = if matches!(leads, Leads::Lock) { LOCK } else { m as u8 };
        // Hot loop: every automaton state, every letter worth trying, every mask of phrases
        // first used.
        for s in 0..t.auto.states() {
            let row = &mut best[s * firsts..(s + 1) * firsts];
            for &(ns, points, ends, byte) in &t.steps[first_step + s * letters..first_step + (s + 1) * letters] {
                let ends = self.packed[ends as usize] as usize;
                let ns = usize::from(ns);
                let rest: &[i64] = match leads {
                    // After the lock, only the automaton's state matters (to the next unit).
                    Leads::Lock => std::slice::from_ref(self.bonus.get(ns).unwrap_or(&0)),
                    Leads::To(to) => &self.value[to + ns * firsts..to + (ns + 1) * firsts],
                    Leads::Nowhere => return,
                };
                for (f, b) in row.iter_mut().enumerate() {
                    let new = ends & !f;
                    let r = rest[if rest.len() == 1 { 0 } else { f | new }];
                    if r == i64::MIN {
                        continue;
                    }
                    let total = r + i64::from(points) + PHRASE_BONUS * i64::from(new.count_ones());
                    if total > b.0 {
                        *b = (total, (how, byte));
                    }
                }
            }
        }
    }

    /// The most points from the spawn, the automaton in state `s` (`i64::MIN`: the target
    /// cannot be reached).
    fn at_spawn(&self, s: usize) -> i64 {
        let spawn = self.unit.spawn;
        self.value[self.base(i32::from(spawn.x), i32::from(spawn.y), ENTERED) + s * self.firsts]
    }

    /// The text of the best walk from the spawn, the automaton in state `s` (`None` if the
    /// target cannot be reached).
    fn spell_out(&self, mut s: usize) -> Option<Vec<u8>> {
        if self.at_spawn(s) == i64::MIN {
            return None;
        }
        let (mut x, mut y) = (i32::from(self.unit.spawn.x), i32::from(self.unit.spawn.y));
        let (mut run, mut first) = (ENTERED, 0);
        let auto = &self.turnless.auto;
        let mut text = Vec::new();
        loop {
            let (m, byte) = self.how[self.base(x, y, run) + s * self.firsts + first];
            text.push(byte);
            if m == LOCK {
                return Some(text);
            }
            let cmd = MOVES[usize::from(m)];
            let to = Pos::new(x, y, 0).step(cmd, 1);
            s = auto.step(s, byte);
            first |= self.packed[auto.ends[s] as usize] as usize;
            run = [WEST, EAST, ENTERED, ENTERED][usize::from(m)];
            (x, y) = (i32::from(to.x), i32::from(to.y));
        }
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::*;
    use crate::engine::Reach;
    use crate::phrase::Phrases;
    use crate::problem::{Cell, Problem, UnitDef};

    /// The most any text earns that takes the unit from `at` (its row run so far: `run`) to a
    /// lock at `target`, by brute force over every walk and every letter of every command, each
    /// whole `text` (what was there already, then the walk's) valued by `value`.
    fn brute(
        (rules, board, unit): (&Rules, &Board, &Unit),
        (at, run, target): (Pos, usize, Pos),
        text: &mut String,
        phrases: &Phrases,
        value: &dyn Fn(&str) -> u64,
    ) -> Option<u64> {
        let mut best = None;
        for cmd in MOVES {
            if turns_back(cmd, run) {
                continue;
            }
            let to = at.step(cmd, 1);
            let lock = !rules.fits(board, unit, to);
            if (lock && at != target) || (!lock && to.y > target.y) {
                continue;
            }
            let next_run = [WEST, EAST, ENTERED, ENTERED][MOVES.iter().position(|&m| m == cmd).unwrap()];
            // Letters that occur in no phrase are all alike: one stands for them.
            let letters = cmd.chars().chars().filter(|&c| c == cmd.letter() || in_some(phrases, c));
            for c in letters {
                text.push(c);
                let got = if lock {
                    Some(value(text))
                } else {
                    brute((rules, board, unit), (to, next_run, target), text, phrases, value)
                };
                text.pop();
                best = best.max(got);
            }
        }
        best
    }

    /// Whether `c` occurs in some phrase.
    fn in_some(phrases: &Phrases, c: char) -> bool {
        (0..phrases.len()).any(|i| phrases.text(i).contains(&(c as u8)))
    }

    /// Small boards with one single-cell unit, each with the board, rules and problem.
    fn boards(seed: u64, n: usize) -> Vec<(Problem, Rules, Board)> {
        let mut rng = Rng64::seed(seed);
        let mut out = Vec::new();
        for _ in 0..n {
            let (width, height) = (3, 4);
            let filled = (0..width * height)
                .filter(|i| i / width >= 2 && rng.below(3) == 0)
                .map(|i| Cell::new((i % width) as i32, (i / width) as i32));
            let unit = UnitDef { members: vec![Cell::new(0, 0)], pivot: Cell::new(0, 0) };
            let p = Problem {
                id: 1,
                units: vec![unit],
                width,
                height,
                filled: filled.collect(),
                source_length: 1,
                source_seeds: vec![0],
            };
            let rules = Rules::new(&p).unwrap();
            let board = Board::of(&p);
            if rules.fits(&board, &rules.units[0], rules.units[0].spawn) {
                out.push((p, rules, board));
            }
        }
        out
    }

    fn phrases() -> Phrases {
        Phrases::new(["ei!".to_string(), "ia! ia!".to_string(), "yuggoth".to_string()]).unwrap()
    }

    fn listed(phrases: &Phrases) -> Vec<(&[u8], bool)> {
        (0..phrases.len()).map(|i| (phrases.text(i), phrases.commands(i).iter().any(|c| c.is_turn()))).collect()
    }

    #[test]
    fn the_best_text_of_a_unit_that_cannot_turn_is_what_brute_force_finds() {
        let phrases = phrases();
        let list = listed(&phrases);
        let mut compared = 0;
        for (case, (p, rules, board)) in boards(11, 12).iter().enumerate() {
            let u = &rules.units[0];
            for target in Reach::new(rules, board, u).resting() {
                // The game so far may end with the head of a phrase.
                let tail = ["", "ia! i", "e"][case % 3];
                let text = Turnless::new(&list)
                    .unwrap()
                    .spell((rules, board, u, target), (tail.as_bytes(), &[]), &[false; 3])
                    .expect("a reachable target");
                let text = String::from_utf8(text).unwrap();
                let mut with_tail = tail.to_string();
                let score = |t: &str| phrases.score(t);
                let expected = brute((rules, board, u), (u.spawn, ENTERED, target), &mut with_tail, &phrases, &score);
                let got = phrases.score(&format!("{tail}{text}"));
                assert_eq!(Some(got), expected, "case {case}, target {target:?}: {text:?}");
                // The text is a legal game: it locks the unit at the target.
                let card = crate::judge::score(p, 0, &text, &phrases);
                assert_eq!(card.error, None, "case {case}: {text:?}");
                assert_eq!(card.locked, 1, "case {case}: {text:?}");
                compared += 1;
            }
        }
        assert!(compared > 12, "only {compared} targets compared");
    }

    #[test]
    fn start_values_and_bonuses_are_what_brute_force_finds() {
        // Points without first-use bonuses: 2 len an occurrence.
        let phrases = phrases();
        let list = listed(&phrases);
        let plain = |t: &str| -> u64 {
            let counts = phrases.counts(t);
            (0..phrases.len()).map(|i| 2 * phrases.text(i).len() as u64 * counts[i] as u64).sum()
        };
        // A bonus by where the text ends: 40 after "...ia! i" (the next unit could finish it).
        let auto = Automaton::new(&[b"ei!".as_slice(), b"ia! ia!".as_slice()]);
        let state = |t: &str| t.bytes().fold(0, |s, b| auto.step(s, b));
        let bonus: Vec<i64> = (0..auto.states()).map(|s| if s == state("ia! i") { 40 } else { 0 }).collect();
        let turnless = Turnless::new(&list).unwrap();
        let mut compared = 0;
        for (case, (_, rules, board)) in boards(5, 8).iter().enumerate() {
            let u = &rules.units[0];
            for target in Reach::new(rules, board, u).resting() {
                let values = turnless.start_values((rules, board, u, target), &bonus).unwrap();
                for tail in ["", "ia! i", "e", "ia"] {
                    let before = plain(tail);
                    let value = |t: &str| plain(t) - before + if state(t) == state("ia! i") { 40 } else { 0 };
                    let mut text = tail.to_string();
                    let expected = brute((rules, board, u), (u.spawn, ENTERED, target), &mut text, &phrases, &value);
                    let got = u64::try_from(values[state(tail)]).unwrap();
                    assert_eq!(Some(got), expected, "case {case}, target {target:?}, tail {tail:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 12, "only {compared} compared");
    }
}
