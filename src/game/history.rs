//! A game in progress with its history: the draw rules of RULES.md 0.4 (repetition, cap) need more
//! than one position, so they live here rather than in [`Game`].

use super::{Game, MoveBuffer, MoveError, Outcome, Reason, illegal_move_error};

/// Counts occurrences of positions since the last irreversible move, without allocating once warm.
///
/// Every move is one whole turn, so sides alternate and a position can only repeat two, four, … plies
/// back; the scan steps by two.
#[derive(Clone, Debug, Default)]
pub struct RepetitionTracker {
    hashes: Vec<u64>,
}

impl RepetitionTracker {
    /// Forgets everything and records the first position.
    pub fn reset(&mut self, hash: u64) {
        self.hashes.clear();
        self.hashes.push(hash);
    }

    /// Records the position after a move; returns true when it is the third occurrence.
    #[inline]
    pub fn push(&mut self, hash: u64, irreversible: bool) -> bool {
        if irreversible {
            self.hashes.clear();
        }
        self.hashes.push(hash);
        let mut seen = 1;
        let mut i = self.hashes.len() - 1;
        while i >= 2 {
            i -= 2;
            if self.hashes[i] == hash {
                seen += 1;
                if seen == 3 {
                    return true;
                }
            }
        }
        false
    }

    /// Removes the last recorded position (for undo when no irreversible move was crossed).
    pub fn pop(&mut self) {
        self.hashes.pop();
    }
}

/// The full result of `state` reached after `plies` moves, where `repeated` says whether it is a third
/// occurrence: RULES.md 0.3 in order, then the draws of 0.4. `moves` receives the legal moves.
pub fn judge<G: Game>(
    game: &G,
    state: &G::State,
    plies: u32,
    repeated: bool,
    moves: &mut G::Moves,
) -> Option<Outcome> {
    if let Some(result) = game.immediate_result(state) {
        moves.clear();
        return Some(result);
    }
    game.legal_moves(state, moves);
    if moves.is_empty() {
        return Some(game.no_moves_result(state));
    }
    if let Some(reason) = game.rule_draw(state) {
        return Some(Outcome::draw(reason));
    }
    if repeated {
        return Some(Outcome::draw(Reason::Repetition));
    }
    if plies >= game.max_plies() {
        return Some(Outcome::draw(Reason::Cap));
    }
    None
}

/// A game from a start position through the moves played, with every ending rule applied.
#[derive(Clone, Debug)]
pub struct Playthrough<G: Game> {
    game: G,
    /// Positions from the start, one more than the moves.
    states: Vec<G::State>,
    moves: Vec<G::Move>,
    outcome: Option<Outcome>,
    legal: G::Moves,
    repetition: RepetitionTracker,
}

impl<G: Game> Playthrough<G> {
    /// A game from the ruleset's start position.
    pub fn new(game: G) -> Playthrough<G> {
        let start = game.start();
        Playthrough::from_position(game, start)
    }

    /// A game from any position; the position counts as ply 0.
    pub fn from_position(game: G, state: G::State) -> Playthrough<G> {
        let mut repetition = RepetitionTracker::default();
        repetition.reset(game.position_hash(&state));
        let mut legal = G::Moves::default();
        let outcome = judge(&game, &state, 0, false, &mut legal);
        Playthrough { game, states: vec![state], moves: Vec::new(), outcome, legal, repetition }
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn state(&self) -> &G::State {
        self.states.last().expect("a playthrough always has a position")
    }

    pub fn start(&self) -> &G::State {
        &self.states[0]
    }

    /// Every position so far, the start first and the current one last.
    pub fn states(&self) -> &[G::State] {
        &self.states
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The moves in notation, each formatted in the position it was played from.
    pub fn move_texts(&self) -> Vec<String> {
        self.moves.iter().zip(&self.states).map(|(&m, s)| self.game.format_move(s, m)).collect()
    }

    pub fn plies(&self) -> u32 {
        self.moves.len() as u32
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves now (none once the game is over, draws included).
    pub fn legal_moves(&self) -> &[G::Move] {
        if self.outcome.is_some() { &[] } else { &self.legal }
    }

    /// Plays a move that must be legal now.
    pub fn play(&mut self, mv: G::Move) {
        assert!(self.outcome.is_none(), "no move can be played once the game is over");
        debug_assert!(self.legal.contains(&mv), "illegal move {mv:?}");
        let mut next = self.state().clone();
        let irreversible = self.game.is_irreversible(&next, mv);
        self.game.apply(&mut next, mv);
        let repeated = self.repetition.push(self.game.position_hash(&next), irreversible);
        self.moves.push(mv);
        self.outcome = judge(&self.game, &next, self.plies(), repeated, &mut self.legal);
        self.states.push(next);
    }

    /// Reads a move in notation, checks it is legal, and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if let Some(outcome) = self.outcome {
            return Err(MoveError::GameOver(super::describe_outcome(&self.game, &outcome)));
        }
        let mv = self.game.parse_move(self.state(), text)?;
        if !self.legal.contains(&mv) {
            return Err(illegal_move_error(&self.game, self.state(), text));
        }
        self.play(mv);
        Ok(mv)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        self.moves.pop();
        self.states.pop();
        // Rebuild the repetition record: an irreversible move may have cleared it.
        self.repetition.reset(self.game.position_hash(&self.states[0]));
        let mut repeated = false;
        for (i, &mv) in self.moves.iter().enumerate() {
            let irreversible = self.game.is_irreversible(&self.states[i], mv);
            repeated = self.repetition.push(self.game.position_hash(&self.states[i + 1]), irreversible);
        }
        let state = self.states.last().expect("a playthrough always has a position");
        self.outcome = judge(&self.game, state, self.moves.len() as u32, repeated, &mut self.legal);
        true
    }
}
