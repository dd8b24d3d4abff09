//! The official board generator, bit-exact: Java's `SHA1PRNG` `SecureRandom`, seeded with
//! `setSeed(long)` and read through `java.util.Random.nextInt(bound)`.
//!
//! ```
//! use tessera_pairs::generator::generate;
//! let b = generate(1);
//! assert_eq!((b.height(), b.width(), b.colors()), (10, 10, 2));
//! ```

use sha1::{Digest, Sha1};

use crate::board::Board;

/// Java's `SecureRandom.getInstance("SHA1PRNG")` after `setSeed(seed)`, as far as
/// `nextInt(bound)` needs it.
#[derive(Clone, Debug)]
pub struct JavaSha1Prng {
    state: [u8; 20],
    block: [u8; 20],
    /// Bytes of `block` already handed out (20: none left).
    used: usize,
}

impl JavaSha1Prng {
    /// Seeded like `setSeed(long)` on a fresh generator: the state is the SHA-1 of the seed's
    /// eight little-endian bytes.
    pub fn new(seed: i64) -> Self {
        let state: [u8; 20] = Sha1::digest(seed.to_le_bytes()).into();
        JavaSha1Prng { state, block: [0; 20], used: 20 }
    }

    /// The next byte of the output stream.
    fn next_byte(&mut self) -> u8 {
        if self.used == 20 {
            self.block = Sha1::digest(self.state).into();
            self.update_state();
            self.used = 0;
        }
        self.used += 1;
        self.block[self.used - 1]
    }

    /// `state += output + 1`, byte by byte as *signed* bytes with a carry of -1, 0 or +1; if no
    /// byte changed, the first byte is incremented.
    fn update_state(&mut self) {
        let mut carry: i32 = 1;
        let mut changed = false;
        for (s, &o) in self.state.iter_mut().zip(&self.block) {
            let v = i32::from(*s as i8) + i32::from(o as i8) + carry;
            let t = v as u8;
            changed |= *s != t;
            *s = t;
            carry = v >> 8;
        }
        if !changed {
            self.state[0] = self.state[0].wrapping_add(1);
        }
    }

    /// `Random.next(31)`: four bytes, big-endian, shifted right by one.
    fn next31(&mut self) -> u32 {
        let bytes = [self.next_byte(), self.next_byte(), self.next_byte(), self.next_byte()];
        u32::from_be_bytes(bytes) >> 1
    }

    /// `Random.nextInt(bound)` for `bound >= 1`, with Java's rejection rule.
    pub(crate) fn next_int(&mut self, bound: u32) -> u32 {
        assert!(bound >= 1 && bound <= i32::MAX as u32, "nextInt bound {bound} out of range");
        let mut r = self.next31();
        if bound.is_power_of_two() {
            return ((u64::from(bound) * u64::from(r)) >> 31) as u32;
        }
        loop {
            let v = r % bound;
            // Java: `u - v + (bound - 1) < 0` in 32-bit signed arithmetic means "reject".
            if u64::from(r) - u64::from(v) + u64::from(bound - 1) < 1 << 31 {
                return v;
            }
            r = self.next31();
        }
    }
}

/// The official tester's board for `seed`.
pub fn generate(seed: i64) -> Board {
    let mut rng = JavaSha1Prng::new(seed);
    let (h, w, colors) = draw_dims(&mut rng, seed);
    loop {
        let (cells, counts) = fill(&mut rng, h * w, colors);
        if counts.iter().all(|&n| n > 0) {
            return Board::new(h, w, cells).expect("generated boards are well formed");
        }
    }
}

/// The rows, columns and colours of the tester's board for `seed`, without drawing its tiles
/// (a few hashes instead of one per 20 bytes of tiles): what class filters need.
///
/// ```
/// use tessera_pairs::generator::{dims, generate};
/// let b = generate(77);
/// assert_eq!(dims(77), (b.height(), b.width(), b.colors()));
/// ```
#[must_use]
pub fn dims(seed: i64) -> (usize, usize, usize) {
    draw_dims(&mut JavaSha1Prng::new(seed), seed)
}

/// The tester's first draws: H and W in 10..=100 (one of them grown by one if H*W is odd), then
/// C in 2..=6; seeds 1, 2 and 3 are the contest's fixed examples.
fn draw_dims(rng: &mut JavaSha1Prng, seed: i64) -> (usize, usize, usize) {
    let mut h = rng.next_int(91) as usize + 10;
    let mut w = rng.next_int(91) as usize + 10;
    if !(h * w).is_multiple_of(2) {
        if rng.next_int(2) == 0 {
            w += 1;
        } else {
            h += 1;
        }
    }
    let mut colors = rng.next_int(5) as usize + 2;
    match seed {
        1 => (h, w, colors) = (10, 10, 2),
        2 => (h, w, colors) = (30, 30, 4),
        3 => (h, w, colors) = (100, 100, 6),
        _ => {}
    }
    (h, w, colors)
}

/// Fills `n` cells with `nextInt(colors)` and evens out the counts: for each colour `i` that is
/// odd when its turn comes, for each later colour `j` that is odd, the first tile of colour `j`
/// (row-major) becomes `i`.
fn fill(rng: &mut JavaSha1Prng, n: usize, colors: usize) -> (Vec<u8>, Vec<usize>) {
    let mut counts = vec![0usize; colors];
    let cells: Vec<u8> = (0..n)
        .map(|_| {
            let k = rng.next_int(colors as u32) as u8;
            counts[k as usize] += 1;
            k
        })
        .collect();
    let mut cells = cells;
    for i in 0..colors {
        if counts[i].is_multiple_of(2) {
            continue;
        }
        for j in i + 1..colors {
            // Only `j` is re-checked: once `i` is even, the next odd `j` makes it odd again.
            if !counts[j].is_multiple_of(2) {
                let first = cells.iter().position(|&k| k as usize == j).expect("colour j has a tile");
                cells[first] = i as u8;
                counts[j] -= 1;
                counts[i] += 1;
            }
        }
    }
    (cells, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_two_take_the_high_bits() {
        // Same stream, read two ways: nextInt(2) is the top bit of next31.
        let mut a = JavaSha1Prng::new(7);
        let mut b = JavaSha1Prng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_int(2), b.next31() >> 30);
        }
    }

    #[test]
    fn dims_agree_with_the_boards() {
        for seed in (1..40).chain([1_000_001, 123_456_789, -5]) {
            let b = generate(seed);
            assert_eq!(dims(seed), (b.height(), b.width(), b.colors()), "seed {seed}");
        }
    }

    #[test]
    fn draws_are_in_range() {
        let mut r = JavaSha1Prng::new(42);
        for bound in [1, 3, 5, 91, 1000, (1 << 30) + 1] {
            for _ in 0..50 {
                assert!(r.next_int(bound) < bound);
            }
        }
    }
}
