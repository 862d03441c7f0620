//! Rules of every ruleset behind one trait, their notation, and the generic tools built on the trait
//! (perft, playthroughs with the draw rules, random playouts).
//!
//! The layer knows nothing of search or networks. Each ruleset family is a [`Game`] implementation whose
//! value holds the ruleset's options and precomputed tables; [`AnyGame`] selects one at run time from a
//! spec string (RULES.md 0.1) and [`with_game!`](crate::with_game) runs generic code on it.

pub mod chess;
pub mod history;
pub mod hunt;
pub mod imperial;
pub mod perft;
pub mod playout;
pub mod record;
pub mod registry;
pub mod spec;
pub mod tactics;
pub mod testkit;

use std::fmt::Debug;

pub use history::{Playthrough, RepetitionTracker};
pub use record::{Adjudication, GameRecord, RecordError, RecordedOpenings, read_records, recorded_openings};
pub use registry::AnyGame;
pub use spec::RulesetInfo;
pub use spec::{Spec, SpecError};

/// One of the two players. Each ruleset names its sides ([`Game::side_names`]): index 0 is the General,
/// the Russians or White; index 1 the Rebels, the Allies or Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Side(u8);

impl Side {
    pub const ZERO: Side = Side(0);
    pub const ONE: Side = Side(1);
    pub const BOTH: [Side; 2] = [Side::ZERO, Side::ONE];

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn opponent(self) -> Side {
        Side(self.0 ^ 1)
    }

    /// The side with the given index (0 or 1).
    #[inline]
    pub const fn from_index(index: usize) -> Side {
        assert!(index < 2, "a side index is 0 or 1");
        Side(index as u8)
    }
}

/// Why a game ended. Rule-based endings come first; the draw rules of RULES.md 0.4 last.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// The General reached the apex of the privy.
    Apex,
    /// The Rebels fell to the General's winning threshold.
    Captures,
    /// The General sits in the privy with Rebels on all three exits.
    Blockade,
    /// A Rebel took the General by custodian capture (`rebels_capture=custodial`).
    Custodial,
    /// The General reached the bottom row (twenty-six-rebels family).
    BottomRow,
    /// The General stepped onto the apex of the Hyde privy, which loses.
    ApexTrap,
    /// The Emperor reached the border (imperial-contest).
    Border,
    /// The Allies occupy all four neighbours of the Emperor (imperial-contest).
    Surrounded,
    /// The player to move has no legal move and loses (RULES.md 0.3, R5).
    NoMoves,
    /// Chess: no legal move while in check.
    Checkmate,
    /// Chess: no legal move while not in check (a draw).
    Stalemate,
    /// Third occurrence of a position (a draw).
    Repetition,
    /// `max_plies` moves played without a result (a draw).
    Cap,
    /// Chess: 100 plies without a capture or a normal pawn move (a draw).
    FiftyMoves,
    /// Chess: K v K, K+B v K or K+N v K (a draw).
    InsufficientMaterial,
}

impl Reason {
    pub const ALL: [Reason; 15] = [
        Reason::Apex,
        Reason::Captures,
        Reason::Blockade,
        Reason::Custodial,
        Reason::BottomRow,
        Reason::ApexTrap,
        Reason::Border,
        Reason::Surrounded,
        Reason::NoMoves,
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::Repetition,
        Reason::Cap,
        Reason::FiftyMoves,
        Reason::InsufficientMaterial,
    ];

    /// The name used in game records and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Apex => "apex",
            Reason::Captures => "captures",
            Reason::Blockade => "blockade",
            Reason::Custodial => "custodial",
            Reason::BottomRow => "bottom-row",
            Reason::ApexTrap => "apex-trap",
            Reason::Border => "border",
            Reason::Surrounded => "surrounded",
            Reason::NoMoves => "no-moves",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::Cap => "cap",
            Reason::FiftyMoves => "fifty-moves",
            Reason::InsufficientMaterial => "insufficient-material",
        }
    }

    pub fn parse(text: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

/// The result of a finished game: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: Reason,
}

impl Outcome {
    pub const fn win(side: Side, reason: Reason) -> Outcome {
        Outcome { winner: Some(side), reason }
    }

    pub const fn draw(reason: Reason) -> Outcome {
        Outcome { winner: None, reason }
    }

    /// +1 for a win of `side`, −1 for a loss, 0 for a draw.
    #[inline]
    pub fn value_for(&self, side: Side) -> f32 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }
}

/// A fixed-capacity move list: move generation never allocates. Each game documents its worst case
/// in [`Game::Moves`]; pushing past it is a bug in that game's bound and panics.
pub type MoveList<M, const N: usize> = arrayvec::ArrayVec<M, N>;

/// The operations a move list must offer; implemented by every [`MoveList`] capacity.
pub trait MoveBuffer<M>: Default + Clone + Send + Debug + std::ops::Deref<Target = [M]> {
    fn push(&mut self, m: M);
    fn clear(&mut self);
    fn retain(&mut self, keep: impl FnMut(&mut M) -> bool);
}

