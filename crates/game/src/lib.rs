//! What makes a tessera game, and the one place the games are listed.
//!
//! A game is a type that implements [`Game`]: its name, its entries in `tessera tour`, its
//! demonstration, and the reading of its own outputs (what its commands write with `--json` and
//! `--jsonl`) into the [`view`]s the viewer draws. The command line and the viewer know the
//! games only through a registry, a slice of `&dyn Game` that the `tessera` binary builds (its
//! `games.rs` is the one file that names them); this crate names none.
//!
//! * [`view`]: the documents and views every game's results become (boards, replays, charts);
//! * [`svg`]: pictures of labelled boards, coloured as the views colour them;
//! * [`read`]: reading result files, and why one cannot be shown;
//! * [`eval`]: evaluation runs: many seeded jobs in parallel, streamed as JSON lines, split into
//!   shards and merged back;
//! * [`tour`]: a game's entry in `tessera tour`.
//!
//! A toy game, registered and read through the registry:
//!
//! ```
//! use serde_json::{Value, json};
//! use tessera_core::geometry::Lattice;
//! use tessera_game::read::DocError;
//! use tessera_game::tour::Demo;
//! use tessera_game::view::{Board, View};
//! use tessera_game::{Game, Shown, document};
//!
//! /// A game of one cell: its result is `{"game": "dot", "label": "A"}`.
//! struct Dot;
//!
//! impl Game for Dot {
//!     fn name(&self) -> &'static str {
//!         "dot"
//!     }
//!     fn shows(&self) -> &'static str {
//!         "one cell"
//!     }
//!     fn tour(&self, _threads: usize) -> Vec<Demo> {
//!         let result = "1 cell".into();
//!         vec![Demo { game: "dot", instance: "the dot".into(), result, seconds: 0.0, ok: true }]
//!     }
//!     fn demo(&self, _threads: usize) -> Shown {
//!         let board = Board::new("a dot", Lattice::Square, vec![(0, 0, "A".into())], vec![]);
//!         Shown { kind: "solve", views: vec![View::Board(board)] }
//!     }
//!     fn read(&self, value: &Value) -> Result<Option<Shown>, DocError> {
//!         let Some(label) = value.get("label").and_then(Value::as_str) else { return Ok(None) };
//!         let board = Board::new("a dot", Lattice::Square, vec![(0, 0, label.into())], vec![]);
//!         Ok(Some(Shown { kind: "solve", views: vec![View::Board(board)] }))
//!     }
//!     fn read_records(&self, _lines: &[Value]) -> Result<Option<Shown>, DocError> {
//!         Ok(None)
//!     }
//! }
//!
//! let games: &[&dyn Game] = &[&Dot];
//! let doc = document(games, "dot.json", &json!({"game": "dot", "label": "B"}).to_string())?;
//! assert_eq!((doc.game.as_str(), doc.kind.as_str()), ("dot", "solve"));
//! let View::Board(board) = &doc.views[0] else { panic!("a board") };
//! assert_eq!(board.cells, [(0, 0, "B".to_string())]);
//! # Ok::<(), DocError>(())
//! ```

pub mod eval;
pub mod read;
pub mod svg;
pub mod tour;
pub mod view;

use serde_json::Value;

use crate::read::{DocError, describe, is_record, is_stop_mark, parse};
use crate::tour::Demo;
use crate::view::{Document, View};

/// A game: what the command line and the viewer need to know of it.
pub trait Game: Sync {
    /// Its name: its command (`tessera NAME`), and the `"game"` field of its JSON outputs.
    fn name(&self) -> &'static str;

    /// What its demonstration shows, in a few words (the viewer lists it).
    fn shows(&self) -> &'static str;

    /// Its entries in `tessera tour`: default instances solved now on `threads` workers, each
    /// with its timing and whether its result is the known answer.
    fn tour(&self, threads: usize) -> Vec<Demo>;

    /// Its demonstration, solved now on `threads` workers, as views.
    fn demo(&self, threads: usize) -> Shown;

    /// One of its JSON documents (what `solve --json`, `eval --json` and the like write) as
    /// views; `Ok(None)` if the value is none of its documents.
    fn read(&self, value: &Value) -> Result<Option<Shown>, DocError>;

