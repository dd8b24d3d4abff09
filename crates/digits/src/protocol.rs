//! The interactive protocol, both sides: the player ([`play`]) and the judge ([`judge`]).
//!
//! The judge writes `T N B P`, then for each of the T games N x B lines of one digit, each
//! answered by a tower number `1..=N`; after the last block of the last game it writes `1` if the
//! summed score reached P, `-1` if not. A malformed answer, a tower out of range or a full tower
//! makes the judge write `-1` and stop. The player exits at once (successfully) when it reads a
//! negative number, and prints nothing after the verdict.
//!
//! Both sides read line by line and flush every line they write, so they work over pipes with any
//! other implementation of the protocol (the official judge included).

use std::io::{self, BufRead, Read, Write};
use std::time::Instant;

use tessera_core::rng::Rng64;

use crate::params::{POW10, ParamError, TestSet};
use crate::state::{State, Towers};
use crate::strategy::{StrategyError, StrategyName};

/// Longest line either side reads; anything longer is malformed.
const MAX_LINE: u64 = 256;

/// Most characters of a line that an error or a report quotes, escapes included.
pub const SHOWN: usize = 60;

/// Text the other side sent, as a message quotes it: in quotes, in printable ASCII (anything
/// else escaped, as `\u{1b}`; bytes that were not UTF-8 read as `\u{fffd}`), and cut to about
/// [`SHOWN`] characters, saying how long it was. A player writing binary cannot garble the
/// terminal, nor fill it.
#[must_use]
pub fn shown(text: &str) -> String {
    let mut quoted = String::from("\"");
    let mut taken = 0;
    for c in text.chars() {
        let escaped: String = c.escape_default().collect();
        if quoted.len() + escaped.len() > SHOWN {
            break;
        }
        quoted += &escaped;
        taken += 1;
    }
    quoted.push('"');
    let n = text.chars().count();
    if taken < n {
        quoted += &format!("... ({n} characters)");
    }
    quoted
}

/// Reads one line (without its end), or `None` at the end of input. Lines longer than
/// [`MAX_LINE`] come back cut (and so never parse).
fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = Read::take(&mut *input, MAX_LINE).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        input.read_until(b'\n', &mut rest)?;
    }
    let text = String::from_utf8_lossy(&buf);
    Ok(Some(text.trim_end_matches(['\n', '\r']).to_string()))
}

