//! Each game's results turned into views, and each game's demonstration.
//!
//! A file is recognised by the game's type it reads as (each game's results are typed in its
//! crate), or by its `"game"` field; a JSON-lines file (one object per line) is an evaluation
//! run's job records.

mod digits;
pub mod hextris;
mod pairs;
mod tiling;
mod totems;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tessera_core::eval::Record;

use crate::view::Document;

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

/// The games with a view, and what `demo` shows for each.
pub const GAMES: [(&str, &str); 5] = [
    ("tiling", "every solution of meteor and of the pentominoes on 6x10"),
    ("totems", "a level-9 and a level-10 bag"),
    ("digits", "one official game played by the best strategy"),
    ("pairs", "the contest's examples 2 (30 x 30, 4 colours) and 3 (100 x 100, 6 colours), move by move"),
    ("hextris", "problem 6, seed 0, solved in a second and replayed by the judge"),
];

/// Reads a file's text as a document named `name`.
pub fn document(name: &str, text: &str) -> Result<Document, DocError> {
    let values = parse(text)?;
    let (game, kind, views) = match values.as_slice() {
        // An evaluation of one job writes one line: a record still.
        [one] if is_record(one) => from_records(&values)?,
        [one] => from_value(one)?,
        lines => from_records(lines)?,
    };
    Ok(Document { name: name.to_string(), game: game.to_string(), kind: kind.to_string(), views })
}

/// The demonstration of a game, solved now.
pub fn demo(game: &str, threads: usize) -> Option<Document> {
    let (kind, views) = match game {
        "tiling" => ("solutions", tiling::demo(threads)),
        "totems" => ("solve", totems::demo(threads)),
        "digits" => ("game", digits::demo(threads)),
        "pairs" => ("solve", pairs::demo(threads)),
        "hextris" => ("solve", hextris::demo(threads)),
        _ => return None,
    };
    Some(Document { name: format!("{game} demo"), game: game.to_string(), kind: kind.to_string(), views })
}

type Converted = (&'static str, &'static str, Vec<crate::view::View>);

/// A game's reader of one JSON document: `None` if it is not one of the game's.
type ValueReader = fn(&Value) -> Result<Option<Converted>, DocError>;

/// A game's reader of job records: `None` if they are not the game's.
type RecordsReader = fn(&[Value]) -> Result<Option<Converted>, DocError>;

/// One JSON document (a `solve` or an `eval --json` output).
fn from_value(v: &Value) -> Result<Converted, DocError> {
    if hextris::is_hextris(v) || hextris::is_solutions(v) {
        return hextris::from_value(v);
    }
    let readers: [ValueReader; 4] = [totems::from_value, tiling::from_value, digits::from_value, pairs::from_value];
    for read in readers {
        if let Some(converted) = read(v)? {
            return Ok(converted);
        }
    }
    Err(DocError::Unknown(describe(v)))
}

/// Job records of an evaluation run (`--jsonl`).
fn from_records(lines: &[Value]) -> Result<Converted, DocError> {
    let first = lines.first().ok_or_else(|| DocError::Unknown("an empty file".into()))?;
    if hextris::is_record(first) {
        return hextris::from_records(lines);
    }
    if !is_record(first) {
        return Err(DocError::Unknown(format!("several JSON values, but not job records: {}", describe(first))));
    }
    let readers: [RecordsReader; 4] =
        [totems::from_records, tiling::from_records, digits::from_records, pairs::from_records];
    for read in readers {
        if let Some(converted) = read(lines)? {
            return Ok(converted);
        }
    }
    Err(DocError::Unknown(format!("job records of an unknown game: {}", describe(first))))
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
fn is_record(v: &Value) -> bool {
    RecordHead::deserialize(v).is_ok()
}

/// Job records of one game, as its type `R`: `None` if the first line is not one of them, an
/// error naming the line if a later one is not.
pub(crate) fn records<R: DeserializeOwned>(lines: &[Value], game: &'static str) -> Result<Option<Vec<R>>, DocError> {
    let read = |line: &Value| Record::<R>::deserialize(line).map(|r| r.result);
    let Some(Ok(first)) = lines.first().map(read) else { return Ok(None) };
    let mut all = vec![first];
    for (k, line) in lines.iter().enumerate().skip(1) {
        all.push(read(line).map_err(|e| DocError::Malformed { game, why: format!("line {}: {e}", k + 1) })?);
    }
    Ok(Some(all))
}

/// A whole JSON document, or one JSON value per non-empty line.
fn parse(text: &str) -> Result<Vec<Value>, DocError> {
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
fn describe(v: &Value) -> String {
    match v.as_object() {
        Some(o) => format!("keys {}", o.keys().take(8).cloned().collect::<Vec<_>>().join(", ")),
        None => "not an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_broken_files_say_why() {
        assert!(matches!(document("x", "{\"a\": 1}"), Err(DocError::Unknown(_))));
        assert!(matches!(document("x", "{\"a\": 1}\n{oops"), Err(DocError::NotJson(e)) if e.starts_with("line 2")));
        assert!(matches!(document("x", ""), Err(DocError::Unknown(_))));
        assert!(matches!(document("x", "[1, 2]"), Err(DocError::Unknown(_))));
        assert!(
            matches!(document("x", "{\"job\": 0, \"seed\": 1}"), Err(DocError::Unknown(e)) if e.contains("job records"))
        );
    }
}