impl<M: Copy + Send + Debug, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    #[inline]
    fn push(&mut self, m: M) {
        arrayvec::ArrayVec::push(self, m)
    }
    #[inline]
    fn clear(&mut self) {
        arrayvec::ArrayVec::clear(self)
    }
    #[inline]
    fn retain(&mut self, keep: impl FnMut(&mut M) -> bool) {
        arrayvec::ArrayVec::retain(self, keep)
    }
}

/// A malformed or impossible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad position `{text}`: {problem}")]
pub struct PositionError {
    pub text: String,
    pub problem: String,
}

impl PositionError {
    pub fn new(text: &str, problem: impl Into<String>) -> PositionError {
        PositionError { text: text.to_string(), problem: problem.into() }
    }
}

/// A mistyped or illegal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{text}` is not a move in this notation: {problem}")]
    Malformed { text: String, problem: String },
    #[error("`{text}` is not a legal move here (legal: {legal})")]
    Illegal { text: String, legal: String },
    #[error("the game is over ({0}); no move can be played")]
    GameOver(String),
}

/// Static facts about a ruleset that the network layer needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFacts {
    /// Width and height of the grid the board is embedded in for encoding.
    pub grid: (usize, usize),
    /// Size of the fixed action space of [`Game::action_index`].
    pub action_count: usize,
    /// The draw cap (`max_plies`).
    pub max_plies: u32,
}

/// An index into a ruleset's fixed action space ([`Game::action_index`]): the position of a move in
/// the network's policy output and in training targets (saved as a plain number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ActionIndex(pub u32);

impl ActionIndex {
    /// The index of action `index` (action spaces are far below `u32::MAX`).
    pub const fn new(index: usize) -> ActionIndex {
        ActionIndex(index as u32)
    }

    /// The index as a position in a slice.
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for ActionIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

/// The rules of one ruleset. The value holds the options and any precomputed tables; the mutable
/// position is the separate [`Game::State`] (OpenSpiel's split of Game and State).
///
/// A [`Game::Move`] is one complete turn (RULES.md 0.2), including every choice made in it.
///
/// ```
/// use rebel_zero::game::{AnyGame, Game, Playthrough};
///
/// let AnyGame::Hunt(game) = AnyGame::from_spec("sixteen-rebels").unwrap() else { unreachable!() };
/// let mut moves = Default::default();
/// game.legal_moves(&game.start(), &mut moves);
/// assert_eq!(moves.len(), 8); // perft 1 of RULES.md's vectors
///
/// // A game with its history (repetitions, the draw cap) plays moves given as text.
/// let mut line = Playthrough::new(game.clone());
/// line.play_text("c3-d4xc5xe3").unwrap();
/// assert_eq!(game.format_position(line.state()), "G:d4;R:a1,a2,a3,a4,a5,b1,b5,c1,d1,d5,e1,e2,e4,e5;r");
/// ```
pub trait Game: Clone + Send + Sync + 'static {
    type State: Clone + Send + Sync + Debug + PartialEq;
    type Move: Copy + Eq + Send + Sync + Debug + 'static;
    type Moves: MoveBuffer<Self::Move>;

    /// The canonical spec of this ruleset with its options (`sixteen-rebels:first=rebels`).
    fn spec(&self) -> &str;

