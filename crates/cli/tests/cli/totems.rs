//! `tessera totems ...`.

use std::io::Write;
use std::process::{Command, Stdio};

use tessera_totems::eval::EvalSummary;
use tessera_totems::format::{RoundReport, SolveReport};

use crate::running::Running;
use crate::{scratch, stderr, stdout, tessera};

#[test]
fn solve_takes_letters_files_and_stdin() {
    let out = tessera(&["totems", "solve", "IJLO"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("4 pieces (I1 J1 L1 O1) in 4x4: score 24 (optimal)"), "{}", stdout(&out));
    let dir = scratch("totems-solve");
    let q = dir.join("q.json");
    std::fs::write(&q, r#"{"tick": 2, "payload": {"totems": [{"shape": "L"}, {"shape": "L"}]}}"#).unwrap();
    let out =
        tessera(&["totems", "solve", q.to_str().unwrap(), "--json", "--svg", dir.join("p.svg").to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["box"], serde_json::json!([3, 3]));
    assert_eq!(v["score"], 11.0);
    assert_eq!(v["actions"]["totems"].as_array().unwrap().len(), 2);
    assert!(std::fs::read_to_string(dir.join("p.svg")).unwrap().matches("<rect").count() == 8);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["totems", "solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"OOOO\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("in 4x4: score 24"));
}

#[test]
fn bad_bags_and_options_are_refused() {
    let fails = |args: &[&str], needle: &str| {
        let out = tessera(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
    };
    fails(&["totems", "solve", "IJQ"], "'Q' at position 3 is not one of the tetrominoes IJLOSTZ");
    fails(&["totems", "solve", " "], "the bag is empty");
    fails(&["totems", "solve", "{\"tick\": 1}"], "not a question of the game");
    fails(&["totems", "solve", "IJ", "--solver", "magic"], "[possible values: hybrid, exact, strips, greedy, rects]");
    fails(&["totems", "solve", "IJ", "--pieces", "hexominoes"], "[possible values: tetrominoes, pentominoes]");
    fails(&["totems", "eval", "--level", "11"], "11");
    fails(&["totems", "eval"], "--level L, --n N or --bags FILE");
    // The most pieces `solve` takes, `eval` draws.
    fails(&["totems", "eval", "--n", "4097"], "4097 is not in 1..=4096");
    fails(&["totems", "play", "--server", "ws://127.0.0.1:1"], "cannot connect");
    // A long bag is quoted by its start and its length, not whole.
    let long = format!("{}Q", "IJLOSTZ".repeat(700));
    for (args, needle) in [
        (vec!["totems", "solve", long.as_str()], "'Q' at position 4901 is not one of the tetrominoes"),
        (vec!["totems", "solve", &format!("x/{long}")], "no such file"),
    ] {
        let err = stderr(&tessera(&args));
        assert!(err.starts_with("error: IJLOSTZIJLOSTZ") || err.starts_with("error: x/IJLOSTZ"), "{err}");
        assert!(err.contains("... (490") && err.contains(needle), "{err}");
        assert!(err.len() < 200 && err.lines().count() == 1, "{} characters: {err}", err.len());
    }
    let dir = scratch("totems-long-question");
    let q = dir.join("q.json");
    let shapes = vec![r#"{"shape": "IJLOSTZ"}"#; 800].join(",");
    std::fs::write(&q, format!(r#"{{"tick": 1, "payload": {{"totems": [{shapes}]}}}}"#)).unwrap();
    let err = stderr(&tessera(&["totems", "solve", q.to_str().unwrap()]));
    assert!(err.contains("shapes must be single letters, got \"IJLOSTZ\" (totem 1)") && err.len() < 200, "{err}");
}

#[test]
fn a_printed_seed_repeats_the_packing() {
    // 30 pieces in 11 x 11 with a cell to spare: on one thread, the greedy's random choices
    // pack them, which the seed decides.
    let bag = "SLTLZTZTTSIZOZJTIJILOZJOSISJIT";
    let packing = |out: &std::process::Output| {
        assert!(out.status.success(), "{}", stderr(out));
        stdout(out).lines().filter(|l| !l.starts_with("time:")).collect::<Vec<_>>().join("\n")
    };
    let first = tessera(&["totems", "solve", bag, "-j", "1"]);
    let seed = stderr(&first).lines().find_map(|l| l.strip_prefix("seed: ")).expect("the seed is printed").to_string();
    let again = tessera(&["totems", "solve", bag, "-j", "1", "--seed", &seed]);
    assert_eq!(stderr(&again), format!("seed: {seed}\n"));
    assert_eq!(packing(&first), packing(&again), "seed {seed}");
    let (one, two) = (
        packing(&tessera(&["totems", "solve", bag, "-j", "1", "--seed", "1"])),
        packing(&tessera(&["totems", "solve", bag, "-j", "1", "--seed", "2"])),
    );
    assert_ne!(one, two, "the seed decides the packing");
    assert_eq!(one, packing(&tessera(&["totems", "solve", bag, "-j", "1", "--seed", "1"])));
    // The help says when a seed does not repeat a run.
    let help = stdout(&tessera(&["totems", "solve", "--help"]));
    assert!(help.contains("On one thread (-j 1) a seed gives the same packing"), "{help}");
}

#[test]
fn running_out_of_budget_is_a_normal_end() {
    // 400 X pentominoes never fit their best boxes: the budget ends the search, with a whole
    // packing (exit status 0, no stop in the JSON); Ctrl-C gives 3 (see below).
    let xs = "X".repeat(400);
    let out = tessera(&["totems", "solve", &xs, "--pieces", "pentominoes", "--budget-ms", "300", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: SolveReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report.actions.totems.len(), report.optimal, report.stopped), (400, false, None));
}

#[test]
fn names_are_listed_and_old_spellings_still_taken() {
    let help = stdout(&tessera(&["totems", "solve", "-h"]));
    assert!(help.contains("[possible values: hybrid, exact, strips, greedy, rects]"), "{help}");
    let out = tessera(&["totems", "solve", "FILNP", "--pieces", "pentomino", "--solver", "exact"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("5 pieces"), "{}", stdout(&out));
}

#[test]
fn eval_decides_every_level_3_bag() {
    let out = tessera(&["totems", "eval", "--level", "3", "--rounds", "20", "--seed", "1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["decided"]["rate"], 1.0);
    assert_eq!(v["invalid"], 0);
}

#[test]
fn a_round_has_ten_levels() {
    let out = tessera(&["totems", "round", "--seed", "1", "--json", "--budget-ms", "500"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["levels"].as_array().unwrap().len(), 10);
    assert!(v["score"].as_f64().unwrap() > 5000.0);
}

#[test]
fn json_outputs_read_back_as_the_games_types() {
    let out = tessera(&["totems", "solve", "IJLOT", "--json", "-j", "1"]);
    let solve: SolveReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((solve.actions.totems.len(), solve.trials.is_empty()), (5, false));
    // The keys come in sorted order, as they always have.
    assert!(stdout(&out).starts_with(r#"{"actions":{"totems":[{"coordinates":"#), "{}", stdout(&out));
    let out = tessera(&["totems", "eval", "--level", "2", "--rounds", "3", "--seed", "1", "-j", "1", "--json"]);
    let summary: EvalSummary = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((summary.jobs, summary.invalid), (3, 0));
    let out = tessera(&["totems", "round", "--seed", "2", "--json", "--budget-ms", "200", "-j", "1"]);
    let round: RoundReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((round.rounds, round.levels.len()), (None, 10));
}

#[test]
fn serve_and_play_over_loopback() {
    let (mut server, addr) = serve(&["--games", "2"]);
    let play = |token: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tessera"));
        cmd.args(["totems", "play", "--server", &format!("ws://{addr}"), "--budget-ms", "600"]);
        match token {
            Some(t) => cmd.env("TOKEN", t),
            None => cmd.env_remove("TOKEN"),
        };
        cmd.output().unwrap()
    };
    // Without a token the bot warns, once, and plays on; with one it says nothing of it.
    for token in [None, Some("secret")] {
        let out = play(token);
        assert!(out.status.success(), "{}", stderr(&out));
        let warnings = stderr(&out).lines().filter(|l| l.starts_with("warning:")).count();
        assert_eq!(warnings, usize::from(token.is_none()), "{}", stderr(&out));
        // The server closes the game after the last level; the bot says what it made of it.
        let said = stdout(&out);
        let score = said.strip_prefix("the server ended the game after 10 levels: score ");
        let score = score.and_then(|s| s.strip_suffix(" by the bot's count\n")).and_then(|s| s.parse::<f64>().ok());
        assert!(score.is_some_and(|s| s > 5000.0), "{said}");
    }
    let (status, _, log) = server.finish();
    assert!(status.success());
    assert!(log.contains("game 0:") && log.contains("game 1:"), "{log}");
}

#[test]
fn serve_and_play_quit_on_the_first_ctrl_c() {
    let (mut server, _) = serve(&[]);
    assert_eq!(server.interrupt().finish().0.code(), Some(130));
    // A server that never answers: the bot waits for the handshake until the Ctrl-C.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut bot = Command::new(env!("CARGO_BIN_EXE_tessera"));
    bot.args(["totems", "play", "--server", &format!("ws://{}", silent.local_addr().unwrap())]).env_remove("TOKEN");
    let mut bot = Running::start_with(bot);
    bot.wait_for("warning: no access token");
    assert_eq!(bot.interrupt().finish().0.code(), Some(130));
}

#[test]
fn a_ctrl_c_stops_solve_and_round_with_what_they_have() {
    // 400 X pentominoes never fit their best boxes: the solver would use its ten minutes.
    let xs = "X".repeat(400);
    let (status, out, err) =
        Running::start(&["totems", "solve", &xs, "--pieces", "pentominoes", "--budget-ms", "600000"])
            .interrupt()
            .finish();
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(out.starts_with("400 pieces (X400) in "), "{out}");
    assert!(err.contains("note: stopped early (interrupted)"), "{err}");
    // The greedy never proves a box impossible: level 2 or 3 would take the ten minutes.
    let round = ["totems", "round", "--seed", "1", "--solver", "greedy", "--budget-ms", "600000"];
    let (status, out, err) = Running::start(&[&round[..], &["--json"]].concat()).interrupt().finish();
    assert_eq!(status.code(), Some(3), "{err}");
    let report: RoundReport = serde_json::from_str(&out).unwrap();
    assert_eq!(report.stopped, Some(tessera_core::runtime::StopReason::Interrupted));
    assert!((1..10).contains(&report.levels.len()), "{:?}", report.levels);
    let (status, out, err) = Running::start(&round).interrupt().finish();
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(out.contains("round stopped at level "), "{out}");
    assert!(!out.contains("round score"), "{out}");
}

/// Starts `tessera totems serve` on a free port with more options; returns it once it listens,
/// and its address.
fn serve(options: &[&str]) -> (Running, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let mut server = Running::start(&[&["totems", "serve", "--addr", &addr, "--seed", "3"][..], options].concat());
    // The server says when it listens; a probe connection would use up a game.
    server.wait_for("listening on ws://");
    (server, addr)
}
