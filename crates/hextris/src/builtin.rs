//! The 25 qualifying problems of the contest, built in.

use crate::problem::Problem;

/// The problems' JSON texts, by number.
const TEXTS: [&str; 25] = [
    include_str!("../problems/problem_0.json"),
    include_str!("../problems/problem_1.json"),
    include_str!("../problems/problem_2.json"),
    include_str!("../problems/problem_3.json"),
    include_str!("../problems/problem_4.json"),
    include_str!("../problems/problem_5.json"),
    include_str!("../problems/problem_6.json"),
    include_str!("../problems/problem_7.json"),
    include_str!("../problems/problem_8.json"),
    include_str!("../problems/problem_9.json"),
    include_str!("../problems/problem_10.json"),
    include_str!("../problems/problem_11.json"),
    include_str!("../problems/problem_12.json"),
    include_str!("../problems/problem_13.json"),
    include_str!("../problems/problem_14.json"),
    include_str!("../problems/problem_15.json"),
    include_str!("../problems/problem_16.json"),
    include_str!("../problems/problem_17.json"),
    include_str!("../problems/problem_18.json"),
    include_str!("../problems/problem_19.json"),
    include_str!("../problems/problem_20.json"),
    include_str!("../problems/problem_21.json"),
    include_str!("../problems/problem_22.json"),
    include_str!("../problems/problem_23.json"),
    include_str!("../problems/problem_24.json"),
];

/// How many problems are built in.
pub const COUNT: usize = TEXTS.len();

/// Qualifying problem `n` (0 to 24).
#[must_use]
pub fn problem(n: usize) -> Option<Problem> {
    TEXTS.get(n).map(|t| Problem::parse(t).expect("the built-in problems are valid"))
}

/// The built-in problem a name stands for: `6`, `problem_6` or `problem_6.json`.
#[must_use]
pub fn by_name(name: &str) -> Option<Problem> {
    let n = name.strip_suffix(".json").unwrap_or(name);
    let n = n.strip_prefix("problem_").unwrap_or(n);
    n.parse().ok().and_then(problem)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_problem_is_built_in_under_its_number() {
        for n in 0..super::COUNT {
            assert_eq!(super::problem(n).unwrap().id, n as i64);
        }
        assert_eq!(super::by_name("problem_24.json").unwrap().width, 100);
        assert!(super::by_name("25").is_none() && super::by_name("x").is_none());
    }
}
