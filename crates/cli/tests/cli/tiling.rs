//! `tessera meteor`, `tessera tiling ...` and `tessera tour`.

use tessera_game::eval::Record;
use tessera_tiling::eval::{EvalSummary, JobResult};
use tessera_tiling::report::{CountReport, FirstReport, FirstStatus, SolutionList};
use tessera_tiling::shards::{MergedCount, ShardLine};

use crate::{data, scratch, stderr, stdout, tessera};

#[test]
fn meteor_prints_the_benchmark_output_byte_for_byte() {
    let expected = std::fs::read(data("crates/cli/tests/data/meteor-output.txt")).unwrap();
    for args in [&["meteor"][..], &["meteor", "2098"], &["meteor", "--threads", "2"], &["meteor", "5000"]] {
        let out = tessera(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_eq!(out.stdout, expected, "{args:?}");
    }
}

#[test]
fn meteor_stops_after_n_solutions() {
    let out = tessera(&["meteor", "10"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("10 solutions found\n\n"), "{text}");
    assert_eq!(text.lines().count(), 24);
    // The same ten every time, with any number of threads.
    assert_eq!(stdout(&tessera(&["meteor", "10", "-j", "2"])), text);
}

#[test]
fn solve_counts_a_builtin_puzzle_as_json() {
    let out = tessera(&["tiling", "solve", "pentomino-4x15", "--json", "-j", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["raw"], 1472);
    assert_eq!(v["distinct"], 368);
    assert_eq!(v["complete"], true);
    assert_eq!(v["matches_expected"], true);
    assert_eq!(v["puzzle"]["symmetries"], 4);
}

#[test]
fn solve_lists_all_and_distinct_tilings() {
    let dir = scratch("list");
    let file = dir.join("dominoes.txt");
    std::fs::write(&file, "board\n###\n###\n\npiece D x3\n##\n").unwrap();
    let f = file.to_str().unwrap();
    let all = stdout(&tessera(&["tiling", "solve", f, "--all"]));
    assert!(all.trim_end().ends_with("3 tilings"), "{all}");
    let distinct = stdout(&tessera(&["tiling", "solve", f, "--all", "--distinct"]));
    assert!(distinct.trim_end().ends_with("2 distinct tilings"), "{distinct}");
    let json: serde_json::Value =
        serde_json::from_slice(&tessera(&["tiling", "solve", f, "--all", "--json"]).stdout).unwrap();
    assert_eq!(json["count"], 3);
    assert_eq!(json["solutions"][0]["pieces"].as_array().unwrap().len(), 3);
}

#[test]
fn solve_first_writes_an_svg() {
    let dir = scratch("svg");
    let svg = dir.join("meteor.svg");
    let out = tessera(&["tiling", "solve", "meteor", "--first", "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("meteor: 50 cells"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.matches("<polygon").count() == 50);
}

#[test]
fn random_puzzles_round_trip_through_solve() {
    let dir = scratch("random");
    let out = tessera(&["tiling", "random", "--lattice", "hex", "--width", "5", "--height", "4", "--seed", "3"]);
    assert!(out.status.success());
    assert!(stderr(&out).contains("seed: 3"));
    let file = dir.join("r.txt");
    std::fs::write(&file, &out.stdout).unwrap();
    let solved = tessera(&["tiling", "solve", file.to_str().unwrap(), "--first", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(v["status"], "found");
}

#[test]
fn eval_shards_merge_into_the_whole_run() {
    let dir = scratch("eval");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    let common = ["tiling", "eval", "--puzzles", "12", "--seed", "5", "--json"];
    let whole: serde_json::Value = serde_json::from_slice(&tessera(&common).stdout).unwrap();
    for (shard, file) in [("1/2", &a), ("2/2", &b)] {
        let mut args = common.to_vec();
        args.extend(["--shard", shard, "--jsonl", file.to_str().unwrap()]);
        assert!(tessera(&args).status.success());
    }
    let merged = tessera(&["tiling", "eval", "--json", "--merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(whole["jobs"], 12);
    assert_eq!(merged["jobs"], 12);
    assert_eq!(merged["solved"], whole["solved"]);
    assert_eq!(merged["cells"], whole["cells"]);
    assert_eq!(merged["wrong"], 0);
}

#[test]
fn tour_runs_every_demonstration() {
    let out = tessera(&["tour", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert!(v["demos"].as_array().unwrap().len() >= 2);
}

#[test]
fn list_and_show_builtin_puzzles() {
    let list = stdout(&tessera(&["tiling", "list"]));
    for name in ["meteor", "pentomino-6x10", "scott-8x8"] {
        assert!(list.contains(name), "{list}");
    }
    let show = stdout(&tessera(&["tiling", "show", "scott-8x8"]));
    assert!(show.contains("expect distinct 65"));
}

#[test]
fn show_dlx_writes_the_exact_cover_problem_of_a_puzzle() {
    let text = stdout(&tessera(&["tiling", "show", "scott-8x8", "--dlx"]));
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('|')).collect();
    assert_eq!(rows[0].split(' ').count(), 60 + 12, "cells and pieces: {}", rows[0]);
    assert!(text.contains(&format!("| options: {},", rows.len() - 1)), "{text}");
    // A file too, its three identical copies told apart.
    let file = scratch("show-dlx").join("d.txt");
    std::fs::write(&file, "name three\nboard\n###\n\npiece D x3\n#\n").unwrap();
    let text = stdout(&tessera(&["tiling", "show", file.to_str().unwrap(), "--dlx"]));
    assert!(text.starts_with("| three: "), "{text}");
    assert!(text.contains("\n| factor 6 = 3!: "), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('|')).collect();
    assert_eq!(rows[0], "#0 #1 #2 D1 D2 D3");
    assert_eq!(rows.len(), 1 + 3 * 3, "three placements, three copies");
    let out = tessera(&["tiling", "show", "no-such-puzzle", "--dlx"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: no file"), "{}", stderr(&out));
}

#[test]
fn a_count_draws_one_of_its_tilings() {
    let dir = scratch("count-svg");
    let svg = dir.join("p.svg");
    let out = tessera(&["tiling", "solve", "pentomino-4x15", "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&svg).unwrap().matches("<rect").count(), 60);
}

#[test]
fn json_lines_on_stdout_merge_back() {
    let dir = scratch("jsonl-stdout");
    let out = tessera(&["tiling", "eval", "--puzzles", "5", "--seed", "2", "--jsonl", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("solved:"), "the summary goes to stderr");
    let file = dir.join("lines.jsonl");
    std::fs::write(&file, &out.stdout).unwrap();
    let merged = tessera(&["tiling", "eval", "--merge", file.to_str().unwrap(), "--json"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let v: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(v["jobs"], 5);
}

#[test]
fn a_missing_shard_is_reported() {
    let dir = scratch("missing-shard");
    let file = dir.join("s1.jsonl");
    let mut args = vec!["tiling", "eval", "--puzzles", "6", "--seed", "4", "--shard", "1/2"];
    args.extend(["--jsonl", file.to_str().unwrap()]);
    assert!(tessera(&args).status.success());
    let merged = tessera(&["tiling", "eval", "--merge", file.to_str().unwrap()]);
    assert!(merged.status.success());
    assert!(stderr(&merged).contains("3 of 6 jobs have no record (jobs 1, 3, 5)"), "{}", stderr(&merged));
}

#[test]
fn a_huge_run_shards_lazily() {
    let out = tessera(&["tiling", "eval", "--puzzles", "10000000000", "--shard", "10000000000/10000000000", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["jobs"], 1);
}

#[test]
fn puzzles_that_cannot_be_made_are_skipped_not_wrong() {
    let args = ["tiling", "eval", "--puzzles", "2", "--width", "40", "--height", "40", "--max-piece", "12"];
    let out = tessera(&[&args[..], &["--seed", "1", "--budget-ms", "50", "--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["wrong"], 0);
    assert_eq!(v["skipped"], 2);
}

#[test]
fn json_outputs_read_back_as_the_games_types() {
    let out = tessera(&["tiling", "solve", "pentomino-3x20", "--json", "-j", "1"]);
    let count: CountReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((count.raw, count.distinct, count.matches_expected), (8, 2, Some(true)));
    let out = tessera(&["tiling", "solve", "pentomino-3x20", "--all", "--distinct", "--json"]);
    let list: SolutionList = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((list.count, list.solutions.len(), list.distinct_only, list.complete), (2, 2, true, true));
    // Every document says its game; the keys of `--first` are in sorted order, as they have
    // always been.
    assert!(stdout(&out).starts_with(r#"{"game":"tiling","puzzle":"#), "{}", stdout(&out));
    let out = tessera(&["tiling", "solve", "meteor", "--first", "--json", "-j", "1"]);
    assert!(stdout(&out).starts_with(
        r#"{"game":"tiling","puzzle":{"cells":50,"engine":"fast","group":{"description":"C2 of order 2: 2 rotations and no reflection""#
    ));
    assert!(stdout(&out).contains(r#""lattice":"hex","name":"meteor""#));
    let first: FirstReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(first.status, FirstStatus::Found);
    assert_eq!(first.solution.map(|s| s.pieces.len()), Some(10));
    let out = tessera(&["tiling", "eval", "--puzzles", "3", "--seed", "2", "-j", "1", "--json", "--jsonl", "-"]);
    assert!(stdout(&out).lines().all(|l| l.starts_with(r#"{"game":"tiling","job":"#)), "{}", stdout(&out));
    let records: Vec<Record<JobResult>> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary: EvalSummary = serde_json::from_str(stderr(&out).lines().last().unwrap()).unwrap();
    assert_eq!((records.len(), summary.jobs), (3, 3));
}

#[test]
fn count_shards_merge_into_the_whole_count() {
    let dir = scratch("count-shards");
    let puzzle = "pentomino-4x15";
    let whole: serde_json::Value =
        serde_json::from_slice(&tessera(&["tiling", "solve", puzzle, "--count", "--json"]).stdout).unwrap();
    let (a, b) = (dir.join("shard-1.json"), dir.join("shard-2.json"));
    for (shard, file, threads) in [("1/2", &a, "1"), ("2/2", &b, "2")] {
        let out = tessera(&["tiling", "solve", puzzle, "--count", "--shard", shard, "-j", threads]);
        assert!(out.status.success(), "{shard}: {}", stderr(&out));
        let line: ShardLine = serde_json::from_slice(&out.stdout).unwrap();
        assert!(line.complete && line.done == line.shard_prefixes, "{shard}: {line:?}");
        assert_eq!(stdout(&out).lines().count(), 1, "one line");
        std::fs::write(file, &out.stdout).unwrap();
    }
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let merged = tessera(&["tiling", "solve", "--merge", a, b, "--json"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let merged: MergedCount = serde_json::from_slice(&merged.stdout).unwrap();
    assert!(merged.complete);
    assert_eq!((merged.raw, merged.distinct), (1472, 368));
    assert_eq!(
        (whole["raw"].as_u64().map(u128::from), whole["distinct"].as_u64().map(u128::from)),
        (Some(merged.raw), Some(merged.distinct))
    );
    // Both lines in one file, as `cat shard-*.json` makes it.
    let both = dir.join("all.jsonl");
    std::fs::write(&both, std::fs::read_to_string(a).unwrap() + &std::fs::read_to_string(b).unwrap()).unwrap();
    let text = tessera(&["tiling", "solve", "--merge", both.to_str().unwrap()]);
    assert!(text.status.success(), "{}", stderr(&text));
    assert!(stdout(&text).contains("tilings: 1472 (368 up to symmetry)\n"), "{}", stdout(&text));
    // One shard alone: it says which is missing, and fails.
    let one = tessera(&["tiling", "solve", "--merge", a]);
    assert_eq!(one.status.code(), Some(1));
    assert!(stderr(&one).contains("error: 1 shard is missing (2/2)"), "{}", stderr(&one));
    assert!(stdout(&one).contains("tilings: at least"), "{}", stdout(&one));
}

#[test]
fn shards_of_different_counts_are_not_summed() {
    let dir = scratch("mixed-shards");
    let mut files = Vec::new();
    for (puzzle, shard) in [("pentomino-3x20", "1/2"), ("pentomino-3x20", "1/3"), ("pentomino-4x15", "2/2")] {
        let out = tessera(&["tiling", "solve", puzzle, "--shard", shard, "-j", "1"]);
        let file = dir.join(format!("{puzzle}-{}.json", shard.replace('/', "-")));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file.to_str().unwrap().to_string());
    }
    for other in &files[1..] {
        let out = tessera(&["tiling", "solve", "--merge", &files[0], other]);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.starts_with("error: ") && err.lines().count() == 1, "{err}");
        assert!(err.contains("a shard of another count"), "{err}");
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn a_stopped_shard_is_marked_and_not_counted() {
    let dir = scratch("stopped-shard");
    let out = tessera(&["tiling", "solve", "pentomino-6x10", "--shard", "1/1", "--engine", "dlx", "--budget-ms", "50"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let line: ShardLine = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!line.complete && line.stop_reason.is_some(), "{line:?}");
    let file = dir.join("s.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let merged = tessera(&["tiling", "solve", "--merge", file.to_str().unwrap(), "--json"]);
    assert_eq!(merged.status.code(), Some(3));
    let merged: MergedCount = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!((merged.complete, merged.counted, merged.raw, merged.stopped.len()), (false, 0, 0, 1));
}

#[test]
fn progress_shows_on_stderr_when_asked() {
    let args = ["tiling", "solve", "pentomino-6x10", "--engine", "dlx", "-j", "1", "--budget-ms", "2600", "--json"];
    let out = tessera(&[&args[..], &["--progress"]].concat());
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    let line = err.lines().find(|l| l.starts_with("counting: ")).unwrap_or_else(|| panic!("no progress: {err}"));
    assert!(line.contains(" prefixes (") && line.contains("tilings so far") && line.contains("left"), "{line}");
    let report: CountReport = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!report.complete, "stdout keeps its JSON");
    // Not asked, and stderr is not a terminal: quiet.
    let quiet = tessera(&["tiling", "solve", "pentomino-6x10", "--engine", "dlx", "-j", "1", "--budget-ms", "2600"]);
    assert!(!stderr(&quiet).contains("counting:"), "{}", stderr(&quiet));
}

/// Any puzzle written as coordinates (`show --cells`) solves to the same counts as the original,
/// on each lattice.
#[test]
fn coordinates_from_show_solve_the_same() {
    for name in ["pentomino-3x20", "tetrahex-7x4", "hexiamond-4x9", "soma"] {
        let cells = tessera(&["tiling", "show", name, "--cells"]);
        assert!(cells.status.success(), "{name}: {}", stderr(&cells));
        assert!(stdout(&cells).contains("\nboard cells\n"), "{name}");
        let from_cells = crate::running::with_input(&["tiling", "solve", "-", "--json"], &cells.stdout);
        let original = tessera(&["tiling", "solve", name, "--json"]);
        let (a, b): (CountReport, CountReport) =
            (serde_json::from_slice(&from_cells.stdout).unwrap(), serde_json::from_slice(&original.stdout).unwrap());
        assert_eq!((a.raw, a.distinct, a.matches_expected), (b.raw, b.distinct, Some(true)), "{name}");
        assert_eq!(a.puzzle.group, b.puzzle.group, "{name}");
    }
}

/// Bad coordinates: one `error:` line naming the line at fault, a non-zero exit, no panic.
#[test]
fn bad_coordinates_are_one_error_line() {
    let cases: &[(&str, &str)] = &[
        (
            "lattice cube\nboard cells\n0 0 0\n1 0\n\npiece A cells\n0 0 0\n",
            "line 4: 2 numbers where a cube cell has 3",
        ),
        ("lattice triangle\nboard cells\n0 0 0\n0 0 one\n", "line 4: \"one\" is not an integer"),
        ("board cells\n0 0\n0 0\n", "line 3: the cell (0 0) again"),
        ("board\n###\n\npiece A cells\n0 0\n2 0\n\npiece B\n#\n", "line 4: piece 'A' is in several parts"),
        ("lattice hexagonal\nboard\n#\n", "line 1: unknown lattice \"hexagonal\""),
    ];
    for &(text, want) in cases {
        let out = crate::running::with_input(&["tiling", "solve", "-"], text.as_bytes());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{text:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{text:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(want), "{text:?}: {err}");
    }
}

/// A BurrTools file: `show` lists its problems, `solve --problem` counts one of them (its
/// assemblies as BurrTools counts them, in JSON and text), and a problem that is not there,
/// or a problem asked of another puzzle, is one error line.
#[test]
fn burr_files_are_listed_and_solved() {
    let file = data("crates/tiling/tests/data/burr/check-2-6.xmpuzzle");
    let f = file.to_str().unwrap();
    let list = stdout(&tessera(&["tiling", "show", f]));
    assert!(list.contains("grid 0 (cubes)") && list.contains("problem 2"), "{list}");
    let out = tessera(&["tiling", "solve", f, "--problem", "1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: CountReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report.assemblies, Some(233096));
    let text = stdout(&tessera(&["tiling", "solve", f, "--problem", "2"]));
    assert!(text.contains("assemblies: 6648 (as BurrTools counts them)"), "{text}");
    // The other search order counts the same, and says which engine it is.
    let text = stdout(&tessera(&["tiling", "solve", f, "--problem", "2", "--engine", "constrained"]));
    assert!(text.contains("assemblies: 6648 (as BurrTools counts them)"), "{text}");
    assert!(text.contains("Constrained engine"), "{text}");
    let shown = stdout(&tessera(&["tiling", "show", f, "--problem", "0"]));
    assert!(shown.starts_with("name check-2-6: problem 0\nlattice cube\n"), "{shown}");
    // A file named as BurrTools' that is something else is said to be so, not read as text.
    let garbage = crate::scratch("not-burr").join("garbage.xmpuzzle");
    std::fs::write(&garbage, "garbage").unwrap();
    let not_burr = garbage.to_str().unwrap();
    for (args, says) in [
        (&["tiling", "solve", f, "--problem", "3"][..], "no problem \"3\": the file holds 3"),
        (&["tiling", "solve", "meteor", "--problem", "0"], "--problem is for BurrTools files"),
        (&["tiling", "show", "meteor", "--json"], "--json lists the problems of a BurrTools file"),
        (&["tiling", "solve", not_burr], "is not a BurrTools file (neither gzip nor XML)"),
    ] {
        let out = tessera(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{args:?}: {}", stderr(&out));
    }
}

/// The designer's questions: unique (with JSON), which pieces sit in one place, and a reason
/// when there is no tiling; pieces that cannot fill the board are an error line.
#[test]
fn designer_questions_are_answered() {
    let text = stdout(&tessera(&["tiling", "solve", "pentomino-3x20", "--unique"]));
    assert!(text.contains("not unique"), "{text}");
    let out = tessera(&["tiling", "solve", "pentomino-3x20", "--unique", "--json"]);
    let report: tessera_tiling::report::UniqueReport = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report.verdict.as_str(), report.solutions.len()), ("not_unique", 2));
    let fixed = stdout(&tessera(&["tiling", "solve", "pentomino-3x20", "--fixed-pieces"]));
    assert!(fixed.contains("X: fixed") && fixed.contains("F: moves (2 places"), "{fixed}");
    let none = stdout(&tessera(&["tiling", "solve", "one-sided-tetromino-4x7", "--unique"]));
    assert!(none.contains("none") && none.contains("reason: coloured like a chessboard"), "{none}");
    let dir = scratch("designer");
    let file = dir.join("short.txt");
    std::fs::write(&file, "board\n###\n\npiece D\n##\n").unwrap();
    let out = tessera(&["tiling", "solve", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("the pieces cover 2 cells, but the board needs 3 covered"), "{}", stderr(&out));
}
