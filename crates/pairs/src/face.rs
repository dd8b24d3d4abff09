//! pairs: a replay of removals on the board, the tiles left over outlined; an evaluation as the
//! clear rate (overall and per number of colours), search times and the seeds not cleared.

use crate::demo::{BOARDS, solve_demo};
use crate::eval::{EvalSummary, SeedResult};
use crate::format::{Game, ScoreReport, SolveReport};
use crate::generator::generate;
use crate::judge::replay;
use crate::{Board, Move};
use serde::Deserialize;
use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::stats::Rate;

use tessera_game::Shown;
use tessera_game::read::{DocError, records};
use tessera_game::view::{Cell, Chart, Charts, Replay, Step, View};

const GAME: &str = "pairs";

/// What every pairs document says it is.
#[derive(Deserialize)]
struct Tagged {
    #[serde(rename = "game")]
    _game: Game,
}

/// A `solve --json` output (a replay) or an `eval --json` summary (charts); `None` for a
/// document that is not of pairs, an error for one of pairs that cannot be shown.
pub(crate) fn from_value(v: &Value) -> Result<Option<Shown>, DocError> {
    if Tagged::deserialize(v).is_err() {
        return Ok(None);
    }
    if let Ok(solve) = SolveReport::deserialize(v) {
        let board = solve.board().map_err(|e| malformed(format!("board: {e}")))?;
        let title = match solve.gen_seed {
            Some(s) => format!("board of seed {s}"),
            None => "board".to_string(),
        };
        return Ok(Some(Shown { kind: "solve", views: vec![View::Replay(removals(&title, &board, &solve.moves()))] }));
    }
    if let Ok(summary) = EvalSummary::deserialize(v) {
        return Ok(Some(Shown { kind: "eval", views: vec![View::Charts(summary_charts(&summary))] }));
    }
    if ScoreReport::deserialize(v).is_ok() {
        return Err(malformed(
            "a score verdict names no board: view the output of `pairs solve --json` instead".into(),
        ));
    }
    Err(malformed("neither a solve output nor an eval summary".into()))
}

fn malformed(why: String) -> DocError {
    DocError::Malformed { game: GAME, why }
}

/// Job records: the clear rate per number of colours, the search times, and a replay of the seed
/// with the most tiles left (the first seed if every board was cleared); `None` if they are not
/// pairs records.
pub(crate) fn from_records(lines: &[Value]) -> Result<Option<Shown>, DocError> {
    let Some(seeds) = records::<SeedResult>(lines, GAME)? else { return Ok(None) };
    let mut rows: Vec<(String, Rate)> = Vec::new();
    let mut worst: Option<&SeedResult> = None;
    for r in &seeds {
        let cleared = u64::from(r.left == 0);
        let label = format!("C = {}", r.colors);
        match rows.iter_mut().find(|row| row.0 == label) {
            Some(row) => row.1 = Rate::new(row.1.successes + cleared, row.1.n + 1),
            None => rows.push((label, Rate::new(cleared, 1))),
        }
        if worst.is_none_or(|w| r.left > w.left) {
            worst = Some(r);
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let all = Rate::new(seeds.iter().filter(|r| r.left == 0).count() as u64, seeds.len() as u64);
    rows.insert(0, ("all seeds".into(), all.clone()));
    let figures = vec![
        ("seeds".into(), seeds.len().to_string()),
        ("cleared".into(), format!("{} ({:.2}%)", all.successes, 100.0 * all.rate)),
    ];
    let times = seeds.iter().map(|r| r.seconds * 1000.0).collect();
    let charts = vec![
        Chart::Rates { title: "boards cleared".into(), rows },
        Chart::Histogram { title: "search time per seed".into(), unit: "ms".into(), values: times, reference: None },
    ];
    let mut views = vec![View::Charts(Charts { title: "pairs evaluation".into(), figures, charts })];
    if let Some(r) = worst {
        let what = if r.left == 0 { "cleared" } else { "most tiles left" };
        let moves: Vec<Move> = r.moves.iter().map(|&m| Move::from_array(m)).collect();
        views.push(View::Replay(removals(&format!("seed {} ({what})", r.board_seed), &generate(r.board_seed), &moves)));
    }
    Ok(Some(Shown { kind: "eval", views }))
}

/// The game's demonstration boards ([`BOARDS`]), solved now and replayed move by move.
pub(crate) fn demo(threads: usize) -> Vec<View> {
    BOARDS
        .into_iter()
        .map(|seed| {
            let (board, sol) = solve_demo(seed, threads);
            View::Replay(removals(&format!("seed {seed}, solved now"), &board, &sol.moves))
        })
        .collect()
}

/// The replay of `moves` on `board`, as the independent judge replays them: each valid move clears
/// its two tiles; a last step outlines the tiles left.
pub(crate) fn removals(title: &str, board: &Board, moves: &[Move]) -> Replay {
    let start: Vec<Cell> = (0..board.height())
        .flat_map(|r| (0..board.width()).map(move |c| (c as i32, r as i32, board.get(r, c).to_string())))
        .collect();
    let played = replay(board, moves);
    let total = board.tiles();
    let mut removed = 0;
    let mut steps: Vec<Step> = played
        .steps
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let cells: Vec<(i32, i32)> = s.cells.iter().map(|&(r, c)| (i32::from(c), i32::from(r))).collect();
            let [(r1, c1), (r2, c2)] = s.cells;
            let caption = match &s.error {
                None => {
                    removed += 2;
                    format!("move {}: ({r1},{c1}) and ({r2},{c2}) removed; {removed} of {total} tiles", k + 1)
                }
                Some(why) => format!("move {}: invalid, skipped: {why}", k + 1),
            };
            let clear = if s.valid { cells.clone() } else { Vec::new() };
            Step { clear, marks: cells, caption, ..Step::default() }
        })
        .collect();
    let left: Vec<(i32, i32)> = played.leftover.iter().map(|&(r, c)| (i32::from(c), i32::from(r))).collect();
    let verdict = if left.is_empty() { "board cleared".to_string() } else { format!("{} tiles left", left.len()) };
    steps.push(Step { marks: left, caption: verdict, ..Step::default() });
    let title =
        format!("{title}: {}x{}, {} colours, {} moves", board.height(), board.width(), board.colors(), moves.len());
    let mut replay = Replay::new(title, Lattice::Square, start, steps, "move");
    replay.verdict = true;
    replay
}

