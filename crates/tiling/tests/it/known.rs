//! Every shipped puzzle against the counts its file states, solutions checked by the validator.

use std::ops::ControlFlow;

use tessera_core::runtime::{Budget, Outcome, Verdict};
use tessera_tiling::library::BUILTIN;
use tessera_tiling::validate::validate;
use tessera_tiling::{EngineKind, Puzzle, Tiler, builtin};

fn check_expected(name: &str, threads: usize) {
    let puzzle = builtin(name).unwrap();
    let tiler = Tiler::new(&puzzle.problem).unwrap();
    assert_eq!(tiler.engine(), EngineKind::Fast);
    let counts = tiler.count(threads, &Budget::unlimited());
    assert_eq!(counts.outcome, Outcome::Complete);
    if let Some(raw) = puzzle.expect.raw {
        assert_eq!(counts.raw, raw, "{name}: raw count");
    }
    if let Some(distinct) = puzzle.expect.distinct {
        assert_eq!(counts.distinct, distinct, "{name}: distinct count");
    }
    assert!(puzzle.expect.raw.is_some() || puzzle.expect.distinct.is_some(), "{name} states no count");
}

/// Library puzzles too slow to count in the tests (a minute or more); the ignored test
/// `slow_library_counts` counts them, and BENCHMARKS.md times them.
const SLOW: &[&str] = &[
    "bedlam",
    "one-sided-hexiamond-obeirne-hexagon",
    "one-sided-pentomino-5x18",
    "one-sided-pentomino-6x15",
    "one-sided-pentomino-9x10",
    "solid-pentomino-3x4x5",
];

#[test]
fn shipped_puzzles_parse_and_state_their_counts() {
    for (name, text) in BUILTIN {
        let p = Puzzle::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.problem.piece_area() as usize, p.problem.board.len(), "{name}: areas differ");
        assert!(p.source.is_some(), "{name} names no source");
        // The file as tessera writes it reads back the same (pictures, and coordinates).
        assert_eq!(Puzzle::parse(&p.to_text()).as_ref(), Ok(&p), "{name}");
        assert_eq!(Puzzle::parse(&p.to_cells_text()).map(|q| q.problem), Ok(p.problem.clone()), "{name}");
    }
    assert!(SLOW.iter().all(|s| builtin(s).is_some()));
}

/// Every quick library puzzle counts what the literature says (the counts its file states,
/// with their sources), on all four lattices.
#[test]
fn library_counts_match_the_literature() {
    let mut lattices = std::collections::BTreeSet::new();
    for (name, _) in BUILTIN.iter().filter(|(n, _)| !SLOW.contains(n)) {
        check_expected(name, 2);
        lattices.insert(builtin(name).unwrap().problem.lattice);
    }
    assert_eq!(lattices.len(), 4, "{lattices:?}");
}

/// The library's slow counts (minutes on two threads; run with `--ignored`).
#[test]
#[ignore = "minutes: the slow library counts"]
fn slow_library_counts() {
    for name in SLOW {
        check_expected(name, 2);
    }
}

#[test]
fn meteor_has_2098_solutions() {
    check_expected("meteor", 1);
}

/// Dancing links (no pruning, no symmetry breaking) counts what the fast engine counts on the
/// triangle and cube lattices, reflections of one-sided sets included.
#[test]
fn dancing_links_agrees_on_triangles_and_cubes() {
    for name in ["soma", "tetracube-2x2x8", "hexiamond-4x9", "lozenge-hexagon-3-3-3", "tetrahex-coin"] {
        let problem = builtin(name).unwrap().problem;
        let fast = Tiler::with_engine(&problem, EngineKind::Fast).unwrap().count(2, &Budget::unlimited());
        let dlx = Tiler::with_engine(&problem, EngineKind::Dlx).unwrap().count(1, &Budget::unlimited());
        assert_eq!((fast.raw, fast.distinct), (dlx.raw, dlx.distinct), "{name}");
    }
}

/// Listing agrees with counting, every listed tiling is valid and distinct, and the distinct
/// listing holds one tiling per class.
#[test]
fn listing_matches_counts_and_validates() {
    let puzzle = builtin("scott-8x8").unwrap();
    let tiler = Tiler::new(&puzzle.problem).unwrap();
    let mut seen = std::collections::HashSet::new();
    let outcome = tiler.for_each(&Budget::unlimited(), false, |s| {
        let labels = tiler.labels(s);
        assert_eq!(validate(&puzzle.problem, &labels.chars().collect::<Vec<_>>()), Ok(()));
        assert!(seen.insert(labels), "a tiling listed twice");
        ControlFlow::Continue(())
    });
    assert_eq!(outcome, Outcome::Complete);
    let counts = tiler.count(1, &Budget::unlimited());
    assert_eq!(seen.len() as u128, counts.raw);
    let mut distinct = 0;
    let outcome = tiler.for_each(&Budget::unlimited(), true, |_| {
        distinct += 1;
        ControlFlow::Continue(())
    });
    assert_eq!(outcome, Outcome::Complete);
    assert_eq!(distinct, 65);
}

