//! The input planes of the chess family (chess, rebellion-chess, squirm-chess, each with FIDE or
//! Berolina pawns) on the 8 × 8 board: one layout for every ruleset of the family, so one network
//! serves them all.
//!
//! **Orientation.** The board is *not* flipped for the side to move: column = file a..h, row = rank
//! 1..8, from White's side, whoever is to move. The reason is the policy: [`ChessGame`]'s
//! [`action_index`](crate::game::Game::action_index) is absolute (a normal move's index is its origin
//! square × AlphaZero's 73 move kinds, by absolute direction; a rebel step's is its absolute origin ×
//! the owner-relative direction; a squirm turn's shifts its normal move's index), so an unflipped input
//! keeps a piece's cell and its moves' policy entries on the same square. The network learns both
//! orientations, told apart by the side-to-move plane. Piece and castling planes are nevertheless
//! ordered by the side to move ("own" first, "opponent" second), so the same piece planes always hold
//! the pieces the network is choosing moves for.
//!
//! **Symmetry.** None: castling tells the kingside from the queenside, so the left-right mirror is not
//! a symmetry of the rules, and a colour flip would need a flipped policy index (see
//! [`symmetry`](crate::nn::symmetry)). No training-data augmentation for this family.
//!
//! | plane | holds |
//! | --- | --- |
//! | 0–5 | 1 on each of the side to move's pawns, knights, bishops, rooks, queens, king |
//! | 6–11 | 1 on each of the opponent's pawns, knights, bishops, rooks, queens, king |
//! | 12 | constant: 1 when Black is to move, 0 for White |
//! | 13 | constant: 1 when the side to move may still castle kingside |
//! | 14 | constant: 1 when the side to move may still castle queenside |
//! | 15 | constant: 1 when the opponent may still castle kingside |
//! | 16 | constant: 1 when the opponent may still castle queenside |
//! | 17 | 1 on the en-passant square (the square a pawn passed over in a double step on the last move) |
//! | 18 | 1 on the pawn an en-passant capture would remove (only Berolina pawns make this ambiguous) |
//! | 19 | squirm-chess: 1 on the squirmable square (the opponent's piece that made its last normal move, which the side to move may squirm, RULES.md 6.4) |
//! | 20 | constant: fifty-move progress, halfmove clock / 100 (capped at 1) |
//! | 21 | constant: cap progress, plies played / `max_plies` |
//! | 22 | constant: 1 for rebellion-chess |
//! | 23 | constant: 1 for squirm-chess (chess has 0 in both variant planes) |
//! | 24 | constant: 1 for Berolina pawns (`pawns=berolina`) |
//!
//! The en-passant planes hold the position's square whether or not a capture there is legal (the
//! repetition hash counts it only when it is); the network can see which pawns stand next to it.

use super::{Encoder, PlaneWriter, cap_progress};
use crate::game::Game;
use crate::game::chess::ChessGame;
use crate::game::chess::bitboard::{NO_SQUARE, Square, file_of, rank_of, squares};
use crate::game::chess::piece::{BLACK, Piece, WHITE};
use crate::game::chess::position::{
    BLACK_KINGSIDE, BLACK_QUEENSIDE, Position, WHITE_KINGSIDE, WHITE_QUEENSIDE,
};
use crate::game::chess::variants::Variant;

const OWN_PIECES_PLANE: usize = 0;
const OPPONENT_PIECES_PLANE: usize = 6;
const TO_MOVE_PLANE: usize = 12;
const OWN_KINGSIDE_PLANE: usize = 13;
const OWN_QUEENSIDE_PLANE: usize = 14;
const OPPONENT_KINGSIDE_PLANE: usize = 15;
const OPPONENT_QUEENSIDE_PLANE: usize = 16;
const EN_PASSANT_PLANE: usize = 17;
const EN_PASSANT_VICTIM_PLANE: usize = 18;
const SQUIRMABLE_PLANE: usize = 19;
const FIFTY_MOVE_PLANE: usize = 20;
const PROGRESS_PLANE: usize = 21;
const REBELLION_PLANE: usize = 22;
const SQUIRM_PLANE: usize = 23;
const BEROLINA_PLANE: usize = 24;
const PLANES: usize = 25;
const GRID: (usize, usize) = (8, 8);

/// Plies without a capture or pawn move after which the fifty-move rule draws (RULES.md 0.4).
const FIFTY_MOVE_PLIES: f32 = 100.0;

/// The chess-family layout (see the module table); one for every ruleset and option value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ChessEncoder;

/// The `(column, row)` cell of a square: file, rank, from White's side.
#[inline]
fn cell(square: Square) -> (usize, usize) {
    (file_of(square) as usize, rank_of(square) as usize)
}

#[inline]
fn flag(on: bool) -> f32 {
    if on { 1.0 } else { 0.0 }
}

