//! The search's memory: states known to hold no tiling, and pocket-check results.

use crate::bits::CellBits;
use crate::tiler::slots::Slots;

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
    /// Starts loading the slot of `hash` (see [`Slots::prefetch`]).
    #[inline(always)]
    pub(crate) fn prefetch(&self, hash: u64) {
        if let Some(entry) = self.slots.get(slot(hash, self.shift)) {
            mem_prefetch::prefetch_read_data::<_, 3>(entry);
        }
    }
    #[inline]
    pub(crate) fn put(&mut self, key: K, hash: u64, value: V) {
        debug_assert!(value != V::default());
        self.slots[slot(hash, self.shift)] = (key, value);
    }
    /// Doubles the slots, keeping every entry (`hash` gives an entry's hash again): an entry of
    /// slot `s` moves to slot `2s` or `2s + 1`, so none pushes out another.
    fn grow(&mut self, hash: impl Fn(&K, &V) -> u64) {
        let mut grown = Memo::new(64 - self.shift + 1);
        for (k, v) in self.slots.iter().filter(|e| e.1 != V::default()) {
            grown.put(*k, hash(k, v), *v);
        }
        *self = grown;
    }
}

/// A direct-mapped table of keys below 2^62 packed with a one-bit value into words: a slot
/// holds `1 << 63 | value << 62 | key` (0: free). Half the memory of a [`Memo`] with a whole
/// key, so twice the entries per cache line.
pub(crate) struct WordTable {
    slots: Slots<u64>,
    shift: u32,
}

/// The largest key of a [`WordTable`] plus one.
const WORD_KEYS: u64 = 1 << 62;

impl WordTable {
    /// A table of `2^log2` free slots, written now (see [`Slots::zeroed`]).
    fn new(log2: u32) -> Self {
        WordTable { slots: Slots::zeroed(1 << log2), shift: 64 - log2 }
    }
    /// The value stored with `key`, if any.
    #[inline]
    fn get(&self, key: u64) -> Option<bool> {
        let s = self.slots[slot(key, self.shift)];
        (s >> 63 == 1 && s & (WORD_KEYS - 1) == key).then_some(s >> 62 & 1 == 1)
    }
    /// Starts loading the slot of `key` (see [`Slots::prefetch`]).
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.slots.prefetch(slot(key, self.shift));
    }
    #[inline]
    fn put(&mut self, key: u64, value: bool) {
        debug_assert!(key < WORD_KEYS);
        self.slots[slot(key, self.shift)] = 1 << 63 | u64::from(value) << 62 | key;
    }
    /// The keys held.
    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().filter(|&&s| s >> 63 == 1).map(|&s| s & (WORD_KEYS - 1))
    }
    /// Doubles the slots, keeping every entry (as [`Memo::grow`]).
    fn grow(&mut self) {
        let mut grown = WordTable::new(64 - self.shift + 1);
        for &s in self.slots.iter().filter(|&&s| s >> 63 == 1) {
            grown.slots[slot(s & (WORD_KEYS - 1), grown.shift)] = s;
        }
        *self = grown;
    }
}

/// A direct-mapped table of keys below `2^bits`, each with a one-bit value, in 32-bit slots. A
/// key is spread by an odd multiplier modulo `2^bits` (a bijection): the top `log2` bits of the
/// product pick the slot, the slot keeps the bits below them, so a hit is never a false one.
///
/// ```text
///   key * ODD mod 2^bits  =  [ slot: log2 bits ][ rest: bits - log2 <= 30 ]
///   slots[slot]           =  [ 1 ][ value ][ rest ]          (0: free)
/// ```
///
/// Half the memory of a [`WordTable`], a quarter of a [`Memo`] of one-word keys: the tables a
/// search reads at every node stay in the processor's cache.
pub(crate) struct NarrowTable {
    slots: Slots<u32>,
    /// `2^bits - 1`.
    keys: u64,
    rest: u32,
}

/// The mark of a used slot of a [`NarrowTable`], and the bit of its value.
const MARK: u32 = 1 << 31;
const VALUE: u32 = 1 << 30;

impl NarrowTable {
    /// Most bits a slot keeps of a key.
    const REST_MAX: u32 = 30;

