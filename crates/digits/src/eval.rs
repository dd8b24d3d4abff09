//! Simulated games: a strategy's mean score and spread, as a fraction of the optimum S, and the
//! odds of passing each official test set.
//!
//! Each game draws its digits from its own seed ([`tessera_core::rng::derive_seed`] of the run's
//! seed and the game's index), so a run can be split over threads or machines and merged.

use serde::{Deserialize, Serialize};
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_core::stats::{Rate, Summary};
use tessera_game::eval::Record;

use crate::count::state_count;
use crate::params::{POW10, Params, TestSet, known_optimum};
use crate::state::{MoveError, State};
use crate::strategy::Strategy;

/// Plays one game with digits drawn from `rng`; returns its score. The rules are checked on every
/// move ([`State::place`]); an illegal choice is an error.
pub fn play_game(strategy: &dyn Strategy, params: Params, rng: &mut Rng64) -> Result<u64, MoveError> {
    let mut state = State::new(params);
    let mut score = 0u64;
    for _ in 0..params.blocks() {
        let digit = rng.below(10) as u8;
        let h = strategy.choose(&state, digit);
        state.place(h)?;
        score += u64::from(digit) * POW10[h as usize];
    }
    Ok(score)
}

/// One simulated game, as written to the JSON lines of an evaluation after the [`Record`]'s
/// fields (with the strategy and the size, so that shards of different runs are not merged by
/// mistake).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The strategy, as resolved (`top6` rather than `best`).
    pub strategy: String,
    /// Towers.
    pub n: u32,
    /// Blocks per tower.
    pub b: u32,
    /// The game's score (0 if the strategy broke a rule).
    pub score: u64,
    /// The rule the strategy broke, if any (must never happen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal: Option<String>,
}

/// Plays the game of job `seed` with a strategy named `name`.
#[must_use]
pub fn run_job(strategy: &dyn Strategy, name: &str, params: Params, seed: u64) -> GameResult {
    let (score, illegal) = match play_game(strategy, params, &mut Rng64::seed(seed)) {
        Ok(score) => (score, None),
        Err(e) => (0, Some(e.to_string())),
    };
    GameResult { strategy: name.to_string(), n: params.n, b: params.b, score, illegal }
}

/// The strategy and size shared by records (of merged shards); an error names the first record
/// that differs.
pub fn common_run(records: &[Record<GameResult>]) -> Result<(String, Params), String> {
    let first = records.first().ok_or("no records")?;
    let g = &first.result;
    if let Some(r) = records.iter().find(|r| (&r.result.strategy, r.result.n, r.result.b) != (&g.strategy, g.n, g.b)) {
        return Err(format!(
            "job {} played {} on N={} B={}, job {} {} on N={} B={}: records of different runs",
            first.job, g.strategy, g.n, g.b, r.job, r.result.strategy, r.result.n, r.result.b
        ));
    }
    let params = Params::new(g.n.into(), g.b.into()).map_err(|e| e.to_string())?;
    Ok((g.strategy.clone(), params))
}

/// S for a size: the published value for the official size, computed for sizes of at most
/// [`REFERENCE_MAX_STATES`] states, `None` otherwise.
pub fn reference_optimum(params: Params, threads: usize) -> Option<f64> {
    if let Some(s) = known_optimum(params) {
        return Some(s);
    }
    let small = state_count(params.n, params.b).is_some_and(|c| c <= REFERENCE_MAX_STATES);
    small
        .then(|| crate::exact::optimum(params, threads, &Budget::unlimited(), &mut |_, _| {}).ok())
        .flatten()
        .map(|o| o.value)
}

/// Largest state space whose S an evaluation computes on the fly (a few seconds).
pub const REFERENCE_MAX_STATES: u128 = 1 << 26;

/// An estimate with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// The odds of passing a test set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetOdds {
    /// `set 1` or `set 2`.
    pub name: String,
    /// The set.
    pub set: TestSet,
    /// Probability of failing, from the normal approximation of a sum of T games with the
    /// simulated mean and standard deviation.
    pub fail_probability: f64,
    /// Disjoint runs of T simulated games that reached P.
    pub runs: Rate,
}

/// What an evaluation found (`eval --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSummary {
    /// The strategy.
    pub strategy: String,
    /// The game size.
    pub params: Params,
    /// Scores of the games.
    pub scores: Summary,
    /// S, if known.
    pub optimum: Option<f64>,
    /// Mean score over S, with the 95% interval of the mean.
    pub fraction_of_optimum: Option<Interval>,
    /// The strategy's exact expected score, if its tables give it.
    pub exact_value: Option<f64>,
    /// The official sets (for the official size).
    pub sets: Vec<SetOdds>,
    /// Games where the strategy broke a rule (must be 0).
    pub illegal: u64,
}

