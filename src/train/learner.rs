//! The learner: Adam steps on the policy cross-entropy plus the value loss (the win/draw/loss
//! cross-entropy, or AlphaZero's squared error of the expected score), with L2 regularisation as Adam's
//! weight decay.

use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::tensor::activation::{log_softmax, softmax};

use super::config::{OptimizerConfig, ValueTarget};
use super::replay::Batch;
use crate::nn::{NetShape, PolicyValueNet};

/// The losses of one step, averaged over its batch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepLosses {
    pub policy: f64,
    pub value: f64,
    /// The share of positions whose most likely predicted result is the game's result.
    pub value_accuracy: f64,
}

pub struct Learner {
    net: PolicyValueNet,
    optimizer: ModuleOptimizer,
    device: Device,
    shape: NetShape,
    learning_rate: f64,
    value_target: ValueTarget,
}

impl Learner {
    /// A fresh network, its initial weights drawn from `seed`.
    pub fn new(shape: NetShape, config: &OptimizerConfig, seed: u64) -> Learner {
        let device = Device::flex().autodiff();
        device.seed(seed);
        let net = PolicyValueNet::new(&shape, &device);
        Learner::from_net(net, shape, config, device)
    }

    /// Continues from saved weights and optimizer state.
    pub fn resume(
        net: PolicyValueNet,
        optimizer_state: Option<&[u8]>,
        shape: NetShape,
        config: &OptimizerConfig,
    ) -> Result<Learner, String> {
        let device = Device::flex().autodiff();
        let mut learner = Learner::from_net(net.to_device(&device).train(), shape, config, device);
        if let Some(bytes) = optimizer_state {
            let optimizer = std::mem::replace(&mut learner.optimizer, optimizer(config));
            learner.optimizer = optimizer
                .from_bytes(burn::tensor::Bytes::from_bytes_vec(bytes.to_vec()))
                .map_err(|e| format!("the optimizer state does not load: {e}"))?;
        }
        Ok(learner)
    }

    fn from_net(net: PolicyValueNet, shape: NetShape, config: &OptimizerConfig, device: Device) -> Learner {
        let (learning_rate, value_target) = (config.learning_rate, config.value_target);
        Learner { net, optimizer: optimizer(config), device, shape, learning_rate, value_target }
    }

    /// The current weights for inference (no autodiff, batch norm on its running statistics).
    pub fn inference_net(&self) -> PolicyValueNet {
        self.net.valid()
    }

    pub fn optimizer_bytes(&self) -> Vec<u8> {
        self.optimizer.into_bytes().expect("the optimizer state serialises").to_vec()
    }

    /// One Adam step on `batch`.
    pub fn step(&mut self, batch: &Batch) -> StepLosses {
        let n = batch.size;
        let (width, height) = self.shape.grid;
        let input = TensorData::new(batch.input.clone(), [n, self.shape.planes, height, width]);
        let input = Tensor::<4>::from_data(input, &self.device);
        let policy_target = Tensor::<2>::from_data(
            TensorData::new(batch.policy.clone(), [n, self.shape.actions]),
            &self.device,
        );
        let wdl_target = Tensor::<2>::from_data(TensorData::new(batch.wdl.clone(), [n, 3]), &self.device);

        let (policy, value) = self.net.forward(input); // [n, actions], [n, 3]
        let policy_loss = (log_softmax(policy, 1) * policy_target).sum_dim(1).mean().neg(); // [1]
        let value_log = log_softmax(value.clone(), 1); // [n, 3]
        let value_loss = match self.value_target {
            ValueTarget::Wdl => (value_log.clone() * wdl_target.clone()).sum_dim(1).mean().neg(),
            ValueTarget::Scalar => {
                // Win minus loss, predicted and actual: AlphaZero's value in [−1, 1].
                let score = |wdl: Tensor<2>| wdl.clone().narrow(1, 0, 1) - wdl.narrow(1, 2, 1); // [n, 1]
                (score(softmax(value, 1)) - score(wdl_target.clone())).square().mean()
            }
        }; // [1]
        let loss = policy_loss.clone() + value_loss.clone();

        let predicted = value_log.detach().argmax(1); // [n, 1]
        let actual = wdl_target.argmax(1); // [n, 1]
        let correct = predicted.equal(actual).int().sum().into_scalar::<i64>() as f64;

        let gradients = GradientsParams::from_grads(loss.backward(), &self.net);
        self.net = self.optimizer.step(self.learning_rate, self.net.clone(), gradients);
        StepLosses {
            policy: policy_loss.into_scalar::<f32>() as f64,
            value: value_loss.into_scalar::<f32>() as f64,
            value_accuracy: correct / n as f64,
        }
    }
}

fn optimizer(config: &OptimizerConfig) -> ModuleOptimizer {
    AdamConfig::new().with_weight_decay(Some(WeightDecayConfig::new(config.weight_decay))).init()
}
