//! Evaluation: solve problems within a time each, score every game with the judge, and compare
//! with the best final-round scores of the contest.
//!
//! [`evaluate`] solves one problem into an [`EvalRecord`] (what a run writes per problem, and
//! what shards of a run are merged from); [`EvalSummary`] sums the records up, and says how far
//! a run got if Ctrl-C stopped it ([`Stopped`]).

use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use tessera_core::runtime::{Budget, StopReason, duration_from_secs, interrupted};
use tessera_game::tour::plural;

use crate::engine::EngineError;
use crate::format::GAME;
use crate::phrase::Phrases;
use crate::problem::Problem;
use crate::solver::{Settings, problem_score, solve, working_seconds};

/// The best score of any team in the contest's final round, for the qualifying problems it
/// re-ran (floor of the mean over seeds, all 18 phrases known).
pub const FINAL_BEST: [(i64, u64); 11] = [
    (8, 19887),
    (9, 28235),
    (10, 10004),
    (12, 13354),
    (13, 4820),
    (14, 107870),
    (15, 12048),
    (16, 16600),
    (18, 23771),
    (20, 13032),
    (24, 306206),
];

/// The final round's best score on problem `id`, if it was re-run.
#[must_use]
pub fn final_best(id: i64) -> Option<u64> {
    FINAL_BEST.iter().find(|b| b.0 == id).map(|b| b.1)
}

/// One seed's game, as an evaluation keeps it (enough to replay it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedResult {
    /// The seed.
    pub seed: u32,
    /// The judge's total.
    pub score: u64,
    /// Its move part.
    pub move_score: u64,
    /// Its phrase part.
    pub power_score: u64,
    /// Distinct phrases spelled.
    pub phrases: usize,
    /// Units locked.
    pub locked: usize,
    /// Lines cleared.
    pub lines: usize,
    /// How the game ended.
    pub end_state: String,
    /// The beam width that found it.
    pub width: usize,
    /// The commands.
    pub solution: String,
}

/// One problem solved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemResult {
    /// Always [`GAME`].
    pub game: String,
    /// The problem's id.
    pub problem: i64,
    /// Board size.
    pub width: usize,
    /// Board size.
    pub height: usize,
    /// The leaderboard score: the floor of the mean of the seeds' scores.
    pub score: u64,
    /// The floor of the mean move score.
    pub move_score: u64,
    /// The floor of the mean phrase score.
    pub power_score: u64,
    /// The fewest distinct phrases spelled in one of its games.
    pub phrases: usize,
    /// The final round's best score, if the problem was re-run there.
    pub final_best: Option<u64>,
    /// Wall time.
    pub seconds: f64,
    /// The widest beam that completed a game.
    pub width_reached: usize,
    /// Every seed's game.
    pub seeds: Vec<SeedResult>,
}

/// A problem's line of an [`EvalSummary`]: its [`ProblemResult`] without the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalRow {
    /// The problem's id.
    pub problem: i64,
    /// Seeds (games) solved.
    pub seeds: usize,
    /// The leaderboard score: the floor of the mean of the seeds' scores.
    pub score: u64,
    /// The floor of the mean move score.
    pub move_score: u64,
    /// The floor of the mean phrase score.
    pub power_score: u64,
    /// The fewest distinct phrases spelled in one of its games.
    pub phrases: usize,
    /// The final round's best score, if the problem was re-run there.
    pub final_best: Option<u64>,
    /// Wall time.
    pub seconds: f64,
    /// The widest beam that completed a game.
    pub width: usize,
    /// Whether Ctrl-C cut the problem short (its games are the best found by then).
    #[serde(default)]
    pub stopped: bool,
    /// Why the problem could not be solved, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl From<&EvalRecord> for EvalRow {
    fn from(x: &EvalRecord) -> EvalRow {
        let r = &x.result;
        EvalRow {
            problem: r.problem,
            seeds: r.seeds.len(),
            score: r.score,
            move_score: r.move_score,
            power_score: r.power_score,
            phrases: r.phrases,
            final_best: r.final_best,
            seconds: r.seconds,
            width: r.width_reached,
            stopped: x.stopped,
            error: x.error.clone(),
        }
    }
}

