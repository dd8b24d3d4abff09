//! Splitting work across processes or machines: shard `I` of `N` takes the jobs (or parts of
//! a search) whose index is `I - 1` modulo `N`.

use std::str::FromStr;

/// Shard `index` (1-based) of `count`: the jobs whose index is `index - 1` modulo `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 1, count: 1 }
    }
}

impl Shard {
    /// Whether job `job` belongs to this shard.
    pub fn holds(self, job: u64) -> bool {
        job % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("bad shard {s:?}: expected I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parses_and_partitions() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for job in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.holds(job)).count(), 1);
        }
    }
}
