//! The chess family of RULES.md section 6: FIDE chess, Betza's rebellion chess and squirm chess, each
//! with FIDE or Berolina pawns. A bitboard engine with magic sliding attacks and copy-make positions.

pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pgn;
pub mod piece;
pub mod position;
pub mod san;
pub mod tactics;
pub mod variants;
mod zobrist;

use crate::game::ActionIndex;
use bitboard::{NO_SQUARE, bit, tables};
use moves::{ChessMove, MoveKind};
use notation::{ACTIONS, KINDS_PER_SQUARE, NORMAL_KINDS};
use piece::Piece;
use position::Position;
use variants::{Variant, legal_turns, squirm_proof};

use super::spec::{OptionSpec, OptionValues, Options, Ruleset, RulesetInfo};
use super::{Game, GameFacts, MoveError, MoveList, Outcome, PositionError, Reason, Side, illegal_move_error};

/// Worst case of legal turns in one position. A side never has more than 16 pieces (no move creates
/// one, and positions with more are rejected). Its king has at most 8 moves and 2 castlings, and any
/// other piece at most 27 moves (a queen; a pawn has at most 3 targets × 4 promotions), so a side has
/// at most 10 + 15 × 27 = 415 normal moves (FIDE chess's known maximum is 218; the loose bound
/// covers the odd positions rebel steps can reach). Rebellion chess adds at most 5 rebel steps for each
/// of the opponent's 15 other pieces: 490. Squirm chess has the normal moves after no squirm or after
/// each of at most 5 squirms: 6 × 415 = 2490, the bound of the list.
pub const MAX_TURNS: usize = 6 * MAX_NORMAL_MOVES;
pub const MAX_NORMAL_MOVES: usize = 10 + 15 * 27;

#[derive(Clone, Debug)]
pub struct ChessGame {
    spec: String,
    pub variant: Variant,
    pub berolina: bool,
    max_plies: u32,
}

impl ChessGame {
    pub fn new(spec: String, variant: Variant, berolina: bool, max_plies: u32) -> ChessGame {
        ChessGame { spec, variant, berolina, max_plies }
    }

    /// Whether the side to move's king is attacked.
    pub fn in_check(&self, pos: &Position) -> bool {
        pos.king_attacked(tables(), pos.side, self.berolina)
    }

    /// Whether the side to move can capture en passant now: the en-passant part of the repetition
    /// hash. A square passed over by a double step counts only when a legal turn captures on it, as in
    /// the FIDE laws (9.2.3: positions are the same when the same moves are possible). In squirm chess
    /// such a capture is a turn without a squirm, since a squirm clears the en-passant square.
    fn en_passant_available(&self, pos: &Position) -> bool {
        if pos.ep == NO_SQUARE {
            return false;
        }
        let t = tables();
        let mut found = false;
        movegen::normal_moves(pos, t, self.berolina, &mut |m| {
            found |=
                m.kind == MoveKind::EnPassant && (self.variant != Variant::Squirm || squirm_proof(pos, t, m));
        });
        found
    }
}

/// K v K, K+B v K, K+N v K.
fn insufficient_material(pos: &Position) -> bool {
    let p = &pos.pieces;
    let heavy = p[Piece::Pawn as usize] | p[Piece::Rook as usize] | p[Piece::Queen as usize];
    heavy == 0 && (p[Piece::Knight as usize] | p[Piece::Bishop as usize]).count_ones() <= 1
}

impl Game for ChessGame {
    type State = Position;
    type Move = ChessMove;
    type Moves = MoveList<ChessMove, MAX_TURNS>;

    fn spec(&self) -> &str {
        &self.spec
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["white", "black"]
    }

    fn start(&self) -> Position {
        fen::parse(fen::START, Variant::Chess, false, tables()).expect("the start position is valid")
    }

    #[inline]
    fn to_move(&self, pos: &Position) -> Side {
        pos.side
    }

    #[inline]
    fn legal_moves(&self, pos: &Position, out: &mut Self::Moves) {
        out.clear();
        legal_turns(pos, tables(), self.variant, self.berolina, &mut |m| out.push(m));
    }

    #[inline]
    fn apply(&self, pos: &mut Position, m: ChessMove) {
        if m.kind == MoveKind::Rebel {
            pos.step_piece(m.from, m.to);
            pos.halfmove = pos.halfmove.saturating_add(1);
            pos.pass_turn();
            return;
        }
        if m.is_squirm() {
            pos.step_piece(pos.squirmable, m.squirm_to);
        }
        pos.apply_normal(m);
        if self.variant != Variant::Squirm {
            pos.squirmable = NO_SQUARE;
        }
    }

    fn immediate_result(&self, _pos: &Position) -> Option<Outcome> {
        None
    }

    /// Chess has no immediate results (mate is a position with no legal move), so no move wins at once.
    fn winning_move(&self, _pos: &Position, _scratch: &mut Self::Moves) -> Option<Self::Move> {
        None
    }

    fn no_moves_result(&self, pos: &Position) -> Outcome {
        if self.in_check(pos) {
            Outcome::win(pos.side.opponent(), Reason::Checkmate)
        } else {
            Outcome::draw(Reason::Stalemate)
        }
    }

    fn rule_draw(&self, pos: &Position) -> Option<Reason> {
        if pos.halfmove >= 100 {
            Some(Reason::FiftyMoves)
        } else if insufficient_material(pos) {
            Some(Reason::InsufficientMaterial)
        } else {
            None
        }
    }

