//! digits: a game replayed block by block (towers filling up); the scores of an evaluation, or of a
//! judged run, against S, the optimal expected score; S as computed, and a strategy's exact value.

use crate::Params;
use crate::demo::{self, first_game};
use crate::eval::{EvalSummary, GameResult};
use crate::format::{StrategyValueReport, ValueReport};
use crate::params::{KNOWN_S_OFFICIAL, POW10, known_optimum};
use crate::process::ProcessReport;
use serde::Deserialize;
use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::runtime::Outcome;
use tessera_game::tour::plural;

use tessera_game::Shown;
use tessera_game::read::{DocError, records};
use tessera_game::view::{Chart, Charts, Replay, Step, View};

const GAME: &str = "digits";

/// An eval summary, a `value --json` output (S, or a strategy's value) or a `judge --json` run;
/// `None` for any other document.
pub(crate) fn from_value(v: &Value) -> Result<Option<Shown>, DocError> {
    let charts = if let Ok(summary) = EvalSummary::deserialize(v) {
        ("eval", summary_charts(&summary))
    } else if let Ok(report) = ValueReport::deserialize(v) {
        ("value", optimum_figures(&report))
    } else if let Ok(report) = StrategyValueReport::deserialize(v) {
        ("value", strategy_figures(&report))
    } else if let Ok(report) = ProcessReport::deserialize(v) {
        ("judge", judged_charts(&report))
    } else {
        return Ok(None);
    };
    Ok(Some(Shown { kind: charts.0, views: vec![View::Charts(charts.1)] }))
}

/// S as computed, and how far it agrees with the published value.
fn optimum_figures(r: &ValueReport) -> Charts {
    let o = &r.optimum;
    let (value, outcome) = match o.outcome {
        Outcome::Complete => (format!("{:.2}", o.value), "every layer".to_string()),
        Outcome::Stopped(why) => ("not known: the computation stopped".to_string(), format!("stopped: {why}")),
    };
    let mut figures = vec![
        ("S, the optimal expected score".to_string(), value),
        ("computed".to_string(), outcome),
        ("states".to_string(), format!("{} (largest layer {})", o.states, o.largest_layer)),
    ];
    if let (Some(error), Some(digits)) = (r.relative_error_to_known, r.significant_digits) {
        // The only S published, with more digits than a double holds.
        let known = KNOWN_S_OFFICIAL.get(..20).unwrap_or(KNOWN_S_OFFICIAL);
        let agree = format!("{known}: relative error {error:.1e}, {digits} significant digits");
        figures.push(("the published S".to_string(), agree));
    }
    figures.push(("time".to_string(), format!("{:.1} s on {}", o.seconds, threads(r.threads))));
    Charts { title: format!("digits: S for {}", o.params), figures, charts: Vec::new() }
}

/// A strategy's exact expected score, against S.
fn strategy_figures(r: &StrategyValueReport) -> Charts {
    let mut figures = vec![("expected score".to_string(), format!("{:.2}", r.value))];
    if let (Some(f), Some(s)) = (r.fraction_of_optimum, r.optimum) {
        figures.push(("of S".to_string(), format!("{f:.9} (S = {s:.2})")));
    }
    if let Some(own) = r.own_value {
        figures.push(("its own tables' value".to_string(), format!("{own:.2}")));
    }
    figures.extend([
        ("states reached".to_string(), format!("{} (largest layer {})", r.reachable_states, r.largest_layer)),
        ("time".to_string(), format!("tables {:.1} ms, evaluation {:.2} s", r.build_seconds * 1000.0, r.seconds)),
    ]);
    let name =
        if r.strategy == r.resolved { r.strategy.to_string() } else { format!("{} ({})", r.strategy, r.resolved) };
    Charts { title: format!("digits: {name} at {}", r.params), figures, charts: Vec::new() }
}

/// A program judged: the verdict and its figures, and each game's score as a fraction of S.
fn judged_charts(r: &ProcessReport) -> Charts {
    let j = &r.judge;
    let set = j.set;
    let verdict = if r.passed { "passed" } else { "failed" };
    let mut figures = vec![
        ("set".to_string(), format!("T={} {} P={}, seed {}", set.t, set.params, set.p, j.seed)),
        ("verdict".to_string(), format!("{verdict}: total {} = {:.6} P", j.total, j.total as f64 / set.p as f64)),
    ];
    if let Some(f) = &j.fault {
        figures.push(("fault".to_string(), format!("game {}, block {}: the player {}", f.game, f.block, f.violation)));
    }
    let exit = match (r.timed_out, r.exit_code) {
        (true, _) => "killed at the time limit".to_string(),
        (false, Some(c)) => format!("exit status {c}"),
        (false, None) => "killed by a signal".to_string(),
    };
    figures.push(("the program".to_string(), exit));
    if let Some(extra) = &r.after_verdict {
        figures.push(("after the verdict it wrote".to_string(), format!("{extra:?}")));
    }
    let memory = r.peak_kib.map_or(String::new(), |k| format!(", peak memory {:.1} MiB", k as f64 / 1024.0));
    figures.push(("time".to_string(), format!("{:.2} s{memory}", r.seconds)));
    let scores: Vec<f64> = j.scores.iter().map(|&s| s as f64).collect();
    let (values, unit, reference) = match known_optimum(set.params) {
        Some(s) => (scores.iter().map(|x| x / s).collect(), "of S", Some(("S (the optimal mean)".to_string(), 1.0))),
        None => (scores, "points", None),
    };
    let title = format!("score per game ({} of {} played)", j.scores.len(), set.t);
    let charts = vec![Chart::Histogram { title, unit: unit.into(), values, reference }];
    Charts { title: "digits: a judged run".into(), figures, charts }
}

