//! Search runtime: when to stop, what a search concluded, and running workers in parallel.
//!
//! Every search polls a [`Stop`] every [`POLL_INTERVAL`] nodes. [`Budget`] is the usual one: a
//! time limit, a node limit, shared cancel flags (set by a parallel sibling that already
//! succeeded) and the process-wide interrupt flag (set on Ctrl-C by the binary).
//!
//! Searches recurse once per piece placed, so workers run on threads with a large stack
//! ([`WORKER_STACK`]); [`on_deep_stack`] gives the same to a single search.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every running search to stop, from any thread (the binary's Ctrl-C handler sets
/// [`interrupt_flag`] itself).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// The flag [`interrupt`] sets, for a signal handler to set directly (storing to an atomic is
/// all such a handler may safely do).
pub fn interrupt_flag() -> &'static AtomicBool {
    &INTERRUPTED
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    // Sequentially consistent, for the binary's Ctrl-C handler; on x86 a plain load all the same.
    INTERRUPTED.load(Ordering::SeqCst)
}

/// How often (in nodes) searches poll their [`Stop`].
pub const POLL_INTERVAL: u64 = 1024;

/// Why a search stopped before finishing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    /// An incomplete search (a heuristic) ended without an answer, or does not take such an
    /// instance.
    GaveUp,
    /// A count outgrew its 64 bits.
    Overflow,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Time => "time budget exhausted",
            StopReason::Nodes => "node budget exhausted",
            StopReason::Interrupted => "interrupted",
            StopReason::Cancelled => "cancelled",
            StopReason::Visitor => "stopped by the caller",
            StopReason::GaveUp => "gave up (an incomplete search)",
            StopReason::Overflow => "the count passed 2^128 - 1",
        })
    }
}

/// Whether a search ran to its end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "reason")]
#[must_use = "an outcome says whether the results are complete or only a lower bound"]
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
#[must_use = "a verdict holds the solution, or why there is none"]
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
    /// The verdict with its solution mapped.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Verdict<U> {
        match self {
            Verdict::Optimal(t) => Verdict::Optimal(f(t)),
            Verdict::Feasible(t) => Verdict::Feasible(f(t)),
            Verdict::Infeasible => Verdict::Infeasible,
            Verdict::Unknown(r) => Verdict::Unknown(r),
        }
    }
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

/// A budget of time and nodes, with shared cancel flags and the interrupt flag.
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    nodes: u64,
    /// This budget's cancel flag first, then those of the budgets it was forked from.
    cancel: Vec<Arc<AtomicBool>>,
    reason: Option<StopReason>,
}

impl Default for Budget {
    fn default() -> Self {
        Self::unlimited()
    }
}

impl Budget {
    /// No limit but Ctrl-C.
    #[must_use]
    pub fn unlimited() -> Self {
        Budget { deadline: None, max_nodes: None, nodes: 0, cancel: vec![Arc::default()], reason: None }
    }
    /// Stops after `d` of wall time from now. A time too long for the clock to hold a deadline
    /// (centuries) sets none: no limit in practice.
    #[must_use]
    pub fn with_time(mut self, d: Duration) -> Self {
        self.deadline = Instant::now().checked_add(d);
        self
    }
    /// Stops after `d` of wall time from now, if given.
    #[must_use]
    pub fn with_time_opt(self, d: Option<Duration>) -> Self {
        match d {
            Some(d) => self.with_time(d),
            None => self,
        }
    }
    /// Stops after about `n` nodes (checked every [`POLL_INTERVAL`] nodes).
    #[must_use]
    pub fn with_nodes(mut self, n: u64) -> Self {
        self.max_nodes = Some(n);
        self
    }
    /// A budget for a parallel worker: the same deadline and cancel flag, a fresh node count.
    #[must_use]
    pub fn worker(&self) -> Budget {
        Budget { nodes: 0, reason: None, ..self.clone() }
    }
    /// A budget with the same limits and a cancel flag of its own: cancelling the fork stops
    /// only the fork and its workers, cancelling this budget stops the fork too.
    #[must_use]
    pub fn fork(&self) -> Budget {
        let mut fork = self.worker();
        fork.cancel.insert(0, Arc::default());
        fork
    }
    /// A fork (see [`Budget::fork`]) that also stops after `d` from now, or at this budget's own
    /// deadline if that comes first: a slice of the time left for one part of a job. A time too
    /// long for the clock to hold adds no deadline (as in [`Budget::with_time`]).
    #[must_use]
    pub fn within(&self, d: Duration) -> Budget {
        let mut fork = self.fork();
        fork.deadline = match (self.deadline, Instant::now().checked_add(d)) {
            (Some(own), Some(end)) => Some(own.min(end)),
            (own, end) => own.or(end),
        };
        fork
    }
    /// Time left before the deadline (`None` without one).
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
    /// How long ago the deadline passed (`None` before it, or without one).
    pub fn overrun(&self) -> Option<Duration> {
        self.deadline.and_then(|d| Instant::now().checked_duration_since(d))
    }
    /// Tells every budget sharing this one's cancel flag to stop.
    pub fn cancel(&self) {
        self.cancel[0].store(true, Ordering::Relaxed);
    }
    /// Checks the limits now (without counting nodes), and remembers why it stopped.
    pub fn expired(&mut self) -> bool {
        self.should_stop(0)
    }
    /// Whether the budget says stop now: a read-only [`Budget::expired`], for code that holds
    /// the budget shared (it remembers nothing).
    pub fn is_spent(&self) -> bool {
        self.stop_reason().is_some()
    }
    /// Why the budget says stop now (`None`: go on): the reason remembered, else Ctrl-C, a
    /// cancel, the node count or the deadline, checked in that order. Reads, counts nothing.
    pub fn stop_reason(&self) -> Option<StopReason> {
        if self.reason.is_some() {
            self.reason
        } else if interrupted() {
            Some(StopReason::Interrupted)
        } else if self.cancel.iter().any(|c| c.load(Ordering::Relaxed)) {
            Some(StopReason::Cancelled)
        } else if self.max_nodes.is_some_and(|m| self.nodes >= m) {
            Some(StopReason::Nodes)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::Time)
        } else {
            None
        }
    }
}

