//! Counts split across machines: the JSON line each shard writes (`tiling solve --count --shard
//! I/N`), and their merge (`tiling solve --merge FILE...`).
//!
//! Each shard counts the tilings below its share of a split of the search
//! ([`Tiler::count_shard`]). The merge refuses lines of different counts (their fingerprints
//! differ: another puzzle, engine or number of shards), sums the raw counts and the numerators
//! of the distinct count, and says which shards are missing or were stopped: only when every
//! shard is in, complete, are the sums the puzzle's counts.
//!
//! ```
//! use tessera_core::shard::Shard;
//! use tessera_core::runtime::Budget;
//! use tessera_tiling::shards::{ShardLine, merge};
//! use tessera_tiling::{Tiler, builtin};
//!
//! let puzzle = builtin("pentomino-3x20").expect("a shipped puzzle");
//! let tiler = Tiler::new(&puzzle.problem)?;
//! let line = |index| -> Result<ShardLine, Box<dyn std::error::Error>> {
//!     let counts = tiler.count_shard(Shard { index, count: 2 }, 1, &Budget::unlimited(), None)?;
//!     Ok(ShardLine::new(&puzzle, &tiler, &counts, 1))
//! };
//! let lines = vec![("a".to_string(), line(1)?), ("b".to_string(), line(2)?)];
//! let merged = merge(&lines)?;
//! assert!(merged.complete);
//! assert_eq!((merged.raw, merged.distinct), (8, 2));
//! assert!(!merge(&lines[..1])?.complete, "shard 2/2 is missing");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use tessera_core::runtime::{Outcome, StopReason};
use tessera_core::shard::Shard;
use tessera_polyform::tiler::{EngineKind, ShardCounts, Tiler};

use crate::puzzle::Puzzle;
use crate::report::engine_by_name;

/// What one shard of a count writes: one line of JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardLine {
    /// The puzzle's name.
    pub puzzle: String,
    /// The fingerprint of the puzzle, engine and split (16 hex digits): lines with different
    /// fingerprints are shares of different counts.
    pub fingerprint: String,
    /// Which shard, `I/N`.
    pub shard: String,
    /// The engine that counted.
    #[serde(deserialize_with = "engine_by_name")]
    pub engine: EngineKind,
    /// Prefixes of the whole split.
    pub prefixes: usize,
    /// Prefixes of this shard.
    pub shard_prefixes: usize,
    /// Prefixes of this shard searched to their end.
    pub done: usize,
    /// Tilings counted.
    pub raw: u128,
    /// The sum of the stabiliser sizes of the tilings counted: the sum over every shard,
    /// divided by `group`, is the number of tilings up to symmetry.
    pub numerator: u128,
    /// Number of board symmetries (1: none).
    pub group: u64,
    /// Whether the shard finished: a stopped shard's counts are a part of its share only.
    pub complete: bool,
    /// Why the shard stopped early (Ctrl-C, the time budget), if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// Wall time in seconds (building the tables included).
    pub seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// The raw count the puzzle file states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_raw: Option<u128>,
    /// The distinct count the puzzle file states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_distinct: Option<u128>,
}

impl ShardLine {
    /// The line of a shard's counts.
    #[must_use]
    pub fn new(puzzle: &Puzzle, tiler: &Tiler, counts: &ShardCounts, threads: usize) -> Self {
        ShardLine {
            puzzle: puzzle.name.clone(),
            fingerprint: format!("{:016x}", counts.fingerprint),
            shard: Shard { index: counts.shard, count: counts.of }.to_string(),
            engine: tiler.engine(),
            prefixes: counts.prefixes,
            shard_prefixes: counts.shard_prefixes,
            done: counts.done,
            raw: counts.raw,
            numerator: counts.numerator,
            group: counts.group,
            complete: counts.outcome.is_complete(),
            stop_reason: match counts.outcome {
                Outcome::Complete => None,
                Outcome::Stopped(r) => Some(r),
            },
            seconds: counts.seconds,
            threads,
            expected_raw: puzzle.expect.raw,
            expected_distinct: puzzle.expect.distinct,
        }
    }

