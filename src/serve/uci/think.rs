//! A `go` searched on a thread of its own: the alpha-beta search reporting each iteration, or another
//! agent reporting its most visited moves, each writing `info` lines and its `bestmove`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::agents::alphabeta::{AbAgent, centipawns_of};
use crate::agents::{AgentSpec, Watch};
use crate::game::chess::ChessGame;
use crate::game::{Game, Playthrough};
use crate::search::alphabeta::{Iteration, Limits, Score};

/// Where the engine writes: shared by the reader and the search thread.
pub type Shared = Arc<Mutex<Box<dyn Write + Send>>>;

pub(super) fn say(out: &Shared, line: &str) {
    let mut out = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// What a search thread is given: the position, its limits, its stop flag, whether its `bestmove` is
/// held back (an infinite or pondering search), and where it writes.
pub(super) struct Job {
    pub(super) line: Playthrough<ChessGame>,
    pub(super) limits: Limits,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) held: Arc<AtomicBool>,
    pub(super) out: Shared,
}

impl Job {
    /// Waits while the `bestmove` is held back and the search is not stopped.
    pub(super) fn wait_while_held(&self) {
        while self.held.load(Ordering::Relaxed) && !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// The alpha-beta search of the job's position on its thread: an `info` line for each line of each
/// iteration, then `bestmove`, with the reply its best line expects; gives the searcher back.
pub(super) fn spawn_alphabeta(
    mut searcher: AbAgent<ChessGame>,
    job: Job,
) -> JoinHandle<Option<AbAgent<ChessGame>>> {
    std::thread::spawn(move || {
        let Job { line, limits, out, .. } = &job;
        let mut best_line = Vec::new();
        let found = searcher.searcher().search(line, limits.clone(), &mut |it| {
            if it.line == 1 {
                best_line.clone_from(&it.pv);
            }
            say(out, &info(line, it));
        });
        job.wait_while_held();
        let game = line.game();
        let answer = match found {
            None => "0000".to_string(),
            Some(found) => {
                let mut text = game.format_move(line.state(), found.best);
                if let [first, reply, ..] = best_line[..]
                    && first == found.best
                {
                    let mut after = *line.state();
                    game.apply(&mut after, first);
                    text = format!("{text} ponder {}", game.format_move(&after, reply));
                }
                text
            }
        };
        say(out, &format!("bestmove {answer}"));
        Some(searcher)
    })
}

/// What a search by another agent than the alpha-beta one needs.
pub(super) struct AgentSearch {
    pub(super) spec: AgentSpec,
    pub(super) seed: u64,
    pub(super) root_moves: Vec<crate::game::chess::moves::ChessMove>,
    pub(super) lines: usize,
}

/// Another agent's search of the job's position on its thread, stopped by `stop` or the limits' hard
/// time: its `lines` most visited moves as `info multipv` lines, then `bestmove`.
pub(super) fn spawn_agent(search: AgentSearch, job: Job) -> JoinHandle<Option<AbAgent<ChessGame>>> {
    std::thread::spawn(move || {
        let AgentSearch { spec, seed, root_moves, lines } = search;
        let Job { line, limits, stop, out, .. } = &job;
        let mut agent = match spec.build(line.game(), seed) {
            Ok(agent) => agent,
            Err(error) => {
                say(out, &format!("info string error: {error}"));
                say(out, "bestmove 0000");
                return None;
            }
        };
        if !root_moves.is_empty() && !agent.search_only(&root_moves) {
            say(
                out,
                &format!("info string `go searchmoves`: {spec} does not search, it plays among every move"),
            );
        }
        let watch = Watch::default();
        if let Some(hard) = limits.hard {
            watch.start_clock(Instant::now() + hard);
        }
        let started = Instant::now();
        let mv = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) && !watch.is_stopped() {
                    std::thread::sleep(Duration::from_millis(2));
                }
                watch.stop();
            });
            let mv = agent.choose_watched(line, &watch);
            job.wait_while_held();
            watch.stop();
            mv
        });
        let root = agent.last_root();
        let visits: u32 = root.iter().map(|&(_, visits, _)| visits).sum();
        let ms = started.elapsed().as_millis().max(1);
        for (index, &(candidate, _, value)) in root.iter().take(lines).enumerate() {
            let score = value.map_or(String::new(), |v| format!(" score cp {}", centipawns_of(v)));
            let text = line.game().format_move(line.state(), candidate);
            say(out, &format!("info multipv {}{score} nodes {visits} time {ms} pv {text}", index + 1));
        }
        if let Some(note) = agent.last_note() {
            say(out, &format!("info string {spec}: {note}"));
        }
        say(out, &format!("bestmove {}", line.game().format_move(line.state(), mv)));
        None
    })
}

/// The `info` line of a finished iteration.
pub(super) fn info(
    line: &Playthrough<ChessGame>,
    it: &Iteration<crate::game::chess::moves::ChessMove>,
) -> String {
    let game = line.game();
    let mut state = *line.state();
    let mut pv = Vec::with_capacity(it.pv.len());
    for &mv in &it.pv {
        pv.push(game.format_move(&state, mv));
        game.apply(&mut state, mv);
    }
    let score = match Score::of(it.score) {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let ms = it.elapsed.as_millis().max(1);
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} time {ms} hashfull {} pv {}",
        it.depth,
        it.seldepth,
        it.line,
        it.nodes,
        it.nodes as u128 * 1000 / ms,
        it.hashfull,
        pv.join(" ")
    )
}
