//! totems: a packing as a board coloured per shape; a round as each level's score against its best
//! box's; an evaluation as rates per level and a histogram of answer times.

use std::collections::BTreeMap;

use crate::demo::{demo_bags, solve_demo};
use crate::eval::{EvalSummary, JobResult};
use crate::format::{RoundReport, SolveReport};
use crate::game::{LevelResult, PERFECT_ROUND};
use crate::{Answer, Bag};
use serde::Deserialize;
use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::stats::Rate;
use tessera_game::tour::plural;

use tessera_game::Shown;
use tessera_game::read::{DocError, records};
use tessera_game::view::{Bar, Board, Cell, Chart, Charts, View};

const GAME: &str = "totems";

/// A solve output or an eval summary; `None` for any other document.
pub(crate) fn from_value(v: &Value) -> Result<Option<Shown>, DocError> {
    if let Ok(solve) = SolveReport::deserialize(v) {
        return Ok(Some(Shown { kind: "solve", views: vec![View::Board(solve_board(&solve))] }));
    }
    if let Ok(summary) = EvalSummary::deserialize(v) {
        return Ok(Some(Shown { kind: "eval", views: vec![View::Charts(summary_charts(&summary))] }));
    }
    if let Ok(round) = RoundReport::deserialize(v) {
        return Ok(Some(Shown { kind: "round", views: vec![View::Charts(round_charts(&round))] }));
    }
    Ok(None)
}

/// A round: its score against a perfect round's, and each level's against the level's best box.
fn round_charts(r: &RoundReport) -> Charts {
    let best = r.levels.iter().filter(|l| l.score >= l.best_score).count();
    let mut figures = vec![
        ("seed".to_string(), r.seed.to_string()),
        ("score".to_string(), format!("{} (perfect: {PERFECT_ROUND})", r.score)),
        ("levels at their best box".to_string(), format!("{best} of {}", r.levels.len())),
    ];
    if let Some(n) = r.rounds {
        figures.push(("rounds played for it".to_string(), n.to_string()));
    }
    let rows = r.levels.iter().map(level_bar).collect();
    let chart = Chart::Bars {
        title: "score per level, as a fraction of its best box's".into(),
        parts: vec!["score".into()],
        reference: Some("the best box's score".into()),
        rows,
    };
    Charts { title: format!("totems round (seed {})", r.seed), figures, charts: vec![chart] }
}

/// One level's bar: its score as a fraction of its best box's (levels differ a thousandfold).
fn level_bar(l: &LevelResult) -> Bar {
    let verdict = if l.score >= l.best_score {
        "optimal"
    } else if l.best_box_impossible {
        "the best box is impossible"
    } else {
        "below the best box"
    };
    let (w, h) = l.dims;
    let ms = l.seconds * 1000.0;
    Bar {
        label: format!("level {} ({})", l.level, plural(l.bag.len() as u64, "piece", "pieces")),
        values: vec![if l.best_score > 0.0 { l.score / l.best_score } else { 0.0 }],
        reference: Some(1.0),
        note: format!("{w}x{h}: {} of {} ({verdict}), {ms:.1} ms", l.score, l.best_score),
    }
}

