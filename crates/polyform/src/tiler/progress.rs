//! How far a count has got: counters the search bumps as it goes, for a display on another
//! thread to read (the engine draws nothing).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// How far a count has got, for a display on another thread to read while it runs.
#[derive(Debug, Default)]
pub struct CountProgress {
    prefixes: AtomicUsize,
    done: AtomicUsize,
    found: AtomicU64,
}

impl CountProgress {
    /// Nothing done yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Prefixes to search (0 until the count has split its search).
    pub fn prefixes(&self) -> usize {
        self.prefixes.load(Ordering::Relaxed)
    }

    /// Prefixes searched to their end.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Tilings counted so far.
    pub fn found(&self) -> u64 {
        self.found.load(Ordering::Relaxed)
    }

    pub(super) fn start(&self, prefixes: usize) {
        self.prefixes.store(prefixes, Ordering::Relaxed);
    }

    pub(super) fn finished_one(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn add_found(&self, n: u64) {
        self.found.fetch_add(n, Ordering::Relaxed);
    }
}
