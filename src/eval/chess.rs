//! The chess family's evaluation: a sum of weighted terms, each with a middlegame and an endgame
//! weight blended by the material left (the phase: 24 with every knight, bishop, rook and queen on
//! the board, 0 with none). Terms: material, piece-square tables, passed (by rank), doubled and
//! isolated pawns, the bishop pair, rooks on open and half-open files, mobility per piece, attacks on
//! the squares round the enemy king, the pawn shield in front of one's own king, and the variants'
//! own: the rebel steps a side can make (rebellion chess: moves of a kind chess lacks), one's pieces
//! the opponent can rebel-step onto a square he attacks, and, in squirm chess, the squirms the side to
//! move has of the piece that just moved onto a square it attacks.
//!
//! The evaluation is linear in its weights: [`features`] lists each term's count for White less
//! Black's, and the score is their dot product with the weights, so Texel's tuning (`rebel-zero
//! tune`, [`super::texel`] on the games of `crate::train::texel`) fits the weights to game results by gradient descent. The weights live
//! in `configs/eval/chess.toml` (embedded in the binary).

use serde::{Deserialize, Serialize};

use crate::game::Side;
use crate::game::chess::ChessGame;
use crate::game::chess::bitboard::{Bitboard, NO_SQUARE, Square, bit, file_of, rank_of, squares, tables};
use crate::game::chess::piece::{BLACK, Piece, WHITE};
use crate::game::chess::position::Position;
use crate::game::chess::variants::{Variant, rebel_steps};
use crate::search::alphabeta::Evaluation;

/// The weights, term by term, each `[middlegame, endgame]` in centipawns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Pawn, knight, bishop, rook, queen (the king's is 0).
    pub material: [[i32; 2]; 5],
    /// Per piece (pawn … king), per square from White's side, a1 = 0 … h8 = 63 (6 × 64).
    pub squares: Vec<Vec<[i32; 2]>>,
    /// A passed pawn by its rank from its own side (0 = first rank).
    pub passed: [[i32; 2]; 8],
    pub doubled: [i32; 2],
    pub isolated: [i32; 2],
    pub bishop_pair: [i32; 2],
    pub rook_open: [i32; 2],
    pub rook_half_open: [i32; 2],
    /// Per move of a knight, bishop, rook, queen to a square not held by its own side.
    pub mobility: [[i32; 2]; 4],
    /// Per attack of a knight, bishop, rook, queen on the squares round the enemy king.
    pub king_attack: [[i32; 2]; 4],
    /// Per own pawn on the three squares in front of the king (one or two ranks ahead).
    pub pawn_shield: [i32; 2],
    /// The side to move's bonus.
    pub tempo: [i32; 2],
    /// Rebellion chess: per rebel step the side has.
    pub rebel_steps: [i32; 2],
    /// Rebellion chess: per own piece the opponent can rebel-step onto a square he attacks.
    pub exposed: [i32; 2],
    /// Squirm chess: per squirm of the piece that just moved onto a square the side to move attacks.
    pub squirm_threats: [i32; 2],
}

/// The weights the project ships (`configs/eval/chess.toml`).
pub fn shipped() -> &'static Weights {
    static WEIGHTS: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| {
        Weights::parse(include_str!("../../configs/eval/chess.toml")).expect("the shipped weights parse")
    });
    &WEIGHTS
}

