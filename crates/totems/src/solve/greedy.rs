//! The "touchpoints" greedy: drop pieces one by one where they touch the most.
//!
//! At each step every piece kind left, in every rotation, at every column, is dropped to the
//! lowest height where it fits; its touchpoints are the sides of its cells that meet another piece
//! or the box's border. The placement with the most touchpoints wins (ties broken at random); if
//! some piece fits nowhere the attempt fails, and the greedy starts over with other tie-breaks
//! until the budget runs out, on every thread. Boxes with room to spare are almost always packed
//! at the first attempts.
//!
//! The grid is one 128-bit mask per row (boxes up to 128 wide, taller than wide boxes are turned),
//! with the lowest free cell of every column, so that a drop starts right above what is filled.

use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::{Budget, Verdict, portfolio};

use super::{BoxVerdict, Ctx, undecided};
use crate::answer::{Answer, Dims, Placed};
use crate::bag::Bag;

/// Widest grid the greedy handles.
const MAX_WIDTH: u32 = 128;

/// Packs the bag into the box greedily; proves nothing but "too small".
pub fn pack(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxVerdict {
    let (w, h) = dims;
    if u64::from(w) * u64::from(h) < bag.cells() {
        return Verdict::Infeasible;
    }
    if !takes(dims) {
        return undecided(ctx.budget);
    }
    // Work in a grid at most 128 wide, turning the box if it is the wider way.
    let (gw, gh, turn) = if w <= MAX_WIDTH { (w, h, false) } else { (h, w, true) };
    let shapes = Shapes::new(bag);
    let found = portfolio(ctx.threads, ctx.budget, |k, b| {
        let mut rng = Rng64::seed(derive_seed(ctx.seed, k as u64));
        let mut grid = Grid::new(gw, gh);
        while !b.expired() {
            if let Some(a) = attempt(bag, &shapes, &mut grid, &mut rng, b) {
                return Some(a);
            }
        }
        None
    });
    match found {
        Some(a) if turn => Verdict::Feasible(a.turned(gw)),
        Some(a) => Verdict::Feasible(a),
        None => undecided(ctx.budget),
    }
}

/// Whether the greedy takes a box: one of its sides at most 128.
pub fn takes((w, h): Dims) -> bool {
    w.min(h) <= MAX_WIDTH
}

/// One rotation of a kind, ready to drop.
struct Rot {
    kind: usize,
    width: u32,
    height: u32,
    /// Row masks from the bottom row up, at `x = 0`.
    rows: Vec<u128>,
    /// Per column of the piece, its lowest cell.
    bottom: Vec<u32>,
    /// Cells next to the piece (not in it), relative to its bottom-left corner.
    around: Vec<(i32, i32)>,
    cells: Vec<(i32, i32)>,
}

/// Every rotation of every kind of the bag.
struct Shapes {
    rots: Vec<Rot>,
}

impl Shapes {
    fn new(bag: &Bag) -> Shapes {
        let mut rots = Vec::new();
        for (kind, k) in bag.kinds().iter().enumerate().filter(|(i, _)| bag.counts[*i] > 0) {
            for cells in k.rotations() {
                let width = cells.iter().map(|c| c.0).max().unwrap_or(0) as u32 + 1;
                let height = cells.iter().map(|c| c.1).max().unwrap_or(0) as u32 + 1;
                let mut rows = vec![0u128; height as usize];
                for &(x, y) in &cells {
                    rows[y as usize] |= 1 << x;
                }
                let bottom = (0..width as i32)
                    .map(|x| cells.iter().filter(|c| c.0 == x).map(|c| c.1).min().unwrap_or(0) as u32)
                    .collect();
                let mut around = Vec::new();
                for &(x, y) in &cells {
                    for n in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                        if !cells.contains(&n) {
                            around.push(n);
                        }
                    }
                }
                rots.push(Rot { kind, width, height, rows, bottom, around, cells });
            }
        }
        Shapes { rots }
    }
}

/// The grid: row masks and the lowest free cell of each column.
struct Grid {
    width: u32,
    height: u32,
    rows: Vec<u128>,
    low: Vec<u32>,
}

impl Grid {
    fn new(width: u32, height: u32) -> Grid {
        Grid { width, height, rows: vec![0; height as usize], low: vec![0; width as usize] }
    }

    fn clear(&mut self) {
        self.rows.iter_mut().for_each(|r| *r = 0);
        self.low.iter_mut().for_each(|l| *l = 0);
    }