    fn is_irreversible(&self, pos: &Position, m: ChessMove) -> bool {
        m.kind != MoveKind::Rebel
            && (pos.colours[pos.side.opponent().index()] & bit(m.to) != 0
                || m.kind == MoveKind::EnPassant
                || pos.pieces[Piece::Pawn as usize] & bit(m.from) != 0)
    }

    fn material(&self, pos: &Position) -> Option<[u32; 2]> {
        Some(pos.colours.map(|c| c.count_ones()))
    }

    fn position_hash(&self, pos: &Position) -> u64 {
        zobrist::hash(pos, self.en_passant_available(pos))
    }

    fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        fen::parse(text, self.variant, self.berolina, tables())
    }

    fn format_position(&self, pos: &Position) -> String {
        fen::format(pos, self.variant, self.berolina)
    }

    fn format_move(&self, pos: &Position, m: ChessMove) -> String {
        notation::format_move(pos, m)
    }

    fn display_move(&self, pos: &Position, m: ChessMove) -> String {
        san::to_san(self, pos, m)
    }

    /// Coordinate notation (RULES.md section 7), or SAN ([`san`]) when the text is not of that shape.
    fn parse_move(&self, pos: &Position, text: &str) -> Result<ChessMove, MoveError> {
        let wanted = match notation::normalize(text) {
            Ok(wanted) => wanted,
            // A SAN-shaped text that is no legal move is illegal, not unreadable (`O-O` with the king
            // in check).
            Err(malformed) => {
                return san::parse_san(self, pos, text)
                    .map_err(|illegal| if san::has_san_shape(text) { illegal } else { malformed });
            }
        };
        let mut moves = Self::Moves::default();
        self.legal_moves(pos, &mut moves);
        let find =
            |spelling: &str| moves.iter().copied().find(|&m| notation::format_move(pos, m) == spelling);
        find(&wanted)
            .or_else(|| notation::castling_alias(&wanted).and_then(|alias| find(&alias)))
            .ok_or_else(|| illegal_move_error(self, pos, text))
    }

    fn render(&self, pos: &Position) -> String {
        notation::render(pos, self.variant == Variant::Squirm)
    }

    fn facts(&self) -> GameFacts {
        GameFacts { grid: (8, 8), action_count: ACTIONS, max_plies: self.max_plies }
    }

    /// Every action is `origin × KINDS_PER_SQUARE + kind`, one space for the whole family (every
    /// variant reports the same action count, so one network serves them all). A normal move's kind
    /// is its AlphaZero plane (0..73); a squirm turn's is its normal move's plane shifted by
    /// `(1 + squirm direction) × 73` (the squirm's origin is the one squirmable square, so its
    /// direction identifies it; the origin is the normal move's); a rebel step's is `6 × 73 + its
    /// owner-relative direction`.
    fn action_index(&self, pos: &Position, m: ChessMove) -> ActionIndex {
        let owner = pos.side.opponent();
        let kind = if m.kind == MoveKind::Rebel {
            6 * NORMAL_KINDS + notation::rebel_direction(m.from, m.to, owner)
        } else if m.is_squirm() {
            let squirm = notation::rebel_direction(pos.squirmable, m.squirm_to, owner);
            (1 + squirm) * NORMAL_KINDS + notation::normal_kind(m.from, m.to, m.kind)
        } else {
            notation::normal_kind(m.from, m.to, m.kind)
        };
        ActionIndex::new(m.from as usize * KINDS_PER_SQUARE + kind)
    }
}

// ---------------------------------------------------------------------------------------------------
// The rulesets of the family.

const MAX_PLIES: OptionSpec = OptionSpec {
    key: "max_plies",
    values: OptionValues::Range(1, u32::MAX),
    default: "300",
    meaning: "draw by cap after this many moves",
};
const PAWNS: OptionSpec = OptionSpec {
    key: "pawns",
    values: OptionValues::Choice(&["fide", "berolina"]),
    default: "fide",
    meaning: "berolina: pawns move diagonally and capture straight ahead (RULES.md 6.5)",
};

pub static RULESETS: &[Ruleset<ChessGame>] = &[
    Ruleset {
        info: RulesetInfo {
            name: "chess",
            summary: "FIDE chess, to verify the move generator against published perft tables",
            source: "RULES.md §6.1; the FIDE Laws of Chess",
            options: &[MAX_PLIES],
            preset: &[],
        },
        build: build_chess,
    },
    Ruleset {
        info: RulesetInfo {
            name: "rebellion-chess",
            summary: "each turn a normal move or a one-square rebel step of an enemy piece",
            source: "RULES.md §6.2–6.3; Betza's Rebellion Chess",
            options: &[PAWNS, MAX_PLIES],
            preset: &[],
        },
        build: build_chess,
    },
    Ruleset {
        info: RulesetInfo {
            name: "squirm-chess",
            summary: "each turn an optional rebel step of the enemy piece that just moved, then a normal move",
            source: "RULES.md §6.2, 6.4; Betza's Squirm Chess",
            options: &[PAWNS, MAX_PLIES],
            preset: &[],
        },
        build: build_chess,
    },
];

fn build_chess(info: &'static RulesetInfo, options: Options) -> ChessGame {
    let variant = match info.name {
        "rebellion-chess" => Variant::Rebellion,
        "squirm-chess" => Variant::Squirm,
        _ => Variant::Chess,
    };
    let berolina = variant != Variant::Chess && options.get("pawns") == "berolina";
    ChessGame::new(options.canonical_spec(info.name), variant, berolina, options.get_u32("max_plies"))
}
