//! Exact answers for rules files: `solve` builds a table only when asked and refuses one too large
//! with its figures; `sweep` solves every setting of a rule, writes its report and resumes.

use std::path::Path;
use std::process::{Command, Output};

/// A board of its own (4 × 4 alquerque points, no privy): its tables take a moment.
const SMALL_BOARD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rules/four-by-four.toml");

/// 30 points and 15 Rebels: C(30, 15) × 30 slots in one level, past the index's 31 bits.
const TOO_BIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rules/too-big.toml");

fn run(cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
        .args(args)
        .env("REBEL_ZERO_CACHE", cache)
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn tables_in(cache: &Path) -> usize {
    std::fs::read_dir(cache.join("tablebases")).map_or(0, |d| d.count())
}

#[test]
fn a_question_about_a_missing_table_builds_nothing_and_says_what_building_takes() {
    let cache = tempfile::tempdir().unwrap();
    let asked = run(cache.path(), &["solve", "sixteen-rebels:capture=mandatory", "--moves", "c3-d4"]);
    assert_eq!(asked.status.code(), Some(2), "{}", stderr(&asked));
    let message = stderr(&asked);
    for words in
        ["is not built", "add --build", "minutes on 2 cores", "GB of memory at its peak", "GB of disk"]
    {
        assert!(message.contains(words), "{words}: {message}");
    }
    assert_eq!(tables_in(cache.path()), 0, "nothing was built");

    let spec = format!("file:{TOO_BIG}");
    let refused = run(cache.path(), &["solve", &spec]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(message.contains("4.7 billion slots per side") && message.contains("GB of memory"), "{message}");
    assert_eq!(tables_in(cache.path()), 0);
}

#[test]
fn a_rules_file_is_solved_and_swept_and_the_sweep_resumes() {
    let cache = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let spec = format!("file:{SMALL_BOARD}");

    let solved = run(cache.path(), &["solve", &spec, "--verify"]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    assert!(stderr(&solved).contains("building the table of"), "{}", stderr(&solved));
    assert!(stdout(&solved).contains("value: "), "{}", stdout(&solved));
    let again = run(cache.path(), &["solve", &spec, "--moves", "b2-b3"]);
    assert!(again.status.success() && stderr(&again).contains("reading"), "{}", stderr(&again));

    let out = dir.path().join("sweep");
    let out_text = out.display().to_string();
    let args = [
        "sweep",
        &spec,
        "--key",
        "general_wins_at=2..5",
        "--key",
        "first=general,rebels",
        "--out",
        &out_text,
    ];
    let swept = run(cache.path(), &args);
    assert!(swept.status.success(), "{}", stderr(&swept));
    // Thresholds 2 and 3 end every game from 10 Rebels alike, and so do 4 and 5: two tables for eight
    // settings, one of them built by `solve` already.
    assert!(stderr(&swept).contains("8 settings, 2 tables (1 in the cache folder)"), "{}", stderr(&swept));
    assert_eq!(stdout(&swept).lines().count(), 8, "{}", stdout(&swept));
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    for words in
        ["## The start's value", "## Where the balance turns", "frontier.svg", "margin along best play"]
    {
        assert!(report.contains(words), "{words}: {report}");
    }
    for chart in ["frontier.svg", "plies.svg", "won.svg", "margin.svg"] {
        assert!(std::fs::read_to_string(out.join(chart)).unwrap().starts_with("<svg"), "{chart}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("sweep.json")).unwrap()).unwrap();
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 8);
    assert_eq!(results[0]["value"], results[2]["value"], "general_wins_at 2 and 3 share a table");

    let resumed = run(cache.path(), &args);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(stderr(&resumed).matches("from an earlier run").count(), 8, "{}", stderr(&resumed));
    assert_eq!(stdout(&resumed), stdout(&swept), "the same figures");

    // Another ruleset's sweep in the same folder keeps none of the first one's figures, though its
    // settings have the same values and tables (who moves first is in neither).
    let again = dir.path().join("again").display().to_string();
    let keys = ["--key", "general_wins_at=2..3", "--out", &again];
    let first = run(cache.path(), &[&["sweep", &spec][..], &keys].concat());
    assert!(first.status.success(), "{}", stderr(&first));
    let rebels_first = format!("{spec}:first=rebels");
    let other = run(cache.path(), &[&["sweep", &rebels_first][..], &keys].concat());
    assert!(other.status.success(), "{}", stderr(&other));
    assert!(!stderr(&other).contains("from an earlier run"), "{}", stderr(&other));
    let json = std::fs::read(Path::new(&again).join("sweep.json")).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["results"][0]["first"], "rebels", "measured from the Rebels' start");

    let bad = run(cache.path(), &["sweep", &spec, "--key", "rebels=11", "--out", &out_text]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("the start has 10 Rebels"), "{}", stderr(&bad));
}
