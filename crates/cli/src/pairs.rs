//! `tessera pairs ...`.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use tessera_core::geometry::Lattice;
use tessera_core::runtime::{Budget, Outcome, StopReason};
use tessera_game::eval::Record;
use tessera_game::svg::board_svg;
use tessera_pairs::eval::{Class, EvalSummary, SeedResult, run_job, summarise};
use tessera_pairs::format::{Game, ScoreReport, SolveReport};
use tessera_pairs::generator::{dims, generate};
use tessera_pairs::judge::{replay, score};
use tessera_pairs::moves::{format_moves, parse_moves};
use tessera_pairs::solver::{Params, solve_portfolio};
use tessera_pairs::{Board, Move};

use crate::common::{
    Jobs, SeedArg, ShardArgs, Summary, ThreadsArg, at_least_one, emit, emit_json_sorted, quit_on_interrupt, write_file,
};

/// The contest's default budget: 9.5 s of its 10 s.
const DEFAULT_BUDGET_MS: u64 = 9500;

/// `tessera pairs`.
#[derive(Debug, Subcommand)]
pub enum PairsCommand {
    /// Print the official tester's board for a seed (H rows of digits).
    Gen(GenArgs),
    /// Judge a moves file (N, then N lines `r1 c1 r2 c2`) on a board, with the tester's rules.
    Score(ScoreArgs),
    /// Solve a board: reads the tester's input (H, then H rows) on stdin, writes N and the moves.
    Solve(SolveArgs),
    /// Solve the boards of a range of seeds: clears, scores, per-colour breakdown, times.
    Eval(EvalArgs),
    /// List the seeds of a range whose boards are in a class (`SEED H W C` lines).
    List(ListArgs),
    /// Draw a board, and what a moves file leaves of it, as text or SVG.
    Show(ShowArgs),
}

/// Where the board comes from: `--gen-seed S` or `--board FILE`.
#[derive(Debug, Clone, Args)]
pub struct BoardArg {
    /// The official tester's board for this seed.
    #[arg(long, value_name = "S", conflicts_with = "board", allow_hyphen_values = true)]
    gen_seed: Option<i64>,
    /// A board file: H, then H rows of digits (or just the rows).
    #[arg(long, value_name = "FILE")]
    board: Option<PathBuf>,
}

impl BoardArg {
    /// The board, or `None` if neither option was given.
    fn get(&self) -> Result<Option<Board>> {
        match (self.gen_seed, &self.board) {
            (Some(s), _) => Ok(Some(generate(s))),
            (None, Some(path)) => {
                let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
                Ok(Some(Board::parse(&text).with_context(|| format!("bad board in {}", path.display()))?))
            }
            (None, None) => Ok(None),
        }
    }

    /// The board, which must be given.
    fn required(&self) -> Result<Board> {
        self.get()?.context("give a board: --gen-seed S or --board FILE")
    }
}

/// `tessera pairs gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// The tester's seed (1, 2, 3 are the contest's fixed examples).
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    seed: i64,
    /// Print the tester's input instead (H first).
    #[arg(long)]
    input: bool,
}

/// `tessera pairs score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    #[command(flatten)]
    board: BoardArg,
    /// The moves file (`-`: stdin).
    #[arg(value_name = "MOVES")]
    moves: PathBuf,
    /// Print the verdict as JSON.
    #[arg(long)]
    json: bool,
}

/// `tessera pairs solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    board: BoardArg,
    /// Time budget in milliseconds (the search stops sooner once the board is clear). Its end is
    /// the contest's normal end: the best moves found, exit status 0 (a Ctrl-C before the board
    /// is clear: status 3).
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_BUDGET_MS, value_parser = at_least_one, allow_negative_numbers = true)]
    budget_ms: u64,
    /// Independent searches in parallel; the first to clear the board wins.
    #[arg(long, short = 'j', value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256), allow_negative_numbers = true)]
    threads: u64,
    #[command(flatten)]
    seed: SeedArg,
    /// Print the board, the moves and the verdict as one JSON object instead.
    #[arg(long)]
    json: bool,
}

