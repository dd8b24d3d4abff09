//! `tessera totems ...`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use tessera_core::geometry::Lattice;
use tessera_core::runtime::{Budget, Outcome, StopReason};
use tessera_game::eval::Record;
use tessera_game::svg::pieces_svg;
use tessera_totems::bag::MAX_PIECES;
use tessera_totems::eval::{Bags, EvalConfig, EvalSummary, JobResult, run_job, summarise};
use tessera_totems::format::{RoundReport, SolveReport};
use tessera_totems::game::{LEVELS, PERFECT_ROUND, RoundConfig, play_round};
use tessera_totems::solve::hybrid::solve;
use tessera_totems::solve::{Ctx, Solver};
use tessera_totems::validate::validate;
use tessera_totems::{Bag, PieceSet};

use crate::common::{
    Jobs, SeedArg, ShardArgs, Summary, ThreadsArg, at_least_one, emit, emit_json_sorted, quit_on_interrupt,
    stopped_early, write_file,
};

/// `tessera totems`.
#[derive(Debug, Subcommand)]
pub enum TotemsCommand {
    /// Pack one bag: the best box found within the budget, drawn with y up.
    Solve(SolveArgs),
    /// Solve many bags (a level's, n random pieces, or a file's); report the optimal rate.
    Eval(EvalArgs),
    /// Play a full 10-level round against the built-in game.
    Round(RoundArgs),
    /// Run a local game server speaking the game's WebSocket protocol.
    Serve(ServeArgs),
    /// Play against a game server (the access token comes from the TOKEN variable).
    Play(PlayArgs),
}

/// Options every solving command shares.
#[derive(Debug, Clone, Args)]
pub struct SolveOpts {
    /// Time per bag in milliseconds: running out of it is how a search normally ends, with the
    /// best packing found (exit status 0).
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = at_least_one, allow_negative_numbers = true)]
    budget_ms: u64,
    /// Solver.
    #[arg(long, value_enum, default_value_t = Solver::Hybrid)]
    solver: Solver,
    #[command(flatten)]
    threads: ThreadsArg,
}

impl SolveOpts {
    /// The solver asked for.
    fn solver(&self) -> Solver {
        self.solver
    }
}

/// `--seed` of `totems solve`: what a run repeats, and what it does not.
const SOLVE_SEED_HELP: &str = "Seed of the solvers' random choices [default: drawn from the clock, and printed]";

/// The long form of [`SOLVE_SEED_HELP`].
const SOLVE_SEED_LONG_HELP: &str = "Seed of the solvers' random choices [default: drawn from the clock, and printed].

On one thread (-j 1) a seed gives the same packing every time, as long as no part of the search \
runs out of its share of the time: a box's slice of the budget, or a strip's slice of its box's \
(the clock then decides where that part gave up). With more threads, the first worker to pack a \
box wins, which timing decides: the same seed may give another packing of the same or a \
different box.";

/// `tessera totems solve`.
#[derive(Debug, Args)]
#[command(mut_arg("seed", |a| a.help(SOLVE_SEED_HELP).long_help(SOLVE_SEED_LONG_HELP)))]
pub struct SolveArgs {
    /// The bag: a file (`-`: stdin) holding letters (IJLOSTZ...) or the game's question JSON, or
    /// the letters themselves.
    bag: String,
    /// Piece set of the letters.
    #[arg(long, value_enum, default_value_t = PieceSet::Tetrominoes)]
    pieces: PieceSet,
    #[command(flatten)]
    opts: SolveOpts,
    #[command(flatten)]
    seed: SeedArg,
    /// Print the game's actions object, the box and the score as JSON.
    #[arg(long)]
    json: bool,
    /// Write a picture of the packing.
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
}

