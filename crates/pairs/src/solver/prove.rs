//! Deciding whether a small board can be cleared at all: a search over partners, not orders.
//!
//! Removals only open cells, so a board can be cleared exactly when its tiles can be matched into
//! same-colour pairs that can be taken in some order; and once the pairs are chosen, taking each
//! as soon as its rectangle is free of other colours never hurts the others. The search therefore
//! picks a tile, tries each partner it could have, and takes fixed pairs as soon as they are
//! removable. Three rules cut it without losing a clear:
//! * **Forced pairs**: a colour with two unmatched tiles left must pair them.
//! * **Deadlock**: if every tile of a set is blocked, in every pair still open to it, by a tile of
//!   the set, none can go first. The largest such set is what is left after freeing, until
//!   nothing changes, the tiles of a pair whose blockers are all free.
//! * **Look-ahead**: the tile branched on is the one with the fewest partners that leave no
//!   deadlock; a tile with none ends the branch, one with one is matched at once.
//!
//! The partners are tried the fewest blocked first, but a hint ([`Decider::hint`]: the moves of
//! the heuristic's best answer) goes before them: the search then dives along that answer and
//! backtracks from where it gets stuck. The order changes no verdict, only how soon a clear is
//! met. A new hint (a better answer) sends the next run back to the full board to follow it.
//!
//! A pair whose fixing deadlocks a position stays closed in every position below it (fixing more
//! pairs and taking removable ones only keep a deadlock), so the look-ahead's verdicts are kept
//! down the path and make the deadlock test stronger in the positions below. A failed position (the tiles present
//! and the pairs fixed among them) fails again whatever the path to it, and is remembered. When
//! the search ends without running out of positions, a board it did not clear cannot be cleared.
//!
//! The search is run a slice at a time by the solver ([`super::search`]), between the rounds of
//! its heuristic: it decides most boards of up to about 150 tiles of the hard class within a
//! second or two, and proves some that no heuristic clears impossible.

use std::collections::{HashMap, HashSet};

use tessera_core::runtime::{Stop, StopReason, Verdict};

use crate::board::{Board, Cell};
use crate::moves::Move;

/// The most tiles the prover takes.
pub const MAX_TILES: usize = 256;

const FREE: u16 = u16::MAX;

/// A set of tiles, a bit each, in `W` words.
type Set<const W: usize> = [u64; W];

fn has<const W: usize>(s: &Set<W>, t: u16) -> bool {
    s[usize::from(t) / 64] >> (t % 64) & 1 == 1
}

fn take<const W: usize>(s: &mut Set<W>, t: u16) {
    s[usize::from(t) / 64] &= !(1 << (t % 64));
}

fn meets<const W: usize>(a: &Set<W>, b: &Set<W>) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

fn is_empty<const W: usize>(s: &Set<W>) -> bool {
    s.iter().all(|&x| x == 0)
}

/// Whether a board can be cleared, decided by a search that can be run a slice at a time.
///
/// ```
/// use tessera_core::runtime::{Never, Verdict};
/// use tessera_pairs::Board;
/// use tessera_pairs::solver::prove::Decider;
///
/// // Each pair's rectangle holds the other pair: neither can go first.
/// let stuck = Board::parse("01\n10\n").unwrap();
/// assert_eq!(Decider::new(&stuck).unwrap().run(&mut Never), Verdict::Infeasible);
/// let open = Board::parse("0110\n").unwrap();
/// assert!(matches!(Decider::new(&open).unwrap().run(&mut Never), Verdict::Optimal(moves) if moves.len() == 2));
/// ```
#[derive(Debug)]
pub struct Decider(Words);

/// The search for the number of 64-bit words a set of the board's tiles takes.
#[derive(Debug)]
enum Words {
    One(Prover<1>),
    Two(Prover<2>),
    Three(Prover<3>),
    Four(Prover<4>),
}

impl Decider {
    /// The search for `board`; `None` if it has more than [`MAX_TILES`] tiles.
    pub fn new(board: &Board) -> Option<Decider> {
        Some(Decider(match board.tiles() {
            0..=64 => Words::One(Prover::new(board)),
            65..=128 => Words::Two(Prover::new(board)),
            129..=192 => Words::Three(Prover::new(board)),
            193..=MAX_TILES => Words::Four(Prover::new(board)),
            _ => return None,
        }))
    }

