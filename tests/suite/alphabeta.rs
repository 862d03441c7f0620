//! The alpha-beta agent (`ab:`) from outside the crate: legal games of every chess variant (and a hunt
//! game) against random play and itself, every move checked by replaying the records through the
//! rules; mates found and scored; and the UCI engine as a GUI drives it: `go infinite` and `stop`,
//! `isready` answered during a search, clocks, and a `position` that does not play.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rebel_zero::agents::{AgentSpec, MatchSettings, run_match};
use rebel_zero::game::{AnyGame, Game, Playthrough};
use rebel_zero::with_game;

/// Plays `games` games of `a` against `b` on `spec` and replays each record through the rules.
fn legal_games(spec: &str, a: &str, b: &str, games: usize) {
    let game = AnyGame::from_spec(spec).unwrap();
    let (a, b) = (AgentSpec::parse(a).unwrap(), AgentSpec::parse(b).unwrap());
    with_game!(&game, |g| {
        let records = run_match(g, [&a, &b], MatchSettings::new(games, 3, 2, 0), &|_| {}).unwrap();
        for record in &records {
            let line = record.replay(g).unwrap_or_else(|e| panic!("{spec}: game {}: {e}", record.game));
            assert!(line.is_over(), "{spec}: game {} ends", record.game);
        }
    });
}

#[test]
fn ab_plays_every_chess_variant_legally_against_random_and_itself() {
    for spec in ["chess", "rebellion-chess", "squirm-chess", "rebellion-chess:pawns=berolina,max_plies=120"] {
        legal_games(spec, "ab:depth=2", "random", 2);
        legal_games(
            &format!("{spec}{}", if spec.contains(':') { "" } else { ":max_plies=80" }),
            "ab:depth=2",
            "ab:nodes=3000",
            2,
        );
    }
    // Elsewhere it searches by material alone.
    legal_games("sixteen-rebels", "ab:depth=3", "random", 2);
}

/// Mate in one is found and scored as mate, and a mate in three (a rook's switch to the a-file, then
/// a bishop's capture) at depth 6.
#[test]
fn ab_finds_and_scores_mates() {
    let AnyGame::Chess(game) = AnyGame::from_spec("chess").unwrap() else { unreachable!() };
    let cases = [
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", "mate in 1"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "mate in 1"),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", "mate in 3"),
    ];
    for (fen, best, note) in cases {
        let line = Playthrough::from_position(game.clone(), game.parse_position(fen).unwrap());
        let mut agent = AgentSpec::parse("ab:depth=6").unwrap().build(&game, 1).unwrap();
        let mv = agent.choose(&line);
        assert_eq!(game.format_move(line.state(), mv), best, "{fen}");
        let said = agent.last_note().unwrap();
        assert!(said.contains(note), "{fen}: {said}");
    }
}

