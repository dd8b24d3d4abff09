//! The solver: an anytime search that stops as soon as the board is clear.
//!
//! * [`region`]: a construction that clears the board block by block, from the border inwards;
//! * [`ruin`]: ruin and recreate around the tiles left over;
//! * [`local`]: the small search with undo that both use to pair the tiles in play (one trial
//!   over every tile is a randomised greedy that cannot be extended);
//! * [`search`]: rounds of the above, restarted when ruin and recreate stalls; independent
//!   searches in parallel ([`solve_portfolio`]).

pub mod exact;
pub mod local;
pub mod prove;
pub mod region;
pub mod ruin;
pub mod search;

pub use search::{Params, Solution, solve, solve_portfolio};
