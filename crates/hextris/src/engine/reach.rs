//! Where a unit can go and where it can lock, a whole row of pivots at a time.
//!
//! For each pivot row `y` and turn `r`, one 128-bit mask holds the pivot columns where the unit
//! fits (`valid`) and those it can reach from its spawn (`reach`). Bit `b` of a mask stands for
//! the pivot column `x = b - min_dx`, so that the unit's leftmost cell is in column `b`: then
//! "every cell free" is an AND of the free rows shifted right by each cell's distance from the
//! leftmost one, and the mask needs no room for pivots off the board.
//!
//! Within a row, moves east and west spread reach along runs of valid pivots (a Kogge-Stone fill,
//! seven steps each way), turns carry it between the masks of one row (with a shift, since the
//! leftmost cell moves), and the two down moves carry it to the next row. A unit locks where
//! one of its commands would leave the board or hit a filled cell.

use std::collections::VecDeque;

use super::bfs::bfs;
use super::{Board, Pos, Rules, Unit};
use crate::command::Command;

/// The reachable and valid positions of one unit on one board.
#[derive(Clone, Debug)]
pub struct Reach {
    /// The first pivot row with any valid position.
    ymin: i32,
    /// Pivot rows covered.
    rows: usize,
    period: u8,
    /// `valid[6 (y - ymin) + r]`.
    valid: Vec<u128>,
    /// `reach[6 (y - ymin) + r]`.
    reach: Vec<u128>,
    /// `base[2 r + parity]`: the pivot's column offset to its leftmost cell (`min_dx`); 16
    /// entries so that an index masked to 4 bits needs no bounds check.
    base: [i32; 16],
}

/// `v` shifted towards higher bits by `k` (lower bits if `k` is negative).
#[inline]
fn shift(v: u128, k: i32) -> u128 {
    if k >= 0 { v << k } else { v >> -k }
}

/// The bits of `valid` connected to a bit of `seed` through runs of consecutive `valid` bits.
#[inline]
pub(crate) fn fill_runs(valid: u128, seed: u128) -> u128 {
    let seed = seed & valid;
    // Towards higher bits, one addition: a run's bits are all ones, so adding its seeds carries
    // from its lowest seed to its top (each bit there flips but the seeds, which stay set) and
    // out into the free bit above, which the mask drops.
    let up = ((valid.wrapping_add(seed) ^ valid) | seed) & valid;
    // Towards lower bits no carry runs: spread by shifts of 1, 2, 4, ... (`pd`: the bits whose
    // next `k` lower bits are all valid).
    let (mut down, mut pd) = (seed, valid);
    for k in [1, 2, 4, 8, 16, 32, 64] {
        down |= pd & (down >> k);
        pd &= pd >> k;
    }
    up | down
}

impl Reach {
    /// Every position of `unit` reachable from its spawn on `board` (nothing if the spawn
    /// position is not free: the game is then over).
    #[must_use]
    pub fn new(rules: &Rules, board: &Board, unit: &Unit) -> Reach {
        let mut base = [0; 16];
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for r in 0..unit.period {
            for parity in 0..2 {
                let o = unit.orient(r, parity);
                base[2 * r as usize + parity as usize] = o.min_dx;
                lo = lo.min(-o.min_dy);
                hi = hi.max(rules.height as i32 - 1 - o.max_dy);
            }
        }
        let ymin = lo.min(unit.spawn.y as i32);
        let rows = (hi - ymin + 1).max(1) as usize;
        let mut me =
            Reach { ymin, rows, period: unit.period, valid: vec![0; 6 * rows], reach: vec![0; 6 * rows], base };
        me.fill_valid(rules, board, unit);
        let s = unit.spawn;
        if let Some(b) = me.bit(s) {
            let i = me.index(s.y as i32, s.r);
            me.reach[i] = 1u128.checked_shl(b).unwrap_or(0) & me.valid[i];
        }
        me.spread(s.y as i32);
        me
    }

    #[inline]
    fn index(&self, y: i32, r: u8) -> usize {
        6 * (y - self.ymin) as usize + r as usize
    }

    /// The bit of a position in its row's mask, if it has one.
    #[inline]
    pub(crate) fn bit(&self, p: Pos) -> Option<u32> {
        let y = p.y as i32;
        let b = p.x as i32 + self.offset(p.r, y);
        // Unsigned comparisons: a row above `ymin` or a negative bit wraps to a large number.
        (((y - self.ymin) as u32) < self.rows as u32 && (b as u32) < 128 && p.r < self.period).then_some(b as u32)
    }

