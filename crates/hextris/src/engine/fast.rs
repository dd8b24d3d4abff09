//! A fast hasher for keys made of a few integers (positions, board hashes): the standard
//! library's keyed hash is built to resist chosen keys, which these maps never see.

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: multiply and rotate, a word at a time.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FastHasher(u64);

/// Builds [`FastHasher`]s, for `HashMap<K, V, Fast>`.
pub(crate) type Fast = BuildHasherDefault<FastHasher>;

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
    fn write_i32(&mut self, v: i32) {
        self.write_u64(v as u64);
    }
}
