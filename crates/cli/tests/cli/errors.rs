//! Bad input gets one clear line on stderr and a non-zero exit, never a panic.

use crate::{scratch, stderr, tessera};

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
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "empty");
    std::fs::write(&file, [0xff, 0xfe, 0x00]).unwrap();
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "UTF-8");
}

#[test]
fn impossible_requests_are_refused() {
    fails_with(&["meteor", "0"], "0");
    fails_with(&["tiling", "eval", "--shard", "3/2"], "shard");
    fails_with(&["tiling", "random", "--min-piece", "5", "--max-piece", "2"], "piece sizes");
    fails_with(&["tiling", "random", "--width", "0"], "width");
    fails_with(&["tiling", "show", "nonesuch"], "no built-in puzzle");
    fails_with(&["tiling", "solve", "meteor", "--distinct"], "--all");
    fails_with(&["tiling", "eval", "--merge", "no-such.jsonl"], "cannot open no-such.jsonl");
}

#[test]
fn a_mismatch_with_stated_counts_fails_loudly() {
    let dir = scratch("mismatch");
    let file = dir.join("m.txt");
    std::fs::write(&file, "expect raw 7\nboard\n###\n###\n\npiece D x3\n##\n").unwrap();
    fails_with(&["tiling", "solve", file.to_str().unwrap()], "differ from the puzzle's stated");
}
