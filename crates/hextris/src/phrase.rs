//! Phrases of power: the official eighteen, how their occurrences are counted and scored.
//!
//! A phrase that occurs `n > 0` times in a solution is worth `2 len n + 300`. Occurrences are
//! counted in the raw text, lower-cased: overlapping ones all count, a phrase inside another
//! counts too, and an ignored character (`\n`, `\t`, `\r`) inside a phrase breaks it.

use crate::command::Command;

/// The eighteen phrases of power of the contest, verbatim.
pub const OFFICIAL: [&str; 18] = [
    "Ei!",
    "Ia! Ia!",
    "R'lyeh",
    "Yuggoth",
    "Tsathoggua",
    "YogSothoth",
    "Necronomicon",
    "vigintillion",
    "Cthulhu fhtagn!",
    "Ph'nglui mglw'nafh Cthulhu R'lyeh wgah'nagl fhtagn.",
    "In his house at R'lyeh dead Cthulhu waits dreaming.",
    "The Laundry",
    "Planet 10",
    "Yoyodyne",
    "monkeyboy",
    "John Bigboote",
    "BLUE HADES",
    "CASE NIGHTMARE GREEN",
];

/// The points for a phrase of `len` characters occurring `reps` times.
#[must_use]
pub const fn power_score(len: usize, reps: usize) -> u64 {
    if reps == 0 { 0 } else { 2 * (len * reps) as u64 + 300 }
}

/// One occurrence of a phrase in a text: the phrase's index and the bytes `start..end` it spans.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Occurrence {
    /// Where it starts.
    pub start: usize,
    /// Where it ends (exclusive).
    pub end: usize,
    /// Which phrase.
    pub phrase: usize,
}

/// A set of phrases of power: the official ones ([`Phrases::official`]) or any others
/// ([`Phrases::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrases {
    /// The phrases as written (for reports).
    names: Vec<String>,
    /// The same, lower-cased (for matching).
    lower: Vec<Vec<u8>>,
}

/// The longest phrase accepted, in characters (the official ones have at most 51).
pub const MAX_LEN: usize = 1000;

/// The most phrases a set may hold (the contest had eighteen).
pub const MAX_PHRASES: usize = 1000;

/// Why a phrase cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhraseError {
    /// Empty phrase.
    #[error("an empty phrase of power")]
    Empty,
    /// A phrase longer than [`MAX_LEN`].
    #[error("a phrase of {len} characters (at most {MAX_LEN})")]
    TooLong {
        /// Its length in characters.
        len: usize,
    },
    /// More than [`MAX_PHRASES`] phrases.
    #[error("{count} phrases (at most {MAX_PHRASES})")]
    TooMany {
        /// How many were given.
        count: usize,
    },
    /// A character that spells no command.
    #[error("phrase {phrase:?}: {ch:?} spells no command")]
    BadChar {
        /// The phrase.
        phrase: String,
        /// The character.
        ch: char,
    },
}

impl Phrases {
    /// The official eighteen.
    #[must_use]
    pub fn official() -> Phrases {
        Phrases::new(OFFICIAL.iter().map(|s| s.to_string())).expect("the official phrases are valid")
    }

    /// No phrases at all: games score their moves alone.
    #[must_use]
    pub fn none() -> Phrases {
        Phrases { names: Vec::new(), lower: Vec::new() }
    }

    /// Phrases given by the user; each must be spelled with command characters only, at most
    /// [`MAX_LEN`] of them, and at most [`MAX_PHRASES`] phrases (duplicates, ignoring case, are
    /// kept once).
    pub fn new(names: impl IntoIterator<Item = String>) -> Result<Phrases, PhraseError> {
        let mut p = Phrases::none();
        let mut count = 0;
        for name in names {
            count += 1;
            if name.is_empty() {
                return Err(PhraseError::Empty);
            }
            let len = name.chars().count();
            if len > MAX_LEN {
                return Err(PhraseError::TooLong { len });
            }
            if let Some(ch) = name.chars().find(|&c| Command::from_char(c).is_none()) {
                return Err(PhraseError::BadChar { phrase: name, ch });
            }
            let lower = name.to_ascii_lowercase().into_bytes();
            if !p.lower.contains(&lower) {
                p.names.push(name);
                p.lower.push(lower);
            }
        }
        if count > MAX_PHRASES {
            return Err(PhraseError::TooMany { count });
        }
        Ok(p)
    }