    fn filled(&self, x: i32, y: i32) -> bool {
        x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 || self.rows[y as usize] >> x & 1 != 0
    }

    /// The lowest height at which the rotation fits at column `x`, if any.
    #[inline]
    fn drop_at(&self, r: &Rot, x: u32) -> Option<u32> {
        let start = (0..r.width).map(|dx| self.low[(x + dx) as usize].saturating_sub(r.bottom[dx as usize])).max()?;
        (start..=self.height.checked_sub(r.height)?)
            .find(|&y| r.rows.iter().enumerate().all(|(dy, &m)| self.rows[y as usize + dy] & m << x == 0))
    }

    /// Sides of the placed rotation's cells that meet a filled cell or the border.
    #[inline]
    fn touchpoints(&self, r: &Rot, x: u32, y: u32) -> u32 {
        r.around.iter().filter(|&&(dx, dy)| self.filled(x as i32 + dx, y as i32 + dy)).count() as u32
    }

    fn place(&mut self, r: &Rot, x: u32, y: u32) {
        for (dy, &m) in r.rows.iter().enumerate() {
            self.rows[y as usize + dy] |= m << x;
        }
        for c in x..x + r.width {
            let c = c as usize;
            while self.low[c] < self.height && self.rows[self.low[c] as usize] >> c & 1 != 0 {
                self.low[c] += 1;
            }
        }
    }
}

/// One greedy attempt with fresh tie-breaks.
fn attempt(bag: &Bag, shapes: &Shapes, grid: &mut Grid, rng: &mut Rng64, budget: &mut Budget) -> Option<Answer> {
    grid.clear();
    let mut left = bag.counts.clone();
    let mut placed = Vec::with_capacity(bag.len() as usize);
    for _ in 0..bag.len() {
        if budget.expired() {
            return None;
        }
        // Hot loop: every rotation of every kind left, every column.
        let (mut best, mut best_t, mut ties) = (None, 0, 0u64);
        for (i, r) in shapes.rots.iter().enumerate().filter(|(_, r)| left[r.kind] > 0 && r.width <= grid.width) {
            for x in 0..=grid.width - r.width {
                let Some(y) = grid.drop_at(r, x) else { continue };
                let t = grid.touchpoints(r, x, y);
                if best.is_none() || t > best_t {
                    (best, best_t, ties) = (Some((i, x, y)), t, 1);
                } else if t == best_t {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        best = Some((i, x, y));
                    }
                }
            }
        }
        let (i, x, y) = best?;
        let r = &shapes.rots[i];
        grid.place(r, x, y);
        left[r.kind] -= 1;
        placed.push(Placed {
            kind: r.kind,
            cells: r.cells.iter().map(|&(cx, cy)| (cx + x as i32, cy + y as i32)).collect(),
        });
    }
    Some(Answer { placed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceSet;
    use crate::validate::validate;

    #[test]
    fn packs_boxes_with_room_to_spare() {
        let budget = Budget::unlimited().with_time(std::time::Duration::from_secs(10));
        let ctx = Ctx { threads: 1, seed: 1, budget: &budget };
        for (n, side) in [(8u64, 6u32), (32, 12), (128, 23), (512, 46)] {
            let bag = Bag::random(PieceSet::Tetrominoes, n, &mut Rng64::seed(n));
            let Verdict::Feasible(a) = pack(&bag, (side, side), &ctx) else { panic!("{n} pieces in {side}x{side}") };
            let c = validate(&bag, &a).unwrap();
            assert!(c.width <= side && c.height <= side);
        }
        // Too small: said at once.
        let bag = Bag::from_letters(PieceSet::Tetrominoes, "OO").unwrap();
        assert_eq!(pack(&bag, (2, 3), &ctx), Verdict::Infeasible);
    }

    #[test]
    fn wide_boxes_are_turned() {
        let budget = Budget::unlimited().with_time(std::time::Duration::from_secs(10));
        let ctx = Ctx { threads: 1, seed: 1, budget: &budget };
        let bag = Bag::from_letters(PieceSet::Tetrominoes, &"I".repeat(70)).unwrap();
        let Verdict::Feasible(a) = pack(&bag, (140, 2), &ctx) else { panic!("70 I in 140x2") };
        assert_eq!(validate(&bag, &a).map(|c| (c.width, c.height)), Ok((140, 2)));
    }
}
