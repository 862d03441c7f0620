//! The input planes of the hunt games: one layout per board, shared by every ruleset on that board.
//!
//! Each point sits on its grid cell from [`Board::cells`] (file → column, rank − 1 → row, so the privy
//! holes get rows of their own); cells that are no point are 0 in every board plane. Planes, in order:
//!
//! | plane | holds | boards |
//! | --- | --- | --- |
//! | 0 | 1 on the General's point | all |
//! | 1 | 1 on each Rebel's point | all |
//! | 2 | 1 on every point of the board (tells points from padding) | all |
//! | 3 | 1 on every privy point (only the General may stand there) | all |
//! | 4 | constant: 1 when the Rebels are to move, 0 for the General | all |
//! | 5 | constant: cap progress, plies played / `max_plies` | all |
//! | 6 | constant: 1 when the Rebels moved first (`first`) | all |
//! | 7 | constant: 1 when capture is mandatory (`capture`) | all |
//! | 8 | constant: `general_wins_at` / starting Rebels (16 or 26); 0 when there is no such rule | all |
//! | 9 | constant: 1 when the General wins on the apex (`apex`) | Chinese |
//! | 10 | constant: 1 when the Rebels take the General by custodial capture (Murray) | Chinese |
//! | 11 | constant: 1 when the General may leap diagonally (Neeley) | Chinese |
//! | 9 | constant: 1 for intervention capture, 0 for deferred (the family has exactly one of them) | Hyde |
//! | 10 | constant: 1 for static capture at any time, 0 for only when cornered | Hyde |
//! | 11 | constant: 1 when Rebels step only forward or sideways | Hyde |
//! | 12 | constant: 1 when the General on the apex loses | Hyde |
//! | 13 | constant: 1 when a blockade of the privy exits wins for the Rebels | Hyde |
//! | 14 | constant: 1 when the General wins on rank 1 | Hyde |
//! | 9 | constant: 1 when the triangle is open to both sides (`triangle=open`, R12) | Japanese |
//!
//! So the Chinese board (sixteen-, murray-, neeley-rebels) has 12 planes on a 5 × 7 grid, the Japanese
//! board (juroku-musashi, both readings of its triangle) 10 on 5 × 7, and the Hyde board (the three twenty-six-rebels rulesets) 15 on
//! 5 × 11. A board described in a rules file (configs/rules/) lays its points on the smallest grid of
//! its coordinates ([`Board::cells`]) and has a plane for every switch its files may set (planes 6–20:
//! first, capture, threshold, intervention, deferred, diagonal leap, any-line leap, static capture when
//! cornered, at any time, forward-only Rebels, custodial, apex wins, apex loses, blockade, rank 1 wins).
//! A switch gets a plane only where it varies within the board's rulesets; the rest of
//! [`HuntRules`] is fixed per board. "No capture threshold" is encoded as 0 because it is the same game:
//! with no Rebel left the Rebels have no move and lose (RULES.md 0.3).

use super::{Encoder, PlaneWriter, cap_progress};
use crate::game::hunt::board::{Board, BoardKind};
use crate::game::hunt::{HuntGame, HuntRules, HuntState, Leap, REBELS, StaticCapture};

const GENERAL_PLANE: usize = 0;
const REBELS_PLANE: usize = 1;
const POINTS_PLANE: usize = 2;
const PRIVY_PLANE: usize = 3;
const TO_MOVE_PLANE: usize = 4;
const PROGRESS_PLANE: usize = 5;
const FIRST_SWITCH_PLANE: usize = 6;

/// A ruleset switch that varies between the rulesets of one board, encoded as a constant plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Switch {
    RebelsFirst,
    MandatoryCapture,
    GeneralWinsAt,
    ApexWins,
    Custodial,
    DiagonalLeap,
    Intervention,
    StaticCaptureAnyTime,
    RebelsForwardOnly,
    ApexLoses,
    Blockade,
    BottomRowWins,
    OpenTriangle,
    Deferred,
    AnyLineLeap,
    StaticWhenCornered,
}

const COMMON_SWITCHES: [Switch; 3] = [Switch::RebelsFirst, Switch::MandatoryCapture, Switch::GeneralWinsAt];
const CHINESE_SWITCHES: &[Switch] = &[
    COMMON_SWITCHES[0],
    COMMON_SWITCHES[1],
    COMMON_SWITCHES[2],
    Switch::ApexWins,
    Switch::Custodial,
    Switch::DiagonalLeap,
];
const JAPANESE_SWITCHES: &[Switch] =
    &[COMMON_SWITCHES[0], COMMON_SWITCHES[1], COMMON_SWITCHES[2], Switch::OpenTriangle];
