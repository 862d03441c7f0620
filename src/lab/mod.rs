//! The balance lab: studies that compare rule variants across skill levels.
//!
//! - [`study`]: the study file (TOML) and its checks;
//! - [`schedule`]: cells (variant × skill), each agent playing itself with seats alternating;
//! - [`store`]: finished cells saved atomically, so a stopped study resumes;
//! - [`analysis`]: the numbers of one game (result, length, captures, chess features);
//! - [`aggregate`]: a cell's totals, scores with Wilson intervals, rates and means;
//! - [`compare`]: differences between variants (Newcombe) and their significance;
//! - [`claims`]: claim tests and verdicts;
//! - [`solve`]: solver proofs of start positions;
//! - [`runner`]: plays what is missing and gathers the results;
//! - [`report`], [`charts`]: report.md, results.json, games.jsonl and SVG charts;
//! - [`stats`]: Wilson, Newcombe and normal intervals.

pub mod aggregate;
pub mod analysis;
pub mod charts;
pub mod claims;
pub mod compare;
pub mod fingerprint;
pub mod ratings;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod solve;
pub mod stats;
pub mod store;
pub mod study;

pub use runner::{
    Finished, Progress, RunOptions, Silent, StudyResults, UnknownCell, missing_cells, run_cell, run_study,
};
pub use study::{LoadedStudy, Study};