/// A line holding exactly one integer (surrounding spaces allowed), or `None`.
fn one_integer(line: &str) -> Option<i64> {
    let t = line.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

fn write_line(out: &mut impl Write, line: &str) -> io::Result<()> {
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// What went wrong for the player.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Reading the judge's lines failed.
    #[error("cannot read the judge's lines")]
    Read(#[source] io::Error),
    /// Writing an answer to the judge failed.
    #[error("cannot write to the judge")]
    Write(#[source] io::Error),
    /// The judge's input ended early.
    #[error("the judge's input ended {0}")]
    Eof(String),
    /// The judge sent something the protocol does not allow.
    #[error("the judge sent {} {context}", shown(line))]
    Protocol {
        /// The line.
        line: String,
        /// Where it came.
        context: String,
    },
    /// The game size is refused. Not the error's source: the message says it already, and a
    /// source would say it again.
    #[error("the judge asks for {0}")]
    Params(ParamError),
    /// The strategy cannot be built for this size.
    #[error(transparent)]
    Strategy(#[from] StrategyError),
    /// The strategy chose an illegal move (a bug).
    #[error("the strategy chose an illegal move: {0}")]
    Illegal(String),
}

impl From<ParamError> for PlayError {
    fn from(e: ParamError) -> Self {
        PlayError::Params(e)
    }
}

/// How a [`play`] session ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlayReport {
    /// The judge's set, as announced.
    pub set: Option<TestSet>,
    /// The strategy played.
    pub strategy: String,
    /// Games finished.
    pub games: u32,
    /// Sum of the finished games' scores, as the player counts it.
    pub total: u128,
    /// The verdict: `Some(true)` for `1`, `Some(false)` for `-1` after the last game; `None` if
    /// the judge stopped the run early with a negative number.
    pub passed: Option<bool>,
    /// Seconds spent building the strategy.
    pub setup_seconds: f64,
}

/// Plays one run against a judge: reads its lines from `input`, writes the answers to `output`.
pub fn play(input: impl BufRead, mut output: impl Write, strategy: StrategyName) -> Result<PlayReport, PlayError> {
    let mut input = input;
    let mut report =
        PlayReport { set: None, strategy: strategy.to_string(), games: 0, total: 0, passed: None, setup_seconds: 0.0 };
    let header = read_line(&mut input)
        .map_err(PlayError::Read)?
        .ok_or_else(|| PlayError::Eof("before its first line".into()))?;
    if one_integer(&header).is_some_and(|v| v < 0) {
        return Ok(report);
    }
    let set = parse_header(&header)?;
    report.set = Some(set);
    let start = Instant::now();
    let strategy = strategy.fit(set.params).build(set.params)?;
    report.setup_seconds = start.elapsed().as_secs_f64();
    let blocks = set.params.blocks();
    for game in 0..set.t {
        let mut state = State::new(set.params);
        let mut towers = Towers::new(set.params);
        let mut score: u64 = 0;
        for block in 0..blocks {
            let where_ = || format!("for block {} of game {}", block + 1, game + 1);
            let line = read_line(&mut input).map_err(PlayError::Read)?.ok_or_else(|| PlayError::Eof(where_()))?;
            let digit = match one_integer(&line) {
                Some(v) if v < 0 => return Ok(report),
                Some(v @ 0..=9) => v as u8,
                _ => return Err(PlayError::Protocol { line, context: format!("{} (a digit 0..9)", where_()) }),
            };
            let h = strategy.choose(&state, digit);
            if !state.can_place(h) {
                return Err(PlayError::Illegal(format!("{digit} on height {h} in {state:?}")));
            }
            let tower = towers.take(h).ok_or_else(|| PlayError::Illegal(format!("no tower of height {h}")))?;
            state.place(h).map_err(|e| PlayError::Illegal(e.to_string()))?;
            score += u64::from(digit) * POW10[h as usize];
            write_line(&mut output, &(tower + 1).to_string()).map_err(PlayError::Write)?;
        }
        report.games += 1;
        report.total += u128::from(score);
    }
    let line =
        read_line(&mut input).map_err(PlayError::Read)?.ok_or_else(|| PlayError::Eof("before the verdict".into()))?;
    report.passed = match one_integer(&line) {
        Some(1) => Some(true),
        Some(v) if v < 0 => Some(false),
        _ => return Err(PlayError::Protocol { line, context: "as the verdict (1 or -1)".into() }),
    };
    Ok(report)
}

/// Parses `T N B P`.
fn parse_header(line: &str) -> Result<TestSet, PlayError> {
    let bad = || PlayError::Protocol { line: line.to_string(), context: "as its first line (T N B P)".into() };
    let v: Vec<u64> = line.split_whitespace().map(str::parse).collect::<Result<_, _>>().map_err(|_| bad())?;
    let [t, n, b, p] = v[..] else { return Err(bad()) };
    Ok(TestSet::new(t, n, b, p)?)
}

/// How the player broke the rules.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Violation {
    /// Not exactly one integer.
    Malformed {
        /// The line.
        line: String,
    },
    /// No such tower.
    OutOfRange {
        /// The tower named.
        tower: i64,
    },
    /// The tower is full.
    FullTower {
        /// The tower named (1-based).
        tower: i64,
    },
    /// The player's output ended.
    Closed,
    /// The player stopped reading (its input was closed).
    Gone,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::Malformed { line } => write!(f, "answered {}, which is not one integer", shown(line)),
            Violation::OutOfRange { tower } => write!(f, "named tower {tower}, which does not exist"),
            Violation::FullTower { tower } => write!(f, "put a block on tower {tower}, which is full"),
            Violation::Closed => write!(f, "closed its output"),
            Violation::Gone => write!(f, "stopped reading its input"),
        }
    }
}

/// Where a violation happened.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fault {
    /// Game (1-based).
    pub game: u32,
    /// Block within the game (1-based).
    pub block: u64,
    /// What the player did.
    pub violation: Violation,
}

/// What the judge saw.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JudgeReport {
    /// The set played.
    pub set: TestSet,
    /// The seed of the digits.
    pub seed: u64,
    /// Each finished game's score.
    pub scores: Vec<u64>,
    /// Their sum.
    pub total: u128,
    /// Whether every game was played and the total reached P.
    pub passed: bool,
    /// The player's violation, if any (the run then fails).
    pub fault: Option<Fault>,
    /// Wall-clock seconds from the first line written to the verdict.
    pub seconds: f64,
}

/// The judge's digits: uniform, drawn from one seed for a whole run, game after game.
#[derive(Clone, Debug)]
pub struct Dealer(Rng64);

impl Dealer {
    /// The digits of the run of seed `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Dealer {
        Dealer(Rng64::seed(seed))
    }

    /// The next digit.
    pub fn deal(&mut self) -> u8 {
        self.0.below(10) as u8
    }
}

