//! AlphaZero-style training: generations of self-play games fill a replay window, the learner trains on
//! it, every generation is checkpointed, and every few generations the network plays fixed opponents
//! and its predecessor. Metrics go to TensorBoard and `metrics.jsonl`.
//!
//! A generation runs self-play on `selfplay.workers` threads (each batching its games' leaves into one
//! network call), then trains on the main thread; burn spreads each training step over the cores.

pub mod config;
pub mod distributed;
mod evaluation;
pub mod exact;
mod family;
pub mod learner;
pub mod metrics;
mod progress;
pub mod replay;
mod run;
pub mod selfplay;
pub mod tables;
pub mod teacher;
pub mod texel;
mod workers;

pub use config::TrainConfig;
pub use distributed::{SelfPlayBatch, play_batch};
pub use run::{Start, TrainSummary, train};