    /// Searches until it decides or `stop` ends it (a position is a node):
    /// [`Verdict::Optimal`] with moves that clear the board, [`Verdict::Infeasible`] if no moves
    /// can, [`Verdict::Unknown`] if stopped first. Run again, it takes up where it stopped: the
    /// positions it found failed are not searched again.
    pub fn run(&mut self, stop: &mut impl Stop) -> Verdict<Vec<Move>> {
        match &mut self.0 {
            Words::One(p) => p.run(stop),
            Words::Two(p) => p.run(stop),
            Words::Three(p) => p.run(stop),
            Words::Four(p) => p.run(stop),
        }
    }

    /// Sets the partners tried first: where a tile has a partner in `moves`, that pair leads
    /// the tile's choices. A hint that differs from the last one also drops the path where the
    /// last run stopped, so that the next run follows the new hint from the full board (the
    /// positions it found failed stay known).
    pub fn hint(&mut self, moves: &[Move]) {
        match &mut self.0 {
            Words::One(p) => p.hint(moves),
            Words::Two(p) => p.hint(moves),
            Words::Three(p) => p.hint(moves),
            Words::Four(p) => p.hint(moves),
        }
    }
}

/// A position: the tiles present and the fixed pairs among them.
type Key<const W: usize> = (Set<W>, Vec<u32>);

/// A same-colour pair and the tiles of other colours in its rectangle.
#[derive(Copy, Clone, Debug)]
struct Pair<const W: usize> {
    a: u16,
    b: u16,
    /// Its index in [`Prover::pairs`].
    id: u32,
    blockers: Set<W>,
}

/// The search's tables and buffers, for sets of `W` words.
#[derive(Debug)]
struct Prover<const W: usize> {
    cells: Vec<Cell>,
    color: Vec<u8>,
    pairs: Vec<Pair<W>>,
    /// The pair of two tiles, by `a * n + b`.
    pair_of: Vec<u32>,
    /// Each tile's fixed partner, or [`FREE`].
    partner: Vec<u16>,
    /// The fixed pairs, in the order they were fixed (undone by truncating).
    fixed: Vec<u32>,
    /// The pairs removed on the current path, in order.
    removed: Vec<u32>,
    failed: HashSet<Key<W>>,
    /// The positions where a run stopped, with the partners left to try and the pairs their
    /// look-ahead banned.
    open: HashMap<Key<W>, (Vec<u32>, Vec<u32>)>,
    /// Scratch: the pairs open at the position being expanded (copies, read in order).
    live: Vec<Pair<W>>,
    /// Scratch: the indices in `live` of each tile's pairs.
    by_tile: Vec<Vec<u32>>,
    /// Scratch: the pairs of `live` that freed tiles in the last deadlock test, in order.
    steps: Vec<u32>,
    /// The pairs known, on the current path, to deadlock the position once fixed.
    banned: Vec<bool>,
    /// The banned pairs, in the order they were banned (undone by truncating).
    bans: Vec<u32>,
    /// The position at which each pair was last found viable (see [`Prover::viable`]).
    seen_viable: Vec<u64>,
    positions: u64,
    /// Each tile's partner to try first, or [`FREE`] (see [`Decider::hint`]).
    hint: Vec<u16>,
    width: usize,
}

impl<const W: usize> Prover<W> {
    fn new(board: &Board) -> Prover<W> {
        let w = board.width();
        let cells: Vec<Cell> = (0..board.tiles()).map(|i| Cell::new(i / w, i % w)).collect();
        let color = board.cells().to_vec();
        let n = cells.len();
        let mut p = Prover {
            cells,
            color,
            pairs: Vec::new(),
            pair_of: vec![u32::MAX; n * n],
            partner: vec![FREE; n],
            fixed: Vec::new(),
            removed: Vec::new(),
            failed: HashSet::new(),
            open: HashMap::new(),
            live: Vec::new(),
            by_tile: vec![Vec::new(); n],
            steps: Vec::new(),
            banned: Vec::new(),
            bans: Vec::new(),
            seen_viable: Vec::new(),
            positions: 0,
            hint: vec![FREE; n],
            width: w,
        };
        p.build_pairs();
        p.banned = vec![false; p.pairs.len()];
        p.seen_viable = vec![0; p.pairs.len()];
        p
    }

