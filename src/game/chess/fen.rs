//! FEN (RULES.md section 7): reading with checks that name the problem, and writing. Squirm chess adds
//! a seventh field, the squirmable square or `-`. A Berolina en-passant square does not say which pawn
//! double-stepped when two could have; such a position writes the field as the square passed over
//! followed by the pawn's square (`d3e4`), and reading accepts both forms.

use super::bitboard::{NO_SQUARE, Square, Tables, bit, file_of, parse_square, rank_of, square_name};
use super::piece::{BLACK, Piece, WHITE};
use super::position::{BLACK_KINGSIDE, BLACK_QUEENSIDE, Position, WHITE_KINGSIDE, WHITE_QUEENSIDE};
use super::variants::{Variant, rebel_steps};
use crate::game::{PositionError, Side};

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const CASTLING_LETTERS: [(char, u8, Square, Square); 4] = [
    ('K', WHITE_KINGSIDE, 4, 7),
    ('Q', WHITE_QUEENSIDE, 4, 0),
    ('k', BLACK_KINGSIDE, 60, 63),
    ('q', BLACK_QUEENSIDE, 60, 56),
];

pub fn parse(text: &str, variant: Variant, berolina: bool, t: &Tables) -> Result<Position, PositionError> {
    let err = |problem: String| PositionError::new(text, problem);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let allowed: &[usize] = if variant == Variant::Squirm { &[4, 6, 7] } else { &[4, 6] };
    if !allowed.contains(&fields.len()) {
        let expected = if variant == Variant::Squirm {
            "7 fields (placement, side, castling, en passant, halfmove clock, move number, squirmable square)"
        } else {
            "6 fields (placement, side, castling, en passant, halfmove clock, move number)"
        };
        return Err(err(format!("expected {expected}, found {}", fields.len())));
    }
    let mut pos = Position::empty();
    parse_placement(fields[0], &mut pos).map_err(err)?;
    pos.side = match fields[1] {
        "w" => WHITE,
        "b" => BLACK,
        other => return Err(err(format!("side to move must be `w` or `b`, found `{other}`"))),
    };
    check_material(&pos).map_err(err)?;
    pos.castling = parse_castling(fields[2], &pos).map_err(err)?;
    let (ep, victim) = parse_en_passant(fields[3], &pos, berolina).map_err(err)?;
    pos.ep = ep;
    pos.ep_victim = victim;
    if fields.len() >= 6 {
        pos.halfmove = fields[4]
            .parse()
            .map_err(|_| err(format!("halfmove clock must be a number 0..65535, found `{}`", fields[4])))?;
        pos.fullmove = fields[5]
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| err(format!("move number must be a number ≥ 1, found `{}`", fields[5])))?;
    }
    if fields.len() == 7 {
        pos.squirmable = parse_squirmable(fields[6], &pos).map_err(err)?;
    }
    if pos.king_attacked(t, pos.side.opponent(), berolina) {
        return Err(err(format!("the side not to move ({}) is in check", side_name(pos.side.opponent()))));
    }
    if variant == Variant::Squirm && squirm_exposes_owner(&pos, t) {
        return Err(err(format!(
            "a squirm of the piece on {} would expose its own king, so the last move was illegal",
            square_name(pos.squirmable)
        )));
    }
    Ok(pos)
}

fn side_name(side: Side) -> &'static str {
    if side == WHITE { "white" } else { "black" }
}

fn parse_placement(field: &str, pos: &mut Position) -> Result<(), String> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("the placement must have 8 ranks separated by `/`, found {}", ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(run) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += run as u8;
            } else {
                let piece = Piece::ALL
                    .into_iter()
                    .find(|p| p.letter() == c.to_ascii_uppercase())
                    .ok_or_else(|| format!("`{c}` is not a piece letter (PNBRQK, pnbrqk) or a digit 1..8"))?;
                if file >= 8 {
                    return Err(format!("rank {} has more than 8 squares", rank + 1));
                }
                let side = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                pos.put(side, piece, rank * 8 + file);
                file += 1;
            }
            if file > 8 {
                return Err(format!("rank {} has more than 8 squares", rank + 1));
            }
        }
        if file != 8 {
            return Err(format!("rank {} has {file} squares, not 8", rank + 1));
        }
    }
    Ok(())
}

fn check_material(pos: &Position) -> Result<(), String> {
    for side in [WHITE, BLACK] {
        let kings = pos.of(side, Piece::King).count_ones();
        if kings != 1 {
            return Err(format!("{} has {kings} kings; each side needs exactly one", side_name(side)));
        }
        let count = pos.colours[side.index()].count_ones();
        if count > 16 {
            return Err(format!("{} has {count} pieces; a side has at most 16", side_name(side)));
        }
    }
    let back_ranks = 0xFF00_0000_0000_00FFu64;
    if pos.pieces[Piece::Pawn as usize] & back_ranks != 0 {
        return Err("a pawn stands on rank 1 or 8".to_string());
    }
    Ok(())
}

fn parse_castling(field: &str, pos: &Position) -> Result<u8, String> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0u8;
    for c in field.chars() {
        let &(_, right, king, rook) = CASTLING_LETTERS
            .iter()
            .find(|(letter, ..)| *letter == c)
            .ok_or_else(|| format!("castling rights must be `-` or letters from KQkq, found `{field}`"))?;
        if rights & right != 0 {
            return Err(format!("castling right `{c}` is given twice"));
        }
        let side = if c.is_ascii_uppercase() { WHITE } else { BLACK };
        if pos.of(side, Piece::King) & bit(king) == 0 || pos.of(side, Piece::Rook) & bit(rook) == 0 {
            return Err(format!(
                "castling right `{c}` needs the king on {} and a rook on {}",
                square_name(king),
                square_name(rook)
            ));
        }
        rights |= right;
    }
    Ok(rights)
}

