//! Evaluations written by hand, apart from the searches that use them (as Rustic and Stockfish keep
//! theirs): the chess family's evaluation ([`chess`], an [`Evaluation`](crate::search::alphabeta::Evaluation)
//! the generic alpha-beta search calls at its leaves) and Texel's fit of its weights to game results
//! ([`texel`]; the games come from `crate::train::texel`).

pub mod chess;
pub mod texel;