fn threads(n: usize) -> String {
    plural(n as u64, "thread", "threads")
}

fn summary_charts(s: &EvalSummary) -> Charts {
    let scores = &s.scores;
    let mut figures = vec![
        ("strategy".into(), s.strategy.clone()),
        ("games".into(), scores.n.to_string()),
        ("mean score".into(), format!("{:.6e} (sd {:.4e})", scores.mean, scores.sd)),
    ];
    if let Some(f) = &s.fraction_of_optimum {
        figures.push(("of S".into(), format!("{:.6} (95% CI {:.6}..{:.6})", f.value, f.low, f.high)));
    }
    let mut rows = Vec::new();
    for set in &s.sets {
        figures.push((format!("{} fails with probability", set.name), format!("{:.3e}", set.fail_probability)));
        rows.push((format!("{}: runs of 50 games passed", set.name), set.runs.clone()));
    }
    let charts = vec![Chart::Rates { title: "test sets".into(), rows }];
    Charts { title: format!("digits evaluation: {}", s.strategy), figures, charts }
}

/// Job records: each game's score as a fraction of S (of the best score seen if S is unknown);
/// `None` if they are not digits records.
pub(crate) fn from_records(lines: &[Value]) -> Result<Option<Shown>, DocError> {
    let Some(games) = records::<GameResult>(lines, GAME)? else { return Ok(None) };
    let first = &games[0];
    let params = Params { n: first.n, b: first.b };
    let scores: Vec<f64> = games.iter().map(|g| g.score as f64).collect();
    let (reference, name) = match known_optimum(params) {
        Some(s) => (s, "S"),
        None => (scores.iter().copied().fold(1.0, f64::max), "the best game"),
    };
    let values: Vec<f64> = scores.iter().map(|s| s / reference).collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let strategy = &first.strategy;
    let figures = vec![
        ("strategy".into(), strategy.clone()),
        ("games".into(), games.len().to_string()),
        (format!("mean, as a fraction of {name}"), format!("{mean:.6}")),
    ];
    let charts = vec![Chart::Histogram {
        title: format!("score per game, as a fraction of {name}"),
        unit: format!("of {name}"),
        values,
        reference: Some((format!("{name} (the optimal mean)"), 1.0)),
    }];
    Ok(Some(Shown {
        kind: "eval",
        views: vec![View::Charts(Charts { title: format!("digits: {strategy}"), figures, charts })],
    }))
}

/// The first game of the game's demonstration run ([`first_game`]), replayed block by block.
pub(crate) fn demo(_threads: usize) -> Vec<View> {
    let Ok(blocks) = first_game() else { return Vec::new() };
    let params = demo::SET.params;
    let top = params.b as i32 - 1;
    let start = (0..params.n as i32).flat_map(|c| (0..=top).map(move |r| (c, r, ".".to_string()))).collect();
    let mut score = 0u64;
    let steps = blocks
        .iter()
        .enumerate()
        .map(|(k, b)| {
            score += u64::from(b.digit) * POW10[b.height as usize];
            let cell = (b.tower as i32, top - b.height as i32);
            Step {
                set: vec![(cell.0, cell.1, b.digit.to_string())],
                marks: vec![cell],
                caption: format!(
                    "block {}: {} on tower {} at height {}; score {score}",
                    k + 1,
                    b.digit,
                    b.tower + 1,
                    b.height
                ),
                ..Step::default()
            }
        })
        .collect();
    let name = demo::STRATEGY.resolve(params);
    let title = format!("one game of {} towers of {}, played by {name}", params.n, params.b);
    vec![View::Replay(Replay::new(title, Lattice::Square, start, steps, "block"))]
}

/// Code Jam 2021 "Digit Blocks" as the command line and the viewer know it (see [`tessera_game::Game`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct DigitsGame;

