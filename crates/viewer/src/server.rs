//! The local HTTP server: the page, its assets, and the documents as JSON.
//!
//! Routes (nothing else is served; no path ever reaches the file system):
//!
//! | request | answer |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /viewer.js`, `GET /viewer.css` | its script and style |
//! | `GET /api/games` | the games with a demonstration |
//! | `GET /api/documents` | `[{id, name, game, kind}]`: the files named on the command line, the demonstrations solved and the uploads held |
//! | `GET /api/documents/ID` | one document, as views |
//! | `GET /api/demo/GAME` | a game's demonstration, solved on its first request and listed like a document; the same document from then on |
//! | `POST /api/documents` | an upload (a result file's text, at most [`MAX_UPLOAD`] bytes; the name in `X-Name`): `{id}`; the latest [`MAX_UPLOADS`] are held, the oldest dropped beyond them |
//!
//! Any request whose `Host` header does not name the viewer's address (`localhost`, a loopback
//! address or the address it was bound to, with its port), or that carries an `Origin` header
//! other than the viewer's own, is answered `403` with a line of plain text: no other web page can
//! drive the viewer, directly or through a name made to point at this machine (DNS rebinding).

mod library;
mod origin;

use std::io::{Cursor, Read};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use serde_json::json;
use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

use crate::{ASSET_CSS, ASSET_HTML, ASSET_JS};
use library::{Held, Library, Source};
pub use library::{MAX_UPLOAD_BYTES, MAX_UPLOADS};
use origin::Own;
use tessera_game::view::Document;
use tessera_game::{Game, demo, document};

/// Largest upload accepted.
pub const MAX_UPLOAD: usize = 32 << 20;

/// Requests answered at once: a page is not held up by a demonstration being solved.
pub const WORKERS: usize = 8;

/// Uploads read at once, each on a thread of its own beside the workers; one more is answered
/// 503.
pub const MAX_READING: usize = 32;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {addr}: {why}")]
pub struct BindError {
    addr: String,
    why: String,
}

/// A bound server and the documents it shows.
pub struct Viewer {
    server: Server,
    library: Mutex<Library>,
    /// The games it knows.
    games: &'static [&'static dyn Game],
    /// Each game's demonstration (in the games' order), solved on its first request.
    demos: Vec<OnceLock<Arc<Held>>>,
    threads: usize,
    /// Set by [`Viewer::stop`], for good.
    stopped: AtomicBool,
    /// The address it answers to.
    own: Option<Own>,
}

impl std::fmt::Debug for Viewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Viewer").field("addr", &self.addr()).finish()
    }
}

