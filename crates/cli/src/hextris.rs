//! `tessera hextris ...`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};
use tessera_core::runtime::Budget;
use tessera_hextris::judge::{Verdict, score};
use tessera_hextris::solver::{Game, Settings, problem_score, solve};
use tessera_hextris::{Phrases, Problem, builtin};

use crate::common::{emit, emit_json};

/// `tessera hextris`.
#[derive(Debug, Subcommand)]
pub enum HextrisCommand {
    /// Solve problems, as the contest's command line did: writes the JSON list of solutions.
    Solve(SolveArgs),
    /// Score solutions (the JSON list) as the organisers' evaluator did.
    Score(ScoreArgs),
    /// Per-problem size, units and seeds.
    Stats(StatsArgs),
}

/// `-p PHRASE`, repeatable: the phrases of power (default: the official eighteen).
#[derive(Debug, Clone, Args)]
pub struct PhraseArgs {
    /// A phrase of power (repeatable) [default: the 18 official phrases].
    #[arg(short = 'p', long = "phrase", value_name = "PHRASE")]
    phrases: Vec<String>,
}

impl PhraseArgs {
    fn get(&self) -> Result<Phrases> {
        if self.phrases.is_empty() {
            Ok(Phrases::official())
        } else {
            Phrases::new(self.phrases.iter().cloned()).context("bad -p")
        }
    }
}

/// `tessera hextris solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A problem file (repeatable); a name like `6` or `problem_6` that is not a file stands for
    /// that qualifying problem, built in.
    #[arg(short = 'f', long = "file", value_name = "FILE", required = true)]
    files: Vec<String>,
    /// Total wall time for all problems, in seconds [default: 5 per problem].
    #[arg(short = 't', long = "time", value_name = "SECONDS", value_parser = positive_seconds)]
    time: Option<f64>,
    /// Memory limit in megabytes (the solver stays far below it).
    #[arg(short = 'm', long = "memory", value_name = "MB")]
    memory: Option<u64>,
    /// Cores to use [default: all].
    #[arg(short = 'c', long = "cores", value_name = "CORES", value_parser = clap::value_parser!(u64).range(1..=1024))]
    cores: Option<u64>,
    #[command(flatten)]
    phrases: PhraseArgs,
    /// The widest beam to try (the search widens while time is left).
    #[arg(long, value_name = "W", default_value_t = 1 << 16, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    max_width: u64,
    /// The tag written into each solution.
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
    /// Print the verdicts as JSON.
    #[arg(long)]
    json: bool,
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

/// One solution as the contest took them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Solution {
    /// The problem's id.
    #[serde(rename = "problemId")]
    pub problem_id: i64,
    /// The seed.
    pub seed: u32,
    /// A free-form tag.
    #[serde(default)]
    pub tag: String,
    /// The commands.
    pub solution: String,
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
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
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    Problem::parse(&text).with_context(|| format!("bad problem in {name}"))
}

/// Runs a `tessera hextris` command.
pub fn run(cmd: HextrisCommand) -> Result<ExitCode> {
    match cmd {
        HextrisCommand::Solve(args) => solve_cmd(&args),
        HextrisCommand::Score(args) => score_cmd(&args),
        HextrisCommand::Stats(args) => stats_cmd(&args),
    }
}

fn solve_cmd(args: &SolveArgs) -> Result<ExitCode> {
    let problems: Vec<Problem> = args.files.iter().map(|f| load_problem(f)).collect::<Result<_>>()?;
    let phrases = args.phrases.get()?;
    let threads = args.cores.map_or_else(tessera_core::runtime::default_threads, |c| c as usize);
    let total = args.time.unwrap_or(5.0 * problems.len() as f64);
    let _ = args.memory; // the solver needs a few megabytes per thread at most
    let started = Instant::now();
    // Time is shared by the work each problem holds: seeds times units.
    let work: Vec<f64> = problems.iter().map(|p| (p.source_seeds.len() * p.source_length.max(1)) as f64).collect();
    let settings = Settings { phrases, max_width: args.max_width as usize, ..Settings::default() };
    let mut out = Vec::new();
    for (i, p) in problems.iter().enumerate() {
        // What is left, less a margin for writing the answer, shared by the problems left.
        let left = (total * 0.97 - started.elapsed().as_secs_f64() - 0.05).max(0.0);
        let share = left * work[i] / work[i..].iter().sum::<f64>();
        let budget = Budget::unlimited().with_time(Duration::from_secs_f64(share));
        let games = solve(p, &settings, &budget, threads, |r| {
            if !args.quiet {
                eprintln!(
                    "problem {}: width {:>5}, score {} ({} seeds improved, {:.1} s)",
                    p.id, r.width, r.score, r.improved, r.seconds
                );
            }
        })
        .with_context(|| format!("problem {}", p.id))?;
        if !args.quiet {
            eprintln!("problem {}: score {} over {} seeds", p.id, problem_score(&games), games.len());
        }
        out.extend(games.into_iter().map(|g| solution(p, g, &args.tag)));
    }
    emit(&format!("{}\n", serde_json::to_string(&out)?))?;
    Ok(ExitCode::SUCCESS)
}

