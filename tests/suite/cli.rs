//! The command-line contract: exact perft output, and clear errors: exit code 2 for what was typed
//! wrong, 1 for what failed while running.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rebel-zero")).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn perft_prints_exactly_one_line_per_depth() {
    let output = run(&["perft", "sixteen-rebels", "--depth", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "perft 1 8\nperft 2 168\nperft 3 616\n");
}

#[test]
fn perft_divide_goes_to_stderr_and_position_is_honoured() {
    let output =
        run(&["perft", "twenty-six-rebels", "--depth", "1", "--position", "G:c5;R:b5,d5;g", "--divide"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), "perft 1 2\n");
    assert!(stderr(&output).contains("c5-c6xb5xd5 1"), "{}", stderr(&output));
}

#[test]
fn show_draws_the_board_and_lists_moves() {
    let output = run(&["show", "sixteen-rebels", "--moves", "c3-d4,e4-e3"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(text.contains("/|\\"), "the privy is drawn: {text}");
    assert!(text.contains("14 Rebels; general to move"), "{text}");
    assert!(text.contains("legal moves:"), "{text}");
}

#[test]
fn show_reports_a_finished_game() {
    let output =
        run(&["show", "sixteen-rebels", "--position", "G:c6;R:a1,b1,c1,d1,e1;g", "--moves", "c6-c7"]);
    assert!(stdout(&output).contains("game over: general win by apex"), "{}", stdout(&output));
}

#[test]
fn rules_lists_every_ruleset_with_options_and_defaults() {
    let text = stdout(&run(&["rules"]));
    for name in
        ["sixteen-rebels", "murray-rebels", "juroku-musashi", "twenty-six-rebels-alt", "general_wins_at"]
    {
        assert!(text.contains(name), "missing {name}");
    }
    assert!(
        text.contains("file:configs/rules/sixteen-rebels-no-retreat.toml\n"),
        "the rules files follow: {text}"
    );
}

/// From another folder, `rules` still lists the shipped rules files (where `serve` finds them), by a
/// path that works from there.
#[test]
fn rules_lists_the_shipped_files_from_any_folder() {
    let elsewhere = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
        .arg("rules")
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    let text = stdout(&output);
    let listed = text
        .lines()
        .find(|line| {
            line.starts_with("file:") && line.ends_with("configs/rules/sixteen-rebels-no-retreat.toml")
        })
        .unwrap_or_else(|| panic!("the shipped rules files are listed: {text}"));
    let show = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
        .args(["show", listed])
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    assert!(show.status.success(), "{listed} works from there: {}", String::from_utf8_lossy(&show.stderr));
}

#[test]
fn rules_lists_the_files_of_a_folder_and_names_a_broken_one() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("rules-listing");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy("configs/rules/juroku-musashi-closed.toml", dir.join("closed.toml")).unwrap();
    std::fs::write(dir.join("broken.toml"), "name = \"broken\"\n[board]\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a rules file").unwrap();
    let listing = run(&["rules", "--dir", dir.to_str().unwrap()]);
    let text = stdout(&listing);
    assert!(listing.status.success(), "{}", stderr(&listing));
    let closed =
        text.find(&format!("file:{}", dir.join("closed.toml").display())).expect("the good file is listed");
    assert!(text[closed..].contains("general_wins_at"), "with its options: {text}");
    let broken =
        text.find(&format!("file:{}", dir.join("broken.toml").display())).expect("the broken one too");
    assert!(broken < closed, "sorted by name");
    assert!(text[broken..closed].contains("cannot be played: rules file"), "{text}");
    assert!(!text.contains("notes.txt"));

    let json: serde_json::Value =
        serde_json::from_slice(&run(&["rules", "--json", "--dir", dir.to_str().unwrap()]).stdout).unwrap();
    let files: Vec<&serde_json::Value> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["name"].as_str().unwrap().starts_with("file:"))
        .collect();
    assert_eq!(files.len(), 2);
    assert!(files[0]["problem"].is_string() && files[1].get("problem").is_none(), "{files:?}");

    let missing = run(&["rules", "--dir", dir.join("absent").to_str().unwrap()]);
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("cannot list the rules files"), "{}", stderr(&missing));
}