/// One problem of an evaluation as a run records it (`eval --jsonl` writes one per line, and
/// shards of a run are merged from them): its result, what it was given, and whether it ended
/// as it should.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalRecord {
    /// The problem solved.
    #[serde(flatten)]
    pub result: ProblemResult,
    /// The time the problem was given, in seconds.
    pub seconds_per_problem: f64,
    /// Cores used.
    pub cores: usize,
    /// The phrases of power the games were played and judged with, as given (records written
    /// before runs said so were all made with the official eighteen).
    #[serde(default = "official_names")]
    pub phrase_set: Vec<String>,
    /// Whether Ctrl-C cut the problem short (its games are the best found by then).
    #[serde(default)]
    pub stopped: bool,
    /// Why the problem could not be solved, if it could not (it then has no games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The official phrases' names (what records without a phrase set were made with).
fn official_names() -> Vec<String> {
    Phrases::official().names().to_vec()
}

/// The phrases of a record, as a set to compare.
fn same_set(names: &[String]) -> Vec<String> {
    let mut set: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// Whether a record's phrase set is the official eighteen (in any order and case).
fn is_official(names: &[String]) -> bool {
    Phrases::new(names.iter().cloned()).is_ok_and(|p| p.is_official())
}

/// How a phrase set reads in a report: `the official 18`, `none`, or the phrases quoted.
#[must_use]
pub fn phrases_text(names: &[String]) -> String {
    const SHOWN: usize = 8;
    match names {
        [] => "none".to_string(),
        _ if is_official(names) => "the official 18".to_string(),
        _ => {
            let quoted: Vec<String> = names.iter().take(SHOWN).map(|n| format!("{n:?}")).collect();
            let more = if names.len() > SHOWN { format!(" and {} more", names.len() - SHOWN) } else { String::new() };
            format!("{} given: {}{more}", names.len(), quoted.join(", "))
        }
    }
}

/// How far a run of several problems got when it was stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stopped {
    /// Why it stopped (`interrupted`: Ctrl-C).
    pub reason: StopReason,
    /// Problems finished before it stopped.
    pub done: usize,
    /// Problems the run had.
    pub of: usize,
    /// The problem it was solving when it stopped, if any: its games are the best found by then.
    pub cut_short: Option<i64>,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let by = match self.reason {
            StopReason::Interrupted => "by Ctrl-C".to_string(),
            other => format!("({other})"),
        };
        write!(f, "stopped {by} after {} of {}", self.done, plural(self.of as u64, "problem", "problems"))?;
        if let Some(p) = self.cut_short {
            write!(f, "; problem {p} cut short (its games are the best found by then)")?;
        }
        Ok(())
    }
}

/// An evaluation of several problems: each problem's scores, without the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSummary {
    /// Always [`GAME`].
    pub game: String,
    /// The time each problem was given, in seconds.
    pub seconds_per_problem: f64,
    /// Cores used (the most any shard used, for merged records).
    pub cores: usize,
    /// The sum of the problems' scores.
    pub total: u64,
    /// Problems whose score beats the final round's best.
    pub final_best_beaten: usize,
    /// Problems the final round re-ran (those with a best to beat).
    pub final_best_problems: usize,
    /// The phrases of power the games were played and judged with (`null` if no problem was
    /// solved). The final round's best are compared only with the official eighteen.
    #[serde(default)]
    pub phrase_set: Option<Vec<String>>,
    /// Each problem's scores.
    pub problems: Vec<EvalRow>,
    /// How far the run got, if it was stopped before its end (`null` when it was not).
    #[serde(default)]
    pub stopped: Option<Stopped>,
}

/// What a run knows that its records do not say (a summary of merged records does without).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunInfo {
    /// The time each problem was given, in seconds.
    pub seconds_per_problem: f64,
    /// Cores used.
    pub cores: usize,
    /// The problems the run was to solve.
    pub problems: usize,
    /// Whether Ctrl-C stopped it (perhaps between two problems, with no record cut short).
    pub interrupted: bool,
}

/// Records that cannot be summed up together.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SummaryError {
    /// Neither records nor a run to say what the problems were given.
    #[error("no problems were solved")]
    Empty,
    /// Records of runs that gave their problems different times.
    #[error("the records are of runs with different times per problem ({0} s and {1} s)")]
    MixedTimes(f64, f64),
    /// Records of runs with different phrase sets.
    #[error("the records are of runs with different phrases of power ({0} and {1})")]
    MixedPhrases(String, String),
}

