//! hextris: solutions replayed by the reference judge on the hex lattice (the unit in play, locks,
//! line clears, the score so far, the command string with its phrases of power), and an
//! evaluation as each problem's score (move and power parts) against the contest's best final
//! score, the phrases used, and replays of a few seeds.
//!
//! Problems are the 25 qualifying ones, built in, identified by `problemId`; phrases are the
//! official eighteen. Files are read as the hextris crate's own types
//! ([`crate::format`]), told apart by the fields only each kind has.

pub mod replay;

use std::collections::BTreeMap;
use std::time::Duration;

use crate::eval::{EvalSummary, ProblemResult, final_best};
use crate::format::{GAME, Submission};
use crate::phrase::OFFICIAL;
use crate::{Phrases, Problem, builtin};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use tessera_game::Shown;
use tessera_game::read::DocError;
use tessera_game::view::{Bar, Chart, Charts, View};

/// The most solutions of a list replayed (each is a replay and a board).
pub const MAX_REPLAYS: usize = 10;
/// The seeds of an evaluation replayed.
pub const EVAL_REPLAYS: usize = 3;

/// What a submission must look like, for error messages.
const SUBMISSION: &str =
    r#"{"problemId": integer, "seed": integer below 2^32, "tag": string (may be left out), "solution": string}"#;

/// The fields that tell hextris's outputs apart (all but the solutions list share the `game`
/// tag), read before the whole output so that one of a known kind with a field wrong is
/// refused with the reason rather than not recognised.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Keys {
    game: Option<String>,
    /// A submission's.
    #[serde(rename = "problemId")]
    problem_id: Option<IgnoredAny>,
    /// An eval record's (with `seeds`).
    power_score: Option<IgnoredAny>,
    seeds: Option<IgnoredAny>,
    /// An eval summary's.
    problems: Option<IgnoredAny>,
    total: Option<IgnoredAny>,
    /// A score report's.
    missing_seeds: Option<IgnoredAny>,
}

impl Keys {
    /// The keys `v` has, if it is an object.
    fn of(v: &Value) -> Keys {
        if v.is_object() { Keys::deserialize(v).unwrap_or_default() } else { Keys::default() }
    }

    fn is_hextris(&self) -> bool {
        self.game.as_deref() == Some(GAME)
    }

    fn is_record(&self) -> bool {
        self.is_hextris() && self.seeds.is_some() && self.power_score.is_some()
    }
}

/// A hextris result: it says so.
pub(crate) fn is_hextris(v: &Value) -> bool {
    Keys::of(v).is_hextris()
}

/// The contest's JSON list of solutions: objects with a `problemId`.
pub(crate) fn is_solutions(v: &Value) -> bool {
    v.as_array().and_then(|a| a.first()).is_some_and(|s| Keys::of(s).problem_id.is_some())
}

/// One record of `hextris eval --jsonl` (a problem's result, every seed's solution included).
pub(crate) fn is_record(v: &Value) -> bool {
    Keys::of(v).is_record()
}

/// A solutions list, an eval record (a one-line `--jsonl` file), an `eval --json` summary or a
/// `score --json` output.
pub fn from_value(v: &Value) -> Result<Shown, DocError> {
    if is_solutions(v) {
        return solutions(&submissions(v)?);
    }
    let keys = Keys::of(v);
    if keys.is_record() {
        return from_records(std::slice::from_ref(v));
    }
    if keys.is_hextris() && keys.problems.is_some() && keys.total.is_some() {
        return summary(&read(v, "an eval summary")?);
    }
    if keys.is_hextris() && keys.missing_seeds.is_some() {
        return Err(malformed("a score output holds no solutions: view the solutions list it scored instead".into()));
    }
    Err(malformed("neither a solutions list, an eval record nor an eval summary".into()))
}

