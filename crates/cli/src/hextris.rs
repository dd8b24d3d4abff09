//! `tessera hextris ...`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use serde::Serialize;
use tessera_core::runtime::{Budget, StopReason, duration_from_secs, interrupted};
use tessera_game::eval::Record;
use tessera_game::tour::plural;
use tessera_hextris::eval::{EvalRecord, EvalSummary, RunInfo, Stopped, evaluate, seconds_text};
use tessera_hextris::format::{ProblemStats, ScoreReport, Submission};
use tessera_hextris::judge::score;
use tessera_hextris::phrase::PhraseError;
use tessera_hextris::solver::{Game, Phase, Settings, problem_score, solve, working_seconds};
use tessera_hextris::{Phrases, Problem, builtin};

use crate::common::{
    Jobs, STOPPED_EARLY, ShardArgs, Summary, check_writable, emit, emit_json, quit_on_interrupt, write_file,
};

mod play;

/// `tessera hextris`.
#[derive(Debug, Subcommand)]
pub enum HextrisCommand {
    /// Solve problems, as the contest's command line did: writes the JSON list of solutions.
    Solve(SolveArgs),
    /// Score solutions (the JSON list) as the organisers' evaluator did.
    Score(ScoreArgs),
    /// Solve problems within a time each and compare with the contest's best final scores.
    Eval(EvalArgs),
    /// Draw the board after a solution (as text, and as SVG with --svg).
    Show(ShowArgs),
    /// Per-problem size, units and seeds.
    Stats(StatsArgs),
    /// Tune the position evaluation's weights on training games; writes the weights portfolio.
    Tune(TuneArgs),
    /// Play a problem from the keyboard (type commands, press Enter), scored as the judge would.
    Play(play::PlayArgs),
    /// Make new problems in the contest's format from a seed: contest-like ones and small ones.
    Gen(GenArgs),
}

/// `-p PHRASE`, repeatable: the phrases of power (default: the official eighteen), or
/// `--no-phrases`.
#[derive(Debug, Clone, Args)]
pub struct PhraseArgs {
    /// A phrase of power (repeatable; at most 1000 of at most 1000 characters) [default: the 18
    /// official phrases]. A phrase that brings a unit back to a position it held is named on
    /// stderr and played as if not given.
    #[arg(short = 'p', long = "phrase", value_name = "PHRASE")]
    phrases: Vec<String>,
    /// No phrases of power at all: play for the move score alone.
    #[arg(long, conflicts_with = "phrases")]
    no_phrases: bool,
}

impl PhraseArgs {
    /// The phrases the games are judged with.
    fn get(&self) -> Result<Phrases> {
        if self.no_phrases {
            Ok(Phrases::none())
        } else if self.phrases.is_empty() {
            Ok(Phrases::official())
        } else {
            Phrases::new(self.phrases.iter().cloned()).map_err(|e| {
                let hint = if e == PhraseError::Empty { " (for none at all: --no-phrases)" } else { "" };
                crate::common::usage(format!("bad -p: {e}{hint}"))
            })
        }
    }

    /// The phrases to play with ([`PhraseArgs::get`]): those that bring a unit back to a
    /// position it held are named once on stderr unless `quiet` (the solver leaves them out).
    fn to_play(&self, quiet: bool) -> Result<Phrases> {
        let phrases = self.get()?;
        for i in phrases.revisiting().into_iter().filter(|_| !quiet) {
            eprintln!(
                "note: phrase {:?} brings a unit back to a position it held: no unit spells it in its fall, so it is played as if not given (a game may still spell it across a lock)",
                phrases.name(i)
            );
        }
        Ok(phrases)
    }
}

/// `-c CORES`, the contest's flag, or `-j/--threads K` as in the other games.
#[derive(Debug, Clone, Args)]
pub struct CoresArg {
    /// Cores to use [default: all].
    #[arg(
        short = 'c',
        long = "cores",
        visible_short_alias = 'j',
        visible_alias = "threads",
        value_name = "CORES",
        value_parser = clap::value_parser!(u64).range(1..=1024),
        allow_negative_numbers = true
    )]
    cores: Option<u64>,
}