    /// The job records of one of its evaluation runs (`eval --jsonl`, one value a line) as
    /// views; `Ok(None)` if they are not its records.
    fn read_records(&self, lines: &[Value]) -> Result<Option<Shown>, DocError>;

    /// Whether a document without a `"game"` field (written before outputs carried one) is
    /// surely this game's, to be read by it before any other game tries: for a game whose
    /// documents another game's reader could take for its own.
    fn claims(&self, _value: &Value) -> bool {
        false
    }
}

/// What a game makes of a result or of its demonstration: the kind of result (`solve`, `eval`,
/// ...) and its views, in order.
#[derive(Clone, Debug)]
pub struct Shown {
    /// What kind of result it is.
    pub kind: &'static str,
    /// Its views.
    pub views: Vec<View>,
}

/// The game of that name in a registry.
pub fn find<'g>(games: &[&'g dyn Game], name: &str) -> Option<&'g dyn Game> {
    games.iter().copied().find(|g| g.name() == name)
}

/// Reads a file's text as a document named `name`: a game's JSON document, or the job records
/// of an evaluation run (JSON lines; the stop mark a stopped run ends with is skipped). The
/// game is the one its `"game"` field names, or for files without one, the first game that
/// claims it (see [`Game::claims`]) or reads it.
pub fn document(games: &[&dyn Game], name: &str, text: &str) -> Result<Document, DocError> {
    let mut values = parse(text)?;
    // A stopped run's last line says how far it got: not a record.
    if values.len() > 1 && values.last().is_some_and(is_stop_mark) {
        values.pop();
    }
    let (game, shown) = match values.as_slice() {
        // An evaluation of one job writes one line: a record still.
        [one] if is_record(one) => from_records(games, &values)?,
        [one] => from_value(games, one)?,
        lines => from_records(games, lines)?,
    };
    Ok(Document { name: name.to_string(), game: game.to_string(), kind: shown.kind.to_string(), views: shown.views })
}

/// The demonstration of the game `name`, solved now; `None` if the registry has no such game.
pub fn demo(games: &[&dyn Game], name: &str, threads: usize) -> Option<Document> {
    let game = find(games, name)?;
    let shown = game.demo(threads);
    Some(Document {
        name: format!("{name} demo"),
        game: name.to_string(),
        kind: shown.kind.to_string(),
        views: shown.views,
    })
}

/// The game a value names in its `"game"` field, if it names one of the registry's.
fn named<'g>(games: &[&'g dyn Game], v: &Value) -> Option<&'g dyn Game> {
    find(games, v.get("game")?.as_str()?)
}

/// One JSON document: read by the game it names, else by the first that claims it or reads it.
fn from_value(games: &[&dyn Game], v: &Value) -> Result<(&'static str, Shown), DocError> {
    if let Some(game) = named(games, v) {
        return match game.read(v)? {
            Some(shown) => Ok((game.name(), shown)),
            None => {
                Err(DocError::Malformed { game: game.name(), why: format!("not one of its results ({})", describe(v)) })
            }
        };
    }
    let claimed = games.iter().filter(|g| g.claims(v));
    for game in claimed.chain(games.iter().filter(|g| !g.claims(v))) {
        if let Some(shown) = game.read(v)? {
            return Ok((game.name(), shown));
        }
    }
    Err(DocError::Unknown(describe(v)))
}

