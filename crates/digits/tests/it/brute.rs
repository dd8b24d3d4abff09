//! The layered exact computation against a plain memoised recursion over sorted height vectors.

use std::collections::HashMap;

use tessera_core::runtime::Budget;
use tessera_digits::Params;
use tessera_digits::count::BoxCounts;
use tessera_digits::exact::{optimum, optimum_with, rank_in_layer};

/// The optimal expected future score from `heights` (sorted, any order), by recursion.
pub fn brute(b: u32, heights: &mut Vec<u32>, memo: &mut HashMap<Vec<u32>, f64>) -> f64 {
    heights.sort_unstable();
    if let Some(&v) = memo.get(heights.as_slice()) {
        return v;
    }
    let mut options: Vec<u32> = heights.iter().copied().filter(|&h| h < b).collect();
    options.dedup();
    let mut after = Vec::new();
    for &h in &options {
        let mut s = heights.clone();
        let i = s.iter().position(|&x| x == h).unwrap();
        s[i] += 1;
        after.push(brute(b, &mut s, memo));
    }
    let mut total = 0.0;
    for d in 0..10u32 {
        let best = options
            .iter()
            .zip(&after)
            .map(|(&h, &v)| f64::from(d) * 10f64.powi(h as i32) + v)
            .fold(f64::NEG_INFINITY, f64::max);
        total += if options.is_empty() { 0.0 } else { best };
    }
    let v = total / 10.0;
    memo.insert(heights.clone(), v);
    v
}

#[test]
fn optimum_matches_brute_force() {
    for (n, b) in [(1u32, 1u32), (2, 2), (3, 3), (2, 5), (5, 2), (4, 6), (8, 6), (6, 8), (10, 4)] {
        let p = Params::new(n.into(), b.into()).unwrap();
        let mut memo = HashMap::new();
        let want = brute(b, &mut vec![0; n as usize], &mut memo);
        let got = optimum(p, 2, &Budget::unlimited(), &mut |_, _| {}).unwrap();
        assert!((got.value - want).abs() <= 1e-12 * want, "N={n} B={b}: {} vs {want}", got.value);
        assert_eq!(got.states as usize, memo.len(), "every state is reached");
    }
}

#[test]
fn every_layer_matches_brute_force() {
    let (n, b) = (6u32, 5u32);
    let mut memo = HashMap::new();
    brute(b, &mut vec![0; n as usize], &mut memo);
    let counts = BoxCounts::new(n, b).unwrap();
    let mut layers: Vec<Vec<f64>> = Vec::new();
    optimum_with(Params::new(6, 5).unwrap(), 2, &Budget::unlimited(), &mut |_, _, v| layers.push(v.to_vec())).unwrap();
    layers.reverse();
    assert_eq!(layers.len(), (n * b + 1) as usize);
    for (heights, want) in &memo {
        let t: u32 = heights.iter().sum();
        let got = layers[t as usize][rank_in_layer(&counts, heights) as usize];
        assert!((got - want).abs() <= 1e-12 * want.max(1.0), "{heights:?}: {got} vs {want}");
    }
}
