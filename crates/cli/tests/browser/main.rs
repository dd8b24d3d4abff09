//! The page in a real browser: headless Chromium driven over the DevTools protocol. Each game's
//! demonstration is opened and must draw its views with no console error; replays are stepped
//! (tiling's and hextris's, the latter played too); screenshots are saved under
//! `target/browser-screenshots/`.
//!
//! Ignored by default (it needs Chromium): `scripts/browser-test` installs it from the system's
//! packages and runs `cargo test -p tessera-cli --test browser -- --ignored`. Set `CHROMIUM`
//! to use another browser binary.

mod cdp;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use tessera_cli::GAMES;
use tessera_digits::Params;
use tessera_digits::eval::{GameResult, summarise};
use tessera_digits::params::known_optimum;
use tessera_game::eval::Record;
use tessera_viewer::Viewer;

use cdp::{Browser, Page};

/// Where screenshots go.
fn shots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/browser-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot directory");
    dir
}

/// Waits until a JavaScript expression is true in the page.
fn wait_for(page: &mut Page, expr: &str, what: &str) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if page.eval(expr) == json!(true) {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("timed out waiting for {what} ({expr}); console: {:?}", page.errors());
}

#[test]
#[ignore]
fn every_game_renders_in_chromium() {
    let viewer = Viewer::bind("127.0.0.1:0", GAMES, Vec::new(), 2).expect("a port on loopback");
    let url = format!("http://{}/", viewer.addr().expect("an address"));
    std::thread::scope(|s| {
        s.spawn(|| viewer.run(None));
        let _stop = viewer.stop_on_drop();
        let browser = Browser::launch().expect("Chromium starts (set CHROMIUM to its binary)");
        let mut page = browser.page().expect("a page");
        page.navigate(&url);
        wait_for(&mut page, "document.querySelectorAll('#demos button').length > 0", "the demo buttons");
        for game in GAMES.iter().map(|g| g.name()) {
            page.eval(&format!("document.querySelector('#demos button[data-game=\"{game}\"]').click(), true"));
            let drawn = format!("!!document.querySelector('#main .document[data-game=\"{game}\"] .view')");
            wait_for(&mut page, &drawn, &format!("the {game} demonstration"));
            let views = page.eval("document.querySelectorAll('#main .view').length");
            assert!(views.as_u64().unwrap_or(0) >= 1, "{game}: no view");
            let cells = page.eval("document.querySelectorAll('#main .view svg .cell, #main .view svg rect').length");
            assert!(cells.as_u64().unwrap_or(0) > 0, "{game}: nothing drawn");
            page.screenshot(&shots().join(format!("{game}.png")));
            if game == "totems" {
                let outlined = page.eval("[...document.querySelectorAll('#main .board path.outline')].length");
                assert_eq!(outlined.as_u64(), Some(2), "both packings' pieces outlined");
            }
        }
        // Step a replay: the tiling demonstration's solutions (the document named: the previous
        // game's replay is on the page until the answer comes).
        const TILING: &str = "#main .document[data-game=\"tiling\"] [data-view=\"replay\"]";
        page.eval("document.querySelector('#demos button[data-game=\"tiling\"]').click(), true");
        wait_for(&mut page, &format!("!!document.querySelector('{TILING}')"), "a replay");
        let step = |page: &mut Page| page.eval(&format!("Number(document.querySelector('{TILING}').dataset.step)"));
        let before = step(&mut page).as_u64().expect("a step number");
        page.eval(&format!("document.querySelector('{TILING} .step-forward').click(), true"));
        page.eval(&format!("document.querySelector('{TILING} .step-forward').click(), true"));
        assert_eq!(step(&mut page).as_u64(), Some(before + 2));
        page.eval(&format!("document.querySelector('{TILING} .last').click(), true"));
        let n = page.eval(&format!("Number(document.querySelector('{TILING}').dataset.steps)"));
        assert_eq!(step(&mut page), n);
        page.screenshot(&shots().join("replay-last-step.png"));
        hextris(&mut page);
        pairs(&mut page);
        charts(&mut page);
        let errors = page.errors();
        assert!(errors.is_empty(), "console errors: {errors:?}");
        // An upload the server cannot read is refused, with the reason.
        let refused = page.eval(
            "fetch('/api/documents', {method: 'POST', body: '{\"x\": 1}'}).then(r => r.json().then(b => [r.status, b.error]))",
        );
        assert_eq!(refused[0], json!(400));
        assert!(refused[1].as_str().is_some_and(|e| e.contains("not a tessera result")), "{refused}");
    });
}

