//! Imperial Contest, Jaques' "The Allied Armies" (RULES.md section 5): the Emperor and eight Russian
//! men against sixteen Allies on a 9 × 9 board.
//!
//! A position is two `u128` sets of men and the Emperor's square, so copy-make is cheap. The result of
//! a position is read off the position itself: no move can put the Emperor into a surround (the square
//! he came from is empty), so a surrounded Emperor with the Russians to move always follows an Allied
//! move.

pub mod board;
mod movegen;
mod notation;
mod state;

pub use state::{
    ALLIES, ImperialMove, ImperialState, MAX_IMPERIAL_MOVES, Moves, RUSSIANS, START_ALLIES, START_RUSSIAN_MEN,
};

use crate::game::ActionIndex;
use board::{NO_SQUARE, SIZE, TABLES, bit, direction_and_distance, neighbour_direction, square};

use super::spec::{OptionSpec, OptionValues, Options, Ruleset, RulesetInfo};
use super::{Game, GameFacts, MoveError, Outcome, PositionError, Reason, Side};

/// Capture slots in the action space: nothing taken, a man next to the destination in direction
/// 0..4 (`1 + d`), or the Rule-11 man, which need not be next to the destination.
pub const CAPTURE_SLOTS: usize = 6;
pub const RULE_ELEVEN_SLOT: usize = 5;
/// Rook distances 1..8.
pub const MAX_DISTANCE: usize = SIZE as usize - 1;

#[derive(Clone, Debug)]
pub struct ImperialGame {
    spec: String,
    first: Side,
    mandatory: bool,
    max_plies: u32,
}

impl ImperialGame {
    pub fn new(spec: String, first: Side, mandatory: bool, max_plies: u32) -> ImperialGame {
        ImperialGame { spec, first, mandatory, max_plies }
    }

    /// The side that moves first (`first`).
    pub fn first(&self) -> Side {
        self.first
    }

    /// Whether a move that can take must take (`capture=mandatory`).
    pub fn mandatory_capture(&self) -> bool {
        self.mandatory
    }
}

/// murmur3's 64-bit finaliser: a bijection that spreads every input bit over the whole word.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl ImperialGame {
    /// [`Game::winning_move`] by generating the legal moves and playing the two kinds that can win.
    fn winning_move_by_generation(&self, s: &ImperialState, scratch: &mut Moves) -> Option<ImperialMove> {
        let gap = TABLES.neighbours[s.emperor as usize] & !s.men[ALLIES.index()];
        let candidate = |m: &ImperialMove| {
            if s.to_move == RUSSIANS {
                m.from == s.emperor && TABLES.border & bit(m.to) != 0
            } else {
                gap.count_ones() == 1 && bit(m.to) == gap
            }
        };
        self.legal_moves(s, scratch);
        scratch.iter().copied().filter(candidate).find(|&m| {
            let mut next = *s;
            self.apply(&mut next, m);
            self.immediate_result(&next).is_some_and(|o| o.winner == Some(s.to_move))
        })
    }
}

impl Game for ImperialGame {
    type State = ImperialState;
    type Move = ImperialMove;
    type Moves = Moves;

    fn spec(&self) -> &str {
        &self.spec
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["russians", "allies"]
    }

    fn start(&self) -> ImperialState {
        let mut state = notation::parse_position(START).expect("the start position parses");
        state.to_move = self.first;
        state
    }

    #[inline]
    fn to_move(&self, s: &ImperialState) -> Side {
        s.to_move
    }

    #[inline]
    fn legal_moves(&self, s: &ImperialState, out: &mut Moves) {
        out.clear();
        if self.immediate_result(s).is_none() {
            movegen::generate(s, self.mandatory, out);
        }
    }

    #[inline]
    fn sample_move<R: rand::Rng>(
        &self,
        s: &ImperialState,
        rng: &mut R,
        _: &mut Moves,
    ) -> Option<ImperialMove> {
        if self.immediate_result(s).is_some() {
            return None;
        }
        movegen::sample(s, self.mandatory, rng)
    }

    #[inline]
    fn apply(&self, s: &mut ImperialState, m: ImperialMove) {
        let (mover, enemy) = (s.to_move.index(), s.to_move.opponent().index());
        if m.from == s.emperor {
            s.emperor = m.to;
        } else {
            s.men[mover] ^= bit(m.from) | bit(m.to);
        }
        if m.taken != NO_SQUARE {
            s.men[enemy] &= !bit(m.taken);
        }
        s.to_move = s.to_move.opponent();
    }

    /// The Emperor on the border has won for the Russians, whoever is to move (only his own move can
    /// put him there). Allies on all four of his neighbours win for the Allies when the Allies made the
    /// last move, that is when the Russians are to move (RULES.md 5: "after an Allied move").
    #[inline]
    fn immediate_result(&self, s: &ImperialState) -> Option<Outcome> {
        if TABLES.border & bit(s.emperor) != 0 {
            return Some(Outcome::win(RUSSIANS, Reason::Border));
        }
        let neighbours = TABLES.neighbours[s.emperor as usize];
        if s.to_move == RUSSIANS && s.men[ALLIES.index()] & neighbours == neighbours {
            return Some(Outcome::win(ALLIES, Reason::Surrounded));
        }
        None
    }

