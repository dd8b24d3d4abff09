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

use tessera_core::runtime::{POLL_INTERVAL, Stop, StopReason};

use crate::tiler::plan::Plan;

/// Counts the tilings of `plan` that its symmetry `g` (an index into [`Plan::symmetries`]) maps to
/// themselves, or says why it stopped.
pub(crate) fn count_fixed(plan: &Plan, g: usize, stop: &mut dyn Stop) -> Result<u64, StopReason> {
    let orbits = Orbits::new(plan, g);
    let counts: Vec<u32> = plan.types.iter().map(|t| t.count).collect();
    let mut search = Search { orbits: &orbits, memo: HashMap::new(), nodes: 0, stop };
    // Bits of the layout that are no board cell start covered.
    let mut occ = vec![!0u64; plan.nbits.div_ceil(64)];
    flip(&mut occ, &plan.bit_of);
    search.below(&mut occ, &mut counts.clone())
}

/// Every placement's orbit under the powers of one symmetry, filed by the placement's first
/// cell; only orbits that could be part of a fixed tiling are kept.
struct Orbits {
    /// `by_first[b]`: the orbits whose first placement's lowest bit is `b`.
    by_first: Vec<Vec<Orbit>>,
}

/// The cells an orbit covers (as sorted bits of the plan's layout) and the copies of each type
/// it uses.
struct Orbit {
    cells: Vec<u32>,
    types: Vec<(usize, u32)>,
}

impl Orbits {
    fn new(plan: &Plan, g: usize) -> Self {
        let (perm, map) = (&plan.symmetries[g], &plan.type_maps[g]);
        let index: HashMap<(usize, &[u32]), usize> =
            plan.placements.iter().enumerate().map(|(k, p)| ((p.ty, plan.cells_of(p)), k)).collect();
        // The image of a placement under g: the placement of the mapped type on the mapped cells.
        let mut cells = Vec::new();
        let mut image = |k: usize| {
            let p = &plan.placements[k];
            cells.clear();
            cells.extend(plan.cells_of(p).iter().map(|&c| perm[c as usize]));
            cells.sort_unstable();
            index.get(&(usize::from(map[p.ty]), cells.as_slice())).copied()
        };
        let mut by_first: Vec<Vec<Orbit>> = (0..plan.nbits).map(|_| Vec::new()).collect();
        for (k, p) in plan.placements.iter().enumerate() {
            let Some(orbit) = orbit_of(plan, k, &mut image) else { continue };
            let first = plan.cells_of(p).iter().map(|&c| plan.bit_of[c as usize]).min();
            by_first[first.unwrap_or(0) as usize].push(orbit);
        }
        Orbits { by_first }
    }
}

/// The orbit of placement `k` under `image`, if its placements neither overlap nor cover a
/// cell twice (a placement mapped onto its own cells with another type overlaps itself).
fn orbit_of(plan: &Plan, k: usize, image: &mut impl FnMut(usize) -> Option<usize>) -> Option<Orbit> {
    let (mut cells, mut types) = (Vec::new(), Vec::<(usize, u32)>::new());
    let mut q = k;
    loop {
        let p = &plan.placements[q];
        cells.extend(plan.cells_of(p).iter().map(|&c| plan.bit_of[c as usize]));
        match types.iter_mut().find(|t| t.0 == p.ty) {
            Some(t) => t.1 += 1,
            None => types.push((p.ty, 1)),
        }
        q = image(q)?;
        if q == k {
            break;
        }
    }
    cells.sort_unstable();
    let overlaps = cells.windows(2).any(|w| w[0] == w[1]);
    let too_many = types.iter().any(|&(ty, n)| n > plan.types[ty].count);
    (!overlaps && !too_many).then_some(Orbit { cells, types })
}

/// A depth-first count over orbits, remembering the count below each state.
struct Search<'a> {
    orbits: &'a Orbits,
    /// Counts below states: (covered cells, copies left) -> tilings.
    memo: HashMap<(Vec<u64>, Vec<u32>), u64>,
    nodes: u64,
    stop: &'a mut dyn Stop,
}

impl Search<'_> {
    /// The fixed tilings that complete the covered cells `occ` with the copies `left`.
    fn below(&mut self, occ: &mut Vec<u64>, left: &mut Vec<u32>) -> Result<u64, StopReason> {
        let n = self.orbits.by_first.len();
        let Some(first) = (0..occ.len()).find_map(|w| {
            let free = !occ[w];
            (free != 0).then(|| w * 64 + free.trailing_zeros() as usize).filter(|&c| c < n)
        }) else {
            return Ok(1);
        };
        if let Some(&known) = self.memo.get(&(occ.clone(), left.clone())) {
            return Ok(known);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && self.stop.should_stop(POLL_INTERVAL) {
            return Err(self.stop.reason().unwrap_or(StopReason::Cancelled));
        }
        let orbits = self.orbits;
        let mut total = 0;
        for orbit in &orbits.by_first[first] {
            let free = orbit.cells.iter().all(|&c| occ[c as usize / 64] >> (c % 64) & 1 == 0);
            if !free || orbit.types.iter().any(|&(ty, k)| left[ty] < k) {
                continue;
            }
            flip(occ, &orbit.cells);
            orbit.types.iter().for_each(|&(ty, k)| left[ty] -= k);
            let below = self.below(occ, left);
            orbit.types.iter().for_each(|&(ty, k)| left[ty] += k);
            flip(occ, &orbit.cells);
            total = super::search::add_weighted(total, below?, 1)?;
        }
        self.memo.insert((occ.clone(), left.clone()), total);
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
    use tessera_core::geometry::Lattice;
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
        let fixed: Vec<u64> = (0..8).map(|g| count_fixed(&p, g, &mut Budget::unlimited().worker()).unwrap()).collect();
        assert_eq!(fixed[0], 2, "the identity fixes every tiling");
        assert_eq!(fixed.iter().sum::<u64>(), 8, "one class times the group's 8");
        assert_eq!(fixed.iter().filter(|&&f| f == 2).count(), 4);
    }
}