/// Eval records: each problem's score against the final round's best, the phrases spelled, and
/// replays of the worst seed of the problems furthest below the best.
pub(crate) fn from_records(lines: &[Value]) -> Result<Shown, DocError> {
    let phrases = Phrases::official();
    let mut rows = Vec::new();
    let mut spelled = vec![0usize; phrases.len()];
    let (mut games, mut total, mut beaten, mut known, mut seconds) = (0, 0u64, 0, 0, 0.0);
    // (fraction of the best, problem, worst seed's solution)
    let mut candidates: Vec<(f64, i64, u32, String)> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let r: ProblemResult = read(line, &format!("a hextris eval record (line {})", k + 1))?;
        let best = r.final_best.or_else(|| final_best(r.problem));
        total += r.score;
        seconds += r.seconds;
        for s in &r.seeds {
            let counts = phrases.counts(&s.solution);
            spelled.iter_mut().zip(&counts).for_each(|(n, &c)| *n += usize::from(c > 0));
            games += 1;
        }
        let (m, p) = (r.move_score as f64, r.power_score as f64);
        rows.push(bar(r.problem, m, p, r.score, best, Some(r.phrases as u64)));
        if let Some(b) = best {
            known += 1;
            beaten += usize::from(r.score > b);
        }
        // The first of the seeds with the lowest score.
        if let Some(worst) = r.seeds.iter().min_by_key(|s| s.score) {
            let ratio = best.map_or(f64::INFINITY, |b| r.score as f64 / b.max(1) as f64);
            candidates.push((ratio, r.problem, worst.seed, worst.solution.clone()));
        }
    }
    let figures = vec![
        ("problems".into(), lines.len().to_string()),
        ("games (seeds)".into(), games.to_string()),
        ("total score".into(), total.to_string()),
        ("the final round's best beaten".into(), format!("on {beaten} of {known} problems")),
        ("time per problem".into(), format!("{:.1} s", seconds / lines.len().max(1) as f64)),
    ];
    let charts = vec![score_chart(rows), phrase_chart(&spelled, games)];
    let mut views = vec![View::Charts(Charts { title: "hextris evaluation".into(), figures, charts })];
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (ratio, id, seed, solution) in candidates.into_iter().take(EVAL_REPLAYS) {
        let p = problem(id)?;
        let why =
            if ratio.is_finite() { format!("{:.0}% of the final best", 100.0 * ratio) } else { "no final best".into() };
        let played = replay::play(&format!("problem {id}, seed {seed} (its worst; {why})"), &p, seed, &solution);
        views.push(View::Replay(played.replay));
    }
    Ok(Shown { kind: "eval", views })
}

