//! Evaluation runs: many seeded jobs, in parallel, streamed as JSON lines, splittable into shards.
//!
//! A run of `N` jobs with base seed `S` gives job `i` the seed [`derive_seed`]`(S, i)`, so a job's
//! result does not depend on the thread or machine that ran it. `--shard I/N` keeps the jobs whose
//! index is `I - 1` modulo `N`: run every shard anywhere, concatenate their JSON lines, and
//! [`read_records`] merges them back (duplicates dropped) for the summary.

use std::io::{self, BufRead, IsTerminal, Write};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::rng::derive_seed;
use crate::runtime::{Budget, split_work};

/// Shard `index` (1-based) of `count`: the jobs whose index is `index - 1` modulo `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 1, count: 1 }
    }
}

impl Shard {
    /// Whether job `job` belongs to this shard.
    pub fn holds(self, job: u64) -> bool {
        job % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("bad shard {s:?}: expected I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One job's result as written to the JSON lines: the job's index and seed, then its fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record<R> {
    /// Job index in `0..N`.
    pub job: u64,
    /// The job's seed.
    pub seed: u64,
    /// What the job produced.
    #[serde(flatten)]
    pub result: R,
}

/// The shape of an evaluation run.
#[derive(Clone, Debug)]
pub struct EvalRun {
    /// Total number of jobs across all shards.
    pub jobs: u64,
    /// Base seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Which jobs this process runs.
    pub shard: Shard,
    /// Label of the progress bar.
    pub label: String,
}

impl EvalRun {
    /// The job indices of this shard.
    pub fn my_jobs(&self) -> Vec<u64> {
        (0..self.jobs).filter(|&j| self.shard.holds(j)).collect()
    }

    /// Runs this shard's jobs on `threads` workers. Each finished job is written at once as a JSON
    /// line to `sink` (if any) and counted on a progress bar on stderr (only when stderr is a
    /// terminal). Returns the records in job order. Jobs not started when the budget runs out or
    /// Ctrl-C is pressed are skipped.
    pub fn run<R, F, W>(&self, budget: &Budget, sink: Option<&mut W>, job: F) -> io::Result<Vec<Record<R>>>
    where
        R: Serialize + Send,
        F: Fn(u64, u64) -> R + Sync,
        W: Write + Send + ?Sized,
    {
        let jobs = self.my_jobs();
        let progress = Mutex::new(Progress::new(&self.label, jobs.len() as u64));
        let sink = Mutex::new(sink);
        let error = Mutex::new(None);
        let parts = split_work(&jobs, self.threads, budget, Vec::new, |out, _, &j, _| {
            let seed = derive_seed(self.seed, j);
            let record = Record { job: j, seed, result: job(j, seed) };
            if let Some(w) = lock(&sink).as_mut()
                && let Err(e) = write_line(w, &record)
            {
                *lock(&error) = Some(e);
                return false;
            }
            lock(&progress).tick(1);
            out.push(record);
            true
        });
        lock(&progress).finish();
        if let Some(e) = lock(&error).take() {
            return Err(e);
        }
        let mut all: Vec<Record<R>> = parts.into_iter().flatten().collect();
        all.sort_by_key(|r| r.job);
        Ok(all)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn write_line<R: Serialize, W: Write + ?Sized>(w: &mut W, r: &Record<R>) -> io::Result<()> {
    serde_json::to_writer(&mut *w, r).map_err(io::Error::other)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Reads JSON-lines records (from any number of shards, concatenated), keeps the first record of
/// each job, and returns them in job order. Errors name the line.
pub fn read_records<R: DeserializeOwned>(reader: impl BufRead) -> Result<Vec<Record<R>>, String> {
    let mut out: Vec<Record<R>> = Vec::new();
    for (k, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", k + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let r: Record<R> = serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", k + 1))?;
        out.push(r);
    }
    out.sort_by_key(|r| r.job);
    out.dedup_by_key(|r| r.job);
    Ok(out)
}

/// A progress bar on stderr, drawn only when stderr is a terminal (and at most ten times a second).
#[derive(Debug)]
pub struct Progress {
    label: String,
    total: u64,
    done: u64,
    start: Instant,
    last: Option<Instant>,
    enabled: bool,
}

impl Progress {
    /// A bar for `total` steps; hidden unless stderr is a terminal.
    pub fn new(label: &str, total: u64) -> Self {
        Progress {
            label: label.to_string(),
            total,
            done: 0,
            start: Instant::now(),
            last: None,
            enabled: io::stderr().is_terminal(),
        }
    }

    /// Counts `n` more steps done.
    pub fn tick(&mut self, n: u64) {
        self.done += n;
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if self.done < self.total && self.last.is_some_and(|t| now - t < Duration::from_millis(100)) {
            return;
        }
        self.last = Some(now);
        eprint!("\r{}", self.line(now));
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        if self.enabled && self.last.is_some() {
            eprint!("\r{}\r", " ".repeat(self.line(Instant::now()).chars().count()));
        }
    }

    fn line(&self, now: Instant) -> String {
        const WIDTH: u64 = 30;
        let filled = (WIDTH * self.done).checked_div(self.total).unwrap_or(WIDTH);
        let elapsed = (now - self.start).as_secs_f64();
        let eta = if self.done == 0 {
            0.0
        } else {
            elapsed * (self.total - self.done.min(self.total)) as f64 / self.done as f64
        };
        format!(
            "{} [{}{}] {}/{} {:.0}s eta {:.0}s",
            self.label,
            "#".repeat(filled as usize),
            " ".repeat((WIDTH - filled.min(WIDTH)) as usize),
            self.done,
            self.total,
            elapsed,
            eta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parses_and_partitions() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for job in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.holds(job)).count(), 1);
        }
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Out {
        v: u64,
    }

    #[test]
    fn shards_merge_into_the_full_run() {
        let job = |j: u64, seed: u64| Out { v: j * 1000 + seed % 7 };
        let full = EvalRun { jobs: 10, seed: 3, threads: 2, shard: Shard::default(), label: String::new() };
        let whole = full.run(&Budget::unlimited(), None::<&mut Vec<u8>>, job).unwrap();
        assert_eq!(whole.len(), 10);
        let mut lines = Vec::new();
        for i in [2, 1] {
            let run = EvalRun { shard: Shard { index: i, count: 2 }, ..full.clone() };
            run.run(&Budget::unlimited(), Some(&mut lines), job).unwrap();
        }
        // A shard run twice must not count twice.
        let again = lines.clone();
        lines.extend_from_slice(&again);
        let merged: Vec<Record<Out>> = read_records(&lines[..]).unwrap();
        assert_eq!(merged, whole);
        assert!(read_records::<Out>(&b"{\"job\":1}\nnot json\n"[..]).unwrap_err().starts_with("line 1"));
    }
}
