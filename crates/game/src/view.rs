//! What the page draws: a handful of generic views that every game's results are turned into.
//!
//! * [`Board`]: one labelled board (square or hex cells), with a caption;
//! * [`Replay`]: a board that changes step by step (a solution's moves, or a list of
//!   solutions), each step a few cells set or cleared, with an optional command string whose
//!   current position and highlighted stretches (phrases) follow the steps;
//! * [`Charts`]: an evaluation run: key figures, rates with their intervals, histograms, bars
//!   (values split in parts, against a reference).
//!
//! Colours are chosen here, per label, as the SVG pictures choose them, so that the page and
//! `--svg` agree.

use std::collections::{BTreeMap, BTreeSet};

use crate::svg::{label_colour, outline_path};
use serde::Serialize;
use tessera_core::geometry::Lattice;
use tessera_core::stats::Rate;

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
    /// The pieces' outlines, as SVG path data in the page's coordinates (see
    /// [`crate::svg::outline_path`]): pieces of one label side by side told apart.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub outline: String,
    /// Lines under the board (score, box, ...).
    pub caption: Vec<String>,
    /// Colour of every label.
    pub palette: BTreeMap<String, String>,
    /// Whether labels are written in their cells (colours alone when not).
    pub labels: bool,
}

/// One step of a replay. Empty fields are left out of the JSON: long replays stay small.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Step {
    /// Cells that get a label.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<Cell>,
    /// Cells that become empty (`.`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clear: Vec<(i32, i32)>,
    /// Cells outlined while this step is shown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<(i32, i32)>,
    /// What happened, in a few words.
    pub caption: String,
    /// Position in the replay's text reached after this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_at: Option<usize>,
    /// The score after this step, for games that keep one (shown beside the controls).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
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
    /// Whether the last step is the verdict (the tiles left, the scorecard) rather than one more
    /// unit: the controls count the units without it.
    pub verdict: bool,
    /// Colour of every label.
    pub palette: BTreeMap<String, String>,
    /// Whether labels are written in their cells (colours alone when not).
    pub labels: bool,
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
    /// One bar per row, each split in parts (stacked, one colour per part), with an optional
    /// reference value per row drawn as a tick (a best known score, say).
    Bars {
        /// A title.
        title: String,
        /// The names of the parts, in stacking order (the legend).
        parts: Vec<String>,
        /// The name of the reference ticks, if any row has one.
        reference: Option<String>,
        /// The rows.
        rows: Vec<Bar>,
    },
}

/// One row of a [`Chart::Bars`].
#[derive(Clone, Debug, Serialize)]
pub struct Bar {
    /// The row's label.
    pub label: String,
    /// The value of each part, in the chart's order.
    pub values: Vec<f64>,
    /// The reference value, if known.
    pub reference: Option<f64>,
    /// A note written after the bar (the figures, say).
    pub note: String,
}

/// The name of a lattice in views: how the page draws its cells (cube and prism layers are
/// drawn side by side, as squares and as triangles).
pub(crate) fn lattice_name(lattice: Lattice) -> &'static str {
    match lattice {
        Lattice::Square | Lattice::Cube => "square",
        Lattice::Hex => "hex",
        Lattice::Triangle | Lattice::Prism => "triangle",
    }
}

/// The lattice of a name in views.
fn lattice_of(name: &str) -> Lattice {
    match name {
        "hex" => Lattice::Hex,
        "triangle" => Lattice::Triangle,
        _ => Lattice::Square,
    }
}

/// The colours of labels, in sorted order as [`crate::svg::board_svg`] gives them; `.` is
/// left to the page (empty cells).
pub(crate) fn palette<'a>(labels: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
    let set: BTreeSet<&str> = labels.into_iter().filter(|&l| l != ".").collect();
    set.into_iter().enumerate().map(|(k, l)| (l.to_string(), label_colour(k))).collect()
}

impl Board {
    /// The board with these pieces (each the cells it covers) outlined.
    pub fn outlined(mut self, pieces: &[Vec<(i32, i32)>]) -> Board {
        self.outline = outline_path(lattice_of(self.lattice), pieces);
        self
    }

    /// A board of cells, its palette from its labels.
    pub fn new(title: impl Into<String>, lattice: Lattice, cells: Vec<Cell>, caption: Vec<String>) -> Board {
        let palette = palette(cells.iter().map(|c| c.2.as_str()));
        Board {
            title: title.into(),
            lattice: lattice_name(lattice),
            cells,
            marks: Vec::new(),
            outline: String::new(),
            caption,
            palette,
            labels: true,
        }
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
            verdict: false,
            palette,
            labels: true,
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
    fn empty_step_fields_are_left_out() {
        let s = Step { caption: "c".into(), score: Some(7), ..Step::default() };
        assert_eq!(serde_json::to_value(&s).unwrap(), serde_json::json!({"caption": "c", "score": 7}));
        let bars = Chart::Bars {
            title: "t".into(),
            parts: vec!["move".into(), "power".into()],
            reference: Some("best".into()),
            rows: vec![Bar { label: "6".into(), values: vec![1.0, 2.0], reference: None, note: String::new() }],
        };
        let v = serde_json::to_value(bars).unwrap();
        assert_eq!((v["chart"].as_str(), v["rows"][0]["values"][1].as_f64()), (Some("bars"), Some(2.0)));
    }

    #[test]
    fn palettes_match_the_svg_pictures() {
        let p = palette(["B", "A", ".", "A"]);
        assert_eq!(p.keys().collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(p["A"], label_colour(0));
    }
}