    /// Whether these are the official eighteen (in any order, any case).
    #[must_use]
    pub fn is_official(&self) -> bool {
        let official = Phrases::official();
        self.len() == official.len() && official.lower.iter().all(|p| self.lower.contains(p))
    }

    /// The phrases as written.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The phrases that bring a unit back to a position it held (see [`revisits`]), by index:
    /// no unit can spell one within its fall, only across a lock.
    #[must_use]
    pub fn revisiting(&self) -> Vec<usize> {
        (0..self.len()).filter(|&i| revisits(&self.commands(i))).collect()
    }

    /// The same set without the phrases that bring a unit back to a position it held (what the
    /// solver looks for: see [`Phrases::revisiting`]).
    #[must_use]
    pub fn without_revisiting(&self) -> Phrases {
        let back = self.revisiting();
        let keep = |i: &usize| !back.contains(i);
        Phrases {
            names: (0..self.len()).filter(keep).map(|i| self.names[i].clone()).collect(),
            lower: (0..self.len()).filter(keep).map(|i| self.lower[i].clone()).collect(),
        }
    }

    /// How many phrases.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The `i`-th phrase as written.
    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// The `i`-th phrase lower-cased (every character is an ASCII command character).
    pub fn text(&self, i: usize) -> &[u8] {
        &self.lower[i]
    }

    /// The commands the `i`-th phrase spells.
    pub fn commands(&self, i: usize) -> Vec<Command> {
        self.lower[i].iter().map(|&b| Command::from_char(b as char).expect("checked on creation")).collect()
    }

    /// How often each phrase occurs in `text` (overlaps included, case ignored).
    #[must_use]
    pub fn counts(&self, text: &str) -> Vec<usize> {
        let lower = text.to_ascii_lowercase();
        (0..self.len()).map(|i| self.starts(i, lower.as_bytes()).count()).collect()
    }

    /// Every occurrence of every phrase in `text`, ordered by where they start (then end):
    /// case ignored, overlapping and nested occurrences all counted, as the contest counted
    /// them.
    #[must_use]
    pub fn occurrences(&self, text: &str) -> Vec<Occurrence> {
        let lower = text.to_ascii_lowercase();
        let mut found: Vec<Occurrence> = (0..self.len())
            .flat_map(|phrase| {
                let len = self.lower[phrase].len();
                self.starts(phrase, lower.as_bytes()).map(move |start| Occurrence { start, end: start + len, phrase })
            })
            .collect();
        found.sort_unstable();
        found
    }

    /// Where phrase `i` starts in `hay` (lower-cased).
    fn starts<'a>(&'a self, i: usize, hay: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
        let p = self.lower[i].as_slice();
        hay.windows(p.len()).enumerate().filter(move |(_, w)| *w == p).map(|(at, _)| at)
    }

    /// The power score of `text`: the sum of [`power_score`] over the phrases.
    #[must_use]
    pub fn score(&self, text: &str) -> u64 {
        self.counts(text).iter().zip(&self.lower).map(|(&n, p)| power_score(p.len(), n)).sum()
    }
}