    /// A table of `2^log2` free slots for keys below `2^bits` (`bits - log2 <= 30`, `bits <=
    /// 63`), written now (see [`WordTable::new`]).
    fn new(log2: u32, bits: u32) -> Self {
        debug_assert!(bits <= 63 && bits <= log2 + Self::REST_MAX);
        let log2 = log2.min(bits);
        NarrowTable { slots: Slots::zeroed(1 << log2), keys: (1 << bits) - 1, rest: bits - log2 }
    }
    /// The slot of `key` and what it holds (value bit clear) when the key is in.
    #[inline(always)]
    fn split(&self, key: u64) -> (usize, u32) {
        debug_assert!(key & !self.keys == 0);
        let h = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) & self.keys;
        // The rest is the low `rest <= 30` bits; the bits above them are the slot's own, the
        // same for every key it meets, so they need no masking.
        ((h >> self.rest) as usize, (h as u32 & !(MARK | VALUE)) | MARK)
    }
    /// The value stored with `key`, if any.
    #[inline(always)]
    fn get(&self, key: u64) -> Option<bool> {
        let (s, mark) = self.split(key);
        let slot = self.slots[s];
        (slot & !VALUE == mark).then_some(slot & VALUE != 0)
    }
    /// Starts loading the slot of `key` (see [`Slots::prefetch`]).
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.slots.prefetch(self.split(key).0);
    }
    #[inline(always)]
    fn put(&mut self, key: u64, value: bool) {
        let (s, mark) = self.split(key);
        self.slots[s] = mark | if value { VALUE } else { 0 };
    }
    /// Doubles the slots, keeping every entry: the slot index takes one more bit of the spread
    /// key and the slot keeps one fewer. A slot holds the low 30 bits of the spread key whatever
    /// its size (those above the rest are the slot's own), so an entry moves unchanged, from
    /// slot `s` to `2s` or `2s + 1` by the top bit of its old rest.
    fn grow(&mut self) {
        debug_assert!(self.rest > 0, "a slot keeps at least one bit of a key");
        let rest = self.rest - 1;
        let mut slots = Slots::zeroed(self.slots.len() * 2);
        for (s, &slot) in self.slots.iter().enumerate().filter(|&(_, &slot)| slot & MARK != 0) {
            slots[s << 1 | (slot >> rest) as usize & 1] = slot;
        }
        (self.slots, self.rest) = (slots, rest);
    }
}

/// How a search state is cut down to a short key. Below the first free cell `f` every cell is
/// covered, and past `f + span` only cells that are never free are set (a placed piece starts
/// before `f` and spans at most `span` bits): the occupancy is `f` and the bits after it.
///
/// ```text
///   key = [ extra ][ f: fbits ][ bits f+1 ..= f+width: width bits ]
/// ```
#[derive(Clone, Copy)]
pub(crate) struct Window {
    width: u32,
    /// `2^width - 1`.
    cells: u64,
    /// Bits of a first free cell.
    fbits: u32,
}

impl Window {
    /// A window of `width` bits after the first free cell of a board of `nbits` bits.
    pub(crate) fn new(width: u32, nbits: usize) -> Self {
        let cells = if width >= 64 { !0 } else { (1 << width) - 1 };
        Window { width, cells, fbits: usize::BITS - nbits.leading_zeros() }
    }
    /// Bits of a key whose extra part takes `extra` bits.
    fn bits(&self, extra: u32) -> u32 {
        self.width + self.fbits + extra
    }
    /// Whether keys with an extra part of `extra` bits fit a [`NarrowTable`] of `2^log2` slots.
    fn fits(&self, extra: u32, log2: u32) -> bool {
        self.width < 64 && self.bits(extra) <= 63 && self.bits(extra) <= log2 + NarrowTable::REST_MAX
    }
    #[inline(always)]
    fn key<B: CellBits>(&self, set: B, f: usize, extra: u64) -> u64 {
        (set.word_at(f + 1) & self.cells | (f as u64) << self.width) | extra << (self.width + self.fbits)
    }
}

/// States known to hold no tiling, keyed by `(occupancy, copies used)` (see [`Memo`]). The table
/// starts small and doubles each time it has taken as many states as it has slots (by then a
/// direct-mapped table pushes out an entry at about every other insert), up to a memory bound:
/// small searches keep a small table, long ones one in proportion to what they meet.
pub(crate) struct DeadStates<B> {
    table: DeadTable<B>,
    growth: Growth,
    /// Bytes of the table now.
    pub(crate) bytes: usize,
}

/// When a table doubles: each time it has taken as many entries as it has slots (by then a
/// direct-mapped table pushes out an entry at about every other insert), while it stays within
/// a bound.
#[derive(Clone, Copy, Debug)]
struct Growth {
    /// Entries the table takes before it doubles (`usize::MAX` once it may not).
    room: usize,
    /// Log2 of the slots, now and at most.
    log2: u32,
    max_log2: u32,
}

