//! Small tables and positions for the tests of this layer and the ones above it.

use super::index;
use super::{Tablebase, Verdict};
use crate::game::AnyGame;
use crate::game::Side;
use crate::game::hunt::{HuntGame, HuntMove, HuntState};

pub fn hunt(spec: &str) -> HuntGame {
    match AnyGame::from_spec(spec).unwrap() {
        AnyGame::Hunt(g) => g,
        _ => unreachable!(),
    }
}

/// The table of the 6-Rebel level alone (the default threshold's first), built once.
pub fn six_rebels() -> std::sync::Arc<Tablebase> {
    static TABLE: std::sync::LazyLock<std::sync::Arc<Tablebase>> = std::sync::LazyLock::new(|| {
        std::sync::Arc::new(Tablebase::build_up_to(&hunt("sixteen-rebels"), 6, |_| {}).unwrap())
    });
    TABLE.clone()
}

/// Every slot of the 6-Rebel level with `side` to move, positions or not.
pub fn slots_of_six(side: Side) -> impl Iterator<Item = HuntState> {
    (0..index::sets_of(6) as u32).flat_map(move |r| {
        let rebels = u64::from(index::unrank(r, 6));
        (0..29u8).map(move |general| HuntState { general, rebels, to_move: side, result: None })
    })
}

/// The verdict of move `m` in `s` for the side that plays it.
pub fn verdict_of(tb: &Tablebase, s: &HuntState, m: HuntMove) -> Option<Verdict> {
    tb.move_verdicts(s).into_iter().find(|(x, _)| *x == m).expect("a legal move").1
}

/// The longest loss among the moves of `s`, if any move loses.
pub fn longest_loss(tb: &Tablebase, s: &HuntState) -> Option<u32> {
    let losses = tb.move_verdicts(s).into_iter().filter_map(|(_, v)| match v {
        Some(Verdict::Loss { plies }) => Some(plies),
        _ => None,
    });
    losses.max()
}

/// A position of the table where the side to move has both winning and non-winning moves.
pub fn position_with_a_choice(tb: &Tablebase, side: Side) -> HuntState {
    slots_of_six(side)
        .filter(|s| tb.probe(s).is_some_and(|v| matches!(v, Verdict::Win { plies } if plies > 3)))
        .find(|s| tb.move_verdicts(s).iter().any(|(_, v)| !matches!(v, Some(Verdict::Win { .. }))))
        .expect("such a position exists")
}

/// A rules file on a board of its own (tests/data/rules/four-by-four.toml: 4 × 4 alquerque points, no
/// privy; 10 Rebels, the General wins at 2): the in-memory builder off the Chinese board.
pub const SMALL_BOARD: &str = "file:tests/data/rules/four-by-four.toml";

/// A rules file too large for the tables (tests/data/rules/too-big.toml).
pub const TOO_BIG: &str = "file:tests/data/rules/too-big.toml";