#[test]
fn bad_input_is_a_clear_error_with_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "seventeen-rebels", "--depth", "1"], "unknown ruleset `seventeen-rebels`"),
        (&["perft", "sixteen-rebels:first=nobody", "--depth", "1"], "general|rebels"),
        (&["perft", "sixteen-rebels:speed=9", "--depth", "1"], "no option `speed`"),
        (
            &["perft", "juroku-musashi:triangle=sideways", "--depth", "1"],
            "triangle must be one of open|closed",
        ),
        (&["perft", "sixteen-rebels:triangle=open", "--depth", "1"], "has no option `triangle`"),
        (&["perft", "sixteen-rebels", "--depth", "2", "--position", "G:c3;R:c7;g"], "only the General"),
        (&["show", "sixteen-rebels", "--moves", "c3-c5"], "not a legal move"),
        (&["show", "twenty-six-rebels", "--position", "G:a1,a2;R:;g"], "exactly one General"),
        (&["perft", "sixteen-rebels", "--depth", "0"], "depth"),
        (&["solve", "murray-rebels"], "custodial"),
        (&["solve", "imperial-contest"], "only sixteen-rebels"),
        (&["solve", "sixteen-rebels", "--moves", "c3-c5"], "not a legal move"),
        // Huge searches are refused up front rather than aborting on a failed allocation.
        (
            &["match", "sixteen-rebels", "--agent", "mcts:sims=4294967295", "--agent", "random"],
            "sims must be an integer 1..10000000",
        ),
        (
            &["match", "chess", "--agent", "random", "--agent", "random", "--book", SIXTEEN_GAMES],
            "no game of chess there opened from the start",
        ),
        (
            &["match", "chess", "--agent", "random", "--agent", "random", "--book", "no/such/games.jsonl"],
            "--book no/such/games.jsonl",
        ),
        // Counts and sizes beyond what the machine has are refused with their bound, never aborted on.
        (
            &[
                "match",
                "sixteen-rebels",
                "--agent",
                "random",
                "--agent",
                "random",
                "--games",
                "18446744073709551615",
            ],
            "--games must be 1..1000000",
        ),
        (
            &["match", "sixteen-rebels", "--agent", "random", "--agent", "random", "--games", "1000000000"],
            "a match keeps every game in memory",
        ),
        (
            &[
                "match",
                "sixteen-rebels",
                "--agent",
                "random",
                "--agent",
                "random",
                "--games",
                "1000000000",
                "--sprt",
                "0,10",
                "--opening",
                "2",
            ],
            "--games must be 1..1000000",
        ),
        (
            &["match", "sixteen-rebels", "--agent", "random", "--agent", "random", "--threads", "10000"],
            "per core",
        ),
        (
            &["match", "chess", "--agent", "ab:hash=1048576", "--agent", "random"],
            "half this machine's memory",
        ),
        (&["train", "--preset", "nonesuch"], "no preset `nonesuch`"),
        (&["train", "--preset", "smoke", "--generations", "0"], "0 is not in 1.."),
    ];
    for (args, expected) in cases {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = stderr(&output);
        assert!(message.contains(expected), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{args:?}: {message}");
        assert!(stdout(&output).is_empty(), "{args:?} printed to stdout");
    }
}

