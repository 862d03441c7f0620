//! The left-right mirror of the boards, to augment training data: one played position gives two
//! training samples, the position and its mirror image with the policy target permuted alike.
//!
//! Every hunt board of RULES.md section 1 is symmetric under x ↦ 4 − x (file a ↔ e, b ↔ d), privy
//! included, and so is every hunt rule: the General's captures and the Rebels' directions (forward =
//! north, sideways = east and west) do not tell east from west. Imperial Contest's board, start
//! position (RULES.md 5) and rules are symmetric under all eight symmetries of the square; only the
//! left-right mirror (file x ↦ 8 − x) is implemented so far. Chess gets none: castling tells the wings
//! apart, and its absolute policy indices rule out a colour flip too (see
//! [`ChessEncoder`](crate::nn::ChessEncoder)).
//!
//! An encoded plane stack is mirrored by reversing every row, because the hunt and imperial encoders
//! put the file on the column and the mirror keeps ranks.

use crate::game::ActionIndex;
use crate::game::Game;
use crate::game::hunt::board::{Board, BoardKind};
use crate::game::hunt::{HuntGame, HuntMove, HuntState, KINDS_PER_POINT, LEAP_KIND, STATIC_KIND};
use crate::game::imperial::board::{NO_SQUARE, SIZE, file, rank, square, squares};
use crate::game::imperial::{CAPTURE_SLOTS, ImperialGame, ImperialMove, ImperialState, MAX_DISTANCE};

/// A ruleset whose rules are unchanged by the left-right mirror of its board.
///
/// Each map is an involution, and they agree with the rules: the legal moves of
/// `mirror_state(s)` are the mirrored legal moves of `s`, playing mirrored moves from mirrored
/// positions gives mirrored positions and the same results, and
/// `action_index(mirror_state(s), mirror_move(m)) == mirror_action(action_index(s, m))`.
pub trait Mirror: Game {
    fn mirror_state(&self, state: &Self::State) -> Self::State;

    fn mirror_move(&self, mv: Self::Move) -> Self::Move;

    /// The mirror image of a policy index: a permutation of the whole action space
    /// `0..facts().action_count`, so a policy target is mirrored by permuting its entries.
    fn mirror_action(&self, action: ActionIndex) -> ActionIndex;
}

/// Mirrors a plane stack `[planes, height, width]` left-right in place: column c ↦ width − 1 − c.
pub fn mirror_planes((width, _height): (usize, usize), planes: &mut [f32]) {
    for row in planes.chunks_exact_mut(width) {
        row.reverse();
    }
}

// ---------------------------------------------------------------------------------------------------
// Hunt boards: x ↦ 4 − x.

/// The mirror image of each point of a board (x ↦ 4 − x; `NONE` past its last point).
fn point_mirror(kind: BoardKind) -> &'static [u8; 64] {
    &Board::get(kind).mirror
}

/// The mirror of a compass direction (counter-clockwise from east): E ↔ W, NE ↔ NW, SE ↔ SW.
#[inline]
const fn mirror_compass(direction: u8) -> u8 {
    (12 - direction) & 7
}

/// The mirror of a hunt action kind: a step or leap direction, or a static capture's line (0..4, a
/// line and its opposite direction being one line).
#[inline]
const fn mirror_hunt_kind(kind: u8) -> u8 {
    if kind < LEAP_KIND {
        mirror_compass(kind)
    } else if kind < STATIC_KIND {
        LEAP_KIND + mirror_compass(kind - LEAP_KIND)
    } else {
        STATIC_KIND + (mirror_compass(kind - STATIC_KIND) & 3)
    }
}

#[inline]
fn mirror_points(table: &[u8; 64], mut mask: u64) -> u64 {
    let mut image = 0;
    while mask != 0 {
        image |= 1 << table[mask.trailing_zeros() as usize];
        mask &= mask - 1;
    }
    image
}

impl Mirror for HuntGame {
    fn mirror_state(&self, state: &HuntState) -> HuntState {
        let table = point_mirror(self.rules.board);
        HuntState {
            general: table[state.general as usize],
            rebels: mirror_points(table, state.rebels),
            ..*state
        }
    }

    fn mirror_move(&self, mv: HuntMove) -> HuntMove {
        let table = point_mirror(self.rules.board);
        HuntMove {
            from: table[mv.from as usize],
            to: table[mv.to as usize],
            kind: mirror_hunt_kind(mv.kind),
            captured: mirror_points(table, mv.captured),
        }
    }

