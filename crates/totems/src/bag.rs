//! Bags of pieces: how many of each kind, read from letters or from the game's question.

use rand::{Rng, RngExt};
use serde::Deserialize;

use crate::shapes::{Kind, PieceSet};

/// Most pieces in a bag (16384 cells of tetrominoes: boxes up to 128 x 128).
pub const MAX_PIECES: u64 = 4096;

/// A bag: a count for every kind of a piece set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bag {
    /// The piece set.
    pub set: PieceSet,
    /// Copies of each kind, in the set's kind order.
    pub counts: Vec<u32>,
}

/// A bag that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BagError {
    /// A letter that names no kind of the set.
    #[error("{letter:?} at position {at} is not one of the {set} {letters}")]
    Letter {
        /// The letter.
        letter: char,
        /// 1-based position in the text.
        at: usize,
        /// The set.
        set: PieceSet,
        /// Its letters.
        letters: &'static str,
    },
    /// Malformed question JSON.
    #[error("not a question of the game: {0}")]
    Json(String),
    /// No piece at all.
    #[error("the bag is empty")]
    Empty,
    /// Too many pieces.
    #[error("{0} pieces: at most {MAX_PIECES} are supported")]
    TooMany(u64),
}

/// The game's question: `{"tick": N, "payload": {"totems": [{"shape": "I"}, ...]}}` (other fields
/// are ignored).
#[derive(Debug, Deserialize)]
pub struct Question {
    /// The tick to answer with.
    pub tick: i64,
    /// The bag.
    pub payload: Payload,
}

/// The question's payload.
#[derive(Debug, Deserialize)]
pub struct Payload {
    /// One entry per piece.
    pub totems: Vec<ShapeName>,
}

/// A piece of a question.
#[derive(Debug, Deserialize)]
pub struct ShapeName {
    /// Its letter.
    pub shape: String,
}

impl Bag {
    /// An empty bag of a set.
    pub fn empty(set: PieceSet) -> Bag {
        Bag { set, counts: vec![0; set.letters().len()] }
    }

    /// Reads letters (`IJLOSTZ...`, any case; spaces, commas and newlines ignored).
    pub fn from_letters(set: PieceSet, text: &str) -> Result<Bag, BagError> {
        let mut bag = Bag::empty(set);
        for (k, ch) in text.chars().enumerate() {
            if ch.is_whitespace() || ch == ',' {
                continue;
            }
            let i = set.index(ch).ok_or(BagError::Letter { letter: ch, at: k + 1, set, letters: set.letters() })?;
            bag.counts[i] += 1;
        }
        bag.checked()
    }

    /// Reads the game's question JSON; returns its tick too.
    pub fn from_question(set: PieceSet, json: &str) -> Result<(i64, Bag), BagError> {
        let q: Question = serde_json::from_str(json).map_err(|e| BagError::Json(e.to_string()))?;
        // The first shape at fault, cut short: a question may hold thousands.
        if let Some((k, t)) = q.payload.totems.iter().enumerate().find(|(_, t)| t.shape.chars().count() != 1) {
            let n = t.shape.chars().count();
            let shape = if n > 20 {
                format!("{:?}... ({n} characters)", t.shape.chars().take(20).collect::<String>())
            } else {
                format!("{:?}", t.shape)
            };
            return Err(BagError::Json(format!("shapes must be single letters, got {shape} (totem {})", k + 1)));
        }
        let letters: String = q.payload.totems.iter().map(|t| t.shape.as_str()).collect::<Vec<_>>().join(",");
        Ok((q.tick, Bag::from_letters(set, &letters)?))
    }

    /// Reads either form: JSON if the text starts with `{`, letters otherwise.
    pub fn parse(set: PieceSet, text: &str) -> Result<Bag, BagError> {
        if text.trim_start().starts_with('{') {
            Self::from_question(set, text).map(|q| q.1)
        } else {
            Self::from_letters(set, text)
        }
    }