/// Whether `commands` bring every unit back to a position it held, whatever its shape: some
/// stretch of them without a move down (moves down never return) moves as far east as west and
/// turns a whole number of times round. A unit may never revisit a position, so no unit can
/// spell such a phrase within its fall; a game still can, across a lock: a command of the
/// stretch before the return locks the unit (a move into a wall or a filled cell), and the next
/// unit spells the rest. (A stretch that only turns half way round, say, can still be spelled
/// by a unit without that symmetry.)
#[must_use]
pub fn revisits(commands: &[Command]) -> bool {
    let mut seen = std::collections::HashSet::new();
    let (mut x, mut turn) = (0i64, 0i64);
    seen.insert((x, turn));
    for &c in commands {
        match c {
            Command::SW | Command::SE => {
                // A new row: no later position can equal an earlier one.
                seen.clear();
                (x, turn) = (0, 0);
            }
            Command::E => x += 1,
            Command::W => x -= 1,
            Command::CW => turn = (turn + 1) % 6,
            Command::CCW => turn = (turn + 5) % 6,
        }
        if !seen.insert((x, turn)) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_overlap_nest_and_ignore_case() {
        let p = Phrases::official();
        assert_eq!(p.score("ei!"), 306);
        assert_eq!(p.score("ia! ia! ia!"), 328);
        assert_eq!(p.score("IA! IA!"), 314);
        assert_eq!(p.score("ia! i\na!"), 0);
        assert_eq!(p.score("Ph'nglui mglw'nafh Cthulhu R'lyeh wgah'nagl fhtagn."), 714);
        let found: Vec<(usize, usize)> = p.occurrences("IA! Ia! ia!xEI!").iter().map(|o| (o.start, o.end)).collect();
        assert_eq!(found, [(0, 7), (4, 11), (12, 15)]);
        assert!(p.occurrences("ia! i\na!").is_empty(), "an ignored character breaks a phrase");
    }

    #[test]
    fn phrases_must_spell_commands() {
        assert!(Phrases::new(["ei!".to_string()]).is_ok());
        assert_eq!(Phrases::new([String::new()]), Err(PhraseError::Empty));
        assert!(matches!(Phrases::new(["ei#".to_string()]), Err(PhraseError::BadChar { ch: '#', .. })));
        let twice = Phrases::new(["Ei!".to_string(), "EI!".to_string()]).unwrap();
        assert_eq!(twice.len(), 1);
    }

    #[test]
    fn phrases_too_long_or_too_many_are_refused() {
        assert!(Phrases::new(["a".repeat(MAX_LEN)]).is_ok());
        assert_eq!(Phrases::new(["a".repeat(MAX_LEN + 1)]), Err(PhraseError::TooLong { len: MAX_LEN + 1 }));
        let many = (0..=MAX_PHRASES).map(|i| format!("{i:b}").replace('0', "p").replace('1', "b"));
        assert_eq!(Phrases::new(many), Err(PhraseError::TooMany { count: MAX_PHRASES + 1 }));
        assert!(Phrases::new(["é".to_string()]).is_err());
        assert!(Phrases::none().is_empty());
    }

    #[test]
    fn phrases_that_bring_a_unit_back_are_found() {
        let p = |s: &str| Phrases::new([s.to_string()]).unwrap();
        // East then west; six turns the same way; a turn and its undoing; a square dance.
        for back in ["bp", "dddddd", "dk", "a bpb", "bdpk"] {
            assert_eq!(p(back).revisiting(), [0], "{back:?} revisits");
        }
        // Five turns; a turn half way round; east, down, west; every official phrase.
        for not in ["ddddd", "ddd", "bap", "ei!"] {
            assert!(p(not).revisiting().is_empty(), "{not:?} does not revisit");
        }
        assert!(Phrases::official().revisiting().is_empty());
        let mixed = Phrases::new(["ei!".to_string(), "bp".to_string()]).unwrap();
        assert_eq!(mixed.revisiting(), [1]);
        assert_eq!(mixed.without_revisiting().names(), ["ei!"]);
        assert!(Phrases::official().is_official() && !mixed.is_official());
    }

    #[test]
    fn the_official_phrases_spell_the_listed_commands() {
        use Command::*;
        let p = Phrases::official();
        assert_eq!(p.commands(0), [E, SW, W]);
        assert_eq!(p.commands(2), [CW, W, SE, E, E, SW]);
        assert_eq!(p.commands(13), [E, SE, E, SE, CW, E, SE, E]);
        assert_eq!(p.commands(17).len(), 20);
    }
}
