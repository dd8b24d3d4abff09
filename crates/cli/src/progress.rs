//! Progress on stderr, one look for every long run (evaluations, long tiling counts, the exact
//! optimum's states, hextris's problems), drawn only when stderr is a terminal (at most ten times
//! a second). The libraries only count, through callbacks and counters; this is where it is
//! drawn.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

/// The bar being drawn, if any: lines said meanwhile go above it.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// A bar for `total` steps named `label`: on stderr if it is a terminal, hidden otherwise. Call
/// [`done`] when the run ends.
pub fn bar(label: &str, total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(style("{prefix} [{bar:30}] {pos}/{len} {elapsed} eta {eta}  {msg}"));
    bar.set_prefix(label.to_string());
    *shown() = Some(bar.clone());
    bar
}

/// Clears a bar when its run ends.
pub fn done(bar: &ProgressBar) {
    bar.finish_and_clear();
    *shown() = None;
}

/// Writes a line on stderr, above the bar if one is drawn.
pub fn line(text: &str) {
    match shown().as_ref() {
        Some(bar) if !bar.is_hidden() => bar.println(text),
        _ => eprintln!("{text}"),
    }
}

fn shown() -> std::sync::MutexGuard<'static, Option<ProgressBar>> {
    SHOWN.lock().unwrap_or_else(|e| e.into_inner())
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()).progress_chars("#> ")
}