    fn mirror_action(&self, action: ActionIndex) -> ActionIndex {
        let (from, kind) = (action.get() / KINDS_PER_POINT, (action.get() % KINDS_PER_POINT) as u8);
        ActionIndex::new(
            point_mirror(self.rules.board)[from] as usize * KINDS_PER_POINT + mirror_hunt_kind(kind) as usize,
        )
    }
}

// ---------------------------------------------------------------------------------------------------
// Imperial Contest: file x ↦ 8 − x.

#[inline]
const fn mirror_square(s: u8) -> u8 {
    square(SIZE - 1 - file(s), rank(s))
}

#[inline]
fn mirror_squares(set: u128) -> u128 {
    squares(set).fold(0, |image, s| image | 1 << mirror_square(s))
}

/// The mirror of an orthogonal direction (north, east, south, west): east ↔ west.
#[inline]
const fn mirror_orthogonal(direction: usize) -> usize {
    (4 - direction) & 3
}

impl Mirror for ImperialGame {
    fn mirror_state(&self, state: &ImperialState) -> ImperialState {
        ImperialState {
            men: state.men.map(mirror_squares),
            emperor: mirror_square(state.emperor),
            to_move: state.to_move,
        }
    }

    fn mirror_move(&self, mv: ImperialMove) -> ImperialMove {
        ImperialMove {
            from: mirror_square(mv.from),
            to: mirror_square(mv.to),
            taken: if mv.taken == NO_SQUARE { NO_SQUARE } else { mirror_square(mv.taken) },
        }
    }

