//! The size of a game (N towers of B blocks), the official test sets, and the known optimum.

use std::fmt;

/// Largest tower height supported: a tower read as a number, up to `10^B - 1`, fits 64 bits for
/// `B <= 19`, and a game of `N >= 2` towers must fit too; 18 keeps every product simple.
pub const MAX_B: u32 = 18;

/// Most towers a game may have (the player keeps one index per tower).
pub const MAX_N: u32 = 1_000_000;

/// `10^h` for `h` in `0..=MAX_B`.
pub const POW10: [u64; MAX_B as usize + 1] = {
    let mut p = [1u64; MAX_B as usize + 1];
    let mut h = 1;
    while h <= MAX_B as usize {
        p[h] = p[h - 1] * 10;
        h += 1;
    }
    p
};

/// Why a game size or test set is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No towers.
    #[error("N = 0: a game needs at least one tower")]
    NoTowers,
    /// Towers without room.
    #[error("B = 0: towers must hold at least one block")]
    NoHeight,
    /// Too many towers.
    #[error("N = {0}: at most {MAX_N} towers are supported")]
    TooManyTowers(u64),
    /// Towers too tall for 64-bit scores.
    #[error("B = {0}: at most {MAX_B} (a tower read as a number must fit 64 bits)")]
    TooTall(u64),
    /// The largest score of a game does not fit 64 bits.
    #[error("N = {n}, B = {b}: the largest score of a game, N x (10^B - 1), does not fit 64 bits")]
    ScoreOverflow {
        /// Towers.
        n: u32,
        /// Height.
        b: u32,
    },
    /// No games.
    #[error("T = 0: a run needs at least one game")]
    NoGames,
    /// Too many games.
    #[error("T = {0}: too many games (P would not fit 64 bits)")]
    TooManyGames(u64),
}

/// The size of one game: `n` towers, each holding at most `b` blocks. Read from JSON, it is
/// checked like [`Params::new`] checks it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Sizes")]
pub struct Params {
    /// Towers (N).
    pub n: u32,
    /// Blocks per tower (B).
    pub b: u32,
}

/// A game size as read, before it is checked.
#[derive(serde::Deserialize)]
struct Sizes {
    n: u64,
    b: u64,
}

impl TryFrom<Sizes> for Params {
    type Error = ParamError;
    fn try_from(s: Sizes) -> Result<Params, ParamError> {
        Params::new(s.n, s.b)
    }
}

impl Params {
    /// The official size: 20 towers of 15 blocks.
    pub const OFFICIAL: Params = Params { n: 20, b: 15 };

    /// A validated game size.
    pub fn new(n: u64, b: u64) -> Result<Params, ParamError> {
        if n == 0 {
            return Err(ParamError::NoTowers);
        }
        if b == 0 {
            return Err(ParamError::NoHeight);
        }
        if n > u64::from(MAX_N) {
            return Err(ParamError::TooManyTowers(n));
        }
        if b > u64::from(MAX_B) {
            return Err(ParamError::TooTall(b));
        }
        let (n, b) = (n as u32, b as u32);
        if u64::from(n).checked_mul(POW10[b as usize] - 1).is_none() {
            return Err(ParamError::ScoreOverflow { n, b });
        }
        Ok(Params { n, b })
    }

    /// Blocks in a game: `N x B`.
    pub fn blocks(self) -> u64 {
        u64::from(self.n) * u64::from(self.b)
    }

    /// The largest score of a game (all nines): `N x (10^B - 1)`.
    pub fn max_score(self) -> u64 {
        u64::from(self.n) * (POW10[self.b as usize] - 1)
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "N={} B={}", self.n, self.b)
    }
}

/// A run as the judge plays it: `t` games of one size; it passes if the summed score reaches `p`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TestSet {
    /// Games (T).
    pub t: u32,
    /// The size of each game.
    pub params: Params,
    /// The score the T games must reach together (P).
    pub p: u64,
}

impl TestSet {
    /// Official test set 1: 90% of `T x S`.
    pub const SET1: TestSet = TestSet { t: 50, params: Params::OFFICIAL, p: 860_939_810_732_536_850 };
    /// Official test set 2: 98% of `T x S`.
    pub const SET2: TestSet = TestSet { t: 50, params: Params::OFFICIAL, p: 937_467_793_908_762_347 };

    /// The official set `k` (1 or 2).
    pub fn official(k: u32) -> Option<TestSet> {
        match k {
            1 => Some(Self::SET1),
            2 => Some(Self::SET2),
            _ => None,
        }
    }

    /// A validated test set.
    pub fn new(t: u64, n: u64, b: u64, p: u64) -> Result<TestSet, ParamError> {
        let params = Params::new(n, b)?;
        let t = u32::try_from(t).map_err(|_| ParamError::TooManyGames(t))?;
        if t == 0 {
            return Err(ParamError::NoGames);
        }
        Ok(TestSet { t, params, p })
    }

