//! pairs: a replay of removals on the board, the tiles left over outlined; an evaluation as the
//! clear rate (overall and per number of colours), search times and the seeds not cleared.

use std::time::Duration;

use serde_json::Value;
use tessera_core::geometry::Lattice;
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_core::stats::Rate;
use tessera_pairs::generator::generate;
use tessera_pairs::judge::replay;
use tessera_pairs::solver::{Params, solve};
use tessera_pairs::{Board, Cell as Tile, Move};

use super::{Converted, DocError, arr, num};
use crate::view::{Cell, Chart, Charts, Replay, Step, View};

const GAME: &str = "pairs";

/// A pairs result: it says so.
pub fn is_pairs(v: &Value) -> bool {
    v.get("game").and_then(Value::as_str) == Some(GAME)
}

/// One job record of `pairs eval --jsonl`.
pub fn is_record(v: &Value) -> bool {
    is_pairs(v) && v.get("board_seed").is_some()
}

/// A `solve --json` output (a replay) or an `eval --json` summary (charts).
pub fn from_value(v: &Value) -> Result<Converted, DocError> {
    if v.get("board").is_some() && v.get("moves").is_some() {
        let board = board_of(v)?;
        let title = match v.get("gen_seed").and_then(Value::as_i64) {
            Some(s) => format!("board of seed {s}"),
            None => "board".to_string(),
        };
        return Ok((GAME, "solve", vec![View::Replay(removals(&title, &board, &moves_of(v)?))]));
    }
    if v.get("cleared").is_some() && v.get("by_colors").is_some() {
        return Ok((GAME, "eval", vec![View::Charts(summary_charts(v)?)]));
    }
    if v.get("verdict").is_some() {
        return Err(DocError::Malformed {
            game: GAME,
            why: "a score verdict names no board: view the output of `pairs solve --json` instead".into(),
        });
    }
    Err(DocError::Malformed { game: GAME, why: "neither a solve output nor an eval summary".into() })
}

/// Job records: the clear rate per number of colours, the search times, and a replay of the seed
/// with the most tiles left (the first seed if every board was cleared).
pub fn from_records(lines: &[Value]) -> Result<Converted, DocError> {
    let mut rows: Vec<(String, Rate)> = Vec::new();
    let (mut seconds, mut clears) = (Vec::new(), 0u64);
    let mut worst: Option<(usize, &Value)> = None;
    for r in lines {
        let (left, colors) = (num(r, "left", GAME)? as usize, num(r, "colors", GAME)? as usize);
        seconds.push(num(r, "seconds", GAME)? * 1000.0);
        clears += u64::from(left == 0);
        let label = format!("C = {colors}");
        match rows.iter_mut().find(|row| row.0 == label) {
            Some(row) => row.1 = Rate::new(row.1.successes + u64::from(left == 0), row.1.n + 1),
            None => rows.push((label, Rate::new(u64::from(left == 0), 1))),
        }
        if worst.is_none_or(|(w, _)| left > w) {
            worst = Some((left, r));
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let all = Rate::new(clears, lines.len() as u64);
    rows.insert(0, ("all seeds".into(), all.clone()));
    let figures = vec![
        ("seeds".into(), lines.len().to_string()),
        ("cleared".into(), format!("{} ({:.2}%)", all.successes, 100.0 * all.rate)),
    ];
    let charts = vec![
        Chart::Rates { title: "boards cleared".into(), rows },
        Chart::Histogram { title: "search time per seed".into(), unit: "ms".into(), values: seconds, reference: None },
    ];
    let mut views = vec![View::Charts(Charts { title: "pairs evaluation".into(), figures, charts })];
    if let Some((left, r)) = worst {
        let seed = num(r, "board_seed", GAME)? as i64;
        let what = if left == 0 { "cleared" } else { "most tiles left" };
        views.push(View::Replay(removals(&format!("seed {seed} ({what})"), &generate(seed), &moves_of(r)?)));
    }
    Ok((GAME, "eval", views))
}

/// The contest's example 2 (30 x 30, 4 colours), solved now.
pub fn demo(_threads: usize) -> Vec<View> {
    let board = generate(2);
    let mut budget = Budget::unlimited().with_time(Duration::from_secs(2));
    let sol = solve(&board, &Params::default(), &mut budget, &mut Rng64::seed(1));
    vec![View::Replay(removals("seed 2, solved now", &board, &sol.moves))]
}

/// The replay of `moves` on `board`, as the independent judge replays them: each valid move clears
/// its two tiles; a last step outlines the tiles left.
pub fn removals(title: &str, board: &Board, moves: &[Move]) -> Replay {
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
    Replay::new(title, Lattice::Square, start, steps, "move")
}

fn board_of(v: &Value) -> Result<Board, DocError> {
    let rows: Vec<&str> = arr(v, "board", GAME)?.iter().filter_map(Value::as_str).collect();
    let text = format!("{}\n{}\n", rows.len(), rows.join("\n"));
    Board::parse(&text).map_err(|e| DocError::Malformed { game: GAME, why: format!("board: {e}") })
}

fn moves_of(v: &Value) -> Result<Vec<Move>, DocError> {
    let bad = |why: &str| DocError::Malformed { game: GAME, why: why.to_string() };
    arr(v, "moves", GAME)?
        .iter()
        .map(|m| {
            let n: Vec<usize> = m
                .as_array()
                .ok_or_else(|| bad("a move is not a list"))?
                .iter()
                .filter_map(|x| x.as_u64().map(|x| x as usize))
                .collect();
            match n[..] {
                [r1, c1, r2, c2] if n.iter().all(|&x| x < 256) => Ok(Move::new(Tile::new(r1, c1), Tile::new(r2, c2))),
                _ => Err(bad("a move is not four small numbers")),
            }
        })
        .collect()
}

fn summary_charts(v: &Value) -> Result<Charts, DocError> {
    let cleared: Rate = v
        .get("cleared")
        .and_then(|r| serde_json::from_value(r.clone()).ok())
        .ok_or(DocError::Malformed { game: GAME, why: "no rate \"cleared\"".into() })?;
    let mut rows = vec![("all seeds".to_string(), cleared)];
    for b in arr(v, "by_colors", GAME)? {
        let (c, n, k) = (num(b, "colors", GAME)?, num(b, "seeds", GAME)?, num(b, "cleared", GAME)?);
        rows.push((format!("C = {c}"), Rate::new(k as u64, n as u64)));
    }
    let budget = v.get("budget_ms").and_then(Value::as_u64).map_or("?".to_string(), |b| format!("{b} ms"));
    let mut figures = vec![
        ("seeds".into(), num(v, "seeds", GAME)?.to_string()),
        ("budget per seed".into(), budget),
        ("mean score".into(), format!("{:.6}", num(v, "mean_score", GAME)?)),
        ("invalid answers".into(), num(v, "invalid", GAME)?.to_string()),
    ];
    for l in arr(v, "not_cleared", GAME)?.iter().take(10) {
        let seed = l.get("board_seed").and_then(Value::as_i64).unwrap_or(-1);
        figures.push((format!("seed {seed}"), format!("{} tiles left", num(l, "left", GAME)?)));
    }
    let charts = vec![Chart::Rates { title: "boards cleared".into(), rows }];
    Ok(Charts { title: "pairs evaluation".into(), figures, charts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::document;

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
    }

    #[test]
    fn a_solve_output_becomes_a_replay() {
        let text = r#"{"game":"pairs","board":["001","221"],"gen_seed":null,"seed":1,"moves":[[0,0,0,1],[0,2,1,2],[1,0,1,1]],"left":0,"score":1.0}"#;
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
}
