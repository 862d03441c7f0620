//! Every ruleset passes the shared test kit on seeded random games.

use rebel_zero::game::hunt::{HuntGame, HuntState};
use rebel_zero::game::registry::all_rulesets;
use rebel_zero::game::testkit::{check_draw_rules, check_random_games, check_uniform_sampling};
use rebel_zero::game::{AnyGame, Game};
use rebel_zero::with_game;

/// Hunt-game invariants: Rebels never increase, never stand in the privy, never share the General's point.
fn hunt_invariant(game: &HuntGame) -> impl Fn(&HuntState, &HuntState) -> Result<(), String> + '_ {
    move |before, after| {
        if after.rebels.count_ones() > before.rebels.count_ones() {
            return Err("the Rebels grew in number".into());
        }
        if after.rebels & game.board().privy != 0 {
            return Err("a Rebel stands in the privy".into());
        }
        if after.rebels >> after.general & 1 == 1 {
            return Err("a Rebel shares the General's point".into());
        }
        if before.to_move == after.to_move && after.result.is_none() {
            return Err("the turn did not pass".into());
        }
        Ok(())
    }
}

#[test]
fn hunt_rulesets_pass_the_kit_with_every_option() {
    let specs = [
        "sixteen-rebels",
        "sixteen-rebels:first=rebels,capture=mandatory",
        "sixteen-rebels:apex=off,general_wins_at=0",
        "murray-rebels",
        "neeley-rebels:capture=mandatory",
        "juroku-musashi",
        "juroku-musashi:first=general,capture=mandatory,general_wins_at=3",
        "juroku-musashi:triangle=closed",
        "twenty-six-rebels",
        "twenty-six-rebels:capture=mandatory,first=rebels",
        "twenty-six-rebels-free",
        "twenty-six-rebels-alt",
        "twenty-six-rebels-alt:capture=optional",
    ];
    for spec in specs {
        let game = rebel_zero::game::testkit::hunt_game(spec);
        check_random_games(&game, 60, 7, hunt_invariant(&game));
    }
}

#[test]
fn every_ruleset_passes_the_generic_kit_and_its_draw_rules() {
    for info in all_rulesets() {
        let game = AnyGame::from_spec(info.name).unwrap();
        with_game!(&game, |g| check_random_games(g, 10, 11, |_, _| Ok(())));
        let capped = AnyGame::from_spec(&format!("{}:max_plies=12", info.name)).unwrap();
        with_game!(&capped, |g| {
            assert_eq!(g.max_plies(), 12);
            check_draw_rules(g, 3)
        });
    }
}

/// `sample_move` is uniform over the legal moves on positions from random play, for every ruleset and
/// for the mandatory-capture variants, where the sampler must leave out the quiet moves.
#[test]
fn sampled_moves_are_uniform_in_every_ruleset() {
    use rand::{RngExt, SeedableRng};
    let extra = ["sixteen-rebels:capture=mandatory", "imperial-contest:capture=mandatory"];
    let specs = all_rulesets().map(|r| r.name).chain(extra);
    for spec in specs {
        let game = AnyGame::from_spec(spec).unwrap();
        with_game!(&game, |g| {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(21);
            let mut line = rebel_zero::game::Playthrough::new(g.clone());
            for checked in 0..40 {
                if line.is_over() {
                    break;
                }
                // Every 7th ply, so both sides' samplers are checked.
                if checked % 7 == 0 {
                    check_uniform_sampling(g, line.state(), 300, checked);
                }
                let moves = line.legal_moves();
                line.play(moves[rng.random_range(0..moves.len())]);
            }
        });
    }
}
