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
//! rest); strips run along the long side, cut into blocks of at most about 48 cells (a 129 x 129
//! box: 32 strips of 3 blocks, 44, 44 and 41 long, and a row of straight pieces).

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::{Budget, Verdict, portfolio};

use super::colours::{ColourSums, imbalances};
use super::{BoxVerdict, Ctx, exact, undecided};
use crate::answer::{Answer, Dims, Placed};
use crate::bag::Bag;

/// Packs the bag into the box by strips; never proves a box impossible.
pub fn pack(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxVerdict {
    let (w, h) = dims;
    let (long, short) = (w.max(h), w.min(h));
    let Some(layout) = Layout::new(bag, long, short) else { return undecided(ctx.budget) };
    let found = portfolio(ctx.threads, ctx.budget, |k, b| layout.solve(bag, derive_seed(ctx.seed, k as u64), b));
    match found {
        // Built with the strips lying along x; turn it if the box is taller than wide.
        Some(a) if w >= h => Verdict::Feasible(a),
        Some(a) => Verdict::Feasible(a.turned(long)),
        None => undecided(ctx.budget),
    }
}

/// How the box is cut: the strips' blocks, stacked from the bottom, and pieces and holes per
/// block. A strip longer than [`MAX_BLOCK`] is cut into blocks of about the same length (a
/// multiple of the piece size, but the last), each tiled on its own: the exact search's time per
/// piece grows quickly with the strip's length (about 0.03 ms per piece up to 48 cells long,
/// 0.4 ms at 129).
#[derive(Clone, Debug)]
struct Layout {
    /// Per block: its bottom-left corner, width and height.
    corners: Vec<(i32, i32)>,
    widths: Vec<u32>,
    heights: Vec<u32>,
    pieces: Vec<u32>,
    holes: Vec<u32>,
}

/// The longest block a strip is tiled in.
const MAX_BLOCK: u32 = 48;

impl Layout {
    /// Strips of 4 along the long side, stacked from the bottom; what is left of the short side
    /// (1 to 3 rows) becomes rows of straight pieces (I) at the bottom if the bag has enough of
    /// them, else part of the first strip (up to 7 high, which the exact search finds much
    /// harder). Strips are cut into blocks (rows stay whole). The spare room goes to the first
    /// block that is not a row, then to the next, and so on: most blocks are perfect rectangles,
    /// and the spare cells lie at the bottom left, where they cannot shrink the bounding box.
    /// `None` if the box is too narrow for strips or too small.
    fn new(bag: &Bag, long: u32, short: u32) -> Option<Layout> {
        if short < 8 {
            return None;
        }
        let size = bag.set.piece_size() as u32;
        let rest = short % 4;
        let straights = bag.set.index('I').map_or(0, |i| bag.counts[i]);
        let mut strips = Vec::new();
        if rest * (long / size) <= straights {
            strips.extend(std::iter::repeat_n(1, rest as usize));
            strips.extend(std::iter::repeat_n(4, (short / 4) as usize));
        } else {
            strips.push(4 + rest);
            strips.extend(std::iter::repeat_n(4, (short / 4 - 1) as usize));
        }
        let mut layout = Layout {
            corners: Vec::new(),
            widths: Vec::new(),
            heights: Vec::new(),
            pieces: Vec::new(),
            holes: Vec::new(),
        };
        let mut y = 0;
        for h in strips {
            let blocks = if h == 1 { vec![long] } else { block_widths(long, size) };
            let mut x = 0;
            for w in blocks {
                layout.corners.push((x, y));
                layout.widths.push(w);
                layout.heights.push(h);
                layout.pieces.push(h * w / size);
                x += w as i32;
            }
            y += h as i32;
        }
        let capacity: u64 = layout.pieces.iter().map(|&n| u64::from(n)).sum();
        let mut excess = capacity.checked_sub(bag.len())?;
        let rows = layout.heights.iter().take_while(|&&h| h == 1).count();
        for s in (rows..layout.pieces.len()).chain(0..rows) {
            let take = excess.min(u64::from(layout.pieces[s]));
            layout.pieces[s] -= take as u32;
            excess -= take;
        }
        layout.holes = (0..layout.pieces.len()).map(|s| layout.area(s) - size * layout.pieces[s]).collect();
        Some(layout)
    }

    /// Cells of block `s`.
    fn area(&self, s: usize) -> u32 {
        self.widths[s] * self.heights[s]
    }

    /// One worker's attempt: deal, tile strip by strip, swap pieces around failing strips.
    fn solve(&self, bag: &Bag, seed: u64, budget: &mut Budget) -> Option<Answer> {
        let mut rng = Rng64::seed(seed);
        let mut deal = self.deal(bag, &mut rng);
        self.balance_colours(bag, &mut deal);
        let k = self.heights.len();
        let mut tiled: Vec<Option<Answer>> = vec![None; k];
        // Each strip gets a slice of the time left, so that one hard strip cannot eat it all:
        // a quarter of it, and once some strips are tiled, at most 8 times the slowest of them
        // (most strips take a millisecond or two; one that takes far longer is usually better
        // dealt again than searched further).
        let mut slowest = None::<Duration>;
        let slice = |b: &Budget, slowest: Option<Duration>| {
            let quarter = b.time_left().map_or(Duration::from_millis(200), |t| t / 4);
            slowest.map_or(quarter, |s| quarter.min(s * 8)).max(Duration::from_millis(5))
        };
        while !budget.expired() {
            let Some(i) = (0..k).find(|&i| tiled[i].is_none()) else { return Some(self.assemble(&tiled)) };
            let sub = Bag { set: bag.set, counts: deal[i].clone() };
            if sub.is_empty() {
                tiled[i] = Some(Answer::default());
                continue;
            }
            let strip_budget = budget.within(slice(budget, slowest));
            let ctx = Ctx { threads: 1, seed: rng.next_u64(), budget: &strip_budget };
            // Spare cells at the strip's end if that can work, else anywhere (as holes).
            let region = self.region(i, &sub).unwrap_or_else(|| exact::rectangle((self.widths[i], self.heights[i])));
            let start = Instant::now();
            match exact::pack_region(&sub, &region, &ctx) {
                Verdict::Feasible(a) => {
                    tiled[i] = Some(a);
                    slowest = slowest.max(Some(start.elapsed()));
                }
                _ => {
                    // Trade a few pieces with another strip and tile both again.
                    let others: Vec<usize> = (0..k).filter(|&j| j != i && !self.is_row(j)).collect();
                    if self.is_row(i) || others.is_empty() {
                        return None;
                    }
                    let j = others[rng.below(others.len() as u64) as usize];
                    self.trade(bag, &mut deal, i, j, &mut rng);
                    tiled[j] = None;
                }
            }
        }
        None
    }

    /// Deals the pieces so that every strip gets its share of every kind, give or take one: the
    /// strips' slots are spread evenly through one sequence (strip `s`'s `j`-th slot at
    /// `(j + u_s) / pieces[s]`, `u_s` random), and the pieces, kind by kind in a random kind order,
    /// fill the sequence.
    fn deal(&self, bag: &Bag, rng: &mut Rng64) -> Vec<Vec<u32>> {
        let mut deal = vec![vec![0u32; bag.counts.len()]; self.pieces.len()];
        // Rows take straight pieces only.
        let mut left = bag.counts.clone();
        for s in (0..self.pieces.len()).filter(|&s| self.is_row(s)) {
            let i = bag.set.index('I').unwrap_or(0);
            deal[s][i] = self.pieces[s];
            left[i] -= self.pieces[s];
        }
        let mut slots: Vec<(f64, usize)> = Vec::new();
        for (s, &n) in self.pieces.iter().enumerate().filter(|&(s, _)| !self.is_row(s)) {
            let u = rng.unit();
            slots.extend((0..n).map(|j| ((f64::from(j) + u) / f64::from(n), s)));
        }
        slots.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut kinds: Vec<usize> = (0..bag.counts.len()).collect();
        kinds.shuffle(rng);
        let pieces = kinds.iter().flat_map(|&kind| std::iter::repeat_n(kind, left[kind] as usize));
        for (kind, &(_, s)) in pieces.zip(&slots) {
            deal[s][kind] += 1;
        }
        deal
    }

    /// Whether strip `s` is a row of straight pieces (they stay out of every trade).
    fn is_row(&self, s: usize) -> bool {
        self.heights[s] < 2
    }

    /// Whether strip `s` of a deal passes the colouring tests (for some choice of its spare
    /// cells at the end; with spare cells anywhere, no colouring test applies).
    fn balanced(&self, bag: &Bag, deal: &[Vec<u32>], s: usize) -> bool {
        self.holes[s] > 0 || self.region(s, &Bag { set: bag.set, counts: deal[s].clone() }).is_some()
    }

    /// Makes every strip pass the colouring tests where it can: while some strip fails, the first
    /// swap of one piece of it for a piece of another kind from another strip that lowers the
    /// number of failing strips is made (for tetrominoes: Ts, Ls and Js move until their
    /// parities suit every strip).
    fn balance_colours(&self, bag: &Bag, deal: &mut [Vec<u32>]) {
        let k = deal.len();
        let mut failing: Vec<bool> = (0..k).map(|s| !self.is_row(s) && !self.balanced(bag, deal, s)).collect();
        let kinds = bag.counts.len();
        'repair: while let Some(a) = failing.iter().position(|&f| f) {
            let before = failing.iter().filter(|&&f| f).count();
            // Failing partners first: one swap often mends both (an odd T each), and each check
            // costs a colouring test of both blocks.
            let mut partners: Vec<usize> = (0..k).filter(|&b| b != a && !self.is_row(b)).collect();
            partners.sort_by_key(|&b| !failing[b]);
            for b in partners {
                for (u, v) in (0..kinds).flat_map(|u| (0..kinds).map(move |v| (u, v))) {
                    if u == v || deal[a][u] == 0 || deal[b][v] == 0 {
                        continue;
                    }
                    swap(deal, (a, u), (b, v));
                    let (fa, fb) = (!self.balanced(bag, deal, a), !self.balanced(bag, deal, b));
                    if before - usize::from(failing[b]) - 1 + usize::from(fa) + usize::from(fb) < before {
                        (failing[a], failing[b]) = (fa, fb);
                        continue 'repair;
                    }
                    swap(deal, (b, u), (a, v));
                }
            }
            return; // no single swap helps
        }
    }

    /// Swaps one or two pairs of pieces of different kinds between strips `i` and `j`, each
    /// kept only if both strips still pass the colouring tests.
    fn trade(&self, bag: &Bag, deal: &mut [Vec<u32>], i: usize, j: usize, rng: &mut Rng64) {
        let kinds = bag.counts.len() as u64;
        let want = 1 + rng.below(2);
        let mut done = 0;
        for _ in 0..8 * want {
            let (u, v) = (rng.below(kinds) as usize, rng.below(kinds) as usize);
            if u == v || deal[i][u] == 0 || deal[j][v] == 0 {
                continue;
            }
            swap(deal, (i, u), (j, v));
            if self.balanced(bag, deal, i) && self.balanced(bag, deal, j) {
                done += 1;
                if done == want {
                    return;
                }
            } else {
                swap(deal, (j, u), (i, v));
            }
        }
    }

    /// The cells strip `i` must cover with the pieces of `sub` (at the origin): its rectangle
    /// less its spare cells, taken at the near end (`x = 0`, where the search starts, so that an
    /// irregular column is met first): whole columns, then cells of the next column, or one
    /// column fewer and cells of the next two, chosen so that the region passes the colouring
    /// tests, if any choice does.
    fn region(&self, i: usize, sub: &Bag) -> Option<Vec<(i32, i32)>> {
        let (long, h, holes) = (self.widths[i] as i32, self.heights[i] as i32, self.holes[i] as i32);
        let rect: Vec<(i32, i32)> = (0..long).flat_map(|x| (0..h).map(move |y| (x, y))).collect();
        let rect_imbalance = imbalances(&rect);
        let sums = ColourSums::new(sub);
        let removed = removals(h, holes).find(|removed| {
            let cut = imbalances(removed);
            sums.fit([0, 1, 2].map(|c| rect_imbalance[c] - cut[c]))
        })?;
        Some(rect.into_iter().filter(|c| !removed.contains(c)).collect())
    }

    /// Puts the blocks' packings together, each at its corner.
    fn assemble(&self, tiled: &[Option<Answer>]) -> Answer {
        let mut placed = Vec::new();
        for (block, &(x0, y0)) in tiled.iter().zip(&self.corners) {
            for p in block.iter().flat_map(|a| &a.placed) {
                placed.push(Placed { kind: p.kind, cells: p.cells.iter().map(|&(x, y)| (x + x0, y + y0)).collect() });
            }
        }
        Answer { placed }
    }
}