impl Stop for Budget {
    fn should_stop(&mut self, nodes: u64) -> bool {
        if self.reason.is_some() {
            return true;
        }
        self.nodes += nodes;
        self.reason = self.stop_reason();
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

/// `secs` seconds as a [`Duration`], saturating: a time too long for a `Duration` (past 584
/// billion years) is [`Duration::MAX`], no limit in practice; a negative time or NaN is zero.
/// For times a user types, which [`Duration::from_secs_f64`] would panic on.
pub fn duration_from_secs(secs: f64) -> Duration {
    if secs.is_nan() || secs <= 0.0 {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)
}

/// The number of threads to use when the user did not say: all available cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Stack size of worker threads: searches recurse once per piece placed, and a board may take
/// tens of thousands of pieces. Only the pages a search touches are ever committed.
pub const WORKER_STACK: usize = 256 << 20;

/// Runs `f` on a thread of its own with a [`WORKER_STACK`]-sized stack and returns its result
/// (a panic in `f` is passed on).
pub fn on_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| join(deep(s, f)))
}

/// Runs `f` on each of `jobs`, each on a thread of its own with a [`WORKER_STACK`]-sized stack,
/// and gives the results in the jobs' order (a panic in one is passed on): for a few long jobs
/// known in advance; many small ones go to [`split_work`].
pub fn run_each<J: Send, T: Send>(jobs: Vec<J>, f: impl Fn(J) -> T + Sync) -> Vec<T> {
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = jobs.into_iter().map(|job| deep(s, move || f(job))).collect();
        handles.into_iter().map(join).collect()
    })
}

fn deep<'scope, T: Send + 'scope>(
    s: &'scope std::thread::Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::thread::ScopedJoinHandle<'scope, T> {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn_scoped(s, f)
        .unwrap_or_else(|e| panic!("cannot start a worker thread: {e}"))
}

fn join<T>(h: std::thread::ScopedJoinHandle<'_, T>) -> T {
    h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Runs `threads` workers on the same problem (each typically with its own seed); the first to
/// return `Some` wins and the others are cancelled through their budgets.
///
/// The worker receives its index and its own budget, forked from `budget` (winning cancels the
/// other workers, not the caller's other work). Workers run on deep stacks.
pub fn portfolio<T, F>(threads: usize, budget: &Budget, worker: F) -> Option<T>
where
    T: Send,
    F: Fn(usize, &mut Budget) -> Option<T> + Sync,
{
    let shared = budget.fork();
    let winner = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|k| {
                let (worker, winner, shared) = (&worker, &winner, &shared);
                deep(s, move || {
                    let mut b = shared.worker();
                    if let Some(t) = worker(k, &mut b) {
                        let mut w = winner.lock().unwrap_or_else(|e| e.into_inner());
                        if w.is_none() {
                            *w = Some(t);
                            shared.cancel();
                        }
                    }
                })
            })
            .collect();
        handles.into_iter().for_each(join);
    });
    winner.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Splits jobs `0..jobs` over `threads` workers, each taking the next job as it becomes free,
/// and folds each worker's jobs into an accumulator of its own (from `init`). Returns the
/// accumulators (one per worker, in no particular order) for the caller to merge.
///
/// `work` gets the accumulator, the job's index and the worker's budget; it returns `false` to
/// make every worker stop taking new jobs. Workers stop taking jobs when the budget expires too.
/// Workers run on deep stacks.
pub fn split_work<A, I, F>(jobs: usize, threads: usize, budget: &Budget, init: I, work: F) -> Vec<A>
where
    A: Send,
    I: Fn() -> A + Sync,
    F: Fn(&mut A, usize, &mut Budget) -> bool + Sync,
{
    let threads = threads.clamp(1, jobs.max(1));
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let run = |b: &mut Budget| {
        let mut acc = init();
        while !halt.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= jobs {
                break;
            }
            if !work(&mut acc, i, b) || b.expired() {
                halt.store(true, Ordering::Relaxed);
            }
        }
        acc
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let run = &run;
                deep(s, move || run(&mut budget.worker()))
            })
            .collect();
        handles.into_iter().map(join).collect()
    })
}

