//! The hunt games of RULES.md sections 2–4: one General against many Rebels on a point graph.
//!
//! One generator serves the whole family; a ruleset is a [`HuntRules`] value that switches capture
//! kinds, Rebel directions and win conditions on or off. A position is a u64 mask of Rebels plus the
//! General's point, so copy-make is cheap and the repetition hash is exact.

pub mod board;
pub mod described;
mod notation;
mod state;

pub use state::{GENERAL, HuntMove, HuntState, REBELS};

use crate::game::ActionIndex;
use board::{Board, BoardKind, EAST, NONE, NORTH, WEST, opposite};

use super::spec::{OptionSpec, OptionValues, Options, Ruleset, RulesetInfo};
use super::{Game, GameFacts, MoveList, Outcome, PositionError, Reason, Side};

/// When the General may stay put and remove a pair of Rebels across his point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticCapture {
    Never,
    /// Only when no neighbouring point is empty (4.1, R4).
    WhenCornered,
    /// At any time (4.3).
    Always,
}

/// Which lines the General may leap along, removing the Rebel he jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leap {
    None,
    /// Diagonal lines only (Neeley).
    Diagonal,
    /// Every line (juroku-musashi).
    AnyLine,
}

/// The switches that make one ruleset of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HuntRules {
    pub board: BoardKind,
    pub first: Side,
    pub rebel_count: u32,
    /// The starting position: the General's point and the Rebels' mask.
    pub general_start: u8,
    pub rebels_start: u64,
    /// Every opposite pair across the point the General arrives on is taken (R1).
    pub intervention: bool,
    /// Leaving P in direction d takes the pair across P perpendicular to d (4.1).
    pub deferred: bool,
    pub leap: Leap,
    pub static_capture: StaticCapture,
    /// The General must play a capturing move when he has one.
    pub mandatory: bool,
    /// Rebels may step only toward the privy or sideways (4.1, 4.3).
    pub rebels_forward_only: bool,
    /// The General wins when Rebels ≤ this.
    pub general_wins_at: Option<u32>,
    /// The General on the apex wins (sixteen-rebels `apex=on`).
    pub apex_wins: bool,
    /// The General on the apex loses (twenty-six-rebels, -free).
    pub apex_loses: bool,
    /// The General on a privy point with Rebels on the three exits loses.
    pub blockade: bool,
    /// The General on rank 1 wins.
    pub bottom_row_wins: bool,
    /// A Rebel arriving so that the General is flanked along a line takes him (Murray).
    pub custodial: bool,
    pub max_plies: u32,
}

/// Action kinds per from-point: a step in direction d is `d`, a leap `8 + d`, a static capture of the
/// pair on the line of direction d (0..4) `16 + d`.
pub const KINDS_PER_POINT: usize = 20;
pub const LEAP_KIND: u8 = 8;
pub const STATIC_KIND: u8 = 16;

/// Worst case: the General has at most 8 steps, 8 leaps and 4 static captures; 26 Rebels have at most
/// 3 steps each (forward-only boards) and 16 Rebels at most 8 each on the alquerque board.
pub const MAX_HUNT_MOVES: usize = 160;

#[derive(Clone, Debug)]
pub struct HuntGame {
    spec: String,
    pub rules: HuntRules,
    board: &'static Board,
    tables: Box<RuleTables>,
}

/// Tables that depend on the ruleset as well as the board.
#[derive(Clone, Debug)]
struct RuleTables {
    /// Step targets of a Rebel on each point, privy and forbidden directions removed.
    rebel_steps: [u64; 64],
    /// The direction of each link `[from][to]`, for a move's action kind.
    direction_of: [[u8; 64]; 64],
}

