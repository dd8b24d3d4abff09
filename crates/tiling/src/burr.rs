//! BurrTools' count of *assemblies*: tilings up to the board's symmetries, as BurrTools counts
//! them, which differs from the distinct count only when pieces have ranges of copies.
//!
//! BurrTools merges a tiling with its images under the result's rotations, and under its
//! reflections too when the pieces allow: when every piece that is not its own mirror image has
//! its mirror image among the pieces (BurrTools pairs pieces one copy at a time, in the order of
//! the problem, and stops pairing at the first copy it cannot pair), or when pieces have
//! ranges. With ranges a tiling is merged with its mirror image only when that image is a
//! tiling too: every chiral piece it uses paired, and the numbers of copies its mirrored pieces
//! take within their ranges (BurrTools' guide calls what follows "the mirror paradox").
//!
//! tessera's distinct count merges mirror images only when the whole set of pieces maps onto
//! itself (each chiral type paired with one of the same range). Where the two differ, the
//! tilings whose mirror images are tilings are those of a problem `W` with narrower ranges (see
//! [`mirror_split`]), and the assemblies number the classes under rotations of the tilings
//! outside `W`, plus the classes under all symmetries of those in `W`:
//! `rotations(P) - rotations(W) + all(W)`, three counts of [`Tiler`].

use tessera_core::geometry::{Coord, Polyform, Transform};
use tessera_core::runtime::{Budget, Outcome};

use crate::puzzle::Problem;
use crate::{EngineKind, Tiler, TilingError};

/// Which tilings BurrTools merges with their mirror images.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MirrorSplit {
    /// Those tessera's distinct count merges: the counts are the same.
    Same,
    /// The tilings of this problem (the puzzle with narrower ranges), and no others.
    Part(Problem),
    /// None: the assemblies are the classes under rotations.
    Rotations,
}

/// Which tilings of `problem` BurrTools merges with their mirror images (see the module
/// documentation): for each piece that is not its own mirror image, as many copies as
/// BurrTools paired with copies of its mirror image, and those only in the range of both.
pub fn mirror_split(problem: &Problem) -> MirrorSplit {
    if problem.keep_mirrors {
        return MirrorSplit::Same;
    }
    let pairs = pairing(problem);
    let mut w = problem.clone();
    let mut changed = false;
    for (t, piece) in problem.pieces.iter().enumerate() {
        let Some((paired, partner)) = pairs[t] else { continue };
        let (least, most) = match partner {
            Some(u) => {
                let q = &problem.pieces[u];
                (piece.min.max(q.min), piece.count.min(q.count).min(paired))
            }
            None => (piece.min, 0),
        };
        if least > most {
            return MirrorSplit::Rotations;
        }
        changed |= (least, most) != (piece.min, piece.count);
        (w.pieces[t].min, w.pieces[t].count) = (least, most);
    }
    if !changed {
        return MirrorSplit::Same;
    }
    w.pieces.retain(|p| p.count > 0);
    if w.pieces.is_empty() {
        return MirrorSplit::Rotations;
    }
    MirrorSplit::Part(w)
}

/// For each piece type: `None` if it is its own mirror image (or may be turned over), else how
/// many of its copies BurrTools pairs with copies of its mirror image, and the type of those.
/// BurrTools takes the copies in order (the types in the problem's order, each type's copies
/// together), pairs each unpaired copy of a chiral piece with the first unpaired copy after it
/// of its mirror image, and stops at the first copy it cannot pair.
fn pairing(problem: &Problem) -> Vec<Option<(u32, Option<usize>)>> {
    let lattice = problem.lattice;
    let shapes: Vec<Vec<Vec<(Coord, u8)>>> =
        problem.pieces.iter().map(|p| lattice.transforms(false).map(|t| oriented(p, t)).collect()).collect();
    let reflection = Transform { lattice, rot: 0, mirror: true };
    let mirrored: Vec<Vec<(Coord, u8)>> = problem.pieces.iter().map(|p| oriented(p, reflection)).collect();
    // Whether type `a`'s mirror image is type `b` turned.
    let mirror_of = |a: usize, b: usize| shapes[b].contains(&mirrored[a]);
    let chiral: Vec<bool> = (0..problem.pieces.len()).map(|t| !problem.pieces[t].mirror && !mirror_of(t, t)).collect();
    let copies: Vec<usize> =
        problem.pieces.iter().enumerate().flat_map(|(t, p)| std::iter::repeat_n(t, p.count as usize)).collect();
    let mut partner: Vec<Option<usize>> = vec![None; copies.len()];
    for i in 0..copies.len() {
        if partner[i].is_some() || !chiral[copies[i]] {
            continue;
        }
        match (i + 1..copies.len()).find(|&j| partner[j].is_none() && mirror_of(copies[i], copies[j])) {
            Some(j) => (partner[i], partner[j]) = (Some(j), Some(i)),
            None => break,
        }
    }
    let mut out: Vec<Option<(u32, Option<usize>)>> = chiral.iter().map(|&c| c.then_some((0, None))).collect();
    for (i, &t) in copies.iter().enumerate() {
        if let (Some(j), Some((n, first))) = (partner[i], out[t].as_mut()) {
            *n += 1;
            first.get_or_insert(copies[j]);
        }
    }
    out
}

/// A piece's cells and colours under a lattice symmetry, in normal form.
fn oriented(p: &crate::puzzle::PieceSpec, t: Transform) -> Vec<(Coord, u8)> {
    normal(t, p.cells.iter().enumerate().map(|(k, &c)| (c, p.colour(k))))
}

