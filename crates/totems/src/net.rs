//! The game's protocol over WebSocket: a local game server, and the bot that plays against it.
//!
//! Text messages of JSON. The client registers once (`{"type": "REGISTER", "token": ...}`); the
//! server sends a question per level (`{"type": "QUESTION", "tick": N, "payload": {"totems":
//! [...]}}`: the contest's starter kits read every message's `type` first, and take any but
//! `ERROR` for a question); the client answers each with `{"type": "COMMAND", "tick": N,
//! "actions": {"totems": [...]}}` within the level's second. A message with `"type": "ERROR"` ends the game. After the last level the
//! server closes the connection (a WebSocket close, code 1000, no reason), as the contest's
//! server did: its clients treat every message but an error as a question, and end the game when
//! the connection closes. Unknown fields are tolerated both ways.

use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::Budget;
use tungstenite::protocol::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Message, WebSocket};

use crate::answer::{Actions, Answer};
use crate::bag::Bag;
use crate::game::{LEVEL_TIME, LEVELS, level_bag};
use crate::shapes::PieceSet;
use crate::solve::hybrid::solve;
use crate::solve::{Ctx, Solver};
use crate::validate::validate;

/// A failure of the network game.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The connection failed.
    #[error("connection: {0}")]
    Io(String),
    /// The other side broke the protocol.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The server sent an ERROR message.
    #[error("the server says: {0}")]
    Server(String),
}

impl From<tungstenite::Error> for NetError {
    fn from(e: tungstenite::Error) -> Self {
        NetError::Io(e.to_string())
    }
}

impl From<std::io::Error> for NetError {
    fn from(e: std::io::Error) -> Self {
        NetError::Io(e.to_string())
    }
}

/// The client's answer to a question.
#[derive(Debug, Serialize, Deserialize)]
struct Command {
    #[serde(rename = "type")]
    kind: String,
    tick: i64,
    actions: Actions,
}

/// One level as the server judged it.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// The level.
    pub level: u32,
    /// Pieces.
    pub pieces: u64,
    /// Score (0 if late or missing).
    pub score: f64,
    /// Why it scored nothing, if it did.
    pub note: Option<String>,
}

/// Serves games on `addr`, one connection at a time, `games` of them (forever if `None`); each
/// game's bags come from `seed` and the game's number. `log` hears one line per event.
pub fn serve(addr: &str, games: Option<u64>, seed: u64, log: &mut dyn FnMut(&str)) -> Result<(), NetError> {
    let listener = TcpListener::bind(addr).map_err(|e| NetError::Io(format!("cannot listen on {addr}: {e}")))?;
    log(&format!("listening on ws://{}", listener.local_addr()?));
    let mut played = 0;
    while games.is_none_or(|g| played < g) {
        let (stream, peer) = listener.accept()?;
        log(&format!("game {played} with {peer}"));
        match serve_game(stream, derive_seed(seed, played)) {
            Ok((total, levels)) => {
                for l in &levels {
                    let note = l.note.as_deref().map_or(String::new(), |n| format!(" ({n})"));
                    log(&format!("  level {} ({} pieces): {}{note}", l.level, l.pieces, l.score));
                }
                log(&format!("game {played}: {total}"));
            }
            Err(e) => log(&format!("game {played} ended: {e}")),
        }
        played += 1;
    }
    Ok(())
}

/// Plays one game with a connected client; returns the total and the levels.
pub fn serve_game(stream: TcpStream, seed: u64) -> Result<(f64, Vec<Judged>), NetError> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut ws = tungstenite::accept(stream).map_err(|e| NetError::Protocol(format!("not a WebSocket client: {e}")))?;
    let first = read_json(&mut ws, Instant::now() + Duration::from_secs(10))?
        .ok_or_else(|| NetError::Protocol("no REGISTER within 10 s".into()))?;
    if first.get("type").and_then(Value::as_str) != Some("REGISTER") {
        send(&mut ws, &json!({"type": "ERROR", "message": "expected a REGISTER message first"}))?;
        return Err(NetError::Protocol(format!("expected REGISTER, got {first}")));
    }
    let mut rng = Rng64::seed(seed);
    let mut levels = Vec::new();
    for level in 1..=LEVELS {
        let bag = level_bag(level, &mut rng);
        let tick = i64::from(level);
        let totems: Vec<Value> = bag.letters().chars().map(|c| json!({"shape": c.to_string()})).collect();
        send(&mut ws, &json!({"type": "QUESTION", "tick": tick, "payload": {"totems": totems}}))?;
        let (score, note) = judge(&mut ws, &bag, tick)?;
        levels.push(Judged { level, pieces: bag.len(), score, note });
    }
    let total: f64 = levels.iter().map(|l| l.score).sum();
    close(&mut ws);
    Ok((total, levels))
}

/// How long the server waits for the client's side of the closing handshake.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// Ends a game: a close frame with no reason (a client of the contest reads a close's reason as
/// a message: it must be empty), then the client's reply, for at most [`CLOSE_WAIT`].
fn close(ws: &mut WebSocket<TcpStream>) {
    let frame = CloseFrame { code: CloseCode::Normal, reason: "".into() };
    if ws.close(Some(frame)).is_err() {
        return;
    }
    let deadline = Instant::now() + CLOSE_WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || ws.get_ref().set_read_timeout(Some(left)).is_err() {
            return;
        }
        // Late answers are dropped; the client's close (or a timeout, or a dropped connection)
        // ends the game.
        if ws.read().is_err() {
            return;
        }
    }
}

