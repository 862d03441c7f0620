//! RULES.md section 5 (imperial-contest), one hand-made position per rule, the shared start-position
//! perft table, notation round trips and errors, and invariants over random games.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rebel_zero::game::imperial::board::{bit, parse_square};
use rebel_zero::game::imperial::{
    ALLIES, ImperialGame, ImperialMove, ImperialState, MAX_IMPERIAL_MOVES, RUSSIANS,
};
use rebel_zero::game::perft::perft;
use rebel_zero::game::{Game, MoveError, Outcome, Reason, Side};

use rebel_zero::game::testkit::imperial_game as game;

fn sq(label: &str) -> u8 {
    parse_square(label).unwrap()
}

fn place(emperor: &str, russians: &[&str], allies: &[&str], to_move: Side) -> ImperialState {
    let set = |labels: &[&str]| labels.iter().fold(0u128, |set, l| set | bit(sq(l)));
    ImperialState { men: [set(russians), set(allies)], emperor: sq(emperor), to_move }
}

fn legal(g: &ImperialGame, s: &ImperialState) -> Vec<String> {
    let mut moves = <ImperialGame as Game>::Moves::default();
    g.legal_moves(s, &mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| g.format_move(s, m)).collect();
    texts.sort();
    texts
}

fn legal_from(g: &ImperialGame, s: &ImperialState, from: &str) -> Vec<String> {
    legal(g, s).into_iter().filter(|m| m.starts_with(&format!("{from}-"))).collect()
}

fn play(g: &ImperialGame, s: &ImperialState, text: &str) -> ImperialState {
    let mv = g.parse_move(s, text).unwrap_or_else(|e| panic!("{e}"));
    let mut next = *s;
    g.apply(&mut next, mv);
    next
}

fn count(s: &ImperialState, side: Side) -> u32 {
    s.men[side.index()].count_ones()
}

#[test]
fn start_perft_matches_the_shared_table() {
    let table = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft-start.tsv"))
        .expect("tests/data/perft-start.tsv is readable");
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (spec, counts) = (fields[0], fields[2]);
        if spec != "imperial-contest" && !spec.starts_with("imperial-contest:") {
            continue;
        }
        let g = game(spec);
        for (depth, expected) in counts.split(',').enumerate() {
            let expected: u64 = expected.parse().unwrap();
            assert_eq!(perft(&g, &g.start(), depth as u32 + 1), expected, "{spec} depth {}", depth + 1);
        }
        checked += 1;
    }
    assert_eq!(checked, 3, "the table has three imperial-contest lines");
}

#[test]
fn start_position_is_rules_section_5() {
    let g = game("imperial-contest");
    let expected = place(
        "e5",
        &["c5", "d5", "f5", "g5", "e3", "e4", "e6", "e7"],
        &["d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"],
        RUSSIANS,
    );
    assert_eq!(g.start(), expected);
    assert_eq!(g.format_position(&g.start()), "3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r");
    assert_eq!(game("imperial-contest:first=allies").start().to_move, ALLIES);
}

#[test]
fn men_move_like_rooks_and_stop_before_any_piece() {
    let g = game("imperial-contest");
    let s = place("h8", &["c3", "c6"], &["f3"], RUSSIANS);
    let expected = ["c3-a3", "c3-b3", "c3-c1", "c3-c2", "c3-c4", "c3-c5", "c3-d3", "c3-e3"];
    assert_eq!(legal_from(&g, &s, "c3"), expected);
}

#[test]
fn the_emperor_moves_at_most_four_squares() {
    let g = game("imperial-contest");
    let s = place("c3", &[], &["i9"], RUSSIANS);
    let moves = legal_from(&g, &s, "c3");
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(moves.contains(&"c3-g3".to_string()) && moves.contains(&"c3-c7".to_string()));
    assert!(!moves.contains(&"c3-h3".to_string()) && !moves.contains(&"c3-c8".to_string()));
}

