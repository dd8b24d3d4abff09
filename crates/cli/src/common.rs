//! Options and helpers shared by every game's commands.

use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use tessera_core::eval::{Record, Shard, read_records};
use tessera_core::rng::fresh_seed;

/// `--threads`.
#[derive(Debug, Clone, Args)]
pub struct ThreadsArg {
    /// Worker threads [default: the number of cores].
    #[arg(long, short = 'j', value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
}

impl ThreadsArg {
    /// The thread count, defaulting to the number of cores.
    pub fn get(&self) -> usize {
        self.threads.map_or_else(tessera_core::runtime::default_threads, |t| t as usize)
    }
}

/// `--seed`: printed on stderr when chosen at random, so that any run can be repeated.
#[derive(Debug, Clone, Args)]
pub struct SeedArg {
    /// Random seed [default: drawn from the clock, and printed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The seed to use; announces it on stderr.
    pub fn get(&self) -> u64 {
        let seed = self.seed.unwrap_or_else(fresh_seed);
        eprintln!("seed: {seed}");
        seed
    }
}

/// `--budget-ms`.
#[derive(Debug, Clone, Args)]
pub struct BudgetArg {
    /// Time limit in milliseconds [default: none].
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
}

impl BudgetArg {
    /// The time limit, if any.
    pub fn get(&self) -> Option<Duration> {
        self.budget_ms.map(Duration::from_millis)
    }
}

/// `--shard I/N`, `--jsonl FILE`, `--merge FILE...`: splitting an evaluation across machines.
#[derive(Debug, Clone, Args)]
pub struct ShardArgs {
    /// Run only shard I of N (1-based): the jobs whose index is I-1 modulo N.
    #[arg(long, value_name = "I/N", default_value = "1/1")]
    pub shard: Shard,
    /// Also write every job's result as a JSON line to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<String>,
    /// Do not run anything: summarise the JSON lines of earlier runs (shards) instead.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "jsonl")]
    pub merge: Vec<String>,
}

impl ShardArgs {
    /// Opens the JSON-lines sink, if one was asked for.
    pub fn sink(&self) -> Result<Option<Box<dyn Write + Send>>> {
        match self.jsonl.as_deref() {
            None => Ok(None),
            Some("-") => Ok(Some(Box::new(std::io::stdout()))),
            Some(path) => {
                let f = File::create(path).with_context(|| format!("cannot create {path}"))?;
                Ok(Some(Box::new(BufWriter::new(f))))
            }
        }
    }

    /// Reads and merges the records of `--merge` files.
    pub fn merged<R: serde::de::DeserializeOwned>(&self) -> Result<Vec<Record<R>>> {
        let mut all = Vec::new();
        for path in &self.merge {
            let mut text = String::new();
            open(path)?.read_to_string(&mut text).with_context(|| format!("cannot read {path}"))?;
            all.extend_from_slice(text.as_bytes());
            all.push(b'\n');
        }
        read_records(&all[..]).map_err(|e| anyhow::anyhow!("{e}"))
    }
}

/// Opens a file for reading, `-` meaning stdin.
pub fn open(path: &str) -> Result<Box<dyn Read>> {
    if path == "-" {
        if std::io::stdin().is_terminal() {
            eprintln!("reading from stdin (end with Ctrl-D)");
        }
        return Ok(Box::new(std::io::stdin()));
    }
    let f = File::open(path).with_context(|| format!("cannot open {path}"))?;
    Ok(Box::new(BufReader::new(f)))
}

/// Reads a whole text file (`-`: stdin).
pub fn read_text(path: &str) -> Result<String> {
    let mut s = String::new();
    open(path)?.read_to_string(&mut s).with_context(|| format!("cannot read {path} as UTF-8 text"))?;
    Ok(s)
}

/// Writes `text` to `path`, naming the path in errors.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    if path.as_os_str().is_empty() {
        bail!("empty output path");
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Prints a value as one line of JSON on stdout.
pub fn print_json(value: &impl serde::Serialize) -> Result<()> {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
}
