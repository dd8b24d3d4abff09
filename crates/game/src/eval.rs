//! Evaluation runs: many seeded jobs, in parallel, streamed as JSON lines, splittable into shards.
//!
//! A run of `N` jobs with base seed `S` gives job `i` the seed [`derive_seed`]`(S, i)`, so a job's
//! result does not depend on the thread or machine that ran it. `--shard I/N` keeps the jobs whose
//! index is `I - 1` modulo `N`: run every shard anywhere, keep their JSON lines, and
//! [`merge_records`] puts them back together for the summary (refusing lines of different runs,
//! dropping duplicates, and listing the jobs still missing).
//!
//! A run stopped before its last job (Ctrl-C) keeps only the jobs that finished before the stop
//! (a job cut short is not a result), and its JSON lines end with a [`StopMark`] that says so:
//! merged, the run still reads as stopped.

use std::io::{self, BufRead, Write};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use tessera_core::rng::derive_seed;
use tessera_core::runtime::{Budget, StopReason, split_work};
pub use tessera_core::shard::Shard;

/// One job's result as written to the JSON lines: which run and job, the job's seed, then its
/// fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record<R> {
    /// Job index in `0..of`.
    pub job: u64,
    /// Jobs in the whole run (all shards).
    pub of: u64,
    /// The run's base seed.
    pub base_seed: u64,
    /// The job's seed.
    pub seed: u64,
    /// What the job produced.
    #[serde(flatten)]
    pub result: R,
}

/// How far a stopped run got: the last JSON line of a shard that stopped before its last job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopMark {
    /// Why it stopped.
    pub stopped: StopReason,
    /// The shard that stopped (`I/N`).
    pub shard: String,
    /// Jobs of the shard that finished (and have a record).
    pub done: u64,
    /// Jobs of the shard.
    pub jobs: u64,
}

impl std::fmt::Display for StopMark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let by = match self.stopped {
            StopReason::Interrupted => "by Ctrl-C".to_string(),
            other => format!("({other})"),
        };
        let shard = if self.shard == "1/1" { String::new() } else { format!(" of shard {}", self.shard) };
        write!(f, "stopped {by} after {} of {} jobs{shard}", self.done, self.jobs)
    }
}

/// What [`EvalRun::run`] gives back: the records of the jobs that finished, and how far the run
/// got if it stopped early.
#[derive(Clone, Debug, PartialEq)]
pub struct Ran<R> {
    /// One record per finished job, in job order.
    pub records: Vec<Record<R>>,
    /// Set when the run stopped before its last job.
    pub stopped: Option<StopMark>,
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
    /// Keep the record of a job that returns after the stop (a game whose partial answer is
    /// still worth having, marked as such in its own record); by default it is dropped.
    pub keep_cut_short: bool,
}

impl EvalRun {
    /// Number of jobs in this shard.
    pub fn shard_jobs(&self) -> u64 {
        let first = self.shard.index - 1;
        if self.jobs > first { (self.jobs - first - 1) / self.shard.count + 1 } else { 0 }
    }

    /// Runs this shard's jobs on `threads` workers. Each finished job is written at once as a JSON
    /// line to `sink` (if any), then `done` is called (from the worker that ran it: a caller
    /// that shows progress counts the calls). Returns the records in job order.
    ///
    /// When the budget stops (Ctrl-C, a cancel), the jobs not started are skipped and those
    /// running are dropped when they return (they were cut short); the sink then ends with a
    /// [`StopMark`] line, also returned in [`Ran::stopped`].
    pub fn run<R, F, W>(
        &self,
        budget: &Budget,
        sink: Option<&mut W>,
        done: &(dyn Fn() + Sync),
        job: F,
    ) -> io::Result<Ran<R>>
    where
        R: Serialize + Send,
        F: Fn(u64, u64) -> R + Sync,
        W: Write + Send + ?Sized,
    {
        let n = self.shard_jobs();
        let sink = Mutex::new(sink);
        let error = Mutex::new(None);
        let cut_short = std::sync::atomic::AtomicU64::new(0);
        let parts =
            split_work(usize::try_from(n).unwrap_or(usize::MAX), self.threads, budget, Vec::new, |out, t, b| {
                let j = self.shard.index - 1 + t as u64 * self.shard.count;
                let seed = derive_seed(self.seed, j);
                let result = job(j, seed);
                let cut = b.expired();
                if cut && !self.keep_cut_short {
                    return false;
                }
                cut_short.fetch_add(u64::from(cut), std::sync::atomic::Ordering::Relaxed);
                let record = Record { job: j, of: self.jobs, base_seed: self.seed, seed, result };
                if let Some(w) = lock(&sink).as_mut()
                    && let Err(e) = write_line(w, &record)
                {
                    *lock(&error) = Some(e);
                    return false;
                }
                done();
                out.push(record);
                !cut
            });
        if let Some(e) = lock(&error).take() {
            return Err(e);
        }
        let mut records: Vec<Record<R>> = parts.into_iter().flatten().collect();
        records.sort_by_key(|r| r.job);
        let done = records.len() as u64 - cut_short.into_inner();
        let stopped =
            (done < n).then(|| StopMark { stopped: stop_reason(budget), shard: self.shard.to_string(), done, jobs: n });
        if let (Some(mark), Some(w)) = (&stopped, lock(&sink).as_mut()) {
            serde_json::to_writer(&mut **w, mark).map_err(io::Error::other)?;
            w.write_all(b"\n")?;
            w.flush()?;
        }
        Ok(Ran { records, stopped })
    }
}

