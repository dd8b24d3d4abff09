//! The tiling library: a puzzle written as text, counted, its first tiling found and checked by
//! the independent validator, and a shipped puzzle's counts against the ones it states.
//!
//! `cargo run --release -p tessera-tiling --example tiling`

use tessera_core::runtime::Budget;
use tessera_tiling::{Puzzle, Tiler, builtin, validate::validate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A 4x5 rectangle by the five tetrominoes (one each): no tiling, as a colouring shows.
    let text = "name tetrominoes 4x5\nboard\n#####\n#####\n#####\n#####\n\n\
                piece I\n####\n\npiece O\n##\n##\n\npiece T\n###\n.#.\n\npiece L\n#..\n###\n\npiece S\n.##\n##.\n";
    let puzzle = Puzzle::parse(text)?;
    let tiler = Tiler::new(&puzzle.problem)?;
    let counts = tiler.count(1, &Budget::unlimited());
    println!("{}: {} tilings", puzzle.name, counts.raw);

    // The pentominoes in 6x10: 2339 tilings up to symmetry, as the puzzle file says.
    let puzzle = builtin("pentomino-6x10").ok_or("a shipped puzzle")?;
    let tiler = Tiler::new(&puzzle.problem)?;
    let counts = tiler.count(2, &Budget::unlimited());
    assert_eq!(Some(counts.distinct), puzzle.expect.distinct);
    let first = tiler.first(1, 7, &Budget::unlimited()).solution().ok_or("a tiling")?;
    let labels: Vec<char> = tiler.labels(&first).chars().collect();
    validate(&puzzle.problem, &labels)?;
    println!(
        "{}: {} tilings ({} distinct); the first found:\n{}",
        puzzle.name,
        counts.raw,
        counts.distinct,
        tiler.draw(&first)
    );
    Ok(())
}
