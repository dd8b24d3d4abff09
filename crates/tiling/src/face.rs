//! tiling: the solutions of a puzzle as a replay (one step per solution, a slider over them), the
//! first one found as a board, counts as figures; an evaluation as its solve rate and a histogram
//! of solve times.

use std::ops::ControlFlow;

use crate::demo::DEMOS;
use crate::eval::{EvalSummary, JobResult};
use crate::report::{CountReport, FirstReport, FirstStatus, SolutionJson, SolutionList};
use crate::{Puzzle, Tiler};
use serde::Deserialize;
use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::runtime::Budget;
use tessera_core::stats::Rate;
use tessera_game::tour::plural;

use tessera_game::Shown;
use tessera_game::read::{DocError, records};
use tessera_game::view::{Board, Cell, Chart, Charts, Replay, Step, View};

const GAME: &str = "tiling";

/// Most solutions one replay holds (a bigger list is cut, and says so).
pub(crate) const MAX_SOLUTIONS: usize = 5000;

/// A solve output (a list of solutions, counts, or the first tiling found) or an eval summary; `None` for any other
/// document.
pub(crate) fn from_value(v: &Value) -> Result<Option<Shown>, DocError> {
    if let Ok(list) = SolutionList::deserialize(v) {
        return Ok(Some(Shown { kind: "solutions", views: vec![View::Replay(listed(&list))] }));
    }
    if let Ok(count) = CountReport::deserialize(v) {
        return Ok(Some(Shown { kind: "count", views: vec![View::Charts(count_figures(&count))] }));
    }
    if let Ok(first) = FirstReport::deserialize(v) {
        return Ok(Some(Shown { kind: "first", views: vec![first_view(&first)] }));
    }
    if let Ok(summary) = EvalSummary::deserialize(v) {
        return Ok(Some(Shown { kind: "eval", views: vec![View::Charts(summary_charts(&summary))] }));
    }
    Ok(None)
}

/// The solutions of a list as a replay (at most [`MAX_SOLUTIONS`]).
fn listed(list: &SolutionList) -> Replay {
    let solutions = list.solutions.iter().take(MAX_SOLUTIONS).map(solution_cells).collect();
    replay(&list.puzzle.name, list.puzzle.lattice, solutions, list.solutions.len())
}

/// Every cell of a solution with its piece's label.
fn solution_cells(s: &SolutionJson) -> Vec<Cell> {
    s.pieces.iter().flat_map(|p| p.cells.iter().map(|&(col, row)| (col, row, p.label.to_string()))).collect()
}

/// Counts only: the figures.
fn count_figures(count: &CountReport) -> Charts {
    let figures = vec![
        ("raw".to_string(), count.raw.to_string()),
        ("distinct".to_string(), count.distinct.to_string()),
        // As the JSON writes it.
        ("seconds".to_string(), Value::from(count.seconds).to_string()),
    ];
    Charts { title: count.puzzle.name.clone(), figures, charts: Vec::new() }
}

