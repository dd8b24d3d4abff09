//! What the digits commands write as JSON, typed: [`ValueReport`] (the optimum S) and
//! [`StrategyValueReport`] (a strategy's exact expected score). The others are
//! [`crate::process::ProcessReport`] (a judged program), [`crate::eval::GameResult`] and
//! [`crate::eval::EvalSummary`] (an evaluation).

use serde::{Deserialize, Serialize};

use crate::exact::Optimum;
use crate::expected::PolicyValue;
use crate::params::{Params, known_optimum, relative_error_to_known, significant_digits};
use crate::strategy::StrategyName;

/// The optimal expected score S of a game, computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueReport {
    /// The computation.
    pub optimum: Optimum,
    /// Its relative error to the published S, where there is one.
    pub relative_error_to_known: Option<f64>,
    /// The significant digits that error leaves.
    pub significant_digits: Option<u32>,
    /// Worker threads.
    pub threads: usize,
}

impl ValueReport {
    /// The report of a computation of S, compared with the published value.
    #[must_use]
    pub fn new(optimum: Optimum, threads: usize) -> Self {
        let known = known_optimum(optimum.params).map(|_| relative_error_to_known(optimum.value));
        ValueReport {
            optimum,
            relative_error_to_known: known,
            significant_digits: known.map(significant_digits),
            threads,
        }
    }

    /// Whether the computation contradicts the published S (fewer than 12 digits agree).
    #[must_use]
    pub fn contradicts_known(&self) -> bool {
        self.significant_digits.is_some_and(|d| d < 12)
    }
}

/// A strategy's exact expected score (over the states it reaches), against S.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyValueReport {
    /// The strategy, as named.
    pub strategy: StrategyName,
    /// What the name stands for at this size (`best` is a `topR`).
    pub resolved: StrategyName,
    /// The game size.
    pub params: Params,
    /// The expected score of one game.
    pub value: f64,
    /// The value as a fraction of S, if S is known.
    pub fraction_of_optimum: Option<f64>,
    /// S, if known.
    pub optimum: Option<f64>,
    /// The value the strategy's own tables give, if they give one.
    pub own_value: Option<f64>,
    /// States the strategy reaches.
    pub reachable_states: u64,
    /// States in the largest layer of those.
    pub largest_layer: u64,
    /// Seconds spent building the strategy.
    pub build_seconds: f64,
    /// Seconds spent evaluating it.
    pub seconds: f64,
}

impl StrategyValueReport {
    /// The report of a strategy's evaluation `v` at a size, with S (if known), the value of the
    /// strategy's own tables (if any), and the time spent building it.
    #[must_use]
    pub fn new(
        strategy: StrategyName,
        params: Params,
        v: &PolicyValue,
        optimum: Option<f64>,
        own_value: Option<f64>,
        build_seconds: f64,
    ) -> Self {
        StrategyValueReport {
            strategy,
            resolved: strategy.resolve(params),
            params,
            value: v.value,
            fraction_of_optimum: optimum.map(|s| v.value / s),
            optimum,
            own_value,
            reachable_states: v.states,
            largest_layer: v.largest_layer,
            build_seconds,
            seconds: v.seconds,
        }
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::runtime::Budget;
    use tessera_core::testing::reads_back;

    use super::*;
    use crate::exact::optimum;
    use crate::expected::expected_score;

    #[test]
    fn reports_read_back() {
        let params = Params::new(6, 4).unwrap();
        let o = optimum(params, 1, &Budget::unlimited(), &mut |_, _| {}).unwrap();
        let report = ValueReport::new(o, 1);
        assert_eq!(report.relative_error_to_known, None, "S is published for the official size only");
        let json = serde_json::to_string(&report).unwrap();
        reads_back::<ValueReport>(&json);
        let name = StrategyName::Best;
        let strategy = name.build(params).unwrap();
        let v = expected_score(strategy.as_ref(), params, 1, &Budget::unlimited()).unwrap();
        let report = StrategyValueReport::new(name, params, &v, Some(report.optimum.value), None, 0.0);
        let json = serde_json::to_string(&report).unwrap();
        assert!(json.starts_with(r#"{"strategy":"best","resolved":"top4","params":{"n":6,"b":4}"#), "{json}");
        assert_eq!(reads_back::<StrategyValueReport>(&json).resolved, StrategyName::Top(4));
    }

    #[test]
    fn sizes_are_checked_when_read() {
        assert_eq!(serde_json::from_str::<Params>(r#"{"n":20,"b":15}"#).unwrap(), Params::OFFICIAL);
        let e = serde_json::from_str::<Params>(r#"{"n":20,"b":19}"#).unwrap_err();
        assert!(e.to_string().contains("B = 19"), "{e}");
    }
}
