//! The six commands, the characters that spell them, and how they move a cell.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::problem::Cell;

/// A command: four moves and two turns about the pivot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Command {
    /// Move west (left).
    W,
    /// Move east (right).
    E,
    /// Move south-west (down, left).
    SW,
    /// Move south-east (down, right).
    SE,
    /// Turn 60 degrees clockwise.
    CW,
    /// Turn 60 degrees counter-clockwise.
    CCW,
}

impl Command {
    /// Every command, in this order (also the order of [`Command::index`]).
    pub const ALL: [Command; 6] = [Command::W, Command::E, Command::SW, Command::SE, Command::CW, Command::CCW];

    /// The characters that spell each command (lower case), as the contest defined them.
    const CHARS: [&'static str; 6] = ["p'!.03", "bcefy2", "aghij4", "lmno 5", "dqrvz1", "kstuwx"];

    /// The command's position in [`Command::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The command a character spells (case-insensitive), or `None` for any other character,
    /// the ignored ones included.
    pub fn from_char(c: char) -> Option<Command> {
        let c = c.to_ascii_lowercase();
        Command::ALL.into_iter().find(|cmd| Command::CHARS[cmd.index()].contains(c))
    }

    /// Every character that spells this command (lower case).
    pub fn chars(self) -> &'static str {
        Command::CHARS[self.index()]
    }

    /// The character tessera writes for this command when no phrase asks for another.
    pub fn letter(self) -> char {
        ['p', 'b', 'a', 'l', 'd', 'k'][self.index()]
    }

    /// Whether this command moves down a row.
    pub const fn is_down(self) -> bool {
        matches!(self, Command::SW | Command::SE)
    }

    /// Whether this is a turn.
    pub const fn is_turn(self) -> bool {
        matches!(self, Command::CW | Command::CCW)
    }

    /// The command that undoes this one (moves within a row and turns only).
    pub const fn inverse(self) -> Option<Command> {
        match self {
            Command::W => Some(Command::E),
            Command::E => Some(Command::W),
            Command::CW => Some(Command::CCW),
            Command::CCW => Some(Command::CW),
            Command::SW | Command::SE => None,
        }
    }

    /// The cell one step away in this direction (turns leave a cell where it is).
    pub const fn step(self, c: Cell) -> Cell {
        let odd = c.y & 1;
        match self {
            Command::W => Cell::new(c.x - 1, c.y),
            Command::E => Cell::new(c.x + 1, c.y),
            Command::SW => Cell::new(c.x - 1 + odd, c.y + 1),
            Command::SE => Cell::new(c.x + odd, c.y + 1),
            Command::CW | Command::CCW => c,
        }
    }

    /// The name the organisers' evaluator uses in its messages.
    pub(crate) const fn evaluator_name(self) -> &'static str {
        match self {
            Command::W => "MoveLeft",
            Command::E => "MoveRight",
            Command::SW => "MoveDownLeft",
            Command::SE => "MoveDownRight",
            Command::CW => "RotClock",
            Command::CCW => "RotCounterClock",
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Command::W => "W",
            Command::E => "E",
            Command::SW => "SW",
            Command::SE => "SE",
            Command::CW => "CW",
            Command::CCW => "CCW",
        })
    }
}

/// Whether the contest ignores this character when playing (it still counts for phrases).
pub const fn is_ignored(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r')
}

/// Cube coordinates `(x, y, z)` of a cell, `x + y + z = 0`.
pub(crate) const fn cube(c: Cell) -> (i32, i32, i32) {
    let x = c.x - (c.y - (c.y & 1)) / 2;
    (x, -x - c.y, c.y)
}

/// The cell of cube coordinates `(x, _, z)`.
pub(crate) const fn from_cube(x: i32, z: i32) -> Cell {
    Cell::new(x + (z - (z & 1)) / 2, z)
}

/// `cell` turned 60 degrees about `pivot`, clockwise or not.
pub(crate) const fn turn(cell: Cell, pivot: Cell, clockwise: bool) -> Cell {
    let (cx, cy, cz) = cube(cell);
    let (px, py, pz) = cube(pivot);
    let (dx, dy, dz) = (cx - px, cy - py, cz - pz);
    let (rx, rz) = if clockwise { (-dz, -dy) } else { (-dy, -dx) };
    from_cube(px + rx, pz + rz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_character_is_one_command() {
        let mut seen = std::collections::HashSet::new();
        for cmd in Command::ALL {
            for ch in cmd.chars().chars() {
                assert!(seen.insert(ch), "{ch:?} spells two commands");
                assert_eq!(Command::from_char(ch), Some(cmd));
                assert_eq!(Command::from_char(ch.to_ascii_uppercase()), Some(cmd));
            }
            assert_eq!(Command::from_char(cmd.letter()), Some(cmd));
        }
        assert_eq!(seen.len(), 36);
        for ch in ['\n', '\t', '\r', '#', '7', '~', '6', '@'] {
            assert_eq!(Command::from_char(ch), None, "{ch:?}");
        }
    }

    #[test]
    fn six_turns_come_back_and_turns_are_inverse() {
        let pivot = Cell::new(3, 5);
        for cell in [Cell::new(0, 0), Cell::new(4, 5), Cell::new(2, 8), Cell::new(7, 3), Cell::new(-2, -3)] {
            let mut c = cell;
            for _ in 0..6 {
                let next = turn(c, pivot, true);
                assert_eq!(turn(next, pivot, false), c);
                c = next;
            }
            assert_eq!(c, cell);
            assert_eq!(from_cube(cube(cell).0, cube(cell).2), cell);
        }
    }

    #[test]
    fn a_clockwise_turn_takes_east_to_south_east() {
        // The neighbour east of the pivot goes to the south-east one, for both parities.
        for pivot in [Cell::new(4, 4), Cell::new(4, 5)] {
            assert_eq!(turn(Command::E.step(pivot), pivot, true), Command::SE.step(pivot));
            assert_eq!(turn(Command::SE.step(pivot), pivot, true), Command::SW.step(pivot));
            let north_east = Cell::new(pivot.x + (pivot.y & 1), pivot.y - 1);
            assert_eq!(turn(Command::E.step(pivot), pivot, false), north_east);
        }
    }
}