/// Waits for the answer to `tick` until the level's second is up, and scores it. A malformed or
/// invalid answer ends the game with an ERROR; a late one scores nothing.
fn judge(ws: &mut WebSocket<TcpStream>, bag: &Bag, tick: i64) -> Result<(f64, Option<String>), NetError> {
    let deadline = Instant::now() + LEVEL_TIME;
    loop {
        let Some(msg) = read_json(ws, deadline)? else { return Ok((0.0, Some("no answer within 1 s".into()))) };
        let Ok(cmd) = serde_json::from_value::<Command>(msg.clone()) else {
            send(ws, &json!({"type": "ERROR", "message": "expected a COMMAND with tick and actions"}))?;
            return Err(NetError::Protocol(format!("malformed command {msg}")));
        };
        if cmd.tick != tick {
            continue; // a late answer to an earlier level
        }
        let checked =
            Answer::from_actions(bag.set, &cmd.actions).and_then(|a| validate(bag, &a).map_err(|e| e.to_string()));
        return match checked {
            Ok(c) => Ok((c.score, None)),
            Err(e) => {
                send(ws, &json!({"type": "ERROR", "message": e}))?;
                Err(NetError::Protocol(format!("invalid answer: {e}")))
            }
        };
    }
}

/// One level as the bot answered it, scored by the bot (the server has the final word: a late
/// answer scores nothing there).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answered {
    /// The question's tick.
    pub tick: i64,
    /// Pieces.
    pub pieces: u64,
    /// The answer's box.
    pub dims: (u32, u32),
    /// The answer's score, as the validator counts it (0 if invalid, which must never happen).
    pub score: f64,
    /// Seconds from the question to the answer sent.
    pub seconds: f64,
}

/// What the bot knows when the server ends the game: every answer it sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Played {
    /// The answers, in order.
    pub answered: Vec<Answered>,
}

impl Played {
    /// The answers' total score, as the bot counts it.
    pub fn score(&self) -> f64 {
        self.answered.iter().map(|a| a.score).sum()
    }
}

/// Plays against a server: registers with `token`, answers every question with the hybrid
/// within `budget` (a margin under the second), and returns what it answered once the server
/// closes the connection. An `ERROR` from the server is an error.
pub fn play(
    url: &str,
    token: &str,
    budget: Duration,
    threads: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Played, NetError> {
    let (mut ws, _) = tungstenite::connect(url).map_err(|e| NetError::Io(format!("cannot connect to {url}: {e}")))?;
    send(&mut ws, &json!({"type": "REGISTER", "token": token}))?;
    let mut played = Played::default();
    loop {
        let msg = match ws.read() {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) => {
                // Sends the reply to the server's close; the game is over either way.
                let _ = ws.flush();
                return Ok(played);
            }
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => return Ok(played),
            Ok(_) => continue,
            Err(e) => return Err(e.into()),
        };
        let value: Value = serde_json::from_str(&msg).map_err(|e| NetError::Protocol(format!("not JSON: {e}")))?;
        if value.get("type").and_then(Value::as_str) == Some("ERROR") {
            return Err(NetError::Server(value.to_string()));
        }
        if value.get("payload").is_none() {
            log(&format!("ignored: {msg}"));
            continue;
        }
        let answered = answer(&mut ws, &msg, budget, threads)?;
        log(&format!(
            "tick {}: {} pieces in {}x{}, score {}, {:.0} ms",
            answered.tick,
            answered.pieces,
            answered.dims.0,
            answered.dims.1,
            answered.score,
            answered.seconds * 1000.0
        ));
        played.answered.push(answered);
    }
}

/// Answers one question with the hybrid within `budget`.
fn answer<S: std::io::Read + std::io::Write>(
    ws: &mut WebSocket<S>,
    question: &str,
    budget: Duration,
    threads: usize,
) -> Result<Answered, NetError> {
    let start = Instant::now();
    let (tick, bag) =
        Bag::from_question(PieceSet::Tetrominoes, question).map_err(|e| NetError::Protocol(e.to_string()))?;
    let b = Budget::unlimited().with_time(budget);
    let solved = solve(&bag, Solver::Hybrid, &Ctx { threads, seed: tick as u64, budget: &b });
    send(ws, &json!({"type": "COMMAND", "tick": tick, "actions": solved.answer.actions(bag.set)}))?;
    let score = validate(&bag, &solved.answer).map_or(0.0, |c| c.score);
    let seconds = start.elapsed().as_secs_f64();
    Ok(Answered { tick, pieces: bag.len(), dims: solved.answer.bbox(), score, seconds })
}

fn send<S: std::io::Read + std::io::Write>(ws: &mut WebSocket<S>, v: &Value) -> Result<(), NetError> {
    ws.send(Message::text(v.to_string()))?;
    Ok(())
}

/// The next JSON text message before `deadline` (`None` at the deadline).
fn read_json(ws: &mut WebSocket<TcpStream>, deadline: Instant) -> Result<Option<Value>, NetError> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        ws.get_ref().set_read_timeout(Some(left))?;
        match ws.read() {
            Ok(Message::Text(t)) => {
                return serde_json::from_str(&t).map(Some).map_err(|e| NetError::Protocol(format!("not JSON: {e}")));
            }
            Ok(Message::Close(_)) => return Err(NetError::Protocol("the client closed the connection".into())),
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        }
    }
}
