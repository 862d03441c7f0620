//! The network layer's groundwork that needs no network library: state encoders (input planes on a
//! grid, one layout per ruleset family) and the board symmetries that augment training data.
//!
//! The policy side needs nothing new here: [`Game::action_index`](crate::game::Game::action_index)
//! is already the fixed action space per board, and [`symmetry`] adds its mirror image. The burn model
//! and the batched network evaluator come with training.

pub mod encode;
pub mod symmetry;

pub use encode::{Encoder, chess::ChessEncoder, hunt::HuntEncoder, imperial::ImperialEncoder};
pub use symmetry::{Mirror, mirror_planes};
