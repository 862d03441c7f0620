//! Bad input never panics: arbitrary text thrown at every parser of every ruleset.

use proptest::prelude::*;
use rebel_zero::game::registry::all_rulesets;
use rebel_zero::game::{AnyGame, Game, Playthrough};
use rebel_zero::with_game;

/// Text that looks like notation often enough to reach deep into the parsers.
fn notation_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-k0-9:;,/=xrRGEAgaKQkq+ -]{0,40}",
        "G:[a-e][0-9]{1,2};R:([a-e][0-9]{1,2},){0,6};[gr]",
        "[1-9AER]{1,9}(/[1-9AER]{1,9}){0,9} [ra]",
        ".{0,30}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn specs_never_panic(text in "[a-z-]{0,20}(:[a-z_]{0,12}=[a-z0-9]{0,6}(,[a-z_]{0,12}=[a-z0-9]{0,4}){0,3})?") {
        let _ = AnyGame::from_spec(&text);
    }

    #[test]
    fn positions_and_moves_never_panic(text in notation_like(), ruleset in 0usize..32) {
        let infos: Vec<_> = all_rulesets().collect();
        let game = AnyGame::from_spec(infos[ruleset % infos.len()].name).unwrap();
        with_game!(&game, |g| {
            if let Ok(state) = g.parse_position(&text) {
                // Whatever parses must be a usable position.
                let _ = g.render(&state);
                let _ = Playthrough::from_position(g.clone(), state);
            }
            let mut line = Playthrough::new(g.clone());
            let _ = line.play_text(&text);
        });
    }
}
