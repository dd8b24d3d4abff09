//! `tessera digits ...`: the real player binary against the real judge, values, evals, errors.

use tessera_digits::StrategyName;
use tessera_digits::eval::{EvalSummary, GameResult};
use tessera_digits::format::{StrategyValueReport, ValueReport};
use tessera_digits::process::ProcessReport;
use tessera_game::eval::Record;

use crate::{stderr, stdout, tessera};

/// `tessera digits play [args]` with `input` on its stdin.
fn play(args: &[&str], input: &[u8]) -> std::process::Output {
    crate::running::with_input(&[&["digits", "play"][..], args].concat(), input)
}

/// `tessera digits judge [judge args] -- tessera digits play [player args]`, as JSON.
fn judged(judge_args: &[&str], player_args: &[&str]) -> (serde_json::Value, std::process::Output) {
    let me = env!("CARGO_BIN_EXE_tessera");
    let mut args = vec!["digits", "judge", "--json", "--time-limit", "3600"];
    args.extend_from_slice(judge_args);
    args.extend_from_slice(&["--", me, "digits", "play", "--quiet"]);
    args.extend_from_slice(player_args);
    let out = tessera(&args);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
    (v, out)
}

#[test]
fn the_player_binary_passes_set_2_against_the_judge() {
    let (v, out) = judged(&["--set", "2", "--seed", "2021"], &[]);
    assert!(out.status.success(), "{v}");
    assert_eq!(v["passed"], true);
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["after_verdict"], serde_json::Value::Null);
    assert_eq!(v["judge"]["fault"], serde_json::Value::Null);
    assert_eq!(v["judge"]["scores"].as_array().unwrap().len(), 50);
    let total: u128 = v["judge"]["total"].to_string().parse().unwrap();
    assert!(total >= 937_467_793_908_762_347, "{total}");
}

#[test]
fn a_short_set_with_each_named_strategy() {
    for s in ["greedy", "top2", "top3"] {
        let (v, out) = judged(&["--games", "2", "--seed", "1"], &["--strategy", s]);
        assert_eq!(v["judge"]["fault"], serde_json::Value::Null, "{s}: {v}");
        assert_eq!(v["exit_code"], 0, "{s}");
        // P is scaled to the two games.
        assert_eq!(v["judge"]["set"]["p"], 37_498_711_756_350_494u64, "{s}");
        assert_eq!(out.status.success(), v["passed"] == true);
    }
}

