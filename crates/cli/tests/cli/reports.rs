//! What the viewer makes of the binary's results: every game's `eval --html` report, result files
//! read as the page reads them, and `view` refusing a file it cannot show.

use serde_json::Value;
use tessera_viewer::view::View;

use crate::{data, scratch, stderr, stdout, tessera};

/// The document embedded in a report.
fn embedded(page: &str) -> Value {
    let json = page.split("id=\"tessera-document\">").nth(1).and_then(|s| s.split("</script>").next()).unwrap();
    serde_json::from_str(json).unwrap()
}

/// Runs an eval with `--html` into a scratch file and returns the embedded document.
fn report(name: &str, args: &[&str]) -> Value {
    let out = scratch(name).join("report.html");
    let mut all = args.to_vec();
    all.extend(["--html", out.to_str().unwrap()]);
    let run = tessera(&all);
    assert!(run.status.success(), "{all:?}: {}", stderr(&run));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{all:?}");
    assert!(!page.contains("src=\"/") && !page.contains("href=\"/"), "{all:?}: the report needs no server");
    embedded(&page)
}

#[test]
fn hextris_eval_writes_a_self_contained_report() {
    let doc = report("hextris-report", &["hextris", "eval", "-f", "1", "-t", "0.3", "-c", "1"]);
    assert_eq!((doc["game"].as_str(), doc["kind"].as_str()), (Some("hextris"), Some("eval")));
    let charts = &doc["views"][0]["charts"];
    assert_eq!(charts[0]["chart"], "bars");
    assert_eq!(charts[0]["rows"][0]["label"], "problem 1");
    assert_eq!(charts[1]["rows"].as_array().map(Vec::len), Some(18), "one row per official phrase");
    let replay = &doc["views"][1];
    assert_eq!((replay["view"].as_str(), replay["lattice"].as_str()), (Some("replay"), Some("hex")));
    assert!(replay["text"].is_string() && replay["steps"].as_array().is_some_and(|s| !s.is_empty()));
}

#[test]
fn every_other_eval_writes_a_report_of_its_game() {
    let runs: [(&str, &[&str]); 4] = [
        ("tiling", &["tiling", "eval", "--puzzles", "3", "--seed", "1", "-j", "1"]),
        (
            "totems",
            &["totems", "eval", "--level", "2", "--rounds", "3", "--budget-ms", "100", "--seed", "1", "-j", "1"],
        ),
        ("digits", &["digits", "eval", "--strategy", "top2", "--games", "20", "--seed", "1"]),
        ("pairs", &["pairs", "eval", "--seeds", "1..1", "--budget-ms", "100", "-j", "1", "--seed", "1"]),
    ];
    for (game, args) in runs {
        let doc = report(&format!("{game}-report"), args);
        assert_eq!((doc["game"].as_str(), doc["kind"].as_str()), (Some(game), Some("eval")), "{args:?}");
        assert_eq!(doc["views"][0]["view"], "charts", "{args:?}");
    }
}

#[test]
fn the_viewer_reads_what_every_other_game_writes() {
    let outputs: [(&str, &str, &[&str]); 8] = [
        ("tiling", "count", &["tiling", "solve", "pentomino-3x20", "--json", "-j", "1"]),
        ("tiling", "solutions", &["tiling", "solve", "pentomino-3x20", "--all", "--json"]),
        ("tiling", "eval", &["tiling", "eval", "--puzzles", "2", "--seed", "1", "-j", "1", "--json"]),
        ("totems", "solve", &["totems", "solve", "IJLO", "--json", "-j", "1"]),
        ("totems", "eval", &["totems", "eval", "--level", "2", "--rounds", "2", "--seed", "1", "-j", "1", "--json"]),
        ("digits", "eval", &["digits", "eval", "-s", "top2", "--games", "4", "--seed", "1", "--json"]),
        ("pairs", "solve", &["pairs", "solve", "--gen-seed", "1", "--seed", "1", "--json"]),
        ("pairs", "eval", &["pairs", "eval", "--seeds", "1..1", "--budget-ms", "500", "--seed", "1", "--json"]),
    ];
    for (game, kind, args) in outputs {
        let out = tessera(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let doc = tessera_game::document(tessera_cli::GAMES, "out.json", &stdout(&out))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!((doc.game.as_str(), doc.kind.as_str()), (game, kind), "{args:?}");
    }
}

#[test]
fn the_organisers_sample_is_replayed_as_the_judge_scores_it() {
    let text = std::fs::read_to_string(data("crates/hextris/tests/data/problem6-seed0.txt")).unwrap();
    let list = serde_json::json!([{ "problemId": 6, "seed": 0, "tag": "sample", "solution": text.trim() }]);
    let doc = tessera_game::document(tessera_cli::GAMES, "sample.json", &list.to_string()).unwrap();
    let [View::Charts(_), View::Replay(r), View::Board(b)] = &doc.views[..] else { panic!("{:?}", doc.views.len()) };
    assert_eq!(r.steps.last().and_then(|s| s.score), Some(3261));
    assert_eq!(b.caption[0], "score 3261 = move 3261 + power 0 (board full)");
    // Every lock of the sample is a step; the commands of a game this short are steps too.
    let locks = r.steps.iter().filter(|s| s.caption.contains("locked")).count();
    assert!(locks > 0 && r.steps.len() > locks);
}

#[test]
fn view_refuses_a_result_it_cannot_show_and_says_why() {
    let dir = scratch("view-refuses");
    let cases = [
        ("no-solution.json", r#"[{"problemId": 6, "seed": 0}]"#, "malformed hextris result"),
        ("unknown-problem.json", r#"[{"problemId": 99, "seed": 0, "solution": "ei!"}]"#, "built-in problem"),
        ("not-json.json", "[{", "not JSON"),
    ];
    for (name, text, why) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = tessera(&["view", "--addr", "127.0.0.1:0", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        assert!(err.starts_with("error: ") && err.contains(why), "{name}: {err}");
    }
}
