//! Progress on stderr, one look for every long run (evaluations, the exact optimum's states),
//! drawn only when stderr is a terminal (at most ten times a second). The libraries only count,
//! through callbacks; this is where it is drawn.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar for `total` steps named `label`: on stderr if it is a terminal, hidden otherwise.
pub fn bar(label: &str, total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed} eta {eta}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style.progress_chars("#> "));
    bar.set_message(label.to_string());
    bar
}
