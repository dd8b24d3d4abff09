//! Property tests: parsers round-trip, and planted boards (built by adding pairs backwards, so
//! that a full clear is known to exist) are cleared by the planted moves and by the solver.

use std::time::Duration;

use proptest::prelude::*;
use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_pairs::board::MAX_SIDE;
use tessera_pairs::judge::score;
use tessera_pairs::moves::{format_moves, parse_moves};
use tessera_pairs::solver::{Params, solve};
use tessera_pairs::state::State;
use tessera_pairs::{Board, Cell, Move};

/// Plants a full `h x w` board (`h * w` even) of `colors` colours by adding pairs one by one,
/// each with a rectangle holding only its own colour among the tiles added before; the moves
/// that remove them in reverse clear the board. `None` if the planting got stuck.
fn plant(h: usize, w: usize, colors: u8, rng: &mut Rng64) -> Option<(Board, Vec<Move>)> {
    let mut cells: Vec<Option<u8>> = vec![None; h * w];
    let mut added = Vec::new();
    let rect_colors = |cells: &[Option<u8>], a: usize, b: usize| {
        let (r0, r1) = ((a / w).min(b / w), (a / w).max(b / w));
        let (c0, c1) = ((a % w).min(b % w), (a % w).max(b % w));
        let mut seen: Vec<u8> = (r0..=r1).flat_map(|r| (c0..=c1).filter_map(move |c| cells[r * w + c])).collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    };
    while cells.iter().any(Option::is_none) {
        let empty: Vec<usize> = (0..h * w).filter(|&i| cells[i].is_none()).collect();
        let a = empty[rng.below(empty.len() as u64) as usize];
        // Partners whose rectangle holds at most one colour so far.
        let options: Vec<(usize, Vec<u8>)> = empty
            .iter()
            .filter(|&&b| b != a)
            .map(|&b| (b, rect_colors(&cells, a, b)))
            .filter(|(_, s)| s.len() <= 1)
            .collect();
        let (b, seen) = options.get(rng.below(options.len().max(1) as u64) as usize)?.clone();
        let k = seen.first().copied().unwrap_or_else(|| rng.below(u64::from(colors)) as u8);
        cells[a] = Some(k);
        cells[b] = Some(k);
        added.push(Move::new(Cell::new(a / w, a % w), Cell::new(b / w, b % w)));
    }
    added.reverse();
    let board = Board::new(h, w, cells.into_iter().map(|k| k.expect("filled")).collect()).ok()?;
    Some((board, added))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn boards_round_trip(h in 1usize..12, w in 1usize..12, seed in any::<u64>()) {
        let mut rng = Rng64::seed(seed);
        let cells: Vec<u8> = (0..h * w).map(|_| rng.below(6) as u8).collect();
        let b = Board::new(h, w, cells).unwrap();
        prop_assert_eq!(Board::parse(&b.tester_input()).unwrap(), b.clone());
        // Bare rows are ambiguous when the first row reads as a plain number equal to the
        // number of rows after it: that text is also the tester's input of a smaller board. A
        // single row that reads as a plain number is a header whose rows are missing.
        let first = &b.rows()[0];
        let plain = first.parse::<usize>().ok().filter(|n| *first == n.to_string());
        let ambiguous = plain.is_some_and(|n| n == h - 1 || h == 1);
        if !ambiguous {
            prop_assert_eq!(Board::parse(&b.text()).unwrap(), b);
        }
    }

    #[test]
    fn moves_round_trip(raw in proptest::collection::vec(any::<[u8; 4]>(), 0..20)) {
        let moves: Vec<Move> = raw.iter().map(|m| Move::new(Cell { r: m[0], c: m[1] }, Cell { r: m[2], c: m[3] })).collect();
        prop_assert_eq!(parse_moves(&format_moves(&moves)).unwrap(), moves);
    }

    #[test]
    fn parsers_never_panic(text in "[0-9 \\n\\rx-]{0,60}") {
        let _ = Board::parse(&text);
        let _ = parse_moves(&text);
    }

    #[test]
    fn planted_boards_are_cleared(h in 2usize..7, w in 2usize..7, colors in 2u8..6, seed in any::<u64>()) {
        prop_assume!((h * w) % 2 == 0);
        let mut rng = Rng64::seed(seed);
        if let Some((board, planted)) = plant(h, w, colors, &mut rng) {
            prop_assert!(score(&board, &planted).cleared(), "{board:?}");
            let mut budget = Budget::unlimited().with_time(Duration::from_secs(5));
            let sol = solve(&board, &Params::default(), &mut budget, &mut rng);
            let verdict = score(&board, &sol.moves);
            prop_assert!(verdict.cleared(), "{board:?} {:?}", verdict);
        }
    }
}

/// The partners of the tile at `i` by the rule itself: same colour, and no tile of another
/// colour in the rectangle.
fn brute_partners(cells: &[Option<u8>], w: usize, i: usize) -> Vec<usize> {
    let Some(k) = cells[i] else { return Vec::new() };
    let ok = |j: usize| {
        let (r0, r1) = ((i / w).min(j / w), (i / w).max(j / w));
        let (c0, c1) = ((i % w).min(j % w), (i % w).max(j % w));
        (r0..=r1).all(|r| (c0..=c1).all(|c| cells[r * w + c].is_none_or(|x| x == k)))
    };
    (0..cells.len()).filter(|&j| j != i && cells[j] == Some(k) && ok(j)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn partner_queries_follow_the_rule(h in 1usize..9, w in 1usize..=MAX_SIDE, colors in 1u64..5, seed in any::<u64>()) {
        let mut rng = Rng64::seed(seed);
        let cells: Vec<u8> = (0..h * w).map(|_| rng.below(colors) as u8).collect();
        let board = Board::new(h, w, cells.clone()).unwrap();
        let mut state = State::new(&board);
        let mut mine: Vec<Option<u8>> = cells.into_iter().map(Some).collect();
        // Remove random valid pairs (and sometimes put the last one back), checking every query.
        for _ in 0..(h * w) {
            let i = rng.below((h * w) as u64) as usize;
            let mut got = Vec::new();
            if mine[i].is_some() {
                state.for_each_partner(i, |j| { got.push(j); true });
            }
            got.sort_unstable();
            prop_assert_eq!(&got, &brute_partners(&mine, w, i));
            if let Some(&j) = got.first() {
                let k = mine[i].expect("a tile");
                state.remove(i);
                state.remove(j);
                if rng.below(4) == 0 {
                    state.restore(j, k);
                    state.restore(i, k);
                } else {
                    mine[i] = None;
                    mine[j] = None;
                }
            }
            prop_assert_eq!(state.left(), mine.iter().flatten().count());
        }
    }

    #[test]
    fn parsers_never_panic_on_any_text(text in "\\PC{0,80}", big in any::<u64>()) {
        let _ = Board::parse(&text);
        let _ = parse_moves(&text);
        // Huge counts are refused, not overflowed.
        let one_move = format!("{big}\n0 0 0 1\n");
        prop_assert!(parse_moves(&one_move).is_err() || big == 1);
        let _ = Board::parse(&format!("{big}\n01\n"));
    }
}
