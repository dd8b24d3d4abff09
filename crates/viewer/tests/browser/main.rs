//! The page in a real browser: headless Chromium driven over the DevTools protocol. Each game's
//! demonstration is opened and must draw its views with no console error; a replay is stepped;
//! screenshots are saved under `target/browser-screenshots/`.
//!
//! Ignored by default (it needs Chromium): `scripts/browser-test` installs it from the system's
//! packages and runs `cargo test -p tessera-viewer --test browser -- --ignored`. Set `CHROMIUM`
//! to use another browser binary.

mod cdp;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use tessera_viewer::Viewer;
use tessera_viewer::games::GAMES;

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
    let viewer = Viewer::bind("127.0.0.1:0", Vec::new(), 2).expect("a port on loopback");
    let url = format!("http://{}/", viewer.addr().expect("an address"));
    std::thread::scope(|s| {
        s.spawn(|| viewer.run(None));
        let _stop = viewer.stop_on_drop();
        let browser = Browser::launch().expect("Chromium starts (set CHROMIUM to its binary)");
        let mut page = browser.page().expect("a page");
        page.navigate(&url);
        wait_for(&mut page, "document.querySelectorAll('#demos button').length > 0", "the demo buttons");
        for (game, _) in GAMES {
            page.eval(&format!("document.querySelector('#demos button[data-game=\"{game}\"]').click(), true"));
            let drawn = format!("!!document.querySelector('#main .document[data-game=\"{game}\"] .view')");
            wait_for(&mut page, &drawn, &format!("the {game} demonstration"));
            let views = page.eval("document.querySelectorAll('#main .view').length");
            assert!(views.as_u64().unwrap_or(0) >= 1, "{game}: no view");
            let cells = page.eval("document.querySelectorAll('#main .view svg .cell, #main .view svg rect').length");
            assert!(cells.as_u64().unwrap_or(0) > 0, "{game}: nothing drawn");
            page.screenshot(&shots().join(format!("{game}.png")));
        }
        // Step a replay: the tiling demonstration's solutions.
        page.eval("document.querySelector('#demos button[data-game=\"tiling\"]').click(), true");
        wait_for(&mut page, "!!document.querySelector('#main [data-view=\"replay\"]')", "a replay");
        let step =
            |page: &mut Page| page.eval("Number(document.querySelector('#main [data-view=\"replay\"]').dataset.step)");
        let before = step(&mut page).as_u64().expect("a step number");
        page.eval("document.querySelector('#main [data-view=\"replay\"] .step-forward').click(), true");
        page.eval("document.querySelector('#main [data-view=\"replay\"] .step-forward').click(), true");
        assert_eq!(step(&mut page).as_u64(), Some(before + 2));
        page.eval("document.querySelector('#main [data-view=\"replay\"] .last').click(), true");
        let n = page.eval("Number(document.querySelector('#main [data-view=\"replay\"]').dataset.steps)");
        assert_eq!(step(&mut page), n);
        page.screenshot(&shots().join("replay-last-step.png"));
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