/// Summarises the games of a run.
#[must_use]
pub fn summarise(
    strategy: &str,
    params: Params,
    records: &[Record<GameResult>],
    optimum: Option<f64>,
    exact_value: Option<f64>,
) -> EvalSummary {
    let values: Vec<f64> = records.iter().map(|r| r.result.score as f64).collect();
    let scores = Summary::of(&values);
    let half = 1.96 * scores.sd / (scores.n.max(1) as f64).sqrt();
    let fraction_of_optimum = optimum.map(|s| Interval {
        value: scores.mean / s,
        low: (scores.mean - half) / s,
        high: (scores.mean + half) / s,
    });
    let sets = if params == Params::OFFICIAL {
        [("set 1", TestSet::SET1), ("set 2", TestSet::SET2)]
            .into_iter()
            .map(|(name, set)| odds(name, set, &scores, records))
            .collect()
    } else {
        Vec::new()
    };
    let illegal = records.iter().filter(|r| r.result.illegal.is_some()).count() as u64;
    EvalSummary {
        strategy: strategy.to_string(),
        params,
        scores,
        optimum,
        fraction_of_optimum,
        exact_value,
        sets,
        illegal,
    }
}

fn odds(name: &str, set: TestSet, scores: &Summary, records: &[Record<GameResult>]) -> SetOdds {
    let t = f64::from(set.t);
    let fail_probability = if scores.sd > 0.0 {
        let z = (t * scores.mean - set.p as f64) / (t.sqrt() * scores.sd);
        0.5 * erfc(z / std::f64::consts::SQRT_2)
    } else if t * scores.mean >= set.p as f64 {
        0.0
    } else {
        1.0
    };
    // Consecutive games in job order, T at a time.
    let chunks = records.chunks_exact(set.t as usize);
    let n = chunks.len() as u64;
    let passed =
        chunks.filter(|run| run.iter().map(|r| u128::from(r.result.score)).sum::<u128>() >= u128::from(set.p)).count();
    SetOdds { name: name.to_string(), set, fail_probability, runs: Rate::new(passed as u64, n) }
}

/// The complementary error function, with a relative error below 1.2e-7 everywhere (a Chebyshev
/// fit of `erfc(x) exp(x^2)` in `t = 1 / (1 + x / 2)`).
pub fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = C.iter().rev().fold(0.0, |acc, &c| acc * t + c);
    let r = t * (-z * z + poly).exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

impl std::fmt::Display for EvalSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = &self.scores;
        writeln!(f, "strategy: {} ({}), {} games", self.strategy, self.params, s.n)?;
        writeln!(f, "mean:     {:.0} (sd {:.4e}, min {:.0}, max {:.0})", s.mean, s.sd, s.min, s.max)?;
        if let (Some(opt), Some(fr)) = (self.optimum, &self.fraction_of_optimum) {
            writeln!(f, "of S:     {:.6} (95% CI {:.6}..{:.6}; S = {opt:.10e})", fr.value, fr.low, fr.high)?;
        }
        if let Some(v) = self.exact_value {
            let of = self.optimum.map_or(String::new(), |o| format!(" = {:.9} S", v / o));
            writeln!(f, "exact:    {v:.0}{of} (the strategy's own tables)")?;
        }
        for o in &self.sets {
            writeln!(
                f,
                "{}:    P = {}: fails with probability {:.3e} (normal approximation); runs of {} games passed: {}",
                o.name, o.set.p, o.fail_probability, o.set.t, o.runs
            )?;
        }
        if self.illegal > 0 {
            writeln!(f, "illegal:  {} games (a strategy bug)", self.illegal)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::greedy::Greedy;
    use tessera_core::testing::reads_back;

    #[test]
    fn records_and_summaries_read_back() {
        let params = Params::OFFICIAL;
        let records: Vec<Record<GameResult>> = (0..120)
            .map(|job| Record {
                job,
                of: 120,
                base_seed: 1,
                seed: job,
                result: run_job(&Greedy, "greedy", params, job),
            })
            .collect();
        for r in &records[..3] {
            let line = serde_json::to_string(r).unwrap();
            reads_back::<Record<GameResult>>(&line);
        }
        let summary = summarise("greedy", params, &records, known_optimum(params), None);
        assert_eq!(summary.sets.len(), 2);
        let json = serde_json::to_string(&summary).unwrap();
        reads_back::<EvalSummary>(&json);
    }

    #[test]
    fn erfc_reference_values() {
        // erfc(0) = 1, erfc(1) = 0.157299207..., erfc(3) = 2.20904970e-5, erfc(-1) = 1.842700793.
        for (x, want) in
            [(0.0, 1.0), (1.0, 0.157_299_207_050_285), (3.0, 2.209_049_699_858_544e-5), (-1.0, 1.842_700_792_949_715)]
        {
            assert!(((erfc(x) - want) / want).abs() < 2e-7, "erfc({x}) = {} vs {want}", erfc(x));
        }
        // Far tail: erfc(6) = 2.15197367e-17.
        assert!(((erfc(6.0) - 2.151_973_671_249_891e-17) / 2.15e-17).abs() < 1e-6);
    }
}