impl Viewer {
    /// Listens on `addr` (`127.0.0.1:0` picks a free port) with these documents, reading
    /// uploads and solving demonstrations with these games.
    pub fn bind(
        addr: &str,
        games: &'static [&'static dyn Game],
        docs: Vec<Document>,
        threads: usize,
    ) -> Result<Viewer, BindError> {
        let server = Server::http(addr).map_err(|e| BindError { addr: addr.to_string(), why: e.to_string() })?;
        let demos = games.iter().map(|_| OnceLock::new()).collect();
        let library = Mutex::new(Library::new(docs));
        let own = server.server_addr().to_ip().map(Own::new);
        Ok(Viewer { server, library, games, demos, threads, stopped: AtomicBool::new(false), own })
    }

    /// The address it listens on.
    pub fn addr(&self) -> Option<SocketAddr> {
        self.server.server_addr().to_ip()
    }

    /// Makes [`Viewer::run`] return (from another thread) once the requests being answered are
    /// answered; a stopped viewer stays stopped.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        // Each unblocks one waiting worker.
        for _ in 0..WORKERS {
            self.server.unblock();
        }
    }

    /// A guard that stops the server when dropped: a thread scope running [`Viewer::run`] then
    /// ends however the code beside it ends (a failed test included).
    pub fn stop_on_drop(&self) -> StopOnDrop<'_> {
        StopOnDrop(self)
    }

    /// Answers requests on [`WORKERS`] threads, until [`Viewer::stop`] (or `limit` of them).
    /// An upload's body is read on a thread of its own (at most [`MAX_READING`] at once), so that
    /// a client sending it slowly, or not at all, holds no worker that other requests need.
    pub fn run(&self, limit: Option<usize>) {
        let taken = AtomicUsize::new(0);
        let reading = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..WORKERS {
                s.spawn(|| self.work(s, &taken, &reading, limit));
            }
        });
    }

    /// One worker: takes a turn (one of `limit`), waits for a request and answers it, or hands
    /// an upload to a thread of its own in `scope`.
    fn work<'s>(
        &'s self,
        scope: &'s std::thread::Scope<'s, '_>,
        taken: &'s AtomicUsize,
        reading: &'s AtomicUsize,
        limit: Option<usize>,
    ) {
        while !self.stopped.load(Ordering::SeqCst) {
            if limit.is_some_and(|l| taken.fetch_add(1, Ordering::SeqCst) >= l) {
                return;
            }
            match self.server.recv() {
                Ok(request) if is_upload(&request) && reading.fetch_add(1, Ordering::SeqCst) < MAX_READING => {
                    scope.spawn(move || {
                        self.answer_safely(request);
                        reading.fetch_sub(1, Ordering::SeqCst);
                    });
                }
                Ok(request) if is_upload(&request) => {
                    reading.fetch_sub(1, Ordering::SeqCst);
                    self.respond(request, Reply::error(503, "too many uploads are being read: try again"));
                }
                Ok(request) => self.answer_safely(request),
                // Unblocked by `stop`, or the server can take no more connections: stop them all.
                Err(_) if !self.stopped.load(Ordering::SeqCst) => self.stop(),
                Err(_) => return,
            }
        }
    }

    /// Answers a request; a panic while answering it drops the request (its client sees the
    /// connection close) and leaves the worker serving.
    fn answer_safely(&self, request: Request) {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(request)));
    }

    fn answer(&self, mut request: Request) {
        let reply = match self.refusal(&request) {
            Some(why) => Reply::text(403, why),
            None => self.route(&mut request),
        };
        self.respond(request, reply);
    }

    fn respond(&self, request: Request, reply: Reply) {
        let mut headers = Vec::new();
        let fields = [
            ("Content-Type", reply.content_type),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ];
        for (field, value) in fields {
            if let Ok(h) = Header::from_bytes(field.as_bytes(), value.as_bytes()) {
                headers.push(h);
            }
        }
        let length = reply.body.as_ref().len();
        let response = Response::new(StatusCode(reply.status), headers, Cursor::new(reply.body), Some(length), None);
        // A client that went away is no concern of ours.
        let _ = request.respond(response);
    }

    /// Why a request is refused: a `Host` or an `Origin` that is not the viewer's.
    fn refusal(&self, request: &Request) -> Option<&'static str> {
        let header =
            |name: &'static str| request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str());
        self.own?.refusal(header("Host"), header("Origin"))
    }

    fn route(&self, request: &mut Request) -> Reply {
        let url = request.url().split('?').next().unwrap_or("").to_string();
        match (request.method(), url.as_str()) {
            (Method::Get, "/") => Reply::asset(ASSET_HTML, "text/html; charset=utf-8"),
            (Method::Get, "/viewer.js") => Reply::asset(ASSET_JS, "text/javascript; charset=utf-8"),
            (Method::Get, "/viewer.css") => Reply::asset(ASSET_CSS, "text/css; charset=utf-8"),
            (Method::Get, "/api/games") => Reply::json(
                200,
                &json!(self.games.iter().map(|g| json!({"game": g.name(), "shows": g.shows()})).collect::<Vec<_>>()),
            ),
            (Method::Get, "/api/documents") => Reply::json(200, &self.library().listing()),
            (Method::Get, path) if path.starts_with("/api/documents/") => self.one(&path["/api/documents/".len()..]),
            (Method::Get, path) if path.starts_with("/api/demo/") => self.demo(&path["/api/demo/".len()..]),
            (Method::Post, "/api/documents") => self.upload(request),
            (_, "/" | "/viewer.js" | "/viewer.css" | "/api/games" | "/api/documents") => {
                Reply::error(405, "method not allowed")
            }
            _ => Reply::error(404, "not found"),
        }
    }

    /// The documents, locked (a panic elsewhere leaves them usable).
    fn library(&self) -> MutexGuard<'_, Library> {
        self.library.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn one(&self, id: &str) -> Reply {
        match id.parse::<usize>().ok().and_then(|i| self.library().get(i)) {
            Some(held) => Reply::shared(Arc::clone(&held.json)),
            None => Reply::error(
                404,
                &format!("no document {id:?} (the viewer holds the latest {MAX_UPLOADS} uploads, the oldest dropped)"),
            ),
        }
    }

    /// A game's demonstration: solved once (a request for it while it is being solved waits for
    /// that solve), then the same document.
    fn demo(&self, game: &str) -> Reply {
        let Some(k) = self.games.iter().position(|g| g.name() == game) else {
            return Reply::error(404, &format!("no game {game:?}"));
        };
        let held = self.demos[k].get_or_init(|| {
            let d = demo(self.games, game, self.threads).unwrap_or_else(|| Document {
                name: format!("{game} demo"),
                game: game.to_string(),
                kind: "demo".into(),
                views: Vec::new(),
            });
            self.library().add(&d, Source::Demo)
        });
        Reply::shared(Arc::clone(&held.json))
    }

    fn upload(&self, request: &mut Request) -> Reply {
        if request.body_length().is_some_and(|n| n > MAX_UPLOAD) {
            return Reply::error(413, &format!("uploads are limited to {} MiB", MAX_UPLOAD >> 20));
        }
        let name = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("X-Name"))
            .map(|h| h.value.as_str().chars().filter(|c| !c.is_control()).take(120).collect::<String>())
            .unwrap_or_else(|| "upload".into());
        let mut body = Vec::new();
        // One byte more than allowed tells an oversized body without a length.
        if request.as_reader().take(MAX_UPLOAD as u64 + 1).read_to_end(&mut body).is_err() {
            return Reply::error(400, "the upload could not be read");
        }
        if body.len() > MAX_UPLOAD {
            return Reply::error(413, &format!("uploads are limited to {} MiB", MAX_UPLOAD >> 20));
        }
        let Ok(text) = String::from_utf8(body) else { return Reply::error(400, "the upload is not UTF-8 text") };
        match document(self.games, &name, &text) {
            Ok(d) => Reply::json(201, &json!({"id": self.library().add(&d, Source::Upload).id})),
            Err(e) => Reply::error(400, &e.to_string()),
        }
    }
}

