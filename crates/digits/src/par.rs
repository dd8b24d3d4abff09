//! Filling the slices of an output in parallel, and how much memory a table may take.

use std::sync::Mutex;

use tessera_core::runtime::{Budget, split_work};

/// Cuts `out` into consecutive slices of the given lengths (which must add up to `out.len()`) and
/// has `threads` workers fill them: `work(job, start, slice)`, where `start` is the slice's offset
/// in `out`. Returns `false` if the budget stopped the workers before every slice was filled.
pub(crate) fn fill_slices<T: Send>(
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

/// Lengths cutting `total` items into pieces of at most `piece` (the last may be shorter).
pub(crate) fn even_pieces(total: usize, piece: usize) -> Vec<usize> {
    let piece = piece.max(1);
    (0..total.div_ceil(piece)).map(|k| piece.min(total - k * piece)).collect()
}

/// The memory the system says is available, in bytes (Linux `MemAvailable`), if it says.
pub(crate) fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Whether `bytes` more can be taken without crowding out the rest of the machine: at most three
/// quarters of the available memory (no limit where the system does not say).
pub fn affordable(bytes: u128) -> bool {
    available_memory().is_none_or(|avail| bytes <= u128::from(avail) / 4 * 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slice_is_filled_once() {
        let mut out = vec![0usize; 1000];
        let lens = even_pieces(1000, 64);
        assert_eq!(lens.iter().sum::<usize>(), 1000);
        assert!(fill_slices(&mut out, &lens, 2, &Budget::unlimited(), |_, start, s| {
            for (k, x) in s.iter_mut().enumerate() {
                *x += start + k;
            }
        }));
        assert!(out.iter().enumerate().all(|(i, &x)| x == i));
        assert!(even_pieces(0, 8).is_empty());
    }

    #[test]
    fn memory_limits() {
        assert!(affordable(1 << 20));
        assert!(!affordable(u128::MAX));
    }
}
