//! viewer: a local web page for tessera's results: boards, replays and evaluation plots.
//!
//! Every game's results (the JSON that `solve`, `eval --json` and `eval --jsonl` write) are turned
//! into a few generic [`view`]s by [`games`]; the [`server`] serves a page that draws them (and
//! solves a game's demonstration on request); [`report`] writes one document as a self-contained
//! HTML file. The page is plain HTML, CSS and JavaScript embedded in the binary: no build step,
//! no network.
//!
//! Turn a game's JSON output into a document and write it as one self-contained page:
//!
//! ```
//! use tessera_core::runtime::Budget;
//! use tessera_tiling::{Tiler, builtin, report::CountReport};
//!
//! let puzzle = builtin("pentomino-3x20").expect("a shipped puzzle");
//! let tiler = Tiler::new(&puzzle.problem)?;
//! let counts = tiler.count(1, &Budget::unlimited());
//! let json = serde_json::to_string(&CountReport::new(&puzzle, &tiler, &counts, None, 1))?;
//! let doc = tessera_viewer::document("pentominoes 3x20", &json)?;
//! assert_eq!(doc.game, "tiling");
//! std::fs::write(std::env::temp_dir().join("counts.html"), tessera_viewer::report::html(&doc))?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod games;
pub mod report;
pub mod server;
pub mod view;

pub use games::{DocError, demo, document};
pub use server::Viewer;
pub use view::Document;

/// The page.
pub const ASSET_HTML: &str = include_str!("../assets/index.html");
/// Its script.
pub const ASSET_JS: &str = include_str!("../assets/viewer.js");
/// Its style.
pub const ASSET_CSS: &str = include_str!("../assets/viewer.css");