impl HuntGame {
    pub fn new(spec: String, rules: HuntRules) -> HuntGame {
        let board = Board::get(rules.board);
        let allowed = |d: usize| !rules.rebels_forward_only || d == NORTH || d == EAST || d == WEST;
        let rebel_steps = board.neighbour.map(|ns| {
            (0..8)
                .filter(|&d| allowed(d) && ns[d] != NONE && board.privy >> ns[d] & 1 == 0)
                .fold(0u64, |m, d| m | 1 << ns[d])
        });
        let mut direction_of = [[u8::MAX; 64]; 64];
        for (p, ns) in board.neighbour.iter().enumerate() {
            for (d, &q) in ns.iter().enumerate().filter(|(_, q)| **q != NONE) {
                direction_of[p][q as usize] = d as u8;
            }
        }
        HuntGame { spec, rules, board, tables: Box::new(RuleTables { rebel_steps, direction_of }) }
    }

    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The points a Rebel on `from` may step to on an empty board.
    pub fn rebel_targets(&self, from: u8) -> u64 {
        self.tables.rebel_steps[from as usize & 63]
    }

    fn general_moves(&self, s: &HuntState, out: &mut MoveList<HuntMove, MAX_HUNT_MOVES>) {
        let board = self.board;
        let g = s.general;
        let gi = g as usize & 63;
        let occupied = s.rebels | 1 << g;
        let mut has_empty_neighbour = false;
        let mut directions = board.directions[gi];
        while directions != 0 {
            let d = directions.trailing_zeros() as usize;
            directions &= directions - 1;
            let to = board.next(g, d);
            if occupied >> to & 1 == 0 {
                has_empty_neighbour = true;
                let mut captured = 0;
                if self.rules.intervention {
                    // Branchless: an absent pair is mask 0, which "matches" and adds nothing.
                    for pair in board.pairs[to as usize & 63] {
                        captured |= pair & ((s.rebels & pair == pair) as u64).wrapping_neg();
                    }
                }
                if self.rules.deferred {
                    let (a, b) = (board.next(g, d + 2), board.next(g, d + 6));
                    if a != NONE && b != NONE {
                        let pair = (1u64 << a) | (1u64 << b);
                        if s.rebels & pair == pair {
                            captured = pair;
                        }
                    }
                }
                out.push(HuntMove { from: g, to, kind: d as u8, captured });
            } else if self.can_leap(d) {
                let beyond = board.next(to, d);
                if beyond != NONE && occupied >> beyond & 1 == 0 {
                    out.push(HuntMove { from: g, to: beyond, kind: LEAP_KIND + d as u8, captured: 1 << to });
                }
            }
        }
        let static_allowed = match self.rules.static_capture {
            StaticCapture::Never => false,
            StaticCapture::WhenCornered => !has_empty_neighbour,
            StaticCapture::Always => true,
        };
        if static_allowed {
            for (d, pair) in board.pairs[gi].into_iter().enumerate() {
                if pair != 0 && s.rebels & pair == pair {
                    out.push(HuntMove { from: g, to: g, kind: STATIC_KIND + d as u8, captured: pair });
                }
            }
        }
        if self.rules.mandatory && out.iter().any(|m| m.captured != 0) {
            out.retain(|m| m.captured != 0);
        }
    }

    #[inline]
    fn can_leap(&self, direction: usize) -> bool {
        match self.rules.leap {
            Leap::None => false,
            Leap::Diagonal => direction % 2 == 1,
            Leap::AnyLine => true,
        }
    }