/// Job records of an evaluation run: read by the game the first names, else by the first game
/// that claims them or reads them.
fn from_records(games: &[&dyn Game], lines: &[Value]) -> Result<(&'static str, Shown), DocError> {
    let first = lines.first().ok_or_else(|| DocError::Unknown("an empty file".into()))?;
    if !is_record(first) && !games.iter().any(|g| g.claims(first)) {
        return Err(DocError::Unknown(format!("several JSON values, but not job records: {}", describe(first))));
    }
    if let Some(game) = named(games, first) {
        return match game.read_records(lines)? {
            Some(shown) => Ok((game.name(), shown)),
            None => Err(DocError::Malformed {
                game: game.name(),
                why: format!("line 1 is not one of its job records ({})", describe(first)),
            }),
        };
    }
    let claimed = games.iter().filter(|g| g.claims(first));
    for game in claimed.chain(games.iter().filter(|g| !g.claims(first))) {
        if let Some(shown) = game.read_records(lines)? {
            return Ok((game.name(), shown));
        }
    }
    Err(DocError::Unknown(format!("job records of an unknown game: {}", describe(first))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Charts;

    /// A game whose results are objects with a key of its name, and whose records are
    /// `{"job", "seed", NAME: ...}` lines: two of them read the same files but for that key.
    struct Keyed(&'static str);

    impl Keyed {
        fn shown(&self, kind: &'static str, n: usize) -> Shown {
            let title = format!("{} {n}", self.0);
            Shown { kind, views: vec![View::Charts(Charts { title, figures: vec![], charts: vec![] })] }
        }
    }

    impl Game for Keyed {
        fn name(&self) -> &'static str {
            self.0
        }
        fn shows(&self) -> &'static str {
            "nothing"
        }
        fn tour(&self, _threads: usize) -> Vec<Demo> {
            Vec::new()
        }
        fn demo(&self, _threads: usize) -> Shown {
            self.shown("demo", 0)
        }
        fn read(&self, value: &Value) -> Result<Option<Shown>, DocError> {
            Ok(value.get(self.0).map(|_| self.shown("solve", 1)))
        }
        fn read_records(&self, lines: &[Value]) -> Result<Option<Shown>, DocError> {
            Ok(lines.iter().all(|l| l.get(self.0).is_some()).then(|| self.shown("eval", lines.len())))
        }
        fn claims(&self, value: &Value) -> bool {
            self.0 == "b" && value.get("claim").is_some()
        }
    }

    static GAMES: &[&dyn Game] = &[&Keyed("a"), &Keyed("b")];

    fn title(doc: &Document) -> &str {
        let View::Charts(c) = &doc.views[0] else { panic!("charts") };
        &c.title
    }

    #[test]
    fn the_game_field_decides_then_claims_then_order() {
        let both = r#"{"a": 1, "b": 1}"#;
        assert_eq!(document(GAMES, "x", both).unwrap().game, "a", "the first that reads it");
        let named = r#"{"game": "b", "a": 1, "b": 1}"#;
        assert_eq!(document(GAMES, "x", named).unwrap().game, "b", "the game it names");
        let claimed = r#"{"claim": true, "a": 1, "b": 1}"#;
        assert_eq!(document(GAMES, "x", claimed).unwrap().game, "b", "the game that claims it");
        // Named, but not one of that game's results: said so, not read by another.
        let wrong = r#"{"game": "b", "a": 1}"#;
        assert!(matches!(document(GAMES, "x", wrong), Err(DocError::Malformed { game: "b", .. })));
        assert_eq!(demo(GAMES, "b", 1).unwrap().name, "b demo");
        assert!(demo(GAMES, "c", 1).is_none());
    }

    #[test]
    fn a_stopped_runs_records_read_without_its_stop_mark() {
        let lines = [
            r#"{"job": 0, "of": 3, "base_seed": 1, "seed": 5, "a": 1}"#,
            r#"{"job": 1, "of": 3, "base_seed": 1, "seed": 6, "a": 2}"#,
            r#"{"stopped": "interrupted", "shard": "1/1", "done": 2, "jobs": 3}"#,
        ];
        let doc = document(GAMES, "run.jsonl", &lines.join("\n")).unwrap();
        assert_eq!((doc.game.as_str(), doc.kind.as_str(), title(&doc)), ("a", "eval", "a 2"));
        let one = document(GAMES, "one.jsonl", lines[0]).unwrap();
        assert_eq!(title(&one), "a 1");
    }

    #[test]
    fn unknown_and_broken_files_say_why() {
        let none: &[&dyn Game] = &[];
        assert!(matches!(document(none, "x", "{\"a\": 1}"), Err(DocError::Unknown(_))));
        assert!(
            matches!(document(none, "x", "{\"a\": 1}\n{oops"), Err(DocError::NotJson(e)) if e.starts_with("line 2"))
        );
        assert!(matches!(document(none, "x", ""), Err(DocError::Unknown(_))));
        assert!(matches!(document(none, "x", "[1, 2]"), Err(DocError::Unknown(_))));
        assert!(
            matches!(document(none, "x", "{\"job\": 0, \"seed\": 1}"), Err(DocError::Unknown(e)) if e.contains("job records"))
        );
    }
}
