//! `tessera digits ...`.

use std::ffi::OsStr;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, Subcommand};
use tessera_core::runtime::{Budget, duration_from_secs};
use tessera_digits::eval::{EvalSummary, GameResult, common_run, reference_optimum, run_job, summarise};
use tessera_digits::exact::optimum;
use tessera_digits::expected::expected_score;
use tessera_digits::format::{StrategyValueReport, ValueReport};
use tessera_digits::process::judge_program;
use tessera_digits::protocol::{PlayError, Violation, play, shown};
use tessera_digits::strategy::StrategyError;
use tessera_digits::{Params, Strategy, StrategyName, TestSet};
use tessera_game::eval::Record;
use tessera_game::tour::plural;

use crate::common::{
    Jobs, SeedArg, ShardArgs, Summary, ThreadsArg, at_least_one, emit, emit_json, emit_json_sorted, quit_on_interrupt,
    stopped_early,
};

/// `tessera digits`.
#[derive(Debug, Subcommand)]
pub enum DigitsCommand {
    /// Play against a judge on stdin/stdout with the interactive protocol (`T N B P`, then a
    /// digit per line, answered with a tower number).
    Play(PlayArgs),
    /// Run a player program against a local judge: `tessera digits judge -- PROGRAM ARGS...`.
    Judge(JudgeArgs),
    /// The exact optimal expected score S of a game (or of a strategy with --strategy).
    Value(ValueArgs),
    /// Simulate games: mean, spread, fraction of S, and the odds of passing each test set.
    Eval(EvalArgs),
    /// List the strategies.
    Strategies,
}

/// `--strategy`.
#[derive(Debug, Clone, Args)]
pub struct StrategyArg {
    /// Strategy (see `tessera digits strategies`).
    #[arg(long, short = 's', default_value = "best", value_parser = StrategyNames)]
    strategy: StrategyName,
}

/// Reads `--strategy` as the library reads a strategy name (`top3`, `Top-3`, ...), and lists the
/// kinds of names in the help. Not a `ValueEnum`: `topR` is a name for every R.
#[derive(Copy, Clone, Debug)]
struct StrategyNames;

impl TypedValueParser for StrategyNames {
    type Value = StrategyName;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<StrategyName, clap::Error> {
        // clap's message names the value already: the library's would say it again.
        let parse = |s: String| match s.parse::<StrategyName>() {
            Err(StrategyError::Unknown(_)) => {
                Err("not a strategy (known: greedy, top1, top2, ..., best, optimal)".into())
            }
            other => other.map_err(|e| e.to_string()),
        };
        StringValueParser::new().try_map(parse).parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(StrategyName::HELP.iter().map(|&(name, what)| PossibleValue::new(name).help(what))))
    }
}

/// Reads `--set`: 1 or 2 (clap's own range message would name the value twice).
fn official_set(s: &str) -> Result<u32, String> {
    match s.trim() {
        "1" => Ok(1),
        "2" => Ok(2),
        _ => Err("the official sets are 1 and 2".into()),
    }
}

/// Reads `--time-limit`: a positive number of seconds (clap's message names the value).
fn seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        Ok(t) if t == f64::INFINITY => Err(format!("too large (at most {:e} seconds)", f64::MAX)),
        _ => Err("not a positive number of seconds".into()),
    }
}

/// `--n`, `--b`.
#[derive(Debug, Clone, Args)]
pub struct SizeArgs {
    /// Towers (N).
    #[arg(long, default_value_t = 20, allow_negative_numbers = true)]
    n: u64,
    /// Blocks per tower (B).
    #[arg(long, default_value_t = 15, allow_negative_numbers = true)]
    b: u64,
}

impl SizeArgs {
    fn get(&self) -> Result<Params> {
        Ok(Params::new(self.n, self.b)?)
    }
}

/// `tessera digits play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    strategy: StrategyArg,
    /// Print nothing on stderr at the end.
    #[arg(long, short)]
    quiet: bool,
}

