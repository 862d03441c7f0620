//! The test kit every ruleset passes (OpenSpiel's shared game tests): seeded random games checked at
//! every ply against invariants that hold for all rulesets, plus a family-specific invariant.
//!
//! It lives in the library, not under `tests/`, so each family's tests and the integration tests can
//! run it on any [`Game`].

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::Game;
use super::history::Playthrough;
use super::perft::perft;

/// Plays `games` random games from the start and checks at every position:
/// - the position's notation round-trips (`format(parse(format(s))) == format(s)`);
/// - every legal move's notation parses back to that move, and moves format distinctly;
/// - action indices are distinct and inside the action space;
/// - the hash is a function of the position (a reparsed position hashes the same);
/// - a game with moves left is not over, and one without moves is over;
/// - `invariant(before, after)` holds for every move played (piece counts never grow, …);
/// - every game ends within `max_plies` (the cap) and perft(1) equals the number of legal moves.
pub fn check_random_games<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    invariant: impl Fn(&G::State, &G::State) -> Result<(), String>,
) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for index in 0..games {
        let mut line = Playthrough::new(game.clone());
        while !line.is_over() {
            let state = line.state().clone();
            check_position(game, &state)
                .unwrap_or_else(|e| panic!("game {index}, ply {}: {e}", line.plies()));
            let moves = line.legal_moves();
            let mut scratch = G::Moves::default();
            for _ in 0..4 {
                let sampled = game.sample_move(&state, &mut rng, &mut scratch);
                assert!(
                    sampled.is_some_and(|m| moves.contains(&m)),
                    "game {index}: sample_move gave {sampled:?}, not a legal move"
                );
            }
            let mv = moves[rng.random_range(0..moves.len())];
            line.play(mv);
            invariant(&state, line.state()).unwrap_or_else(|e| {
                panic!("game {index}, after {}: {e}", game.format_move(&state, mv));
            });
            assert!(line.plies() <= game.max_plies(), "game {index} ran past the cap");
        }
        let end = line.state();
        let text = game.format_position(end);
        let outcome = line.outcome().expect("the game is over");
        let mut moves = G::Moves::default();
        game.legal_moves(end, &mut moves);
        if game.immediate_result(end).is_some() {
            assert!(moves.is_empty(), "game {index}: a decided position {text} still has moves");
        } else if moves.is_empty() {
            assert_eq!(outcome, game.no_moves_result(end), "game {index}: {text}");
        }
    }
}

/// The per-position checks of [`check_random_games`].
pub fn check_position<G: Game>(game: &G, state: &G::State) -> Result<(), String> {
    let text = game.format_position(state);
    let reparsed = game.parse_position(&text).map_err(|e| format!("own notation rejected: {e}"))?;
    let retext = game.format_position(&reparsed);
    if retext != text {
        return Err(format!("position notation does not round-trip: {text} → {retext}"));
    }
    if game.position_hash(&reparsed) != game.position_hash(state) {
        return Err(format!("reparsed position hashes differently: {text}"));
    }
    let mut moves = G::Moves::default();
    game.legal_moves(state, &mut moves);
    if perft(game, state, 1) != moves.len() as u64 {
        return Err(format!("perft(1) differs from the move count at {text}"));
    }
    let facts = game.facts();
    let mut texts = Vec::with_capacity(moves.len());
    let mut actions = Vec::with_capacity(moves.len());
    for &mv in moves.iter() {
        let move_text = game.format_move(state, mv);
        match game.parse_move(state, &move_text) {
            Ok(parsed) if parsed == mv => {}
            Ok(other) => return Err(format!("`{move_text}` parses to {other:?}, not {mv:?}, at {text}")),
            Err(e) => return Err(format!("`{move_text}` does not parse at {text}: {e}")),
        }
        let action = game.action_index(state, mv).get();
        if action >= facts.action_count {
            return Err(format!("`{move_text}` has action {action} ≥ {}", facts.action_count));
        }
        texts.push(move_text);
        actions.push(action);
    }
    let mut scratch = G::Moves::default();
    if let Some(mv) = game.winning_move(state, &mut scratch) {
        let mover = game.to_move(state);
        let mut next = state.clone();
        game.apply(&mut next, mv);
        if !moves.contains(&mv) || game.outcome(&next).is_none_or(|o| o.winner != Some(mover)) {
            return Err(format!("winning_move gave {mv:?}, which does not win at once, at {text}"));
        }
    }
    texts.sort();
    if texts.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!("two legal moves share a notation at {text}"));
    }
    actions.sort_unstable();
    if actions.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!("two legal moves share an action index at {text}"));
    }
    Ok(())
}

