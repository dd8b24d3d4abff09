//! `tessera tiling ...` and `tessera meteor`.

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use tessera_core::geometry::Lattice;
use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, Verdict};
use tessera_game::eval::{Record, Shard};
use tessera_game::svg::board_svg;
use tessera_game::tour::plural;
use tessera_tiling::designer::{self, Uniqueness};
use tessera_tiling::eval::{EvalConfig, EvalSummary, JobResult, run_job, summarise};
use tessera_tiling::library::{self, OpenError};
use tessera_tiling::random::{RandomSpec, planted};
use tessera_tiling::report::{
    CountReport, FirstReport, FirstStatus, FixedReport, PuzzleInfo, SolutionJson, SolutionListWriter, UniqueReport,
    list_builtin,
};
use tessera_tiling::shards::{self, ShardLine};
use tessera_tiling::{
    CountProgress, EngineKind, MAX_SHARDS, Puzzle, Solution, Tiler, TilingError, burr, meteor, xmpuzzle,
};

use crate::common::{
    BudgetArg, Jobs, STOPPED_EARLY, SeedArg, ShardArgs, Summary, ThreadsArg, at_least_one, emit, emit_json,
    emit_json_sorted, quit_on_interrupt, stopped_early, write_file,
};

/// `tessera meteor`.
#[derive(Debug, Args)]
pub struct MeteorArgs {
    /// Stop after this many solutions (the benchmark passes 2098: all of them).
    #[arg(default_value_t = 2098, value_parser = at_least_one, allow_negative_numbers = true)]
    pub n: u64,
    /// Worker threads (one, like the benchmark).
    #[arg(long, short = 'j', value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024), allow_negative_numbers = true)]
    pub threads: u64,
}

/// `tessera tiling`.
#[derive(Debug, Subcommand)]
pub enum TilingCommand {
    /// Solve a puzzle file (or a built-in puzzle by name): count, list or find tilings; or merge
    /// the shards of a count split across machines.
    Solve(SolveArgs),
    /// List the built-in puzzles.
    List,
    /// Print a puzzle in the text format (a built-in one is a starting point for your own); list
    /// the problems of a BurrTools file.
    Show {
        /// Puzzle file (`-`: stdin), BurrTools file (`.xmpuzzle`) or built-in puzzle name (see
        /// `tessera tiling list`).
        name: String,
        /// Print this problem of a BurrTools file in tessera's text format instead of listing
        /// them: its number (from 0) or its name.
        #[arg(long, value_name = "N|NAME")]
        problem: Option<String>,
        /// List a BurrTools file's problems as JSON.
        #[arg(long, conflicts_with_all = ["cells", "dlx"])]
        json: bool,
        /// Every board and piece as coordinates, one cell per line (for scripts): square `x y`,
        /// hex `q r`, triangle `x y t`, cube `x y z`.
        #[arg(long, conflicts_with = "dlx")]
        cells: bool,
        /// Print the puzzle as input for Knuth's exact-cover solver dlx1 instead: every board
        /// cell and every copy of every piece is an item.
        #[arg(long)]
        dlx: bool,
    },
    /// Write a random puzzle with a planted tiling (cut a board into random pieces).
    Random(RandomArgs),
    /// Solve many random planted puzzles; report the solve rate and times.
    Eval(EvalArgs),
}

/// `--engine`.
#[derive(Debug, Clone, Args)]
pub struct EngineArg {
    /// Search engine.
    #[arg(long, value_enum, default_value_t = EngineKind::Auto)]
    engine: EngineKind,
}

impl EngineArg {
    /// The engine asked for.
    fn kind(&self) -> EngineKind {
        self.engine
    }
}

