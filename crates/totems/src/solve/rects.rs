//! The rectangles solver (the seed's method): small rectangles that a few pieces tile exactly,
//! a choice of rectangles whose pieces add up to the bag, and a Monte-Carlo tree search packing
//! the rectangles into the box.
//!
//! * **Inventory**, built once at first use: for every rectangle four cells high and 2 to 8 long
//!   (and the 1x4 of a lone I), every tiling by the set's kinds is enumerated once, and one
//!   tiling is kept per distinct multiset of pieces. A few milliseconds.
//! * **Choice**: random rectangles that the pieces left can still afford, larger ones first,
//!   until the bag is used up (restarting when stuck).
//! * **Packing**: bottom-left placement (lowest, then leftmost) over the maximal free rectangles
//!   of the box; at each step every distinct rectangle left (both ways round) is tried with a few
//!   random playouts, and the one whose playouts fill the most area is kept. A playout that places
//!   everything is the answer.
//!
//! Only boxes without spare cells (perfect packings), as in the seed.

use std::collections::HashMap;
use std::sync::OnceLock;

use rand::seq::SliceRandom;
use tessera_core::rng::{Rng64, derive_seed};
use tessera_core::runtime::{Budget, Verdict, portfolio};

use super::{BoxVerdict, Ctx, undecided};
use crate::answer::{Answer, Dims, Placed};
use crate::bag::Bag;
use crate::shapes::PieceSet;

/// Packs the bag into the box with inventory rectangles (perfect packings only).
pub fn pack(bag: &Bag, dims: Dims, ctx: &Ctx<'_>) -> BoxVerdict {
    let (w, h) = dims;
    if u64::from(w) * u64::from(h) != bag.cells() || bag.set != PieceSet::Tetrominoes {
        return undecided(ctx.budget);
    }
    let inventory = inventory();
    let found = portfolio(ctx.threads, ctx.budget, |k, b| {
        let mut rng = Rng64::seed(derive_seed(ctx.seed, k as u64));
        while !b.expired() {
            let Some(chosen) = choose(inventory, &bag.counts, &mut rng) else { continue };
            if let Some(a) = pack_rects(inventory, &chosen, dims, &mut rng, b) {
                return Some(a);
            }
        }
        None
    });
    found.map_or_else(|| undecided(ctx.budget), Verdict::Feasible)
}

/// A rectangle of the inventory: its size, the pieces that tile it, and one tiling.
#[derive(Clone, Debug)]
pub struct Rect {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
    /// Copies of each kind.
    pub counts: Vec<u32>,
    /// One tiling, in the rectangle's own coordinates.
    pub tiling: Answer,
}

/// The tetromino inventory (built at first use).
pub(crate) fn inventory() -> &'static [Rect] {
    static INVENTORY: OnceLock<Vec<Rect>> = OnceLock::new();
    INVENTORY.get_or_init(|| {
        let mut all: Vec<Rect> = std::iter::once((4, 1))
            .chain((2..=8).map(|w| (w, 4)))
            .flat_map(|(w, h)| tilings(PieceSet::Tetrominoes, w, h))
            .collect();
        // Larger rectangles first: the choice prefers them.
        all.sort_by_key(|r| std::cmp::Reverse(r.w * r.h));
        all
    })
}

/// A placement of piece kind `.0` covering the cells of mask `.1`, listed in `.2`.
type Cand = (usize, u64, Vec<(i32, i32)>);

/// One tiling per distinct multiset of pieces, of a `w x h` rectangle (at most 64 cells).
fn tilings(set: PieceSet, w: u32, h: u32) -> Vec<Rect> {
    let kinds = set.kinds();
    // Placements filed by their lowest cell (cell = y * w + x).
    let mut by_cell: Vec<Vec<Cand>> = vec![Vec::new(); (w * h) as usize];
    for (kind, k) in kinds.iter().enumerate() {
        for rot in k.rotations() {
            for oy in 0..h as i32 {
                for ox in 0..w as i32 {
                    let cells: Vec<(i32, i32)> = rot.iter().map(|&(x, y)| (x + ox, y + oy)).collect();
                    if cells.iter().all(|&(x, y)| x < w as i32 && y < h as i32) {
                        let mask = cells.iter().fold(0u64, |m, &(x, y)| m | 1 << (y as u32 * w + x as u32));
                        by_cell[mask.trailing_zeros() as usize].push((kind, mask, cells));
                    }
                }
            }
        }
    }
    let full = if w * h == 64 { u64::MAX } else { (1u64 << (w * h)) - 1 };
    let mut found: HashMap<Vec<u32>, Answer> = HashMap::new();
    let mut stack: Vec<(usize, Vec<(i32, i32)>)> = Vec::new();
    fill(&by_cell, full, 0, kinds.len(), &mut stack, &mut found);
    found.into_iter().map(|(counts, tiling)| Rect { w, h, counts, tiling }).collect()
}

