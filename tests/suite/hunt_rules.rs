//! One test per rule of RULES.md sections 2–4, each on a hand-made position.

use rebel_zero::game::hunt::{GENERAL, HuntGame, HuntState, REBELS};
use rebel_zero::game::{Game, Outcome, Playthrough, Reason};

use rebel_zero::game::testkit::hunt_game as game;

fn at(game: &HuntGame, position: &str) -> HuntState {
    game.parse_position(position).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves in notation, sorted.
fn legal(game: &HuntGame, state: &HuntState) -> Vec<String> {
    let mut moves = <HuntGame as Game>::Moves::default();
    game.legal_moves(state, &mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| game.format_move(state, m)).collect();
    texts.sort();
    texts
}

fn after(game: &HuntGame, state: &HuntState, mv: &str) -> HuntState {
    let m = game.parse_move(state, mv).unwrap_or_else(|e| panic!("{e}"));
    let mut next = *state;
    game.apply(&mut next, m);
    next
}

fn result_after(spec: &str, position: &str, mv: &str) -> Option<Outcome> {
    let g = game(spec);
    g.outcome(&after(&g, &at(&g, position), mv))
}

// ---- sixteen-rebels (section 2) ----

#[test]
fn intervention_takes_every_opposite_pair_across_the_arrival_point() {
    let g = game("sixteen-rebels:general_wins_at=0");
    let s = at(&g, "G:c4;R:b2,b3,b4,c2,d2,d3,d4;g");
    // Three pairs across c3 are taken at once (R1); c2's partner across c3 is c4, which he just left.
    assert!(legal(&g, &s).contains(&"c4-c3xb2xb3xb4xd2xd3xd4".to_string()));
    assert_eq!(g.format_position(&after(&g, &s, "c4-c3")), "G:c3;R:c2;r");
}

#[test]
fn the_general_captures_only_by_arriving() {
    let g = game("sixteen-rebels:general_wins_at=0");
    let s = at(&g, "G:c3;R:b3,d3,a1;g");
    // Standing between b3 and d3, or leaving them, takes nothing.
    assert!(legal(&g, &s).iter().all(|m| !m.contains('x')), "{:?}", legal(&g, &s));
}

#[test]
fn capture_is_optional_by_default_and_forced_when_mandatory() {
    let optional = game("sixteen-rebels");
    let start = optional.start();
    assert!(legal(&optional, &start).contains(&"c3-c4".to_string()));
    let mandatory = game("sixteen-rebels:capture=mandatory");
    let moves = legal(&mandatory, &mandatory.start());
    assert_eq!(moves, vec!["c3-b2xa3xc1", "c3-b4xa3xc5", "c3-d2xc1xe3", "c3-d4xc5xe3"]);
}

#[test]
fn reaching_the_apex_wins_unless_switched_off() {
    let position = "G:c6;R:a1,b1,c1,d1,e1;g";
    assert_eq!(result_after("sixteen-rebels", position, "c6-c7"), Some(Outcome::win(GENERAL, Reason::Apex)));
    assert_eq!(result_after("sixteen-rebels:apex=off", position, "c6-c7"), None);
}

#[test]
fn the_general_wins_when_the_rebels_fall_to_the_threshold() {
    let position = "G:c4;R:b3,d3,a1,e1,a5,e5;g";
    assert_eq!(
        result_after("sixteen-rebels", position, "c4-c3"),
        Some(Outcome::win(GENERAL, Reason::Captures))
    );
    assert_eq!(result_after("sixteen-rebels:general_wins_at=3", position, "c4-c3"), None);
}

#[test]
fn rebels_on_all_three_exits_with_the_general_in_the_privy_win() {
    let position = "G:b6;R:b5,c5,e5,a1,a2;r";
    assert_eq!(
        result_after("sixteen-rebels", position, "e5-d5"),
        Some(Outcome::win(REBELS, Reason::Blockade))
    );
}

#[test]
fn a_general_without_a_legal_move_loses() {
    let position = "G:a1;R:a2,b1,c3,e5,d5;r";
    assert_eq!(
        result_after("sixteen-rebels", position, "c3-b2"),
        Some(Outcome::win(REBELS, Reason::NoMoves))
    );
}

#[test]
fn rebels_never_enter_the_privy() {
    let g = game("sixteen-rebels:general_wins_at=0");
    let s = at(&g, "G:a1;R:b5,c5,d5;r");
    assert_eq!(legal(&g, &s), vec!["b5-a5", "b5-b4", "c5-b4", "c5-c4", "c5-d4", "d5-d4", "d5-e5"]);
}

#[test]
fn custodial_rebels_take_a_flanked_general_only_when_enabled() {
    let position = "G:c3;R:c2,b4,a1,e1,e5;r";
    assert_eq!(
        result_after("murray-rebels", position, "b4-c4"),
        Some(Outcome::win(REBELS, Reason::Custodial))
    );
    assert_eq!(result_after("sixteen-rebels", position, "b4-c4"), None);
    // A Rebel arriving beside the General without one beyond him takes nothing.
    assert_eq!(result_after("murray-rebels", "G:c3;R:b4,a1,e1,e5,a5;r", "b4-c4"), None);
    // The taken General no longer counts as material (the balance lab's captures per game).
    let g = game("murray-rebels");
    let s = at(&g, position);
    assert_eq!(g.material(&s), Some([1, 5]));
    assert_eq!(g.material(&after(&g, &s, "b4-c4")), Some([0, 5]));
}

#[test]
fn neeley_general_leaps_diagonally_only_and_a_leap_makes_no_intervention() {
    let g = game("neeley-rebels");
    let s = at(&g, "G:a3;R:b4,b5,d5,e1,a1;g");
    let moves = legal(&g, &s);
    // The leap to c5 lands between b5 and d5 but takes only the Rebel it jumps.
    assert!(moves.contains(&"a3-c5xb4".to_string()), "{moves:?}");
    let orthogonal = at(&g, "G:c3;R:c4,a1,e1,e5,a5;g");
    assert!(legal(&g, &orthogonal).iter().all(|m| !m.contains("xc4")));
    // Without the option the General never leaps.
    let plain = game("murray-rebels");
    assert!(legal(&plain, &at(&plain, "G:a3;R:b4,b5,d5,e1,a1;g")).iter().all(|m| m != "a3-c5xb4"));
}

#[test]
fn the_general_moves_first_by_default_and_the_option_changes_it() {
    assert_eq!(game("sixteen-rebels").start().to_move, GENERAL);
    assert_eq!(game("sixteen-rebels:first=rebels").start().to_move, REBELS);
    assert_eq!(game("juroku-musashi").start().to_move, REBELS);
}

// ---- juroku-musashi (section 3) ----

#[test]
fn juroku_general_leaps_along_any_line_into_the_triangle_and_never_intervenes() {
    let g = game("juroku-musashi");
    // e3-d4-c5-b6-b7 is one line (section 1: a line is a maximal chain of collinear points).
    let s = at(&g, "G:d4;R:c5,a1,e1;g");
    assert!(legal(&g, &s).contains(&"d4-b6xc5".to_string()));
    let orthogonal = at(&g, "G:c3;R:c4,b4,d4,a1;g");
    let moves = legal(&g, &orthogonal);
    assert!(moves.contains(&"c3-c5xc4".to_string()), "{moves:?}");
    // Arriving on c2, between b2 and d2, takes nothing.
    let between = at(&g, "G:c3;R:b2,d2,a5;g");
    assert!(legal(&g, &between).contains(&"c3-c2".to_string()));
}

#[test]
fn juroku_rebels_win_by_immobilising_and_the_general_by_taking_all() {
    let position = "G:a1;R:a2,b1,b2,a3,c1,d4;r";
    assert_eq!(
        result_after("juroku-musashi", position, "d4-c3"),
        Some(Outcome::win(REBELS, Reason::NoMoves))
    );
    let last = "G:c3;R:c4;g";
    assert_eq!(
        result_after("juroku-musashi", last, "c3-c5xc4"),
        Some(Outcome::win(GENERAL, Reason::Captures))
    );
}

#[test]
fn juroku_soldiers_stay_out_of_the_closed_triangle() {
    let g = game("juroku-musashi:triangle=closed");
    let s = at(&g, "G:a1;R:c5,e1;r");
    assert_eq!(legal(&g, &s), vec!["c5-b4", "c5-b5", "c5-c4", "c5-d4", "c5-d5", "e1-d1", "e1-d2", "e1-e2"]);
    assert!(g.parse_position("G:a1;R:b6,e1;r").is_err(), "a soldier on the closed triangle");
}

// ---- juroku-musashi with the open triangle (section 3, R12) ----

#[test]
fn juroku_soldiers_may_enter_the_open_triangle() {
    let g = game("juroku-musashi");
    let s = at(&g, "G:a1;R:c5,e1;r");
    let expected =
        ["c5-b4", "c5-b5", "c5-b6", "c5-c4", "c5-c6", "c5-d4", "c5-d5", "c5-d6", "e1-d1", "e1-d2", "e1-e2"];
    assert_eq!(legal(&g, &s), expected);
    // Along the triangle too, over its inner sides: b6 to c7.
    let inside = at(&g, "G:a1;R:b6;r");
    assert_eq!(legal(&g, &inside), vec!["b6-b7", "b6-c5", "b6-c6", "b6-c7"]);
}

#[test]
fn juroku_general_shut_in_the_open_triangle_loses() {
    // At the apex c7: b6, b7, c6, d6, d7 held, and c5 taken so that he cannot leap c6.
    assert_eq!(
        result_after("juroku-musashi", "G:c7;R:b6,b7,c6,d6,d7,c4;r", "c4-c5"),
        Some(Outcome::win(REBELS, Reason::NoMoves))
    );
    // In the corner b7: b6 and c7 held, and the squares beyond them (c5, d7) too.
    assert_eq!(
        result_after("juroku-musashi", "G:b7;R:b6,c5,c7,d6;r", "d6-d7"),
        Some(Outcome::win(REBELS, Reason::NoMoves))
    );
}

#[test]
fn juroku_inner_links_are_steps_of_the_open_triangle_only() {
    let open = game("juroku-musashi");
    let closed = game("juroku-musashi:triangle=closed");
    let position = "G:b6;R:a1,e1;g";
    assert!(legal(&open, &at(&open, position)).contains(&"b6-c7".to_string()));
    assert_eq!(legal(&closed, &at(&closed, position)), vec!["b6-b7", "b6-c5", "b6-c6"]);
    let apex = "G:c7;R:a1,e1;g";
    assert_eq!(legal(&open, &at(&open, apex)), vec!["c7-b6", "c7-b7", "c7-c6", "c7-d6", "c7-d7"]);
}

#[test]
fn juroku_general_never_leaps_along_a_two_point_line() {
    let g = game("juroku-musashi");
    // c7-b6 is a line of two points: b5 lies beyond b6 on the same straight line, but no line is drawn
    // from b6 to b5, so the General cannot leap c7 over b6 to b5 (nor d6 to d5).
    let s = at(&g, "G:c7;R:b6,d6,b7,d7,c6,c5;g");
    assert!(legal(&g, &s).is_empty(), "{:?}", legal(&g, &s));
    // Nothing lies beyond c7 from b6, nor beyond b7, so neither is leapt; the row b6-c6-d6 is.
    let t = at(&g, "G:b6;R:c7,b7,c6,e1;g");
    assert_eq!(legal(&g, &t), vec!["b6-c5", "b6-d6xc6"]);
}

// ---- twenty-six-rebels (section 4.1) ----

#[test]
fn static_capture_only_when_cornered_and_the_general_picks_the_pair() {
    let g = game("twenty-six-rebels");
    assert_eq!(legal(&g, &g.start()), vec!["c5xb5xd5", "c5xc4xc6"]);
    let free_above = at(&g, "G:c5;R:b5,d5,c4;g");
    assert_eq!(legal(&g, &free_above), vec!["c5-c6xb5xd5"]);
}

#[test]
fn deferred_capture_takes_the_pair_across_the_point_left_and_nothing_on_arrival() {
    let g = game("twenty-six-rebels");
    let s = at(&g, "G:c5;R:b5,d5;g");
    assert_eq!(legal(&g, &s), vec!["c5-c4xb5xd5", "c5-c6xb5xd5"]);
    let arrival = at(&g, "G:c5;R:b4,d4;g");
    assert!(legal(&g, &arrival).contains(&"c5-c4".to_string()));
}

#[test]
fn forward_only_rebels_never_step_back_but_free_rebels_do() {
    let g = game("twenty-six-rebels");
    assert_eq!(legal(&g, &at(&g, "G:e9;R:c5;r")), vec!["c5-b5", "c5-c6", "c5-d5"]);
    let free = game("twenty-six-rebels-free:general_wins_at=0");
    assert_eq!(legal(&free, &at(&free, "G:e9;R:c5;r")), vec!["c5-b5", "c5-c4", "c5-c6", "c5-d5"]);
}

#[test]
fn rank_one_wins_for_the_general_and_the_apex_loses() {
    assert_eq!(
        result_after("twenty-six-rebels", "G:c2;R:b9;g", "c2-c1"),
        Some(Outcome::win(GENERAL, Reason::BottomRow))
    );
    assert_eq!(
        result_after("twenty-six-rebels", "G:c10;R:b9;g", "c10-c11"),
        Some(Outcome::win(REBELS, Reason::ApexTrap))
    );
}

#[test]
fn mandatory_capture_counts_deferred_captures() {
    let position = "G:b9;R:a9,c9;g";
    let optional = game("twenty-six-rebels");
    assert_eq!(legal(&optional, &at(&optional, position)), vec!["b9-b10", "b9-b8xa9xc9"]);
    let mandatory = game("twenty-six-rebels:capture=mandatory");
    assert_eq!(legal(&mandatory, &at(&mandatory, position)), vec!["b9-b8xa9xc9"]);
}

#[test]
fn the_hyde_privy_has_no_base_line_so_a_shut_in_general_must_take_the_apex() {
    let g = game("twenty-six-rebels");
    assert_eq!(legal(&g, &at(&g, "G:b10;R:b9,c9;g")), vec!["b10-c11"]);
    assert_eq!(legal(&g, &at(&g, "G:c10;R:b9,c9,d9;g")), vec!["c10-c11"]);
}

// ---- twenty-six-rebels-free (4.2) ----

#[test]
fn free_variant_wins_by_count_not_by_rank_one_and_the_apex_still_loses() {
    let nine = "b3,d3,a9,b9,c9,d9,e9,a8,e8";
    // Leaving c4 northward takes the pair across c4 (b4, d4); b3 and d3 are not it.
    assert_eq!(result_after("twenty-six-rebels-free", &format!("G:c4;R:{nine};g"), "c4-c5"), None);
    let pair = "b4,d4,a9,b9,c9,d9,e9,a8,e8";
    assert_eq!(
        result_after("twenty-six-rebels-free", &format!("G:c4;R:{pair};g"), "c4-c5"),
        Some(Outcome::win(GENERAL, Reason::Captures))
    );
    assert_eq!(result_after("twenty-six-rebels-free", &format!("G:c2;R:{nine};g"), "c2-c1"), None);
    assert_eq!(
        result_after("twenty-six-rebels-free", &format!("G:c10;R:{nine};g"), "c10-c11"),
        Some(Outcome::win(REBELS, Reason::ApexTrap))
    );
}

// ---- twenty-six-rebels-alt (4.3) ----

const FAR_SEVEN: &str = "a9,a8,a7,a6,e9,e8,e7";

#[test]
fn alt_intervenes_on_arrival_captures_statically_at_any_time_and_forces_capture() {
    let position = format!("G:c3;R:b3,d3,b4,d4,{FAR_SEVEN};g");
    let alt = game("twenty-six-rebels-alt");
    assert_eq!(legal(&alt, &at(&alt, &position)), vec!["c3-c4xb4xd4", "c3xb3xd3"]);
    let optional = game("twenty-six-rebels-alt:capture=optional");
    assert_eq!(legal(&optional, &at(&optional, &position)), vec!["c3-c2", "c3-c4xb4xd4", "c3xb3xd3"]);
}

#[test]
fn alt_blockade_rank_one_and_count_win_but_the_apex_means_nothing() {
    let spec = "twenty-six-rebels-alt";
    assert_eq!(
        result_after(spec, "G:c10;R:b9,d9,c8,a1,a2,a3,e1,e2,e3;r", "c8-c9"),
        Some(Outcome::win(REBELS, Reason::Blockade))
    );
    assert_eq!(result_after(spec, &format!("G:c10;R:b8,d8,{FAR_SEVEN};g"), "c10-c11"), None);
    assert_eq!(
        result_after(spec, &format!("G:c2;R:b8,d8,{FAR_SEVEN};g"), "c2-c1"),
        Some(Outcome::win(GENERAL, Reason::BottomRow))
    );
    assert_eq!(
        result_after(spec, &format!("G:c4;R:b3,d3,{FAR_SEVEN};g"), "c4-c3"),
        Some(Outcome::win(GENERAL, Reason::Captures))
    );
}

#[test]
fn alt_rebels_stalemate_the_general_in_a_corner() {
    // a9 is a corner off rank 1 with no pair across it, so filling b9 leaves him no move.
    let position = "G:a9;R:a8,c9,c1,c2,c3,d1,d2,d3,e1,e2;r";
    assert_eq!(
        result_after("twenty-six-rebels-alt", position, "c9-b9"),
        Some(Outcome::win(REBELS, Reason::NoMoves))
    );
}

// ---- draws (section 0.4) ----

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let g = game("sixteen-rebels");
    let mut line = Playthrough::from_position(g.clone(), at(&g, "G:c3;R:a1,e5,a5,e1,e3;g"));
    for mv in ["c3-c2", "a1-a2", "c2-c3", "a2-a1", "c3-c2", "a1-a2", "c2-c3"] {
        line.play_text(mv).unwrap();
        assert!(!line.is_over());
    }
    line.play_text("a2-a1").unwrap();
    assert_eq!(line.outcome(), Some(Outcome::draw(Reason::Repetition)));
    assert!(line.play_text("c3-c2").is_err());
    // Taking the move back reopens the game.
    assert!(line.undo());
    assert!(!line.is_over());
}

