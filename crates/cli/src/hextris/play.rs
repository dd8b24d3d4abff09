//! `tessera hextris play`: a problem played from the keyboard, a line at a time.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use tessera_hextris::format::Submission;
use tessera_hextris::play::{Effect, Session, keys};

use super::{PhraseArgs, load_problem, seed_of};

/// `tessera hextris play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The problem file (or a built-in problem's number).
    #[arg(short = 'f', long = "file", value_name = "FILE", default_value = "6")]
    file: String,
    /// The seed [default: the problem's first].
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    seed: Option<u32>,
    #[command(flatten)]
    phrases: PhraseArgs,
    /// Keep the solution so far (the contest's JSON list) in FILE, written again after every
    /// line: Ctrl-C, which quits at once, leaves the game as of the last line there.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

const HELP: &str = "Type commands and press Enter; phrases of power count as typed (any case).
Lines that start with ':' talk to the session:
  :u [N]        undo the last N commands (default 1)
  :w FILE       save the solution so far (the contest's JSON list)
  :s            print the solution so far
  :q            quit (end of input and Ctrl-C quit too)
  :h            this help
Keys (any of each group):
";

pub fn play_cmd(args: &PlayArgs) -> Result<ExitCode> {
    let p = load_problem(&args.file)?;
    let phrases = args.phrases.get()?;
    let seed = seed_of(&p, args.seed)?;
    if let Some(path) = &args.save {
        // Found out now, not after the game.
        crate::common::check_writable(path)?;
    }
    let mut session = Session::new(&p, seed, phrases);
    let mut out = crate::common::stdout();
    writeln!(out, "{HELP}{}", keys())?;
    write!(out, "{}> ", session.render())?;
    out.flush()?;
    // Waiting for the player: the first Ctrl-C quits.
    crate::common::quit_on_interrupt(|| session_loop(&mut session, &p, args.save.as_deref(), &mut out))?;
    writeln!(out)?;
    let v = session.scorecard();
    writeln!(out, "final: score {} = move {} + power {}", v.score, v.move_score, v.power_score)?;
    if let Some(path) = &args.save {
        save(path, &p, &session)?;
        writeln!(out, "saved to {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays the lines of stdin until `:q` or the end of input, saving the game after each line to
/// `save`, if given.
fn session_loop(
    session: &mut Session<'_>,
    p: &tessera_hextris::Problem,
    save_to: Option<&Path>,
    out: &mut impl Write,
) -> Result<()> {
    for line in std::io::stdin().lock().lines() {
        let line = line.context("cannot read stdin")?;
        let said = match line.trim().strip_prefix(':') {
            // A mistake in a command is said and the game goes on.
            Some(cmd) => match session_command(session, cmd, p) {
                Ok(Some(said)) => said,
                Ok(None) => break,
                Err(e) => format!("error: {e:#}\n"),
            },
            None => describe(&session.line(&line)),
        };
        if let Some(path) = save_to {
            save(path, p, session)?;
        }
        write!(out, "{said}{}> ", session.render())?;
        out.flush()?;
    }
    Ok(())
}

/// Carries out a `:` command; `None` means quit.
fn session_command(session: &mut Session<'_>, cmd: &str, p: &tessera_hextris::Problem) -> Result<Option<String>> {
    let mut words = cmd.split_whitespace();
    let said = match words.next().unwrap_or("") {
        "q" | "quit" => return Ok(None),
        "u" | "undo" => {
            let n = match words.next() {
                None => 1,
                Some(w) => w.parse().with_context(|| format!(":u takes a number of commands, not {w:?}"))?,
            };
            format!("took back {} commands\n", session.undo(n))
        }
        "w" | "write" => match words.next() {
            Some(path) => {
                save(&PathBuf::from(path), p, session)?;
                format!("saved to {path}\n")
            }
            None => ":w needs a file name\n".to_string(),
        },
        "s" | "solution" => format!("{}\n", session.solution()),
        _ => format!("{HELP}{}", keys()),
    };
    Ok(Some(said))
}

/// What went wrong in a typed line, if anything.
fn describe(effects: &[Effect]) -> String {
    let mut said = String::new();
    for e in effects {
        match e {
            Effect::Repeat(c) => said += &format!("refused {c:?}: the unit was there before\n"),
            Effect::Unknown(c) => said += &format!("refused {c:?}: not a command\n"),
            Effect::Over => {
                said += "the game is over (:u to undo, :q to quit)\n";
                break;
            }
            Effect::Locked(n) if *n > 0 => said += &format!("{n} line(s) cleared\n"),
            _ => {}
        }
    }
    said
}

fn save(path: &std::path::Path, p: &tessera_hextris::Problem, session: &Session<'_>) -> Result<()> {
    let list = [Submission {
        problem_id: p.id,
        seed: session.seed(),
        tag: format!("played {}", session.scorecard().score),
        solution: session.solution().to_string(),
    }];
    crate::common::write_file(path, &serde_json::to_string(&list)?)
}
