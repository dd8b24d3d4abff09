//! viewer: a local web page for tessera's results: boards, replays and evaluation plots.
//!
//! The games' results (the JSON that `solve`, `eval --json` and `eval --jsonl` write) become
//! documents of a few generic views ([`tessera_game::view`]), each game reading its own (see
//! [`tessera_game::Game`]); the [`server`] serves a page that draws them and solves a game's
//! demonstration on request, for the games of the registry it is given; [`report`] writes one
//! document as a self-contained HTML file. The viewer knows no game of its own. The page is plain
//! HTML, CSS and JavaScript embedded in the binary: no build step, no network.
//!
//! A document written as one self-contained page:
//!
//! ```
//! use tessera_game::view::{Charts, Document, View};
//!
//! let figures = vec![("tilings".to_string(), "2339".to_string())];
//! let charts = Charts { title: "pentominoes 6x10".into(), figures, charts: Vec::new() };
//! let doc = Document { name: "counts".into(), game: "tiling".into(), kind: "count".into(), views: vec![View::Charts(charts)] };
//! let page = tessera_viewer::report::html(&doc);
//! assert!(page.contains("pentominoes 6x10") && page.starts_with("<!DOCTYPE html>"));
//! ```

pub mod report;
pub mod server;

pub use server::Viewer;
pub use tessera_game::view::{self, Document};

/// The page.
pub const ASSET_HTML: &str = include_str!("../assets/index.html");
/// Its script.
pub const ASSET_JS: &str = include_str!("../assets/viewer.js");
/// Its style.
pub const ASSET_CSS: &str = include_str!("../assets/viewer.css");
