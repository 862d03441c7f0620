//! Tests of the tables: small levels against the move generator, files, judging and best play.

use super::rules::{board_of, is_position};
use super::testing::{self, hunt, position_with_a_choice, six_rebels};
use super::*;
use crate::game::hunt::{GENERAL, HuntState, REBELS};
use crate::game::{AnyGame, Game};

#[test]
fn small_levels_agree_with_the_move_generator_everywhere() {
    // The default threshold's first level (6 Rebels), and levels 2 and 4 of two other variants.
    for (spec, most) in [
        ("sixteen-rebels", 6),
        ("sixteen-rebels:general_wins_at=1,capture=mandatory", 4),
        ("sixteen-rebels:general_wins_at=0,apex=off", 4),
    ] {
        let game = hunt(spec);
        let tb = Tablebase::build_up_to(&game, most, |_| {}).unwrap();
        let checked = tb.verify(|_, _| {}).unwrap();
        let [general, rebels] = [GENERAL, REBELS].map(|side| tb.tally_for(side));
        assert_eq!(checked, general.positions() + rebels.positions());
        // Every kind of result occurs, so the check is not vacuous.
        assert!(general.wins > 0 && general.losses > 0 && general.draws > 0, "{spec}: {general:?}");
        assert!(rebels.wins > 0 && rebels.draws > 0, "{spec}: {rebels:?}");
    }
}

#[test]
fn a_saved_table_reads_back_and_bad_files_are_named() {
    let tb = six_rebels();
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("tb");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("six.rztb");
    tb.save(&path).unwrap();
    // The table holds one level of six, so only the tests' partial read takes it.
    let partial = Tablebase::load(tb.game(), &path).err().unwrap();
    assert!(partial.to_string().contains("holds the levels [6] of [6, 8"), "{partial}");
    let read = |spec: &str, path: &std::path::Path| Tablebase::read(&hunt(spec), path, false);
    let back = read("sixteen-rebels", &path).unwrap();
    let s = position_with_a_choice(&tb, GENERAL);
    assert_eq!(back.probe(&s), tb.probe(&s));
    assert_eq!(back.tally_for(REBELS), tb.tally_for(REBELS));
    // The same rules with the other side first share the table; other rules do not.
    assert!(read("sixteen-rebels:first=rebels", &path).is_ok());
    let other = read("sixteen-rebels:capture=mandatory", &path).err().unwrap();
    assert!(matches!(other, TableFileError::OtherRules { .. }), "{other}");
    assert!(other.to_string().contains("capture=mandatory"), "{other}");
    // Murray's rules share every option the key names, but not the table.
    assert!(!tb.fits(&hunt("murray-rebels")) && tb.fits(&hunt("sixteen-rebels:first=rebels")));
    assert!(read("murray-rebels", &path).is_err());

    let bytes = std::fs::read(&path).unwrap();
    let mut flipped = bytes.clone();
    *flipped.last_mut().unwrap() ^= 1;
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("cut.rztb", bytes[..bytes.len() - 10].to_vec(), "ends inside the level of 6 Rebels"),
        ("long.rztb", [&bytes[..], b"x"].concat(), "bytes after its last level"),
        ("flipped.rztb", flipped, "does not match its checksum"),
        ("text.rztb", b"hello\n".to_vec(), "first line"),
        // A table of the first format, whose header had no checksums.
        (
            "old.rztb",
            b"rebel-zero tablebase\n{\"format\":1,\"rules\":\"x\",\"levels\":[6],\"points\":29}\n".to_vec(),
            "it is of format 1",
        ),
    ];
    for (name, content, needle) in cases {
        let bad = dir.join(name);
        std::fs::write(&bad, content).unwrap();
        let err = read("sixteen-rebels", &bad).err().unwrap();
        assert!(err.is_damaged(), "{err}");
        assert!(err.to_string().contains(needle) && err.to_string().contains(name), "{err}");
    }
    let missing = Tablebase::load(tb.game(), &dir.join("none.rztb")).err().unwrap();
    assert!(!missing.is_damaged() && missing.to_string().contains("none.rztb"), "{missing}");
}