/// The JSON list of solutions: per-problem figures, then a replay and the final board of each of
/// the first [`MAX_REPLAYS`] solutions.
fn solutions(list: &[Submission]) -> Result<Shown, DocError> {
    let phrases = Phrases::official();
    let unknown = list.iter().filter(|s| !(0..builtin::COUNT as i64).contains(&s.problem_id)).count();
    if unknown == list.len() {
        return Err(malformed("no solution is for a built-in problem (problemId 0 to 24)".into()));
    }
    // The contest kept the latest solution of each seed; the leaderboard took the floor of the
    // mean over the problem's seeds, a seed without a solution scoring 0.
    let mut latest: BTreeMap<(i64, u32), u64> = BTreeMap::new();
    let mut parts: BTreeMap<(i64, u32), (u64, u64)> = BTreeMap::new();
    let mut problems: BTreeMap<i64, Problem> = BTreeMap::new();
    for s in list {
        let Ok(p) = problem(s.problem_id) else { continue };
        let v = crate::judge::score(&p, s.seed, &s.solution, &phrases);
        latest.insert((s.problem_id, s.seed), v.score);
        let part = if v.error.is_some() { (0, 0) } else { (v.move_score, v.power_score) };
        parts.insert((s.problem_id, s.seed), part);
        problems.entry(s.problem_id).or_insert(p);
    }
    let mut rows = Vec::new();
    for (id, p) in &problems {
        let n = p.source_seeds.len() as u64;
        let of = |f: &dyn Fn(&(u64, u64)) -> u64| -> u64 {
            p.source_seeds.iter().map(|&s| parts.get(&(*id, s)).map_or(0, f)).sum::<u64>() / n
        };
        let score = p.source_seeds.iter().map(|&s| latest.get(&(*id, s)).copied().unwrap_or(0)).sum::<u64>() / n;
        rows.push(bar(*id, of(&|x| x.0) as f64, of(&|x| x.1) as f64, score, final_best(*id), None));
    }
    let shown = list.len().min(MAX_REPLAYS);
    let mut figures = vec![
        ("solutions".into(), list.len().to_string()),
        ("replayed".into(), format!("the first {shown} ({} left out)", list.len() - shown)),
    ];
    if unknown > 0 {
        figures.push(("for problems not built in".into(), format!("{unknown} (not scored)")));
    }
    let charts = vec![score_chart(rows)];
    let mut views = vec![View::Charts(Charts { title: "hextris solutions".into(), figures, charts })];
    for s in list.iter().take(MAX_REPLAYS) {
        let Ok(p) = problem(s.problem_id) else { continue };
        let tag = if s.tag.is_empty() { String::new() } else { format!(" [{}]", s.tag) };
        let title = format!("problem {}, seed {}{tag}", s.problem_id, s.seed);
        let played = replay::play(&title, &p, s.seed, &s.solution);
        views.extend([View::Replay(played.replay), View::Board(played.board)]);
    }
    Ok(Shown { kind: "solutions", views })
}

/// An `eval --json` summary: the scores without the solutions.
fn summary(v: &EvalSummary) -> Result<Shown, DocError> {
    let rows: Vec<Bar> = v
        .problems
        .iter()
        .map(|r| {
            let best = r.final_best.or_else(|| final_best(r.problem));
            let (m, p) = (r.move_score as f64, r.power_score as f64);
            bar(r.problem, m, p, r.score, best, Some(r.phrases as u64))
        })
        .collect();
    let figures = vec![
        ("problems".into(), rows.len().to_string()),
        ("total score".into(), v.total.to_string()),
        (
            "the final round's best beaten".into(),
            format!("on {} of {} problems", v.final_best_beaten, v.final_best_problems),
        ),
        ("seconds per problem".into(), v.seconds_per_problem.to_string()),
    ];
    let charts = vec![score_chart(rows)];
    Ok(Shown {
        kind: "eval",
        views: vec![View::Charts(Charts { title: "hextris evaluation".into(), figures, charts })],
    })
}

/// The hextris crate's small demonstration instance (problem 6, seed 0), solved now in a second
/// and replayed by the judge.
pub fn demo(threads: usize) -> Vec<View> {
    demo_within(threads, Duration::from_secs(1))
}

fn demo_within(threads: usize, time: Duration) -> Vec<View> {
    let (p, Some(g)) = crate::demo::SMALL.solve(time, threads) else { return Vec::new() };
    let title = format!("problem {}, seed {}, solved now in {:.1} s", p.id, g.seed, time.as_secs_f64());
    let played = replay::play(&title, &p, g.seed, &g.text);
    vec![View::Replay(played.replay), View::Board(played.board)]
}

/// One problem's bar: move and power parts, against the final best.
fn bar(id: i64, moves: f64, power: f64, score: u64, best: Option<u64>, phrases: Option<u64>) -> Bar {
    let mut note = format!("{score} = {moves} + {power}");
    if let Some(n) = phrases {
        note += &format!(", {n} phrases");
    }
    if let Some(b) = best {
        note += &format!("; final best {b} ({:.0}%)", 100.0 * score as f64 / b.max(1) as f64);
    }
    Bar { label: format!("problem {id}"), values: vec![moves, power], reference: best.map(|b| b as f64), note }
}

