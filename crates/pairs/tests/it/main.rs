//! Integration tests of pairs: the generator against the official tester's boards, the validator,
//! the solver's outputs checked by the validator, property tests.

mod official;
mod props;
mod solver;
