//! Games being played in the browser: a person against an agent. Each game keeps its ruleset, the
//! moves played (as text; the position is replayed from them when needed) and, while the agent thinks,
//! the [`Watch`] of its search. A search runs on a blocking thread once a core is free; its move is
//! played only if the game has not changed since it began (an undo, a resignation or closing the game
//! stops it and discards it).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::Semaphore;

use super::error::{ApiError, BadRequest};
use super::position::{PositionView, replay, view};
use crate::agents::{AgentSpec, Watch};
use crate::game::{AnyGame, Game, GameRecord, Side};
use crate::seed::derive_seed;
use crate::with_game;

/// One game in progress.
struct OpenGame {
    game: AnyGame,
    moves: Vec<String>,
    /// The person's side; the agent plays the other.
    human: Side,
    agent: AgentSpec,
    seed: u64,
    resigned: bool,
    /// The agent's search while it runs.
    thinking: Option<Arc<Watch>>,
    /// Counts every change of the game, so a search begun before one is discarded.
    version: u64,
    /// What the agent said of its last move.
    note: Option<String>,
    /// Why the agent could not move.
    error: Option<String>,
    /// The game's number in the played-games file, once it is saved there.
    saved_as: Option<usize>,
    last_used: Instant,
}

impl OpenGame {
    fn line_view(&self) -> PositionView {
        with_game!(&self.game, |g| view(
            &replay(g, None, &self.moves).expect("an open game's moves are legal")
        ))
    }

    /// Whether the game has ended, by the rules or by resignation.
    fn is_over(&self) -> bool {
        self.resigned || self.line_view().outcome.is_some()
    }

    fn agent_to_move(&self, view: &PositionView) -> bool {
        view.outcome.is_none() && !self.resigned && view.to_move != self.human.index()
    }

    /// The game as a record for the played-games file.
    fn record(&self) -> GameRecord {
        let names = with_game!(&self.game, |g| g.side_names());
        let agents = BTreeMap::from([
            (names[self.human.index()].to_string(), "human".to_string()),
            (names[self.human.opponent().index()].to_string(), self.agent.to_string()),
        ]);
        let mut record = with_game!(&self.game, |g| GameRecord::of_line(
            &replay(g, None, &self.moves).expect("an open game's moves are legal"),
            agents,
            self.seed
        ));
        if self.resigned {
            record.winner = Some(names[self.human.opponent().index()].to_string());
            record.reason = "resignation".to_string();
        }
        record
    }
}

/// A game as the page sees it.
#[derive(Debug, Serialize)]
pub struct GameView {
    pub id: u64,
    #[serde(flatten)]
    pub position: PositionView,
    pub human: usize,
    pub agent: String,
    pub seed: u64,
    /// The agent's search while it runs: simulations done of those planned (0 of 0 while it waits
    /// for a free core).
    pub thinking: Option<Progress>,
    pub note: Option<String>,
    pub error: Option<String>,
    pub resigned: bool,
    /// Games open on the server now, and the most it keeps: when it is full, opening another closes
    /// the least recently used idle one, perhaps this.
    pub open_games: usize,
    pub max_open_games: usize,
    pub saved_as: Option<usize>,
}

#[derive(Debug, Serialize)]
pub struct Progress {
    pub done: u32,
    pub planned: u32,
}

/// Games open at once; opening one more closes the least recently used idle one.
pub const MAX_OPEN_GAMES: usize = 32;

/// Every open game, and what their agents' searches share with the server.
pub struct OpenGames {
    inner: Mutex<Inner>,
    /// Games get their seeds from this one, in the order they are opened.
    seed: u64,
    /// The server's permits for searches, one per core.
    searches: Arc<Semaphore>,
    think_limit: Duration,
    /// Where finished games are appended.
    played: PathBuf,
}

#[derive(Default)]
struct Inner {
    games: HashMap<u64, OpenGame>,
    opened: u64,
    /// The games closed to make room for newer ones (the latest [`EVICTIONS_REMEMBERED`]), so that a
    /// page still showing one is told why it is gone.
    evicted: std::collections::BTreeSet<u64>,
}

/// Closed games remembered as closed to make room.
const EVICTIONS_REMEMBERED: usize = 4096;

impl Inner {
    /// Game `id`, or why there is none: 410 for a game closed to make room, 404 otherwise.
    fn game(&mut self, id: u64) -> Result<&mut OpenGame, ApiError> {
        if self.evicted.contains(&id) {
            return Err(ApiError {
                status: axum::http::StatusCode::GONE,
                message: format!(
                    "game {id} was closed to make room for newer games ({MAX_OPEN_GAMES} are kept open at \
                     once, the least recently used closed first); start a new one"
                ),
            });
        }
        self.games.get_mut(&id).ok_or_else(|| ApiError::not_found(format!("no open game {id}")))
    }
}

