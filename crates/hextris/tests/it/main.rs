//! Integration tests of hextris: the official data, the engine against the judge, the solver.

mod engine;
mod generated;
mod solver;
mod vectors;

use std::path::PathBuf;

/// A path in the crate, with a clear failure if it is missing.
pub fn data(path: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    assert!(p.exists(), "missing {}", p.display());
    p
}

/// Official problem `n`.
pub fn problem(n: usize) -> tessera_hextris::Problem {
    let path = data(&format!("problems/problem_{n}.json"));
    tessera_hextris::Problem::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}
