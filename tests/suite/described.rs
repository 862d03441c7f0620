//! Hunt games described in files (configs/rules/): each built-in hunt ruleset written as a file plays
//! exactly as the compiled one (the published perft vectors, and every move, result and perft count
//! along random games), a described variant trains and measures like a built-in one, and a broken file
//! is refused with the key and the line.

use std::path::{Path, PathBuf};
use std::process::Command;

use rand::SeedableRng;
use rebel_zero::game::perft::perft;
use rebel_zero::game::{AnyGame, Game, MoveList};
use rebel_zero::with_game;

const BINARY: &str = env!("CARGO_BIN_EXE_rebel-zero");

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("described-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file spec that plays as a built-in hunt spec: its file, with the options a file spec has
/// (`first`, `capture`, `general_wins_at`, `max_plies`) passed on and the others written into a copy
/// of the file (`triangle=closed` has a file of its own; `apex=off` edits the results).
fn file_spec(builtin: &str, dir: &Path) -> String {
    let (name, options) = builtin.split_once(':').unwrap_or((builtin, ""));
    let mut file = name.to_string();
    let mut edits: Vec<(&str, &str)> = Vec::new();
    let mut passed = Vec::new();
    for option in options.split(',').filter(|o| !o.is_empty()) {
        match option {
            "triangle=closed" => file = "juroku-musashi-closed".into(),
            "triangle=open" => {}
            "apex=off" => edits.push(("apex = \"general_wins\"", "apex = \"none\"")),
            _ => passed.push(option),
        }
    }
    let mut path = repo().join("configs/rules").join(format!("{file}.toml"));
    assert!(path.is_file(), "no rules file for {builtin}");
    if !edits.is_empty() {
        let mut text = std::fs::read_to_string(&path).unwrap();
        for (from, to) in edits {
            assert!(text.contains(from), "{} has no `{from}`", path.display());
            text = text.replace(from, to);
        }
        path = dir.join(format!("{}.toml", builtin.replace([':', ',', '='], "-")));
        std::fs::write(&path, text).unwrap();
    }
    let options = if passed.is_empty() { String::new() } else { format!(":{}", passed.join(",")) };
    format!("file:{}{options}", path.display())
}

/// The published start vectors of the hunt rulesets.
fn hunt_vectors() -> Vec<(String, Vec<u64>)> {
    let text = std::fs::read_to_string(repo().join("tests/data/perft-start.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .filter(|f| matches!(AnyGame::from_spec(f[0]), Ok(AnyGame::Hunt(_))))
        .map(|f| (f[0].to_string(), f[2].split(',').map(|c| c.parse().unwrap()).collect()))
        .collect()
}

#[test]
fn every_builtin_hunt_ruleset_as_a_file_counts_the_published_perft() {
    let dir = scratch("vectors");
    let vectors = hunt_vectors();
    assert!(vectors.len() >= 15, "the hunt vectors look truncated");
    for (builtin, expected) in vectors {
        let spec = file_spec(&builtin, &dir);
        let AnyGame::Hunt(game) = AnyGame::from_spec(&spec).unwrap_or_else(|e| panic!("{spec}: {e}")) else {
            panic!("{spec} is not a hunt game");
        };
        let start = game.start();
        let got: Vec<u64> = (1..=expected.len() as u32).map(|d| perft(&game, &start, d)).collect();
        assert_eq!(got, expected, "{spec} (as {builtin})");
    }
}

/// Along random games of the built-in ruleset, the file's game has the same moves (by notation), the
/// same results and the same perft counts in every position reached.
#[test]
fn every_builtin_hunt_ruleset_as_a_file_plays_the_same_random_games() {
    let dir = scratch("random");
    let specs = [
        "sixteen-rebels",
        "sixteen-rebels:first=rebels,capture=mandatory",
        "murray-rebels",
        "neeley-rebels:general_wins_at=6",
        "juroku-musashi",
        "juroku-musashi:triangle=closed,first=general",
        "twenty-six-rebels",
        "twenty-six-rebels-free",
        "twenty-six-rebels-alt:capture=optional",
    ];
    for builtin in specs {
        let spec = file_spec(builtin, &dir);
        let (AnyGame::Hunt(compiled), AnyGame::Hunt(described)) =
            (AnyGame::from_spec(builtin).unwrap(), AnyGame::from_spec(&spec).unwrap())
        else {
            panic!("hunt games");
        };
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let (mut moves, mut scratch) = (MoveList::default(), MoveList::default());
        let mut positions = 0;
        for _game in 0..12 {
            // Both games play the same moves (by notation), side by side.
            let (mut state, mut twin) = (compiled.start(), described.start());
            for ply in 0..120 {
                let text = compiled.format_position(&state);
                assert_eq!(text, described.format_position(&twin), "{spec}");
                assert_eq!(
                    compiled.immediate_result(&state),
                    described.immediate_result(&twin),
                    "{spec} {text}"
                );
                compiled.legal_moves(&state, &mut moves);
                described.legal_moves(&twin, &mut scratch);
                let names = |g: &rebel_zero::game::hunt::HuntGame, s, list: &MoveList<_, _>| {
                    let mut names: Vec<String> = list.iter().map(|&m| g.format_move(s, m)).collect();
                    names.sort();
                    names
                };
                assert_eq!(
                    names(&compiled, &state, &moves),
                    names(&described, &twin, &scratch),
                    "{spec} {text}"
                );
                if ply % 9 == 4 {
                    assert_eq!(perft(&compiled, &state, 2), perft(&described, &twin, 2), "{spec} {text}");
                    positions += 1;
                }
                let Some(mv) = compiled.sample_move(&state, &mut rng, &mut moves) else { break };
                let same = described.parse_move(&twin, &compiled.format_move(&state, mv)).unwrap();
                compiled.apply(&mut state, mv);
                described.apply(&mut twin, same);
            }
        }
        assert!(positions >= 30, "{builtin}: only {positions} positions compared");
    }
}

/// A variant that is no built-in ruleset: sixteen-rebels whose Rebels may not step back (toward rank 1).
fn no_retreat_variant(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(repo().join("configs/rules/sixteen-rebels.toml")).unwrap();
    let path = dir.join("no-retreat.toml");
    std::fs::write(&path, format!("{text}\n[rebels]\nsteps = \"forward_and_sideways\"\n")).unwrap();
    path
}

#[test]
fn a_described_variant_is_a_ruleset_like_any_other() {
    let dir = scratch("variant");
    let path = no_retreat_variant(&dir);
    let spec = format!("file:{}", path.display());
    let AnyGame::Hunt(game) = AnyGame::from_spec(&spec).unwrap() else { panic!("a hunt game") };
    let AnyGame::Hunt(builtin) = AnyGame::from_spec("sixteen-rebels").unwrap() else { panic!("a hunt game") };
    // The Rebels' first moves: fewer than the built-in game's, since no Rebel may step back.
    let after = |g: &rebel_zero::game::hunt::HuntGame| {
        let mut state = g.start();
        let general = g.parse_move(&state, "c3-c4").unwrap();
        g.apply(&mut state, general);
        let mut moves = MoveList::default();
        g.legal_moves(&state, &mut moves);
        moves.len()
    };
    assert!(after(&game) < after(&builtin), "{} against {}", after(&game), after(&builtin));
    // The canonical spec repeats the path and the options that differ from the file's.
    let with = AnyGame::from_spec(&format!("{spec}:first=rebels,max_plies=200")).unwrap();
    assert_eq!(with_game!(&with, |g| g.spec().to_string()), format!("{spec}:first=rebels"));

    // The CLI takes it wherever a spec goes: perft, a match, and a training run on its own encoding.
    let run = |args: &[&str]| {
        let out = Command::new(BINARY).args(args).current_dir(&dir).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{args:?}: {text}{}", String::from_utf8_lossy(&out.stderr));
        text
    };
    assert!(run(&["perft", &spec, "--depth", "2"]).starts_with("perft 1 8\n"));
    let matched =
        run(&["match", &spec, "--agent", "mcts:sims=20", "--agent", "random", "--games", "4", "--out", "m"]);
    assert!(matched.contains("mcts:sims=20"), "{matched}");
    let config = format!(
        "[run]\nname = \"no-retreat\"\nspecs = [\"{spec}\"]\nseed = 3\ngenerations = 1\n[network]\nsize = \"b1c8\"\n\
         [selfplay]\ngames_per_generation = 2\nworkers = 1\nconcurrent_games = 2\nsimulations = 8\nfast_simulations = 0\n\
         [optimizer]\nbatch_size = 16\n[evaluation]\nevery = 0\n"
    );
    std::fs::write(dir.join("train.toml"), config).unwrap();
    run(&["train", "train.toml", "--quiet"]);
    let latest = std::fs::read_to_string(dir.join("checkpoints/no-retreat/latest")).unwrap();
    assert_eq!(latest.trim(), "gen-000001");
    let net = "net:path=checkpoints/no-retreat,sims=8";
    run(&["match", &spec, "--agent", net, "--agent", "random", "--games", "2", "--out", "n"]);
    // The network reads any rules file on the same board (Chinese Rebels itself here): the board, not
    // the file or the order files were loaded in, names its input layout.
    let meta = std::fs::read_to_string(dir.join("checkpoints/no-retreat/gen-000001/meta.json")).unwrap();
    assert!(meta.contains("Described(") && !meta.contains("Described(0)"), "{meta}");
    let chinese = format!("file:{}", repo().join("configs/rules/sixteen-rebels.toml").display());
    run(&["match", &chinese, "--agent", net, "--agent", "random", "--games", "2", "--out", "c"]);
    let other_board = format!("file:{}", repo().join("configs/rules/juroku-musashi.toml").display());
    let refused = Command::new(BINARY)
        .args(["match", &other_board, "--agent", net, "--agent", "random", "--games", "2", "--out", "j"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(!refused.status.success(), "a network of one board played another");
}

#[test]
fn a_broken_rules_file_is_refused_with_its_key_and_line() {
    let dir = scratch("broken");
    let good = std::fs::read_to_string(repo().join("configs/rules/sixteen-rebels.toml")).unwrap();
    let cases: &[(&str, &str, &str)] = &[
        ("general = \"c3\"", "general = \"z9\"", "start.general: no point `z9`"),
        ("\"b5-b6\", ", "\"b5-q6\", ", "no point `q6`"),
        ("\"b5-b6\", ", "\"b5b6\", ", "board.links: `b5b6` is not of the form a1-b2"),
        ("\"b5-b6\", ", "\"a1-c2\", ", "is not horizontal, vertical or at 45°"),
        ("general_wins_at = 4", "general_wins_at = 16", "results.general_wins_at: must be below the 16"),
        ("rebels = [\"a1\"", "rebels = [\"c3\"", "start.rebels: `c3` is the General's starting point"),
        ("apex = \"c7\"\n", "", "results.apex: the board has no apex"),
        ("[general]\n", "[general]\ndeferred = true\n", "not both"),
        ("[draws]\n", "[draws]\ncolour = 3\n", "unknown field `colour`"),
        ("grid_links = \"alquerque\"", "grid_links = \"hexagonal\"", "unknown variant `hexagonal`"),
        ("max_plies = 200", "max_plies = 0", "draws.max_plies: must be at least 1"),
        ("{ label = \"c7\", x = 2, y = 5 }", "{ label = \"c7\", x = 2.25, y = 5 }", "whole or half units"),
    ];
    for (from, to, expected) in cases {
        assert!(good.contains(from), "the case `{from}` no longer matches the file");
        let path = dir.join("broken.toml");
        let text = good.replacen(from, to, 1);
        std::fs::write(&path, &text).unwrap();
        let out = Command::new(BINARY)
            .args(["perft", &format!("file:{}", path.display()), "--depth", "1"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{expected}: {stderr}");
        assert!(
            stderr.contains(expected) && stderr.contains("broken.toml"),
            "want `{expected}`, got: {stderr}"
        );
        // The line named is the line of the change (a removed key is reported where its result is).
        if !to.is_empty() && !expected.contains("unknown") {
            let line = text.lines().position(|l| l.contains(to.lines().last().unwrap())).unwrap() + 1;
            assert!(stderr.contains(&format!("line {line}:")), "want line {line} for `{expected}`: {stderr}");
        }
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // Several mistakes are named in one run, each with its line and dotted key: of type and name, and
    // (in a file whose keys all read) of meaning.
    let edits: &[&[(&str, &str, &str)]] = &[
        &[
            ("general_wins_at = 4", "general_wins_at = \"six\"", "results.general_wins_at: invalid type"),
            ("grid_links = \"alquerque\"", "grid_links = \"backwards\"", "board.grid_links: unknown variant"),
            ("[draws]\n", "[draws]\ncolour = 3\n", "draws.colour: unknown field `colour`"),
        ],
        &[
            ("general = \"c3\"", "general = \"z9\"", "start.general: no point `z9`"),
            ("general_wins_at = 4", "general_wins_at = 16", "results.general_wins_at: must be below"),
            ("max_plies = 200", "max_plies = 0", "draws.max_plies: must be at least 1"),
        ],
    ];
    for mistakes in edits {
        let text = mistakes.iter().fold(good.clone(), |text, (from, to, _)| text.replacen(from, to, 1));
        let path = dir.join("three.toml");
        std::fs::write(&path, &text).unwrap();
        let spec = format!("file:{}", path.display());
        let out = Command::new(BINARY).args(["perft", &spec, "--depth", "1"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("3 mistakes"), "{stderr}");
        for (_, to, expected) in *mistakes {
            let line = text.lines().position(|l| l.contains(to.lines().last().unwrap())).unwrap() + 1;
            assert!(
                stderr.contains(&format!("line {line}: {expected}")),
                "want line {line}: {expected}: {stderr}"
            );
        }
    }
    // A required key with a mistake is named once, not again as missing (nor its section).
    let path = dir.join("required.toml");
    std::fs::write(&path, good.replacen("general = \"c3\"", "general = 5", 1)).unwrap();
    let out = Command::new(BINARY)
        .args(["perft", &format!("file:{}", path.display()), "--depth", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("start.general: invalid type: integer `5`"), "{stderr}");
    assert!(!stderr.contains("missing field"), "{stderr}");
    let missing = Command::new(BINARY).args(["perft", "file:no/such.toml", "--depth", "1"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no/such.toml") && stderr.contains("cannot read"), "{stderr}");
}

/// Damaged rules files (lines dropped, values swapped for others of the file, numbers pushed to their
/// limits) are refused or loaded, never a panic.
#[test]
fn damaged_rules_files_never_panic() {
    use rand::RngExt;
    let dir = scratch("damaged");
    let good = std::fs::read_to_string(repo().join("configs/rules/twenty-six-rebels.toml")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let values =
        ["0", "-1", "4294967295", "99999999999", "1e308", "nan", "\"\"", "\"a0\"", "[]", "{}", "true"];
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let (mut refused, mut loaded) = (0, 0);
    for case in 0..300 {
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..edited.len());
            match rng.random_range(0..3) {
                0 => {
                    edited.remove(at);
                }
                1 => {
                    if let Some((key, _)) = edited[at].split_once(" = ") {
                        edited[at] = format!("{key} = {}", values[rng.random_range(0..values.len())]);
                    }
                }
                _ => {
                    let other = lines[rng.random_range(0..lines.len())].to_string();
                    edited.insert(at, other);
                }
            }
        }
        let path = dir.join(format!("case-{case}.toml"));
        std::fs::write(&path, edited.join("\n")).unwrap();
        let spec = format!("file:{}", path.display());
        match std::panic::catch_unwind(|| {
            AnyGame::from_spec(&spec).map(|g| with_game!(&g, |g| perft(g, &g.start(), 2)))
        }) {
            Ok(Ok(_)) => loaded += 1,
            Ok(Err(e)) => {
                assert!(e.to_string().contains(&format!("case-{case}.toml")), "{e}");
                refused += 1;
            }
            Err(_) => panic!("case {case} panicked:\n{}", edited.join("\n")),
        }
    }
    assert!(refused > 100 && loaded > 10, "{refused} refused, {loaded} loaded: the cases should test both");
}

/// A described board is drawn with its lines, as the built-in boards are: each file of configs/rules/
/// that describes a built-in board draws exactly as the built-in one, the links between points half a
/// unit apart (the privies and triangles) included.
#[test]
fn a_described_board_is_drawn_with_its_lines() {
    let show = |spec: &str| {
        let out = Command::new(BINARY).args(["show", spec]).current_dir(repo()).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    for (built_in, file) in [
        ("sixteen-rebels", "sixteen-rebels"),
        ("juroku-musashi", "juroku-musashi"),
        ("juroku-musashi:triangle=closed", "juroku-musashi-closed"),
        ("twenty-six-rebels", "twenty-six-rebels"),
    ] {
        let described = show(&format!("file:configs/rules/{file}.toml"));
        assert_eq!(described, show(built_in), "{file}");
    }
    let described = show("file:configs/rules/sixteen-rebels.toml");
    assert!(described.contains("\n           /|\\\n"), "the apex's links: {described}");
    assert!(described.lines().any(|l| l.trim_end() == "    a   b   c   d   e"), "{described}");
}

/// A game played on `file:my.toml` replays from any folder: its record keeps the file's absolute
/// path and content hash; a file changed since, or gone, is named with the hash it must have.
#[test]
fn a_file_game_replays_from_another_folder_and_a_changed_file_is_named() {
    let dir = scratch("travel");
    let rules = std::fs::read_to_string(repo().join("configs/rules/sixteen-rebels.toml")).unwrap();
    std::fs::write(dir.join("my.toml"), &rules).unwrap();
    let in_dir =
        |folder: &Path, args: &[&str]| Command::new(BINARY).args(args).current_dir(folder).output().unwrap();
    let played = in_dir(
        &dir,
        &[
            "match",
            "file:my.toml:max_plies=40",
            "--agent",
            "random",
            "--agent",
            "random",
            "--games",
            "1",
            "--out",
            "m",
        ],
    );
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let games = dir.join("m/games.jsonl");
    let record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&games).unwrap().lines().next().unwrap()).unwrap();
    let recorded = &record["rules_file"];
    assert_eq!(recorded["path"].as_str().unwrap(), dir.join("my.toml").display().to_string(), "{record}");
    // From another folder, where `my.toml` means nothing.
    let elsewhere = scratch("travel-elsewhere");
    let games_arg = games.display().to_string();
    let replayed = in_dir(&elsewhere, &["replay", &games_arg]);
    assert!(replayed.status.success(), "{}", String::from_utf8_lossy(&replayed.stderr));
    // Changed since: refused, naming the file and the hash the game needs.
    std::fs::write(dir.join("my.toml"), rules.replace("max_plies = 200", "max_plies = 150")).unwrap();
    let changed = in_dir(&elsewhere, &["replay", &games_arg]);
    let stderr = String::from_utf8_lossy(&changed.stderr);
    assert!(!changed.status.success());
    assert!(stderr.contains("my.toml has changed since the game was played"), "{stderr}");
    assert!(stderr.contains(recorded["sha256"].as_str().unwrap()), "{stderr}");
    // Gone: the same.
    std::fs::remove_file(dir.join("my.toml")).unwrap();
    let gone = in_dir(&elsewhere, &["replay", &games_arg]);
    let stderr = String::from_utf8_lossy(&gone.stderr);
    assert!(
        stderr.contains("cannot read") && stderr.contains(recorded["sha256"].as_str().unwrap()),
        "{stderr}"
    );
}