    /// The same set with `t` games and P scaled to them (rounded up): `ceil(P t / T)`.
    pub fn with_games(self, t: u64) -> Result<TestSet, ParamError> {
        let p = (u128::from(self.p) * u128::from(t)).div_ceil(u128::from(self.t));
        let p = u64::try_from(p).map_err(|_| ParamError::TooManyGames(t))?;
        TestSet::new(t, self.params.n.into(), self.params.b.into(), p)
    }

    /// The judge's first line: `T N B P`.
    pub fn header(&self) -> String {
        format!("{} {} {} {}", self.t, self.params.n, self.params.b, self.p)
    }
}

/// The exact optimal expected score of one official game (N = 20, B = 15), as published with the
/// problem's analysis; `tessera digits value` recomputes it.
pub const KNOWN_S_OFFICIAL: &str =
    "19131995794056374.423098756540547899023413702180946652049981241292126018545306904350";

/// The published optimum for a size, if there is one (only the official size).
pub fn known_optimum(params: Params) -> Option<f64> {
    (params == Params::OFFICIAL).then(|| KNOWN_S_OFFICIAL.parse().unwrap_or(f64::NAN))
}

/// How far `x` is from the published optimum, relative to it, computed without losing the digits
/// that `f64` cannot hold (the optimum has more of them than a double): `(x - S) / S`.
pub fn relative_error_to_known(x: f64) -> f64 {
    let (int, frac) = KNOWN_S_OFFICIAL.split_once('.').unwrap_or((KNOWN_S_OFFICIAL, "0"));
    let s_int: i128 = int.parse().unwrap_or(0);
    let s_frac: f64 = format!("0.{frac}").parse().unwrap_or(0.0);
    let x_int = x.trunc();
    // Both integer parts are exact (x is a double, S's integer part fits i128).
    let diff = (x_int as i128 - s_int) as f64 + ((x - x_int) - s_frac);
    diff / (s_int as f64 + s_frac)
}

/// Significant digits two numbers agree to, from their relative difference (17 when equal).
pub fn significant_digits(relative_error: f64) -> u32 {
    if relative_error == 0.0 { 17 } else { (-relative_error.abs().log10()).floor().clamp(0.0, 17.0) as u32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_validated() {
        assert_eq!(Params::new(20, 15), Ok(Params::OFFICIAL));
        assert_eq!(Params::new(0, 3), Err(ParamError::NoTowers));
        assert_eq!(Params::new(3, 0), Err(ParamError::NoHeight));
        assert_eq!(Params::new(3, 19), Err(ParamError::TooTall(19)));
        assert_eq!(Params::new(19, 18), Err(ParamError::ScoreOverflow { n: 19, b: 18 }));
        assert!(Params::new(18, 18).is_ok());
        assert_eq!(Params::new(2_000_000, 1), Err(ParamError::TooManyTowers(2_000_000)));
        assert_eq!(Params::OFFICIAL.max_score(), 20 * 999_999_999_999_999);
        assert_eq!(TestSet::new(0, 20, 15, 1), Err(ParamError::NoGames));
    }

    #[test]
    fn official_thresholds_follow_from_s() {
        // P = ceil(T f S) with f = 0.9 and 0.98: recompute with exact integer arithmetic on S's
        // integer part and first decimals.
        let s_milli: u128 = 19_131_995_794_056_374_423; // S in thousandths (truncated)
        for (set, f_percent) in [(TestSet::SET1, 90u128), (TestSet::SET2, 98)] {
            let p_times_1e5 = 50 * f_percent * s_milli; // T f S in 1e-5 units
            let p = p_times_1e5.div_ceil(100_000);
            assert_eq!(p, u128::from(set.p), "set with f = {f_percent}%");
        }
        assert_eq!(TestSet::SET2.header(), "50 20 15 937467793908762347");
        assert_eq!(TestSet::SET2.with_games(2).unwrap().p, 37_498_711_756_350_494);
        assert_eq!(TestSet::SET2.with_games(50).unwrap(), TestSet::SET2);
        assert!(TestSet::SET2.with_games(1000).is_err());
    }

    #[test]
    fn relative_error_keeps_the_digits() {
        let s = known_optimum(Params::OFFICIAL).unwrap();
        assert!(relative_error_to_known(s).abs() < 2.0 / s);
        assert!((relative_error_to_known(s * (1.0 + 1e-9)) - 1e-9).abs() < 1e-15);
        assert_eq!(significant_digits(3e-13), 12);
        assert_eq!(known_optimum(Params { n: 3, b: 3 }), None);
    }
}
