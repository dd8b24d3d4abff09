//! Random planted puzzles: the engine must find a tiling, the validator must accept it, and the
//! fast engine must count exactly what dancing links counts.

use proptest::prelude::*;
use tessera_core::geometry::Coord;
use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Verdict};
use tessera_tiling::random::{RandomSpec, planted};
use tessera_tiling::validate::validate;
use tessera_tiling::{EngineKind, Tiler};

/// A random puzzle's shape on lattice `kind` (square, hex, triangle, cube, prism: a solid box
/// two layers deep and half as wide, so that it has about as many cells and tilings stay
/// countable).
fn spec(kind: usize, width: u32, height: u32, holes: u32, min: u32, max: u32, mirror: bool) -> RandomSpec {
    let lattice = tessera_core::geometry::LATTICES[kind % 5];
    let (width, depth) = if lattice.is_solid() { (width.div_ceil(2), 2) } else { (width, 1) };
    RandomSpec { lattice, width, height, depth, holes, min_piece: min, max_piece: max.max(min), mirror }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Cut a board into pieces; the engine must put them back together.
    #[test]
    fn planted_puzzles_are_solved(kind in 0usize..5, width in 1u32..9, height in 1u32..9, holes in 0u32..4,
                                  min in 1u32..6, extra in 0u32..3, mirror: bool, seed: u64) {
        let holes = holes.min(width * height - 1);
        let s = spec(kind, width, height, holes, min, min + extra, mirror);
        let p = planted(&s, "prop", &mut Rng64::seed(seed)).unwrap();
        let tiler = Tiler::new(&p.puzzle.problem).unwrap();
        let Verdict::Feasible(sol) = tiler.first(1, 0, &Budget::unlimited()) else {
            panic!("no tiling for a planted puzzle:\n{}", p.puzzle.to_text());
        };
        let labels: Vec<char> = tiler.labels(&sol).chars().collect();
        prop_assert_eq!(validate(&p.puzzle.problem, &labels), Ok(()));
    }

    /// The fast engine (pruning, symmetry breaking, parallel split), in both its orders,
    /// counts what plain dancing links counts.
    #[test]
    fn fast_and_dlx_agree(kind in 0usize..5, width in 1u32..6, height in 1u32..5, min in 1u32..5,
                          mirror: bool, threads in 1usize..3, seed: u64) {
        let s = spec(kind, width, height, 0, min, min + 1, mirror);
        let p = planted(&s, "prop", &mut Rng64::seed(seed)).unwrap();
        let fast = Tiler::with_engine(&p.puzzle.problem, EngineKind::Fast).unwrap().count(threads, &Budget::unlimited());
        let constrained =
            Tiler::with_engine(&p.puzzle.problem, EngineKind::Constrained).unwrap().count(threads, &Budget::unlimited());
        let dlx = Tiler::with_engine(&p.puzzle.problem, EngineKind::Dlx).unwrap().count(1, &Budget::unlimited());
        prop_assert!(fast.raw >= 1);
        prop_assert_eq!((fast.raw, fast.distinct), (dlx.raw, dlx.distinct), "{}", p.puzzle.to_text());
        prop_assert_eq!((constrained.raw, constrained.distinct), (dlx.raw, dlx.distinct), "{}", p.puzzle.to_text());
    }
}

/// Boards past 64 cells take the multi-word path; it must agree with dancing links too. (Seeds
/// picked for puzzles with few tilings: dancing links has no pruning and counts them one by one.)
#[test]
fn wide_boards_agree_with_dlx() {
    for (hex, seed) in [(false, 16), (true, 8)] {
        let s = spec(usize::from(hex), 13, 5, 0, 7, 9, true);
        let p = planted(&s, "wide", &mut Rng64::seed(seed)).unwrap();
        let fast = Tiler::with_engine(&p.puzzle.problem, EngineKind::Fast).unwrap();
        assert!(fast.plan().nbits > 64);
        let a = fast.count(2, &Budget::unlimited());
        let b = Tiler::with_engine(&p.puzzle.problem, EngineKind::Dlx).unwrap().count(1, &Budget::unlimited());
        let c = Tiler::with_engine(&p.puzzle.problem, EngineKind::Constrained).unwrap().count(2, &Budget::unlimited());
        assert!(a.raw >= 1);
        assert_eq!((a.raw, a.distinct), (b.raw, b.distinct), "{}", p.puzzle.to_text());
        assert_eq!((c.raw, c.distinct), (b.raw, b.distinct), "constrained: {}", p.puzzle.to_text());
    }
}

