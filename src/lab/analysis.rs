//! What the lab reads from one finished game: the result, the length, the pieces each side lost (in
//! all and in the first plies), and ruleset features (chess pawn structure). Games are replayed from
//! their records, so any games.jsonl can be analysed again.

use std::collections::BTreeMap;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use crate::game::GameRecord;
use crate::game::chess::piece::{BLACK, Piece, WHITE};
use crate::game::chess::position::Position;
use crate::game::{AnyGame, Game};

/// Plies counted as "the first plies" for `early_lost`.
pub const EARLY_PLIES: usize = 10;
/// The ply at which chess features are taken (or the end of a shorter game).
pub const FEATURE_PLY: usize = 40;

/// The numbers of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStats {
    /// The winning side's index; `None` for a draw.
    pub winner: Option<usize>,
    pub reason: String,
    pub plies: u32,
    /// The side that moved first.
    pub first: usize,
    /// Pieces each side lost over the game, and in its first [`EARLY_PLIES`] plies.
    pub lost: [u32; 2],
    pub early_lost: [u32; 2],
    /// Pieces each side lost after the game's opening: in the moves its players chose, not in the
    /// random plies a study opens with.
    #[serde(default)]
    pub lost_in_play: [u32; 2],
    /// Pieces each side had at the end.
    pub left: [u32; 2],
    /// Ruleset features by name (chess: pawn structure at ply [`FEATURE_PLY`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub features: BTreeMap<String, f64>,
    /// A hash of the game's moves: equal games have equal keys.
    #[serde(default)]
    pub game_key: u64,
    /// The group the game's statistics count it in: its random opening's moves, or the whole game when
    /// it had none (games that repeat, or share an opening, are not independent).
    #[serde(default)]
    pub cluster: u64,
}

impl GameStats {
    /// Whether the game was stopped by a ply cap rather than ended by its rules: unfinished, so no
    /// claim reads it as a draw (or as anything else); the reports count such games apart.
    pub fn unfinished(&self) -> bool {
        self.winner.is_none() && self.reason == CAP_REASON
    }

    /// Whether the game was stopped by a ply cap and then decided by a study's judge
    /// ([`crate::game::Adjudication`]): it counts as the judge's result, and the reports count it apart.
    pub fn adjudicated(&self) -> bool {
        self.reason == ADJUDICATED_REASON
    }
}

/// The reason recorded for a game stopped at the match's ply cap.
pub const CAP_REASON: &str = "cap";
/// The reason a capped game that a judge decided is read with.
pub const ADJUDICATED_REASON: &str = "adjudicated";

/// A stable hash of a sequence of moves.
fn moves_key(moves: &[String]) -> u64 {
    crate::seed::fnv1a(&moves.join(" "))
}

/// The group a game's statistics count it in ([`GameStats::cluster`]): its opening's moves, or the
/// whole game when it had none.
pub fn cluster_of(record: &GameRecord) -> u64 {
    let opening = (record.opening as usize).min(record.moves.len());
    moves_key(if opening > 0 { &record.moves[..opening] } else { &record.moves })
}

/// Replays a record and measures it.
pub fn game_stats(game: &AnyGame, record: &GameRecord) -> anyhow::Result<GameStats> {
    let stats = crate::with_game!(game, |g| replay(g, record, |_state| BTreeMap::new()));
    let mut stats = stats?;
    if let AnyGame::Chess(chess) = game {
        let mut features = BTreeMap::new();
        replay(chess, record, |pos| {
            features = chess_features(pos);
            BTreeMap::new()
        })?;
        stats.features = features;
    }
    Ok(stats)
}

/// Plays the record's moves; `at_feature_ply` sees the position after [`FEATURE_PLY`] plies (or the
/// last position) and its result becomes the features.
fn replay<G: Game>(
    game: &G,
    record: &GameRecord,
    mut at_feature_ply: impl FnMut(&G::State) -> BTreeMap<String, f64>,
) -> anyhow::Result<GameStats> {
    let names = game.side_names();
    let line = record.replay(game).map_err(|e| anyhow::anyhow!("game {}: {e}", record.game))?;
    let states = line.states(); // the start, then the position after each move
    let first = game.to_move(&states[0]).index();
    let material = |state: &G::State| game.material(state).unwrap_or([0, 0]);
    let initial = material(&states[0]);
    let early = material(&states[EARLY_PLIES.min(states.len() - 1)]);
    let opened = material(&states[(record.opening as usize).min(states.len() - 1)]);
    let features = at_feature_ply(&states[FEATURE_PLY.min(states.len() - 1)]);
    // A capped game a judge decided reads as the judge's result; the record keeps the game as played.
    let (winner, reason) = match &record.adjudged {
        Some(a) if a.decided() && record.reason == CAP_REASON => {
            let winner = (a.result != crate::game::Adjudication::DRAW).then(|| a.result.clone());
            (winner, ADJUDICATED_REASON.to_string())
        }
        _ => (record.winner.clone(), record.reason.clone()),
    };
    let winner = match &winner {
        None => None,
        Some(name) => match names.iter().position(|n| n == name) {
            Some(i) => Some(i),
            None => bail!("game {}: unknown winner `{name}`", record.game),
        },
    };
    let end = material(line.state());
    Ok(GameStats {
        winner,
        reason,
        plies: record.plies,
        first,
        lost: [0, 1].map(|s| initial[s].saturating_sub(end[s])),
        early_lost: [0, 1].map(|s| initial[s].saturating_sub(early[s])),
        lost_in_play: [0, 1].map(|s| opened[s].saturating_sub(end[s])),
        left: end,
        features,
        game_key: moves_key(&record.moves),
        cluster: cluster_of(record),
    })
}