#[test]
fn judging_a_game_finds_the_move_that_let_a_win_go() {
    let tb = six_rebels();
    let start = position_with_a_choice(&tb, GENERAL);
    let verdicts = tb.move_verdicts(&start);
    let (blunder, _) = verdicts.iter().find(|(_, v)| !matches!(v, Some(Verdict::Win { .. }))).unwrap();
    let (good, _) = verdicts.iter().find(|(_, v)| matches!(v, Some(Verdict::Win { .. }))).unwrap();
    for (m, mistake) in [(*good, false), (*blunder, true)] {
        let mut line = crate::game::Playthrough::from_position(tb.game().clone(), start);
        line.play(m);
        let judged = tb.judge_game(&line);
        assert_eq!(judged.len(), 1);
        assert_eq!((judged[0].mover, judged[0].before), (GENERAL, Prospect::Win));
        assert_eq!(judged[0].is_mistake(), mistake, "{:?}", judged[0]);
        // A win given up for a draw or a loss is a mistake whatever the cap.
        assert!(!judged[0].against_the_cap || !mistake, "{:?}", judged[0]);
    }
}

/// A lost side whose slower loss would outlast the cap holds a draw in play; a faster loss gives
/// it up, a mistake only against the cap, which the judge tells apart from a draw lost outright.
#[test]
fn judging_tells_a_draw_lost_to_the_cap_from_one_lost_outright() {
    let tb = six_rebels();
    let loss_in = |v: &Option<Verdict>| match v {
        Some(Verdict::Loss { plies }) => Some(*plies),
        _ => None,
    };
    // The Rebels to move, lost, with moves that lose at different distances.
    let (start, fast, slow) = testing::slots_of_six(REBELS)
        .filter(|s| matches!(tb.probe(s), Some(Verdict::Loss { .. })))
        .find_map(|s| {
            let verdicts = tb.move_verdicts(&s);
            let losses = || verdicts.iter().filter_map(|(m, v)| Some((loss_in(v)?, *m)));
            let fast = losses().min_by_key(|&(plies, _)| plies)?;
            let slow = losses().max_by_key(|&(plies, _)| plies)?;
            (slow.0 > fast.0 && verdicts.iter().all(|(_, v)| loss_in(v).is_some())).then_some((s, fast, slow))
        })
        .expect("a lost position with losses of two lengths");
    // A cap that leaves the fast loss in play but not the slow one.
    let capped = hunt(&format!("sixteen-rebels:max_plies={}", fast.0 + 1));
    for ((_, m), mistake) in [(fast, true), (slow, false)] {
        let mut line = crate::game::Playthrough::from_position(capped.clone(), start);
        line.play(m);
        let judged = tb.judge_game(&line);
        assert_eq!((judged[0].mover, judged[0].before), (REBELS, Prospect::Draw), "{judged:?}");
        assert_eq!(judged[0].is_mistake(), mistake, "{judged:?}");
        // The position is lost without the cap: the fast loss gives up only what the cap made.
        assert_eq!(judged[0].against_the_cap, mistake, "{judged:?}");
        let tally = tb.tally_games([("g", &line)], |_, _| {});
        assert_eq!(tally[0].sides[REBELS.index()].draws_lost_against_the_cap, u32::from(mistake));
    }
    // Without the cap in the way, the same fast move keeps the loss it had: no mistake at all.
    let mut line = crate::game::Playthrough::from_position(tb.game().clone(), start);
    line.play(fast.1);
    assert_eq!(tb.judge_game(&line)[0].before, Prospect::Loss);
    assert!(!tb.judge_game(&line)[0].is_mistake());

    // A win in one let go on the cap's last ply for a slower win: the game ends drawn by the cap,
    // a win given up only against it.
    let win_in = |v: &Option<Verdict>| match v {
        Some(Verdict::Win { plies }) => Some(*plies),
        _ => None,
    };
    let (start, slow_win) = testing::slots_of_six(GENERAL)
        .filter(|s| tb.probe(s) == Some(Verdict::Win { plies: 1 }))
        .find_map(|s| {
            Some((s, tb.move_verdicts(&s).into_iter().find(|(_, v)| win_in(v).is_some_and(|p| p > 1))?.0))
        })
        .expect("a win in one with a slower win beside it");
    let mut line = crate::game::Playthrough::from_position(hunt("sixteen-rebels:max_plies=1"), start);
    line.play(slow_win);
    assert_eq!(line.outcome().map(|o| o.reason), Some(crate::game::Reason::Cap));
    let judged = tb.judge_game(&line);
    assert_eq!((judged[0].before, judged[0].after), (Prospect::Win, Prospect::Draw), "{judged:?}");
    assert!(judged[0].against_the_cap, "{judged:?}");

    // A draw without the cap, given up for a loss: a mistake outright.
    let (drawn, losing) = testing::slots_of_six(REBELS)
        .chain(testing::slots_of_six(GENERAL))
        .filter(|s| tb.probe(s) == Some(Verdict::Draw))
        .find_map(|s| Some((s, tb.move_verdicts(&s).into_iter().find(|(_, v)| loss_in(v).is_some())?.0)))
        .expect("a drawn position with a losing move");
    let mut line = crate::game::Playthrough::from_position(tb.game().clone(), drawn);
    line.play(losing);
    let judged = tb.judge_game(&line);
    assert_eq!((judged[0].before, judged[0].after), (Prospect::Draw, Prospect::Loss), "{judged:?}");
    assert!(!judged[0].against_the_cap, "{judged:?}");
}

