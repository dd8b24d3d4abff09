//! Integration tests of digits: the exact optimum against an independent brute force, strategies
//! and their exact values, the protocol, the judge and the player.

mod brute;
mod official;
mod protocol;
mod strategies;
