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

mod http;
mod library;
mod origin;

use std::collections::VecDeque;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use serde_json::json;

use crate::{ASSET_CSS, ASSET_HTML, ASSET_JS};
use http::Request;
pub use http::{BODY_TIME, HEAD_TIME, MAX_HEAD};
use library::{Held, Library, Source};
pub use library::{MAX_UPLOAD_BYTES, MAX_UPLOADS};
use origin::Own;
use tessera_game::view::Document;
use tessera_game::{Game, demo, document};

/// Largest upload accepted.
pub const MAX_UPLOAD: usize = 32 << 20;

/// Connections served at once, each on a thread of its own; one more is answered `503` at
/// once. A client that sends slowly holds only its own connection, until the deadlines of
/// [`HEAD_TIME`] and [`BODY_TIME`] close it.
pub const MAX_CONNECTIONS: usize = 256;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {addr}: {why}")]
pub struct BindError {
    addr: String,
    why: String,
}

/// A bound server and the documents it shows.
pub struct Viewer {
    listener: TcpListener,
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
        let listener = TcpListener::bind(addr).map_err(|e| BindError { addr: addr.to_string(), why: e.to_string() })?;
        let demos = games.iter().map(|_| OnceLock::new()).collect();
        let library = Mutex::new(Library::new(docs));
        let own = listener.local_addr().ok().map(Own::new);
        Ok(Viewer { listener, library, games, demos, threads, stopped: AtomicBool::new(false), own })
    }

    /// The address it listens on.
    pub fn addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Makes [`Viewer::run`] return (from another thread) once the requests being answered are
    /// answered; a stopped viewer stays stopped.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        // Wakes the accept loop with a connection of its own (to loopback when the viewer
        // listens on every address).
        if let Some(mut addr) = self.addr() {
            if addr.ip().is_unspecified() {
                addr.set_ip(if addr.is_ipv4() { [127, 0, 0, 1].into() } else { std::net::Ipv6Addr::LOCALHOST.into() });
            }
            let _ = TcpStream::connect_timeout(&addr, Duration::from_secs(1));
        }
    }

    /// A guard that stops the server when dropped: a thread scope running [`Viewer::run`] then
    /// ends however the code beside it ends (a failed test included).
    pub fn stop_on_drop(&self) -> StopOnDrop<'_> {
        StopOnDrop(self)
    }

    /// Accepts connections until [`Viewer::stop`] (or `limit` of them), then waits for those
    /// being served. Each connection goes to a thread that is waiting for one, or to a new
    /// thread when none is (at most [`MAX_CONNECTIONS`] threads, each serving one connection at
    /// a time; one more is answered `503` at once): a client sending slowly, or not at all,
    /// holds only its own thread, and a burst of them holds up no other request. A thread left
    /// waiting for [`IDLE_TIME`] ends.
    pub fn run(&self, limit: Option<usize>) {
        let pool = Pool::default();
        std::thread::scope(|s| {
            let mut taken = 0;
            while !self.stopped.load(Ordering::SeqCst) && limit.is_none_or(|l| taken < l) {
                let stream = match self.listener.accept() {
                    Ok((stream, _)) => stream,
                    // Out of descriptors, or a connection reset before it was taken: a moment
                    // for the others to finish.
                    Err(_) => {
                        std::thread::sleep(Duration::from_millis(10));
                        continue;
                    }
                };
                if self.stopped.load(Ordering::SeqCst) {
                    break;
                }
                taken += 1;
                match pool.hand(stream) {
                    Handed::Queued => {}
                    Handed::NewThread(stream) => {
                        let pool = &pool;
                        s.spawn(move || pool.work(stream, |stream| self.serve(stream)));
                    }
                    Handed::Full(stream) => Reply::error(503, "too many connections are open: try again").send(stream),
                }
            }
            pool.stop();
        });
    }

    /// Reads one request and answers it; a panic while answering drops the connection (its
    /// client sees it close) and nothing else.
    fn serve(&self, stream: TcpStream) {
        let mut request = match Request::read(stream) {
            Ok(request) => request,
            Err((stream, refused)) => {
                if let Some(status) = refused.status {
                    Reply::error(status, refused.why).send(stream);
                }
                return;
            }
        };
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(&mut request)));
        if let Ok(reply) = answered {
            reply.send(request.into_stream());
        }
    }

    fn answer(&self, request: &mut Request) -> Reply {
        match self.refusal(request) {
            Some(why) => Reply::text(403, why),
            None => self.route(request),
        }
    }

    /// Why a request is refused: a `Host` or an `Origin` that is not the viewer's.
    fn refusal(&self, request: &Request) -> Option<&'static str> {
        self.own?.refusal(request.header("Host"), request.header("Origin"))
    }

    fn route(&self, request: &mut Request) -> Reply {
        let url = request.target.split('?').next().unwrap_or("").to_string();
        match (request.method.as_str(), url.as_str()) {
            ("GET", "/") => Reply::asset(ASSET_HTML, "text/html; charset=utf-8"),
            ("GET", "/viewer.js") => Reply::asset(ASSET_JS, "text/javascript; charset=utf-8"),
            ("GET", "/viewer.css") => Reply::asset(ASSET_CSS, "text/css; charset=utf-8"),
            ("GET", "/api/games") => Reply::json(
                200,
                &json!(self.games.iter().map(|g| json!({"game": g.name(), "shows": g.shows()})).collect::<Vec<_>>()),
            ),
            ("GET", "/api/documents") => Reply::json(200, &self.library().listing()),
            ("GET", path) if path.starts_with("/api/documents/") => self.one(&path["/api/documents/".len()..]),
            ("GET", path) if path.starts_with("/api/demo/") => self.demo(&path["/api/demo/".len()..]),
            ("POST", "/api/documents") => self.upload(request),
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
        let length = match request.body_length() {
            Ok(Some(n)) => n,
            Ok(None) => 0,
            Err(refused) => return Reply::error(refused.status.unwrap_or(400), refused.why),
        };
        if length > MAX_UPLOAD {
            return Reply::error(413, &format!("uploads are limited to {} MiB", MAX_UPLOAD >> 20));
        }
        let name = request
            .header("X-Name")
            .map(|v| v.chars().filter(|c| !c.is_control()).take(120).collect::<String>())
            .unwrap_or_else(|| "upload".into());
        let body = match request.read_body(length) {
            Ok(body) => body,
            Err(refused) => return Reply::error(refused.status.unwrap_or(400), refused.why),
        };
        let Ok(text) = String::from_utf8(body) else { return Reply::error(400, "the upload is not UTF-8 text") };
        match document(self.games, &name, &text) {
            Ok(d) => Reply::json(201, &json!({"id": self.library().add(&d, Source::Upload).id})),
            Err(e) => Reply::error(400, &e.to_string()),
        }
    }
}