    /// The names of side 0 and side 1, as used in specs and records.
    fn side_names(&self) -> [&'static str; 2];

    /// The start position.
    fn start(&self) -> Self::State;

    fn to_move(&self, state: &Self::State) -> Side;

    /// All legal moves; none once the game is over by an immediate result. Clears `out` first.
    fn legal_moves(&self, state: &Self::State, out: &mut Self::Moves);

    /// Plays a legal move. Playing an illegal move is a logic error (it may panic or corrupt).
    fn apply(&self, state: &mut Self::State, mv: Self::Move);

    /// The result decided by the ruleset's own win and loss rules (RULES.md 0.3 step 1), without
    /// looking at whether the player to move has a legal move.
    fn immediate_result(&self, state: &Self::State) -> Option<Outcome>;

    /// A uniformly random legal move, or `None` when there is none (random playouts). The default
    /// generates every move into `scratch` and picks one; a game may sample faster without the list.
    #[inline]
    fn sample_move<R: rand::Rng>(
        &self,
        state: &Self::State,
        rng: &mut R,
        scratch: &mut Self::Moves,
    ) -> Option<Self::Move> {
        use rand::RngExt;
        self.legal_moves(state, scratch);
        (!scratch.is_empty()).then(|| scratch[rng.random_range(0..scratch.len())])
    }

    /// A legal move after which the mover has won by an immediate result (0.3 step 1), if any:
    /// "decisive" rollouts play it instead of a random move. The default tries every move; games
    /// override it to look only where such a win can be.
    fn winning_move(&self, state: &Self::State, scratch: &mut Self::Moves) -> Option<Self::Move> {
        let mover = self.to_move(state);
        self.legal_moves(state, scratch);
        scratch.iter().copied().find(|&mv| {
            let mut next = state.clone();
            self.apply(&mut next, mv);
            self.immediate_result(&next).is_some_and(|o| o.winner == Some(mover))
        })
    }

    /// The result when the player to move has no legal move (0.3 step 2): that player loses, except in
    /// chess, where it is checkmate or stalemate.
    fn no_moves_result(&self, state: &Self::State) -> Outcome {
        Outcome::win(self.to_move(state).opponent(), Reason::NoMoves)
    }

    /// Draws of RULES.md 0.4 that are properties of one position (chess: fifty-move rule, insufficient
    /// material). Repetition and the cap need the game's history and live in [`Playthrough`].
    fn rule_draw(&self, _state: &Self::State) -> Option<Reason> {
        None
    }

    /// Whether the move can never be undone by later moves (a capture, a pawn move); positions before it
    /// can never repeat, so repetition checks may forget them.
    fn is_irreversible(&self, state: &Self::State, mv: Self::Move) -> bool;

    /// A hash of everything that makes two positions "the same" for repetition, side to move included.
    fn position_hash(&self, state: &Self::State) -> u64;

    fn parse_position(&self, text: &str) -> Result<Self::State, PositionError>;
    fn format_position(&self, state: &Self::State) -> String;

    /// The move in the notation of RULES.md section 7.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;

    /// The move as its players write it, for people to read: SAN in the chess family, RULES.md
    /// section 7 elsewhere. [`Game::parse_move`] reads it back.
    fn display_move(&self, state: &Self::State, mv: Self::Move) -> String {
        self.format_move(state, mv)
    }

    /// Reads a move and checks it is legal in `state`. The default matches the text against the
    /// formatted legal moves; games with several spellings of one move override it.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, MoveError> {
        let mut moves = Self::Moves::default();
        self.legal_moves(state, &mut moves);
        if let Some(m) = moves.iter().find(|&&m| self.format_move(state, m) == text.trim()) {
            return Ok(*m);
        }
        Err(illegal_move_error(self, state, text))
    }

    /// The board as text for a person: board, pieces, side to move.
    fn render(&self, state: &Self::State) -> String;

    /// Facts for the network layer.
    fn facts(&self) -> GameFacts;

    /// The move's index in the fixed action space `0..facts().action_count`. Distinct legal moves of
    /// one position have distinct indices.
    fn action_index(&self, state: &Self::State, mv: Self::Move) -> ActionIndex;

    /// The pieces on the board of side 0 and side 1 (the balance lab's capture counts); `None` for a
    /// game without pieces to count.
    fn material(&self, _state: &Self::State) -> Option<[u32; 2]> {
        None
    }

    /// The draw cap (`max_plies`).
    fn max_plies(&self) -> u32 {
        self.facts().max_plies
    }

    /// The full result of a position without history: immediate result, else no legal move, else a
    /// position draw rule. Generates moves; hot loops should use [`Game::legal_moves`] directly.
    fn outcome(&self, state: &Self::State) -> Option<Outcome> {
        if let Some(result) = self.immediate_result(state) {
            return Some(result);
        }
        let mut moves = Self::Moves::default();
        self.legal_moves(state, &mut moves);
        if moves.is_empty() {
            return Some(self.no_moves_result(state));
        }
        self.rule_draw(state).map(Outcome::draw)
    }
}

/// The error for a move that is not among the legal ones, listing those that are.
pub fn illegal_move_error<G: Game>(game: &G, state: &G::State, text: &str) -> MoveError {
    if let Some(result) = game.immediate_result(state) {
        return MoveError::GameOver(describe_outcome(game, &result));
    }
    let mut moves = G::Moves::default();
    game.legal_moves(state, &mut moves);
    const SHOWN: usize = 40;
    let mut legal: Vec<String> = moves.iter().take(SHOWN).map(|&m| game.format_move(state, m)).collect();
    if moves.len() > SHOWN {
        legal.push(format!("… and {} more", moves.len() - SHOWN));
    }
    MoveError::Illegal {
        text: text.trim().to_string(),
        legal: if legal.is_empty() { "none".to_string() } else { legal.join(" ") },
    }
}

/// "rebels win by blockade", "draw by repetition".
pub fn describe_outcome<G: Game>(game: &G, outcome: &Outcome) -> String {
    match outcome.winner {
        Some(side) => format!("{} win by {}", game.side_names()[side.index()], outcome.reason.as_str()),
        None => format!("draw by {}", outcome.reason.as_str()),
    }
}

/// The side whose name is `name` in this game.
pub fn side_by_name<G: Game>(game: &G, name: &str) -> Option<Side> {
    let names = game.side_names();
    Side::BOTH.into_iter().find(|s| names[s.index()] == name)
}
