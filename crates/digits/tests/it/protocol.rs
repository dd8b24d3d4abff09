//! The protocol: the player against the judge over pipes, players that break the rules, judges
//! that send nonsense, and parsers that never panic.

use std::io::{self, BufRead, BufReader, Cursor, Write};

use proptest::prelude::*;
use tessera_digits::protocol::{Violation, judge, judge_in_process, play};
use tessera_digits::{StrategyName, TestSet};

/// Set 2 cut to `t` games (P scaled down with them).
fn short_set_2(t: u32) -> TestSet {
    TestSet::SET2.with_games(t.into()).unwrap()
}

#[test]
fn the_player_passes_set_2_in_process() {
    let (judged, played) = judge_in_process(TestSet::SET2, 7, StrategyName::Best).unwrap();
    let played = played.unwrap();
    assert!(judged.passed, "{judged:?}");
    assert_eq!(judged.fault, None);
    assert_eq!(judged.scores.len(), 50);
    assert_eq!(played.passed, Some(true));
    // Both sides kept the score, independently.
    assert_eq!(played.total, judged.total);
    assert!(judged.total >= u128::from(TestSet::SET2.p));
}

#[test]
fn every_strategy_plays_legally() {
    for name in ["greedy", "top1", "top2", "top3", "top5"] {
        let (judged, played) = judge_in_process(short_set_2(3), 11, name.parse().unwrap()).unwrap();
        assert_eq!(judged.fault, None, "{name}");
        assert_eq!(played.unwrap().total, judged.total, "{name}");
    }
    // Greedy passes set 1 and falls short of set 2 (0.95 S against 0.98 S).
    let (judged, _) = judge_in_process(TestSet::SET1, 3, StrategyName::Greedy).unwrap();
    assert!(judged.passed);
    let (judged, played) = judge_in_process(TestSet::SET2, 3, StrategyName::Greedy).unwrap();
    assert!(!judged.passed && judged.fault.is_none());
    assert_eq!(played.unwrap().passed, Some(false));
}

/// A scripted player's answer to the digit of a block.
type Answer = dyn Fn(u64, &str) -> Option<String> + Send;

/// Runs the judge against a scripted player: `answer(block, digit)` gives each line to send, or
/// `None` to hang up. Returns the judge's report and every line the player was sent.
fn scripted(
    set: TestSet,
    answer: impl Fn(u64, &str) -> Option<String> + Send,
) -> (tessera_digits::protocol::JudgeReport, Vec<String>) {
    let (from_judge, to_player) = io::pipe().unwrap();
    let (from_player, mut to_judge) = io::pipe().unwrap();
    std::thread::scope(|s| {
        let player = s.spawn(move || {
            let mut seen = Vec::new();
            let mut lines = BufReader::new(from_judge).lines();
            seen.push(lines.next().unwrap().unwrap());
            let mut block = 0;
            for line in lines {
                let line = line.unwrap();
                seen.push(line.clone());
                block += 1;
                match answer(block, &line) {
                    Some(a) => {
                        if writeln!(to_judge, "{a}").is_err() {
                            break;
                        }
                    }
                    None => break,
                }
            }
            seen
        });
        let report = judge(set, 5, BufReader::new(from_player), to_player);
        (report, player.join().unwrap())
    })
}

#[test]
fn the_judge_stops_on_every_violation() {
    let set = short_set_2(2);
    let cases: Vec<(Box<Answer>, Violation, u64)> = vec![
        (Box::new(|_, _| Some("x".into())), Violation::Malformed { line: "x".into() }, 1),
        (Box::new(|_, _| Some("1 2".into())), Violation::Malformed { line: "1 2".into() }, 1),
        (Box::new(|_, _| Some(String::new())), Violation::Malformed { line: String::new() }, 1),
        (Box::new(|_, _| Some("0".into())), Violation::OutOfRange { tower: 0 }, 1),
        (Box::new(|b, _| Some(if b < 3 { "20".into() } else { "21".into() })), Violation::OutOfRange { tower: 21 }, 3),
        (Box::new(|_, _| Some("-3".into())), Violation::OutOfRange { tower: -3 }, 1),
        // Tower 1 holds 15 blocks: the 16th is refused.
        (Box::new(|_, _| Some("1".into())), Violation::FullTower { tower: 1 }, 16),
        (Box::new(|b, _| (b < 4).then(|| "2".into())), Violation::Closed, 4),
    ];
    for (answer, want, block) in cases {
        let (report, seen) = scripted(set, answer);
        let fault = report.fault.clone().expect("a fault");
        assert_eq!((fault.violation, fault.game, fault.block), (want.clone(), 1, block), "{want:?}");
        assert!(!report.passed);
        // The judge's last word to the player is -1.
        if want != Violation::Closed {
            assert_eq!(seen.last().map(String::as_str), Some("-1"), "{want:?}");
        }
    }
}

