//! `tessera view`: the local web viewer.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use tessera_game::document;
use tessera_viewer::Viewer;

use crate::GAMES;

use crate::common::ThreadsArg;

/// `tessera view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Address to listen on (loopback by default: the page is for this machine).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Result files to show: what `solve --json`, `eval --json` and `eval --jsonl` write, the
    /// solutions list that `hextris solve` writes, and `totems round --json`, `digits value --json`
    /// and `digits judge --json`.
    #[arg(value_name = "FILES")]
    files: Vec<String>,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// Loads the files, then serves the page until interrupted.
pub fn run(args: &ViewArgs) -> Result<ExitCode> {
    let mut docs = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        let name = std::path::Path::new(path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        docs.push(document(GAMES, &name, &text).with_context(|| path.clone())?);
    }
    let viewer = Viewer::bind(&args.addr, GAMES, docs, args.threads.get())?;
    match viewer.addr() {
        Some(a) => eprintln!("tessera viewer at http://{a}/ (Ctrl-C to stop)"),
        None => eprintln!("tessera viewer listening on {} (Ctrl-C to stop)", args.addr),
    }
    crate::common::quit_on_interrupt(|| viewer.run(None));
    Ok(ExitCode::SUCCESS)
}
