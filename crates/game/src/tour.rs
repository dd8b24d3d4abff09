//! The shape of a game's entry in `tessera tour` (a default instance, solved, with its result),
//! and small helpers for what the games print.

use serde::Serialize;

/// One demonstration: which game, which instance, what came out, how long it took.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Demo {
    /// The game (crate) name.
    pub game: &'static str,
    /// The instance solved.
    pub instance: String,
    /// The result in a few words (a count, a score).
    pub result: String,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Whether the result is the known answer (or passes the game's own check).
    pub ok: bool,
}

impl Demo {
    /// The demonstration's line with another last word than `ok` or `FAILED` (such as
    /// `stopped`).
    pub fn line(&self, status: &str) -> String {
        format!(
            "{:<8} {:<22} {:<36} {:>9.1} ms  {status}",
            self.game,
            self.instance,
            self.result,
            self.seconds * 1000.0
        )
    }
}

impl std::fmt::Display for Demo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line(if self.ok { "ok" } else { "FAILED" }))
    }
}

/// `n` and the word for one or for several: `plural(1, "piece", "pieces")` is `1 piece`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