    fn fill_valid(&mut self, rules: &Rules, board: &Board, unit: &Unit) {
        let h = rules.height as i32;
        for row in 0..self.rows {
            let y = self.ymin + row as i32;
            for r in 0..unit.period {
                let o = unit.orient(r, y);
                if y + o.min_dy < 0 || y + o.max_dy >= h {
                    continue;
                }
                // Bit b: the leftmost cell in column b, each cell in column b + (dx - min_dx).
                let mut v = board.full();
                for &(dx, dy) in &o.cells {
                    v &= board.free(y + dy) >> (dx - o.min_dx);
                }
                self.valid[6 * row + r as usize] = v;
            }
        }
    }

    /// The masks of row `y` carried to their place under `cmd`: bit `b` of the result is set
    /// when the position of bit `b` in `from` moves by `cmd` to a position whose bit is set.
    #[inline]
    fn back(&self, y: i32, r: u8, cmd: Command, target: u128) -> u128 {
        let (dx, ty, tr) = self.delta(y, r, cmd);
        shift(target, -(dx + self.offset(tr, ty) - self.offset(r, y)))
    }

    /// How `cmd` changes the pivot column, and the new row and turn.
    #[inline]
    fn delta(&self, y: i32, r: u8, cmd: Command) -> (i32, i32, u8) {
        let odd = y & 1;
        let p = self.period;
        match cmd {
            Command::W => (-1, y, r),
            Command::E => (1, y, r),
            Command::SW => (odd - 1, y + 1, r),
            Command::SE => (odd, y + 1, r),
            Command::CW => (0, y, (r + 1) % p),
            Command::CCW => (0, y, (r + p - 1) % p),
        }
    }

    /// The mask of (row `y`, turn `r`) moved by `cmd` (same bits convention as the target).
    #[inline]
    fn forward(&self, y: i32, r: u8, cmd: Command, from: u128) -> (usize, u128) {
        let (dx, ty, tr) = self.delta(y, r, cmd);
        (self.index(ty, tr), shift(from, dx + self.offset(tr, ty) - self.offset(r, y)))
    }

