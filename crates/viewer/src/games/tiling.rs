//! tiling: the solutions of a puzzle as a replay (one step per solution, a slider over them);
//! an evaluation as its solve rate and a histogram of solve times.

use std::ops::ControlFlow;

use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::runtime::Budget;
use tessera_core::stats::Rate;
use tessera_tiling::{Puzzle, Tiler, builtin};

use super::{Converted, DocError, arr, num};
use crate::view::{Cell, Chart, Charts, Replay, Step, View};

const GAME: &str = "tiling";

/// Most solutions one replay holds (a bigger list is cut, and says so).
pub const MAX_SOLUTIONS: usize = 5000;

/// A `tiling solve --all --json` output.
pub fn is_solutions(v: &Value) -> bool {
    v.get("puzzle").is_some() && (v.get("solutions").is_some() || v.get("raw").is_some())
}

/// A `tiling eval --json` summary.
pub fn is_summary(v: &Value) -> bool {
    v.get("solved").is_some_and(Value::is_object) && v.get("wrong").is_some()
}

/// One job record of `tiling eval --jsonl`.
pub fn is_record(v: &Value) -> bool {
    v.get("solved").is_some_and(Value::is_boolean) && v.get("cells").is_some()
}

/// A solve output (solutions or counts) or an eval summary.
pub fn from_value(v: &Value) -> Result<Converted, DocError> {
    if is_summary(v) {
        return Ok((GAME, "eval", vec![View::Charts(summary_charts(v)?)]));
    }
    let puzzle = v.get("puzzle").ok_or(DocError::Malformed { game: GAME, why: "no \"puzzle\"".into() })?;
    let name = puzzle.get("name").and_then(Value::as_str).unwrap_or("puzzle");
    let lattice = match puzzle.get("lattice").and_then(Value::as_str) {
        Some("hex") => Lattice::Hex,
        _ => Lattice::Square,
    };
    if v.get("solutions").is_none() {
        // Counts only.
        let figures = ["raw", "distinct", "seconds"]
            .iter()
            .filter_map(|&k| Some((k.to_string(), v.get(k)?.to_string())))
            .collect();
        return Ok((GAME, "count", vec![View::Charts(Charts { title: name.into(), figures, charts: Vec::new() })]));
    }
    let mut solutions = Vec::new();
    for s in arr(v, "solutions", GAME)?.iter().take(MAX_SOLUTIONS) {
        let mut cells = Vec::new();
        for p in arr(s, "pieces", GAME)? {
            let label = p.get("label").and_then(Value::as_str).unwrap_or("?");
            for c in p.get("cells").and_then(Value::as_array).into_iter().flatten() {
                if let (Some(col), Some(row)) = (c.get(0).and_then(Value::as_i64), c.get(1).and_then(Value::as_i64)) {
                    cells.push((col as i32, row as i32, label.to_string()));
                }
            }
        }
        solutions.push(cells);
    }
    let total = arr(v, "solutions", GAME)?.len();
    Ok((GAME, "solutions", vec![View::Replay(replay(name, lattice, solutions, total))]))
}

/// A replay of solutions: each step sets every cell.
fn replay(name: &str, lattice: Lattice, solutions: Vec<Vec<Cell>>, total: usize) -> Replay {
    let start = solutions.first().map_or(Vec::new(), |s| s.iter().map(|c| (c.0, c.1, ".".to_string())).collect());
    let shown = solutions.len();
    let steps = solutions
        .into_iter()
        .enumerate()
        .map(|(k, set)| Step { set, caption: format!("solution {} of {total}", k + 1), ..Step::default() })
        .collect();
    let title =
        if shown < total { format!("{name}: the first {shown} of {total} solutions") } else { name.to_string() };
    Replay::new(title, lattice, start, steps, "solution")
}