impl Growth {
    /// A table of `2^log2` slots that may grow to `2^max_log2` (or stays as it is, if smaller).
    fn new(log2: u32, max_log2: u32) -> Self {
        let max_log2 = max_log2.max(log2);
        Growth { room: room(log2, max_log2), log2, max_log2 }
    }
    /// Counts an entry taken: whether the table is to double now (hot: a decrement and a test).
    #[inline(always)]
    fn taken(&mut self) -> bool {
        self.room -= 1;
        self.room == 0
    }
    /// The table has doubled.
    fn doubled(&mut self) {
        self.log2 += 1;
        self.room = room(self.log2, self.max_log2);
    }
}

/// Log2 of the most slots of `slot` bytes within `max_bytes`.
fn most_slots(max_bytes: usize, slot: usize) -> u32 {
    (max_bytes / slot).max(1).ilog2()
}

/// Most bytes a table keyed by whole occupancies starts with: on a big board a slot holds a
/// long key (a bounding box of 1,700 cells: 264 bytes), and a table of the usual start in
/// slots would take megabytes, all written (and faulted in) before a search of milliseconds
/// begins. Such a table starts at most this big and doubles as it fills.
const WHOLE_START_BYTES: usize = 64 << 10;

/// Log2 of the slots a table keyed by whole occupancies starts with: `log2`, within
/// [`WHOLE_START_BYTES`] for slots of `slot` bytes.
fn whole_log2(log2: u32, slot: usize) -> u32 {
    log2.min(most_slots(WHOLE_START_BYTES, slot).max(4))
}

/// The table of [`DeadStates`], by how its keys are stored.
enum DeadTable<B> {
    /// Cut down to a key of at most 63 bits (see [`Window`]) in a [`NarrowTable`].
    Narrow {
        table: NarrowTable,
        window: Window,
    },
    /// Both packed into one key, when the board's bits and the copies-used fields fit in 62
    /// bits (copies used above the board's bits, which `cells` selects).
    Packed {
        table: WordTable,
        cells: u64,
        nbits: u32,
    },
    /// Cut down as in `Narrow`, to a key of `bits` bits, too long for narrow slots while the
    /// table is small but within 62 bits, kept whole in a [`WordTable`] (twice the memory a
    /// slot, a quarter of a `Whole` one's).
    Windowed {
        table: WordTable,
        window: Window,
        bits: u32,
    },
    Whole(Memo<B, u64>),
}

impl<B: CellBits> DeadStates<B> {
    /// A table of `2^log2` states, growing to at most `max_bytes`, for a board of `nbits` bits
    /// whose copies used take `used_bits` bits; `window` spans the longest placement.
    pub(crate) fn new(log2: u32, max_bytes: usize, nbits: usize, used_bits: u32, window: Window) -> Self {
        let most = |slot: usize| most_slots(max_bytes, slot);
        let (table, max_log2) = if window.fits(used_bits, log2) {
            let table = NarrowTable::new(log2, window.bits(used_bits));
            // Slots hold at least one bit of a key: beyond, every key has a slot already.
            (DeadTable::Narrow { table, window }, most(4).min(window.bits(used_bits)))
        } else if B::CAPACITY == 64 && nbits as u32 + used_bits <= 62 {
            let cells = B::below(nbits).word_at(0);
            (DeadTable::Packed { table: WordTable::new(log2), cells, nbits: nbits as u32 }, most(8))
        } else if window.width < 64 && window.bits(used_bits) <= 62 {
            // Narrow slots once the table has grown enough of them (see `grow`), if it may.
            let bits = window.bits(used_bits);
            let narrow = bits.saturating_sub(NarrowTable::REST_MAX) <= most(4);
            let table = DeadTable::Windowed { table: WordTable::new(log2), window, bits };
            (table, if narrow { most(4).min(bits) } else { most(8) })
        } else {
            let slot = std::mem::size_of::<(B, u64)>();
            (DeadTable::Whole(Memo::new(whole_log2(log2, slot))), most(slot))
        };
        let log2 = match &table {
            DeadTable::Narrow { table, .. } => table.slots.len().ilog2(),
            DeadTable::Whole(memo) => memo.slots.len().ilog2(),
            _ => log2,
        };
        let mut dead = DeadStates { table, growth: Growth::new(log2, max_log2), bytes: 0 };
        dead.bytes = dead.table_bytes();
        dead
    }