/// The labels folded straight from the search (no pieces numbered, symmetric images drawn by
/// permuting labels; the fast engine draws them from its masks, dancing links from the plan's
/// placements) are the labels of the listed tilings, on a board with 8 symmetries.
#[test]
fn folded_labels_are_the_listed_tilings() {
    let puzzle = builtin("scott-8x8").unwrap();
    let tiler = Tiler::new(&puzzle.problem).unwrap();
    let mut listed = Vec::new();
    let outcome = tiler.for_each(&Budget::unlimited(), false, |s| {
        listed.push(tiler.labels(s));
        ControlFlow::Continue(())
    });
    assert_eq!(outcome, Outcome::Complete);
    listed.sort_unstable();
    for kind in [EngineKind::Fast, EngineKind::Dlx] {
        let tiler = Tiler::with_engine(&puzzle.problem, kind).unwrap();
        let (parts, outcome) = tiler.fold_labels(2, &Budget::unlimited(), Vec::new, |acc, labels| {
            acc.push(labels.iter().collect::<String>());
            ControlFlow::Continue(())
        });
        assert_eq!(outcome, Outcome::Complete);
        let mut folded: Vec<String> = parts.into_iter().flatten().collect();
        folded.sort_unstable();
        assert_eq!(folded.len(), 520, "{kind:?}");
        assert_eq!(folded, listed, "{kind:?}");
        let labels: Vec<char> = folded[0].chars().collect();
        assert_eq!(validate(&puzzle.problem, &labels), Ok(()), "{kind:?}");
    }
}

#[test]
fn first_solution_is_valid() {
    for (name, _) in BUILTIN {
        let puzzle = builtin(name).unwrap();
        let tiler = Tiler::new(&puzzle.problem).unwrap();
        let verdict = tiler.first(2, 0, &Budget::unlimited());
        if puzzle.expect.raw == Some(0) {
            assert_eq!(verdict, Verdict::Infeasible, "{name}");
            continue;
        }
        let Verdict::Feasible(s) = verdict else { panic!("{name}: no tiling") };
        assert_eq!(validate(&puzzle.problem, &tiler.labels(&s).chars().collect::<Vec<_>>()), Ok(()), "{name}");
    }
}

#[test]
fn a_tiny_node_budget_stops_the_count() {
    let tiler = Tiler::new(&builtin("pentomino-6x10").unwrap().problem).unwrap();
    let counts = tiler.count(1, &Budget::unlimited().with_nodes(5000));
    assert!(matches!(counts.outcome, Outcome::Stopped(_)));
    assert!(counts.raw < 9356);
}

#[test]
fn mismatched_areas_have_no_tiling() {
    let puzzle = Puzzle::parse("board\n###\n\npiece D\n##\n").unwrap();
    let tiler = Tiler::new(&puzzle.problem).unwrap();
    assert_eq!(tiler.count(1, &Budget::unlimited()).raw, 0);
    assert_eq!(tiler.first(1, 0, &Budget::unlimited()), Verdict::Infeasible);
}

