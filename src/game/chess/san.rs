//! Standard Algebraic Notation (SAN, the PGN standard's move text) for the chess family, beside the
//! coordinate notation of RULES.md section 7.
//!
//! Normal moves are plain SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`, `Qh5+`, `Qxf7#`). The variants' turns,
//! which no standard covers, extend it in the same spirit:
//! - a rebel step is `r:` and the SAN of the step as if the piece's owner made it, never with `x` (a
//!   rebel step never captures); a pawn is named by its file (`r:Nc6`, `r:ed7`);
//! - a squirm turn is `r:` and the squirm, `/`, then the normal move's SAN in the position after the
//!   squirm (`r:Bf5/Nf3`);
//!
//! each followed by `+` or `#` when the turn gives check or mate.

use super::bitboard::{Square, file_of, rank_of, square_name};
use super::moves::{ChessMove, MoveKind};
use super::piece::Piece;
use super::position::Position;
use crate::game::tactics::Tactics;
use crate::game::{Game, MoveError, illegal_move_error};

/// The SAN of legal turn `m` in `pos`. Generic over the game (any with chess positions and moves), so
/// that the notation does not name the game type that calls it.
pub fn to_san<G: Game<State = Position, Move = ChessMove> + Tactics>(
    game: &G,
    pos: &Position,
    m: ChessMove,
) -> String {
    let mut moves = G::Moves::default();
    game.legal_moves(pos, &mut moves);
    let mut text = if m.kind == MoveKind::Rebel {
        format!("r:{}", step_text(pos, m.from, m.to, |o| o.kind == MoveKind::Rebel, &moves))
    } else if m.is_squirm() {
        let mut after_squirm = *pos;
        after_squirm.step_piece(pos.squirmable, m.squirm_to);
        // The squirm's origin is the one squirmable square, so its destination names it.
        let squirm = step_text(pos, pos.squirmable, m.squirm_to, |_| false, &moves);
        let same_squirm = |o: &ChessMove| o.squirm_to == m.squirm_to;
        format!("r:{squirm}/{}", normal_text(&after_squirm, m, same_squirm, &moves))
    } else {
        normal_text(pos, m, |o| o.kind != MoveKind::Rebel && !o.is_squirm(), &moves)
    };
    let mut after = *pos;
    game.apply(&mut after, m);
    if game.in_check(&after) {
        game.legal_moves(&after, &mut moves);
        text.push(if moves.is_empty() { '#' } else { '+' });
    }
    text
}

/// The SAN of a legal move given as text, or the coordinate move, whichever `text` is.
pub fn parse_san<G: Game<State = Position, Move = ChessMove> + Tactics>(
    game: &G,
    pos: &Position,
    text: &str,
) -> Result<ChessMove, MoveError> {
    let wanted = loose(text);
    let mut moves = G::Moves::default();
    game.legal_moves(pos, &mut moves);
    let mut found = moves.iter().copied().filter(|&m| loose(&to_san(game, pos, m)) == wanted);
    match (found.next(), found.next()) {
        (Some(m), None) => Ok(m),
        _ => Err(illegal_move_error(game, pos, text)),
    }
}

/// Whether `text` has the shape of a SAN move, legal or not: castling, or a piece letter, hints of
/// the origin and a destination square, with a promotion. Such a text that names no legal move is an
/// illegal move, not an unreadable one.
pub fn has_san_shape(text: &str) -> bool {
    let text = loose(text);
    if text == "O-O" || text == "O-O-O" {
        return true;
    }
    let body = text.strip_prefix(['K', 'Q', 'R', 'B', 'N']).unwrap_or(&text);
    let body = match body.strip_suffix(['Q', 'R', 'B', 'N']) {
        Some(rest) if rest.ends_with(['1', '8']) => rest,
        _ => body,
    };
    let (file, rank) = (|c: char| ('a'..='h').contains(&c), |c: char| ('1'..='8').contains(&c));
    let chars: Vec<char> = body.chars().collect();
    let n = chars.len();
    (2..=4).contains(&n)
        && file(chars[n - 2])
        && rank(chars[n - 1])
        && chars[..n - 2].iter().all(|&c| file(c) || rank(c))
}

/// SAN without what writers differ on: check and mate marks, annotations (`!`, `?`), `x`, `=` and
/// `e.p.`; castling with zeros as with letters.
fn loose(text: &str) -> String {
    let text = text.trim().replace("e.p.", "").replace("0-0-0", "O-O-O").replace("0-0", "O-O");
    text.chars().filter(|c| !"+#!?x=".contains(*c)).collect()
}

fn letter(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

fn file_char(sq: Square) -> char {
    (b'a' + file_of(sq)) as char
}

/// What tells `from` apart from the other squares in `rivals` (origins of the same piece kind with
/// the same destination): nothing, its file, its rank, or both (SAN's disambiguation).
fn disambiguation(from: Square, rivals: &[Square]) -> String {
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|&r| file_of(r) != file_of(from)) {
        file_char(from).to_string()
    } else if rivals.iter().all(|&r| rank_of(r) != rank_of(from)) {
        (rank_of(from) + 1).to_string()
    } else {
        square_name(from)
    }
}

