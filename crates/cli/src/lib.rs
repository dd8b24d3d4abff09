//! `tessera`: solvers for grid and tile-placement puzzles, one command per game.
//!
//! This crate is only the command line: it parses arguments, calls the game crates and prints
//! what they return. No game logic lives here. This file is the registry: the one place that
//! names the games, with their commands ([`Command`]) and their [`Game`] values ([`GAMES`]),
//! which `tessera tour`, the viewer and the evaluation reports iterate. Adding a game takes its
//! crate (with a type that implements [`Game`]), its command module here (`src/<game>.rs`), and
//! a line in each list below.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use tessera_game::Game;

mod common;
mod digits;
mod hextris;
mod pairs;
mod progress;
mod tiling;
mod totems;
mod tour;
mod view;

/// The games, in the order the tour and the viewer show them.
pub static GAMES: &[&dyn Game] = &[
    &tessera_tiling::TilingGame,
    &tessera_totems::TotemsGame,
    &tessera_digits::DigitsGame,
    &tessera_hextris::HextrisGame,
    &tessera_pairs::PairsGame,
];

/// Solvers, judges and evaluation for grid and tile-placement puzzles.
#[derive(Debug, Parser)]
#[command(name = "tessera", version, about, propagate_version = true, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Declares the commands once for two parsers: [`Cli`], which knows them all, and [`alone`],
/// which knows only the one named on the command line. Building every game's command tree takes
/// half of the instructions of a small `pairs solve` (and dropping it a quarter more), so a run
/// builds only its own; `tessera --help` and the like build them all.
macro_rules! commands {
    ($( $(#[$attr:meta])* $variant:ident($payload:ty), )*) => {
        /// The commands.
        #[derive(Debug, Subcommand)]
        pub enum Command {
            $( $(#[$attr])* $variant($payload), )*
        }

        /// A parser of the command `name` alone, with the arguments, help and errors it has in
        /// [`Cli`] (a test compares them); `None` if no command has that name.
        fn alone(name: &str) -> Option<clap::Command> {
            $(
                // Every command's name is its variant's in lower case (the test checks); any
                // other spelling goes to the whole parser, which says what it does not know.
                if name.bytes().eq(stringify!($variant).bytes().map(|b| b.to_ascii_lowercase())) {
                    #[derive(Debug, Parser)]
                    #[command(name = "tessera", version, about, propagate_version = true)]
                    struct Alone {
                        #[command(subcommand)]
                        command: Only,
                    }
                    #[derive(Debug, Subcommand)]
                    enum Only {
                        $(#[$attr])* $variant($payload),
                    }
                    return Some(Alone::command());
                }
            )*
            None
        }
    };
}

commands! {
    /// Run every game's demonstration on its default instance and print a summary with timings.
    Tour(tour::TourArgs),
    /// The Benchmarks Game "meteor-contest" program: all tilings of the meteor board.
    Meteor(tiling::MeteorArgs),
    /// Exact polyform tiling: count, list or find tilings of a board by a set of pieces.
    #[command(subcommand)]
    Tiling(tiling::TilingCommand),
    /// Coveo Blitz 2022: pack a bag of tetrominoes into a near-square box.
    #[command(subcommand)]
    Totems(totems::TotemsCommand),
    /// A local web page showing results: boards, replays and evaluation plots.
    View(view::ViewArgs),
    /// Code Jam 2021 "Digit Blocks": the interactive player, a local judge, the exact optimum.
    #[command(subcommand)]
    Digits(digits::DigitsCommand),
    /// ICFP Contest 2015: hexagonal Tetris with phrases of power; scorer, solver, evaluation.
    #[command(subcommand)]
    Hextris(hextris::HextrisCommand),
    /// TopCoder MM100 "SameColorPairs": the tester's boards, a judge, the solver, evaluation.
    #[command(subcommand)]
    Pairs(pairs::PairsCommand),
}

/// The command line, parsed by the parser of the command it names (if any) alone.
fn parse() -> Cli {
    let parser = std::env::args_os().nth(1).and_then(|a| alone(a.to_str()?)).unwrap_or_else(Cli::command);
    let matches = parser.try_get_matches().unwrap_or_else(|e| exit_plainly(e));
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Exits as clap does on a bad command line, with the standard library's words for a number
/// that does not parse (`invalid digit found in string`) put as a person would.
fn exit_plainly(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    use std::io::{IsTerminal, Write};
    // Help written to a file or a pipe: a failed write says so (clap's own would not), a
    // closed pipe ends quietly.
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) && !std::io::stdout().is_terminal() {
        let mut out = std::io::stdout().lock();
        match write!(out, "{e}").and_then(|()| out.flush()) {
            Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                eprintln!("error: cannot write to stdout: {w}");
                std::process::exit(1);
            }
            _ => std::process::exit(0),
        }
    }
    if e.kind() != ErrorKind::ValueValidation {
        e.exit();
    }
    let mut text = e.to_string();
    for (from, to) in [
        ("invalid digit found in string", "not a whole number"),
        ("cannot parse integer from empty string", "empty, where a whole number goes"),
        ("number too large to fit in target type", "too large for this option"),
        ("number too small to fit in target type", "too small for this option"),
    ] {
        text = text.replace(from, to);
    }
    eprint!("{text}");
    std::process::exit(e.exit_code());
}

/// Runs the command line the process was given, and gives its exit status.
pub fn main() -> ExitCode {
    let cli = parse();
    // The first Ctrl-C asks every search to stop and report what it has (or quits a command
    // that is waiting); a second one quits. `tessera meteor` keeps the default Ctrl-C, which ends
    // the process: the benchmark has nothing to report when interrupted.
    if !matches!(cli.command, Command::Meteor(_)) {
        common::catch_interrupts();
    }
    let result = match cli.command {
        Command::Tour(args) => tour::run(&args),
        Command::Meteor(args) => tiling::meteor(&args),
        Command::Tiling(cmd) => {
            common::set_game(tessera_tiling::TilingGame.name());
            tiling::run(cmd)
        }
        Command::Totems(cmd) => {
            common::set_game(tessera_totems::TotemsGame.name());
            totems::run(cmd)
        }
        Command::View(args) => view::run(&args),
        Command::Digits(cmd) => {
            common::set_game(tessera_digits::DigitsGame.name());
            digits::run(cmd)
        }
        // hextris's and pairs's formats carry their game themselves (the contests' own
        // outputs, such as hextris's list of solutions, carry none).
        Command::Hextris(cmd) => hextris::run(cmd),
        Command::Pairs(cmd) => pairs::run(cmd),
    };
    finish(result)
}

/// The exit code of a command's result, with its error printed.
fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        // The reader went away (`| head`): nothing more to say to anyone.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<common::Usage>().is_some() => {
            eprintln!("error: {e:#}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::{Cli, alone};

    /// Every node of a command tree as (path, usage, long help), for comparing two trees.
    fn pages(cmd: &mut clap::Command, path: &str, out: &mut Vec<(String, String, String)>) {
        out.push((path.to_string(), cmd.render_usage().to_string(), cmd.render_long_help().to_string()));
        for sub in cmd.get_subcommands_mut() {
            let path = format!("{path} {}", sub.get_name());
            pages(sub, &path, out);
        }
    }

    /// Each command's parser alone says and accepts what the whole parser does for it.
    #[test]
    fn a_command_alone_is_the_same_command() {
        let mut whole = Cli::command();
        whole.build();
        let names: Vec<String> =
            whole.get_subcommands().map(|s| s.get_name().to_string()).filter(|n| n != "help").collect();
        assert_eq!(names.len(), 8, "{names:?}");
        for name in &names {
            let mut one = alone(name).unwrap_or_else(|| panic!("no parser for {name}"));
            one.build();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            pages(whole.find_subcommand_mut(name).unwrap(), name, &mut a);
            pages(one.find_subcommand_mut(name).unwrap(), name, &mut b);
            assert!(a[0].2.contains("Usage: tessera"), "{name}: {}", a[0].2);
            assert_eq!(a, b, "{name}");
            assert_eq!(one.get_version(), whole.get_version());
        }
        assert!(alone("help").is_none() && alone("--help").is_none() && alone("").is_none());
        assert!(alone("Pairs").is_none() && alone("pairs").is_some());
        Cli::command().debug_assert();
    }
}
