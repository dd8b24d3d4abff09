//! Where a phrase's commands take a unit from a position, on the board a [`Reach`] knows.
//!
//! The speller tries every phrase from every position it reaches, so a phrase's moves are worked
//! out once ([`Route`]) for each unit period, start turn and row parity: a command moves a unit
//! the same way wherever it stands, but for the row parity (moves down) and the turn. And since
//! a route is the same from every start of a row, it is walked from all of them at once
//! ([`Route::row_walks`]): where the unit fits after each command is a row mask of the board
//! shifted by the command's offset, so a route's starts that fit all the way are an AND of a
//! mask per command.

use crate::command::Command;
use crate::engine::{Pos, Reach, Unit};

/// Where a phrase's commands take a unit: positions, or their keys (see [`Reach::key`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Walk<P = Pos> {
    /// Every command moves it; it ends here.
    Ends(P),
    /// Every command but the last moves it; the last locks it here.
    Locks(P),
    /// It would lock early, repeat a position, or go below the target's row.
    Fails,
}

/// Start turns and row parities a route is worked out for: `2 r + parity`.
pub(super) const TURNS: usize = 12;

/// A phrase's moves from a start position, worked out once: where a unit of some period that
/// starts with turn `r` on a row of some parity is after each command, relative to its start.
/// Whether the phrase brings it back to a position of the same row depends on nothing else, so
/// it is known before any board is.
#[derive(Clone, Debug, Default)]
pub(super) struct Route {
    /// After each command: columns and rows from the start, and the turn.
    steps: Vec<(i16, i16, u8)>,
    /// Whether the phrase comes back to a position of the same row (it can never be spelled).
    repeats: bool,
    /// The start's turn.
    r: u8,
    /// Commands before the first move down (their positions are in the start's row).
    first_row: usize,
}

/// Where a route goes from every start of one pivot row at once, as bits of the row's masks
/// (see [`Reach`]): the starts it ends from with every command moving the unit, and those it
/// locks from with its last command. A start's bit in neither: the route fails there. The
/// positions of the start's row that must be avoided are not looked at (see [`Route::walk_at`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct RowWalks {
    ends: u128,
    locks: u128,
}

impl RowWalks {
    /// The starts the route ends or locks from, unless a position to avoid is in the way.
    pub(super) fn open(self) -> u128 {
        self.ends | self.locks
    }

    /// The same walks cut to what a search wants: the ends only if `ends`, the locks only from
    /// bit `lock_from` (see [`Route::lock_start`]).
    pub(super) fn keep(self, ends: bool, lock_from: Option<u32>) -> RowWalks {
        let ends = if ends { self.ends } else { 0 };
        let locks = lock_from.map_or(0, |b| self.locks & 1 << b);
        RowWalks { ends, locks }
    }
}

/// `v` with bit `b + k` moved to bit `b` (bits moved from outside 0..128 are clear).
#[inline]
fn take_from(v: u128, k: i32) -> u128 {
    match k {
        0..128 => v >> k,
        -127..0 => v << -k,
        _ => 0,
    }
}

impl Route {
    pub(super) fn new(commands: &[Command], period: u8, r: u8, parity: i32) -> Route {
        let start = Pos::new(0, parity, r % period);
        let (mut at, mut row, mut repeats) = (start, vec![start], r >= period);
        let mut steps = Vec::with_capacity(commands.len());
        for &cmd in commands {
            at = at.step(cmd, period);
            if cmd.is_down() {
                row.clear();
            }
            repeats |= row.contains(&at);
            row.push(at);
            steps.push((at.x, at.y - start.y, at.r));
        }
        let first_row = steps.iter().take_while(|s| s.1 == 0).count();
        Route { steps, repeats, r: start.r, first_row }
    }

