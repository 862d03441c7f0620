//! State encoders: a position as a stack of input planes on the ruleset's grid.
//!
//! A plane stack is `planes × height × width` floats in row-major order, `[plane][row][column]`, the
//! shape a network reads as `[planes, height, width]`. Rows and columns are those of
//! [`GameFacts::grid`](crate::game::GameFacts::grid) (`(width, height)`).

pub mod chess;
pub mod hunt;
pub mod imperial;

use std::fmt::Debug;

use ndarray::{ArrayViewMut3, Axis};
use serde::{Deserialize, Serialize};

use crate::game::Game;

/// One input layout, shared by every ruleset whose positions it can encode.
///
/// An encoder is a value apart from the game rather than a method of the game for two reasons: the
/// layout belongs to the network layer (the `game` layer knows nothing of networks), and a layout
/// serves a whole family of rulesets, not one. Two games may share a network exactly when
/// [`Encoder::for_game`] gives equal encoders, which is what a checkpoint should record and check.
/// Ruleset options that vary within the family are encoded as constant planes, so one network serves
/// every variant (as KataGo conditions one network on the rules).
pub trait Encoder: Clone + Debug + PartialEq + Send + Sync + 'static {
    type Game: Game;

    /// The layout that encodes this game's positions.
    fn for_game(game: &Self::Game) -> Self;

    /// The number of planes.
    fn planes(&self) -> usize;

    /// `(width, height)` of every plane: the game's [`GameFacts::grid`](crate::game::GameFacts::grid).
    fn grid(&self) -> (usize, usize);

    /// The number of floats [`Encoder::encode`] writes: `planes × height × width`.
    fn input_len(&self) -> usize {
        let (width, height) = self.grid();
        self.planes() * height * width
    }

    /// Overwrites all of `out` (exactly [`Encoder::input_len`] floats) with the planes of `state`,
    /// `plies_played` moves into the game (for the cap-progress plane). Never allocates.
    fn encode(
        &self,
        game: &Self::Game,
        state: &<Self::Game as Game>::State,
        plies_played: u32,
        out: &mut [f32],
    );
}

/// Who a network plays against. A network trained with league games
/// ([`crate::train::config::LeagueConfig`]) reads it as one more constant plane after its encoder's,
/// so that its value head learns what a position is worth against rollout search apart from what it
/// is worth against its own best replies (KataGo's network likewise reads how much stronger or weaker
/// its opponent searches).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opponent {
    /// The network itself (self-play): plane value 0.
    #[default]
    Network,
    /// Rollout MCTS (`mcts:` agents): plane value 1.
    Rollouts,
}

impl Opponent {
    pub fn is_network(&self) -> bool {
        *self == Opponent::Network
    }

    fn plane_value(self) -> f32 {
        match self {
            Opponent::Network => 0.0,
            Opponent::Rollouts => 1.0,
        }
    }
}

/// A network's whole input: the encoder's planes, then the opponent plane when the network has one
/// ([`crate::nn::NetShape::opponent_plane`]).
#[derive(Clone, Debug, PartialEq)]
pub struct NetInput<E: Encoder> {
    pub encoder: E,
    pub opponent_plane: bool,
}

impl<E: Encoder> NetInput<E> {
    pub fn new(game: &E::Game, opponent_plane: bool) -> NetInput<E> {
        NetInput { encoder: E::for_game(game), opponent_plane }
    }

    pub fn planes(&self) -> usize {
        self.encoder.planes() + usize::from(self.opponent_plane)
    }

    /// The number of floats [`NetInput::encode`] writes.
    pub fn input_len(&self) -> usize {
        let (width, height) = self.encoder.grid();
        self.planes() * width * height
    }

    /// Overwrites all of `out` (exactly [`NetInput::input_len`] floats). `opponent` is ignored by a network
    /// without the plane. Never allocates.
    pub fn encode(
        &self,
        game: &E::Game,
        state: &<E::Game as Game>::State,
        plies_played: u32,
        opponent: Opponent,
        out: &mut [f32],
    ) {
        assert_eq!(out.len(), self.input_len(), "the output holds one input");
        let (board, opponent_plane) = out.split_at_mut(self.encoder.input_len());
        self.encoder.encode(game, state, plies_played, board);
        opponent_plane.fill(opponent.plane_value());
    }
}

/// Writes into a zeroed plane stack `[planes, height, width]`, viewed in place as an ndarray.
struct PlaneWriter<'a> {
    planes: ArrayViewMut3<'a, f32>,
}

impl<'a> PlaneWriter<'a> {
    /// Zeroes `out`, which must hold exactly `planes` planes of the grid.
    fn new(out: &'a mut [f32], planes: usize, (width, height): (usize, usize)) -> PlaneWriter<'a> {
        out.fill(0.0);
        let planes = ArrayViewMut3::from_shape((planes, height, width), out)
            .unwrap_or_else(|_| panic!("the output holds one {planes}-plane stack of {width}×{height}"));
        PlaneWriter { planes }
    }

    #[inline]
    fn set(&mut self, plane: usize, (column, row): (usize, usize), value: f32) {
        self.planes[[plane, row, column]] = value;
    }

    /// A plane that holds one value in every cell (side to move, progress, rule switches).
    #[inline]
    fn fill(&mut self, plane: usize, value: f32) {
        self.planes.index_axis_mut(Axis(0), plane).fill(value);
    }
}

/// How far the game has run toward its draw cap, in 0..=1.
#[inline]
fn cap_progress(plies_played: u32, max_plies: u32) -> f32 {
    plies_played as f32 / max_plies as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;
    use crate::game::hunt::HuntGame;

    /// The opponent plane follows the encoder's planes unchanged, 0 against the network and 1 against
    /// rollouts; without it the input is the encoder's alone.
    #[test]
    fn the_opponent_plane_follows_the_encoders_planes() {
        let AnyGame::Hunt(game) = AnyGame::from_spec("sixteen-rebels").unwrap() else { unreachable!() };
        let state = game.start();
        let encoder = <HuntGame as crate::nn::NetGame>::Encoder::for_game(&game);
        let mut board = vec![0.0; encoder.input_len()];
        encoder.encode(&game, &state, 3, &mut board);
        let plain = NetInput::<super::hunt::HuntEncoder>::new(&game, false);
        let mut out = vec![9.0; plain.input_len()];
        plain.encode(&game, &state, 3, Opponent::Rollouts, &mut out);
        assert_eq!(out, board);
        let told = NetInput::<super::hunt::HuntEncoder>::new(&game, true);
        assert_eq!(told.planes(), encoder.planes() + 1);
        for (opponent, value) in [(Opponent::Network, 0.0), (Opponent::Rollouts, 1.0)] {
            let mut out = vec![9.0; told.input_len()];
            told.encode(&game, &state, 3, opponent, &mut out);
            assert_eq!(out[..board.len()], board[..]);
            assert!(out[board.len()..].iter().all(|&v| v == value), "{opponent:?}");
        }
    }
}