/// `tessera tiling solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file (`-`: stdin), BurrTools file (`.xmpuzzle`, gzip or plain XML) or built-in
    /// puzzle name.
    #[arg(required_unless_present = "merge")]
    puzzle: Option<String>,
    /// The problem of a BurrTools file: its number (from 0, as burrTxt's -o counts them) or its
    /// name (default: the first; `tessera tiling show FILE` lists them).
    #[arg(long, value_name = "N|NAME")]
    problem: Option<String>,
    /// Count all tilings, and those distinct up to symmetry (the default).
    #[arg(long, group = "mode")]
    count: bool,
    /// List every tiling (in a fixed order, on one thread).
    #[arg(long, group = "mode")]
    all: bool,
    /// Find one tiling.
    #[arg(long, group = "mode")]
    first: bool,
    /// Is the solution unique up to symmetry? Stops at the second class of tilings: unique,
    /// not unique (showing two), or none (with a reason a person can check).
    #[arg(long, group = "mode")]
    unique: bool,
    /// Which pieces every tiling puts in the same place (up to the board's symmetries): visits
    /// every tiling.
    #[arg(long, group = "mode")]
    fixed_pieces: bool,
    /// With --all: list one tiling per symmetry class only.
    #[arg(long, requires = "all")]
    distinct: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write a tiling (the first found) as an SVG picture.
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArg,
    /// Seed of the random restarts of --first on hard puzzles.
    #[arg(long, value_name = "S", default_value_t = 0, allow_negative_numbers = true)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    budget: BudgetArg,
    /// Count only shard I of N (1-based) of a count split across machines, and print its
    /// counts as one JSON line for --merge.
    #[arg(long, value_name = "I/N", value_parser = count_shard, conflicts_with_all = ["all", "first", "unique", "fixed_pieces", "svg"])]
    shard: Option<Shard>,
    /// Do not count: sum the JSON lines of the shards of a count (`--shard`) and say whether
    /// every shard is in.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["puzzle", "all", "first", "unique", "fixed_pieces", "svg", "shard"])]
    merge: Vec<PathBuf>,
    /// Show a count's progress on stderr even when it is not a terminal (on a terminal it
    /// shows anyway, once the count has run for two seconds).
    #[arg(long, conflicts_with_all = ["all", "first", "merge"])]
    progress: bool,
}

/// Parses `--shard I/N` of a count (at most [`MAX_SHARDS`] shards).
fn count_shard(s: &str) -> Result<Shard, String> {
    let shard: Shard = s.parse()?;
    if shard.count > MAX_SHARDS {
        return Err(format!("a count splits into at most {MAX_SHARDS} shards"));
    }
    Ok(shard)
}

/// The shape of random puzzles (`random` and `eval`).
#[derive(Debug, Clone, Args)]
pub struct ShapeArgs {
    /// Lattice.
    #[arg(long, value_enum, default_value_t = Lattice::Square)]
    lattice: Lattice,
    /// Board width.
    #[arg(long, default_value_t = 6, allow_negative_numbers = true)]
    width: u32,
    /// Board height.
    #[arg(long, default_value_t = 6, allow_negative_numbers = true)]
    height: u32,
    /// Board depth in layers (cube and prism lattices only).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    depth: u32,
    /// Cells removed at random.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    holes: u32,
    /// Smallest piece size aimed at.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
    min_piece: u32,
    /// Largest piece size.
    #[arg(long, default_value_t = 6, allow_negative_numbers = true)]
    max_piece: u32,
    /// Pieces may not be turned over.
    #[arg(long)]
    fixed: bool,
}

impl ShapeArgs {
    fn spec(&self) -> Result<RandomSpec> {
        let spec = RandomSpec {
            lattice: self.lattice,
            width: self.width,
            depth: self.depth,
            height: self.height,
            holes: self.holes,
            min_piece: self.min_piece,
            max_piece: self.max_piece,
            mirror: !self.fixed,
        };
        spec.check().map_err(crate::common::usage)?;
        Ok(spec)
    }
}

/// `tessera tiling random`.
#[derive(Debug, Args)]
pub struct RandomArgs {
    #[command(flatten)]
    shape: ShapeArgs,
    #[command(flatten)]
    seed: SeedArg,
}

/// `tessera tiling eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Number of random puzzles, the run's jobs (across all shards).
    #[arg(long = "runs", visible_alias = "puzzles", value_name = "N", default_value_t = 100, value_parser = at_least_one, conflicts_with = "merge", allow_negative_numbers = true)]
    puzzles: u64,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Count every tiling of each puzzle instead of finding one.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    engine: EngineArg,
    /// Time limit per puzzle in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = at_least_one, allow_negative_numbers = true)]
    budget_ms: u64,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    shard: ShardArgs,
}

