//! Integration tests of the tiling engine: known counts, engine cross-checks, planted puzzles,
//! counts split into shards.

mod known;
mod planted;
mod shards;
