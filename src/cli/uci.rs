//! `rebel-zero uci`: the project's chess agents as a UCI engine on standard input and output. The
//! protocol, the search thread and the clock are [`crate::serve::uci`]'s; this reads the arguments.

use std::sync::{Arc, Mutex};

use clap::Args;

use crate::serve::uci::{Engine, Shared};

#[derive(Args, Debug)]
pub struct UciArgs {
    /// Seed of the engine's random choices (agents that draw moves; each `go` derives its own).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &UciArgs) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let out: Shared = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    Engine::new(args.seed).serve(&mut stdin.lock(), out)
}
