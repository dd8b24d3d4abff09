//! The search's memory: states known to hold no tiling, and pocket-check results.

use crate::bits::CellBits;

/// Bit fields, one per type, wide enough to count its copies: the unit of each field and the
/// bits they take in all, or `None` if they need more than 63 bits.
pub(crate) fn pack_units(counts: &[u32]) -> Option<(Vec<u64>, u32)> {
    let mut offset = 0u32;
    let mut units = Vec::with_capacity(counts.len());
    for &c in counts {
        let width = 32 - c.leading_zeros();
        if offset + width > 63 {
            return None;
        }
        units.push(1u64 << offset);
        offset += width;
    }
    Some((units, offset))
}

/// A direct-mapped table: one entry per slot, keys stored whole (a hit is never a false one), a
/// collision just overwrites. Two uses:
///
/// * *dead states*, keyed by `(occupancy, copies used)`: the subproblem below a node depends only
///   on which cells are covered and how many copies of each type are used, not on how the search
///   got there, and in fill-the-first-cell searches the same state recurs often near the end of
///   the board (other pieces, other order, same region left);
/// * *pocket checks*, keyed by the occupancy of the lines that are not open: lines before the
///   first free cell are full and open lines are empty, so that occupancy decides the check.
pub(crate) struct Memo<K, V> {
    /// Entries; a slot whose value is `V::default()` is free (values stored are never that).
    slots: Vec<(K, V)>,
    shift: u32,
}

impl<K: Copy + Eq + Default, V: Copy + Eq + Default> Memo<K, V> {
    pub(crate) fn new(log2: u32) -> Self {
        Memo { slots: vec![(K::default(), V::default()); 1 << log2], shift: 64 - log2 }
    }
    #[inline]
    pub(crate) fn get(&self, key: K, hash: u64) -> Option<V> {
        let (k, v) = self.slots[slot(hash, self.shift)];
        (v != V::default() && k == key).then_some(v)
    }
    #[inline]
    pub(crate) fn put(&mut self, key: K, hash: u64, value: V) {
        debug_assert!(value != V::default());
        self.slots[slot(hash, self.shift)] = (key, value);
    }
}

/// A direct-mapped table of keys below 2^62 packed with a one-bit value into words: a slot
/// holds `1 << 63 | value << 62 | key` (0: free). Half the memory of a [`Memo`] with a whole
/// key, so twice the entries per cache line.
pub(crate) struct WordTable {
    slots: Vec<u64>,
    shift: u32,
}

/// The largest key of a [`WordTable`] plus one.
const WORD_KEYS: u64 = 1 << 62;

impl WordTable {
    /// A table of `2^log2` free slots, written now. Zeroed memory from the system is mapped
    /// lazily: a search would first read a page (mapping the shared zero page) and later write
    /// it (a second fault, which with two threads running also flushes the other processor's
    /// TLB). Writing the slots up front takes one fault a page, in the thread that will use them.
    fn new(log2: u32) -> Self {
        let mut slots = Vec::with_capacity(1 << log2);
        // Opaque, so that the writes are not turned back into a request for zeroed memory.
        slots.resize(1 << log2, std::hint::black_box(0));
        WordTable { slots, shift: 64 - log2 }
    }
    /// The value stored with `key`, if any.
    #[inline]
    fn get(&self, key: u64) -> Option<bool> {
        let s = self.slots[slot(key, self.shift)];
        (s >> 63 == 1 && s & (WORD_KEYS - 1) == key).then_some(s >> 62 & 1 == 1)
    }
    #[inline]
    fn put(&mut self, key: u64, value: bool) {
        debug_assert!(key < WORD_KEYS);
        self.slots[slot(key, self.shift)] = 1 << 63 | u64::from(value) << 62 | key;
    }
}

/// States known to hold no tiling, keyed by `(occupancy, copies used)` (see [`Memo`]).
pub(crate) enum DeadStates<B> {
    /// Both packed into one key, when the board's bits and the copies-used fields fit in 62
    /// bits (copies used above the board's bits, which `cells` selects).
    Packed {
        table: WordTable,
        cells: u64,
        nbits: u32,
    },
    Whole(Memo<B, u64>),
}

impl<B: CellBits> DeadStates<B> {
    /// A table of `2^log2` states for a board of `nbits` bits whose copies used take
    /// `used_bits` bits.
    pub(crate) fn new(log2: u32, nbits: usize, used_bits: u32) -> Self {
        if B::CAPACITY == 64 && nbits as u32 + used_bits <= 62 {
            let cells = B::below(nbits).word_at(0);
            DeadStates::Packed { table: WordTable::new(log2), cells, nbits: nbits as u32 }
        } else {
            DeadStates::Whole(Memo::new(log2))
        }
    }