/// Plays random games to the end with a tiny cap and checks that every one ends in a draw by cap or
/// earlier, and that a position repeated three times ends the game.
pub fn check_draw_rules<G: Game>(game: &G, seed: u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for _ in 0..20 {
        let mut line = Playthrough::new(game.clone());
        while !line.is_over() {
            let moves = line.legal_moves();
            line.play(moves[rng.random_range(0..moves.len())]);
        }
        let outcome = line.outcome().unwrap();
        if outcome.reason == super::Reason::Cap {
            assert_eq!(line.plies(), game.max_plies());
        }
        if outcome.reason == super::Reason::Repetition {
            let last = game.position_hash(line.state());
            let mut state = line.start().clone();
            let mut seen = usize::from(game.position_hash(&state) == last);
            for &mv in line.moves() {
                game.apply(&mut state, mv);
                seen += usize::from(game.position_hash(&state) == last);
            }
            assert!(seen >= 3, "a repetition draw after only {seen} occurrences");
        }
    }
}

/// Draws `draws_per_move` × (number of legal moves) samples from `sample_move` in `state` and checks
/// that every sample is legal and every legal move comes up about equally often (within 5σ of the
/// binomial spread).
pub fn check_uniform_sampling<G: Game>(game: &G, state: &G::State, draws_per_move: usize, seed: u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut moves = G::Moves::default();
    game.legal_moves(state, &mut moves);
    let text = game.format_position(state);
    let mut scratch = G::Moves::default();
    if moves.is_empty() {
        assert!(
            game.sample_move(state, &mut rng, &mut scratch).is_none(),
            "a sample with no legal move: {text}"
        );
        return;
    }
    let mut counts = vec![0usize; moves.len()];
    let draws = draws_per_move * moves.len();
    for _ in 0..draws {
        let sampled = game.sample_move(state, &mut rng, &mut scratch).expect("a legal move exists");
        let index = moves.iter().position(|&m| m == sampled);
        counts[index.unwrap_or_else(|| panic!("sampled an illegal move {sampled:?} at {text}"))] += 1;
    }
    let p = 1.0 / moves.len() as f64;
    let sigma = (draws as f64 * p * (1.0 - p)).sqrt();
    for (mv, &n) in moves.iter().zip(&counts) {
        let off = (n as f64 - draws as f64 * p).abs();
        assert!(
            off <= 5.0 * sigma + 1.0,
            "{} drawn {n} times of {draws} at {text}",
            game.format_move(state, *mv)
        );
    }
}

/// The hunt game a spec names (tests: panics on a bad spec or another family).
pub fn hunt_game(spec: &str) -> super::hunt::HuntGame {
    match super::AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}")) {
        super::AnyGame::Hunt(game) => game,
        other => panic!("{spec} is not a hunt game: {other:?}"),
    }
}

/// The imperial-contest game a spec names (tests: panics on a bad spec or another family).
pub fn imperial_game(spec: &str) -> super::imperial::ImperialGame {
    match super::AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}")) {
        super::AnyGame::Imperial(game) => game,
        other => panic!("{spec} is not imperial-contest: {other:?}"),
    }
}

/// The chess-family game a spec names (tests: panics on a bad spec or another family).
pub fn chess_game(spec: &str) -> super::chess::ChessGame {
    match super::AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}")) {
        super::AnyGame::Chess(game) => game,
        other => panic!("{spec} is not a chess ruleset: {other:?}"),
    }
}
