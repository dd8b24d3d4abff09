//! Integration tests of pairs: the generator against the official tester's boards, the validator,
//! the solver's outputs checked by the validator.

mod official;
