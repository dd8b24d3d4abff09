//! The solver: where each unit locks (a beam search over the known source), then the text that
//! takes each unit there while spelling phrases of power, then the judge's score of the result.
//!
//! [`solve`] is anytime (the module `anytime`). It first plans every seed with a beam of width 1
//! under each set of weights of the portfolio and keeps, per seed, the set whose plan promises
//! most; then it widens the beam (2, 4, 8, ...), reworks the best games (cut at a unit and
//! planned again from there, see [`Solver::rework`]) and grafts the phrases a game misses where
//! they run through several units (see [`Solver::graft`]), each with a share of the time.
//!
//! The modules, each using only those listed after it (and none of them this one):
//!
//! * `anytime`: [`solve`], the use of the time: widening, reworking, grafting;
//! * `exact`: short games searched over every text, their best game proven optimal;
//! * `single_cells`: games whose units all are single cells, a beam over every lock and text;
//! * [`tune`]: tuning the weights of the position evaluation on training games;
//! * `rework`: a finished game planned again from a unit on ([`Try`]);
//! * `graft`: long phrases run through several units of a finished game;
//! * `spell`: a plan spelled into a game, unit by unit, phrases carried across locks;
//! * `game`: a solved [`Game`], and the same game with its plan ([`Grown`]);
//! * `setup`: the [`Settings`] and a problem prepared for solving ([`Solver`]);
//! * `speller`: one unit's text from its spawn to its lock, spelling all it can;
//! * `sweep`: the exact best text of a unit over walks that cross each row one way;
//! * `unturned`: the exact best text of a unit that cannot turn;
//! * `bridge`: phrases that cross a lock, split between two or three units;
//! * `walk`: where a phrase's commands take a unit, worked out once per phrase;
//! * `automaton`: the phrases' automaton (Aho–Corasick), for `exact`, `sweep` and `unturned`;
//! * [`beam`]: the beam search over lock positions ([`beam::Plan`]);
//! * [`features`]: the position evaluation and its [`Weights`].

/// The points a phrase of power earns the first time it is spelled in a game, beside its two
/// points a letter for every time (the contest's rule; the judge keeps its own copy of it).
pub(crate) const PHRASE_BONUS: i64 = 300;

mod anytime;
mod automaton;
pub mod beam;
mod bridge;
mod exact;
pub mod features;
mod game;
mod graft;
mod rework;
mod setup;
mod single_cells;
mod spell;
mod speller;
mod sweep;
pub mod tune;
mod unturned;
mod walk;

pub use anytime::{Phase, Round, solve, working_seconds};
pub use features::{Portfolio, Weights};
pub use game::{Game, Grown, problem_score};
pub use rework::Try;
pub use setup::{Settings, Solver};
