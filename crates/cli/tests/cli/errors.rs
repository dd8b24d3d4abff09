//! Bad input gets one clear line on stderr and a non-zero exit, never a panic.

use crate::{scratch, stderr, stdout, tessera};

fn fails_with(args: &[&str], needle: &str) {
    let out = tessera(args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = stderr(&out);
    assert!(err.contains(needle), "{args:?}: expected {needle:?} in {err:?}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

#[test]
fn missing_file_names_the_file() {
    fails_with(&["tiling", "solve", "no/such/puzzle.txt"], "no file \"no/such/puzzle.txt\"");
}

#[test]
fn malformed_file_names_the_line() {
    let dir = scratch("bad");
    let file = dir.join("bad.txt");
    std::fs::write(&file, "lattice square\nboard\n###\n\npiece AB\n#\n").unwrap();
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "line 5: piece label \"AB\" must be one character");
    std::fs::write(&file, "").unwrap();
    fails_with(
        &["tiling", "solve", file.to_str().unwrap()],
        "the file is empty: a puzzle needs a board and pieces (see `tessera tiling show meteor`)",
    );
    std::fs::write(&file, [0xff, 0xfe, 0x00]).unwrap();
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "UTF-8");
    // Text quoted from a file is shown with its control characters escaped.
    let xm = dir.join("esc.xmpuzzle");
    std::fs::write(&xm, "<puzzle>\n<a\x1b[31m>").unwrap();
    let out = tessera(&["tiling", "solve", xm.to_str().unwrap()]);
    assert!(stderr(&out).contains("<a\\u{1b}[31m>") && !stderr(&out).contains('\x1b'), "{}", stderr(&out));
    // A folder given as a bag.
    fails_with(&["totems", "solve", dir.to_str().unwrap()], "it is a directory");
}

#[test]
fn impossible_requests_are_refused() {
    fails_with(&["meteor", "0"], "0");
    fails_with(&["tiling", "eval", "--shard", "3/2"], "shard");
    fails_with(&["tiling", "random", "--min-piece", "5", "--max-piece", "2"], "piece sizes");
    fails_with(&["tiling", "random", "--width", "0"], "width");
    fails_with(&["tiling", "show", "nonesuch"], "no built-in puzzle");
    fails_with(&["tiling", "show", "nonesuch"], "`tessera tiling list` names all");
    fails_with(&["tiling", "show", "pentomino-6x11"], "did you mean pentomino-6x10?");
    fails_with(&["tiling", "solve", "meteor", "--distinct"], "--all");
    fails_with(&["tiling", "eval", "--merge", "no-such.jsonl"], "cannot open no-such.jsonl");
}

#[test]
fn names_from_a_list_are_listed() {
    let help = stdout(&tessera(&["tiling", "eval", "-h"]));
    assert!(help.contains("[possible values: auto, fast, dlx, constrained]"), "{help}");
    assert!(help.contains("[possible values: square, hex, triangle, cube, prism]"), "{help}");
    let help = stdout(&tessera(&["digits", "value", "--help"]));
    assert!(help.contains("- topR:"), "{help}");
    let out = tessera(&["tiling", "solve", "meteor", "--engine", "magic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid value 'magic' for '--engine <ENGINE>'"), "{}", stderr(&out));
}

#[test]
fn a_puzzle_too_big_for_the_fast_engine_names_the_other_engine_once() {
    let dir = scratch("too-big");
    let file = dir.join("big.txt");
    let row = "#".repeat(70);
    std::fs::write(&file, format!("board\n{}\n\npiece A x4900\n#\n", vec![row; 70].join("\n"))).unwrap();
    let out = tessera(&["tiling", "solve", file.to_str().unwrap(), "--engine", "fast"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("the fast engine takes boards") && err.matches("--engine dlx").count() == 1, "{err}");
}

#[test]
fn a_mismatch_with_stated_counts_fails_loudly() {
    let dir = scratch("mismatch");
    let file = dir.join("m.txt");
    std::fs::write(&file, "expect raw 7\nboard\n###\n###\n\npiece D x3\n##\n").unwrap();
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "differ from the puzzle's stated");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    for args in [&["tiling", "solve", "pentomino-4x15", "--all"][..], &["tiling", "list"], &["meteor"], &["tour"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end at once: the child's writes fail with a broken pipe.
        drop(child.stdout.take());
        let status = child.wait().unwrap();
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert!(status.success(), "{args:?}: {status} {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn disconnected_pieces_and_lost_blank_lines_are_refused() {
    let dir = scratch("pieces");
    let file = dir.join("p.txt");
    std::fs::write(&file, "board\n####\n\npiece P\n#.#\n\npiece Q\n#.#\n").unwrap();
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "line 4: piece 'P' is in several parts");
    std::fs::write(&file, "board\n##\n\npiece A\n#\npiece B\n#\n").unwrap();
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "line 6: \"piece\" inside a picture");
}

#[test]
fn budgets_stop_with_status_three() {
    let out = tessera(&["tiling", "solve", "pentomino-6x10", "--budget-ms", "1", "-j", "1"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("stopped early"));
    // On a large board the budget already stops the building of the tables.
    let dir = scratch("budget-tables");
    let big = dir.join("big.txt");
    let made = tessera(&["tiling", "random", "--width", "40", "--height", "30", "--seed", "5"]);
    assert!(made.status.success(), "{}", stderr(&made));
    std::fs::write(&big, &made.stdout).unwrap();
    let out = tessera(&["tiling", "solve", big.to_str().unwrap(), "--budget-ms", "1"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("while building the tables"), "{}", stderr(&out));
}

#[test]
fn output_files_are_checked_before_the_work() {
    let missing = std::env::temp_dir().join("tessera-no-such-dir").join("out");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["tiling", "solve", "pentomino-6x10", "--svg", missing],
        vec!["hextris", "eval", "-f", "6", "-t", "1", "--solutions", missing],
        vec!["hextris", "eval", "-f", "6", "-t", "1", "--html", missing],
        vec!["hextris", "play", "-f", "6", "--save", missing],
    ] {
        let out = tessera(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}: worked before failing: {}", stdout(&out));
        assert!(stderr(&out).starts_with("error: cannot write"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn values_that_cannot_be_used_exit_with_status_two() {
    for args in [
        vec!["tiling", "random", "--width", "0"],
        vec!["tiling", "random", "--min-piece", "6", "--max-piece", "3"],
        vec!["totems", "eval"],
    ] {
        let out = tessera(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: ") && err.contains("--help") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn every_eval_takes_the_same_flags() {
    let common =
        ["--runs <N>", "--threads <K>", "--seed <S>", "--shard <I/N>", "--jsonl <FILE>", "--merge <FILE>", "--html"];
    for game in ["tiling", "totems", "digits", "pairs"] {
        let help = stdout(&tessera(&[game, "eval", "--help"]));
        for flag in common {
            assert!(help.contains(flag), "{game} eval --help has no {flag}:\n{help}");
        }
    }
    for args in
        [&["tiling", "eval"][..], &["totems", "eval"], &["pairs", "eval"], &["tiling", "solve"], &["digits", "judge"]]
    {
        let help = stdout(&tessera(&[args, &["--help"]].concat()));
        assert!(help.contains("--budget-ms <MS>"), "{args:?} --help has no --budget-ms:\n{help}");
    }
}

#[test]
fn the_help_names_each_default_once() {
    let help = stdout(&tessera(&["pairs", "solve", "--help"]));
    assert!(!help.contains("[default: 1] [default: 1]"), "{help}");
}

#[test]
fn a_header_without_rows_is_not_a_board() {
    let dir = scratch("header-only");
    let file = dir.join("board.txt");
    std::fs::write(&file, "12\n").unwrap();
    fails_with(&["pairs", "show", "--board", file.to_str().unwrap()], "announces 12 rows but has 0");
    std::fs::write(&file, "99999999999999999999\n11\n").unwrap();
    fails_with(&["pairs", "show", "--board", file.to_str().unwrap()], "rows of 20 digits: far too many");
}

#[test]
fn output_paths_are_checked_before_the_work_and_left_alone_on_failure() {
    let dir = scratch("outputs");
    let folder = dir.to_str().unwrap();
    let missing = dir.join("no/such/folder/out.svg");
    let missing = missing.to_str().unwrap();
    fails_with(&["totems", "solve", "IJLOSTZ", "--svg", folder], "it is a directory");
    fails_with(&["totems", "solve", "IJLOSTZ", "--svg", missing], "cannot write");
    fails_with(&["tiling", "solve", "meteor", "--first", "--svg", missing], "cannot write");
    fails_with(&["pairs", "eval", "--runs", "1", "--html", missing], "cannot write");
    // A check leaves nothing behind, and a picture is written whole, with no scratch file.
    let svg = dir.join("packing.svg");
    let out = tessera(&["totems", "solve", "IJLOSTZ", "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, vec!["packing.svg".to_string()], "only the picture");
    // A link such as /dev/stdout is written through, not replaced.
    let out = tessera(&["totems", "solve", "IJLOSTZ", "--svg", "/dev/stdout"]);
    assert!(out.status.success() && stdout(&out).contains("<svg"), "{}", stderr(&out));
    // A read-only file is left alone.
    let mut perms = std::fs::metadata(&svg).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&svg, perms).unwrap();
    fails_with(&["totems", "solve", "IJLOSTZ", "--svg", svg.to_str().unwrap()], "read-only");
}

#[test]
fn a_bad_count_is_named_once() {
    for args in [
        &["pairs", "eval", "--runs", "0"][..],
        &["tiling", "eval", "--runs", "x"],
        &["totems", "solve", "I", "--budget-ms", "0"],
    ] {
        let err = stderr(&tessera(args));
        let typed = args.last().unwrap();
        assert_eq!(err.matches(&format!("'{typed}'")).count(), 1, "{err}");
        assert_eq!(err.matches(&format!("\"{typed}\"")).count(), 0, "{err}");
        assert!(err.contains("not a whole number of at least 1"), "{err}");
    }
}

#[test]
fn huge_times_are_no_limit_and_never_panic() {
    // A limit past what the clock holds is none: the player's run ends as it would anyway.
    for limit in ["1e30", "99999999999999999999"] {
        let out = tessera(&["digits", "judge", "--games", "1", "--time-limit", limit, "--", "true"]);
        assert_eq!(out.status.code(), Some(1), "{limit}: {}", stderr(&out));
        // `true` closes its input and its output at once: the judge notices either first.
        let verdict = stdout(&out);
        assert!(
            verdict.contains("the player closed its output")
                || verdict.contains("the player stopped reading its input"),
            "{limit}: {verdict}"
        );
        assert!(!stderr(&out).contains("panicked"), "{limit}: {}", stderr(&out));
    }
    // The solver and the eval run until Ctrl-C, which stops them as it stops any run (status 3).
    let dir = scratch("huge-times");
    for time in ["99999999999999999999", "1e19", "1e30"] {
        let (status, out, err) =
            crate::running::Running::start(&["hextris", "solve", "-f", "6", "-q", "-t", time]).interrupt().finish();
        assert_eq!(status.code(), Some(3), "solve -t {time}: {err}");
        assert!(out.starts_with("[{\"problemId\":6,"), "solve -t {time}: {out}");
        let jsonl = dir.join(format!("{time}.jsonl"));
        let args = ["hextris", "eval", "-f", "6", "-t", time, "--jsonl", jsonl.to_str().unwrap()];
        let (status, _, err) = crate::running::Running::start(&args).wait_for("hextris eval:").interrupt().finish();
        assert_eq!(status.code(), Some(3), "eval -t {time}: {err}");
        assert!(!err.contains("panicked"), "eval -t {time}: {err}");
        let lines = std::fs::read_to_string(&jsonl).unwrap();
        assert!(lines.lines().last().is_some_and(|l| l.starts_with("{\"stopped\":\"interrupted\"")), "{lines}");
    }
    // An eval refused before it runs leaves no job lines behind.
    let jsonl = dir.join("refused.jsonl");
    for args in [
        vec!["hextris", "eval", "-f", "no-such-problem.json", "-t", "1e30"],
        vec!["hextris", "eval", "-f", "6", "-t", "1e400"],
    ] {
        let out = tessera(&[&args[..], &["--jsonl", jsonl.to_str().unwrap()]].concat());
        assert!(!out.status.success() && !stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
        assert!(!jsonl.exists(), "{args:?} left {}", jsonl.display());
    }
}

#[test]
fn negative_numbers_are_values_refused_by_name() {
    let cases: &[&[&str]] = &[
        &["meteor", "-1"],
        &["tiling", "solve", "meteor", "--budget-ms", "-1"],
        &["tiling", "solve", "meteor", "-j", "-1"],
        &["tiling", "solve", "meteor", "--first", "--seed", "-1"],
        &["tiling", "random", "--width", "-1"],
        &["tiling", "eval", "--runs", "-1"],
        &["tiling", "eval", "--budget-ms", "-1"],
        &["totems", "solve", "I", "--budget-ms", "-1"],
        &["totems", "solve", "I", "--seed", "-1"],
        &["totems", "eval", "--level", "-1"],
        &["totems", "eval", "--n", "-1"],
        &["totems", "eval", "--level", "1", "--runs", "-1"],
        &["totems", "round", "--until-perfect", "--max-rounds", "-1"],
        &["totems", "serve", "--games", "-1"],
        &["totems", "play", "--budget-ms", "-1"],
        &["digits", "value", "--n", "-1"],
        &["digits", "value", "--b", "-1"],
        &["digits", "eval", "--runs", "-1"],
        &["digits", "judge", "--set", "-1", "--", "true"],
        &["digits", "judge", "--games", "-1", "--", "true"],
        &["digits", "judge", "--p", "-1", "--", "true"],
        &["digits", "judge", "--time-limit", "-1", "--", "true"],
        &["digits", "judge", "--budget-ms", "-1", "--", "true"],
        &["hextris", "solve", "-f", "6", "-t", "-1"],
        &["hextris", "solve", "-f", "6", "--budget-ms", "-1"],
        &["hextris", "solve", "-f", "6", "-m", "-1"],
        &["hextris", "solve", "-f", "6", "-c", "-1"],
        &["hextris", "eval", "-t", "-1"],
        &["hextris", "tune", "--iterations", "-1"],
        &["hextris", "show", "-f", "6", "--seed", "-1"],
        &["hextris", "play", "--seed", "-1"],
        &["hextris", "gen", "--out", "x", "--small", "-1"],
        &["pairs", "solve", "--budget-ms", "-1"],
        &["pairs", "solve", "-j", "-1"],
        &["pairs", "eval", "--runs", "-1"],
        &["pairs", "eval", "--colors", "-1"],
        &["pairs", "list", "--max-area", "-1"],
        &["pairs", "list", "--count", "-1"],
    ];
    for args in cases {
        let out = tessera(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: invalid value '-1' for '"), "{args:?}: {err}");
        assert!(!err.contains("-- -1") && err.matches("error:").count() == 1, "{args:?}: {err}");
        // The standard library's words for a number that does not parse are put plainly.
        assert!(!err.contains("invalid digit") && !err.contains("target type"), "{args:?}: {err}");
    }
    let err = stderr(&tessera(&["tiling", "solve", "meteor", "-j", "99999999999999999999"]));
    assert!(err.contains("too large for this option"), "{err}");
    let err = stderr(&tessera(&["totems", "solve", "I", "--budget-ms", "-1"]));
    assert!(
        err.starts_with("error: invalid value '-1' for '--budget-ms <MS>': not a whole number of at least 1"),
        "{err}"
    );
    // Seeds of the tester's boards may be negative.
    let out = tessera(&["pairs", "gen", "--seed", "-1"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_number_too_large_is_called_too_large() {
    let huge = "99999999999999999999999";
    for args in [
        &["totems", "solve", "I", "--budget-ms", huge][..],
        &["tiling", "eval", "--runs", huge],
        &["pairs", "eval", "--runs", huge],
        &["digits", "judge", "--budget-ms", huge, "--", "true"],
    ] {
        let err = stderr(&tessera(args));
        assert!(err.contains(&format!("invalid value '{huge}'")), "{args:?}: {err}");
        assert!(err.contains("too large (at most 18446744073709551615)"), "{args:?}: {err}");
        assert!(!err.contains("not a whole number"), "{args:?}: {err}");
    }
    let err = stderr(&tessera(&["pairs", "eval", "--seeds", &format!("1..{huge}")]));
    assert!(err.contains(&format!("seed {huge} is out of range")) && err.matches(huge).count() == 2, "{err}");
    let err = stderr(&tessera(&["hextris", "solve", "-f", "6", "-t", "1e400"]));
    assert!(err.contains("too large") && !err.contains("panicked"), "{err}");
}

#[test]
fn failed_writes_name_the_file_or_stdout() {
    use std::process::{Command, Stdio};
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        eprintln!("no /dev/full here: nothing to test");
        return;
    }
    let run = |args: &[&str], input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(std::fs::File::create(full).unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), input).unwrap();
        child.wait_with_output().unwrap()
    };
    let cases: Vec<(&[&str], &[u8], &str)> = vec![
        (&["totems", "solve", "IJLO"], b"", "to stdout"),
        (&["tiling", "list"], b"", "to stdout"),
        (&["tiling", "solve", "pentomino-3x20", "--all"], b"", "to stdout"),
        (&["tiling", "solve", "pentomino-3x20", "--all", "--json"], b"", "to stdout"),
        (&["tiling", "eval", "--runs", "2", "--seed", "1", "--jsonl", "-"], b"", "to stdout"),
        (&["digits", "play"], b"1 2 1 5\n3\n", "to stdout"),
        (&["hextris", "play"], b"", "to stdout"),
        (&["tiling", "random", "--help"], b"", "to stdout"),
    ];
    for (args, input, what) in cases {
        let out = run(args, input);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors, [format!("error: cannot write {what}: No space left on device (os error 28)")], "{args:?}");
    }
    // A full file, stdout being fine.
    for args in [
        &["tiling", "eval", "--runs", "2", "--seed", "1", "--jsonl", "/dev/full"][..],
        &["totems", "solve", "IJLO", "--svg", "/dev/full"],
    ] {
        let out = tessera(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors, ["error: cannot write /dev/full: No space left on device (os error 28)"], "{args:?}");
    }
}
