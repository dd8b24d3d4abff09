//! Generated problems: the same from the same seed, valid, playable by the solver, and of the
//! sizes their kind promises.

use std::collections::BTreeSet;
use std::time::Duration;

use tessera_core::rng::Rng64;
use tessera_core::runtime::Budget;
use tessera_hextris::r#gen::{self, FIRST_ID, Kind, SEED_LIMIT, playable};
use tessera_hextris::judge::{Game, score};
use tessera_hextris::solver::{Settings, solve};
use tessera_hextris::{Phrases, Problem};

/// Seeds per kind for the checks that solve every problem.
const SEEDS: u64 = 150;

fn made(kind: Kind, seed: u64) -> Problem {
    r#gen::problem(kind, 7, &mut Rng64::seed(seed))
}

#[test]
fn the_same_seed_makes_the_same_files() {
    let a = r#gen::set(11, 12, 4).unwrap();
    let b = r#gen::set(11, 12, 4).unwrap();
    let json =
        |set: &[r#gen::Generated]| set.iter().map(|g| serde_json::to_string(&g.problem).unwrap()).collect::<Vec<_>>();
    assert_eq!(json(&a), json(&b));
    assert_ne!(json(&a), json(&r#gen::set(12, 12, 4).unwrap()));
    // A problem does not depend on how many come after it.
    let longer = r#gen::set(11, 20, 4).unwrap();
    assert_eq!(json(&a[..8]), json(&longer[..8]));
    let ids: Vec<i64> = a.iter().map(|g| g.problem.id).collect();
    assert_eq!(ids, (FIRST_ID..FIRST_ID + 12).collect::<Vec<_>>());
    let kinds: Vec<Kind> = a.iter().map(|g| g.kind).collect();
    assert_eq!(kinds, [[Kind::Contest; 8].as_slice(), &[Kind::Small; 4]].concat());
    assert!(a.iter().all(|g| g.file_name() == format!("problem_{}.json", g.problem.id)));
}

/// The checks every generated problem must pass, by a path of its own: the JSON has exactly the
/// contest's fields and reads back the same; the filled cells are distinct and make no full
/// row; each unit's spawn cells are on the board and free; the solver plays one seed for 20 ms
/// and the judge scores its game without error.
fn check(p: &Problem) {
    let json = serde_json::to_string(p).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let keys: BTreeSet<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
    let contest = ["filled", "height", "id", "sourceLength", "sourceSeeds", "units", "width"];
    assert_eq!(keys, contest.into_iter().collect(), "{json}");
    assert_eq!(&Problem::parse(&json).unwrap(), p);
    assert_eq!(playable(p), Ok(()), "{json}");
    let filled: BTreeSet<(i32, i32)> = p.filled.iter().map(|c| (c.y, c.x)).collect();
    assert_eq!(filled.len(), p.filled.len(), "a filled cell twice: {json}");
    for y in 0..p.height as i32 {
        assert!(filled.range((y, 0)..(y + 1, 0)).count() < p.width, "row {y} is full: {json}");
    }
    for u in &p.units {
        // The rules' spawn: the members moved to row 0 and column 0, then centred.
        let min_x = u.members.iter().map(|c| c.x).min().unwrap();
        let min_y = u.members.iter().map(|c| c.y).min().unwrap();
        let span = u.members.iter().map(|c| c.x - min_x).max().unwrap() + 1;
        let left = (p.width as i32 - span).div_euclid(2);
        for c in &u.members {
            let (x, y) = (c.x - min_x + left, c.y - min_y);
            assert!(x >= 0 && (x as usize) < p.width && (y as usize) < p.height, "{json}");
            assert!(!filled.contains(&(y, x)), "{json}");
        }
    }
    for &seed in &p.source_seeds {
        assert_eq!(Game::new(p, seed).ended(), None, "seed {seed}: {json}");
    }
    let seeds: BTreeSet<u32> = p.source_seeds.iter().copied().collect();
    assert_eq!(seeds.len(), p.source_seeds.len(), "a seed twice: {json}");
    assert!(seeds.iter().all(|&s| s < SEED_LIMIT), "{json}");
    let mut one = p.clone();
    one.source_seeds.truncate(1);
    let budget = Budget::unlimited().with_time(Duration::from_millis(20));
    let games = solve(&one, &Settings::default(), &budget, 1, |_| {}).unwrap();
    let card = score(p, games[0].seed, &games[0].text, &Phrases::official());
    assert_eq!(card.error, None, "{json}");
    assert_eq!(card, games[0].scorecard, "{json}");
}

#[test]
fn contest_like_problems_are_valid_and_playable() {
    let mut units = BTreeSet::new();
    for seed in 0..SEEDS {
        let p = made(Kind::Contest, seed);
        check(&p);
        assert!((8..=120).contains(&p.width) && (6..=60).contains(&p.height), "{}x{}", p.width, p.height);
        assert!((1..=54).contains(&p.units.len()) && (20..=1620).contains(&p.source_length));
        assert!([1, 5, 10, 50].contains(&p.source_seeds.len()));
        assert!(p.units.iter().all(|u| (1..=17).contains(&u.members.len())));
        units.extend(p.units.iter().map(|u| u.members.len()));
    }
    assert!(units.len() >= 10, "unit sizes seen: {units:?}");
}

#[test]
fn small_problems_are_valid_playable_and_small() {
    for seed in 0..SEEDS {
        let p = made(Kind::Small, seed);
        check(&p);
        let json = serde_json::to_string(&p).unwrap();
        assert!((5..=12).contains(&p.width) && (5..=10).contains(&p.height), "{json}");
        assert!((1..=4).contains(&p.source_length) && (1..=2).contains(&p.source_seeds.len()), "{json}");
        assert!((1..=p.source_length).contains(&p.units.len()), "{json}");
        assert!(p.units.iter().all(|u| (2..=6).contains(&u.members.len())), "{json}");
        let share = p.filled.len() as f64 / (p.width * p.height) as f64;
        assert!((0.2..=0.34).contains(&share), "{share}: {json}");
        // The filled cells are in the lower rows: below every unit's spawn rows.
        let tallest = p.units.iter().map(|u| u.members.iter().map(|c| c.y).max().unwrap() + 1).max().unwrap();
        assert!(p.filled.iter().all(|c| c.y > tallest - 1 && c.y >= p.height as i32 / 3), "{json}");
    }
}
