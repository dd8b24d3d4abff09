//! Statistics for evaluations: summaries of samples and confidence intervals for rates.

use serde::{Deserialize, Serialize};

/// Mean, standard deviation and order statistics of a sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Sample size.
    pub n: usize,
    /// Arithmetic mean (0 for an empty sample).
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator; 0 below two values).
    pub sd: f64,
    /// Smallest value.
    pub min: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest value.
    pub max: f64,
}

impl Summary {
    /// Summarises a sample (NaNs are ignored).
    pub fn of(values: &[f64]) -> Summary {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let mean = if n == 0 { 0.0 } else { v.iter().sum::<f64>() / n as f64 };
        let sd = if n < 2 { 0.0 } else { (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt() };
        Summary {
            n,
            mean,
            sd,
            min: v.first().copied().unwrap_or(0.0),
            p50: percentile(&v, 50.0),
            p90: percentile(&v, 90.0),
            p99: percentile(&v, 99.0),
            max: v.last().copied().unwrap_or(0.0),
        }
    }
}

/// The `p`-th percentile (0..=100) of sorted values, by linear interpolation between closest
/// ranks. 0 for an empty slice.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        1 => sorted[0],
        n => {
            let rank = (p / 100.0).clamp(0.0, 1.0) * (n - 1) as f64;
            let (lo, frac) = (rank.floor() as usize, rank.fract());
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (sorted[hi] - sorted[lo]) * frac
        }
    }
}

/// The Wilson score interval for a rate: `successes` out of `n` trials, at confidence `z`
/// standard deviations (1.96 for 95%). Returns `(low, high)`; `(0, 1)` when `n` is 0.
pub fn wilson(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p) = (n as f64, successes as f64 / n as f64);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A rate with its Wilson 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Successes.
    pub successes: u64,
    /// Trials.
    pub n: u64,
    /// `successes / n` (0 when `n` is 0).
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// The rate of `successes` in `n` trials with its Wilson 95% interval.
    pub fn new(successes: u64, n: u64) -> Rate {
        let (low, high) = wilson(successes, n, 1.96);
        let rate = if n == 0 { 0.0 } else { successes as f64 / n as f64 };
        Rate { successes, n, rate, low, high }
    }
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{} = {:.2}% (95% CI {:.2}%..{:.2}%)",
            self.successes,
            self.n,
            100.0 * self.rate,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_sample() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.n, 8);
        assert!((s.mean - 5.0).abs() < 1e-12);
        assert!((s.sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!((s.min, s.max), (2.0, 9.0));
        assert!((s.p50 - 4.5).abs() < 1e-12);
        assert_eq!(Summary::of(&[]).n, 0);
    }

    #[test]
    fn percentile_interpolates() {
        let v = [10.0, 20.0, 30.0, 40.0];
        assert_eq!(percentile(&v, 0.0), 10.0);
        assert_eq!(percentile(&v, 100.0), 40.0);
        assert!((percentile(&v, 50.0) - 25.0).abs() < 1e-12);
    }

    #[test]
    fn wilson_matches_reference_values() {
        // Reference: 8 of 10 at 95% -> (0.4902, 0.9433).
        let (lo, hi) = wilson(8, 10, 1.96);
        assert!((lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3, "{lo} {hi}");
        // All successes: the upper end is 1, the lower end below it.
        let (lo, hi) = wilson(50, 50, 1.96);
        assert!(hi == 1.0 && lo < 0.95 && lo > 0.9);
        assert_eq!(wilson(0, 0, 1.96), (0.0, 1.0));
        assert!(Rate::new(1, 4).to_string().starts_with("1/4 = 25.00%"));
    }
}
