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

/// Why a phrase cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhraseError {
    /// Empty phrase.
    #[error("an empty phrase of power")]
    Empty,
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

    /// Phrases given by the user; each must be spelled with command characters only
    /// (duplicates, ignoring case, are kept once).
    pub fn new(names: impl IntoIterator<Item = String>) -> Result<Phrases, PhraseError> {
        let mut p = Phrases { names: Vec::new(), lower: Vec::new() };
        for name in names {
            if name.is_empty() {
                return Err(PhraseError::Empty);
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
        Ok(p)
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
    fn the_official_phrases_spell_the_listed_commands() {
        use Command::*;
        let p = Phrases::official();
        assert_eq!(p.commands(0), [E, SW, W]);
        assert_eq!(p.commands(2), [CW, W, SE, E, E, SW]);
        assert_eq!(p.commands(13), [E, SE, E, SE, CW, E, SE, E]);
        assert_eq!(p.commands(17).len(), 20);
    }
}