impl tessera_game::Game for DigitsGame {
    fn name(&self) -> &'static str {
        GAME
    }

    fn shows(&self) -> &'static str {
        "one official game played by the best strategy"
    }

    fn tour(&self, threads: usize) -> Vec<tessera_game::tour::Demo> {
        crate::tour(threads)
    }

    fn demo(&self, threads: usize) -> Shown {
        Shown { kind: "game", views: demo(threads) }
    }

    fn read(&self, value: &Value) -> Result<Option<Shown>, DocError> {
        from_value(value)
    }

    fn read_records(&self, lines: &[Value]) -> Result<Option<Shown>, DocError> {
        from_records(lines)
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::summarise;
    use tessera_game::eval::Record;

    use super::*;
    use tessera_game::view::Document;

    fn document(name: &str, text: &str) -> Result<Document, DocError> {
        tessera_game::document(&[&DigitsGame], name, text)
    }

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
    fn values_of_s_and_of_a_strategy_become_figures() {
        use crate::exact::{Optimum, optimum};
        use crate::expected::expected_score;
        use crate::strategy::StrategyName;
        use tessera_core::runtime::Budget;
        let params = Params::new(6, 4).unwrap();
        let o = optimum(params, 1, &Budget::unlimited(), &mut |_, _| {}).unwrap();
        let s = o.value;
        let d = document("s.json", &serde_json::to_string(&ValueReport::new(o.clone(), 1)).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("digits", "value"));
        let View::Charts(c) = &d.views[0] else { panic!("figures") };
        assert_eq!(c.title, "digits: S for N=6 B=4");
        assert_eq!(c.figures[0], ("S, the optimal expected score".to_string(), format!("{s:.2}")));
        assert!(c.figures.iter().all(|f| f.0 != "the published S"), "S is published for the official size only");
        let strategy = StrategyName::Best.build(params).unwrap();
        let v = expected_score(strategy.as_ref(), params, 1, &Budget::unlimited()).unwrap();
        let report = StrategyValueReport::new(StrategyName::Best, params, &v, Some(s), None, 0.001);
        let d = document("v.json", &serde_json::to_string(&report).unwrap()).unwrap();
        let View::Charts(c) = &d.views[0] else { panic!("figures") };
        assert_eq!(c.title, "digits: best (top4) at N=6 B=4");
        assert_eq!(c.figures[1].1, format!("{:.9} (S = {s:.2})", v.value / s));
        // The official S, as `value --json` writes it when it is computed.
        let official = ValueReport::new(Optimum { params: Params::OFFICIAL, value: 1.913_199_579_405_637e16, ..o }, 2);
        let d = document("o.json", &serde_json::to_string(&official).unwrap()).unwrap();
        let View::Charts(c) = &d.views[0] else { panic!("figures") };
        let published = c.figures.iter().find(|f| f.0 == "the published S").expect("compared");
        assert!(published.1.starts_with("19131995794056374.42: relative error"), "{}", published.1);
    }

    #[test]
    fn a_judged_run_becomes_its_verdict_and_scores() {
        use crate::params::TestSet;
        use crate::protocol::JudgeReport;
        let set = TestSet { t: 2, params: Params::OFFICIAL, p: 1 };
        let scores = vec![19_131_995_794_056_374, 9_565_997_897_028_187];
        let judge = JudgeReport {
            set,
            seed: 4,
            scores,
            total: 28_697_993_691_084_561,
            passed: true,
            fault: None,
            seconds: 0.5,
        };
        let report = ProcessReport {
            judge,
            exit_code: Some(0),
            after_verdict: None,
            timed_out: false,
            peak_kib: Some(2048),
            seconds: 0.6,
            passed: true,
        };
        let d = document("j.json", &serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("digits", "judge"));
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        assert!(c.figures[1].1.starts_with("passed: total 28697993691084561"), "{:?}", c.figures);
        assert_eq!(c.figures.last().unwrap().1, "0.60 s, peak memory 2.0 MiB");
        let Chart::Histogram { values, unit, .. } = &c.charts[0] else { panic!("a histogram") };
        assert_eq!(unit, "of S");
        assert!((values[0] - 1.0).abs() < 1e-12 && (values[1] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn records_become_fractions_of_s() {
        let game = |score: u64| GameResult { strategy: "top2".into(), n: 20, b: 15, score, illegal: None };
        let records = [(0, 19_131_995_794_056_374), (1, 9_565_997_897_028_187)].map(|(job, score)| Record {
            job,
            of: 2,
            base_seed: 1,
            seed: job + 3,
            result: game(score),
        });
        let text = records.iter().map(|r| serde_json::to_string(r).unwrap()).collect::<Vec<_>>().join("\n");
        let d = document("g.jsonl", &text).unwrap();
        assert_eq!(d.game, "digits");
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        let Chart::Histogram { values, .. } = &c.charts[0] else { panic!("a histogram") };
        assert!((values[0] - 1.0).abs() < 1e-12 && (values[1] - 0.5).abs() < 1e-12);
        let summary = summarise("top2", Params::OFFICIAL, &records, known_optimum(Params::OFFICIAL), None);
        let d = document("s.json", &serde_json::to_string(&summary).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("digits", "eval"));
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        assert_eq!(c.title, "digits evaluation: top2");
        assert_eq!(c.figures[1], ("games".to_string(), "2".to_string()));
    }
}
