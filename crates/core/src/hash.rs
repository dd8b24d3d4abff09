//! A fast hasher for maps whose keys are a few words (board hashes, positions, occupancies):
//! the standard library's keyed hash is built to resist chosen keys, which a search's own maps
//! never see, at several times the cost.
//!
//! ```
//! use std::collections::HashMap;
//!
//! use tessera_core::hash::Words;
//!
//! let mut seen: HashMap<u64, u32, Words> = HashMap::default();
//! seen.insert(0xdead_beef, 1);
//! assert_eq!(seen.get(&0xdead_beef), Some(&1));
//! ```

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: each word rotated in, then multiplied (FxHash's step). A slice of bytes comes in
/// words of eight (little-endian), the rest a byte at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct WordHasher(u64);

/// Builds [`WordHasher`]s, for `HashMap<K, V, Words>`.
pub type Words = BuildHasherDefault<WordHasher>;

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in words.by_ref() {
            self.write_u64(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        }
        for &b in words.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn write_i32(&mut self, v: i32) {
        self.write_u64(v as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(f: impl FnOnce(&mut WordHasher)) -> u64 {
        let mut h = WordHasher::default();
        f(&mut h);
        h.finish()
    }

    #[test]
    fn bytes_come_in_words() {
        let v = 0x0102_0304_0506_0708u64;
        assert_eq!(hash(|h| h.write(&v.to_le_bytes())), hash(|h| h.write_u64(v)));
        assert_eq!(hash(|h| h.write_usize(7)), hash(|h| h.write_u64(7)));
        assert_eq!(hash(|h| h.write(&[1, 2])), hash(|h| (h.write_u64(1), h.write_u64(2)).1));
        assert_ne!(hash(|h| h.write_u64(1)), hash(|h| h.write_u64(2)));
    }
}
