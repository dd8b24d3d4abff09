//! `tessera tour`: every game's default demonstration, with timings.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;
use tessera_core::tour::{Demo, plural};

use crate::common::{ThreadsArg, emit, emit_json_sorted};

/// `tessera tour`.
#[derive(Debug, Args)]
pub struct TourArgs {
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// What `tour --json` writes (its keys sorted, as they have always been).
#[derive(Debug, Serialize)]
struct TourReport {
    /// Worker threads.
    threads: usize,
    /// Every demonstration.
    demos: Vec<Demo>,
    /// Whether every one is ok.
    ok: bool,
    /// Wall time of the whole tour.
    seconds: f64,
}

/// Runs the tour.
pub fn run(args: &TourArgs) -> Result<ExitCode> {
    let threads = args.threads.get();
    let start = Instant::now();
    if !args.json {
        emit(&format!("tessera tour ({})\n", plural(threads as u64, "thread", "threads")))?;
    }
    let mut demos = Vec::new();
    let games =
        [tessera_tiling::tour, tessera_totems::tour, tessera_digits::tour, tessera_hextris::tour, tessera_pairs::tour];
    for demo in games.iter().flat_map(|tour| tour(threads)) {
        if !args.json {
            emit(&format!("  {demo}\n"))?;
        }
        demos.push(demo);
    }
    let all_ok = demos.iter().all(|d| d.ok);
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        emit_json_sorted(&TourReport { threads, demos, ok: all_ok, seconds })?;
    } else {
        emit(&format!(
            "{} of {} demonstrations ok in {seconds:.2} s\n",
            demos.iter().filter(|d| d.ok).count(),
            demos.len()
        ))?;
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