/// `tessera pairs eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Board seeds `A..B` (inclusive), as the official tester numbers them (any 64-bit seeds).
    #[arg(long, value_name = "A..B", default_value = "1..100", value_parser = parse_range, allow_hyphen_values = true)]
    seeds: (i64, i64),
    /// Seeds to solve, the run's jobs: the same as `--seeds 1..N`.
    #[arg(long, value_name = "N", value_parser = at_least_one, conflicts_with_all = ["seeds", "count"], allow_negative_numbers = true)]
    runs: Option<u64>,
    #[command(flatten)]
    class: ClassArgs,
    /// Time budget per seed in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_BUDGET_MS, value_parser = at_least_one, allow_negative_numbers = true)]
    budget_ms: u64,
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

/// A class of boards among a seed range's (for `eval` and `list`).
#[derive(Debug, Clone, Args)]
pub struct ClassArgs {
    /// Only boards with these colours (`6`, or `5,6`).
    #[arg(long, value_name = "C,...", value_delimiter = ',', value_parser = clap::value_parser!(u64).range(2..=6), allow_negative_numbers = true)]
    colors: Vec<u64>,
    /// Only small boards: at most this many tiles, 100 or more (with --max-side: small or thin).
    #[arg(long, value_name = "TILES", value_parser = clap::value_parser!(u64).range(100..), allow_negative_numbers = true)]
    max_area: Option<u64>,
    /// Only thin boards: the smaller side at most this, 10 or more (with --max-area: small or thin).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(10..), allow_negative_numbers = true)]
    max_side: Option<u64>,
    /// The hard class: the same as --colors 6 --max-area 900 --max-side 14.
    #[arg(long, conflicts_with_all = ["colors", "max_area", "max_side"])]
    hard: bool,
    /// The first N boards of the class in the seed range (the range must hold that many).
    #[arg(long, value_name = "N", value_parser = at_least_one, allow_negative_numbers = true)]
    count: Option<u64>,
}

impl ClassArgs {
    /// The class the flags describe.
    fn class(&self) -> Class {
        if self.hard {
            return Class::hard();
        }
        let size = |v: Option<u64>| v.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        Class {
            colors: self.colors.iter().map(|&c| c as usize).collect(),
            max_area: size(self.max_area),
            max_side: size(self.max_side),
        }
    }

    /// The seeds of `first..=last` in the class, or an error if `--count` asks for more than
    /// the range holds.
    fn seeds(&self, (first, last): (i64, i64)) -> Result<Vec<i64>> {
        let seeds = self.class().seeds(first, last, self.count);
        self.found(seeds.len() as u64, (first, last))?;
        Ok(seeds)
    }

    /// An error if `found` boards of the class in `first..=last` are none, or fewer than
    /// `--count` asks for.
    fn found(&self, found: u64, (first, last): (i64, i64)) -> Result<()> {
        let class = self.class();
        if found == 0 {
            bail!("no board of seeds {first}..{last} is in the class ({class})");
        }
        if let Some(n) = self.count
            && found < n
        {
            bail!("seeds {first}..{last} hold only {found} boards of the class ({class}), not {n}");
        }
        Ok(())
    }
}

/// `tessera pairs list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Board seeds `A..B` (inclusive), as the official tester numbers them (any 64-bit seeds).
    #[arg(long, value_name = "A..B", default_value = "1..100", value_parser = parse_range, allow_hyphen_values = true)]
    seeds: (i64, i64),
    #[command(flatten)]
    class: ClassArgs,
    /// Print one JSON object per line (`seed`, `h`, `w`, `colors`) instead.
    #[arg(long)]
    json: bool,
}

/// `tessera pairs show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    board: BoardArg,
    /// A moves file to replay first (`-`: stdin).
    #[arg(value_name = "MOVES")]
    moves: Option<PathBuf>,
    /// Also draw the picture as SVG into OUT.
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
}

/// Parses `A..B` with `A <= B` (clap's message names the value: this one does not again).
fn parse_range(s: &str) -> Result<(i64, i64), String> {
    let bad = || "not a seed range A..B of 64-bit seeds with A <= B".to_string();
    let seed = |t: &str| {
        t.trim().parse::<i64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                format!("seed {} is out of range ({} to {})", t.trim(), i64::MIN, i64::MAX)
            }
            _ => bad(),
        })
    };
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let (a, b) = (seed(a)?, seed(b)?);
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// Runs a `tessera pairs` command.
pub fn run(cmd: PairsCommand) -> Result<ExitCode> {
    match cmd {
        PairsCommand::Gen(args) => {
            let b = generate(args.seed);
            emit(&if args.input { b.tester_input() } else { format!("{}\n", b.text()) })?;
            Ok(ExitCode::SUCCESS)
        }
        PairsCommand::Score(args) => score_cmd(&args),
        PairsCommand::Solve(args) => solve_cmd(&args),
        PairsCommand::Eval(args) => eval_cmd(&args),
        PairsCommand::List(args) => list_cmd(&args),
        PairsCommand::Show(args) => show_cmd(&args),
    }
}

