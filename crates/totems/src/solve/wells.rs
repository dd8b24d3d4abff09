//! The wells: any bag in a near-square box, in a few milliseconds. The hybrid starts from this
//! packing and spends its budget on better boxes, so that however the budget goes, the answer is
//! never far from square.
//!
//! The box is cut into *wells*, columns as wide as the widest of the pieces' narrow sides (2 for
//! tetrominoes: the O; 3 for pentominoes). The pieces drop into the current well kind by kind,
//! each in the rotation and column that leaves the fewest empty cells under it, then the lowest
//! top: two L make a 2 x 4 block, S and T interlock with their neighbours, so a well is nearly
//! full. A piece that would stick out of the top starts the next well. Wells as high as the
//! square's side tell the area the bag takes; well heights around that area's side are tried, with
//! wells one and two cells wider too, and the best score wins.

use crate::answer::{Answer, Placed, score};
use crate::bag::Bag;

/// Packs the bag into wells, the best of several widths and heights: always valid, near-square.
pub fn pack(bag: &Bag) -> Answer {
    let narrowest = narrowest_well(bag);
    let mut best: Option<(f64, u32, u32)> = None;
    for well in narrowest..narrowest + WIDER_WELLS {
        let drops = Drops::new(bag, well);
        for height in drops.heights(bag) {
            let Some((w, h)) = drops.extent(bag, height) else { continue };
            let score = score(bag.cells(), w, h);
            if best.is_none_or(|(s, _, _)| score > s) {
                best = Some((score, well, height));
            }
        }
    }
    best.and_then(|(_, well, height)| Drops::new(bag, well).answer(bag, height)).unwrap_or_default()
}

/// How many well widths are tried, from the narrowest up.
const WIDER_WELLS: u32 = 3;

/// How far from the side of the area the bag takes the well heights tried go, either way.
const HEIGHTS_AROUND: u32 = 3;

/// The narrowest well every kind fits: the widest of the kinds' narrow sides.
fn narrowest_well(bag: &Bag) -> u32 {
    bag.kinds().iter().map(|k| k.rotations().iter().map(|r| width(r)).min().unwrap_or(1)).max().unwrap_or(1)
}

/// The width of cells at `x >= 0`.
fn width(cells: &[(i32, i32)]) -> u32 {
    cells.iter().map(|c| c.0).max().unwrap_or(0) as u32 + 1
}

/// One rotation of a kind that fits a well.
#[derive(Debug)]
struct Drop {
    width: u32,
    height: u32,
    /// Per column of the rotation, its lowest cell and the row above its highest.
    bottom: Vec<u32>,
    top: Vec<u32>,
    cells: Vec<(i32, i32)>,
}

/// The rotations that fit a well, for every kind of the bag.
#[derive(Debug)]
struct Drops {
    well: u32,
    /// Per kind, its rotations no wider than the well.
    rotations: Vec<Vec<Drop>>,
    /// The least well height that takes every kind (its flattest fitting rotation).
    tallest_needed: u32,
}

impl Drops {
    /// The rotations of the bag's kinds that fit a well `well` wide (at least the narrowest).
    fn new(bag: &Bag, well: u32) -> Drops {
        let kinds = bag.kinds();
        let rotations: Vec<Vec<Drop>> =
            kinds.iter().map(|k| k.rotations().into_iter().filter(|r| width(r) <= well).map(drop).collect()).collect();
        let tallest_needed = rotations
            .iter()
            .zip(&bag.counts)
            .filter(|(_, c)| **c > 0)
            .map(|(r, _)| r.iter().map(|d| d.height).min().unwrap_or(1))
            .max()
            .unwrap_or(1);
        Drops { well, rotations, tallest_needed }
    }

    /// The well heights worth trying: the bag in wells as high as a square's side gives the area
    /// it takes with this well width; the heights around that area's side.
    fn heights(&self, bag: &Bag) -> impl Iterator<Item = u32> + use<> {
        let side = (bag.cells() as f64).sqrt().ceil() as u32;
        let first = side.max(self.tallest_needed);
        let area = self.extent(bag, first).map_or(bag.cells(), |(w, h)| u64::from(w) * u64::from(h));
        let around = (area as f64).sqrt().ceil() as u32;
        let low = around.saturating_sub(HEIGHTS_AROUND).max(self.tallest_needed);
        std::iter::once(first).chain(low..=around.max(low) + HEIGHTS_AROUND)
    }

    /// The bag's bounding box in wells `height` high (`None` if a piece is taller).
    fn extent(&self, bag: &Bag, height: u32) -> Option<(u32, u32)> {
        let (mut w, mut h) = (0, 0);
        self.fill(bag, height, |_, d, x, y| {
            w = w.max(x as u32 + d.width);
            h = h.max(y + d.height);
        })?;
        Some((w, h))
    }

    /// The bag in wells `height` high (`None` if a piece is taller).
    fn answer(&self, bag: &Bag, height: u32) -> Option<Answer> {
        let mut placed = Vec::with_capacity(bag.len() as usize);
        self.fill(bag, height, |kind, d, x, y| {
            let cells = d.cells.iter().map(|&(cx, cy)| (x + cx, y as i32 + cy)).collect();
            placed.push(Placed { kind, cells });
        })?;
        Some(Answer { placed })
    }