/// What a request to open a game asks for, its ruleset and agent already checked against the files
/// the server may read.
pub struct NewGame {
    pub game: AnyGame,
    /// The person's side by name; by default the side that moves first.
    pub side: Option<String>,
    /// The opponent; by default the strongest shipped agent for the ruleset.
    pub agent: Option<AgentSpec>,
    pub seed: Option<u64>,
}

impl OpenGames {
    /// No games yet: their seeds come from `seed`, their agents' searches take a permit of
    /// `searches` and think for at most `think_limit`, and finished games are appended to `played`.
    pub fn new(seed: u64, searches: Arc<Semaphore>, think_limit: Duration, played: PathBuf) -> OpenGames {
        OpenGames { inner: Mutex::new(Inner::default()), seed, searches, think_limit, played }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Stops every search (the server is shutting down).
    pub fn stop_all(&self) {
        for game in self.lock().games.values() {
            if let Some(watch) = &game.thinking {
                watch.stop();
            }
        }
    }

    pub fn count(&self) -> usize {
        self.lock().games.len()
    }

    fn view(id: u64, game: &OpenGame, open_games: usize) -> GameView {
        GameView {
            id,
            position: game.line_view(),
            human: game.human.index(),
            agent: game.agent.to_string(),
            seed: game.seed,
            thinking: game.thinking.as_ref().map(|w| Progress {
                done: w.done.load(Ordering::Relaxed),
                planned: w.planned.load(Ordering::Relaxed),
            }),
            note: game.note.clone(),
            error: game.error.clone(),
            resigned: game.resigned,
            saved_as: game.saved_as,
            open_games,
            max_open_games: MAX_OPEN_GAMES,
        }
    }

    /// Runs `change` on game `id` (404 when it is not open), then starts the agent if it is to move,
    /// saves the game if it has just ended, and returns the game's view.
    fn update(
        self: &Arc<Self>,
        id: u64,
        change: impl FnOnce(&mut OpenGame) -> Result<(), ApiError>,
    ) -> Result<GameView, ApiError> {
        let mut inner = self.lock();
        let open_games = inner.games.len();
        let game = inner.game(id)?;
        let was_over = game.is_over();
        change(game)?;
        game.last_used = Instant::now();
        let position = game.line_view();
        if game.agent_to_move(&position) && game.thinking.is_none() && game.error.is_none() {
            start_thinking(self, id, game);
        }
        let to_save = (!was_over && game.is_over() && game.saved_as.is_none()).then(|| game.record());
        if let Some(record) = to_save {
            match crate::game::record::append_record(&self.played, &record) {
                Ok(index) => game.saved_as = Some(index),
                Err(e) => game.error = Some(format!("could not save the game: {e:#}")),
            }
        }
        Ok(Self::view(id, game, open_games))
    }

    /// Opens a game; the agent starts thinking at once if its side moves first.
    pub fn open(self: &Arc<Self>, request: NewGame) -> Result<GameView, ApiError> {
        let NewGame { game, side, agent, seed } = request;
        let chosen: Result<(Side, AgentSpec), BadRequest> = with_game!(&game, |g| {
            let human = match &side {
                None => g.to_move(&g.start()),
                Some(name) => crate::game::side_by_name(g, name).ok_or_else(|| {
                    BadRequest(format!(
                        "`{name}` is not a side of {}; its sides are {}",
                        g.spec(),
                        g.side_names().join(", ")
                    ))
                })?,
            };
            let agent = agent.unwrap_or_else(|| AgentSpec::strongest_shipped(&game));
            // Built once now so a network that does not fit the ruleset is refused here, not later.
            agent.build(g, 0).map_err(|e| BadRequest(e.to_string()))?;
            Ok((human, agent))
        });
        let (human, agent) = chosen?;
        let mut inner = self.lock();
        inner.opened += 1;
        let id = inner.opened;
        let seed = seed.unwrap_or_else(|| derive_seed(self.seed, id));
        if inner.games.len() >= MAX_OPEN_GAMES {
            let idle =
                inner.games.iter().filter(|(_, g)| g.thinking.is_none()).min_by_key(|(_, g)| g.last_used);
            match idle.map(|(&id, _)| id) {
                Some(oldest) => {
                    inner.games.remove(&oldest);
                    inner.evicted.insert(oldest);
                    if inner.evicted.len() > EVICTIONS_REMEMBERED {
                        inner.evicted.pop_first();
                    }
                }
                None => {
                    return Err(ApiError::busy(format!(
                        "{MAX_OPEN_GAMES} games are thinking; try again soon"
                    )));
                }
            };
        }
        let open = OpenGame {
            game,
            moves: Vec::new(),
            human,
            agent,
            seed,
            resigned: false,
            thinking: None,
            version: 0,
            note: None,
            error: None,
            saved_as: None,
            last_used: Instant::now(),
        };
        inner.games.insert(id, open);
        drop(inner);
        self.update(id, |_| Ok(()))
    }

    pub fn get(self: &Arc<Self>, id: u64) -> Result<GameView, ApiError> {
        self.update(id, |_| Ok(()))
    }

    /// The person's move.
    pub fn play(self: &Arc<Self>, id: u64, text: &str) -> Result<GameView, ApiError> {
        self.update(id, |game| {
            if game.thinking.is_some() {
                return Err(ApiError::busy("the agent is thinking; wait for its move"));
            }
            if game.resigned {
                return Err(BadRequest("the game is over: resigned".to_string()).into());
            }
            let position = game.line_view();
            if position.outcome.is_none() && position.to_move != game.human.index() {
                return Err(BadRequest("it is the agent's turn".to_string()).into());
            }
            let played = with_game!(&game.game, |g| {
                let mut line = replay(g, None, &game.moves)?;
                line.play_text(text)
                    .map(|mv| g.format_move(&line.states()[line.states().len() - 2], mv))
                    .map_err(|e| BadRequest(e.to_string()))
            })?;
            game.moves.push(played);
            game.version += 1;
            game.error = None;
            Ok(())
        })
    }

    /// Takes back the person's last move and the agent's reply to it (stopping the agent if it is
    /// still thinking about that reply).
    pub fn undo(self: &Arc<Self>, id: u64) -> Result<GameView, ApiError> {
        self.update(id, |game| {
            if let Some(watch) = game.thinking.take() {
                watch.stop();
            }
            game.version += 1;
            game.resigned = false;
            game.error = None;
            game.saved_as = None;
            let human_moved = |game: &OpenGame, ply: usize| {
                let mover = with_game!(&game.game, |g| {
                    let line = replay(g, None, &game.moves[..ply]).expect("legal");
                    g.to_move(line.state())
                });
                mover == game.human
            };
            let before = game.moves.len();
            while let Some(ply) = game.moves.len().checked_sub(1) {
                game.moves.pop();
                if human_moved(game, ply) {
                    break;
                }
            }
            if game.moves.len() == before {
                return Err(BadRequest("nothing to undo".to_string()).into());
            }
            Ok(())
        })
    }

    pub fn resign(self: &Arc<Self>, id: u64) -> Result<GameView, ApiError> {
        self.update(id, |game| {
            if game.is_over() {
                return Err(BadRequest("the game is already over".to_string()).into());
            }
            if let Some(watch) = game.thinking.take() {
                watch.stop();
            }
            game.version += 1;
            game.resigned = true;
            Ok(())
        })
    }

    pub fn close(&self, id: u64) -> Result<(), ApiError> {
        let game = self.lock().games.remove(&id);
        let game = game.ok_or_else(|| ApiError::not_found(format!("no open game {id}")))?;
        if let Some(watch) = game.thinking {
            watch.stop();
        }
        Ok(())
    }
}

/// Starts the agent's search for game `id` in the background. It waits for a free core, thinks
/// within the server's time limit, and plays its move unless the game changed meanwhile.
fn start_thinking(games: &Arc<OpenGames>, id: u64, game: &mut OpenGame) {
    let watch = Arc::new(Watch::default());
    game.thinking = Some(watch.clone());
    let (any, agent, moves, version) =
        (game.game.clone(), game.agent.clone(), game.moves.clone(), game.version);
    let seed = derive_seed(game.seed, moves.len() as u64);
    let games = games.clone();
    tokio::spawn(async move {
        let Ok(_permit) = games.searches.acquire().await else { return };
        if watch.is_stopped() {
            return;
        }
        watch.start_clock(Instant::now() + games.think_limit);
        let thinker = watch.clone();
        let chosen = tokio::task::spawn_blocking(move || {
            let chosen: Result<(String, Option<String>), String> = with_game!(&any, |g| {
                let line = replay(g, None, &moves).map_err(|e| e.0)?;
                let mut agent = agent.build(g, seed).map_err(|e| e.to_string())?;
                let mv = agent.choose_watched(&line, &thinker);
                Ok((g.format_move(line.state(), mv), agent.last_note()))
            });
            chosen
        })
        .await
        .unwrap_or_else(|e| Err(format!("the agent failed: {e}")));
        let _ = games.update(id, |game| {
            if game.version != version {
                return Ok(()); // undone, resigned or restarted while it thought
            }
            game.thinking = None;
            match chosen {
                Ok((mv, note)) => {
                    game.moves.push(mv);
                    game.version += 1;
                    game.note = note;
                }
                Err(problem) => game.error = Some(problem),
            }
            Ok(())
        });
    });
}
