//! The memory of the search's big tables ([`Slots`]): on Linux, in a mapping of its own with
//! the kernel asked for huge pages.
//!
//! A table of dead states or pocket-check results is read at a random slot at nearly every
//! node, and grows to tens of megabytes. With 4 KiB pages most of those reads also miss the
//! processor's page-table cache (a few thousand entries cover a few megabytes); with 2 MiB pages
//! a few dozen entries cover the whole table. On the one-sided pentominoes in 5x18 that was about
//! a sixth of the time of a count.

use std::ops::{Deref, DerefMut};

use bytemuck::Pod;

/// Tables smaller than this stay on the heap (a huge page would be mostly empty).
const MAPPED_BYTES: usize = 4 << 20;

/// Bytes of a page: the slots are written once a page when made (see [`Slots::zeroed`]).
const PAGE_BYTES: usize = 4096;

/// A fixed number of zeroed slots of a plain type, read and written as a slice.
pub(crate) enum Slots<T> {
    Heap(Vec<T>),
    /// At least [`MAPPED_BYTES`] of anonymous memory (page-aligned, so any `T` fits).
    Mapped(memmap2::MmapMut, std::marker::PhantomData<T>),
}

impl<T> std::fmt::Debug for Slots<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            Slots::Heap(_) => "heap",
            Slots::Mapped(..) => "mapped",
        };
        write!(f, "Slots({kind})")
    }
}

impl<T: Pod> Slots<T> {
    /// `n` zeroed slots, written now: zeroed memory from the system is mapped lazily, so a
    /// search would first read a page (mapping the shared zero page) and later write it (a second
    /// fault, which with two threads running also flushes the other processor's page-table
    /// cache). Writing each page up front takes one fault a page (one a huge page), in the
    /// thread that will use them.
    pub(crate) fn zeroed(n: usize) -> Self {
        let bytes = n * std::mem::size_of::<T>();
        if bytes >= MAPPED_BYTES
            && let Ok(mut map) = memmap2::MmapOptions::new().len(bytes).map_anon()
        {
            #[cfg(target_os = "linux")]
            let _ = map.advise(memmap2::Advice::HugePage); // a hint: without it, small pages
            for page in map.chunks_mut(PAGE_BYTES) {
                // Opaque, so that the write is kept.
                page[0] = std::hint::black_box(0);
            }
            return Slots::Mapped(map, std::marker::PhantomData);
        }
        let mut slots = Vec::with_capacity(n);
        // Opaque, so that the writes are not turned back into a request for zeroed memory.
        slots.resize(n, std::hint::black_box(T::zeroed()));
        Slots::Heap(slots)
    }

    /// Asks the processor to start loading slot `i` into its cache (a hint: it never waits, and
    /// an index past the end is ignored).
    #[inline(always)]
    pub(crate) fn prefetch(&self, i: usize) {
        if let Some(slot) = self.get(i) {
            mem_prefetch::prefetch_read_data::<_, 3>(slot);
        }
    }
}

impl<T: Pod> Deref for Slots<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        match self {
            Slots::Heap(v) => v,
            Slots::Mapped(m, _) => bytemuck::cast_slice(m),
        }
    }
}

impl<T: Pod> DerefMut for Slots<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Slots::Heap(v) => v,
            Slots::Mapped(m, _) => bytemuck::cast_slice_mut(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_big_tables_start_zeroed_and_keep_what_is_written() {
        for n in [16, MAPPED_BYTES / 4 + 1] {
            let mut s = Slots::<u32>::zeroed(n);
            assert_eq!(s.len(), n);
            assert!(s.iter().all(|&x| x == 0));
            s[n - 1] = 7;
            s[0] = 3;
            assert_eq!((s[0], s[n - 1]), (3, 7));
        }
        assert!(matches!(Slots::<u64>::zeroed(MAPPED_BYTES / 8), Slots::Mapped(..)));
    }
}