/// The cells of a packing's box (`y` up in the game, row 0 at the top in a picture), `.` where
/// no piece is.
pub(crate) fn answer_cells(shapes: &[(String, Vec<(i32, i32)>)]) -> Vec<Cell> {
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

/// The cells of each piece as [`answer_cells`] places them, to outline.
pub(crate) fn answer_pieces(shapes: &[(String, Vec<(i32, i32)>)]) -> Vec<Vec<(i32, i32)>> {
    let top = shapes.iter().flat_map(|s| &s.1).map(|c| c.1).max().unwrap_or(0);
    shapes
        .iter()
        .map(|(_, cells)| cells.iter().filter(|c| c.0 >= 0 && c.1 >= 0).map(|&(x, y)| (x, top - y)).collect())
        .collect()
}

fn solve_board(s: &SolveReport) -> Board {
    let shapes: Vec<(String, Vec<(i32, i32)>)> =
        s.actions.totems.iter().map(|t| (t.shape.clone(), t.coordinates.clone())).collect();
    let (w, h) = s.dims;
    let verdict = if s.optimal { " (optimal)" } else { "" };
    let caption = vec![format!("{} pieces in {w}x{h}: score {}{verdict}", shapes.len(), s.score)];
    Board::new(format!("{} pieces", shapes.len()), Lattice::Square, answer_cells(&shapes), caption)
        .outlined(&answer_pieces(&shapes))
}

fn summary_charts(s: &EvalSummary) -> Charts {
    let ms = |x: f64| x * 1000.0;
    let time =
        format!("p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", ms(s.seconds.p50), ms(s.seconds.p99), ms(s.seconds.max));
    let figures = vec![
        ("bags".into(), s.jobs.to_string()),
        ("mean score".into(), format!("{:.2}", s.mean_score)),
        ("answer time".into(), time),
        ("invalid answers".into(), s.invalid.to_string()),
    ];
    let rates = [
        ("optimal", Some(&s.optimal)),
        ("level best", s.level_best.as_ref()),
        ("out of reach", Some(&s.impossible)),
        ("decided", Some(&s.decided)),
    ];
    let rows = rates.into_iter().filter_map(|(label, rate)| Some((label.to_string(), rate?.clone()))).collect();
    Charts { title: "totems evaluation".into(), figures, charts: vec![Chart::Rates { title: "rates".into(), rows }] }
}

/// Job records: rates per number of pieces (per level), and the answer times; `None` if they
/// are not totems records.
pub(crate) fn from_records(lines: &[Value]) -> Result<Option<Shown>, DocError> {
    let Some(jobs) = records::<JobResult>(lines, GAME)? else { return Ok(None) };
    let mut by_size: BTreeMap<u64, [u64; 3]> = BTreeMap::new();
    for r in &jobs {
        let e = by_size.entry(r.pieces).or_default();
        e[0] += 1;
        e[1] += u64::from(r.optimal);
        e[2] += u64::from(r.level_best.is_some_and(|best| r.score >= best));
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
            values: jobs.iter().map(|r| r.seconds * 1000.0).collect(),
            reference: Some(("the game's limit".into(), 1000.0)),
        },
    ];
    let mean = jobs.iter().map(|r| r.score).sum::<f64>() / jobs.len().max(1) as f64;
    let figures = vec![
        ("bags".into(), jobs.len().to_string()),
        ("mean score".into(), format!("{mean:.2}")),
        ("invalid answers".into(), jobs.iter().filter(|r| r.invalid.is_some()).count().to_string()),
    ];
    Ok(Some(Shown {
        kind: "eval",
        views: vec![View::Charts(Charts { title: "totems evaluation".into(), figures, charts })],
    }))
}

/// The game's demonstration bags ([`demo_bags`]), each packed within the game's second.
pub(crate) fn demo(threads: usize) -> Vec<View> {
    demo_bags()
        .into_iter()
        .map(|(name, bag)| {
            let s = solve_demo(&bag, threads);
            View::Board(answer_board(name, &bag, &s.answer, s.optimal()))
        })
        .collect()
}

/// A packing as a board.
pub(crate) fn answer_board(title: &str, bag: &Bag, answer: &Answer, optimal: bool) -> Board {
    let letters: Vec<char> = bag.set.letters().chars().collect();
    let shapes: Vec<(String, Vec<(i32, i32)>)> =
        answer.placed.iter().map(|p| (letters[p.kind].to_string(), p.cells.clone())).collect();
    let (w, h) = answer.bbox();
    let verdict = if optimal { " (optimal)" } else { "" };
    let caption = vec![format!("{} pieces in {w}x{h}: score {}{verdict}", bag.len(), answer.score(bag.set))];
    Board::new(title, Lattice::Square, answer_cells(&shapes), caption).outlined(&answer_pieces(&shapes))
}

/// Coveo Blitz 2022's tetromino packing as the command line and the viewer know it (see [`tessera_game::Game`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct TotemsGame;