/// The pairs demonstration: the controls count the moves the title counts, the verdict apart.
fn pairs(page: &mut Page) {
    const REPLAY: &str = "document.querySelector('#main .document[data-game=\"pairs\"] [data-view=\"replay\"]')";
    page.eval("document.querySelector('#demos button[data-game=\"pairs\"]').click(), true");
    wait_for(page, &format!("!!{REPLAY}"), "the pairs replay");
    let text = |page: &mut Page, what: &str| page.eval(&format!("{REPLAY}.querySelector('{what}').textContent"));
    let title = text(page, "h3");
    let moves = title.as_str().and_then(|t| t.strip_suffix(" moves")).and_then(|t| t.rsplit(' ').next());
    let moves = moves.expect("the title counts the moves").to_string();
    assert_eq!(text(page, ".position"), json!(format!("move 0 of {moves}")), "{title}");
    page.eval(&format!("{REPLAY}.querySelector('.last').click(), true"));
    assert_eq!(text(page, ".position"), json!(format!("the end ({moves} moves)")));
    assert_eq!(text(page, ".caption"), json!("board cleared"));
}

/// The hextris demonstration: a replay on the hex lattice with its score and command string,
/// stepped, played and paused; then an evaluation summary's bars.
fn hextris(page: &mut Page) {
    const REPLAY: &str = "document.querySelector('#main .document[data-game=\"hextris\"] [data-view=\"replay\"]')";
    page.eval("document.querySelector('#demos button[data-game=\"hextris\"]').click(), true");
    wait_for(page, &format!("!!{REPLAY}"), "the hextris replay");
    let hexes = page.eval(&format!("{REPLAY}.querySelectorAll('svg polygon.cell').length"));
    assert_eq!(hexes.as_u64(), Some(100), "problem 6 is 10 x 10");
    let phrases = page.eval(&format!("{REPLAY}.querySelectorAll('.commands span.phrase').length"));
    assert!(phrases.as_u64().unwrap_or(0) > 0, "phrases of power highlighted");
    let step = |page: &mut Page| page.eval(&format!("Number({REPLAY}.dataset.step)")).as_u64().expect("a step");
    let score = |page: &mut Page| page.eval(&format!("Number({REPLAY}.dataset.score)")).as_u64().expect("a score");
    assert_eq!((step(page), score(page)), (0, 0));
    for _ in 0..3 {
        page.eval(&format!("{REPLAY}.querySelector('.step-forward').click(), true"));
    }
    assert_eq!(step(page), 3);
    assert_eq!(page.eval(&format!("{REPLAY}.querySelectorAll('.commands span.done').length")).as_u64(), Some(3));
    let unit = page.eval(&format!(
        "[...{REPLAY}.querySelectorAll('svg polygon.cell')].filter(p => p.getAttribute('fill') === '#e8842a').length"
    ));
    assert!(unit.as_u64().unwrap_or(0) > 0, "the unit in play is drawn");
    page.eval(&format!(
        "{REPLAY}.querySelector('.speed').value = '100', {REPLAY}.querySelector('.play').click(), true"
    ));
    std::thread::sleep(Duration::from_millis(600));
    page.eval(&format!("{REPLAY}.querySelector('.play').click(), true"));
    let played = step(page);
    assert!(played > 10, "playing moved on ({played})");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(step(page), played, "paused");
    assert!(page.eval(&format!("{REPLAY}.querySelector('.score').textContent.startsWith('score ')")) == json!(true));
    // On through the commands until the current one is part of a phrase, drawn stronger.
    let in_phrase = page.eval(&format!(
        "(() => {{ const r = {REPLAY}; for (let k = 0; k < 400; k++) {{ if (r.querySelector('.commands span.phrase.active.now')) return true; r.querySelector('.step-forward').click(); }} return false; }})()"
    ));
    assert_eq!(in_phrase, json!(true), "a phrase around the current command");
    page.screenshot(&shots().join("hextris-replay.png"));
    page.eval(&format!("{REPLAY}.querySelector('.last').click(), true"));
    let n = page.eval(&format!("Number({REPLAY}.dataset.steps)")).as_u64();
    assert_eq!(Some(step(page)), n);
    assert!(score(page) > 0, "the solved game scores");
    // An evaluation summary: score bars per problem against the final round's best.
    let summary = r#"{"game":"hextris","seconds_per_problem":1,"cores":1,"total":900,"final_best_beaten":0,"final_best_problems":1,"problems":[{"problem":8,"seeds":10,"score":900,"move_score":600,"power_score":300,"phrases":2,"final_best":19887,"seconds":1,"width":1}]}"#;
    open_upload(page, "summary.json", summary);
    wait_for(page, "!!document.querySelector('#main [data-chart=\"bars\"] rect.bar')", "the score bars");
    let ticks = page.eval("document.querySelectorAll('#main [data-chart=\"bars\"] line.reference').length");
    assert_eq!(ticks.as_u64(), Some(1), "the final best drawn");
    assert_eq!(cut_off(page), json!([]), "every label within its chart");
    page.screenshot(&shots().join("hextris-eval.png"));
}

