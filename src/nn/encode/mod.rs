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

use crate::game::Game;

/// One input layout, shared by every ruleset whose positions it can encode.
///
/// An encoder is a value apart from the game rather than a method of the game for two reasons: the
/// layout belongs to the network layer (the `game` layer knows nothing of networks), and a layout
/// serves a whole family of rulesets, not one. Two games may share a network exactly when
/// [`Encoder::for_game`] gives equal encoders, which is what a checkpoint should record and check.
/// Ruleset options that vary within the family are encoded as constant planes, so one network serves
/// every variant (as KataGo conditions one network on the rules).
///
/// ```
/// use rebel_zero::game::{AnyGame, Game};
/// use rebel_zero::nn::{Encoder, HuntEncoder};
///
/// let AnyGame::Hunt(game) = AnyGame::from_spec("sixteen-rebels").unwrap() else { unreachable!() };
/// let encoder = HuntEncoder::for_game(&game);
/// let mut planes = vec![0.0; encoder.input_len()];
/// encoder.encode(&game, &game.start(), 0, &mut planes);
/// // Murray's version is on the same board: the same layout, so one network serves both.
/// let AnyGame::Hunt(murray) = AnyGame::from_spec("murray-rebels").unwrap() else { unreachable!() };
/// assert_eq!(HuntEncoder::for_game(&murray), encoder);
/// ```
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