/// The number of weights (each term's two).
pub const WEIGHTS: usize = 2 * TERMS;
const TERMS: usize = 5 + 6 * 64 + 8 + 5 + 4 + 4 + 1 + 1 + 3;
// Where each term starts in the flat layout.
const MATERIAL: usize = 0;
const SQUARES: usize = MATERIAL + 5;
const PASSED: usize = SQUARES + 6 * 64;
const DOUBLED: usize = PASSED + 8;
const ISOLATED: usize = DOUBLED + 1;
const BISHOP_PAIR: usize = ISOLATED + 1;
const ROOK_OPEN: usize = BISHOP_PAIR + 1;
const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
const MOBILITY: usize = ROOK_HALF_OPEN + 1;
const KING_ATTACK: usize = MOBILITY + 4;
const PAWN_SHIELD: usize = KING_ATTACK + 4;
const TEMPO: usize = PAWN_SHIELD + 1;
const REBEL_STEPS: usize = TEMPO + 1;
const EXPOSED: usize = REBEL_STEPS + 1;
const SQUIRM_THREATS: usize = EXPOSED + 1;
const _: () = assert!(SQUIRM_THREATS + 1 == TERMS);

impl Weights {
    /// Reads a weights file, checking the tables' sizes.
    pub fn parse(text: &str) -> anyhow::Result<Weights> {
        let weights: Weights = toml::from_str(text)?;
        if weights.squares.len() != 6 || weights.squares.iter().any(|t| t.len() != 64) {
            anyhow::bail!("`squares` must hold 6 tables of 64 squares (pawn … king, a1 … h8)");
        }
        Ok(weights)
    }

    /// The weights as a weights file (`configs/eval/chess.toml`'s layout), after `header` (comment lines).
    pub fn to_toml(&self, header: &str) -> String {
        use std::fmt::Write as _;
        let pair = |p: [i32; 2]| format!("[{}, {}]", p[0], p[1]);
        let pairs =
            |ps: &[[i32; 2]]| format!("[{}]", ps.iter().map(|&p| pair(p)).collect::<Vec<_>>().join(", "));
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "material = {}", pairs(&self.material));
        let _ = writeln!(out, "passed = {}", pairs(&self.passed));
        for (name, value) in [
            ("doubled", self.doubled),
            ("isolated", self.isolated),
            ("bishop_pair", self.bishop_pair),
            ("rook_open", self.rook_open),
            ("rook_half_open", self.rook_half_open),
        ] {
            let _ = writeln!(out, "{name} = {}", pair(value));
        }
        let _ = writeln!(out, "mobility = {}", pairs(&self.mobility));
        let _ = writeln!(out, "king_attack = {}", pairs(&self.king_attack));
        for (name, value) in [
            ("pawn_shield", self.pawn_shield),
            ("tempo", self.tempo),
            ("rebel_steps", self.rebel_steps),
            ("exposed", self.exposed),
            ("squirm_threats", self.squirm_threats),
        ] {
            let _ = writeln!(out, "{name} = {}", pair(value));
        }
        let _ = writeln!(
            out,
            "# squares[piece][square], pieces pawn … king, squares a1 = 0 … h8 = 63 from White's side."
        );
        let _ = writeln!(out, "squares = [");
        for (name, table) in ["pawn", "knight", "bishop", "rook", "queen", "king"].iter().zip(&self.squares) {
            let _ = writeln!(out, "    # {name}\n    [");
            for rank in table.chunks(8) {
                let _ = writeln!(
                    out,
                    "        {},",
                    rank.iter().map(|&p| pair(p)).collect::<Vec<_>>().join(", ")
                );
            }
            let _ = writeln!(out, "    ],");
        }
        let _ = writeln!(out, "]");
        out
    }

    /// The weights as one flat list, term by term, middlegame then endgame.
    pub fn flat(&self) -> Vec<i32> {
        let mut out = Vec::with_capacity(WEIGHTS);
        out.extend(self.material.iter().flatten());
        out.extend(self.squares.iter().flatten().flatten());
        out.extend(self.passed.iter().flatten());
        for pair in [self.doubled, self.isolated, self.bishop_pair, self.rook_open, self.rook_half_open] {
            out.extend(pair);
        }
        out.extend(self.mobility.iter().flatten());
        out.extend(self.king_attack.iter().flatten());
        for pair in [self.pawn_shield, self.tempo, self.rebel_steps, self.exposed, self.squirm_threats] {
            out.extend(pair);
        }
        debug_assert_eq!(out.len(), WEIGHTS);
        out
    }

    /// The weights from a flat list ([`Weights::flat`]'s layout).
    pub fn from_flat(flat: &[i32]) -> Weights {
        assert_eq!(flat.len(), WEIGHTS);
        let pair = |term: usize| [flat[2 * term], flat[2 * term + 1]];
        Weights {
            material: std::array::from_fn(|i| pair(MATERIAL + i)),
            squares: (0..6).map(|p| (0..64).map(|sq| pair(SQUARES + 64 * p + sq)).collect()).collect(),
            passed: std::array::from_fn(|r| pair(PASSED + r)),
            doubled: pair(DOUBLED),
            isolated: pair(ISOLATED),
            bishop_pair: pair(BISHOP_PAIR),
            rook_open: pair(ROOK_OPEN),
            rook_half_open: pair(ROOK_HALF_OPEN),
            mobility: std::array::from_fn(|i| pair(MOBILITY + i)),
            king_attack: std::array::from_fn(|i| pair(KING_ATTACK + i)),
            pawn_shield: pair(PAWN_SHIELD),
            tempo: pair(TEMPO),
            rebel_steps: pair(REBEL_STEPS),
            exposed: pair(EXPOSED),
            squirm_threats: pair(SQUIRM_THREATS),
        }
    }
}

