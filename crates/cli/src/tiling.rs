//! `tessera tiling ...` and `tessera meteor`.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use tessera_core::eval::EvalRun;
use tessera_core::geometry::Lattice;
use tessera_core::rng::Rng64;
use tessera_core::runtime::{Budget, Outcome, Verdict};
use tessera_core::svg::board_svg;
use tessera_tiling::eval::{EvalConfig, JobResult, run_job, summarise};
use tessera_tiling::random::{RandomSpec, planted};
use tessera_tiling::report::{CountReport, PuzzleInfo, SolutionJson, list_builtin};
use tessera_tiling::{EngineKind, Puzzle, Solution, Tiler, builtin, builtin_names, library, meteor};

use crate::common::{BudgetArg, SeedArg, ShardArgs, ThreadsArg, print_json, read_text, write_file};

/// `tessera meteor`.
#[derive(Debug, Args)]
pub struct MeteorArgs {
    /// Stop after this many solutions (the benchmark passes 2098: all of them).
    #[arg(default_value_t = 2098, value_parser = at_least_one)]
    pub n: u64,
    /// Worker threads.
    #[arg(long, short = 'j', value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
}

fn at_least_one(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{s:?} is not a count of at least 1")),
    }
}

/// `tessera tiling`.
#[derive(Debug, Subcommand)]
pub enum TilingCommand {
    /// Solve a puzzle file (or a built-in puzzle by name): count, list or find tilings.
    Solve(SolveArgs),
    /// List the built-in puzzles.
    List,
    /// Print a built-in puzzle in the text format (a starting point for your own).
    Show {
        /// Built-in puzzle name (see `tessera tiling list`).
        name: String,
    },
    /// Write a random puzzle with a planted tiling (cut a board into random pieces).
    Random(RandomArgs),
    /// Solve many random planted puzzles; report the solve rate and times.
    Eval(EvalArgs),
}

/// What `solve` should do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Mode {
    Count,
    All,
    First,
}

/// `tessera tiling solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file (`-`: stdin) or built-in puzzle name.
    puzzle: String,
    /// Count all tilings, and those distinct up to symmetry (the default).
    #[arg(long, group = "mode")]
    count: bool,
    /// List every tiling.
    #[arg(long, group = "mode")]
    all: bool,
    /// Find one tiling.
    #[arg(long, group = "mode")]
    first: bool,
    /// With --all: list one tiling per symmetry class only.
    #[arg(long, requires = "all")]
    distinct: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write the first tiling found as an SVG picture.
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
    /// Search engine: auto, fast, or dlx (generic dancing links).
    #[arg(long, default_value = "auto")]
    engine: EngineKind,
    /// Seed of the random restarts of --first (and of --svg's search) on large puzzles.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    budget: BudgetArg,
}

/// The shape of random puzzles (`random` and `eval`).
#[derive(Debug, Clone, Args)]
pub struct ShapeArgs {
    /// Lattice: square or hex.
    #[arg(long, default_value = "square", value_parser = ["square", "hex"])]
    lattice: String,
    /// Board width.
    #[arg(long, default_value_t = 6)]
    width: u32,
    /// Board height.
    #[arg(long, default_value_t = 6)]
    height: u32,
    /// Cells removed at random.
    #[arg(long, default_value_t = 0)]
    holes: u32,
    /// Smallest piece size aimed at.
    #[arg(long, default_value_t = 3)]
    min_piece: u32,
    /// Largest piece size.
    #[arg(long, default_value_t = 6)]
    max_piece: u32,
    /// Pieces may not be turned over.
    #[arg(long)]
    fixed: bool,
}

