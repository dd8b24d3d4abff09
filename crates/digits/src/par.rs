//! How much memory a table may take, and how to cut one into slices filled in parallel (by
//! [`fill_slices`], from the core's runtime).

pub(crate) use tessera_core::runtime::fill_slices;

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
    use tessera_core::runtime::Budget;

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