#[test]
fn custodian_capture_works_in_each_direction_for_both_sides() {
    // The mover arrives on e5; the enemy man is next to it, a man of the mover beyond.
    let cases = [("e3", "e6", "e7"), ("c5", "f5", "g5"), ("e7", "e4", "e3"), ("g5", "d5", "c5")];
    for side in [RUSSIANS, ALLIES] {
        let g = game("imperial-contest");
        for (mover, victim, helper) in cases {
            let (own, enemy) = (vec![mover, helper], vec![victim]);
            let (russians, allies) = if side == RUSSIANS { (own, enemy) } else { (enemy, own) };
            let s = place("b8", &russians, &allies, side);
            let capture = format!("{mover}-e5x{victim}");
            assert!(legal(&g, &s).contains(&capture), "{side:?} {capture}");
            let after = play(&g, &s, &capture);
            assert_eq!(after.men[side.opponent().index()], 0, "{capture} removes {victim}");
            assert_eq!(after.men[side.index()], bit(sq("e5")) | bit(sq(helper)));
        }
    }
}

#[test]
fn a_man_moving_between_two_enemies_is_not_taken() {
    let g = game("imperial-contest");
    let s = place("b8", &["e3"], &["d5", "f5"], RUSSIANS);
    let after = play(&g, &s, "e3-e5");
    assert_eq!(count(&after, RUSSIANS), 1);
    assert!(legal(&g, &after).iter().all(|m| !m.contains('x')), "only the mover takes");
}

#[test]
fn the_emperor_never_takes() {
    let g = game("imperial-contest");
    let s = place("e3", &["e7"], &["e6"], RUSSIANS);
    let moves = legal_from(&g, &s, "e3");
    assert!(moves.contains(&"e3-e5".to_string()));
    assert!(moves.iter().all(|m| !m.contains('x')), "{moves:?}");
}

#[test]
fn the_emperor_never_helps_take() {
    let g = game("imperial-contest");
    let s = place("e7", &["e3"], &["e6"], RUSSIANS);
    assert!(legal(&g, &s).contains(&"e3-e5".to_string()));
    assert!(legal(&g, &s).iter().all(|m| !m.contains('x')));
}

#[test]
fn the_emperor_is_never_taken_by_custodian() {
    let g = game("imperial-contest");
    let s = place("e5", &[], &["e6", "e2"], ALLIES);
    assert!(legal(&g, &s).iter().all(|m| !m.contains('x')));
    let after = play(&g, &s, "e2-e4");
    assert_eq!(after.emperor, sq("e5"));
}

#[test]
fn one_man_per_move_with_a_choice_of_which() {
    let g = game("imperial-contest");
    let s = place("b8", &["c5", "e7", "g5", "e3"], &["e6", "f5", "e4"], RUSSIANS);
    let moves = legal_from(&g, &s, "c5");
    let to_e5: Vec<&String> = moves.iter().filter(|m| m.starts_with("c5-e5")).collect();
    assert_eq!(to_e5, ["c5-e5", "c5-e5xe4", "c5-e5xe6", "c5-e5xf5"]);
    for text in to_e5 {
        let after = play(&g, &s, text);
        let taken = if text.contains('x') { 1 } else { 0 };
        assert_eq!(count(&after, ALLIES), 3 - taken, "{text}");
    }
}

#[test]
fn mandatory_capture_keeps_only_capturing_moves() {
    let optional = game("imperial-contest");
    let mandatory = game("imperial-contest:capture=mandatory");
    let s = place("b8", &["c5", "e7", "g5"], &["e6", "f5", "a1"], RUSSIANS);
    let captures: Vec<String> = legal(&optional, &s).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(captures, ["c5-e5xe6", "c5-e5xf5"]);
    assert_eq!(legal(&mandatory, &s), captures);
    // Without any capture available, mandatory capture changes nothing.
    let quiet = place("b8", &["c5"], &["a1"], RUSSIANS);
    assert_eq!(legal(&mandatory, &quiet), legal(&optional, &quiet));
    assert!(legal(&mandatory, &quiet).len() > 1);
}

