//! Golden playthroughs (OpenSpiel's habit): one seeded random game per ruleset, stored as data in
//! `tests/golden/`, replayed move by move. Each line holds the move, the position it leads to and the
//! number of legal moves there, so any change in rules, notation or ending logic shows up as a diff.
//!
//! The files are regenerated, after a deliberate rules change, with
//! `REBEL_ZERO_BLESS=1 cargo test golden` — and the diff reviewed before committing.

use std::fmt::Write as _;
use std::path::PathBuf;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rebel_zero::game::registry::all_rulesets;
use rebel_zero::game::{AnyGame, Game, Playthrough, describe_outcome};
use rebel_zero::with_game;

/// Every ruleset, plus variants whose rules differ in ways the defaults do not reach.
fn specs() -> Vec<String> {
    let mut specs: Vec<String> = all_rulesets().map(|r| r.name.to_string()).collect();
    specs.extend(
        [
            "sixteen-rebels:first=rebels,capture=mandatory",
            "juroku-musashi:first=general,capture=mandatory",
            // Murray's triangle (RULES.md R12): the games the default played before the triangle opened.
            "juroku-musashi:triangle=closed",
            "juroku-musashi:first=general,capture=mandatory,triangle=closed",
            "twenty-six-rebels:capture=mandatory",
            "imperial-contest:first=allies,capture=mandatory",
            "rebellion-chess:pawns=berolina",
            "squirm-chess:pawns=berolina",
        ]
        .map(String::from),
    );
    specs
}

fn golden_path(spec: &str) -> PathBuf {
    let name: String =
        spec.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{name}.tsv"))
}

/// The playthrough text of a seeded random game (at most 120 plies so the files stay readable).
fn playthrough<G: Game>(game: &G, seed: u64) -> String {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut line = Playthrough::new(game.clone());
    let mut text = format!("# {}\tseed {seed}\n", game.spec());
    writeln!(text, "start\t{}\t{}", game.format_position(line.state()), line.legal_moves().len()).unwrap();
    while !line.is_over() && line.plies() < 120 {
        let moves = line.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let played = game.format_move(line.state(), mv);
        line.play(mv);
        writeln!(text, "{played}\t{}\t{}", game.format_position(line.state()), line.legal_moves().len())
            .unwrap();
    }
    let result = line.outcome().map_or("unfinished".to_string(), |o| describe_outcome(game, &o));
    writeln!(text, "result\t{result}").unwrap();
    text
}

#[test]
fn golden_playthroughs_replay_exactly() {
    let bless = std::env::var_os("REBEL_ZERO_BLESS").is_some();
    let mut differing = Vec::new();
    for spec in specs() {
        let game = AnyGame::from_spec(&spec).unwrap();
        let text = with_game!(&game, |g| playthrough(g, 17));
        let path = golden_path(&spec);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let stored = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (create it with REBEL_ZERO_BLESS=1)", path.display()));
        if let Some((n, (want, got))) =
            stored.lines().zip(text.lines()).enumerate().find(|(_, (want, got))| want != got)
        {
            differing.push(format!("{spec}, line {}:\n  stored: {want}\n  now:    {got}", n + 1));
        } else if stored.lines().count() != text.lines().count() {
            differing.push(format!("{spec}: the game has a different length"));
        }
    }
    assert!(differing.is_empty(), "golden playthroughs differ:\n{}", differing.join("\n"));
}

#[test]
fn golden_playthroughs_parse_back_move_by_move() {
    // The stored notation is itself an input: every move must parse in the position before it.
    if std::env::var_os("REBEL_ZERO_BLESS").is_some() {
        return; // the files are being rewritten by the other test
    }
    for spec in specs() {
        let game = AnyGame::from_spec(&spec).unwrap();
        let stored = std::fs::read_to_string(golden_path(&spec)).expect("golden file exists");
        with_game!(&game, |g| {
            let mut line = Playthrough::new(g.clone());
            for row in stored
                .lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with("start") && !l.starts_with("result"))
            {
                let (mv, position) =
                    row.split_once('\t').map(|(m, rest)| (m, rest.split('\t').next().unwrap())).unwrap();
                line.play_text(mv).unwrap_or_else(|e| panic!("{spec}: {e}"));
                assert_eq!(g.format_position(line.state()), position, "{spec} after {mv}");
            }
        });
    }
}
