//! The balance lab: studies that compare rule variants across skill levels.
//!
//! - [`study`]: the study file (TOML) and its checks;
//! - [`openings`]: each variant's book of openings that keep the start's value;
//! - [`schedule`]: cells (variant × skill), each agent playing itself with seats alternating, and the
//!   rungs' cross-play in opening pairs;
//! - [`fingerprint`]: fingerprints of the rules' and agents' behaviour that key the cells;
//! - [`store`]: finished cells saved atomically, so a stopped study resumes;
//! - [`analysis`]: the numbers of one game (result, length, captures, chess features);
//! - [`adjudicate`]: games stopped at a ply cap decided by a judge's values over their last plies;
//! - [`aggregate`]: a cell's totals, scores with Wilson intervals, rates and means;
//! - [`compare`]: differences between variants (Newcombe) and their significance;
//! - [`ratings`]: Bradley–Terry ratings of the rungs from their cross-play;
//! - [`solve`]: exact values (tables: start, best-play line, positions by piece count; else the
//!   MCTS-solver), and the rungs' games judged against the tables;
//! - [`positions`]: claims' measures read from the tables over positions (every one, or the games');
//! - [`decide`]: how every test turns intervals into a verdict, a p value and the games it needs;
//! - [`sequential`]: group-sequential looks with alpha spending, for claims that run until they decide;
//! - [`sprt`]: the sequential probability ratio test on game pairs that accepts a change to an agent;
//! - [`sprt_match`]: a match played in game pairs until that test decides, and agent A's score in a match;
//! - [`claims`]: claim tests read on each kind of evidence, and the verdicts;
//! - [`family`]: one multiplicity family across the findings table of several studies;
//! - [`amendments`]: changes to claims after their games, on the record and enforced;
//! - [`runner`]: plays what is missing, grows sequential cells, and gathers the results;
//! - [`settle`]: what each open claim would take to decide, in games and CPU hours, against the
//!   study's budget;
//! - [`verify`]: a finished study's record checked against the code and the evidence it names;
//! - [`reread`]: a finished study's claims read again from its record, playing nothing;
//! - [`report`], [`charts`]: report.md, results.json, games.jsonl and SVG charts;
//! - [`sweep`], [`sweep_report`]: a ruleset solved exactly over one or two rule keys' values, and its
//!   report (where the balance turns);
//! - [`stats`]: Wilson, Newcombe, means, clustered and paired samples, quantiles, Holm.

pub mod adjudicate;
pub mod aggregate;
pub mod amendments;
pub mod analysis;
pub mod charts;
pub mod claims;
pub mod compare;
pub mod decide;
pub mod family;
pub mod fingerprint;
pub mod openings;
pub mod positions;
pub mod ratings;
pub mod report;
pub mod reread;
pub mod runner;
pub mod schedule;
pub mod sequential;
pub mod settle;
pub mod solve;
pub mod sprt;
pub mod sprt_match;
pub mod stats;
pub mod store;
pub mod study;
pub mod sweep;
pub mod sweep_report;
pub mod verify;

pub use runner::{
    Finished, Progress, RunOptions, Silent, StudyResults, UnknownCell, missing_cells, run_cell, run_study,
};
pub use study::{LoadedStudy, Study};