fn summary_charts(v: &Value) -> Result<Charts, DocError> {
    let ms = |k: &str| v.get("seconds").and_then(|s| s.get(k)).and_then(Value::as_f64).map_or(0.0, |x| x * 1000.0);
    let figures = vec![
        ("puzzles".into(), num(v, "jobs", GAME)?.to_string()),
        ("wrong answers".into(), num(v, "wrong", GAME)?.to_string()),
        ("time".into(), format!("p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms", ms("p50"), ms("p99"), ms("max"))),
    ];
    let solved: Option<Rate> = v.get("solved").and_then(|r| serde_json::from_value(r.clone()).ok());
    let rows = solved.map(|r| vec![("solved".to_string(), r)]).unwrap_or_default();
    Ok(Charts {
        title: "tiling evaluation".into(),
        figures,
        charts: vec![Chart::Rates { title: "solve rate".into(), rows }],
    })
}

/// Job records: the solve rate and the solve times.
pub fn from_records(lines: &[Value]) -> Result<Converted, DocError> {
    let solved = lines.iter().filter(|r| r.get("solved").and_then(Value::as_bool) == Some(true)).count();
    let times = lines.iter().map(|r| num(r, "seconds", GAME).map(|s| s * 1000.0)).collect::<Result<Vec<_>, _>>()?;
    let charts = vec![
        Chart::Rates {
            title: "solve rate".into(),
            rows: vec![("solved".into(), Rate::new(solved as u64, lines.len() as u64))],
        },
        Chart::Histogram { title: "solve time".into(), unit: "ms".into(), values: times, reference: None },
    ];
    let wrong = lines.iter().filter(|r| r.get("wrong").and_then(Value::as_bool) == Some(true)).count();
    let figures = vec![("puzzles".into(), lines.len().to_string()), ("wrong answers".into(), wrong.to_string())];
    Ok((GAME, "eval", vec![View::Charts(Charts { title: "tiling evaluation".into(), figures, charts })]))
}

/// Every solution of meteor, and every distinct tiling of the pentominoes on 6x10.
pub fn demo(_threads: usize) -> Vec<View> {
    [("meteor", false), ("pentomino-6x10", true)]
        .into_iter()
        .filter_map(|(name, distinct)| builtin(name).map(|p| View::Replay(solutions(&p, distinct))))
        .collect()
}

/// The solutions of a puzzle (at most [`MAX_SOLUTIONS`]), as a replay.
pub fn solutions(puzzle: &Puzzle, distinct: bool) -> Replay {
    let lattice = puzzle.problem.lattice;
    let Ok(tiler) = Tiler::new(&puzzle.problem) else { return replay(&puzzle.name, lattice, Vec::new(), 0) };
    let mut all = Vec::new();
    // Stopped at MAX_SOLUTIONS, or complete: the replay shows what was listed either way.
    let _ = tiler.for_each(&Budget::unlimited(), distinct, |s| {
        all.push(tiler.labelled_cells(s).into_iter().map(|(c, r, l)| (c, r, l.to_string())).collect());
        if all.len() >= MAX_SOLUTIONS { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    let total = all.len();
    let name = if distinct { format!("{} (up to symmetry)", puzzle.name) } else { puzzle.name.clone() };
    replay(&name, lattice, all, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::document;

    #[test]
    fn every_solution_is_a_step() {
        let p = builtin("pentomino-3x20").unwrap();
        let r = solutions(&p, false);
        assert_eq!(r.steps.len(), 8, "3x20 has 8 tilings, 2 up to symmetry");
        assert!(r.steps.iter().all(|s| s.set.len() == 60));
        assert_eq!(r.palette.len(), 12);
    }

    #[test]
    fn a_solve_all_output_becomes_a_replay() {
        let json = r#"{"puzzle":{"name":"dominoes","lattice":"square"},"solutions":[
            {"labels":"AA","pieces":[{"label":"A","cells":[[0,0],[1,0]]}]},
            {"labels":"BB","pieces":[{"label":"B","cells":[[0,0],[1,0]]}]}]}"#;
        let d = document("s.json", json).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("tiling", "solutions"));
        let v = serde_json::to_value(&d.views[0]).unwrap();
        assert_eq!(v["steps"].as_array().unwrap().len(), 2);
        assert_eq!(v["start"], serde_json::json!([[0, 0, "."], [1, 0, "."]]));
    }
}