    /// `n` pieces drawn uniformly from the set's kinds.
    pub fn random(set: PieceSet, n: u64, rng: &mut impl Rng) -> Bag {
        let mut bag = Bag::empty(set);
        let k = bag.counts.len();
        for _ in 0..n {
            bag.counts[rng.random_range(0..k)] += 1;
        }
        bag
    }

    fn checked(self) -> Result<Bag, BagError> {
        match self.len() {
            0 => Err(BagError::Empty),
            n if n > MAX_PIECES => Err(BagError::TooMany(n)),
            _ => Ok(self),
        }
    }

    /// Number of pieces.
    pub fn len(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }

    /// Whether the bag has no piece.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cells of all pieces.
    pub fn cells(&self) -> u64 {
        self.len() * self.set.piece_size() as u64
    }

    /// The set's kinds.
    pub fn kinds(&self) -> Vec<Kind> {
        self.set.kinds()
    }

    /// The bag as letters, kind by kind (`IIJOT...`).
    pub fn letters(&self) -> String {
        self.set.letters().chars().zip(&self.counts).flat_map(|(l, &c)| std::iter::repeat_n(l, c as usize)).collect()
    }

    /// Copies of the kind with this letter.
    pub(crate) fn count_of(&self, letter: char) -> u32 {
        self.set.index(letter).map_or(0, |i| self.counts[i])
    }
}

impl std::fmt::Display for Bag {
    /// Counts per kind, as `I3 J1 O4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .set
            .letters()
            .chars()
            .zip(&self.counts)
            .filter(|(_, c)| **c > 0)
            .map(|(l, c)| format!("{l}{c}"))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use tessera_core::rng::Rng64;

    #[test]
    fn letters_and_questions() {
        let b = Bag::from_letters(PieceSet::Tetrominoes, "iiT, z\nO").unwrap();
        assert_eq!(b.counts, vec![2, 0, 0, 1, 0, 1, 1]);
        assert_eq!((b.len(), b.cells(), b.letters().as_str()), (5, 20, "IIOTZ"));
        assert_eq!(b.to_string(), "I2 O1 T1 Z1");
        let q = r#"{"tick": 3, "payload": {"totems": [{"shape": "L"}, {"shape": "L", "extra": 1}]}, "x": []}"#;
        let (tick, b) = Bag::from_question(PieceSet::Tetrominoes, q).unwrap();
        assert_eq!((tick, b.count_of('L')), (3, 2));
        assert_eq!(Bag::parse(PieceSet::Tetrominoes, q).unwrap(), b);
    }

    #[test]
    fn bad_bags_say_why() {
        let e = Bag::from_letters(PieceSet::Tetrominoes, "IIQ").unwrap_err();
        assert_eq!(e.to_string(), "'Q' at position 3 is not one of the tetrominoes IJLOSTZ");
        assert_eq!(Bag::from_letters(PieceSet::Tetrominoes, " , "), Err(BagError::Empty));
        assert!(matches!(Bag::from_letters(PieceSet::Tetrominoes, &"I".repeat(5000)), Err(BagError::TooMany(5000))));
        assert!(matches!(Bag::from_question(PieceSet::Tetrominoes, "{\"tick\":1}"), Err(BagError::Json(_))));
        let two = r#"{"tick":1,"payload":{"totems":[{"shape":"IO"}]}}"#;
        assert!(matches!(Bag::from_question(PieceSet::Tetrominoes, two), Err(BagError::Json(_))));
    }

    #[test]
    fn random_bags_have_the_size_asked() {
        let b = Bag::random(PieceSet::Tetrominoes, 64, &mut Rng64::seed(1));
        assert_eq!(b.len(), 64);
        assert!(b.counts.iter().all(|&c| c > 0), "{b}");
    }

    proptest! {
        /// Any text: a bag or a clear error, never a panic.
        #[test]
        fn parsing_never_panics(text in "\\PC{0,40}") {
            let _ = Bag::parse(PieceSet::Tetrominoes, &text);
        }
    }
}