#[test]
fn tolerant_of_spaces_and_line_ends() {
    // Leading or trailing spaces and CRLF line ends are one integer, as the official judge reads.
    let set = short_set_2(1);
    let (report, seen) = scripted(set, |b, _| Some(format!(" {}\r", 1 + (b - 1) / 15)));
    assert_eq!(report.fault, None);
    assert_eq!(seen.len(), 1 + 300 + 1);
}

/// Plays against a scripted judge; returns the result and what the player wrote.
fn against(input: &str) -> (Result<tessera_digits::protocol::PlayReport, String>, String) {
    let mut out = Vec::new();
    let r = play(Cursor::new(input.to_string()), &mut out, StrategyName::Best).map_err(|e| e.to_string());
    (r, String::from_utf8(out).unwrap())
}

#[test]
fn the_player_follows_the_judge() {
    // A negative number at once, or in the middle of a game: stop quietly.
    let (r, out) = against("-1\n");
    assert_eq!((r.unwrap().games, out.as_str()), (0, ""));
    let (r, out) = against("2 3 2 100\n5\n9\n-1\n");
    let r = r.unwrap();
    assert_eq!((r.games, r.passed, out.lines().count()), (0, None, 2));
    // A whole run of one game of one tower of one block: one answer, then the verdict.
    let (r, out) = against("1 1 1 5\n7\n1\n");
    assert_eq!((r.as_ref().unwrap().passed, r.unwrap().total, out.as_str()), (Some(true), 7, "1\n"));
    let (r, _) = against("1 1 1 8\n7\n-1\n");
    assert_eq!(r.unwrap().passed, Some(false));
    // Tower numbers are 1-based and stay within N.
    let (r, out) = against("1 3 2 1\n1\n2\n3\n4\n5\n6\n1\n");
    assert_eq!(r.unwrap().games, 1);
    assert!(out.lines().all(|l| matches!(l, "1" | "2" | "3")), "{out}");
}

#[test]
fn the_player_refuses_nonsense() {
    for (input, needle) in [
        ("", "ended before its first line"),
        ("50 20 15\n", "as its first line"),
        ("a b c d\n", "as its first line"),
        ("1 0 15 3\n", "N = 0"),
        ("1 2 19 3\n", "B = 19"),
        ("0 2 2 3\n", "T = 0"),
        ("1 2 2 3\n10\n", "a digit 0..9"),
        ("1 2 2 3\n1 2\n", "a digit 0..9"),
        ("1 2 2 3\n4\n", "ended for block 2 of game 1"),
        ("1 1 1 3\n4\n", "ended before the verdict"),
        ("1 1 1 3\n4\n2\n", "as the verdict"),
    ] {
        let (r, _) = against(input);
        let e = r.expect_err(input);
        assert!(e.contains(needle), "{input:?}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever the judge sends, the player answers or stops with an error, never a panic, and
    /// only ever names towers that exist.
    #[test]
    fn the_player_never_panics(lines in proptest::collection::vec("-?[0-9 ]{0,4}|[a-z]{0,3}", 0..40)) {
        let input = format!("2 3 4 10\n{}", lines.join("\n"));
        let (_, out) = against(&input);
        prop_assert!(out.lines().all(|l| matches!(l, "1" | "2" | "3")));
    }

    /// Any first line: a game to play, a quiet stop, or an error naming the line.
    #[test]
    fn any_header(line in "[0-9 -]{0,16}|.{0,30}") {
        let (r, out) = against(&format!("{line}\n-1\n"));
        prop_assert!(out.is_empty());
        if let Err(e) = r {
            prop_assert!(e.contains("the judge"), "{}", e);
        }
    }

    /// Whatever the player answers, the judge reports a result, never a panic.
    #[test]
    fn the_judge_never_panics(answers in proptest::collection::vec("[0-9]{0,2}|-?[0-9]{1,20}|.{0,5}", 1..40)) {
        let set = TestSet::new(1, 3, 4, 10).unwrap();
        let (report, _) = scripted(set, |b, _| answers.get(b as usize - 1).cloned());
        prop_assert!(report.passed || report.fault.is_some() || report.total < 10);
    }
}