/// `tessera totems eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Bags of this level (1 to 10: 1, 2, 4, ..., 512 pieces).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10), group = "source", allow_negative_numbers = true)]
    level: Option<u32>,
    /// Bags of this many random pieces (at most 4096, the most a bag holds, as for `solve`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_PIECES), group = "source", allow_negative_numbers = true)]
    n: Option<u64>,
    /// Bags read from a file, one per line as letters.
    #[arg(long, value_name = "FILE", group = "source")]
    bags: Option<PathBuf>,
    /// Piece set for --n.
    #[arg(long, value_enum, default_value_t = PieceSet::Tetrominoes)]
    pieces: PieceSet,
    /// Number of bags, the run's jobs [default: 100; with --bags, the file's bags once each].
    #[arg(long = "runs", visible_alias = "rounds", value_name = "N", value_parser = at_least_one, allow_negative_numbers = true)]
    rounds: Option<u64>,
    #[command(flatten)]
    opts: SolveOpts,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    shard: ShardArgs,
}

/// `tessera totems round`.
#[derive(Debug, Args)]
pub struct RoundArgs {
    #[command(flatten)]
    seed: SeedArg,
    /// Play rounds until one scores the perfect 6027.5 (each round stops at its first miss).
    #[arg(long)]
    until_perfect: bool,
    /// With --until-perfect: give up after this many rounds.
    #[arg(long, value_name = "M", default_value_t = 10_000, value_parser = at_least_one, requires = "until_perfect", allow_negative_numbers = true)]
    max_rounds: u64,
    #[command(flatten)]
    opts: SolveOpts,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
}

/// `tessera totems serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8765")]
    addr: String,
    /// Stop after this many games [default: serve forever].
    #[arg(long, value_parser = at_least_one, allow_negative_numbers = true)]
    games: Option<u64>,
    #[command(flatten)]
    seed: SeedArg,
}

/// `tessera totems play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The server's address.
    #[arg(long, default_value = "ws://127.0.0.1:8765")]
    server: String,
    /// Time the bot gives itself per level, in milliseconds (under the game's second).
    #[arg(long, value_name = "MS", default_value_t = 900, value_parser = at_least_one, allow_negative_numbers = true)]
    budget_ms: u64,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// Runs a `tessera totems` command.
pub fn run(cmd: TotemsCommand) -> Result<ExitCode> {
    match cmd {
        TotemsCommand::Solve(args) => solve_cmd(&args),
        TotemsCommand::Eval(args) => eval(&args),
        TotemsCommand::Round(args) => round(&args),
        TotemsCommand::Serve(args) => {
            let seed = args.seed.get();
            // It waits for clients and their answers: Ctrl-C ends it at once.
            quit_on_interrupt(|| tessera_totems::net::serve(&args.addr, args.games, seed, &mut |l| eprintln!("{l}")))?;
            Ok(ExitCode::SUCCESS)
        }
        TotemsCommand::Play(args) => play(&args),
    }
}

