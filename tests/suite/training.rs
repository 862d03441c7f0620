//! Training through the command line: the smoke config trains and writes a checkpoint that a `net:`
//! agent can play; a run killed with SIGKILL resumes from its last checkpoint; bad configs and
//! mismatched checkpoints give clear errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
}

fn run(args: &[&str]) -> Output {
    binary().args(args).output().expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh folder for one test, holding a copy of configs/smoke.toml (with each `edit.0` replaced by its
/// `edit.1`) that writes its checkpoints there.
fn smoke_setup(test: &str, edits: &[(&str, &str)]) -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("training-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let smoke = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/smoke.toml")).unwrap();
    let checkpoints = dir.join("checkpoints");
    let mut config =
        smoke.replacen("[run]\n", &format!("[run]\ncheckpoint_dir = \"{}\"\n", checkpoints.display()), 1);
    for (from, to) in edits {
        assert!(config.contains(from), "smoke.toml has {from:?}");
        config = config.replace(from, to);
    }
    let path = dir.join("smoke.toml");
    std::fs::write(&path, config).unwrap();
    (path, checkpoints.join("smoke"))
}

/// The replay window a saved generation keeps: gzipped JSON lines, one game each.
fn read_replay(generation: &Path) -> String {
    use std::io::Read;
    let bytes = std::fs::read(generation.join("replay.jsonl.gz")).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice()).read_to_string(&mut text).unwrap();
    text
}

fn latest_generation(run_dir: &Path) -> Option<u64> {
    let latest = std::fs::read_to_string(run_dir.join("latest")).ok()?;
    latest.trim().strip_prefix("gen-")?.parse().ok()
}