#[test]
fn rule_eleven_lets_the_ally_completing_the_four_take_the_man() {
    let g = game("imperial-contest");
    // Emperor e5, Russian man f5; Allies e6, e4 and g5 (beyond f5); d5 is filled from b5.
    let s = place("e5", &["f5"], &["e6", "e4", "g5", "b5"], ALLIES);
    assert!(legal(&g, &s).contains(&"b5-d5xf5".to_string()));
    assert!(legal(&g, &s).contains(&"b5-d5".to_string()));
    let after = play(&g, &s, "b5-d5xf5");
    assert_eq!(count(&after, RUSSIANS), 0);
    // The Ally beyond the man may be the one that moves: d5 already held, g5 filled from g8.
    let s = place("e5", &["f5"], &["e6", "e4", "d5", "g8"], ALLIES);
    assert!(legal(&g, &s).contains(&"g8-g5xf5".to_string()));
}

#[test]
fn rule_eleven_needs_the_moved_ally_to_be_one_of_the_four() {
    let g = game("imperial-contest");
    // All four already stand; the Ally arriving next to the man on f6 is not one of them.
    let s = place("e5", &["f5"], &["e6", "e4", "d5", "g5", "h6"], ALLIES);
    assert!(legal(&g, &s).contains(&"h6-f6".to_string()));
    assert!(legal(&g, &s).iter().all(|m| !m.ends_with("xf5")), "{:?}", legal(&g, &s));
}

#[test]
fn the_emperor_on_the_border_wins_for_the_russians() {
    let g = game("imperial-contest");
    let s = place("e6", &[], &["a1"], RUSSIANS);
    let after = play(&g, &s, "e6-e9");
    assert_eq!(g.immediate_result(&after), Some(Outcome::win(RUSSIANS, Reason::Border)));
    assert!(legal(&g, &after).is_empty());
    // A parsed position with the Emperor already on the border is a finished game.
    let over = g.parse_position("4E4/9/9/9/9/9/9/9/A8 a").unwrap();
    assert_eq!(g.outcome(&over), Some(Outcome::win(RUSSIANS, Reason::Border)));
}

#[test]
fn allies_on_all_four_sides_of_the_emperor_win_for_the_allies() {
    let g = game("imperial-contest");
    let s = place("e5", &["a2"], &["e6", "e4", "d5", "f8"], ALLIES);
    let after = play(&g, &s, "f8-f5");
    assert_eq!(g.immediate_result(&after), Some(Outcome::win(ALLIES, Reason::Surrounded)));
    assert!(legal(&g, &after).is_empty());
}

#[test]
fn a_player_without_a_legal_move_loses() {
    let g = game("imperial-contest");
    // The Emperor is boxed by three Allies and his own man, whom three more Allies box in.
    let s = place("e5", &["e4"], &["d5", "f5", "e6", "d4", "f4", "e3"], RUSSIANS);
    assert_eq!(g.immediate_result(&s), None);
    assert!(legal(&g, &s).is_empty());
    assert_eq!(g.outcome(&s), Some(Outcome::win(ALLIES, Reason::NoMoves)));
}

#[test]
fn positions_round_trip_through_notation() {
    let g = game("imperial-contest");
    for text in [
        "3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r",
        "9/9/9/9/4E4/9/9/9/9 a",
        "A7A/R8/9/9/2E6/9/9/9/8R r",
    ] {
        let s = g.parse_position(text).unwrap();
        assert_eq!(g.format_position(&s), text);
    }
}

