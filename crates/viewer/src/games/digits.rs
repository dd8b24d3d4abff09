//! digits: a game replayed block by block (towers filling up), and the scores of an evaluation
//! against S, the optimal expected score.

use serde::Deserialize;
use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_digits::Params;
use tessera_digits::demo::{self, first_game};
use tessera_digits::eval::{EvalSummary, GameResult};
use tessera_digits::params::{POW10, known_optimum};

use super::{Converted, DocError, records};
use crate::view::{Chart, Charts, Replay, Step, View};

const GAME: &str = "digits";

/// An eval summary; `None` for any other document.
pub(crate) fn from_value(v: &Value) -> Result<Option<Converted>, DocError> {
    let Ok(summary) = EvalSummary::deserialize(v) else { return Ok(None) };
    Ok(Some((GAME, "eval", vec![View::Charts(summary_charts(&summary))])))
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
pub(crate) fn from_records(lines: &[Value]) -> Result<Option<Converted>, DocError> {
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
    Ok(Some((GAME, "eval", vec![View::Charts(Charts { title: format!("digits: {strategy}"), figures, charts })])))
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

#[cfg(test)]
mod tests {
    use tessera_core::eval::Record;
    use tessera_digits::eval::summarise;

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
