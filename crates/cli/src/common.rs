//! Options and helpers shared by every game's commands.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tessera_core::rng::fresh_seed;
use tessera_core::runtime::{Budget, Outcome};
use tessera_game::eval::{EvalRun, Record, Shard, StopMark, merge_records};
use tessera_game::tour::plural;

/// Exit status of a search stopped before it finished (time budget or Ctrl-C): its output is a
/// partial answer.
pub const STOPPED_EARLY: u8 = 3;

/// Exit status after a Ctrl-C that ends the process (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT: i32 = 130;

static QUIT_ON_INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Runs `f` with Ctrl-C ending the process at once (exit status [`INTERRUPTED_EXIT`]): for the
/// parts of a command that wait on stdin, a peer or the network, where no search could stop and
/// report. Elsewhere the first Ctrl-C asks the searches to stop and the command reports what it
/// has.
pub fn quit_on_interrupt<T>(f: impl FnOnce() -> T) -> T {
    /// Restores the usual Ctrl-C when `f` returns or unwinds.
    struct Restore;
    impl Drop for Restore {
        fn drop(&mut self) {
            QUIT_ON_INTERRUPT.store(false, Ordering::SeqCst);
        }
    }
    QUIT_ON_INTERRUPT.store(true, Ordering::SeqCst);
    let _restore = Restore;
    if tessera_core::runtime::interrupted() {
        std::process::exit(INTERRUPTED_EXIT);
    }
    f()
}

/// What Ctrl-C does: ends the process while a command waits ([`quit_on_interrupt`]) or on the
/// second press; otherwise asks every search to stop and report.
///
/// A signal handler, not a thread that waits for the signal: such a thread costs every process
/// a few tenths of a millisecond to start and to end, a tenth of a small board's solve.
pub fn catch_interrupts() {
    use signal_hook::{consts::SIGINT, flag};
    let interrupted = tessera_core::runtime::interrupt_flag();
    // The handler's actions run in this order. The flag is set before the waiting check, so a
    // command entering `quit_on_interrupt` in between sees the flag there and quits (both sides
    // are sequentially consistent). Failing to install them leaves the default Ctrl-C, which
    // ends the process: nothing worth stopping for.
    let _ = flag::register_conditional_shutdown(SIGINT, INTERRUPTED_EXIT, interrupted);
    let _ = flag::register(SIGINT, interrupted);
    let _ = flag::register_conditional_shutdown(SIGINT, INTERRUPTED_EXIT, &QUIT_ON_INTERRUPT);
}

/// `--threads`.
#[derive(Debug, Clone, Args)]
pub struct ThreadsArg {
    /// Worker threads [default: the number of cores].
    #[arg(long, short = 'j', value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1024), allow_negative_numbers = true)]
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
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
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
    #[arg(long, value_name = "MS", value_parser = at_least_one, allow_negative_numbers = true)]
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
    #[arg(long, value_name = "I/N", default_value = "1/1", conflicts_with = "merge")]
    pub shard: Shard,
    /// Also write every job's result as a JSON line to FILE (`-`: stdout, the summary then goes
    /// to stderr).
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    pub jsonl: Option<String>,
    /// Do not run anything: summarise the JSON lines of earlier runs (shards) instead.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "seed")]
    pub merge: Vec<String>,
    /// Also write a self-contained HTML report (rates with their intervals, histograms) to OUT.
    #[arg(long, value_name = "OUT")]
    pub html: Option<String>,
}

impl ShardArgs {
    /// Opens the JSON-lines sink, if one was asked for (and checks that the `--html` report
    /// can be written: both before the run).
    fn sink(&self) -> Result<Option<LineSink>> {
        if let Some(path) = &self.html {
            check_writable(Path::new(path))?;
        }
        match self.jsonl.as_deref() {
            None => Ok(None),
            Some("-") => Ok(Some(LineSink::new(Box::new(io::stdout()), "to stdout"))),
            Some(path) => {
                let f = File::create(path).with_context(|| format!("cannot create {path}"))?;
                Ok(Some(LineSink::new(Box::new(f), path)))
            }
        }
    }

