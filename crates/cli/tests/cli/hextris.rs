//! `tessera hextris ...`: solve, score, show, stats, eval (sharded and merged), what bad input
//! gets, and what Ctrl-C does to each command.

use serde_json::Value;

use crate::running::Running;
use crate::{data, scratch, stderr, stdout, tessera};

/// The organisers' sample solution for problem 6, seed 0, as a contest JSON list in `dir`.
fn sample_solutions(dir: &std::path::Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(data("crates/hextris/tests/data/problem6-seed0.txt")).unwrap();
    let list = serde_json::json!([{ "problemId": 6, "seed": 0, "tag": "sample", "solution": text.trim() }]);
    let path = dir.join("sample.json");
    std::fs::write(&path, list.to_string()).unwrap();
    path
}

/// Runs a command that must succeed and print JSON.
fn json(args: &[&str]) -> Value {
    let out = tessera(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&out)))
}

#[test]
fn score_reproduces_the_organisers_sample() {
    let dir = scratch("hextris-score");
    let sample = sample_solutions(&dir);
    let v = json(&["hextris", "score", "-f", "6", sample.to_str().unwrap(), "--json"]);
    assert_eq!(v["seeds"][0]["move_score"], 3261);
    assert_eq!(v["seeds"][0]["power_score"], 0);
    assert_eq!(v["missing_seeds"], 49);
    // Floor of the mean over the 50 seeds, the 49 missing ones counting 0.
    assert_eq!(v["score"], 3261 / 50);
    let text = stdout(&tessera(&["hextris", "score", "-f", "6", sample.to_str().unwrap()]));
    assert!(text.contains("score   3261") && text.contains("problem 6: score 65"), "{text}");
    // A game its commands run past the end of: the evaluator's error, said once.
    let over = dir.join("over.json");
    let text = format!(r#"[{{"problemId": 6, "seed": 0, "solution": "{}"}}]"#, "k".repeat(20_000));
    std::fs::write(&over, text).unwrap();
    let text = stdout(&tessera(&["hextris", "score", "-f", "6", over.to_str().unwrap()]));
    assert!(text.contains("; error: command-after-game-end") && !text.contains("error, error"), "{text}");
}

#[test]
fn solve_writes_solutions_that_the_scorer_accepts() {
    let dir = scratch("hextris-solve");
    // Past its time the solver ends games early rather than overrun, but every seed gets a game
    // that locks at least one unit, however loaded the machine.
    let out = tessera(&["hextris", "solve", "-f", "1", "-f", "problem_3", "-t", "5", "-c", "1", "--tag", "t", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = list.as_array().unwrap();
    // Problem 1 has one seed, problem 3 five.
    assert_eq!(list.len(), 6);
    assert!(list.iter().all(|s| s["tag"].as_str().unwrap().starts_with("t ")), "{list:?}");
    let file = dir.join("solutions.json");
    std::fs::write(&file, &out.stdout).unwrap();
    for (problem, seeds) in [("1", 1), ("3", 5)] {
        let v = json(&["hextris", "score", "-f", problem, file.to_str().unwrap(), "--json"]);
        assert_eq!(v["seeds"].as_array().unwrap().len(), seeds);
        assert_eq!(v["missing_seeds"], 0);
        for s in v["seeds"].as_array().unwrap() {
            assert_eq!(s["error"], Value::Null, "{s}");
            assert!(s["move_score"].as_u64().unwrap() > 0, "{s}");
        }
        assert!(v["score"].as_u64().unwrap() > 0);
    }
}

#[test]
fn solve_uses_the_phrases_it_is_given() {
    // Problem 0 plans its first game in a tenth of the budget even in a test build, so a loaded
    // machine still leaves time to spell it (a game spelled after the budget has no phrases).
    let out = tessera(&["hextris", "solve", "-f", "0", "-t", "2", "-c", "1", "-p", "ei!", "-p", "Ia! Ia!", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = scratch("hextris-phrases");
    let file = dir.join("s.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let v = json(&["hextris", "score", "-f", "0", file.to_str().unwrap(), "-p", "ei!", "-p", "Ia! Ia!", "--json"]);
    let seed = &v["seeds"][0];
    assert_eq!(seed["error"], Value::Null);
    assert!(seed["power_score"].as_u64().unwrap() >= 300 + 2 * 3, "{seed}");
}

/// With no phrases, games score their moves alone and the judge says so; a phrase that brings
/// a unit back to a position it held is named once and played as if not given.
#[test]
fn no_phrases_and_unspellable_phrases_play_for_the_move_score() {
    let dir = scratch("hextris-no-phrases");
    let none = tessera(&["hextris", "solve", "-f", "21", "-t", "1", "-c", "1", "--no-phrases", "-q"]);
    assert!(none.status.success(), "{}", stderr(&none));
    let file = dir.join("none.json");
    std::fs::write(&file, &none.stdout).unwrap();
    let v = json(&["hextris", "score", "-f", "21", file.to_str().unwrap(), "--no-phrases", "--json"]);
    assert_eq!(v["phrase_set"], serde_json::json!([]));
    assert_eq!(v["seeds"][0]["error"], Value::Null);
    assert!(v["score"].as_u64().unwrap() > 0 && v["seeds"][0]["power_score"] == 0, "{v}");
    let never = tessera(&["hextris", "solve", "-f", "21", "-t", "1", "-c", "1", "-p", "bp", "-p", "dk"]);
    assert!(never.status.success(), "{}", stderr(&never));
    let err = stderr(&never);
    assert_eq!(err.matches("brings a unit back").count(), 2, "{err}");
    assert!(err.contains("\"bp\"") && err.contains("\"dk\""), "{err}");
}

#[test]
fn show_replays_and_draws() {
    let dir = scratch("hextris-show");
    let sample = sample_solutions(&dir);
    let svg = dir.join("p6.svg");
    let out = tessera(&[
        "hextris",
        "show",
        "-f",
        "6",
        "--seed",
        "0",
        sample.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("3261"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("</svg>"));
    // No solution: the starting board.
    let out = tessera(&["hextris", "show", "-f", "6"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn stats_lists_the_25_problems() {
    let v = json(&["hextris", "stats", "--json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 25);
    let text = stdout(&tessera(&["hextris", "stats"]));
    assert_eq!(text.lines().count(), 26, "{text}");
}

#[test]
fn eval_reports_each_problem_against_the_contest() {
    let v = json(&["hextris", "eval", "-f", "1", "-f", "0", "-t", "0.5", "-c", "1", "--json"]);
    let text = v.to_string();
    assert!(text.contains("\"problem\":1") && text.contains("\"problem\":0"), "{text}");
    assert_eq!((v["seconds_per_problem"].as_f64(), v["cores"].as_u64()), (Some(0.5), Some(1)));
    assert_eq!(v["stopped"], Value::Null);
    // The other games' names for the time and the threads.
    let v = json(&["hextris", "eval", "-f", "1", "--budget-ms", "300", "--threads", "1", "--json"]);
    assert_eq!((v["seconds_per_problem"].as_f64(), v["cores"].as_u64()), (Some(0.3), Some(1)));
}

#[test]
fn eval_shards_merge_into_the_sum_of_their_records() {
    let dir = scratch("hextris-shards");
    let shard = |i: &str| {
        let file = dir.join(format!("shard{}.jsonl", &i[..1]));
        let args = ["hextris", "eval", "-f", "1", "-f", "0", "-f", "13", "-t", "0.5", "-j", "1", "--shard", i];
        let out = tessera(&[&args[..], &["--jsonl", file.to_str().unwrap(), "--json"]].concat());
        assert!(out.status.success(), "{i}: {}", stderr(&out));
        let records: Vec<Value> =
            std::fs::read_to_string(&file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        (file, records)
    };
    let (a, first) = shard("1/2");
    let (b, second) = shard("2/2");
    // Problems in order of id: 0 and 13 in the first shard, 1 in the second.
    let ids = |r: &[Value]| r.iter().map(|x| x["problem"].as_i64().unwrap()).collect::<Vec<_>>();
    assert_eq!((ids(&first), ids(&second)), (vec![0, 13], vec![1]));
    let solutions = dir.join("solutions.json");
    let files = [a.to_str().unwrap(), b.to_str().unwrap()];
    let v = json(
        &[&["hextris", "eval", "--merge"], &files[..], &["--json", "--solutions", solutions.to_str().unwrap()]]
            .concat(),
    );
    let records: Vec<&Value> = first.iter().chain(&second).collect();
    let total: u64 = records.iter().map(|x| x["score"].as_u64().unwrap()).sum();
    assert_eq!(v["total"].as_u64(), Some(total), "{v}");
    let rows = v["problems"].as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["problem"].as_i64().unwrap()).collect::<Vec<_>>(), [0, 1, 13]);
    assert_eq!((v["final_best_problems"].as_u64(), rows[2]["final_best"].as_u64()), (Some(1), Some(4820)));
    for r in rows {
        let x = records.iter().find(|x| x["problem"] == r["problem"]).unwrap();
        assert_eq!((&r["score"], &r["seeds"]), (&x["score"], &Value::from(x["seeds"].as_array().unwrap().len())));
    }
    assert_eq!((v["seconds_per_problem"].as_f64(), &v["stopped"]), (Some(0.5), &Value::Null));
    // The merged solutions are the records' games: the judge scores them as the records say.
    for x in &records {
        let problem = x["problem"].to_string();
        let judged = json(&["hextris", "score", "-f", &problem, solutions.to_str().unwrap(), "--json"]);
        assert_eq!((&judged["score"], &judged["missing_seeds"]), (&x["score"], &Value::from(0)), "{problem}");
    }
    // One shard alone: the missing problem is named.
    let out = tessera(&["hextris", "eval", "--merge", files[0]]);
    assert!(out.status.success() && stderr(&out).contains("1 of 3 jobs have no record"), "{}", stderr(&out));
}

#[test]
fn bad_input_gets_one_error_line_and_a_failure() {
    let dir = scratch("hextris-bad");
    let sample = sample_solutions(&dir);
    let sample = sample.to_str().unwrap();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{").unwrap();
    let broken = broken.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["hextris", "score", "-f", "6", "no-such-file.json"],
        vec!["hextris", "score", "-f", "6", broken],
        vec!["hextris", "score", "-f", "99", sample],
        vec!["hextris", "solve", "-f", broken, "-t", "1"],
        vec!["hextris", "eval", "--problems", "no-such-dir"],
        vec!["hextris", "eval", "--merge", "no-such-shard.jsonl"],
        // Output paths that cannot be written are refused before any work.
        vec!["hextris", "eval", "-t", "60", "--solutions", "no/such/dir/s.json"],
        vec!["hextris", "eval", "-t", "60", "--jsonl", "no/such/dir/r.jsonl"],
        vec!["hextris", "eval", "-t", "60", "--html", "no/such/dir/r.html"],
        vec!["hextris", "tune", "--iterations", "1000", "--out", "no/such/dir/w.json"],
        vec!["hextris", "show", "-f", "6", sample, "--svg", "no/such/dir/p.svg"],
    ];
    for args in cases {
        let out = tessera(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: ") && err.trim_end().lines().count() == 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Impossible parameters, caught by the argument parser or after it: exit 2 with a hint.
    let cases: Vec<Vec<&str>> = vec![
        vec!["hextris", "solve", "-f", "6", "-t", "0"],
        vec!["hextris", "solve", "-f", "6", "-c", "0"],
        vec!["hextris", "solve", "-f", "6", "-t", "1", "--budget-ms", "1000"],
        vec!["hextris", "eval", "-f", "6", "-t", "1", "--budget-ms", "1000"],
        vec!["hextris", "tune", "-j", "0"],
        vec!["hextris", "score", "-f", "6", "-p", "", sample],
        vec!["hextris", "score", "-f", "6", "-p", "a~b", sample],
        vec!["hextris", "score", "-f", "6", "-p", "é", sample],
        vec!["hextris", "score", "-f", "6", "-p", "ei!", "--no-phrases", sample],
        vec!["hextris", "show", "-f", "6", "--seed", "12345", sample],
    ];
    for args in cases {
        let out = tessera(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).starts_with("error: ") && stderr(&out).contains("--help"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn play_takes_commands_from_stdin_and_saves_a_valid_solution() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = scratch("hextris-play");
    let saved = dir.join("played.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["hextris", "play", "-f", "6", "--save", saved.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A phrase, a refused move back, an unknown key, an undo, two mistaken commands (the game
    // goes on), then straight down for a while.
    let input =
        format!("Ei!\nb\n~\n:u 1\n:u x\n:w {}\n{}\n:s\n:q\n", dir.join("no/such.json").display(), "al".repeat(40));
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("not a command") && text.contains("took back 1 commands"), "{text}");
    assert!(text.contains("error: :u takes a number") && text.contains("error: cannot write"), "{text}");
    assert!(text.contains("final: score"), "{text}");
    let v = json(&["hextris", "score", "-f", "6", saved.to_str().unwrap(), "--json"]);
    let seed = &v["seeds"][0];
    assert_eq!(seed["error"], Value::Null, "{seed}");
    assert!(seed["locked"].as_u64().unwrap() >= 1, "{seed}");
}

#[test]
fn tune_writes_a_portfolio_that_can_build_on_another() {
    let dir = scratch("hextris-tune");
    let out = dir.join("weights.json");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../hextris/data/weights.json");
    let mut args: Vec<&str> = "hextris tune -f 1 -f 10 --seeds 1 --iterations 2 --keep 2 --seed 7".split(' ').collect();
    args.extend(["--with", shipped.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let run = tessera(&args);
    assert!(run.status.success(), "{}", stderr(&run));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["weights"].as_array().unwrap().len(), 2);
    assert!(v["made_by"].as_str().unwrap().contains("--with"), "{v}");
    // A file that is not a portfolio is refused.
    let bad = tessera(&["hextris", "tune", "-f", "1", "--with", "no-such-portfolio.json"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).starts_with("error: "));
}

#[test]
fn ctrl_c_stops_eval_which_says_how_far_it_got_everywhere() {
    let dir = scratch("hextris-eval-stopped");
    let (jsonl, html) = (dir.join("r.jsonl"), dir.join("r.html"));
    let mut run = Running::start(&[
        "hextris",
        "eval",
        "-f",
        "1",
        "-f",
        "2",
        "-t",
        "20",
        "-j",
        "1",
        "--jsonl",
        jsonl.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    run.wait_for("hextris eval: 2 problems");
    run.interrupt();
    let (status, out, err) = run.finish();
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(out.contains("stopped by Ctrl-C after 0 of 2 problems; problem 1 cut short"), "{out}");
    assert!(err.contains("[1/2] problem 1:") && err.contains("cut short by Ctrl-C"), "{err}");
    // The record written says it was cut short, and a merge of it says the run was stopped.
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    let record: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!((&record["problem"], &record["stopped"]), (&Value::from(1), &Value::Bool(true)));
    let mark: Value = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(
        (&mark["stopped"], &mark["done"], &mark["jobs"]),
        (&Value::from("interrupted"), &Value::from(0), &Value::from(2))
    );
    let merged = tessera(&["hextris", "eval", "--merge", jsonl.to_str().unwrap(), "--json"]);
    assert_eq!(merged.status.code(), Some(3), "{}", stderr(&merged));
    let v: Value = serde_json::from_slice(&merged.stdout).unwrap();
    // The records say how many problems the run had: 2, though one has a record.
    assert_eq!(v["stopped"], serde_json::json!({"reason": "interrupted", "done": 0, "of": 2, "cut_short": 1}));
    assert!(stderr(&merged).contains("note: stopped by Ctrl-C"), "{}", stderr(&merged));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("stopped by Ctrl-C after 0 of 2 problems"), "the report says it too");
}

#[test]
fn ctrl_c_stops_solve_which_writes_the_games_it_has() {
    let mut run = Running::start(&["hextris", "solve", "-f", "1", "-f", "2", "-t", "40", "-j", "1"]);
    run.wait_for("problem 1: width");
    run.interrupt();
    let (status, out, err) = run.finish();
    assert_eq!(status.code(), Some(3), "{err}");
    // Problem 1 can end early (its search is exhaustive), so on a loaded machine the signal may
    // land in problem 2: either way the problems done and the one cut short are written.
    let done = (0..2).find(|k| {
        err.contains(&format!("note: stopped by Ctrl-C after {k} of 2 problems; problem {} cut short", k + 1))
    });
    let done = done.unwrap_or_else(|| panic!("no note of the stop: {err}"));
    let list: Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<i64> = list.as_array().unwrap().iter().map(|s| s["problemId"].as_i64().unwrap()).collect();
    let seeds_of = [1, 10];
    let expected: Vec<i64> = (1..=done + 1).flat_map(|p| std::iter::repeat_n(p as i64, seeds_of[p - 1])).collect();
    assert_eq!(ids, expected, "every seed of the problems started, none of the others");
    let dir = scratch("hextris-solve-stopped");
    for p in 1..=done + 1 {
        let file = dir.join(format!("s{p}.json"));
        let games: Vec<&Value> = list.as_array().unwrap().iter().filter(|s| s["problemId"] == p as i64).collect();
        std::fs::write(&file, serde_json::to_string(&games).unwrap()).unwrap();
        let v = json(&["hextris", "score", "-f", &p.to_string(), file.to_str().unwrap(), "--json"]);
        let seeds = v["seeds"].as_array().unwrap();
        assert!(seeds.iter().all(|s| s["error"] == Value::Null), "{v}");
    }
}

#[test]
fn ctrl_c_stops_tune_which_leaves_its_output_file_as_it_was() {
    let dir = scratch("hextris-tune-stopped");
    let out = dir.join("weights.json");
    std::fs::write(&out, "earlier\n").unwrap();
    let mut run = Running::start(&[
        "hextris",
        "tune",
        "-f",
        "1",
        "-f",
        "10",
        "--seeds",
        "1",
        "--iterations",
        "100000",
        "--seed",
        "7",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    run.wait_for("seed: 7");
    run.interrupt();
    let (status, _, err) = run.finish();
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.contains("stopped by Ctrl-C after tuning 0 of 2 problems: no portfolio written"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier\n");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "nothing but the file: {left:?}");
}

#[test]
fn ctrl_c_quits_play_at_once_and_the_save_holds_the_last_line() {
    let dir = scratch("hextris-play-stopped");
    let saved = dir.join("played.json");
    let mut run = Running::start(&["hextris", "play", "-f", "6", "--save", saved.to_str().unwrap()]);
    run.wait_until("a prompt", |out, _| out.ends_with("> "));
    let prompts = run.stdout().matches("> ").count();
    run.write(b"Ei!\n");
    run.wait_until("the next prompt", |out, _| out.matches("> ").count() > prompts && out.ends_with("> "));
    // stdin stays open: play is waiting for the next line.
    let (status, _, _) = run.interrupt().finish();
    assert_eq!(status.code(), Some(130));
    let v = json(&["hextris", "score", "-f", "6", saved.to_str().unwrap(), "--json"]);
    assert_eq!(
        (v["seeds"][0]["error"].clone(), v["seeds"][0]["phrases"].clone()),
        (Value::Null, serde_json::json!(["Ei!"]))
    );
}

#[test]
fn gen_writes_problems_once_and_the_other_commands_read_them() {
    let dir = scratch("hextris-gen");
    let (first, second) = (dir.join("a"), dir.join("b/c"));
    let make = |out: &std::path::Path, extra: &[&str]| {
        let args = ["hextris", "gen", "--seed", "5", "--count", "4", "--small", "2", "--out", out.to_str().unwrap()];
        tessera(&[&args[..], extra].concat())
    };
    let run = make(&first, &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(
        rows[..2].iter().all(|r| r.contains(" contest ")) && rows[2..].iter().all(|r| r.contains(" small ")),
        "{text}"
    );
    let names = |d: &std::path::Path| {
        let mut v: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    };
    let files: Vec<String> = (1000..1004).map(|id| format!("problem_{id}.json")).collect();
    assert_eq!(names(&first), files, "nothing else is left in the folder");
    // The same seed, the same bytes (into a folder that did not exist).
    let again = make(&second, &["--json"]);
    assert!(again.status.success(), "{}", stderr(&again));
    for f in &files {
        assert_eq!(std::fs::read(first.join(f)).unwrap(), std::fs::read(second.join(f)).unwrap(), "{f}");
    }
    let v: Value = serde_json::from_slice(&again.stdout).unwrap();
    let listed: Vec<&str> = v["problems"].as_array().unwrap().iter().map(|r| r["file"].as_str().unwrap()).collect();
    assert_eq!(
        (listed, v["seed"].as_u64(), v["small"].as_u64()),
        (files.iter().map(String::as_str).collect(), Some(5), Some(2))
    );
    // Files already there are left alone, unless --force.
    let one = first.join(&files[0]);
    std::fs::write(&one, "mine").unwrap();
    let refused = make(&first, &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let err = stderr(&refused);
    assert!(err.starts_with("error: ") && err.contains("--force") && err.trim_end().lines().count() == 1, "{err}");
    assert_eq!(std::fs::read_to_string(&one).unwrap(), "mine");
    assert!(make(&first, &["--force"]).status.success());
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(second.join(&files[0])).unwrap());
    // `stats`, `solve` and `score` take the files.
    let small = first.join(&files[3]);
    let small = small.to_str().unwrap();
    let stats = json(&["hextris", "stats", "-f", one.to_str().unwrap(), "-f", small, "--json"]);
    assert_eq!(stats[1]["problem"].as_i64(), Some(1003), "{stats}");
    let solved = tessera(&["hextris", "solve", "-f", small, "-t", "0.5", "-c", "1", "-q"]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let solutions = dir.join("solutions.json");
    std::fs::write(&solutions, &solved.stdout).unwrap();
    let judged = json(&["hextris", "score", "-f", small, solutions.to_str().unwrap(), "--json"]);
    assert!(judged["seeds"].as_array().unwrap().iter().all(|s| s["error"].is_null()), "{judged}");
    assert_eq!(judged["missing_seeds"].as_u64(), Some(0), "{judged}");
    // By default a fifth of them are small.
    let third = dir.join("d");
    let v = json(&["hextris", "gen", "--seed", "5", "--count", "10", "--out", third.to_str().unwrap(), "--json"]);
    let kinds: Vec<&str> = v["problems"].as_array().unwrap().iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, [["contest"; 8].as_slice(), &["small"; 2]].concat(), "{v}");
    // Unusable flags: one error line, exit status 2.
    let out = first.to_str().unwrap();
    for args in [
        vec!["hextris", "gen", "--count", "4", "--small", "5", "--out", out],
        vec!["hextris", "gen", "--count", "0", "--out", out],
        vec!["hextris", "gen", "--seed", "x", "--out", out],
        vec!["hextris", "gen", "--seed", "1"],
    ] {
        let o = tessera(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("error: "), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn solve_stops_early_only_when_its_games_are_proven_optimal() {
    // One single cell on a 5x4 board: the exact search of short games ends at once. Two seeds
    // with the same units: one search, the same game for both.
    let dir = scratch("hextris-exact");
    let problem = serde_json::json!({
        "id": 7, "units": [{ "members": [{ "x": 0, "y": 0 }], "pivot": { "x": 0, "y": 0 } }],
        "width": 5, "height": 4, "filled": [{ "x": 0, "y": 3 }, { "x": 1, "y": 3 }, { "x": 3, "y": 3 }],
        "sourceLength": 1, "sourceSeeds": [0, 5]
    });
    let file = dir.join("tiny.json");
    std::fs::write(&file, problem.to_string()).unwrap();
    let started = std::time::Instant::now();
    let out = tessera(&["hextris", "solve", "-f", file.to_str().unwrap(), "-t", "60", "-c", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(started.elapsed().as_secs() < 50, "it stopped early");
    let err = stderr(&out);
    assert!(err.contains("proven optimal"), "{err}");
    let solutions = dir.join("solutions.json");
    std::fs::write(&solutions, &out.stdout).unwrap();
    let judged = json(&["hextris", "score", "-f", file.to_str().unwrap(), solutions.to_str().unwrap(), "--json"]);
    assert_eq!(judged["seeds"][0]["error"], Value::Null, "{judged}");
    assert_eq!(judged["seeds"][1]["error"], Value::Null, "{judged}");
    assert_eq!(judged["seeds"][0]["score"], judged["seeds"][1]["score"], "{judged}");
    // The bottom row has two gaps, so no line: at least the lock and "Ei!" on the way down.
    let (lock, ei) = (1, 300 + 2 * 3);
    assert!(judged["score"].as_u64().unwrap() >= lock + ei, "{judged}");
}