/// One piece per cell: the search goes thousands of levels deep, on both engines.
#[test]
fn thousands_of_pieces_do_not_overflow_the_stack() {
    let board = |n: usize| format!("board\n{}\n\npiece o x{}\n#\n", vec!["#".repeat(n); n].join("\n"), n * n);
    // 64 x 64: the fast engine, 4096 levels of 64-word sets.
    let p = Puzzle::parse(&board(64)).unwrap();
    let t = Tiler::new(&p.problem).unwrap();
    assert_eq!(t.engine(), EngineKind::Fast);
    assert_eq!(t.count(1, &Budget::unlimited()).raw, 1);
    assert!(matches!(t.first(2, 0, &Budget::unlimited()), Verdict::Feasible(_)));
    let mut listed = 0;
    let outcome = t.for_each(&Budget::unlimited(), false, |_| {
        listed += 1;
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(outcome, Outcome::Complete);
    assert_eq!(listed, 1);
    // 100 x 100: past the fast engine, dancing links goes 10000 levels deep.
    let p = Puzzle::parse(&board(100)).unwrap();
    let t = Tiler::new(&p.problem).unwrap();
    assert_eq!(t.engine(), EngineKind::Dlx);
    assert!(matches!(t.first(1, 0, &Budget::unlimited()), Verdict::Feasible(_)));
}

/// BurrTools files (written for tessera, see `crates/tiling/tests/data/burr/README.md`): every
/// problem's assemblies are what BurrTools' `burrTxt` counted, by the default engine and by the
/// fast engine's most-constrained-first order, and the first tiling found is one by the
/// validator.
#[test]
fn burr_files_count_what_burrtools_counts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/burr");
    let table = std::fs::read_to_string(dir.join("assemblies.tsv")).unwrap();
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let [file, problem, want] = line.split('\t').collect::<Vec<_>>()[..] else { panic!("{line}") };
        let path = dir.join(file);
        let puzzle = tessera_tiling::library::open_problem(path.to_str().unwrap(), Some(problem)).unwrap();
        for engine in [EngineKind::Auto, EngineKind::Constrained] {
            let tiler = Tiler::with_engine(&puzzle.problem, engine).unwrap().choose_order();
            let counts = tiler.count(2, &Budget::unlimited());
            let (assemblies, outcome) = tessera_tiling::burr::assemblies(
                &puzzle.problem,
                counts.distinct,
                tiler.group().reflections,
                engine,
                1,
                &Budget::unlimited(),
            )
            .unwrap();
            let want = (want.parse().unwrap(), Outcome::Complete);
            assert_eq!((assemblies, outcome), want, "{file} problem {problem} {engine:?}");
            if let Verdict::Feasible(s) = tiler.first(1, 0, &Budget::unlimited()) {
                let labels: Vec<char> = tiler.labels(&s).chars().collect();
                assert_eq!(validate(&puzzle.problem, &labels), Ok(()), "{file} problem {problem}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 82);
}

/// For counts the default engine takes the most-constrained-first order where random paths
/// predict it several times faster (`pack-7-6`: a box of ten distinct pieces), and keeps the
/// first free cell where that order has nothing to offer (ranges of copies, empty cells).
#[test]
fn counts_take_the_order_predicted_faster() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/burr");
    let open = |file: &str| tessera_tiling::library::open_problem(dir.join(file).to_str().unwrap(), None).unwrap();
    let boxed = open("pack-7-6.xmpuzzle");
    let tiler = Tiler::new(&boxed.problem).unwrap();
    assert_eq!(tiler.engine(), EngineKind::Fast, "chosen only when asked");
    let tiler = tiler.choose_order();
    assert_eq!(tiler.engine(), EngineKind::Constrained);
    let fast = Tiler::with_engine(&boxed.problem, EngineKind::Fast).unwrap().choose_order();
    assert_eq!(fast.engine(), EngineKind::Fast, "an engine asked for stays");
    // Five assemblies, as burrTxt counts them (assemblies.tsv), none of them symmetric.
    let counts = tiler.count(1, &Budget::unlimited());
    assert_eq!((counts.raw, counts.distinct), (5, 5));
    for (file, why) in [("check-2-0.xmpuzzle", "ranges"), ("check-2-5.xmpuzzle", "empty cells")] {
        let tiler = Tiler::new(&open(file).problem).unwrap().choose_order();
        assert_eq!(tiler.engine(), EngineKind::Fast, "{file}: {why}");
    }
}

/// Domino tilings of an `m` by `n` rectangle, by a transfer matrix over its columns (shares
/// nothing with the engines): a state is the set of a column's cells already covered by
/// dominoes reaching in from the column before.
fn domino_tilings(m: u32, n: u32) -> u128 {
    let mut ways = vec![0u128; 1 << m];
    ways[0] = 1;
    for _ in 0..n {
        let mut next = vec![0u128; 1 << m];
        for (state, &w) in ways.iter().enumerate().filter(|(_, w)| **w > 0) {
            // Fill the column's free cells row by row: a vertical domino takes two free rows,
            // a horizontal one reaches into the next column.
            let mut stack = vec![(0u32, state as u32, 0u32)];
            while let Some((row, filled, out)) = stack.pop() {
                if row == m {
                    next[out as usize] += w;
                } else if filled >> row & 1 == 1 {
                    stack.push((row + 1, filled, out));
                } else {
                    stack.push((row + 1, filled | 1 << row, out | 1 << row));
                    if row + 1 < m && filled >> (row + 1) & 1 == 0 {
                        stack.push((row + 2, filled | 3 << row, out));
                    }
                }
            }
        }
        ways = next;
    }
    ways[0]
}

/// Counts past 64 bits are exact: domino tilings of rectangles against a transfer matrix
/// (Kasteleyn's count), 8x22 (69 bits) and 14x14 (77 bits, also OEIS A004003's
/// 112202208776036178000000).
#[test]
fn domino_counts_past_64_bits_are_exact() {
    assert_eq!(domino_tilings(8, 8), 12_988_816, "the transfer matrix itself");
    for (m, n) in [(8, 22), (14, 14)] {
        let text =
            format!("board\n{}\n\npiece D x{}\n##\n", vec!["#".repeat(n as usize); m as usize].join("\n"), m * n / 2);
        let problem = Puzzle::parse(&text).unwrap().problem;
        let counts = Tiler::new(&problem).unwrap().count(2, &Budget::unlimited());
        assert_eq!((counts.raw, counts.outcome), (domino_tilings(m, n), Outcome::Complete), "{m}x{n}");
        assert!(counts.raw > u128::from(u64::MAX), "{m}x{n}");
    }
    assert_eq!(domino_tilings(14, 14), 112_202_208_776_036_178_000_000);
}