#[test]
fn malformed_positions_are_refused_with_the_problem_named() {
    let g = game("imperial-contest");
    let cases = [
        ("", "fields"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3", "fields"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r extra", "fields"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4 r", "9 ranks"),
        ("3AAA4/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r", "rank 9"),
        ("3AAA2/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r", "rank 9 has 8"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAAA/A3R3A/4R4/4A4/3AAA3 r", "rank 5 is longer"),
        ("3AXA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r", "`X` is not a piece"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 x", "side to move"),
        ("3AAA3/4A4/4R4/A3R3A/AARR1RRAA/A3R3A/4R4/4A4/3AAA3 r", "exactly one Emperor"),
        ("3AAA3/4A4/4R4/A3R3A/AARREERAA/A3R3A/4R4/4A4/3AAA3 r", "exactly one Emperor"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AARRR1 r", "more than the 8"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/AAAAAA3 r", "more than the 16"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA03 r", "one digit"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA21 r", "one digit"),
        ("3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3aaa3 r", "`a` is not a piece"),
    ];
    for (text, problem) in cases {
        let err = g.parse_position(text).expect_err(text).to_string();
        assert!(err.contains(problem), "`{text}`: {err}");
    }
}

#[test]
fn moves_parse_only_when_well_formed_and_legal() {
    let g = game("imperial-contest");
    let s = g.start();
    for junk in ["", "junk", "e4e5", "e4-", "-e5", "z1-e5", "e4-e4", "e3-f3xj1", "e3-f3x", "c5-c6xc7xc8"] {
        assert!(matches!(g.parse_move(&s, junk), Err(MoveError::Malformed { .. })), "{junk}");
    }
    for illegal in ["e4-e5", "e5-e6", "d1-d2", "c5-c6xc7", "c5-d6", "c5-b5"] {
        assert!(matches!(g.parse_move(&s, illegal), Err(MoveError::Illegal { .. })), "{illegal}");
    }
    assert!(g.parse_move(&s, " c5-c9 ").is_ok());
    let over = place("e9", &[], &["a1"], ALLIES);
    assert!(matches!(g.parse_move(&over, "a1-a2"), Err(MoveError::GameOver(_))));
}

#[test]
fn a_plain_from_to_never_takes() {
    let s = place("b8", &["c5", "e7"], &["e6", "a1"], RUSSIANS);
    let optional = game("imperial-contest");
    let mv = optional.parse_move(&s, "c5-e5").unwrap();
    assert_eq!(optional.format_move(&s, mv), "c5-e5");
    let mandatory = game("imperial-contest:capture=mandatory");
    let err = mandatory.parse_move(&s, "c5-e5").unwrap_err();
    assert!(matches!(&err, MoveError::Illegal { legal, .. } if legal == "c5-e5xe6"), "{err}");
}

#[test]
fn random_games_keep_the_invariants() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for spec in ["imperial-contest", "imperial-contest:capture=mandatory,first=allies"] {
        let g = game(spec);
        let action_count = g.facts().action_count;
        for _ in 0..60 {
            let mut s = g.start();
            let mut moves = <ImperialGame as Game>::Moves::default();
            for _ in 0..g.max_plies() {
                assert_eq!(g.parse_position(&g.format_position(&s)).unwrap(), s);
                assert_eq!(s.men[0] & s.men[1], 0);
                assert_eq!((s.men[0] | s.men[1]) & bit(s.emperor), 0, "the Emperor stands alone");
                g.legal_moves(&s, &mut moves);
                if moves.is_empty() {
                    break;
                }
                assert!(moves.len() <= MAX_IMPERIAL_MOVES);
                let mut indices: Vec<usize> = moves.iter().map(|&m| g.action_index(&s, m).get()).collect();
                assert!(indices.iter().all(|&i| i < action_count));
                indices.sort_unstable();
                indices.dedup();
                assert_eq!(indices.len(), moves.len(), "action indices are distinct");
                let mv = moves[rng.random_range(0..moves.len())];
                let parsed = g.parse_move(&s, &g.format_move(&s, mv)).unwrap();
                assert_eq!(parsed, mv);
                let before = s;
                g.apply(&mut s, mv);
                assert!(
                    count(&s, RUSSIANS) <= count(&before, RUSSIANS)
                        && count(&s, ALLIES) <= count(&before, ALLIES)
                );
                let lost = count(&before, RUSSIANS) + count(&before, ALLIES)
                    - count(&s, RUSSIANS)
                    - count(&s, ALLIES);
                assert_eq!(lost, g.is_irreversible(&before, mv) as u32, "one man per capture");
                assert_ne!(g.position_hash(&before), g.position_hash(&s));
            }
        }
    }
}

/// RULES.md section 5 read literally, square by square on the board after the move: the reference the
/// bitboard generator is compared against.
mod reference {
    use super::*;

    const STEPS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

    pub fn offset(square: u8, (df, dr): (i8, i8), times: i8) -> Option<u8> {
        let (f, r) = ((square % 9) as i8 + df * times, (square / 9) as i8 + dr * times);
        ((0..9).contains(&f) && (0..9).contains(&r)).then(|| (r * 9 + f) as u8)
    }

    fn has(set: u128, square: u8) -> bool {
        set >> square & 1 == 1
    }

    pub fn result(s: &ImperialState) -> Option<Outcome> {
        let (f, r) = (s.emperor % 9, s.emperor / 9);
        if f == 0 || f == 8 || r == 0 || r == 8 {
            return Some(Outcome::win(RUSSIANS, Reason::Border));
        }
        let surrounded = STEPS.iter().all(|&d| offset(s.emperor, d, 1).is_some_and(|n| has(s.men[1], n)));
        (s.to_move == RUSSIANS && surrounded).then_some(Outcome::win(ALLIES, Reason::Surrounded))
    }

    /// Every legal move as (from, to, taken or 255), sorted.
    pub fn moves(s: &ImperialState, mandatory: bool) -> Vec<(u8, u8, u8)> {
        if result(s).is_some() {
            return Vec::new();
        }
        let me = s.to_move.index();
        let occupied = s.men[0] | s.men[1] | bit(s.emperor);
        let mut pieces: Vec<u8> = (0..81).filter(|&q| has(s.men[me], q)).collect();
        if s.to_move == RUSSIANS {
            pieces.push(s.emperor);
        }
        let mut out = Vec::new();
        for from in pieces {
            let reach = if from == s.emperor { 4 } else { 8 };
            for d in STEPS {
                for distance in 1..=reach {
                    let Some(to) = offset(from, d, distance).filter(|&q| !has(occupied, q)) else {
                        break;
                    };
                    out.push((from, to, 255));
                    if from != s.emperor {
                        let mut after = *s;
                        after.men[me] ^= bit(from) | bit(to);
                        for taken in takeable(&after, to) {
                            out.push((from, to, taken));
                        }
                    }
                }
            }
        }
        if mandatory && out.iter().any(|m| m.2 != 255) {
            out.retain(|m| m.2 != 255);
        }
        out.sort_unstable();
        out
    }

    /// The enemy men that the man which arrived on `to` may take, seen on the board after the move.
    fn takeable(after: &ImperialState, to: u8) -> Vec<u8> {
        let (me, enemy) = (after.to_move.index(), after.to_move.opponent().index());
        let mut taken = Vec::new();
        for d in STEPS {
            if let (Some(next), Some(beyond)) = (offset(to, d, 1), offset(to, d, 2))
                && has(after.men[enemy], next)
                && has(after.men[me], beyond)
            {
                taken.push(next);
            }
        }
        if after.to_move == ALLIES {
            let e = after.emperor;
            for d in STEPS {
                let (Some(man), Some(beyond)) = (offset(e, d, 1), offset(e, d, 2)) else { continue };
                let mut four: Vec<u8> =
                    STEPS.iter().filter_map(|&n| offset(e, n, 1)).filter(|&n| n != man).collect();
                four.push(beyond);
                let rule_eleven = has(after.men[0], man)
                    && four.len() == 4
                    && four.iter().all(|&q| has(after.men[1], q))
                    && four.contains(&to);
                if rule_eleven && !taken.contains(&man) {
                    taken.push(man);
                }
            }
        }
        taken
    }

    /// Whether only Rule 11 can explain the capture: the man is not next to the destination, or the
    /// square beyond it is the Emperor's.
    pub fn by_rule_eleven(s: &ImperialState, (_, to, taken): (u8, u8, u8)) -> bool {
        taken != 255
            && match STEPS.iter().find(|&&d| offset(to, d, 1) == Some(taken)) {
                Some(&d) => offset(to, d, 2) == Some(s.emperor),
                None => true,
            }
    }
}

fn random_position(rng: &mut Pcg64Mcg) -> ImperialState {
    let mut squares: Vec<u8> = (0..81).collect();
    for i in (1..squares.len()).rev() {
        squares.swap(i, rng.random_range(0..=i));
    }
    let (russians, allies) = (rng.random_range(0..=8usize), rng.random_range(0..=16usize));
    let set = |qs: &[u8]| qs.iter().fold(0u128, |set, &q| set | bit(q));
    ImperialState {
        emperor: squares[0],
        men: [set(&squares[1..1 + russians]), set(&squares[1 + russians..1 + russians + allies])],
        to_move: if rng.random_range(0..2) == 0 { RUSSIANS } else { ALLIES },
    }
}

fn fast_moves(g: &ImperialGame, s: &ImperialState) -> Vec<(u8, u8, u8)> {
    let mut moves = <ImperialGame as Game>::Moves::default();
    g.legal_moves(s, &mut moves);
    let mut list: Vec<(u8, u8, u8)> = moves.iter().map(|m| (m.from, m.to, m.taken)).collect();
    list.sort_unstable();
    list
}

#[test]
fn generator_agrees_with_the_literal_reading_on_random_positions() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    for (spec, mandatory) in [("imperial-contest", false), ("imperial-contest:capture=mandatory", true)] {
        let g = game(spec);
        let mut positions: Vec<ImperialState> = (0..20_000).map(|_| random_position(&mut rng)).collect();
        // And positions of real games, where men cluster round the Emperor.
        for _ in 0..200 {
            let mut s = g.start();
            for _ in 0..g.max_plies() {
                positions.push(s);
                let moves = reference::moves(&s, mandatory);
                if moves.is_empty() {
                    break;
                }
                let (from, to, taken) = moves[rng.random_range(0..moves.len())];
                g.apply(&mut s, ImperialMove { from, to, taken });
            }
        }
        let mut rule_eleven_captures = 0;
        for s in &positions {
            assert_eq!(g.immediate_result(s), reference::result(s), "{}", g.format_position(s));
            let expected = reference::moves(s, mandatory);
            assert_eq!(fast_moves(&g, s), expected, "{spec} at {}", g.format_position(s));
            rule_eleven_captures += expected.iter().filter(|&&m| reference::by_rule_eleven(s, m)).count();
        }
        assert!(rule_eleven_captures > 0, "{spec}: the positions exercise Rule 11");
    }
}

proptest::proptest! {
    /// Bad input never panics: text built from the notation's own characters (and a few others) is
    /// either read or refused with an error.
    #[test]
    fn parsers_never_panic(text in "[EeRrAaxX0-9a-j/ -]{0,70}") {
        let g = game("imperial-contest");
        if let Ok(s) = g.parse_position(&text) {
            proptest::prop_assert_eq!(g.parse_position(&g.format_position(&s)).unwrap(), s);
        }
        let _ = g.parse_move(&g.start(), &text);
    }

    /// Near-misses of real positions: one character of the start position replaced. Whatever is read
    /// must format back to text that reads as the same position.
    #[test]
    fn damaged_start_positions_never_panic(index in 0usize..1000, c in "[EeRrAax0-9/ ]") {
        let g = game("imperial-contest");
        let mut text: Vec<char> = rebel_zero::game::imperial::START.chars().collect();
        let at = index % text.len();
        text[at] = c.chars().next().unwrap();
        let text: String = text.into_iter().collect();
        if let Ok(s) = g.parse_position(&text) {
            proptest::prop_assert_eq!(g.parse_position(&g.format_position(&s)).unwrap(), s);
        }
    }
}
