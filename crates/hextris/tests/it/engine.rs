//! The solver's engine against the reference judge, on the 25 official problems.

use std::collections::{HashSet, VecDeque};

use tessera_core::rng::Rng64;
use tessera_hextris::engine::state::replay;
use tessera_hextris::engine::{Pos, Reach, Rules, State, Unit};
use tessera_hextris::judge::{ErrorKind, score};
use tessera_hextris::{Command, Phrases, Problem};

use crate::problem;

fn no_phrases() -> Phrases {
    Phrases::new(Vec::<String>::new()).unwrap()
}

/// A random walk through a game: mostly downs, never back to a position it had (but with
/// probability `slip` a command chosen blindly, which may repeat one).
fn random_walk(p: &Problem, rules: &Rules, source: &[usize], rng: &mut Rng64, len: usize, slip: f64) -> Vec<Command> {
    use Command::*;
    const MIX: [Command; 10] = [SW, SE, SW, SE, SW, SE, E, W, CW, CCW];
    let mut cmds = Vec::new();
    let mut state = State::new(p);
    let mut visited = HashSet::new();
    let mut cur: Option<Pos> = None;
    while cmds.len() < len && state.locked < source.len() {
        let unit = &rules.units[source[state.locked]];
        let pos = match cur {
            Some(pos) => pos,
            None if rules.fits(&state.board, unit, unit.spawn) => {
                visited.clear();
                visited.insert(unit.spawn);
                unit.spawn
            }
            None => break,
        };
        let fresh = |c: &Command| !visited.contains(&unit.step(pos, *c));
        let options: Vec<Command> = MIX.into_iter().filter(fresh).collect();
        let cmd = if options.is_empty() || rng.unit() < slip {
            MIX[rng.below(MIX.len() as u64) as usize]
        } else {
            options[rng.below(options.len() as u64) as usize]
        };
        cmds.push(cmd);
        let next = unit.step(pos, cmd);
        if !rules.fits(&state.board, unit, next) {
            state.lock(rules, source[state.locked], pos);
            cur = None;
        } else if !visited.insert(next) {
            break;
        } else {
            cur = Some(next);
        }
    }
    cmds
}

fn text(cmds: &[Command]) -> String {
    cmds.iter().map(|c| c.letter()).collect()
}

#[test]
fn random_play_agrees_with_the_judge() {
    let mut rng = Rng64::seed(2015);
    let none = no_phrases();
    let (mut games, mut deep, mut errors) = (0, 0, 0);
    for n in 0..25 {
        let p = problem(n);
        let rules = Rules::new(&p).unwrap();
        for &seed in p.source_seeds.iter().take(3) {
            let source = p.source(seed);
            for trial in 0..30 {
                let slip = if trial % 2 == 0 { 0.0 } else { 0.01 };
                let mut cmds = random_walk(&p, &rules, &source, &mut rng, 1500, slip);
                if trial % 3 == 0 {
                    cmds.push(Command::SW); // after the end, if the game ended
                }
                let ours = replay(&p, &rules, &source, &cmds);
                let v = score(&p, seed, &text(&cmds), &none);
                let what = format!("problem {n} seed {seed}: {}", text(&cmds));
                if ours.repeated.is_some() {
                    assert_eq!(v.error, Some(ErrorKind::RepeatedPosition), "{what}");
                } else if ours.after_end.is_some() {
                    assert_eq!(v.error, Some(ErrorKind::AfterEnd), "{what}");
                } else {
                    assert_eq!(v.error, None, "{what}");
                    assert_eq!(v.move_score, ours.state.move_score, "{what}");
                }
                assert_eq!((v.commands, v.locked), (ours.commands, ours.state.locked), "{what}");
                games += 1;
                deep += usize::from(v.locked >= 5);
                errors += usize::from(v.error.is_some());
            }
        }
    }
    // The comparison means something only if games both go deep and end in errors.
    eprintln!("{games} games, {deep} with 5 locks or more, {errors} errors");
    assert!(deep * 4 > games && errors * 4 > games, "{games} games, {deep} deep, {errors} errors");
}

#[test]
fn a_row_full_from_the_start_clears_at_the_first_lock_as_the_judge_says() {
    let mut p = problem(6);
    let bottom = p.height as i32 - 1;
    p.filled.retain(|c| c.y != bottom);
    p.filled.extend((0..p.width as i32).map(|x| tessera_hextris::Cell::new(x, bottom)));
    let rules = Rules::new(&p).unwrap();
    let none = no_phrases();
    let mut rng = Rng64::seed(3);
    let seed = p.source_seeds[0];
    let source = p.source(seed);
    let mut checked = 0;
    for _ in 0..20 {
        let cmds = random_walk(&p, &rules, &source, &mut rng, 400, 0.0);
        let ours = replay(&p, &rules, &source, &cmds);
        let v = score(&p, seed, &text(&cmds), &none);
        assert_eq!((v.commands, v.locked), (ours.commands, ours.state.locked), "{}", text(&cmds));
        if v.error.is_none() && v.locked > 0 {
            assert_eq!(v.move_score, ours.state.move_score, "{}", text(&cmds));
            assert!(v.move_score >= 100, "the first lock clears the full row");
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked} games locked a unit without error");
}

/// Every position reachable from the spawn, by a plain search with `fits`.
fn brute_reach(rules: &Rules, state: &State, unit: &Unit) -> HashSet<Pos> {
    let mut seen = HashSet::new();
    if !rules.fits(&state.board, unit, unit.spawn) {
        return seen;
    }
    let mut queue = VecDeque::from([unit.spawn]);
    seen.insert(unit.spawn);
    while let Some(p) = queue.pop_front() {
        for cmd in Command::ALL {
            let q = unit.step(p, cmd);
            if rules.fits(&state.board, unit, q) && seen.insert(q) {
                queue.push_back(q);
            }
        }
    }
    seen
}

#[test]
fn row_masks_find_every_lock_and_a_path_the_judge_accepts() {
    let mut rng = Rng64::seed(7);
    for n in 0..25 {
        let p = problem(n);
        let rules = Rules::new(&p).unwrap();
        let seed = p.source_seeds[0];
        let source = p.source(seed);
        let mut state = State::new(&p);
        let mut solution = Vec::new();
        // A game of random lock positions, each reached by the shortest path.
        while state.locked < source.len().min(60) {
            let unit = &rules.units[source[state.locked]];
            let reach = Reach::new(&rules, &state.board, unit);
            let brute = brute_reach(&rules, &state, unit);
            let mut want: Vec<Pos> = brute
                .iter()
                .copied()
                .filter(|&q| {
                    Command::ALL.iter().any(|&c| {
                        let error = c.is_turn() && unit.period == 1;
                        !error && !rules.fits(&state.board, unit, unit.step(q, c))
                    })
                })
                .collect();
            want.sort();
            let mut got = reach.locks();
            got.sort();
            assert_eq!(got, want, "problem {n}, unit {} of the game", state.locked);
            for &q in &brute {
                assert!(reach.is_reachable(q) && reach.is_valid(q));
            }
            if got.is_empty() {
                break;
            }
            let target = got[rng.below(got.len() as u64) as usize];
            let path = reach.path_to(unit, target).expect("a lock position is reachable");
            solution.extend(path);
            solution.push(reach.locking(target).next().expect("it can lock there"));
            state.lock(&rules, source[state.locked], target);
        }
        let v = score(&p, seed, &text(&solution), &no_phrases());
        assert_eq!(v.error, None, "problem {n}");
        assert_eq!((v.locked, v.move_score), (state.locked, state.move_score), "problem {n}");
    }
}