#[test]
fn runtime_failures_are_a_clear_error_with_exit_code_1() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "sixteen-rebels", "--table", "Cargo.toml"], "not a whole rebel-zero table file"),
        // An unwritable table path is refused before minutes of solving, not after.
        (
            &["solve", "sixteen-rebels:apex=off", "--table", "Cargo.toml/x.rztb"],
            "cannot write the table at Cargo.toml",
        ),
        // So is a games file that is not one: it is read before the table is opened or built.
        (
            &["solve", "sixteen-rebels:apex=off", "--table", "Cargo.toml/x.rztb", "--games", "Cargo.toml"],
            "Cargo.toml line 1: not a game record",
        ),
        (
            &["match", "sixteen-rebels", "--agent", "perfect:table=nowhere.rztb", "--agent", "random"],
            "no tablebase at nowhere.rztb",
        ),
        (&["match", "chess", "--agent", "perfect", "--agent", "random"], "only sixteen-rebels"),
        (&["replay", "no/such/games.jsonl"], "no/such/games.jsonl"),
        (&["pgn", "Cargo.toml"], "Cargo.toml line 1: not a game record"),
    ];
    for (args, expected) in cases {
        let output = run(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {}", stderr(&output));
        let message = stderr(&output);
        assert!(message.contains("error: ") && message.contains(expected), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}

/// The sixteen-rebels study's games, as committed.
const SIXTEEN_GAMES: &str = "docs/studies/sixteen/games.jsonl.gz";

/// The openings `match --book` deals from the committed sixteen-rebels games: those of its cell with
/// the most (a claim's design or replication grows them as the study plays on), and that cell.
fn sixteen_book() -> (usize, String) {
    use rebel_zero::game::{GameRecord, read_records, recorded_openings};
    let records: Vec<GameRecord> =
        read_records(std::path::Path::new(SIXTEEN_GAMES)).unwrap().into_iter().map(|r| r.record).collect();
    let start =
        records.iter().find(|r| r.spec == "sixteen-rebels").expect("a sixteen-rebels game").start.clone();
    let book = recorded_openings(&records, "sixteen-rebels", &start).expect("openings");
    (book.lines.len(), book.group)
}

/// `match --book` opens its games with the openings a study drew, in the study's order, each for two
/// games with the seats swapped; an opening that does not play under the rules is named.
#[test]
fn match_opens_with_the_openings_of_a_studys_games() {
    use rebel_zero::game::{GameRecord, read_records};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let args = ["match", "sixteen-rebels", "--agent", "random", "--agent", "mcts:sims=8", "--games", "5"];
    let output = run(&[&args[..], &["--book", SIXTEEN_GAMES, "--out", out.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    let (book, cell) = sixteen_book();
    assert!(book >= 3200, "{book}");
    assert!(
        printed
            .contains(&format!("openings: 3 of the {book} openings of docs/studies/sixteen/games.jsonl.gz")),
        "{printed}"
    );
    // Five games from three openings: A's score is read with the pairs of seats as units.
    assert!(printed.contains("games of 5 in 3 clusters"), "{printed}");
    let played: Vec<GameRecord> =
        read_records(&out.join("games.jsonl")).unwrap().into_iter().map(|r| r.record).collect();
    // The study's cells play its book in order, one opening per game where an agent plays itself.
    let study: Vec<GameRecord> = read_records(std::path::Path::new(SIXTEEN_GAMES))
        .unwrap()
        .into_iter()
        .map(|r| r.record)
        .filter(|r| r.cell.as_deref() == Some(cell.as_str()))
        .collect();
    let plies = study[0].opening;
    assert!(plies > 0 && played.iter().all(|r| r.opening == plies), "{cell}: {plies} plies");
    let opening = |record: &GameRecord| record.moves[..plies as usize].to_vec();
    let book = |index: usize| opening(study.iter().find(|r| r.game == index).unwrap());
    for (game, line) in [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)] {
        assert_eq!(opening(&played[game]), book(line), "game {game}");
    }

    // A recorded opening that is the whole game opens nothing.
    let mut finished = played[0].clone();
    finished.opening = finished.moves.len() as u32;
    let whole = dir.path().join("whole.jsonl");
    std::fs::write(&whole, serde_json::to_string(&finished).unwrap() + "\n").unwrap();
    let output = run(&[&args[..], &["--book", whole.to_str().unwrap()]].concat());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("ends the game"), "{}", stderr(&output));

    let mut broken = played[0].clone();
    broken.moves = vec!["c3-c5".into()];
    broken.opening = 1;
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, serde_json::to_string(&broken).unwrap() + "\n").unwrap();
    let output = run(&[&args[..], &["--book", bad.to_str().unwrap()]].concat());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("opening 1 of mcts:sims=8,c=1.5,temp=0,batch=1,rollout=decisive v random"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("does not play under sixteen-rebels: `c3-c5`"), "{}", stderr(&output));
}

/// `match --sprt` plays the book's pairs (or pairs of random openings) until the test decides, at the
/// same game whatever the threads, and says so; a limit reached first is no decision; bad bounds or
/// limits exit with 2.
#[test]
fn match_sprt_stops_when_the_pairs_decide() {
    let sprt = |agents: [&str; 2], bounds: &str, games: &str, threads: &str| -> serde_json::Value {
        let args =
            ["match", "sixteen-rebels", "--agent", agents[0], "--agent", agents[1], "--book", SIXTEEN_GAMES];
        let output =
            run(&[&args[..], &["--sprt", bounds, "--games", games, "--threads", threads, "--json"]].concat());
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let stronger = sprt(["mcts:sims=32", "mcts:sims=4"], "0,60", "400", "2");
    let test = &stronger["sprt"];
    assert_eq!(test["decision"], "accept_h1", "{stronger}");
    let pairs = test["pairs"].as_u64().unwrap();
    assert_eq!(stronger["games"].as_u64().unwrap(), 2 * pairs);
    assert_eq!(pairs % 8, 0, "a look every 16 games: {stronger}");
    assert!(pairs < 200, "it stopped before the limit: {stronger}");
    let pentanomial: Vec<u64> =
        test["pentanomial"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    assert_eq!(pentanomial.iter().sum::<u64>(), pairs);
    assert!(test["llr"].as_f64().unwrap() >= test["upper"].as_f64().unwrap());
    // The pairs are A's points: the score printed for A is the pentanomial's mean.
    let points: u64 = pentanomial.iter().enumerate().map(|(i, c)| i as u64 * c).sum();
    let score = stronger["score_a"]["interval"]["estimate"].as_f64().unwrap();
    assert!((score - points as f64 / (4 * pairs) as f64).abs() < 1e-12, "{stronger}");
    // Nine threads play batches of two looks, past the deciding one: the same games, the same stop.
    let nine = sprt(["mcts:sims=32", "mcts:sims=4"], "0,60", "400", "9");
    assert_eq!((&nine["sprt"], &nine["games"]), (test, &stronger["games"]));
    assert_ne!(2 * pairs % 32, 0, "it stopped inside a batch of 32, so the batch's rest was dropped");

    let weaker = sprt(["random", "mcts:sims=32"], "0,60", "400", "2");
    assert_eq!(weaker["sprt"]["decision"], "accept_h0", "{weaker}");
    let undecided = sprt(["random", "random"], "-5,5", "16", "2");
    assert_eq!(undecided["sprt"]["decision"], "continue", "{undecided}");
    assert_eq!(undecided["games"], 16);

    let args = ["match", "sixteen-rebels", "--agent", "random", "--agent", "random", "--book", SIXTEEN_GAMES];
    // Without --games, each of the book's openings (its largest cell's: C2's replications grew it) at most once.
    let (book, _) = sixteen_book();
    // Bounds one Elo apart: equal players stay far from either bound over the whole book.
    let printed = stdout(&run(&[&args[..], &["--sprt=-0.5,0.5"]].concat()));
    assert!(
        printed.contains(&format!("no decision after {book} pairs, the most --games allows")),
        "{printed}"
    );
    let printed = stdout(&run(&[&args[..], &["--sprt=-5,5", "--games", "16"]].concat()));
    assert!(
        printed.contains(
            "SPRT of A − B = 5 Elo (H1) against -5 (H0), α = 0.05, β = 0.05: no decision after 8 pairs"
        ),
        "{printed}"
    );

    // Pairs from random openings, each pair's own: its two games open alike, and every pair counts.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("random");
    let random =
        ["match", "sixteen-rebels", "--agent", "mcts:sims=32", "--agent", "mcts:sims=4", "--opening", "2"];
    let output =
        run(&[&random[..], &["--sprt", "0,60", "--games", "400", "--out", out.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let games: Vec<rebel_zero::game::GameRecord> = rebel_zero::game::read_records(&out.join("games.jsonl"))
        .unwrap()
        .into_iter()
        .map(|r| r.record)
        .collect();
    for pair in games.chunks(2) {
        assert!(pair.iter().all(|game| game.opening == 2), "{pair:?}");
        assert_eq!(pair[0].moves[..2], pair[1].moves[..2], "a pair shares its opening");
    }
    let test = &summary["sprt"];
    assert_eq!(test["pairs"].as_u64().unwrap() as usize, games.len() / 2, "{summary}");
    assert_eq!(summary["score_a"]["clusters"].as_u64().unwrap() as usize, games.len() / 2, "pairs");

    // (with the book?, the rest of the command, the complaint)
    let (too_many, most) =
        ((2 * book + 2).to_string(), format!("holds {book} openings: --games may be at most {}", 2 * book));
    let refused: [(bool, &[&str], &str); 6] = [
        (true, &["--sprt", "5,0"], "elo0 below elo1"),
        (true, &["--sprt", "0"], "expected ELO0,ELO1"),
        (true, &["--sprt", "-10,0", "--games", "9"], "--games must be even"),
        (true, &["--sprt", "0,5", "--games", &too_many], &most),
        (false, &["--sprt", "0,5", "--opening", "3"], "--sprt with --opening needs --games"),
        (false, &["--sprt", "0,5"], "it needs --book GAMES, or --opening PLIES"),
    ];
    for (with_book, extra, expected) in refused {
        let command = if with_book { &args[..] } else { &args[..6] };
        let output = run(&[command, extra].concat());
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        let message = stderr(&output);
        assert!(message.contains(expected) && !message.contains("panicked"), "{extra:?}: {message}");
        assert!(stdout(&output).is_empty(), "{extra:?} printed to stdout");
    }
}

/// Lines in a games file so far (0 when there is none yet).
fn lines_in(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |text| text.lines().count())
}

/// A `match --sprt` killed three times and run again each time ends where one run straight through
/// does, with the same games and summary (before, every game was lost: the folder was written at the
/// end); a plain match grows from the games it kept; a folder of another match is refused.
#[test]
fn a_killed_match_resumes_and_its_sprt_decides_as_one_run_does() {
    let dir = tempfile::tempdir().unwrap();
    let command = |out: &str| -> Vec<String> {
        let args = ["match", "sixteen-rebels", "--agent", "mcts:sims=400", "--agent", "mcts:sims=100"];
        let rest = ["--sprt", "0,40", "--opening", "4", "--games", "400", "--threads", "1", "--seed", "5"];
        let out = dir.path().join(out).display().to_string();
        args.iter().chain(&rest).map(|a| a.to_string()).chain(["--out".to_string(), out]).collect()
    };
    let straight = Command::new(env!("CARGO_BIN_EXE_rebel-zero")).args(command("straight")).output().unwrap();
    assert!(straight.status.success(), "{}", stderr(&straight));
    let games = dir.path().join("killed/games.jsonl");
    for kill_after in [3, 10, 21] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
            .args(command("killed"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        while lines_in(&games) < kill_after && child.try_wait().unwrap().is_none() {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(lines_in(&games) >= kill_after, "games kept as they end");
    }
    let resumed = Command::new(env!("CARGO_BIN_EXE_rebel-zero")).args(command("killed")).output().unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains("resuming the match in"), "{}", stderr(&resumed));
    for file in ["games.jsonl", "summary.json"] {
        let read = |run: &str| std::fs::read_to_string(dir.path().join(run).join(file)).unwrap();
        assert_eq!(read("straight"), read("killed"), "{file}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("straight/summary.json")).unwrap())
            .unwrap();
    assert_ne!(summary["sprt"]["decision"], "continue", "the test decided: {summary}");
    assert!(summary["games"].as_u64().unwrap() > 21, "it was killed before it decided: {summary}");

    // A plain match of 6 games grown to 10 plays only the 4 new ones: the same as 10 at once.
    let plain = |games: &str, out: &str| {
        let out = dir.path().join(out).display().to_string();
        run(&[
            "match",
            "sixteen-rebels",
            "--agent",
            "mcts:sims=20",
            "--agent",
            "random",
            "--games",
            games,
            "--out",
            &out,
        ])
    };
    assert!(plain("6", "grown").status.success());
    let grown = plain("10", "grown");
    assert!(stderr(&grown).contains("6 of its games were played already"), "{}", stderr(&grown));
    assert!(plain("10", "at-once").status.success());
    let read = |run: &str| std::fs::read_to_string(dir.path().join(run).join("games.jsonl")).unwrap();
    assert_eq!(read("grown"), read("at-once"));

    // Another match into a kept folder is a mistake, named; the folder is left as it was.
    let out = dir.path().join("grown").display().to_string();
    let other = run(&[
        "match",
        "sixteen-rebels",
        "--agent",
        "random",
        "--agent",
        "random",
        "--games",
        "10",
        "--out",
        &out,
    ]);
    assert_eq!(other.status.code(), Some(2));
    let message = stderr(&other);
    assert!(message.contains("holds another match (agents mcts:sims=20,"), "{message}");
    assert!(message.contains("vs random there, random vs random now)"), "{message}");
    assert_eq!(read("grown"), read("at-once"));
}

/// `quantize` writes a generation's 8-bit scales and measures 8 bits against f32 on recorded games;
/// what it cannot use is named with exit code 2.
#[test]
fn quantize_writes_the_scales_and_measures_them_on_recorded_games() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("quantize");
    let generation = dir.join("gen-000116");
    std::fs::create_dir_all(&generation).unwrap();
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("checkpoints/sixteen-rebels/gen-000116");
    for name in ["meta.json", "config.toml", "model.bpk"] {
        std::fs::copy(shipped.join(name), generation.join(name)).unwrap();
    }
    let games = dir.join("games");
    let played = run(&[
        "match",
        "sixteen-rebels",
        "--agent",
        "random",
        "--agent",
        "mcts:sims=8",
        "--games",
        "4",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    let games_file = games.join("games.jsonl");
    let export = dir.join("export");
    let output = run(&[
        "quantize",
        generation.to_str().unwrap(),
        "--games",
        "1",
        "--sims",
        "4",
        "--positions",
        "40",
        "--json",
        "--check",
        games_file.to_str().unwrap(),
        "--export",
        export.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let scales: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(generation.join("calibration.json")).unwrap()).unwrap();
    // The stem, two per block of the b4c32 tower; each a largest input, so positive.
    let inputs = scales["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 9, "{scales}");
    assert!(inputs.iter().all(|v| v.as_f64().unwrap() > 0.0), "{scales}");
    let check: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(check["positions"], 40, "{check}");
    // Broken kernels or scales would scatter the top moves; f32 (no VNNI here) agrees exactly.
    assert!(check["top_move_agreement"].as_f64().unwrap() >= 0.8, "{check}");
    assert!(check["mean_value_difference"].as_f64().unwrap() < 0.1, "{check}");
    assert_exported(&export, 40);
    // A folder that cannot be made fails the run (exit 1) by name, after the measurement is printed.
    let under_a_file = games_file.join("export");
    let args = ["quantize", generation.to_str().unwrap(), "--games", "1", "--sims", "4", "--positions", "40"];
    let check = ["--check", games_file.to_str().unwrap(), "--export", under_a_file.to_str().unwrap()];
    let failed = run(&[&args[..], &check[..]].concat());
    assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
    assert!(
        stderr(&failed).contains("--export") && stdout(&failed).contains("same top move"),
        "{}",
        stderr(&failed)
    );

    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    for (args, needle) in [
        (vec!["quantize", "no/such/run"], "no/such/run"),
        (vec!["quantize", generation.to_str().unwrap(), "--check", empty.to_str().unwrap()], "hold no games"),
        (vec!["quantize", generation.to_str().unwrap(), "--export", "x"], "--check"),
        (vec!["quantize", generation.to_str().unwrap(), "--positions", "0"], "--positions"),
        (
            vec!["quantize", generation.to_str().unwrap(), "--check", "no/such/games.jsonl"],
            "no/such/games.jsonl",
        ),
    ] {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(needle), "{args:?}: {}", stderr(&output));
    }
}

/// `quantize --export`'s folder for the sixteen-rebels network (b4c32, 12 planes on 5 × 7, 580
/// actions) and `positions` checked positions: the layers in forward order, and arrays of the
/// documented shapes, each position with a legal move.
fn assert_exported(export: &std::path::Path, positions: usize) {
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(export.join("network.json")).unwrap()).unwrap();
    let names: Vec<&str> =
        index["layers"].as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 1 + 2 * 4 + 2 + 3, "{names:?}");
    assert_eq!(
        (names[0], names[8], names[9], names[13]),
        ("stem", "block3.second", "policy.conv", "value.out")
    );
    // An .npy file: magic, version, a little-endian header length, the header, then the values.
    let read = |name: &str| {
        let bytes = std::fs::read(export.join(name)).unwrap();
        let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        let header = String::from_utf8(bytes[10..10 + header_len].to_vec()).unwrap();
        (header, bytes[10 + header_len..].to_vec())
    };
    for (name, shape, width) in [
        ("positions.npy", format!("({positions}, 12, 7, 5)"), 4),
        ("f32.policy.npy", format!("({positions}, 580)"), 4),
        ("int8.wdl.npy", format!("({positions}, 3)"), 4),
        ("legal.npy", format!("({positions}, 580)"), 1),
        ("stem.weight.npy", "(32, 12, 3, 3)".to_string(), 4),
        ("policy.out.weight.npy", "(70, 580)".to_string(), 4),
    ] {
        let (header, values) = read(name);
        assert!(header.contains(&format!("'shape': {shape}")), "{name}: {header}");
        let count: usize =
            shape.trim_matches(['(', ')']).split(", ").map(|d| d.parse::<usize>().unwrap()).product();
        assert_eq!(values.len(), count * width, "{name}");
    }
    let (_, legal) = read("legal.npy");
    assert!(legal.chunks(580).all(|row| row.contains(&1)), "every checked position has a legal move");
}

/// An error is printed once, not once per layer that passed it on.
#[test]
fn a_missing_or_damaged_games_file_is_named_once() {
    let temp = tempfile::tempdir().unwrap();
    let damaged = temp.path().join("damaged.jsonl.gz");
    std::fs::write(&damaged, [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]).unwrap();
    for path in ["no/such/games.jsonl", damaged.to_str().unwrap()] {
        for args in
            [vec!["replay", path], vec!["pgn", path], vec!["solve", "sixteen-rebels", "--games", path]]
        {
            let output = run(&args);
            let message = stderr(&output);
            assert_eq!(message.matches(path).count(), 1, "{args:?}: {message}");
            assert!(!output.status.success(), "{args:?}");
        }
    }
}