/// A board that fills its whole word (64 cells, no holes): the root's occupancy is empty and
/// the fit tables read cells past the end of the word.
#[test]
fn a_board_filling_the_whole_word_agrees_with_dlx() {
    for seed in 0..2 {
        let s = spec(usize::from(seed % 2 == 1), 8, 8, 0, 8, 10, true);
        let p = planted(&s, "full", &mut Rng64::seed(seed)).unwrap();
        let fast = Tiler::with_engine(&p.puzzle.problem, EngineKind::Fast).unwrap();
        assert_eq!(fast.plan().nbits, 64);
        let a = fast.count(1, &Budget::unlimited());
        let b = Tiler::with_engine(&p.puzzle.problem, EngineKind::Dlx).unwrap().count(1, &Budget::unlimited());
        assert!(a.raw >= 1);
        assert_eq!((a.raw, a.distinct), (b.raw, b.distinct), "{}", p.puzzle.to_text());
    }
}

/// Boards of several words per cell set (up to 8) are solved too, on one and on two threads.
#[test]
fn multi_word_planted_boards_are_solved() {
    let cases = [(false, 12, 12), (true, 16, 12), (false, 18, 16), (true, 30, 8)];
    for (k, &(hex, w, h)) in cases.iter().enumerate() {
        let s = spec(usize::from(hex), w, h, 3, 4, 4, true);
        let p = planted(&s, "large", &mut Rng64::seed(k as u64)).unwrap();
        let tiler = Tiler::new(&p.puzzle.problem).unwrap();
        assert!(tiler.plan().nbits > 128, "{w}x{h} should need several words");
        for threads in [1, 2] {
            let budget = Budget::unlimited().with_time(std::time::Duration::from_secs(60));
            let Verdict::Feasible(sol) = tiler.first(threads, 0, &budget) else { panic!("{w}x{h}: no tiling") };
            let labels: Vec<char> = tiler.labels(&sol).chars().collect();
            assert_eq!(validate(&p.puzzle.problem, &labels), Ok(()));
        }
    }
}

/// A board symmetry as maps of cells and of labels.
type Symmetry = (std::collections::HashMap<Coord, Coord>, std::collections::HashMap<char, char>);