impl ShapeArgs {
    fn spec(&self) -> Result<RandomSpec> {
        let lattice = if self.lattice == "hex" { Lattice::Hex } else { Lattice::Square };
        let spec = RandomSpec {
            lattice,
            width: self.width,
            height: self.height,
            holes: self.holes,
            min_piece: self.min_piece,
            max_piece: self.max_piece,
            mirror: !self.fixed,
        };
        spec.check().map_err(anyhow::Error::msg)?;
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
    /// Number of random puzzles (across all shards).
    #[arg(long, default_value_t = 100)]
    puzzles: u64,
    #[command(flatten)]
    shape: ShapeArgs,
    /// Count every tiling of each puzzle instead of finding one.
    #[arg(long)]
    count: bool,
    /// Search engine: auto, fast, or dlx.
    #[arg(long, default_value = "auto")]
    engine: EngineKind,
    /// Time limit per puzzle in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
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
            print!("{}", list_builtin());
            Ok(ExitCode::SUCCESS)
        }
        TilingCommand::Show { name } => {
            let Some(text) = library::builtin_text(&name) else {
                bail!("no built-in puzzle {name:?} (built in: {})", builtin_names().collect::<Vec<_>>().join(", "));
            };
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        TilingCommand::Random(args) => random(&args),
        TilingCommand::Eval(args) => eval(&args),
    }
}

/// Loads a puzzle from a file, stdin, or the built-in library.
fn load(source: &str) -> Result<Puzzle> {
    if source != "-" && !std::path::Path::new(source).exists() {
        if let Some(p) = builtin(source) {
            return Ok(p);
        }
        bail!(
            "no file {source:?}, and no built-in puzzle of that name (built in: {})",
            builtin_names().collect::<Vec<_>>().join(", ")
        );
    }
    let text = read_text(source)?;
    Puzzle::parse(&text).with_context(|| format!("{source}: malformed puzzle"))
}

fn solve(args: &SolveArgs) -> Result<ExitCode> {
    let puzzle = load(&args.puzzle)?;
    let tiler = Tiler::with_engine(&puzzle, args.engine)?;
    let threads = args.threads.get();
    let budget = Budget::unlimited().with_time_opt(args.budget.get());
    if !tiler.plan().areas_match() {
        eprintln!(
            "note: the pieces cover {} cells but the board has {}: there is no tiling",
            puzzle.piece_area(),
            puzzle.board.len()
        );
    }
    let mode = if args.all {
        Mode::All
    } else if args.first {
        Mode::First
    } else {
        Mode::Count
    };
    let mut first = None;
    let code = match mode {
        Mode::Count => {
            let counts = tiler.count(threads, &budget);
            let report = CountReport::new(&puzzle, &tiler, &counts, threads);
            if args.json {
                print_json(&report)?;
            } else {
                print!("{report}");
            }
            if let Some(m) = report.mismatch() {
                eprintln!("error: {m}");
                return Ok(ExitCode::FAILURE);
            }
            if args.svg.is_some() {
                first = tiler.first(threads, args.seed, &budget).solution();
            }
            ExitCode::SUCCESS
        }
        Mode::First => {
            let start = Instant::now();
            let verdict = tiler.first(threads, args.seed, &budget);
            let seconds = start.elapsed().as_secs_f64();
            let (status, sol) = match verdict {
                Verdict::Feasible(s) | Verdict::Optimal(s) => ("found", Some(s)),
                Verdict::Infeasible => ("none", None),
                Verdict::Unknown(_) => ("unknown", None),
            };
            if args.json {
                let solution = sol.as_ref().map(|s| SolutionJson::new(&tiler, s));
                let info = PuzzleInfo::new(&puzzle, &tiler);
                let json = serde_json::json!({
                    "puzzle": info, "status": status, "solution": solution, "seconds": seconds, "seed": args.seed, "threads": threads
                });
                print_json(&json)?;
            } else {
                println!("{}", PuzzleInfo::new(&puzzle, &tiler));
                match &sol {
                    Some(s) => print!("{}", tiler.draw(s)),
                    None if status == "none" => println!("no tiling exists"),
                    None => println!("no tiling found before the search was stopped"),
                }
                println!(
                    "time: {seconds:.3} s on {threads} thread{} (seed {})",
                    if threads == 1 { "" } else { "s" },
                    args.seed
                );
            }
            first = sol;
            ExitCode::SUCCESS
        }
        Mode::All => list_all(args, &puzzle, &tiler, &budget, &mut first)?,
    };
    if let Some(path) = &args.svg {
        match &first {
            Some(s) => write_file(path, &board_svg(puzzle.lattice, &tiler.labelled_cells(s), &puzzle.name))?,
            None => eprintln!("note: no tiling found, so no SVG was written"),
        }
    }
    Ok(code)
}