/// Fill-the-first-free-cell enumeration of every tiling, keeping one per multiset.
fn fill(
    by_cell: &[Vec<Cand>],
    full: u64,
    occ: u64,
    kinds: usize,
    stack: &mut Vec<(usize, Vec<(i32, i32)>)>,
    found: &mut HashMap<Vec<u32>, Answer>,
) {
    if occ == full {
        let mut counts = vec![0u32; kinds];
        stack.iter().for_each(|(k, _)| counts[*k] += 1);
        found.entry(counts).or_insert_with(|| Answer {
            placed: stack.iter().map(|(kind, cells)| Placed { kind: *kind, cells: cells.clone() }).collect(),
        });
        return;
    }
    let f = (!occ & full).trailing_zeros() as usize;
    for (kind, mask, cells) in &by_cell[f] {
        if occ & mask == 0 {
            stack.push((*kind, cells.clone()));
            fill(by_cell, full, occ | mask, kinds, stack, found);
            stack.pop();
        }
    }
}

/// Chooses rectangles whose pieces add up to `counts` exactly: random affordable ones, the
/// largest sizes first. `None` when stuck (the caller tries again).
fn choose(inventory: &[Rect], counts: &[u32], rng: &mut Rng64) -> Option<Vec<usize>> {
    let mut left = counts.to_vec();
    let mut chosen = Vec::new();
    let affordable = |r: &Rect, left: &[u32]| r.counts.iter().zip(left).all(|(c, l)| c <= l);
    while left.iter().any(|&l| l > 0) {
        let fits: Vec<usize> = (0..inventory.len()).filter(|&i| affordable(&inventory[i], &left)).collect();
        let biggest = fits.first().map(|&i| inventory[i].w * inventory[i].h)?;
        // Mostly among the biggest affordable sizes, sometimes any: variety between attempts.
        let pool: Vec<usize> = if rng.below(4) == 0 {
            fits
        } else {
            fits.into_iter().filter(|&i| inventory[i].w * inventory[i].h == biggest).collect()
        };
        let i = pool[rng.below(pool.len() as u64) as usize];
        left.iter_mut().zip(&inventory[i].counts).for_each(|(l, c)| *l -= c);
        chosen.push(i);
    }
    Some(chosen)
}

/// A free rectangle `(x, y, w, h)`.
type Free = (u32, u32, u32, u32);

/// The packing state: maximal free rectangles and the rectangles placed.
#[derive(Clone)]
struct Packing {
    free: Vec<Free>,
    placed: Vec<(usize, u32, u32, bool)>,
    area: u64,
}

impl Packing {
    fn new((w, h): Dims) -> Self {
        Packing { free: vec![(0, 0, w, h)], placed: Vec::new(), area: 0 }
    }

    /// The bottom-left spot (lowest, then leftmost) for a `w x h` rectangle.
    fn spot(&self, w: u32, h: u32) -> Option<(u32, u32)> {
        self.free.iter().filter(|f| f.2 >= w && f.3 >= h).map(|f| (f.1, f.0)).min().map(|(y, x)| (x, y))
    }

    /// Places rectangle `i` (turned if `turn`) at its bottom-left spot, if it has one.
    fn place(&mut self, inv: &[Rect], i: usize, turn: bool) -> bool {
        let (w, h) = if turn { (inv[i].h, inv[i].w) } else { (inv[i].w, inv[i].h) };
        let Some((x, y)) = self.spot(w, h) else { return false };
        // Split every free rectangle the new one overlaps into its maximal leftovers.
        let mut next = Vec::with_capacity(self.free.len() + 4);
        for &f in &self.free {
            let (fx, fy, fw, fh) = f;
            if x >= fx + fw || x + w <= fx || y >= fy + fh || y + h <= fy {
                next.push(f);
                continue;
            }
            if x > fx {
                next.push((fx, fy, x - fx, fh));
            }
            if x + w < fx + fw {
                next.push((x + w, fy, fx + fw - x - w, fh));
            }
            if y > fy {
                next.push((fx, fy, fw, y - fy));
            }
            if y + h < fy + fh {
                next.push((fx, y + h, fw, fy + fh - y - h));
            }
        }
        // Drop free rectangles inside others.
        let inside = |a: &Free, b: &Free| a.0 >= b.0 && a.1 >= b.1 && a.0 + a.2 <= b.0 + b.2 && a.1 + a.3 <= b.1 + b.3;
        let mut kept: Vec<Free> = Vec::with_capacity(next.len());
        for (k, a) in next.iter().enumerate() {
            let redundant = next.iter().enumerate().any(|(j, b)| j != k && inside(a, b) && (a != b || j < k));
            if !redundant {
                kept.push(*a);
            }
        }
        self.free = kept;
        self.placed.push((i, x, y, turn));
        self.area += u64::from(w * h);
        true
    }
}

