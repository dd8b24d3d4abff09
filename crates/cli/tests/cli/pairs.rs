//! `tessera pairs ...`: the tester's protocol on stdin and stdout, the judge, eval, show, errors.

use std::io::Write;
use std::process::{Command, Stdio};

use tessera_game::eval::Record;
use tessera_pairs::eval::{EvalSummary, SeedResult};
use tessera_pairs::format::{ScoreReport, SolveReport};

use crate::{scratch, stderr, stdout, tessera};

/// `tessera pairs solve [args]` with `input` on its stdin.
fn solve(args: &[&str], input: &str) -> std::process::Output {
    crate::running::with_input(&[&["pairs", "solve"][..], args].concat(), input.as_bytes())
}

#[test]
fn gen_prints_the_testers_board() {
    let out = tessera(&["pairs", "gen", "--seed", "1"]);
    assert!(out.status.success());
    let rows: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[0], "0000011101", "the first row in the recorded board vectors");
    let out = tessera(&["pairs", "gen", "--seed", "2", "--input"]);
    assert!(stdout(&out).starts_with("30\n001321221110013323333021330023\n"));
}

#[test]
fn solve_speaks_the_protocol_and_the_judge_agrees() {
    let dir = scratch("pairs-solve");
    let board = stdout(&tessera(&["pairs", "gen", "--seed", "2", "--input"]));
    let out = solve(&["--seed", "7", "--budget-ms", "3000"], &board);
    assert!(out.status.success(), "{}", stderr(&out));
    let moves = stdout(&out);
    assert_eq!(moves.lines().next(), Some("450"), "30 x 30 with 4 colours is cleared: 450 moves");
    assert!(stderr(&out).contains("seed: 7"));
    let file = dir.join("moves.txt");
    std::fs::write(&file, &moves).unwrap();
    let out = tessera(&["pairs", "score", "--gen-seed", "2", file.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "removed 900 of 900 tiles, score 1\n");
    // The same moves on another board are refused, with the first bad move and why.
    let out = tessera(&["pairs", "score", "--gen-seed", "5", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("invalid: move "), "{}", stdout(&out));
    assert!(stdout(&out).contains("score -1"), "{}", stdout(&out));
}

/// The official tester writes H and the H rows, then keeps the pipe open while it waits for the
/// answer: the solver must answer after the H rows, not at the end of its input.
#[test]
fn solve_answers_the_tester_before_its_pipe_closes() {
    let board = stdout(&tessera(&["pairs", "gen", "--seed", "2", "--input"]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["pairs", "solve", "--budget-ms", "1000", "-j", "1", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(board.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // Read the answer in a thread while stdin stays open; a solver that waits for the end of its
    // input never answers, and the test fails after a minute instead of hanging.
    let mut out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut text);
        let _ = tx.send(text);
    });
    let answer = rx.recv_timeout(std::time::Duration::from_secs(60));
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let answer = answer.expect("no answer while the tester's pipe was open");
    let n: usize = answer.lines().next().unwrap().parse().unwrap();
    assert_eq!(answer.lines().count(), n + 1, "{answer}");
    assert_eq!(n, 450, "seed 2 (30 x 30) is cleared in 450 moves");
}

#[test]
fn solve_json_is_self_describing() {
    let out = tessera(&["pairs", "solve", "--gen-seed", "1", "--seed", "1", "--json", "-j", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "pairs");
    assert_eq!(v["gen_seed"], 1);
    assert_eq!(v["board"][0], "0000011101");
    assert_eq!(v["moves"].as_array().unwrap().len(), 50);
    assert_eq!((v["left"].as_u64(), v["score"].as_f64()), (Some(0), Some(1.0)));
}

#[test]
fn running_out_of_budget_is_the_contests_normal_end() {
    // A board the solver does not clear in a short budget: its end gives the best moves found,
    // exit status 0 and no `stopped` in the JSON (Ctrl-C gives 3: see the interrupt tests).
    let out = tessera(&["pairs", "solve", "--gen-seed", "1032447", "--seed", "1", "--budget-ms", "300", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["left"].as_u64().unwrap() > 0 && v.get("stopped").is_none(), "{v}");
}

#[test]
fn a_board_proven_impossible_says_so() {
    // A 10 x 11 board of the tester's that no moves clear: the exact search proves it within
    // the first seconds; the answer is still the fewest tiles the heuristic left.
    let args = ["pairs", "solve", "--gen-seed", "182848", "--seed", "1", "--budget-ms", "2500"];
    let out = tessera(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("proven: no moves clear this board"), "{}", stderr(&out));
    let out = tessera(&[&args[..], &["--json"]].concat());
    let report: SolveReport = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report.impossible && report.left > 0);
    let out = tessera(&["pairs", "eval", "--seeds", "182848..182848", "--budget-ms", "2500", "--seed", "1"]);
    let text = stdout(&out);
    assert!(text.contains("182848 (10x11 C=6: ") && text.contains(" left, impossible)"), "{text}");
    assert!(text.contains("proven impossible to clear: 1\n"), "{text}");
}

#[test]
fn eval_summarises_and_shards_merge() {
    let dir = scratch("pairs-eval");
    let one = dir.join("1.jsonl");
    let two = dir.join("2.jsonl");
    for (shard, file) in [("1/2", &one), ("2/2", &two)] {
        let args = ["pairs", "eval", "--seeds", "1..4", "--budget-ms", "200", "-j", "1", "--seed", "3"];
        let out = tessera(&[&args[..], &["--shard", shard, "--jsonl", file.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = tessera(&["pairs", "eval", "--json", "--merge", one.to_str().unwrap(), two.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "pairs");
    assert_eq!(v["seeds"], 4);
    assert_eq!(v["invalid"], 0);
    // The records keep their budget and seeds, so the merged summary can say them.
    assert_eq!((v["budget_ms"].as_u64(), v["seed_range"].to_string()), (Some(200), "[1,4]".to_string()));
    let out = tessera(&["pairs", "eval", "--merge", one.to_str().unwrap(), two.to_str().unwrap()]);
    assert!(stdout(&out).starts_with("pairs eval: 4 seeds (1..4), 200 ms per seed\n"), "{}", stdout(&out));
    let by: Vec<u64> = v["by_colors"].as_array().unwrap().iter().map(|b| b["colors"].as_u64().unwrap()).collect();
    assert_eq!(by, [2, 4, 6], "seeds 1..4 have 2, 4, 6 and 6 colours");
    // Every record carries its board seed and moves, so that it can be replayed.
    let line = std::fs::read_to_string(&one).unwrap();
    let r: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    assert_eq!((r["game"].as_str(), r["board_seed"].as_i64()), (Some("pairs"), Some(1)));
    assert_eq!(r["moves"].as_array().unwrap().len(), 50);
}

#[test]
fn classes_pick_boards_by_the_generators_sizes() {
    // The hard class in 1..300, as `pairs gen` draws the boards: every listed board must be in
    // it, and the count must agree with a check of every board.
    let out = tessera(&["pairs", "list", "--seeds", "1..300", "--hard"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let listed: Vec<Vec<usize>> =
        stdout(&out).lines().map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect()).collect();
    let mut expected = Vec::new();
    for seed in 1..=300 {
        let b = tessera_pairs::generator::generate(seed);
        let (h, w, c) = (b.height(), b.width(), b.colors());
        if c == 6 && (h * w <= 900 || h.min(w) <= 14) {
            expected.push(vec![seed as usize, h, w, c]);
        }
    }
    assert!(expected.len() >= 3, "the range has hard boards");
    assert_eq!(listed, expected);
    // eval runs exactly the first two of them, and says which class.
    let out = tessera(&[
        "pairs",
        "eval",
        "--seeds",
        "1..300",
        "--hard",
        "--count",
        "2",
        "--budget-ms",
        "100",
        "-j",
        "1",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["seeds"], 2);
    assert_eq!(v["class"], "C = 6, H*W <= 900 or a side <= 14");
    assert_eq!(v["by_colors"][0]["colors"], 6);
    // Shards of a class say it when merged, and shards of different classes are refused.
    let dir = scratch("pairs-class");
    let run = |class: &[&str], shard: &str, file: &std::path::Path| {
        let args =
            ["pairs", "eval", "--seeds", "1..300", "--count", "2", "--budget-ms", "50", "-j", "1", "--seed", "1"];
        let out = tessera(&[&args[..], class, &["--shard", shard, "--jsonl", file.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
    };
    let (one, two, other) = (dir.join("1.jsonl"), dir.join("2.jsonl"), dir.join("c.jsonl"));
    run(&["--hard"], "1/2", &one);
    run(&["--hard"], "2/2", &two);
    run(&["--colors", "2"], "2/2", &other);
    let out = tessera(&["pairs", "eval", "--merge", one.to_str().unwrap(), two.to_str().unwrap()]);
    assert!(stdout(&out).contains("class: C = 6, H*W <= 900 or a side <= 14"), "{}", stdout(&out));
    let out = tessera(&["pairs", "eval", "--merge", one.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("different classes"), "{}", stderr(&out));
    // More shards than boards: the idle shard succeeds, and its empty file merges.
    let (a, b, idle) = (dir.join("a.jsonl"), dir.join("b.jsonl"), dir.join("idle.jsonl"));
    for (shard, file) in [("1/3", &a), ("2/3", &b), ("3/3", &idle)] {
        let args = ["pairs", "eval", "--seeds", "1..300", "--hard", "--count", "2", "--budget-ms", "50", "-j", "1"];
        let out = tessera(&[&args[..], &["--seed", "1", "--shard", shard, "--jsonl", file.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{shard}: {}", stderr(&out));
    }
    assert!(std::fs::read_to_string(&idle).unwrap().is_empty());
    let files = [a.to_str().unwrap(), b.to_str().unwrap(), idle.to_str().unwrap()];
    let out = tessera(&[&["pairs", "eval", "--json", "--merge"][..], &files].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["seeds"], 2);
    // Filters that match nothing, or fewer boards than asked, are errors, not empty runs.
    for (args, needle) in [
        (&["pairs", "list", "--seeds", "1..300", "--hard", "--count", "500"][..], "hold only"),
        (&["pairs", "eval", "--seeds", "4..5", "--colors", "2", "--max-area", "100"], "no board of seeds 4..5"),
        (&["pairs", "list", "--colors", "7"], "7 is not in 2..=6"),
        // No board is thinner than 10 or smaller than 100 tiles: refused before any scan.
        (&["pairs", "list", "--seeds", "1..9000000000", "--max-side", "9"], "9 is not in 10.."),
        (&["pairs", "list", "--seeds", "1..9000000000", "--max-area", "99"], "99 is not in 100.."),
    ] {
        let out = tessera(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn show_draws_what_is_left() {
    let dir = scratch("pairs-show");
    let moves = dir.join("m.txt");
    std::fs::write(&moves, "2\n0 0 0 1\n0 0 0 1\n").unwrap();
    let svg = dir.join("b.svg");
    let out = tessera(&["pairs", "show", "--gen-seed", "1", moves.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\n..00011101\n"), "{text}");
    assert!(text.contains("2 moves (1 invalid, skipped), 98 tiles left"), "{text}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<title>pairs 10x10, 98 tiles left</title>"));
}

#[test]
fn every_64_bit_seed_is_a_board() {
    // The tester takes any Java long: seeds 0 and below are boards too, written plainly.
    let board = |seed: &str| stdout(&tessera(&["pairs", "gen", "--seed", seed]));
    assert!(!board("-5").is_empty() && board("-5") != board("5"));
    let out = tessera(&["pairs", "list", "--seeds", "-2..1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let seeds: Vec<i64> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["seed"].as_i64().unwrap())
        .collect();
    assert_eq!(seeds, [-2, -1, 0, 1]);
}

#[test]
fn bad_input_gets_one_clear_line() {
    let dir = scratch("pairs-bad");
    let file = dir.join("b.txt");
    std::fs::write(&file, "2\n01\n1x\n").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["pairs", "solve", "--board", file.to_str().unwrap()], "line 3: 'x' is not a colour digit"),
        (vec!["pairs", "score", "--gen-seed", "1", file.to_str().unwrap()], "line 2: \"01\" is not a move"),
        (vec!["pairs", "score", file.to_str().unwrap()], "give a board"),
        (vec!["pairs", "eval", "--seeds", "5..2"], "not a seed range"),
        (vec!["pairs", "solve", "--board", "no/such/board.txt"], "cannot read no/such/board.txt"),
    ];
    for (args, needle) in cases {
        let out = tessera(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    }
    let out = solve(&[], "3\n012\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("announces 3 rows but has 1"), "{}", stderr(&out));
    // Huge counts, empty input and oversized boards: one error line each, no panic.
    let huge = dir.join("huge.txt");
    std::fs::write(&huge, "18446744073709551615\n0 0 0 1\n").unwrap();
    let out = tessera(&["pairs", "score", "--gen-seed", "1", huge.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("18446744073709551615 moves announced, 1 given"), "{}", stderr(&out));
    let wide = format!("1\n{}\n", "0".repeat(129));
    for (input, needle) in
        [("", "empty board"), ("18446744073709551615\n01\n", "announces"), (wide.as_str(), "1..=128")]
    {
        let out = solve(&["--budget-ms", "50"], input);
        assert_eq!(out.status.code(), Some(1), "{input:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().filter(|l| l.starts_with("error:")).count(), 1, "{err}");
        assert!(err.contains(needle) && !err.contains("panicked"), "{input:?}: {err}");
    }
}

#[test]
fn json_outputs_read_back_as_the_games_types() {
    let out = tessera(&["pairs", "solve", "--gen-seed", "1", "--seed", "1", "--json"]);
    // The keys come in sorted order, as they always have.
    assert!(stdout(&out).starts_with(r#"{"board":["0000011101","#), "{}", stdout(&out));
    let solve: SolveReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((solve.gen_seed, solve.left, solve.moves().len()), (Some(1), 0, 50));
    let dir = scratch("pairs-types");
    let moves = dir.join("m.txt");
    std::fs::write(&moves, "1\n0 0 0 5\n").unwrap();
    let out = tessera(&["pairs", "score", "--gen-seed", "1", moves.to_str().unwrap(), "--json"]);
    let score: ScoreReport = serde_json::from_slice(&out.stdout).unwrap();
    assert!(score.verdict.invalid.is_some(), "(0, 0) has colour 0, (0, 5) colour 1");
    let args = ["pairs", "eval", "--seeds", "1..2", "--budget-ms", "500", "-j", "1", "--seed", "1"];
    let out = tessera(&[&args[..], &["--json", "--jsonl", "-"]].concat());
    let records: Vec<Record<SeedResult>> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary: EvalSummary = serde_json::from_str(stderr(&out).lines().last().unwrap()).unwrap();
    assert_eq!((records.len(), summary.seeds), (2, 2));
}
