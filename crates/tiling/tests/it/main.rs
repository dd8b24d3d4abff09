//! Integration tests of the tiling engine: known counts, engine cross-checks, planted puzzles.

mod known;
mod planted;
