//! `tessera tour`: every game's default demonstration, with timings.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;

use crate::common::{ThreadsArg, print_json};

/// `tessera tour`.
#[derive(Debug, Args)]
pub struct TourArgs {
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// Runs the tour.
pub fn run(args: &TourArgs) -> Result<ExitCode> {
    let threads = args.threads.get();
    let start = Instant::now();
    if !args.json {
        println!("tessera tour ({threads} thread{})", if threads == 1 { "" } else { "s" });
    }
    let mut demos = Vec::new();
    for demo in tessera_tiling::tour(threads) {
        if !args.json {
            println!("  {demo}");
        }
        demos.push(demo);
    }
    let all_ok = demos.iter().all(|d| d.ok);
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        print_json(&serde_json::json!({ "threads": threads, "demos": demos, "ok": all_ok, "seconds": seconds }))?;
    } else {
        println!("{} of {} demonstrations ok in {:.2} s", demos.iter().filter(|d| d.ok).count(), demos.len(), seconds);
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
