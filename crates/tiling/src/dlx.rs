//! A puzzle as an exact-cover problem in the input format of Knuth's `dlx1`, the first of his
//! dancing-links programs (the later ones read the same format): a line naming the items, then
//! one line per option listing its items; lines that start with `|` are comments. Item names are
//! one to eight non-blank ASCII characters other than `:` and `|`.
//!
//! Every item is primary (covered exactly once):
//!
//! - every board cell, named `#` and its index in the board's reading order (`#0`, `#1`, ...);
//! - every copy of every piece type, named by the type's label and the copy's number (`F1`;
//!   `L1` and `L2` for two copies of `L`). A label that cannot start a name (not ASCII, blank,
//!   `:`, `|`, `#`, or used by two types) gives `#p` and the copy's number among all pieces
//!   instead (`#p7`).
//!
//! One option per placement ([`Plan::placements`]: every placement, before any pruning) and copy
//! of its type: the copy, then the cells the placement covers.
//!
//! `dlx1` has no multiplicities, so it tells identical copies apart: with `k` copies of a type it
//! finds every tiling once per way of numbering those copies, `k!` times. It counts
//! [`copy_factor`] times the tilings that tessera counts, and a comment line of the output says
//! so, with the factor as a product of factorials.
//!
//! ```
//! use tessera_tiling::{Tiler, builtin, dlx};
//!
//! let puzzle = builtin("pentomino-3x20").expect("a shipped puzzle");
//! let tiler = Tiler::new(&puzzle.problem)?;
//! let text = dlx::dlx_input(&puzzle.name, tiler.plan())?;
//! let items = text.lines().find(|l| !l.starts_with('|')).expect("an items line");
//! assert_eq!(items.split(' ').count(), 60 + 12, "60 cells and 12 pieces");
//! assert_eq!(dlx::copy_factor(tiler.plan()), Some(1), "one copy of each pentomino");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use tessera_polyform::tiler::plan::{PieceType, Plan};

/// Most items `dlx1` reads (its `max_cols`).
pub const MAX_ITEMS: u64 = 100_000;

/// `dlx1` needs fewer nodes than this (its `max_nodes`): one per item, one more, and per option
/// one per item of the option and one spacer.
pub const MAX_NODES: u64 = 25_000_000;

/// Why a puzzle cannot be written for `dlx1`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DlxError {
    /// More items or nodes than `dlx1` is compiled for.
    #[error(
        "dlx1 reads at most {MAX_ITEMS} items and fewer than {MAX_NODES} nodes; this puzzle needs {items} items and {nodes} nodes"
    )]
    TooBig {
        /// Board cells plus piece copies.
        items: u64,
        /// Nodes `dlx1` would allocate.
        nodes: u64,
    },
}

/// The puzzle `name` compiled to `plan`, as `dlx1`'s input: comment lines saying what it is
/// (among them the line `| factor ...` with [`copy_factor`]), the items line, and the options.
pub fn dlx_input(name: &str, plan: &Plan) -> Result<String, DlxError> {
    let names = piece_names(&plan.types);
    let options = check_size(plan)?;
    let mut out = String::new();
    comments(&mut out, name, plan, options);
    items_line(&mut out, plan.len(), &names);
    let mut cells = String::new();
    for p in &plan.placements {
        // The cells' names once per placement, then one line per copy of its type.
        cells.clear();
        for &c in plan.cells_of(p) {
            let _ = write!(cells, " #{c}");
        }
        for copy in &names[p.ty] {
            out.push_str(copy);
            out.push_str(&cells);
            out.push('\n');
        }
    }
    Ok(out)
}

/// How many times `dlx1` counts each tiling: the product of `k!` over the piece types' copy
/// counts `k`; `None` if that exceeds `u128`.
pub fn copy_factor(plan: &Plan) -> Option<u128> {
    plan.types.iter().try_fold(1u128, |acc, t| (2..=u128::from(t.count)).try_fold(acc, u128::checked_mul))
}

/// The item names of every copy of every type (see the module documentation).
fn piece_names(types: &[PieceType]) -> Vec<Vec<String>> {
    let usable = |label: char| {
        label.is_ascii_graphic()
            && !matches!(label, ':' | '|' | '#')
            && types.iter().filter(|t| t.label == label).count() == 1
    };
    let mut global = 0u64;
    types
        .iter()
        .map(|t| {
            (1..=u64::from(t.count))
                .map(|j| {
                    global += 1;
                    if usable(t.label) { format!("{}{j}", t.label) } else { format!("#p{global}") }
                })
                .collect()
        })
        .collect()
}