    /// Reads and merges the records of `--merge` files; warns on stderr about missing jobs.
    /// Gives the records and the stop marks of shards that were stopped early.
    fn merged<R: DeserializeOwned>(&self) -> Result<(Vec<Record<R>>, Vec<StopMark>)> {
        let mut sources = Vec::new();
        for (k, path) in self.merge.iter().enumerate() {
            if self.merge[..k].contains(path) {
                eprintln!("warning: {path} is given twice: read once");
                continue;
            }
            if Path::new(path).is_dir() {
                bail!("cannot read {path}: it is a directory");
            }
            let f = File::open(path).with_context(|| format!("cannot open {path}"))?;
            sources.push((path.clone(), BufReader::new(f)));
        }
        let merged = merge_records(sources).map_err(anyhow::Error::msg)?;
        if merged.missing_count > 0 {
            let listed: Vec<String> = merged.missing.iter().take(10).map(u64::to_string).collect();
            let more = if merged.missing_count > 10 { ", ..." } else { "" };
            let why = if merged.stopped.is_empty() { "a shard is missing?" } else { "a shard was stopped" };
            eprintln!(
                "warning: {} of {} jobs have no record (jobs {}{more}): {why}",
                merged.missing_count,
                merged.of,
                listed.join(", "),
            );
        }
        if merged.repeated > 0 {
            let records = plural(merged.repeated, "record", "records");
            eprintln!("warning: {records} of jobs recorded before: the first kept");
        }
        for (path, mark) in &merged.stopped {
            eprintln!("warning: {path}: this run was {mark}");
        }
        Ok((merged.records, merged.stopped.into_iter().map(|(_, m)| m).collect()))
    }

    /// Writes the `--html` report of the run's records, if one was asked for; a stopped run's
    /// report says so in its name and first figure.
    fn report<R: Serialize>(&self, name: &str, records: &[Record<R>], stopped: &[String]) -> Result<()> {
        let Some(path) = &self.html else { return Ok(()) };
        let lines: Vec<String> = records.iter().map(serde_json::to_string).collect::<Result<_, _>>()?;
        let mut doc =
            tessera_game::document(crate::GAMES, name, &lines.join("\n")).context("cannot make the report")?;
        if !stopped.is_empty() {
            let what = stopped.join("; ");
            doc.name = format!("{}, stopped", doc.name);
            if let Some(tessera_viewer::view::View::Charts(charts)) = doc.views.first_mut() {
                charts.figures.insert(0, ("STOPPED".into(), format!("{what}: the figures cover only those jobs")));
            }
        }
        write_file(Path::new(path), &tessera_viewer::report::html(&doc))
    }
}

/// An evaluation's summary, as every eval command prints it: text, or a line of JSON.
pub trait Summary: Serialize + std::fmt::Display {
    /// Whether the run gave a wrong answer: the command then fails.
    fn failed(&self) -> bool;

    /// How far the run got, when the summary itself knows it was stopped (its text and JSON then
    /// say so, in the game's words); `None` leaves that to the run's stop marks.
    fn stopped(&self) -> Option<String> {
        None
    }
}

/// The jobs of this shard of an evaluation, for an eval command to run.
#[derive(Debug)]
pub struct Jobs<'a> {
    shard: &'a ShardArgs,
    label: &'a str,
    /// Set by [`Jobs::run`] when the run stopped early.
    stopped: std::cell::RefCell<Option<StopMark>>,
}