impl Encoder for ChessEncoder {
    type Game = ChessGame;

    fn for_game(_game: &ChessGame) -> ChessEncoder {
        ChessEncoder
    }

    fn planes(&self) -> usize {
        PLANES
    }

    fn grid(&self) -> (usize, usize) {
        GRID
    }

    fn encode(&self, game: &ChessGame, pos: &Position, plies_played: u32, out: &mut [f32]) {
        debug_assert_eq!(game.facts().grid, GRID);
        let mut planes = PlaneWriter::new(out, PLANES, GRID);
        let us = pos.side;
        let them = us.opponent();
        for (first, side) in [(OWN_PIECES_PLANE, us), (OPPONENT_PIECES_PLANE, them)] {
            for piece in Piece::ALL {
                for square in squares(pos.of(side, piece)) {
                    planes.set(first + piece as usize, cell(square), 1.0);
                }
            }
        }
        planes.fill(TO_MOVE_PLANE, flag(us == BLACK));
        let (own, opponent) = if us == WHITE {
            ((WHITE_KINGSIDE, WHITE_QUEENSIDE), (BLACK_KINGSIDE, BLACK_QUEENSIDE))
        } else {
            ((BLACK_KINGSIDE, BLACK_QUEENSIDE), (WHITE_KINGSIDE, WHITE_QUEENSIDE))
        };
        for (plane, right) in [
            (OWN_KINGSIDE_PLANE, own.0),
            (OWN_QUEENSIDE_PLANE, own.1),
            (OPPONENT_KINGSIDE_PLANE, opponent.0),
            (OPPONENT_QUEENSIDE_PLANE, opponent.1),
        ] {
            planes.fill(plane, flag(pos.castling & right != 0));
        }
        if pos.ep != NO_SQUARE {
            planes.set(EN_PASSANT_PLANE, cell(pos.ep), 1.0);
        }
        if pos.ep_victim != NO_SQUARE {
            planes.set(EN_PASSANT_VICTIM_PLANE, cell(pos.ep_victim), 1.0);
        }
        if game.variant == Variant::Squirm && pos.squirmable != NO_SQUARE {
            planes.set(SQUIRMABLE_PLANE, cell(pos.squirmable), 1.0);
        }
        planes.fill(FIFTY_MOVE_PLANE, (f32::from(pos.halfmove) / FIFTY_MOVE_PLIES).min(1.0));
        planes.fill(PROGRESS_PLANE, cap_progress(plies_played, game.max_plies()));
        planes.fill(REBELLION_PLANE, flag(game.variant == Variant::Rebellion));
        planes.fill(SQUIRM_PLANE, flag(game.variant == Variant::Squirm));
        planes.fill(BEROLINA_PLANE, flag(game.berolina));
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::game::chess::bitboard::{parse_square, square_name};
    use crate::game::chess::moves::MoveKind;
    use crate::game::testkit::chess_game;

    /// Every ruleset of the family with each pawn kind.
    const SPECS: [&str; 5] = [
        "chess",
        "rebellion-chess",
        "rebellion-chess:pawns=berolina",
        "squirm-chess",
        "squirm-chess:pawns=berolina",
    ];

    fn encode(game: &ChessGame, pos: &Position, plies: u32) -> Vec<f32> {
        let mut out = vec![f32::NAN; ChessEncoder.input_len()];
        ChessEncoder::for_game(game).encode(game, pos, plies, &mut out);
        out
    }

    fn plane(planes: &[f32], index: usize) -> &[f32] {
        &planes[index * 64..(index + 1) * 64]
    }

    /// The names of the squares where `plane` is non-zero, a1 first.
    fn lit(planes: &[f32], index: usize) -> Vec<String> {
        let cells = plane(planes, index);
        (0..64u8)
            .filter(|&s| cells[rank_of(s) as usize * 8 + file_of(s) as usize] != 0.0)
            .map(square_name)
            .collect()
    }

    fn names(squares: &str) -> Vec<String> {
        let mut parsed: Vec<Square> = squares.split_whitespace().map(|s| parse_square(s).unwrap()).collect();
        parsed.sort();
        parsed.into_iter().map(square_name).collect()
    }

    fn constant(planes: &[f32], index: usize) -> f32 {
        let cells = plane(planes, index);
        assert!(cells.iter().all(|&v| v == cells[0]), "plane {index} is not constant");
        cells[0]
    }

    /// The constant planes from the side to move onwards, the square planes (17–19) left out.
    fn constants(planes: &[f32]) -> Vec<f32> {
        (TO_MOVE_PLANE..EN_PASSANT_PLANE)
            .chain(FIFTY_MOVE_PLANE..PLANES)
            .map(|p| constant(planes, p))
            .collect()
    }

    #[test]
    fn the_start_position_lights_the_squares_of_the_fen() {
        let game = chess_game("chess");
        let planes = encode(&game, &game.start(), 0);
        assert_eq!((ChessEncoder.planes(), ChessEncoder.grid()), (25, (8, 8)));
        assert_eq!(planes.len(), 25 * 8 * 8);
        let white = ["a2 b2 c2 d2 e2 f2 g2 h2", "b1 g1", "c1 f1", "a1 h1", "d1", "e1"];
        let black = ["a7 b7 c7 d7 e7 f7 g7 h7", "b8 g8", "c8 f8", "a8 h8", "d8", "e8"];
        for (offset, (own, opponent)) in white.iter().zip(black).enumerate() {
            assert_eq!(lit(&planes, OWN_PIECES_PLANE + offset), names(own), "own plane {offset}");
            assert_eq!(
                lit(&planes, OPPONENT_PIECES_PLANE + offset),
                names(opponent),
                "opponent plane {offset}"
            );
        }
        for square_plane in [EN_PASSANT_PLANE, EN_PASSANT_VICTIM_PLANE, SQUIRMABLE_PLANE] {
            assert!(lit(&planes, square_plane).is_empty(), "plane {square_plane}");
        }
        // White to move, all four castling rights, no progress, plain chess.
        assert_eq!(constants(&planes), vec![0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn black_to_move_gets_the_own_planes_on_an_unflipped_board() {
        let game = chess_game("chess");
        let mut pos = game.start();
        let e2e4 = game.parse_move(&pos, "e2e4").unwrap();
        game.apply(&mut pos, e2e4);
        let planes = encode(&game, &pos, 1);
        assert_eq!(lit(&planes, OWN_PIECES_PLANE), names("a7 b7 c7 d7 e7 f7 g7 h7"));
        assert_eq!(lit(&planes, OWN_PIECES_PLANE + 5), names("e8"));
        assert_eq!(lit(&planes, OPPONENT_PIECES_PLANE), names("a2 b2 c2 d2 e4 f2 g2 h2"));
        assert_eq!(lit(&planes, OPPONENT_PIECES_PLANE + 5), names("e1"));
        assert_eq!(lit(&planes, EN_PASSANT_PLANE), names("e3"));
        assert_eq!(lit(&planes, EN_PASSANT_VICTIM_PLANE), names("e4"));
        assert_eq!(constant(&planes, TO_MOVE_PLANE), 1.0);
        assert_eq!(constant(&planes, PROGRESS_PLANE), 1.0 / 300.0);
        // Plain chess keeps no squirmable square even though the position records one.
        assert!(lit(&planes, SQUIRMABLE_PLANE).is_empty());
    }

    #[test]
    fn castling_rights_follow_the_side_to_move_and_counters_scale() {
        let game = chess_game("squirm-chess:max_plies=200");
        // White may castle only kingside, Black only queenside; Black is to move, so its rights come
        // first. The squirmable piece is White's knight on f3.
        let pos = game.parse_position("r3k2r/8/8/8/8/5N2/8/R3K2R b Kq - 37 40 f3").unwrap();
        let planes = encode(&game, &pos, 50);
        assert_eq!(lit(&planes, SQUIRMABLE_PLANE), names("f3"));
        assert_eq!(lit(&planes, OPPONENT_PIECES_PLANE + Piece::Knight as usize), names("f3"));
        let expected = [
            (TO_MOVE_PLANE, 1.0),
            (OWN_KINGSIDE_PLANE, 0.0),
            (OWN_QUEENSIDE_PLANE, 1.0),
            (OPPONENT_KINGSIDE_PLANE, 1.0),
            (OPPONENT_QUEENSIDE_PLANE, 0.0),
            (FIFTY_MOVE_PLANE, 0.37),
            (PROGRESS_PLANE, 0.25),
            (REBELLION_PLANE, 0.0),
            (SQUIRM_PLANE, 1.0),
            (BEROLINA_PLANE, 0.0),
        ];
        for (index, value) in expected {
            assert_eq!(constant(&planes, index), value, "plane {index}");
        }
        // A halfmove clock past 100 (a typed position) saturates.
        let pos = game.parse_position("4k3/8/8/8/8/8/8/4K3 w - - 250 200 -").unwrap();
        assert_eq!(constant(&encode(&game, &pos, 0), FIFTY_MOVE_PLANE), 1.0);
    }

    #[test]
    fn a_berolina_en_passant_names_the_pawn_it_would_remove() {
        let game = chess_game("rebellion-chess:pawns=berolina");
        // Both c2–e4 and e2–c4 pass over d3; the field names which pawn double-stepped.
        let placement = "rnbqkbnr/pppppppp/8/8/2P1P3/8/PP1P1PPP/RNBQKBNR b KQkq";
        for (victim, other) in [("e4", "c4"), ("c4", "e4")] {
            let pos = game.parse_position(&format!("{placement} d3{victim} 0 1")).unwrap();
            let planes = encode(&game, &pos, 1);
            assert_eq!(lit(&planes, EN_PASSANT_PLANE), names("d3"));
            assert_eq!(lit(&planes, EN_PASSANT_VICTIM_PLANE), names(victim), "not {other}");
        }
    }

    #[test]
    fn every_variant_and_pawn_kind_is_distinguishable() {
        let switches: Vec<Vec<f32>> = SPECS
            .iter()
            .map(|spec| {
                let game = chess_game(spec);
                let planes = encode(&game, &game.start(), 0);
                [REBELLION_PLANE, SQUIRM_PLANE, BEROLINA_PLANE].map(|p| constant(&planes, p)).to_vec()
            })
            .collect();
        let expected = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, 1.0, 1.0]];
        for (spec, (got, want)) in SPECS.iter().zip(switches.iter().zip(expected)) {
            assert_eq!(got, &want.to_vec(), "{spec}");
        }
        for (i, a) in switches.iter().enumerate() {
            for b in &switches[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn every_ruleset_of_the_family_shares_one_layout() {
        let encoder = ChessEncoder::for_game(&chess_game("chess"));
        for spec in SPECS.iter().chain(&["chess:max_plies=40", "squirm-chess:pawns=berolina,max_plies=999"]) {
            let game = chess_game(spec);
            assert_eq!(ChessEncoder::for_game(&game), encoder, "{spec}");
            assert_eq!(encoder.grid(), game.facts().grid, "{spec}");
        }
    }

    /// Seeded random games of every ruleset: each position encodes without panic, twice alike into
    /// dirty buffers, with values in 0..=1, one piece per occupied square, and every legal turn's
    /// origin lit on the plane of the piece that moves, and its policy index in that origin's cell
    /// of the per-cell head, distinct from every other legal turn's.
    #[test]
    fn random_game_positions_encode_deterministically_and_agree_with_the_policy_squares() {
        let encoder = ChessEncoder;
        let (mut first, mut second) = (vec![f32::NAN; encoder.input_len()], vec![7.0; encoder.input_len()]);
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        for spec in SPECS {
            let game = chess_game(spec);
            let crate::nn::PolicyHead::PerCell { kinds } = crate::nn::NetGame::policy_head(&game) else {
                panic!("chess has a per-cell head")
            };
            assert_eq!(kinds * 64, game.facts().action_count, "{spec}");
            let mut moves = <ChessGame as Game>::Moves::default();
            for _ in 0..2 {
                let mut pos = game.start();
                for plies in 0..120 {
                    encoder.encode(&game, &pos, plies, &mut first);
                    encoder.encode(&game, &pos, plies, &mut second);
                    let text = game.format_position(&pos);
                    assert!(first == second, "{spec}: encoding is not deterministic at {text}");
                    assert!(
                        first.iter().all(|v| (0.0..=1.0).contains(v)),
                        "{spec}: value out of range at {text}"
                    );
                    let pieces: Vec<f32> = (0..64)
                        .map(|cell| (0..OPPONENT_PIECES_PLANE + 6).map(|p| first[p * 64 + cell]).sum())
                        .collect();
                    for square in 0..64u8 {
                        let occupied = pos.occupied() >> square & 1;
                        assert_eq!(pieces[cell_index(square)], occupied as f32, "{spec}: {text} at {square}");
                    }
                    game.legal_moves(&pos, &mut moves);
                    let mut indices = std::collections::HashSet::new();
                    for &m in moves.iter() {
                        let index = game.action_index(&pos, m).get();
                        assert_eq!(
                            index / kinds,
                            cell_index(m.from),
                            "{spec}: {}",
                            game.format_move(&pos, m)
                        );
                        assert!(indices.insert(index), "{spec}: two turns share index {index} at {text}");
                        // A rebel step moves an opponent's piece; any other turn one of the mover's.
                        let owners =
                            if m.kind == MoveKind::Rebel { OPPONENT_PIECES_PLANE } else { OWN_PIECES_PLANE };
                        let lit_own = (owners..owners + 6).any(|p| first[p * 64 + cell_index(m.from)] == 1.0);
                        assert!(lit_own, "{spec}: {} at {text}", game.format_move(&pos, m));
                        if m.is_squirm() {
                            assert_eq!(first[SQUIRMABLE_PLANE * 64 + cell_index(pos.squirmable)], 1.0);
                        }
                    }
                    if moves.is_empty() || game.rule_draw(&pos).is_some() {
                        break;
                    }
                    game.apply(&mut pos, moves[rng.random_range(0..moves.len())]);
                }
            }
        }
    }

    fn cell_index(square: Square) -> usize {
        let (column, row) = cell(square);
        row * 8 + column
    }
}
