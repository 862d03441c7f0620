//! The repository stands alone: a user's clone has nothing beside it, so no file points outside it,
//! the rules reference (docs/RULES.md) names every ruleset and option the lab plays, the claims list
//! (docs/CLAIMS.md) has every claim a study tests, and the findings and studies tables of the READMEs
//! are the ones `balance --findings` prints from the committed reports, not typed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap_or_else(|e| panic!("reading {relative}: {e}"))
}

/// Every text file git tracks in the repository (or would, for a new file not yet added): what a
/// clone holds, whatever else lies in this folder.
fn tracked_text_files() -> Vec<PathBuf> {
    let listed = Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard", "-z"])
        .current_dir(root())
        .output()
        .expect("git lists the repository's files");
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    String::from_utf8(listed.stdout)
        .unwrap()
        .split('\0')
        .filter(|name| !name.is_empty())
        .map(|name| root().join(name))
        .filter(|path| std::fs::read_to_string(path).is_ok())
        .collect()
}

#[test]
fn nothing_points_outside_the_repository() {
    let outside = concat!("..", "/shared");
    let files = tracked_text_files();
    assert!(files.iter().any(|f| f.ends_with("docs/studies/README.md")), "the walk sees the docs");
    let pointing: Vec<String> = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().contains(outside))
        .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    assert!(pointing.is_empty(), "these files point at {outside}, which a clone does not have: {pointing:?}");
}

#[test]
fn the_rules_reference_names_every_ruleset_and_option() {
    let rules = read("docs/RULES.md");
    for ruleset in rebel_zero::game::registry::all_rulesets() {
        assert!(
            rules.contains(&format!("`{}", ruleset.name)),
            "docs/RULES.md lacks the ruleset {}",
            ruleset.name
        );
        // An option is described in a ruleset's table of options (`| `key` | values | default | …`) or
        // written out as `key=value`.
        for option in ruleset.options {
            let key = option.key;
            assert!(
                rules.contains(&format!("| `{key}` |")) || rules.contains(&format!("`{key}=")),
                "docs/RULES.md lacks the option {key} of {}",
                ruleset.name
            );
        }
    }
    // Each published vector as a row of the perft table: `| `SPEC` | n1 | n2 | … |`.
    for line in read("tests/data/perft-start.tsv").lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let row = format!("| `{}` | {} |", fields[0], fields[2].replace(',', " | "));
        assert!(rules.contains(&row), "docs/RULES.md lacks the perft row {row}");
    }
}

#[test]
fn the_claims_list_has_every_claim_a_study_tests() {
    let claims = read("docs/CLAIMS.md");
    let mut tested = 0;
    for entry in std::fs::read_dir(root().join("configs/balance")).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == "smoke.toml") {
            continue; // the installation check, whose claim only exercises the pipeline
        }
        let study: toml::Value = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for claim in study.get("claims").and_then(|c| c.as_array()).into_iter().flatten() {
            let id = claim["id"].as_str().unwrap();
            assert!(
                claims.contains(&format!("## {id} ")),
                "docs/CLAIMS.md has no section for {id} ({})",
                path.display()
            );
            tested += 1;
        }
    }
    assert!(tested >= 30, "{tested} claims found in the study files");
}

/// The READMEs' findings and studies tables are `balance --findings docs/studies`'s, line for line.
#[test]
fn the_readme_tables_are_generated_from_the_reports() {
    let output = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
        .args(["balance", "--findings", "docs/studies"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8(output.stdout).unwrap();
    let tables: Vec<&str> = printed.split("\n\n").map(str::trim).filter(|t| !t.is_empty()).collect();
    assert_eq!(tables.len(), 4, "short findings, full findings, studies, what a re-run costs: {printed}");
    let (readme, studies) = (read("README.md"), read("docs/studies/README.md"));
    assert!(
        readme.contains(tables[0]),
        "README.md's findings table is not `balance --findings docs/studies`'s"
    );
    assert!(studies.contains(tables[1]), "docs/studies/README.md's findings are not `balance --findings`'s");
    assert!(
        studies.contains(tables[2]),
        "docs/studies/README.md's studies table is not `balance --findings`'s"
    );
    assert!(readme.contains(tables[3]), "README.md's re-run cost is not `balance --findings`'s");
}