/// The game phase: 24 with all the minor and major pieces on the board, 0 with none.
pub fn phase(pos: &Position) -> i32 {
    let count = |p: Piece| pos.pieces[p as usize].count_ones() as i32;
    (count(Piece::Knight) + count(Piece::Bishop) + 2 * count(Piece::Rook) + 4 * count(Piece::Queen)).min(24)
}

/// The chess family's evaluation with a set of weights.
#[derive(Clone, Debug)]
pub struct ChessEval {
    weights: Vec<i32>,
}

impl ChessEval {
    pub fn new(weights: &Weights) -> ChessEval {
        ChessEval { weights: weights.flat() }
    }

    /// The score for White of `pos` (blended by phase), before the side to move is considered.
    pub fn white_score(&self, game: &ChessGame, pos: &Position) -> i32 {
        let (mut mg, mut eg) = (0, 0);
        features(game, pos, &mut |term, count| {
            mg += self.weights[2 * term] * count;
            eg += self.weights[2 * term + 1] * count;
        });
        let phase = phase(pos);
        (mg * phase + eg * (24 - phase)) / 24
    }
}

impl Default for ChessEval {
    fn default() -> ChessEval {
        ChessEval::new(shipped())
    }
}

impl Evaluation<ChessGame> for ChessEval {
    fn evaluate(&mut self, game: &ChessGame, pos: &Position, _plies: u32) -> i32 {
        let white = self.white_score(game, pos);
        let score = if pos.side == WHITE { white } else { -white };
        score.clamp(-crate::search::alphabeta::MATE_BOUND + 1, crate::search::alphabeta::MATE_BOUND - 1)
    }
}

/// Calls `sink(term, count)` for every term of `pos` with a count other than 0: White's count less
/// Black's, the tempo for the side to move (+1 White, −1 Black).
pub fn features(game: &ChessGame, pos: &Position, sink: &mut impl FnMut(usize, i32)) {
    for side in [WHITE, BLACK] {
        let sign = if side == WHITE { 1 } else { -1 };
        side_features(game, pos, side, &mut |term, count| sink(term, sign * count));
    }
    sink(TEMPO, if pos.side == WHITE { 1 } else { -1 });
    if game.variant == Variant::Squirm {
        let threats = squirm_threats(pos);
        if threats != 0 {
            sink(SQUIRM_THREATS, if pos.side == WHITE { threats } else { -threats });
        }
    }
}