    fn rebel_moves(&self, s: &HuntState, out: &mut MoveList<HuntMove, MAX_HUNT_MOVES>) {
        let empty = !(s.rebels | 1 << s.general);
        let mut rebels = s.rebels;
        while rebels != 0 {
            let from = rebels.trailing_zeros() as u8;
            rebels &= rebels - 1;
            let mut targets = self.tables.rebel_steps[from as usize & 63] & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let kind = self.tables.direction_of[from as usize & 63][to as usize & 63];
                out.push(HuntMove { from, to, kind, captured: 0 });
            }
        }
    }

    /// A uniformly random Rebel step without listing them: count each Rebel's targets, pick one.
    fn sample_rebel_move<R: rand::Rng>(&self, s: &HuntState, rng: &mut R) -> Option<HuntMove> {
        use rand::RngExt;
        let empty = !(s.rebels | 1 << s.general);
        let targets_of = |from: u32| self.tables.rebel_steps[from as usize & 63] & empty;
        let mut total = 0;
        let mut rebels = s.rebels;
        while rebels != 0 {
            total += targets_of(rebels.trailing_zeros()).count_ones();
            rebels &= rebels - 1;
        }
        if total == 0 {
            return None;
        }
        let mut pick = rng.random_range(0..total);
        let mut rebels = s.rebels;
        loop {
            let from = rebels.trailing_zeros();
            rebels &= rebels - 1;
            let mut targets = targets_of(from);
            let count = targets.count_ones();
            if pick < count {
                for _ in 0..pick {
                    targets &= targets - 1;
                }
                let (from, to) = (from as u8, targets.trailing_zeros() as u8);
                let kind = self.tables.direction_of[from as usize & 63][to as usize & 63];
                return Some(HuntMove { from, to, kind, captured: 0 });
            }
            pick -= count;
        }
    }

    /// The custodial capture of Murray's rule: the Rebel that arrived on `q` flanks the General.
    fn custodial_capture(&self, s: &HuntState, q: u8) -> bool {
        let board = self.board;
        (0..8).any(|d| {
            board.next(q, d) == s.general && {
                let beyond = board.next(s.general, d);
                beyond != NONE && s.rebels >> beyond & 1 == 1
            }
        })
    }

    /// The ruleset's immediate results for a position, the last mover's first (RULES.md 0.3 step 1).
    fn judge_position(&self, s: &HuntState) -> Option<Outcome> {
        let mover = s.to_move.opponent();
        let general_win = self.general_win(s).map(|r| Outcome::win(GENERAL, r));
        let rebel_win = self.rebel_win(s).map(|r| Outcome::win(REBELS, r));
        if mover == GENERAL { general_win.or(rebel_win) } else { rebel_win.or(general_win) }
    }

    fn general_win(&self, s: &HuntState) -> Option<Reason> {
        let r = &self.rules;
        if r.apex_wins && Some(s.general) == self.board.apex {
            return Some(Reason::Apex);
        }
        if r.bottom_row_wins && self.board.bottom_row >> s.general & 1 == 1 {
            return Some(Reason::BottomRow);
        }
        match r.general_wins_at {
            Some(n) if s.rebels.count_ones() <= n => Some(Reason::Captures),
            _ => None,
        }
    }

    fn rebel_win(&self, s: &HuntState) -> Option<Reason> {
        let r = &self.rules;
        if r.apex_loses && Some(s.general) == self.board.apex {
            return Some(Reason::ApexTrap);
        }
        let exits = self.board.exits;
        if r.blockade && self.board.privy >> s.general & 1 == 1 && s.rebels & exits == exits {
            return Some(Reason::Blockade);
        }
        None
    }
}

impl Game for HuntGame {
    type State = HuntState;
    type Move = HuntMove;
    type Moves = MoveList<HuntMove, MAX_HUNT_MOVES>;

    fn spec(&self) -> &str {
        &self.spec
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["general", "rebels"]
    }

    fn start(&self) -> HuntState {
        let (general, rebels) = (self.rules.general_start, self.rules.rebels_start);
        debug_assert_eq!(rebels.count_ones(), self.rules.rebel_count);
        HuntState { general, rebels, to_move: self.rules.first, result: None }
    }

    #[inline]
    fn to_move(&self, s: &HuntState) -> Side {
        s.to_move
    }

    #[inline]
    fn legal_moves(&self, s: &HuntState, out: &mut Self::Moves) {
        out.clear();
        if s.result.is_some() {
            return;
        }
        if s.to_move == GENERAL { self.general_moves(s, out) } else { self.rebel_moves(s, out) }
    }

