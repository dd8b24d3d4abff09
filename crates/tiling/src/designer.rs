//! A puzzle designer's first questions: has it one solution (up to symmetry), which pieces does
//! it fix in place, and when it has none, why not, in terms a person can check.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use serde::Serialize;
use tessera_core::geometry::{Coord, Lattice};
use tessera_core::runtime::{Budget, Outcome, StopReason};

use crate::puzzle::Problem;
use crate::{Solution, Tiler};
use tessera_polyform::tiler::problem::show;

/// Whether a puzzle has one solution up to symmetry (the distinct count's classes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// One class of tilings.
    Unique(Solution),
    /// Two tilings of different classes (there may be more).
    NotUnique(Solution, Solution),
    /// No tiling.
    None,
    /// The search stopped before it knew.
    Unknown(StopReason),
}

/// Looks for tilings of two classes, and stops at the second.
pub fn uniqueness(tiler: &Tiler, budget: &Budget) -> Uniqueness {
    let mut found: Vec<Solution> = Vec::with_capacity(2);
    // One tiling per class, the smallest of it, in a fixed order.
    let outcome = tiler.for_each(budget, true, |s| {
        found.push(s.clone());
        if found.len() == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    let mut found = found.into_iter();
    match (outcome, found.next(), found.next()) {
        (_, Some(a), Some(b)) => Uniqueness::NotUnique(a, b),
        (Outcome::Stopped(r), ..) if r != StopReason::Visitor => Uniqueness::Unknown(r),
        (_, Some(a), None) => Uniqueness::Unique(a),
        _ => Uniqueness::None,
    }
}

/// Where a piece type sits across the tilings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PiecePlace {
    /// The piece's label.
    pub label: char,
    /// Whether every tiling puts it (all its copies) in the same places, up to the board's
    /// symmetries.
    pub fixed: bool,
    /// How many different places (up to symmetry) its copies take in the tilings.
    pub places: usize,
}

/// For each piece type, whether the tilings put it in one place (up to the board's symmetries:
/// a symmetric board's tilings come in classes, and a piece is fixed when it sits where one
/// class's image puts it in every class); visits every tiling on `threads` workers.
pub fn fixed_pieces(tiler: &Tiler, threads: usize, budget: &Budget) -> (Vec<PiecePlace>, Outcome) {
    let plan = tiler.plan();
    let types = plan.types.len();
    // Per worker and type: the places (as the canonical cells of their orbits) its copies take
    // in each tiling, as sets.
    let init = || vec![BTreeSet::<Vec<Vec<u32>>>::new(); types];
    let (accs, outcome) = tiler.fold(threads, budget, init, |acc, s| {
        let mut places: Vec<Vec<Vec<u32>>> = vec![Vec::new(); types];
        for cells in s.piece_cells() {
            let ty = usize::from(s.types[cells[0]]);
            places[ty].push(canonical(&plan.symmetries, &cells));
        }
        for (ty, mut p) in places.into_iter().enumerate() {
            p.sort_unstable();
            acc[ty].insert(p);
        }
        ControlFlow::Continue(())
    });
    let mut seen = init();
    for acc in accs {
        for (all, mine) in seen.iter_mut().zip(acc) {
            all.extend(mine);
        }
    }
    let out = plan
        .types
        .iter()
        .zip(seen)
        .filter(|(t, _)| Some(t.label) != plan.empty.map(|e| plan.types[e].label))
        .map(|(t, places)| PiecePlace { label: t.label, fixed: places.len() == 1, places: places.len() })
        .collect();
    (out, outcome)
}

/// The smallest image of a set of board cells under the symmetries (the identity among them).
fn canonical(symmetries: &[Vec<u32>], cells: &[usize]) -> Vec<u32> {
    let mut best: Vec<u32> = cells.iter().map(|&c| c as u32).collect();
    best.sort_unstable();
    for perm in symmetries {
        let mut image: Vec<u32> = cells.iter().map(|&c| perm[c]).collect();
        image.sort_unstable();
        best = best.min(image);
    }
    best
}

/// A reason a puzzle has no tiling that a person can check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// The pieces have too few or too many cells.
    Area {
        /// Fewest and most cells the pieces cover.
        pieces: (u64, u64),
        /// Fewest and most cells the board needs covered.
        board: (u64, u64),
    },
    /// A piece that must be used has more cells than the board.
    TooBig {
        /// The piece.
        label: char,
        /// Its cells.
        cells: usize,
        /// The board's.
        board: usize,
    },
    /// A piece that must be used fits nowhere on the board.
    FitsNowhere {
        /// The piece.
        label: char,
    },
    /// A cell that must be covered lies under no placement of any piece.
    Unreachable {
        /// The cell, in the coordinate form.
        cell: String,
    },
    /// Cells of a colour outnumber the piece cells that may cover them, or a colour's piece
    /// cells outnumber the board cells they may cover.
    Colours {
        /// What does not balance, in words.
        what: String,
    },
    /// A chessboard colouring: the board's two colours differ by more, or otherwise, than the
    /// pieces' can.
    Parity {
        /// The board's cells of the two colours.
        board: (u64, u64),
        /// What each piece covers more of one colour than of the other, by piece.
        pieces: Vec<(char, u64, u32)>,
    },
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Area { pieces, board } => {
                let span = |(a, b): (u64, u64)| if a == b { a.to_string() } else { format!("{a} to {b}") };
                let cells = if *pieces == (1, 1) { "cell" } else { "cells" };
                write!(f, "the pieces cover {} {cells}, but the board needs {} covered", span(*pieces), span(*board))
            }
            Reason::TooBig { label, cells, board } => {
                write!(f, "piece {label} has {cells} cells, more than the board's {board}")
            }
            Reason::FitsNowhere { label } => write!(f, "piece {label} fits nowhere on the board"),
            Reason::Unreachable { cell } => write!(f, "no piece can cover the cell {cell}"),
            Reason::Colours { what } => f.write_str(what),
            Reason::Parity { board, pieces } => {
                let each: Vec<String> = pieces
                    .iter()
                    .filter(|p| p.1 > 0)
                    .map(|(l, d, n)| match n {
                        1 => format!("{l} covers {d} more of one colour than of the other"),
                        n => format!("each {l} ({n} copies) {d} more"),
                    })
                    .collect();
                let others = if each.len() < pieces.len() { ", every other piece as many of each" } else { "" };
                let pieces = if each.is_empty() {
                    "every piece covers as many cells of each".to_string()
                } else {
                    each.join(", ")
                };
                write!(
                    f,
                    "coloured like a chessboard, the board has {} cells of one colour and {} of the other; {pieces}{others}: no way of turning them makes a difference of {}",
                    board.0,
                    board.1,
                    board.0.abs_diff(board.1)
                )
            }
        }
    }
}