    /// The shard, checked.
    fn parsed_shard(&self) -> Result<Shard, String> {
        self.shard.parse()
    }

    /// The fingerprint and what it stands for, in words.
    fn describe(&self) -> String {
        format!(
            "fingerprint {}: {}, {:?} engine, {} shards of {} prefixes",
            self.fingerprint,
            self.puzzle,
            self.engine,
            self.shard_count(),
            self.prefixes
        )
    }

    fn shard_count(&self) -> u64 {
        self.parsed_shard().map_or(0, |s| s.count)
    }
}

/// Why shard lines cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// A line is not a shard line (`at` is `source:line`).
    #[error("{at}: not a line of `tiling solve --count --shard`: {message}")]
    BadLine {
        /// Where.
        at: String,
        /// What is wrong.
        message: String,
    },
    /// A line of another count than the first line's.
    #[error("{at}: a shard of another count ({this}), not of the first line's ({first})")]
    Mixed {
        /// Where the line is.
        at: String,
        /// Its fingerprint and what it stands for.
        this: String,
        /// The first line's, and where it is.
        first: String,
    },
    /// One shard counted twice, to different counts.
    #[error("{at}: shard {shard} again, with other counts than at {first_at}")]
    Conflict {
        /// Where the second line is.
        at: String,
        /// The shard.
        shard: String,
        /// Where the first one is.
        first_at: String,
    },
    /// Nothing to merge.
    #[error("no shard lines to merge")]
    Empty,
}

/// Reads the shard lines of one source (a file, say, named `name`): one JSON line each, blank
/// lines skipped; errors name `name:line`.
pub fn read_lines(name: &str, reader: impl BufRead) -> Result<Vec<(String, ShardLine)>, MergeError> {
    let mut out = Vec::new();
    for (k, line) in reader.lines().enumerate() {
        let at = format!("{name}:{}", k + 1);
        let bad = |message: String| MergeError::BadLine { at: at.clone(), message };
        let line = line.map_err(|e| bad(e.to_string()))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: ShardLine = serde_json::from_str(&line).map_err(|e| bad(e.to_string()))?;
        parsed.parsed_shard().map_err(bad)?;
        out.push((at, parsed));
    }
    Ok(out)
}

/// A shard that stopped before its end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoppedShard {
    /// Which shard, `I/N`.
    pub shard: String,
    /// Why it stopped.
    pub reason: Option<StopReason>,
    /// Its prefixes searched to their end.
    pub done: usize,
    /// Its prefixes.
    pub prefixes: usize,
}

/// The merge of a count's shard lines (`tiling solve --merge`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedCount {
    /// The puzzle's name (the first line's).
    pub puzzle: String,
    /// The count's fingerprint.
    pub fingerprint: String,
    /// Shards in all.
    pub shards: u64,
    /// Prefixes of the split.
    pub prefixes: usize,
    /// Number of board symmetries.
    pub group: u64,
    /// Shards that finished, whose counts are summed.
    pub counted: u64,
    /// Shards with no line (numbers from 1).
    pub missing: Vec<u64>,
    /// Shards that stopped early (their counts are left out).
    pub stopped: Vec<StoppedShard>,
    /// Whether every shard is in and finished: only then are the sums the puzzle's counts.
    pub complete: bool,
    /// Tilings of the shards counted.
    pub raw: u128,
    /// The sum of their numerators.
    pub numerator: u128,
    /// `numerator / group`: the tilings up to symmetry, when complete.
    pub distinct: u128,
    /// The shards' wall times added up.
    pub seconds: f64,
    /// The raw count the puzzle file states.
    pub expected_raw: Option<u128>,
    /// The distinct count the puzzle file states.
    pub expected_distinct: Option<u128>,
    /// Whether the counts match the stated ones (`None`: nothing stated, or incomplete).
    pub matches_expected: Option<bool>,
}