/// Uploads a result file from the page, reloads it and opens the file.
fn open_upload(page: &mut Page, name: &str, body: &str) {
    let id = page.eval(&format!(
        "fetch('/api/documents', {{method: 'POST', headers: {{'X-Name': {name:?}}}, body: {body:?}}}).then(r => r.json()).then(b => b.id)"
    ));
    assert!(id.is_u64(), "{name} is taken: {id}");
    let url = page.eval("location.href").as_str().unwrap_or_default().to_string();
    page.navigate(&url);
    // The page opens the first document on loading: wait for it before opening another.
    wait_for(page, "!!document.querySelector('#documents button.current')", "the first document");
    page.eval(&format!(
        "[...document.querySelectorAll('#documents button')].find(b => b.textContent.endsWith(': ' + {name:?})).click(), true"
    ));
    wait_for(page, &format!("document.querySelector('#main h2').textContent.endsWith({name:?})"), name);
}

/// The texts of the charts shown that reach past their chart's edges.
fn cut_off(page: &mut Page) -> serde_json::Value {
    page.eval(
        "[...document.querySelectorAll('#main .chart svg')].flatMap(s => { const v = s.viewBox.baseVal; \
         return [...s.querySelectorAll('text')].filter(t => { const b = t.getBBox(); \
         return b.x < v.x - 0.5 || b.x + b.width > v.x + v.width + 0.5; }).map(t => t.textContent); })",
    )
}

/// Charts whose labels once reached past their edges: a reference at the very left of a
/// histogram (every game scoring S or more), rows named at length with long figures.
fn charts(page: &mut Page) {
    let records: Vec<Record<GameResult>> = [19_131_995_794_056_374, 19_600_000_000_000_000]
        .into_iter()
        .enumerate()
        .map(|(job, score)| {
            let result = GameResult { strategy: "top2".into(), n: 20, b: 15, score, illegal: None };
            Record { job: job as u64, of: 2, base_seed: 1, seed: job as u64, result }
        })
        .collect();
    let lines: Vec<String> = records.iter().map(|r| serde_json::to_string(r).expect("JSON")).collect();
    open_upload(page, "above-s.jsonl", &lines.join("\n"));
    wait_for(page, "!!document.querySelector('#main [data-chart=\"histogram\"] rect.bin')", "the histogram");
    assert_eq!(cut_off(page), json!([]), "every label within the histogram");
    page.screenshot(&shots().join("histogram.png"));
    let summary = summarise("top2", Params::OFFICIAL, &records, known_optimum(Params::OFFICIAL), None);
    open_upload(page, "summary-of-two.json", &serde_json::to_string(&summary).expect("JSON"));
    wait_for(page, "!!document.querySelector('#main [data-chart=\"rates\"] rect.rate-bar')", "the rates");
    assert_eq!(cut_off(page), json!([]), "every label within the rates");
}