/// `sq` seen from `side`'s side of the board (White's squares unchanged, Black's mirrored by rank).
fn relative(sq: Square, side: Side) -> usize {
    if side == WHITE { sq as usize } else { (sq ^ 56) as usize }
}

const FILE_A: Bitboard = 0x0101_0101_0101_0101;

fn file_mask(file: u8) -> Bitboard {
    FILE_A << file
}

/// The files beside `file`.
fn adjacent_files(file: u8) -> Bitboard {
    (if file > 0 { file_mask(file - 1) } else { 0 }) | (if file < 7 { file_mask(file + 1) } else { 0 })
}

/// The squares ahead of `sq` for `side` on the same and the adjacent files (where an enemy pawn stops a
/// passed pawn).
fn passed_span(sq: Square, side: Side) -> Bitboard {
    let files = file_mask(file_of(sq)) | adjacent_files(file_of(sq));
    let rank = rank_of(sq);
    let ahead: Bitboard = if side == WHITE {
        if rank >= 7 { 0 } else { !0u64 << (8 * (rank + 1)) }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    };
    files & ahead
}

fn side_features(game: &ChessGame, pos: &Position, side: Side, sink: &mut impl FnMut(usize, i32)) {
    let t = tables();
    let them = side.opponent();
    let own = pos.colours[side.index()];
    let occupied = pos.occupied();
    let pawns = pos.of(side, Piece::Pawn);
    let enemy_pawns = pos.of(them, Piece::Pawn);
    for piece in Piece::ALL {
        let set = pos.of(side, piece);
        if piece != Piece::King && set != 0 {
            sink(MATERIAL + piece as usize, set.count_ones() as i32);
        }
        for sq in squares(set) {
            sink(SQUARES + 64 * piece as usize + relative(sq, side), 1);
        }
    }
    // Pawn structure.
    for sq in squares(pawns) {
        if passed_span(sq, side) & enemy_pawns == 0 {
            sink(PASSED + rank_of(relative(sq, side) as Square) as usize, 1);
        }
        if adjacent_files(file_of(sq)) & pawns == 0 {
            sink(ISOLATED, 1);
        }
    }
    let doubled: i32 = (0..8).map(|f| (pawns & file_mask(f)).count_ones().saturating_sub(1) as i32).sum();
    if doubled > 0 {
        sink(DOUBLED, doubled);
    }
    if pos.of(side, Piece::Bishop).count_ones() >= 2 {
        sink(BISHOP_PAIR, 1);
    }
    for sq in squares(pos.of(side, Piece::Rook)) {
        let file = file_mask(file_of(sq));
        if file & (pawns | enemy_pawns) == 0 {
            sink(ROOK_OPEN, 1);
        } else if file & pawns == 0 {
            sink(ROOK_HALF_OPEN, 1);
        }
    }
    // Mobility and attacks round the enemy king.
    let king_zone = t.king[pos.king(them) as usize] | bit(pos.king(them));
    for (i, piece) in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen].into_iter().enumerate() {
        let (mut moves, mut attacks) = (0, 0);
        for sq in squares(pos.of(side, piece)) {
            let reach = match piece {
                Piece::Knight => t.knight[sq as usize],
                Piece::Bishop => t.bishop(sq, occupied),
                Piece::Rook => t.rook(sq, occupied),
                _ => t.queen(sq, occupied),
            };
            moves += (reach & !own).count_ones() as i32;
            attacks += (reach & king_zone).count_ones() as i32;
        }
        if moves > 0 {
            sink(MOBILITY + i, moves);
        }
        if attacks > 0 {
            sink(KING_ATTACK + i, attacks);
        }
    }
    let shield = pawn_shield(pos.king(side), side) & pawns;
    if shield != 0 {
        sink(PAWN_SHIELD, shield.count_ones() as i32);
    }
    if game.variant == Variant::Rebellion {
        rebellion_features(game, pos, side, sink);
    }
}

