//! Ctrl-C as a user presses it: SIGINT sent to a real `tessera` process. A stopped run says so
//! and exits 3; a command waiting on stdin or the network quits at once (130).

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::scratch;

/// Exit status of a run stopped early.
const STOPPED: i32 = 3;
/// Exit status of a command ended by Ctrl-C while it waited.
const QUIT: i32 = 130;

/// A running `tessera` whose stdin stays open and whose output is collected as it comes.
struct Running {
    child: Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

/// Starts `tessera` with arguments.
fn start(args: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tessera binary runs");
    let stdout = collect(child.stdout.take().expect("stdout"));
    let stderr = collect(child.stderr.take().expect("stderr"));
    Running { child, stdout, stderr }
}

/// Reads a stream to its end on a thread of its own, into a string that grows as it reads.
fn collect(mut stream: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&text);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    text
}

impl Running {
    /// Waits until stdout or stderr holds `marker` (the process is under way), then `settle`
    /// longer; fails if the marker does not come within a minute.
    fn once(&mut self, marker: &str, settle: Duration) -> &mut Self {
        let start = Instant::now();
        while !self.stdout.lock().unwrap().contains(marker) && !self.stderr.lock().unwrap().contains(marker) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("exited ({status}) before printing {marker:?}:\n{}", self.stderr.lock().unwrap());
            }
            assert!(start.elapsed() < Duration::from_secs(60), "no {marker:?} after a minute");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(settle);
        self
    }

    /// Sends SIGINT, as Ctrl-C does, and waits (at most a minute) for the process to end; gives
    /// its status, stdout and stderr.
    fn interrupt(&mut self) -> (ExitStatus, String, String) {
        let sent = Command::new("kill").args(["-INT", &self.child.id().to_string()]).status().expect("kill runs");
        assert!(sent.success(), "kill -INT failed");
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let _ = self.child.kill();
                panic!("still running a minute after Ctrl-C:\n{}", self.stderr.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The readers end with the process; give them a moment to take the last bytes.
        std::thread::sleep(Duration::from_millis(100));
        let out = self.stdout.lock().unwrap().clone();
        let err = self.stderr.lock().unwrap().clone();
        (status, out, err)
    }
}

#[test]
fn a_stopped_eval_says_so_in_every_output_and_exits_3() {
    let dir = scratch("interrupted-eval");
    let (jsonl, html) = (dir.join("run.jsonl"), dir.join("run.html"));
    let (jsonl, html) = (jsonl.to_str().unwrap(), html.to_str().unwrap());
    let args = ["pairs", "eval", "--seeds", "1..200", "--budget-ms", "300", "-j", "1", "--seed", "5"];
    let mut run = start(&[&args[..], &["--json", "--jsonl", jsonl, "--html", html]].concat());
    let (status, out, err) = run.once("seed: 5", Duration::from_millis(1500)).interrupt();
    assert_eq!(status.code(), Some(STOPPED), "{err}");
    let summary: serde_json::Value = serde_json::from_str(out.trim()).expect("one line of JSON");
    let mark = &summary["stopped"][0];
    assert_eq!(mark["stopped"], "interrupted", "{summary}");
    assert_eq!(mark["jobs"], 200);
    assert!(mark["done"].as_u64().unwrap() < 200, "{summary}");
    assert_eq!(summary["seeds"], mark["done"], "the figures are those of the jobs that finished");
    // The job lines end with the mark, and their merge is stopped too.
    let lines = std::fs::read_to_string(jsonl).unwrap();
    assert!(lines.lines().last().unwrap().starts_with("{\"stopped\":\"interrupted\""), "{lines}");
    let merged = crate::tessera(&["pairs", "eval", "--merge", jsonl]);
    assert_eq!(merged.status.code(), Some(STOPPED));
    assert!(crate::stdout(&merged).contains("stopped by Ctrl-C after"), "{}", crate::stdout(&merged));
    assert!(crate::stderr(&merged).contains("this run was stopped"), "{}", crate::stderr(&merged));
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("STOPPED") && page.contains("stopped by Ctrl-C after"), "the report says it is partial");
}

#[test]
fn a_stopped_eval_in_text_ends_with_how_far_it_got() {
    let args = ["tiling", "eval", "--puzzles", "100000", "--seed", "3", "-j", "1"];
    let mut run = start(&args);
    let (status, out, err) = run.once("seed: 3", Duration::from_millis(800)).interrupt();
    assert_eq!(status.code(), Some(STOPPED), "{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("stopped by Ctrl-C after ") && last.contains(" of 100000 jobs"), "{out}");
}

#[test]
fn a_stopped_tour_lists_no_stopped_demo_as_ok() {
    let mut run = start(&["tour", "-j", "1"]);
    let (status, out, err) = run.once("tessera tour", Duration::from_millis(300)).interrupt();
    assert_eq!(status.code(), Some(STOPPED), "{out}\n{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("stopped by Ctrl-C in game "), "{out}");
    assert!(!out.contains("demonstrations ok in"), "{out}");
    assert!(out.lines().filter(|l| l.trim_end().ends_with("stopped")).count() >= 1, "{out}");
}

#[test]
fn a_stopped_solve_answers_with_what_it_has_and_exits_3() {
    // The largest board of the contest's examples takes seconds to clear on one thread.
    let mut run = start(&["pairs", "solve", "--gen-seed", "3", "--seed", "1", "-j", "1"]);
    let (status, out, err) = run.once("seed: 1", Duration::from_millis(300)).interrupt();
    assert_eq!(status.code(), Some(STOPPED), "{err}");
    assert!(err.contains("stopped early (interrupted)"), "{err}");
    let moves: usize = out.lines().next().and_then(|n| n.trim().parse().ok()).expect("N, then the moves");
    assert_eq!(out.lines().count(), moves + 1, "a whole answer in the tester's format");
}

#[test]
fn commands_that_wait_quit_on_the_first_ctrl_c() {
    // Each waits on stdin (left open) or on the network; one Ctrl-C ends it.
    let waiting: [(&[&str], &str); 3] = [
        (&["pairs", "solve", "--seed", "1"], ""),
        (&["digits", "play"], ""),
        (&["view", "--addr", "127.0.0.1:0"], "Ctrl-C to stop"),
    ];
    for (args, marker) in waiting {
        let mut run = start(args);
        let (status, _, err) = run.once(marker, Duration::from_millis(300)).interrupt();
        assert_eq!(status.code(), Some(QUIT), "tessera {}: {err}", args.join(" "));
    }
}
