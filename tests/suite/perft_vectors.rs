//! The published start-position perft vectors (tests/data/perft-start.tsv, a copy of the published table), read from the file so that a
//! new line there is tested without a code change.

use rebel_zero::game::perft::perft;
use rebel_zero::game::{AnyGame, Game};
use rebel_zero::with_game;

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft-start.tsv");

/// (spec, counts for depths 1..) from the file; comment lines skipped.
fn vectors() -> Vec<(String, Vec<u64>)> {
    let text = std::fs::read_to_string(VECTORS).unwrap_or_else(|e| panic!("cannot read {VECTORS}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "malformed line: {line}");
            let counts: Vec<u64> = fields[2].split(',').map(|c| c.parse().expect("a count")).collect();
            assert_eq!(
                counts.len(),
                fields[1].parse::<usize>().unwrap(),
                "depth and counts disagree: {line}"
            );
            (fields[0].to_string(), counts)
        })
        .collect()
}

#[test]
fn every_published_start_vector_matches() {
    let vectors = vectors();
    assert!(vectors.len() >= 20, "the vector file looks truncated");
    let mut failures = Vec::new();
    for (spec, expected) in &vectors {
        let game = AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let got: Vec<u64> = with_game!(&game, |g| {
            let start = g.start();
            (1..=expected.len() as u32).map(|d| perft(g, &start, d)).collect()
        });
        if &got != expected {
            failures.push(format!("{spec}: got {got:?}, want {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
}