/// A one-square step of the piece on `from` to `to` (a rebel step or a squirm), disambiguated among
/// the turns `same_kind` selects.
fn step_text(
    pos: &Position,
    from: Square,
    to: Square,
    same_kind: impl Fn(&ChessMove) -> bool,
    moves: &[ChessMove],
) -> String {
    let piece = pos.piece_at(from).expect("a piece steps");
    if piece == Piece::Pawn {
        return format!("{}{}", file_char(from), square_name(to));
    }
    let rivals: Vec<Square> = moves
        .iter()
        .filter(|o| same_kind(o) && o.to == to && o.from != from && pos.piece_at(o.from) == Some(piece))
        .map(|o| o.from)
        .collect();
    format!("{}{}{}", letter(piece), disambiguation(from, &rivals), square_name(to))
}

/// The SAN of normal move `m` (its `from`, `to` and kind) in `pos`, disambiguated among the turns
/// `comparable` selects.
fn normal_text(
    pos: &Position,
    m: ChessMove,
    comparable: impl Fn(&ChessMove) -> bool,
    moves: &[ChessMove],
) -> String {
    if m.kind == MoveKind::Castle {
        return if file_of(m.to) > file_of(m.from) { "O-O" } else { "O-O-O" }.to_string();
    }
    let piece = pos.piece_at(m.from).expect("a piece moves");
    let capture = m.kind == MoveKind::EnPassant || pos.colour_at(m.to).is_some_and(|c| c != pos.side);
    let promotion =
        m.kind.promotion_letter().map_or(String::new(), |p| format!("={}", p.to_ascii_uppercase()));
    if piece == Piece::Pawn {
        let origin = if capture { format!("{}x", file_char(m.from)) } else { String::new() };
        return format!("{origin}{}{promotion}", square_name(m.to));
    }
    let mut rivals: Vec<Square> = moves
        .iter()
        .filter(|o| comparable(o) && o.to == m.to && o.from != m.from && pos.piece_at(o.from) == Some(piece))
        .map(|o| o.from)
        .collect();
    rivals.dedup();
    let x = if capture { "x" } else { "" };
    format!("{}{}{x}{}", letter(piece), disambiguation(m.from, &rivals), square_name(m.to))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::chess::ChessGame;
    use crate::game::testkit::chess_game as chess;

    #[test]
    fn a_san_shape_is_told_from_text_that_is_no_move() {
        for san in ["e4", "Nf3", "exd5", "O-O", "0-0-0", "e8=Q", "e8Q", "Nbd2", "R1e2", "Qh4xe1+", "Ng1f3#"] {
            assert!(has_san_shape(san), "{san}");
        }
        for other in ["c3-c4", "hello", "e9", "Zf3", "r:b8b7", "", "Nf", "abcd5"] {
            assert!(!has_san_shape(other), "{other}");
        }
    }

    fn san_line(spec: &str, fen: Option<&str>, coordinate: &[&str]) -> Vec<String> {
        let game = chess(spec);
        let mut pos = fen.map_or_else(|| game.start(), |f| game.parse_position(f).unwrap());
        coordinate
            .iter()
            .map(|text| {
                let m = game.parse_move(&pos, text).unwrap();
                let san = to_san(&game, &pos, m);
                assert_eq!(parse_san(&game, &pos, &san).unwrap(), m, "{san} reads back");
                game.apply(&mut pos, m);
                san
            })
            .collect()
    }

    #[test]
    fn chess_moves_get_standard_san() {
        // Scholar's mate: captures, checks and mate.
        let line = san_line("chess", None, &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]);
        assert_eq!(line, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
        // Castling, promotion with capture, en passant, and disambiguation by file and by rank.
        let fen = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1";
        assert_eq!(san_line("chess", Some(fen), &["e1g1"]), ["O-O"]);
        assert_eq!(san_line("chess", Some(fen), &["e1c1"]), ["O-O-O"]);
        assert_eq!(san_line("chess", Some(fen), &["b7a8q"]), ["bxa8=Q+"]);
        assert_eq!(san_line("chess", Some(fen), &["e5d6"]), ["exd6"]);
        assert_eq!(san_line("chess", Some(fen), &["a1b1"]), ["Rb1"], "h1's rook is blocked by the king");
        let apart = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert_eq!(san_line("chess", Some(apart), &["a1d1"]), ["Rad1"]);
        let rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(san_line("chess", Some(rooks), &["a1a3"]), ["R1a3"]);
    }

    #[test]
    fn loose_spellings_are_read() {
        let game = chess("chess");
        let pos = game.parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for text in ["0-0", "O-O", "O-O+", "Kg1"] {
            let result = parse_san(&game, &pos, text);
            assert_eq!(result.is_ok(), text != "Kg1", "{text}");
        }
        assert!(parse_san(&game, &pos, "Nf3").is_err());
    }

    #[test]
    fn rebel_steps_and_squirm_turns_have_san_of_their_own() {
        // White steps Black's knight sideways (no capture, no check).
        let line = san_line("rebellion-chess", Some("4k3/8/8/8/8/8/8/4K1n1 w - - 0 1"), &["r:g1h1"]);
        assert_eq!(line, ["r:Nh1"]);
        let game = chess("squirm-chess");
        let mut pos = game.start();
        for text in ["e2e4", "g8f6"] {
            let m = game.parse_move(&pos, text).unwrap();
            game.apply(&mut pos, m);
        }
        let squirms: Vec<String> = {
            let mut moves = <ChessGame as Game>::Moves::default();
            game.legal_moves(&pos, &mut moves);
            moves.iter().filter(|m| m.is_squirm()).map(|&m| to_san(&game, &pos, m)).collect()
        };
        assert!(squirms.iter().all(|s| s.starts_with("r:N") && s.contains('/')), "{squirms:?}");
        assert!(squirms.contains(&"r:Ng6/Nf3".to_string()), "{squirms:?}");
    }
}