    /// Bytes of the table's slots.
    fn table_bytes(&self) -> usize {
        match &self.table {
            DeadTable::Narrow { table, .. } => std::mem::size_of_val(&table.slots[..]),
            DeadTable::Packed { table, .. } | DeadTable::Windowed { table, .. } => {
                std::mem::size_of_val(&table.slots[..])
            }
            DeadTable::Whole(memo) => std::mem::size_of_val(&memo.slots[..]),
        }
    }

    /// Whether the state is known dead.
    #[inline(always)]
    pub(crate) fn contains(&self, occ: B, f: usize, used: u64) -> bool {
        match &self.table {
            DeadTable::Narrow { table, window } => table.get(window.key(occ, f, used)).is_some(),
            DeadTable::Packed { table, cells, nbits } => table.get(occ.word_at(0) & cells | used << nbits).is_some(),
            DeadTable::Windowed { table, window, .. } => table.get(window.key(occ, f, used)).is_some(),
            DeadTable::Whole(memo) => memo.get(occ, state_hash(occ, used)) == Some(used + 1),
        }
    }

    /// Starts loading the slot of a state that [`DeadStates::contains`] will soon be asked about.
    #[inline(always)]
    pub(crate) fn prefetch(&self, occ: B, f: usize, used: u64) {
        match &self.table {
            DeadTable::Narrow { table, window } => table.prefetch(window.key(occ, f, used)),
            DeadTable::Packed { table, cells, nbits } => table.prefetch(occ.word_at(0) & cells | used << nbits),
            DeadTable::Windowed { table, window, .. } => table.prefetch(window.key(occ, f, used)),
            DeadTable::Whole(_) => {}
        }
    }

    /// Records a dead state (it may push out another), and doubles the table when it has taken
    /// as many states as it has slots.
    #[inline(always)]
    pub(crate) fn insert(&mut self, occ: B, f: usize, used: u64) {
        match &mut self.table {
            DeadTable::Narrow { table, window } => table.put(window.key(occ, f, used), true),
            DeadTable::Packed { table, cells, nbits } => table.put(occ.word_at(0) & *cells | used << *nbits, true),
            DeadTable::Windowed { table, window, .. } => table.put(window.key(occ, f, used), true),
            DeadTable::Whole(memo) => memo.put(occ, state_hash(occ, used), used + 1),
        }
        if self.growth.taken() {
            self.grow();
        }
    }

    /// Doubles the table, keeping every state.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let log2 = self.growth.log2 + 1;
        match &mut self.table {
            DeadTable::Narrow { table, .. } => table.grow(),
            // Doubled, the slots would keep every key in narrow ones: four bytes a slot, not
            // eight, so twice the states in the same memory.
            DeadTable::Windowed { table, window, bits } if *bits <= log2 + NarrowTable::REST_MAX => {
                let mut narrow = NarrowTable::new(log2, *bits);
                for key in table.keys() {
                    narrow.put(key, true);
                }
                self.table = DeadTable::Narrow { table: narrow, window: *window };
            }
            DeadTable::Packed { table, .. } | DeadTable::Windowed { table, .. } => table.grow(),
            DeadTable::Whole(memo) => memo.grow(|&occ, &v| state_hash(occ, v - 1)),
        }
        self.growth.doubled();
        self.bytes = self.table_bytes();
    }

    /// Log2 of the table's slots.
    #[cfg(test)]
    fn log2(&self) -> u32 {
        self.growth.log2
    }
}

/// Subtree counts, keyed by `(occupancy, copies used)` like [`DeadStates`]: what remains below a
/// node depends only on its state, so a count found once serves every path that meets the state
/// again (a dead state is a count of 0). Keys cut down by a [`Window`] when they fit a word, whole
/// otherwise; counts stored plus one (0: a free slot) in a word, and those of 64 bits or more
/// (domino tilings of big boards have them) in a map of their own, the slot saying so. Grows
/// like [`DeadStates`].
pub(crate) struct SubtreeCounts<B> {
    table: CountTable<B>,
    growth: Growth,
    /// Counts too big for a slot, by the state's key (short or whole).
    big: std::collections::BTreeMap<(B, u64), u128>,
}

/// A slot's value for a count kept in [`SubtreeCounts::big`].
const BIG: u64 = u64::MAX;

/// The table of [`SubtreeCounts`], by how its keys are stored.
enum CountTable<B> {
    Short { memo: Memo<u64, u64>, window: Window },
    Whole(Memo<(B, u64), u64>),
}

