//! hextris: ICFP Contest 2015: hexagonal Tetris with phrases of power.

use tessera_core::tour::Demo;

/// The hextris entries of `tessera tour`.
pub fn tour(_threads: usize) -> Vec<Demo> {
    Vec::new()
}