const HYDE_SWITCHES: &[Switch] = &[
    COMMON_SWITCHES[0],
    COMMON_SWITCHES[1],
    COMMON_SWITCHES[2],
    Switch::Intervention,
    Switch::StaticCaptureAnyTime,
    Switch::RebelsForwardOnly,
    Switch::ApexLoses,
    Switch::Blockade,
    Switch::BottomRowWins,
];

/// A described board's rulesets may set any switch of [`HuntRules`] (configs/rules/README.md), so each
/// gets a plane.
const DESCRIBED_SWITCHES: &[Switch] = &[
    COMMON_SWITCHES[0],
    COMMON_SWITCHES[1],
    COMMON_SWITCHES[2],
    Switch::Intervention,
    Switch::Deferred,
    Switch::DiagonalLeap,
    Switch::AnyLineLeap,
    Switch::StaticWhenCornered,
    Switch::StaticCaptureAnyTime,
    Switch::RebelsForwardOnly,
    Switch::Custodial,
    Switch::ApexWins,
    Switch::ApexLoses,
    Switch::Blockade,
    Switch::BottomRowWins,
];

impl Switch {
    fn value(self, rules: &HuntRules) -> f32 {
        let on = match self {
            Switch::RebelsFirst => rules.first == REBELS,
            Switch::MandatoryCapture => rules.mandatory,
            Switch::GeneralWinsAt => {
                return rules.general_wins_at.unwrap_or(0) as f32 / rules.rebel_count as f32;
            }
            Switch::ApexWins => rules.apex_wins,
            Switch::Custodial => rules.custodial,
            Switch::DiagonalLeap => rules.leap == Leap::Diagonal,
            Switch::Intervention => rules.intervention,
            Switch::StaticCaptureAnyTime => rules.static_capture == StaticCapture::Always,
            Switch::RebelsForwardOnly => rules.rebels_forward_only,
            Switch::ApexLoses => rules.apex_loses,
            Switch::Blockade => rules.blockade,
            Switch::BottomRowWins => rules.bottom_row_wins,
            Switch::OpenTriangle => rules.board == BoardKind::Japanese,
            Switch::Deferred => rules.deferred,
            Switch::AnyLineLeap => rules.leap == Leap::AnyLine,
            Switch::StaticWhenCornered => rules.static_capture == StaticCapture::WhenCornered,
        };
        if on { 1.0 } else { 0.0 }
    }
}

/// The hunt layout of one board (see the module table).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct HuntEncoder {
    /// The board's [`BoardKind::layout`].
    board: BoardKind,
}

/// Checkpoints record this as the encoder's identity: a described board by its
/// [`Board::identity`], since its kind's number depends on the order files were loaded.
impl std::fmt::Debug for HuntEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.board {
            BoardKind::Described(_) => {
                write!(f, "HuntEncoder {{ board: Described({}) }}", Board::get(self.board).identity())
            }
            kind => write!(f, "HuntEncoder {{ board: {kind:?} }}"),
        }
    }
}

impl HuntEncoder {
    pub fn new(board: BoardKind) -> HuntEncoder {
        HuntEncoder { board: board.layout() }
    }

    fn switches(&self) -> &'static [Switch] {
        match self.board {
            BoardKind::Chinese => CHINESE_SWITCHES,
            BoardKind::Japanese | BoardKind::JapaneseClosed => JAPANESE_SWITCHES,
            BoardKind::Hyde => HYDE_SWITCHES,
            BoardKind::Described(_) => DESCRIBED_SWITCHES,
        }
    }
}

impl Encoder for HuntEncoder {
    type Game = HuntGame;

    fn for_game(game: &HuntGame) -> HuntEncoder {
        HuntEncoder::new(game.rules.board)
    }

    fn planes(&self) -> usize {
        FIRST_SWITCH_PLANE + self.switches().len()
    }

    fn grid(&self) -> (usize, usize) {
        Board::get(self.board).grid
    }