#[test]
fn the_table_holds_exactly_the_positions_the_rules_accept_as_unfinished() {
    for spec in ["sixteen-rebels", "sixteen-rebels:apex=off"] {
        let game = hunt(spec);
        let mut agreed = [0, 0];
        for r in (0..index::sets_of(6) as u32).step_by(97) {
            let rebels = u64::from(index::unrank(r, 6));
            for general in [game.board().len() as u8, 64, u8::MAX] {
                assert!(!is_position(&game, &HuntState { general, rebels, to_move: GENERAL, result: None }));
            }
            for general in 0..game.board().len() as u8 {
                for to_move in [GENERAL, REBELS] {
                    let s = HuntState { general, rebels, to_move, result: None };
                    let parsed = game.parse_position(&game.format_position(&s));
                    let unfinished = parsed.is_ok_and(|p| p.result.is_none());
                    assert_eq!(is_position(&game, &s), unfinished, "{spec}: {s:?}");
                    agreed[usize::from(unfinished)] += 1;
                }
            }
        }
        assert!(agreed[0] > 0 && agreed[1] > 0, "{spec}: {agreed:?}");
    }
}

#[test]
fn unsupported_rulesets_are_named() {
    for spec in ["murray-rebels", "neeley-rebels", "twenty-six-rebels", "imperial-contest"] {
        let AnyGame::Hunt(game) = AnyGame::from_spec(spec).unwrap() else {
            continue; // imperial-contest is no hunt game: the callers refuse it before the tables
        };
        let err = check_supported(&game).expect_err(spec);
        assert!(err.to_string().contains(spec.split(':').next().unwrap()), "{err}");
    }
    assert!(check_supported(&hunt("juroku-musashi:triangle=closed,capture=mandatory")).is_ok());
    for spec in ["murray-rebels", "neeley-rebels", "twenty-six-rebels"] {
        let err = Tablebase::build_up_to(&hunt(spec), 0, |_| {}).err().expect(spec);
        assert!(err.to_string().contains(spec.split(':').next().unwrap()), "{err}");
    }
    // The Japanese board is solved, but in a folder of level files, not in memory.
    let err = Tablebase::build_up_to(&hunt("juroku-musashi"), 0, |_| {}).err().expect("refused");
    assert!(err.to_string().contains("folder of level files"), "{err}");
}

/// Every slot of `rebels` Rebels on the Chinese board, both sides to move.
fn chinese_slots(rebels: u32) -> impl Iterator<Item = HuntState> {
    (0..index::sets_of(rebels) as u32).flat_map(move |r| {
        let set = u64::from(index::unrank(r, rebels));
        (0..29u8).flat_map(move |general| {
            [GENERAL, REBELS].map(|to_move| HuntState { general, rebels: set, to_move, result: None })
        })
    })
}

/// configs/rules/sixteen-rebels.toml, solved over its own described board and move generator, has the
/// built-in table's value at every position of its first level (6 Rebels; the whole table takes
/// minutes, and its other levels are built by the same code); the two share a table.
#[test]
fn the_file_of_sixteen_rebels_has_the_built_in_values_at_every_position() {
    use crate::game::hunt::board::BoardKind;
    let (file, built_in) = (hunt("file:configs/rules/sixteen-rebels.toml"), hunt("sixteen-rebels"));
    assert!(matches!(file.board().kind, BoardKind::Described(_)), "the file's own board");
    assert_eq!(board_of(&file), BoardKind::Chinese);
    assert_eq!(rules_key(&file), rules_key(&built_in));
    let a = Tablebase::build_up_to(&file, 6, |_| {}).unwrap();
    let b = six_rebels();
    let mut compared = 0;
    for s in chinese_slots(6) {
        assert_eq!(a.probe(&s), b.probe(&s), "{}", built_in.format_position(&s));
        compared += u64::from(a.probe(&s).is_some());
    }
    let tallies = b.level_tallies();
    assert_eq!(a.level_tallies(), tallies);
    let positions: u64 = tallies.iter().map(|(_, t)| t[0].positions() + t[1].positions()).sum();
    assert_eq!(compared, positions);
}

