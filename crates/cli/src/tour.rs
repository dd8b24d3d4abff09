//! `tessera tour`: every game's default demonstration, with timings.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;
use tessera_game::tour::{Demo, plural};

use crate::common::{STOPPED_EARLY, ThreadsArg, emit, emit_json_sorted};

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
    /// Every demonstration run.
    demos: Vec<Entry>,
    /// Whether every one is ok.
    ok: bool,
    /// Set when Ctrl-C stopped the tour: how far it got.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
    /// Wall time of the whole tour.
    seconds: f64,
}

/// A demonstration as the tour reports it.
#[derive(Debug, Serialize)]
struct Entry {
    #[serde(flatten)]
    demo: Demo,
    /// Ctrl-C came while its game ran: its result may be cut short, so it is neither ok nor
    /// failed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stopped: bool,
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.stopped { f.write_str(&self.demo.line("stopped")) } else { write!(f, "{}", self.demo) }
    }
}

/// Runs the tour.
pub fn run(args: &TourArgs) -> Result<ExitCode> {
    let threads = args.threads.get();
    let start = Instant::now();
    if !args.json {
        emit(&format!("tessera tour ({})\n", plural(threads as u64, "thread", "threads")))?;
    }
    let mut demos = Vec::new();
    let games = crate::GAMES;
    for game in games {
        let batch = game.tour(threads);
        // A game whose run saw Ctrl-C may have been cut short: its demos are marked, and the
        // games after it are not run.
        let stopped = tessera_core::runtime::interrupted();
        for demo in batch {
            let entry = Entry { demo, stopped };
            if !args.json {
                emit(&format!("  {entry}\n"))?;
            }
            demos.push(entry);
        }
        if stopped {
            break;
        }
    }
    let ok = demos.iter().filter(|d| d.demo.ok && !d.stopped).count();
    let failed = demos.iter().any(|d| !d.demo.ok && !d.stopped);
    let seconds = start.elapsed().as_secs_f64();
    let stopped = tessera_core::runtime::interrupted().then(|| {
        let games_run = demos.iter().map(|d| d.demo.game).collect::<std::collections::BTreeSet<_>>().len();
        format!("stopped by Ctrl-C in game {games_run} of {}: {ok} demonstrations ok before it", games.len())
    });
    let all_ok = !failed && stopped.is_none();
    if args.json {
        emit_json_sorted(&TourReport { threads, demos, ok: all_ok, stopped: stopped.clone(), seconds })?;
    } else if let Some(line) = &stopped {
        emit(&format!("{line} ({seconds:.2} s)\n"))?;
    } else {
        emit(&format!("{ok} of {} demonstrations ok in {seconds:.2} s\n", demos.len()))?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else if stopped.is_some() {
        ExitCode::from(STOPPED_EARLY)
    } else {
        ExitCode::SUCCESS
    })
}