impl Reason {
    /// Whether the reason is one a puzzle file should not have (a count or size that cannot
    /// work), rather than a fact found about the pieces and the board.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, Reason::Area { .. } | Reason::TooBig { .. })
    }
}

/// The first reason found that a puzzle has no tiling (`None`: none of these checks finds one;
/// there may still be no tiling): the pieces' cells against the board's, a piece larger than
/// the board, a piece that must be used and fits nowhere, a cell that no piece can cover, the
/// colours' cells against each other, and a chessboard colouring.
pub fn why_none(problem: &Problem, tiler: &Tiler) -> Option<Reason> {
    if let Some(r) = bad_input(problem) {
        return Some(r);
    }
    let plan = tiler.plan();
    let mut placed = vec![false; plan.types.len()];
    let mut covered = vec![false; plan.len()];
    for p in plan.placements.iter().filter(|p| Some(p.ty) != plan.empty) {
        placed[p.ty] = true;
        plan.cells_of(p).iter().for_each(|&c| covered[c as usize] = true);
    }
    if let Some(t) = (0..problem.pieces.len()).find(|&t| !placed[t] && problem.pieces[t].min > 0) {
        return Some(Reason::FitsNowhere { label: problem.pieces[t].label });
    }
    if let Some(k) = (0..plan.len()).find(|&k| !covered[k] && !problem.is_optional(k)) {
        return Some(Reason::Unreachable { cell: show(problem.lattice, problem.board[k]) });
    }
    colours(problem).or_else(|| parity(problem))
}