fn score_chart(rows: Vec<Bar>) -> Chart {
    Chart::Bars {
        title: "score per problem (floor of the mean over seeds)".into(),
        parts: vec!["move score".into(), "power score".into()],
        reference: Some("the final round's best".into()),
        rows,
    }
}

/// How many games spell each official phrase at least once.
fn phrase_chart(spelled: &[usize], games: usize) -> Chart {
    let rows = OFFICIAL
        .iter()
        .zip(spelled)
        .map(|(p, &n)| Bar {
            label: (*p).to_string(),
            values: vec![n as f64],
            reference: Some(games as f64),
            note: format!("{n} of {games} games"),
        })
        .collect();
    let reference = Some("every game".into());
    Chart::Bars { title: "phrases of power spelled".into(), parts: vec!["games".into()], reference, rows }
}

fn problem(id: i64) -> Result<Problem, DocError> {
    usize::try_from(id)
        .ok()
        .and_then(builtin::problem)
        .ok_or_else(|| malformed(format!("problem {id} is not built in (0 to 24)")))
}

/// `v` read as a `T` (`what` it should be), or why not.
fn read<'v, T: Deserialize<'v>>(v: &'v Value, what: &str) -> Result<T, DocError> {
    T::deserialize(v).map_err(|e| malformed(format!("not {what}: {e}")))
}

/// The submissions of a solutions list, or the first that is not one and why.
fn submissions(v: &Value) -> Result<Vec<Submission>, DocError> {
    let list = v.as_array().ok_or_else(|| malformed("not a list".into()))?;
    let each = |(i, s): (usize, &Value)| {
        Submission::deserialize(s)
            .map_err(|e| malformed(format!("entry {} is not a solution {SUBMISSION}: {e}", i + 1)))
    };
    list.iter().enumerate().map(each).collect()
}

fn malformed(why: String) -> DocError {
    DocError::Malformed { game: GAME, why }
}

/// ICFP Contest 2015's hexagonal Tetris as the command line and the viewer know it (see [`tessera_game::Game`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct HextrisGame;