impl Jobs<'_> {
    /// Runs this shard's jobs of a run of `jobs` jobs with base seed `seed` on `threads` workers,
    /// each record written to `--jsonl` as its job finishes; `job` gets a job's index and seed.
    /// After Ctrl-C, gives the jobs that finished before it (and [`eval`] says the run stopped).
    pub fn run<R, F>(&self, jobs: u64, seed: u64, threads: usize, job: F) -> Result<Vec<Record<R>>>
    where
        R: Serialize + Send,
        F: Fn(u64, u64) -> R + Sync,
    {
        self.run_with(false, jobs, seed, threads, job)
    }

    /// [`Jobs::run`], keeping the record of the job that Ctrl-C cut short (for a game whose
    /// partial answer is still an answer, and whose record says it was cut short).
    pub fn run_keeping_cut_short<R, F>(&self, jobs: u64, seed: u64, threads: usize, job: F) -> Result<Vec<Record<R>>>
    where
        R: Serialize + Send,
        F: Fn(u64, u64) -> R + Sync,
    {
        self.run_with(true, jobs, seed, threads, job)
    }

    fn run_with<R, F>(
        &self,
        keep_cut_short: bool,
        jobs: u64,
        seed: u64,
        threads: usize,
        job: F,
    ) -> Result<Vec<Record<R>>>
    where
        R: Serialize + Send,
        F: Fn(u64, u64) -> R + Sync,
    {
        let shard = self.shard.shard;
        let run = EvalRun { jobs, seed, threads, shard, keep_cut_short };
        let mut sink = self.shard.sink()?;
        let bar = crate::progress::bar(self.label, run.shard_jobs());
        let ran = run.run(&Budget::unlimited(), sink.as_mut(), &|| bar.inc(1), job);
        crate::progress::done(&bar);
        let ran = ran?;
        *self.stopped.borrow_mut() = ran.stopped;
        Ok(ran.records)
    }
}

/// An eval command, the same for every game once it knows its jobs:
///
/// 1. `run` runs this shard's jobs, and gives what the run knows that its records do not say;
///    with `--merge`, the records of earlier runs are read instead;
/// 2. `summarise` summarises the records, given what the run knew (`None` for merged records);
/// 3. the `--html` report is written;
/// 4. the summary is printed as text, or as JSON with `json` (on stderr when the job lines go to
///    stdout, which then stays mergeable);
/// 5. the command fails when the summary counts a wrong answer, and exits with
///    [`STOPPED_EARLY`] when the run (or a merged shard) stopped before its last job: the text,
///    the JSON (a `stopped` field) and the report then say how far it got.
///
/// `label` names the run on the progress bar and in the report.
pub fn eval<R, C, S>(
    shard: &ShardArgs,
    label: &str,
    json: bool,
    run: impl FnOnce(&Jobs<'_>) -> Result<(Vec<Record<R>>, C)>,
    summarise: impl FnOnce(&[Record<R>], Option<C>) -> Result<S>,
) -> Result<ExitCode>
where
    R: Serialize + DeserializeOwned,
    S: Summary,
{
    let (records, known, stopped) = if shard.merge.is_empty() {
        let jobs = Jobs { shard, label, stopped: Default::default() };
        let (records, known) = run(&jobs)?;
        (records, Some(known), jobs.stopped.into_inner().into_iter().collect())
    } else {
        let (records, stopped) = shard.merged()?;
        (records, None, stopped)
    };
    if records.is_empty()
        && let Some(mark) = stopped.first()
    {
        eprintln!("{mark}: nothing to summarise");
        return Ok(ExitCode::from(STOPPED_EARLY));
    }
    // A job array may have more shards than the run has jobs: such a shard has nothing to do,
    // which is no failure (its empty JSON lines merge with the others').
    if records.is_empty() && shard.merge.is_empty() && shard.shard.count > 1 {
        eprintln!("{label}: shard {} has no jobs: nothing to summarise", shard.shard);
        return Ok(ExitCode::SUCCESS);
    }
    let summary = summarise(&records, known)?;
    // A summary that knows it was stopped says so itself; otherwise the stop marks do.
    let own = summary.stopped();
    let marks = if own.is_some() { &[][..] } else { &stopped[..] };
    let notes: Vec<String> = own.iter().cloned().chain(marks.iter().map(ToString::to_string)).collect();
    shard.report(label, &records, &notes)?;
    let text = if json { json_summary(&summary, marks)? } else { text_summary(&summary, marks) };
    if shard.jsonl.as_deref() == Some("-") {
        eprint!("{text}");
        std::io::stderr().flush()?;
    } else {
        emit(&text)?;
    }
    if json {
        for note in &notes {
            eprintln!("note: {note}");
        }
    }
    Ok(if summary.failed() {
        ExitCode::FAILURE
    } else if !notes.is_empty() {
        ExitCode::from(STOPPED_EARLY)
    } else {
        ExitCode::SUCCESS
    })
}

/// The summary as text, ending with a line for each stop.
fn text_summary(summary: &impl Summary, stopped: &[StopMark]) -> String {
    let mut text = summary.to_string();
    for mark in stopped {
        text += &format!("{mark}: these figures cover only the jobs that finished\n");
    }
    text
}

/// The summary as a line of JSON, with a `stopped` list when the run stopped early.
fn json_summary(summary: &impl Summary, stopped: &[StopMark]) -> Result<String> {
    if stopped.is_empty() {
        return Ok(format!("{}\n", tagged(serde_json::to_string(summary)?)));
    }
    let mut value = serde_json::to_value(summary)?;
    if let Some(object) = value.as_object_mut() {
        object.insert("stopped".into(), serde_json::to_value(stopped)?);
    }
    Ok(format!("{}\n", tagged(serde_json::to_string(&value)?)))
}

/// Parses a count of at least one (clap's message names the value: this one does not again).
pub fn at_least_one(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(format!("too large (at most {})", u64::MAX)),
        _ => Err("not a whole number of at least 1".into()),
    }
}

