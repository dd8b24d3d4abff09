//! The viewer under load: 50 clients at once send a few thousand mixed requests (the page and its
//! assets, the lists, documents, demonstrations, uploads, and requests from another origin, which
//! are refused) to a viewer on loopback; every answer must be the one expected, the run must end
//! within its time, and memory must stay flat once the viewer holds all it will hold.
//!
//! Ignored by default (it takes a while and is meant for release builds):
//!
//! ```sh
//! cargo test --release -p tessera-cli --test viewer_load -- --ignored --nocapture
//! ```
//!
//! It prints the latency (p50, p99, max), the errors, and the memory of the process (which holds
//! both the server and the clients): resident before and after the run, and its peak.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tessera_cli::GAMES;
use tessera_core::runtime::Budget;
use tessera_tiling::report::{CountReport, PuzzleInfo, SolutionJson, SolutionListWriter};
use tessera_tiling::{Tiler, builtin};
use tessera_viewer::Viewer;
use tessera_viewer::server::MAX_UPLOADS;

fn document(name: &str, text: &str) -> Result<tessera_viewer::Document, tessera_game::read::DocError> {
    tessera_game::document(GAMES, name, text)
}

/// Clients at once.
const CLIENTS: usize = 50;
/// Requests of the warm-up (each demonstration solved, the uploads held filled up).
const WARM_UP: usize = 1_000;
/// Requests of the measured run.
const REQUESTS: usize = 4_000;
/// The whole test fails, rather than hangs, past this.
const DEADLINE: Duration = Duration::from_secs(180);
/// No answer may take longer than this.
const TIMEOUT: Duration = Duration::from_secs(30);
/// How much the resident memory may grow over the measured run.
const FLAT: u64 = 64 << 20;

/// One request and the status it must be answered with.
struct Ask {
    method: &'static str,
    path: String,
    origin: Option<&'static str>,
    body: Arc<str>,
    expect: u16,
}

/// An answer: its status and its body's length.
fn exchange(addr: SocketAddr, ask: &Ask) -> Result<(u16, usize), String> {
    let mut s = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(TIMEOUT)).and_then(|()| s.set_write_timeout(Some(TIMEOUT))).map_err(|e| e.to_string())?;
    let origin = ask.origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    let head = format!(
        "{} {} HTTP/1.1\r\nHost: {addr}\r\n{origin}X-Name: load.json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        ask.method,
        ask.path,
        ask.body.len()
    );
    s.write_all(head.as_bytes()).and_then(|()| s.write_all(ask.body.as_bytes())).map_err(|e| format!("send: {e}"))?;
    let mut data = Vec::new();
    s.read_to_end(&mut data).map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&data);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or("no status line")?;
    let body = text.split_once("\r\n\r\n").map_or(0, |(_, b)| b.len());
    Ok((status, body))
}

/// The result files uploaded: small ones, each a different game's.
fn uploads() -> Vec<Arc<str>> {
    let p = builtin("pentomino-3x20").expect("a shipped puzzle");
    let tiler = Tiler::new(&p.problem).expect("a puzzle");
    let counts = tiler.count(1, &Budget::unlimited());
    let count = serde_json::to_string(&CountReport::new(&p, &tiler, &counts, None, 1)).expect("JSON");
    let packing = concat!(
        r#"{"actions":{"totems":[{"shape":"O","coordinates":[[0,0],[1,0],[0,1],[1,1]]}]},"box":[2,2],"#,
        r#""score":2.0,"best_score":2.0,"optimal":true,"best_box_impossible":false,"trials":[],"seconds":0.1}"#
    );
    let removals = r#"{"game":"pairs","board":["001","221"],"gen_seed":null,"seed":1,"moves":[[0,0,0,1],[0,2,1,2],[1,0,1,1]],"left":0,"score":1.0,"iterations":1,"seconds":0.5}"#;
    let list = solutions("pentomino-3x20");
    [count.as_str(), packing, removals, list.as_str()].into_iter().map(Arc::from).collect()
}

/// A `tiling solve --all --distinct --json` output.
fn solutions(name: &str) -> String {
    let p = builtin(name).expect("a shipped puzzle");
    let tiler = Tiler::new(&p.problem).expect("a puzzle");
    let mut w = SolutionListWriter::begin(Vec::new(), &PuzzleInfo::new(&p, &tiler)).expect("a writer");
    let _ = tiler.for_each(&Budget::unlimited(), true, |s| {
        w.push(&SolutionJson::new(&tiler, s)).expect("written");
        ControlFlow::Continue(())
    });
    String::from_utf8(w.finish(true, true).expect("written")).expect("UTF-8")
}