    /// The route from every start of pivot row `y` (with the route's turn and the row's parity)
    /// at once, rows below `last_row` barred: one AND of a shifted mask per command, where
    /// [`walk`] takes a step per command and start.
    pub(super) fn row_walks(&self, reach: &Reach, y: i32, last_row: i32) -> RowWalks {
        let Some((&last, before)) = self.steps.split_last() else {
            return RowWalks { ends: !0, locks: 0 };
        };
        if self.repeats {
            return RowWalks::default();
        }
        let from = reach.offset(self.r, y);
        // The starts from which step (dx, dy, r) lands where the unit fits.
        let fits = |&(dx, dy, r): &(i16, i16, u8)| {
            let (ty, k) = (y + i32::from(dy), i32::from(dx));
            take_from(reach.valid_row(ty, r), k + reach.offset(r, ty) - from)
        };
        // Rows only go down, so the prefix keeps above `last_row` if its last step does.
        let above = |&(_, dy, _): &(i16, i16, u8)| dy == 0 || y + i32::from(dy) <= last_row;
        if !before.last().is_none_or(above) {
            return RowWalks::default();
        }
        let mut prefix = !0u128;
        for step in before {
            prefix &= fits(step);
            if prefix == 0 {
                return RowWalks::default();
            }
        }
        let end = fits(&last);
        RowWalks { ends: if above(&last) { prefix & end } else { 0 }, locks: prefix & !end }
    }

    /// The one start of pivot row `y` (with the route's turn) from which the route, if it
    /// locks, locks at `target`: a lock is where the unit stands before the last command, a
    /// fixed offset from the start. `None` if no start of that row can lock there.
    pub(super) fn lock_start(&self, y: i32, target: Pos) -> Option<Pos> {
        let n = self.steps.len();
        let (dx, dy, r) = if n >= 2 { self.steps[n - 2] } else { (0, 0, self.r) };
        let start = Pos { x: target.x - dx, y: target.y - dy, r: self.r };
        (n > 0 && r == target.r && i32::from(start.y) == y).then_some(start)
    }

    /// The route's moves from a start of its turn on a row of `parity`, as differences of the
    /// unit's keys ([`Reach::key`]: a move changes a key by the same amount from every start
    /// of such a row): those of its positions in the start's row, then that of where it ends,
    /// then that of where it locks. Appended to `out`, for [`Route::walk_at`].
    pub(super) fn key_steps(&self, reach: &Reach, parity: i32, out: &mut Vec<isize>) {
        let delta = |&(dx, dy, r): &(i16, i16, u8)| {
            let rows = 6 * isize::from(dy) + isize::from(r) - isize::from(self.r);
            let shift = reach.offset(r, parity + i32::from(dy)) - reach.offset(self.r, parity);
            rows * 128 + isize::from(dx) + shift as isize
        };
        out.extend(self.steps[..self.first_row].iter().map(delta));
        out.push(self.steps.last().map_or(0, delta));
        let n = self.steps.len();
        out.push(if n >= 2 { delta(&self.steps[n - 2]) } else { 0 });
    }

    /// [`walk`] from the start of key `key`, bit `bit` of its row's masks, given the route's
    /// [`Route::row_walks`] for that row and its [`Route::key_steps`] `steps` for the unit and
    /// the row's parity: only the keys to avoid (`forbid`) are left to look at. Returns keys.
    #[inline]
    pub(super) fn walk_at(
        &self,
        walks: RowWalks,
        (bit, key): (u32, usize),
        forbid: &[usize],
        steps: &[isize],
    ) -> Walk<usize> {
        let at = |d: isize| key.wrapping_add_signed(d);
        let clear = |m: usize| steps[..m].iter().all(|&d| !forbid.contains(&at(d)));
        let (n, first) = (self.steps.len(), self.first_row);
        if walks.ends >> bit & 1 == 1 {
            if clear(first) { Walk::Ends(at(steps[first])) } else { Walk::Fails }
        } else if walks.locks >> bit & 1 == 1 && clear(first.min(n - 1)) {
            Walk::Locks(at(steps[first + 1]))
        } else {
            Walk::Fails
        }
    }
}