/// The UCI engine, with a reader thread collecting its lines.
struct Engine {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Engine { child, lines }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`, waiting at most `within`.
    fn until(&self, prefix: &str, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no `{prefix}` within {within:?}; saw {seen:?}"),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn uci_answers_during_a_search_and_stops_when_told() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.until("uciok", Duration::from_secs(10));
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(10));
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let before = engine.until("readyok", Duration::from_secs(2));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "no bestmove before stop: {before:?}");
    assert!(before.iter().any(|l| l.starts_with("info depth") && l.contains(" pv ")), "{before:?}");
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    engine.send("stop");
    let lines = engine.until("bestmove", Duration::from_secs(2));
    assert!(stopped.elapsed() < Duration::from_millis(500), "stop answered in {:?}", stopped.elapsed());
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap().split_whitespace().next().unwrap();
    let AnyGame::Chess(game) = AnyGame::from_spec("chess").unwrap() else { unreachable!() };
    let mut line = Playthrough::new(game);
    for mv in ["e2e4", "e7e5", best] {
        line.play_text(mv).unwrap();
    }
}

#[test]
fn uci_keeps_to_the_clock_and_refuses_a_position_that_does_not_play() {
    let mut engine = Engine::start();
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(10));
    for (go, most) in [("go wtime 1000 btime 1000 winc 10 binc 10", 400), ("go movetime 200", 300)] {
        engine.send("position startpos");
        let asked = Instant::now();
        engine.send(go);
        engine.until("bestmove", Duration::from_secs(3));
        let spent = asked.elapsed();
        assert!(spent < Duration::from_millis(most), "{go}: answered in {spent:?}");
    }
    engine.send("position startpos moves e2e5");
    engine.send("go depth 3");
    let lines = engine.until("bestmove", Duration::from_secs(3));
    assert!(lines.iter().any(|l| l.starts_with("info string error")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "no move for a position that did not play");
    engine.send("position startpos");
    engine.send("go depth 3");
    let lines = engine.until("bestmove", Duration::from_secs(5));
    assert_ne!(lines.last().unwrap(), "bestmove 0000", "a good position is searched again");
}

/// The first word of a `bestmove` line, and the move it expects in reply (`ponder …`), if any.
fn answer(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.strip_prefix("bestmove ").unwrap().split_whitespace().collect();
    let reply = words.iter().position(|w| *w == "ponder").map(|i| words[i + 1].to_string());
    (words[0].to_string(), reply)
}

/// `go ponder` searches without sending `bestmove`; `ponderhit` turns it into the move's own search,
/// which then answers within the clock's share counted from the hit; `stop` answers at once. The best
/// move names the reply it expects, and that reply is legal after it.
#[test]
fn uci_ponders_until_ponderhit_or_stop() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(10));
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(400));
    engine.send("isready");
    let before = engine.until("readyok", Duration::from_secs(2));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "no bestmove while pondering: {before:?}");
    let hit = Instant::now();
    engine.send("ponderhit");
    let lines = engine.until("bestmove", Duration::from_secs(3));
    // The clock's share of 3 s is about 0.1 s (a thirtieth), counted from the hit.
    assert!(hit.elapsed() < Duration::from_millis(1000), "answered {:?} after ponderhit", hit.elapsed());
    let (best, reply) = answer(lines.last().unwrap());
    let AnyGame::Chess(game) = AnyGame::from_spec("chess").unwrap() else { unreachable!() };
    let mut line = Playthrough::new(game);
    for mv in ["e2e4", "e7e5", &best, &reply.expect("a reply to ponder on")] {
        line.play_text(mv).unwrap();
    }
    // A search of a position that ends by itself (depth 2) still waits for the hit or a stop.
    engine.send("go ponder depth 2");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let before = engine.until("readyok", Duration::from_secs(2));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "{before:?}");
    engine.send("stop");
    engine.until("bestmove", Duration::from_secs(2));
}

/// With `MultiPV` at 3, each depth reports three lines, numbered, with three different first moves in
/// order of score, and the move played is the first line's.
#[test]
fn uci_multipv_reports_the_best_lines_in_order() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos moves e2e4");
    engine.send("go depth 5");
    let lines = engine.until("bestmove", Duration::from_secs(20));
    let last: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 5 ")).collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let field = |line: &str, key: &str| -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        words[words.iter().position(|w| *w == key).unwrap() + 1].to_string()
    };
    let numbers: Vec<String> = last.iter().map(|l| field(l, "multipv")).collect();
    assert_eq!(numbers, ["1", "2", "3"], "{last:?}");
    let firsts: Vec<String> = last.iter().map(|l| field(l, "pv")).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{last:?}");
    let scores: Vec<i32> = last.iter().map(|l| field(l, "cp").parse().unwrap()).collect();
    assert!(scores[0] >= scores[1] && scores[1] >= scores[2], "{last:?}");
    assert_eq!(answer(lines.last().unwrap()).0, firsts[0], "{lines:?}");
    engine.send("setoption name MultiPV value 0");
    engine.send("setoption name MultiPV value 257");
    engine.send("isready");
    let refused = engine.until("readyok", Duration::from_secs(2));
    assert_eq!(refused.iter().filter(|l| l.contains("MultiPV must be 1..256")).count(), 2, "{refused:?}");
}

/// Another searching agent than `ab` honours `searchmoves` (its root holds only the moves listed)
/// and reports its most visited moves as numbered lines.
#[test]
fn uci_searchmoves_and_multipv_reach_a_tree_search() {
    let mut engine = Engine::start();
    engine.send("setoption name Agent value mcts:sims=64");
    engine.send("setoption name MultiPV value 2");
    engine.send("position startpos");
    engine.send("go searchmoves a2a3 h2h3 b1c3");
    let lines = engine.until("bestmove", Duration::from_secs(60));
    let (best, _) = answer(lines.last().unwrap());
    assert!(["a2a3", "h2h3", "b1c3"].contains(&best.as_str()), "{lines:?}");
    let listed: Vec<&String> = lines.iter().filter(|l| l.starts_with("info multipv ")).collect();
    assert_eq!(listed.len(), 2, "{lines:?}");
    assert!(
        listed[0].starts_with("info multipv 1 ") && listed[1].starts_with("info multipv 2 "),
        "{listed:?}"
    );
    assert_ne!(listed[0].rsplit(' ').next(), listed[1].rsplit(' ').next(), "{listed:?}");
    for line in &listed {
        let pv = line.rsplit(' ').next().unwrap();
        assert!(["a2a3", "h2h3", "b1c3"].contains(&pv), "{line}");
    }
}
