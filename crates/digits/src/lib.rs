//! digits: Code Jam 2021 Round 1B "Digit Blocks": online stochastic placement of digits on towers.

use tessera_core::tour::Demo;

/// The digits entries of `tessera tour`.
pub fn tour(_threads: usize) -> Vec<Demo> {
    Vec::new()
}