/// The number of options, if `dlx1` can read them all (which also keeps every name within eight
/// characters: at most 100,000 items).
fn check_size(plan: &Plan) -> Result<u64, DlxError> {
    let copies: u64 = plan.types.iter().map(|t| u64::from(t.count)).sum();
    let items = plan.len() as u64 + copies;
    let (mut options, mut nodes) = (0u64, items + 1);
    for p in &plan.placements {
        let t = &plan.types[p.ty];
        options += u64::from(t.count);
        // The cells, the copy and the spacer.
        nodes = nodes.saturating_add(u64::from(t.count) * (t.size as u64 + 2));
    }
    if items > MAX_ITEMS || nodes >= MAX_NODES {
        return Err(DlxError::TooBig { items, nodes });
    }
    Ok(options)
}

/// The comment lines: the puzzle, the naming, and the factor.
fn comments(out: &mut String, name: &str, plan: &Plan, options: u64) {
    // One line, and a short one: dlx1 reads lines of bounded length.
    let name: String = name.chars().take(200).map(|c| if c.is_control() { ' ' } else { c }).collect();
    let n = plan.len();
    let copies: u64 = plan.types.iter().map(|t| u64::from(t.count)).sum();
    let _ = writeln!(out, "| {name}: an exact-cover problem for Knuth's dlx1 (written by tessera tiling show --dlx)");
    let _ =
        writeln!(out, "| items: {n} board cells #0..#{} in reading order, {copies} pieces (label, copy)", n.max(1) - 1);
    let _ = writeln!(out, "| options: {options}, one per placement and copy");
    let _ = writeln!(
        out,
        "| factor {}: dlx1 tells identical copies apart and counts each tiling that often",
        factor_text(plan)
    );
}

/// The factor as `N = a! * b!`, `1` without repeated pieces, or only the factorials when `N`
/// exceeds `u128`.
fn factor_text(plan: &Plan) -> String {
    let terms: Vec<String> = plan.types.iter().filter(|t| t.count > 1).map(|t| format!("{}!", t.count)).collect();
    match copy_factor(plan) {
        _ if terms.is_empty() => "1".to_string(),
        Some(f) => format!("{f} = {}", terms.join(" * ")),
        None => terms.join(" * "),
    }
}