/// Rebels that step only forward and sideways (no-retreat): the builder's un-moves follow the rule, so
/// the small levels agree with the move generator everywhere; and the rule changes values.
#[test]
fn no_retreat_levels_agree_with_the_move_generator_and_differ_from_chinese_rebels() {
    let game = hunt("file:configs/rules/sixteen-rebels-no-retreat.toml");
    check_supported(&game).unwrap();
    assert_eq!(rules_key(&game), "sixteen-rebels:capture=optional,general_wins_at=4,apex=on,rebels=forward");
    let tb = Tablebase::build_up_to(&game, 6, |_| {}).unwrap();
    let checked = tb.verify(|_, _| {}).unwrap();
    let [general, rebels] = [GENERAL, REBELS].map(|side| tb.tally_for(side));
    assert_eq!(checked, general.positions() + rebels.positions());
    assert!(general.wins > 0 && general.losses > 0 && rebels.wins > 0, "{general:?} {rebels:?}");
    let chinese = six_rebels();
    let differ = chinese_slots(6).filter(|s| tb.probe(s) != chinese.probe(s)).count();
    assert!(differ > 0, "forbidding retreats changes some values");
}

/// A start of odd count has its own table (every odd level); a board of a rules file unlike any
/// built-in one is solved whole and agrees with its move generator.
#[test]
fn odd_counts_and_a_board_of_its_own_agree_with_the_move_generator() {
    let mut rules = hunt("sixteen-rebels").rules;
    rules.rebel_count = 5;
    rules.rebels_start = 0b11111;
    let odd = crate::game::hunt::HuntGame::new("sixteen-rebels".into(), rules);
    assert!(rules_key(&odd).ends_with(",count=odd") && rules_key(&odd).contains("general_wins_at=3"));
    assert_eq!(levels_of(&odd), [5]);
    let tb = Tablebase::build(&odd, |_| {}).unwrap();
    assert!(tb.verify(|_, _| {}).unwrap() > 0);

    let small = hunt(testing::SMALL_BOARD);
    assert!(rules_key(&small).starts_with("board-"), "{}", rules_key(&small));
    let tb = Tablebase::build(&small, |_| {}).unwrap();
    let checked = tb.verify(|_, _| {}).unwrap();
    let [general, rebels] = [GENERAL, REBELS].map(|side| tb.tally_for(side));
    assert_eq!(checked, general.positions() + rebels.positions());
    assert!(general.wins > 0 && rebels.wins > 0, "{general:?} {rebels:?}");
    assert!(tb.probe(&small.start()).is_some());
}

/// A table built for the start holds every start with fewer Rebels of its parity: it is read for them,
/// and for a start with more it is a table to build again, never another ruleset's file to overwrite.
#[test]
fn a_table_serves_starts_with_fewer_rebels_and_is_rebuilt_for_more() {
    let dir = tempfile::tempdir().unwrap();
    let small = hunt(testing::SMALL_BOARD);
    // The start less its last two Rebels (a4 and b4).
    let with_eight = {
        let mut rules = small.rules;
        rules.rebel_count = 8;
        rules.rebels_start &= !(1 << 12 | 1 << 13);
        crate::game::hunt::HuntGame::new(small.spec().into(), rules)
    };
    assert_eq!(with_eight.start().rebels.count_ones(), 8);
    let (whole, fewer) = (dir.path().join("whole.rztb"), dir.path().join("fewer.rztb"));
    Tablebase::build(&small, |_| {}).unwrap().save(&whole).unwrap();
    Tablebase::build(&with_eight, |_| {}).unwrap().save(&fewer).unwrap();
    assert!(table_present(&with_eight, &whole) && !will_build(&with_eight, &whole));
    let start = with_eight.start();
    let from_whole = Tablebase::load(&with_eight, &whole).unwrap().probe(&start);
    assert_eq!(from_whole, Tablebase::load(&with_eight, &fewer).unwrap().probe(&start));
    assert!(from_whole.is_some());
    let err = Tablebase::load(&small, &fewer).err().unwrap();
    assert!(err.to_string().contains("holds the levels [4, 6, 8] of [4, 6, 8, 10]"), "{err}");
    assert!(!table_present(&small, &fewer) && will_build(&small, &fewer));
    // Another ruleset's table is read (and refused by name), not rebuilt over.
    assert!(!will_build(&hunt("sixteen-rebels"), &whole));
    assert!(will_build(&small, &dir.path().join("absent.rztb")));
}

/// A game too large for the index is refused with its figures before anything is built.
#[test]
fn a_game_too_large_is_refused_before_it_is_built() {
    let game = hunt(testing::TOO_BIG);
    check_supported(&game).unwrap();
    let err = Tablebase::build_up_to(&game, 0, |_| {}).err().expect("refused").to_string();
    assert!(err.contains("4.7 billion slots per side"), "{err}");
}
