//! The input planes of imperial-contest on its 9 × 9 grid (column = file a..i, row = rank 1..9).
//!
//! | plane | holds |
//! | --- | --- |
//! | 0 | 1 on the Emperor's square |
//! | 1 | 1 on each Russian man (the Emperor not included) |
//! | 2 | 1 on each Ally |
//! | 3 | 1 on every border square (rank 1, rank 9, file a, file i: the Emperor's goal) |
//! | 4 | constant: 1 when the Allies are to move, 0 for the Russians |
//! | 5 | constant: cap progress, plies played / `max_plies` |
//! | 6 | constant: 1 when the Allies moved first (`first`) |
//! | 7 | constant: 1 when capture is mandatory (`capture`) |

use super::{Encoder, PlaneWriter, cap_progress};
use crate::game::Game;
use crate::game::imperial::board::{TABLES, file, rank, squares};
use crate::game::imperial::{ALLIES, ImperialGame, ImperialState, RUSSIANS};

const EMPEROR_PLANE: usize = 0;
const RUSSIAN_MEN_PLANE: usize = 1;
const ALLIES_PLANE: usize = 2;
const BORDER_PLANE: usize = 3;
const TO_MOVE_PLANE: usize = 4;
const PROGRESS_PLANE: usize = 5;
const ALLIES_FIRST_PLANE: usize = 6;
const MANDATORY_PLANE: usize = 7;
const PLANES: usize = 8;
const GRID: (usize, usize) = (9, 9);

/// The imperial-contest layout (see the module table); one for every option value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ImperialEncoder;

/// The `(column, row)` cell of a square.
#[inline]
fn cell(square: u8) -> (usize, usize) {
    (file(square) as usize, rank(square) as usize)
}

#[inline]
fn flag(on: bool) -> f32 {
    if on { 1.0 } else { 0.0 }
}

impl Encoder for ImperialEncoder {
    type Game = ImperialGame;

    fn for_game(_game: &ImperialGame) -> ImperialEncoder {
        ImperialEncoder
    }

    fn planes(&self) -> usize {
        PLANES
    }

    fn grid(&self) -> (usize, usize) {
        GRID
    }

    fn encode(&self, game: &ImperialGame, state: &ImperialState, plies_played: u32, out: &mut [f32]) {
        debug_assert_eq!(game.facts().grid, GRID);
        let mut planes = PlaneWriter::new(out, PLANES, GRID);
        planes.set(EMPEROR_PLANE, cell(state.emperor), 1.0);
        for (plane, men) in
            [(RUSSIAN_MEN_PLANE, state.men[RUSSIANS.index()]), (ALLIES_PLANE, state.men[ALLIES.index()])]
        {
            for square in squares(men) {
                planes.set(plane, cell(square), 1.0);
            }
        }
        for square in squares(TABLES.border) {
            planes.set(BORDER_PLANE, cell(square), 1.0);
        }
        planes.fill(TO_MOVE_PLANE, state.to_move.index() as f32);
        planes.fill(PROGRESS_PLANE, cap_progress(plies_played, game.max_plies()));
        planes.fill(ALLIES_FIRST_PLANE, flag(game.first() == ALLIES));
        planes.fill(MANDATORY_PLANE, flag(game.mandatory_capture()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::imperial::board::{label, parse_square};

    use crate::game::testkit::imperial_game;

    fn encode(game: &ImperialGame, state: &ImperialState, plies: u32) -> Vec<f32> {
        let mut out = vec![f32::NAN; ImperialEncoder.input_len()];
        ImperialEncoder::for_game(game).encode(game, state, plies, &mut out);
        out
    }

    fn plane(planes: &[f32], index: usize) -> &[f32] {
        &planes[index * 81..(index + 1) * 81]
    }

    /// The labels of the squares where `plane` is non-zero, in square order.
    fn lit(planes: &[f32], index: usize) -> Vec<String> {
        let cells = plane(planes, index);
        (0..81u8).filter(|&s| cells[rank(s) as usize * 9 + file(s) as usize] != 0.0).map(label).collect()
    }

    fn sorted(labels: &[&str]) -> Vec<String> {
        let mut squares: Vec<u8> = labels.iter().map(|l| parse_square(l).unwrap()).collect();
        squares.sort();
        squares.into_iter().map(label).collect()
    }

    #[test]
    fn the_start_position_lights_the_squares_of_rules_section_5() {
        let game = imperial_game("imperial-contest");
        let planes = encode(&game, &game.start(), 0);
        assert_eq!(planes.len(), 8 * 9 * 9);
        assert_eq!(lit(&planes, EMPEROR_PLANE), vec!["e5"]);
        let men = ["c5", "d5", "f5", "g5", "e3", "e4", "e6", "e7"];
        assert_eq!(lit(&planes, RUSSIAN_MEN_PLANE), sorted(&men));
        let allies =
            ["d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"];
        assert_eq!(lit(&planes, ALLIES_PLANE), sorted(&allies));
        let border = lit(&planes, BORDER_PLANE);
        assert_eq!(border.len(), 32);
        assert!(border.contains(&"a1".to_string()) && !border.contains(&"b2".to_string()));
        for constant in [TO_MOVE_PLANE, PROGRESS_PLANE, ALLIES_FIRST_PLANE, MANDATORY_PLANE] {
            assert!(plane(&planes, constant).iter().all(|&v| v == 0.0), "plane {constant}");
        }
    }

    #[test]
    fn constant_planes_follow_the_side_the_progress_and_the_options() {
        let game = imperial_game("imperial-contest:first=allies,capture=mandatory");
        let planes = encode(&game, &game.start(), 75);
        let expected =
            [(TO_MOVE_PLANE, 1.0), (PROGRESS_PLANE, 0.25), (ALLIES_FIRST_PLANE, 1.0), (MANDATORY_PLANE, 1.0)];
        for (index, value) in expected {
            assert!(plane(&planes, index).iter().all(|&v| v == value), "plane {index}");
        }
        assert_eq!(
            ImperialEncoder::for_game(&game),
            ImperialEncoder::for_game(&imperial_game("imperial-contest"))
        );
    }

    /// The per-cell policy head reads action `cell × kinds + kind` as a move from `cell`: check that
    /// every legal move of some random games indexes its from-square's cell in this encoder's grid.
    #[test]
    fn every_action_index_starts_with_its_from_cell() {
        use crate::game::Playthrough;
        use crate::nn::{NetGame, PolicyHead};
        use rand::{RngExt, SeedableRng};

        let game = imperial_game("imperial-contest");
        let PolicyHead::PerCell { kinds } = game.policy_head() else {
            panic!("imperial has a per-cell head")
        };
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        for _ in 0..4 {
            let mut line = Playthrough::new(game.clone());
            while !line.is_over() {
                let moves = line.legal_moves();
                for &mv in moves {
                    let (column, row) = cell(mv.from);
                    assert_eq!(
                        game.action_index(line.state(), mv).get() / kinds,
                        row * GRID.0 + column,
                        "{mv:?}"
                    );
                }
                let chosen = moves[rng.random_range(0..moves.len())];
                line.play(chosen);
            }
        }
    }
}
