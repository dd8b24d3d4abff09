//! What the page draws: a handful of generic views that every game's results are turned into.
//!
//! * [`Board`]: one labelled board (square or hex cells), with a caption;
//! * [`Replay`]: a board that changes step by step (a solution's moves, or a list of
//!   solutions), each step a few cells set or cleared, with an optional command string whose
//!   current position and highlighted stretches (phrases) follow the steps;
//! * [`Charts`]: an evaluation run: key figures, rates with their intervals, histograms.
//!
//! Colours are chosen here, per label, as the SVG pictures choose them, so that the page and
//! `--svg` agree.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tessera_core::geometry::Lattice;
use tessera_core::stats::Rate;
use tessera_core::svg::label_colour;

/// A document: what one file (or one demonstration) shows.
#[derive(Clone, Debug, Serialize)]
pub struct Document {
    /// Where it came from (a file name, or `demo`).
    pub name: String,
    /// The game.
    pub game: String,
    /// What kind of result it is (`solve`, `eval`, ...).
    pub kind: String,
    /// Its views, in order.
    pub views: Vec<View>,
}

/// One view.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "view", rename_all = "lowercase")]
pub enum View {
    /// A board.
    Board(Board),
    /// A board changing step by step.
    Replay(Replay),
    /// Figures and plots of an evaluation.
    Charts(Charts),
}

/// A cell: column, row (row 0 at the top), label.
pub type Cell = (i32, i32, String);

/// A labelled board.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    /// A title.
    pub title: String,
    /// `square` or `hex` (offset rows, odd rows shifted right).
    pub lattice: &'static str,
    /// The cells; label `.` is an empty cell.
    pub cells: Vec<Cell>,
    /// Cells drawn with a heavy outline (left-over tiles, say).
    pub marks: Vec<(i32, i32)>,
    /// Lines under the board (score, box, ...).
    pub caption: Vec<String>,
    /// Colour of every label.
    pub palette: BTreeMap<String, String>,
}

/// One step of a replay.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Step {
    /// Cells that get a label.
    pub set: Vec<Cell>,
    /// Cells that become empty (`.`).
    pub clear: Vec<(i32, i32)>,
    /// Cells outlined while this step is shown.
    pub marks: Vec<(i32, i32)>,
    /// What happened, in a few words (the score so far, ...).
    pub caption: String,
    /// Position in the replay's text reached after this step.
    pub text_at: Option<usize>,
}

/// A board changing step by step.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// A title.
    pub title: String,
    /// `square` or `hex`.
    pub lattice: &'static str,
    /// The board before the first step.
    pub start: Vec<Cell>,
    /// The steps.
    pub steps: Vec<Step>,
    /// The command string being replayed, if any.
    pub text: Option<String>,
    /// Stretches of the text to highlight (`[start, end)`, byte offsets): phrases.
    pub highlights: Vec<(usize, usize)>,
    /// What a step is called in the controls (`move`, `solution`, ...).
    pub unit: String,
    /// Colour of every label.
    pub palette: BTreeMap<String, String>,
}

/// Figures and plots of an evaluation.
#[derive(Clone, Debug, Serialize)]
pub struct Charts {
    /// A title.
    pub title: String,
    /// Key figures as `(name, value)` lines.
    pub figures: Vec<(String, String)>,
    /// The plots.
    pub charts: Vec<Chart>,
}

/// One plot.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "chart", rename_all = "lowercase")]
pub enum Chart {
    /// Rates with their 95% intervals, one bar per row.
    Rates {
        /// A title.
        title: String,
        /// `(label, rate)` rows.
        rows: Vec<(String, Rate)>,
    },
    /// A histogram of values.
    Histogram {
        /// A title.
        title: String,
        /// The values' unit (`ms`, `points`).
        unit: String,
        /// The values.
        values: Vec<f64>,
        /// A reference value drawn as a line, with its name (a target, an optimum).
        reference: Option<(String, f64)>,
    },
}

/// The name of a lattice in views.
pub fn lattice_name(lattice: Lattice) -> &'static str {
    match lattice {
        Lattice::Square => "square",
        Lattice::Hex => "hex",
    }
}

/// The colours of labels, in sorted order as [`tessera_core::svg::board_svg`] gives them; `.` is
/// left to the page (empty cells).
pub fn palette<'a>(labels: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
    let set: BTreeSet<&str> = labels.into_iter().filter(|&l| l != ".").collect();
    set.into_iter().enumerate().map(|(k, l)| (l.to_string(), label_colour(k))).collect()
}

impl Board {
    /// A board of cells, its palette from its labels.
    pub fn new(title: impl Into<String>, lattice: Lattice, cells: Vec<Cell>, caption: Vec<String>) -> Board {
        let palette = palette(cells.iter().map(|c| c.2.as_str()));
        Board { title: title.into(), lattice: lattice_name(lattice), cells, marks: Vec::new(), caption, palette }
    }
}

impl Replay {
    /// A replay, its palette from every label it shows.
    pub fn new(title: impl Into<String>, lattice: Lattice, start: Vec<Cell>, steps: Vec<Step>, unit: &str) -> Replay {
        let labels = start.iter().chain(steps.iter().flat_map(|s| &s.set)).map(|c| c.2.as_str());
        let palette = palette(labels);
        Replay {
            title: title.into(),
            lattice: lattice_name(lattice),
            start,
            steps,
            text: None,
            highlights: Vec::new(),
            unit: unit.to_string(),
            palette,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_are_tagged_for_the_page() {
        let b = Board::new("t", Lattice::Hex, vec![(0, 0, "A".into()), (1, 0, ".".into())], vec!["x".into()]);
        let v = serde_json::to_value(View::Board(b)).unwrap();
        assert_eq!(v["view"], "board");
        assert_eq!(v["lattice"], "hex");
        assert_eq!(v["cells"][0], serde_json::json!([0, 0, "A"]));
        assert_eq!(v["palette"].as_object().unwrap().len(), 1, "empty cells have no colour of their own");
        let c = Chart::Rates { title: "r".into(), rows: vec![("level 5".into(), Rate::new(3, 4))] };
        let v = serde_json::to_value(c).unwrap();
        assert_eq!((v["chart"].as_str(), v["rows"][0][1]["successes"].as_u64()), (Some("rates"), Some(3)));
    }

    #[test]
    fn palettes_match_the_svg_pictures() {
        let p = palette(["B", "A", ".", "A"]);
        assert_eq!(p.keys().collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(p["A"], label_colour(0));
    }
}