#[test]
fn the_judge_catches_misbehaving_programs() {
    // Names a tower that does not exist.
    let out = tessera(&["digits", "judge", "--games", "1", "--seed", "1", "--", "sh", "-c", "read h; read d; echo 21"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("game 1, block 1: the player named tower 21, which does not exist"),
        "{}",
        stdout(&out)
    );
    // Plays a whole game of one tower, then writes after the verdict.
    let script = "read h; for i in 1 2 3; do read d; echo 1; done; read v; echo extra";
    let out =
        tessera(&["digits", "judge", "--n", "1", "--b", "3", "--p", "0", "--games", "1", "--", "sh", "-c", script]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("after the verdict the player wrote \"extra\\n\""), "{}", stdout(&out));
    assert!(!stdout(&out).contains("NaN"), "P = 0 has no ratio: {}", stdout(&out));
    // Runs past the time limit.
    let out = tessera(&["digits", "judge", "--time-limit", "0.5", "--", "sleep", "30"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("time limit: killed after 0.5 s"), "{}", stdout(&out));
    // A player whose own child keeps its output open: the limit still ends the run, and a
    // player that leaves such a child behind after the verdict is not waited for either. (The
    // child's stderr goes elsewhere: this test waits for the end of tessera's.)
    let start = std::time::Instant::now();
    let out = tessera(&["digits", "judge", "--time-limit", "0.5", "--", "sh", "-c", "read h; sleep 30 2>/dev/null"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("the player was killed at the time limit"), "{}", stdout(&out));
    let out = tessera(&[
        "digits",
        "judge",
        "--n",
        "1",
        "--b",
        "3",
        "--p",
        "0",
        "--games",
        "1",
        "--",
        "sh",
        "-c",
        "sleep 30 2>/dev/null & read h; for i in 1 2 3; do read d; echo 1; done; read v",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(start.elapsed().as_secs() < 20, "waited on the child: {:?}", start.elapsed());
    // Cannot be started.
    let out = tessera(&["digits", "judge", "--", "no-such-program-here"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error: cannot start no-such-program-here"), "{}", stderr(&out));
}

#[test]
fn play_speaks_the_protocol_on_stdin_and_stdout() {
    // One game of two towers of one block, then the verdict.
    let out = play(&["--strategy", "top2"], b"1 2 1 10\n9\n3\n1\n");
    assert!(out.status.success());
    let mut towers: Vec<String> = stdout(&out).lines().map(String::from).collect();
    towers.sort();
    assert_eq!(towers, ["1", "2"]);
    assert!(stderr(&out).contains("the run passed after 1 game, total 12"), "{}", stderr(&out));
    // A judge that says -1 at once: quiet success.
    let out = play(&["-q"], b"-1\n");
    assert!(out.status.success() && out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn value_of_a_small_game_and_of_strategies() {
    let out = tessera(&["digits", "value", "--n", "8", "--b", "6", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["optimum"]["states"], 3003);
    let s = v["optimum"]["value"].as_f64().unwrap();
    // The optimal policy's own value, evaluated over the states it reaches, is S.
    let out = tessera(&["digits", "value", "--n", "8", "--b", "6", "--strategy", "optimal", "--json"]);
    let o: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((o["value"].as_f64().unwrap() - s).abs() < 1e-9 * s);
    assert_eq!(o["resolved"], "top6");
    // Top-2 and greedy on the official size, exactly, as fractions of the published S.
    for (name, low, high) in [("top2", 0.99764, 0.99766), ("greedy", 0.9512, 0.9514)] {
        let out = tessera(&["digits", "value", "--strategy", name, "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let f = v["fraction_of_optimum"].as_f64().unwrap();
        assert!((low..high).contains(&f), "{name}: {f}");
    }
    let out = tessera(&["digits", "value", "--strategy", "top3"]);
    assert!(stdout(&out).contains("of S:  0.99993"), "{}", stdout(&out));
}

#[test]
fn eval_reports_the_fraction_of_s_and_the_odds() {
    let out = tessera(&["digits", "eval", "--strategy", "top2", "--games", "300", "--seed", "4", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["scores"]["n"], 300);
    assert_eq!(v["illegal"], 0);
    let f = &v["fraction_of_optimum"];
    assert!(f["low"].as_f64().unwrap() < 0.99765 && 0.99765 < f["high"].as_f64().unwrap(), "{f}");
    assert_eq!(v["sets"].as_array().unwrap().len(), 2);
    assert_eq!(v["sets"][1]["runs"]["n"], 6);
    // Set 2 fails with a tiny probability for top-2 (about six standard deviations).
    assert!(v["sets"][1]["fail_probability"].as_f64().unwrap() < 1e-4);
    // Text output on a small size: no test sets, S computed on the fly.
    let out =
        tessera(&["digits", "eval", "--strategy", "optimal", "--n", "5", "--b", "4", "--games", "100", "--seed", "1"]);
    assert!(stdout(&out).contains("strategy: top4 (N=5 B=4), 100 games"), "{}", stdout(&out));
    assert!(stdout(&out).contains("exact:"), "{}", stdout(&out));
}

#[test]
fn bad_requests_are_refused_clearly() {
    let fails = |args: &[&str], needle: &str| {
        let out = tessera(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
        // The message names what was typed once, not twice.
        let typed = args.last().unwrap();
        assert!(stderr(&out).matches(*typed).count() <= 1 || typed.len() < 3, "{}", stderr(&out));
    };
    fails(&["digits", "value", "--n", "0"], "N = 0");
    fails(&["digits", "value", "--b", "0"], "B = 0");
    fails(&["digits", "value", "--b", "19"], "B = 19: at most 18");
    fails(&["digits", "value", "--n", "19", "--b", "18"], "does not fit 64 bits");
    fails(&["digits", "value", "--strategy", "nonsense"], "not a strategy (known:");
    fails(&["digits", "value", "--strategy", "top16"], "R must be between 1 and B = 15");
    fails(&["digits", "value", "--strategy", "optimal"], "needs 3247943160 states");
    fails(&["digits", "value", "--n", "1000", "--b", "6"], "counting table");
    fails(&["digits", "value", "--n", "200", "--strategy", "top3"], "needs 840705012 states; at most 134217728");
    fails(&["digits", "value", "--n", "40"], "more than this machine has available");
    fails(&["digits", "eval", "--games", "0"], "at least 1");
    fails(&["digits", "judge"], "PROGRAM");
    fails(&["digits", "judge", "--set", "3", "--", "true"], "the official sets are 1 and 2");
    fails(&["digits", "judge", "--n", "3", "--", "true"], "--p");
    let out = play(&[], b"50 20 15\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error: the judge sent \"50 20 15\" as its first line (T N B P)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn eval_shards_merge_into_the_whole_run() {
    let dir = crate::scratch("digits-shards");
    let mut files = Vec::new();
    for i in 1..=2 {
        let f = dir.join(format!("s{i}.jsonl"));
        let shard = format!("{i}/2");
        let out = tessera(&[
            "digits",
            "eval",
            "-s",
            "top2",
            "--games",
            "40",
            "--seed",
            "9",
            "--shard",
            &shard,
            "--jsonl",
            f.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        files.push(f);
    }
    let whole = tessera(&["digits", "eval", "-s", "top2", "--games", "40", "--seed", "9", "--json"]);
    let merged =
        tessera(&["digits", "eval", "--json", "--merge", files[0].to_str().unwrap(), files[1].to_str().unwrap()]);
    let (w, m): (serde_json::Value, serde_json::Value) =
        (serde_json::from_slice(&whole.stdout).unwrap(), serde_json::from_slice(&merged.stdout).unwrap());
    assert_eq!(w["scores"], m["scores"]);
    assert_eq!(m["strategy"], "top2");
    // A file given twice is read once, and says so.
    let (a, b) = (files[0].to_str().unwrap(), files[1].to_str().unwrap());
    let again = tessera(&["digits", "eval", "--json", "--merge", a, b, a]);
    assert_eq!(again.stdout, merged.stdout);
    assert!(stderr(&again).contains(&format!("warning: {a} is given twice: read once")), "{}", stderr(&again));
    // Records of another strategy (same jobs and seed) are not merged with these.
    let other = dir.join("other.jsonl");
    let out = tessera(&[
        "digits",
        "eval",
        "-s",
        "greedy",
        "--games",
        "40",
        "--seed",
        "9",
        "--shard",
        "2/2",
        "--jsonl",
        other.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let out = tessera(&["digits", "eval", "--merge", files[0].to_str().unwrap(), other.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("greedy on N=20 B=15: records of different runs"), "{}", stderr(&out));
}

#[test]
fn json_outputs_read_back_as_the_games_types() {
    let out = tessera(&["digits", "value", "--n", "6", "--b", "4", "--json"]);
    // The keys come in sorted order, as they always have, the game's name among them.
    assert!(stdout(&out).starts_with(r#"{"game":"digits","optimum":{"largest_layer":"#), "{}", stdout(&out));
    let value: ValueReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((value.optimum.params.n, value.significant_digits), (6, None));
    let out = tessera(&["digits", "value", "--n", "6", "--b", "4", "--strategy", "Top-2", "--json"]);
    let strategy: StrategyValueReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((strategy.strategy, strategy.resolved), (StrategyName::Top(2), StrategyName::Top(2)));
    let out = tessera(&["digits", "eval", "-s", "greedy", "--games", "5", "--seed", "3", "--json", "--jsonl", "-"]);
    let records: Vec<Record<GameResult>> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary: EvalSummary = serde_json::from_str(stderr(&out).lines().last().unwrap()).unwrap();
    assert_eq!((records.len(), summary.scores.n), (5, 5));
    let me = env!("CARGO_BIN_EXE_tessera");
    let out = tessera(&["digits", "judge", "--json", "--games", "1", "--seed", "1", "--", me, "digits", "play", "-q"]);
    let judged: ProcessReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(judged.judge.scores.len(), 1);
}

#[test]
fn what_the_other_side_sent_is_quoted_short_and_escaped() {
    // A player that writes binary (300 bytes 0xff): the fault names what it wrote, escaped
    // and cut.
    let script = r"head -c 300 /dev/zero | tr '\000' '\377'";
    let out = tessera(&["digits", "judge", "--games", "1", "--seed", "1", "--", "sh", "-c", script]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let fault = stdout(&out).lines().find(|l| l.starts_with("fault:")).map(String::from).expect("a fault");
    assert!(fault.is_ascii() && fault.len() < 160 && fault.contains("characters)"), "{fault}");
    // A judge that sends binary: one error line, escaped and cut.
    let mut binary: Vec<u8> = (0u8..=255).rev().collect();
    binary.retain(|&b| b != b'\n');
    binary.push(b'\n');
    let out = play(&[], &binary);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: the judge sent \"") && err.lines().count() == 1, "{err}");
    assert!(err.is_ascii() && err.len() < 160 && !err.contains('\u{1b}'), "{err}");
    // A program name with a terminal's escape in it is escaped too.
    let out = tessera(&["digits", "judge", "--", "\u{1b}[31mred"]);
    assert!(stderr(&out).contains("error: cannot start \"\\u{1b}[31mred\": "), "{}", stderr(&out));
}

#[test]
fn an_error_says_its_cause_once() {
    let out = play(&[], b"1 0 15 100\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "error: the judge asks for N = 0: a game needs at least one tower\n");
    let out = play(&[], b"1 200 18 100\n");
    assert_eq!(stderr(&out).matches("does not fit 64 bits").count(), 1, "{}", stderr(&out));
}
