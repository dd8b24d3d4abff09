//! digits: a game replayed block by block (towers filling up), and the scores of an evaluation
//! against S, the optimal expected score.

use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::rng::Rng64;
use tessera_core::stats::Rate;
use tessera_digits::params::{POW10, known_optimum};
use tessera_digits::{Params, State, StrategyName, Towers};

use super::{Converted, DocError, num};
use crate::view::{Chart, Charts, Replay, Step, View};

const GAME: &str = "digits";

/// A `digits eval --json` summary.
pub fn is_summary(v: &Value) -> bool {
    v.get("fraction_of_optimum").is_some() && v.get("scores").is_some()
}

/// One job record of `digits eval --jsonl`.
pub fn is_record(v: &Value) -> bool {
    v.get("strategy").is_some() && v.get("n").is_some() && v.get("b").is_some() && v.get("score").is_some()
}

/// An eval summary.
pub fn from_value(v: &Value) -> Result<Converted, DocError> {
    let strategy = v.get("strategy").and_then(Value::as_str).unwrap_or("?");
    let scores = v.get("scores").ok_or(DocError::Malformed { game: GAME, why: "no \"scores\"".into() })?;
    let mut figures = vec![
        ("strategy".into(), strategy.to_string()),
        ("games".into(), num(scores, "n", GAME)?.to_string()),
        ("mean score".into(), format!("{:.6e} (sd {:.4e})", num(scores, "mean", GAME)?, num(scores, "sd", GAME)?)),
    ];
    if let Some(f) = v.get("fraction_of_optimum") {
        let (x, lo, hi) = (num(f, "value", GAME)?, num(f, "low", GAME)?, num(f, "high", GAME)?);
        figures.push(("of S".into(), format!("{x:.6} (95% CI {lo:.6}..{hi:.6})")));
    }
    let mut rows = Vec::new();
    for set in v.get("sets").and_then(Value::as_array).into_iter().flatten() {
        let name = set.get("name").and_then(Value::as_str).unwrap_or("set");
        if let Some(p) = set.get("fail_probability").and_then(Value::as_f64) {
            figures.push((format!("{name} fails with probability"), format!("{p:.3e}")));
        }
        if let Some(r) = set.get("runs").and_then(|r| serde_json::from_value::<Rate>(r.clone()).ok()) {
            rows.push((format!("{name}: runs of 50 games passed"), r));
        }
    }
    let charts = vec![Chart::Rates { title: "test sets".into(), rows }];
    Ok((GAME, "eval", vec![View::Charts(Charts { title: format!("digits evaluation: {strategy}"), figures, charts })]))
}

/// Job records: each game's score as a fraction of S (of the best score seen if S is unknown).
pub fn from_records(lines: &[Value]) -> Result<Converted, DocError> {
    let first = &lines[0];
    let params = Params { n: num(first, "n", GAME)? as u32, b: num(first, "b", GAME)? as u32 };
    let scores = lines.iter().map(|r| num(r, "score", GAME)).collect::<Result<Vec<_>, _>>()?;
    let (reference, name) = match known_optimum(params) {
        Some(s) => (s, "S"),
        None => (scores.iter().copied().fold(1.0, f64::max), "the best game"),
    };
    let values: Vec<f64> = scores.iter().map(|s| s / reference).collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let strategy = first.get("strategy").and_then(Value::as_str).unwrap_or("?");
    let figures = vec![
        ("strategy".into(), strategy.to_string()),
        ("games".into(), lines.len().to_string()),
        (format!("mean, as a fraction of {name}"), format!("{mean:.6}")),
    ];
    let charts = vec![Chart::Histogram {
        title: format!("score per game, as a fraction of {name}"),
        unit: format!("of {name}"),
        values,
        reference: Some((format!("{name} (the optimal mean)"), 1.0)),
    }];
    Ok((GAME, "eval", vec![View::Charts(Charts { title: format!("digits: {strategy}"), figures, charts })]))
}

/// One official game played by the `best` strategy, block by block.
pub fn demo(_threads: usize) -> Vec<View> {
    let params = Params::OFFICIAL;
    let name = StrategyName::Best.resolve(params);
    let Ok(strategy) = name.build(params) else { return Vec::new() };
    let mut rng = Rng64::seed(1);
    let (mut state, mut towers) = (State::new(params), Towers::new(params));
    let top = params.b as i32 - 1;
    let start = (0..params.n as i32).flat_map(|c| (0..=top).map(move |r| (c, r, ".".to_string()))).collect();
    let mut steps = Vec::new();
    let mut score = 0u64;
    for k in 0..params.blocks() {
        let digit = rng.below(10) as u8;
        let h = strategy.choose(&state, digit);
        let (Ok(()), Some(tower)) = (state.place(h), towers.take(h)) else { break };
        score += u64::from(digit) * POW10[h as usize];
        let cell = (tower as i32, top - h as i32);
        steps.push(Step {
            set: vec![(cell.0, cell.1, digit.to_string())],
            marks: vec![cell],
            caption: format!("block {}: {digit} on tower {} at height {h}; score {score}", k + 1, tower + 1),
            ..Step::default()
        });
    }
    let title = format!("one game of {} towers of {}, played by {name}", params.n, params.b);
    vec![View::Replay(Replay::new(title, Lattice::Square, start, steps, "block"))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::document;

    #[test]
    fn a_game_fills_every_place_once() {
        let views = demo(1);
        let View::Replay(r) = &views[0] else { panic!("a replay") };
        assert_eq!(r.steps.len(), 300);
        let mut cells: Vec<(i32, i32)> = r.steps.iter().map(|s| (s.set[0].0, s.set[0].1)).collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), 300, "every place of the 20 x 15 towers filled once");
    }

    #[test]
    fn records_become_fractions_of_s() {
        let text = r#"{"job":0,"of":2,"base_seed":1,"seed":3,"strategy":"top2","n":20,"b":15,"score":19131995794056374}
{"job":1,"of":2,"base_seed":1,"seed":4,"strategy":"top2","n":20,"b":15,"score":9565997897028187}"#;
        let d = document("g.jsonl", text).unwrap();
        assert_eq!(d.game, "digits");
        let v = serde_json::to_value(&d.views[0]).unwrap();
        let values = v["charts"][0]["values"].as_array().unwrap();
        assert!((values[0].as_f64().unwrap() - 1.0).abs() < 1e-12 && (values[1].as_f64().unwrap() - 0.5).abs() < 1e-12);
    }
}