/// The `k`-th request of the mix: documents `0..held` exist (files and demonstrations).
fn ask(k: usize, held: usize, files: &[Arc<str>]) -> Ask {
    let get = |path: String, expect| Ask { method: "GET", path, origin: None, body: Arc::from(""), expect };
    match k % 20 {
        0..=2 => get("/".into(), 200),
        3 | 4 => get("/viewer.js".into(), 200),
        5 => get("/viewer.css".into(), 200),
        6 => get("/api/games".into(), 200),
        7 | 8 => get("/api/documents".into(), 200),
        9..=12 => get(format!("/api/documents/{}", k / 20 % held), 200),
        13..=15 => get(format!("/api/demo/{}", GAMES[k / 20 % GAMES.len()].name()), 200),
        16 | 17 => {
            let body = Arc::clone(&files[k / 20 % files.len()]);
            Ask { method: "POST", path: "/api/documents".into(), origin: None, body, expect: 201 }
        }
        18 => get("/api/documents/999999999".into(), 404),
        _ => {
            let body = Arc::clone(&files[0]);
            let origin = Some("http://evil.example");
            Ask { method: "POST", path: "/api/documents".into(), origin, body, expect: 403 }
        }
    }
}

/// What one client saw: each answer's time, and the errors.
type Seen = (Vec<Duration>, Vec<String>);

/// Sends `total` requests of the mix from [`CLIENTS`] clients; fails past the deadline.
fn load(addr: SocketAddr, total: usize, held: usize, files: &[Arc<str>], deadline: Instant) -> Seen {
    let (tx, rx) = mpsc::channel::<Seen>();
    for c in 0..CLIENTS {
        let (tx, files) = (tx.clone(), files.to_vec());
        std::thread::spawn(move || {
            let mut seen: Seen = (Vec::new(), Vec::new());
            for k in (c..total).step_by(CLIENTS) {
                let a = ask(k, held, &files);
                let start = Instant::now();
                match exchange(addr, &a) {
                    Ok((status, _)) if status == a.expect => seen.0.push(start.elapsed()),
                    Ok((status, _)) => seen.1.push(format!("{} {}: {status}, not {}", a.method, a.path, a.expect)),
                    Err(e) => seen.1.push(format!("{} {}: {e}", a.method, a.path)),
                }
            }
            let _ = tx.send(seen);
        });
    }
    drop(tx);
    let mut all: Seen = (Vec::new(), Vec::new());
    for _ in 0..CLIENTS {
        let left = deadline.saturating_duration_since(Instant::now());
        let (times, errors) = rx.recv_timeout(left).unwrap_or_else(|_| panic!("the load ran past {DEADLINE:?}"));
        all.0.extend(times);
        all.1.extend(errors);
    }
    all
}

/// A line of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`).
fn memory(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap_or_default();
    line.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()).unwrap_or(0) * 1024
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

#[test]
#[ignore]
fn fifty_clients_at_once() {
    let deadline = Instant::now() + DEADLINE;
    let files = vec![
        document("pentominoes.json", &solutions("pentomino-6x10")).expect("a document"),
        document("counts.json", &uploads()[0]).expect("a document"),
    ];
    let held = files.len() + GAMES.len();
    let viewer = Arc::new(Viewer::bind("127.0.0.1:0", GAMES, files, 2).expect("a port on loopback"));
    let addr = viewer.addr().expect("an address");
    let server = Arc::clone(&viewer);
    std::thread::spawn(move || server.run(None));
    let rss_start = memory("VmRSS:");
    let files = uploads();
    // The warm-up: every demonstration solved (in the order of their ids), the uploads held
    // filled up, the workers and the allocator's arenas in use.
    for game in GAMES.iter().map(|g| g.name()) {
        let a =
            Ask { method: "GET", path: format!("/api/demo/{game}"), origin: None, body: Arc::from(""), expect: 200 };
        assert_eq!(exchange(addr, &a).map(|r| r.0), Ok(200), "{game}");
    }
    for k in 0..=MAX_UPLOADS {
        let body = Arc::clone(&files[k % files.len()]);
        let a = Ask { method: "POST", path: "/api/documents".into(), origin: None, body, expect: 201 };
        assert_eq!(exchange(addr, &a).map(|r| r.0), Ok(201));
    }
    let (_, errors) = load(addr, WARM_UP, held, &files, deadline);
    assert!(errors.is_empty(), "warm-up: {} errors, the first {:?}", errors.len(), errors.first());
    let rss_warm = memory("VmRSS:");
    let start = Instant::now();
    let (mut times, errors) = load(addr, REQUESTS, held, &files, deadline);
    let wall = start.elapsed();
    let (rss_end, peak) = (memory("VmRSS:"), memory("VmHWM:"));
    viewer.stop();
    times.sort_unstable();
    let at = |q: f64| times.get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1))).copied();
    let ms = |d: Option<Duration>| d.map_or("-".into(), |d| format!("{:.2} ms", d.as_secs_f64() * 1000.0));
    println!(
        "{REQUESTS} requests from {CLIENTS} clients in {:.2} s ({WARM_UP} before, to warm up)",
        wall.as_secs_f64()
    );
    println!("latency: p50 {}, p99 {}, max {}", ms(at(0.5)), ms(at(0.99)), ms(times.last().copied()));
    println!("errors: {}", errors.len());
    println!(
        "memory: resident {} at the start, {} after the warm-up, {} after the run; peak {}",
        mib(rss_start),
        mib(rss_warm),
        mib(rss_end),
        mib(peak)
    );
    assert!(errors.is_empty(), "{} errors, the first {:?}", errors.len(), errors.first());
    assert_eq!(times.len(), REQUESTS);
    assert!(rss_end <= rss_warm + FLAT, "memory grew by {} over the run", mib(rss_end.saturating_sub(rss_warm)));
}