impl CoresArg {
    /// The number of cores, defaulting to all of them.
    fn get(&self) -> usize {
        self.cores.map_or_else(tessera_core::runtime::default_threads, |c| c as usize)
    }
}

/// Seconds given as `-t SECONDS` or as `--budget-ms MS`, if either was.
fn seconds_of(time: Option<f64>, budget_ms: Option<u64>) -> Option<f64> {
    time.or(budget_ms.map(|ms| ms as f64 / 1000.0))
}

/// `tessera hextris solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A problem file (repeatable); a name like `6` or `problem_6` that is not a file stands for
    /// that qualifying problem, built in.
    #[arg(short = 'f', long = "file", value_name = "FILE", required = true)]
    files: Vec<String>,
    /// Total wall time for all problems, in seconds [default: 5 per problem].
    #[arg(short = 't', long = "time", value_name = "SECONDS", value_parser = positive_seconds, allow_negative_numbers = true)]
    time: Option<f64>,
    /// The total wall time in milliseconds instead (the other games' flag).
    #[arg(long, value_name = "MS", value_parser = crate::common::at_least_one, conflicts_with = "time", allow_negative_numbers = true)]
    budget_ms: Option<u64>,
    /// Memory limit in megabytes (not checked: the solver takes at most about 150 MB a thread)
    #[arg(short = 'm', long = "memory", value_name = "MB", allow_negative_numbers = true)]
    memory: Option<u64>,
    #[command(flatten)]
    cores: CoresArg,
    #[command(flatten)]
    phrases: PhraseArgs,
    /// The widest beam to try (the search widens while time is left).
    #[arg(long, value_name = "W", default_value_t = 1 << 16, value_parser = clap::value_parser!(u64).range(1..=1 << 20), allow_negative_numbers = true)]
    max_width: u64,
    /// The tag written into each solution, followed by the game's score.
    #[arg(long, value_name = "TAG", default_value = "tessera")]
    tag: String,
    /// Say nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// `tessera hextris score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The problem file (or a built-in problem's number).
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    file: String,
    /// The solutions: a JSON list of `{problemId, seed, tag, solution}` (`-`: stdin).
    #[arg(value_name = "SOLUTIONS")]
    solutions: PathBuf,
    #[command(flatten)]
    phrases: PhraseArgs,
    /// Print the scorecards as JSON.
    #[arg(long)]
    json: bool,
}

/// `--shard` of `hextris eval`, whose jobs are the problems.
const SHARD_HELP: &str = "Run only shard I of N (1-based): the problems whose place, in order of id, is I-1 modulo N";

/// `--html` of `hextris eval`.
const HTML_HELP: &str = "Also write a self-contained HTML report (scores against the final round's best, \
                         phrases used, replays of a few seeds) to OUT";

