//! Perft speed of the chess family next to cozy-chess on the same positions and depths, both
//! bulk-counting the last ply. Run with
//! `cargo run --release --example chess_perft` and paste the table into docs/BENCHMARKS.md.

use std::time::Instant;

use cozy_chess::Board;
use rebel_zero::game::perft::perft;
use rebel_zero::game::{AnyGame, Game};
use rebel_zero::with_game;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn cozy_perft(board: &Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for m in moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            nodes += cozy_perft(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Best of three runs, in nodes per second.
fn best_rate(mut run: impl FnMut() -> u64) -> (u64, f64) {
    let mut best = 0.0f64;
    let mut nodes = 0;
    for _ in 0..3 {
        let timer = Instant::now();
        nodes = run();
        best = best.max(nodes as f64 / timer.elapsed().as_secs_f64());
    }
    (nodes, best)
}

fn main() {
    println!("| ruleset | position | depth | nodes | rebel-zero Mnodes/s | cozy-chess Mnodes/s | ratio |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (spec, name, fen, depth) in [
        ("chess", "start", START, 6),
        ("chess", "kiwipete", KIWIPETE, 5),
        ("rebellion-chess", "start", START, 5),
        ("squirm-chess", "start", START, 4),
    ] {
        let game = AnyGame::from_spec(spec).expect("a known ruleset");
        let (nodes, ours) = with_game!(&game, |g| {
            let text = if spec == "squirm-chess" { format!("{fen} -") } else { fen.to_string() };
            let state = g.parse_position(&text).expect("a valid position");
            best_rate(|| perft(g, &state, depth))
        });
        let cozy = (spec == "chess").then(|| {
            let board: Board = fen.parse().expect("a valid FEN");
            let (cozy_nodes, rate) = best_rate(|| cozy_perft(&board, depth));
            assert_eq!(cozy_nodes, nodes, "the two generators disagree on {name}");
            rate
        });
        let (cozy_text, ratio) = match cozy {
            Some(rate) => (format!("{:.1}", rate / 1e6), format!("{:.2}", ours / rate)),
            None => ("–".to_string(), "–".to_string()),
        };
        println!("| {spec} | {name} | {depth} | {nodes} | {:.1} | {cozy_text} | {ratio} |", ours / 1e6);
    }
}