    #[inline]
    fn sample_move<R: rand::Rng>(
        &self,
        s: &HuntState,
        rng: &mut R,
        scratch: &mut Self::Moves,
    ) -> Option<HuntMove> {
        use rand::RngExt;
        if s.result.is_some() {
            return None;
        }
        if s.to_move == REBELS {
            return self.sample_rebel_move(s, rng);
        }
        scratch.clear();
        self.general_moves(s, scratch);
        (!scratch.is_empty()).then(|| scratch[rng.random_range(0..scratch.len())])
    }

    /// The General's few moves are all tried. A Rebel move wins by blockade, custodial capture, or by
    /// leaving the General no move (the Rebels' usual win, a no-moves ending rather than an immediate
    /// result, counted here because rollouts that miss it misjudge every Rebel position). One Rebel step
    /// removes at most three of the General's moves (a step target, a leap landing, a leap), so it is
    /// tried only when he has three or fewer, or a blockade or custodial win is possible.
    fn winning_move(&self, s: &HuntState, scratch: &mut Self::Moves) -> Option<HuntMove> {
        if s.result.is_some() {
            return None;
        }
        let mover = s.to_move;
        let wins = |next: &HuntState| match next.result {
            Some(outcome) => outcome.winner == Some(mover),
            None => {
                mover == REBELS && {
                    let mut replies = Self::Moves::default();
                    self.general_moves(next, &mut replies);
                    replies.is_empty()
                }
            }
        };
        if mover == REBELS {
            let mut replies = Self::Moves::default();
            self.general_moves(&HuntState { to_move: GENERAL, ..*s }, &mut replies);
            let in_privy = self.board.privy >> s.general & 1 == 1;
            if replies.len() > 3 && !self.rules.custodial && !(self.rules.blockade && in_privy) {
                return None;
            }
        }
        self.legal_moves(s, scratch);
        scratch.iter().copied().find(|&m| {
            let mut next = *s;
            self.apply(&mut next, m);
            wins(&next)
        })
    }

    #[inline]
    fn apply(&self, s: &mut HuntState, m: HuntMove) {
        if s.to_move == GENERAL {
            s.general = m.to;
            s.rebels &= !m.captured;
        } else {
            s.rebels ^= (1 << m.from) | (1 << m.to);
            if self.rules.custodial && self.custodial_capture(s, m.to) {
                s.to_move = GENERAL;
                s.result = Some(Outcome::win(REBELS, Reason::Custodial));
                return;
            }
        }
        s.to_move = s.to_move.opponent();
        s.result = self.judge_position(s);
    }

    #[inline]
    fn immediate_result(&self, s: &HuntState) -> Option<Outcome> {
        s.result
    }

    #[inline]
    fn is_irreversible(&self, s: &HuntState, m: HuntMove) -> bool {
        // Captures shrink the Rebels for good, and a forward-only Rebel's step north cannot be undone;
        // sideways steps and the General's steps can.
        m.captured != 0 || (s.to_move == REBELS && self.rules.rebels_forward_only && m.kind == NORTH as u8)
    }

    /// The General (gone once Murray's custodial capture has taken him), and the Rebels left.
    fn material(&self, s: &HuntState) -> Option<[u32; 2]> {
        let general_taken = s.result.is_some_and(|r| r.reason == Reason::Custodial);
        Some([u32::from(!general_taken), s.rebels.count_ones()])
    }

    #[inline]
    fn position_hash(&self, s: &HuntState) -> u64 {
        // At most 49 points: the mask, the General's point and the side fit one word exactly.
        s.rebels ^ (s.general as u64) << 50 ^ (s.to_move.index() as u64) << 63
    }

    fn parse_position(&self, text: &str) -> Result<HuntState, PositionError> {
        let mut state = notation::parse_position(self.board, self.rules.rebel_count, text)?;
        state.result = self.judge_position(&state);
        Ok(state)
    }

    fn format_position(&self, s: &HuntState) -> String {
        notation::format_position(self.board, s)
    }

    fn format_move(&self, _s: &HuntState, m: HuntMove) -> String {
        notation::format_move(self.board, m)
    }