/// `tessera totems play`: the bot's answers on stderr as it sends them, its count of the game
/// on stdout once the server ends it.
fn play(args: &PlayArgs) -> Result<ExitCode> {
    let token = std::env::var("TOKEN").unwrap_or_default();
    if token.is_empty() {
        eprintln!("warning: no access token (the TOKEN variable is unset or empty): the server may refuse the game");
    }
    let budget = Duration::from_millis(args.budget_ms);
    // The server paces the game: Ctrl-C ends it at once, a game cut short has nothing to report.
    let played = quit_on_interrupt(|| {
        tessera_totems::net::play(&args.server, &token, budget, args.threads.get(), &mut |l| eprintln!("{l}"))
    })?;
    emit(&format!(
        "the server ended the game after {} levels: score {} by the bot's count\n",
        played.answered.len(),
        played.score()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Reads the bag argument: a file, stdin (waiting on it, Ctrl-C quits at once), or the letters
/// themselves.
fn read_bag(arg: &str, set: PieceSet) -> Result<Bag> {
    let text = if arg == "-" {
        quit_on_interrupt(|| std::io::read_to_string(std::io::stdin())).context("cannot read stdin")?
    } else if std::path::Path::new(arg).is_file() {
        std::fs::read_to_string(arg).with_context(|| format!("cannot read {arg}"))?
    } else if std::path::Path::new(arg).is_dir() {
        anyhow::bail!("cannot read {}: it is a directory", cut(arg));
    } else if arg.contains(['/', '\\', '.']) {
        let arg = cut(arg);
        anyhow::bail!("{arg}: no such file (a bag is a file, `-` for stdin, or letters such as IJLOSTZ)");
    } else {
        arg.to_string()
    };
    Bag::parse(set, &text).with_context(|| format!("{}: not a bag", cut(arg)))
}

/// Most characters of an argument that a message quotes.
const QUOTED: usize = 40;

/// An argument as a message quotes it: whole if short, else its first [`QUOTED`] characters and
/// its length (a bag of letters may be thousands long). Control characters are escaped.
fn cut(arg: &str) -> String {
    let n = arg.chars().count();
    let head: String = arg.chars().take(QUOTED).collect();
    let head = if head.chars().any(char::is_control) { format!("{head:?}") } else { head };
    if n <= QUOTED { head } else { format!("{head}... ({n} characters)") }
}

fn solve_cmd(args: &SolveArgs) -> Result<ExitCode> {
    let bag = read_bag(&args.bag, args.pieces)?;
    if let Some(path) = &args.svg {
        crate::common::check_writable(path)?;
    }
    let budget = Budget::unlimited().with_time(Duration::from_millis(args.opts.budget_ms));
    let start = std::time::Instant::now();
    let seed = args.seed.get();
    let solved = solve(&bag, args.opts.solver(), &Ctx { threads: args.opts.threads.get(), seed, budget: &budget });
    let seconds = start.elapsed().as_secs_f64();
    // An optimal packing is the whole answer, however the search ended.
    let stopped = cut_short().filter(|_| !solved.optimal());
    // The judge's check, as in every test and eval: a solver bug must not pass for an answer.
    let checked = validate(&bag, &solved.answer).context("the solver's answer is invalid (a bug)")?;
    if args.json {
        emit_json_sorted(&SolveReport { stopped, ..SolveReport::new(&bag, &solved, &checked, seconds) })?;
    } else {
        let verdict = if solved.optimal() {
            "optimal".to_string()
        } else if solved.best_box_impossible {
            format!("best box {}x{} proven impossible", solved.best_box.0, solved.best_box.1)
        } else {
            format!("best box {}x{} not reached", solved.best_box.0, solved.best_box.1)
        };
        let head = format!(
            "{} pieces ({bag}) in {}x{}: score {} ({verdict})",
            bag.len(),
            checked.width,
            checked.height,
            checked.score
        );
        emit(&format!("{head}\n{}time: {:.1} ms\n", solved.answer.draw(bag.set), seconds * 1000.0))?;
    }
    if let Some(path) = &args.svg {
        let title = format!("{} pieces, {}x{}, score {}", bag.len(), checked.width, checked.height, checked.score);
        let (cells, pieces) = (solved.answer.picture_cells(bag.set), solved.answer.picture_pieces());
        write_file(path, &pieces_svg(Lattice::Square, &cells, &pieces, &title))?;
    }
    Ok(match stopped {
        Some(why) => stopped_early(Outcome::Stopped(why)),
        None => ExitCode::SUCCESS,
    })
}

fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let run = |jobs: &Jobs<'_>| {
        let (bags, default_jobs) = eval_bags(args)?;
        let cfg = EvalConfig {
            bags,
            budget: Duration::from_millis(args.opts.budget_ms),
            threads: args.opts.threads.get(),
            solver: args.opts.solver(),
        };
        // Bags one after the other, each with all the solver's threads: honest wall-clock times.
        let jobs_run = args.rounds.unwrap_or(default_jobs);
        let records = jobs.run(jobs_run, args.seed.get(), 1, |j, seed| run_job(&cfg, j, seed))?;
        Ok((records, ()))
    };
    crate::common::eval(&args.shard, "totems eval", args.json, run, |records: &[Record<JobResult>], _| {
        Ok(summarise(records))
    })
}

/// The bags of `eval` and how many jobs to run by default: 100 of a level's or of a size's, or a
/// file's bags once each.
fn eval_bags(args: &EvalArgs) -> Result<(Bags, u64)> {
    match (args.level, args.n, &args.bags) {
        (Some(l), _, _) => Ok((Bags::Level(l), 100)),
        (_, Some(n), _) => Ok((Bags::Size(args.pieces, n), 100)),
        (_, _, Some(path)) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            let mut list = Vec::new();
            for (k, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                list.push(
                    Bag::from_letters(args.pieces, line).with_context(|| format!("{}:{}", path.display(), k + 1))?,
                );
            }
            if list.is_empty() {
                bail!("{}: no bags", path.display());
            }
            let n = list.len() as u64;
            Ok((Bags::List(list), n))
        }
        _ => Err(crate::common::usage("say which bags: --level L, --n N or --bags FILE")),
    }
}

