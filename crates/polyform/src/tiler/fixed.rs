//! The tilings that one board symmetry maps to themselves, for Burnside's lemma: the classes of
//! tilings up to a group `G` number `(1/|G|) * sum over g of Fix(g)`, where `Fix(g)` counts the
//! tilings `g` maps to themselves. A count that remembers subtree counts never sees its tilings
//! one by one, so it cannot ask each one for its stabiliser; it counts `Fix(g)` apart instead.
//!
//! A tiling fixed by `g` is a union of orbits of placements under the powers of `g`: the search
//! fills the first free cell (in the order of the plan's bit layout, which keeps the front of
//! filled cells narrow, so that states recur) with a placement and its whole orbit at once (the orbit must lie on
//! free cells without overlapping itself, and it uses one copy of the type of each of its
//! placements: a reflection may map a chiral piece to its mirror type). It works on the plan's
//! own placements (no pruning, no symmetry breaking: it shares no code with the fast engine) and
//! remembers the count below each state, as the main count does.

use std::collections::HashMap;

use tessera_core::hash::Words;
use tessera_core::runtime::{POLL_INTERVAL, Stop, StopReason};

use crate::tiler::plan::{Placement, Plan};

/// Counts, for any symmetry of one plan, the tilings it maps to themselves.
pub(crate) struct FixedTilings<'a> {
    plan: &'a Plan,
    /// A random word for each cell of the board: a set of cells is keyed by their sum, which
    /// does not depend on their order (no sorting to find a placement's image).
    zobrist: Vec<u64>,
    /// The first placement of each type and key; `chain[k]` the next one of the same type and
    /// key after placement `k` (keys of different sets rarely meet; lookups check the cells).
    index: HashMap<(usize, u64), u32, Words>,
    chain: Vec<u32>,
    /// Each placement's lowest bit in the plan's layout.
    low: Vec<u32>,
}

/// No placement (the end of a chain).
const NONE: u32 = u32::MAX;

impl<'a> FixedTilings<'a> {
    pub(crate) fn new(plan: &'a Plan) -> Self {
        let mut seed = 0x243f_6a88_85a3_08d3u64;
        let zobrist: Vec<u64> = (0..plan.len()).map(|_| splitmix(&mut seed)).collect();
        let mut index: HashMap<(usize, u64), u32, Words> = HashMap::default();
        let mut chain = vec![NONE; plan.placements.len()];
        for (k, p) in plan.placements.iter().enumerate() {
            let key = plan.cells_of(p).iter().fold(0u64, |h, &c| h.wrapping_add(zobrist[c as usize]));
            if let Some(first) = index.insert((p.ty, key), k as u32) {
                chain[k] = first;
            }
        }
        let low = plan.placements.iter().map(|p| bits_of(plan, p).min().unwrap_or(0)).collect();
        FixedTilings { plan, zobrist, index, chain, low }
    }

    /// Counts the tilings that the symmetry `g` (an index into [`Plan::symmetries`]) maps to
    /// themselves, or says why it stopped.
    pub(crate) fn count(&self, g: usize, stop: &mut dyn Stop) -> Result<u128, StopReason> {
        let plan = self.plan;
        let orbits = Orbits::new(self, g);
        let mut left: Vec<u32> = plan.types.iter().map(|t| t.count).collect();
        // Bits of the layout that are no board cell start covered.
        let mut occ = vec![!0u64; plan.nbits.div_ceil(64)];
        flip(&mut occ, &plan.bit_of);
        let mut search = Search { orbits: &orbits, memo: HashMap::default(), key: Vec::new(), nodes: 0, stop };
        search.below(&mut occ, &mut left)
    }
}