    /// The index is ((from × 4 + direction) × 8 + distance − 1) × 6 + capture slot; the slot is
    /// "none" (0), a man next to the destination in direction d (1 + d), or Rule 11's man (5).
    fn mirror_action(&self, action: ActionIndex) -> ActionIndex {
        let action = action.get();
        let slot = action % CAPTURE_SLOTS;
        let distance = action / CAPTURE_SLOTS % MAX_DISTANCE;
        let direction = action / (CAPTURE_SLOTS * MAX_DISTANCE) % 4;
        let from = action / (CAPTURE_SLOTS * MAX_DISTANCE * 4);
        let slot = match slot {
            1..=4 => 1 + mirror_orthogonal(slot - 1),
            none_or_rule_eleven => none_or_rule_eleven,
        };
        ActionIndex::new(
            ((mirror_square(from as u8) as usize * 4 + mirror_orthogonal(direction)) * MAX_DISTANCE
                + distance)
                * CAPTURE_SLOTS
                + slot,
        )
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::game::{hunt, imperial};
    use crate::nn::encode::{Encoder, hunt::HuntEncoder, imperial::ImperialEncoder};

    use crate::game::testkit::hunt_game;

    use crate::game::testkit::imperial_game;

    /// `mirror_action` is an involution of the action space, hence a permutation of it.
    fn check_action_permutation<G: Mirror>(game: &G) {
        let count = game.facts().action_count;
        for action in (0..count).map(ActionIndex::new) {
            let image = game.mirror_action(action);
            assert!(image.get() < count, "{}: action {action} ↦ {image} ≥ {count}", game.spec());
            assert_eq!(game.mirror_action(image), action, "{}: not an involution", game.spec());
        }
    }

    /// Seeded random games; at every position checks every law of [`Mirror`] and that encoding
    /// commutes with the mirror.
    fn check_mirror_on_random_games<G: Mirror, E: Encoder<Game = G>>(game: &G, games: usize, seed: u64) {
        let encoder = E::for_game(game);
        let (mut planes, mut mirrored_planes) =
            (vec![0.0; encoder.input_len()], vec![0.0; encoder.input_len()]);
        let (mut moves, mut mirrored_moves) = (G::Moves::default(), G::Moves::default());
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..games {
            let mut state = game.start();
            for plies in 0..=game.max_plies() {
                let text = game.format_position(&state);
                let mirrored = game.mirror_state(&state);
                assert_eq!(game.mirror_state(&mirrored), state, "mirroring twice changed {text}");
                assert_eq!(game.outcome(&mirrored), game.outcome(&state), "outcome changed at {text}");

                encoder.encode(game, &state, plies, &mut planes);
                encoder.encode(game, &mirrored, plies, &mut mirrored_planes);
                mirror_planes(encoder.grid(), &mut planes);
                assert!(planes == mirrored_planes, "encoding does not commute with the mirror at {text}");

                game.legal_moves(&state, &mut moves);
                game.legal_moves(&mirrored, &mut mirrored_moves);
                assert_eq!(moves.len(), mirrored_moves.len(), "move counts differ at {text}");
                for &mv in moves.iter() {
                    let image = game.mirror_move(mv);
                    let described = game.format_move(&state, mv);
                    assert!(mirrored_moves.contains(&image), "{described} has no mirror move at {text}");
                    assert_eq!(game.mirror_move(image), mv, "mirroring {described} twice");
                    assert_eq!(
                        game.action_index(&mirrored, image),
                        game.mirror_action(game.action_index(&state, mv)),
                        "policy index of {described} at {text}"
                    );
                    let (mut after, mut mirrored_after) = (state.clone(), mirrored.clone());
                    game.apply(&mut after, mv);
                    game.apply(&mut mirrored_after, image);
                    assert_eq!(mirrored_after, game.mirror_state(&after), "playing {described} at {text}");
                }
                if moves.is_empty() || plies == game.max_plies() {
                    break;
                }
                game.apply(&mut state, moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn hunt_points_and_moves_mirror_across_the_c_file() {
        let game = hunt_game("sixteen-rebels");
        let board = game.board();
        let table = point_mirror(BoardKind::Chinese);
        for (point, image) in [("a1", "e1"), ("b4", "d4"), ("c3", "c3"), ("b6", "d6"), ("c7", "c7")] {
            assert_eq!(board.label(table[board.point(point).unwrap() as usize]), image);
        }
        let hyde = Board::get(BoardKind::Hyde);
        let b10 = hyde.point("b10").unwrap() as usize;
        assert_eq!(hyde.label(point_mirror(BoardKind::Hyde)[b10]), "d10");

        let start = game.start();
        assert_eq!(game.mirror_state(&start), start, "the start position is symmetric");
        let mv = game.parse_move(&start, "c3-d4xc5xe3").unwrap();
        assert_eq!(game.format_move(&start, game.mirror_move(mv)), "c3-b4xa3xc5");
    }

    #[test]
    fn static_capture_lines_and_leaps_mirror_their_directions() {
        // Static-capture lines: E–W and N–S stay, the two diagonals swap. Leaps: E ↔ W, NE ↔ NW, SE ↔ SW.
        assert_eq!([16, 17, 18, 19].map(mirror_hunt_kind), [16, 19, 18, 17]);
        assert_eq!([8, 9, 10, 11, 12, 13, 14, 15].map(mirror_hunt_kind), [12, 11, 10, 9, 8, 15, 14, 13]);
        // Static capture at any time; no capture threshold, so two Rebels do not end the game.
        let game = hunt_game("twenty-six-rebels-alt:general_wins_at=0");
        let state = game.parse_position("G:b5;R:a5,c5;g").unwrap();
        let mv = game.parse_move(&state, "b5xa5xc5").unwrap();
        let image = game.mirror_move(mv);
        let mirrored = game.mirror_state(&state);
        assert_eq!(game.format_position(&mirrored), "G:d5;R:c5,e5;g");
        assert_eq!(game.format_move(&mirrored, image), "d5xc5xe5");
    }

    #[test]
    fn hunt_action_mirror_is_a_permutation_on_every_board() {
        for name in ["sixteen-rebels", "juroku-musashi", "twenty-six-rebels"] {
            check_action_permutation(&hunt_game(name));
        }
    }

    #[test]
    fn every_hunt_ruleset_commutes_with_the_mirror_on_random_games() {
        let specs = hunt::RULESETS.iter().map(|r| r.info.name.to_string());
        let with_options = ["sixteen-rebels:capture=mandatory", "twenty-six-rebels:first=rebels"];
        for (seed, spec) in specs.chain(with_options.map(String::from)).enumerate() {
            check_mirror_on_random_games::<_, HuntEncoder>(&hunt_game(&spec), 6, seed as u64);
        }
    }

    #[test]
    fn imperial_squares_moves_and_start_mirror_across_the_e_file() {
        let game = imperial_game("imperial-contest");
        let start = game.start();
        assert_eq!(game.mirror_state(&start), start, "the start position is symmetric");
        let mv = game.parse_move(&start, "c5-c7").unwrap();
        assert_eq!(game.format_move(&start, game.mirror_move(mv)), "g5-g7");
        check_action_permutation(&game);
    }

    #[test]
    fn imperial_commutes_with_the_mirror_on_random_games() {
        for (seed, spec) in ["imperial-contest", "imperial-contest:capture=mandatory"].into_iter().enumerate()
        {
            check_mirror_on_random_games::<_, ImperialEncoder>(&imperial_game(spec), 3, 100 + seed as u64);
        }
        assert_eq!(imperial::RULESETS.len(), 1, "a new imperial ruleset needs its mirror checked here");
    }
}