    fn encode(&self, game: &HuntGame, state: &HuntState, plies_played: u32, out: &mut [f32]) {
        let board = game.board();
        assert_eq!(
            board.kind.layout(),
            self.board,
            "a {:?} encoder cannot encode a {:?} board",
            self.board,
            board.kind
        );
        let mut planes = PlaneWriter::new(out, self.planes(), board.grid);
        for (point, &cell) in board.cells.iter().enumerate() {
            planes.set(POINTS_PLANE, cell, 1.0);
            if board.privy >> point & 1 == 1 {
                planes.set(PRIVY_PLANE, cell, 1.0);
            }
            if state.rebels >> point & 1 == 1 {
                planes.set(REBELS_PLANE, cell, 1.0);
            }
        }
        planes.set(GENERAL_PLANE, board.cells[state.general as usize], 1.0);
        planes.fill(TO_MOVE_PLANE, state.to_move.index() as f32);
        planes.fill(PROGRESS_PLANE, cap_progress(plies_played, game.rules.max_plies));
        for (offset, switch) in self.switches().iter().enumerate() {
            planes.fill(FIRST_SWITCH_PLANE + offset, switch.value(&game.rules));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, hunt};

    use crate::game::testkit::hunt_game;

    fn encode(game: &HuntGame, state: &HuntState, plies: u32) -> (HuntEncoder, Vec<f32>) {
        let encoder = HuntEncoder::for_game(game);
        let mut out = vec![f32::NAN; encoder.input_len()];
        encoder.encode(game, state, plies, &mut out);
        (encoder, out)
    }

    /// The `(column, row)` cells where `plane` is non-zero, in row-major order.
    fn lit_cells(encoder: &HuntEncoder, planes: &[f32], plane: usize) -> Vec<(usize, usize)> {
        let (width, height) = encoder.grid();
        let stack = &planes[plane * width * height..(plane + 1) * width * height];
        (0..height)
            .flat_map(|row| (0..width).map(move |column| (column, row)))
            .filter(|&(column, row)| stack[row * width + column] != 0.0)
            .collect()
    }

    fn constant(encoder: &HuntEncoder, planes: &[f32], plane: usize) -> f32 {
        let (width, height) = encoder.grid();
        let stack = &planes[plane * width * height..(plane + 1) * width * height];
        assert!(stack.iter().all(|&v| v == stack[0]), "plane {plane} is not constant");
        stack[0]
    }

    #[test]
    fn sixteen_rebels_start_lights_the_expected_cells() {
        let game = hunt_game("sixteen-rebels");
        let (encoder, planes) = encode(&game, &game.start(), 0);
        assert_eq!((encoder.planes(), encoder.grid()), (12, (5, 7)));
        assert_eq!(lit_cells(&encoder, &planes, GENERAL_PLANE), vec![(2, 2)]);
        let rebels = lit_cells(&encoder, &planes, REBELS_PLANE);
        assert_eq!(rebels.len(), 16);
        for (column, row) in &rebels {
            assert!(*column == 0 || *column == 4 || *row == 0 || *row == 4, "({column}, {row})");
        }
        assert_eq!(lit_cells(&encoder, &planes, PRIVY_PLANE), vec![(1, 5), (2, 5), (3, 5), (2, 6)]);
        let points = lit_cells(&encoder, &planes, POINTS_PLANE);
        assert_eq!(points.len(), 29);
        assert!(points.contains(&(2, 6)), "the apex c7 is a point");
        for padding in [(0, 5), (4, 5), (0, 6), (1, 6), (3, 6), (4, 6)] {
            assert!(!points.contains(&padding), "{padding:?} is no point");
        }
        // General to move at ply 0; defaults: General first, optional capture, wins at 4, apex on.
        let switches: Vec<f32> =
            (TO_MOVE_PLANE..encoder.planes()).map(|p| constant(&encoder, &planes, p)).collect();
        assert_eq!(switches, vec![0.0, 0.0, 0.0, 0.0, 4.0 / 16.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn a_typed_position_sets_exactly_its_pieces_side_and_progress() {
        let game = hunt_game("sixteen-rebels");
        let state = game.parse_position("G:c7;R:b5,d5,e1;r").unwrap();
        let (encoder, planes) = encode(&game, &state, 50);
        assert_eq!(lit_cells(&encoder, &planes, GENERAL_PLANE), vec![(2, 6)]);
        assert_eq!(lit_cells(&encoder, &planes, REBELS_PLANE), vec![(4, 0), (1, 4), (3, 4)]);
        assert_eq!(constant(&encoder, &planes, TO_MOVE_PLANE), 1.0);
        assert_eq!(constant(&encoder, &planes, PROGRESS_PLANE), 50.0 / 200.0);
    }

    #[test]
    fn hyde_and_japanese_privies_get_rows_of_their_own() {
        let game = hunt_game("twenty-six-rebels");
        let (encoder, planes) = encode(&game, &game.start(), 0);
        assert_eq!((encoder.planes(), encoder.grid()), (15, (5, 11)));
        assert_eq!(lit_cells(&encoder, &planes, GENERAL_PLANE), vec![(2, 4)]);
        assert_eq!(lit_cells(&encoder, &planes, REBELS_PLANE).len(), 26);
        assert_eq!(lit_cells(&encoder, &planes, PRIVY_PLANE), vec![(1, 9), (2, 9), (3, 9), (2, 10)]);
        assert_eq!(lit_cells(&encoder, &planes, POINTS_PLANE).len(), 49);

        // The closed triangle is the General's alone; the open one (the default) is nobody's privy.
        let game = hunt_game("juroku-musashi:triangle=closed");
        let (encoder, planes) = encode(&game, &game.start(), 0);
        assert_eq!((encoder.planes(), encoder.grid()), (10, (5, 7)));
        let privy = vec![(1, 5), (2, 5), (3, 5), (1, 6), (2, 6), (3, 6)];
        assert_eq!(lit_cells(&encoder, &planes, PRIVY_PLANE), privy);
        assert_eq!(lit_cells(&encoder, &planes, POINTS_PLANE).len(), 31);
        // juroku-musashi: the Rebels move first.
        assert_eq!(constant(&encoder, &planes, TO_MOVE_PLANE), 1.0);
        assert_eq!(constant(&encoder, &planes, FIRST_SWITCH_PLANE), 1.0);
        let open = hunt_game("juroku-musashi");
        let (open_encoder, open_planes) = encode(&open, &open.start(), 0);
        assert_eq!(open_encoder, encoder, "one layout serves both readings of the triangle");
        assert!(lit_cells(&encoder, &open_planes, PRIVY_PLANE).is_empty());
    }

    /// The constant switch planes of a spec's start position.
    fn switch_planes(spec: &str) -> Vec<f32> {
        let game = hunt_game(spec);
        let (encoder, planes) = encode(&game, &game.start(), 0);
        (FIRST_SWITCH_PLANE..encoder.planes()).map(|p| constant(&encoder, &planes, p)).collect()
    }

    #[test]
    fn option_planes_tell_apart_the_rulesets_of_one_board() {
        let sixteen = switch_planes("sixteen-rebels");
        assert_eq!(sixteen, vec![0.0, 0.0, 0.25, 1.0, 0.0, 0.0]);
        assert_eq!(switch_planes("murray-rebels"), vec![0.0, 0.0, 0.25, 1.0, 1.0, 0.0]);
        assert_eq!(switch_planes("neeley-rebels"), vec![0.0, 0.0, 0.25, 1.0, 1.0, 1.0]);
        assert_eq!(switch_planes("sixteen-rebels:capture=mandatory"), vec![0.0, 1.0, 0.25, 1.0, 0.0, 0.0]);
        assert_eq!(
            switch_planes("sixteen-rebels:first=rebels,general_wins_at=8,apex=off"),
            vec![1.0, 0.0, 0.5, 0.0, 0.0, 0.0]
        );
        assert_eq!(switch_planes("twenty-six-rebels"), vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0]);
        let free = vec![0.0, 0.0, 8.0 / 26.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        assert_eq!(switch_planes("twenty-six-rebels-free"), free);
        let alt = vec![0.0, 1.0, 8.0 / 26.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0];
        assert_eq!(switch_planes("twenty-six-rebels-alt"), alt);
        assert_eq!(switch_planes("juroku-musashi"), vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!(switch_planes("juroku-musashi:triangle=closed,first=general"), vec![0.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn every_ruleset_of_a_board_shares_one_layout() {
        for ruleset in hunt::RULESETS {
            let game = hunt_game(ruleset.info.name);
            let encoder = HuntEncoder::for_game(&game);
            let variants = hunt::RULESETS.iter().map(|other| hunt_game(other.info.name));
            let same_board = variants.chain([hunt_game("juroku-musashi:triangle=closed")]);
            for other in same_board.filter(|other| other.rules.board.layout() == game.rules.board.layout()) {
                assert_eq!(HuntEncoder::for_game(&other), encoder);
                assert_eq!(encoder.grid(), other.facts().grid);
            }
            // Intervention and deferred capture are exclusive on every board that has either, so the
            // Hyde layout encodes the choice in one plane.
            if game.rules.board == BoardKind::Hyde {
                assert_ne!(game.rules.intervention, game.rules.deferred, "{}", ruleset.info.name);
            }
        }
    }
}