/// Walks `commands` from `from`; positions of the first row must avoid `forbid`.
pub(super) fn walk(
    reach: &Reach,
    unit: &Unit,
    from: Pos,
    commands: &[Command],
    last_row: i32,
    forbid: &[Pos],
    seen: &mut Vec<Pos>,
) -> Walk {
    // Positions of rows left behind can never come back, so only the current row's are kept.
    seen.clear();
    seen.push(from);
    let mut first_row = true;
    let mut cur = from;
    for (j, &cmd) in commands.iter().enumerate() {
        let next = unit.step(cur, cmd);
        if !reach.is_valid(next) {
            return if j + 1 == commands.len() { Walk::Locks(cur) } else { Walk::Fails };
        }
        if cmd.is_down() {
            if next.y as i32 > last_row {
                return Walk::Fails;
            }
            first_row = false;
            seen.clear();
        } else if seen.contains(&next) || (first_row && forbid.contains(&next)) {
            return Walk::Fails;
        }
        seen.push(next);
        cur = next;
    }
    Walk::Ends(cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use crate::engine::{Board, Rules};
    use crate::phrase::Phrases;
    use tessera_core::rng::Rng64;

    /// A route walks where the commands walk, from every reachable position of every unit of
    /// a few problems on boards with random filled cells, whatever must be avoided.
    #[test]
    fn routes_walk_where_the_commands_walk() {
        let phrases = Phrases::official();
        let commands: Vec<Vec<Command>> = (0..phrases.len()).map(|i| phrases.commands(i)).collect();
        let mut rng = Rng64::seed(5);
        let mut seen = Vec::new();
        for n in [3, 11, 14, 18] {
            let p = builtin::problem(n).unwrap();
            let rules = Rules::new(&p).unwrap();
            let mut board = Board::of(&p);
            for y in p.height / 2..p.height {
                board.fill(y, rng.next_u64() as u128 & rng.next_u64() as u128 & board.full());
            }
            for unit in &rules.units {
                let routes: Vec<Route> = commands
                    .iter()
                    .flat_map(|c| (0..TURNS).map(|t| Route::new(c, unit.period, (t / 2) as u8, (t % 2) as i32)))
                    .collect();
                let reach = Reach::new(&rules, &board, unit);
                let last_row = (p.height / 2 + 2) as i32;
                for key in (0..reach.keys()).filter(|&k| reach.is_reachable(reach.pos_of(k))) {
                    let q = reach.pos_of(key);
                    let forbid = [unit.step(q, Command::E), unit.step(q, Command::CW)];
                    let forbid_keys: Vec<usize> = forbid.iter().filter_map(|&p| reach.key(p)).collect();
                    for (i, c) in commands.iter().enumerate() {
                        let turn = 2 * q.r as usize + (q.y & 1) as usize;
                        let route = &routes[TURNS * i + turn];
                        let by_steps = walk(&reach, unit, q, c, last_row, &forbid, &mut seen);
                        let (y, bit) = (i32::from(q.y), reach.bit(q).expect("a reachable position has a bit"));
                        let walks = route.row_walks(&reach, y, last_row);
                        let mut steps = Vec::new();
                        route.key_steps(&reach, y & 1, &mut steps);
                        let by_keys = match route.walk_at(walks, (bit, key), &forbid_keys, &steps) {
                            Walk::Ends(k) => Walk::Ends(reach.pos_of(k)),
                            Walk::Locks(k) => Walk::Locks(reach.pos_of(k)),
                            Walk::Fails => Walk::Fails,
                        };
                        assert_eq!(by_keys, by_steps, "problem {n}, {q:?}, {}", phrases.name(i));
                        if let Walk::Locks(at) = by_steps {
                            assert_eq!(route.lock_start(y, at), Some(q), "problem {n}, {q:?}, {}", phrases.name(i));
                        }
                    }
                }
            }
        }
    }
}
