//! Counts split into shards add up to the whole count, on both engines.

use tessera_core::geometry::Lattice;
use tessera_core::runtime::{Budget, Outcome};
use tessera_core::shard::Shard;
use tessera_polyform::tiler::problem::from_pictures;
use tessera_polyform::tiler::{MAX_SHARDS, ShardCounts};
use tessera_tiling::{EngineKind, Puzzle, Tiler, TilingError, builtin};

/// Every shard of an `n`-way split (on one thread or two, by turns).
fn shards(tiler: &Tiler, n: u64) -> Vec<ShardCounts> {
    let count =
        |index| tiler.count_shard(Shard { index, count: n }, 1 + index as usize % 2, &Budget::unlimited(), None);
    (1..=n).map(|index| count(index).unwrap()).collect()
}

/// For splits into 1, 2, 3 and 7 shards: every shard finishes, all agree on the split, their
/// prefixes are the split's, and their sums are the whole count (raw, and the numerators over
/// `|G|` the distinct count). Returns the whole count.
fn shards_add_up(tiler: &Tiler, what: &str) -> (u128, u128) {
    let whole = tiler.count(2, &Budget::unlimited());
    assert_eq!(whole.outcome, Outcome::Complete, "{what}");
    let mut fingerprints = Vec::new();
    for n in [1, 2, 3, 7] {
        let shards = shards(tiler, n);
        let first = &shards[0];
        fingerprints.push(first.fingerprint);
        for s in &shards {
            assert_eq!(s.outcome, Outcome::Complete, "{what}, shard {}/{n}", s.shard);
            assert_eq!((s.fingerprint, s.prefixes, s.group), (first.fingerprint, first.prefixes, first.group));
            assert_eq!(s.done, s.shard_prefixes);
        }
        assert_eq!(shards.iter().map(|s| s.shard_prefixes).sum::<usize>(), first.prefixes, "{what}, {n} shards");
        let raw: u128 = shards.iter().map(|s| s.raw).sum();
        let numerator: u128 = shards.iter().map(|s| s.numerator).sum();
        assert_eq!(raw, whole.raw, "{what}, {n} shards: raw");
        assert_eq!(numerator % u128::from(first.group), 0, "{what}, {n} shards: whole classes");
        assert_eq!(numerator / u128::from(first.group), whole.distinct, "{what}, {n} shards: distinct");
        assert_eq!(first.group, tiler.symmetries() as u64);
    }
    fingerprints.dedup();
    assert_eq!(fingerprints.len(), 4, "{what}: splits into different numbers of shards have different fingerprints");
    (whole.raw, whole.distinct)
}

/// Both engines, and the fast one's other order (its own prefixes): their shards add up, and
/// to the same counts.
fn both_engines(problem: &tessera_polyform::tiler::Problem, what: &str) -> (u128, u128) {
    let fast = Tiler::with_engine(problem, EngineKind::Fast).unwrap();
    let dlx = Tiler::with_engine(problem, EngineKind::Dlx).unwrap();
    let constrained = Tiler::with_engine(problem, EngineKind::Constrained).unwrap();
    let counts = shards_add_up(&fast, &format!("{what} (fast)"));
    assert_eq!(shards_add_up(&dlx, &format!("{what} (dlx)")), counts, "{what}: the engines disagree");
    let other = shards_add_up(&constrained, &format!("{what} (constrained)"));
    assert_eq!(other, counts, "{what}: the orders disagree");
    counts
}

/// The fast engine on a shipped puzzle, against its stated counts (dancing links takes seconds
/// on these: it has the smaller puzzles below).
fn fast_on_builtin(name: &str) -> Tiler {
    let puzzle = builtin(name).unwrap();
    let fast = Tiler::with_engine(&puzzle.problem, EngineKind::Fast).unwrap();
    let (raw, distinct) = shards_add_up(&fast, name);
    assert!(puzzle.expect.raw.is_none_or(|r| r == raw), "{name}: raw {raw}");
    assert!(puzzle.expect.distinct.is_none_or(|d| d == distinct), "{name}: distinct {distinct}");
    fast
}