impl<B: CellBits> SubtreeCounts<B> {
    /// A table of `2^log2` counts growing to at most `max_bytes`, for copies used of `used_bits`
    /// bits; `window` spans the longest placement.
    pub(crate) fn new(log2: u32, max_bytes: usize, used_bits: u32, window: Window) -> Self {
        let short = window.width < 64 && window.bits(used_bits) <= 64;
        let (table, slot) = if short {
            (CountTable::Short { memo: Memo::new(log2), window }, 16)
        } else {
            let slot = std::mem::size_of::<((B, u64), u64)>();
            (CountTable::Whole(Memo::new(whole_log2(log2, slot))), slot)
        };
        let log2 = match &table {
            CountTable::Whole(memo) => memo.slots.len().ilog2(),
            CountTable::Short { .. } => log2,
        };
        SubtreeCounts { table, growth: Growth::new(log2, most_slots(max_bytes, slot)), big: Default::default() }
    }

    /// Starts loading the slot of a state that [`SubtreeCounts::get`] will soon be asked about.
    #[inline(always)]
    pub(crate) fn prefetch(&self, occ: B, f: usize, used: u64) {
        if let CountTable::Short { memo, window } = &self.table {
            let key = window.key(occ, f, used);
            memo.prefetch(key);
        }
    }

    /// The count below a state, if known.
    #[inline(always)]
    pub(crate) fn get(&self, occ: B, f: usize, used: u64) -> Option<u128> {
        let (stored, key) = match &self.table {
            CountTable::Short { memo, window } => {
                let key = window.key(occ, f, used);
                (memo.get(key, key), (B::empty(), key))
            }
            CountTable::Whole(memo) => (memo.get((occ, used), state_hash(occ, used)), (occ, used)),
        };
        match stored? {
            BIG => self.big.get(&key).copied(),
            c => Some(u128::from(c - 1)),
        }
    }

    /// Records the count below a state (it may push out another), and doubles the table when it
    /// has taken as many counts as it has slots.
    #[inline(always)]
    pub(crate) fn insert(&mut self, occ: B, f: usize, used: u64, count: u128) {
        let stored = match u64::try_from(count) {
            Ok(c) if c < BIG - 1 => c + 1,
            _ => BIG,
        };
        let key = match &mut self.table {
            CountTable::Short { memo, window } => {
                let key = window.key(occ, f, used);
                memo.put(key, key, stored);
                (B::empty(), key)
            }
            CountTable::Whole(memo) => {
                memo.put((occ, used), state_hash(occ, used), stored);
                (occ, used)
            }
        };
        if stored == BIG {
            self.insert_big(key, count);
        }
        if self.growth.taken() {
            self.grow();
        }
    }

    #[cold]
    fn insert_big(&mut self, key: (B, u64), count: u128) {
        self.big.insert(key, count);
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        match &mut self.table {
            CountTable::Short { memo, .. } => memo.grow(|&k, _| k),
            CountTable::Whole(memo) => memo.grow(|&(occ, used), _| state_hash(occ, used)),
        }
        self.growth.doubled();
    }
}

/// `known`, or else `check`'s answer, then kept with `keep`; with whether it was kept.
#[inline(always)]
fn known_or(known: Option<bool>, check: impl FnOnce() -> bool, keep: impl FnOnce(bool)) -> (bool, bool) {
    match known {
        Some(r) => (r, false),
        None => {
            let r = check();
            keep(r);
            (r, true)
        }
    }
}

/// The entries a table of `2^log2` slots takes before it doubles, if it may.
fn room(log2: u32, max_log2: u32) -> usize {
    if log2 < max_log2 { 1 << log2 } else { usize::MAX }
}

/// Pocket-check results by the occupancy of the lines that are not open (see [`Memo`]).
/// Like [`DeadStates`], the table starts small and doubles as it fills, up to a bound.
pub(crate) struct PocketResults<B> {
    table: PocketTable<B>,
    growth: Growth,
    /// Bytes of the table now.
    pub(crate) bytes: usize,
}

/// The table of [`PocketResults`], by how its keys are stored.
enum PocketTable<B> {
    /// Cut down to the first free cell and the bits after it (see [`Window`]): the covered
    /// cells decide the open lines too.
    Narrow { table: NarrowTable, window: Window },
    /// Keyed by the board's bits of that occupancy (`cells`), when the board has at most 62.
    Packed { table: WordTable, cells: u64 },
    /// 1: fine, 2: not.
    Whole(Memo<B, u8>),
}

