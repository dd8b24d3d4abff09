//! The official size (N = 20, B = 15): the published fractions of S, and S itself (ignored: 75 s of
//! processor time in release).

use tessera_core::runtime::{Budget, default_threads};
use tessera_digits::params::{known_optimum, relative_error_to_known, significant_digits};
use tessera_digits::strategy::topr::TopR;
use tessera_digits::{Params, StrategyName};

fn s() -> f64 {
    known_optimum(Params::OFFICIAL).unwrap()
}

#[test]
fn top_r_reaches_the_published_fractions() {
    // The seed reports 0.9618, 0.99765 and 0.99994 of S for top-1, top-2, top-3.
    for (r, want) in [(1, 0.9618), (2, 0.99765), (3, 0.99994)] {
        let v = TopR::new(Params::OFFICIAL, r, 1 << 20).unwrap().value() / s();
        assert!((v - want).abs() < 5e-5, "top{r}: {v}");
    }
}

#[test]
fn best_is_within_a_hundred_thousandth_of_s() {
    let best = StrategyName::Best.build(Params::OFFICIAL).unwrap();
    let v = best.exact_value().unwrap();
    assert!(v >= 0.99999 * s(), "{}", v / s());
    // In fact within the precision of a double: top-5 and above lose less than 1e-14 of S.
    assert!(relative_error_to_known(v).abs() < 1e-14, "{}", relative_error_to_known(v));
}

#[test]
fn greedy_scores_what_the_write_up_says() {
    // About 0.95 of S, 0.909 of the all-nines maximum.
    let g = StrategyName::Greedy.build(Params::OFFICIAL).unwrap();
    let v = tessera_digits::expected::expected_score(g.as_ref(), Params::OFFICIAL, 2, &Budget::unlimited()).unwrap();
    assert!((v.value / s() - 0.9513).abs() < 1e-3, "{}", v.value / s());
    assert!((v.value / Params::OFFICIAL.max_score() as f64 - 0.909).abs() < 1e-3);
}

/// `cargo test --release -p tessera-digits --test it -- --ignored official_optimum --nocapture`
#[test]
#[ignore = "the full state space: 75 s of processor time in release"]
fn official_optimum() {
    let o = tessera_digits::exact::optimum(Params::OFFICIAL, default_threads(), &Budget::unlimited(), &mut |_, _| {})
        .unwrap();
    let e = relative_error_to_known(o.value);
    println!("S = {:.2} in {:.1} s, relative error {e:.1e} ({} digits)", o.value, o.seconds, significant_digits(e));
    assert_eq!(o.states, 3_247_943_160);
    assert!(significant_digits(e) >= 12, "{e}");
}
