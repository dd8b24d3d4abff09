//! Strategies: where each block goes, given the state and its digit.
//!
//! | name | what |
//! |---|---|
//! | `greedy` | the seed's greedy: nines on the tallest open tower, other digits on the tallest tower with two places left |
//! | `topR` (`top1`, `top2`, ...) | the optimal policy among those choosing only in the top R rows, lower rows filled one tower at a time ([`topr`]) |
//! | `best` | `topR` with the largest R whose table fits [`BEST_MAX_STATES`] (R = 6 for the official size; the greedy if not even top-1 fits) |
//! | `optimal` | the optimal policy of the full game (`topB`), for sizes of at most [`MAX_STATES`] states |

pub mod greedy;
pub mod topr;

use std::fmt;
use std::str::FromStr;

use crate::params::Params;
use crate::state::State;

/// Where blocks go.
pub trait Strategy: Send + Sync + fmt::Debug {
    /// The height of the tower the block `digit` goes on; an open height of `state`.
    fn choose(&self, state: &State, digit: u8) -> u32;

    /// The strategy's exact expected score per game, when it knows it (from its own tables).
    fn exact_value(&self) -> Option<f64> {
        None
    }
}

/// Why a strategy cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StrategyError {
    /// An unknown name.
    #[error("unknown strategy {0:?} (known: greedy, top1, top2, ..., best, optimal)")]
    Unknown(String),
    /// R out of range.
    #[error("top{r}: R must be between 1 and B = {b}")]
    BadRows {
        /// Rows asked for.
        r: u32,
        /// Tower height.
        b: u32,
    },
    /// The strategy's table is too large for this size.
    #[error(
        "{name} for {params} needs {} states; at most {max} are allowed (try a smaller R)",
        states.map_or("more than 2^64".to_string(), |s| s.to_string())
    )]
    TooLarge {
        /// The strategy.
        name: String,
        /// The game size.
        params: Params,
        /// States needed.
        states: Option<u64>,
        /// States allowed.
        max: u64,
    },
    /// The table could not be allocated.
    #[error("a table of {states} states needs more memory than this machine has available")]
    OutOfMemory {
        /// States asked for.
        states: u64,
    },
}

/// The largest table `best` builds: 2^23 states (64 MiB of values). For the official size that is
/// top-6 (8.0 million states, a quarter of a second), whose expected score is within the precision
/// of a double of S; larger R only costs time and memory.
pub const BEST_MAX_STATES: u64 = 1 << 23;

/// The largest table any top-R or `optimal` strategy builds: 2^27 states (1 GiB; top8 of the
/// official size has 70 million).
pub const MAX_STATES: u64 = 1 << 27;

/// A strategy by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StrategyName {
    /// [`greedy::Greedy`].
    Greedy,
    /// [`topr::TopR`] with this many rows.
    Top(u32),
    /// The largest top-R within [`BEST_MAX_STATES`].
    Best,
    /// The full game's optimal policy.
    Optimal,
}

impl FromStr for StrategyName {
    type Err = StrategyError;
    fn from_str(s: &str) -> Result<Self, StrategyError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "greedy" => return Ok(StrategyName::Greedy),
            "best" => return Ok(StrategyName::Best),
            "optimal" => return Ok(StrategyName::Optimal),
            _ => {}
        }
        let digits = t.strip_prefix("top").map(|d| d.trim_start_matches(['-', '_']));
        match digits.and_then(|d| d.parse::<u32>().ok()) {
            Some(r) if r >= 1 => Ok(StrategyName::Top(r)),
            _ => Err(StrategyError::Unknown(s.to_string())),
        }
    }
}

impl fmt::Display for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrategyName::Greedy => f.write_str("greedy"),
            StrategyName::Top(r) => write!(f, "top{r}"),
            StrategyName::Best => f.write_str("best"),
            StrategyName::Optimal => f.write_str("optimal"),
        }
    }
}

/// Written by name, as [`Display`](fmt::Display) writes it.
impl serde::Serialize for StrategyName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Read by name, as [`FromStr`] reads it.
impl<'de> serde::Deserialize<'de> for StrategyName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl StrategyName {
    /// Every kind of strategy with a line about it.
    pub const HELP: &'static [(&'static str, &'static str)] = &[
        ("greedy", "nines on the tallest open tower, other digits on the tallest tower with two places left"),
        (
            "topR",
            "optimal when choosing among the top R rows only, lower rows filled one tower at a time (top1, top2, ...)",
        ),
        (
            "best",
            "topR with the largest R whose table has at most 2^23 states (R = 6 for N=20 B=15; optimal when it fits)",
        ),
        ("optimal", "the optimal policy of the full game (topB), for sizes of at most 2^27 states"),
    ];

    /// What `best` and `optimal` stand for at a size.
    pub fn resolve(self, params: Params) -> StrategyName {
        match self {
            StrategyName::Best => best_rows(params).map_or(StrategyName::Greedy, StrategyName::Top),
            StrategyName::Optimal => StrategyName::Top(params.b),
            other => other,
        }
    }

    /// The strategy adapted to a size it may not have been named for: `topR` with `R > B` is
    /// `topB` (what a player does when the judge's towers are lower than expected).
    pub fn fit(self, params: Params) -> StrategyName {
        match self {
            StrategyName::Top(r) if r > params.b => StrategyName::Top(params.b),
            other => other,
        }
    }

    /// Builds the strategy for a game size (solving its tables).
    pub fn build(self, params: Params) -> Result<Box<dyn Strategy>, StrategyError> {
        Ok(match self {
            StrategyName::Greedy => Box::new(greedy::Greedy),
            StrategyName::Top(r) => Box::new(topr::TopR::new(params, r, MAX_STATES)?),
            StrategyName::Best => match best_rows(params) {
                Some(r) => Box::new(topr::TopR::new(params, r, BEST_MAX_STATES)?),
                None => Box::new(greedy::Greedy),
            },
            StrategyName::Optimal => Box::new(topr::TopR::new(params, params.b, MAX_STATES)?),
        })
    }
}

/// The R of `best`: the largest whose table has at most [`BEST_MAX_STATES`] states; `None` if
/// not even top-1 fits (hundreds of thousands of towers), and `best` is then the greedy.
pub fn best_rows(params: Params) -> Option<u32> {
    (1..=params.b).rev().find(|&r| topr::state_count(params, r).is_some_and(|s| s <= BEST_MAX_STATES))
}