impl tessera_game::Game for HextrisGame {
    fn name(&self) -> &'static str {
        GAME
    }

    fn shows(&self) -> &'static str {
        "problem 6, seed 0, solved in a second and replayed by the judge"
    }

    fn tour(&self, threads: usize) -> Vec<tessera_game::tour::Demo> {
        crate::tour(threads)
    }

    fn demo(&self, threads: usize) -> Shown {
        Shown { kind: "solve", views: demo(threads) }
    }

    fn read(&self, value: &Value) -> Result<Option<Shown>, DocError> {
        if !self.claims(value) {
            return Ok(None);
        }
        from_value(value).map(Some)
    }

    fn read_records(&self, lines: &[Value]) -> Result<Option<Shown>, DocError> {
        // Records that name hextris are read as its records: one that is not says why.
        let named = |l: &Value| is_hextris(l) && tessera_game::read::is_record(l);
        if !lines.first().is_some_and(|l| is_record(l) || named(l)) {
            return Ok(None);
        }
        from_records(lines).map(Some)
    }

    fn claims(&self, value: &Value) -> bool {
        is_hextris(value) || is_solutions(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_game::view::Document;

    fn document(name: &str, text: &str) -> Result<Document, DocError> {
        tessera_game::document(&[&HextrisGame], name, text)
    }
    use crate::eval::SeedResult;
    use crate::judge::score;

    /// Problem 6 seed `seed` played straight down (with a phrase first) until the board is full.
    fn game(seed: u32) -> String {
        let p = builtin::problem(6).unwrap();
        let long = format!("Ei!{}", "la".repeat(2000));
        long[..score(&p, seed, &long, &Phrases::official()).commands].to_string()
    }

    fn record(seeds: &[u32]) -> String {
        let p = builtin::problem(6).unwrap();
        let games: Vec<SeedResult> = seeds
            .iter()
            .map(|&seed| {
                let solution = game(seed);
                let v = score(&p, seed, &solution, &Phrases::official());
                let (score, move_score, power_score) = (v.score, v.move_score, v.power_score);
                let (phrases, locked, lines) = (v.phrases.len(), v.locked, v.lines_cleared);
                let end_state = "board_full".into();
                SeedResult {
                    seed,
                    score,
                    move_score,
                    power_score,
                    phrases,
                    locked,
                    lines,
                    end_state,
                    width: 1,
                    solution,
                }
            })
            .collect();
        let r = ProblemResult {
            game: GAME.into(),
            problem: 6,
            width: 10,
            height: 10,
            score: 500,
            move_score: 190,
            power_score: 310,
            phrases: 1,
            final_best: None,
            seconds: 0.5,
            width_reached: 1,
            seeds: games,
        };
        serde_json::to_string(&r).unwrap()
    }

    #[test]
    fn a_solutions_list_becomes_figures_replays_and_boards() {
        let text = serde_json::json!([
            {"problemId": 6, "seed": 0, "tag": "t", "solution": game(0)},
            {"problemId": 6, "seed": 13120, "solution": game(13120)},
        ])
        .to_string();
        let d = document("s.json", &text).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str(), d.views.len()), ("hextris", "solutions", 5));
        let v = serde_json::to_value(&d.views).unwrap();
        assert_eq!((v[0]["view"].as_str(), v[0]["charts"][0]["chart"].as_str()), (Some("charts"), Some("bars")));
        let row = &v[0]["charts"][0]["rows"][0];
        assert_eq!(row["label"], "problem 6");
        assert_eq!(row["values"].as_array().unwrap().len(), 2, "move and power parts");
        assert_eq!((v[1]["view"].as_str(), v[1]["lattice"].as_str()), (Some("replay"), Some("hex")));
        assert!(v[1]["title"].as_str().unwrap().contains("problem 6, seed 0 [t]"));
        assert_eq!(v[1]["highlights"][0], serde_json::json!([0, 3]));
        assert_eq!(v[1]["steps"][0]["text_at"], 1);
        assert!(v[1]["steps"][0]["score"].is_u64() && v[1]["steps"][0].get("clear").is_some());
        assert_eq!(v[2]["view"], "board");
        assert!(v[4]["caption"][0].as_str().unwrap().starts_with("score "));
    }

    #[test]
    fn long_lists_are_cut_and_say_so() {
        let one = serde_json::json!({"problemId": 6, "seed": 0, "solution": "la"});
        let list = Value::Array(vec![one; MAX_REPLAYS + 2]).to_string();
        let d = document("s.json", &list).unwrap();
        assert_eq!(d.views.len(), 1 + 2 * MAX_REPLAYS);
        let View::Charts(c) = &d.views[0] else { panic!("figures first") };
        assert!(c.figures.iter().any(|f| f.1.contains("(2 left out)")), "{:?}", c.figures);
    }

    #[test]
    fn eval_records_become_charts_and_replays() {
        let lines = format!("{}\n{}\n", record(&[0, 13120]), record(&[18588]));
        let d = document("e.jsonl", &lines).unwrap();
        assert_eq!((d.game.as_str(), d.kind.as_str()), ("hextris", "eval"));
        let View::Charts(c) = &d.views[0] else { panic!("charts first") };
        assert!(c.figures.iter().any(|f| f == &("games (seeds)".to_string(), "3".to_string())), "{:?}", c.figures);
        let v = serde_json::to_value(&c.charts).unwrap();
        assert_eq!(v[0]["rows"].as_array().unwrap().len(), 2);
        assert_eq!(v[1]["rows"][0]["label"], "Ei!");
        assert_eq!(v[1]["rows"][0]["note"], "3 of 3 games");
        assert_eq!(d.views.len(), 3, "a replay per problem, up to {EVAL_REPLAYS}");
        assert!(matches!(&d.views[1], View::Replay(r) if r.text.is_some()));
        // One record alone (a one-line file) is read the same way.
        let one = document("e.jsonl", &record(&[0])).unwrap();
        assert_eq!((one.kind.as_str(), one.views.len()), ("eval", 2));
    }

    #[test]
    fn an_eval_summary_becomes_bars_against_the_final_best() {
        let text = r#"{"game":"hextris","seconds_per_problem":10.0,"cores":2,"total":1300,"final_best_beaten":0,"final_best_problems":1,
            "problems":[{"problem":24,"seeds":1,"score":1300,"move_score":1000,"power_score":300,"phrases":1,"final_best":306206,"seconds":10.0,"width":1}]}"#;
        let d = document("e.json", text).unwrap();
        let v = serde_json::to_value(&d.views[0]).unwrap();
        assert_eq!(v["charts"][0]["rows"][0]["reference"], 306206.0);
        assert!(v["charts"][0]["rows"][0]["note"].as_str().unwrap().contains("final best 306206"));
    }

    #[test]
    fn malformed_input_is_refused_with_a_reason() {
        let bad = |text: &str| match document("x", text) {
            Err(DocError::Malformed { game: "hextris", why }) => why,
            other => panic!("{text}: {other:?}"),
        };
        assert!(bad(r#"[{"problemId": 6, "seed": 0}]"#).contains("solution"));
        // Job records that name hextris but lack a field say which.
        let short = r#"{"game": "hextris", "job": 0, "of": 2, "base_seed": 0, "seed": 1, "problem": 6}"#;
        let why = bad(&format!("{short}\n{short}\n"));
        assert!(why.contains("line 1") && why.contains("missing field"), "{why}");
        assert!(bad(r#"[{"problemId": "6", "seed": 0, "solution": ""}]"#).contains("problemId"));
        assert!(bad(r#"[{"problemId": 6, "seed": -1, "solution": ""}]"#).contains("seed"));
        assert!(bad(r#"[{"problemId": 99, "seed": 0, "solution": "la"}]"#).contains("built-in"));
        assert!(bad(r#"{"game": "hextris"}"#).contains("neither"));
        assert!(
            bad(r#"{"game":"hextris","problem":6,"score":0,"missing_seeds":0,"seeds":[]}"#).contains("score output")
        );
        let no_solution = record(&[0]).replace("\"solution\"", "\"text\"");
        assert!(bad(&no_solution).contains("solution"));
        let unknown = record(&[0]).replace("\"problem\":6", "\"problem\":77");
        assert!(bad(&unknown).contains("not built in"));
        let mixed = format!("{}\n{{\"job\":1,\"seed\":2}}\n", record(&[0]));
        assert!(bad(&mixed).contains("not a hextris eval record"));
        // Odd but well-formed: a seed that is not the problem's, characters that spell nothing.
        let odd =
            r#"[{"problemId": 6, "seed": 5, "solution": "la"}, {"problemId": 6, "seed": 0, "solution": "é\u0000!"}]"#;
        assert_eq!(document("x", odd).unwrap().views.len(), 5);
    }

    /// (Two seconds: the solver's first game came after more than 200 ms on a slow 2-core VM
    /// running the other tests beside it.)
    #[test]
    fn the_demo_is_a_replay_of_a_solved_game() {
        let views = demo_within(1, Duration::from_secs(2));
        let [View::Replay(r), View::Board(b)] = &views[..] else { panic!("a replay and a board") };
        let last = r.steps.last().unwrap();
        assert!(last.score.is_some_and(|s| s > 0) && last.caption.starts_with("end"), "{}", last.caption);
        assert!(!r.highlights.is_empty(), "the solver spells phrases");
        assert!(b.caption[0].starts_with("score "));
    }
}
