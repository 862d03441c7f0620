//! docs/ADDING-A-GAME.md names the code a new family touches; every name it gives must exist, so that
//! the guide cannot drift from the code as the code moves. A name in backquotes is checked as:
//! - a path (`src/…`, `docs/…`, `configs/…`, `tests/…`, `checkpoints/…`): the file or folder exists
//!   (a path with a placeholder, `src/game/<family>/`, is checked up to the placeholder);
//! - a file name (`golden.rs`): some file of `src/` or `tests/` has it;
//! - an item (`NetGame`, `Reason::parse`, `facts().grid`, `replay.exact_values`): each of its words is
//!   a word of the code of `src/` or `tests/` (comments left out), but words with a placeholder
//!   (`<Family>Game`, `build_<family>`), which are patterns.
//!
//! Anything else in backquotes (a command, a spec, a snippet with spaces) is not a name and is skipped.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every identifier-like word of the code of `src/` and `tests/` (the guide names tests too),
/// comments left out.
fn code_words() -> BTreeSet<String> {
    let mut paths = Vec::new();
    files(&root().join("src"), &mut paths);
    files(&root().join("tests"), &mut paths);
    let mut words = BTreeSet::new();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines().map(|l| l.split("//").next().unwrap_or("")) {
            for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !word.is_empty() {
                    words.insert(word.to_string());
                }
            }
        }
    }
    words
}

/// The guide's names in backquotes.
fn named() -> Vec<String> {
    let guide = std::fs::read_to_string(root().join("docs/ADDING-A-GAME.md")).unwrap();
    guide.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// What is wrong with `name`, if it names something that does not exist.
fn missing(name: &str, words: &BTreeSet<String>, file_names: &BTreeSet<String>) -> Option<String> {
    const ROOTS: [&str; 5] = ["src/", "docs/", "configs/", "tests/", "checkpoints/"];
    if ROOTS.iter().any(|r| name.starts_with(r)) {
        let known = name.split(['<', '*']).next().unwrap_or(name);
        let known = if known.len() < name.len() {
            known.rsplit_once('/').map_or(known, |(dir, _)| dir)
        } else {
            known
        };
        return (!root().join(known).exists()).then(|| format!("`{name}`: no such file or folder"));
    }
    if name.ends_with(".rs") && !name.contains(['/', ' ']) {
        return (!file_names.contains(name))
            .then(|| format!("`{name}`: no file of src/ or tests/ has this name"));
    }
    // An item: identifiers joined by `::`, `.` or `()`, with placeholders in angle brackets.
    let bare: String = {
        let mut out = String::new();
        let mut depth = 0;
        for c in name.chars() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ if depth == 0 => out.push(c),
                _ => {}
            }
        }
        out
    };
    let is_item = !bare.is_empty()
        && bare.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '(' | ')'))
        && bare.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':');
    if !is_item {
        return None;
    }
    // A word that carries a placeholder (`build_<family>`) is a pattern, not a name.
    let unknown: Vec<&str> = name
        .split([':', '.', '(', ')'])
        .filter(|w| !w.is_empty() && !w.contains(['<', '>']) && !w.chars().all(|c| c == '_'))
        .filter(|w| !words.contains(*w))
        .collect();
    (!unknown.is_empty()).then(|| format!("`{name}`: {} not in the code", unknown.join(", ")))
}

#[test]
fn every_name_the_guide_to_adding_a_game_gives_exists() {
    let words = code_words();
    let mut paths = Vec::new();
    files(&root().join("src"), &mut paths);
    files(&root().join("tests"), &mut paths);
    let file_names: BTreeSet<String> =
        paths.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect();
    let names = named();
    assert!(names.len() > 100, "the guide names its code in backquotes ({} found)", names.len());
    let wrong: BTreeSet<String> = names.iter().filter_map(|n| missing(n, &words, &file_names)).collect();
    assert!(
        wrong.is_empty(),
        "docs/ADDING-A-GAME.md names what does not exist:\n{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The check itself: a name that is not in the code, a path that is not there, are caught.
#[test]
fn the_guide_check_catches_a_name_that_is_gone() {
    let words = code_words();
    let file_names = BTreeSet::from(["golden.rs".to_string()]);
    // Built here, so that this file's own words do not hold it.
    let gone = format!("NetGame::{}", ["never", "was", "here"].join("_"));
    assert!(missing(&gone, &words, &file_names).is_some());
    assert!(missing("src/game/nowhere.rs", &words, &file_names).is_some());
    assert!(missing("gone.rs", &words, &file_names).is_some());
    assert!(missing("NetGame", &words, &file_names).is_none());
    assert!(missing("src/game/<family>/mod.rs", &words, &file_names).is_none());
    assert!(missing("rebel-zero rules --json", &words, &file_names).is_none(), "a command is no name");
}