/// The symmetries other than the identity in classes whose members fix equally many tilings,
/// as (a member, the class's size): `g` and `h g h^-1` do (`h` maps the tilings `g` fixes onto
/// those `h g h^-1` fixes), and so do `g` and its powers that generate the same cyclic group
/// (a tiling fixed by one is fixed by the other). Burnside's lemma then needs one count a
/// class: on the cube's 24 rotations, 4 instead of 23.
pub(crate) fn symmetry_classes(plan: &Plan) -> Vec<(usize, u64)> {
    let n = plan.symmetries.len();
    // A symmetry by what it does (to cells and to types), to find a product among them.
    let action = |g: usize| (&plan.symmetries[g][..], &plan.type_maps[g][..]);
    let index: HashMap<(&[u32], &[u16]), usize, Words> = (0..n).rev().map(|g| (action(g), g)).collect();
    let find = |perm: &[u32], types: &[u16]| index.get(&(perm, types)).copied();
    let compose = |a: usize, b: usize| -> (Vec<u32>, Vec<u16>) {
        let (pa, ta) = action(a);
        let (pb, tb) = action(b);
        (pb.iter().map(|&c| pa[c as usize]).collect(), tb.iter().map(|&t| ta[usize::from(t)]).collect())
    };
    let inverse: Vec<Option<usize>> = (0..n)
        .map(|g| {
            let (p, t) = action(g);
            let mut ip = vec![0u32; p.len()];
            p.iter().enumerate().for_each(|(c, &d)| ip[d as usize] = c as u32);
            let mut it = vec![0u16; t.len()];
            t.iter().enumerate().for_each(|(u, &v)| it[usize::from(v)] = u as u16);
            find(&ip, &it)
        })
        .collect();
    // Union-find over the symmetries; a product not in the list (it cannot happen in a group,
    // but the list is only trusted this far) joins nothing.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut g: usize) -> usize {
        while parent[g] != g {
            parent[g] = parent[parent[g]];
            g = parent[g];
        }
        g
    }
    let join = |parent: &mut Vec<usize>, a: usize, b: usize| {
        let (ra, rb) = (root(parent, a), root(parent, b));
        parent[ra.max(rb)] = ra.min(rb);
    };
    for g in 1..n {
        // Equal actions listed twice (a board too thin to tell them apart).
        if let Some(e) = find(action(g).0, action(g).1) {
            join(&mut parent, g, e);
        }
        for (h, hi) in inverse.iter().enumerate().skip(1) {
            let Some(hi) = *hi else { continue };
            let (p, t) = compose(h, g);
            let Some(hg) = find(&p, &t) else { continue };
            let (p, t) = compose(hg, hi);
            if let Some(c) = find(&p, &t) {
                join(&mut parent, g, c);
            }
        }
        // The powers g^k: those that generate the same cyclic group (k coprime to g's order),
        // once the powers are seen to come back to the identity.
        let mut powers = vec![g];
        let mut back = false;
        while powers.len() <= n {
            let (p, t) = compose(powers[powers.len() - 1], g);
            match find(&p, &t) {
                Some(0) => {
                    back = true;
                    break;
                }
                Some(next) => powers.push(next),
                None => break,
            }
        }
        let order = powers.len() + 1;
        for (k, &q) in powers.iter().enumerate().filter(|_| back) {
            if gcd(k + 1, order) == 1 {
                join(&mut parent, g, q);
            }
        }
    }
    let mut classes: Vec<(usize, u64)> = Vec::new();
    for g in 1..n {
        let r = root(&mut parent, g);
        match classes.iter_mut().find(|c| c.0 == r) {
            Some(c) => c.1 += 1,
            None => classes.push((r, 1)),
        }
    }
    classes
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The next word of the SplitMix64 sequence (random words for the keys of cell sets).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A placement's cells as bits of the plan's layout.
fn bits_of<'p>(plan: &'p Plan, p: &'p Placement) -> impl Iterator<Item = u32> + 'p {
    plan.cells_of(p).iter().map(|&c| plan.bit_of[c as usize])
}

