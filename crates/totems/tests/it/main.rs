//! Integration tests of totems: the known ceilings, the game over a real WebSocket, planted
//! packings, and every solver's answers checked by the validator.

mod ceilings;
mod game;
mod planted;