    /// Spreads reach from row `start` down to the bottom.
    fn spread(&mut self, start: i32) {
        let p = self.period;
        for y in start..self.ymin + self.rows as i32 {
            // Within the row: east/west runs and turns, until nothing changes.
            loop {
                let mut changed = false;
                for r in 0..p {
                    let i = self.index(y, r);
                    let f = fill_runs(self.valid[i], self.reach[i]);
                    changed |= f != self.reach[i];
                    self.reach[i] = f;
                }
                if p > 1 {
                    for r in 0..p {
                        let from = self.reach[self.index(y, r)];
                        for cmd in [Command::CW, Command::CCW] {
                            let (t, m) = self.forward(y, r, cmd, from);
                            let new = m & self.valid[t] & !self.reach[t];
                            changed |= new != 0;
                            self.reach[t] |= new;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            if y + 1 >= self.ymin + self.rows as i32 {
                break;
            }
            for r in 0..p {
                let from = self.reach[self.index(y, r)];
                for cmd in [Command::SW, Command::SE] {
                    let (t, m) = self.forward(y, r, cmd, from);
                    self.reach[t] |= m & self.valid[t];
                }
            }
        }
    }

    /// A dense number for every position the masks cover (`None` outside them), below
    /// [`Reach::keys`].
    #[inline]
    pub(crate) fn key(&self, p: Pos) -> Option<usize> {
        self.bit(p).map(|b| self.index(p.y as i32, p.r) * 128 + b as usize)
    }

    /// The number of keys.
    pub(crate) fn keys(&self) -> usize {
        self.valid.len() * 128
    }

    /// The position of a key.
    pub(crate) fn pos_of(&self, key: usize) -> Pos {
        let (i, b) = (key / 128, (key % 128) as i32);
        let (y, r) = (self.ymin + (i / 6) as i32, (i % 6) as u8);
        Pos::new(b - self.offset(r, y), y, r)
    }

    /// The key of `p` if it can be reached from the spawn ([`Reach::key`] and
    /// [`Reach::is_reachable`] in one).
    #[inline]
    pub(crate) fn reachable_key(&self, p: Pos) -> Option<usize> {
        let b = self.bit(p)?;
        let i = self.index(p.y as i32, p.r);
        (self.reach[i] >> b & 1 == 1).then_some(i * 128 + b as usize)
    }

    /// The reachable positions of pivot row `y`, with their keys.
    pub(crate) fn reachable_in_row(&self, y: i32) -> impl Iterator<Item = (Pos, usize)> + '_ {
        let inside = y >= self.ymin && y < self.ymin + self.rows as i32;
        (0..if inside { self.period } else { 0 }).flat_map(move |r| {
            let i = self.index(y, r);
            let mut m = self.reach[i];
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let b = m.trailing_zeros() as i32;
                    m &= m - 1;
                    (Pos::new(b - self.offset(r, y), y, r), i * 128 + b as usize)
                })
            })
        })
    }

    /// The mask of pivot row `y`, turn `r`: bit `b` set where the unit fits with its pivot in
    /// column `b - `[`Reach::offset`]`(r, y)` (no bit outside the rows covered).
    #[inline]
    pub(crate) fn valid_row(&self, y: i32, r: u8) -> u128 {
        let inside = y >= self.ymin && y < self.ymin + self.rows as i32 && r < self.period;
        if inside { self.valid[self.index(y, r)] } else { 0 }
    }

    /// What a pivot column adds to become a bit of the masks of row `y`, turn `r`.
    #[inline]
    pub(crate) fn offset(&self, r: u8, y: i32) -> i32 {
        self.base[(2 * r as usize + (y & 1) as usize) & 15]
    }

    /// The unit's period: its turns are `0..period`.
    pub(crate) fn period(&self) -> u8 {
        self.period
    }

    /// Whether the unit fits at `p`.
    pub fn is_valid(&self, p: Pos) -> bool {
        self.bit(p).is_some_and(|b| self.valid[self.index(p.y as i32, p.r)] >> b & 1 == 1)
    }

    /// Whether `p` can be reached from the spawn.
    pub fn is_reachable(&self, p: Pos) -> bool {
        self.bit(p).is_some_and(|b| self.reach[self.index(p.y as i32, p.r)] >> b & 1 == 1)
    }

    /// The commands that would lock the unit at `p` (they lead off the board or onto filled
    /// cells); turns of a unit of period 1 are errors, never locks.
    pub fn locking(&self, p: Pos) -> impl Iterator<Item = Command> + '_ {
        Command::ALL
            .into_iter()
            .filter(move |&c| !(c.is_turn() && self.period == 1))
            .filter(move |&c| !self.target_valid(p, c))
    }

    fn target_valid(&self, p: Pos, cmd: Command) -> bool {
        let (dx, ty, tr) = self.delta(p.y as i32, p.r, cmd);
        self.is_valid(Pos::new(p.x as i32 + dx, ty, tr))
    }

    /// Every reachable position where the unit can lock, row by row from the top.
    pub fn locks(&self) -> Vec<Pos> {
        self.collect(&[Command::W, Command::E, Command::SW, Command::SE, Command::CW, Command::CCW])
    }

    /// Every reachable position where a move down is blocked: where the unit rests on something
    /// (or on the floor) rather than hanging in the air. Locks anywhere else leave the cells
    /// below it empty.
    pub(crate) fn resting(&self) -> Vec<Pos> {
        self.collect(&[Command::SW, Command::SE])
    }

    /// The reachable positions where one of `cmds` would lock the unit.
    fn collect(&self, cmds: &[Command]) -> Vec<Pos> {
        let mut out = Vec::new();
        let last = self.ymin + self.rows as i32 - 1;
        for y in self.ymin..=last {
            for r in 0..self.period {
                let i = self.index(y, r);
                let reach = self.reach[i];
                if reach == 0 {
                    continue;
                }
                let v = self.valid[i];
                let mut stuck = 0;
                for &cmd in cmds {
                    stuck |= match cmd {
                        // Positions whose east or west neighbour is not valid.
                        Command::E => !(v >> 1),
                        Command::W => !(v << 1),
                        _ if cmd.is_down() && y == last => !0,
                        _ if cmd.is_turn() && self.period == 1 => 0, // an error, not a lock
                        _ => {
                            let (_, ty, tr) = self.delta(y, r, cmd);
                            !self.back(y, r, cmd, self.valid[self.index(ty, tr)])
                        }
                    };
                }
                let mut m = reach & stuck;
                while m != 0 {
                    let b = m.trailing_zeros() as i32;
                    m &= m - 1;
                    out.push(Pos::new(b - self.offset(r, y), y, r));
                }
            }
        }
        out
    }

    /// A shortest command sequence from the spawn to `target` (which must be reachable), by
    /// breadth-first search over the valid positions. A shortest path never repeats a position.
    pub fn path_to(&self, unit: &Unit, target: Pos) -> Option<Vec<Command>> {
        if !self.is_reachable(target) {
            return None;
        }
        let (parent, _) = self.tree(unit, Some(target));
        self.walk_back(unit, &parent, target)
    }

    /// A shortest path from the spawn to every reachable position, nearest first (one
    /// breadth-first search).
    pub(crate) fn paths(&self, unit: &Unit) -> Vec<(Pos, Vec<Command>)> {
        let (parent, order) = self.tree(unit, None);
        order.into_iter().filter_map(|p| Some((p, self.walk_back(unit, &parent, p)?))).collect()
    }

    /// Breadth-first search from the spawn over the reachable positions, until `target` if
    /// given: each position's command from its parent (by key; 6 at the spawn, `u8::MAX` where
    /// not reached), and the positions in the order reached.
    fn tree(&self, unit: &Unit, target: Option<Pos>) -> (Vec<u8>, Vec<Pos>) {
        let mut parent: Vec<u8> = vec![u8::MAX; self.keys()];
        let mut order = Vec::new();
        let start = unit.spawn;
        let Some(k0) = self.reachable_key(start) else { return (parent, order) };
        parent[k0] = 6;
        order.push(start);
        let step = |p, cmd| Some(unit.step(p, cmd)).filter(|&q| self.is_reachable(q));
        let visit = |_, cmd: Command, q| {
            let k = self.key(q).expect("a reachable position has a key");
            let new = parent[k] == u8::MAX;
            if new {
                parent[k] = cmd.index() as u8;
                order.push(q);
            }
            new
        };
        bfs(&mut VecDeque::new(), start, &Command::ALL, step, visit, |p| Some(p) == target);
        (parent, order)
    }

    /// The commands that led the search of [`Reach::tree`] to `target`.
    fn walk_back(&self, unit: &Unit, parent: &[u8], target: Pos) -> Option<Vec<Command>> {
        let mut path = Vec::new();
        let mut p = target;
        loop {
            match *parent.get(self.key(p)?)? {
                6 => break,
                c if c < 6 => {
                    let cmd = Command::ALL[c as usize];
                    path.push(cmd);
                    p = undo(unit, p, cmd);
                }
                _ => return None,
            }
        }
        path.reverse();
        Some(path)
    }
}