impl Summary for EvalSummary {
    fn failed(&self) -> bool {
        self.invalid > 0
    }
}

fn round(args: &RoundArgs) -> Result<ExitCode> {
    let cfg = RoundConfig {
        budget: Duration::from_millis(args.opts.budget_ms),
        threads: args.opts.threads.get(),
        solver: args.opts.solver(),
    };
    let seed = args.seed.get();
    if args.until_perfect { until_perfect(args, &cfg, seed) } else { one_round(args, &cfg, seed) }
}

/// Why a search was cut short, if it was: only a Ctrl-C cuts one short (running out of budget is
/// how a totems search ends).
fn cut_short() -> Option<StopReason> {
    tessera_core::runtime::interrupted().then_some(StopReason::Interrupted)
}

/// `round`: one round, level by level; a Ctrl-C ends it after the level it stopped, said so.
fn one_round(args: &RoundArgs, cfg: &RoundConfig, seed: u64) -> Result<ExitCode> {
    let levels = play_round(seed, cfg, false);
    let round = RoundReport { stopped: cut_short(), ..RoundReport::new(seed, levels) };
    if args.json {
        emit_json_sorted(&round)?;
    } else {
        for l in &round.levels {
            let mark = if l.score >= l.best_score {
                "optimal"
            } else if l.best_box_impossible {
                "best box impossible"
            } else {
                ""
            };
            emit(&format!(
                "level {:>2}: {:>3} pieces in {:>2}x{:<2} score {:>7} of {:>7}  {:>6.1} ms  {mark}\n",
                l.level,
                l.bag.len(),
                l.dims.0,
                l.dims.1,
                l.score,
                l.best_score,
                l.seconds * 1000.0
            ))?;
        }
        match round.stopped {
            Some(why) => emit(&format!(
                "round stopped at level {} of {LEVELS} ({why}): score {} so far (perfect: {PERFECT_ROUND})\n",
                round.levels.len(),
                round.score
            ))?,
            None => emit(&format!("round score: {} (perfect: {PERFECT_ROUND})\n", round.score))?,
        }
    }
    Ok(match round.stopped {
        Some(why) => stopped_early(Outcome::Stopped(why)),
        None => ExitCode::SUCCESS,
    })
}

/// `round --until-perfect`: rounds until a perfect one, `--max-rounds` at most, or a Ctrl-C.
fn until_perfect(args: &RoundArgs, cfg: &RoundConfig, seed: u64) -> Result<ExitCode> {
    for r in 0..args.max_rounds {
        let round_seed = tessera_core::rng::derive_seed(seed, r);
        let round =
            RoundReport { rounds: Some(r + 1), ..RoundReport::new(round_seed, play_round(round_seed, cfg, true)) };
        if let Some(why) = cut_short() {
            if args.json {
                emit_json_sorted(&RoundReport { stopped: Some(why), ..round })?;
            } else {
                emit(&format!("stopped in round {} ({why}): no perfect round yet\n", r + 1))?;
            }
            return Ok(stopped_early(Outcome::Stopped(why)));
        }
        let perfect = round.levels.len() == LEVELS as usize && round.score >= PERFECT_ROUND;
        if perfect {
            if args.json {
                emit_json_sorted(&round)?;
            } else {
                emit(&format!("perfect round ({}) after {} rounds (round seed {round_seed})\n", round.score, r + 1))?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        if !args.json && (r + 1) % 50 == 0 {
            eprintln!("{} rounds, no perfect one yet", r + 1);
        }
    }
    eprintln!("no perfect round in {} rounds", args.max_rounds);
    Ok(ExitCode::from(crate::common::STOPPED_EARLY))
}