/// Cuts `out` into consecutive slices of the given lengths (which must add up to `out.len()`) and
/// has `threads` workers fill them: `work(job, start, slice)`, where `start` is the slice's offset
/// in `out`. Returns `false` if the budget stopped the workers before every slice was filled.
pub fn fill_slices<T: Send>(
    out: &mut [T],
    lens: &[usize],
    threads: usize,
    budget: &Budget,
    work: impl Fn(usize, usize, &mut [T]) + Sync,
) -> bool {
    let mut slots = Vec::with_capacity(lens.len());
    let (mut rest, mut start) = (out, 0);
    for &len in lens {
        let (mine, tail) = rest.split_at_mut(len);
        slots.push(Mutex::new(Some((start, mine))));
        rest = tail;
        start += len;
    }
    debug_assert!(rest.is_empty(), "the slices cover the output");
    let done = split_work(
        lens.len(),
        threads,
        budget,
        || 0usize,
        |done, j, _| {
            let taken = slots[j].lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some((start, mine)) = taken {
                work(j, start, mine);
                *done += 1;
            }
            true
        },
    );
    done.iter().sum::<usize>() == lens.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_read_back_from_json() {
        for o in [Outcome::Complete, Outcome::Stopped(StopReason::Time), Outcome::Stopped(StopReason::Interrupted)] {
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), o, "{json}");
        }
        assert_eq!(
            serde_json::to_string(&Outcome::Stopped(StopReason::Nodes)).unwrap(),
            r#"{"status":"stopped","reason":"nodes"}"#
        );
    }

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
    fn a_time_past_the_clock_is_no_limit() {
        let mut b = Budget::unlimited().with_time(Duration::MAX);
        assert_eq!(b.time_left(), None);
        assert!(!b.should_stop(1));
        assert_eq!(b.within(Duration::MAX).time_left(), None);
        let short = Budget::unlimited().with_time(Duration::from_secs(60));
        assert!(short.within(Duration::MAX).time_left().is_some_and(|t| t <= Duration::from_secs(60)));
        let slice = Budget::unlimited().with_time(Duration::MAX).within(Duration::from_secs(60));
        assert!(slice.time_left().is_some_and(|t| t <= Duration::from_secs(60)));
    }

    #[test]
    fn seconds_saturate() {
        assert_eq!(duration_from_secs(1e30), Duration::MAX);
        assert_eq!(duration_from_secs(f64::INFINITY), Duration::MAX);
        assert_eq!(duration_from_secs(-1.0), Duration::ZERO);
        assert_eq!(duration_from_secs(f64::NAN), Duration::ZERO);
        assert_eq!(duration_from_secs(1.5), Duration::from_millis(1500));
    }

    #[test]
    fn a_slice_ends_at_the_earlier_deadline() {
        let b = Budget::unlimited().with_time(Duration::from_secs(60));
        let slice = b.within(Duration::ZERO);
        assert!(slice.is_spent());
        assert!(!b.is_spent());
        let long = b.within(Duration::from_secs(3600));
        assert!(long.time_left().is_some_and(|t| t <= Duration::from_secs(60)));
        assert_eq!(Budget::unlimited().time_left(), None);
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
        assert!(!parent.is_spent());
        let fork = parent.fork();
        let grandchild = fork.fork();
        parent.cancel();
        assert!(fork.worker().expired(), "cancelling the parent reaches the fork");
        assert!(grandchild.worker().expired(), "and the fork of the fork");
    }

    #[test]
    fn deep_stacks_take_deep_recursion() {
        fn depth(n: u64) -> u64 {
            let pad = [n; 64];
            if n == 0 { 0 } else { 1 + depth(n - 1) + pad[(n % 64) as usize] - n }
        }
        // About 600 bytes a frame, 100k frames: far past a default 2 MiB thread stack.
        assert_eq!(on_deep_stack(|| depth(100_000)), 100_000);
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
        assert!(!b.is_spent(), "the caller's budget is not cancelled");
    }

    #[test]
    fn split_work_covers_every_job_once() {
        let accs = split_work(
            100,
            2,
            &Budget::unlimited(),
            || 0usize,
            |a, j, _| {
                *a += j + 1;
                true
            },
        );
        assert_eq!(accs.iter().sum::<usize>(), 5050);
        // A worker returning false halts the others.
        let accs = split_work(100, 1, &Budget::unlimited(), Vec::new, |a, i, _| {
            a.push(i);
            i < 9
        });
        assert_eq!(accs[0].len(), 10);
    }
}
