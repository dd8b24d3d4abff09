//! Strategies: their own values against the exact evaluator, against an independent recursion,
//! and against the optimum.

use std::collections::HashMap;

use tessera_core::runtime::Budget;
use tessera_digits::expected::expected_score;
use tessera_digits::strategy::topr::TopR;
use tessera_digits::{Params, State, Strategy, StrategyName};

/// The expected future score of `strategy` from a state, by plain recursion over sorted heights.
fn recurse(strategy: &dyn Strategy, b: u32, heights: &mut Vec<u32>, memo: &mut HashMap<Vec<u32>, f64>) -> f64 {
    heights.sort_unstable();
    if let Some(&v) = memo.get(heights.as_slice()) {
        return v;
    }
    if heights.iter().all(|&h| h == b) {
        return 0.0;
    }
    let mut counts = vec![0u32; b as usize + 1];
    heights.iter().for_each(|&h| counts[h as usize] += 1);
    let state = State::from_counts(b, &counts);
    let mut sum = 0.0;
    for d in 0..10u8 {
        let h = strategy.choose(&state, d);
        let i = heights.iter().position(|&x| x == h).expect("the strategy picks a height that exists");
        assert!(h < b, "the strategy picks a full tower");
        let mut after = heights.clone();
        after[i] += 1;
        sum += f64::from(d) * 10f64.powi(h as i32) + recurse(strategy, b, &mut after, memo);
    }
    let v = sum / 10.0;
    memo.insert(heights.clone(), v);
    v
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

#[test]
fn top_r_values_are_what_their_policies_score() {
    for (n, b) in [(1u32, 3u32), (3, 3), (4, 5), (6, 4), (5, 7)] {
        let p = Params::new(n.into(), b.into()).unwrap();
        let mut last = 0.0;
        for r in 1..=b {
            let t = TopR::new(p, r, 1 << 24).unwrap();
            let by_policy = expected_score(&t, p, 2, &Budget::unlimited()).unwrap();
            let by_recursion = recurse(&t, b, &mut vec![0; n as usize], &mut HashMap::new());
            assert!(close(t.value(), by_policy.value), "N={n} B={b} R={r}: {} vs {}", t.value(), by_policy.value);
            assert!(close(t.value(), by_recursion), "N={n} B={b} R={r}: {} vs {by_recursion}", t.value());
            // More rows to choose from never hurts.
            assert!(t.value() >= last * (1.0 - 1e-15), "N={n} B={b} R={r}");
            last = t.value();
        }
    }
}

#[test]
fn optimal_is_the_exact_optimum() {
    for (n, b) in [(3u32, 3u32), (8, 6), (5, 9)] {
        let p = Params::new(n.into(), b.into()).unwrap();
        let s = tessera_digits::exact::optimum(p, 2, &Budget::unlimited(), &mut |_, _| {}).unwrap().value;
        let opt = StrategyName::Optimal.build(p).unwrap();
        assert!(close(opt.exact_value().unwrap(), s), "N={n} B={b}");
        let by_policy = expected_score(opt.as_ref(), p, 2, &Budget::unlimited()).unwrap();
        assert!(close(by_policy.value, s), "N={n} B={b}: {} vs {s}", by_policy.value);
        // Top-1 cannot beat it (on three towers of three it happens to be optimal).
        let top1 = TopR::new(p, 1, 1 << 24).unwrap().value();
        assert!(top1 <= s * (1.0 + 1e-15) && top1 > 0.5 * s, "N={n} B={b}: top1 {top1} vs {s}");
        assert!(n < 5 || top1 < 0.999 * s, "N={n} B={b}: top1 {top1} vs {s}");
    }
}

#[test]
fn greedy_by_evaluator_and_by_recursion() {
    for (n, b) in [(1u32, 1u32), (2, 3), (4, 4), (6, 5)] {
        let p = Params::new(n.into(), b.into()).unwrap();
        let g = StrategyName::Greedy.build(p).unwrap();
        let by_policy = expected_score(g.as_ref(), p, 1, &Budget::unlimited()).unwrap().value;
        let by_recursion = recurse(g.as_ref(), b, &mut vec![0; n as usize], &mut HashMap::new());
        assert!(close(by_policy, by_recursion), "N={n} B={b}: {by_policy} vs {by_recursion}");
    }
}

#[test]
fn best_fits_any_size() {
    // The official size: top6. Small sizes: the optimal policy. Huge ones: the greedy.
    assert_eq!(StrategyName::Best.resolve(Params::OFFICIAL), StrategyName::Top(6));
    let small = Params::new(6, 5).unwrap();
    assert_eq!(StrategyName::Best.resolve(small), StrategyName::Top(5));
    let huge = Params::new(1_000_000, 12).unwrap();
    assert_eq!(StrategyName::Best.resolve(huge), StrategyName::Greedy);
    let g = StrategyName::Best.build(huge).unwrap();
    let s = State::new(huge);
    assert_eq!(g.choose(&s, 9), 0);
}

proptest::proptest! {
    /// Names parse or are refused with a message; parsed names print back as themselves.
    #[test]
    fn strategy_names(name in "[a-zA-Z_-]{0,8}[0-9]{0,3}") {
        match name.parse::<StrategyName>() {
            Ok(s) => proptest::prop_assert_eq!(s.to_string().parse::<StrategyName>().unwrap(), s),
            Err(e) => proptest::prop_assert!(e.to_string().contains("unknown strategy")),
        }
    }
}