/// `tessera digits judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// The official test set to play (1 or 2).
    #[arg(long, default_value_t = 2, value_parser = official_set, allow_negative_numbers = true)]
    set: u32,
    /// Games [default: the set's 50]; P is scaled to the number of games unless --p is given.
    #[arg(long, value_name = "T", value_parser = at_least_one, allow_negative_numbers = true)]
    games: Option<u64>,
    /// Towers, instead of the set's (needs --p).
    #[arg(long, requires = "p", allow_negative_numbers = true)]
    n: Option<u64>,
    /// Blocks per tower, instead of the set's (needs --p).
    #[arg(long, requires = "p", allow_negative_numbers = true)]
    b: Option<u64>,
    /// The total the games must reach [default: the set's, scaled to --games].
    #[arg(long, allow_negative_numbers = true)]
    p: Option<u64>,
    /// Kill the player after this many seconds (the official limit is 60; a time too long for
    /// the clock is no limit).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = seconds, allow_negative_numbers = true)]
    time_limit: f64,
    /// The same limit in milliseconds, as other commands take a time budget.
    #[arg(long, value_name = "MS", value_parser = at_least_one, conflicts_with = "time_limit", allow_negative_numbers = true)]
    budget_ms: Option<u64>,
    #[command(flatten)]
    seed: SeedArg,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// The player program and its arguments (after `--`).
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    command: Vec<String>,
}