fn summary_charts(s: &EvalSummary) -> Charts {
    let mut rows = vec![("all seeds".to_string(), s.cleared.clone())];
    rows.extend(s.by_colors.iter().map(|b| (format!("C = {}", b.colors), Rate::new(b.cleared, b.seeds))));
    let budget = s.budget_ms.map_or("?".to_string(), |b| format!("{b} ms"));
    let mut figures = vec![
        ("seeds".into(), s.seeds.to_string()),
        ("budget per seed".into(), budget),
        ("mean score".into(), format!("{:.6}", s.mean_score)),
        ("invalid answers".into(), s.invalid.to_string()),
    ];
    for l in s.not_cleared.iter().take(10) {
        figures.push((format!("seed {}", l.board_seed), format!("{} tiles left", l.left)));
    }
    let charts = vec![Chart::Rates { title: "boards cleared".into(), rows }];
    Charts { title: "pairs evaluation".into(), figures, charts }
}

/// TopCoder MM100 "SameColorPairs" as the command line and the viewer know it (see [`tessera_game::Game`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct PairsGame;

impl tessera_game::Game for PairsGame {
    fn name(&self) -> &'static str {
        GAME
    }

    fn shows(&self) -> &'static str {
        "the contest's examples 2 (30 x 30, 4 colours) and 3 (100 x 100, 6 colours), move by move"
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
    use crate::Cell as Tile;

    use super::*;
    use tessera_game::view::Document;

    fn document(name: &str, text: &str) -> Result<Document, DocError> {
        tessera_game::document(&[&PairsGame], name, text)
    }

    fn board() -> Board {
        Board::parse("2\n011\n100\n").unwrap()
    }

    #[test]
    fn a_replay_clears_valid_moves_and_outlines_what_is_left() {
        let moves = [Move::new(Tile::new(0, 1), Tile::new(0, 2)), Move::new(Tile::new(0, 0), Tile::new(1, 0))];
        let r = removals("t", &board(), &moves);
        assert_eq!(r.start.len(), 6);
        assert_eq!(r.steps[0].clear, vec![(1, 0), (2, 0)], "(r, c) become (column, row)");
        assert!(r.steps[1].clear.is_empty() && r.steps[1].caption.contains("invalid"), "0 and 1 differ: skipped");
        assert_eq!(r.steps[2].marks.len(), 4, "four tiles left, outlined");
        // The title's count of moves is the controls' (which leave out the verdict).
        assert!(r.verdict && r.title.ends_with(&format!(", {} moves", r.steps.len() - 1)), "{}", r.title);
    }

    #[test]
    fn a_solve_output_becomes_a_replay() {
        let text = r#"{"game":"pairs","board":["001","221"],"gen_seed":null,"seed":1,"moves":[[0,0,0,1],[0,2,1,2],[1,0,1,1]],"left":0,"score":1.0,"iterations":1,"seconds":0.5}"#;
        let d = document("s.json", text).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("pairs", "solve"));
        let View::Replay(r) = &d.views[0] else { panic!("a replay") };
        assert_eq!(r.steps.last().unwrap().caption, "board cleared");
        let bad = text.replace("[1,0,1,1]", "[1,0,1]");
        assert!(matches!(document("s.json", &bad), Err(DocError::Malformed { .. })));
    }

    #[test]
    fn records_give_rates_per_colour_and_the_worst_seed() {
        let rec = |job: u64, seed: i64, left: usize| {
            format!(
                r#"{{"job":{job},"of":2,"base_seed":1,"seed":{job},"game":"pairs","board_seed":{seed},"h":30,"w":30,"colors":4,"left":{left},"score":0.5,"seconds":0.5,"iterations":3,"moves":[]}}"#
            )
        };
        let d = document("e.jsonl", &format!("{}\n{}\n", rec(0, 2, 0), rec(1, 2, 900))).unwrap();
        let v = serde_json::to_value(&d.views).unwrap();
        assert_eq!(v[0]["charts"][0]["rows"][0][1]["successes"], 1);
        assert_eq!(v[0]["charts"][0]["rows"][1][0], "C = 4");
        assert!(v[1]["title"].as_str().unwrap().contains("most tiles left"));
        assert_eq!(v[1]["steps"][0]["marks"].as_array().unwrap().len(), 900, "no moves: every tile left");
    }

    #[test]
    fn summaries_become_charts_and_verdicts_are_refused() {
        use crate::eval::{run_job, summarise};
        let summary = summarise(&[run_job(1, 2000, 1)], Some(2000));
        let d = document("s.json", &serde_json::to_string(&summary).unwrap()).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("pairs", "eval"));
        let View::Charts(c) = &d.views[0] else { panic!("charts") };
        assert_eq!(c.figures[1], ("budget per seed".to_string(), "2000 ms".to_string()));
        let verdict = ScoreReport { game: Game::Pairs, verdict: crate::judge::score(&generate(1), &[]) };
        let refused = document("v.json", &serde_json::to_string(&verdict).unwrap());
        assert!(matches!(refused, Err(DocError::Malformed { why, .. }) if why.contains("score verdict")));
    }
}
