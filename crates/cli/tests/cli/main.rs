//! End-to-end tests of the `tessera` binary: what users type, what they get.

mod digits;
mod errors;
mod hextris;
mod interrupts;
mod pairs;
mod reports;
mod running;
mod tiling;
mod totems;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `tessera` with arguments.
pub fn tessera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera")).args(args).output().expect("the tessera binary runs")
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A data file of the workspace, by its path from the workspace root.
pub fn data(path: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    assert!(p.exists(), "missing {}", p.display());
    p
}

/// A fresh scratch directory for one test, in the build's own temporary folder (the next run
/// empties it again, and `cargo clean` removes it: nothing piles up in the system's).
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
