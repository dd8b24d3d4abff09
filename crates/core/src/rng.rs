//! A small, fast, seeded random number generator (xoshiro256++) and seed helpers.
//!
//! Every randomised command prints its seed and accepts `--seed`, so any run can be repeated.
//! Library code takes `&mut impl rand::Rng`; [`Rng64`] implements it.
//!
//! ```
//! use rand::RngExt;
//! use tessera_core::rng::Rng64;
//! let mut a = Rng64::seed(42);
//! let mut b = Rng64::seed(42);
//! assert_eq!(a.random_range(0..1000), b.random_range(0..1000));
//! ```

use std::convert::Infallible;

use rand::{SeedableRng, TryRng};

/// One step of SplitMix64: a good 64-bit mixing function, used to expand and derive seeds.
pub(crate) const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of job `index` of a run seeded with `base`: independent of how jobs are split over
/// threads or machines.
pub const fn derive_seed(base: u64, index: u64) -> u64 {
    splitmix64(base ^ splitmix64(index.wrapping_add(0x5eed)))
}

/// A seed for when the user gave none: from the clock and the process id. Print it!
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    // Keep seeds short enough to type back in.
    splitmix64(t ^ (u64::from(std::process::id()) << 32)) % 1_000_000_000
}

/// xoshiro256++: fast, 256 bits of state, passes the usual statistical test batteries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng64 {
    s: [u64; 4],
}

impl Rng64 {
    /// A generator seeded from a 64-bit seed (expanded with SplitMix64).
    pub fn seed(seed: u64) -> Self {
        let mut x = seed;
        let mut s = [0; 4];
        for w in &mut s {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            *w = splitmix64(x);
        }
        Rng64 { s }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let out = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// A uniform number in `0..n` (`n > 0`), by Lemire's multiply-shift (tiny bias for huge `n`).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A uniform number in `[0, 1)` (53 random bits).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

impl TryRng for Rng64 {
    type Error = Infallible;
    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next_u64() >> 32) as u32)
    }
    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

impl SeedableRng for Rng64 {
    type Seed = [u8; 8];
    fn from_seed(seed: [u8; 8]) -> Self {
        Rng64::seed(u64::from_le_bytes(seed))
    }
    fn seed_from_u64(state: u64) -> Self {
        Rng64::seed(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn reproducible_and_distinct() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = Rng64::seed(1);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut r = Rng64::seed(1);
                move |_| r.next_u64()
            })
            .collect();
        let c = Rng64::seed(2).next_u64();
        assert_eq!(a, b);
        assert_ne!(a[0], c);
        assert_ne!(derive_seed(5, 0), derive_seed(5, 1));
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng64::seed(9);
        let mut hist = [0u32; 6];
        for _ in 0..60_000 {
            hist[r.below(6) as usize] += 1;
        }
        for h in hist {
            assert!((9_000..11_000).contains(&h), "{hist:?}");
        }
        let u = r.unit();
        assert!((0.0..1.0).contains(&u));
        // Works through the rand traits too.
        let x: u32 = r.random_range(10..20);
        assert!((10..20).contains(&x));
    }
}