    /// Only two moves can win at once: the Emperor reaching the border, or an Ally filling the last
    /// free neighbour of the Emperor. With optional capture they are found without generating moves;
    /// with mandatory capture they must also be legal, so the moves are generated and filtered.
    fn winning_move(&self, s: &ImperialState, scratch: &mut Moves) -> Option<ImperialMove> {
        if self.immediate_result(s).is_some() {
            return None;
        }
        if !self.mandatory {
            return movegen::quick_win(s);
        }
        self.winning_move_by_generation(s, scratch)
    }

    #[inline]
    fn is_irreversible(&self, _s: &ImperialState, m: ImperialMove) -> bool {
        m.taken != NO_SQUARE
    }

    /// The Russian men with the Emperor, and the Allies.
    fn material(&self, s: &ImperialState) -> Option<[u32; 2]> {
        Some([s.men[0].count_ones() + 1, s.men[1].count_ones()])
    }

    #[inline]
    fn position_hash(&self, s: &ImperialState) -> u64 {
        // The low 64 squares of each side in one word each; the 17 high squares of both sides, the
        // Emperor and the side to move fit together in a third.
        let [russians, allies] = s.men;
        let rest = (russians >> 64) as u64
            | ((allies >> 64) as u64) << 17
            | (s.emperor as u64) << 34
            | (s.to_move.index() as u64) << 41;
        mix(mix(mix(russians as u64) ^ allies as u64) ^ rest)
    }

    fn parse_position(&self, text: &str) -> Result<ImperialState, PositionError> {
        notation::parse_position(text)
    }

    fn format_position(&self, s: &ImperialState) -> String {
        notation::format_position(s)
    }

    fn format_move(&self, _s: &ImperialState, m: ImperialMove) -> String {
        notation::format_move(m)
    }

    fn parse_move(&self, s: &ImperialState, text: &str) -> Result<ImperialMove, MoveError> {
        notation::parse_move(self, s, text)
    }

    /// Ranks 9 down to 1 with file letters below; border squares are framed by the `#` ring.
    fn render(&self, s: &ImperialState) -> String {
        let mut out = String::from("   # # # # # # # # # # #\n");
        for r in (0..SIZE).rev() {
            out.push_str(&format!("{:>2} #", r + 1));
            for f in 0..SIZE {
                let sq = square(f, r);
                let glyph = if sq == s.emperor {
                    'E'
                } else if s.men[RUSSIANS.index()] & bit(sq) != 0 {
                    'R'
                } else if s.men[ALLIES.index()] & bit(sq) != 0 {
                    'A'
                } else if TABLES.border & bit(sq) != 0 {
                    ':'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(glyph);
            }
            out.push_str(" #\n");
        }
        out.push_str("   # # # # # # # # # # #\n     a b c d e f g h i\n");
        out.push_str(&format!(
            "{} Russian men, {} Allies; {} to move (`:` marks the empty border squares)\n",
            s.men[RUSSIANS.index()].count_ones(),
            s.men[ALLIES.index()].count_ones(),
            self.side_names()[s.to_move.index()]
        ));
        out
    }

    fn facts(&self) -> GameFacts {
        GameFacts {
            grid: (SIZE as usize, SIZE as usize),
            action_count: board::SQUARES * 4 * MAX_DISTANCE * CAPTURE_SLOTS,
            max_plies: self.max_plies,
        }
    }

    /// From-square × direction × distance × capture slot. The first three fix the destination; a
    /// man next to the destination is told apart by its direction, and at most one man per position
    /// (Rule 11's) can be taken from afar, so the slot fixes the man.
    fn action_index(&self, _s: &ImperialState, m: ImperialMove) -> ActionIndex {
        let (direction, distance) =
            direction_and_distance(m.from, m.to).expect("a legal move is a rook move");
        let slot = match m.taken {
            NO_SQUARE => 0,
            taken => neighbour_direction(m.to, taken).map_or(RULE_ELEVEN_SLOT, |d| 1 + d),
        };
        ActionIndex::new(
            ((m.from as usize * 4 + direction) * MAX_DISTANCE + distance as usize - 1) * CAPTURE_SLOTS + slot,
        )
    }
}

/// The start position with the Russians to move (RULES.md 5, R7).
pub const START: &str = "3AAA3/4A4/4R4/A3R3A/AARRERRAA/A3R3A/4R4/4A4/3AAA3 r";

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "first",
        values: OptionValues::Choice(&["russians", "allies"]),
        default: "russians",
        meaning: "who moves first (Jaques: by lot, R8)",
    },
    OptionSpec {
        key: "capture",
        values: OptionValues::Choice(&["optional", "mandatory"]),
        default: "optional",
        meaning: "mandatory: a player who can take a man must play a move that takes one",
    },
    OptionSpec {
        key: "max_plies",
        values: OptionValues::Range(1, u32::MAX),
        default: "300",
        meaning: "draw by cap after this many moves",
    },
];