/// The orbits of the placements under the powers of one symmetry that could be part of a fixed
/// tiling, each filed under the lowest bit of every placement in it. One flat list each (a
/// count of a small puzzle makes these for dozens of symmetries).
struct Orbits<'a> {
    plan: &'a Plan,
    /// Orbit `o` covers `cells[ends[o].0..ends[o + 1].0]` (the bits of the layout it covers, as
    /// words: an index and a mask, so that a large piece is a few words to test) and uses
    /// `types[ends[o].1..ends[o + 1].1]` (a type and its copies); `ends[0]` is `(0, 0)`.
    cells: Vec<(u32, u64)>,
    types: Vec<(usize, u32)>,
    ends: Vec<(u32, u32)>,
    /// The orbits with a placement whose lowest bit is `b`: `filed[first[b]..first[b + 1]]`.
    filed: Vec<u32>,
    first: Vec<u32>,
}

impl<'a> Orbits<'a> {
    fn new(fixed: &FixedTilings<'a>, g: usize) -> Self {
        let plan = fixed.plan;
        let (perm, map) = (&plan.symmetries[g], &plan.type_maps[g]);
        // The image of a placement under g: the placement of the mapped type on the mapped
        // cells, found by the key of those cells and checked cell by cell (`marked`).
        let mut marked = vec![false; plan.len()];
        let mut image = |k: usize| {
            let p = &plan.placements[k];
            let cells = plan.cells_of(p);
            let key = cells.iter().fold(0u64, |h, &c| h.wrapping_add(fixed.zobrist[perm[c as usize] as usize]));
            let mut q = fixed.index.get(&(usize::from(map[p.ty]), key)).copied().unwrap_or(NONE);
            cells.iter().for_each(|&c| marked[perm[c as usize] as usize] = true);
            while q != NONE {
                let other = plan.cells_of(&plan.placements[q as usize]);
                if other.len() == cells.len() && other.iter().all(|&c| marked[c as usize]) {
                    break;
                }
                q = fixed.chain[q as usize];
            }
            cells.iter().for_each(|&c| marked[perm[c as usize] as usize] = false);
            (q != NONE).then_some(q as usize)
        };
        let mut orbits = Orbits {
            plan,
            cells: Vec::new(),
            types: Vec::new(),
            ends: vec![(0, 0)],
            filed: Vec::new(),
            first: Vec::new(),
        };
        let mut seen = vec![false; plan.placements.len()];
        let mut words = vec![0u64; plan.nbits.div_ceil(64)];
        // (lowest bit, orbit) for each placement of a kept orbit.
        let (mut members, mut lows) = (Vec::new(), Vec::new());
        // Each cycle of placements once (g permutes them), from its first placement.
        for k in 0..plan.placements.len() {
            if seen[k] {
                continue;
            }
            members.clear();
            let mut q = k;
            let closed = loop {
                seen[q] = true;
                members.push(q);
                match image(q) {
                    Some(r) if !seen[r] => q = r,
                    Some(r) => break r == k,
                    None => break false,
                }
            };
            if closed && orbits.push(plan, &members, &mut words) {
                let o = orbits.ends.len() as u32 - 2;
                lows.extend(members.iter().map(|&m| (fixed.low[m], o)));
            }
        }
        lows.sort_unstable();
        orbits.filed = lows.iter().map(|&(_, o)| o).collect();
        orbits.first = (0..=plan.nbits as u32).map(|b| lows.partition_point(|&(low, _)| low < b) as u32).collect();
        orbits
    }