/// The lengths of the blocks a strip `long` cells long is cut into: as few as keep them about
/// [`MAX_BLOCK`] long at most, as equal as can be, all but the last a multiple of `size` (so
/// that the pieces fill them).
fn block_widths(long: u32, size: u32) -> Vec<u32> {
    let count = long.div_ceil(MAX_BLOCK);
    let each = ((long + count * size / 2) / (count * size)).max(1) * size;
    let mut widths = vec![each; count as usize - 1];
    widths.push(long - each * (count - 1));
    widths
}

/// The ways to take `holes` cells from the near end of a strip `h` high: whole columns, then a
/// choice of cells of the next column (the top ones first); or, if that leaves a whole column,
/// one column fewer and a choice of cells of the next two (strips up to 5 high) that cuts no cell
/// off.
fn removals(h: i32, holes: i32) -> impl Iterator<Item = Vec<(i32, i32)>> {
    let (full, rest) = (holes / h, holes % h);
    let column = move |x: i32, mask: u32| (0..h).filter(move |y| mask >> y & 1 != 0).map(move |y| (x, y));
    let whole = move |columns: i32| (0..columns).flat_map(move |x| (0..h).map(move |y| (x, y)));
    let top = ((1u32 << rest) - 1) << (h - rest);
    let one = std::iter::once(top)
        .chain((0..1u32 << h).filter(move |&m| m.count_ones() == rest as u32 && m != top))
        .map(move |m| whole(full).chain(column(full, m)).collect());
    let two_columns = full >= 1 && h <= 5;
    let two = (0..if two_columns { 1u32 << (2 * h) } else { 0 })
        .filter(move |&m| m.count_ones() == (h + rest) as u32)
        .filter(move |&m| {
            // Every cell kept in the first column must reach one kept after it, through kept
            // cells of its own column: else it is cut off.
            let (a, b) = (!m & ((1 << h) - 1), !(m >> h) & ((1 << h) - 1));
            let mut reach = a & b;
            loop {
                let grown = reach | (reach << 1 | reach >> 1) & a;
                if grown == reach {
                    return reach == a;
                }
                reach = grown;
            }
        })
        .map(move |m| whole(full - 1).chain(column(full - 1, m)).chain(column(full, m >> h)).collect());
    one.chain(two)
}