    fn run(&mut self, stop: &mut impl Stop) -> Verdict<Vec<Move>> {
        let mut present = [0u64; W];
        for t in 0..self.cells.len() {
            present[t / 64] |= 1 << (t % 64);
        }
        match self.search(present, stop) {
            Some(true) => {
                let moves = self.removed.iter().map(|&q| self.move_of(q)).collect();
                // A later run starts afresh from the full board.
                self.unfix_to(0);
                self.removed.clear();
                for q in self.bans.drain(..) {
                    self.banned[q as usize] = false;
                }
                Verdict::Optimal(moves)
            }
            Some(false) => Verdict::Infeasible,
            None => Verdict::Unknown(stop.reason().unwrap_or(StopReason::Nodes)),
        }
    }

    fn hint(&mut self, moves: &[Move]) {
        let mut hint = vec![FREE; self.cells.len()];
        let at = |c: Cell| usize::from(c.r) * self.width + usize::from(c.c);
        for m in moves {
            let (a, b) = (at(m.a), at(m.b));
            if a < hint.len() && b < hint.len() {
                hint[a] = b as u16;
                hint[b] = a as u16;
            }
        }
        if hint != self.hint {
            // The path where the last run stopped followed the old hint: the next run starts
            // again from the full board along the new one. The failed positions stay failed.
            self.open.clear();
            self.hint = hint;
        }
    }

    fn move_of(&self, q: u32) -> Move {
        let p = &self.pairs[q as usize];
        Move::new(self.cells[usize::from(p.a)], self.cells[usize::from(p.b)])
    }

    fn build_pairs(&mut self) {
        let n = self.cells.len();
        for a in 0..n {
            for b in a + 1..n {
                if self.color[a] != self.color[b] {
                    continue;
                }
                let (ca, cb) = (self.cells[a], self.cells[b]);
                let (rows, cols) = (ca.r.min(cb.r)..=ca.r.max(cb.r), ca.c.min(cb.c)..=ca.c.max(cb.c));
                let mut blockers = [0u64; W];
                for (t, c) in self.cells.iter().enumerate() {
                    if self.color[t] != self.color[a] && rows.contains(&c.r) && cols.contains(&c.c) {
                        blockers[t / 64] |= 1 << (t % 64);
                    }
                }
                let id = self.pairs.len() as u32;
                self.pair_of[a * n + b] = id;
                self.pair_of[b * n + a] = id;
                self.pairs.push(Pair { a: a as u16, b: b as u16, id, blockers });
            }
        }
    }

    fn fix(&mut self, q: u32) {
        let Pair { a, b, .. } = self.pairs[q as usize];
        self.partner[usize::from(a)] = b;
        self.partner[usize::from(b)] = a;
        self.fixed.push(q);
    }

    fn unfix_to(&mut self, mark: usize) {
        for q in self.fixed.drain(mark..) {
            let Pair { a, b, .. } = self.pairs[q as usize];
            self.partner[usize::from(a)] = FREE;
            self.partner[usize::from(b)] = FREE;
        }
    }

    /// Takes the removable fixed pairs and fixes the forced ones until nothing changes; `false`
    /// if a forced pair is known to deadlock.
    fn propagate(&mut self, present: &mut Set<W>) -> bool {
        loop {
            let mut changed = false;
            for i in 0..self.fixed.len() {
                let q = self.fixed[i];
                let p = &self.pairs[q as usize];
                if has(present, p.a) && !meets(&p.blockers, present) {
                    let (a, b) = (p.a, p.b);
                    take(present, a);
                    take(present, b);
                    self.removed.push(q);
                    changed = true;
                }
            }
            // A colour with two unmatched tiles left: its count and its last two such tiles.
            let mut free = [(0usize, [0u16; 2]); crate::board::MAX_COLORS];
            for t in 0..self.cells.len() as u16 {
                if has(present, t) && self.partner[usize::from(t)] == FREE {
                    let (count, last) = &mut free[usize::from(self.color[usize::from(t)])];
                    *count += 1;
                    *last = [last[1], t];
                }
            }
            for &(_, [a, b]) in free.iter().filter(|f| f.0 == 2) {
                let q = self.pair_of[usize::from(a) * self.cells.len() + usize::from(b)];
                if self.banned[q as usize] {
                    return false;
                }
                self.fix(q);
                changed = true;
            }
            if !changed {
                return true;
            }
        }
    }