/// The reasons a puzzle file should not have (see [`Reason::is_bad_input`]): a piece that must
/// be used is larger than the board, or the pieces' cells cannot number what the board needs
/// covered.
pub fn bad_input(problem: &Problem) -> Option<Reason> {
    let n = problem.board.len();
    if let Some(p) = problem.pieces.iter().find(|p| p.min > 0 && p.cells.len() > n) {
        return Some(Reason::TooBig { label: p.label, cells: p.cells.len(), board: n });
    }
    let (least, most) = problem.area_range();
    (least > most).then(|| {
        let pieces = (problem.least_piece_area(), problem.piece_area());
        let holes = problem.optional_cells().min(problem.max_holes.map_or(usize::MAX, |h| h as usize));
        Reason::Area { pieces, board: ((n - holes) as u64, n as u64) }
    })
}

/// The colours' check: a board colour's cells that must be covered against the piece cells
/// that may cover them, and a piece colour's cells (of the pieces' least copies) against the
/// board cells they may cover.
fn colours(problem: &Problem) -> Option<Reason> {
    if !problem.has_colours() {
        return None;
    }
    let colours: BTreeSet<u8> = (0..problem.board.len()).map(|k| problem.colour(k)).filter(|&c| c != 0).collect();
    for &b in &colours {
        let need =
            (0..problem.board.len()).filter(|&k| problem.colour(k) == b && !problem.is_optional(k)).count() as u64;
        let may: u64 = problem
            .pieces
            .iter()
            .map(|p| u64::from(p.count) * (0..p.cells.len()).filter(|&k| problem.allows(p.colour(k), b)).count() as u64)
            .sum();
        if need > may {
            return Some(Reason::Colours {
                what: format!(
                    "{need} board cells of colour {b} must be covered, but the pieces have {may} cells that may cover them"
                ),
            });
        }
    }
    let piece_colours: BTreeSet<u8> =
        problem.pieces.iter().flat_map(|p| p.colours.iter().copied()).filter(|&c| c != 0).collect();
    for &c in &piece_colours {
        let need: u64 = problem
            .pieces
            .iter()
            .map(|p| u64::from(p.min) * p.colours.iter().filter(|&&k| k == c).count() as u64)
            .sum();
        let may = (0..problem.board.len()).filter(|&k| problem.allows(c, problem.colour(k))).count() as u64;
        if need > may {
            return Some(Reason::Colours {
                what: format!("the pieces have {need} cells of colour {c}, but only {may} board cells may take them"),
            });
        }
    }
    None
}