/// Cells with what marks them, under a lattice symmetry, in normal form (translated as
/// [`Polyform`] translates them, sorted with them).
fn normal<K>(t: Transform, marked: impl Iterator<Item = (Coord, K)>) -> Vec<(Coord, K)> {
    let mut cells: Vec<(Coord, K)> = marked.map(|(c, k)| (t.apply(c), k)).collect();
    cells.sort_by_key(|c| c.0.key());
    let form = Polyform::new(t.lattice, cells.iter().map(|c| c.0));
    form.cells().iter().zip(cells).map(|(&c, (_, k))| (c, k)).collect()
}

/// Whether a reflection maps the board onto itself, its optional cells and colours in place:
/// whether BurrTools may merge a tiling with its mirror image at all, whatever the pieces.
fn board_has_reflection(problem: &Problem) -> bool {
    let lattice = problem.lattice;
    let marked = || problem.board.iter().enumerate().map(|(k, &c)| (c, (problem.is_optional(k), problem.colour(k))));
    let own = normal(Transform { lattice, rot: 0, mirror: false }, marked());
    lattice.transforms(true).filter(|t| t.mirror).any(|t| normal(t, marked()) == own)
}

/// The assemblies of a problem whose distinct count is `distinct`, up to a group with
/// `reflections` reflections (see the module documentation): that count itself, or three
/// counts more on `threads` workers. Stops as `budget` says, with the outcome of the counts.
pub fn assemblies(
    problem: &Problem,
    distinct: u128,
    reflections: usize,
    engine: EngineKind,
    threads: usize,
    budget: &Budget,
) -> Result<(u128, Outcome), TilingError> {
    // Without reflections in its group the distinct count is up to rotations. So are the
    // assemblies if the board itself has no mirror symmetry; if it has one, the pieces kept the
    // reflections out of the group (a chiral piece without its mirror image), and the
    // assemblies may still merge the tilings that use none of them.
    let board_mirrored = reflections > 0 || board_has_reflection(problem);
    if !board_mirrored {
        return Ok((distinct, Outcome::Complete));
    }
    let w = match mirror_split(problem) {
        MirrorSplit::Same => return Ok((distinct, Outcome::Complete)),
        MirrorSplit::Rotations => None,
        MirrorSplit::Part(w) => Some(w),
    };
    let classes = |p: &Problem, keep_mirrors: bool| {
        let p = Problem { keep_mirrors, ..p.clone() };
        let counts = Tiler::within(&p, engine, budget)?.choose_order().count(threads, budget);
        Ok::<_, TilingError>((counts.distinct, counts.outcome))
    };
    // The classes under rotations: the distinct count itself when its group has none but them.
    let (rotations, mut outcome) =
        if reflections == 0 { (distinct, Outcome::Complete) } else { classes(problem, true)? };
    let Some(w) = w else { return Ok((rotations, outcome)) };
    let (w_rotations, o1) = classes(&w, true)?;
    let (w_all, o2) = classes(&w, false)?;
    for o in [o1, o2] {
        if outcome.is_complete() {
            outcome = o;
        }
    }
    Ok(((rotations + w_all).saturating_sub(w_rotations), outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    /// Two chiral L-tricubes' mirror pair (ranges), a chiral piece with no partner, an achiral
    /// one: which pieces BurrTools pairs, and the problem of the tilings merged with their mirror
    /// images.
    #[test]
    fn pairs_are_found_copy_by_copy_until_one_is_not() {
        let piece = |label: &str, copies: &str, cells: &str| {
            format!("piece {label} {copies} fixed cells\n{}\n\n", cells.replace(';', "\n"))
        };
        // S and its mirror Z (a screw tetracube and its mirror), a chiral piece with no partner
        // (the L-shaped "branch" tetracube is achiral; the screw is chiral), and a bar.
        let s = "0 0 0;1 0 0;1 1 0;1 1 1";
        let z = "0 0 0;1 0 0;1 1 0;1 1 -1";
        let bar = "0 0 0;1 0 0";
        let text = |extra: &str| {
            format!(
                "lattice cube\nboard cells\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n\n{}{}{}{extra}",
                piece("S", "x0..2", s),
                piece("Z", "x0..1", z),
                piece("B", "x0..2", bar)
            )
        };
        let p = Puzzle::parse(&text("")).unwrap().problem;
        let pairs = pairing(&p);
        assert_eq!(pairs[0], Some((1, Some(1))), "one copy of S pairs with Z's one");
        assert_eq!(pairs[1], Some((1, Some(0))));
        assert_eq!(pairs[2], None, "a bar is its own mirror image");
        let MirrorSplit::Part(w) = mirror_split(&p) else { panic!("ranges differ: a part") };
        assert_eq!(
            w.pieces.iter().map(|q| (q.label, q.min, q.count)).collect::<Vec<_>>(),
            [('S', 0, 1), ('Z', 0, 1), ('B', 0, 2)]
        );
        // A chiral piece before them with no partner stops the pairing: no piece is paired.
        let y = "0 0 0;1 0 0;2 0 0;2 1 0;2 1 1";
        let cells = y.split(';').map(|c| {
            let v: Vec<i32> = c.split(' ').map(|n| n.parse().unwrap()).collect();
            Coord::at(v[0], v[1], v[2])
        });
        assert!(!Polyform::new(tessera_core::geometry::Lattice::Cube, cells).is_achiral());
        let q = Puzzle::parse(&format!("{}{}", piece("Y", "x0..1", y), text(""))).unwrap().problem;
        assert!(pairing(&q).iter().flatten().all(|&(n, _)| n == 0));
        assert_eq!(mirror_split(&Problem { keep_mirrors: true, ..p.clone() }), MirrorSplit::Same);
    }
}
