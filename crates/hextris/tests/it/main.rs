//! Integration tests of hextris: the official data, the engine against the judge, the solver.

mod engine;
mod solver;
mod vectors;

use std::path::PathBuf;

/// A path in `../shared/` beside the workspace, with a clear failure if it is missing.
pub fn shared(path: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared").join(path);
    assert!(p.exists(), "missing {}: the shared data must sit beside the workspace as ../shared", p.display());
    p
}

/// Official problem `n`.
pub fn problem(n: usize) -> tessera_hextris::Problem {
    let path = shared(&format!("data/icfpc2015/problems/problem_{n}.json"));
    tessera_hextris::Problem::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}
