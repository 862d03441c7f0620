//! `rebel-zero serve`: the lab in a browser (and, in [`uci`], the chess agents for chess GUIs). A
//! local web server (axum on tokio) serves one page (plain HTML, CSS and JavaScript embedded in the
//! binary; boards drawn as SVG) and a small JSON API to play any ruleset against any agent, analyse
//! positions and replay recorded games.
//!
//! Why axum: it is the ecosystem's default HTTP server on tokio, small, and gives request-size limits
//! and graceful shutdown for free. The work a request may start is bounded here: searches run on
//! blocking threads, at most one per core at once, each time-limited; one search per game at a time;
//! a cap on open games (the least recently used idle one is closed to make room); a cap on request
//! size; agents may read only files under the folders given on the command line.
//!
//! | module | job |
//! | --- | --- |
//! | [`board`] | each family's drawing: cells, lines, marked regions, pieces, a move's two cells |
//! | [`position`] | a position as the page sees it; analysis (network, search, tablebase) |
//! | [`games`] | games being played: moves, the agent thinking in the background, undo, resign |
//! | [`api`] | the HTTP routes and their checks |
//! | `error` | how a request is refused: status and message |
//! | [`uci`] | the chess agents as a UCI engine for chess GUIs (`rebel-zero uci`): protocol, search thread, clock |

pub mod api;
pub mod board;
mod error;
pub mod games;
mod listen;
pub mod position;
pub mod uci;

pub use error::{ApiError, BadRequest};
pub use games::MAX_OPEN_GAMES;
pub use listen::run;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::agents::AgentSpec;
use crate::game::record::NumberedRecord;
use crate::game::{AnyGame, read_records};

/// How the server runs, from the command line.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub address: SocketAddr,
    /// Games files offered for replay.
    pub games: Vec<PathBuf>,
    /// Folders agents may read networks and tables from (the shipped `checkpoints/` by default).
    pub readable: Vec<PathBuf>,
    /// Where finished games are appended (the data folder's played.jsonl).
    pub played: PathBuf,
    /// The longest an agent thinks about one move, or one analysis runs.
    pub think_limit: Duration,
    /// Games get their seeds from this one, in the order they are opened.
    pub seed: u64,
    /// Host names besides IP addresses and `localhost` that requests may name (`--allow-host`).
    pub allowed_hosts: Vec<String>,
}

/// The largest request body accepted: room for a line of about 50,000 plies (each request body is
/// held whole while it is read, so this times the connection cap bounds the memory bodies take).
pub const MAX_REQUEST_BYTES: usize = 512 * 1024;

/// Everything the handlers share.
pub struct Server {
    pub config: ServeConfig,
    /// `readable`, resolved once.
    readable: Vec<PathBuf>,
    /// Every game of every `--games` file, numbered across the files in order.
    pub records: Vec<(PathBuf, NumberedRecord)>,
    pub games: Arc<games::OpenGames>,
    /// One permit per core: searches beyond that (analyses and the games' agents) wait for one.
    pub searches: Arc<tokio::sync::Semaphore>,
    /// The ruleset listing, made on first request.
    rulesets: std::sync::OnceLock<serde_json::Value>,
}

impl Server {
    /// The server for `config`, with its games files read (an unreadable one is an error naming it).
    pub fn new(config: ServeConfig) -> anyhow::Result<Server> {
        let mut records = Vec::new();
        for path in &config.games {
            let file = read_records(path)?;
            records.extend(file.into_iter().map(|r| (path.clone(), r)));
        }
        let mut readable = Vec::new();
        for dir in &config.readable {
            match std::fs::canonicalize(dir) {
                Ok(dir) => readable.push(dir),
                Err(e) => anyhow::bail!("--checkpoints {}: {e}", dir.display()),
            }
        }
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let searches = Arc::new(tokio::sync::Semaphore::new(cores));
        Ok(Server {
            games: Arc::new(games::OpenGames::new(
                config.seed,
                searches.clone(),
                config.think_limit,
                config.played.clone(),
            )),
            config,
            readable,
            records,
            searches,
            rulesets: std::sync::OnceLock::new(),
        })
    }

    /// The agent a request names, refused when it is a person or reads files outside the folders the
    /// server may read.
    pub fn checked_agent(&self, text: &str) -> Result<AgentSpec, BadRequest> {
        let agent = AgentSpec::parse(text).map_err(|e| BadRequest(e.to_string()))?;
        match &agent {
            AgentSpec::Human => {
                return Err(BadRequest("the opponent must be an agent: you play the other side".to_string()));
            }
            // The shipped networks are the server's own.
            AgentSpec::Net(settings) if settings.path == crate::agents::SHIPPED_PATH => {}
            AgentSpec::Net(settings) => self.check_readable(&settings.checkpoint_dir())?,
            AgentSpec::Perfect { table: Some(path) } => self.check_readable(std::path::Path::new(path))?,
            _ => {}
        }
        Ok(agent)
    }

    /// The ruleset a request names; a `file:` spec only from a folder the server may read.
    pub fn ruleset(&self, spec: &str) -> Result<AnyGame, BadRequest> {
        if let Some(path) = crate::game::hunt::described::spec_path(spec) {
            self.check_readable(&path)?;
        }
        AnyGame::from_spec(spec).map_err(|e| BadRequest(e.to_string()))
    }

    /// Checks that a file an agent would read lies under a folder the server may read. A path outside
    /// them gets the same answer whether or not it exists, so the server tells nobody which files do.
    pub fn check_readable(&self, path: &std::path::Path) -> Result<(), BadRequest> {
        let resolved = resolve(path);
        if !self.readable.iter().any(|dir| resolved.starts_with(dir)) {
            let folders: Vec<String> = self.readable.iter().map(|d| d.display().to_string()).collect();
            return Err(BadRequest(format!(
                "{} is outside the folders this server may read ({}); start it with --checkpoints DIR to add one",
                path.display(),
                if folders.is_empty() { "none".to_string() } else { folders.join(", ") }
            )));
        }
        if !resolved.exists() {
            return Err(BadRequest(format!("{}: no such file or folder", path.display())));
        }
        Ok(())
    }
}

/// Where `path` leads: its longest existing part with links resolved, the rest appended (a `..`
/// there taking a part off), so a path that does not exist is placed as exactly as one that does.
fn resolve(path: &std::path::Path) -> PathBuf {
    use std::path::Component;
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(mut resolved) = std::fs::canonicalize(existing) {
            for part in rest.iter().rev() {
                match part {
                    Component::ParentDir => {
                        resolved.pop();
                    }
                    Component::Normal(name) => resolved.push(name),
                    _ => {}
                }
            }
            return resolved;
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}