/// Doubled and isolated pawns of both sides together, and whether a side has two or more bishops all
/// on squares of one colour (Betza on Rebellion Chess).
pub fn chess_features(pos: &Position) -> BTreeMap<String, f64> {
    let (mut doubled, mut isolated, mut same_colour) = (0u32, 0u32, 0u32);
    for side in [WHITE, BLACK] {
        let mine = pos.colours[side.index()];
        let pawns = pos.pieces[Piece::Pawn as usize] & mine;
        let files: Vec<u32> =
            (0..8).map(|f| (pawns & (0x0101_0101_0101_0101u64 << f)).count_ones()).collect();
        for f in 0..8 {
            doubled += files[f].saturating_sub(1);
            let left = if f > 0 { files[f - 1] } else { 0 };
            let right = if f < 7 { files[f + 1] } else { 0 };
            if left + right == 0 {
                isolated += files[f];
            }
        }
        let bishops = pos.pieces[Piece::Bishop as usize] & mine;
        const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;
        if bishops.count_ones() >= 2 && (bishops & LIGHT == 0 || bishops & !LIGHT == 0) {
            same_colour += 1;
        }
    }
    [("doubled_pawns", doubled), ("isolated_pawns", isolated), ("same_colour_bishops", same_colour)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(spec: &str, moves: &[&str]) -> (AnyGame, GameRecord) {
        let game = AnyGame::from_spec(spec).unwrap();
        let start = crate::with_game!(&game, |g| g.format_position(&g.start()));
        let record = GameRecord {
            cell: None,
            game: 0,
            spec: spec.to_string(),
            seed: 0,
            start,
            agents: Default::default(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            opening: 0,
            winner: None,
            reason: "cap".to_string(),
            plies: moves.len() as u32,
            rules_file: None,
            adjudged: None,
        };
        (game, record)
    }

    #[test]
    fn captures_are_counted_from_the_material() {
        // sixteen-rebels at the start: nothing lost yet.
        let (game, rec) = record("sixteen-rebels", &[]);
        let stats = game_stats(&game, &rec).unwrap();
        assert_eq!(stats.left, [1, 16]);
        assert_eq!(stats.lost, [0, 0]);
        assert_eq!(stats.first, 0);
        let (game, rec) = record("chess", &["e2e4", "d7d5", "e4d5"]);
        let stats = game_stats(&game, &rec).unwrap();
        assert_eq!(stats.lost, [0, 1]);
        assert_eq!(stats.early_lost, [0, 1]);
        // White's pawns on d2 and d5 are doubled; no pawn is isolated.
        assert_eq!(stats.features["doubled_pawns"], 1.0);
        assert_eq!(stats.features["isolated_pawns"], 0.0);
    }

    /// Pieces taken in the opening's plies (drawn at random, chosen by no player) count in `lost` but
    /// not in `lost_in_play`; those taken after it count in both.
    #[test]
    fn losses_in_play_leave_out_the_opening() {
        let (game, mut rec) = record("chess", &["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"]);
        rec.opening = 3; // White's pawn took on d5 in the opening
        let stats = game_stats(&game, &rec).unwrap();
        assert_eq!(stats.lost, [1, 1]);
        assert_eq!(stats.lost_in_play, [1, 0]);
        rec.opening = 0;
        assert_eq!(game_stats(&game, &rec).unwrap().lost_in_play, [1, 1]);
        rec.opening = 99; // an opening longer than the game: nothing was lost in play
        assert_eq!(game_stats(&game, &rec).unwrap().lost_in_play, [0, 0]);
    }

    #[test]
    fn pawn_structure_counts_doubled_and_isolated_pawns() {
        let game = AnyGame::from_spec("chess").unwrap();
        let AnyGame::Chess(chess) = &game else { unreachable!() };
        // White: pawns a2, a3 (doubled and isolated), h2 (isolated); bishops c1, e3 (both dark).
        let pos = chess.parse_position("4k3/8/8/8/8/P3B3/P6P/2B1K3 w - - 0 1").unwrap();
        let f = chess_features(&pos);
        assert_eq!(f["doubled_pawns"], 1.0);
        assert_eq!(f["isolated_pawns"], 3.0);
        assert_eq!(f["same_colour_bishops"], 1.0);
    }
}
