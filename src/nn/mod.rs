//! The network layer: state encoders (input planes on a grid, one layout per ruleset family), the
//! board symmetries that augment training data, the burn policy/value network, checkpoints on disk and
//! the batched network evaluator that plugs into the search.
//!
//! The policy side of the encoding is [`Game::action_index`], the fixed action space per board;
//! [`symmetry`] adds its mirror image.

pub mod agreement;
pub mod backprop;
pub mod checkpoint;
mod conv;
pub mod encode;
pub mod evaluator;
pub mod export;
pub mod inference;
pub mod int8;
mod kernels;
pub mod load;
pub mod model;
pub mod symmetry;
pub mod value;
mod winograd;

pub use checkpoint::{Checkpoint, CheckpointError, CheckpointMeta};
pub use encode::{Encoder, chess::ChessEncoder, hunt::HuntEncoder, imperial::ImperialEncoder};
pub use evaluator::NetEvaluator;
pub use inference::{Inference, InferenceNet, Precision};
pub use load::load_for_inference;
pub use model::{NetShape, PolicyHead, PolicyValueNet, TowerSize};
pub use symmetry::{Mirror, mirror_planes};

use crate::game::chess::ChessGame;
use crate::game::hunt::HuntGame;
use crate::game::imperial::ImperialGame;
use crate::game::{ActionIndex, Game};

/// A game a network can play: it names its input layout and, where the board has one, the mirror
/// image of a policy index (for training-data augmentation).
pub trait NetGame: Game + crate::game::tactics::Tactics {
    type Encoder: Encoder<Game = Self>;

    /// The policy index of the mirrored move, when the rules are mirror-symmetric; the encoded planes
    /// are then mirrored by [`mirror_planes`].
    fn mirror_action_index(&self, action: ActionIndex) -> Option<ActionIndex>;

    /// The policy head that fits this family's action space: dense unless the action index is laid
    /// out cell by cell on the encoder's grid.
    fn policy_head(&self) -> PolicyHead {
        PolicyHead::Dense
    }

    /// The network shape for a tower over this game's encoding and action space.
    fn net_shape(&self, tower: TowerSize) -> NetShape {
        let encoder = Self::Encoder::for_game(self);
        NetShape {
            tower,
            planes: encoder.planes(),
            grid: encoder.grid(),
            actions: self.facts().action_count,
            policy: self.policy_head(),
        }
    }
}

impl NetGame for HuntGame {
    type Encoder = HuntEncoder;
    /// None on a described board that its mirror does not map onto itself.
    fn mirror_action_index(&self, action: ActionIndex) -> Option<ActionIndex> {
        self.board().symmetric.then(|| self.mirror_action(action))
    }
}

impl NetGame for ImperialGame {
    type Encoder = ImperialEncoder;
    fn mirror_action_index(&self, action: ActionIndex) -> Option<ActionIndex> {
        Some(self.mirror_action(action))
    }

    /// Square `s` is cell `s` of the 9 × 9 grid and the action index starts with the from-square, so
    /// the moves of one square are one cell's `kinds`.
    fn policy_head(&self) -> PolicyHead {
        PolicyHead::PerCell { kinds: self.facts().action_count / crate::game::imperial::board::SQUARES }
    }
}

/// Chess has no symmetry the rules keep: castling tells the wings apart.
impl NetGame for ChessGame {
    type Encoder = ChessEncoder;

    fn mirror_action_index(&self, _action: ActionIndex) -> Option<ActionIndex> {
        None
    }

    /// Square `s` (rank × 8 + file) is cell `s` of the 8 × 8 grid and every action starts with its
    /// origin square, as in AlphaZero's chess head.
    fn policy_head(&self) -> PolicyHead {
        PolicyHead::PerCell { kinds: crate::game::chess::notation::KINDS_PER_SQUARE }
    }
}
