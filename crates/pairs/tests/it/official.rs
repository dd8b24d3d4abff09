//! The generator against the official tester: board hashes and sizes recorded from it
//! (`tests/data/`, whose README says where they come from).

use std::path::PathBuf;

use sha1::{Digest, Sha1};
use tessera_pairs::generator::generate;

/// A file of the crate's test data (`tests/data/`).
pub fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// The data rows of a TSV file (the header dropped), split into fields.
fn rows(path: &str) -> Vec<Vec<String>> {
    let text = data(path);
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("seed\t"), "{path}: unexpected header {header:?}");
    lines.filter(|l| !l.is_empty()).map(|l| l.split('\t').map(String::from).collect()).collect()
}

#[test]
fn every_board_hash_matches_the_tester() {
    let rows = rows("board_vectors.tsv");
    assert!(rows.len() >= 22, "{} rows", rows.len());
    for row in rows {
        let [seed, h, w, c, sha, first] = &row[..] else { panic!("bad row {row:?}") };
        let b = generate(seed.parse().unwrap());
        let got = (b.height().to_string(), b.width().to_string(), b.colors().to_string());
        assert_eq!(got, (h.clone(), w.clone(), c.clone()), "seed {seed}");
        assert_eq!(&b.rows()[0], first, "seed {seed}: first row");
        let digest: String = Sha1::digest(b.text().as_bytes()).iter().map(|x| format!("{x:02x}")).collect();
        assert_eq!(&digest, sha, "seed {seed}: board hash");
    }
}

#[test]
fn every_size_matches_the_tester() {
    let rows = rows("seed_sizes.tsv");
    assert_eq!(rows.len(), 10_000);
    for row in rows {
        let [seed, h, w, c] = &row[..] else { panic!("bad row {row:?}") };
        let b = generate(seed.parse().unwrap());
        let want: (usize, usize, usize) = (h.parse().unwrap(), w.parse().unwrap(), c.parse().unwrap());
        assert_eq!((b.height(), b.width(), b.colors()), want, "seed {seed}");
        assert!(b.counts().iter().all(|n| n % 2 == 0 && *n > 0), "seed {seed}: {:?}", b.counts());
    }
}