impl EvalSummary {
    /// The summary of `records`; `run` is what the run knew (`None` for records merged from
    /// files, which then say it all: a record cut short means the run was stopped).
    pub fn new(records: &[EvalRecord], run: Option<RunInfo>) -> Result<EvalSummary, SummaryError> {
        let first = records.first();
        let seconds = run.map(|r| r.seconds_per_problem).or(first.map(|x| x.seconds_per_problem));
        let seconds = seconds.ok_or(SummaryError::Empty)?;
        if let Some(x) = records.iter().find(|x| x.seconds_per_problem != seconds) {
            return Err(SummaryError::MixedTimes(seconds, x.seconds_per_problem));
        }
        let phrases = first.map(|x| x.phrase_set.clone());
        if let Some(first) = first
            && let Some(x) = records.iter().find(|x| same_set(&x.phrase_set) != same_set(&first.phrase_set))
        {
            return Err(SummaryError::MixedPhrases(phrases_text(&first.phrase_set), phrases_text(&x.phrase_set)));
        }
        // The final round's best were reached with the official phrases: no target otherwise.
        let official = phrases.as_deref().is_none_or(is_official);
        let cores = run.map_or_else(|| records.iter().map(|x| x.cores).max().unwrap_or(0), |r| r.cores);
        let results = || records.iter().map(|x| &x.result);
        let targets: Vec<(u64, u64)> =
            results().filter_map(|r| r.final_best.filter(|_| official).map(|b| (r.score, b))).collect();
        let mut rows: Vec<EvalRow> = records.iter().map(EvalRow::from).collect();
        if !official {
            rows.iter_mut().for_each(|r| r.final_best = None);
        }
        Ok(EvalSummary {
            game: GAME.to_string(),
            seconds_per_problem: seconds,
            cores,
            total: results().map(|r| r.score).sum(),
            final_best_beaten: targets.iter().filter(|(score, best)| score > best).count(),
            final_best_problems: targets.len(),
            phrase_set: phrases,
            problems: rows,
            stopped: stopped(records, run),
        })
    }

    /// Whether some problem could not be solved.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|r| r.error.is_some())
    }
}

/// How far the run of `records` got, if it was stopped.
fn stopped(records: &[EvalRecord], run: Option<RunInfo>) -> Option<Stopped> {
    let cut_short = records.iter().find(|x| x.stopped).map(|x| x.result.problem);
    if cut_short.is_none() && !run.is_some_and(|r| r.interrupted) {
        return None;
    }
    // Without the run, those recorded stand for its problems (the caller may know better: the
    // job records of a merge say how many the run had).
    let of = run.map_or(records.len(), |r| r.problems);
    let done = records.iter().filter(|x| !x.stopped).count();
    Some(Stopped { reason: StopReason::Interrupted, done, of, cut_short })
}

/// Seconds as a person reads them: plainly, or in exponent form past a billion (a time limit
/// meant as "no limit" need not print thirty digits).
pub fn seconds_text(s: f64) -> String {
    if s.abs() < 1e9 { format!("{s}") } else { format!("{s:e}") }
}

impl fmt::Display for EvalSummary {
    /// The table of `tessera hextris eval`: a line per problem, the total, and how far a stopped
    /// run got.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A stopped run had more problems than it has rows.
        let problems = self.stopped.as_ref().map_or(self.problems.len(), |s| s.of.max(self.problems.len()));
        writeln!(
            f,
            "hextris eval: {}, {} s each, {}",
            plural(problems as u64, "problem", "problems"),
            seconds_text(self.seconds_per_problem),
            plural(self.cores as u64, "core", "cores")
        )?;
        if let Some(p) = &self.phrase_set {
            writeln!(f, "phrases of power: {}", phrases_text(p))?;
        }
        writeln!(f, "problem  seeds    score     move    power  phrases  final best   time  width")?;
        for r in &self.problems {
            writeln!(f, "{}", row(r))?;
        }
        let official = self.phrase_set.as_deref().is_none_or(is_official);
        let against = match self.final_best_problems {
            0 if !official => "the final round's best are for the official phrases".to_string(),
            0 => "no problem of the final round".to_string(),
            n => format!(
                "the final round's best beaten on {} of {}",
                self.final_best_beaten,
                plural(n as u64, "problem", "problems")
            ),
        };
        writeln!(f, "total: {}; {against}", self.total)?;
        if let Some(s) = &self.stopped {
            writeln!(f, "{s}")?;
        }
        Ok(())
    }
}

/// A problem's line of the table.
fn row(r: &EvalRow) -> String {
    if let Some(e) = &r.error {
        return format!("{:>7}  error: {e}", r.problem);
    }
    let best =
        r.final_best.map_or(String::new(), |b| format!("{b} {}", if r.score > b { "beaten" } else { "not yet" }));
    let cut = if r.stopped { "  (cut short)" } else { "" };
    format!(
        "{:>7}  {:>5}  {:>7}  {:>7}  {:>7}  {:>7}  {:<16} {:>5.1}  {:>5}{cut}",
        r.problem, r.seeds, r.score, r.move_score, r.power_score, r.phrases, best, r.seconds, r.width
    )
}

