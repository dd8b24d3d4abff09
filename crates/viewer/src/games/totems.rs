//! totems: a packing as a board coloured per shape; an evaluation as rates per level and a
//! histogram of answer times.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_core::stats::Rate;
use tessera_totems::game::level_bag;
use tessera_totems::solve::{Ctx, Solver, hybrid};
use tessera_totems::{Answer, Bag};

use super::{Converted, DocError, arr, num};
use crate::view::{Board, Cell, Chart, Charts, View};

const GAME: &str = "totems";

/// A `totems solve --json` output.
pub fn is_solve(v: &Value) -> bool {
    v.get("actions").is_some() && v.get("box").is_some()
}

/// A `totems eval --json` summary.
pub fn is_summary(v: &Value) -> bool {
    v.get("optimal").is_some_and(Value::is_object) && v.get("decided").is_some()
}

/// One job record of `totems eval --jsonl`.
pub fn is_record(v: &Value) -> bool {
    v.get("best_score").is_some() && v.get("dims").is_some()
}

/// A solve output or an eval summary.
pub fn from_value(v: &Value) -> Result<Converted, DocError> {
    if is_solve(v) {
        return Ok((GAME, "solve", vec![View::Board(solve_board(v)?)]));
    }
    if is_summary(v) {
        return Ok((GAME, "eval", vec![View::Charts(summary_charts(v)?)]));
    }
    Err(DocError::Malformed { game: GAME, why: "neither a solve output nor an eval summary".into() })
}

/// The cells of a packing's box (`y` up in the game, row 0 at the top in a picture), `.` where
/// no piece is.
pub fn answer_cells(shapes: &[(String, Vec<(i32, i32)>)]) -> Vec<Cell> {
    let all = || shapes.iter().flat_map(|s| &s.1);
    let (w, top) = (all().map(|c| c.0).max().unwrap_or(0), all().map(|c| c.1).max().unwrap_or(0));
    let mut grid: BTreeMap<(i32, i32), String> =
        (0..=top).flat_map(|r| (0..=w).map(move |c| ((r, c), ".".to_string()))).collect();
    for (label, cells) in shapes {
        for &(x, y) in cells.iter().filter(|c| c.0 >= 0 && c.1 >= 0) {
            grid.insert((top - y, x), label.clone());
        }
    }
    grid.into_iter().map(|((r, c), l)| (c, r, l)).collect()
}

fn solve_board(v: &Value) -> Result<Board, DocError> {
    let totems = v.get("actions").map_or(Ok(&[][..]), |a| arr(a, "totems", GAME))?;
    let mut shapes = Vec::new();
    for t in totems {
        let shape = t.get("shape").and_then(Value::as_str).unwrap_or("?").to_string();
        let cells = arr(t, "coordinates", GAME)?
            .iter()
            .filter_map(|c| Some((c.get(0)?.as_i64()? as i32, c.get(1)?.as_i64()? as i32)))
            .collect();
        shapes.push((shape, cells));
    }
    let dims = arr(v, "box", GAME)?;
    let (w, h) = (dims.first().and_then(Value::as_u64).unwrap_or(0), dims.get(1).and_then(Value::as_u64).unwrap_or(0));
    let score = num(v, "score", GAME)?;
    let verdict = if v.get("optimal").and_then(Value::as_bool) == Some(true) { " (optimal)" } else { "" };
    let caption = vec![format!("{} pieces in {w}x{h}: score {score}{verdict}", shapes.len())];
    Ok(Board::new(format!("{} pieces", shapes.len()), Lattice::Square, answer_cells(&shapes), caption))
}

fn rate(v: &Value, key: &str) -> Option<Rate> {
    serde_json::from_value(v.get(key)?.clone()).ok()
}

fn summary_charts(v: &Value) -> Result<Charts, DocError> {
    let ms = |k: &str| v.get("seconds").and_then(|s| s.get(k)).and_then(Value::as_f64).map_or(0.0, |x| x * 1000.0);
    let figures = vec![
        ("bags".into(), num(v, "jobs", GAME)?.to_string()),
        ("mean score".into(), format!("{:.2}", num(v, "mean_score", GAME)?)),
        ("answer time".into(), format!("p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", ms("p50"), ms("p99"), ms("max"))),
        ("invalid answers".into(), num(v, "invalid", GAME)?.to_string()),
    ];
    let rows =
        [("optimal", "optimal"), ("level best", "level_best"), ("out of reach", "impossible"), ("decided", "decided")]
            .iter()
            .filter_map(|&(label, key)| Some((label.to_string(), rate(v, key)?)))
            .collect();
    Ok(Charts {
        title: "totems evaluation".into(),
        figures,
        charts: vec![Chart::Rates { title: "rates".into(), rows }],
    })
}