/// Reads a file, `-` meaning stdin (waiting on it, Ctrl-C quits at once).
fn read_input(path: &std::path::Path) -> Result<String> {
    let mut text = String::new();
    if path.as_os_str() == "-" {
        quit_on_interrupt(|| std::io::stdin().read_to_string(&mut text)).context("cannot read stdin")?;
    } else {
        text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    }
    Ok(text)
}

/// Reads a board as the official tester sends it: H, then exactly H rows, from a pipe it keeps
/// open (so reading to the end would wait for ever). A first line that is a number and not as
/// long as the second is taken for H, as [`Board::parse`] does; anything else (bare rows, as in
/// a file piped in) is read to the end of the input.
fn read_tester_input(mut input: impl std::io::BufRead) -> Result<String> {
    let mut text = String::new();
    // The first line that is not blank, and the next: is the first H?
    while text.trim().is_empty() {
        if input.read_line(&mut text).context("cannot read stdin")? == 0 {
            return Ok(text);
        }
    }
    let first = text.trim().to_string();
    let mut h = first.parse::<usize>().ok().filter(|&h| h > 0 && first == h.to_string());
    if h.is_some() {
        let start = text.len();
        input.read_line(&mut text).context("cannot read stdin")?;
        h = h.filter(|_| text[start..].trim().len() != first.len());
    }
    match h {
        // The first row is in; the rest follow.
        Some(h) => {
            for _ in 1..h {
                if input.read_line(&mut text).context("cannot read stdin")? == 0 {
                    break;
                }
            }
        }
        None => {
            input.read_to_string(&mut text).context("cannot read stdin")?;
        }
    }
    Ok(text)
}

fn read_moves(path: &std::path::Path) -> Result<Vec<Move>> {
    parse_moves(&read_input(path)?).with_context(|| format!("bad moves in {}", path.display()))
}