impl tessera_game::Game for TotemsGame {
    fn name(&self) -> &'static str {
        GAME
    }

    fn shows(&self) -> &'static str {
        "a level-9 and a level-10 bag"
    }

    fn tour(&self, threads: usize) -> Vec<tessera_game::tour::Demo> {
        crate::tour(threads)
    }

    fn demo(&self, threads: usize) -> Shown {
        Shown { kind: "solve", views: demo(threads) }
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
    use std::time::Duration;

    use crate::PieceSet;
    use crate::eval::{Bags, EvalConfig, run_job, summarise};
    use crate::solve::{Ctx, Solver, hybrid};
    use crate::validate::validate;
    use tessera_core::runtime::Budget;
    use tessera_game::eval::Record;

    use super::*;
    use tessera_game::view::Document;

    fn document(name: &str, text: &str) -> Result<Document, DocError> {
        tessera_game::document(&[&TotemsGame], name, text)
    }

    #[test]
    fn a_solve_output_becomes_a_board() {
        let bag = Bag::from_letters(PieceSet::Tetrominoes, "IO").unwrap();
        let budget = Budget::unlimited().with_time(Duration::from_secs(1));
        let solved = hybrid::solve(&bag, Solver::Hybrid, &Ctx { threads: 1, seed: 0, budget: &budget });
        let report = SolveReport::new(&bag, &solved, &validate(&bag, &solved.answer).unwrap(), 0.1);
        let d = document("a.json", &serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("totems", "solve"));
        let View::Board(b) = &d.views[0] else { panic!("a board") };
        assert_eq!(b.cells.iter().filter(|c| c.2 != ".").count(), 8);
        // Each piece outlined: an I and an O have 10 and 8 unit sides, each one a segment.
        assert_eq!(b.outline.matches('M').count(), 18);
        assert_eq!(
            b.caption[0],
            format!("2 pieces in {}x{}: score {} (optimal)", report.dims.0, report.dims.1, report.score)
        );
    }

    #[test]
    fn a_round_becomes_bars_against_each_level_best() {
        use crate::game::{RoundConfig, play_round};
        let cfg = RoundConfig { budget: Duration::from_millis(100), threads: 1, solver: Solver::Hybrid };
        let mut report = RoundReport::new(5, play_round(5, &cfg, false));
        report.rounds = Some(3);
        let d = document("r.json", &serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("totems", "round"));
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        assert_eq!(c.title, "totems round (seed 5)");
        assert_eq!(c.figures[1], ("score".to_string(), format!("{} (perfect: 6027.5)", report.score)));
        assert_eq!(c.figures[3], ("rounds played for it".to_string(), "3".to_string()));
        let Chart::Bars { rows, .. } = &c.charts[0] else { panic!("bars") };
        assert_eq!(rows.len(), report.levels.len());
        assert_eq!(rows[0].label, "level 1 (1 piece)");
        let last = &report.levels[9];
        assert_eq!((rows[9].values[0], rows[9].reference), (last.score / last.best_score, Some(1.0)));
        // One I piece lies either way: 4x1 or 1x4.
        assert!(
            rows[0].note.contains("x1: 1.5 of 1.5 (optimal)") || rows[0].note.starts_with("1x4: 1.5 of 1.5 (optimal)"),
            "{}",
            rows[0].note
        );
    }

    #[test]
    fn y_is_up_in_the_game_and_down_in_a_picture() {
        let shapes = [
            ("I".to_string(), vec![(0, 0), (1, 0), (2, 0), (3, 0)]),
            ("O".to_string(), vec![(0, 1), (1, 1), (0, 2), (1, 2)]),
        ];
        let cells = answer_cells(&shapes);
        assert!(cells.contains(&(0, 2, "I".to_string())), "the I lies on the bottom row 2");
        assert!(cells.contains(&(3, 0, ".".to_string())));
        assert_eq!(answer_pieces(&shapes)[0], [(0, 2), (1, 2), (2, 2), (3, 2)], "pieces as the cells");
    }

    #[test]
    fn job_records_and_summaries_become_rates_per_level_and_times() {
        let cfg =
            EvalConfig { bags: Bags::Level(5), budget: Duration::from_millis(300), threads: 1, solver: Solver::Hybrid };
        let records: Vec<Record<JobResult>> =
            (0..3).map(|job| Record { job, of: 3, base_seed: 1, seed: job, result: run_job(&cfg, job, job) }).collect();
        let lines: Vec<String> = records.iter().map(|r| serde_json::to_string(r).unwrap()).collect();
        let d = document("run.jsonl", &lines.join("\n")).unwrap();
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        let Chart::Rates { rows, .. } = &c.charts[0] else { panic!("rates") };
        assert_eq!((rows[0].0.as_str(), rows[0].1.n), ("level 5 (16 pieces)", 3));
        let Chart::Histogram { values, .. } = &c.charts[2] else { panic!("times") };
        assert_eq!(values.len(), 3);
        let d = document("s.json", &serde_json::to_string(&summarise(&records)).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("totems", "eval"));
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        let Chart::Rates { rows, .. } = &c.charts[0] else { panic!("rates") };
        let labels: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(labels, ["optimal", "level best", "out of reach", "decided"]);
    }
}
