//! Games being played in the browser: a person against an agent. Each game keeps its line as it is
//! played ([`LiveLine`]: the positions, and the moves in notation and as a move list shows them), so a
//! move or a look costs the same at ply 10 and at ply 10,000; and, while the agent thinks, the
//! [`Watch`] of its search. Each game has its own lock, taken after the short-held lock of the list of
//! games, so a request on one game never waits for another. A search runs on a blocking thread once a
//! core is free; its move is played only if the game has not changed since it began (an undo, a
//! resignation or closing the game stops it and discards it).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::Semaphore;

use super::board::Drawable;
use super::error::{ApiError, BadRequest};
use super::position::{PositionView, move_labels, replay, view_of};
use crate::agents::{AgentSpec, Watch};
use crate::game::{AnyGame, Game, GameRecord, Playthrough, Side};
use crate::seed::derive_seed;
use crate::with_game;

/// An open game's line, whatever its family.
trait LiveLine: Send {
    /// The position, with the moves from ply `since` on (all of them when fewer were played).
    fn view(&self, since: usize) -> PositionView;
    /// Whether the rules have ended the game.
    fn is_over(&self) -> bool;
    fn to_move(&self) -> Side;
    fn plies(&self) -> usize;
    /// Plays a move given in notation.
    fn play(&mut self, text: &str) -> Result<(), BadRequest>;
    /// Takes back the last move; the side that had played it, or `None` at the start.
    fn undo(&mut self) -> Option<Side>;
    fn side_names(&self) -> [&'static str; 2];
    fn record(&self, agents: BTreeMap<String, String>, seed: u64) -> GameRecord;
    /// A copy of the line for an agent to think on: the positions alone, not the move texts, so a
    /// long game is cheap to hand over.
    fn for_thinking(&self) -> Box<dyn Thinking>;
}

/// A line an agent thinks on, on a thread of its own.
trait Thinking: Send {
    /// The agent's move here, in notation, and what it said of it.
    fn think(&self, agent: &AgentSpec, seed: u64, watch: &Watch) -> Result<(String, Option<String>), String>;
}

impl<G: Drawable> Thinking for Playthrough<G> {
    fn think(&self, agent: &AgentSpec, seed: u64, watch: &Watch) -> Result<(String, Option<String>), String> {
        let game = self.game();
        let mut agent = agent.build(game, seed).map_err(|e| e.to_string())?;
        let mv = agent.choose_watched(self, watch);
        Ok((game.format_move(self.state(), mv), agent.last_note()))
    }
}

/// A line with its moves formatted once, as they are played.
struct Kept<G: Drawable> {
    line: Playthrough<G>,
    texts: Vec<String>,
    labels: Vec<String>,
}

impl<G: Drawable> Kept<G> {
    fn new(line: Playthrough<G>) -> Kept<G> {
        Kept { texts: line.move_texts(), labels: move_labels(&line), line }
    }
}

impl<G: Drawable> LiveLine for Kept<G> {
    fn view(&self, since: usize) -> PositionView {
        let from = since.min(self.texts.len());
        view_of(&self.line, self.texts[from..].to_vec(), self.labels[from..].to_vec(), from)
    }

    fn is_over(&self) -> bool {
        self.line.is_over()
    }

    fn to_move(&self) -> Side {
        self.line.game().to_move(self.line.state())
    }

    fn plies(&self) -> usize {
        self.line.moves().len()
    }

    fn play(&mut self, text: &str) -> Result<(), BadRequest> {
        let before = self.line.state().clone();
        let mv = self.line.play_text(text).map_err(|e| BadRequest(e.to_string()))?;
        let game = self.line.game();
        self.texts.push(game.format_move(&before, mv));
        self.labels.push(game.move_label(&before, mv));
        Ok(())
    }

    fn undo(&mut self) -> Option<Side> {
        let ply = self.plies().checked_sub(1)?;
        let mover = self.line.game().to_move(&self.line.states()[ply]);
        self.line.undo();
        self.texts.pop();
        self.labels.pop();
        Some(mover)
    }

    fn side_names(&self) -> [&'static str; 2] {
        self.line.game().side_names()
    }

    fn record(&self, agents: BTreeMap<String, String>, seed: u64) -> GameRecord {
        GameRecord::of_line(&self.line, agents, seed)
    }