/// A square board with four symmetries, every piece once: the fast engine restricts one piece
/// to one placement per orbit, and its shards count for the others.
#[test]
fn pentominoes_5x12_in_shards() {
    let fast = fast_on_builtin("pentomino-5x12");
    assert!(fast.plan().restriction.is_some(), "a restricted piece");
    assert_eq!(fast.symmetries(), 4);
}

/// Eight symmetries and a hole.
#[test]
fn scott_8x8_in_shards() {
    assert_eq!(fast_on_builtin("scott-8x8").symmetries(), 8);
}

/// The hex lattice.
#[test]
fn meteor_in_shards() {
    fast_on_builtin("meteor");
}

/// Both engines on the smallest pentomino board (four symmetries, a restricted piece).
#[test]
fn pentominoes_3x20_in_shards_on_both_engines() {
    let puzzle = builtin("pentomino-3x20").unwrap();
    assert_eq!(both_engines(&puzzle.problem, "pentomino-3x20"), (8, 2));
}

/// Both engines on a hex board with two symmetries, identical copies and a restricted piece.
#[test]
fn a_hex_board_in_shards_on_both_engines() {
    let text = "name hex\nlattice hex\n\nboard\n# # # #\n # # # #\n# # # #\n # # # #\n# # # #\n # # # #\n\n\
                piece A x2\n# # #\n\npiece B x2\n# #\n #\n\npiece C x2\n# #\n . #\n\npiece D\n# # #\n #\n\n\
                piece E\n# #\n";
    let puzzle = Puzzle::parse(text).unwrap();
    let fast = Tiler::with_engine(&puzzle.problem, EngineKind::Fast).unwrap();
    assert_eq!(fast.symmetries(), 2);
    assert!(fast.plan().restriction.is_some(), "a restricted piece");
    let (raw, distinct) = both_engines(&puzzle.problem, "hex board");
    assert!(raw > distinct && distinct > 1000, "{raw} {distinct}");
}

/// Identical copies (counted items for dancing links) on a symmetric board with no piece to
/// restrict.
#[test]
fn copies_in_shards_on_both_engines() {
    let pieces = [('I', 2, true, "####"), ('L', 2, true, "#.\n#.\n##")];
    let problem = from_pictures(Lattice::Square, "####\n####\n####\n####", &pieces).unwrap();
    let (raw, distinct) = both_engines(&problem, "4x4 of I and L twice");
    assert!(raw > distinct && distinct > 1, "{raw} {distinct}");
}

/// No tiling when the areas differ: every shard is empty and complete; shards that do not
/// exist are refused.
#[test]
fn empty_and_bad_shards() {
    let problem = from_pictures(Lattice::Square, "###\n###", &[('D', 2, true, "##")]).unwrap();
    let tiler = Tiler::new(&problem).unwrap();
    for s in shards(&tiler, 3) {
        assert_eq!((s.raw, s.numerator, s.prefixes, s.outcome), (0, 0, 0, Outcome::Complete));
    }
    for (index, count) in [(0, 3), (4, 3), (1, MAX_SHARDS + 1)] {
        let got = tiler.count_shard(Shard { index, count }, 1, &Budget::unlimited(), None);
        assert_eq!(got, Err(TilingError::BadShard(index, count)));
    }
}

/// A stopped shard says so, and counts no more prefixes done than it has.
#[test]
fn a_stopped_shard_says_so() {
    let puzzle = builtin("pentomino-6x10").unwrap();
    let tiler = Tiler::new(&puzzle.problem).unwrap();
    let budget = Budget::unlimited().with_nodes(5000);
    let s = tiler.count_shard(Shard { index: 1, count: 2 }, 1, &budget, None).unwrap();
    assert!(!s.outcome.is_complete());
    assert!(s.done < s.shard_prefixes, "{} of {}", s.done, s.shard_prefixes);
}