/// `tessera hextris eval`: its jobs are the problems, one after the other, each on all cores.
#[derive(Debug, Args)]
// The solver draws no random numbers, so there is no `--seed` for `--merge` to refuse.
#[command(
    mut_arg("merge", |a| a.conflicts_with(clap::builder::Resettable::<clap::Id>::Reset)),
    mut_arg("shard", |a| a.help(SHARD_HELP)),
    mut_arg("html", |a| a.help(HTML_HELP))
)]
pub struct EvalArgs {
    /// A directory of problem files (`*.json`) [default: the 25 qualifying problems, built in].
    #[arg(long, value_name = "DIR", conflicts_with = "files")]
    problems: Option<PathBuf>,
    /// Problem files or built-in problem numbers instead (repeatable).
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    files: Vec<String>,
    /// Seconds per problem (wall time, all cores) [default: 10].
    #[arg(short = 't', long = "time", value_name = "SECONDS", value_parser = positive_seconds, allow_negative_numbers = true)]
    time: Option<f64>,
    /// The time per problem in milliseconds instead (the other games' flag).
    #[arg(long, value_name = "MS", value_parser = crate::common::at_least_one, conflicts_with = "time", allow_negative_numbers = true)]
    budget_ms: Option<u64>,
    #[command(flatten)]
    cores: CoresArg,
    #[command(flatten)]
    phrases: PhraseArgs,
    #[command(flatten)]
    shard: ShardArgs,
    /// Also write all solutions as one JSON list (the contest's format) to FILE (with
    /// `--merge` too: the records hold every seed's solution).
    #[arg(long, value_name = "FILE")]
    solutions: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// `tessera hextris tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Problem files or built-in problem numbers [default: the 25 qualifying problems].
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    files: Vec<String>,
    /// Training games per problem (random seeds, never the problem's own).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1000), allow_negative_numbers = true)]
    seeds: u64,
    /// Generations of the cross-entropy method per problem.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=100_000), allow_negative_numbers = true)]
    iterations: u64,
    /// Sets of weights drawn per generation.
    #[arg(long, value_name = "N", default_value_t = 12, value_parser = clap::value_parser!(u64).range(2..=10_000), allow_negative_numbers = true)]
    population: u64,
    /// Sets of weights to keep in the portfolio.
    #[arg(long, value_name = "K", default_value_t = 6, value_parser = clap::value_parser!(u64).range(1..=64), allow_negative_numbers = true)]
    keep: u64,
    #[command(flatten)]
    cores: CoresArg,
    #[command(flatten)]
    seed: crate::common::SeedArg,
    /// Also consider the sets of an earlier portfolio (JSON, as this command writes) and keep
    /// those that still earn their place.
    #[arg(long, value_name = "FILE")]
    with: Option<PathBuf>,
    /// Keep every set of the `--with` portfolio, and pick `--keep` new sets beside them.
    #[arg(long, requires = "with")]
    keep_earlier: bool,
    /// Write the portfolio (JSON) to FILE instead of stdout, whole or not at all (Ctrl-C leaves
    /// FILE as it was); the solver's shipped weights are `crates/hextris/data/weights.json`.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `tessera hextris show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The problem file (or a built-in problem's number).
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    file: String,
    /// The seed [default: the problem's first].
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    seed: Option<u32>,
    /// The solution: a file of commands, or a JSON list of solutions (the entry for this problem
    /// and seed is taken), `-` for stdin [default: none, the starting board].
    #[arg(value_name = "SOLUTION")]
    solution: Option<PathBuf>,
    #[command(flatten)]
    phrases: PhraseArgs,
    /// Also draw the board as SVG into OUT.
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
}