/// The board symmetries of a puzzle that map its set of pieces onto itself, worked out here
/// from lattice transforms alone (independently of the engine): each as a map from a cell to its
/// image and from a label to the label its pieces become (a reflection turns a chiral piece that
/// may not be turned over into its mirror image, which must be another piece of the set).
fn symmetries(p: &tessera_polyform::tiler::Problem) -> Vec<Symmetry> {
    use std::collections::{BTreeSet, HashMap};
    use tessera_core::geometry::{Polyform, Transform};
    let lattice = p.lattice;
    let shapes: Vec<Polyform> = p.pieces.iter().map(|q| Polyform::new(lattice, q.cells.iter().copied())).collect();
    // The shapes a piece may take, as a set.
    let takes = |k: usize, shape: &Polyform| -> BTreeSet<Polyform> {
        shape.orientations(p.pieces[k].mirror).into_iter().collect()
    };
    let flip = Transform { lattice, rot: 0, mirror: true };
    let mirrored: Option<HashMap<char, char>> = (0..p.pieces.len())
        .map(|k| {
            let image = takes(k, &shapes[k].transformed(flip));
            let a = &p.pieces[k];
            let partner = (0..p.pieces.len()).find(|&j| {
                let q = &p.pieces[j];
                (q.count, q.min, &q.colours) == (a.count, a.min, &a.colours) && takes(j, &shapes[j]) == image
            })?;
            Some((p.pieces[k].label, p.pieces[partner].label))
        })
        .collect();
    // Each board cell's kind (optional or not, and its colour): symmetries keep kinds.
    let kind: HashMap<Coord, (bool, u8)> =
        p.board.iter().enumerate().map(|(k, &c)| (c, (p.is_optional(k), p.colour(k)))).collect();
    let mut out: Vec<Symmetry> = Vec::new();
    for t in lattice.transforms(mirrored.is_some()) {
        let img: Vec<Coord> = p.board.iter().map(|&c| t.apply(c)).collect();
        // Move the image so that its lowest cell lands on the board's: triangles only onto one
        // of their kind, cubes across layers too.
        let low = |cs: &[Coord]| *cs.iter().min_by_key(|c| (c.z, c.y, c.x)).unwrap();
        let (a, b) = (low(&p.board), low(&img));
        if !lattice.same_kind(a, b) {
            continue;
        }
        let dz = if lattice.is_solid() { a.z - b.z } else { 0 };
        let map: HashMap<Coord, Coord> = p
            .board
            .iter()
            .map(|&c| {
                let i = t.apply(c);
                (c, Coord::at(i.x - b.x + a.x, i.y - b.y + a.y, i.z + dz))
            })
            .collect();
        let mut labels: HashMap<char, char> = match (t.mirror, &mirrored) {
            (true, Some(m)) => m.clone(),
            _ => p.pieces.iter().map(|q| (q.label, q.label)).collect(),
        };
        // Empty cells stay empty.
        labels.insert('.', '.');
        if map.iter().all(|(c, i)| kind.get(i) == Some(&kind[c])) && !out.iter().any(|o| o.0 == map) {
            out.push((map, labels));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Listing gives exactly the raw count, no tiling twice, and the classes under the board's
    /// symmetries (worked out independently) number exactly the distinct count, with touching
    /// copies of a piece told apart by their cells, not their labels.
    #[test]
    fn distinct_counts_match_an_independent_classification(kind in 0usize..5, width in 1u32..5, height in 1u32..5,
                                                          min in 1u32..4, mirror: bool, loose: bool, seed: u64) {
        use std::collections::BTreeSet;
        let s = spec(kind, width, height, 0, min, min + 1, mirror);
        let p = planted(&s, "prop", &mut Rng64::seed(seed)).unwrap();
        let problem = if loose { loosened(&p, seed).0 } else { p.puzzle.problem.clone() };
        let tiler = Tiler::new(&problem).unwrap();
        let counts = tiler.count(1, &Budget::unlimited());
        prop_assume!(counts.raw <= 20_000);
        let syms = symmetries(&problem);
        // A tiling as a set of pieces, each a label and its cells.
        type Tiling = BTreeSet<(char, BTreeSet<Coord>)>;
        let mut raw: BTreeSet<Tiling> = BTreeSet::new();
        let outcome = tiler.for_each(&Budget::unlimited(), false, |sol| {
            let labels: Vec<char> = tiler.labels(sol).chars().collect();
            let t: Tiling = sol.piece_cells().into_iter()
                .map(|cells| (labels[cells[0]], cells.iter().map(|&k| problem.board[k]).collect()))
                .collect();
            assert!(raw.insert(t), "a tiling listed twice");
            std::ops::ControlFlow::Continue(())
        });
        prop_assert_eq!(outcome, tessera_core::runtime::Outcome::Complete);
        prop_assert_eq!(raw.len() as u128, counts.raw);
        let classes: BTreeSet<Tiling> = raw.iter().map(|t| {
            syms.iter().map(|(m, l)| t.iter().map(|(a, cs)| (l[a], cs.iter().map(|c| m[c]).collect())).collect::<Tiling>()).min().unwrap()
        }).collect();
        prop_assert_eq!(classes.len() as u128, counts.distinct, "{:?}", problem);
    }
}

/// Many piece types (past the 12 of the main fit tables), cells with more than 128 placements
/// (several chunks) and pieces longer than the tables' window: the fast engine finds a tiling
/// the validator accepts, from its natural order and from random ones.
#[test]
fn many_types_and_long_placement_lists_are_solved() {
    for seed in 0..3 {
        let s = spec(1, 12, 12, 0, 6, 8, true);
        let p = planted(&s, "many", &mut Rng64::seed(seed)).unwrap();
        let tiler = Tiler::with_engine(&p.puzzle.problem, EngineKind::Fast).unwrap();
        let plan = tiler.plan();
        let mut per_bit = vec![0; plan.nbits];
        for pl in &plan.placements {
            per_bit[plan.cells_of(pl).iter().map(|&c| plan.bit_of[c as usize]).min().unwrap() as usize] += 1;
        }
        assert!(plan.types.len() > 12, "{} types", plan.types.len());
        assert!(per_bit.iter().any(|&n| n > 128), "{:?}", per_bit);
        // Worker 0 searches in the natural order, worker 1 in a random one; each must succeed.
        for threads in [1, 2] {
            let budget = Budget::unlimited().with_time(std::time::Duration::from_secs(60));
            let Verdict::Feasible(sol) = tiler.first(threads, seed, &budget) else { panic!("seed {seed}: no tiling") };
            let labels: Vec<char> = tiler.labels(&sol).chars().collect();
            assert_eq!(validate(&p.puzzle.problem, &labels), Ok(()));
        }
    }
}

/// Many copies of few types (dominoes; three-cell pieces on the hex lattice): the filter of the
/// last two pieces pairs copies of one type, and the counts must still be exact.
#[test]
fn identical_copies_agree_with_dlx() {
    for (hex, w, h, size) in [(false, 4, 5, 2), (true, 4, 3, 3)] {
        let s = spec(usize::from(hex), w, h, 0, size, size, true);
        let p = planted(&s, "copies", &mut Rng64::seed(3)).unwrap();
        assert!(p.puzzle.problem.pieces.iter().any(|piece| piece.count > 1), "{}", p.puzzle.to_text());
        let a = Tiler::with_engine(&p.puzzle.problem, EngineKind::Fast).unwrap().count(1, &Budget::unlimited());
        let b = Tiler::with_engine(&p.puzzle.problem, EngineKind::Dlx).unwrap().count(1, &Budget::unlimited());
        assert!(a.raw >= 1);
        assert_eq!((a.raw, a.distinct), (b.raw, b.distinct), "{}", p.puzzle.to_text());
    }
}

/// A planted puzzle made looser the ways BurrTools puzzles are: some board cells optional, a
/// few more optional cells beside the board (the planted tiling leaves them empty), ranges of
/// copies round the planted counts, at most as many empty cells as the planted tiling leaves
/// (or any number), and colours on board cells and pieces (a piece one colour throughout) with
/// the pairs the planted tiling needs allowed, and a few more. The planted tiling stays one.
fn loosened(p: &tessera_tiling::random::Planted, seed: u64) -> (tessera_polyform::tiler::Problem, Vec<char>) {
    use rand::RngExt;
    let mut rng = Rng64::seed(seed);
    let mut problem = p.puzzle.problem.clone();
    let mut labels = p.labels.clone();
    let lattice = problem.lattice;
    let n = problem.board.len();
    problem.optional = (0..n).map(|_| rng.random_range(0..4) == 0).collect();
    // Up to three empty cells beside the board.
    let on_board: std::collections::HashSet<Coord> = problem.board.iter().copied().collect();
    let mut beside: Vec<Coord> =
        problem.board.iter().flat_map(|&c| lattice.neighbours(c)).filter(|c| !on_board.contains(c)).collect();
    beside.sort();
    beside.dedup();
    for _ in 0..rng.random_range(0..4usize).min(beside.len()) {
        let c = beside.swap_remove(rng.random_range(0..beside.len()));
        problem.board.push(c);
        problem.optional.push(true);
        labels.push('.');
    }
    for piece in &mut problem.pieces {
        let count = piece.count;
        if rng.random_range(0..2) == 0 {
            piece.min = count.saturating_sub(rng.random_range(0..2));
            piece.count = count + rng.random_range(0..2);
        }
    }
    let empty = labels.iter().filter(|&&l| l == '.').count() as u32;
    problem.max_holes = (rng.random_range(0..2) == 0).then(|| empty + rng.random_range(0..2));
    if rng.random_range(0..2) == 0 {
        problem.colours = (0..problem.board.len()).map(|_| rng.random_range(0..3)).collect();
        for piece in &mut problem.pieces {
            let colour: u8 = rng.random_range(0..3);
            piece.colours = vec![colour; piece.cells.len()];
        }
        for (k, &l) in labels.iter().enumerate() {
            if let Some(piece) = problem.pieces.iter().find(|q| q.label == l) {
                problem.matches.push((piece.colours[0], problem.colours[k]));
            }
        }
        problem.matches.push((rng.random_range(1..3), rng.random_range(1..3)));
        problem.matches.retain(|&(a, b)| a != 0 && b != 0);
        problem.matches.sort_unstable();
        problem.matches.dedup();
    }
    (problem, labels)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// With optional cells, ranges of copies and colours, the planted tiling is one (by the
    /// validator), the fast engine counts what dancing links counts, and the tiling it finds is
    /// valid.
    #[test]
    fn loose_puzzles_agree_with_dlx(kind in 0usize..5, width in 1u32..6, height in 1u32..5, min in 1u32..5,
                                    mirror: bool, threads in 1usize..3, seed: u64) {
        let s = spec(kind, width, height, 0, min, min + 1, mirror);
        let p = planted(&s, "prop", &mut Rng64::seed(seed)).unwrap();
        let (problem, labels) = loosened(&p, seed ^ 0x5eed);
        prop_assert_eq!(validate(&problem, &labels), Ok(()));
        let fast = Tiler::with_engine(&problem, EngineKind::Fast).unwrap();
        let a = fast.count(threads, &Budget::unlimited());
        prop_assert!(a.raw >= 1);
        // Ranges and empty cells make some counts huge: dancing links visits every tiling.
        if a.raw <= 100_000 {
            let b = Tiler::with_engine(&problem, EngineKind::Dlx).unwrap().count(1, &Budget::unlimited());
            prop_assert_eq!((a.raw, a.distinct), (b.raw, b.distinct), "{:?}", problem);
            let c = Tiler::with_engine(&problem, EngineKind::Constrained).unwrap().count(threads, &Budget::unlimited());
            prop_assert_eq!((c.raw, c.distinct), (b.raw, b.distinct), "constrained: {:?}", problem);
        }
        let Verdict::Feasible(sol) = fast.first(threads, seed, &Budget::unlimited()) else { panic!("no tiling: {problem:?}") };
        let found: Vec<char> = fast.labels(&sol).chars().collect();
        prop_assert_eq!(validate(&problem, &found), Ok(()));
    }
}

/// One empty cell among three optional ones, on a board with a half turn: the empty cells may
/// not be the piece that breaks the board's symmetry (a search closes a tiling by leaving them
/// empty, without placing them), or counts lose the images of the tilings it closes so (once
/// 363 of 366).
#[test]
fn one_empty_cell_is_not_the_symmetry_breaker() {
    let text = "lattice cube\ncell + optional\nboard cells\n0 0 0 +\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n2 1 0\n0 0 1\n1 0 1\n2 0 1\n0 1 1 +\n1 1 1\n2 1 1\n3 1 0 +\n\npiece A x8 cells\n0 0 0\n\npiece B x2 cells\n0 0 0\n0 0 1\n";
    let problem = tessera_tiling::Puzzle::parse(text).unwrap().problem;
    for engine in [EngineKind::Fast, EngineKind::Constrained, EngineKind::Dlx] {
        let counts = Tiler::with_engine(&problem, engine).unwrap().count(1, &Budget::unlimited());
        assert_eq!((counts.raw, counts.distinct), (366, 186), "{engine:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Optional cells that the pieces leave no choice about: settled (dropped when all must
    /// stay empty, made plain when all must be covered), the counts are those of the problem
    /// as given, which the search takes with its empty cells.
    #[test]
    fn settled_optional_cells_keep_the_counts(kind in 0usize..5, width in 2u32..6, height in 2u32..5, min in 1u32..5,
                                              holes in 1u32..4, extra in 1usize..4, seed: u64) {
        // Holes make most boards asymmetric, so that marking cells optional keeps the symmetry.
        let s = spec(kind, width, height, holes.min(width * height / 2), min, min + 1, true);
        let p = planted(&s, "prop", &mut Rng64::seed(seed)).unwrap().puzzle.problem;
        let mut rng = Rng64::seed(seed ^ 1);
        let counts = |q: &tessera_polyform::tiler::Problem| {
            let c = Tiler::new(q).unwrap().count(1, &Budget::unlimited());
            (c.raw, c.distinct)
        };
        // Covered: some board cells marked optional, the pieces covering the whole board.
        let mut covered = p.clone();
        covered.optional = (0..p.board.len()).map(|_| rng.below(3) == 0).collect();
        if covered.optional_cells() > 0 && let Some(plain) = covered.settled() {
            prop_assert_eq!(plain.board.len(), p.board.len());
            prop_assert_eq!(counts(&plain), counts(&covered));
        }
        // Empty: cells beside the board (on the square and cube lattices, a column past its
        // right edge), which the pieces leave empty.
        if matches!(p.lattice, tessera_core::geometry::Lattice::Square | tessera_core::geometry::Lattice::Cube) {
            let right = p.board.iter().map(|c| c.x).max().unwrap() + 1;
            let mut empty = p.clone();
            empty.board.extend((0..extra as i32).map(|y| Coord::at(right, y, 0)));
            empty.optional = (0..empty.board.len()).map(|k| k >= p.board.len()).collect();
            if let Some(plain) = empty.settled() {
                prop_assert_eq!(plain.board.len(), p.board.len());
                prop_assert_eq!(counts(&plain), counts(&empty));
            }
        }
    }
}

/// Settling never changes the board's symmetries: optional cells that break them stay.
#[test]
fn optional_cells_that_break_the_symmetry_are_not_settled() {
    let square = |w: i32, h: i32| (0..h).flat_map(move |y| (0..w).map(move |x| Coord::at(x, y, 0))).collect::<Vec<_>>();
    let domino = tessera_polyform::tiler::PieceSpec::new('A', vec![Coord::at(0, 0, 0), Coord::at(1, 0, 0)], 2, true);
    // A 2x2 square (four symmetries of its own, eight with reflections) and one optional cell
    // beside it: that cell leaves the board one reflection.
    let mut board = square(2, 2);
    board.push(Coord::at(2, 0, 0));
    let mut p =
        tessera_polyform::tiler::Problem::new(tessera_core::geometry::Lattice::Square, board, vec![domino.clone()]);
    p.optional = vec![false, false, false, false, true];
    assert!(p.settled().is_none());
    // Two optional cells either side: the board keeps its two reflections, settled or not.
    let mut board = square(2, 2);
    board.extend([Coord::at(-1, 0, 0), Coord::at(2, 0, 0)]);
    let mut p = tessera_polyform::tiler::Problem::new(tessera_core::geometry::Lattice::Square, board, vec![domino]);
    p.optional = vec![false, false, false, false, true, true];
    assert_eq!(p.settled().map(|q| q.board.len()), None, "the 2x2 square alone has more symmetries");
}