/// A writer whose failed writes say where they failed (`cannot write FILE: ...`, `cannot write
/// to stdout: ...`). The error keeps its kind: a closed stdout is still a broken pipe, which
/// `main` ends quietly.
#[derive(Debug)]
pub struct Named<W> {
    inner: W,
    /// What follows "cannot write": a path, or "to stdout".
    what: String,
}

impl<W: Write> Named<W> {
    /// `inner`, its errors naming `what` (a path, or "to stdout").
    pub fn new(inner: W, what: impl Into<String>) -> Self {
        Named { inner, what: what.into() }
    }

    fn named(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("cannot write {}: {e}", self.what))
    }
}

impl<W: Write> Write for Named<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.named(e))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(|e| self.named(e))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| self.named(e))
    }
}

/// Stdout, its failed writes saying so (see [`Named`]).
pub fn stdout() -> Named<io::StdoutLock<'static>> {
    Named::new(io::stdout().lock(), "to stdout")
}

/// The `--jsonl` sink: holds what is written until a flush (the run flushes after every line),
/// then writes it in one piece. A failed write so comes back from the flush itself, naming the
/// file (or stdout), rather than wrapped in the JSON writer's error.
pub struct LineSink {
    out: Named<Box<dyn Write + Send>>,
    held: Vec<u8>,
}

impl LineSink {
    fn new(out: Box<dyn Write + Send>, what: &str) -> Self {
        LineSink { out: Named::new(out, what), held: Vec::new() }
    }
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.held.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        // A job's record carries the game first (see [`GAME`]); the stop mark does not.
        if let Some(game) = GAME.get()
            && self.held.starts_with(b"{\"job\"")
        {
            self.held.splice(0..1, format!("{{\"game\":\"{game}\",").into_bytes());
        }
        let written = self.out.write_all(&self.held).and_then(|()| self.out.flush());
        self.held.clear();
        written
    }
}

