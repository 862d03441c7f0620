//! One integration-test binary (ripgrep's habit): each module tests one area through the public API.

mod balance;
mod chess_rules;
mod chess_variant_reference;
mod cli;
mod ecosystem;
mod golden;
mod hunt_reference;
mod hunt_rules;
mod imperial_rules;
mod perft_vectors;
mod readme;
mod robustness;
mod search;
mod testkit_runs;
mod training;
