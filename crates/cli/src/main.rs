//! `tessera`: solvers for grid and tile-placement puzzles, one command per game (see the
//! library part of this crate, `tessera_cli`).

fn main() -> std::process::ExitCode {
    tessera_cli::main()
}