/// The chessboard check, on lattices with two colours (square, cube, triangles, prisms), for
/// puzzles whose pieces are all used and whose cells must all be covered: each piece covers
/// more cells of one colour than of the other by a number that no turn or move changes, only
/// which colour; the board's difference must be a sum of those numbers, each with a sign.
fn parity(problem: &Problem) -> Option<Reason> {
    if problem.has_ranges() || problem.optional_cells() > 0 {
        return None;
    }
    let colour = |c: Coord| -> Option<i64> {
        let k = match problem.lattice {
            Lattice::Square => c.x + c.y,
            Lattice::Cube => c.x + c.y + c.z,
            Lattice::Triangle => c.z,
            Lattice::Prism => c.kind() + c.layer(),
            Lattice::Hex => return None,
        };
        Some(if k.rem_euclid(2) == 0 { 1 } else { -1 })
    };
    let sum = |cells: &[Coord]| cells.iter().map(|&c| colour(c)).sum::<Option<i64>>();
    let board = sum(&problem.board)?;
    let dark = (problem.board.len() as i64 + board) / 2;
    let mut diffs = Vec::new();
    for p in &problem.pieces {
        diffs.push((p.label, sum(&p.cells)?.unsigned_abs(), p.count));
    }
    // Signed sums: the differences d, with k copies each, reach b iff (sum - b) / 2 is a sum of
    // some of them (those taken with the other sign).
    let total: u64 = diffs.iter().map(|&(_, d, k)| d * u64::from(k)).sum();
    let gap = total as i64 - board;
    let reachable = gap >= 0 && gap % 2 == 0 && {
        let target = (gap / 2) as usize;
        let mut reach = vec![false; target + 1];
        reach[0] = true;
        for &(_, d, k) in &diffs {
            for _ in 0..k.min(target as u32 + 1) {
                for s in (d as usize..=target).rev() {
                    reach[s] |= reach[s - d as usize];
                }
            }
        }
        reach[target]
    };
    (!reachable)
        .then(|| Reason::Parity { board: (dark as u64, problem.board.len() as u64 - dark as u64), pieces: diffs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    fn tiler(text: &str) -> (Problem, Tiler) {
        let problem = Puzzle::parse(text).unwrap().problem;
        let tiler = Tiler::new(&problem).unwrap();
        (problem, tiler)
    }

    #[test]
    fn unique_not_unique_and_none() {
        let answer = |text: &str| uniqueness(&tiler(text).1, &Budget::unlimited());
        // Two dominoes in a square: both tilings are one class (a quarter turn).
        assert!(matches!(answer("board\n##\n##\n\npiece D x2\n##\n"), Uniqueness::Unique(_)));
        // Three in a 2x3 rectangle: three tilings, two classes.
        let Uniqueness::NotUnique(a, b) = answer("board\n###\n###\n\npiece D x3\n##\n") else { panic!("two classes") };
        assert_ne!(a, b);
        // Three Ts cannot fill 2x6 (a chessboard colouring).
        assert_eq!(answer("board\n######\n######\n\npiece T x3\n###\n.#.\n"), Uniqueness::None);
        let stopped = uniqueness(&tiler("board\n####\n####\n\npiece D x4\n##\n").1, &Budget::unlimited().with_nodes(0));
        assert!(matches!(stopped, Uniqueness::Unknown(_) | Uniqueness::NotUnique(..)), "{stopped:?}");
    }

    /// The pentominoes' two tilings of 3x20 (Haselgrove, 1960) differ in where F, L, N, W, Y
    /// and Z go; I, P, T, U, V and X sit in the same places.
    #[test]
    fn the_3x20_pentominoes_fix_six_pieces() {
        let puzzle = crate::builtin("pentomino-3x20").unwrap();
        let t = Tiler::new(&puzzle.problem).unwrap();
        let (places, outcome) = fixed_pieces(&t, 2, &Budget::unlimited());
        assert_eq!(outcome, Outcome::Complete);
        let fixed: String = places.iter().filter(|p| p.fixed).map(|p| p.label).collect();
        assert_eq!(fixed, "IPTUVX");
        assert!(places.iter().all(|p| p.places == 1 || p.places == 2));
    }

    #[test]
    fn reasons_a_person_can_check() {
        let reason = |text: &str| {
            let (p, t) = tiler(text);
            why_none(&p, &t).map(|r| (r.is_bad_input(), r.to_string()))
        };
        let cases: &[(&str, bool, &str)] = &[
            ("board\n###\n\npiece D\n##\n", true, "the pieces cover 2 cells, but the board needs 3 covered"),
            ("board\n##\n\npiece I\n###\n\npiece J x0..1\n#\n", true, "piece I has 3 cells, more than the board's 2"),
            ("board\n###\n\npiece D x0..1\n##\n", true, "the pieces cover 0 to 2 cells, but the board needs 3 covered"),
            ("board\n###\n###\n\npiece I\n####\n\npiece D x0..3\n##\n", false, "piece I fits nowhere"),
            ("board\n##.#\n##..\n\npiece L\n#.\n##\n\npiece D\n##\n", false, "no piece can cover the cell (3 0)"),
            (
                "cell r colour 1\ncell b colour 2\nmatch 2 2\nboard\nrr#\nr##\n\npiece D\n##\n\npiece B x2\nbb\n",
                false,
                "3 board cells of colour 1 must be covered, but the pieces have 2 cells that may cover them",
            ),
            (
                "board\n######\n######\n\npiece T x3\n###\n.#.\n",
                false,
                "no way of turning them makes a difference of 0",
            ),
        ];
        for &(text, bad, says) in cases {
            let (is_bad, message) = reason(text).unwrap_or_else(|| panic!("{text:?}: no reason"));
            assert_eq!(is_bad, bad, "{text:?}: {message}");
            assert!(message.contains(says), "{text:?}: {message}");
        }
        // A puzzle whose tiling fails for reasons none of the checks sees says nothing.
        assert_eq!(reason("board\n###\n#..\n\npiece L\n#..\n###\n"), None);
    }
}
