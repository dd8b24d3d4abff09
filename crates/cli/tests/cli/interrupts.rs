//! Ctrl-C as a user presses it: SIGINT sent to a real `tessera` process. A stopped run says so
//! and exits 3; a command waiting on stdin or the network quits at once (130).

use std::time::Duration;

use crate::running::Running;
use crate::scratch;

/// Exit status of a run stopped early.
const STOPPED: i32 = 3;
/// Exit status of a command ended by Ctrl-C while it waited.
const QUIT: i32 = 130;

/// Waits for `marker`, then `settle` longer (for the run to get going), then sends Ctrl-C and
/// waits for the end.
fn interrupt_after(run: &mut Running, marker: &str, settle: Duration) -> (std::process::ExitStatus, String, String) {
    run.wait_for(marker);
    std::thread::sleep(settle);
    run.interrupt().finish()
}

#[test]
fn a_stopped_eval_says_so_in_every_output_and_exits_3() {
    let dir = scratch("interrupted-eval");
    let (jsonl, html) = (dir.join("run.jsonl"), dir.join("run.html"));
    let (jsonl, html) = (jsonl.to_str().unwrap(), html.to_str().unwrap());
    let args = ["pairs", "eval", "--seeds", "1..200", "--budget-ms", "300", "-j", "1", "--seed", "5"];
    let mut run = Running::start(&[&args[..], &["--json", "--jsonl", jsonl, "--html", html]].concat());
    let (status, out, err) = interrupt_after(&mut run, "seed: 5", Duration::from_millis(1500));
    assert_eq!(status.code(), Some(STOPPED), "{err}");
    let summary: serde_json::Value = serde_json::from_str(out.trim()).expect("one line of JSON");
    let mark = &summary["stopped"][0];
    assert_eq!(mark["stopped"], "interrupted", "{summary}");
    assert_eq!(mark["jobs"], 200);
    assert!(mark["done"].as_u64().unwrap() < 200, "{summary}");
    assert_eq!(summary["seeds"], mark["done"], "the figures are those of the jobs that finished");
    // The job lines end with the mark, and their merge is stopped too.
    let lines = std::fs::read_to_string(jsonl).unwrap();
    assert!(lines.lines().last().unwrap().starts_with("{\"stopped\":\"interrupted\""), "{lines}");
    let merged = crate::tessera(&["pairs", "eval", "--merge", jsonl]);
    assert_eq!(merged.status.code(), Some(STOPPED));
    assert!(crate::stdout(&merged).contains("stopped by Ctrl-C after"), "{}", crate::stdout(&merged));
    assert!(crate::stderr(&merged).contains("this run was stopped"), "{}", crate::stderr(&merged));
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("STOPPED") && page.contains("stopped by Ctrl-C after"), "the report says it is partial");
}

#[test]
fn a_stopped_eval_in_text_ends_with_how_far_it_got() {
    let args = ["tiling", "eval", "--puzzles", "100000", "--seed", "3", "-j", "1"];
    let mut run = Running::start(&args);
    let (status, out, err) = interrupt_after(&mut run, "seed: 3", Duration::from_millis(800));
    assert_eq!(status.code(), Some(STOPPED), "{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("stopped by Ctrl-C after ") && last.contains(" of 100000 jobs"), "{out}");
}

#[test]
fn a_stopped_tour_lists_no_stopped_demo_as_ok() {
    let mut run = Running::start(&["tour", "-j", "1"]);
    let (status, out, err) = interrupt_after(&mut run, "tessera tour", Duration::from_millis(300));
    assert_eq!(status.code(), Some(STOPPED), "{out}\n{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("stopped by Ctrl-C in game "), "{out}");
    assert!(!out.contains("demonstrations ok in"), "{out}");
    assert!(out.lines().filter(|l| l.trim_end().ends_with("stopped")).count() >= 1, "{out}");
}

#[test]
fn a_stopped_solve_answers_with_what_it_has_and_exits_3() {
    // A board the solver has never cleared (19x10, six colours: a dozen tiles left after 9.5 s
    // in every run so far), so the search is still going when Ctrl-C comes. The largest of the
    // contest's examples, used before, is now cleared in a quarter of a second.
    let args = ["pairs", "solve", "--gen-seed", "1032447", "--seed", "1", "-j", "1", "--budget-ms", "60000"];
    let mut run = Running::start(&args);
    let (status, out, err) = interrupt_after(&mut run, "seed: 1", Duration::from_millis(300));
    assert_eq!(status.code(), Some(STOPPED), "{err}");
    assert!(err.contains("stopped early (interrupted)"), "{err}");
    let moves: usize = out.lines().next().and_then(|n| n.trim().parse().ok()).expect("N, then the moves");
    assert_eq!(out.lines().count(), moves + 1, "a whole answer in the tester's format");
    // The JSON says so too, as every command's does.
    let mut run = Running::start(&[&args[..], &["--json"]].concat());
    let (status, out, err) = interrupt_after(&mut run, "seed: 1", Duration::from_millis(300));
    assert_eq!(status.code(), Some(STOPPED), "{err}");
    let report: tessera_pairs::format::SolveReport = serde_json::from_str(out.trim()).expect("one line of JSON");
    assert_eq!(report.stopped, Some(tessera_core::runtime::StopReason::Interrupted));
    assert!(report.left > 0 && out.contains(r#""stopped":"interrupted""#), "{out}");
}

#[test]
fn commands_that_wait_quit_on_the_first_ctrl_c() {
    // Each waits on stdin (left open) or on the network; one Ctrl-C ends it.
    let waiting: [(&[&str], &str); 10] = [
        (&["pairs", "solve", "--seed", "1"], ""),
        (&["digits", "play"], ""),
        (&["view", "--addr", "127.0.0.1:0"], "Ctrl-C to stop"),
        // `-` for a file: stdin.
        (&["tiling", "solve", "-"], ""),
        (&["tiling", "show", "-"], ""),
        (&["totems", "solve", "-"], ""),
        (&["pairs", "score", "--gen-seed", "1", "-"], ""),
        (&["pairs", "show", "--gen-seed", "1", "-"], ""),
        (&["hextris", "score", "-f", "6", "-"], ""),
        (&["hextris", "show", "-f", "6", "-"], ""),
    ];
    for (args, marker) in waiting {
        let mut run = Running::start(args);
        let (status, _, err) = interrupt_after(&mut run, marker, Duration::from_millis(300));
        assert_eq!(status.code(), Some(QUIT), "tessera {}: {err}", args.join(" "));
    }
}
