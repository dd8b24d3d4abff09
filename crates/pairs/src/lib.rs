//! pairs: TopCoder Marathon Match 100 "SameColorPairs": remove same-coloured pairs whose bounding box holds no other colour.

use tessera_core::tour::Demo;

/// The pairs entries of `tessera tour`.
pub fn tour(_threads: usize) -> Vec<Demo> {
    Vec::new()
}