impl<B: CellBits> PocketResults<B> {
    /// A table of `2^log2` results, growing to at most `max_bytes`, for a board of `nbits` bits;
    /// `window` spans the longest placement.
    pub(crate) fn new(log2: u32, max_bytes: usize, nbits: usize, window: Window) -> Self {
        let most = |slot: usize| most_slots(max_bytes, slot);
        let (table, max_log2) = if window.fits(0, log2) {
            let table = NarrowTable::new(log2, window.bits(0));
            (PocketTable::Narrow { table, window }, most(4).min(window.bits(0)))
        } else if B::CAPACITY == 64 && nbits <= 62 {
            (PocketTable::Packed { table: WordTable::new(log2), cells: B::below(nbits).word_at(0) }, most(8))
        } else {
            let slot = std::mem::size_of::<(B, u8)>();
            (PocketTable::Whole(Memo::new(whole_log2(log2, slot))), most(slot))
        };
        let log2 = match &table {
            PocketTable::Narrow { table, .. } => table.slots.len().ilog2(),
            PocketTable::Whole(memo) => memo.slots.len().ilog2(),
            _ => log2,
        };
        let mut results = PocketResults { table, growth: Growth::new(log2, max_log2), bytes: 0 };
        results.bytes = results.table_bytes();
        results
    }

    /// Bytes of the table's slots.
    fn table_bytes(&self) -> usize {
        match &self.table {
            PocketTable::Narrow { table, .. } => std::mem::size_of_val(&table.slots[..]),
            PocketTable::Packed { table, .. } => std::mem::size_of_val(&table.slots[..]),
            PocketTable::Whole(memo) => std::mem::size_of_val(&memo.slots[..]),
        }
    }

    /// The result for the node with occupancy `occ`, first free cell `f` and open lines `open`,
    /// worked out by `check` if it is not known.
    #[inline(always)]
    pub(crate) fn get_or(&mut self, occ: B, f: usize, open: B, check: impl FnOnce() -> bool) -> bool {
        let (r, taken) = match &mut self.table {
            PocketTable::Narrow { table, window } => {
                let k = window.key(occ, f, 0);
                known_or(table.get(k), check, |r| table.put(k, r))
            }
            PocketTable::Packed { table, cells } => {
                let k = (occ & !open).word_at(0) & *cells;
                known_or(table.get(k), check, |r| table.put(k, r))
            }
            PocketTable::Whole(memo) => {
                let (key, hash) = (occ & !open, (occ & !open).digest());
                known_or(memo.get(key, hash).map(|r| r == 1), check, |r| memo.put(key, hash, if r { 1 } else { 2 }))
            }
        };
        if taken && self.growth.taken() {
            self.grow();
        }
        r
    }

    /// Starts loading the slot of a node that [`PocketResults::get_or`] will soon be asked about.
    #[inline(always)]
    pub(crate) fn prefetch(&self, occ: B, f: usize, open: B) {
        match &self.table {
            PocketTable::Narrow { table, window } => table.prefetch(window.key(occ, f, 0)),
            PocketTable::Packed { table, cells } => table.prefetch((occ & !open).word_at(0) & *cells),
            PocketTable::Whole(_) => {}
        }
    }