fn solution(p: &Problem, g: Game, tag: &str) -> Solution {
    Solution { problem_id: p.id, seed: g.seed, tag: format!("{tag} {}", g.verdict.score), solution: g.text }
}

/// Reads a solutions file (`-`: stdin).
fn read_solutions(path: &Path) -> Result<Vec<Solution>> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read stdin")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    serde_json::from_str(&text).with_context(|| format!("{}: not a JSON list of solutions", path.display()))
}

/// What `score` prints per seed.
#[derive(Debug, Serialize)]
struct Scored {
    seed: u32,
    #[serde(flatten)]
    verdict: Verdict,
}

fn score_cmd(args: &ScoreArgs) -> Result<ExitCode> {
    let p = load_problem(&args.file)?;
    let phrases = args.phrases.get()?;
    let solutions = read_solutions(&args.solutions)?;
    let mut scored: Vec<Scored> = Vec::new();
    let mut others = 0;
    for s in solutions {
        if s.problem_id != p.id {
            others += 1;
            continue;
        }
        // The contest kept the latest solution for each seed.
        scored.retain(|x| x.seed != s.seed);
        scored.push(Scored { seed: s.seed, verdict: score(&p, s.seed, &s.solution, &phrases) });
    }
    // The leaderboard: the floor of the mean over all the problem's seeds, a missing one 0.
    let total: u64 =
        p.source_seeds.iter().map(|&seed| scored.iter().find(|x| x.seed == seed).map_or(0, |x| x.verdict.score)).sum();
    let board = total / p.source_seeds.len() as u64;
    let missing = p.source_seeds.iter().filter(|&&seed| !scored.iter().any(|x| x.seed == seed)).count();
    if args.json {
        emit_json(&serde_json::json!({
            "game": "hextris", "problem": p.id, "score": board, "missing_seeds": missing,
            "other_problems": others, "seeds": scored,
        }))?;
    } else {
        let mut text = String::new();
        for x in &scored {
            let v = &x.verdict;
            let error = v.error.map_or(String::new(), |_| format!(", error: {}", v.evaluator_error));
            text += &format!(
                "seed {:>5}: score {:>6} = move {} + power {} ({} locked, {} lines, {} phrases); {}{error}\n",
                x.seed,
                v.score,
                v.move_score,
                v.power_score,
                v.locked,
                v.lines_cleared,
                v.phrases.len(),
                serde_json::to_value(v.end_state)?.as_str().unwrap_or("")
            );
        }
        text += &format!(
            "problem {}: score {board} ({} seeds, {missing} without a solution)\n",
            p.id,
            p.source_seeds.len()
        );
        if others > 0 {
            text += &format!("({others} solutions for other problems ignored)\n");
        }
        emit(&text)?;
    }
    let errors = scored.iter().any(|x| x.verdict.error.is_some());
    Ok(if errors { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn stats_cmd(args: &StatsArgs) -> Result<ExitCode> {
    let problems: Vec<Problem> = if args.files.is_empty() {
        (0..builtin::COUNT).filter_map(builtin::problem).collect()
    } else {
        args.files.iter().map(|f| load_problem(f)).collect::<Result<_>>()?
    };
    let rows: Vec<serde_json::Value> = problems
        .iter()
        .map(|p| {
            let sizes: Vec<usize> = p.units.iter().map(|u| u.members.len()).collect();
            serde_json::json!({
                "problem": p.id, "width": p.width, "height": p.height, "cells": p.width * p.height,
                "filled": p.filled.len(), "units": p.units.len(),
                "unit_sizes": [sizes.iter().min(), sizes.iter().max()],
                "source_length": p.source_length, "seeds": p.source_seeds.len(),
            })
        })
        .collect();
    if args.json {
        emit_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::from("problem  size     filled  units (cells)  source  seeds\n");
    for p in &problems {
        let sizes: Vec<usize> = p.units.iter().map(|u| u.members.len()).collect();
        let (lo, hi) = (sizes.iter().min().unwrap_or(&0), sizes.iter().max().unwrap_or(&0));
        text += &format!(
            "{:>7}  {:<7}  {:>6}  {:>5} ({:>2}-{:<2})  {:>6}  {:>5}\n",
            p.id,
            format!("{}x{}", p.width, p.height),
            p.filled.len(),
            p.units.len(),
            lo,
            hi,
            p.source_length,
            p.source_seeds.len()
        );
    }
    emit(&text)?;
    if problems.iter().any(|p| p.width > tessera_hextris::engine::MAX_WIDTH) {
        bail!("some problems are wider than the solver's {} columns", tessera_hextris::engine::MAX_WIDTH);
    }
    Ok(ExitCode::SUCCESS)
}