    /// The pairs open in a position: the fixed ones present, and those of two unmatched tiles;
    /// and the pairs of each tile among them.
    fn gather(&mut self, present: &Set<W>) {
        self.live.clear();
        for list in &mut self.by_tile {
            list.clear();
        }
        for p in &self.pairs {
            if !has(present, p.a) || !has(present, p.b) || self.banned[p.id as usize] {
                continue;
            }
            let (pa, pb) = (self.partner[usize::from(p.a)], self.partner[usize::from(p.b)]);
            if (pa == FREE && pb == FREE) || pa == p.b {
                let i = self.live.len() as u32;
                self.by_tile[usize::from(p.a)].push(i);
                self.by_tile[usize::from(p.b)].push(i);
                self.live.push(*p);
            }
        }
    }

    /// Whether some tiles present are deadlocked, over all the pairs in `live`: tiles are
    /// freed, pass after pass until nothing changes, by a pair whose blockers are all free; any
    /// left stuck can never go. Otherwise the pairs that freed tiles, in order, are left in
    /// `steps` (see [`Prover::deadlocked_without`]).
    fn deadlocked(&mut self, present: &Set<W>) -> bool {
        self.steps.clear();
        let mut stuck = *present;
        loop {
            let before = stuck;
            // Hot loop: every live pair, once a pass.
            for (i, p) in self.live.iter().enumerate() {
                if (has(&stuck, p.a) || has(&stuck, p.b)) && !meets(&p.blockers, &stuck) {
                    take(&mut stuck, p.a);
                    take(&mut stuck, p.b);
                    self.steps.push(i as u32);
                }
            }
            if is_empty(&stuck) {
                return false;
            }
            if stuck == before {
                return true;
            }
        }
    }

