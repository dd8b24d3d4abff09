//! Phrases that cross a lock: the first part spelled by one unit, whose last command of that
//! part locks it, the rest by the next unit from its spawn.
//!
//! ```text
//!   unit k:   ... c0 c1 c2 [c3 locks]      unit k+1:  c4 c5 c6 ...  (then its own way down)
//!   text:     ... "yuggoth"  split after "yug"
//! ```
//!
//! On small boards a unit moves down a few rows only, and long phrases never fit in one unit's
//! way down; across a lock they do. The judge reads the solution as one text, so a phrase split
//! this way scores like any other, first-use bonus included.
//!
//! A phrase may cross two locks as well: the middle unit spells a stretch from its spawn that
//! ends exactly at its planned lock position with a command that locks it there, and the unit
//! after it spells the rest. That is how the 51-character phrases fit on boards 15 rows high.
//!
//! A [`Bridge`] is checked on the side of the units after the lock before it is offered to the
//! speller: the rest must be legal moves from their spawns (on the boards after the locks), and
//! (for the bridge the speller picks) the last unit's planned lock position must stay reachable
//! from where the phrase leaves it.

use crate::command::Command;
use crate::engine::bfs::shortest_walk;
use crate::engine::{Board, Pos, Reach, Rules, Unit};
use crate::phrase::Phrases;

/// Splits offered per phrase.
const SPLITS: usize = 12;

/// A phrase split across a lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bridge {
    /// The phrase.
    pub phrase: usize,
    /// The commands of the locking unit's part, the locking command last.
    pub head: Vec<Command>,
    /// The characters of that part.
    pub head_text: Vec<u8>,
    /// Where the next unit starts its own way down (or, if the carry is `locked`, its whole text).
    pub carry: Carry,
    /// For a phrase that crosses two locks: where the unit after the next starts.
    pub then: Option<Carry>,
}

/// A unit that does not start at its spawn: the text already spelled for it, where it stands and
/// the positions of its current row it has visited (it must not come back to them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carry {
    /// Characters already spelled for this unit.
    pub text: Vec<u8>,
    /// Where it stands.
    pub at: Pos,
    /// Positions of its current row visited, `at` included.
    pub row: Vec<Pos>,
    /// Whether the text ends with the command that locks it at `at`: the unit is done.
    pub locked: bool,
}

impl Carry {
    /// A unit at its spawn.
    pub fn spawn(unit: &Unit) -> Carry {
        Carry { text: Vec::new(), at: unit.spawn, row: vec![unit.spawn], locked: false }
    }
}

/// A unit to come: the board it will see, the unit, and where it is planned to lock.
#[derive(Clone, Copy, Debug)]
pub struct Next<'a> {
    /// The board when it spawns.
    pub board: &'a Board,
    /// The unit.
    pub unit: &'a Unit,
    /// Its planned lock position.
    pub target: Pos,
}

impl Bridge {
    /// Whether the unit that finishes the phrase can still reach its planned lock position
    /// afterwards: `next` is the unit after the lock, `after` the one after that.
    pub fn holds(&self, rules: &Rules, next: Next<'_>, after: Option<Next<'_>>) -> bool {
        let (carry, n) = match (&self.then, after) {
            (None, _) if self.carry.locked => return true,
            (None, _) => (&self.carry, next),
            (Some(then), Some(after)) => (then, after),
            (Some(_), None) => return false,
        };
        let reach = Reach::new(rules, n.board, n.unit);
        free_path(&reach, n.unit, carry.at, &carry.row, n.target).is_some()
    }
}

/// The bridges that fit between the unit locking now (no check on its side: the speller looks
/// for a way to spell the head into the lock) and `next`, and perhaps `after` (the unit after
/// it). Only phrases not yet `used` are offered; for each, the `SPLITS` splits with the
/// shortest heads (the next units do the most).
pub fn bridges(
    rules: &Rules,
    phrases: &Phrases,
    used: &[bool],
    next: Next<'_>,
    after: Option<Next<'_>>,
) -> Vec<Bridge> {
    if used.iter().all(|&u| u) || !rules.fits(next.board, next.unit, next.unit.spawn) {
        return Vec::new();
    }
    let reach = Reach::new(rules, next.board, next.unit);
    let reach_after =
        after.filter(|a| rules.fits(a.board, a.unit, a.unit.spawn)).map(|a| (Reach::new(rules, a.board, a.unit), a));
    let mut out = Vec::new();
    for (phrase, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
        let commands = phrases.commands(phrase);
        let text = phrases.text(phrase);
        // Split before command `i + 1`: the head is commands 0..=i, `i` locking.
        let mut found = 0;
        for i in 0..commands.len().saturating_sub(1) {
            let (carry, rest) = match walk(&reach, next.unit, &commands[i + 1..], &text[i + 1..], next.target) {
                Walked::All(carry) => (carry, None),
                // The middle unit locks where it is planned to: the unit after it goes on.
                Walked::Locked(carry, j) if j + 1 < commands.len() - i - 1 => (carry, Some(i + 1 + j + 1)),
                Walked::Locked(carry, _) => (carry, None),
                Walked::Fails => continue,
            };
            let then = match (rest, &reach_after) {
                (None, _) => None,
                (Some(r), Some((reach2, a))) => match walk(reach2, a.unit, &commands[r..], &text[r..], a.target) {
                    Walked::All(c) => Some(c),
                    _ => continue,
                },
                (Some(_), None) => continue,
            };
            out.push(Bridge { phrase, head: commands[..=i].to_vec(), head_text: text[..=i].to_vec(), carry, then });
            found += 1;
            if found == SPLITS {
                break;
            }
        }
    }
    out
}

/// What walking a stretch of a phrase from a unit's spawn gave.
enum Walked {
    /// Every command moved it.
    All(Carry),
    /// Command `j` locked it at its planned position (the carry is `locked`).
    Locked(Carry, usize),
    /// It locked elsewhere, repeated a position or went below the planned row.
    Fails,
}

/// Walks `commands` from the spawn, never below `target`'s row. (Whether `target` can still be
/// reached from where it ends is checked only for the bridge the speller picks: see
/// [`Bridge::holds`].)
fn walk(reach: &Reach, unit: &Unit, commands: &[Command], text: &[u8], target: Pos) -> Walked {
    let mut carry = Carry::spawn(unit);
    for (j, &cmd) in commands.iter().enumerate() {
        let next = unit.step(carry.at, cmd);
        if !reach.is_valid(next) {
            // A turn of a unit of period 1 is a repeat, never a lock (and is valid, so not here).
            if carry.at == target {
                carry.text = text[..=j].to_vec();
                carry.locked = true;
                return Walked::Locked(carry, j);
            }
            return Walked::Fails;
        }
        if next.y > target.y || (!cmd.is_down() && carry.row.contains(&next)) {
            return Walked::Fails;
        }
        if cmd.is_down() {
            carry.row.clear();
        }
        carry.row.push(next);
        carry.at = next;
    }
    carry.text = text.to_vec();
    Walked::All(carry)
}

/// A shortest way from `from` to `target` that never enters `row` (positions of `from`'s row
/// visited already); legal by construction, since a shortest path repeats no position.
pub fn free_path(reach: &Reach, unit: &Unit, from: Pos, row: &[Pos], target: Pos) -> Option<Vec<Command>> {
    let ok = |q: Pos| q.y <= target.y && reach.is_valid(q) && !(q.y == from.y && row.contains(&q));
    shortest_walk(unit, from, target, &Command::ALL, ok)
}