/// Writes text to stdout. A closed stdout (`| head`) comes back as an error that `main` ends
/// quietly; any other failure says it was stdout.
pub fn emit(text: &str) -> Result<()> {
    let mut out = stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The game whose command runs, set once by the registry's dispatch: every JSON document and
/// evaluation record the command writes carries it first, as `"game"` (hextris's formats carry
/// it themselves).
static GAME: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// Sets the game whose outputs this process writes (see [`GAME`]).
pub fn set_game(name: &'static str) {
    let _ = GAME.set(name);
}

/// A JSON object's text with the game's `"game"` field first (see [`GAME`]); any other text as
/// it is.
fn tagged(json: String) -> String {
    let Some(game) = GAME.get() else { return json };
    match json.strip_prefix('{') {
        Some(rest) if rest.starts_with('}') => format!("{{\"game\":\"{game}\"{rest}"),
        Some(rest) => format!("{{\"game\":\"{game}\",{rest}"),
        None => json,
    }
}

/// Writes a value as one line of JSON on stdout.
pub fn emit_json(value: &impl serde::Serialize) -> Result<()> {
    emit(&format!("{}\n", tagged(serde_json::to_string(value)?)))
}

/// Writes a value as one line of JSON on stdout, the keys of every object in sorted order (as a
/// `serde_json::Value` holds them): the order some documents have always been written in.
pub fn emit_json_sorted(value: &impl serde::Serialize) -> Result<()> {
    let mut value = serde_json::to_value(value)?;
    if let (Some(game), Some(object)) = (GAME.get(), value.as_object_mut()) {
        object.insert("game".into(), (*game).into());
    }
    emit(&format!("{}\n", serde_json::to_string(&value)?))
}

/// Says why a search stopped early and gives the exit status for it.
pub fn stopped_early(outcome: Outcome) -> ExitCode {
    if let Outcome::Stopped(reason) = outcome {
        eprintln!("note: stopped early ({reason}): the answer is partial");
    }
    ExitCode::from(STOPPED_EARLY)
}

/// An argument that parses but cannot be used (values that contradict each other, an empty
/// phrase, a seed the problem does not have): reported like the argument parser's own errors,
/// with exit status 2.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// An error for an unusable argument (see [`Usage`]).
pub fn usage(message: impl std::fmt::Display) -> anyhow::Error {
    anyhow::Error::new(Usage(message.to_string()))
}

/// Fails now if [`write_file`] could not write `path` later (its folder is missing, it is a
/// folder, or it may not be written), so that a long run does not end in that error. Leaves
/// nothing behind (an existing file is left as it is).
pub fn check_writable(path: &Path) -> Result<()> {
    named(path)?;
    if path.is_dir() {
        bail!("cannot write {}: it is a directory", path.display());
    }
    let cannot = || format!("cannot write {}", path.display());
    if is_special(path) {
        return std::fs::OpenOptions::new().append(true).open(path).map(drop).with_context(cannot);
    }
    if std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
        bail!("cannot write {}: it is read-only", path.display());
    }
    let probe = beside(path);
    File::create(&probe).with_context(cannot)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Writes `text` to `path` as a whole or not at all: into a file beside it, then renamed over
/// it, so that a run stopped while writing never leaves half a file where a whole one is
/// expected (a device such as `/dev/stdout` is written directly).
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    named(path)?;
    let cannot = || format!("cannot write {}", path.display());
    if is_special(path) {
        return std::fs::write(path, text).with_context(cannot);
    }
    let part = beside(path);
    let written = std::fs::write(&part, text).and_then(|()| std::fs::rename(&part, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&part);
    }
    written.with_context(cannot)
}

/// Whether `path` exists and is not a plain file: a link (such as `/dev/stdout`), a device, a
/// pipe. Such a path is written through, not replaced.
fn is_special(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// A file name of this process beside `path`, for what is written there before it is whole.
fn beside(path: &Path) -> std::path::PathBuf {
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.part", std::process::id()))
}

/// An output path must name something.
fn named(path: &Path) -> Result<()> {
    if path.as_os_str().is_empty() {
        bail!("empty output path");
    }
    Ok(())
}