#[test]
fn the_smoke_config_trains_and_its_network_plays() {
    let (config, run_dir) = smoke_setup("smoke", &[]);
    let output = run(&["train", config.to_str().unwrap(), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(latest_generation(&run_dir), Some(2));
    let generation = run_dir.join("gen-000002");
    for file in ["meta.json", "model.bpk", "optimizer.bpk", "config.toml", "replay.jsonl.gz"] {
        assert!(generation.join(file).is_file(), "{file} is saved");
    }
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(generation.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["counters"]["games"], 8);
    assert_eq!(meta["shape"]["tower"], "b1c8");
    let metrics = std::fs::read_to_string(run_dir.join("logs/metrics.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = metrics.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let generations: Vec<u64> = lines.iter().map(|l| l["generation"].as_u64().unwrap()).collect();
    assert_eq!(generations, [1, 1, 2, 2], "a line per generation, and one for each one's evaluation");
    // Generation 1 trains nothing (its window is still empty), so it records no losses, not zeros.
    assert!(lines[0].get("loss/policy").is_none() && lines[0]["selfplay/draw_rate"].is_f64(), "{metrics}");
    // The evaluations take the run's specs in turn, each with its own curve.
    let second = "eval/sixteen-rebels_first_rebels/random";
    assert!(lines[2]["loss/policy"].is_f64() && lines[2].get(second).is_none(), "evaluated after: {metrics}");
    assert!(lines[1]["eval/sixteen-rebels/random"].is_f64(), "generation 1 plays the first spec: {metrics}");
    assert!(lines[3][second].is_f64() && lines[3].get("eval/sixteen-rebels/random").is_none(), "{metrics}");
    let events = std::fs::read_dir(run_dir.join("logs")).unwrap().flatten();
    assert!(events.into_iter().any(|e| e.file_name().to_string_lossy().contains("tfevents")));

    // A batch of self-play games from the generation, as a Ray actor asks for one (`--threads` too).
    let batch = run_dir.parent().unwrap().join("smoke-batch.jsonl");
    let generation_dir = generation.to_str().unwrap();
    let args = ["selfplay", config.to_str().unwrap(), "--checkpoint", generation_dir, "--games", "2"];
    let output =
        run(&[&args[..], &["--seed", "1", "--threads", "1", "--quiet", "--out", batch.to_str().unwrap()]]
            .concat());
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&batch).unwrap().lines().count(), 2, "a saved game per line");

    // The network plays through the `net:` agent, on every spec of its board (and refuses another
    // board, below)...
    let agent = format!("net:path={},sims=8", run_dir.display());
    for spec in ["sixteen-rebels", "neeley-rebels:capture=mandatory"] {
        let output = run(&["match", spec, "--agent", &agent, "--agent", "random", "--games", "2"]);
        assert!(output.status.success(), "{spec}: {}", stderr(&output));
    }
    // A network at temp=0 has no randomness: against itself it plays one game over and over, unless
    // `open=P` draws the first P plies in proportion to visit counts.
    let distinct_games = |agent: &str| {
        let out = run_dir.parent().unwrap().join("self-play");
        let _ = std::fs::remove_dir_all(&out);
        let args = ["match", "sixteen-rebels", "--agent", agent, "--agent", agent, "--games", "4"];
        let output = run(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
        assert!(output.status.success(), "{}", stderr(&output));
        let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
        let moves: std::collections::BTreeSet<String> = games
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["moves"].to_string())
            .collect();
        moves.len()
    };
    assert_eq!(distinct_games(&agent), 1);
    assert!(distinct_games(&format!("{agent},open=6")) > 1);

    // ...and refuses another board with a message naming both.
    let output = run(&["match", "imperial-contest", "--agent", &agent, "--agent", "random", "--games", "2"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("trained on") && message.contains("imperial-contest"), "{message}");
    assert!(!message.contains("Encoder {"), "no Rust debug formatting: {message}");

    // Starting the same run again would overwrite it: refused.
    let output = run(&["train", config.to_str().unwrap(), "--quiet"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("--resume"), "{}", stderr(&output));
}

/// The alternatives the A/B runs of docs/TRAINING.md measure train too: Gumbel AlphaZero's root, whose
/// samples teach its improved policy, and AlphaZero's scalar value target.
#[test]
fn gumbel_roots_and_the_scalar_value_target_train() {
    let edits = [
        ("temperature_plies = 200", "gumbel_actions = 4"),
        ("reuse = 1.0", "reuse = 1.0\nvalue_target = \"scalar\""),
    ];
    let (config, run_dir) = smoke_setup("gumbel", &edits);
    let output = run(&["train", config.to_str().unwrap(), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(latest_generation(&run_dir), Some(2));
    let replay = read_replay(&run_dir.join("gen-000002"));
    let mut samples = 0;
    for line in replay.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        for target in game["targets"].as_array().unwrap() {
            let shares = target["policy"].as_array().unwrap().iter().map(|pair| pair[1].as_f64().unwrap());
            let total: f64 = shares.sum();
            assert!((total - 1.0).abs() < 1e-3, "{target}");
            samples += 1;
        }
    }
    assert!(samples > 0, "full searches were recorded");
}

/// `precision = "int8"`: self-play runs the network in 8 bits, calibrated on the replay window, and
/// each saved generation carries the scales it was played with.
#[test]
fn eight_bit_self_play_trains_and_saves_its_scales() {
    let (config, run_dir) =
        smoke_setup("int8", &[("temperature_plies = 200", "temperature_plies = 200\nprecision = \"int8\"")]);
    let output = run(&["train", config.to_str().unwrap(), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(latest_generation(&run_dir), Some(2));
    let text = std::fs::read_to_string(run_dir.join("gen-000002/calibration.json")).unwrap();
    let scales: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The b1c8 tower: the stem and its block's two convolutions.
    assert_eq!(scales["inputs"].as_array().unwrap().len(), 3, "{scales}");
    assert!(scales["source"].as_str().unwrap().contains("replay window"), "{scales}");
}

/// A resumed generation that kept no replay window (as the shipped sixteen-rebels one) plays its first
/// generation in 8 bits on its saved scales, not in f32: the same resume without `calibration.json`
/// plays other games. (Without VNNI both play in f32, and the same games.)
#[test]
fn a_resumed_generation_without_a_window_plays_in_eight_bits_on_its_saved_scales() {
    let (config, run_dir) = smoke_setup(
        "int8-resume",
        &[("temperature_plies = 200", "temperature_plies = 200\nprecision = \"int8\"")],
    );
    let config = config.to_str().unwrap();
    let output = run(&["train", config, "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let saved = run_dir.join("gen-000002");
    std::fs::remove_file(saved.join("replay.jsonl.gz")).unwrap();
    let resume_once = || {
        let _ = std::fs::remove_dir_all(run_dir.join("gen-000003"));
        std::fs::write(run_dir.join("latest"), "gen-000002\n").unwrap();
        let output = run(&["train", config, "--resume", "--generations", "3", "--quiet"]);
        assert!(output.status.success(), "{}", stderr(&output));
        read_replay(&run_dir.join("gen-000003"))
    };
    let with_scales = resume_once();
    std::fs::remove_file(saved.join("calibration.json")).unwrap();
    let in_f32 = resume_once();
    if rebel_zero::nn::int8::available() {
        assert_ne!(with_scales, in_f32, "the first generation after the resume played in 8 bits");
    } else {
        assert_eq!(with_scales, in_f32);
    }
}

/// `bootstrap.generations = 1`: rollout MCTS plays generation 1, so its games depend on the seed alone,
/// not on the network; generation 2 is the network's self-play. Two runs whose networks differ show both.
#[test]
fn teacher_games_bootstrap_the_first_generation() {
    let bootstrap = ("[replay]\n", "[bootstrap]\nteacher = \"mcts:sims=16\"\ngenerations = 1\n\n[replay]\n");
    let play = |test: &str, size: &str| {
        let (config, run_dir) = smoke_setup(test, &[bootstrap, ("b1c8", size)]);
        let output = run(&["train", config.to_str().unwrap(), "--quiet"]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stderr(&output).contains("generation 1: 4 teacher games"), "{}", stderr(&output));
        let metrics = std::fs::read_to_string(run_dir.join("logs/metrics.jsonl")).unwrap();
        let teacher: Vec<f64> = metrics
            .lines()
            .filter_map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["selfplay/teacher"].as_f64()
            })
            .collect();
        assert_eq!(teacher, [1.0, 0.0], "TensorBoard marks the teacher's generation");
        let replay = read_replay(&run_dir.join("gen-000002"));
        let games: Vec<serde_json::Value> =
            replay.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(games.len(), 8, "both generations' games are in the window");
        let samples: usize = games[..4].iter().map(|g| g["targets"].as_array().unwrap().len()).sum();
        assert!(samples > 0, "teacher games are samples");
        games.iter().map(|g| g["moves"].clone()).collect::<Vec<_>>()
    };
    let small = play("teacher-b1c4", "b1c4");
    let large = play("teacher-b1c8", "b1c8");
    assert_eq!(small[..4], large[..4], "the teacher's games do not depend on the network");
    assert_ne!(small[4..], large[4..], "self-play games do");
}

#[test]
fn a_run_killed_with_sigkill_resumes_from_its_last_checkpoint() {
    let (config, run_dir) = smoke_setup("kill", &[]);
    let config = config.to_str().unwrap();
    let mut child = binary()
        .args(["train", config, "--quiet", "--generations", "1000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while latest_generation(&run_dir).unwrap_or(0) < 3 {
        assert!(started.elapsed() < Duration::from_secs(120), "three generations within two minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL on Unix: no chance to clean up
    child.wait().unwrap();
    let killed_at = latest_generation(&run_dir).unwrap();
    let output =
        run(&["train", config, "--quiet", "--resume", "--generations", &(killed_at + 1).to_string()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!("resuming {} at generation {killed_at}", run_dir.display())),
        "{}",
        stderr(&output)
    );
    // The saved window (gzipped) comes back whole: 4 games a generation, at most 50.
    let window = (4 * killed_at).min(50);
    assert!(stderr(&output).contains(&format!(", {window} in the replay window")), "{}", stderr(&output));
    assert_eq!(latest_generation(&run_dir), Some(killed_at + 1));
    let meta: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(run_dir.join(format!("gen-{:06}/meta.json", killed_at + 1))).unwrap(),
    )
    .unwrap();
    assert_eq!(meta["counters"]["games"], 4 * (killed_at + 1), "no generation's games were counted twice");
}

/// A generation's weights and batch-norm statistics, in a fixed order.
fn weights(generation: &Path) -> (Vec<f32>, Vec<Vec<f32>>) {
    let checkpoint = rebel_zero::nn::checkpoint::Checkpoint::open(generation).unwrap();
    let net = checkpoint.load_net(&burn::prelude::Device::flex()).unwrap();
    let collected = rebel_zero::nn::backprop::collect_parameters(&net);
    (collected.values, collected.running)
}

/// A run killed twice and resumed is the run that was never stopped: the same weights, bit for bit,
/// and the same replay window. (The learner's sampling stream started over at each resume, so losses
/// went another way from the first resumed generation.)
#[test]
fn a_killed_and_resumed_run_is_the_uninterrupted_run_bit_for_bit() {
    let generations = "6";
    let (straight, straight_dir) = smoke_setup("straight", &[("generations = 2", "generations = 6")]);
    let output = run(&["train", straight.to_str().unwrap(), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (config, run_dir) = smoke_setup("resumed", &[("generations = 2", "generations = 6")]);
    let config = config.to_str().unwrap();
    for (kill_at, resume) in [(2, false), (4, true)] {
        let mut command = binary();
        command.args(["train", config, "--quiet"]);
        if resume {
            command.arg("--resume");
        }
        let mut child = command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        let started = Instant::now();
        while latest_generation(&run_dir).unwrap_or(0) < kill_at && child.try_wait().unwrap().is_none() {
            assert!(started.elapsed() < Duration::from_secs(120), "generations within two minutes");
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(latest_generation(&run_dir).unwrap() < 6, "killed before the end");
    }
    let output = run(&["train", config, "--quiet", "--resume", "--generations", generations]);
    assert!(output.status.success(), "{}", stderr(&output));
    let last = |dir: &Path| dir.join("gen-000006");
    assert_eq!(read_replay(&last(&straight_dir)), read_replay(&last(&run_dir)));
    let (straight_weights, resumed_weights) = (weights(&last(&straight_dir)), weights(&last(&run_dir)));
    assert!(straight_weights.0.iter().zip(&resumed_weights.0).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!(straight_weights, resumed_weights);
}

#[test]
fn bad_configs_and_mismatched_resumes_name_the_problem() {
    let (config, run_dir) = smoke_setup("bad", &[]);
    let config = config.to_str().unwrap();
    let (typo, _) = smoke_setup("typo", &[("window_games", "window")]);
    let output = run(&["train", typo.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("window"), "{}", stderr(&output));

    let output = run(&["train", "no/such/config.toml"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no/such/config.toml"), "{}", stderr(&output));

    let output = run(&["train", config, "--resume"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("nothing to resume"), "{}", stderr(&output));

    // A checkpoint of one network size cannot resume as another.
    let output = run(&["train", config, "--quiet", "--generations", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));

    // A damaged replay window stops the resume with its path, and the checkpoint stays as it was.
    let window = run_dir.join("gen-000001/replay.jsonl.gz");
    let saved = std::fs::read(&window).unwrap();
    std::fs::write(&window, &saved[..saved.len() / 2]).unwrap();
    let output = run(&["train", config, "--resume", "--generations", "2"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("gen-000001/replay.jsonl.gz"), "{}", stderr(&output));
    assert_eq!(latest_generation(&run_dir), Some(1));
    std::fs::write(&window, saved).unwrap();

    // A run's specs may grow at the end, never move: its saved games name them by index.
    let smoke = std::fs::read_to_string(config).unwrap();
    let specs = r#"specs = ["sixteen-rebels", "sixteen-rebels:first=rebels"]"#;
    let moved = smoke.replace(specs, r#"specs = ["sixteen-rebels:first=rebels", "sixteen-rebels"]"#);
    assert_ne!(moved, smoke, "smoke.toml names its specs as this test expects");
    std::fs::write(config, moved).unwrap();
    let output = run(&["train", config, "--resume", "--generations", "2"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("must name them first"), "{}", stderr(&output));
    let grown = smoke.replace(
        specs,
        r#"specs = ["sixteen-rebels", "sixteen-rebels:first=rebels", "sixteen-rebels:capture=mandatory"]"#,
    );
    std::fs::write(config, grown).unwrap();
    let output = run(&["train", config, "--quiet", "--resume", "--generations", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let meta = std::fs::read_to_string(run_dir.join("gen-000002/meta.json")).unwrap();
    assert!(meta.contains("sixteen-rebels:capture=mandatory"), "{meta}");

    let text = std::fs::read_to_string(config).unwrap().replace("b1c8", "b2c8");
    std::fs::write(config, text).unwrap();
    let output = run(&["train", config, "--resume", "--generations", "2"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("b1c8") && stderr(&output).contains("b2c8"), "{}", stderr(&output));
}

#[test]
fn every_shipped_config_reads_and_names_real_rulesets_of_one_board() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let config = rebel_zero::train::TrainConfig::load(&path).unwrap();
        let games: Vec<_> =
            config.run.specs.iter().map(|s| rebel_zero::game::AnyGame::from_spec(s).unwrap()).collect();
        let family = std::mem::discriminant(&games[0]);
        assert!(games.iter().all(|g| std::mem::discriminant(g) == family), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 6, "smoke plus one config per family: {checked}");
}

/// One network serves a whole family even where its rulesets' move sets differ: the chess family's
/// three rulesets (squirm turns and rebel steps included) train together, as configs/chess.toml asks.
#[test]
fn the_chess_family_trains_one_network_for_its_three_rulesets() {
    let specs =
        r#"specs = ["rebellion-chess:max_plies=24", "squirm-chess:max_plies=24", "chess:max_plies=24"]"#;
    let edits = [
        (r#"specs = ["sixteen-rebels", "sixteen-rebels:first=rebels"]"#, specs),
        ("generations = 2 ", "generations = 1 "),
        ("games_per_generation = 4", "games_per_generation = 6"),
    ];
    let (config, run_dir) = smoke_setup("chess-family", &edits);
    let output = run(&["train", config.to_str().unwrap(), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(latest_generation(&run_dir), Some(1));
    let replay = read_replay(&run_dir.join("gen-000001"));
    let mut played: Vec<u64> = replay
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["spec"].as_u64().unwrap())
        .collect();
    played.sort();
    played.dedup();
    assert_eq!(played.len(), 3, "every ruleset played: {played:?}");
}