/// Whether a request is an upload, whose body may take its client a long time to send.
fn is_upload(request: &Request) -> bool {
    *request.method() == Method::Post
}

/// See [`Viewer::stop_on_drop`].
#[derive(Debug)]
pub struct StopOnDrop<'a>(&'a Viewer);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

struct Reply {
    status: u16,
    content_type: &'static str,
    body: Body,
}

/// A reply's bytes: an asset, a document's JSON as held, or written for this reply.
enum Body {
    Static(&'static [u8]),
    Shared(Arc<[u8]>),
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for Body {
    fn as_ref(&self) -> &[u8] {
        match self {
            Body::Static(b) => b,
            Body::Shared(b) => b,
            Body::Owned(b) => b,
        }
    }
}

impl Reply {
    fn asset(text: &'static str, content_type: &'static str) -> Reply {
        Reply { status: 200, content_type, body: Body::Static(text.as_bytes()) }
    }
    fn shared(json: Arc<[u8]>) -> Reply {
        Reply { status: 200, content_type: "application/json", body: Body::Shared(json) }
    }
    fn json(status: u16, v: &serde_json::Value) -> Reply {
        Reply { status, content_type: "application/json", body: Body::Owned(v.to_string().into_bytes()) }
    }
    fn text(status: u16, why: &'static str) -> Reply {
        Reply { status, content_type: "text/plain; charset=utf-8", body: Body::Static(why.as_bytes()) }
    }
    fn error(status: u16, why: &str) -> Reply {
        Reply::json(status, &json!({ "error": why }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpStream;
    use std::time::{Duration, Instant};

    use serde_json::Value;
    use tessera_core::geometry::Lattice;
    use tessera_game::Shown;
    use tessera_game::read::DocError;
    use tessera_game::tour::Demo;
    use tessera_game::view::{Board, View};

    /// A game of one labelled cell, for the server's tests: `{"dot": "A"}` is one of its results.
    struct Dot;

    impl Game for Dot {
        fn name(&self) -> &'static str {
            "dot"
        }
        fn shows(&self) -> &'static str {
            "one cell"
        }
        fn tour(&self, _threads: usize) -> Vec<Demo> {
            Vec::new()
        }
        fn demo(&self, _threads: usize) -> Shown {
            Shown { kind: "solve", views: vec![View::Board(Board::new("a dot", Lattice::Square, vec![], vec![]))] }
        }
        fn read(&self, value: &Value) -> Result<Option<Shown>, DocError> {
            let Some(label) = value.get("dot").and_then(Value::as_str) else { return Ok(None) };
            let board = Board::new("a dot", Lattice::Square, vec![(0, 0, label.to_string())], vec![]);
            Ok(Some(Shown { kind: "solve", views: vec![View::Board(board)] }))
        }
        fn read_records(&self, _lines: &[Value]) -> Result<Option<Shown>, DocError> {
            Ok(None)
        }
    }

    static GAMES: &[&dyn Game] = &[&Dot];

    /// One raw HTTP/1.1 exchange: status and body (what arrives before the server closes or
    /// goes quiet for a second).
    fn exchange(addr: SocketAddr, request: &str) -> (u16, String) {
        exchange_within(addr, request, Duration::from_secs(1))
    }

    /// [`exchange`], waiting up to `quiet` for each part of the answer.
    fn exchange_within(addr: SocketAddr, request: &str, quiet: Duration) -> (u16, String) {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(quiet)).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut data = Vec::new();
        let _ = s.read_to_end(&mut data);
        let text = String::from_utf8_lossy(&data).into_owned();
        let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        (status, text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string()))
    }

    fn get(addr: SocketAddr, path: &str) -> (u16, String) {
        exchange(addr, &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"))
    }

    fn post(addr: SocketAddr, body: &str, length: usize) -> (u16, String) {
        post_with(addr, &format!("Host: {addr}\r\n"), body, length)
    }

    /// An upload with these header lines (Host among them, or not).
    fn post_with(addr: SocketAddr, headers: &str, body: &str, length: usize) -> (u16, String) {
        exchange(
            addr,
            &format!(
                "POST /api/documents HTTP/1.1\r\n{headers}X-Name: up.json\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n{body}"
            ),
        )
    }

    #[test]
    fn routes_uploads_and_refusals() {
        let viewer = Viewer::bind("127.0.0.1:0", GAMES, Vec::new(), 1).unwrap();
        let addr = viewer.addr().unwrap();
        std::thread::scope(|s| {
            s.spawn(|| viewer.run(None));
            let _stop = viewer.stop_on_drop();
            let (status, page) = get(addr, "/");
            assert_eq!(status, 200);
            assert!(page.contains("/viewer.js"));
            assert_eq!(get(addr, "/api/games").0, 200);
            // Only the server's own routes: no path reaches the file system.
            assert_eq!(get(addr, "/../../etc/passwd").0, 404);
            assert_eq!(get(addr, "/api/documents/0").0, 404);
            let solve = r#"{"dot":"A"}"#;
            let (status, body) = post(addr, solve, solve.len());
            assert_eq!((status, body.as_str()), (201, r#"{"id":0}"#));
            let (status, listing) = get(addr, "/api/documents");
            assert!(status == 200 && listing.contains(r#""name":"up.json""#), "{listing}");
            let (status, body) = post(addr, "{\"x\": 1}", 8);
            assert!(status == 400 && body.contains("not a tessera result"), "{body}");
            // Oversized: refused on its announced length, before reading it.
            assert_eq!(post(addr, "", MAX_UPLOAD + 1).0, 413);
        });
    }

    #[test]
    fn other_hosts_and_origins_are_refused() {
        let viewer = Viewer::bind("127.0.0.1:0", GAMES, Vec::new(), 1).unwrap();
        let addr = viewer.addr().unwrap();
        let port = addr.port();
        let solve = r#"{"dot":"A"}"#;
        std::thread::scope(|s| {
            s.spawn(|| viewer.run(None));
            let _stop = viewer.stop_on_drop();
            // DNS rebinding: a page of another name, resolved to this machine.
            let rebound = format!("GET / HTTP/1.1\r\nHost: rebound.example:{port}\r\nConnection: close\r\n\r\n");
            let (status, body) = exchange(addr, &rebound);
            assert!(status == 403 && body.contains("Host"), "{status} {body}");
            let other_port = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", port ^ 1);
            assert_eq!(exchange(addr, &other_port).0, 403);
            // Another web page posting to the viewer.
            let foreign = format!("Host: {addr}\r\nOrigin: http://evil.example\r\n");
            let (status, body) = post_with(addr, &foreign, solve, solve.len());
            assert!(status == 403 && body.contains("another origin"), "{status} {body}");
            let demo =
                format!("GET /api/demo/dot HTTP/1.1\r\nHost: {addr}\r\nOrigin: null\r\nConnection: close\r\n\r\n");
            assert_eq!(exchange(addr, &demo).0, 403);
            assert_eq!(get(addr, "/api/documents"), (200, "[]".to_string()), "nothing was taken");
            // The page itself, by either name, and a program that sends no Origin.
            let own = format!("Host: {addr}\r\nOrigin: http://{addr}\r\n");
            assert_eq!(post_with(addr, &own, solve, solve.len()), (201, r#"{"id":0}"#.to_string()));
            let local = format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}\r\n");
            assert_eq!(post_with(addr, &local, solve, solve.len()).0, 201);
            assert_eq!(post(addr, solve, solve.len()).0, 201);
        });
    }

    #[test]
    fn slow_clients_hold_up_no_other_request() {
        let viewer = Viewer::bind("127.0.0.1:0", GAMES, Vec::new(), 1).unwrap();
        let addr = viewer.addr().unwrap();
        std::thread::scope(|s| {
            s.spawn(|| viewer.run(None));
            let _stop = viewer.stop_on_drop();
            // More uploads than workers, each announced at 100 bytes and sent a byte at a time
            // (then not at all), and as many clients stalled in their headers. They come a
            // few milliseconds apart: the HTTP library gives each connection a thread of a
            // pool that grows as connections come, but a burst of them faster than its idle
            // threads wake can queue one behind the stalled ones (a limit of the library,
            // not of the workers this tests).
            let pause = || std::thread::sleep(Duration::from_millis(20));
            let head = format!("POST /api/documents HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 100\r\n\r\n{{");
            let mut slow = Vec::new();
            for _ in 0..WORKERS + 2 {
                let mut c = TcpStream::connect(addr).unwrap();
                c.write_all(head.as_bytes()).unwrap();
                slow.push(c);
                pause();
            }
            for _ in 0..WORKERS + 2 {
                let mut c = TcpStream::connect(addr).unwrap();
                c.write_all(b"GET /api/games HTTP/1.1\r\nHo").unwrap();
                slow.push(c);
                pause();
            }
            for _ in 0..3 {
                for c in &mut slow[..WORKERS + 2] {
                    c.write_all(b" ").unwrap();
                }
                let start = Instant::now();
                let plain = format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
                let (status, _) = exchange_within(addr, &plain, Duration::from_secs(10));
                let took = start.elapsed();
                assert_eq!(status, 200, "answered beside the slow clients (after {took:?})");
                assert!(took < Duration::from_secs(1), "answered in {took:?}");
                std::thread::sleep(Duration::from_millis(100));
            }
            // An upload that finishes is still read and answered.
            let mut late = TcpStream::connect(addr).unwrap();
            late.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let body = r#"{"dot":"A"}"#;
            let upload = format!(
                "POST /api/documents HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            late.write_all(upload.as_bytes()).unwrap();
            for b in body.bytes() {
                late.write_all(&[b]).unwrap();
                std::thread::sleep(Duration::from_millis(20));
            }
            let mut answer = String::new();
            let _ = late.read_to_string(&mut answer);
            assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
            drop(slow);
        });
    }

    #[test]
    fn a_limited_run_answers_that_many_requests() {
        let viewer = Viewer::bind("127.0.0.1:0", GAMES, Vec::new(), 1).unwrap();
        let addr = viewer.addr().unwrap();
        std::thread::scope(|s| {
            let run = s.spawn(|| viewer.run(Some(3)));
            for _ in 0..3 {
                assert_eq!(get(addr, "/viewer.css").0, 200);
            }
            run.join().unwrap();
        });
    }

    #[test]
    fn a_demonstration_is_solved_once() {
        let viewer = Viewer::bind("127.0.0.1:0", GAMES, Vec::new(), 1).unwrap();
        let addr = viewer.addr().unwrap();
        std::thread::scope(|s| {
            s.spawn(|| viewer.run(None));
            let _stop = viewer.stop_on_drop();
            let (status, first) = get(addr, "/api/demo/dot");
            assert!(status == 200 && first.contains(r#""game":"dot""#), "{first}");
            assert_eq!(get(addr, "/api/demo/dot"), (200, first));
            let (_, listing) = get(addr, "/api/documents");
            assert_eq!(listing, r#"[{"game":"dot","id":0,"kind":"solve","name":"dot demo"}]"#);
            assert_eq!(get(addr, "/api/demo/chess").0, 404);
        });
    }
}
