//! rebel-zero: a self-play lab that measures the balance of historical hunt games and Betza's chess
//! variants. Layers, lowest first (each uses only those before it): `files`, `memory`, `seed` →
//! `game` → `tablebase` → `search` → `eval` → `nn` → `family` → `agents` → `train`, `lab`, `serve` →
//! `cli`. See README.md.

pub mod agents;
pub mod cli;
pub mod eval;
pub mod family;
pub mod files;
pub mod game;
pub mod lab;
pub mod memory;
pub mod nn;
pub mod search;
pub mod seed;
pub mod serve;
pub mod tablebase;
pub mod train;