/// Job records: rates per number of pieces (per level), and the answer times.
pub fn from_records(lines: &[Value]) -> Result<Converted, DocError> {
    let mut by_size: BTreeMap<u64, [u64; 3]> = BTreeMap::new();
    let mut times = Vec::new();
    for r in lines {
        let pieces = num(r, "pieces", GAME)? as u64;
        let optimal = r.get("optimal").and_then(Value::as_bool).unwrap_or(false);
        let best =
            r.get("level_best").and_then(Value::as_f64).is_some_and(|b| num(r, "score", GAME).unwrap_or(0.0) >= b);
        let e = by_size.entry(pieces).or_default();
        e[0] += 1;
        e[1] += u64::from(optimal);
        e[2] += u64::from(best);
        times.push(num(r, "seconds", GAME)? * 1000.0);
    }
    let name = |n: u64| match n.is_power_of_two() && n <= 512 {
        true => format!("level {} ({n} pieces)", n.trailing_zeros() + 1),
        false => format!("{n} pieces"),
    };
    let optimal = by_size.iter().map(|(&n, c)| (name(n), Rate::new(c[1], c[0]))).collect();
    let level_best = by_size.iter().map(|(&n, c)| (name(n), Rate::new(c[2], c[0]))).collect();
    let charts = vec![
        Chart::Rates { title: "optimal answers (the bag's best box)".into(), rows: optimal },
        Chart::Rates { title: "the level's best score (a perfect round's)".into(), rows: level_best },
        Chart::Histogram {
            title: "answer time".into(),
            unit: "ms".into(),
            values: times,
            reference: Some(("the game's limit".into(), 1000.0)),
        },
    ];
    let scores: Vec<f64> = lines.iter().filter_map(|r| r.get("score").and_then(Value::as_f64)).collect();
    let invalid = lines.iter().filter(|r| r.get("invalid").is_some_and(|i| !i.is_null())).count();
    let figures = vec![
        ("bags".into(), lines.len().to_string()),
        ("mean score".into(), format!("{:.2}", scores.iter().sum::<f64>() / scores.len().max(1) as f64)),
        ("invalid answers".into(), invalid.to_string()),
    ];
    Ok((GAME, "eval", vec![View::Charts(Charts { title: "totems evaluation".into(), figures, charts })]))
}

/// A level-9 and a level-10 bag, each packed within the game's second.
pub fn demo(threads: usize) -> Vec<View> {
    [9, 10]
        .into_iter()
        .map(|level| {
            let bag = level_bag(level, &mut Rng64::seed(u64::from(level)));
            let budget = Budget::unlimited().with_time(Duration::from_secs(1));
            let s = hybrid::solve(&bag, Solver::Hybrid, &Ctx { threads, seed: 0, budget: &budget });
            View::Board(answer_board(&format!("level {level}"), &bag, &s.answer, s.optimal()))
        })
        .collect()
}

/// A packing as a board.
pub fn answer_board(title: &str, bag: &Bag, answer: &Answer, optimal: bool) -> Board {
    let letters: Vec<char> = bag.set.letters().chars().collect();
    let shapes: Vec<(String, Vec<(i32, i32)>)> =
        answer.placed.iter().map(|p| (letters[p.kind].to_string(), p.cells.clone())).collect();
    let (w, h) = answer.bbox();
    let verdict = if optimal { " (optimal)" } else { "" };
    let caption = vec![format!("{} pieces in {w}x{h}: score {}{verdict}", bag.len(), answer.score(bag.set))];
    Board::new(title, Lattice::Square, answer_cells(&shapes), caption)
}

#[cfg(test)]
mod tests {
    use crate::games::document;

    #[test]
    fn a_solve_output_becomes_a_board() {
        let json = r#"{"game":"totems","kind":"solve","actions":{"totems":[
            {"shape":"I","coordinates":[[0,0],[1,0],[2,0],[3,0]]},
            {"shape":"O","coordinates":[[0,1],[1,1],[0,2],[1,2]]}]},
            "box":[4,3],"score":4.5,"optimal":true}"#;
        let d = document("a.json", json).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("totems", "solve"));
        let v = serde_json::to_value(&d.views[0]).unwrap();
        // y up in the game, row 0 at the top in the picture: the I lies on the bottom row 2.
        assert!(v["cells"].as_array().unwrap().contains(&serde_json::json!([0, 2, "I"])));
        assert!(v["caption"][0].as_str().unwrap().contains("score 4.5 (optimal)"));
    }

    #[test]
    fn job_records_become_rates_per_level_and_times() {
        let line = |job: u64, pieces: u64, optimal: bool| {
            format!(
                r#"{{"job":{job},"of":3,"base_seed":1,"seed":5,"bag":"I","pieces":{pieces},"dims":[8,8],"score":96.0,"best_score":96.0,"optimal":{optimal},"impossible":false,"level_best":96.0,"seconds":0.002,"invalid":null}}"#
            )
        };
        let text = [line(0, 16, true), line(1, 16, false), line(2, 64, true)].join("\n");
        let d = document("run.jsonl", &text).unwrap();
        let v = serde_json::to_value(&d.views[0]).unwrap();
        assert_eq!(v["charts"][0]["rows"][0][0], "level 5 (16 pieces)");
        assert_eq!(v["charts"][0]["rows"][0][1]["successes"], 1);
        assert_eq!(v["charts"][2]["values"].as_array().unwrap().len(), 3);
    }
}