    fn parse_move(&self, s: &HuntState, text: &str) -> Result<HuntMove, super::MoveError> {
        notation::parse_move(self, self.board, s, text)
    }

    fn render(&self, s: &HuntState) -> String {
        let general_taken = s.result.is_some_and(|r| r.reason == Reason::Custodial);
        let mut out = self.board.draw(|p| {
            if p == s.general {
                if general_taken { 'x' } else { 'G' }
            } else if s.rebels >> p & 1 == 1 {
                'R'
            } else {
                '.'
            }
        });
        out.push_str(&format!(
            "\n{} Rebels; {} to move{}\n",
            s.rebels.count_ones(),
            self.side_names()[s.to_move.index()],
            if general_taken { " (the General, x, has been taken)" } else { "" }
        ));
        out
    }

    fn facts(&self) -> GameFacts {
        GameFacts {
            grid: self.board.grid,
            action_count: self.board.len() * KINDS_PER_POINT,
            max_plies: self.rules.max_plies,
        }
    }

    fn action_index(&self, _s: &HuntState, m: HuntMove) -> ActionIndex {
        ActionIndex::new(m.from as usize * KINDS_PER_POINT + m.kind as usize)
    }
}

/// Returns the point in direction `d` from `p` (tests and notation use it).
pub fn step(board: &Board, p: u8, d: usize) -> Option<u8> {
    let q = board.next(p, d);
    (q != NONE).then_some(q)
}

/// The point opposite `q` across `p`, if `q` is a neighbour of `p` on a line through it.
pub fn opposite_across(board: &Board, p: u8, q: u8) -> Option<u8> {
    let d = board.direction(p, q)?;
    step(board, p, opposite(d))
}

// ---------------------------------------------------------------------------------------------------
// The rulesets of the family.

const FIRST_GENERAL: OptionSpec = OptionSpec {
    key: "first",
    values: OptionValues::Choice(&["general", "rebels"]),
    default: "general",
    meaning: "who moves first",
};
const FIRST_REBELS: OptionSpec = OptionSpec { default: "rebels", ..FIRST_GENERAL };
const CAPTURE_OPTIONAL: OptionSpec = OptionSpec {
    key: "capture",
    values: OptionValues::Choice(&["optional", "mandatory"]),
    default: "optional",
    meaning: "mandatory: the General must play a capturing move when he has one",
};
const CAPTURE_MANDATORY: OptionSpec = OptionSpec { default: "mandatory", ..CAPTURE_OPTIONAL };
const fn max_plies(default: &'static str) -> OptionSpec {
    OptionSpec {
        key: "max_plies",
        values: OptionValues::Range(1, u32::MAX),
        default,
        meaning: "draw by cap after this many moves",
    }
}
const fn general_wins_at(max: u32, default: &'static str) -> OptionSpec {
    OptionSpec {
        key: "general_wins_at",
        values: OptionValues::Range(0, max),
        default,
        meaning: "the General wins when the Rebels are this many or fewer",
    }
}

const SIXTEEN_OPTIONS: &[OptionSpec] = &[
    FIRST_GENERAL,
    CAPTURE_OPTIONAL,
    general_wins_at(15, "4"),
    OptionSpec {
        key: "apex",
        values: OptionValues::Choice(&["on", "off"]),
        default: "on",
        meaning: "whether the General wins by reaching the apex c7",
    },
    OptionSpec {
        key: "rebels_capture",
        values: OptionValues::Choice(&["none", "custodial"]),
        default: "none",
        meaning: "custodial (Murray): a Rebel arriving so that the General is flanked on a line takes him",
    },
    OptionSpec {
        key: "general_leap",
        values: OptionValues::Choice(&["none", "diagonal"]),
        default: "none",
        meaning: "diagonal (Neeley): the General may leap a Rebel along a diagonal line, taking it",
    },
    max_plies("200"),
];
const JUROKU_OPTIONS: &[OptionSpec] = &[
    FIRST_REBELS,
    CAPTURE_OPTIONAL,
    general_wins_at(15, "0"),
    OptionSpec {
        key: "triangle",
        values: OptionValues::Choice(&["open", "closed"]),
        default: "open",
        meaning: "open (Culin, R12): both sides may enter the triangle, whose inner sides b6-c7 and d6-c7 are \
                  drawn in; closed (Murray): only the General may stand there",
    },
    max_plies("200"),
];
const TWENTY_SIX_OPTIONS: &[OptionSpec] = &[FIRST_GENERAL, CAPTURE_OPTIONAL, max_plies("300")];
const TWENTY_SIX_FREE_OPTIONS: &[OptionSpec] =
    &[FIRST_GENERAL, CAPTURE_OPTIONAL, general_wins_at(25, "8"), max_plies("300")];