fn score_cmd(args: &ScoreArgs) -> Result<ExitCode> {
    let board = args.board.required()?;
    let moves = read_moves(&args.moves)?;
    let report = ScoreReport { game: Game::Pairs, verdict: score(&board, &moves) };
    let s = &report.verdict;
    if args.json {
        emit_json_sorted(&report)?;
    } else {
        let mut out = match &s.invalid {
            Some((i, why)) => {
                format!("invalid: move {} ({}): {why}\n", i + 1, moves.get(*i).map_or(String::new(), |m| m.to_string()))
            }
            None => String::new(),
        };
        out += &format!("removed {} of {} tiles, score {}\n", s.removed, s.total, s.score);
        emit(&out)?;
    }
    Ok(if s.invalid.is_some() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn solve_cmd(args: &SolveArgs) -> Result<ExitCode> {
    let board = match args.board.get()? {
        Some(b) => b,
        None => Board::parse(&quit_on_interrupt(|| read_tester_input(std::io::stdin().lock()))?)
            .context("bad board on stdin")?,
    };
    let seed = args.seed.get();
    let budget = Budget::unlimited().with_time(std::time::Duration::from_millis(args.budget_ms));
    let sol = solve_portfolio(&board, &Params::default(), args.threads as usize, &budget, seed);
    let verdict = score(&board, &sol.moves);
    if verdict.invalid.is_some() {
        bail!("internal error: the solver's moves fail the judge: {:?}", verdict.invalid);
    }
    // Ctrl-C before the board was clear: the moves are what the search had, and the output and
    // exit status say so (the budget running out is the contest's normal end, status 0).
    let stopped = (sol.left > 0 && tessera_core::runtime::interrupted()).then_some(StopReason::Interrupted);
    if args.json {
        emit_json_sorted(&SolveReport {
            stopped,
            ..SolveReport::new(&board, args.board.gen_seed, seed, &sol, verdict.score)
        })?;
    } else {
        emit(&format_moves(&sol.moves))?;
        eprintln!(
            "pairs: {} of {} tiles left, score {:.6}, {} iterations in {:.2} s",
            sol.left,
            board.tiles(),
            verdict.score,
            sol.iterations,
            sol.seconds
        );
        if sol.impossible {
            eprintln!("pairs: proven: no moves clear this board (an exhaustive search of its pairings)");
        }
    }
    Ok(match stopped {
        Some(why) => crate::common::stopped_early(Outcome::Stopped(why)),
        None => ExitCode::SUCCESS,
    })
}

fn eval_cmd(args: &EvalArgs) -> Result<ExitCode> {
    let class = args.class.class();
    let run = |jobs: &Jobs<'_>| {
        let range = args.runs.map_or(args.seeds, |n| (1, i64::try_from(n).unwrap_or(i64::MAX)));
        // The job index runs over the class's seeds, so shards split the class evenly.
        let seeds = args.class.seeds(range)?;
        let label = (!class.is_all()).then(|| class.to_string());
        let job =
            |j: u64, seed| SeedResult { class: label.clone(), ..run_job(seeds[j as usize], args.budget_ms, seed) };
        let records = jobs.run(seeds.len() as u64, args.seed.get(), args.threads.get(), job)?;
        Ok((records, args.budget_ms))
    };
    // Merged records pass no budget: the summary takes the one they agree on.
    let summary = |records: &[Record<SeedResult>], budget_ms: Option<u64>| {
        if records.is_empty() {
            bail!("no seeds were solved");
        }
        let results: Vec<SeedResult> = records.iter().map(|r| r.result.clone()).collect();
        // The records say their class (merged shards included); shards of different classes
        // do not make one evaluation.
        let mut classes: Vec<Option<&String>> = results.iter().map(|r| r.class.as_ref()).collect();
        classes.dedup();
        if classes.len() > 1 {
            bail!("the records are of different classes of boards: {classes:?}");
        }
        Ok(summarise(&results, budget_ms))
    };
    crate::common::eval(&args.shard, "pairs eval", args.json, run, summary)
}

fn list_cmd(args: &ListArgs) -> Result<ExitCode> {
    let (class, (first, last)) = (args.class.class(), args.seeds);
    let limit = args.class.count.unwrap_or(u64::MAX);
    let mut listed = 0u64;
    // Line by line as they are found: a long range shows its boards at once.
    for seed in class.iter(first, last).take(usize::try_from(limit).unwrap_or(usize::MAX)) {
        let (h, w, colors) = dims(seed);
        emit(&if args.json {
            format!("{{\"colors\":{colors},\"h\":{h},\"seed\":{seed},\"w\":{w}}}\n")
        } else {
            format!("{seed} {h} {w} {colors}\n")
        })?;
        listed += 1;
    }
    args.class.found(listed, args.seeds)?;
    Ok(ExitCode::SUCCESS)
}

impl Summary for EvalSummary {
    fn failed(&self) -> bool {
        self.invalid > 0
    }
}

fn show_cmd(args: &ShowArgs) -> Result<ExitCode> {
    let board = args.board.required()?;
    let moves = match &args.moves {
        Some(path) => read_moves(path)?,
        None => Vec::new(),
    };
    let r = replay(&board, &moves);
    let invalid = r.steps.iter().filter(|s| !s.valid).count();
    let mut left = vec![false; board.tiles()];
    for &(row, col) in &r.leftover {
        left[usize::from(row) * board.width() + usize::from(col)] = true;
    }
    let label = |i: usize| if left[i] { char::from(b'0' + board.cells()[i]) } else { '.' };
    let mut out = format!("{} x {}, {} colours\n", board.height(), board.width(), board.colors());
    for row in 0..board.height() {
        out.extend((0..board.width()).map(|col| label(row * board.width() + col)));
        out.push('\n');
    }
    out += &format!("{} moves ({invalid} invalid, skipped), {} tiles left\n", moves.len(), r.leftover.len());
    emit(&out)?;
    if let Some(path) = &args.svg {
        let cells: Vec<(i32, i32, char)> =
            (0..board.tiles()).map(|i| ((i % board.width()) as i32, (i / board.width()) as i32, label(i))).collect();
        let title = format!("pairs {}x{}, {} tiles left", board.height(), board.width(), r.leftover.len());
        write_file(path, &board_svg(Lattice::Square, &cells, &title))?;
    }
    Ok(ExitCode::SUCCESS)
}