/// Solves `problem` within `seconds` on `threads` threads, judges it, and records it: never
/// fails, a problem the solver cannot play is recorded with its error (and no games).
#[must_use]
pub fn evaluate(problem: &Problem, settings: &Settings, seconds: f64, threads: usize) -> EvalRecord {
    let (result, error) = match run(problem, settings, seconds, threads) {
        Ok(r) => (r, None),
        Err(e) => (unsolved(problem), Some(e.to_string())),
    };
    let stopped = error.is_none() && interrupted();
    let phrase_set = settings.phrases.names().to_vec();
    EvalRecord { result, seconds_per_problem: seconds, cores: threads, phrase_set, stopped, error }
}

/// The result of a problem with no games.
fn unsolved(problem: &Problem) -> ProblemResult {
    ProblemResult {
        game: GAME.to_string(),
        problem: problem.id,
        width: problem.width,
        height: problem.height,
        score: 0,
        move_score: 0,
        power_score: 0,
        phrases: 0,
        final_best: final_best(problem.id),
        seconds: 0.0,
        width_reached: 0,
        seeds: Vec::new(),
    }
}

/// Solves `problem` within `seconds` on `threads` threads and judges it.
pub fn run(problem: &Problem, settings: &Settings, seconds: f64, threads: usize) -> Result<ProblemResult, EngineError> {
    let started = Instant::now();
    let budget = Budget::unlimited().with_time(duration_from_secs(working_seconds(seconds)));
    let games = solve(problem, settings, &budget, threads, |_| {})?;
    let n = games.len().max(1) as u64;
    let seeds: Vec<SeedResult> = games
        .iter()
        .map(|g| SeedResult {
            seed: g.seed,
            score: g.scorecard.score,
            move_score: g.scorecard.move_score,
            power_score: g.scorecard.power_score,
            phrases: g.scorecard.phrases.len(),
            locked: g.scorecard.locked,
            lines: g.scorecard.lines_cleared,
            end_state: serde_json::to_value(g.scorecard.end_state)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            width: g.width,
            solution: g.text.clone(),
        })
        .collect();
    Ok(ProblemResult {
        game: GAME.to_string(),
        problem: problem.id,
        width: problem.width,
        height: problem.height,
        score: problem_score(&games),
        move_score: seeds.iter().map(|s| s.move_score).sum::<u64>() / n,
        power_score: seeds.iter().map(|s| s.power_score).sum::<u64>() / n,
        phrases: seeds.iter().map(|s| s.phrases).min().unwrap_or(0),
        final_best: final_best(problem.id),
        seconds: started.elapsed().as_secs_f64(),
        width_reached: seeds.iter().map(|s| s.width).max().unwrap_or(0),
        seeds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_short_even_when_huge() {
        assert_eq!(seconds_text(10.0), "10");
        assert_eq!(seconds_text(0.5), "0.5");
        assert_eq!(seconds_text(1e30), "1e30");
    }
    use tessera_game::eval::Record;

    /// A record of problem `id` scoring `score`, without games.
    fn record(id: i64, score: u64, stopped: bool) -> EvalRecord {
        let p = crate::builtin::problem(id as usize).unwrap();
        let result = ProblemResult { score, ..unsolved(&p) };
        EvalRecord { result, seconds_per_problem: 2.0, cores: 1, phrase_set: official_names(), stopped, error: None }
    }

    #[test]
    fn a_summary_adds_up_its_records_and_a_merge_needs_no_run() {
        let records = [record(8, 20000, false), record(9, 100, false), record(1, 50, false)];
        let run = RunInfo { seconds_per_problem: 2.0, cores: 1, problems: 3, interrupted: false };
        let s = EvalSummary::new(&records, Some(run)).unwrap();
        assert_eq!((s.total, s.final_best_beaten, s.final_best_problems), (20150, 1, 2));
        assert_eq!(s.stopped, None);
        assert_eq!(EvalSummary::new(&records, None).unwrap(), s, "merged records say as much");
        let text = s.to_string();
        assert!(text.contains("19887 beaten") && text.contains("28235 not yet"), "{text}");
        assert!(text.ends_with("total: 20150; the final round's best beaten on 1 of 2 problems\n"), "{text}");
    }

    #[test]
    fn records_of_other_phrases_are_never_merged_and_have_no_final_best() {
        let mut none = [record(8, 20000, false), record(9, 100, false)];
        none.iter_mut().for_each(|x| x.phrase_set.clear());
        let s = EvalSummary::new(&none, None).unwrap();
        assert_eq!((s.final_best_problems, s.phrase_set.as_deref()), (0, Some(&[][..])));
        assert!(s.problems.iter().all(|r| r.final_best.is_none()));
        assert!(s.to_string().contains("phrases of power: none\n"), "{s}");
        let mixed = [record(8, 20000, false), none[1].clone()];
        let e = EvalSummary::new(&mixed, None).unwrap_err();
        assert_eq!(e, SummaryError::MixedPhrases("the official 18".into(), "none".into()));
        // The same set in another order and case merges.
        let mut other = record(9, 100, false);
        other.phrase_set.reverse();
        other.phrase_set[0] = other.phrase_set[0].to_uppercase();
        assert!(EvalSummary::new(&[record(8, 1, false), other], None).is_ok());
        // Records written before runs named their phrases were made with the official ones.
        let mut old = serde_json::to_value(record(8, 1, false)).unwrap();
        old.as_object_mut().unwrap().remove("phrase_set");
        let back: EvalRecord = serde_json::from_value(old).unwrap();
        assert_eq!(back.phrase_set, official_names());
    }

    #[test]
    fn a_stopped_run_says_how_far_it_got() {
        let records = [record(1, 50, false), record(8, 300, true)];
        let run = RunInfo { seconds_per_problem: 2.0, cores: 1, problems: 5, interrupted: true };
        let s = EvalSummary::new(&records, Some(run)).unwrap();
        let stopped = Stopped { reason: StopReason::Interrupted, done: 1, of: 5, cut_short: Some(8) };
        assert_eq!(s.stopped.as_ref(), Some(&stopped));
        let text = s.to_string();
        assert!(text.contains("stopped by Ctrl-C after 1 of 5 problems; problem 8 cut short"), "{text}");
        assert!(text.starts_with("hextris eval: 5 problems, 2 s each"), "the run's problems, not its rows: {text}");
        assert!(text.contains("(cut short)"), "{text}");
        // Merged, the records still say it: the one cut short.
        assert_eq!(EvalSummary::new(&records, None).unwrap().stopped.map(|s| (s.done, s.of)), Some((1, 2)));
        // Stopped between two problems: no record is cut short, the run knows.
        let s = EvalSummary::new(&records[..1], Some(run)).unwrap();
        assert_eq!(s.stopped.map(|s| (s.done, s.of, s.cut_short)), Some((1, 5, None)));
    }

    #[test]
    fn records_of_different_runs_or_none_are_refused() {
        let mut other = record(9, 100, false);
        other.seconds_per_problem = 5.0;
        let e = EvalSummary::new(&[record(8, 1, false), other], None).unwrap_err();
        assert_eq!(e, SummaryError::MixedTimes(2.0, 5.0));
        assert_eq!(EvalSummary::new(&[], None).unwrap_err(), SummaryError::Empty);
    }

    #[test]
    fn a_record_reads_back_inside_a_job_record() {
        let mut x = record(8, 20000, true);
        x.error = Some("too wide".into());
        let line = Record { job: 3, of: 25, base_seed: 0, seed: 7, result: x.clone() };
        let json = serde_json::to_string(&line).unwrap();
        assert!(json.contains(r#""problem":8"#) && json.contains(r#""stopped":true"#), "{json}");
        let back: Record<EvalRecord> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, line);
        // The summary's JSON says `stopped`, null when the run was not stopped.
        let s = EvalSummary::new(&[record(1, 5, false)], None).unwrap();
        assert_eq!(serde_json::to_value(&s).unwrap()["stopped"], serde_json::Value::Null);
    }

    #[test]
    fn a_problem_the_solver_cannot_play_is_recorded_with_its_error() {
        let mut p = crate::builtin::problem(1).unwrap();
        p.width = crate::engine::MAX_WIDTH + 1;
        let x = evaluate(&p, &Settings::default(), 0.1, 1);
        assert!(x.error.as_deref().is_some_and(|e| e.contains("columns")), "{x:?}");
        assert!(x.result.seeds.is_empty() && !x.stopped);
        let s = EvalSummary::new(&[x], None).unwrap();
        assert!(s.has_errors() && s.to_string().contains("error: the solver plays boards"), "{s}");
    }
}