#[test]
fn the_cap_draws_after_max_plies_moves() {
    let g = game("sixteen-rebels:max_plies=3");
    let mut line = Playthrough::from_position(g.clone(), at(&g, "G:c3;R:a1,e5,a5,e1,e3;g"));
    for mv in ["c3-c2", "a1-a2", "c2-c3"] {
        line.play_text(mv).unwrap();
    }
    assert_eq!(line.outcome(), Some(Outcome::draw(Reason::Cap)));
}

// ---- notation (section 7) and bad input ----

#[test]
fn moves_parse_with_captures_in_any_order_or_left_out_when_unambiguous() {
    let g = game("sixteen-rebels");
    let s = g.start();
    let canonical = g.parse_move(&s, "c3-d4xc5xe3").unwrap();
    assert_eq!(g.parse_move(&s, "c3-d4xe3xc5").unwrap(), canonical);
    assert_eq!(g.parse_move(&s, "c3-d4").unwrap(), canonical);
    assert_eq!(g.format_move(&s, canonical), "c3-d4xc5xe3");
}

#[test]
fn bad_moves_are_errors_naming_the_problem() {
    let g = game("sixteen-rebels");
    let s = g.start();
    for (text, expected) in [
        ("c3-c9", "not a point"),
        ("z1-c4", "not a point"),
        ("c3", "from-to"),
        ("c3-e5", "not a legal move"),
        ("c3-d4xa1", "not a legal move"),
        ("", "not a point"),
    ] {
        let err = g.parse_move(&s, text).unwrap_err().to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
}

#[test]
fn bad_positions_are_errors_naming_the_problem() {
    let g = game("sixteen-rebels");
    for (text, expected) in [
        ("G:c3,c4;R:a1;g", "exactly one General"),
        ("G:c3;R:c6;g", "only the General"),
        ("G:c3;R:z9;g", "not a point"),
        ("G:c3;R:a1,a1;g", "two Rebels"),
        ("G:c3;R:c3;g", "General's point"),
        ("G:c3;R:a1;x", "`g` or `r`"),
        ("G:c3;R:a1", "three fields"),
        ("c3;R:a1;g", "G:<point>"),
        ("G:c3;a1;g", "R:<point>"),
    ] {
        let err = g.parse_position(text).unwrap_err().to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
    let too_many =
        "G:c5;R:a1,a2,a3,a4,a5,a6,a7,a8,a9,b1,b2,b3,b4,b6,b7,b8,b9,c1,c2,c3,c4,c6,c7,c8,c9,d1,d2;g";
    let err = game("twenty-six-rebels").parse_position(too_many).unwrap_err().to_string();
    assert!(err.contains("more than the 26"), "{err}");
}

#[test]
fn a_parsed_position_that_is_already_decided_has_no_moves() {
    let g = game("sixteen-rebels");
    let s = at(&g, "G:c7;R:a1,b1,c1,d1,e1;r");
    assert_eq!(g.outcome(&s), Some(Outcome::win(GENERAL, Reason::Apex)));
    assert!(legal(&g, &s).is_empty());
}

#[test]
fn sampled_moves_are_uniform_over_the_legal_moves() {
    use rand::SeedableRng;
    let g = game("sixteen-rebels:first=rebels");
    let start = g.start();
    let moves = legal(&g, &start);
    let mut counts = std::collections::HashMap::new();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    let mut scratch = <HuntGame as Game>::Moves::default();
    let draws = 24_000;
    for _ in 0..draws {
        let m = g.sample_move(&start, &mut rng, &mut scratch).expect("the Rebels can move");
        *counts.entry(g.format_move(&start, m)).or_insert(0usize) += 1;
    }
    assert_eq!(counts.len(), moves.len());
    let expected = draws / moves.len();
    // Each count is binomial with σ ≈ 31; allow 5σ.
    for (mv, n) in counts {
        assert!(n.abs_diff(expected) < 160, "{mv}: {n} draws, expected about {expected}");
    }
}

#[test]
fn decisive_rollouts_see_the_apex_and_the_trap() {
    let g = game("sixteen-rebels");
    let mut scratch = <HuntGame as Game>::Moves::default();
    let mut winning = |position: &str| {
        let s = at(&g, position);
        g.winning_move(&s, &mut scratch).map(|m| g.format_move(&s, m))
    };
    assert_eq!(winning("G:c6;R:a1,b1,c1,d1,e1;g").as_deref(), Some("c6-c7"));
    // Leaving the General no move is the Rebels' win, though not an immediate result.
    assert_eq!(winning("G:a1;R:a2,b1,c3,e5,d5;r").as_deref(), Some("c3-b2"));
    assert_eq!(winning("G:b6;R:b5,c5,e5,a1,a2;r").as_deref(), Some("e5-d5"));
    assert_eq!(winning(&g.format_position(&g.start())), None);
}