    /// Drops the bag kind by kind into wells `height` high, and tells `place` where each piece
    /// goes: its kind, its rotation and the `x` and `y` of its bottom-left corner (`None` if a
    /// piece is taller than the wells).
    fn fill(&self, bag: &Bag, height: u32, mut place: impl FnMut(usize, &Drop, i32, u32)) -> Option<()> {
        let mut sky = vec![0u32; self.well as usize];
        let mut base = 0i32;
        for (kind, &count) in bag.counts.iter().enumerate() {
            for _ in 0..count {
                let Spot { drop: d, x, y } = match self.best_drop(kind, &sky, height) {
                    Some(spot) => spot,
                    None => {
                        // The well is full: the next one.
                        base += self.well as i32;
                        sky.iter_mut().for_each(|s| *s = 0);
                        self.best_drop(kind, &sky, height)?
                    }
                };
                for dx in 0..d.width {
                    sky[(x + dx) as usize] = y + d.top[dx as usize];
                }
                place(kind, d, base + x as i32, y);
            }
        }
        Some(())
    }

    /// Where a piece of `kind` drops best into a well of skyline `sky`: the fewest cells left
    /// empty under it, then the lowest top, then the leftmost; `None` if it sticks out.
    fn best_drop(&self, kind: usize, sky: &[u32], height: u32) -> Option<Spot<'_>> {
        let mut best: Option<((u32, u32, u32), Spot<'_>)> = None;
        for d in &self.rotations[kind] {
            for x in 0..=self.well - d.width {
                let under = &sky[x as usize..(x + d.width) as usize];
                let y = under.iter().zip(&d.bottom).map(|(&s, &b)| s.saturating_sub(b)).max().unwrap_or(0);
                if y + d.height > height {
                    continue;
                }
                let waste = under.iter().zip(&d.bottom).map(|(&s, &b)| y + b - s).sum::<u32>();
                let key = (waste, y + d.height, x);
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, Spot { drop: d, x, y }));
                }
            }
        }
        best.map(|(_, spot)| spot)
    }
}

/// A rotation dropped at column `x` of a well, resting at height `y`.
#[derive(Debug)]
struct Spot<'a> {
    drop: &'a Drop,
    x: u32,
    y: u32,
}

/// A rotation's profile.
fn drop(cells: Vec<(i32, i32)>) -> Drop {
    let width = cells.iter().map(|c| c.0).max().unwrap_or(0) as u32 + 1;
    let height = cells.iter().map(|c| c.1).max().unwrap_or(0) as u32 + 1;
    let column = |x: u32| cells.iter().filter(move |c| c.0 == x as i32).map(|c| c.1 as u32);
    let bottom = (0..width).map(|x| column(x).min().unwrap_or(0)).collect();
    let top = (0..width).map(|x| column(x).max().map_or(0, |t| t + 1)).collect();
    Drop { width, height, bottom, top, cells }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceSet;
    use crate::answer::candidate_boxes;
    use crate::validate::validate;
    use tessera_core::rng::Rng64;

    #[test]
    fn every_bag_is_packed_near_square() {
        for (set, n) in [(PieceSet::Tetrominoes, 1), (PieceSet::Tetrominoes, 37), (PieceSet::Pentominoes, 1)]
            .into_iter()
            .chain([64, 700, 4096].map(|n| (PieceSet::Tetrominoes, n)))
            .chain([60, 1000].map(|n| (PieceSet::Pentominoes, n)))
        {
            let bag = Bag::random(set, n, &mut Rng64::seed(n));
            let checked = validate(&bag, &pack(&bag)).unwrap_or_else(|e| panic!("{set} {n}: {e}"));
            let (a, b) = (checked.width.min(checked.height), checked.width.max(checked.height));
            // Nearly square from 64 pieces on; for tetrominoes, within a few percent of the best
            // box's side (the pentominoes that are three wide every way round waste more).
            if n >= 64 {
                assert!(b - a <= 4, "{set} {n}: {a}x{b}");
            }
            if n >= 64 && set == PieceSet::Tetrominoes {
                let best = candidate_boxes(&bag)[0].0;
                assert!(f64::from(b) <= 1.03 * f64::from(best.0.max(best.1)) + 2.0, "{set} {n}: {a}x{b}");
            }
        }
    }

    #[test]
    fn tetrominoes_of_a_kind_fill_their_wells() {
        // In wells 4 high: two I, two J, two L make three full 2 x 4 wells, the O a fourth.
        let bag = Bag::from_letters(PieceSet::Tetrominoes, "LLJJIIO").unwrap();
        let drops = Drops::new(&bag, narrowest_well(&bag));
        assert_eq!((drops.well, drops.tallest_needed), (2, 4));
        let a = drops.answer(&bag, 4).unwrap();
        assert_eq!(validate(&bag, &a).map(|c| (c.width, c.height)), Ok((8, 4)), "\n{}", a.draw(bag.set));
        // Eight S (or T) interlock: one well 17 high, two cells empty.
        for letters in ["SSSSSSSS", "TTTTTTTT"] {
            let bag = Bag::from_letters(PieceSet::Tetrominoes, letters).unwrap();
            let a = Drops::new(&bag, 2).answer(&bag, 17).unwrap();
            assert_eq!(validate(&bag, &a).map(|c| (c.width, c.height)), Ok((2, 17)), "\n{}", a.draw(bag.set));
        }
    }
}
