//! Just enough of the Chrome DevTools protocol: start headless Chromium, open a page, evaluate
//! JavaScript, take screenshots, collect console errors.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

/// A headless Chromium with a fresh profile, killed on drop.
pub struct Browser {
    child: Child,
    profile: PathBuf,
    port: u16,
}

impl Browser {
    /// Starts `$CHROMIUM`, or the first of chromium, chromium-browser, google-chrome on the path.
    pub fn launch() -> Result<Browser, String> {
        let binary = std::env::var("CHROMIUM").ok().or_else(|| {
            ["chromium", "chromium-browser", "google-chrome"]
                .into_iter()
                .map(String::from)
                .find(|b| Command::new(b).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok())
        });
        let binary = binary.ok_or("no Chromium found: install it (scripts/browser-test does) or set CHROMIUM")?;
        let profile = std::env::temp_dir().join(format!("tessera-chromium-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        // No network but loopback: these switches keep Chromium from calling home.
        let child = Command::new(&binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,900",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {binary}: {e}"))?;
        let mut browser = Browser { child, profile, port: 0 };
        browser.port = browser.wait_for_port()?;
        Ok(browser)
    }

    /// The DevTools port, from the file Chromium writes into its profile.
    fn wait_for_port(&self) -> Result<u16, String> {
        let file = self.profile.join("DevToolsActivePort");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if let Some(port) = std::fs::read_to_string(&file).ok().and_then(|t| t.lines().next()?.parse().ok()) {
                return Ok(port);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("Chromium did not open its DevTools port".into())
    }

    /// The first page target.
    pub fn page(&self) -> Result<Page, String> {
        let list = http_get(self.port, "/json/list")?;
        let targets: Vec<Value> = serde_json::from_str(&list).map_err(|e| format!("target list: {e}"))?;
        let ws_url = targets
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .ok_or("no page target")?;
        let (ws, _) = tungstenite::connect(ws_url).map_err(|e| format!("DevTools socket: {e}"))?;
        let mut page = Page { ws, next: 0, errors: Vec::new() };
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] {
            page.call(domain, json!({}));
        }
        Ok(page)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// One page, over its DevTools socket.
pub struct Page {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next: u64,
    errors: Vec<String>,
}

impl Page {
    /// Sends a command and waits for its result, noting console errors seen meanwhile.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.ws.send(Message::text(json!({"id": id, "method": method, "params": params}).to_string())).expect("send");
        loop {
            let msg = self.ws.read().expect("a DevTools message");
            let Ok(text) = msg.to_text() else { continue };
            let Ok(v) = serde_json::from_str::<Value>(text) else { continue };
            if v["id"] == json!(id) {
                return v["result"].clone();
            }
            self.note(&v);
        }
    }

    /// Remembers console errors and uncaught exceptions.
    fn note(&mut self, event: &Value) {
        let p = &event["params"];
        match event["method"].as_str() {
            Some("Runtime.exceptionThrown") => self.errors.push(p["exceptionDetails"].to_string()),
            Some("Runtime.consoleAPICalled") if p["type"] == "error" => self.errors.push(p["args"].to_string()),
            Some("Log.entryAdded") if p["entry"]["level"] == "error" => {
                self.errors.push(p["entry"]["text"].to_string())
            }
            _ => {}
        }
    }

    /// Evaluates an expression (promises awaited) and returns its value.
    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call("Runtime.evaluate", json!({"expression": expr, "returnByValue": true, "awaitPromise": true}));
        if let Some(e) = r.get("exceptionDetails") {
            self.errors.push(format!("evaluating {expr}: {e}"));
        }
        r["result"]["value"].clone()
    }

    /// Opens a URL and waits until the document has loaded.
    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        let start = Instant::now();
        while self.eval("document.readyState") != json!("complete") && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Saves a PNG of the page.
    pub fn screenshot(&mut self, path: &Path) {
        let r = self.call("Page.captureScreenshot", json!({"format": "png", "captureBeyondViewport": true}));
        let png = base64_decode(r["data"].as_str().unwrap_or_default());
        std::fs::write(path, png).expect("the screenshot is written");
    }

    /// Console errors and exceptions so far.
    pub fn errors(&self) -> Vec<String> {
        self.errors.clone()
    }
}

/// A GET over HTTP/1.1 on loopback (the DevTools server wants the port in `Host` and may keep
/// the connection open: the body is read by its length).
fn http_get(port: u16, path: &str) -> Result<String, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(10))).map_err(|e| e.to_string())?;
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&data).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>()))
                .and_then(Result::ok);
            if length.is_some_and(|n| body.len() >= n) {
                return Ok(body.to_string());
            }
        }
        match s.read(&mut buf) {
            Ok(0) => return Ok(text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string())),
            Ok(n) => data.extend_from_slice(&buf[..n]),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Standard base64 (the screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let (mut out, mut acc, mut bits) = (Vec::new(), 0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = acc << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
