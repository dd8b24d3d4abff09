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
//! A [`Bridge`] is checked on the next unit's side before it is offered to the speller: the
//! suffix must be legal moves from the next unit's spawn (on the board after the lock), and the
//! next unit's planned lock position must stay reachable from where the suffix leaves it.

use std::collections::{HashMap, VecDeque};

use crate::command::Command;
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
    /// Where the next unit starts its own way down.
    pub carry: Carry,
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
}

impl Carry {
    /// A unit at its spawn.
    pub fn spawn(unit: &Unit) -> Carry {
        Carry { text: Vec::new(), at: unit.spawn, row: vec![unit.spawn] }
    }
}

/// The bridges that fit between the unit locking on `board` (no check on its side: the speller
/// looks for a way to spell the head into the lock) and `next`, which must then lock at
/// `next_target` on `next_board`. Only phrases not yet `used` are offered; for each, the
/// [`SPLITS`] splits with the shortest heads (the next unit does the most).
pub fn bridges(
    rules: &Rules,
    phrases: &Phrases,
    used: &[bool],
    next_board: &Board,
    next: &Unit,
    next_target: Pos,
) -> Vec<Bridge> {
    if used.iter().all(|&u| u) || !rules.fits(next_board, next, next.spawn) {
        return Vec::new();
    }
    let reach = Reach::new(rules, next_board, next);
    let mut out = Vec::new();
    for (phrase, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
        let commands = phrases.commands(phrase);
        let text = phrases.text(phrase);
        // Split before command `i + 1`: the head is commands 0..=i, `i` locking.
        let mut found = 0;
        for i in 0..commands.len().saturating_sub(1) {
            let Some(carry) = suffix(&reach, next, &commands[i + 1..], &text[i + 1..], next_target) else {
                continue;
            };
            out.push(Bridge { phrase, head: commands[..=i].to_vec(), head_text: text[..=i].to_vec(), carry });
            found += 1;
            if found == SPLITS {
                break;
            }
        }
    }
    out
}

/// Walks `commands` from the spawn; the carry if every one is a legal new move and `target` can
/// still be reached afterwards.
fn suffix(reach: &Reach, unit: &Unit, commands: &[Command], text: &[u8], target: Pos) -> Option<Carry> {
    let mut carry = Carry::spawn(unit);
    for &cmd in commands {
        let next = unit.step(carry.at, cmd);
        if !reach.is_valid(next) || next.y > target.y || (!cmd.is_down() && carry.row.contains(&next)) {
            return None;
        }
        if cmd.is_down() {
            carry.row.clear();
        }
        carry.row.push(next);
        carry.at = next;
    }
    free_path(reach, unit, carry.at, &carry.row, target)?;
    carry.text = text.to_vec();
    Some(carry)
}

/// A shortest way from `from` to `target` that never enters `row` (positions of `from`'s row
/// visited already); legal by construction, since a shortest path repeats no position.
pub fn free_path(reach: &Reach, unit: &Unit, from: Pos, row: &[Pos], target: Pos) -> Option<Vec<Command>> {
    let mut parent: HashMap<Pos, (Pos, Command)> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        if p == target {
            let mut path = Vec::new();
            let mut q = target;
            while q != from {
                let (prev, cmd) = parent[&q];
                path.push(cmd);
                q = prev;
            }
            path.reverse();
            return Some(path);
        }
        for cmd in Command::ALL {
            let q = unit.step(p, cmd);
            if q == from || q.y > target.y || !reach.is_valid(q) || parent.contains_key(&q) {
                continue;
            }
            if q.y == from.y && row.contains(&q) {
                continue;
            }
            parent.insert(q, (p, cmd));
            queue.push_back(q);
        }
    }
    None
}
