//! Counting states: multisets of N heights in `0..=B`, by their sum (a *layer*: the states after
//! the same number of blocks).
//!
//! [`BoxCounts`] holds `P(k, m, s)`, the number of non-increasing sequences of `k` heights in
//! `0..=m` summing to `s` (partitions of `s` into at most `k` parts of at most `m`: the
//! coefficients of the Gaussian binomial). Layer `t` holds `P(N, B, t)` states; ranks within a
//! layer are sums of these counts (see [`crate::exact`]).

/// Why the counts of a size are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// The counting table would be too large.
    #[error("N = {n}, B = {b}: the counting table would take {entries} entries (at most {MAX_TABLE})")]
    TableTooLarge {
        /// Towers.
        n: u32,
        /// Height.
        b: u32,
        /// Entries needed.
        entries: u128,
    },
    /// A count does not fit 64 bits.
    #[error("N = {n}, B = {b}: the number of states does not fit 64 bits")]
    Overflow {
        /// Towers.
        n: u32,
        /// Height.
        b: u32,
    },
}

/// The largest counting table built: 2^24 entries (128 MiB).
pub const MAX_TABLE: u128 = 1 << 24;

/// `C(n, k)`, or `None` past `u128`.
pub(crate) fn binomial(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c * (n - i) / (i + 1) stays exact: c is C(n, i) and C(n, i) (n - i) = C(n, i + 1) (i + 1).
        c = c.checked_mul(u128::from(n - i))? / u128::from(i + 1);
    }
    Some(c)
}

/// The number of states of a game: multisets of N heights in `0..=B`, `C(N + B, B)`.
pub fn state_count(n: u32, b: u32) -> Option<u128> {
    binomial(u64::from(n) + u64::from(b), u64::from(b))
}

/// `P(k, m, s)` for `k <= N`, `-1 <= m <= B`, `s <= N B + 1`.
#[derive(Clone, Debug)]
pub struct BoxCounts {
    n: usize,
    b: usize,
    /// Sums run over `0..span` (one past the largest, so that `s + 1` needs no check).
    span: usize,
    table: Vec<u64>,
}

impl BoxCounts {
    /// The table for N towers of height at most B.
    pub fn new(n: u32, b: u32) -> Result<BoxCounts, CountError> {
        let (nu, bu) = (n as usize, b as usize);
        let span = nu * bu + 2;
        let entries = (nu as u128 + 1) * (bu as u128 + 2) * span as u128;
        if entries > MAX_TABLE {
            return Err(CountError::TableTooLarge { n, b, entries });
        }
        let mut c = BoxCounts { n: nu, b: bu, span, table: vec![0; entries as usize] };
        for k in 0..=nu {
            // m = -1 (column 0): only the empty sequence.
            if k == 0 {
                let i = c.index(0, 0, 0);
                c.table[i] = 1;
            }
            for m1 in 1..=bu + 1 {
                let m = m1 - 1;
                for s in 0..span {
                    // Either every height is below m, or the first one is m.
                    let below = c.table[c.index(k, m1 - 1, s)];
                    let top = if k > 0 && s >= m { c.table[c.index(k - 1, m1, s - m)] } else { 0 };
                    let i = c.index(k, m1, s);
                    c.table[i] = below.checked_add(top).ok_or(CountError::Overflow { n, b })?;
                }
            }
        }
        Ok(c)
    }

    /// Where `P(k, m1 - 1, s)` is stored: planes by `m1`, rows by `k`, sums in a row, so that
    /// stepping `k` down by one and `s` down by `h` is stepping the index down by `span + h`.
    #[inline]
    pub fn index(&self, k: usize, m1: usize, s: usize) -> usize {
        (m1 * (self.n + 1) + k) * self.span + s
    }

    /// The entry at an [`BoxCounts::index`].
    #[inline]
    pub fn at(&self, index: usize) -> u64 {
        self.table[index]
    }

    /// Length of a row (the sums `0..span`).
    #[inline]
    pub fn span(&self) -> usize {
        self.span
    }

    /// `P(k, m, s)` with `m1 = m + 1` (so `m = -1` is `m1 = 0`); 0 for sums out of the table.
    #[inline]
    pub fn get(&self, k: usize, m1: usize, s: usize) -> u64 {
        if s < self.span { self.table[self.index(k, m1, s)] } else { 0 }
    }

    /// States in layer `t` (sum of heights `t`).
    pub fn layer(&self, t: usize) -> u64 {
        self.get(self.n, self.b + 1, t)
    }

    /// The largest layer.
    pub fn largest_layer(&self) -> u64 {
        (0..=self.n * self.b).map(|t| self.layer(t)).max().unwrap_or(0)
    }

    /// Towers.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Height.
    pub fn b(&self) -> usize {
        self.b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(35, 15), Some(3_247_943_160));
        assert_eq!(binomial(5, 7), Some(0));
        assert_eq!(state_count(20, 15), Some(3_247_943_160));
        assert_eq!(binomial(300, 150), None);
    }

    #[test]
    fn layers_add_up_and_match_enumeration() {
        for (n, b) in [(1, 1), (3, 2), (4, 5), (6, 3)] {
            let c = BoxCounts::new(n, b).unwrap();
            let total: u64 = (0..=n as usize * b as usize).map(|t| c.layer(t)).sum();
            assert_eq!(u128::from(total), state_count(n, b).unwrap());
            // Enumerate multisets directly and count by sum.
            let mut by_sum = vec![0u64; n as usize * b as usize + 1];
            let mut v = vec![0u32; n as usize];
            loop {
                by_sum[v.iter().sum::<u32>() as usize] += 1;
                // Next non-increasing vector in lexicographic order.
                let Some(i) = (0..v.len()).rev().find(|&i| v[i] < b && (i == 0 || v[i] < v[i - 1])) else { break };
                v[i] += 1;
                v[i + 1..].fill(0);
            }
            for (t, &k) in by_sum.iter().enumerate() {
                assert_eq!(c.layer(t), k, "N={n} B={b} t={t}");
            }
        }
    }

    #[test]
    fn official_layers() {
        let c = BoxCounts::new(20, 15).unwrap();
        assert_eq!(c.layer(0), 1);
        assert_eq!(c.layer(1), 1);
        assert_eq!(c.layer(300), 1);
        assert_eq!(c.layer(150), c.largest_layer());
        assert!(BoxCounts::new(1000, 18).is_err());
    }
}