/// Packs the chosen rectangles into the box by Monte-Carlo tree search (see the module
/// documentation); the answer, if everything fits.
fn pack_rects(inv: &[Rect], chosen: &[usize], dims: Dims, rng: &mut Rng64, budget: &mut Budget) -> Option<Answer> {
    const PLAYOUTS: usize = 4;
    let mut state = Packing::new(dims);
    let mut left = chosen.to_vec();
    while !left.is_empty() {
        if budget.expired() {
            return None;
        }
        // Every distinct size left, both ways round.
        let mut moves: Vec<(usize, bool)> = Vec::new();
        for (k, &i) in left.iter().enumerate() {
            let (w, h) = (inv[i].w, inv[i].h);
            if left[..k].iter().any(|&j| (inv[j].w, inv[j].h) == (w, h)) {
                continue;
            }
            moves.push((k, false));
            if w != h {
                moves.push((k, true));
            }
        }
        let mut best: Option<(u64, usize, bool, Packing)> = None;
        for &(k, turn) in &moves {
            let mut s = state.clone();
            if !s.place(inv, left[k], turn) {
                continue;
            }
            let mut rest: Vec<usize> = left.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &i)| i).collect();
            let mut value = 0;
            for _ in 0..PLAYOUTS {
                let mut p = s.clone();
                rest.shuffle(rng);
                let mut all = true;
                for &i in &rest {
                    if !(p.place(inv, i, rng.below(2) == 0) || p.place(inv, i, false) || p.place(inv, i, true)) {
                        all = false;
                        break;
                    }
                }
                if all {
                    return Some(to_answer(inv, &p, dims));
                }
                value = value.max(p.area);
            }
            if best.as_ref().is_none_or(|b| value > b.0) {
                best = Some((value, k, turn, s));
            }
        }
        let (_, k, _, s) = best?;
        state = s;
        left.swap_remove(k);
    }
    Some(to_answer(inv, &state, dims))
}

/// The pieces of a packing of rectangles, in the box's coordinates.
fn to_answer(inv: &[Rect], p: &Packing, _dims: Dims) -> Answer {
    let mut placed = Vec::new();
    for &(i, x, y, turn) in &p.placed {
        let r = &inv[i];
        let tiling = if turn { r.tiling.turned(r.w) } else { r.tiling.clone() };
        for piece in tiling.placed {
            placed.push(Placed {
                kind: piece.kind,
                cells: piece.cells.iter().map(|&(cx, cy)| (cx + x as i32, cy + y as i32)).collect(),
            });
        }
    }
    Answer { placed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate;

    #[test]
    fn the_inventory_holds_valid_tilings() {
        let inv = inventory();
        assert!(inv.len() > 1000, "{} rectangles", inv.len());
        for r in inv.iter().step_by(97) {
            let bag = Bag { set: PieceSet::Tetrominoes, counts: r.counts.clone() };
            let c = validate(&bag, &r.tiling).unwrap();
            assert_eq!((c.width, c.height), (r.w, r.h));
        }
        // Two I make a 4x2; a lone T never tiles a rectangle, nor an odd number of T a 4 x n.
        assert!(inv.iter().any(|r| (r.w, r.h) == (2, 4) && r.counts == vec![2, 0, 0, 0, 0, 0, 0]));
        assert!(inv.iter().all(|r| r.counts[5] % 2 == 0));
    }

    #[test]
    fn packs_a_16x16() {
        let mut rng = Rng64::seed(5);
        let bag = loop {
            let b = Bag::random(PieceSet::Tetrominoes, 64, &mut rng);
            if b.count_of('T').is_multiple_of(2) {
                break b;
            }
        };
        let budget = Budget::unlimited().with_time(std::time::Duration::from_secs(20));
        let Verdict::Feasible(a) = pack(&bag, (16, 16), &Ctx { threads: 2, seed: 1, budget: &budget }) else {
            panic!("no packing for {bag}");
        };
        assert_eq!(validate(&bag, &a).map(|c| c.score), Ok(384.0));
    }
}
