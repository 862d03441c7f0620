//! The UCI engine (`rebel-zero uci`): the project's chess agents as a UCI engine (the protocol of chess GUIs, cutechess,
//! python-chess and engine-testing harnesses), reading commands on standard input.
//!
//! The search runs on a thread of its own beside the reader, so `stop`, `isready` and `quit` are
//! answered while it thinks. `go` takes `wtime btime winc binc movestogo` (the clock: a share of the
//! time left plus most of the increment, never more than a fraction of what is left less the move
//! overhead), `movetime`, `depth`, `nodes`, `infinite` (searched until `stop`, and only then
//! `bestmove`), `ponder` (the move after the GUI's guess is searched until `stop`, or until
//! `ponderhit`, from which the clock's share of time counts) and `searchmoves` (the search looks only
//! at those root moves). The default agent is the alpha-beta search (`ab`), which reports each
//! iteration as `info depth … seldepth … multipv … score cp|mate … nodes … nps … time … hashfull … pv …`,
//! one line for each of the `MultiPV` best moves, and names its expected reply (`bestmove … ponder …`);
//! another agent (`setoption name Agent value net:…`) searches its own budget, or the clock's time, and
//! reports its most visited moves as `info multipv … score cp … nodes … pv …`, their values as
//! centipawns on the scale the alpha-beta agent's scores are read as values.
//!
//! Options: `Hash` (MB: the table is made when set, and one the free memory cannot hold is refused with
//! the largest size that fits), `Move Overhead` (ms), `MultiPV` (1–256), `Ponder` (whether the GUI may
//! ponder), `UCI_Variant` (`chess`, `rebellion`, `squirm`), `Berolina` (Berolina pawns), `Agent` (an
//! agent spec, default `ab`). Moves are UCI; the variants'
//! own turns use RULES.md section 7 (`r:b8b7`, `r:f6f5+e2e4`). A command that cannot be carried out is
//! answered with `info string error: …` (UCI has no error reply) and the engine goes on; every `go` is
//! answered with a `bestmove` (`0000` where it cannot be carried out); a `position` that does not play,
//! or cannot be read, leaves no position, so a `go` after it answers `bestmove 0000`; a line that is
//! not UTF-8 is reported and skipped.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::anyhow;

use crate::agents::AgentSpec;
use crate::agents::alphabeta::{AbAgent, AbSettings};
use crate::game::chess::ChessGame;
use crate::game::{AnyGame, Game, Playthrough};

mod go;
mod think;

use go::Request;
pub use think::Shared;
use think::{AgentSearch, Job, say, spawn_agent, spawn_alphabeta};

const VARIANTS: [(&str, &str); 3] =
    [("chess", "chess"), ("rebellion", "rebellion-chess"), ("squirm", "squirm-chess")];
const DEFAULT_HASH: usize = 32;
const DEFAULT_OVERHEAD: u64 = 30;
const MOST_LINES: usize = 256;

/// The engine's state between commands.
pub struct Engine {
    variant: String,
    berolina: bool,
    /// `None`: the alpha-beta search.
    agent: Option<AgentSpec>,
    hash: usize,
    overhead: u64,
    /// The best moves each search reports (`MultiPV`), and whether the GUI said it ponders.
    lines: usize,
    ponder: bool,
    seed: u64,
    /// `None` after a `position` that did not play.
    line: Option<Playthrough<ChessGame>>,
    /// The alpha-beta searcher, its table kept between moves (taken by a running search).
    searcher: Option<AbAgent<ChessGame>>,
    running: Option<Running>,
}

/// A search on its thread: how to stop it, whether its `bestmove` is held back (an infinite search
/// until `stop`; a pondering one until `stop` or `ponderhit`), the time `ponderhit` gives it, and what
/// it gives back.
struct Running {
    stop: Arc<AtomicBool>,
    held: Arc<AtomicBool>,
    infinite: bool,
    pondering: bool,
    after_ponderhit: Option<Duration>,
    handle: JoinHandle<Option<AbAgent<ChessGame>>>,
}