    /// [`Prover::deadlocked`] without the live pairs that `skip` rules out, after it found no
    /// deadlock with them. Its steps are replayed, those skipped or still blocked left out; then
    /// the tiles still stuck try their other pairs until nothing changes. The replay is a pass
    /// over a list as long as the tiles, and few tiles are left stuck after it, so this is much
    /// cheaper than passes over every pair.
    fn deadlocked_without(&self, present: &Set<W>, skip: impl Fn(&Pair<W>) -> bool) -> bool {
        let mut stuck = *present;
        for &i in &self.steps {
            let p = &self.live[i as usize];
            if !skip(p) && !meets(&p.blockers, &stuck) {
                take(&mut stuck, p.a);
                take(&mut stuck, p.b);
            }
        }
        loop {
            let before = stuck;
            for (w, &word) in stuck.clone().iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let t = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    // Hot loop: the pairs of a stuck tile, until one frees it.
                    for &i in &self.by_tile[t] {
                        let p = &self.live[i as usize];
                        if !skip(p) && !meets(&p.blockers, &stuck) {
                            take(&mut stuck, p.a);
                            take(&mut stuck, p.b);
                            break;
                        }
                    }
                }
            }
            if is_empty(&stuck) {
                return false;
            }
            if stuck == before {
                return true;
            }
        }
    }

    /// The partners of unmatched tile `t` that leave no deadlock, the fewest blocked first.
    fn viable(&mut self, present: &Set<W>, t: u16) -> Vec<u32> {
        let n = self.cells.len();
        let mut out: Vec<(u32, u32)> = Vec::new();
        for u in 0..n as u16 {
            if u == t
                || !has(present, u)
                || self.partner[usize::from(u)] != FREE
                || self.color[usize::from(u)] != self.color[usize::from(t)]
            {
                continue;
            }
            let q = self.pair_of[usize::from(t) * n + usize::from(u)];
            if self.banned[q as usize] {
                continue;
            }
            let blocked = self.pairs[q as usize].blockers.iter().zip(present).map(|(x, y)| (x & y).count_ones()).sum();
            if self.seen_viable[q as usize] == self.positions {
                // Found viable from its other tile at this position.
                out.push((blocked, q));
                continue;
            }
            // With t and u matched, their pairs with other tiles are closed.
            let skip = |p: &Pair<W>| {
                (p.a == t || p.b == t || p.a == u || p.b == u)
                    && !(p.a.min(p.b) == t.min(u) && p.a.max(p.b) == t.max(u))
            };
            if !self.deadlocked_without(present, skip) {
                self.seen_viable[q as usize] = self.positions;
                out.push((blocked, q));
            } else {
                // Fixing more pairs and taking removable ones keep the deadlock: the pair stays
                // closed below this position.
                self.banned[q as usize] = true;
                self.bans.push(q);
            }
        }
        out.sort_unstable();
        out.into_iter().map(|(_, q)| q).collect()
    }

    fn key(&self, present: &Set<W>) -> Key<W> {
        let mut fixed: Vec<u32> =
            self.fixed.iter().copied().filter(|&q| has(present, self.pairs[q as usize].a)).collect();
        fixed.sort_unstable();
        (*present, fixed)
    }

    /// `Some(true)` once the board is clear (the removals in `removed`), `Some(false)` if the
    /// position cannot be cleared, `None` when out of positions.
    fn search(&mut self, mut present: Set<W>, stop: &mut impl Stop) -> Option<bool> {
        let (fixed_mark, removed_mark, ban_mark) = (self.fixed.len(), self.removed.len(), self.bans.len());
        let result = if !self.propagate(&mut present) {
            Some(false)
        } else if is_empty(&present) {
            return Some(true);
        } else {
            self.expand(&present, stop)
        };
        if result != Some(true) {
            self.unfix_to(fixed_mark);
            self.removed.truncate(removed_mark);
            for q in self.bans.drain(ban_mark..) {
                self.banned[q as usize] = false;
            }
        }
        result
    }

    fn expand(&mut self, present: &Set<W>, stop: &mut impl Stop) -> Option<bool> {
        let key = self.key(present);
        if self.failed.contains(&key) {
            return Some(false);
        }
        let ban_mark = self.bans.len();
        let choices = match self.open.remove(&key) {
            // A position on the path where an earlier run stopped: its partners left to try,
            // and what its look-ahead learned, without looking again.
            Some((choices, bans)) => {
                for q in bans {
                    if !self.banned[q as usize] {
                        self.banned[q as usize] = true;
                        self.bans.push(q);
                    }
                }
                choices
            }
            None => {
                if stop.should_stop(1) {
                    return None;
                }
                match self.choose(present, stop)? {
                    Some(choices) => choices,
                    None => {
                        self.failed.insert(key);
                        return Some(false);
                    }
                }
            }
        };
        for (i, &q) in choices.iter().enumerate() {
            let mark = self.fixed.len();
            self.fix(q);
            let result = self.search(*present, stop);
            if result == Some(true) {
                // The moves are in `removed`; `run` resets the rest.
                return result;
            }
            self.unfix_to(mark);
            match result {
                Some(true) | Some(false) => {}
                None => {
                    let bans = self.bans[ban_mark..].to_vec();
                    self.open.insert(key, (choices[i..].to_vec(), bans));
                    return None;
                }
            }
        }
        self.failed.insert(key);
        Some(false)
    }

    /// The partners to try at a position: those of the unmatched tile with the fewest viable
    /// ones (the first in board order), the fewest blocked first; `Some(None)` if the position
    /// is deadlocked, `None` if `stop` ended the look-ahead.
    fn choose(&mut self, present: &Set<W>, stop: &mut impl Stop) -> Option<Option<Vec<u32>>> {
        self.positions += 1;
        self.gather(present);
        if self.deadlocked(present) {
            return Some(None);
        }
        // The tile branched on and its viable pairs.
        let mut best: Option<(u16, Vec<u32>)> = None;
        for t in 0..self.cells.len() as u16 {
            if !has(present, t) || self.partner[usize::from(t)] != FREE {
                continue;
            }
            // A position on a large board takes milliseconds: the clock is read within it.
            if stop.should_stop(0) {
                return None;
            }
            let v = self.viable(present, t);
            if best.as_ref().is_none_or(|b| v.len() < b.1.len()) {
                let done = v.len() <= 1;
                best = Some((t, v));
                if done {
                    break;
                }
            }
        }
        let (t, mut choices) = best.unwrap_or((FREE, Vec::new()));
        self.hint_first(t, &mut choices);
        Some(Some(choices))
    }

    /// Moves the pair of tile `t` and its hinted partner, if it is among `choices`, to the front.
    fn hint_first(&self, t: u16, choices: &mut [u32]) {
        let Some(&h) = self.hint.get(usize::from(t)).filter(|&&h| h != FREE) else {
            return;
        };
        let q = self.pair_of[usize::from(t) * self.cells.len() + usize::from(h)];
        if let Some(i) = choices.iter().position(|&r| r == q) {
            choices[..=i].rotate_right(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;
    use tessera_core::rng::Rng64;
    use tessera_core::runtime::{Budget, Never};

    use super::*;
    use crate::judge::score;
    use crate::solver::exact::Exact;
    use crate::state::State;

    /// A random `h x w` board of `colors` colours, every count even but perhaps the last's.
    fn random_board(h: usize, w: usize, colors: u8, rng: &mut Rng64) -> Board {
        let mut cells: Vec<u8> = (0..h * w).map(|_| rng.random_range(0..colors)).collect();
        for k in 0..colors - 1 {
            if cells.iter().filter(|&&c| c == k).count() % 2 == 1 {
                let last = cells.iter().rposition(|&c| c == k).unwrap();
                cells[last] = colors - 1;
            }
        }
        Board::new(h, w, cells).unwrap()
    }

    fn cleared_by(board: &Board, moves: &[Move]) -> bool {
        let verdict = score(board, moves);
        verdict.invalid.is_none() && verdict.removed == verdict.total
    }

    #[test]
    fn decides_as_the_search_over_orders_does() {
        // The order-based exact search (tested against brute force) is the reference.
        let mut rng = Rng64::seed(5);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..400 {
            let (h, w) = (rng.random_range(2..=4), rng.random_range(3..=5));
            let board = random_board(h, w, rng.random_range(2..=4), &mut rng);
            let reference = Exact::default().clear(&mut State::new(&board), &[], u32::MAX).is_some();
            match Decider::new(&board).unwrap().run(&mut Never) {
                Verdict::Optimal(moves) => {
                    assert!(reference && cleared_by(&board, &moves), "{board:?}");
                    yes += 1;
                }
                Verdict::Infeasible => {
                    assert!(!reference, "{board:?}");
                    no += 1;
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(yes > 50 && no > 50, "both kinds are tried: {yes} clear, {no} not");
    }

    #[test]
    fn a_search_stopped_often_decides_the_same() {
        let mut rng = Rng64::seed(8);
        for _ in 0..60 {
            let board = random_board(4, 5, 3, &mut rng);
            let whole = Decider::new(&board).unwrap().run(&mut Never);
            let mut decider = Decider::new(&board).unwrap();
            let sliced = loop {
                match decider.run(&mut Budget::unlimited().with_nodes(3)) {
                    Verdict::Unknown(_) => continue,
                    v => break v,
                }
            };
            assert_eq!(matches!(whole, Verdict::Optimal(_)), matches!(sliced, Verdict::Optimal(_)), "{board:?}");
            if let Verdict::Optimal(moves) = sliced {
                assert!(cleared_by(&board, &moves), "{board:?}");
                // Run again after a clear, it clears again.
                assert!(matches!(decider.run(&mut Never), Verdict::Optimal(m) if cleared_by(&board, &m)));
            }
        }
    }

    #[test]
    fn proves_generated_boards_impossible() {
        // Boards of the official generator, 10 x 10 and 10 x 11 with six colours, that neither
        // tessera's heuristic nor the contest winner's program clears: no pairing of their tiles
        // can be taken in any order.
        for seed in [133_452, 182_848] {
            let board = crate::generator::generate(seed);
            assert_eq!(Decider::new(&board).unwrap().run(&mut Never), Verdict::Infeasible, "seed {seed}");
        }
    }

    #[test]
    fn takes_boards_up_to_its_size() {
        let big = Board::new(16, 17, vec![0; 16 * 17]).unwrap();
        assert!(Decider::new(&big).is_none());
        // A checkerboard: no pair has a rectangle free of the other colour.
        let checkers = Board::new(16, 16, (0..256).map(|i| ((i / 16 + i % 16) % 2) as u8).collect()).unwrap();
        assert_eq!(Decider::new(&checkers).unwrap().run(&mut Never), Verdict::Infeasible);
    }
}