/// The pawns that could have just double-stepped over `ep`: (their square, the square they left).
fn double_step_candidates(ep: Square, mover: Side, berolina: bool) -> impl Iterator<Item = (Square, Square)> {
    // The last mover's pawns go up the board when White moved.
    let dir: i8 = if mover == WHITE { 8 } else { -8 };
    let sideways: &[i8] = if berolina { &[-1, 1] } else { &[0] };
    sideways.iter().filter_map(move |&df| {
        let f = file_of(ep) as i8 + df;
        (0..8).contains(&f).then(|| {
            let to = (ep as i8 + dir + df) as Square;
            let from = (ep as i8 - dir - df) as Square;
            (to, from)
        })
    })
}

fn parse_en_passant(field: &str, pos: &Position, berolina: bool) -> Result<(Square, Square), String> {
    if field == "-" {
        return Ok((NO_SQUARE, NO_SQUARE));
    }
    let bad = || format!("en-passant field must be `-` or a square, found `{field}`");
    let ep = parse_square(field.get(..2).ok_or_else(bad)?).ok_or_else(bad)?;
    let named = match field.get(2..) {
        Some("") => None,
        Some(rest) if berolina => Some(parse_square(rest).ok_or_else(bad)?),
        _ => return Err(bad()),
    };
    let mover = pos.side.opponent();
    let expected_rank = if mover == WHITE { 2 } else { 5 };
    if rank_of(ep) != expected_rank {
        return Err(format!(
            "en-passant square {} must be on rank {} when {} is to move",
            square_name(ep),
            expected_rank + 1,
            side_name(pos.side)
        ));
    }
    let occupied = pos.occupied();
    let pawns = pos.of(mover, Piece::Pawn);
    let candidates: Vec<Square> = double_step_candidates(ep, mover, berolina)
        .filter(|&(to, from)| pawns & bit(to) != 0 && occupied & (bit(from) | bit(ep)) == 0)
        .map(|(to, _)| to)
        .filter(|&to| named.is_none_or(|n| n == to))
        .collect();
    match candidates[..] {
        [victim] => Ok((ep, victim)),
        [] => Err(format!("no {} pawn can just have passed over {}", side_name(mover), square_name(ep))),
        _ => Err(format!(
            "either pawn next to {} could just have passed over it; write the field as {}{} or {}{}",
            square_name(ep),
            square_name(ep),
            square_name(candidates[0]),
            square_name(ep),
            square_name(candidates[1])
        )),
    }
}

fn parse_squirmable(field: &str, pos: &Position) -> Result<Square, String> {
    if field == "-" {
        return Ok(NO_SQUARE);
    }
    let sq = parse_square(field)
        .ok_or_else(|| format!("squirmable field must be `-` or a square, found `{field}`"))?;
    if pos.colour_at(sq) != Some(pos.side.opponent()) {
        return Err(format!(
            "the squirmable square {field} must hold a piece of the side not to move ({})",
            side_name(pos.side.opponent())
        ));
    }
    Ok(sq)
}

/// Whether the side to move could squirm the squirmable piece so that its owner's king is attacked,
/// which no legal last move allows (6.4).
fn squirm_exposes_owner(pos: &Position, t: &Tables) -> bool {
    let sq = pos.squirmable;
    if sq == NO_SQUARE {
        return false;
    }
    let owner = pos.side.opponent();
    let piece = pos.piece_at(sq).expect("checked by parse_squirmable");
    let occupied = pos.occupied();
    rebel_steps(pos, piece, owner, sq)
        .any(|(_, to)| pos.king_seen_by_slider(t, owner, occupied ^ bit(sq) ^ bit(to)))
}

pub fn format(pos: &Position, variant: Variant, berolina: bool) -> String {
    let mut placement = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let sq = rank * 8 + file;
            match (pos.piece_at(sq), pos.colour_at(sq)) {
                (Some(piece), Some(side)) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = piece.letter();
                    placement.push(if side == WHITE { c } else { c.to_ascii_lowercase() });
                }
                _ => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let castling: String = CASTLING_LETTERS
        .iter()
        .filter(|(_, right, ..)| pos.castling & right != 0)
        .map(|(c, ..)| *c)
        .collect();
    let mut text = format!(
        "{placement} {} {} {} {} {}",
        if pos.side == WHITE { 'w' } else { 'b' },
        if castling.is_empty() { "-".to_string() } else { castling },
        en_passant_field(pos, berolina),
        pos.halfmove,
        pos.fullmove
    );
    if variant == Variant::Squirm {
        text.push(' ');
        text.push_str(&if pos.squirmable == NO_SQUARE {
            "-".to_string()
        } else {
            square_name(pos.squirmable)
        });
    }
    text
}

fn en_passant_field(pos: &Position, berolina: bool) -> String {
    if pos.ep == NO_SQUARE {
        return "-".to_string();
    }
    let mover = pos.side.opponent();
    let pawns = pos.of(mover, Piece::Pawn);
    let occupied = pos.occupied();
    let ambiguous = double_step_candidates(pos.ep, mover, berolina)
        .filter(|&(to, from)| pawns & bit(to) != 0 && occupied & bit(from) == 0)
        .count()
        > 1;
    if ambiguous {
        format!("{}{}", square_name(pos.ep), square_name(pos.ep_victim))
    } else {
        square_name(pos.ep)
    }
}