/// `tessera hextris stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Problem files [default: the 25 qualifying problems, built in].
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    files: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `tessera hextris gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    #[command(flatten)]
    seed: crate::common::SeedArg,
    /// Problems to make: ids 1000, 1001, ... (the official ones are 0..=24).
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=100_000), allow_negative_numbers = true)]
    count: u64,
    /// How many of them are small puzzles (the last K ids); the others are contest-like
    /// [default: a fifth of N, 10 of the default 50].
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    small: Option<u64>,
    /// The folder to write `problem_<id>.json` into (made if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Overwrite problem files that are already there.
    #[arg(long)]
    force: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Reads `-t SECONDS`: a positive number (clap's message names the value: this one does not
/// again). A time too long for the clock to hold is no limit in practice.
fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        Ok(t) if t == f64::INFINITY => Err(format!("too large (at most {:e} seconds)", f64::MAX)),
        _ => Err("not a positive number of seconds".into()),
    }
}

/// Reads a problem from a file, or a built-in one by number.
fn load_problem(name: &str) -> Result<Problem> {
    let path = Path::new(name);
    if !path.exists()
        && let Some(p) = builtin::by_name(name)
    {
        return Ok(p);
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {name} (neither a file nor a built-in problem: 0..=24 or problem_N)"))?;
    Problem::parse(&text).with_context(|| format!("bad problem in {name}"))
}

/// Runs a `tessera hextris` command.
pub fn run(cmd: HextrisCommand) -> Result<ExitCode> {
    match cmd {
        HextrisCommand::Solve(args) => solve_cmd(&args),
        HextrisCommand::Score(args) => score_cmd(&args),
        HextrisCommand::Eval(args) => eval_cmd(&args),
        HextrisCommand::Show(args) => show_cmd(&args),
        HextrisCommand::Stats(args) => stats_cmd(&args),
        HextrisCommand::Tune(args) => tune_cmd(&args),
        HextrisCommand::Play(args) => play::play_cmd(&args),
        HextrisCommand::Gen(args) => gen_cmd(&args),
    }
}

fn solve_cmd(args: &SolveArgs) -> Result<ExitCode> {
    let problems: Vec<Problem> = args.files.iter().map(|f| load_problem(f)).collect::<Result<_>>()?;
    let phrases = args.phrases.to_play(args.quiet)?;
    let threads = args.cores.get();
    let total = seconds_of(args.time, args.budget_ms).unwrap_or(5.0 * problems.len() as f64);
    let _ = args.memory; // the exact search of short games takes at most ~130 MB a thread
    let started = Instant::now();
    // Time is shared by the work each problem holds: seeds times units.
    let work: Vec<f64> = problems.iter().map(|p| (p.source_seeds.len() * p.source_length.max(1)) as f64).collect();
    let settings = Settings { phrases, max_width: args.max_width as usize, ..Settings::default() };
    let mut out = Vec::new();
    for (i, p) in problems.iter().enumerate() {
        // What is left, less a margin for finishing and writing the answer, shared by the
        // problems left.
        let left = (working_seconds(total) - started.elapsed().as_secs_f64()).max(0.0);
        let share = left * work[i] / work[i..].iter().sum::<f64>();
        let budget = Budget::unlimited().with_time(duration_from_secs(share));
        let games = solve(p, &settings, &budget, threads, |r| {
            if !args.quiet {
                eprintln!("problem {}: {}", p.id, round(r));
            }
        })
        .with_context(|| format!("problem {}", p.id))?;
        if !args.quiet {
            eprintln!(
                "problem {}: score {} over {}",
                p.id,
                problem_score(&games),
                plural(games.len() as u64, "seed", "seeds")
            );
        }
        out.extend(games.into_iter().map(|g| submission(p, g, &args.tag)));
        if interrupted() {
            // The games of the problem cut short are written (the best found by then); the
            // problems after it are not solved.
            let stopped =
                Stopped { reason: StopReason::Interrupted, done: i, of: problems.len(), cut_short: Some(p.id) };
            emit(&format!("{}\n", serde_json::to_string(&out)?))?;
            eprintln!("note: {stopped}: the solutions written are partial");
            return Ok(ExitCode::from(STOPPED_EARLY));
        }
    }
    emit(&format!("{}\n", serde_json::to_string(&out)?))?;
    Ok(ExitCode::SUCCESS)
}

/// What a round of the solver did, for the progress lines.
fn round(r: &tessera_hextris::solver::Round) -> String {
    match r.phase {
        Phase::Widen => format!(
            "width {:>5}, score {} ({} improved, {:.1} s)",
            r.width,
            r.score,
            plural(r.improved as u64, "seed", "seeds"),
            r.seconds
        ),
        Phase::Rework => format!(
            "games reworked, score {} (improved {}, {:.1} s)",
            r.score,
            plural(r.improved as u64, "time", "times"),
            r.seconds
        ),
        Phase::Graft => format!("missing phrases grafted, score {} ({:.1} s)", r.score, r.seconds),
        Phase::Exact if r.proven == r.seeds => {
            format!("every text searched, score {} proven optimal ({:.1} s)", r.score, r.seconds)
        }
        Phase::Exact => format!(
            "every text searched so far, score {} (optimal proven on {} of {}, {:.1} s)",
            r.score, r.proven, r.seeds, r.seconds
        ),
        Phase::Cells => {
            format!("single cells, every lock spelled: width {:>5}, score {} ({:.1} s)", r.width, r.score, r.seconds)
        }
    }
}

fn submission(p: &Problem, g: Game, tag: &str) -> Submission {
    Submission { problem_id: p.id, seed: g.seed, tag: format!("{tag} {}", g.scorecard.score), solution: g.text }
}

/// The seed asked for (default: the problem's first), if the problem has it.
fn seed_of(p: &Problem, seed: Option<u32>) -> Result<u32> {
    let seed = seed.unwrap_or(p.source_seeds[0]);
    if !p.has_seed(seed) {
        let listed: Vec<String> = p.source_seeds.iter().take(8).map(u32::to_string).collect();
        let n = p.source_seeds.len();
        let more = if n > 8 { format!(", ... {n} in all") } else { String::new() };
        return Err(crate::common::usage(format!(
            "seed {seed} is not a seed of problem {} (its seeds: {}{more})",
            p.id,
            listed.join(", ")
        )));
    }
    Ok(seed)
}

/// Reads a file, `-` meaning stdin (waiting on it, Ctrl-C quits at once).
fn read_input(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        quit_on_interrupt(|| std::io::read_to_string(std::io::stdin())).context("cannot read stdin")
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    }
}

/// Reads a solutions file (`-`: stdin).
fn read_solutions(path: &Path) -> Result<Vec<Submission>> {
    serde_json::from_str(&read_input(path)?)
        .with_context(|| format!("{}: not a JSON list of solutions", path.display()))
}

/// Writes a report as one line of JSON, its keys sorted (through a JSON value, which sorts
/// them): the order these reports have always been written in.
fn emit_report(report: &impl Serialize) -> Result<()> {
    emit_json(&serde_json::to_value(report)?)
}

fn score_cmd(args: &ScoreArgs) -> Result<ExitCode> {
    let p = load_problem(&args.file)?;
    let phrases = args.phrases.get()?;
    let report = ScoreReport::judge(&p, &read_solutions(&args.solutions)?, &phrases);
    if args.json {
        emit_report(&report)?;
    } else {
        let mut text = String::new();
        for x in &report.seeds {
            let v = &x.scorecard;
            text += &format!(
                "seed {:>5}: score {:>6} = move {} + power {} ({} locked, {} lines, {} phrases); {}\n",
                x.seed,
                v.score,
                v.move_score,
                v.power_score,
                v.locked,
                v.lines_cleared,
                v.phrases.len(),
                ending(v)?
            );
        }
        text += &format!(
            "problem {}: score {} ({}, {} without a solution)\n",
            p.id,
            report.score,
            plural(p.source_seeds.len() as u64, "seed", "seeds"),
            report.missing_seeds
        );
        if report.other_problems > 0 {
            let others = plural(report.other_problems as u64, "solution", "solutions");
            text += &format!("({others} for other problems ignored)\n");
        }
        emit(&text)?;
    }
    let errors = report.seeds.iter().any(|x| x.scorecard.error.is_some());
    Ok(if errors { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn stats_cmd(args: &StatsArgs) -> Result<ExitCode> {
    let problems: Vec<Problem> = if args.files.is_empty() {
        (0..builtin::COUNT).filter_map(builtin::problem).collect()
    } else {
        args.files.iter().map(|f| load_problem(f)).collect::<Result<_>>()?
    };
    let rows: Vec<ProblemStats> = problems.iter().map(ProblemStats::of).collect();
    if args.json {
        emit_report(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::from("problem  size     filled  units (cells)  source  seeds\n");
    for r in &rows {
        text += &format!(
            "{:>7}  {:<7}  {:>6}  {:>5} ({:>2}-{:<2})  {:>6}  {:>5}\n",
            r.problem,
            format!("{}x{}", r.width, r.height),
            r.filled,
            r.units,
            r.unit_sizes[0],
            r.unit_sizes[1],
            r.source_length,
            r.seeds
        );
    }
    emit(&text)?;
    if problems.iter().any(|p| p.width > tessera_hextris::engine::MAX_WIDTH) {
        bail!("some problems are wider than the solver's {} columns", tessera_hextris::engine::MAX_WIDTH);
    }
    Ok(ExitCode::SUCCESS)
}

fn gen_cmd(args: &GenArgs) -> Result<ExitCode> {
    use tessera_hextris::r#gen::{FIRST_ID, GenSummary, file_name, set};
    let small = args.small.unwrap_or(args.count / 5);
    if small > args.count {
        return Err(crate::common::usage(format!(
            "--small {small} is more than --count {}: the small problems are among the others",
            args.count
        )));
    }
    // Files already there are found before anything is made or said.
    let paths: Vec<PathBuf> = (0..args.count as i64).map(|i| args.out.join(file_name(FIRST_ID + i))).collect();
    if !args.force
        && let Some(there) = paths.iter().find(|p| p.exists())
    {
        bail!("{} is already there (--force overwrites it)", there.display());
    }
    let seed = args.seed.get();
    let problems = set(seed, args.count as usize, small as usize)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot make the folder {}", args.out.display()))?;
    for (g, path) in problems.iter().zip(&paths) {
        write_file(path, &format!("{}\n", serde_json::to_string(&g.problem)?))?;
    }
    let summary = GenSummary::new(seed, args.out.display().to_string(), &problems);
    if args.json {
        emit_json(&summary)?;
    } else {
        emit(&gen_table(&summary))?;
        eprintln!("wrote {} to {}", plural(problems.len() as u64, "problem", "problems"), args.out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The lines of `hextris gen`: one per problem.
fn gen_table(summary: &tessera_hextris::r#gen::GenSummary) -> String {
    let mut text = String::from("problem  kind     size     filled  units (cells)  source  seeds\n");
    for r in &summary.problems {
        let s = &r.stats;
        text += &format!(
            "{:>7}  {:<7}  {:<7}  {:>6}  {:>5} ({:>2}-{:<2})  {:>6}  {:>5}\n",
            s.problem,
            r.kind.to_string(),
            format!("{}x{}", s.width, s.height),
            s.filled,
            s.units,
            s.unit_sizes[0],
            s.unit_sizes[1],
            s.source_length,
            s.seeds
        );
    }
    text
}

/// The problems of `--problems DIR`, `-f`, or the built-in ones, by id.
fn eval_problems(args: &EvalArgs) -> Result<Vec<Problem>> {
    let mut problems: Vec<Problem> = if let Some(dir) = &args.problems {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        if paths.is_empty() {
            bail!("no problem files (*.json) in {}", dir.display());
        }
        paths.iter().map(|p| load_problem(&p.to_string_lossy())).collect::<Result<_>>()?
    } else if !args.files.is_empty() {
        args.files.iter().map(|f| load_problem(f)).collect::<Result<_>>()?
    } else {
        (0..builtin::COUNT).filter_map(builtin::problem).collect()
    };
    problems.sort_by_key(|p| p.id);
    Ok(problems)
}

fn eval_cmd(args: &EvalArgs) -> Result<ExitCode> {
    // Every output path, before the header line and the first problem.
    if let Some(path) = &args.solutions {
        check_writable(path)?;
    }
    for path in [&args.shard.jsonl, &args.shard.html].into_iter().flatten().filter(|p| *p != "-") {
        crate::common::check_writable(Path::new(path))?;
    }
    let run = |jobs: &Jobs<'_>| {
        let problems = eval_problems(args)?;
        for p in &problems {
            // Found out now rather than after the problems before it.
            tessera_hextris::engine::Rules::new(p).with_context(|| format!("problem {}", p.id))?;
        }
        let settings = Settings { phrases: args.phrases.to_play(false)?, ..Settings::default() };
        let info = RunInfo {
            seconds_per_problem: seconds_of(args.time, args.budget_ms).unwrap_or(10.0),
            cores: args.cores.get(),
            problems: (0..problems.len() as u64).filter(|&j| args.shard.shard.holds(j)).count(),
            interrupted: false,
        };
        let phrases = tessera_hextris::eval::phrases_text(settings.phrases.names());
        eprintln!("{}; phrases of power: {phrases}", eval_header(&info, problems.len(), &args.shard));
        let done = AtomicUsize::new(0);
        let records = jobs.run_keeping_cut_short(problems.len() as u64, 0, 1, |j, _| {
            let x = evaluate(&problems[j as usize], &settings, info.seconds_per_problem, info.cores);
            eval_progress(&x, done.fetch_add(1, Ordering::Relaxed) + 1, info.problems);
            x
        })?;
        Ok((records, RunInfo { interrupted: interrupted(), ..info }))
    };
    let summarise = |lines: &[Record<EvalRecord>], info: Option<RunInfo>| {
        let records: Vec<EvalRecord> = lines.iter().map(|r| r.result.clone()).collect();
        let mut summary = EvalSummary::new(&records, info)?;
        // Merged records: each says how many problems the whole run had.
        if let (None, Some(s), Some(line)) = (info, summary.stopped.as_mut(), lines.first()) {
            s.of = s.of.max(line.of as usize);
        }
        if let Some(path) = &args.solutions {
            write_file(path, &serde_json::to_string(&eval_solutions(&records))?)?;
        }
        Ok(summary)
    };
    crate::common::eval(&args.shard, "hextris eval", args.json, run, summarise)
}

impl Summary for EvalSummary {
    fn failed(&self) -> bool {
        self.has_errors()
    }

    fn stopped(&self) -> Option<String> {
        self.stopped.as_ref().map(ToString::to_string)
    }
}

/// How a scored game ended, as the scorecard's line says it: its end state (`source-exhausted`,
/// ...), or the evaluator's error.
fn ending(v: &tessera_hextris::judge::Scorecard) -> Result<String> {
    Ok(match v.error {
        Some(_) => format!("error: {}", v.evaluator_error),
        None => serde_json::to_value(v.end_state)?.as_str().unwrap_or("").to_string(),
    })
}

/// The first line on stderr: what the run (or this shard of it) is to do.
fn eval_header(info: &RunInfo, all: usize, shard: &ShardArgs) -> String {
    let problems = if shard.shard.count > 1 {
        format!("{} of {all} problems (shard {})", info.problems, shard.shard)
    } else {
        plural(all as u64, "problem", "problems")
    };
    let cores = plural(info.cores as u64, "core", "cores");
    format!("hextris eval: {problems}, {} s each, {cores}", seconds_text(info.seconds_per_problem))
}

/// A line on stderr as each problem is done (the table comes at the end, on stdout).
fn eval_progress(x: &EvalRecord, done: usize, of: usize) {
    let r = &x.result;
    let what = match (&x.error, x.stopped) {
        (Some(e), _) => format!("error: {e}"),
        (None, stopped) => {
            let best = r.final_best.map_or(String::new(), |b| {
                format!(", final best {b} {}", if r.score > b { "beaten" } else { "not yet beaten" })
            });
            let cut = if stopped { ", cut short by Ctrl-C" } else { "" };
            format!(
                "score {} over {} in {:.1} s{best}{cut}",
                r.score,
                plural(r.seeds.len() as u64, "seed", "seeds"),
                r.seconds
            )
        }
    };
    crate::progress::line(&format!("[{done}/{of}] problem {}: {what}", r.problem));
}

/// Every seed's solution of an evaluation, in the contest's format.
fn eval_solutions(records: &[EvalRecord]) -> Vec<Submission> {
    records
        .iter()
        .flat_map(|x| {
            x.result.seeds.iter().map(|s| Submission {
                problem_id: x.result.problem,
                seed: s.seed,
                tag: format!("tessera {}", s.score),
                solution: s.solution.clone(),
            })
        })
        .collect()
}

fn tune_cmd(args: &TuneArgs) -> Result<ExitCode> {
    use tessera_hextris::solver::tune::{Options, Tuning, tune};
    if let Some(path) = &args.out {
        check_writable(path)?;
    }
    let problems: Vec<Problem> = if args.files.is_empty() {
        (0..builtin::COUNT).filter_map(builtin::problem).collect()
    } else {
        args.files.iter().map(|f| load_problem(f)).collect::<Result<_>>()?
    };
    // Bad input is refused before anything else (the seed is printed when drawn).
    let with = match &args.with {
        Some(path) => {
            let text = read_input(path)?;
            let p: tessera_hextris::solver::Portfolio = serde_json::from_str(&text)
                .with_context(|| format!("{}: not a portfolio of weights", path.display()))?;
            p.weights
        }
        None => Vec::new(),
    };
    let opts = Options {
        seeds: args.seeds as usize,
        iterations: args.iterations as usize,
        population: args.population as usize,
        keep: args.keep as usize,
        threads: args.cores.get(),
        seed: args.seed.get(),
        with,
        keep_earlier: args.keep_earlier,
        with_name: args.with.as_ref().map(|p| p.display().to_string()),
    };
    let start = tessera_hextris::solver::Weights::tuned();
    let portfolio = match tune(&problems, &start, &opts, |line| eprintln!("{line}"))? {
        Tuning::Done(portfolio) => portfolio,
        Tuning::Stopped { done, of } => {
            let kept = args.out.as_ref().map_or(String::new(), |p| format!(" ({} left as it was)", p.display()));
            let tuned = plural(of as u64, "problem", "problems");
            eprintln!("note: stopped by Ctrl-C after tuning {done} of {tuned}: no portfolio written{kept}");
            return Ok(ExitCode::from(STOPPED_EARLY));
        }
    };
    let text = format!("{}\n", serde_json::to_string_pretty(&portfolio)?);
    match &args.out {
        Some(path) => write_file(path, &text)?,
        None => emit(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn show_cmd(args: &ShowArgs) -> Result<ExitCode> {
    use tessera_hextris::judge::{picture, replay};
    if let Some(out) = &args.svg {
        check_writable(out)?;
    }
    let p = load_problem(&args.file)?;
    let phrases = args.phrases.get()?;
    let seed = seed_of(&p, args.seed)?;
    let text = match &args.solution {
        None => String::new(),
        Some(path) => {
            let raw = read_input(path)?;
            if raw.trim_start().starts_with('[') {
                let list: Vec<Submission> = serde_json::from_str(&raw)
                    .with_context(|| format!("{}: not a JSON list of solutions", path.display()))?;
                list.into_iter()
                    .rev()
                    .find(|s| s.problem_id == p.id && s.seed == seed)
                    .with_context(|| format!("{} has no solution for problem {} seed {seed}", path.display(), p.id))?
                    .solution
            } else {
                raw.trim_end_matches(['\n', '\r']).to_string()
            }
        }
    };
    let v = score(&p, seed, &text, &phrases);
    let game = replay(&p, seed, &text);
    let state = ending(&v)?;
    let head = format!(
        "problem {} seed {seed}: score {} = move {} + power {} ({} locked, {} lines, {} phrases); {state}\n",
        p.id,
        v.score,
        v.move_score,
        v.power_score,
        v.locked,
        v.lines_cleared,
        v.phrases.len()
    );
    emit(&(head + &picture(&game)))?;
    if let Some(out) = &args.svg {
        let cells = tessera_hextris::judge::labels(&game);
        let title = format!("hextris problem {} seed {seed}: score {}", p.id, v.score);
        let svg = tessera_game::svg::board_svg(tessera_core::geometry::Lattice::Hex, &cells, &title);
        write_file(out, &svg)?;
    }
    Ok(if v.error.is_some() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
