//! `rebel-zero serve [--port 8080] [--bind 127.0.0.1] [--games FILE]…`: the lab in a browser (see
//! [`crate::serve`]).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::common::usage;
use crate::serve::{ServeConfig, run as serve};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. Loopback by default; any other address lets other machines in.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// A games file (a match's or a study's games.jsonl, gzipped or not) to replay; repeatable. By
    /// default the shipped studies' games (docs/studies/*/games.jsonl.gz).
    #[arg(long = "games", value_name = "FILE")]
    games: Vec<PathBuf>,
    /// A folder the server may read networks, tables and rules files (`file:` specs) from, besides
    /// the shipped checkpoints/ and configs/rules/; repeatable. Files elsewhere are refused.
    #[arg(long = "checkpoints", value_name = "DIR")]
    checkpoints: Vec<PathBuf>,
    /// The longest an agent thinks about one move, or an analysis runs, in seconds.
    #[arg(long, default_value_t = 20.0)]
    think_seconds: f64,
    /// Games are seeded from this, in the order they are opened.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A host name requests may use besides IP addresses and `localhost` (a name this machine has on
    /// your network); repeatable. Requests naming any other host are refused, so that a web page
    /// cannot reach the server through a name it controls (DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    if !(args.think_seconds > 0.0 && args.think_seconds <= 3600.0) {
        return Err(usage(anyhow::anyhow!(
            "--think-seconds must be more than 0 and at most 3600, not {}",
            args.think_seconds
        )));
    }
    for path in &args.games {
        if !path.is_file() {
            return Err(usage(anyhow::anyhow!("--games {}: no such file", path.display())));
        }
    }
    for dir in &args.checkpoints {
        if !dir.is_dir() {
            return Err(usage(anyhow::anyhow!("--checkpoints {}: no such folder", dir.display())));
        }
    }
    let shipped =
        ["checkpoints", "configs/rules"].map(|dir| crate::files::find_shipped(std::path::Path::new(dir)));
    let readable =
        shipped.into_iter().filter(|dir| dir.is_dir()).chain(args.checkpoints.iter().cloned()).collect();
    let games = if args.games.is_empty() { shipped_studies() } else { args.games.clone() };
    serve(ServeConfig {
        address: SocketAddr::new(args.bind, args.port),
        games,
        readable,
        played: crate::files::data_dir().join(super::play::PLAYED_FILE),
        think_limit: Duration::from_secs_f64(args.think_seconds),
        seed: args.seed,
        allowed_hosts: args.allow_host.clone(),
    })
}

/// The games of the studies shipped in docs/studies/, in name order.
fn shipped_studies() -> Vec<PathBuf> {
    let studies = crate::files::find_shipped(std::path::Path::new("docs/studies"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(studies)
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .map(|e| e.path().join("games.jsonl.gz"))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}