/// `tessera digits value`.
#[derive(Debug, Args)]
pub struct ValueArgs {
    #[command(flatten)]
    size: SizeArgs,
    /// Evaluate this strategy exactly (over the states it reaches) instead of the optimum.
    #[arg(long, short = 's', value_parser = StrategyNames)]
    strategy: Option<StrategyName>,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// `tessera digits eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    #[command(flatten)]
    strategy: StrategyArg,
    /// Games to simulate, the run's jobs.
    #[arg(long = "runs", short = 'g', visible_alias = "games", value_name = "N", default_value_t = 10_000, value_parser = at_least_one, allow_negative_numbers = true)]
    games: u64,
    #[command(flatten)]
    size: SizeArgs,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    shard: ShardArgs,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs a `tessera digits` command.
pub fn run(cmd: DigitsCommand) -> Result<ExitCode> {
    match cmd {
        DigitsCommand::Play(args) => play_cmd(&args),
        DigitsCommand::Judge(args) => judge_cmd(&args),
        DigitsCommand::Value(args) => value_cmd(&args),
        DigitsCommand::Eval(args) => eval_cmd(&args),
        DigitsCommand::Strategies => {
            let text: String = StrategyName::HELP.iter().map(|(name, what)| format!("{name:<8} {what}\n")).collect();
            emit(&text)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn play_cmd(args: &PlayArgs) -> Result<ExitCode> {
    // The judge paces the games: nothing to report on Ctrl-C but the end of the session.
    let played = quit_on_interrupt(|| play(std::io::stdin().lock(), std::io::stdout().lock(), args.strategy.strategy));
    // The judge is stdin and stdout: a failure to talk to it says which (a closed stdout stays
    // a broken pipe, which ends quietly).
    let report = played.map_err(|e| match e {
        PlayError::Read(e) => anyhow::Error::new(e).context("cannot read stdin"),
        PlayError::Write(e) => anyhow::Error::new(e).context("cannot write to stdout"),
        other => other.into(),
    })?;
    if !args.quiet {
        let verdict = match report.passed {
            Some(true) => "the run passed",
            Some(false) => "the run failed",
            None => "the judge stopped the run",
        };
        eprintln!(
            "digits: {verdict} after {}, total {} ({}, tables in {:.2} s)",
            plural(u64::from(report.games), "game", "games"),
            report.total,
            report.strategy,
            report.setup_seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn judge_cmd(args: &JudgeArgs) -> Result<ExitCode> {
    let official = TestSet::official(args.set).context("the official sets are 1 and 2")?;
    let t = args.games.unwrap_or(u64::from(official.t));
    let set = match (args.n, args.b, args.p) {
        (n, b, Some(p)) => {
            TestSet::new(t, n.unwrap_or(u64::from(official.params.n)), b.unwrap_or(u64::from(official.params.b)), p)?
        }
        (_, _, None) => official.with_games(t)?,
    };
    let limit = args.budget_ms.map_or(args.time_limit, |ms| ms as f64 / 1000.0);
    let seed = args.seed.get();
    let (program, rest) = args.command.split_first().context("no player program given")?;
    // A limit past what a `Duration` holds is none in practice.
    let time_limit = Some(duration_from_secs(limit));
    let report = quit_on_interrupt(|| judge_program(set, seed, program, rest, time_limit))
        .with_context(|| format!("cannot start {}", plain(program)))?;
    if args.json {
        emit_json(&report)?;
    } else {
        let j = &report.judge;
        let mut out = format!("set: T={} {} P={}, seed {seed}\n", set.t, set.params, set.p);
        let verdict = if report.passed { "passed" } else { "FAILED" };
        out += &format!("verdict: {verdict}: total {}", j.total);
        out += &if set.p > 0 { format!(" = {:.6} P\n", j.total as f64 / set.p as f64) } else { "\n".into() };
        if let Some(f) = &j.fault {
            // A player killed at the limit closed its output because it was killed.
            let what = match (&f.violation, report.timed_out) {
                (Violation::Closed, true) => "was killed at the time limit".to_string(),
                (v, _) => v.to_string(),
            };
            out += &format!("fault: game {}, block {}: the player {what}\n", f.game, f.block);
        }
        if !j.scores.is_empty() {
            let values: Vec<f64> = j.scores.iter().map(|&s| s as f64).collect();
            let s = tessera_core::stats::Summary::of(&values);
            out += &format!("games: {} played, mean {:.0}, min {:.0}, max {:.0}\n", s.n, s.mean, s.min, s.max);
        }
        if report.timed_out {
            out += &format!("time limit: killed after {limit} s\n");
        }
        if let Some(extra) = &report.after_verdict {
            out += &format!("after the verdict the player wrote {}\n", shown(extra));
        }
        match report.exit_code {
            Some(0) => {}
            Some(c) => out += &format!("exit status: {c}\n"),
            None => out += "exit status: killed by a signal\n",
        }
        let memory = report.peak_kib.map_or(String::new(), |k| format!(", peak memory {:.1} MiB", k as f64 / 1024.0));
        out += &format!("time: {:.2} s (limit {} s){memory}\n", report.seconds, limit);
        emit(&out)?;
    }
    Ok(if report.passed { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// A name as a message shows it: as typed, or quoted and escaped (and cut) if it holds control
/// characters or spaces, which would garble the message.
fn plain(name: &str) -> String {
    if name.is_empty() || name.chars().any(|c| c.is_control() || c.is_whitespace()) {
        shown(name)
    } else {
        name.to_string()
    }
}

fn value_cmd(args: &ValueArgs) -> Result<ExitCode> {
    let params = args.size.get()?;
    let threads = args.threads.get();
    let budget = Budget::unlimited();
    if let Some(name) = args.strategy {
        return strategy_value(params, name, threads, &budget, args.json);
    }
    let total = tessera_digits::count::state_count(params.n, params.b).unwrap_or(0);
    let bar = crate::progress::bar("states", u64::try_from(total).unwrap_or(u64::MAX));
    let o = optimum(params, threads, &budget, &mut |done, _| bar.set_position(done));
    crate::progress::done(&bar);
    let o = o?;
    let report = ValueReport::new(o, threads);
    let o = &report.optimum;
    if args.json {
        emit_json_sorted(&report)?;
    } else if o.outcome.is_complete() {
        let mut out =
            format!("S = {:.2} ({params}, {} states, largest layer {})\n", o.value, o.states, o.largest_layer);
        if let (Some(e), Some(digits)) = (report.relative_error_to_known, report.significant_digits) {
            out += &format!(
                "known: {}, relative error {e:.1e} ({digits} significant digits)\n",
                &tessera_digits::params::KNOWN_S_OFFICIAL[..20],
            );
        }
        out += &format!("time: {:.1} s on {}\n", o.seconds, plural(threads as u64, "thread", "threads"));
        emit(&out)?;
    } else {
        emit(&format!("S: not computed ({params}, {} states): stopped after {:.1} s\n", o.states, o.seconds))?;
    }
    if !o.outcome.is_complete() {
        return Ok(stopped_early(o.outcome));
    }
    // A result that contradicts the published one is an error.
    Ok(if report.contradicts_known() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn strategy_value(params: Params, name: StrategyName, threads: usize, budget: &Budget, json: bool) -> Result<ExitCode> {
    let start = std::time::Instant::now();
    let strategy = name.build(params)?;
    let build_seconds = start.elapsed().as_secs_f64();
    let v = expected_score(strategy.as_ref(), params, threads, budget)?;
    let r = StrategyValueReport::new(
        name,
        params,
        &v,
        reference_optimum(params, threads),
        strategy.exact_value(),
        build_seconds,
    );
    if json {
        emit_json_sorted(&r)?;
    } else {
        emit(&strategy_value_text(&r, threads))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The text of a strategy's value.
fn strategy_value_text(r: &StrategyValueReport, threads: usize) -> String {
    let (name, resolved) = (r.strategy, r.resolved);
    let label = if resolved == name { name.to_string() } else { format!("{name} = {resolved}") };
    let mut out = format!("{label} ({}): expected score {:.2}\n", r.params, r.value);
    if let (Some(s), Some(fraction)) = (r.optimum, r.fraction_of_optimum) {
        let gap = s - r.value;
        let gap = if gap.abs() < 1e9 { format!("{gap:.0}") } else { format!("{gap:.4e}") };
        out += &format!("of S:  {fraction:.9} (S - value = {gap})\n");
    }
    if let Some(own) = r.own_value {
        out += &format!("own tables: {own:.2} (relative difference {:.1e})\n", (own - r.value) / r.value);
    }
    out += &format!(
        "states: {} reached (largest layer {}); tables {:.1} ms, evaluation {:.2} s on {}\n",
        r.reachable_states,
        r.largest_layer,
        r.build_seconds * 1000.0,
        r.seconds,
        plural(threads as u64, "thread", "threads")
    );
    out
}

fn eval_cmd(args: &EvalArgs) -> Result<ExitCode> {
    let threads = args.threads.get();
    let run = |jobs: &Jobs<'_>| {
        let params = args.size.get()?;
        let name = args.strategy.strategy.resolve(params);
        let strategy = name.build(params)?;
        let label = name.to_string();
        let records =
            jobs.run(args.games, args.seed.get(), threads, |_, seed| run_job(strategy.as_ref(), &label, params, seed))?;
        Ok((records, (name, params, strategy)))
    };
    let summary = |records: &[Record<GameResult>], known: Option<(StrategyName, Params, Box<dyn Strategy>)>| {
        if records.is_empty() {
            bail!("no games were played");
        }
        // Merged records say which strategy and size they are of.
        let (name, params, strategy) = match known {
            Some(known) => known,
            None => {
                let (label, params) = common_run(records).map_err(anyhow::Error::msg)?;
                let name: StrategyName = label.parse()?;
                (name, params, name.build(params)?)
            }
        };
        let optimum = reference_optimum(params, threads);
        Ok(summarise(&name.to_string(), params, records, optimum, strategy.exact_value()))
    };
    crate::common::eval(&args.shard, "digits eval", args.json, run, summary)
}

impl Summary for EvalSummary {
    fn failed(&self) -> bool {
        self.illegal > 0
    }
}