    /// Whether the state is known dead.
    #[inline]
    pub(crate) fn contains(&self, occ: B, used: u64) -> bool {
        match self {
            DeadStates::Packed { table, cells, nbits } => table.get(occ.word_at(0) & cells | used << nbits).is_some(),
            DeadStates::Whole(memo) => memo.get(occ, state_hash(occ, used)) == Some(used + 1),
        }
    }

    /// Records a dead state (it may push out another).
    #[inline]
    pub(crate) fn insert(&mut self, occ: B, used: u64) {
        match self {
            DeadStates::Packed { table, cells, nbits } => table.put(occ.word_at(0) & *cells | used << *nbits, true),
            DeadStates::Whole(memo) => memo.put(occ, state_hash(occ, used), used + 1),
        }
    }
}

/// Pocket-check results by the occupancy of the lines that are not open (see [`Memo`]).
pub(crate) enum PocketResults<B> {
    /// Keyed by the board's bits of that occupancy (`cells`), when the board has at most 62.
    Packed { table: WordTable, cells: u64 },
    /// 1: fine, 2: not.
    Whole(Memo<B, u8>),
}

impl<B: CellBits> PocketResults<B> {
    /// A table of `2^log2` results for a board of `nbits` bits.
    pub(crate) fn new(log2: u32, nbits: usize) -> Self {
        if B::CAPACITY == 64 && nbits <= 62 {
            PocketResults::Packed { table: WordTable::new(log2), cells: B::below(nbits).word_at(0) }
        } else {
            PocketResults::Whole(Memo::new(log2))
        }
    }

    /// The result for `key`, worked out by `check` if it is not known.
    #[inline]
    pub(crate) fn get_or(&mut self, key: B, check: impl FnOnce() -> bool) -> bool {
        match self {
            PocketResults::Packed { table, cells } => {
                let k = key.word_at(0) & *cells;
                table.get(k).unwrap_or_else(|| {
                    let r = check();
                    table.put(k, r);
                    r
                })
            }
            PocketResults::Whole(memo) => {
                let hash = key.digest();
                let r = memo.get(key, hash).unwrap_or_else(|| {
                    let r = if check() { 1 } else { 2 };
                    memo.put(key, hash, r);
                    r
                });
                r == 1
            }
        }
    }
}

/// The slot of a hash in a table of `2^(64 - shift)` slots.
#[inline]
fn slot(hash: u64, shift: u32) -> usize {
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize
}

/// The hash of a dead-state key.
#[inline]
fn state_hash<B: CellBits>(occ: B, used: u64) -> u64 {
    occ.digest() ^ used.wrapping_mul(0xff51_afd7_ed55_8ccd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{Bitboard, WideBits};
    use proptest::prelude::*;

    /// Runs inserts into a dead-state table: the state just inserted is found, and a state found
    /// was inserted (collisions forget, never invent).
    fn check_dead<B: CellBits>(mut dead: DeadStates<B>, states: &[(B, u64)]) -> Result<(), TestCaseError> {
        for (k, &(occ, used)) in states.iter().enumerate() {
            dead.insert(occ, used);
            prop_assert!(dead.contains(occ, used));
            for &(o, u) in &states[k + 1..] {
                if dead.contains(o, u) {
                    prop_assert!(states[..=k].contains(&(o, u)));
                }
            }
        }
        Ok(())
    }

    proptest! {
        /// Packed (one word) and whole keys keep dead states exactly, collisions included (a
        /// table of 16 slots).
        #[test]
        fn dead_states_never_invent(states in proptest::collection::vec((any::<u64>(), 0u64..1024), 1..60)) {
            let packed: Vec<(Bitboard, u64)> = states.iter().map(|&(o, u)| (Bitboard(o & ((1 << 50) - 1)), u)).collect();
            let table = DeadStates::<Bitboard>::new(4, 50, 10);
            let packed_keys = matches!(table, DeadStates::Packed { .. });
            prop_assert!(packed_keys);
            check_dead(table, &packed)?;
            let wide: Vec<(WideBits<2>, u64)> = states.iter().map(|&(o, u)| (WideBits([o, u]), u)).collect();
            check_dead(DeadStates::<WideBits<2>>::new(4, 100, 10), &wide)?;
        }

        /// Pocket results are worked out once and then remembered, packed or whole.
        #[test]
        fn pocket_results_are_remembered(keys in proptest::collection::vec(any::<u64>(), 1..40)) {
            let mut packed = PocketResults::<Bitboard>::new(10, 60);
            let mut whole = PocketResults::<WideBits<2>>::new(10, 100);
            for &k in &keys {
                let ok = k % 3 != 0;
                let key = Bitboard(k & ((1 << 60) - 1));
                prop_assert_eq!(packed.get_or(key, || ok), ok);
                prop_assert_eq!(packed.get_or(key, || !ok), ok, "remembered");
                prop_assert_eq!(whole.get_or(WideBits([k, 1]), || ok), ok);
                prop_assert_eq!(whole.get_or(WideBits([k, 1]), || !ok), ok, "remembered");
            }
        }
    }
}