/// How long a thread of the server waits for a connection before it ends.
pub const IDLE_TIME: Duration = Duration::from_secs(10);

/// The threads that serve connections: how many there are, how many wait for one, and the
/// connections handed to those that wait.
#[derive(Default)]
struct Pool {
    state: Mutex<PoolState>,
    ready: Condvar,
}

#[derive(Default)]
struct PoolState {
    threads: usize,
    waiting: usize,
    queue: VecDeque<TcpStream>,
    stopped: bool,
}

/// Where [`Pool::hand`] put a connection.
enum Handed {
    /// To a thread that waits (each queued connection has a waiting thread of its own).
    Queued,
    /// To a new thread, counted: start it.
    NewThread(TcpStream),
    /// Nowhere: there are [`MAX_CONNECTIONS`] threads, all busy.
    Full(TcpStream),
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn hand(&self, stream: TcpStream) -> Handed {
        let mut state = self.lock();
        if state.waiting > state.queue.len() {
            state.queue.push_back(stream);
            self.ready.notify_one();
            Handed::Queued
        } else if state.threads < MAX_CONNECTIONS {
            state.threads += 1;
            Handed::NewThread(stream)
        } else {
            Handed::Full(stream)
        }
    }

    /// A thread's life: serves `first`, then each connection handed to it, until it has
    /// waited [`IDLE_TIME`] for one or the pool stops.
    fn work(&self, first: TcpStream, serve: impl Fn(TcpStream)) {
        let mut next = Some(first);
        while let Some(stream) = next.take() {
            serve(stream);
            let mut state = self.lock();
            state.waiting += 1;
            loop {
                if let Some(stream) = state.queue.pop_front() {
                    next = Some(stream);
                    break;
                }
                if state.stopped {
                    break;
                }
                let (s, wait) = self.ready.wait_timeout(state, IDLE_TIME).unwrap_or_else(|e| e.into_inner());
                state = s;
                if wait.timed_out() && state.queue.is_empty() {
                    break;
                }
            }
            state.waiting -= 1;
            if next.is_none() {
                state.threads -= 1;
            }
        }
    }

    /// Ends the threads that wait (those serving end when done).
    fn stop(&self) {
        self.lock().stopped = true;
        self.ready.notify_all();
    }
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

    /// Writes the reply on a connection, which it closes.
    fn send(self, stream: TcpStream) {
        let headers =
            [("Content-Type", self.content_type), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")];
        http::respond(stream, self.status, &headers, self.body.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
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
        const SLOW: usize = 10;
        let viewer = Viewer::bind("127.0.0.1:0", GAMES, Vec::new(), 1).unwrap();
        let addr = viewer.addr().unwrap();
        std::thread::scope(|s| {
            s.spawn(|| viewer.run(None));
            let _stop = viewer.stop_on_drop();
            // Ten uploads, each announced at 100 bytes and sent a byte at a time (then not at
            // all), and ten clients stalled in their headers, all connecting at once.
            let head = format!("POST /api/documents HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 100\r\n\r\n{{");
            let mut slow = Vec::new();
            for _ in 0..SLOW {
                let mut c = TcpStream::connect(addr).unwrap();
                c.write_all(head.as_bytes()).unwrap();
                slow.push(c);
            }
            for _ in 0..SLOW {
                let mut c = TcpStream::connect(addr).unwrap();
                c.write_all(b"GET /api/games HTTP/1.1\r\nHo").unwrap();
                slow.push(c);
            }
            for _ in 0..3 {
                for c in &mut slow[..SLOW] {
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