/// The items line: every cell, then every copy.
fn items_line(out: &mut String, cells: usize, names: &[Vec<String>]) {
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push(' ');
        }
    };
    for k in 0..cells {
        sep(out);
        let _ = write!(out, "#{k}");
    }
    for copy in names.iter().flatten() {
        sep(out);
        out.push_str(copy);
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap, HashSet};

    use super::*;
    use crate::Tiler;
    use crate::puzzle::Puzzle;
    use tessera_core::runtime::Budget;

    /// A 4x3 board less a corner, three L trominoes (turned over or not) and two monominoes.
    const SMALL: &str = "name small\nboard\n####\n####\n###.\n\npiece L x3\n#.\n##\n\npiece o x2\n#\n";

    fn parse(text: &str) -> (Puzzle, Tiler) {
        let puzzle = Puzzle::parse(text).unwrap();
        let tiler = Tiler::new(&puzzle.problem).unwrap();
        (puzzle, tiler)
    }

    /// The non-comment lines: the items, then the options.
    fn lines(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
        let mut rows = text.lines().filter(|l| !l.starts_with('|')).map(|l| l.split(' ').map(str::to_string).collect());
        let items = rows.next().unwrap();
        (items, rows.collect())
    }

    /// Every placement of a square-lattice piece on a board, by brute force: the eight rotations
    /// and reflections (or the four rotations), each moved to every offset that keeps it on the
    /// board; as sets of board-cell indices.
    fn brute_placements(board: &[(i32, i32)], piece: &[(i32, i32)], mirror: bool) -> HashSet<BTreeSet<usize>> {
        let index: HashMap<(i32, i32), usize> = board.iter().enumerate().map(|(k, &c)| (c, k)).collect();
        let mut out = HashSet::new();
        for t in 0..if mirror { 8 } else { 4 } {
            let shape: Vec<(i32, i32)> = piece
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = if t >= 4 { (-x, y) } else { (x, y) };
                    (0..t % 4).fold((x, y), |(x, y), _| (-y, x))
                })
                .collect();
            for &(bx, by) in board {
                for &(px, py) in &shape {
                    let cells: Option<BTreeSet<usize>> =
                        shape.iter().map(|&(x, y)| index.get(&(x - px + bx, y - py + by)).copied()).collect();
                    out.extend(cells);
                }
            }
        }
        out
    }

    /// Counts the exact covers of the items by the options, naively: cover the first uncovered
    /// item every way possible.
    fn count_covers(items: &[String], options: &[Vec<String>]) -> u64 {
        fn go(left: &mut BTreeSet<String>, options: &[Vec<String>]) -> u64 {
            let Some(first) = left.iter().next().cloned() else { return 1 };
            let mut n = 0;
            for o in options.iter().filter(|o| o.contains(&first)) {
                if o.iter().all(|i| left.contains(i)) {
                    o.iter().for_each(|i| {
                        left.remove(i);
                    });
                    n += go(left, options);
                    left.extend(o.iter().cloned());
                }
            }
            n
        }
        go(&mut items.iter().cloned().collect(), options)
    }

    #[test]
    fn options_are_the_placements_once_per_copy() {
        let (puzzle, tiler) = parse(SMALL);
        let (items, options) = lines(&dlx_input(&puzzle.name, tiler.plan()).unwrap());
        let board = &puzzle.problem.board;
        let cells: Vec<String> = (0..board.len()).map(|k| format!("#{k}")).collect();
        assert_eq!(items[..board.len()], cells[..], "every cell once, in order");
        assert_eq!(items[board.len()..], ["L1", "L2", "L3", "o1", "o2"]);
        for piece in &puzzle.problem.pieces {
            let xy = |cells: &[tessera_core::geometry::Coord]| cells.iter().map(|c| (c.x, c.y)).collect::<Vec<_>>();
            let want = brute_placements(&xy(board), &xy(&piece.cells), piece.mirror);
            for copy in 1..=piece.count {
                let name = format!("{}{copy}", piece.label);
                let got: Vec<BTreeSet<usize>> = options
                    .iter()
                    .filter(|o| o[0] == name)
                    .map(|o| o[1..].iter().map(|c| c[1..].parse().unwrap()).collect())
                    .collect();
                assert_eq!(got.len(), want.len(), "{name}: one option per placement");
                assert_eq!(got.into_iter().collect::<HashSet<_>>(), want, "{name}");
            }
        }
    }

    #[test]
    fn dlx1_counts_every_tiling_once_per_numbering_of_the_copies() {
        let (puzzle, tiler) = parse(SMALL);
        let text = dlx_input(&puzzle.name, tiler.plan()).unwrap();
        assert!(text.contains("\n| factor 12 = 3! * 2!:"), "{text}");
        assert_eq!(copy_factor(tiler.plan()), Some(12));
        let (items, options) = lines(&text);
        let raw = tiler.count(1, &Budget::unlimited()).raw;
        assert!(raw > 0);
        assert_eq!(u128::from(count_covers(&items, &options)), raw * 12);
    }

    #[test]
    fn names_are_unique_and_legal_whatever_the_labels() {
        let text = "board\n#######\n\npiece c\n#\n\npiece :\n#\n\npiece é x2\n#\n\npiece | x2\n#\n\npiece 9\n#\n";
        let (puzzle, tiler) = parse(text);
        let out = dlx_input(&puzzle.name, tiler.plan()).unwrap();
        let (items, _) = lines(&out);
        assert_eq!(items.len(), 7 + 7);
        assert_eq!(items.iter().collect::<HashSet<_>>().len(), items.len(), "{items:?}");
        for name in &items {
            assert!((1..=8).contains(&name.len()), "{name}");
            assert!(name.bytes().all(|b| b.is_ascii_graphic() && b != b':' && b != b'|'), "{name}");
        }
        assert_eq!(items[7..], ["c1", "#p2", "#p3", "#p4", "#p5", "#p6", "91"]);
    }

    #[test]
    fn too_many_copies_for_dlx1_are_refused() {
        let row = "#".repeat(250);
        let text = format!("board\n{}\npiece o x60000\n#\n", format!("{row}\n").repeat(240));
        let puzzle = Puzzle::parse(&text).unwrap();
        let e = dlx_input(&puzzle.name, &Plan::new(&puzzle.problem)).unwrap_err();
        assert_eq!(e, DlxError::TooBig { items: 120_000, nodes: 120_001 + 60_000 * 60_000 * 3 });
    }
}