/// Merges shard lines (each with where it was read): all must have the first one's
/// fingerprint. A shard given twice counts once (a finished line over a stopped one); twice
/// finished with different counts is an error.
pub fn merge(lines: &[(String, ShardLine)]) -> Result<MergedCount, MergeError> {
    let Some((first_at, first)) = lines.first() else { return Err(MergeError::Empty) };
    let mut best: BTreeMap<u64, &(String, ShardLine)> = BTreeMap::new();
    for entry in lines {
        let (at, line) = entry;
        if line.fingerprint != first.fingerprint {
            return Err(MergeError::Mixed {
                at: at.clone(),
                this: line.describe(),
                first: format!("{}, {first_at}", first.describe()),
            });
        }
        let index = line.parsed_shard().map_err(|message| MergeError::BadLine { at: at.clone(), message })?.index;
        match best.get(&index) {
            Some((seen_at, seen)) if seen.complete && line.complete => {
                if (seen.raw, seen.numerator) != (line.raw, line.numerator) {
                    return Err(MergeError::Conflict {
                        at: at.clone(),
                        shard: line.shard.clone(),
                        first_at: seen_at.clone(),
                    });
                }
            }
            Some((_, seen)) if seen.complete || (!line.complete && seen.done >= line.done) => {}
            _ => {
                best.insert(index, entry);
            }
        }
    }
    Ok(summed(first, &best))
}

/// The sums over the finished shards, and what is missing or stopped.
fn summed(first: &ShardLine, best: &BTreeMap<u64, &(String, ShardLine)>) -> MergedCount {
    let shards = first.shard_count();
    let missing: Vec<u64> = (1..=shards).filter(|i| !best.contains_key(i)).collect();
    let (done, stopped): (Vec<&ShardLine>, Vec<&ShardLine>) = best.values().map(|(_, l)| l).partition(|l| l.complete);
    let stopped: Vec<StoppedShard> = stopped
        .iter()
        .map(|l| StoppedShard {
            shard: l.shard.clone(),
            reason: l.stop_reason,
            done: l.done,
            prefixes: l.shard_prefixes,
        })
        .collect();
    let raw = done.iter().map(|l| l.raw).sum();
    let numerator: u128 = done.iter().map(|l| l.numerator).sum();
    let group = first.group.max(1);
    let complete = missing.is_empty() && stopped.is_empty();
    let distinct = numerator / u128::from(group);
    let (er, ed) = (first.expected_raw, first.expected_distinct);
    let stated = er.is_some() || ed.is_some();
    MergedCount {
        puzzle: first.puzzle.clone(),
        fingerprint: first.fingerprint.clone(),
        shards,
        prefixes: first.prefixes,
        group,
        counted: done.len() as u64,
        missing,
        stopped,
        complete,
        raw,
        numerator,
        distinct,
        seconds: best.values().map(|(_, l)| l.seconds).sum(),
        expected_raw: er,
        expected_distinct: ed,
        matches_expected: (complete && stated).then(|| er.is_none_or(|r| r == raw) && ed.is_none_or(|d| d == distinct)),
    }
}

