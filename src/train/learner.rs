//! The learner: Adam steps on the policy cross-entropy plus the value loss (the win/draw/loss
//! cross-entropy, or AlphaZero's squared error of the expected score), with L2 regularisation as Adam's
//! weight decay, run by the training step of our own ([`crate::nn::backprop`]) on a network that burn
//! defines, initialises and saves.

use burn::prelude::*;

use super::config::{OptimizerConfig, ValueTarget};
use super::replay::Batch;
pub use crate::nn::backprop::StepLosses;
use crate::nn::backprop::{Examples, TrainNet, ValueLoss};
use crate::nn::{NetShape, PolicyValueNet};

pub struct Learner {
    /// burn's network: its structure and parameter ids, for checkpoints and inference.
    net: PolicyValueNet,
    train: TrainNet,
    learning_rate: f64,
    weight_decay: f32,
    value_loss: ValueLoss,
}

impl Learner {
    /// A fresh network, its initial weights drawn from `seed`.
    pub fn new(shape: NetShape, config: &OptimizerConfig, seed: u64) -> Learner {
        let device = Device::flex();
        device.seed(seed);
        Learner::from_net(PolicyValueNet::new(&shape, &device), config)
    }

    /// Continues from saved weights and optimizer state.
    pub fn resume(
        net: PolicyValueNet,
        optimizer_state: Option<&[u8]>,
        shape: NetShape,
        config: &OptimizerConfig,
    ) -> Result<Learner, String> {
        assert_eq!(net.shape(), shape, "the caller checked the checkpoint's shape");
        let mut learner = Learner::from_net(net, config);
        if let Some(bytes) = optimizer_state {
            learner
                .train
                .load_optimizer(bytes)
                .map_err(|e| format!("the optimizer state does not load: {e}"))?;
        }
        Ok(learner)
    }

    fn from_net(net: PolicyValueNet, config: &OptimizerConfig) -> Learner {
        let value_loss = match config.value_target {
            ValueTarget::Wdl => ValueLoss::Wdl,
            ValueTarget::Scalar => ValueLoss::Scalar,
        };
        Learner {
            train: TrainNet::new(&net),
            net,
            learning_rate: config.learning_rate,
            weight_decay: config.weight_decay,
            value_loss,
        }
    }

    /// The current weights for inference (batch norm on its running statistics).
    pub fn inference_net(&self) -> PolicyValueNet {
        self.train.write_into(self.net.clone())
    }

    /// The Adam state as burn's optimizer record.
    pub fn optimizer_bytes(&self) -> Vec<u8> {
        self.train.optimizer_bytes()
    }

    /// One Adam step on `batch`.
    pub fn step(&mut self, batch: &Batch) -> StepLosses {
        let examples =
            Examples { size: batch.size, input: &batch.input, policy: &batch.policy, wdl: &batch.wdl };
        self.train.step(examples, self.value_loss, self.learning_rate, self.weight_decay)
    }
}
