//! The solver's games, every one checked by the reference judge.

use proptest::prelude::*;
use tessera_core::runtime::Budget;
use tessera_hextris::judge::{EndState, score};
use tessera_hextris::problem::{Cell, UnitDef};
use tessera_hextris::solver::beam::Plan;
use tessera_hextris::solver::{Settings, Solver, Try};
use tessera_hextris::{Phrases, Problem};

use crate::problem;

#[test]
fn games_are_valid_and_beat_the_official_sample() {
    let p = problem(6);
    let settings = Settings::default();
    let solver = Solver::new(&p, &settings).unwrap();
    let game = solver.play(0, 0, 2, &mut Budget::unlimited());
    let v = score(&p, 0, &game.text, &settings.phrases);
    assert_eq!(v, game.scorecard, "the solver reports the judge's own scorecard");
    assert_eq!(v.error, None);
    assert_eq!(v.locked, 150, "every unit of the source is placed");
    assert!(v.score > 3261, "the organisers' sample scores 3261; the solver {}", v.score);
    assert!(v.phrases.len() >= 10, "{:?}", v.phrases);
}

#[test]
fn every_problem_gets_a_valid_game_with_phrases() {
    // Width 1 and the shipped weights; the big boards only for their first 60 units.
    let settings = Settings::default();
    for n in 0..25 {
        let mut p = problem(n);
        p.source_length = p.source_length.min(60);
        let solver = Solver::new(&p, &settings).unwrap();
        let seed = p.source_seeds[0];
        let game = solver.play(seed, 0, 1, &mut Budget::unlimited());
        let v = score(&p, seed, &game.text, &settings.phrases);
        assert_eq!(v.error, None, "problem {n}");
        assert!(v.power_score > 0, "problem {n} spells no phrase");
        assert!(matches!(v.end_state, EndState::SourceExhausted | EndState::BoardFull), "problem {n}: {v:?}");
    }
}