/// `--all`: streams every tiling (text: drawings separated by blank lines; JSON: one document
/// written as it goes).
fn list_all(
    args: &SolveArgs,
    puzzle: &Puzzle,
    tiler: &Tiler,
    budget: &Budget,
    first: &mut Option<Solution>,
) -> Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let info = PuzzleInfo::new(puzzle, tiler);
    if args.json {
        write!(out, "{{\"puzzle\":{},\"solutions\":[", serde_json::to_string(&info)?)?;
    } else {
        writeln!(out, "{info}")?;
    }
    let mut n = 0u64;
    let mut io_error = None;
    let outcome = tiler.for_each(budget, args.distinct, |s| {
        n += 1;
        if first.is_none() {
            *first = Some(s.clone());
        }
        let written = if args.json {
            let sep = if n == 1 { "" } else { "," };
            serde_json::to_string(&SolutionJson::new(tiler, s))
                .map_err(std::io::Error::other)
                .and_then(|j| write!(out, "{sep}{j}"))
        } else {
            write!(out, "\n{}", tiler.draw(s))
        };
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                io_error = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Some(e) = io_error {
        // A closed pipe (`| head`) is not an error worth a message.
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(e.into());
    }
    let complete = outcome == Outcome::Complete;
    if args.json {
        writeln!(out, "],\"count\":{n},\"distinct_only\":{},\"complete\":{complete}}}", args.distinct)?;
    } else {
        let what = if args.distinct { "distinct tilings" } else { "tilings" };
        writeln!(out, "\n{n} {what}{}", if complete { "" } else { " (incomplete: the search was stopped)" })?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn random(args: &RandomArgs) -> Result<ExitCode> {
    let spec = args.shape.spec()?;
    let seed = args.seed.get();
    let p = planted(&spec, &format!("random-{seed}"), &mut Rng64::seed(seed)).map_err(anyhow::Error::msg)?;
    println!("# A random puzzle (seed {seed}). Its planted tiling:");
    let drawing =
        tessera_tiling::puzzle::draw(spec.lattice, p.puzzle.board.iter().zip(&p.labels).map(|(&(c, r), &l)| (c, r, l)));
    for line in drawing.lines() {
        println!("#   {line}");
    }
    print!("{}", p.puzzle.to_text());
    Ok(ExitCode::SUCCESS)
}

fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let records = if args.shard.merge.is_empty() {
        let cfg = EvalConfig {
            spec: args.shape.spec()?,
            count: args.count,
            budget: Some(std::time::Duration::from_millis(args.budget_ms)),
            engine: args.engine,
        };
        let run = EvalRun {
            jobs: args.puzzles,
            seed: args.seed.get(),
            threads: args.threads.get(),
            shard: args.shard.shard,
            label: "tiling eval".into(),
        };
        let mut sink = args.shard.sink()?;
        run.run(&Budget::unlimited(), sink.as_deref_mut(), |_, seed| run_job(&cfg, seed))?
    } else {
        args.shard.merged::<JobResult>()?
    };
    let summary = summarise(&records);
    if args.json {
        print_json(&summary)?;
    } else {
        print!("{summary}");
    }
    Ok(if summary.wrong > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// `tessera meteor`: prints exactly what the benchmark prints.
pub fn meteor(args: &MeteorArgs) -> Result<ExitCode> {
    let tiler = meteor::tiler();
    let result = meteor::solve(&tiler, args.n, args.threads as usize, &Budget::unlimited());
    if let Outcome::Stopped(r) = result.outcome {
        eprintln!("note: stopped early ({r})");
    }
    let mut out = std::io::stdout().lock();
    out.write_all(meteor::render(&result).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