    fn for_thinking(&self) -> Box<dyn Thinking> {
        Box::new(self.line.clone())
    }
}

/// One game in progress.
struct OpenGame {
    line: Box<dyn LiveLine>,
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
    /// Closed (or closed to make room) while a request held it: it changes no more.
    closed: bool,
}

impl OpenGame {
    /// Whether the game has ended, by the rules or by resignation.
    fn is_over(&self) -> bool {
        self.resigned || self.line.is_over()
    }

    fn agent_to_move(&self) -> bool {
        !self.is_over() && self.line.to_move() != self.human
    }

    /// The game as a record for the played-games file.
    fn record(&self) -> GameRecord {
        let names = self.line.side_names();
        let agents = BTreeMap::from([
            (names[self.human.index()].to_string(), "human".to_string()),
            (names[self.human.opponent().index()].to_string(), self.agent.to_string()),
        ]);
        let mut record = self.line.record(agents, self.seed);
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

type Shared = Arc<Mutex<OpenGame>>;

/// The list of games: held only to find, add or remove one, never while a game is worked on.
#[derive(Default)]
struct Inner {
    games: HashMap<u64, Shared>,
    opened: u64,
    /// The games closed to make room for newer ones (the latest [`EVICTIONS_REMEMBERED`]), so that a
    /// page still showing one is told why it is gone.
    evicted: std::collections::BTreeSet<u64>,
}

/// Closed games remembered as closed to make room.
const EVICTIONS_REMEMBERED: usize = 4096;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn no_game(id: u64) -> ApiError {
    ApiError::not_found(format!("no open game {id}"))
}

impl Inner {
    /// Game `id`, or why there is none: 410 for a game closed to make room, 404 otherwise.
    fn game(&self, id: u64) -> Result<Shared, ApiError> {
        if self.evicted.contains(&id) {
            return Err(ApiError {
                status: axum::http::StatusCode::GONE,
                message: format!(
                    "game {id} was closed to make room for newer games ({MAX_OPEN_GAMES} are kept open at \
                     once, the least recently used closed first); start a new one"
                ),
            });
        }
        self.games.get(&id).cloned().ok_or_else(|| no_game(id))
    }

    /// Closes the least recently used game whose agent is not thinking (a game a request holds now is
    /// in use, so not a candidate); false when every game is busy.
    fn evict_one(&mut self) -> bool {
        let idle = self
            .games
            .iter()
            .filter_map(|(&id, game)| {
                let game = game.try_lock().ok()?;
                game.thinking.is_none().then_some((id, game.last_used))
            })
            .min_by_key(|&(_, used)| used);
        let Some((oldest, _)) = idle else { return false };
        if let Some(game) = self.games.remove(&oldest) {
            lock(&game).closed = true;
        }
        self.evicted.insert(oldest);
        if self.evicted.len() > EVICTIONS_REMEMBERED {
            self.evicted.pop_first();
        }
        true
    }
}

/// What a request to open a game asks for, its ruleset and agent already checked against the files
/// the server may read.
pub struct NewGame {
    pub game: AnyGame,
    /// The position to start from (the ruleset's start when `None`) and the moves played from it
    /// before the person takes over.
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// The person's side by name; by default the side to move after `moves`.
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
        lock(&self.inner)
    }

    /// Stops every search (the server is shutting down).
    pub fn stop_all(&self) {
        let games: Vec<Shared> = self.lock().games.values().cloned().collect();
        for game in games {
            if let Some(watch) = &lock(&game).thinking {
                watch.stop();
            }
        }
    }

    pub fn count(&self) -> usize {
        self.lock().games.len()
    }

    fn view(id: u64, game: &OpenGame, open_games: usize, since: usize) -> GameView {
        GameView {
            id,
            position: game.line.view(since),
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
    /// saves the game if it has just ended, and returns the game's view with its moves from ply
    /// `since` on.
    fn update(
        self: &Arc<Self>,
        id: u64,
        since: usize,
        change: impl FnOnce(&mut OpenGame) -> Result<(), ApiError>,
    ) -> Result<GameView, ApiError> {
        let (shared, open_games) = {
            let inner = self.lock();
            (inner.game(id)?, inner.games.len())
        };
        let mut game = lock(&shared);
        if game.closed {
            return Err(no_game(id));
        }
        let was_over = game.is_over();
        change(&mut game)?;
        game.last_used = Instant::now();
        if game.agent_to_move() && game.thinking.is_none() && game.error.is_none() {
            start_thinking(self, id, &mut game);
        }
        if !was_over && game.is_over() && game.saved_as.is_none() {
            match crate::game::record::append_record(&self.played, &game.record()) {
                Ok(index) => game.saved_as = Some(index),
                Err(e) => game.error = Some(format!("could not save the game: {e:#}")),
            }
        }
        Ok(Self::view(id, &game, open_games, since))
    }

    /// Opens a game; the agent starts thinking at once if its side is to move.
    pub fn open(self: &Arc<Self>, request: NewGame) -> Result<GameView, ApiError> {
        let NewGame { game, start, moves, side, agent, seed } = request;
        let chosen: Result<(Box<dyn LiveLine>, Side, AgentSpec), BadRequest> = with_game!(&game, |g| {
            let line = replay(g, start.as_deref(), &moves)?;
            let human = match &side {
                None => g.to_move(line.state()),
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
            Ok((Box::new(Kept::new(line)) as Box<dyn LiveLine>, human, agent))
        });
        let (line, human, agent) = chosen?;
        let mut inner = self.lock();
        inner.opened += 1;
        let id = inner.opened;
        let seed = seed.unwrap_or_else(|| derive_seed(self.seed, id));
        if inner.games.len() >= MAX_OPEN_GAMES && !inner.evict_one() {
            return Err(ApiError::busy(format!("{MAX_OPEN_GAMES} games are thinking; try again soon")));
        }
        let open = OpenGame {
            line,
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
            closed: false,
        };
        inner.games.insert(id, Arc::new(Mutex::new(open)));
        drop(inner);
        self.update(id, 0, |_| Ok(()))
    }

    /// Game `id`, with its moves from ply `since` on (here and below).
    pub fn get(self: &Arc<Self>, id: u64, since: usize) -> Result<GameView, ApiError> {
        self.update(id, since, |_| Ok(()))
    }

    /// The person's move.
    pub fn play(self: &Arc<Self>, id: u64, text: &str, since: usize) -> Result<GameView, ApiError> {
        self.update(id, since, |game| {
            if game.thinking.is_some() {
                return Err(ApiError::busy("the agent is thinking; wait for its move"));
            }
            if game.resigned {
                return Err(BadRequest("the game is over: resigned".to_string()).into());
            }
            if !game.line.is_over() && game.line.to_move() != game.human {
                return Err(BadRequest("it is the agent's turn".to_string()).into());
            }
            game.line.play(text)?;
            game.version += 1;
            game.error = None;
            Ok(())
        })
    }

    /// Takes back the person's last move and the agent's reply to it (stopping the agent if it is
    /// still thinking about that reply).
    pub fn undo(self: &Arc<Self>, id: u64, since: usize) -> Result<GameView, ApiError> {
        self.update(id, since, |game| {
            if let Some(watch) = game.thinking.take() {
                watch.stop();
            }
            game.version += 1;
            game.resigned = false;
            game.error = None;
            game.saved_as = None;
            let before = game.line.plies();
            while let Some(mover) = game.line.undo() {
                if mover == game.human {
                    break;
                }
            }
            if game.line.plies() == before {
                return Err(BadRequest("nothing to undo".to_string()).into());
            }
            Ok(())
        })
    }

    pub fn resign(self: &Arc<Self>, id: u64, since: usize) -> Result<GameView, ApiError> {
        self.update(id, since, |game| {
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
        let game = self.lock().games.remove(&id).ok_or_else(|| no_game(id))?;
        let mut game = lock(&game);
        game.closed = true;
        if let Some(watch) = game.thinking.take() {
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
    let (line, agent, version) = (game.line.for_thinking(), game.agent.clone(), game.version);
    let seed = derive_seed(game.seed, game.line.plies() as u64);
    let games = games.clone();
    tokio::spawn(async move {
        let Ok(_permit) = games.searches.acquire().await else { return };
        if watch.is_stopped() {
            return;
        }
        watch.start_clock(Instant::now() + games.think_limit);
        let thinker = watch.clone();
        let chosen = tokio::task::spawn_blocking(move || line.think(&agent, seed, &thinker))
            .await
            .unwrap_or_else(|e| Err(format!("the agent failed: {e}")));
        // Nobody reads this view: it lists no moves.
        let _ = games.update(id, usize::MAX, |game| {
            if game.version != version {
                return Ok(()); // undone, resigned or restarted while it thought
            }
            game.thinking = None;
            match chosen.and_then(|(mv, note)| game.line.play(&mv).map(|()| note).map_err(|e| e.0)) {
                Ok(note) => {
                    game.version += 1;
                    game.note = note;
                }
                Err(problem) => game.error = Some(problem),
            }
            Ok(())
        });
    });
}
