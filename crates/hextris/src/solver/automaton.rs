//! The phrases' automaton: Aho–Corasick over the letters that spell commands, one for the
//! searches that follow the phrases letter by letter (`exact`, over a whole game, and
//! `unturned`, over one unit that cannot turn).
//!
//! A state is the longest start of a phrase that the text so far ends with; states are
//! numbered as the phrases' trie meets them (the phrases in order, each letter by letter), the
//! empty start first. Only the solver uses it: the judge counts phrases on its own.

use std::collections::VecDeque;

use crate::command::Command;

/// The letters: every character that spells a command (lower case), numbered by command in
/// [`Command::ALL`]'s order, then as [`Command::chars`] lists them.
pub(crate) const LETTERS: usize = 36;

/// Most phrases an automaton follows (their set of ends is a word).
pub(crate) const MAX_PHRASES: usize = 32;

/// Marks a byte that is no letter in [`letter_of`].
const NO_LETTER: u8 = u8::MAX;

/// Each byte's letter ([`NO_LETTER`] for a byte that spells no command).
pub(crate) fn letter_of() -> [u8; 256] {
    let mut of = [NO_LETTER; 256];
    let mut next = 0;
    for cmd in Command::ALL {
        for b in cmd.chars().bytes() {
            of[usize::from(b)] = next;
            next += 1;
        }
    }
    of
}

/// The automaton of some phrases.
#[derive(Clone, Debug)]
pub(crate) struct Automaton {
    /// `next[s * LETTERS + letter]`: the state after spelling `letter` in state `s`.
    pub(crate) next: Vec<u16>,
    /// Per state: the phrases that end there (bit `i`: phrase `i`), those that are suffixes of
    /// others included.
    pub(crate) ends: Vec<u32>,
    /// Per state: its text, in letters.
    pub(crate) texts: Vec<Vec<u8>>,
    /// Each byte's letter (see [`letter_of`]).
    letter_of: [u8; 256],
}

impl Automaton {
    /// The automaton of `phrases` (at most [`MAX_PHRASES`], lower-cased, each byte spelling a
    /// command).
    pub(crate) fn new(phrases: &[&[u8]]) -> Automaton {
        const NONE: u16 = u16::MAX;
        debug_assert!(phrases.len() <= MAX_PHRASES);
        let letter_of = letter_of();
        // The trie of the phrases.
        let mut goto: Vec<[u16; LETTERS]> = vec![[NONE; LETTERS]];
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        let mut ends: Vec<u32> = vec![0];
        for (i, p) in phrases.iter().enumerate() {
            let mut s = 0;
            for &b in *p {
                let l = usize::from(letter_of[usize::from(b)]);
                debug_assert!(l < LETTERS, "{b:?} spells no command");
                if goto[s][l] == NONE {
                    goto[s][l] = goto.len() as u16;
                    goto.push([NONE; LETTERS]);
                    let mut t = texts[s].clone();
                    t.push(l as u8);
                    texts.push(t);
                    ends.push(0);
                }
                s = usize::from(goto[s][l]);
            }
            ends[s] |= 1 << i;
        }
        // Breadth first: each state's moves from its failure state's, which is nearer the root
        // and so already complete.
        let mut next = vec![0u16; goto.len() * LETTERS];
        let mut fail = vec![0usize; goto.len()];
        let mut queue = VecDeque::new();
        for l in 0..LETTERS {
            if goto[0][l] != NONE {
                next[l] = goto[0][l];
                queue.push_back(usize::from(goto[0][l]));
            }
        }
        while let Some(s) = queue.pop_front() {
            ends[s] |= ends[fail[s]];
            for l in 0..LETTERS {
                let via_fail = next[fail[s] * LETTERS + l];
                if goto[s][l] == NONE {
                    next[s * LETTERS + l] = via_fail;
                } else {
                    let t = usize::from(goto[s][l]);
                    fail[t] = usize::from(via_fail);
                    next[s * LETTERS + l] = goto[s][l];
                    queue.push_back(t);
                }
            }
        }
        Automaton { next, ends, texts, letter_of }
    }

    /// How many states it has.
    pub(crate) fn states(&self) -> usize {
        self.ends.len()
    }

    /// The state after spelling `byte` (lower case) in state `s`; a byte that spells no
    /// command is in no phrase, and leads back to the start.
    pub(crate) fn step(&self, s: usize, byte: u8) -> usize {
        match self.letter_of[usize::from(byte)] {
            NO_LETTER => 0,
            l => usize::from(self.next[s * LETTERS + usize::from(l)]),
        }
    }

    /// The phrases that end in state `s`, by index.
    pub(crate) fn ends_at(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        let mut mask = self.ends[s];
        std::iter::from_fn(move || {
            let i = (mask != 0).then(|| mask.trailing_zeros() as usize)?;
            mask &= mask - 1;
            Some(i)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every phrase's occurrences ending at each position, counted by brute force.
    fn ends_by_hand(phrases: &[&[u8]], text: &[u8], at: usize) -> u32 {
        let done = &text[..=at];
        phrases.iter().enumerate().filter(|(_, p)| done.ends_with(p)).fold(0, |m, (i, _)| m | 1 << i)
    }

    #[test]
    fn it_finds_every_occurrence_overlapping_and_nested() {
        let phrases: [&[u8]; 4] = [b"ia! ia!", b"ei!", b"a!", b"ddddd"];
        let auto = Automaton::new(&phrases);
        for text in [b"ia! ia! ia!ei!".as_slice(), b"dddddddd", b"eia!ia! ia! ia", b"pppp"] {
            let mut s = 0;
            for at in 0..text.len() {
                s = auto.step(s, text[at]);
                assert_eq!(auto.ends[s], ends_by_hand(&phrases, text, at), "{:?} at {at}", text);
                // The state's text is the longest phrase start the text ends with.
                let spelled: Vec<u8> = text[..=at].iter().map(|&b| auto.letter_of[usize::from(b)]).collect();
                assert!(spelled.ends_with(&auto.texts[s]));
            }
        }
        // States follow the trie's order: the first phrase's starts first.
        assert_eq!(auto.texts[1].len(), 1);
        assert_eq!(auto.texts[7].len(), 7);
        assert_eq!(auto.step(0, b'\n'), 0);
    }
}