/// The tiling found, as a board; the verdict alone if there is none.
fn first_view(first: &FirstReport) -> View {
    let threads = plural(first.threads as u64, "thread", "threads");
    let ms = format!("{:.1} ms on {threads} (seed {})", first.seconds * 1000.0, first.seed);
    let name = &first.puzzle.name;
    match (&first.solution, first.status) {
        (Some(s), _) => {
            let caption = vec![format!("the first tiling found, in {ms}")];
            let pieces: Vec<Vec<(i32, i32)>> = s.pieces.iter().map(|p| p.cells.clone()).collect();
            View::Board(Board::new(name.clone(), first.puzzle.lattice, solution_cells(s), caption).outlined(&pieces))
        }
        (None, status) => {
            let verdict = match status {
                FirstStatus::NoTiling => "the puzzle has no tiling",
                FirstStatus::Found | FirstStatus::Unknown => "stopped before finding a tiling",
            };
            let figures = vec![("verdict".to_string(), verdict.to_string()), ("time".to_string(), ms)];
            View::Charts(Charts { title: name.clone(), figures, charts: Vec::new() })
        }
    }
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

fn summary_charts(s: &EvalSummary) -> Charts {
    let ms = |x: f64| x * 1000.0;
    let time =
        format!("p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms", ms(s.seconds.p50), ms(s.seconds.p99), ms(s.seconds.max));
    let figures = vec![
        ("puzzles".into(), s.jobs.to_string()),
        ("wrong answers".into(), s.wrong.to_string()),
        ("time".into(), time),
    ];
    Charts {
        title: "tiling evaluation".into(),
        figures,
        charts: vec![Chart::Rates { title: "solve rate".into(), rows: vec![("solved".to_string(), s.solved.clone())] }],
    }
}

/// Job records: the solve rate and the solve times; `None` if they are not tiling records.
pub(crate) fn from_records(lines: &[Value]) -> Result<Option<Shown>, DocError> {
    let Some(jobs) = records::<JobResult>(lines, GAME)? else { return Ok(None) };
    let solved = jobs.iter().filter(|r| r.solved).count();
    let times = jobs.iter().map(|r| r.seconds * 1000.0).collect();
    let charts = vec![
        Chart::Rates {
            title: "solve rate".into(),
            rows: vec![("solved".into(), Rate::new(solved as u64, jobs.len() as u64))],
        },
        Chart::Histogram { title: "solve time".into(), unit: "ms".into(), values: times, reference: None },
    ];
    let wrong = jobs.iter().filter(|r| r.wrong).count();
    let figures = vec![("puzzles".into(), jobs.len().to_string()), ("wrong answers".into(), wrong.to_string())];
    Ok(Some(Shown {
        kind: "eval",
        views: vec![View::Charts(Charts { title: "tiling evaluation".into(), figures, charts })],
    }))
}

/// The game's demonstrations ([`DEMOS`]): each puzzle's solutions, up to symmetry if it says so.
pub(crate) fn demo(_threads: usize) -> Vec<View> {
    DEMOS.iter().filter_map(|d| d.puzzle().map(|p| View::Replay(solutions(&p, d.distinct)))).collect()
}

/// The solutions of a puzzle (at most [`MAX_SOLUTIONS`]), as a replay.
pub(crate) fn solutions(puzzle: &Puzzle, distinct: bool) -> Replay {
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

/// Exact polyform tiling as the command line and the viewer know it (see [`tessera_game::Game`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct TilingGame;

impl tessera_game::Game for TilingGame {
    fn name(&self) -> &'static str {
        GAME
    }

    fn shows(&self) -> &'static str {
        "every solution of meteor and of the pentominoes on 6x10"
    }

    fn tour(&self, threads: usize) -> Vec<tessera_game::tour::Demo> {
        crate::tour(threads)
    }

    fn demo(&self, threads: usize) -> Shown {
        Shown { kind: "solutions", views: demo(threads) }
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
    use crate::eval::{EvalConfig, run_job, summarise};
    use crate::random::RandomSpec;
    use crate::report::{PuzzleInfo, SolutionListWriter};
    use crate::{EngineKind, builtin};
    use tessera_game::eval::Record;

    use super::*;
    use tessera_game::view::Document;

    fn document(name: &str, text: &str) -> Result<Document, DocError> {
        tessera_game::document(&[&TilingGame], name, text)
    }

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
        let p = builtin("pentomino-3x20").unwrap();
        let tiler = Tiler::new(&p.problem).unwrap();
        let mut w = SolutionListWriter::begin(Vec::new(), &PuzzleInfo::new(&p, &tiler)).unwrap();
        let _ = tiler.for_each(&Budget::unlimited(), true, |s| {
            w.push(&SolutionJson::new(&tiler, s)).unwrap();
            ControlFlow::Continue(())
        });
        let text = String::from_utf8(w.finish(true, true).unwrap()).unwrap();
        let d = document("s.json", &text).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("tiling", "solutions"));
        let View::Replay(r) = &d.views[0] else { panic!("a replay") };
        assert_eq!(r.steps.len(), 2, "3x20 has 2 tilings up to symmetry");
        assert_eq!((r.start.len(), r.start[0].2.as_str()), (60, "."));
        assert_eq!(r.steps[0].set.len(), 60);
        assert_eq!(r.title, "pentominoes 3x20");
    }

    #[test]
    fn a_first_tiling_becomes_a_board_and_none_a_verdict() {
        use tessera_core::runtime::Verdict;
        let p = builtin("pentomino-6x10").unwrap();
        let tiler = Tiler::new(&p.problem).unwrap();
        let verdict = tiler.first(1, 7, &Budget::unlimited());
        let report = FirstReport::new(&p, &tiler, &verdict, 0.004, 7, 1);
        let d = document("f.json", &serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("tiling", "first"));
        let View::Board(b) = &d.views[0] else { panic!("a board") };
        assert_eq!((b.title.as_str(), b.cells.len(), b.palette.len()), ("pentominoes 6x10", 60, 12));
        assert_eq!(b.caption, ["the first tiling found, in 4.0 ms on 1 thread (seed 7)"]);
        // The twelve pentominoes outlined: a P has 10 sides, the others 12.
        assert_eq!(b.outline.matches('M').count(), 11 * 12 + 10);
        let none = FirstReport::new(&p, &tiler, &Verdict::Infeasible, 0.5, 7, 1);
        let d = document("n.json", &serde_json::to_string(&none).unwrap()).unwrap();
        let View::Charts(c) = &d.views[0] else { panic!("figures") };
        assert_eq!(c.figures[0].1, "the puzzle has no tiling");
    }

    #[test]
    fn counts_and_summaries_become_figures() {
        let p = builtin("pentomino-3x20").unwrap();
        let tiler = Tiler::new(&p.problem).unwrap();
        let counts = tiler.count(1, &Budget::unlimited());
        let count = serde_json::to_string(&CountReport::new(&p, &tiler, &counts, None, 1)).unwrap();
        let d = document("c.json", &count).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("tiling", "count"));
        let View::Charts(c) = &d.views[0] else { panic!("figures") };
        assert_eq!(c.figures[..2], [("raw".to_string(), "8".to_string()), ("distinct".to_string(), "2".to_string())]);
        let cfg = EvalConfig { spec: RandomSpec::default(), count: false, budget: None, engine: EngineKind::Auto };
        let records: Vec<Record<JobResult>> =
            (0..4).map(|job| Record { job, of: 4, base_seed: 1, seed: job, result: run_job(&cfg, job) }).collect();
        let lines: Vec<String> = records.iter().map(|r| serde_json::to_string(r).unwrap()).collect();
        let d = document("e.jsonl", &lines.join("\n")).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("tiling", "eval"));
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        assert_eq!(c.figures[0], ("puzzles".to_string(), "4".to_string()));
        let summary = serde_json::to_string(&summarise(&records)).unwrap();
        let d = document("s.json", &summary).unwrap();
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        assert_eq!((d.kind.as_str(), c.figures[0].1.as_str()), ("eval", "4"));
        let Chart::Rates { rows, .. } = &c.charts[0] else { panic!("rates") };
        assert_eq!(rows[0].1.n, 4);
    }
}