const TWENTY_SIX_ALT_OPTIONS: &[OptionSpec] =
    &[FIRST_GENERAL, CAPTURE_MANDATORY, general_wins_at(25, "8"), max_plies("300")];

const CHINESE_SOURCE: &str = "RULES.md §2; Winther's Chinese Rebels, after Culin";

pub static RULESETS: &[Ruleset<HuntGame>] = &[
    Ruleset {
        info: RulesetInfo {
            name: "sixteen-rebels",
            summary: "Chinese Rebels: a General on c3 against 16 Rebels; intervention capture, privy escape",
            source: CHINESE_SOURCE,
            options: SIXTEEN_OPTIONS,
            preset: &[],
        },
        build: build_sixteen,
    },
    Ruleset {
        info: RulesetInfo {
            name: "murray-rebels",
            summary: "sixteen-rebels with Murray's custodial capture of the General by the Rebels",
            source: "RULES.md §2 preset; Murray's reading, as reported by Winther",
            options: SIXTEEN_OPTIONS,
            preset: &[("rebels_capture", "custodial")],
        },
        build: build_sixteen,
    },
    Ruleset {
        info: RulesetInfo {
            name: "neeley-rebels",
            summary: "murray-rebels plus Neeley's diagonal leap-captures for the General",
            source: "RULES.md §2 preset; Neeley's reading, as reported by Winther",
            options: SIXTEEN_OPTIONS,
            preset: &[("rebels_capture", "custodial"), ("general_leap", "diagonal")],
        },
        build: build_sixteen,
    },
    Ruleset {
        info: RulesetInfo {
            name: "juroku-musashi",
            summary: "the Japanese form: inverted triangle, leap capture, the soldiers win by immobilising",
            source: "RULES.md §3; Culin's description as in Ludii's Juroku Musashi (R6, R12); Murray's \
                     triangle as triangle=closed",
            options: JUROKU_OPTIONS,
            preset: &[],
        },
        build: build_juroku,
    },
    Ruleset {
        info: RulesetInfo {
            name: "twenty-six-rebels",
            summary: "Subjugatio Rebellium: 26 forward-moving Rebels; static and deferred capture; rank 1 wins",
            source: "RULES.md §4.1; Hyde, in Reid's reading as rendered by Winther",
            options: TWENTY_SIX_OPTIONS,
            preset: &[],
        },
        build: build_twenty_six,
    },
    Ruleset {
        info: RulesetInfo {
            name: "twenty-six-rebels-free",
            summary: "Winther's simpler alternative: Rebels move in all four directions; General wins at ≤ 8",
            source: "RULES.md §4.2; Winther",
            options: TWENTY_SIX_FREE_OPTIONS,
            preset: &[],
        },
        build: build_twenty_six,
    },
    Ruleset {
        info: RulesetInfo {
            name: "twenty-six-rebels-alt",
            summary: "Winther's difficult alternative: intervention, static capture at any time, compulsory",
            source: "RULES.md §4.3; Winther",
            options: TWENTY_SIX_ALT_OPTIONS,
            preset: &[],
        },
        build: build_twenty_six,
    },
];

