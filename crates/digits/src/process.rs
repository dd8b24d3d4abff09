//! Judging a player program: [`judge`] run over a child process's pipes,
//! with the time limit enforced and the end of the run checked.

use std::io::{BufReader, Read};
use std::process::{ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::params::TestSet;
use crate::protocol::{JudgeReport, judge};

/// A judged run of a program (`judge --json`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProcessReport {
    /// What the judge saw.
    pub judge: JudgeReport,
    /// The program's exit code (`None` if killed by a signal).
    pub exit_code: Option<i32>,
    /// What the program wrote after the verdict (it must write nothing), cut at 200 bytes.
    pub after_verdict: Option<String>,
    /// Whether the program was killed at the time limit.
    pub timed_out: bool,
    /// The program's peak resident memory in KiB, sampled from the system while it ran (Linux).
    pub peak_kib: Option<u64>,
    /// Seconds from start to exit.
    pub seconds: f64,
    /// The run passes: the judge's verdict, a clean exit, nothing after the verdict, in time.
    pub passed: bool,
}

/// Starts `program args...` and judges it on `set` with digits from `seed`. The program is killed
/// if it runs past `time_limit`. Errors only if the program cannot be started.
pub fn judge_program(
    set: TestSet,
    seed: u64,
    program: &str,
    args: &[String],
    time_limit: Option<Duration>,
) -> std::io::Result<ProcessReport> {
    let start = Instant::now();
    let mut child = Command::new(program).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
    let (Some(to_player), Some(from_player)) = (child.stdin.take(), child.stdout.take()) else {
        unreachable!("both pipes were asked for");
    };
    let pid = child.id();
    let timed_out = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    // Set once the program is reaped (killed at the limit, or exited on its own).
    let reaped = AtomicBool::new(false);
    std::thread::scope(|s| {
        // The watchdog: samples the memory, kills the program at the time limit, reaps it.
        let watchdog = s.spawn(|| {
            let mut peak = None;
            let end = |code, peak| {
                reaped.store(true, Ordering::SeqCst);
                (code, peak)
            };
            loop {
                if let Some(kib) = peak_kib(pid) {
                    peak = Some(kib);
                }
                match child.try_wait() {
                    Ok(Some(status)) => return end(status.code(), peak),
                    Ok(None) => {}
                    Err(_) => return end(None, peak),
                }
                if time_limit.is_some_and(|t| start.elapsed() > t) && !finished.load(Ordering::Relaxed) {
                    timed_out.store(true, Ordering::SeqCst);
                    let _ = child.kill();
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let mut reader = BufReader::new(Output { pipe: from_player, stop: &timed_out, gone: &reaped });
        let report = judge(set, seed, &mut reader, to_player);
        finished.store(true, Ordering::Relaxed);
        // The verdict is written and our end of its input closed: the program must now exit
        // without writing anything more.
        let mut rest = Vec::new();
        let _ = reader.take(200).read_to_end(&mut rest);
        let (exit_code, peak) = watchdog.join().unwrap_or((None, None));
        let timed_out = timed_out.load(Ordering::Relaxed);
        let after_verdict = (!rest.is_empty()).then(|| String::from_utf8_lossy(&rest).into_owned());
        let passed = report.passed && exit_code == Some(0) && after_verdict.is_none() && !timed_out;
        Ok(ProcessReport {
            judge: report,
            exit_code,
            after_verdict,
            timed_out,
            peak_kib: peak,
            seconds: start.elapsed().as_secs_f64(),
            passed,
        })
    })
}

/// How long the output of a program that is gone is still read: what it wrote before it
/// ended is in the pipe by then, and a process it left behind holding the pipe is not waited
/// for.
const AFTER_EXIT: Duration = Duration::from_millis(50);

/// A program's output, read so that the judge is never held past the time limit: a process the
/// program started may keep the pipe open after the program is gone (`sh -c '...; sleep
/// 100'`). Each read waits for data a few milliseconds at a time, and ends (as at the end of
/// the pipe) once `stop` is set (the time limit), or [`AFTER_EXIT`] after `gone` is set (the
/// program reaped) with nothing more written.
struct Output<'a> {
    pipe: ChildStdout,
    stop: &'a AtomicBool,
    gone: &'a AtomicBool,
}

impl Read for Output<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut since_gone: Option<Instant> = None;
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(0);
            }
            if readable(&self.pipe, Duration::from_millis(5)) {
                return self.pipe.read(buf);
            }
            if self.gone.load(Ordering::SeqCst) && since_gone.get_or_insert_with(Instant::now).elapsed() > AFTER_EXIT {
                return Ok(0);
            }
        }
    }
}

/// Whether the pipe has data or its end within `wait` (a read then returns at once).
#[cfg(unix)]
fn readable(pipe: &ChildStdout, wait: Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(pipe, PollFlags::IN)];
    let timeout = Timespec { tv_sec: 0, tv_nsec: i64::from(wait.subsec_nanos()) };
    // An error (a signal) counts as ready: the read then tells.
    poll(&mut fds, Some(&timeout)).map_or(true, |n| n > 0)
}

/// Elsewhere, reads block as the pipe does.
#[cfg(not(unix))]
fn readable(_pipe: &ChildStdout, _wait: Duration) -> bool {
    true
}

/// A process's peak resident memory (`VmHWM`) in KiB, where the system tells.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
