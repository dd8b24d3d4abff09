//! Search runtime: when to stop, what a search concluded, and running workers in parallel.
//!
//! Every search polls a [`Stop`] every few thousand nodes. [`Budget`] is the usual one: a time
//! limit, a node limit, a shared cancel flag (set by a parallel sibling that already succeeded)
//! and the process-wide interrupt flag (set on Ctrl-C by the binary).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every running search to stop (called from a Ctrl-C handler).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// How often (in nodes) searches poll their [`Stop`].
pub const POLL_INTERVAL: u64 = 1024;

/// Why a search stopped before finishing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The time budget ran out.
    Time,
    /// The node budget ran out.
    Nodes,
    /// The user pressed Ctrl-C.
    Interrupted,
    /// A parallel sibling finished the job.
    Cancelled,
    /// The caller's visitor asked to stop.
    Visitor,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Time => "time budget exhausted",
            StopReason::Nodes => "node budget exhausted",
            StopReason::Interrupted => "interrupted",
            StopReason::Cancelled => "cancelled",
            StopReason::Visitor => "stopped by the caller",
        })
    }
}

/// Whether a search ran to its end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "reason")]
pub enum Outcome {
    /// The whole search space was explored.
    Complete,
    /// The search stopped early; its results are a lower bound.
    Stopped(StopReason),
}

impl Outcome {
    /// Whether the search finished.
    pub fn is_complete(self) -> bool {
        self == Outcome::Complete
    }
}

/// What a search concluded about a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<T> {
    /// A solution proven best (or, for a satisfaction problem, the problem needs no more).
    Optimal(T),
    /// A solution, not proven best.
    Feasible(T),
    /// Proven to have no solution.
    Infeasible,
    /// Stopped before knowing.
    Unknown(StopReason),
}

impl<T> Verdict<T> {
    /// The solution, if any.
    pub fn solution(self) -> Option<T> {
        match self {
            Verdict::Optimal(t) | Verdict::Feasible(t) => Some(t),
            Verdict::Infeasible | Verdict::Unknown(_) => None,
        }
    }
}

/// A stop condition, polled by searches every [`POLL_INTERVAL`] nodes or so.
pub trait Stop {
    /// Called with the number of nodes expanded since the last call; `true` means stop now.
    fn should_stop(&mut self, nodes: u64) -> bool;
    /// Why the search should stop, once [`Stop::should_stop`] returned `true`.
    fn reason(&self) -> Option<StopReason>;
}

/// A budget of time and nodes, with a shared cancel flag and the interrupt flag.
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    nodes: u64,
    cancel: Arc<AtomicBool>,
    /// The cancel flag of the budget this one was forked from.
    parent: Option<Arc<AtomicBool>>,
    reason: Option<StopReason>,
}

impl Default for Budget {
    fn default() -> Self {
        Self::unlimited()
    }
}

impl Budget {
    /// No limit but Ctrl-C.
    pub fn unlimited() -> Self {
        Budget { deadline: None, max_nodes: None, nodes: 0, cancel: Arc::default(), parent: None, reason: None }
    }
    /// Stops after `d` of wall time from now.
    pub fn with_time(mut self, d: Duration) -> Self {
        self.deadline = Some(Instant::now() + d);
        self
    }
    /// Stops after `d` of wall time from now, if given.
    pub fn with_time_opt(self, d: Option<Duration>) -> Self {
        match d {
            Some(d) => self.with_time(d),
            None => self,
        }
    }
    /// Stops after about `n` nodes (checked every [`POLL_INTERVAL`] nodes).
    pub fn with_nodes(mut self, n: u64) -> Self {
        self.max_nodes = Some(n);
        self
    }
    /// Time left, if there is a deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
    /// Nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
    /// A budget for a parallel worker: the same deadline and cancel flag, a fresh node count.
    pub fn worker(&self) -> Budget {
        Budget { nodes: 0, reason: None, ..self.clone() }
    }
    /// A budget with the same limits and a cancel flag of its own: cancelling the fork stops
    /// only the fork and its workers, cancelling this budget stops the fork too.
    pub fn fork(&self) -> Budget {
        Budget { parent: Some(self.cancel.clone()), cancel: Arc::default(), ..self.worker() }
    }
    /// Tells every budget sharing this one's cancel flag to stop.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
    /// Checks the limits now (without counting nodes).
    pub fn expired(&mut self) -> bool {
        self.should_stop(0)
    }
}

impl Stop for Budget {
    fn should_stop(&mut self, nodes: u64) -> bool {
        if self.reason.is_some() {
            return true;
        }
        self.nodes += nodes;
        self.reason = if interrupted() {
            Some(StopReason::Interrupted)
        } else if self.cancel.load(Ordering::Relaxed) || self.parent.as_ref().is_some_and(|p| p.load(Ordering::Relaxed))
        {
            Some(StopReason::Cancelled)
        } else if self.max_nodes.is_some_and(|m| self.nodes >= m) {
            Some(StopReason::Nodes)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::Time)
        } else {
            None
        };
        self.reason.is_some()
    }
    fn reason(&self) -> Option<StopReason> {
        self.reason
    }
}