pub static RULESETS: &[Ruleset<ImperialGame>] = &[Ruleset {
    info: RulesetInfo {
        name: "imperial-contest",
        summary: "Jaques' Allied Armies: the Emperor and 8 Russians against 16 Allies; rook moves, custodian capture",
        source: "RULES.md §5; Jaques' printed rules of Imperial Contest, R7 and R8",
        options: OPTIONS,
        preset: &[],
    },
    build: build_imperial,
}];

fn build_imperial(info: &'static RulesetInfo, options: Options) -> ImperialGame {
    let first = if options.get("first") == "russians" { RUSSIANS } else { ALLIES };
    ImperialGame::new(
        options.canonical_spec(info.name),
        first,
        options.get("capture") == "mandatory",
        options.get_u32("max_plies"),
    )
}

/// An Imperial Contest move that takes a man is noisy.
impl crate::game::tactics::Tactics for ImperialGame {
    fn is_noisy(&self, _state: &Self::State, mv: ImperialMove) -> bool {
        mv.taken != NO_SQUARE
    }

    fn noisy_rank(&self, _state: &Self::State, mv: ImperialMove) -> i32 {
        i32::from(mv.taken != NO_SQUARE)
    }
}

#[cfg(test)]
mod tests {
    use super::board::parse_square;
    use super::*;

    #[test]
    fn quick_wins_are_exactly_the_wins_found_by_generating_moves() {
        use rand::{RngExt, SeedableRng};
        let game = crate::game::testkit::imperial_game("imperial-contest");
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(4);
        let (mut scratch, mut wins) = (Moves::default(), 0);
        for _ in 0..300 {
            let mut s = game.start();
            while game.immediate_result(&s).is_none() {
                let quick = movegen::quick_win(&s);
                let generated = game.winning_move_by_generation(&s, &mut scratch);
                assert_eq!(quick.is_some(), generated.is_some(), "{}", game.format_position(&s));
                wins += quick.is_some() as usize;
                game.legal_moves(&s, &mut scratch);
                if scratch.is_empty() {
                    break;
                }
                let m = scratch[rng.random_range(0..scratch.len())];
                game.apply(&mut s, m);
            }
        }
        assert!(wins > 100, "only {wins} winning positions were reached");
    }

    fn game() -> ImperialGame {
        ImperialGame::new("imperial-contest".to_string(), RUSSIANS, false, 300)
    }

    #[test]
    fn the_hash_tells_sides_pieces_and_the_emperor_apart() {
        let g = game();
        let s = g.start();
        let mut other_side = s;
        other_side.to_move = ALLIES;
        let mut swapped = s;
        // The Ally on a4 becomes a Russian man on a4.
        let a4 = bit(parse_square("a4").unwrap());
        swapped.men = [s.men[0] | a4, s.men[1] & !a4];
        let mut high = s;
        // Squares above bit 64 (ranks 8, 9) count too.
        high.men[ALLIES.index()] ^= bit(parse_square("e8").unwrap()) | bit(parse_square("c8").unwrap());
        let hashes = [s, other_side, swapped, high].map(|x| g.position_hash(&x));
        for i in 0..hashes.len() {
            for j in i + 1..hashes.len() {
                assert_ne!(hashes[i], hashes[j], "{i} {j}");
            }
        }
    }

    #[test]
    fn action_indices_give_a_distant_rule_eleven_man_its_own_slot() {
        let g = game();
        let sq = |l: &str| parse_square(l).unwrap();
        let s = g.parse_position("9/9/9/9/1A2ERA2/9/9/9/9 a").unwrap();
        let quiet = ImperialMove { from: sq("b5"), to: sq("d5"), taken: NO_SQUARE };
        let rule_eleven = ImperialMove { taken: sq("f5"), ..quiet };
        let base = ((sq("b5") as usize * 4 + board::EAST) * MAX_DISTANCE + 1) * CAPTURE_SLOTS;
        assert_eq!(g.action_index(&s, quiet).get(), base);
        assert_eq!(g.action_index(&s, rule_eleven).get(), base + RULE_ELEVEN_SLOT);
        let next_to = ImperialMove { taken: sq("d6"), ..quiet };
        assert_eq!(g.action_index(&s, next_to).get(), base + 1 + board::NORTH);
        assert_eq!(g.facts().action_count, 81 * 4 * 8 * 6);
    }

    #[test]
    fn render_marks_the_border_and_the_side_to_move() {
        let g = game();
        let text = g.render(&g.parse_position("9/9/9/9/4E4/9/9/9/A8 a").unwrap());
        assert!(text.contains(" 1 # A : : : : : : : : #"), "{text}");
        assert!(text.contains(" 5 # : . . . E . . . : #"), "{text}");
        assert!(text.contains("allies to move"), "{text}");
    }
}