/// Runs one judged run: writes the set and the digits (drawn from `seed`) to `to_player`, reads
/// the answers from `from_player`, and writes the verdict. A player that breaks the rules or goes
/// away ends the run with a [`Fault`].
pub fn judge(set: TestSet, seed: u64, from_player: impl BufRead, to_player: impl Write) -> JudgeReport {
    let (mut input, mut output) = (from_player, to_player);
    let mut dealer = Dealer::new(seed);
    let start = Instant::now();
    let mut report = JudgeReport { set, seed, scores: Vec::new(), total: 0, passed: false, fault: None, seconds: 0.0 };
    let n = i64::from(set.params.n);
    let result = (|| -> Result<(), Fault> {
        let gone = |game, block| Fault { game, block, violation: Violation::Gone };
        write_line(&mut output, &set.header()).map_err(|_| gone(1, 1))?;
        for game in 1..=set.t {
            // The judge's own record of the towers: a height per tower.
            let mut heights = vec![0u32; set.params.n as usize];
            let mut score = 0u64;
            for block in 1..=set.params.blocks() {
                let fault = |violation| Fault { game, block, violation };
                let digit = u64::from(dealer.deal());
                write_line(&mut output, &digit.to_string()).map_err(|_| fault(Violation::Gone))?;
                let line = match read_line(&mut input) {
                    Ok(Some(line)) => line,
                    Ok(None) | Err(_) => return Err(fault(Violation::Closed)),
                };
                let tower = one_integer(&line).ok_or_else(|| fault(Violation::Malformed { line: line.clone() }))?;
                if !(1..=n).contains(&tower) {
                    return Err(fault(Violation::OutOfRange { tower }));
                }
                let h = &mut heights[(tower - 1) as usize];
                if *h >= set.params.b {
                    return Err(fault(Violation::FullTower { tower }));
                }
                score += digit * POW10[*h as usize];
                *h += 1;
            }
            report.scores.push(score);
            report.total += u128::from(score);
        }
        Ok(())
    })();
    report.passed = result.is_ok() && report.total >= u128::from(set.p);
    report.fault = result.err();
    // The verdict (after a fault, the -1 that stops the player); a player already gone is fine.
    let _ = write_line(&mut output, if report.passed { "1" } else { "-1" });
    report.seconds = start.elapsed().as_secs_f64();
    report
}

/// Plays a judged run inside this process: the judge and the player on two threads, talking
/// through pipes exactly as two programs would.
pub fn judge_in_process(
    set: TestSet,
    seed: u64,
    strategy: StrategyName,
) -> io::Result<(JudgeReport, Result<PlayReport, PlayError>)> {
    let (from_judge, to_player) = io::pipe()?;
    let (from_player, to_judge) = io::pipe()?;
    Ok(std::thread::scope(|s| {
        let player = s.spawn(move || play(io::BufReader::new(from_judge), to_judge, strategy));
        let report = judge(set, seed, io::BufReader::new(from_player), to_player);
        let played = player.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        (report, played)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_lines() {
        assert_eq!(one_integer(" 12 "), Some(12));
        assert_eq!(one_integer("-1"), Some(-1));
        for bad in ["", "-", "1 2", "x", "+3", "1.0", "99999999999999999999"] {
            assert_eq!(one_integer(bad), None, "{bad:?}");
        }
        let mut input = io::Cursor::new(format!("a\r\n{}\nb", "x".repeat(1000)));
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some("a"));
        assert_eq!(read_line(&mut input).unwrap().map(|l| l.len()), Some(MAX_LINE as usize));
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some("b"));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn header_is_checked() {
        assert_eq!(parse_header("50 20 15 937467793908762347").unwrap(), TestSet::SET2);
        assert!(parse_header("50 20 15").is_err());
        let e = parse_header("50 0 15 1").unwrap_err();
        assert_eq!(e.to_string(), "the judge asks for N = 0: a game needs at least one tower");
        assert!(std::error::Error::source(&e).is_none(), "the message says it once");
    }

    #[test]
    fn quoted_lines_are_escaped_and_cut() {
        assert_eq!(shown("5 x"), "\"5 x\"");
        let long = format!("\u{1b}[31m{}", "\u{fffd}".repeat(300));
        let s = shown(&long);
        assert!(s.starts_with("\"\\u{1b}[31m\\u{fffd}") && s.ends_with("\"... (305 characters)"), "{s}");
        assert!(s.len() < SHOWN + 25 && s.is_ascii(), "{s}");
        assert_eq!(shown("extra\n"), "\"extra\\n\"");
    }
}