/// Runs a `tessera tiling` command.
pub fn run(cmd: TilingCommand) -> Result<ExitCode> {
    match cmd {
        TilingCommand::Solve(args) => solve(&args),
        TilingCommand::List => {
            emit(&list_builtin())?;
            Ok(ExitCode::SUCCESS)
        }
        TilingCommand::Show { name, dlx: true, problem, .. } => show_dlx(&name, problem.as_deref()),
        TilingCommand::Show { name, cells, problem, json, .. } => {
            if problem.is_none() && library::is_burr_file(&name) {
                return show_burr(&name, json);
            }
            if json {
                bail!("--json lists the problems of a BurrTools file; {name} is not one");
            }
            let open = || open_problem(&name, problem.as_deref()).map_err(with_example_hint);
            if cells {
                emit(&open()?.to_cells_text())?;
            } else if let Some(text) = library::builtin_text(&name).filter(|_| problem.is_none()) {
                emit(text)?;
            } else {
                emit(&open()?.to_text())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        TilingCommand::Random(args) => {
            let spec = args.shape.spec()?;
            let seed = args.seed.get();
            let p = planted(&spec, &format!("random-{seed}"), &mut Rng64::seed(seed)).map_err(anyhow::Error::msg)?;
            emit(&p.to_text())?;
            Ok(ExitCode::SUCCESS)
        }
        TilingCommand::Eval(args) => eval(&args),
    }
}

fn solve(args: &SolveArgs) -> Result<ExitCode> {
    let Some(name) = &args.puzzle else { return merge_shards(args) };
    let start = Instant::now();
    // The budget covers building the tables too.
    let budget = Budget::unlimited().with_time_opt(args.budget.get());
    let puzzle = open_problem(name, args.problem.as_deref()).map_err(with_example_hint)?;
    if let Some(r) = designer::bad_input(&puzzle.problem) {
        bail!("{name}: {r}: there is no tiling");
    }
    if let Some(path) = &args.svg {
        crate::common::check_writable(path)?;
    }
    let tiler = match Tiler::within(&puzzle.problem, args.engine.kind(), &budget) {
        Err(TilingError::Stopped(reason)) => {
            eprintln!("note: stopped while building the tables: no answer");
            return Ok(stopped_early(Outcome::Stopped(reason)));
        }
        Err(e @ TilingError::TooBigForFast(..)) => return Err(with_engine_hint(&e)),
        built => built?,
    };
    // Counts and enumerations take the search order predicted faster; --first needs none.
    let tiler = if args.first { tiler } else { tiler.choose_order() };
    let threads = args.threads.get();
    let (outcome, sample, mismatch) = if args.all {
        list_all(args, &puzzle, &tiler, &budget)?
    } else if args.unique {
        let answer = designer::uniqueness(&tiler, &budget);
        let report = UniqueReport::new(&puzzle, &tiler, &answer, start.elapsed().as_secs_f64());
        if args.json {
            emit_json(&report)?;
        } else {
            emit(&report.to_string())?;
        }
        match answer {
            Uniqueness::Unique(s) | Uniqueness::NotUnique(s, _) => (Outcome::Complete, Some(s), None),
            Uniqueness::None => (Outcome::Complete, None, None),
            Uniqueness::Unknown(r) => (Outcome::Stopped(r), None, None),
        }
    } else if args.fixed_pieces {
        let (places, outcome) = designer::fixed_pieces(&tiler, threads, &budget);
        let report = FixedReport::new(&puzzle, &tiler, places, outcome, start.elapsed().as_secs_f64());
        if args.json {
            emit_json(&report)?;
        } else {
            emit(&report.to_string())?;
        }
        (outcome, None, None)
    } else if args.first {
        let verdict = tiler.first(threads, args.seed, &budget);
        let report = FirstReport::new(&puzzle, &tiler, &verdict, start.elapsed().as_secs_f64(), args.seed, threads);
        if args.json {
            emit_json_sorted(&report)?;
        } else {
            emit(&first_text(&report, &tiler, &verdict))?;
        }
        let outcome = match verdict {
            Verdict::Unknown(r) => Outcome::Stopped(r),
            _ => Outcome::Complete,
        };
        (outcome, verdict.solution(), None)
    } else if let Some(shard) = args.shard {
        let progress = CountProgress::new();
        let counted = watched(args.progress, &progress, || tiler.count_shard(shard, threads, &budget, Some(&progress)));
        let mut counts = counted?;
        counts.seconds = start.elapsed().as_secs_f64();
        emit_json(&ShardLine::new(&puzzle, &tiler, &counts, threads))?;
        (counts.outcome, None, None)
    } else {
        // Watched for progress, the count splits its search into many prefixes; otherwise as
        // few as the threads need.
        let progress = CountProgress::new();
        let (mut counts, sample) = if args.progress || std::io::stderr().is_terminal() {
            watched(true, &progress, || tiler.count_observed(threads, &budget, &progress))
        } else {
            tiler.count_with_sample(threads, &budget)
        };
        // BurrTools' count: the distinct one, or (with ranges) three more counts.
        let mut assemblies = None;
        if counts.outcome.is_complete() {
            let (a, outcome) = burr::assemblies(
                &puzzle.problem,
                counts.distinct,
                tiler.group().reflections,
                args.engine.kind(),
                threads,
                &budget,
            )?;
            assemblies = outcome.is_complete().then_some(a);
            counts.outcome = outcome;
        }
        // The time of the whole solve, the tables included.
        counts.seconds = start.elapsed().as_secs_f64();
        let report = CountReport::new(&puzzle, &tiler, &counts, assemblies, threads);
        if args.json {
            emit_json(&report)?
        } else {
            emit(&report.to_string())?
        }
        (counts.outcome, sample, report.mismatch())
    };
    if let Some(path) = &args.svg {
        match &sample {
            Some(s) => write_file(path, &board_svg(puzzle.problem.lattice, &tiler.labelled_cells(s), &puzzle.name))?,
            None => eprintln!("note: no tiling found, so no SVG was written"),
        }
    }
    if let Some(m) = mismatch {
        bail!(m);
    }
    Ok(if outcome.is_complete() { ExitCode::SUCCESS } else { stopped_early(outcome) })
}

/// Opens a puzzle as [`library::open_problem`] does; reading stdin (`-`) waits on the user, so a
/// Ctrl-C then quits at once.
fn open_problem(source: &str, problem: Option<&str>) -> Result<Puzzle, OpenError> {
    if source == "-" {
        quit_on_interrupt(|| library::open_problem(source, problem))
    } else {
        library::open_problem(source, problem)
    }
}

/// `show --dlx`: the puzzle (any that `solve` opens) as dlx1's input.
fn show_dlx(source: &str, problem: Option<&str>) -> Result<ExitCode> {
    let puzzle = open_problem(source, problem).map_err(with_example_hint)?;
    // The dancing-links engine builds the plan and little else.
    let tiler = Tiler::with_engine(&puzzle.problem, EngineKind::Dlx)?;
    emit(&tessera_tiling::dlx::dlx_input(&puzzle.name, tiler.plan())?)?;
    Ok(ExitCode::SUCCESS)
}

/// `show FILE.xmpuzzle`: the file's grid and problems, one line each (`--json`: the file's
/// summary as JSON).
fn show_burr(source: &str, json: bool) -> Result<ExitCode> {
    let file =
        if source == "-" { quit_on_interrupt(|| library::open_burr(source))? } else { library::open_burr(source)? };
    if json {
        emit_json(&file)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = format!(
        "{source}: BurrTools file (format {}), grid {} ({}), {}, {}\n",
        file.version,
        file.grid.number(),
        file.grid.describe(),
        plural(file.shapes.len() as u64, "shape", "shapes"),
        plural(file.problems.len() as u64, "problem", "problems"),
    );
    for (k, p) in file.problems.iter().enumerate() {
        let result = &file.shapes[p.result];
        let (filled, variable) = (result.count(xmpuzzle::State::Filled), result.count(xmpuzzle::State::Variable));
        let pieces: Vec<String> = file
            .labels(k)
            .iter()
            .zip(p.parts.iter().filter(|part| part.max > 0))
            .map(|((label, name), part)| {
                let copies = if part.min == part.max {
                    format!("x{}", part.max)
                } else {
                    format!("x{}..{}", part.min, part.max)
                };
                format!("{label}={name} {copies}")
            })
            .collect();
        let name = p.name.as_deref().map_or_else(String::new, |n| format!(" {n:?}"));
        let stored = p
            .stored_assemblies
            .map_or_else(String::new, |a| format!(", stored: {a} {}", if a == 1 { "assembly" } else { "assemblies" }));
        out += &format!(
            "problem {k}{name}: result S{} ({filled} filled + {variable} variable cells), pieces {}{stored}\n",
            p.result + 1,
            pieces.join(", ")
        );
    }
    if file.grid.lattice().is_none() {
        out += &format!("note: grid {} is not solved by tessera (grids 0 and 1 are)\n", file.grid.number());
    }
    emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// `--merge`: sums the shard lines of the files, prints the sums, and fails unless every shard
/// is in and finished (exit status 1 when one is missing, [`STOPPED_EARLY`] when one stopped).
fn merge_shards(args: &SolveArgs) -> Result<ExitCode> {
    let mut lines = Vec::new();
    for path in &args.merge {
        let name = path.display().to_string();
        if path.is_dir() {
            bail!("cannot read {name}: it is a directory");
        }
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {name}"))?;
        lines.extend(shards::read_lines(&name, std::io::BufReader::new(file))?);
    }
    let merged = shards::merge(&lines)?;
    if args.json {
        emit_json(&merged)?;
    } else {
        emit(&merged.to_string())?;
    }
    if let Some(m) = merged.mismatch() {
        bail!(m);
    }
    match merged.shortfall() {
        None => Ok(ExitCode::SUCCESS),
        Some(short) if !merged.missing.is_empty() => bail!("{short}: the sums are not the puzzle's counts"),
        Some(short) => {
            eprintln!("note: {short}: the sums are not the puzzle's counts (run those shards again)");
            Ok(ExitCode::from(STOPPED_EARLY))
        }
    }
}

/// How long a count runs before its progress shows.
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// How often the progress is updated on a terminal, and written as a line elsewhere.
const PROGRESS_REDRAW: Duration = Duration::from_millis(200);
const PROGRESS_LINES: Duration = Duration::from_secs(10);

/// Runs a count, showing its progress on stderr from another thread once it has run for
/// [`PROGRESS_AFTER`]: a bar on a terminal (prefixes done, tilings so far, time left), else
/// (with `--progress`, `asked`) a line every [`PROGRESS_LINES`].
fn watched<T>(asked: bool, progress: &CountProgress, count: impl FnOnce() -> T) -> T {
    let terminal = std::io::stderr().is_terminal();
    if !asked && !terminal {
        return count();
    }
    let (finished, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            let start = Instant::now();
            let mut next = PROGRESS_AFTER;
            let mut bar = None;
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(next) {
                if terminal {
                    let b = bar.get_or_insert_with(|| crate::progress::bar("counting", 0));
                    b.set_length(progress.prefixes() as u64);
                    b.set_position(progress.done() as u64);
                    b.set_message(format!("{} so far", plural(progress.found(), "tiling", "tilings")));
                    next = PROGRESS_REDRAW;
                } else {
                    eprintln!("{}", progress_line(progress, start.elapsed()));
                    next = PROGRESS_LINES;
                }
            }
            if let Some(b) = bar {
                crate::progress::done(&b);
            }
        });
        let out = count();
        drop(finished);
        out
    })
}

/// A count's progress: prefixes done, tilings so far, the time spent and a rough estimate of
/// the time left (prefixes differ in size, so the rate of prefixes done is a rough guide).
fn progress_line(progress: &CountProgress, elapsed: Duration) -> String {
    let (done, of) = (progress.done(), progress.prefixes());
    let spent = elapsed.as_secs_f64();
    let left = if done == 0 {
        "time left unknown until a prefix is done".to_string()
    } else {
        let left = spent * (of.saturating_sub(done)) as f64 / done as f64;
        format!("roughly {} left", duration(left))
    };
    let percent = if of == 0 { 0.0 } else { 100.0 * done as f64 / of as f64 };
    format!(
        "counting: {done}/{of} prefixes ({percent:.0}%), {} so far, {}; {left}",
        plural(progress.found(), "tiling", "tilings"),
        duration(spent)
    )
}

/// Seconds as `42 s`, `3 min 05 s` or `2 h 07 min`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// An empty puzzle file's error, with where to find an example.
fn with_example_hint(e: OpenError) -> anyhow::Error {
    match e {
        OpenError::Empty(_) => anyhow!("{e} (see `tessera tiling show meteor`)"),
        e => e.into(),
    }
}

/// The fast engine's refusal of a puzzle, with the option that gets around it.
fn with_engine_hint(e: &TilingError) -> anyhow::Error {
    anyhow!("{e} (use --engine dlx)")
}

/// The text of `--first`: the puzzle, the tiling found (or why there is none) and the time.
fn first_text(report: &FirstReport, tiler: &Tiler, verdict: &Verdict<Solution>) -> String {
    let found = match verdict {
        Verdict::Feasible(s) | Verdict::Optimal(s) => tiler.draw(s),
        _ if report.status == FirstStatus::NoTiling => match &report.no_tiling_reason {
            Some(r) => format!("no tiling exists\nreason: {r}\n"),
            None => "no tiling exists\n".into(),
        },
        _ => "no tiling found before the search was stopped\n".into(),
    };
    let threads = plural(report.threads as u64, "thread", "threads");
    format!("{}\n{found}time: {:.3} s on {threads} (seed {})\n", report.puzzle, report.seconds, report.seed)
}

/// `--all`: streams every tiling (text: drawings separated by blank lines; JSON: one document
/// written as it goes). Returns the outcome, the first tiling, and a mismatch with the puzzle's
/// stated counts if the listing is complete.
fn list_all(
    args: &SolveArgs,
    puzzle: &Puzzle,
    tiler: &Tiler,
    budget: &Budget,
) -> Result<(Outcome, Option<Solution>, Option<String>)> {
    let out = std::io::BufWriter::new(crate::common::Named::new(std::io::stdout(), "to stdout"));
    let info = PuzzleInfo::new(puzzle, tiler);
    let mut sink = if args.json {
        Listing::Json(SolutionListWriter::begin(out, &info)?)
    } else {
        let mut out = out;
        writeln!(out, "{info}")?;
        Listing::Text(out)
    };
    let (mut n, mut first, mut error) = (0u64, None, None);
    let outcome = tiler.for_each(budget, args.distinct, |s| {
        n += 1;
        first.get_or_insert_with(|| s.clone());
        let written = match &mut sink {
            Listing::Json(w) => w.push(&SolutionJson::new(tiler, s)),
            Listing::Text(out) => write!(out, "\n{}", tiler.draw(s)),
        };
        written.map_or_else(
            |e| {
                error = Some(e);
                ControlFlow::Break(())
            },
            |()| ControlFlow::Continue(()),
        )
    });
    if let Some(e) = error {
        return Err(e.into());
    }
    let complete = outcome == Outcome::Complete;
    let mut out = match sink {
        Listing::Json(w) => w.finish(args.distinct, complete)?,
        Listing::Text(mut out) => {
            let what = if args.distinct { "distinct tilings" } else { "tilings" };
            writeln!(out, "\n{n} {what}{}", if complete { "" } else { " (incomplete: the search was stopped)" })?;
            out
        }
    };
    out.flush()?;
    let stated = if args.distinct { puzzle.expect.distinct } else { puzzle.expect.raw };
    let mismatch = stated
        .filter(|&s| complete && s != u128::from(n))
        .map(|s| format!("listed {n} tilings, but the puzzle states {s}"));
    Ok((outcome, first, mismatch))
}

/// Where `--all` writes: a JSON document, or drawings.
enum Listing<W: Write> {
    Json(SolutionListWriter<W>),
    Text(W),
}

fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let run = |jobs: &Jobs<'_>| {
        let cfg = EvalConfig {
            spec: args.shape.spec()?,
            count: args.count,
            budget: Some(Duration::from_millis(args.budget_ms)),
            engine: args.engine.kind(),
        };
        let records = jobs.run(args.puzzles, args.seed.get(), args.threads.get(), |_, seed| run_job(&cfg, seed))?;
        Ok((records, ()))
    };
    crate::common::eval(&args.shard, "tiling eval", args.json, run, |records: &[Record<JobResult>], _| {
        Ok(summarise(records))
    })
}

impl Summary for EvalSummary {
    fn failed(&self) -> bool {
        self.wrong > 0
    }
}

/// `tessera meteor`: prints exactly what the benchmark prints.
pub fn meteor(args: &MeteorArgs) -> Result<ExitCode> {
    let tiler = meteor::tiler();
    let result = meteor::solve(&tiler, args.n, args.threads as usize, &Budget::unlimited());
    emit(&meteor::render(&result))?;
    // The process ends here: freeing the tables' thousands of small lists would only delay it.
    std::mem::forget(tiler);
    Ok(if result.outcome.is_complete() { ExitCode::SUCCESS } else { stopped_early(result.outcome) })
}
