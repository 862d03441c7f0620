//! Perft (RULES.md 0.5): the number of move sequences of a given length. Rule-based endings only; the
//! draw rules of 0.4 are ignored. The last ply is bulk-counted (the length of the move list).

use std::time::{Duration, Instant};

use super::Game;

/// `perft(state, depth)`; a finished game has no moves, so it contributes 0 below depth 0.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = G::Moves::default();
    game.legal_moves(state, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = state.clone();
        game.apply(&mut child, mv);
        total += perft(game, &child, depth - 1);
    }
    total
}

/// Perft split by first move: each legal move in notation with the count below it.
pub fn divide<G: Game>(game: &G, state: &G::State, depth: u32) -> Vec<(String, u64)> {
    let mut moves = G::Moves::default();
    game.legal_moves(state, &mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            (game.format_move(state, mv), perft(game, &child, depth.saturating_sub(1)))
        })
        .collect()
}

/// The deepest start-position perft that fits the budget, and its nodes per second.
pub fn perft_speed<G: Game>(game: &G, budget: Duration) -> (u32, f64) {
    let start = game.start();
    let mut depth = 1;
    loop {
        let timer = Instant::now();
        let nodes = perft(game, &start, depth);
        let elapsed = timer.elapsed();
        // Stop when this depth took a good share of the budget or the next would overrun it.
        if elapsed * 4 >= budget || depth >= 12 {
            return (depth, nodes as f64 / elapsed.as_secs_f64());
        }
        depth += 1;
    }
}
