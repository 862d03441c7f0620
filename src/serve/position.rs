//! A position as the page sees it (board, pieces, legal moves, result) and what the lab knows about it
//! (the network's win/draw/loss, a search's top moves, the tablebase's exact values).

use std::path::Path;

use serde::Serialize;

use super::board::{Drawable, Drawing, PieceView};
use super::error::BadRequest;
use crate::agents::{AgentSpec, Watch};
use crate::family::Family;
use crate::family::hunt_of;
use crate::game::hunt::HuntGame;
use crate::game::{AnyGame, Game, Playthrough, describe_outcome};
use crate::nn::NetEvaluator;
use crate::search::{Evaluations, Evaluator, LeafBatch};
use crate::tablebase::shared_table;
use crate::tablebase::{CachedTable, cached_table};
use crate::with_game;

/// A position and everything needed to draw it and play on from it.
#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    pub spec: String,
    pub sides: [&'static str; 2],
    pub board: Drawing,
    pub pieces: Vec<PieceView>,
    /// The side to move's index.
    pub to_move: usize,
    /// The moves played from the start position, in notation, from ply `moves_from` on (an open game
    /// asked `?since=N` leaves out the moves before ply N, which the asker has).
    pub moves: Vec<String>,
    /// The same moves as a move list shows them (SAN for chess).
    pub move_labels: Vec<String>,
    /// The ply of the first move in `moves`: 0, or the `since` asked for (less where moves were taken
    /// back since).
    pub moves_from: usize,
    /// Pieces on the board, and pieces taken since the start position, by side.
    pub counts: [usize; 2],
    pub taken: [usize; 2],
    /// The last move's two cells.
    pub last: Option<[usize; 2]>,
    pub legal: Vec<MoveView>,
    /// "rebels win by blockade", "draw by repetition"; `None` while the game goes on.
    pub outcome: Option<String>,
    /// The winner's index, when the game was won.
    pub winner: Option<usize>,
}

/// A legal move: its notation and the two cells it is played with.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    pub text: String,
    pub from: usize,
    pub to: usize,
}

pub fn view<G: Drawable>(line: &Playthrough<G>) -> PositionView {
    view_of(line, line.move_texts(), move_labels(line), 0)
}

/// The moves of `line` as a move list shows them (SAN for chess).
pub fn move_labels<G: Drawable>(line: &Playthrough<G>) -> Vec<String> {
    let game = line.game();
    line.moves().iter().zip(line.states()).map(|(&mv, before)| game.move_label(before, mv)).collect()
}

/// The view of `line` given its moves from ply `moves_from` on, in notation and as a move list shows
/// them (kept by an open game as it is played, so a look at a long game formats no move again).
pub fn view_of<G: Drawable>(
    line: &Playthrough<G>,
    moves: Vec<String>,
    move_labels: Vec<String>,
    moves_from: usize,
) -> PositionView {
    let game = line.game();
    let state = line.state();
    let plies = line.moves().len();
    let last = plies.checked_sub(1).map(|i| game.move_ends(&line.states()[i], line.moves()[i]));
    let legal = line
        .legal_moves()
        .iter()
        .map(|&mv| {
            let [from, to] = game.move_ends(state, mv);
            MoveView { text: game.format_move(state, mv), from, to }
        })
        .collect();
    let outcome = line.outcome();
    let by_side = |state: &G::State| {
        game.pieces(state).iter().fold([0usize; 2], |mut n, p| {
            n[p.side] += 1;
            n
        })
    };
    let (counts, at_start) = (by_side(state), by_side(line.start()));
    PositionView {
        spec: game.spec().to_string(),
        sides: game.side_names(),
        board: game.drawing(),
        pieces: game.pieces(state),
        to_move: game.to_move(state).index(),
        moves,
        move_labels,
        moves_from,
        counts,
        taken: [0, 1].map(|side| at_start[side].saturating_sub(counts[side])),
        last,
        legal,
        outcome: outcome.map(|o| describe_outcome(game, &o)),
        winner: outcome.and_then(|o| o.winner).map(|s| s.index()),
    }
}

/// The game after `moves` from `start` (the ruleset's start position when `None`); an error names the
/// move that fails and why.
pub fn replay<G: Game>(
    game: &G,
    start: Option<&str>,
    moves: &[String],
) -> Result<Playthrough<G>, BadRequest> {
    let state = match start {
        Some(text) => game.parse_position(text).map_err(|e| BadRequest(format!("start position: {e}")))?,
        None => game.start(),
    };
    if moves.len() > game.max_plies() as usize {
        return Err(BadRequest(format!(
            "{} moves: more than the game's cap of {}",
            moves.len(),
            game.max_plies()
        )));
    }
    let mut line = Playthrough::from_position(game.clone(), state);
    for (ply, text) in moves.iter().enumerate() {
        line.play_text(text).map_err(|e| BadRequest(format!("move {} (`{text}`): {e}", ply + 1)))?;
    }
    Ok(line)
}

