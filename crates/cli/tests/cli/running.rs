//! `tessera` as a process to talk to: input on a pipe, output collected as it comes, and Ctrl-C
//! sent as a terminal sends it (SIGINT). Every wait is bounded (a minute, a guard against a
//! hang, not a timing), and a process still running when its test ends is killed.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long any wait may last before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// Runs `tessera` with arguments and `input` on its stdin, to its end.
pub fn with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = command(args).spawn().expect("the tessera binary runs");
    child.stdin.take().expect("stdin").write_all(input).expect("tessera reads its input");
    child.wait_with_output().expect("tessera ends")
}

fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tessera"));
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// A running `tessera` whose stdin stays open and whose output is collected as it comes.
pub struct Running {
    child: Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
    readers: [JoinHandle<()>; 2],
}

impl Running {
    /// Starts `tessera` with arguments.
    pub fn start(args: &[&str]) -> Running {
        Running::start_with(command(args))
    }

    /// Starts a command set up by the caller (environment, arguments); its pipes are set here.
    pub fn start_with(mut command: Command) -> Running {
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().expect("the tessera binary runs");
        let (stdout, out) = collect(child.stdout.take().expect("stdout"));
        let (stderr, err) = collect(child.stderr.take().expect("stderr"));
        Running { child, stdout, stderr, readers: [out, err] }
    }

    /// Writes to its stdin.
    pub fn write(&mut self, input: &[u8]) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        stdin.write_all(input).and_then(|()| stdin.flush()).expect("tessera reads its input");
    }

    /// Waits until `ready(stdout, stderr)` holds; fails if the process ends first.
    pub fn wait_until(&mut self, what: &str, ready: impl Fn(&str, &str) -> bool) -> &mut Self {
        let start = Instant::now();
        while !ready(&self.stdout.lock().unwrap(), &self.stderr.lock().unwrap()) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("ended ({status}) before {what}:\n{}", self.stderr.lock().unwrap());
            }
            assert!(start.elapsed() < PATIENCE, "no {what} after a minute:\n{}", self.stderr.lock().unwrap());
            std::thread::sleep(Duration::from_millis(10));
        }
        self
    }

    /// Waits until stdout or stderr holds `marker`.
    pub fn wait_for(&mut self, marker: &str) -> &mut Self {
        self.wait_until(&format!("{marker:?}"), |out, err| out.contains(marker) || err.contains(marker))
    }

    /// What it wrote on stdout so far.
    pub fn stdout(&self) -> String {
        self.stdout.lock().unwrap().clone()
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does, once the process catches it (it sets its
    /// handler as it starts: a signal before that would kill it as no user ever sees).
    pub fn interrupt(&mut self) -> &mut Self {
        let status = format!("/proc/{}/status", self.child.id());
        let catches_sigint = || {
            let text = std::fs::read_to_string(&status).unwrap_or_default();
            let mask = text.lines().find_map(|l| l.strip_prefix("SigCgt:"));
            mask.and_then(|m| u64::from_str_radix(m.trim(), 16).ok()).is_some_and(|m| m & 2 != 0)
        };
        self.wait_until("a Ctrl-C handler", |_, _| catches_sigint());
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-INT", &pid]).status().expect("kill runs").success());
        self
    }

    /// Waits for the end: its status, stdout and stderr.
    pub fn finish(&mut self) -> (ExitStatus, String, String) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            assert!(start.elapsed() < PATIENCE, "still running after a minute:\n{}", self.stderr.lock().unwrap());
            std::thread::sleep(Duration::from_millis(10));
        };
        // The readers end with the process's pipes: let them take the last bytes.
        let start = Instant::now();
        while !self.readers.iter().all(JoinHandle::is_finished) && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        (status, self.stdout(), self.stderr.lock().unwrap().clone())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Reads a stream to its end on a thread of its own, into a string that grows as it reads.
fn collect(mut stream: impl Read + Send + 'static) -> (Arc<Mutex<String>>, JoinHandle<()>) {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&text);
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    (text, reader)
}
