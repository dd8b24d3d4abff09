//! The HTTP/1.1 the viewer speaks, on a connection of its own: one request per connection
//! (every answer closes it), read within deadlines.
//!
//! A connection gets a thread of its own from the accept loop (see [`super::Viewer::run`]), so
//! a client that sends slowly, or not at all, holds only its own thread; the deadlines below
//! end it. The parser takes what browsers and tools send to a local page: a request line,
//! header lines, and a body of a stated `Content-Length`; anything else is answered with the
//! status that says why (`400`, `408`, `411`, `413`, `431`, `501`).

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Longest head (request line and header lines) read.
pub const MAX_HEAD: usize = 16 << 10;

/// Time a client has to send its whole head, from its connection.
pub const HEAD_TIME: Duration = Duration::from_secs(10);

/// Time a client has to send a body, from the end of its head.
pub const BODY_TIME: Duration = Duration::from_secs(60);

/// Time an answer has to be taken by its client.
const WRITE_TIME: Duration = Duration::from_secs(30);

/// A request whose head is read; its body, if any, is still on the connection.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// The target, as sent (`/api/documents?x` keeps its query).
    pub target: String,
    headers: Vec<(String, String)>,
    /// Bytes read past the head: the start of the body.
    early: Vec<u8>,
    stream: TcpStream,
}

/// Why a request was not read: the status to answer with (none when the client is gone) and
/// why, in a line.
#[derive(Debug)]
pub struct Refused {
    pub status: Option<u16>,
    pub why: &'static str,
}

impl Refused {
    fn new(status: u16, why: &'static str) -> Refused {
        Refused { status: Some(status), why }
    }
    fn gone() -> Refused {
        Refused { status: None, why: "the client went away" }
    }
}

impl Request {
    /// Reads a request's head from a new connection, within [`HEAD_TIME`]; on failure, the
    /// connection back with the reason.
    pub fn read(mut stream: TcpStream) -> Result<Request, (TcpStream, Refused)> {
        let _ = stream.set_nodelay(true);
        let deadline = Instant::now() + HEAD_TIME;
        let mut buf = Vec::with_capacity(1024);
        let end = loop {
            let end = find(&buf, b"\r\n\r\n");
            if end.unwrap_or(buf.len()) > MAX_HEAD {
                return Err((stream, Refused::new(431, "the request's head is too long")));
            }
            if let Some(end) = end {
                break end;
            }
            match read_some(&mut stream, &mut buf, deadline) {
                Ok(0) => return Err((stream, Refused::gone())),
                Ok(_) => {}
                Err(e) if is_timeout(&e) => return Err((stream, Refused::new(408, "the request took too long"))),
                Err(_) => return Err((stream, Refused::gone())),
            }
        };
        let early = buf.split_off(end + 4);
        match parse_head(&buf[..end]) {
            Ok((method, target, headers)) => Ok(Request { method, target, headers, early, stream }),
            Err(why) => Err((stream, Refused::new(400, why))),
        }
    }

    /// The value of a header (the first of that name, any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body's stated length: `Ok(None)` without a body, an error for a body whose length is
    /// not stated (chunked) or not a number.
    pub fn body_length(&self) -> Result<Option<usize>, Refused> {
        if self.header("Transfer-Encoding").is_some() {
            return Err(Refused::new(411, "send the body with a Content-Length"));
        }
        match self.header("Content-Length") {
            None => Ok(None),
            Some(n) => n.trim().parse().map(Some).map_err(|_| Refused::new(400, "Content-Length is not a number")),
        }
    }

    /// Reads a body of `length` bytes within [`BODY_TIME`] (answering `Expect: 100-continue`
    /// first).
    pub fn read_body(&mut self, length: usize) -> Result<Vec<u8>, Refused> {
        if self.header("Expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue")) && self.early.is_empty() {
            let _ = self.stream.set_write_timeout(Some(WRITE_TIME));
            self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").map_err(|_| Refused::gone())?;
        }
        let deadline = Instant::now() + BODY_TIME;
        let mut body = std::mem::take(&mut self.early);
        body.reserve(length.saturating_sub(body.len()));
        while body.len() < length {
            match read_some(&mut self.stream, &mut body, deadline) {
                Ok(0) => return Err(Refused::new(400, "the body is shorter than its Content-Length")),
                Ok(_) => {}
                Err(e) if is_timeout(&e) => return Err(Refused::new(408, "the body took too long")),
                Err(_) => return Err(Refused::gone()),
            }
        }
        body.truncate(length);
        Ok(body)
    }

    /// The connection, to answer on.
    pub fn into_stream(self) -> TcpStream {
        self.stream
    }
}

/// Writes an answer on a connection and closes it (a client that went away, or does not take
/// the answer within [`WRITE_TIME`], is no concern of ours).
pub fn respond(mut stream: TcpStream, status: u16, headers: &[(&str, &str)], body: &[u8]) {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n", body.len()));
    let _ = stream.set_write_timeout(Some(WRITE_TIME));
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body)).and_then(|()| stream.flush());
    // Unread bytes of the request at close would reset the connection before the client has
    // read the answer: say that no more is sent, then let the close be graceful.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let mut sink = [0u8; 4096];
    for _ in 0..16 {
        if !matches!(stream.read(&mut sink), Ok(n) if n > 0) {
            break;
        }
    }
}

/// Reads what has arrived (at most 64 KiB) onto `buf`, waiting no later than `deadline`.
fn read_some(stream: &mut TcpStream, buf: &mut Vec<u8>, deadline: Instant) -> io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::ErrorKind::TimedOut.into());
    }
    stream.set_read_timeout(Some(left))?;
    let mut chunk = [0u8; 64 << 10];
    let n = stream.read(&mut chunk)?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n)
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The method, target and headers of a head (without its closing blank line).
type Head = (String, String, Vec<(String, String)>);

fn parse_head(head: &[u8]) -> Result<Head, &'static str> {
    let text = std::str::from_utf8(head).map_err(|_| "the request's head is not text")?;
    let mut lines = text.split("\r\n");
    let mut parts = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("the request line is not `METHOD TARGET HTTP/1.x`");
    };
    if method.is_empty() || !version.starts_with("HTTP/1.") || !target.starts_with('/') {
        return Err("the request line is not `METHOD TARGET HTTP/1.x`");
    }
    let mut headers = Vec::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { return Err("a header line has no `:`") };
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err("a header's name is malformed");
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    Ok((method.to_string(), target.to_string(), headers))
}

/// The reason phrase of the statuses the viewer sends.
fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_parse_and_bad_ones_say_why() {
        let (m, t, h) = parse_head(b"POST /api/documents HTTP/1.1\r\nHost: a:1\r\nX-Name:  up.json ").unwrap();
        assert_eq!((m.as_str(), t.as_str()), ("POST", "/api/documents"));
        assert_eq!(h, vec![("Host".into(), "a:1".into()), ("X-Name".into(), "up.json".into())]);
        assert!(parse_head(b"GET /").is_err());
        assert!(parse_head(b"GET / HTTP/1.1 x").is_err());
        assert!(parse_head(b"GET nowhere HTTP/1.1").is_err());
        assert!(parse_head(b"GET / HTTP/1.1\r\nno colon").is_err());
        assert!(parse_head(b"GET / HTTP/1.1\r\nbad name: x").is_err());
        assert!(parse_head(&[0xff, b' ', b'/', b' ']).is_err());
    }
}
