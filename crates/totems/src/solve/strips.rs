//! The strips solver: cut the box into strips, split the bag among them, tile each strip exactly.
//!
//! A 32x32 box is eight 4x32 strips. An exact search on the whole box gets lost among 256
//! pieces, but a strip four cells high is a narrow, easy tiling problem (the fill-the-first-cell
//! search walks it column by column), solved in a millisecond or two, and a strip that cannot be
//! tiled is usually proven so as fast. So: deal the bag's pieces among the strips kind by kind
//! (each strip gets its share of every kind), give the spare cells to the strips as holes, make
//! every strip without holes pass the checkerboard test (an even number of T), and tile the
//! strips one by one. When one fails, swap a few pieces between it and another strip and tile
//! both again. Workers race with different deals.
//!
//! The box's short side is split into strips of 4 (the last one 5 to 7 high to make up the
//! rest); strips run along the long side.

use std::time::Duration;

use rand::seq::SliceRandom;
use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::{Budget, portfolio};

use super::{BoxResult, Ctx, exact};
use crate::answer::{Answer, Dims, Placed};
use crate::bag::Bag;

/// Packs the bag into the box by strips; never proves a box impossible.
pub fn pack(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxResult {
    let (w, h) = dims;
    let (long, short) = (w.max(h), w.min(h));
    let Some(layout) = Layout::new(bag, long, short) else { return BoxResult::Unknown };
    let found = portfolio(ctx.threads, ctx.budget, |k, b| layout.solve(bag, derive_seed(ctx.seed, k as u64), b));
    match found {
        // Built with the strips lying along x; turn it if the box is taller than wide.
        Some(a) if w >= h => BoxResult::Packed(a),
        Some(a) => BoxResult::Packed(a.turned(long)),
        None => BoxResult::Unknown,
    }
}

/// How the box is cut: strip heights, pieces and holes per strip.
#[derive(Clone, Debug)]
struct Layout {
    long: u32,
    heights: Vec<u32>,
    pieces: Vec<u32>,
    holes: Vec<u32>,
}

impl Layout {
    /// Strips of 4 along the long side (the last one up to 7), pieces spread so that the spare
    /// cells fall evenly; `None` if the box is too narrow for strips or too small.
    fn new(bag: &Bag, long: u32, short: u32) -> Option<Layout> {
        if short < 8 {
            return None;
        }
        let mut heights = vec![4; (short / 4) as usize];
        *heights.last_mut()? += short % 4;
        let size = bag.set.piece_size() as u32;
        let mut pieces: Vec<u32> = heights.iter().map(|&h| h * long / size).collect();
        let capacity: u64 = pieces.iter().map(|&n| u64::from(n)).sum();
        let mut excess = capacity.checked_sub(bag.len())?;
        let k = pieces.len();
        let mut i = 0;
        while excess > 0 {
            if pieces[i % k] > 0 {
                pieces[i % k] -= 1;
                excess -= 1;
            }
            i += 1;
        }
        let holes = heights.iter().zip(&pieces).map(|(&h, &n)| h * long - size * n).collect();
        Some(Layout { long, heights, pieces, holes })
    }

    /// One worker's attempt: deal, tile strip by strip, swap pieces around failing strips.
    fn solve(&self, bag: &Bag, seed: u64, budget: &mut Budget) -> Option<Answer> {
        let mut rng = Rng64::seed(seed);
        let mut deal = self.deal(bag, &mut rng);
        self.balance_colours(bag, &mut deal);
        let k = self.heights.len();
        let mut tiled: Vec<Option<Answer>> = vec![None; k];
        // Each strip gets a slice of the time left, so that one hard strip cannot eat it all.
        let slice =
            |b: &Budget| b.time_left().map_or(Duration::from_millis(200), |t| (t / 4).max(Duration::from_millis(5)));
        while !budget.expired() {
            let Some(i) = (0..k).find(|&i| tiled[i].is_none()) else { return Some(self.assemble(&tiled)) };
            let sub = Bag { set: bag.set, counts: deal[i].clone() };
            let strip_budget = budget.within(slice(budget));
            let ctx = Ctx { threads: 1, seed: rng.next_u64(), budget: &strip_budget };
            match exact::pack(&sub, (self.long, self.heights[i]), &ctx) {
                BoxResult::Packed(a) => tiled[i] = Some(a),
                _ => {
                    // Trade a few pieces with another strip and tile both again.
                    let j = (i + 1 + rng.below(k as u64 - 1) as usize) % k;
                    self.trade(bag, &mut deal, i, j, &mut rng);
                    tiled[j] = None;
                }
            }
        }
        None
    }

    /// Deals the pieces kind by kind, round the strips in a random order, each strip taking
    /// pieces until it has its share: every strip gets about its share of every kind.
    fn deal(&self, bag: &Bag, rng: &mut Rng64) -> Vec<Vec<u32>> {
        let k = self.heights.len();
        let mut kinds: Vec<usize> = (0..bag.counts.len()).collect();
        kinds.shuffle(rng);
        let mut order: Vec<usize> = (0..k).collect();
        order.shuffle(rng);
        let mut deal = vec![vec![0u32; bag.counts.len()]; k];
        let mut have = vec![0u32; k];
        let mut at = 0;
        for kind in kinds {
            for _ in 0..bag.counts[kind] {
                while have[order[at % k]] >= self.pieces[order[at % k]] {
                    at += 1;
                }
                let s = order[at % k];
                deal[s][kind] += 1;
                have[s] += 1;
                at += 1;
            }
        }
        deal
    }

    /// Makes every strip without holes pass the checkerboard test where it can, by moving
    /// colour-unbalanced pieces (the T of tetrominoes) from strip to strip in exchange for
    /// balanced ones.
    fn balance_colours(&self, bag: &Bag, deal: &mut [Vec<u32>]) {
        let unbalanced: Vec<bool> = bag
            .kinds()
            .iter()
            .map(|k| {
                let dark = k.cells.iter().filter(|&&(x, y)| (x + y) % 2 == 0).count();
                2 * dark != k.size()
            })
            .collect();
        let fails = |s: usize, deal: &[Vec<u32>]| {
            let sub = Bag { set: bag.set, counts: deal[s].clone() };
            self.holes[s] == 0 && !exact::colours_can_balance(&sub, (self.long, self.heights[s]))
        };
        for a in 0..deal.len() {
            if !fails(a, deal) {
                continue;
            }
            // Give one unbalanced piece to another strip (failing, or with holes), take back a
            // balanced one.
            'find: for b in (0..deal.len()).filter(|&b| b != a && (fails(b, deal) || self.holes[b] > 0)) {
                for u in (0..unbalanced.len()).filter(|&u| unbalanced[u] && deal[a][u] > 0) {
                    if let Some(v) = (0..unbalanced.len()).find(|&v| !unbalanced[v] && deal[b][v] > 0) {
                        deal[a][u] -= 1;
                        deal[b][u] += 1;
                        deal[b][v] -= 1;
                        deal[a][v] += 1;
                        break 'find;
                    }
                }
            }
        }
    }

    /// Swaps up to two pairs of pieces of different kinds between strips `i` and `j`, keeping
    /// each strip's count of every colour-unbalanced kind's parity (T for T, others for others).
    fn trade(&self, bag: &Bag, deal: &mut [Vec<u32>], i: usize, j: usize, rng: &mut Rng64) {
        let kinds = bag.counts.len();
        for _ in 0..1 + rng.below(2) {
            let (u, v) = (rng.below(kinds as u64) as usize, rng.below(kinds as u64) as usize);
            let t = bag.set.index('T').filter(|_| bag.set == crate::PieceSet::Tetrominoes);
            if u == v || deal[i][u] == 0 || deal[j][v] == 0 || Some(u) == t || Some(v) == t {
                continue;
            }
            deal[i][u] -= 1;
            deal[j][u] += 1;
            deal[j][v] -= 1;
            deal[i][v] += 1;
        }
    }

    /// Stacks the strips' packings: strip `i` above strips `0..i`.
    fn assemble(&self, tiled: &[Option<Answer>]) -> Answer {
        let mut placed = Vec::new();
        let mut base = 0;
        for (strip, &h) in tiled.iter().zip(&self.heights) {
            for p in strip.iter().flat_map(|a| &a.placed) {
                placed.push(Placed { kind: p.kind, cells: p.cells.iter().map(|&(x, y)| (x, y + base)).collect() });
            }
            base += h as i32;
        }
        Answer { placed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceSet;
    use crate::validate::validate;

    #[test]
    fn layouts_spread_the_spare_cells() {
        let bag = Bag::random(PieceSet::Tetrominoes, 512, &mut Rng64::seed(3));
        let l = Layout::new(&bag, 46, 46).unwrap();
        assert_eq!(l.heights.iter().sum::<u32>(), 46);
        assert_eq!(l.pieces.iter().map(|&n| u64::from(n)).sum::<u64>(), 512);
        assert_eq!(l.holes.iter().sum::<u32>(), 46 * 46 - 2048);
        assert!(l.holes.iter().max().unwrap() - l.holes.iter().min().unwrap() <= 10, "{:?}", l.holes);
        assert!(Layout::new(&bag, 46, 7).is_none());
    }

    #[test]
    fn a_32x32_perfect_packing() {
        // A 256-piece bag with an even number of T: eight 4x32 strips.
        let mut rng = Rng64::seed(11);
        let bag = loop {
            let b = Bag::random(PieceSet::Tetrominoes, 256, &mut rng);
            if b.count_of('T').is_multiple_of(2) {
                break b;
            }
        };
        let budget = Budget::unlimited().with_time(Duration::from_secs(20));
        let ctx = Ctx { threads: 2, seed: 5, budget: &budget };
        let BoxResult::Packed(a) = pack(&bag, (32, 32), &ctx) else { panic!("no packing for {bag}") };
        let checked = validate(&bag, &a).unwrap();
        assert_eq!((checked.width, checked.height, checked.score), (32, 32, 1536.0));
    }
}
