//! `tessera`: solvers for grid and tile-placement puzzles, one command per game.
//!
//! This crate is only the command line: it parses arguments, calls the game crates and prints
//! what they return. No game logic lives here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod common;
mod digits;
mod hextris;
mod pairs;
mod tiling;
mod totems;
mod tour;
mod view;

/// Solvers, judges and evaluation for grid and tile-placement puzzles.
#[derive(Debug, Parser)]
#[command(name = "tessera", version, about, propagate_version = true, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run every game's demonstration on its default instance and print a summary with timings.
    Tour(tour::TourArgs),
    #[command(about = tiling::METEOR_ABOUT)]
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

/// The `meteor` command alone, with the same arguments and help as in [`Command`]: the
/// benchmark times the whole process, and building every game's command tree first costs it a
/// third of a millisecond.
#[derive(Debug, Parser)]
#[command(name = "tessera", version, about, propagate_version = true)]
struct MeteorCli {
    #[command(subcommand)]
    command: MeteorOnly,
}

#[derive(Debug, Subcommand)]
enum MeteorOnly {
    #[command(about = tiling::METEOR_ABOUT)]
    Meteor(tiling::MeteorArgs),
}

fn main() -> ExitCode {
    // `tessera meteor` parses only its own arguments and keeps the default Ctrl-C (which ends
    // the process: the benchmark has nothing to report when interrupted).
    if std::env::args_os().nth(1).is_some_and(|a| a == "meteor") {
        let MeteorOnly::Meteor(args) = MeteorCli::parse().command;
        return finish(tiling::meteor(&args));
    }
    let cli = Cli::parse();
    // The first Ctrl-C asks every search to stop and report what it has (or quits a command
    // that is waiting); a second one quits.
    common::catch_interrupts();
    let result = match cli.command {
        Command::Tour(args) => tour::run(&args),
        Command::Meteor(args) => tiling::meteor(&args),
        Command::Tiling(cmd) => tiling::run(cmd),
        Command::Totems(cmd) => totems::run(cmd),
        Command::View(args) => view::run(&args),
        Command::Digits(cmd) => digits::run(cmd),
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
