//! The documents a viewer holds, each written as JSON once: the files named on the command line
//! and the games' demonstrations (kept as long as the server runs), and the latest uploads (the
//! oldest dropped beyond [`MAX_UPLOADS`] of them or [`MAX_UPLOAD_BYTES`] of JSON).
//!
//! Ids are never reused: a dropped upload's id answers "no document" from then on.

use std::sync::Arc;

use serde_json::json;

use crate::view::Document;

/// Most uploads held at once: beyond them, the oldest is dropped.
pub const MAX_UPLOADS: usize = 64;

/// Most bytes of JSON the uploads held take at once: beyond them, the oldest are dropped (the
/// latest upload is always kept).
pub const MAX_UPLOAD_BYTES: usize = 256 << 20;

/// Where a document came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A file named on the command line: never dropped.
    File,
    /// A game's demonstration: solved once, never dropped.
    Demo,
    /// Opened from the page: the oldest are dropped.
    Upload,
}

/// A document as held: what the listing says of it, and its JSON.
#[derive(Debug)]
pub(crate) struct Held {
    /// Its id in the listing and in `/api/documents/ID`.
    pub id: usize,
    /// The document's name, game and kind.
    pub name: String,
    pub game: String,
    pub kind: String,
    /// The whole document as JSON, answered as it is.
    pub json: Arc<[u8]>,
    source: Source,
}

/// The documents held, in the order they came.
#[derive(Debug, Default)]
pub(crate) struct Library {
    held: Vec<Arc<Held>>,
    next_id: usize,
}

impl Library {
    /// A library of the files named on the command line.
    pub fn new(files: Vec<Document>) -> Library {
        let mut library = Library::default();
        for d in &files {
            library.add(d, Source::File);
        }
        library
    }

    /// Holds a document; uploads beyond the limits are dropped, the oldest first.
    pub fn add(&mut self, d: &Document, source: Source) -> Arc<Held> {
        let json: Arc<[u8]> = serde_json::to_vec(d).unwrap_or_else(|_| b"null".to_vec()).into();
        let held = Arc::new(Held {
            id: self.next_id,
            name: d.name.clone(),
            game: d.game.clone(),
            kind: d.kind.clone(),
            json,
            source,
        });
        self.next_id += 1;
        self.held.push(Arc::clone(&held));
        if source == Source::Upload {
            self.drop_oldest_uploads();
        }
        held
    }

    /// Drops the oldest uploads until the rest are within the limits (the latest is kept).
    fn drop_oldest_uploads(&mut self) {
        loop {
            let uploads = self.held.iter().filter(|h| h.source == Source::Upload);
            let (count, bytes) = uploads.fold((0, 0), |(n, b), h| (n + 1, b + h.json.len()));
            if count <= 1 || (count <= MAX_UPLOADS && bytes <= MAX_UPLOAD_BYTES) {
                return;
            }
            if let Some(oldest) = self.held.iter().position(|h| h.source == Source::Upload) {
                self.held.remove(oldest);
            }
        }
    }

    /// The document of this id, if it is held.
    pub fn get(&self, id: usize) -> Option<Arc<Held>> {
        self.held.iter().find(|h| h.id == id).cloned()
    }

    /// `[{id, name, game, kind}]`, in the order they came.
    pub fn listing(&self) -> serde_json::Value {
        json!(
            self.held
                .iter()
                .map(|h| json!({"id": h.id, "name": h.name, "game": h.game, "kind": h.kind}))
                .collect::<Vec<_>>()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str) -> Document {
        Document { name: name.into(), game: "totems".into(), kind: "solve".into(), views: Vec::new() }
    }

    #[test]
    fn the_oldest_uploads_are_dropped_files_and_demos_kept() {
        let mut library = Library::new(vec![doc("file")]);
        library.add(&doc("demo"), Source::Demo);
        let ids: Vec<usize> =
            (0..MAX_UPLOADS + 3).map(|k| library.add(&doc(&format!("u{k}")), Source::Upload).id).collect();
        assert_eq!(ids[0], 2, "ids go on from the files and the demonstration");
        assert_eq!(library.held.len(), 2 + MAX_UPLOADS);
        assert!(library.get(0).is_some() && library.get(1).is_some(), "the file and the demonstration stay");
        assert!(library.get(ids[2]).is_none() && library.get(ids[3]).is_some(), "the three oldest uploads went");
        assert_eq!(library.get(ids[3]).unwrap().name, "u3");
        let listing = library.listing();
        assert_eq!(listing[0]["name"], "file");
        assert_eq!(listing[2]["id"], ids[3]);
        let back: serde_json::Value = serde_json::from_slice(&library.get(0).unwrap().json).unwrap();
        assert_eq!(back["name"], "file");
    }
}