/// Moves one piece of kind `a.1` from strip `a.0` to strip `b.0`, and one of kind `b.1` back.
fn swap(deal: &mut [Vec<u32>], a: (usize, usize), b: (usize, usize)) {
    deal[a.0][a.1] -= 1;
    deal[b.0][a.1] += 1;
    deal[b.0][b.1] -= 1;
    deal[a.0][b.1] += 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceSet;
    use crate::validate::validate;

    #[test]
    fn layouts_put_the_spare_cells_at_the_bottom() {
        // 46 = two rows of I (at the bottom) + 11 strips of 4; the spare cells go to the first
        // strip, the rows keep their 2 leftover cells each.
        let bag = Bag::random(PieceSet::Tetrominoes, 512, &mut Rng64::seed(3));
        let l = Layout::new(&bag, 46, 46).unwrap();
        assert_eq!(l.heights, [vec![1, 1], vec![4; 11]].concat());
        assert_eq!(l.pieces.iter().map(|&n| u64::from(n)).sum::<u64>(), 512);
        assert_eq!(l.holes, [vec![2, 2, 64], vec![0; 10]].concat());
        // Without enough I for the rows, the first strip is 6 high.
        let few_i = Bag::from_letters(PieceSet::Tetrominoes, &"O".repeat(512)).unwrap();
        assert_eq!(Layout::new(&few_i, 46, 46).unwrap().heights, [vec![6], vec![4; 10]].concat());
        assert!(Layout::new(&bag, 46, 7).is_none());
    }

    #[test]
    fn long_strips_are_cut_into_blocks() {
        assert_eq!(block_widths(46, 4), vec![46]);
        assert_eq!(block_widths(129, 4), vec![44, 44, 41]);
        assert_eq!(block_widths(91, 4), vec![44, 47]);
        assert_eq!(block_widths(64, 5), vec![30, 34]);
        // 4096 pieces in 129 x 129: a row of I at the bottom, 32 strips of three blocks; the
        // 257 spare cells empty the first block of the first strip and half the next.
        let bag = Bag::random(PieceSet::Tetrominoes, 4096, &mut Rng64::seed(1));
        let l = Layout::new(&bag, 129, 129).unwrap();
        assert_eq!(l.heights.len(), 1 + 32 * 3);
        assert_eq!((l.corners[1], l.corners[2], l.corners[3], l.corners[4]), ((0, 1), (44, 1), (88, 1), (0, 5)));
        assert_eq!((l.holes[0], l.pieces[1], l.holes[1], l.holes[2], l.holes[3]), (1, 0, 176, 80, 0));
        assert_eq!(l.pieces.iter().map(|&n| u64::from(n)).sum::<u64>(), 4096);
    }

    #[test]
    fn spare_cells_are_taken_without_cutting_cells_off() {
        for (h, holes) in [(4, 8), (5, 9), (4, 3), (1, 2), (6, 6)] {
            let all: Vec<Vec<(i32, i32)>> = removals(h, holes).collect();
            assert!(!all.is_empty());
            for removed in &all {
                assert_eq!(removed.len(), holes as usize);
                // Every cell kept in the first two columns touches a kept cell further right or
                // in its own column.
                let kept = |c: &(i32, i32)| c.0 >= 0 && (0..h).contains(&c.1) && !removed.contains(c);
                for x in 0..2 {
                    for y in 0..h {
                        let c = (x, y);
                        let touches = [(x + 1, y), (x, y + 1), (x, y - 1)].iter().any(kept);
                        assert!(!kept(&c) || touches, "{h} {holes}: {removed:?} cuts {c:?} off");
                    }
                }
            }
        }
        // A 4-high strip with 8 spare cells can leave a T-shaped notch: a colour imbalance of 2.
        assert!(removals(4, 8).any(|r| imbalances(&r)[0].abs() == 2));
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
        let Verdict::Feasible(a) = pack(&bag, (32, 32), &ctx) else { panic!("no packing for {bag}") };
        let checked = validate(&bag, &a).unwrap();
        assert_eq!((checked.width, checked.height, checked.score), (32, 32, 1536.0));
    }
}