    /// Adds the orbit made of the placements `members`, if they neither overlap nor cover a
    /// cell twice (a placement mapped onto its own cells with another type overlaps itself) and
    /// use no more copies of a type than there are; whether it was added. `words` (one per word
    /// of the layout, all 0) is scratch space.
    fn push(&mut self, plan: &Plan, members: &[usize], words: &mut [u64]) -> bool {
        let (cells_at, types_at) = (self.cells.len(), self.types.len());
        let mut overlaps = false;
        for p in members.iter().map(|&q| &plan.placements[q]) {
            for b in bits_of(plan, p) {
                let (w, bit) = (b as usize / 64, 1u64 << (b % 64));
                if words[w] == 0 {
                    self.cells.push((w as u32, 0));
                }
                overlaps |= words[w] & bit != 0;
                words[w] |= bit;
            }
            match self.types[types_at..].iter_mut().find(|t| t.0 == p.ty) {
                Some(t) => t.1 += 1,
                None => self.types.push((p.ty, 1)),
            }
        }
        for (w, mask) in &mut self.cells[cells_at..] {
            *mask = std::mem::take(&mut words[*w as usize]);
        }
        let too_many = self.types[types_at..].iter().any(|&(ty, n)| n > plan.types[ty].count);
        if overlaps || too_many {
            self.cells.truncate(cells_at);
            self.types.truncate(types_at);
            return false;
        }
        self.ends.push((self.cells.len() as u32, self.types.len() as u32));
        true
    }

    /// The orbits with a placement whose lowest bit is `b`, as their cells and types.
    fn at(&self, b: usize) -> impl Iterator<Item = OrbitView<'_>> + '_ {
        self.filed[self.first[b] as usize..self.first[b + 1] as usize].iter().map(|&o| {
            let ((c0, t0), (c1, t1)) = (self.ends[o as usize], self.ends[o as usize + 1]);
            (&self.cells[c0 as usize..c1 as usize], &self.types[t0 as usize..t1 as usize])
        })
    }
}

/// One orbit as `Orbits::at` gives it: its cells as `(word, mask)` pairs and how many copies
/// of each piece type it uses.
type OrbitView<'o> = (&'o [(u32, u64)], &'o [(usize, u32)]);

/// A depth-first count over orbits, remembering the count below each state.
struct Search<'a> {
    orbits: &'a Orbits<'a>,
    /// Counts below states: the covered cells' words, then the copies left of each type ->
    /// tilings.
    memo: HashMap<Box<[u64]>, u128, Words>,
    /// A state's key, built here before it is looked up.
    key: Vec<u64>,
    nodes: u64,
    stop: &'a mut dyn Stop,
}

impl Search<'_> {
    /// The fixed tilings that complete the covered cells `occ` with the copies `left`.
    fn below(&mut self, occ: &mut Vec<u64>, left: &mut Vec<u32>) -> Result<u128, StopReason> {
        let n = self.orbits.first.len() - 1;
        let Some(first) = (0..occ.len()).find_map(|w| {
            let free = !occ[w];
            (free != 0).then(|| w * 64 + free.trailing_zeros() as usize).filter(|&c| c < n)
        }) else {
            // A full board, with at least the least copies of every type.
            let types = &self.orbits.plan.types;
            return Ok(u128::from(left.iter().zip(types).all(|(&l, t)| l <= t.count - t.min)));
        };
        // Every cell that must be covered is, and only empty cells are left to place: the rest
        // stays empty (a symmetry fixes the free cells, whose complement it fixes).
        let plan = self.orbits.plan;
        if first >= plan.fixed_bits
            && let Some(e) = plan.empty
            && left.iter().enumerate().all(|(t, &l)| t == e || l == 0)
        {
            let free: u32 = occ.iter().map(|w| (!w).count_ones()).sum();
            let t = &plan.types[e];
            return Ok(u128::from(free <= left[e] && left[e] - free <= t.count - t.min));
        }
        self.key.clear();
        self.key.extend(occ.iter().copied().chain(left.iter().map(|&k| u64::from(k))));
        if let Some(&known) = self.memo.get(&self.key[..]) {
            return Ok(known);
        }
        let key: Box<[u64]> = self.key.as_slice().into();
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && self.stop.should_stop(POLL_INTERVAL) {
            return Err(self.stop.reason().unwrap_or(StopReason::Cancelled));
        }
        let orbits = self.orbits;
        let mut total = 0;
        for (cells, types) in orbits.at(first) {
            let free = cells.iter().all(|&(w, m)| occ[w as usize] & m == 0);
            if !free || types.iter().any(|&(ty, k)| left[ty] < k) {
                continue;
            }
            cells.iter().for_each(|&(w, m)| occ[w as usize] ^= m);
            types.iter().for_each(|&(ty, k)| left[ty] -= k);
            let below = self.below(occ, left);
            types.iter().for_each(|&(ty, k)| left[ty] += k);
            cells.iter().for_each(|&(w, m)| occ[w as usize] ^= m);
            total = super::search::add_weighted(total, below?, 1)?;
        }
        self.memo.insert(key, total);
        Ok(total)
    }
}