impl MergedCount {
    /// What keeps the sums from being the puzzle's counts (missing and stopped shards), in
    /// words; `None` when complete.
    #[must_use]
    pub fn shortfall(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            let listed: Vec<String> = self.missing.iter().take(10).map(|i| format!("{i}/{}", self.shards)).collect();
            let more = if self.missing.len() > 10 { ", ..." } else { "" };
            let what = if self.missing.len() == 1 { "shard is" } else { "shards are" };
            parts.push(format!("{} {what} missing ({}{more})", self.missing.len(), listed.join(", ")));
        }
        if !self.stopped.is_empty() {
            let what = if self.stopped.len() == 1 { "shard was" } else { "shards were" };
            let listed: Vec<String> = self.stopped.iter().take(10).map(|s| s.shard.clone()).collect();
            let more = if self.stopped.len() > 10 { ", ..." } else { "" };
            parts.push(format!("{} {what} stopped early ({}{more})", self.stopped.len(), listed.join(", ")));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// A message if the counts contradict the puzzle file.
    #[must_use]
    pub fn mismatch(&self) -> Option<String> {
        (self.matches_expected == Some(false)).then(|| {
            let stated = |x: Option<u128>| x.map_or("?".into(), |x| x.to_string());
            format!(
                "counts {} raw / {} distinct differ from the puzzle's stated {} raw / {} distinct",
                self.raw,
                self.distinct,
                stated(self.expected_raw),
                stated(self.expected_distinct)
            )
        })
    }
}

impl std::fmt::Display for MergedCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}: {} of {} shards counted ({} prefixes, fingerprint {})",
            self.puzzle, self.counted, self.shards, self.prefixes, self.fingerprint
        )?;
        if self.complete {
            writeln!(f, "tilings: {} ({} up to symmetry)", self.raw, self.distinct)?;
        } else {
            writeln!(f, "tilings: at least {} (the shards counted; up to symmetry: once all are in)", self.raw)?;
        }
        let mut text = String::new();
        for s in &self.stopped {
            let why = s.reason.map_or("stopped".into(), |r| format!("stopped ({r})"));
            let _ = writeln!(text, "shard {}: {why} after {} of {} prefixes, not counted", s.shard, s.done, s.prefixes);
        }
        f.write_str(&text)?;
        match self.matches_expected {
            Some(true) => writeln!(f, "expected: matches the puzzle's stated counts")?,
            Some(false) => writeln!(f, "expected: MISMATCH with the puzzle's stated counts")?,
            None => {}
        }
        writeln!(f, "time: {:.3} s in all shards", self.seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(shard: &str, raw: u128, complete: bool) -> (String, ShardLine) {
        let l = ShardLine {
            puzzle: "p".into(),
            fingerprint: "00000000000000ab".into(),
            shard: shard.into(),
            engine: EngineKind::Fast,
            prefixes: 12,
            shard_prefixes: 4,
            done: if complete { 4 } else { 1 },
            raw,
            numerator: raw * 2,
            group: 4,
            complete,
            stop_reason: (!complete).then_some(StopReason::Time),
            seconds: 1.0,
            threads: 1,
            expected_raw: None,
            expected_distinct: None,
        };
        (format!("f:{shard}"), l)
    }

    #[test]
    fn sums_only_finished_shards_and_names_the_rest() {
        let m = merge(&[line("1/3", 10, true), line("3/3", 6, false), line("3/3", 6, false)]).unwrap();
        assert_eq!((m.raw, m.numerator, m.counted, m.complete), (10, 20, 1, false));
        assert_eq!(m.missing, vec![2]);
        assert_eq!(m.shortfall().unwrap(), "1 shard is missing (2/3); 1 shard was stopped early (3/3)");
        // A rerun of the stopped shard and the missing one complete it.
        let m =
            merge(&[line("1/3", 10, true), line("3/3", 6, false), line("2/3", 0, true), line("3/3", 8, true)]).unwrap();
        assert!(m.complete && m.shortfall().is_none());
        assert_eq!((m.raw, m.distinct), (18, 9));
    }

    #[test]
    fn refuses_mixed_counts_and_conflicts() {
        let mut other = line("2/3", 1, true);
        other.1.fingerprint = "00000000000000cd".into();
        let e = merge(&[line("1/3", 10, true), other]).unwrap_err();
        assert!(matches!(e, MergeError::Mixed { .. }), "{e}");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
        let e = merge(&[line("1/3", 10, true), line("1/3", 11, true)]).unwrap_err();
        assert!(matches!(e, MergeError::Conflict { .. }), "{e}");
        assert_eq!(merge(&[]), Err(MergeError::Empty));
    }

    #[test]
    fn reads_lines_back_and_names_bad_ones() {
        let (_, l) = line("2/3", 5, false);
        let text = format!("{}\n\n{}\n", serde_json::to_string(&l).unwrap(), serde_json::to_string(&l).unwrap());
        let read = read_lines("x", text.as_bytes()).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[1].0, "x:3");
        assert_eq!(read[0].1, l);
        let e = read_lines("x", "{\"raw\": 1}\n".as_bytes()).unwrap_err();
        assert!(e.to_string().starts_with("x:1: not a line of"), "{e}");
        let mut bad = l.clone();
        bad.shard = "4/3".into();
        let e = read_lines("y", serde_json::to_string(&bad).unwrap().as_bytes()).unwrap_err();
        assert!(e.to_string().contains("bad shard"), "{e}");
    }
}