/// What the lab knows about a position for its side to move.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The agent whose search gave `top`.
    pub agent: String,
    /// The network's own win/draw/loss estimate, before any search (net agents only).
    pub network: Option<Wdl>,
    /// The search's value, −1..1.
    pub value: Option<f32>,
    pub simulations: u32,
    /// The most visited moves first.
    pub top: Vec<MoveStat>,
    /// Each legal move's exact value by the tablebase (sixteen-rebels with its table built).
    pub table: Option<Vec<TableMove>>,
    /// Why there is no table column, when the ruleset is one a table could solve.
    pub table_note: Option<String>,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct Wdl {
    pub win: f32,
    pub draw: f32,
    pub loss: f32,
}

#[derive(Clone, Debug, Serialize)]
pub struct MoveStat {
    #[serde(rename = "move")]
    pub text: String,
    pub visits: u32,
    pub value: Option<f32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TableMove {
    #[serde(rename = "move")]
    pub text: String,
    /// "win in 5 plies", "draw", "loss in 12 plies": for the side that plays the move.
    pub verdict: String,
}

/// Analyses the position `moves` reach from `start` (else the start) in `game`: the agent's view
/// (searching within `watch`'s limits) and, on a hunt board, each move's verdict from its table.
pub fn analyse(
    game: &AnyGame,
    start: Option<&str>,
    moves: &[String],
    agent: &AgentSpec,
    watch: &Watch,
) -> Result<Analysis, BadRequest> {
    let mut analysis = with_game!(game, |g| search(&replay(g, start, moves)?, agent, watch))?;
    if let Some(hunt) = hunt_of(game) {
        let line = replay(hunt, start, moves)?;
        if !line.is_over() {
            match table_moves(hunt, line.state()) {
                Ok(moves) => analysis.table = moves,
                Err(note) => analysis.table_note = Some(note),
            }
        }
    }
    Ok(analysis)
}

/// The network's and the search's view of the position `line` ends in.
fn search<G: Family>(
    line: &Playthrough<G>,
    agent: &AgentSpec,
    watch: &Watch,
) -> Result<Analysis, BadRequest> {
    let game = line.game();
    let state = line.state();
    let mut analysis = Analysis {
        agent: agent.to_string(),
        network: None,
        value: None,
        simulations: 0,
        top: Vec::new(),
        table: None,
        table_note: None,
    };
    if line.is_over() {
        return Ok(analysis);
    }
    if let AgentSpec::Net(settings) = agent {
        let checkpoint = settings.checkpoint_for(game).map_err(BadRequest)?;
        analysis.network = Some(network_wdl(game, line, &checkpoint)?);
    }
    let mut searcher = agent.build(game, 1).map_err(|e| BadRequest(e.to_string()))?;
    searcher.choose_watched(line, watch);
    analysis.simulations = watch.done.load(std::sync::atomic::Ordering::Relaxed);
    let root = searcher.last_root();
    let visits: u32 = root.iter().map(|r| r.1).sum();
    if visits > 0 {
        let weighted: f32 = root.iter().filter_map(|&(_, n, q)| q.map(|q| q * n as f32)).sum();
        analysis.value = Some(weighted / visits as f32);
    }
    analysis.top = root
        .into_iter()
        .take(8)
        .map(|(mv, visits, value)| MoveStat { text: game.format_move(state, mv), visits, value })
        .collect();
    Ok(analysis)
}

/// The network's win/draw/loss for the side to move in the position `line` ends in.
fn network_wdl<G: Family>(game: &G, line: &Playthrough<G>, checkpoint: &Path) -> Result<Wdl, BadRequest> {
    let net = crate::nn::load_for_inference(checkpoint, game, crate::nn::Precision::default())
        .map_err(|e| BadRequest(format!("{}: {e}", checkpoint.display())))?;
    let mut evaluator = NetEvaluator::new(game, net);
    let mut leaves = LeafBatch::<G>::default();
    leaves.push(line.state(), line.plies(), line.legal_moves().iter().copied());
    let mut out = Evaluations::default();
    out.prepare(&leaves);
    evaluator.evaluate(game, &leaves, &mut out);
    let (value, draw) = (out.values[0], out.draws[0]);
    Ok(Wdl { win: (1.0 + value - draw) / 2.0, draw, loss: (1.0 - value - draw) / 2.0 })
}

/// Each legal move's verdict from the table of `game`'s rules, `Ok(None)` for rules no table solves,
/// and an error note when the table could solve them but has not been built.
fn table_moves(game: &HuntGame, state: &<HuntGame as Game>::State) -> Result<Option<Vec<TableMove>>, String> {
    let path = match cached_table(game) {
        CachedTable::Unsolvable(_) => return Ok(None),
        CachedTable::Missing(_) => {
            return Err(format!(
                "no tablebase for these rules yet: `rebel-zero solve {}` builds it",
                game.spec()
            ));
        }
        CachedTable::Built(path) => path,
    };
    let table = shared_table(game, &path).map_err(|e| e.to_string())?;
    let moves = table.move_verdicts(state);
    Ok(Some(
        moves
            .into_iter()
            .map(|(mv, verdict)| TableMove {
                text: game.format_move(state, mv),
                verdict: verdict.map_or("not in the table".to_string(), |v| v.to_string()),
            })
            .collect(),
    ))
}
