//! Judging a player program: [`judge`] run over a child process's pipes,
//! with the time limit enforced and the end of the run checked.

use std::io::{BufReader, Read};
use std::process::{Command, Stdio};
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
    std::thread::scope(|s| {
        // The watchdog: samples the memory, kills the program at the time limit, reaps it.
        let watchdog = s.spawn(|| {
            let mut peak = None;
            loop {
                if let Some(kib) = peak_kib(pid) {
                    peak = Some(kib);
                }
                match child.try_wait() {
                    Ok(Some(status)) => return (status.code(), peak),
                    Ok(None) => {}
                    Err(_) => return (None, peak),
                }
                if time_limit.is_some_and(|t| start.elapsed() > t) && !finished.load(Ordering::Relaxed) {
                    timed_out.store(true, Ordering::Relaxed);
                    let _ = child.kill();
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let mut reader = BufReader::new(from_player);
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

/// A process's peak resident memory (`VmHWM`) in KiB, where the system tells.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
