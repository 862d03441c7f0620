//! What a game family can do beyond its rules and its network, in one trait: a hand-written
//! evaluation for alpha-beta, tables that solve it (best play), and, through [`NetGame`], its network
//! encoder. Code above asks the trait rather than matching [`AnyGame`] family by family, so a family
//! that gains an evaluation is picked up everywhere that uses one (docs/ADDING-A-GAME.md). Tables are
//! the hunt boards' alone: `as_hunt` and `table_ranking` name the hunt game, so another family's
//! tables would first need a tablebase over its own game.
//!
//! Layer: uses `game`, `tablebase`, `search`, `eval` and `nn`.

use crate::game::chess::ChessGame;
use crate::game::hunt::{HuntGame, HuntMove};
use crate::game::imperial::ImperialGame;
use crate::game::{AnyGame, Playthrough};
use crate::nn::NetGame;
use crate::search::alphabeta::Evaluation;
use crate::tablebase::Tablebase;
use crate::with_game;

/// A game family: what it can do, each with a default for a family that cannot.
pub trait Family: NetGame {
    /// A hand-written leaf evaluation for an alpha-beta search, where the family has one (chess);
    /// others evaluate leaves with a network's value head or by material.
    fn hand_evaluation(&self) -> Option<Box<dyn Evaluation<Self> + Send>> {
        None
    }

    /// The game as a hunt game, where tables solve its family (the hunt boards, the only ones).
    fn as_hunt(&self) -> Option<&HuntGame> {
        None
    }

    /// Best play by `table`: each legal move of `line`'s position with its preference for the side
    /// to move ([`crate::tablebase::ranked_moves`]; best play chooses among the highest,
    /// [`crate::tablebase::best_moves`]); `None` for a family no table solves.
    fn table_ranking(&self, _table: &Tablebase, _line: &Playthrough<Self>) -> Option<Vec<(i64, Self::Move)>> {
        None
    }
}

impl Family for HuntGame {
    fn as_hunt(&self) -> Option<&HuntGame> {
        Some(self)
    }

    fn table_ranking(&self, table: &Tablebase, line: &Playthrough<HuntGame>) -> Option<Vec<(i64, HuntMove)>> {
        Some(crate::tablebase::ranked_moves(table, line))
    }
}

impl Family for ImperialGame {}

impl Family for ChessGame {
    fn hand_evaluation(&self) -> Option<Box<dyn Evaluation<Self> + Send>> {
        Some(Box::new(crate::eval::chess::ChessEval::default()))
    }
}

/// `game` as a hunt game, where tables solve its family.
pub fn hunt_of(game: &AnyGame) -> Option<&HuntGame> {
    with_game!(game, |g| g.as_hunt())
}

/// Whether `game`'s family has a hand-written evaluation (alpha-beta then plays it without a network).
pub fn has_hand_evaluation(game: &AnyGame) -> bool {
    with_game!(game, |g| g.hand_evaluation().is_some())
}
