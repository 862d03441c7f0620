//! The tool in its ecosystem: pipes, JSON output, files it wrote read back, runs from any folder,
//! shell completions, the UCI engine mode and PGN that python-chess reads.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    exe().args(args).current_dir(dir).output().expect("the binary runs")
}

fn run(args: &[&str]) -> Output {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ecosystem-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_closed_pipe_ends_the_program_quietly_with_success() {
    // The reading end is closed before the program writes, so its first line meets a closed pipe
    // (what `rebel-zero rules | head -1` does once head has its line).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = exe().arg("rules").stdout(writer).stderr(Stdio::piped()).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
    assert!(output.stderr.is_empty(), "nothing on stderr: {}", text(&output.stderr));
}

#[test]
fn replay_reads_every_shipped_study_file_and_selects_by_cell() {
    let studies = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/studies");
    let mut files = 0;
    for entry in std::fs::read_dir(&studies).unwrap() {
        let file = entry.unwrap().path().join("games.jsonl.gz");
        if !file.exists() {
            continue;
        }
        files += 1;
        let file = file.to_str().unwrap();
        let list = run(&["replay", file, "--list"]);
        assert!(list.status.success(), "{file}: {}", text(&list.stderr));
        let listing = text(&list.stdout);
        // The first cell of the listing (after the header): its name is the line's last word.
        let cell = listing.lines().nth(1).and_then(|l| l.split_whitespace().last()).expect("a cell");
        let game = run(&["replay", file, "--cell", cell, "--game", "1"]);
        assert!(game.status.success(), "{file} {cell}: {}", text(&game.stderr));
        assert!(text(&game.stdout).contains("result: "), "{file} {cell}");
        let missing = run(&["replay", file, "--cell", "no-such-cell"]);
        assert_eq!(missing.status.code(), Some(2));
        assert!(text(&missing.stderr).contains(cell), "the error lists the cells");
    }
    assert!(files >= 6, "every committed study ships its games: {files}");
}

#[test]
fn every_json_output_parses() {
    let dir = scratch("json");
    let out = dir.join("m");
    let commands: &[&[&str]] = &[
        &["rules", "--json"],
        &["perft", "sixteen-rebels", "--depth", "2", "--json", "--divide"],
        &["show", "squirm-chess", "--moves", "e2e4", "--json"],
        &[
            "match",
            "sixteen-rebels",
            "--agent",
            "random",
            "--agent",
            "random",
            "--games",
            "2",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ],
        &["bench", "--spec", "neeley-rebels", "--seconds", "0.05", "--json"],
        &["bench-search", "--spec", "neeley-rebels", "--sims", "20", "--seconds", "0.05", "--json"],
        &["bench-net", "sixteen-rebels", "--size", "b1c8", "--batches", "1", "--seconds", "0.05", "--json"],
        &["bench-train", "sixteen-rebels", "--size", "b1c8", "--batches", "8", "--seconds", "0.05", "--json"],
    ];
    for args in commands {
        let output = run(args);
        assert!(output.status.success(), "{args:?}: {}", text(&output.stderr));
        let stdout = text(&output.stdout);
        assert_eq!(stdout.lines().count(), 1, "{args:?}: one line of JSON");
        let value: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"));
        assert!(value.is_object() || value.is_array(), "{args:?}");
    }
    let rules: serde_json::Value = serde_json::from_slice(&run(&["rules", "--json"]).stdout).unwrap();
    assert_eq!(rules[0]["name"], "sixteen-rebels");
    let perft: serde_json::Value =
        serde_json::from_slice(&run(&["perft", "sixteen-rebels", "--depth", "3", "--json"]).stdout).unwrap();
    assert_eq!(perft["counts"], serde_json::json!([8, 168, 616]));
}

#[test]
fn built_in_studies_and_help_work_from_an_empty_folder() {
    let dir = scratch("anywhere");
    let help = run_in(&dir, &["balance", "--help"]);
    assert!(help.status.success() && text(&help.stdout).contains("--preset"));
    let list = run_in(&dir, &["balance", "--preset", "list"]);
    assert!(list.status.success() && text(&list.stdout).contains("configs/balance/quick.toml"));
    let study = run_in(&dir, &["balance", "--preset", "smoke", "--threads", "2"]);
    assert!(study.status.success(), "{}", text(&study.stderr));
    assert!(dir.join("studies/smoke/report.md").exists());
    assert!(text(&study.stdout).contains("studies/smoke/report.md"), "the output folder is printed");
    let list = run_in(&dir, &["train", "--preset", "list"]);
    assert!(text(&list.stdout).contains("configs/sixteen-rebels.toml"));
}

#[test]
fn completions_and_the_man_page_are_printed() {
    let bash = run(&["completions", "bash"]);
    assert!(bash.status.success());
    let script = text(&bash.stdout);
    assert!(script.contains("complete -F") && script.contains("bench-train"), "a bash completion script");
    let man = run(&["manpage"]);
    let page = text(&man.stdout);
    assert!(page.starts_with(".ie") && page.contains(".TH rebel-zero 1"));
    for section in [".SH ENVIRONMENT", ".SH FILES", ".SH \"EXIT STATUS\"", "REBEL_ZERO_CACHE"] {
        assert!(page.contains(section), "the main page has {section}");
    }
    // Every page the main page refers to is written by `--dir`.
    let dir = scratch("man");
    let pages = run(&["manpage", "--dir", dir.to_str().unwrap()]);
    assert!(pages.status.success(), "{}", text(&pages.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("rebel-zero.1")).unwrap(), page, "the same main page");
    let referred: Vec<&str> = page.lines().filter(|l| l.starts_with("rebel\\-zero\\-")).collect();
    assert!(referred.len() > 15, "{referred:?}");
    for line in referred {
        let name = line.trim_end_matches("(1)").replace("\\-", "-");
        assert!(dir.join(format!("{name}.1")).exists(), "{name}.1 was not written");
    }
}

#[test]
fn the_uci_mode_plays_a_legal_move_in_every_chess_ruleset() {
    for variant in ["chess", "rebellion", "squirm"] {
        let mut child = exe()
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let commands = format!(
            "uci\nsetoption name UCI_Variant value {variant}\nisready\nposition startpos moves e2e4\ngo nodes 200\nquit\n"
        );
        child.stdin.take().unwrap().write_all(commands.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        let replies = text(&output.stdout);
        assert!(output.status.success(), "{variant}: {}", text(&output.stderr));
        assert!(replies.contains("uciok") && replies.contains("readyok"), "{variant}: {replies}");
        assert!(!replies.contains("error"), "{variant}: {replies}");
        let best = replies.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
        let best = best.split_whitespace().next().unwrap();
        // The move is legal for Black after 1. e4 in that ruleset.
        let spec = if variant == "chess" { "chess".to_string() } else { format!("{variant}-chess") };
        let shown = run(&["show", &spec, "--moves", &format!("e2e4,{best}")]);
        assert!(shown.status.success(), "{variant}: {best}: {}", text(&shown.stderr));
    }
}

/// python-chess, the Python ecosystem's chess library, reads the PGN of a chess match back move by
/// move (scripts/check_pgn.py). `.ci/run` installs it; without it the test fails saying how.
#[test]
fn python_chess_reads_the_pgn_of_a_match() {
    let dir = scratch("pgn");
    let out = dir.join("m");
    let played = run(&[
        "match",
        "chess",
        "--agent",
        "random",
        "--agent",
        "mcts:sims=8",
        "--games",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    let pgn = dir.join("m.pgn");
    let exported = run(&["pgn", out.join("games.jsonl").to_str().unwrap(), "--out", pgn.to_str().unwrap()]);
    assert!(exported.status.success(), "{}", text(&exported.stderr));
    let has_chess = Command::new("python3").args(["-c", "import chess.pgn"]).output();
    assert!(
        has_chess.is_ok_and(|o| o.status.success()),
        "python-chess is needed for this test: pip install chess (.ci/run installs it)"
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check_pgn.py");
    let checked = Command::new("python3").arg(script).arg(&pgn).output().unwrap();
    assert!(checked.status.success(), "{}{}", text(&checked.stdout), text(&checked.stderr));
    assert_eq!(text(&checked.stdout).trim(), "4 games read back");
}

/// python-chess drives the UCI engine as an analysis GUI would (scripts/uci_check.py): MultiPV,
/// `searchmoves` for the alpha-beta agent and the network, and pondering.
#[test]
fn python_chess_drives_the_uci_engine() {
    let has_chess = Command::new("python3").args(["-c", "import chess.engine"]).output();
    assert!(
        has_chess.is_ok_and(|o| o.status.success()),
        "python-chess is needed for this test: pip install chess (.ci/run installs it)"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let checked = Command::new("python3")
        .arg(root.join("scripts/uci_check.py"))
        .arg(env!("CARGO_BIN_EXE_rebel-zero"))
        .current_dir(root)
        .output()
        .unwrap();
    let said = format!("{}{}", text(&checked.stdout), text(&checked.stderr));
    assert!(checked.status.success(), "{said}");
    assert_eq!(said.matches("ok: ").count(), 10, "{said}");
}

/// A checkpoint whose weights were altered after saving is refused with its path, never played.
#[test]
fn a_damaged_checkpoint_is_refused() {
    let dir = scratch("damaged");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("checkpoints/sixteen-rebels");
    let generation = std::fs::read_to_string(shipped.join("latest")).unwrap();
    let copy = dir.join("gen");
    std::fs::create_dir_all(&copy).unwrap();
    for file in ["meta.json", "model.bpk"] {
        std::fs::copy(shipped.join(generation.trim()).join(file), copy.join(file)).unwrap();
    }
    let mut weights = std::fs::read(copy.join("model.bpk")).unwrap();
    let middle = weights.len() / 2;
    weights[middle] ^= 0x40; // one flipped bit in the middle of the weights
    std::fs::write(copy.join("model.bpk"), weights).unwrap();
    let agent = format!("net:path={},sims=4", copy.display());
    let output = run(&["match", "sixteen-rebels", "--agent", &agent, "--agent", "random", "--games", "1"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let message = text(&output.stderr);
    assert!(message.contains("model.bpk is damaged") && message.contains("SHA-256"), "{message}");
}

/// `rebel-zero play ARGS` in `dir`, `typed` as the person's input.
fn play(dir: &Path, args: &[&str], typed: &[u8]) -> Output {
    crate::run_typing(dir, &dir.join("data"), &[&["play"], args].concat(), typed)
}

#[test]
fn play_picks_an_opponent_and_a_side_and_saves_the_game() {
    let dir = scratch("play");
    let output = play(&dir, &["imperial-contest"], b"moves\nquit\n");
    let shown = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    // The shipped network, found beside the binary although the folder has no checkpoints/.
    assert!(shown.contains("you play the russians; net:path=checkpoints/imperial-contest"), "{shown}");
    // Nothing was played: nothing is saved. One move and then quitting saves the game.
    assert!(!dir.join("data/played.jsonl").exists());
    let output =
        play(&dir, &["sixteen-rebels", "--agent", "random", "--as", "rebels", "--seed", "9"], b"quit\n");
    assert!(text(&output.stdout).contains("saved as game 0 of"), "{}", text(&output.stdout));
    let replay = run(&["replay", dir.join("data/played.jsonl").to_str().unwrap()]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).contains("general: random, rebels: human"), "{}", text(&replay.stdout));
}