impl Running {
    /// Whether only `stop` (or `ponderhit`) ends it.
    fn held(&self) -> bool {
        self.held.load(Ordering::Relaxed)
    }
}

impl Engine {
    pub fn new(seed: u64) -> Engine {
        Engine {
            variant: "chess".to_string(),
            berolina: false,
            agent: None,
            hash: DEFAULT_HASH,
            overhead: DEFAULT_OVERHEAD,
            lines: 1,
            ponder: false,
            seed,
            line: Some(Playthrough::new(chess_game("chess", false, true).expect("chess exists"))),
            searcher: None,
            running: None,
        }
    }

    /// Answers commands until `quit` or the end of the input (a search still running is stopped).
    pub fn serve(&mut self, input: &mut impl BufRead, out: Shared) -> anyhow::Result<()> {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                // The end of the input: a search that ends by itself finishes; an infinite one stops.
                if self.running.as_ref().is_some_and(Running::held) {
                    self.stop_search();
                }
                if let Some(running) = self.running.take() {
                    let _ = running.handle.join();
                }
                return Ok(());
            }
            let Ok(text) = std::str::from_utf8(&bytes) else {
                // A `position` that cannot be read leaves no position, as one that does not play:
                // the next `go` must not answer for the one before it.
                let lossy = String::from_utf8_lossy(&bytes);
                if lossy.split_whitespace().next() == Some("position") {
                    self.finish_search();
                    self.line = None;
                    say(
                        &out,
                        "info string error: a `position` line that is not UTF-8 text was skipped; no position is set",
                    );
                } else {
                    say(&out, "info string error: a line that is not UTF-8 text was skipped");
                }
                continue;
            };
            // A byte-order mark (some GUIs on Windows write one before the first command) is not a word.
            let words: Vec<&str> = text.trim_start_matches('\u{feff}').split_whitespace().collect();
            let reply = match words.first().copied() {
                None => Ok(()),
                Some("quit") => {
                    self.stop_search();
                    return Ok(());
                }
                Some("uci") => self.identify(&out),
                Some("isready") => {
                    // The tables the first search would build, before the clock runs.
                    let _ = crate::game::chess::bitboard::tables();
                    say(&out, "readyok");
                    Ok(())
                }
                Some("stop") => {
                    self.stop_search();
                    Ok(())
                }
                Some("ponderhit") => {
                    self.ponder_hit();
                    Ok(())
                }
                Some("debug" | "register") => Ok(()),
                Some(command @ ("ucinewgame" | "setoption" | "position" | "go")) => {
                    self.finish_search();
                    match command {
                        "ucinewgame" => self.new_game(),
                        "setoption" => self.set_option(&words[1..]),
                        "position" => self.set_position(&words[1..]),
                        _ => {
                            // Every `go` is answered with a `bestmove`: a GUI waits for one.
                            let started = self.go(&words[1..], &out);
                            if let Err(error) = &started {
                                say(&out, &format!("info string error: {error:#}"));
                                say(&out, "bestmove 0000");
                            }
                            Ok(())
                        }
                    }
                }
                Some(other) => Err(anyhow!("unknown command `{other}`")),
            };
            if let Err(error) = reply {
                say(&out, &format!("info string error: {error:#}"));
            }
        }
    }

    fn identify(&self, out: &Shared) -> anyhow::Result<()> {
        say(out, &format!("id name rebel-zero {}", env!("CARGO_PKG_VERSION")));
        say(out, "id author the rebel-zero authors");
        let most = crate::agents::alphabeta::max_hash_mb();
        say(out, &format!("option name Hash type spin default {DEFAULT_HASH} min 1 max {most}"));
        say(out, &format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD} min 0 max 5000"));
        say(out, &format!("option name MultiPV type spin default 1 min 1 max {MOST_LINES}"));
        say(out, "option name Ponder type check default false");
        let variants: Vec<String> = VARIANTS.iter().map(|(name, _)| format!("var {name}")).collect();
        say(out, &format!("option name UCI_Variant type combo default chess {}", variants.join(" ")));
        say(out, "option name Berolina type check default false");
        say(out, "option name Agent type string default ab");
        say(out, "uciok");
        Ok(())
    }

    /// Waits for a search that stops by itself (not an infinite one: that is stopped).
    fn finish_search(&mut self) {
        if let Some(running) = self.running.take() {
            if running.handle.is_finished() {
                self.searcher = running.handle.join().ok().flatten();
            } else {
                self.running = Some(running);
                self.stop_search();
            }
        }
    }

    /// The GUI's guess was played: a pondering search goes on as the move's own search, with the
    /// clock's share of time counted from now.
    fn ponder_hit(&mut self) {
        let Some(running) = self.running.as_mut().filter(|r| r.pondering) else { return };
        running.pondering = false;
        if !running.infinite {
            running.held.store(false, Ordering::Relaxed);
        }
        if let Some(time) = running.after_ponderhit {
            let stop = running.stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(time);
                stop.store(true, Ordering::Relaxed);
            });
        }
    }

    fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            self.searcher = running.handle.join().ok().flatten();
        }
    }

    /// A new game: the searcher forgets what it learnt, and the position goes back to the start.
    fn new_game(&mut self) -> anyhow::Result<()> {
        if let Some(searcher) = &mut self.searcher {
            searcher.searcher().clear();
        }
        self.set_position(&["startpos"])
    }

    /// New rules or a new table size: the alpha-beta searcher is made again now, so that a table the
    /// machine cannot hold is refused when it is set, not at the next `go`. The old table is let go
    /// first, so that it does not count against the new one.
    fn remake_searcher(&mut self) -> anyhow::Result<()> {
        self.searcher = None;
        if self.agent.is_none() {
            let game = chess_game(&self.variant, self.berolina, true)?;
            let settings = AbSettings { hash: self.hash, ..AbSettings::default() };
            self.searcher = Some(AbAgent::build(&game, &settings, "ab")?);
        }
        Ok(())
    }

    /// `setoption name NAME [value VALUE]`; the position goes back to the start when the rules change.
    fn set_option(&mut self, words: &[&str]) -> anyhow::Result<()> {
        let value_at = words.iter().position(|w| *w == "value");
        let name = words.get(1..value_at.unwrap_or(words.len())).unwrap_or_default().join(" ");
        let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let spec = VARIANTS
                    .iter()
                    .find(|(short, long)| value == *short || value == *long)
                    .map(|(_, long)| *long)
                    .ok_or_else(|| {
                        anyhow!("UCI_Variant must be chess, rebellion or squirm (got `{value}`)")
                    })?;
                self.variant = spec.to_string();
                self.remake_searcher()?;
                self.new_game()
            }
            "berolina" => {
                self.berolina = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    other => return Err(anyhow!("Berolina must be true or false (got `{other}`)")),
                };
                self.remake_searcher()?;
                self.new_game()
            }
            "agent" => {
                let agent = match AgentSpec::parse(if value.is_empty() { "ab" } else { &value })? {
                    AgentSpec::Ab(settings) => {
                        let before = self.agent.take();
                        let made = self.set_hash(settings.hash);
                        if made.is_err() {
                            self.agent = before;
                        }
                        return made;
                    }
                    AgentSpec::Human => return Err(anyhow!("the human agent cannot play through UCI")),
                    other => {
                        // An agent that cannot be built (a missing network) is named now, not at `go`.
                        other.build(&chess_game(&self.variant, self.berolina, true)?, 0)?;
                        other
                    }
                };
                self.agent = Some(agent);
                self.searcher = None;
                Ok(())
            }
            "hash" => {
                let most = crate::agents::alphabeta::max_hash_mb();
                let hash = value.parse().ok().filter(|mb| (1..=most).contains(mb)).ok_or_else(|| {
                    anyhow!("Hash must be 1..{most} MB, half this machine's memory (got `{value}`); Hash stays {}", self.hash)
                })?;
                self.set_hash(hash)
            }
            "multipv" => {
                self.lines =
                    value.parse().ok().filter(|n| (1..=MOST_LINES).contains(n)).ok_or_else(|| {
                        anyhow!(
                            "MultiPV must be 1..{MOST_LINES} (got `{value}`); MultiPV stays {}",
                            self.lines
                        )
                    })?;
                Ok(())
            }
            "ponder" => {
                self.ponder = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    other => return Err(anyhow!("Ponder must be true or false (got `{other}`)")),
                };
                Ok(())
            }
            "move overhead" => {
                self.overhead = value
                    .parse()
                    .ok()
                    .filter(|ms| *ms <= 5000)
                    .ok_or_else(|| anyhow!("Move Overhead must be 0..5000 ms (got `{value}`)"))?;
                Ok(())
            }
            _ => Err(anyhow!("unknown option `{name}`")),
        }
    }

    /// A table of `hash` MB for the alpha-beta agent, made now if it plays; a table that does not fit
    /// leaves the size as it was.
    fn set_hash(&mut self, hash: usize) -> anyhow::Result<()> {
        let kept = std::mem::replace(&mut self.hash, hash);
        if let Err(error) = self.remake_searcher() {
            self.hash = kept;
            return Err(anyhow!("{error:#}; Hash stays {kept}"));
        }
        Ok(())
    }

    /// `startpos [moves …]` or `fen FEN [moves …]`. A position or move that does not play leaves none.
    fn set_position(&mut self, words: &[&str]) -> anyhow::Result<()> {
        self.line = None;
        let uncapped = matches!(self.agent, None | Some(AgentSpec::Ab(_)));
        let game = chess_game(&self.variant, self.berolina, uncapped)?;
        let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let start = match words.first().copied() {
            Some("startpos") => game.start(),
            Some("fen") => game.parse_position(&words[1..moves_at].join(" "))?,
            _ => return Err(anyhow!("`position` needs `startpos` or `fen …`")),
        };
        let mut line = Playthrough::from_position(game, start);
        for text in words.iter().skip(moves_at + 1) {
            line.play_text(text).map_err(|e| anyhow!("move `{text}`: {e}; no position is set"))?;
        }
        self.line = Some(line);
        Ok(())
    }

    /// Starts a search of the current position on its thread.
    fn go(&mut self, words: &[&str], out: &Shared) -> anyhow::Result<()> {
        let Some(line) = self.line.clone() else {
            say(out, "info string error: no position is set (the last `position` did not play)");
            say(out, "bestmove 0000");
            return Ok(());
        };
        if line.is_over() {
            say(out, "info string the game is over");
            say(out, "bestmove 0000");
            return Ok(());
        }
        let request = Request::parse(words, line.state().side == crate::game::chess::piece::WHITE)?;
        let root_moves = request
            .searchmoves
            .iter()
            .map(|text| match line.game().parse_move(line.state(), text) {
                Ok(mv) if line.legal_moves().contains(&mv) => Ok(mv),
                _ => Err(anyhow!("`go searchmoves`: `{text}` is not a legal move here")),
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let limits = request.limits(self.overhead);
        let stop = Arc::new(AtomicBool::new(false));
        let held = Arc::new(AtomicBool::new(request.infinite || request.ponder));
        let job = Job { line, limits, stop: stop.clone(), held: held.clone(), out: out.clone() };
        let handle = match &self.agent {
            None => {
                let settings = AbSettings { hash: self.hash, ..AbSettings::default() };
                let mut searcher = match self.searcher.take() {
                    Some(searcher) => searcher,
                    None => AbAgent::build(job.line.game(), &settings, "ab")?,
                };
                searcher.searcher().set_stop_flag(stop.clone());
                searcher.searcher().set_lines(self.lines);
                searcher.searcher().restrict_root(&root_moves);
                spawn_alphabeta(searcher, job)
            }
            Some(spec) => {
                let spec = match request.nodes {
                    Some(n) => spec.with_simulations(n.min(crate::agents::MAX_SIMULATIONS as u64) as u32),
                    None => spec.clone(),
                };
                let seed = crate::seed::derive_seed(self.seed, u64::from(job.line.plies()));
                let search = AgentSearch { spec, seed, root_moves, lines: self.lines };
                spawn_agent(search, job)
            }
        };
        let after_ponderhit = request
            .ponder
            .then(|| Request { ponder: false, ..request.clone() }.limits(self.overhead).soft)
            .flatten();
        self.running = Some(Running {
            stop,
            held,
            infinite: request.infinite,
            pondering: request.ponder,
            after_ponderhit,
            handle,
        });
        Ok(())
    }
}

/// The alpha-beta engine's game has no cap of its own: the GUI ends its games. The longest game of
/// chess the fifty-move rule allows is 5,898½ moves (11,797 plies); the rules' default cap (300 plies)
/// made the engine answer `bestmove 0000` to a long game's 301st ply. A network agent keeps the rules'
/// cap, which its input planes count towards (it was trained with it).
const UCI_MAX_PLIES: u32 = 12_000;

fn chess_game(spec: &str, berolina: bool, uncapped: bool) -> anyhow::Result<ChessGame> {
    let mut options = Vec::new();
    if berolina && spec != "chess" {
        options.push("pawns=berolina".to_string());
    }
    if uncapped {
        options.push(format!("max_plies={UCI_MAX_PLIES}"));
    }
    let spec = if options.is_empty() { spec.to_string() } else { format!("{spec}:{}", options.join(",")) };
    match AnyGame::from_spec(&spec)? {
        AnyGame::Chess(game) => Ok(game),
        _ => Err(anyhow!("`{spec}` is not a chess ruleset")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::Mutex;

    /// A long game goes on past the rules' default cap of 300 plies for the alpha-beta engine (a GUI
    /// adjudicates, not the engine).
    #[test]
    fn the_engine_plays_past_the_default_cap() {
        for (variant, berolina) in [("chess", false), ("rebellion-chess", true), ("squirm-chess", false)] {
            let game = chess_game(variant, berolina, true).unwrap();
            assert!(game.max_plies() >= 11_797, "{variant}");
            // A network agent keeps the cap its planes were trained with.
            assert_eq!(chess_game(variant, berolina, false).unwrap().max_plies(), 300, "{variant}");
        }
        assert!(chess_game("rebellion-chess", true, true).unwrap().spec().contains("pawns=berolina"));
        assert!(chess_game("rebellion-chess", true, false).unwrap().spec().contains("pawns=berolina"));
    }

    /// Collects what the engine writes.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The moves of every `bestmove` line of a session's output.
    fn bestmoves(out: &str) -> Vec<&str> {
        out.lines()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .map(|m| m.split(' ').next().unwrap())
            .collect()
    }

    /// `searchmoves` confines the alpha-beta search to the moves listed; a list with a move that is
    /// not legal, or any `go` that cannot be carried out, still ends with `bestmove 0000`.
    #[test]
    fn every_go_is_answered_and_searchmoves_confines_the_search() {
        let out = session(b"position startpos\ngo depth 5 searchmoves a2a3 h2h3\n");
        let moves = bestmoves(&out);
        assert!(moves.len() == 1 && ["a2a3", "h2h3"].contains(&moves[0]), "{out}");
        let pvs = out.lines().filter(|l| l.contains(" pv "));
        assert!(
            pvs.clone().count() > 0
                && pvs.into_iter().all(|l| l.contains("pv a2a3") || l.contains("pv h2h3")),
            "{out}"
        );
        // The list ends at the next keyword.
        let out = session(b"position startpos moves e2e4\ngo searchmoves g8f6 depth 3\n");
        assert_eq!(bestmoves(&out), ["g8f6"], "{out}");
        for go in ["go searchmoves e2e5", "go wtime soon", "go depth", "go frobnicate 3"] {
            let out = session(format!("position startpos\n{go}\n").as_bytes());
            assert!(out.contains("info string error"), "{go}: {out}");
            assert_eq!(bestmoves(&out), ["0000"], "{go}: {out}");
        }
    }

    /// A `position` line skipped for a byte that is not UTF-8 leaves no position behind: the next
    /// `go` does not answer for the position before it.
    #[test]
    fn a_position_that_cannot_be_read_leaves_none() {
        let mut input = b"position startpos moves e2e4\nposition startpos moves e2e4 ".to_vec();
        input.push(0xff);
        input.extend_from_slice(b" e7e5\ngo depth 2\n");
        let out = session(&input);
        assert!(out.contains("no position is set"), "{out}");
        assert_eq!(bestmoves(&out), ["0000"], "{out}");
    }

    fn session(commands: &[u8]) -> String {
        let sink = Sink::default();
        let out: Shared = Arc::new(Mutex::new(Box::new(sink.clone())));
        Engine::new(1).serve(&mut &commands[..], out).unwrap();
        String::from_utf8(sink.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn the_handshake_and_a_search_give_a_legal_bestmove() {
        let out = session(b"uci\nisready\nposition startpos moves e2e4\ngo depth 4\nisready\n");
        assert!(
            out.contains(
                "option name UCI_Variant type combo default chess var chess var rebellion var squirm"
            )
        );
        assert!(out.contains("option name Hash type spin"));
        assert!(out.contains("uciok\nreadyok\n"), "{out}");
        assert!(out.contains("info depth 4 seldepth"), "{out}");
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
        let best = best.split_whitespace().next().unwrap();
        let mut line = Playthrough::new(chess_game("chess", false, true).unwrap());
        line.play_text("e2e4").unwrap();
        line.play_text(best).expect("the best move is legal for Black");
    }

    /// The advertised Hash range is what the machine holds: a size beyond it is refused with the
    /// bound, the table keeps its size, and the next search answers.
    #[test]
    fn a_hash_beyond_the_machine_is_refused_and_the_engine_goes_on() {
        let most = crate::agents::alphabeta::max_hash_mb();
        let out =
            session(b"uci\nsetoption name Hash value 1048576\nposition startpos\ngo nodes 200\nisready\n");
        assert!(
            out.contains(&format!("option name Hash type spin default {DEFAULT_HASH} min 1 max {most}\n")),
            "{out}"
        );
        assert!(out.contains(&format!("Hash must be 1..{most} MB, half this machine's memory")), "{out}");
        assert!(out.contains(&format!("Hash stays {DEFAULT_HASH}")), "{out}");
        assert_eq!(bestmoves(&out).len(), 1, "{out}");
        assert!(out.contains("readyok\n"), "{out}");
        assert!(most.is_power_of_two() && most < 1_048_576);
    }

    /// A byte-order mark before the first command is read past; an agent that cannot be built is
    /// refused when it is set, and the engine keeps the one it had.
    #[test]
    fn a_byte_order_mark_is_read_past_and_a_bad_agent_is_named_when_set() {
        let out = session("\u{feff}uci\nsetoption name Agent value net:path=no/such/checkpoint\nposition startpos\ngo nodes 100\nisready\n".as_bytes());
        assert!(out.contains("uciok"), "{out}");
        assert!(out.contains("info string error") && out.contains("no/such/checkpoint"), "{out}");
        assert!(out.contains("info depth"), "the alpha-beta agent still searches: {out}");
        assert_eq!(bestmoves(&out).len(), 1, "{out}");
    }

    #[test]
    fn bad_commands_are_reported_and_the_engine_goes_on() {
        let mut input = b"setoption name UCI_Variant value checkers\nposition startpos moves e2e5\n".to_vec();
        input.extend_from_slice(b"go depth 2\n\xff\xfe not text\nfrobnicate\nisready\n");
        let out = session(&input);
        assert_eq!(out.matches("info string error:").count(), 5, "{out}");
        assert!(out.contains("bestmove 0000"), "no move for a position that did not play: {out}");
        assert!(out.ends_with("readyok\n"), "{out}");
    }
}