/// The three squares one and two ranks in front of a king (its file and the adjacent ones).
fn pawn_shield(king: Square, side: Side) -> Bitboard {
    let files = file_mask(file_of(king)) | adjacent_files(file_of(king));
    let rank = rank_of(king) as i32;
    let ranks = if side == WHITE { [rank + 1, rank + 2] } else { [rank - 1, rank - 2] };
    ranks.iter().filter(|r| (0..8).contains(*r)).fold(0, |acc, &r| acc | (files & (0xffu64 << (8 * r))))
}

/// Rebellion chess: the rebel steps `side` can make of the opponent's pieces, and `side`'s own pieces
/// the opponent can rebel-step onto a square the opponent attacks (legality aside: a bound on the
/// threats, cheap to count).
fn rebellion_features(game: &ChessGame, pos: &Position, side: Side, sink: &mut impl FnMut(usize, i32)) {
    let them = side.opponent();
    let steps: i32 =
        pos.pieces_of(them).map(|(piece, sq)| rebel_steps(pos, piece, them, sq).count() as i32).sum();
    if steps > 0 {
        sink(REBEL_STEPS, steps);
    }
    let t = tables();
    let occupied = pos.occupied();
    let mut exposed = 0;
    for (piece, sq) in pos.pieces_of(side).filter(|(p, _)| *p != Piece::King) {
        let attacked = rebel_steps(pos, piece, side, sq).any(|(_, to)| {
            let after = occupied ^ bit(sq) ^ bit(to);
            pos.attackers_to(t, to, after, game.berolina) & pos.colours[them.index()] != 0
        });
        exposed += i32::from(attacked);
    }
    if exposed > 0 {
        sink(EXPOSED, exposed);
    }
}

/// Squirm chess: the squirms the side to move has of the squirmable piece onto a square it attacks.
fn squirm_threats(pos: &Position) -> i32 {
    let sq = pos.squirmable;
    if sq == NO_SQUARE {
        return 0;
    }
    let owner = pos.side.opponent();
    let Some(piece) = pos.piece_at(sq).filter(|_| pos.colour_at(sq) == Some(owner)) else { return 0 };
    let t = tables();
    let occupied = pos.occupied();
    rebel_steps(pos, piece, owner, sq)
        .filter(|&(_, to)| {
            let after = occupied ^ bit(sq) ^ bit(to);
            pos.attackers_to(t, to, after, false) & pos.colours[pos.side.index()] != 0
        })
        .count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn chess(spec: &str) -> ChessGame {
        let crate::game::AnyGame::Chess(g) = crate::game::AnyGame::from_spec(spec).unwrap() else {
            unreachable!()
        };
        g
    }

    #[test]
    fn the_start_is_even_and_mirrored_positions_score_alike() {
        let game = chess("chess");
        let mut eval = ChessEval::default();
        let start = game.start();
        assert_eq!(eval.evaluate(&game, &start, 0), shipped().tempo[0], "only the tempo at the start");
        // A position and its colour-flipped mirror score the same for the side to move.
        let pos = game
            .parse_position("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4")
            .unwrap();
        let mirror = game
            .parse_position("rnbq1rk1/pppp1ppp/5n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQ - 5 4")
            .unwrap();
        assert_eq!(eval.evaluate(&game, &pos, 0), eval.evaluate(&game, &mirror, 0));
    }

    #[test]
    fn the_flat_layout_and_the_file_round_trip() {
        let flat = shipped().flat();
        assert_eq!(flat.len(), WEIGHTS);
        assert_eq!(&Weights::from_flat(&flat), shipped());
        assert_eq!(&Weights::parse(&shipped().to_toml("a header\nof two lines")).unwrap(), shipped());
    }

    #[test]
    fn a_queen_up_scores_far_ahead() {
        let game = chess("rebellion-chess");
        let mut eval = ChessEval::default();
        let up = game.parse_position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(eval.evaluate(&game, &up, 0) > 700);
    }
}
