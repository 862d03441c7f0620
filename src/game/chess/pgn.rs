//! PGN (Portable Game Notation) export of recorded chess-family games: the seven-tag roster, a
//! `Variant` tag and the `FEN` start for rebellion and squirm chess (and for any game that does not
//! start from the standard position), `Termination`, and the moves in SAN ([`super::san`]).

use super::ChessGame;
use super::fen;
use super::san::to_san;
use super::variants::Variant;
use crate::game::{Game, GameRecord};

/// The PGN of a recorded game of `game`'s rules; an error when its moves do not replay.
pub fn to_pgn(game: &ChessGame, record: &GameRecord) -> Result<String, String> {
    let line = record.replay(game)?;
    let names = game.side_names();
    let result = match (record.winner.as_deref(), line.outcome()) {
        (_, None) => "*",
        (Some(w), _) if w == names[0] => "1-0",
        (Some(_), _) => "0-1",
        (None, _) => "1/2-1/2",
    };
    let agent = |side: &str| record.agents.get(side).cloned().unwrap_or_else(|| "?".to_string());
    let event = record.cell.clone().unwrap_or_else(|| format!("rebel-zero match, {}", record.spec));
    let mut tags = vec![
        ("Event", event),
        ("Site", "rebel-zero".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", (record.game + 1).to_string()),
        ("White", agent(names[0])),
        ("Black", agent(names[1])),
        ("Result", result.to_string()),
    ];
    if let Some(variant) = variant_name(game) {
        tags.push(("Variant", variant));
    }
    if game.variant != Variant::Chess || record.start != fen::START {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", six_fields(&record.start)));
    }
    tags.push(("Termination", record.reason.clone()));
    tags.push(("PlyCount", line.plies().to_string()));
    let mut pgn: String =
        tags.iter().map(|(name, value)| format!("[{name} \"{}\"]\n", escape(value))).collect();
    pgn.push('\n');
    let mut tokens = Vec::new();
    let mut state = *line.start();
    for (ply, &mv) in line.moves().iter().enumerate() {
        let white = game.to_move(&state).index() == 0;
        if white {
            tokens.push(format!("{}.", state.fullmove));
        } else if ply == 0 {
            tokens.push(format!("{}...", state.fullmove));
        }
        tokens.push(to_san(game, &state, mv));
        game.apply(&mut state, mv);
    }
    tokens.push(result.to_string());
    pgn.push_str(&wrap(&tokens, 79));
    pgn.push_str("\n\n");
    Ok(pgn)
}

/// The Variant tag's value; none for plain chess.
fn variant_name(game: &ChessGame) -> Option<String> {
    let name = match game.variant {
        Variant::Chess => return None,
        Variant::Rebellion => "Rebellion Chess",
        Variant::Squirm => "Squirm Chess",
    };
    Some(if game.berolina { format!("{name} (Berolina pawns)") } else { name.to_string() })
}

/// The FEN in six fields where its seventh (squirm chess's squirmable square) is empty: the form chess
/// readers know, for the same position (a FEN without the seventh field reads as `-`).
fn six_fields(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields.as_slice() {
        [six @ .., "-"] if six.len() == 6 => six.join(" "),
        _ => fen.to_string(),
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Tokens joined by spaces in lines of at most `width` characters (PGN export format: 80 at most).
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += token.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::testkit::chess_game;

    /// A record as `match --out` writes it, read back as one.
    fn record(spec: &str, moves: &[&str], winner: Option<&str>, reason: &str) -> GameRecord {
        let game = chess_game(spec);
        serde_json::from_value(serde_json::json!({
            "game": 0, "spec": spec, "seed": 1, "start": game.format_position(&game.start()),
            "agents": {"white": "random", "black": "mcts:sims=5"},
            "moves": moves, "winner": winner, "reason": reason, "plies": moves.len(),
        }))
        .unwrap()
    }

    #[test]
    fn a_chess_game_becomes_standard_pgn() {
        let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
        let pgn = to_pgn(&chess_game("chess"), &record("chess", &moves, Some("black"), "checkmate")).unwrap();
        assert!(pgn.starts_with("[Event \"rebel-zero match, chess\"]\n"), "{pgn}");
        assert!(pgn.contains("[White \"random\"]\n[Black \"mcts:sims=5\"]\n[Result \"0-1\"]\n"), "{pgn}");
        assert!(!pgn.contains("[FEN") && !pgn.contains("[Variant"), "{pgn}");
        assert!(pgn.ends_with("\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"), "{pgn}");
    }

    #[test]
    fn variants_carry_their_name_and_start() {
        let pgn = to_pgn(
            &chess_game("squirm-chess:pawns=berolina"),
            &record("squirm-chess:pawns=berolina", &[], None, "cap"),
        )
        .unwrap();
        assert!(pgn.contains("[Variant \"Squirm Chess (Berolina pawns)\"]"), "{pgn}");
        assert!(
            pgn.contains("[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]"),
            "{pgn}"
        );
        // A squirmable square is kept: the seventh field goes only when it is empty.
        assert_eq!(six_fields("4k3/8/8/8/8/8/8/4K2N b - - 0 1 h1"), "4k3/8/8/8/8/8/8/4K2N b - - 0 1 h1");
        assert!(pgn.ends_with("\n\n*\n\n"), "an unfinished game: {pgn}");
    }

    #[test]
    fn long_games_wrap_below_80_columns() {
        let tokens: Vec<String> = (0..100).map(|i| format!("{i}.")).collect();
        assert!(wrap(&tokens, 79).lines().all(|l| l.len() <= 79));
    }
}