/// Never stops (but for Ctrl-C).
#[derive(Copy, Clone, Debug, Default)]
pub struct Never;

impl Stop for Never {
    fn should_stop(&mut self, _nodes: u64) -> bool {
        interrupted()
    }
    fn reason(&self) -> Option<StopReason> {
        interrupted().then_some(StopReason::Interrupted)
    }
}

/// The number of threads to use when the user did not say: all available cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `threads` workers on the same problem (each typically with its own seed); the first to
/// return `Some` wins and the others are cancelled through their budgets.
///
/// The worker receives its index and its own [`Budget::worker`] of `budget`.
pub fn portfolio<T, F>(threads: usize, budget: &Budget, worker: F) -> Option<T>
where
    T: Send,
    F: Fn(usize, &mut Budget) -> Option<T> + Sync,
{
    let threads = threads.max(1);
    // A private cancel flag, so that winning here does not cancel the caller's other work.
    let shared = budget.fork();
    if threads == 1 {
        return worker(0, &mut shared.worker());
    }
    let winner = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for k in 0..threads {
            let (worker, winner, shared) = (&worker, &winner, &shared);
            s.spawn(move || {
                let mut b = shared.worker();
                if let Some(t) = worker(k, &mut b) {
                    let mut w = winner.lock().unwrap_or_else(|e| e.into_inner());
                    if w.is_none() {
                        *w = Some(t);
                        shared.cancel();
                    }
                }
            });
        }
    });
    winner.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Splits `jobs` over `threads` workers, each taking the next job as it becomes free, and folds
/// each worker's jobs into an accumulator of its own (from `init`). Returns the accumulators
/// (one per worker, in no particular order) for the caller to merge.
///
/// `work` gets the accumulator, the job's index and the job, and the worker's budget; it should
/// return `false` to make every worker stop taking new jobs (for "first success wins").
pub fn split_work<J, A, I, F>(jobs: &[J], threads: usize, budget: &Budget, init: I, work: F) -> Vec<A>
where
    J: Sync,
    A: Send,
    I: Fn() -> A + Sync,
    F: Fn(&mut A, usize, &J, &mut Budget) -> bool + Sync,
{
    let threads = threads.clamp(1, jobs.len().max(1));
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let run = |b: &mut Budget| {
        let mut acc = init();
        while !halt.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            if !work(&mut acc, i, job, b) || b.expired() {
                halt.store(true, Ordering::Relaxed);
            }
        }
        acc
    };
    if threads == 1 {
        return vec![run(&mut budget.worker())];
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let run = &run;
                s.spawn(move || run(&mut budget.worker()))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_budget_stops() {
        let mut b = Budget::unlimited().with_nodes(3000);
        assert!(!b.should_stop(1024));
        assert!(!b.should_stop(1024));
        assert!(b.should_stop(1024));
        assert_eq!(b.reason(), Some(StopReason::Nodes));
        assert!(b.should_stop(0), "stays stopped");
    }

    #[test]
    fn time_budget_stops() {
        let mut b = Budget::unlimited().with_time(Duration::ZERO);
        assert!(b.should_stop(0));
        assert_eq!(b.reason(), Some(StopReason::Time));
        assert!(!Budget::unlimited().with_time(Duration::from_secs(60)).should_stop(1));
    }

    #[test]
    fn cancel_reaches_workers() {
        let b = Budget::unlimited();
        let mut w = b.worker();
        b.cancel();
        assert!(w.should_stop(0));
        assert_eq!(w.reason(), Some(StopReason::Cancelled));
    }

    #[test]
    fn fork_has_its_own_cancel_flag() {
        let parent = Budget::unlimited();
        let fork = parent.fork();
        fork.cancel();
        assert!(fork.worker().expired());
        assert!(!parent.clone().expired());
        let fork = parent.fork();
        parent.cancel();
        assert!(fork.worker().expired(), "cancelling the parent reaches the fork");
    }

    #[test]
    fn portfolio_first_success_cancels_the_rest() {
        let b = Budget::unlimited();
        let got = portfolio(2, &b, |k, budget| {
            if k == 0 {
                return Some(7);
            }
            // The loser spins until cancelled.
            while !budget.should_stop(1) {
                std::thread::yield_now();
            }
            None
        });
        assert_eq!(got, Some(7));
        assert!(!b.clone().expired(), "the caller's budget is not cancelled");
    }

    #[test]
    fn split_work_covers_every_job_once() {
        let jobs: Vec<u64> = (1..=100).collect();
        let accs = split_work(
            &jobs,
            2,
            &Budget::unlimited(),
            || 0u64,
            |a, _, j, _| {
                *a += j;
                true
            },
        );
        assert_eq!(accs.iter().sum::<u64>(), 5050);
        // A worker returning false halts the others.
        let accs = split_work(&jobs, 1, &Budget::unlimited(), Vec::new, |a, i, _, _| {
            a.push(i);
            i < 9
        });
        assert_eq!(accs[0].len(), 10);
    }
}
