//! Where a phrase's commands take a unit from a position, on the board a [`Reach`] knows.
//!
//! The speller tries every phrase from every position it reaches, so a phrase's moves are worked
//! out once ([`Route`]) for each unit period, start turn and row parity: a command moves a unit
//! the same way wherever it stands, but for the row parity (moves down) and the turn.

use crate::command::Command;
use crate::engine::{Pos, Reach, Unit};

/// Where a phrase's commands take a unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Walk {
    /// Every command moves it; it ends here.
    Ends(Pos),
    /// Every command but the last moves it; the last locks it here.
    Locks(Pos),
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
        Route { steps, repeats }
    }

    /// [`walk`] along the route from `from` (whose turn and row parity it was made for).
    #[inline]
    pub(super) fn walk(&self, reach: &Reach, from: Pos, last_row: i32, forbid: &[Pos]) -> Walk {
        if self.repeats {
            return Walk::Fails;
        }
        let mut cur = from;
        for (j, &(dx, dy, r)) in self.steps.iter().enumerate() {
            let next = Pos { x: from.x + dx, y: from.y + dy, r };
            if !reach.is_valid(next) {
                return if j + 1 == self.steps.len() { Walk::Locks(cur) } else { Walk::Fails };
            }
            // Rows only go down: a position of the first row is one with no move down yet.
            if (dy > 0 && next.y as i32 > last_row) || (dy == 0 && forbid.contains(&next)) {
                return Walk::Fails;
            }
            cur = next;
        }
        Walk::Ends(cur)
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
                    for (i, c) in commands.iter().enumerate() {
                        let turn = 2 * q.r as usize + (q.y & 1) as usize;
                        assert_eq!(
                            routes[TURNS * i + turn].walk(&reach, q, last_row, &forbid),
                            walk(&reach, unit, q, c, last_row, &forbid, &mut seen),
                            "problem {n}, {q:?}, {}",
                            phrases.name(i)
                        );
                    }
                }
            }
        }
    }
}
