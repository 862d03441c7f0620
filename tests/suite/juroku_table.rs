//! The Japanese board's tablebase through the command line: built level by level into a folder,
//! resumed after a `kill -9` from the last level written, damaged files named, verified.
//! Reduced tables (a few Rebels) keep these to seconds; the whole table is built by hand (README).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
}

fn run(args: &[&str]) -> Output {
    binary().args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder path `name` in a temporary folder removed when the first is dropped.
fn temp_dir(name: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join(name);
    (temp, dir)
}

/// The files of a table's folder but its build lock.
fn levels_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    // The lock and the notes of levels checked or verified are not levels.
    names.retain(|name| name != ".lock" && !name.ends_with(".checked") && !name.ends_with(".verified"));
    names.sort();
    names
}

/// Eight Rebels, the Rebels to move.
const EIGHT: &str = "G:c3;R:a1,a2,a3,a4,a5,b1,b5,c1;r";

#[test]
fn a_build_killed_within_a_level_resumes_from_the_last_level_written() {
    let (_temp, dir) = temp_dir("resume");
    let table = dir.to_str().unwrap();
    let mut child = binary()
        .args(["solve", "juroku-musashi", "--up-to", "8", "--table", table])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it as soon as level 6 is written: it is then inside level 7.
    let clock = Instant::now();
    while !dir.join("level-06.rztl").exists() {
        assert!(clock.elapsed() < Duration::from_secs(120), "level 6 never came: {:?}", levels_in(&dir));
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = levels_in(&dir);
    assert!(left.iter().all(|name| name.starts_with("level-") || name.starts_with(".tmp")), "{left:?}");
    let written = left.iter().filter(|name| name.starts_with("level-")).count();
    assert!((6..8).contains(&written), "{left:?}");

    let output =
        run(&["solve", "juroku-musashi", "--up-to", "8", "--table", table, "--position", EIGHT, "--build"]);
    let (out, err) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{err}");
    for rebels in 1..=written {
        assert!(err.contains(&format!("{rebels:2} Rebels kept")), "level {rebels} kept: {err}");
    }
    assert!(err.contains(" 8 Rebels built"), "{err}");
    assert!(out.contains("value: a "), "{out}");
    // The half-written level is gone; every level is a whole file.
    assert_eq!(levels_in(&dir), (1..=8).map(|n| format!("level-{n:02}.rztl")).collect::<Vec<_>>());
}

/// A question (`--position`) never starts a build by surprise: the levels present answer it, or the
/// error names the levels it needs and what building them would take.
#[test]
fn a_question_is_answered_from_the_levels_present_or_names_what_it_needs() {
    let (_temp, dir) = temp_dir("question");
    let table = dir.to_str().unwrap();
    let spec = "juroku-musashi:triangle=closed";
    let built = run(&["solve", spec, "--up-to", "5", "--table", table]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(text(&built.stderr).contains("building the levels of 1–5 Rebels"), "{}", text(&built.stderr));
    let files = levels_in(&dir);

    let asked = run(&["solve", spec, "--table", table, "--position", EIGHT]);
    let message = text(&asked.stderr);
    assert_eq!(asked.status.code(), Some(2), "{message}");
    assert!(message.contains("lacks the levels of 6–8 Rebels"), "{message}");
    assert!(message.contains("--up-to 8") && message.contains("GB of disk"), "{message}");
    assert_eq!(levels_in(&dir), files, "nothing was built");

    let five = run(&["solve", spec, "--table", table, "--position", "G:c3;R:a1,a2,a3,a4,a5;r"]);
    assert!(five.status.success(), "{}", text(&five.stderr));
    assert!(text(&five.stdout).contains("value: a "), "{}", text(&five.stdout));
    assert_eq!(levels_in(&dir), files, "nothing was built");

    // --build builds what the question needs, and no more.
    let six = "G:c3;R:a1,a2,a3,a4,a5,b1;r";
    let built = run(&["solve", spec, "--table", table, "--position", six, "--build"]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(text(&built.stdout).contains("value: a "), "{}", text(&built.stdout));
    assert!(
        dir.join("level-06.rztl").is_file() && !dir.join("level-07.rztl").exists(),
        "{:?}",
        levels_in(&dir)
    );
    // A position the table's --up-to leaves out is refused by name.
    let beyond = run(&["solve", spec, "--table", table, "--up-to", "5", "--position", EIGHT]);
    assert_eq!(beyond.status.code(), Some(2));
    assert!(text(&beyond.stderr).contains("more than --up-to 5"), "{}", text(&beyond.stderr));
}

#[test]
fn a_small_table_verifies_and_damaged_or_missing_levels_are_named() {
    let (_temp, dir) = temp_dir("verify");
    let table = dir.to_str().unwrap();
    let output = run(&[
        "solve",
        "juroku-musashi:capture=mandatory",
        "--up-to",
        "5",
        "--table",
        table,
        "--verify",
        "--json",
    ]);
    let (out, err) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{err}");
    assert!(out.contains("verified: all") && out.contains("agree with their moves"), "{out}");
    assert!(out.contains("spot check: 2000 random positions agree"), "{out}");
    // The start has 16 Rebels: not in a table of five.
    assert!(out.contains(r#""value":null"#), "{out}");
    // Each level that passed is noted, so a stopped check resumes where it was.
    for n in 1..=5 {
        assert!(dir.join(format!("level-{n:02}.verified")).is_file(), "{:?}", levels_in(&dir));
    }

    // Another rule's folder is refused by name.
    let other = run(&["solve", "juroku-musashi", "--up-to", "5", "--table", table]);
    assert_eq!(other.status.code(), Some(1));
    assert!(text(&other.stderr).contains("capture=mandatory") && text(&other.stderr).contains("--table"));

    // A damaged level: named, with what to do, and nothing else is lost.
    let level = dir.join("level-03.rztl");
    let bytes = std::fs::read(&level).unwrap();
    std::fs::write(&level, &bytes[..bytes.len() - 7]).unwrap();
    let args = ["solve", "juroku-musashi:capture=mandatory", "--up-to", "5", "--table", table];
    let damaged = run(&args);
    let message = text(&damaged.stderr);
    assert_eq!(damaged.status.code(), Some(1), "{message}");
    assert!(message.contains("level-03.rztl") && message.contains("remove it"), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    std::fs::remove_file(&level).unwrap();
    let rebuilt = run(&args);
    assert!(rebuilt.status.success(), "{}", text(&rebuilt.stderr));
    assert!(
        text(&rebuilt.stderr).contains(" 3 Rebels built") && text(&rebuilt.stderr).contains(" 4 Rebels kept")
    );

    // One flipped data byte (the length whole): refused when the level is opened, not trusted.
    let level = dir.join("level-05.rztl");
    let mut bytes = std::fs::read(&level).unwrap();
    let at = bytes.len() - 1000;
    bytes[at] ^= 0x01;
    std::fs::write(&level, &bytes).unwrap();
    let position = ["--position", "G:c3;R:a1,a2,a3,a4,a5;r"];
    let flipped = run(&[&args[..], &position[..]].concat());
    let message = text(&flipped.stderr);
    assert_eq!(flipped.status.code(), Some(1), "{message}{}", text(&flipped.stdout));
    assert!(
        message.contains("level-05.rztl") && message.contains("does not match its checksum"),
        "{message}"
    );
    assert!(message.contains("rebel-zero solve juroku-musashi:capture=mandatory --table"), "{message}");
    assert!(message.contains("--up-to 5` to build the level again"), "{message}");
    // A question of fewer Rebels opens only the levels it reads: the damaged level does not stop it.
    let four = ["--position", "G:c3;R:a1,a2,a3,a4;r"];
    let answered = run(&[&args[..], &four[..]].concat());
    assert!(answered.status.success(), "{}", text(&answered.stderr));
    assert!(text(&answered.stdout).contains("value: a "), "{}", text(&answered.stdout));
    bytes[at] ^= 0x01;
    std::fs::write(&level, &bytes).unwrap();

    // The perfect agent needs every level.
    let partial = run(&[
        "match",
        "juroku-musashi:capture=mandatory",
        "--agent",
        &format!("perfect:table={table}"),
        "--agent",
        "random",
    ]);
    assert_eq!(partial.status.code(), Some(1));
    assert!(
        text(&partial.stderr).contains("holds the levels [1, 2, 3, 4, 5] of"),
        "{}",
        text(&partial.stderr)
    );
}

#[test]
fn up_to_is_only_for_tables_built_by_level() {
    let output = run(&["solve", "sixteen-rebels", "--up-to", "6"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--up-to is for juroku-musashi"));
}

#[test]
fn a_second_build_in_the_same_folder_is_refused_while_the_first_runs() {
    let (_temp, dir) = temp_dir("busy");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.to_str().unwrap();
    // This process stands in for a running build: it holds the folder's lock.
    let lock = std::fs::File::create(dir.join(".lock")).unwrap();
    lock.lock().unwrap();
    let output = run(&["solve", "juroku-musashi", "--up-to", "2", "--table", table]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("another rebel-zero is building the table"),
        "{}",
        text(&output.stderr)
    );
    drop(lock);
    let output = run(&["solve", "juroku-musashi", "--up-to", "2", "--table", table]);
    assert!(output.status.success(), "{}", text(&output.stderr));
}