fn arb_problem() -> impl Strategy<Value = Problem> {
    let unit = (prop::collection::vec((0i32..3, 0i32..3), 1..5), (-2i32..4, -1i32..3)).prop_map(|(cells, pivot)| {
        let mut members: Vec<Cell> = cells.into_iter().map(|(x, y)| Cell::new(x, y)).collect();
        members.sort();
        members.dedup();
        UnitDef { members, pivot: Cell::new(pivot.0, pivot.1) }
    });
    (3usize..14, 3usize..12, prop::collection::vec(unit, 1..4), any::<u64>(), 1usize..30).prop_map(
        |(width, height, units, bits, len)| {
            // A few filled cells in the lower half, from the bits.
            let filled = (0..width * height)
                .filter(|i| i / width >= height / 2 && bits >> (i % 64) & 1 == 1 && i % 3 == 0)
                .map(|i| Cell::new((i % width) as i32, (i / width) as i32))
                .collect();
            Problem { id: 99, units, width, height, filled, source_length: len, source_seeds: vec![7] }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_problems_get_valid_games(p in arb_problem()) {
        let settings = Settings::default();
        let solver = Solver::new(&p, &settings).unwrap();
        let game = solver.play(7, 0, 2, &mut Budget::unlimited());
        let v = score(&p, 7, &game.text, &Phrases::official());
        prop_assert_eq!(v.error, None, "{}", game.text);
        prop_assert!(v.end_state != EndState::InProgress, "{:?}", v);
    }

    #[test]
    fn parsing_never_panics(text in ".{0,200}") {
        let _ = Problem::parse(&text);
        let _ = Phrases::new([text.clone()]);
        let _ = tessera_hextris::judge::score(&problem_small(), 0, &text, &Phrases::official());
    }
}

fn problem_small() -> Problem {
    Problem::parse(
        r#"{"id":0,"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}],
            "width":5,"height":4,"filled":[],"sourceLength":5,"sourceSeeds":[0]}"#,
    )
    .unwrap()
}

#[test]
fn phrases_longer_than_the_board_is_high_are_split_across_locks() {
    // Problem 8 is 8 rows high: a phrase with more moves down than that can only be spelled by
    // two units, its head locking the first.
    let p = problem(8);
    let settings = Settings::default();
    let solver = Solver::new(&p, &settings).unwrap();
    let seed = p.source_seeds[0];
    let game = solver.play(seed, 0, 1, &mut Budget::unlimited());
    let v = score(&p, seed, &game.text, &settings.phrases);
    assert_eq!(v.error, None);
    let phrases = &settings.phrases;
    let downs = |name: &str| {
        let i = (0..phrases.len()).find(|&i| phrases.name(i) == name).unwrap();
        phrases.commands(i).iter().filter(|c| c.is_down()).count()
    };
    let split: Vec<&String> = v.phrases.iter().filter(|name| downs(name) >= p.height).collect();
    assert!(!split.is_empty(), "no phrase crosses a lock: {:?}", v.phrases);
}

#[test]
fn units_that_cannot_turn_chain_overlapping_occurrences() {
    // A third of problem 14's units are single cells: no turn, so of the official phrases only
    // "Ei!" and "Ia! Ia!" can be spelled; "ia! ia! ia!" holds the second twice.
    let mut p = problem(14);
    p.source_length = 12;
    let settings = Settings::default();
    let solver = Solver::new(&p, &settings).unwrap();
    let game = solver.play(0, 0, 1, &mut Budget::unlimited());
    let v = score(&p, 0, &game.text, &settings.phrases);
    assert_eq!(v.error, None);
    assert!(game.text.contains("ia! ia! ia!"), "{}", game.text);
    let counts: usize = v.phrase_counts.iter().filter(|(n, _)| n == "Ia! Ia!").map(|(_, c)| *c).sum();
    assert!(counts > game.text.matches("ia! ia!").count(), "overlaps must count: {counts}");
}

#[test]
fn phrases_that_stay_in_their_row_are_chained_within_each_row() {
    // Three turns clockwise, three moves east: neither moves down, so a unit can only spell
    // them while it crosses a row, and a row holds several (turn, move, turn again...).
    let mut p = problem(0);
    p.source_length = 10;
    let settings = Settings { phrases: Phrases::new(["z1d", "eee"].map(String::from)).unwrap(), ..Settings::default() };
    let solver = Solver::new(&p, &settings).unwrap();
    let game = solver.play(0, 0, 1, &mut Budget::unlimited());
    let v = score(&p, 0, &game.text, &settings.phrases);
    assert_eq!(v, game.scorecard, "the solver reports the judge's own scorecard");
    assert_eq!(v.error, None);
    assert_eq!(v.locked, 10);
    let spelled: usize = v.phrase_counts.iter().map(|(_, c)| *c).sum();
    // Each unit falls through most of the board's 10 rows. An earlier speller, which took such
    // phrases only where they lock a unit, spelled 71 here (most of them by the single cells,
    // whose "eeeeeeeee" holds "eee" seven times); chained within the rows, 476.
    assert!(spelled >= 20 * v.locked, "{spelled} phrases in {} units: {}", v.locked, game.text);
}

/// A phrase that never moves down: turns one way (2 to 5), or moves east or west (2 to 8).
fn arb_row_phrase() -> impl Strategy<Value = String> {
    let turns = (prop::sample::select(vec!["dqrvz1", "kstuwx"]), 2usize..6);
    let sides = (prop::sample::select(vec!["p'!.03", "bcefy2"]), 2usize..9);
    (prop_oneof![turns, sides], any::<u64>()).prop_map(|((letters, n), bits)| {
        let letters = letters.as_bytes();
        (0..n).map(|i| letters[(bits >> (3 * i)) as usize % letters.len()] as char).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_problems_with_phrases_that_stay_in_their_row_get_valid_games(
        p in arb_problem(),
        phrases in prop::collection::vec(arb_row_phrase(), 1..5),
        official in any::<bool>(),
    ) {
        // Mixed with the official phrases (which all move down) half of the time.
        let mut texts = phrases;
        if official {
            texts.extend((0..3).map(|i| Phrases::official().name(i).to_string()));
        }
        let settings = Settings { phrases: Phrases::new(texts).unwrap(), ..Settings::default() };
        let solver = Solver::new(&p, &settings).unwrap();
        let game = solver.play(7, 0, 2, &mut Budget::unlimited());
        let v = score(&p, 7, &game.text, &settings.phrases);
        prop_assert_eq!(&v, &game.scorecard);
        prop_assert_eq!(v.error, None, "{}", game.text);
        prop_assert!(v.end_state != EndState::InProgress, "{:?}", v);
    }
}

/// Calls `test` with problem `n` cut to its first `units` units, the default settings, a solver,
/// the problem's first seed and that seed's plan at `width` under the first set of weights.
fn with_plan(n: usize, units: usize, width: usize, test: impl FnOnce(&Problem, &Settings, &Solver<'_>, u32, &Plan)) {
    let mut p = problem(n);
    p.source_length = units;
    let settings = Settings::default();
    let solver = Solver::new(&p, &settings).unwrap();
    let seed = p.source_seeds[0];
    let plan = solver.plan(seed, 0, width, &mut Budget::unlimited());
    test(&p, &settings, &solver, seed, &plan);
}

#[test]
fn phrases_longer_than_two_falls_are_grafted_through_several_units() {
    // Problem 20 is 15 rows high: "In his house at R'lyeh dead Cthulhu waits dreaming." moves
    // down 28 times, more than two units can fall, so the speller never fits it; grafted, it
    // runs through several units, each locked by whichever of its letters is blocked.
    with_plan(20, 30, 1, |p, settings, solver, seed, plan| {
        let base = solver.grow(seed, plan, (0, 1), (&Budget::unlimited(), &Budget::unlimited()), 1);
        let phrases = &settings.phrases;
        let phrase = (0..phrases.len()).find(|&i| phrases.name(i).starts_with("In his house")).unwrap();
        assert_eq!(phrases.counts(&base.game.text)[phrase], 0, "the speller alone cannot fit it");
        let grown = solver
            .graft(&base, phrase, &settings.portfolio[0], 1, 2, &Budget::unlimited())
            .expect("a grafted game that scores more");
        let v = score(p, seed, &grown.game.text, phrases);
        assert_eq!(v, grown.game.scorecard, "the solver reports the judge's own scorecard");
        assert_eq!(v.error, None);
        assert_eq!(v.locked, grown.plan.locks.len(), "the whole text is played");
        assert!(v.score > base.game.scorecard.score, "{} after {}", v.score, base.game.scorecard.score);
        assert!(phrases.counts(&grown.game.text)[phrase] >= 1, "{}", grown.game.text);
    });
}

#[test]
fn a_game_spelled_on_two_threads_is_the_game_spelled_on_one() {
    // Problem 14's first 150 units use every phrase early: the rest is spelled unit by unit in
    // parallel.
    with_plan(14, 150, 1, |p, settings, solver, seed, plan| {
        let one = solver.grow(seed, plan, (0, 1), (&Budget::unlimited(), &Budget::unlimited()), 1);
        let two = solver.grow(seed, plan, (0, 1), (&Budget::unlimited(), &Budget::unlimited()), 2);
        assert_eq!(one.game.text, two.game.text);
        assert!(one.free_from < plan.locks.len(), "every phrase is used before the end");
        assert_eq!(one.ends.len(), plan.locks.len());
        assert_eq!(one.ends.last(), Some(&one.game.text.len()));
        assert_eq!(score(p, seed, &two.game.text, &settings.phrases), two.game.scorecard);
    });
}

#[test]
fn a_game_spelled_well_past_its_deadline_stops_early_and_is_still_valid() {
    with_plan(14, 150, 1, |p, settings, solver, seed, plan| {
        let late = Budget::unlimited().with_time(std::time::Duration::ZERO);
        std::thread::sleep(std::time::Duration::from_millis(80));
        for threads in [1, 2] {
            let grown = solver.grow(seed, plan, (0, 1), (&late, &late), threads);
            let v = score(p, seed, &grown.game.text, &settings.phrases);
            assert_eq!(v.error, None, "{}", grown.game.text);
            assert!(v.locked < plan.locks.len(), "the game stops before its planned end");
            assert!(v.locked >= 1, "but not before its first unit");
            assert!(grown.game.partial, "and says so");
            assert_eq!(v, grown.game.scorecard);
        }
    });
}

#[test]
fn a_reworked_game_keeps_its_start_and_is_what_the_judge_says() {
    with_plan(14, 120, 2, |p, settings, solver, seed, plan| {
        let base = solver.grow(seed, plan, (0, 2), (&Budget::unlimited(), &Budget::unlimited()), 1);
        let mut tried = 0;
        // Cuts past the units whose texts depend on each other keep the texts before the cut;
        // cuts before them spell the whole game again.
        for cut in [5, base.free_from + 10, 100, 119] {
            for (width, jitter) in [(1, 1), (2, 2), (4, 3)] {
                let t = Try { cut, width, weights: 0, jitter };
                let Some(g) = solver.rework(&base, t, 1, &mut Budget::unlimited()) else { continue };
                tried += 1;
                let v = score(p, seed, &g.game.text, &settings.phrases);
                assert_eq!(v, g.game.scorecard, "cut {cut}, width {width}");
                assert_eq!(v.error, None);
                assert_eq!(v.locked, g.plan.locks.len(), "the whole text is played");
                assert_eq!(g.plan.locks[..cut], base.plan.locks[..cut], "the units before the cut stay");
                assert_eq!(g.ends.len(), g.plan.locks.len());
                if cut >= base.free_from {
                    let kept = base.ends[cut - 1];
                    assert_eq!(g.game.text[..kept], base.game.text[..kept], "cut {cut}: texts kept");
                }
            }
        }
        assert!(tried >= 4, "most tries plan something worth spelling: {tried}");
    });
}

/// A budget that cuts the first round's planning under the later sets of weights (problem 24,
/// 1,620 units on a 100x40 board, in 3 s on two threads) still gives a valid game with
/// phrases, and the judge's own scorecard.
#[test]
fn a_first_round_cut_short_still_spells_a_game() {
    let p = problem(24);
    let settings = Settings::default();
    let budget = Budget::unlimited().with_time(std::time::Duration::from_millis(3000));
    let mut rounds = Vec::new();
    let games = tessera_hextris::solver::solve(&p, &settings, &budget, 2, |r| rounds.push(r.clone())).unwrap();
    let v = score(&p, games[0].seed, &games[0].text, &settings.phrases);
    assert_eq!(v.error, None);
    assert_eq!(v, games[0].scorecard);
    assert!(v.locked > 0 && v.power_score > 0, "{v:?}");
    assert_eq!(rounds[0].phase, tessera_hextris::solver::Phase::Widen);
}

#[test]
fn every_seed_gets_a_game_however_late_the_solver_starts() {
    // Problem 3 has five seeds. Before, the first seeds could take the whole budget and a seed
    // planned or spelled after the deadline had no game at all.
    let p = problem(3);
    let settings = Settings::default();
    for threads in [1, 2] {
        let late = Budget::unlimited().with_time(std::time::Duration::ZERO);
        std::thread::sleep(std::time::Duration::from_millis(80));
        let games = tessera_hextris::solver::solve(&p, &settings, &late, threads, |_| {}).unwrap();
        assert_eq!(games.len(), p.source_seeds.len());
        for g in &games {
            let v = score(&p, g.seed, &g.text, &settings.phrases);
            assert_eq!(v.error, None);
            assert_eq!(v, g.scorecard);
            assert!(v.locked >= 1 && v.move_score > 0, "seed {}: {v:?}", g.seed);
        }
    }
}