/// Why `budget` stopped (a run only stops short when it did).
fn stop_reason(budget: &Budget) -> StopReason {
    budget.stop_reason().unwrap_or(StopReason::Interrupted)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn write_line<R: Serialize, W: Write + ?Sized>(w: &mut W, r: &Record<R>) -> io::Result<()> {
    serde_json::to_writer(&mut *w, r).map_err(io::Error::other)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Records merged from the JSON lines of any number of shards.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged<R> {
    /// One record per job, in job order.
    pub records: Vec<Record<R>>,
    /// Jobs in the whole run.
    pub of: u64,
    /// Jobs of the run with no record (at most the first 100 listed).
    pub missing: Vec<u64>,
    /// How many jobs have no record.
    pub missing_count: u64,
    /// The sources that stopped early, and how far each got.
    pub stopped: Vec<(String, StopMark)>,
    /// Records dropped because their job had a record already.
    pub repeated: u64,
}

/// Merges JSON-lines records from named sources (files, say). All records must come from the
/// same run (same job count and base seed); a job recorded twice keeps its first record. Errors
/// name the source and line.
pub fn merge_records<R: DeserializeOwned>(
    sources: impl IntoIterator<Item = (String, impl BufRead)>,
) -> Result<Merged<R>, String> {
    let mut out: Vec<Record<R>> = Vec::new();
    let mut stopped = Vec::new();
    for (name, reader) in sources {
        for (k, line) in reader.lines().enumerate() {
            let at = || format!("{name}:{}", k + 1);
            let line = line.map_err(|e| format!("{}: {e}", at()))?;
            if line.trim().is_empty() {
                continue;
            }
            if let Ok(mark) = serde_json::from_str::<StopMark>(&line) {
                stopped.push((name.clone(), mark));
                continue;
            }
            let r: Record<R> =
                serde_json::from_str(&line).map_err(|e| format!("{}: not a record of this eval ({e})", at()))?;
            if let Some(first) = out.first()
                && (first.of, first.base_seed) != (r.of, r.base_seed)
            {
                return Err(format!(
                    "{}: a record of another run ({} jobs, seed {}; the first was of {} jobs, seed {})",
                    at(),
                    r.of,
                    r.base_seed,
                    first.of,
                    first.base_seed
                ));
            }
            out.push(r);
        }
    }
    let Some(of) = out.first().map(|r| r.of) else {
        return Err(match stopped.first() {
            Some((name, mark)) => format!("no records to merge ({name}: {mark})"),
            None => "no records to merge".into(),
        });
    };
    out.sort_by_key(|r| r.job);
    let read = out.len();
    out.dedup_by_key(|r| r.job);
    let repeated = (read - out.len()) as u64;
    let missing_count = of - out.len() as u64;
    if missing_count == 0 {
        // Every job has its record (a stopped shard was run again): nothing was stopped.
        stopped.clear();
    }
    let mut missing = Vec::new();
    let mut have = out.iter().map(|r| r.job).peekable();
    for j in 0..of {
        if missing.len() >= 100 {
            break;
        }
        if have.peek() == Some(&j) {
            have.next();
        } else {
            missing.push(j);
        }
    }
    Ok(Merged { records: out, of, missing, missing_count, stopped, repeated })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Out {
        v: u64,
    }

    #[test]
    fn shards_merge_into_the_full_run() {
        let job = |j: u64, seed: u64| Out { v: j * 1000 + seed % 7 };
        let full = EvalRun { jobs: 10, seed: 3, threads: 2, shard: Shard::default(), keep_cut_short: false };
        let whole = full.run(&Budget::unlimited(), None::<&mut Vec<u8>>, &|| {}, job).unwrap();
        assert_eq!((whole.records.len(), whole.stopped), (10, None));
        let whole = whole.records;
        let mut shards = Vec::new();
        for i in [2, 1] {
            let mut lines = Vec::new();
            let run = EvalRun { shard: Shard { index: i, count: 2 }, ..full.clone() };
            assert_eq!(run.shard_jobs(), 5);
            let _ = run.run(&Budget::unlimited(), Some(&mut lines), &|| {}, job).unwrap();
            shards.push((format!("shard{i}"), lines));
        }
        // A shard given twice does not count twice.
        shards.push(("again".into(), shards[0].1.clone()));
        let merged: Merged<Out> = merge_records(shards.iter().map(|(n, l)| (n.clone(), &l[..]))).unwrap();
        assert_eq!(merged.records, whole);
        assert_eq!((merged.missing_count, merged.repeated), (0, 5));
        // Shard 2 alone (the odd jobs): the even ones are reported missing.
        let half: Merged<Out> = merge_records([(shards[0].0.clone(), &shards[0].1[..])]).unwrap();
        assert_eq!((half.missing_count, half.missing.clone()), (5, vec![0, 2, 4, 6, 8]));
    }

    #[test]
    fn merge_refuses_bad_lines_and_mixed_runs() {
        let job = |j: u64, _: u64| Out { v: j };
        let lines = |seed: u64| {
            let mut out = Vec::new();
            let run = EvalRun { jobs: 3, seed, threads: 1, shard: Shard::default(), keep_cut_short: false };
            let _ = run.run(&Budget::unlimited(), Some(&mut out), &|| {}, job).unwrap();
            out
        };
        let (a, b) = (lines(1), lines(2));
        let e = merge_records::<Out>([("a".to_string(), &a[..]), ("b".to_string(), &b[..])]).unwrap_err();
        assert!(e.starts_with("b:1: a record of another run"), "{e}");
        let e = merge_records::<Out>([("x".to_string(), &b"{\"job\":1}\nnot json\n"[..])]).unwrap_err();
        assert!(e.starts_with("x:1:"), "{e}");
        assert!(e.contains("not a record of this eval"), "{e}");
        assert!(merge_records::<Out>([("e".to_string(), &b""[..])]).is_err());
        assert_eq!(
            EvalRun { jobs: 1, seed: 0, threads: 1, shard: Shard { index: 2, count: 3 }, keep_cut_short: false }
                .shard_jobs(),
            0
        );
    }

    #[test]
    fn a_stopped_run_keeps_finished_jobs_and_says_so() {
        // Job 3 stops the run while it works (as Ctrl-C would): it and the jobs after it have
        // no record, and the lines end with the mark, which a merge passes on.
        let budget = Budget::unlimited();
        let job = |j: u64, _: u64| {
            if j == 3 {
                budget.cancel();
            }
            Out { v: j }
        };
        let run = EvalRun { jobs: 8, seed: 5, threads: 1, shard: Shard::default(), keep_cut_short: false };
        let mut lines = Vec::new();
        let ran = run.run(&budget, Some(&mut lines), &|| {}, job).unwrap();
        assert_eq!(ran.records.iter().map(|r| r.job).collect::<Vec<_>>(), vec![0, 1, 2]);
        let mark = StopMark { stopped: StopReason::Cancelled, shard: "1/1".into(), done: 3, jobs: 8 };
        assert_eq!(ran.stopped, Some(mark.clone()));
        assert_eq!(mark.to_string(), "stopped (cancelled) after 3 of 8 jobs");
        let text = String::from_utf8(lines.clone()).unwrap();
        assert!(text.lines().last().unwrap().starts_with("{\"stopped\":\"cancelled\""), "{text}");
        let merged: Merged<Out> = merge_records([("s".to_string(), &lines[..])]).unwrap();
        assert_eq!((merged.records.len(), merged.missing_count), (3, 5));
        assert_eq!(merged.stopped, vec![("s".to_string(), mark)]);
        // The shard run again to its end: merged with it, nothing is stopped any more.
        let mut whole = Vec::new();
        let _ = run.run(&Budget::unlimited(), Some(&mut whole), &|| {}, |j, _| Out { v: j }).unwrap();
        let merged: Merged<Out> =
            merge_records([("s".to_string(), &lines[..]), ("again".to_string(), &whole[..])]).unwrap();
        assert_eq!((merged.records.len(), merged.stopped.len()), (8, 0));
    }
}
