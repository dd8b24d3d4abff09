//! Reading result files: JSON documents and JSON lines, and the errors that say why a file
//! cannot be shown.

use crate::eval::{Record, StopMark};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Why a file could not be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocError {
    /// Not JSON, nor JSON lines.
    #[error("not JSON or JSON lines: {0}")]
    NotJson(String),
    /// JSON, but not a result tessera writes.
    #[error("not a tessera result this viewer knows ({0})")]
    Unknown(String),
    /// A game's result with a field missing or of the wrong type.
    #[error("malformed {game} result: {why}")]
    Malformed {
        /// The game.
        game: &'static str,
        /// What is wrong.
        why: String,
    },
}

/// The fields every job record starts with (see [`Record`]).
#[derive(Deserialize)]
struct RecordHead {
    #[serde(rename = "job")]
    _job: u64,
    #[serde(rename = "seed")]
    _seed: u64,
}

/// Whether a value reads as the head of a job record.
pub fn is_record(v: &Value) -> bool {
    RecordHead::deserialize(v).is_ok()
}

/// Whether a value is the line a stopped evaluation run ends with (see [`StopMark`]).
pub fn is_stop_mark(v: &Value) -> bool {
    StopMark::deserialize(v).is_ok()
}

/// Job records of one game, as its type `R`: `None` if the first line is not one of them (and
/// does not name the game), an error naming the line if a later one is not, or the first when
/// it names the game.
pub fn records<R: DeserializeOwned>(lines: &[Value], game: &'static str) -> Result<Option<Vec<R>>, DocError> {
    let read = |line: &Value| Record::<R>::deserialize(line).map(|r| r.result);
    let Some(first) = lines.first() else { return Ok(None) };
    let first = match read(first) {
        Ok(r) => r,
        Err(e) if first.get("game").and_then(Value::as_str) == Some(game) => {
            return Err(DocError::Malformed { game, why: format!("line 1: {e}") });
        }
        Err(_) => return Ok(None),
    };
    let mut all = vec![first];
    for (k, line) in lines.iter().enumerate().skip(1) {
        all.push(read(line).map_err(|e| DocError::Malformed { game, why: format!("line {}: {e}", k + 1) })?);
    }
    Ok(Some(all))
}

/// A whole JSON document, or one JSON value per non-empty line.
pub fn parse(text: &str) -> Result<Vec<Value>, DocError> {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        return Ok(vec![v]);
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| serde_json::from_str(l).map_err(|e| DocError::NotJson(format!("line {}: {e}", k + 1))))
        .collect()
}

/// The keys of an object, for error messages.
pub fn describe(v: &Value) -> String {
    match v.as_object() {
        Some(o) => format!("keys {}", o.keys().take(8).cloned().collect::<Vec<_>>().join(", ")),
        None => "not an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Scored {
        #[serde(rename = "score")]
        _score: u64,
    }

    fn lines(text: &str) -> Vec<Value> {
        parse(text).unwrap()
    }

    #[test]
    fn records_that_name_their_game_say_what_is_wrong() {
        let good = lines("{\"game\":\"g\",\"job\":0,\"of\":1,\"base_seed\":1,\"seed\":2,\"score\":3}\n");
        assert_eq!(records::<Scored>(&good, "g").unwrap().map(|r| r.len()), Some(1));
        // Another game's records, or no game named: not these records.
        let other = lines("{\"game\":\"h\",\"job\":0,\"of\":1,\"base_seed\":1,\"seed\":2}\n");
        assert!(records::<Scored>(&other, "g").unwrap().is_none());
        let unnamed = lines("{\"job\":0,\"of\":1,\"base_seed\":1,\"seed\":2}\n");
        assert!(records::<Scored>(&unnamed, "g").unwrap().is_none());
        // This game's, with a field missing: the line and the field.
        let bad = lines("{\"game\":\"g\",\"job\":0,\"of\":1,\"base_seed\":1,\"seed\":2}\n");
        let why = records::<Scored>(&bad, "g").unwrap_err().to_string();
        assert!(why.contains("line 1") && why.contains("score"), "{why}");
    }
}