/// c3 on the 5 × 5 boards (points are numbered rank by rank from a1 = 0).
const C3: u8 = 12;
/// The 16 perimeter points of the 5 × 5 main board (sixteen-rebels and juroku-musashi).
const PERIMETER: u64 = 0b11111_10001_10001_10001_11111;
/// c5 on the Hyde board.
const C5_HYDE: u8 = 22;
/// Files b, c and d on every rank of the Hyde board (its Rebels, less the General's point).
const HYDE_FILES_B_TO_D: u64 = 0b01110 * 0b00001_00001_00001_00001_00001_00001_00001_00001_00001;

fn side_option(options: &Options) -> Side {
    if options.get("first") == "general" { GENERAL } else { REBELS }
}

fn build_sixteen(info: &'static RulesetInfo, options: Options) -> HuntGame {
    let rules = HuntRules {
        board: BoardKind::Chinese,
        first: side_option(&options),
        rebel_count: 16,
        general_start: C3,
        rebels_start: PERIMETER,
        intervention: true,
        deferred: false,
        leap: if options.get("general_leap") == "diagonal" { Leap::Diagonal } else { Leap::None },
        static_capture: StaticCapture::Never,
        mandatory: options.get("capture") == "mandatory",
        rebels_forward_only: false,
        general_wins_at: Some(options.get_u32("general_wins_at")),
        apex_wins: options.get("apex") == "on",
        apex_loses: false,
        blockade: true,
        bottom_row_wins: false,
        custodial: options.get("rebels_capture") == "custodial",
        max_plies: options.get_u32("max_plies"),
    };
    HuntGame::new(options.canonical_spec(info.name), rules)
}

fn build_juroku(info: &'static RulesetInfo, options: Options) -> HuntGame {
    let board =
        if options.get("triangle") == "open" { BoardKind::Japanese } else { BoardKind::JapaneseClosed };
    let rules = HuntRules {
        board,
        first: side_option(&options),
        rebel_count: 16,
        general_start: C3,
        rebels_start: PERIMETER,
        intervention: false,
        deferred: false,
        leap: Leap::AnyLine,
        static_capture: StaticCapture::Never,
        mandatory: options.get("capture") == "mandatory",
        rebels_forward_only: false,
        general_wins_at: Some(options.get_u32("general_wins_at")),
        apex_wins: false,
        apex_loses: false,
        blockade: false,
        bottom_row_wins: false,
        custodial: false,
        max_plies: options.get_u32("max_plies"),
    };
    HuntGame::new(options.canonical_spec(info.name), rules)
}

fn build_twenty_six(info: &'static RulesetInfo, options: Options) -> HuntGame {
    let (free, alt) = (info.name == "twenty-six-rebels-free", info.name == "twenty-six-rebels-alt");
    let rules = HuntRules {
        board: BoardKind::Hyde,
        first: side_option(&options),
        rebel_count: 26,
        general_start: C5_HYDE,
        rebels_start: HYDE_FILES_B_TO_D & !(1 << C5_HYDE),
        intervention: alt,
        deferred: !alt,
        leap: Leap::None,
        static_capture: if alt { StaticCapture::Always } else { StaticCapture::WhenCornered },
        mandatory: options.get("capture") == "mandatory",
        rebels_forward_only: !free,
        general_wins_at: (free || alt).then(|| options.get_u32("general_wins_at")),
        apex_wins: false,
        apex_loses: !alt,
        blockade: alt,
        bottom_row_wins: !free,
        custodial: false,
        max_plies: options.get_u32("max_plies"),
    };
    HuntGame::new(options.canonical_spec(info.name), rules)
}

/// A hunt move's captures are its noise: the more Rebels it takes the earlier it is searched. No null
/// move: a blockaded General is zugzwang itself.
impl crate::game::tactics::Tactics for HuntGame {
    fn is_noisy(&self, _state: &HuntState, mv: HuntMove) -> bool {
        mv.captured != 0
    }

    fn noisy_rank(&self, _state: &HuntState, mv: HuntMove) -> i32 {
        mv.captured.count_ones() as i32
    }
}