/// The position from which `cmd` leads to `p`.
pub(crate) fn undo(unit: &Unit, p: Pos, cmd: Command) -> Pos {
    match cmd {
        Command::SW | Command::SE => {
            let y = p.y - 1;
            let odd = y & 1;
            let dx = if cmd == Command::SW { odd - 1 } else { odd };
            Pos { x: p.x - dx, y, r: p.r }
        }
        _ => unit.step(p, cmd.inverse().expect("moves within a row have inverses")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_fill_from_their_seeds_only() {
        let v = 0b0111_0110_1111u128;
        assert_eq!(fill_runs(v, 0b0000_0100_0000), 0b0000_0110_0000);
        assert_eq!(fill_runs(v, 0b0001_0000_0101), 0b0111_0000_1111);
        assert_eq!(fill_runs(u128::MAX, 1 << 70), u128::MAX);
        assert_eq!(fill_runs(v, 0), 0);
        assert_eq!(fill_runs(u128::MAX, 1), u128::MAX, "a run up to the top bit");
    }

    #[test]
    fn runs_fill_as_a_walk_along_them_does() {
        let mut rng = tessera_core::rng::Rng64::seed(11);
        for _ in 0..2000 {
            let word =
                |rng: &mut tessera_core::rng::Rng64| u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
            // Long runs and sparse seeds as well as short ones.
            let valid = word(&mut rng) | word(&mut rng) | if rng.below(2) == 0 { word(&mut rng) } else { 0 };
            let seed = word(&mut rng) & word(&mut rng) & word(&mut rng) & word(&mut rng);
            let mut want = 0u128;
            for b in (0..128).filter(|&b| seed >> b & 1 == 1 && valid >> b & 1 == 1) {
                let (mut lo, mut hi) = (b, b);
                while lo > 0 && valid >> (lo - 1) & 1 == 1 {
                    lo -= 1;
                }
                while hi < 127 && valid >> (hi + 1) & 1 == 1 {
                    hi += 1;
                }
                want |= (u128::MAX >> (127 - hi)) & (u128::MAX << lo);
            }
            assert_eq!(fill_runs(valid, seed), want, "valid {valid:#x} seed {seed:#x}");
        }
    }
}