    /// Doubles the table, keeping every result.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        match &mut self.table {
            PocketTable::Narrow { table, .. } => table.grow(),
            PocketTable::Packed { table, .. } => table.grow(),
            PocketTable::Whole(memo) => memo.grow(|key, _| key.digest()),
        }
        self.growth.doubled();
        self.bytes = self.table_bytes();
    }

    /// Log2 of the table's slots.
    #[cfg(test)]
    fn log2(&self) -> u32 {
        self.growth.log2
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

    /// Runs inserts into a dead-state table (`(occupancy, first free cell, copies used)`): the
    /// state just inserted is found, and a state found was inserted (collisions forget, never
    /// invent).
    fn check_dead<B: CellBits>(mut dead: DeadStates<B>, states: &[(B, usize, u64)]) -> Result<(), TestCaseError> {
        for (k, &(occ, f, used)) in states.iter().enumerate() {
            dead.insert(occ, f, used);
            prop_assert!(dead.contains(occ, f, used));
            for &(o, g, u) in &states[k + 1..] {
                if dead.contains(o, g, u) {
                    prop_assert!(states[..=k].iter().any(|&(p, _, v)| (p, v) == (o, u)));
                }
            }
        }
        Ok(())
    }

    /// A dead-state table doubles each time it has taken as many states as it has slots, up to
    /// its bound in bytes, and still holds the states it took last.
    #[test]
    fn dead_states_grow_to_their_bound() {
        // Narrow keys (4-byte slots): from 16 slots up to 256 (1 KB).
        let mut dead = DeadStates::<Bitboard>::new(4, 1024, 50, 10, Window::new(12, 50));
        let state = |k: u64| (Bitboard(((1 << 20) - 1) | ((k % 2048) << 21)), 20, k / 2048);
        let mut log2 = Vec::new();
        for k in 0..2000 {
            let (occ, f, used) = state(k * 7919 % 1_000_003);
            dead.insert(occ, f, used);
            log2.push(dead.log2());
        }
        // Doublings after 16, 32, 64 and 128 more states; then the bound.
        let first = |l: u32| log2.iter().position(|&x| x == l);
        assert_eq!([4, 5, 6, 7, 8].map(first), [Some(0), Some(15), Some(47), Some(111), Some(239)]);
        assert_eq!(log2.last(), Some(&8));
        let (occ, f, used) = state(1999 * 7919 % 1_000_003);
        assert!(dead.contains(occ, f, used));
    }

    /// Keys too long for narrow slots while the table is small go whole into word slots; once
    /// the table has doubled enough for narrow slots to keep them, it moves every state over, and
    /// a state it reports was put in.
    #[test]
    fn windowed_dead_states_turn_narrow_as_the_table_grows() {
        // A window of 20 bits, 7 bits of first free cell and 10 of copies: 37 bits, narrow from
        // 2^7 slots; two words of board, so no packed keys. Bound: 2^9 narrow slots (2 KB).
        let mut dead = DeadStates::<WideBits<2>>::new(4, 2048, 100, 10, Window::new(20, 100));
        assert!(matches!(dead.table, DeadTable::Windowed { .. }));
        let state = |k: u64| (WideBits([((1 << 40) - 1) | (k % (1 << 19)) << 41, 0]), 40, k >> 19);
        let mut put = Vec::new();
        for k in 0..3000u64 {
            let (occ, f, used) = state(k.wrapping_mul(0x9e37_79b9) % (1 << 25));
            dead.insert(occ, f, used);
            assert!(dead.contains(occ, f, used), "the state just put in");
            put.push((occ, used));
            if k == 40 {
                assert!(matches!(dead.table, DeadTable::Windowed { .. }), "word slots while small");
            }
        }
        assert!(matches!(dead.table, DeadTable::Narrow { .. }));
        assert_eq!(dead.log2(), 9);
        for k in 0..20_000u64 {
            let (occ, f, used) = state(k.wrapping_mul(0x51_7cc1_b727) % (1 << 25));
            if dead.contains(occ, f, used) {
                assert!(put.contains(&(occ, used)), "never invents a state");
            }
        }
    }

    /// A narrow table holding one key answers for it alone: every other key of 10 bits (in a
    /// table of 16 slots, keeping 6 bits a slot) misses.
    #[test]
    fn narrow_table_keys_are_exact() {
        let mut table = NarrowTable::new(4, 10);
        for k in 0..1024u64 {
            table.put(k, k % 3 == 0);
            assert_eq!(table.get(k), Some(k % 3 == 0));
            let others = (0..1024u64).filter(|&j| j != k && table.get(j).is_some()).count();
            assert_eq!(others, 0, "key {k}");
            table.slots.fill(0);
        }
    }

    proptest! {
        /// Packed (one word), narrow (a window after the first free cell) and whole keys keep
        /// dead states exactly, collisions included (a table of 16 slots, and one that grows
        /// from 16 slots to 4 KB).
        #[test]
        fn dead_states_never_invent(
            states in proptest::collection::vec((any::<u64>(), 0usize..50, 0u64..1024), 1..60),
            grows in any::<bool>(),
        ) {
            let max_bytes = if grows { 4096 } else { 0 };
            let wide_window = Window::new(64, 50);
            let packed: Vec<(Bitboard, usize, u64)> =
                states.iter().map(|&(o, f, u)| (Bitboard(o & ((1 << 50) - 1)), f, u)).collect();
            let table = DeadStates::<Bitboard>::new(4, max_bytes, 50, 10, wide_window);
            let packed_keys = matches!(table.table, DeadTable::Packed { .. });
            prop_assert!(packed_keys);
            check_dead(table, &packed)?;
            // States as a search meets them: every cell below the first free one covered, the
            // others within a span of 12 (some of them alike but for the copies used).
            let span = 12;
            let near: Vec<(Bitboard, usize, u64)> = states
                .iter()
                .map(|&(o, f, u)| (Bitboard(((1 << f) - 1) | ((o & ((1 << (span - 1)) - 1)) << (f + 1))), f, u % 4))
                .collect();
            let table = DeadStates::<Bitboard>::new(4, max_bytes, 50, 10, Window::new(span, 50));
            let narrow_keys = matches!(table.table, DeadTable::Narrow { .. });
            prop_assert!(narrow_keys);
            check_dead(table, &near)?;
            // The same on a board of two words, the window straddling them.
            let near_wide: Vec<(WideBits<2>, usize, u64)> = near
                .iter()
                .map(|&(o, f, u)| (WideBits([((1 << 50) - 1) | o.0 << 50, o.0 >> 14]), f + 50, u))
                .collect();
            let table = DeadStates::<WideBits<2>>::new(4, max_bytes, 100, 10, Window::new(span, 100));
            let narrow_keys = matches!(table.table, DeadTable::Narrow { .. });
            prop_assert!(narrow_keys);
            check_dead(table, &near_wide)?;
            let wide: Vec<(WideBits<2>, usize, u64)> = states.iter().map(|&(o, _, u)| (WideBits([o, u]), 0, u)).collect();
            check_dead(DeadStates::<WideBits<2>>::new(4, max_bytes, 100, 10, wide_window), &wide)?;
        }

        /// Doubling a table keeps exactly what it held: every key it answered for, with its
        /// value, and no other (narrow, word and whole keys; three doublings).
        #[test]
        fn growing_keeps_exactly_every_entry(
            keys in proptest::collection::vec(any::<u64>(), 1..100),
            probes in proptest::collection::vec(any::<u64>(), 0..100),
        ) {
            let (mut narrow, mut word, mut memo) = (NarrowTable::new(4, 12), WordTable::new(4), Memo::<u64, u64>::new(4));
            let hash = |k: u64| k.wrapping_mul(0xff51_afd7_ed55_8ccd);
            for &k in &keys {
                narrow.put(k & 0xfff, k % 3 == 0);
                word.put(k >> 2, k % 3 == 0);
                memo.put(k, hash(k), k | 1);
            }
            let all: Vec<u64> = keys.iter().chain(&probes).copied().collect();
            let held = |narrow: &NarrowTable, word: &WordTable, memo: &Memo<u64, u64>| {
                let n: Vec<Option<bool>> = (0..4096).map(|k| narrow.get(k)).collect();
                let w: Vec<Option<bool>> = all.iter().map(|&k| word.get(k >> 2)).collect();
                let m: Vec<Option<u64>> = all.iter().map(|&k| memo.get(k, hash(k))).collect();
                (n, w, m)
            };
            let before = held(&narrow, &word, &memo);
            for _ in 0..3 {
                narrow.grow();
                word.grow();
                memo.grow(|&k, _| hash(k));
            }
            prop_assert_eq!((narrow.slots.len(), word.slots.len(), memo.slots.len()), (128, 128, 128));
            prop_assert_eq!(before, held(&narrow, &word, &memo));
        }

        /// Pocket results are worked out once and then remembered, packed or whole.
        #[test]
        fn pocket_results_are_remembered(keys in proptest::collection::vec(any::<u64>(), 1..40)) {
            // From 16 slots, doubling up to 4 KB; a window too wide for narrow keys, and one
            // that fits (20 bits after the first free cell, bit 0).
            let wide = Window::new(64, 100);
            let mut packed = PocketResults::<Bitboard>::new(4, 4096, 60, wide);
            let mut whole = PocketResults::<WideBits<2>>::new(4, 4096, 100, wide);
            let mut narrow = PocketResults::<Bitboard>::new(4, 4096, 60, Window::new(20, 60));
            let none = Bitboard(0);
            for &k in &keys {
                let ok = k % 3 != 0;
                let key = Bitboard(k & ((1 << 60) - 1));
                prop_assert_eq!(packed.get_or(key, 0, none, || ok), ok);
                prop_assert_eq!(packed.get_or(key, 0, none, || !ok), ok, "remembered");
                prop_assert_eq!(whole.get_or(WideBits([k, 1]), 0, WideBits([0, 0]), || ok), ok);
                prop_assert_eq!(whole.get_or(WideBits([k, 1]), 0, WideBits([0, 0]), || !ok), ok, "remembered");
                let (bits, ok) = (k & 0xf_ffff, (k & 0xf_ffff) % 3 != 0);
                prop_assert_eq!(narrow.get_or(Bitboard(bits << 1), 0, none, || ok), ok);
                prop_assert_eq!(narrow.get_or(Bitboard(bits << 1), 0, none, || !ok), ok, "remembered");
            }
            // As many results as slots: doubled.
            prop_assert_eq!(packed.log2() > 4, whole.log2() > 4);
            prop_assert_eq!(packed.log2() > 4, keys.len() >= 16);
        }
    }
}