/// Toggles `bits` in the bit set `occ`.
fn flip(occ: &mut [u64], bits: &[u32]) {
    for &c in bits {
        occ[c as usize / 64] ^= 1 << (c % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiler::problem::from_pictures;
    use crate::tiler::problem::{PieceSpec, Problem};
    use tessera_core::geometry::{Coord, Lattice};
    use tessera_core::runtime::Budget;

    fn plan(board: &str, pieces: &[(char, u32, bool, &str)]) -> Plan {
        Plan::new(&from_pictures(Lattice::Square, board, pieces).unwrap())
    }

    /// Dominoes on a 2x2 square: two tilings (both horizontal, both vertical), swapped by the
    /// quarter turns and the diagonal reflections, each kept by the half turn and the reflections
    /// in the axes. Burnside: (2 + 0 + 2 + 0 + 2 + 2 + 0 + 0) / 8 = 1 class.
    #[test]
    fn dominoes_on_a_square() {
        let p = plan("##\n##", &[('D', 2, true, "##")]);
        assert_eq!(p.symmetries.len(), 8);
        let fixed: Vec<u128> =
            (0..8).map(|g| FixedTilings::new(&p).count(g, &mut Budget::unlimited().worker()).unwrap()).collect();
        assert_eq!(fixed[0], 2, "the identity fixes every tiling");
        assert_eq!(fixed.iter().sum::<u128>(), 8, "one class times the group's 8");
        assert_eq!(fixed.iter().filter(|&&f| f == 2).count(), 4);
    }

    /// The classes of the square's 8 symmetries (the quarter turns, the half turn, the
    /// reflections in the axes, in the diagonals), of the cube's 24 rotations (about the
    /// corners, a quarter turn about the faces, a half turn about them, a half turn about the
    /// edges) and of all its 48 symmetries; each class's members fix equally many tilings.
    #[test]
    fn symmetries_in_classes() {
        let sizes = |p: &Plan| {
            let mut s: Vec<u64> = symmetry_classes(p).iter().map(|c| c.1).collect();
            s.sort_unstable();
            s
        };
        let square = plan("####\n####\n####\n####", &[('D', 8, true, "##")]);
        assert_eq!(sizes(&square), [1, 2, 2, 2]);
        let fixed = FixedTilings::new(&square);
        let count = |g| fixed.count(g, &mut Budget::unlimited().worker()).unwrap();
        // Every class's members fix as many tilings as its representative (36 tilings of 4x4
        // by dominoes: the sum over the classes is the sum over all symmetries).
        let all: Vec<u128> = (0..8).map(count).collect();
        assert_eq!(all[0], 36);
        let by_class: u128 = symmetry_classes(&square).iter().map(|&(g, n)| all[g] * u128::from(n)).sum();
        assert_eq!(by_class + all[0], all.iter().sum::<u128>());
        let cells: Vec<Coord> = (0..27).map(|k| Coord::at(k % 3, k / 3 % 3, k / 9)).collect();
        let cube_problem =
            Problem::new(Lattice::Cube, cells, vec![PieceSpec::new('C', vec![Coord::at(0, 0, 0)], 27, false)]);
        let cube = Plan::new(&cube_problem);
        assert_eq!(cube.symmetries.len(), 48, "a cube is its own mirror image");
        assert_eq!(sizes(&cube), [1, 3, 3, 6, 6, 6, 6, 8, 8]);
        let rotations = Problem { keep_mirrors: true, ..cube_problem };
        assert_eq!(sizes(&Plan::new(&rotations)), [3, 6, 6, 8]);
    }
}
