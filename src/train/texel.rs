//! The games Texel's tuning fits the chess evaluation to ([`crate::eval::texel`]): self-play of the
//! alpha-beta agent at a fixed depth from random openings, on each variant asked for. Every quiet
//! position after the opening (the side to move not in check and with no capture that keeps its
//! material) becomes a sample labelled with its game's result. The positions are kept in a file whose
//! first line records the settings that made them, so a second fit with the same settings reads them
//! instead of playing again.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::agents::{AgentSpec, MatchSettings, run_match};
use crate::eval::texel::Sample;
use crate::game::Game;
use crate::game::chess::ChessGame;
use crate::game::tactics::Tactics;

/// The self-play that labels positions: games per variant, the agent's depth, the random plies that
/// open each game (left out of the samples), and the seed.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub games: usize,
    pub depth: u32,
    pub opening: u32,
    pub seed: u64,
}

impl SelfPlay {
    /// The settings as the positions file's first line records them.
    pub fn describe(&self, variants: &[ChessGame]) -> String {
        let names: Vec<&str> = variants.iter().map(|g| g.spec()).collect();
        format!(
            "games {} per variant, ab:depth={} self-play, {} random opening plies, seed {}, variants {}",
            self.games,
            self.depth,
            self.opening,
            self.seed,
            names.join(",")
        )
    }

    /// The samples of `variants`: read from `data` when it was made with these settings, else played
    /// on `threads` cores and written there (`note` hears each variant's self-play as it starts).
    pub fn samples(
        &self,
        variants: &[ChessGame],
        data: &Path,
        threads: usize,
        note: &dyn Fn(&str),
    ) -> anyhow::Result<Vec<Sample>> {
        let settings = self.describe(variants);
        let labelled = match read_data(data, &settings) {
            Some(labelled) => labelled,
            None => self.make_data(variants, data, &settings, threads, note)?,
        };
        labelled
            .iter()
            .map(|l| {
                let game =
                    variants.iter().find(|g| g.spec() == l.variant).context("a variant of the data")?;
                let pos = game.parse_position(&l.fen).map_err(|e| anyhow::anyhow!("{}: {e}", l.fen))?;
                Ok(Sample::of(game, &pos, l.result))
            })
            .collect()
    }

    /// Plays the self-play games and writes their quiet positions.
    fn make_data(
        &self,
        variants: &[ChessGame],
        data: &Path,
        settings: &str,
        threads: usize,
        note: &dyn Fn(&str),
    ) -> anyhow::Result<Vec<Labelled>> {
        let agent = AgentSpec::parse(&format!("ab:depth={}", self.depth))?;
        let mut labelled = Vec::new();
        for (v, game) in variants.iter().enumerate() {
            note(&format!("self-play: {} games of {} ({})", self.games, game.spec(), agent));
            let seed = crate::seed::derive_seed(self.seed, v as u64);
            let settings = MatchSettings::new(self.games, seed, threads, self.opening);
            for record in &run_match(game, [&agent, &agent], settings, &|_| {})? {
                let result = match record.winner.as_deref() {
                    Some("white") => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                let line = record.replay(game).map_err(|e| anyhow::anyhow!("game {}: {e}", record.game))?;
                let after_opening = line.states().iter().skip(record.opening as usize + 1);
                for state in after_opening.filter(|s| quiet(game, s)) {
                    let (variant, fen) = (game.spec().to_string(), game.format_position(state));
                    labelled.push(Labelled { variant, fen, result });
                }
            }
        }
        let mut text = format!("# {settings}\n").into_bytes();
        for l in &labelled {
            serde_json::to_writer(&mut text, l)?;
            text.write_all(b"\n")?;
        }
        crate::files::write_atomic(data, &text)?;
        Ok(labelled)
    }
}

/// One labelled position.
#[derive(Serialize, Deserialize)]
struct Labelled {
    variant: String,
    fen: String,
    /// White's result: 1, ½ or 0.
    result: f32,
}

/// The positions of `path` when its first line records these settings.
fn read_data(path: &Path, settings: &str) -> Option<Vec<Labelled>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    (lines.next()? == format!("# {settings}"))
        .then(|| lines.filter_map(|l| serde_json::from_str(l).ok()).collect())
}

/// A position the evaluation alone should judge: the game goes on, the side to move is not in check
/// and has no capture that keeps its material.
fn quiet(game: &ChessGame, pos: &<ChessGame as Game>::State) -> bool {
    let mut moves = <ChessGame as Game>::Moves::default();
    game.legal_moves(pos, &mut moves);
    !moves.is_empty()
        && game.rule_draw(pos).is_none()
        && !game.in_check(pos)
        && !moves.iter().any(|&m| game.is_noisy(pos, m) && game.keeps_material(pos, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games of depth-1 self-play make a positions file; a second call with the same settings
    /// reads it back (the same samples, nothing played), and other settings do not read it.
    #[test]
    fn the_positions_file_is_read_back_only_under_its_own_settings() {
        let temp = tempfile::tempdir().unwrap();
        let data = temp.path().join("positions.jsonl");
        let game = crate::game::testkit::chess_game("chess:max_plies=40");
        let play = SelfPlay { games: 2, depth: 1, opening: 4, seed: 5 };
        let made = play.samples(std::slice::from_ref(&game), &data, 1, &|_| {}).unwrap();
        assert!(!made.is_empty());
        let again = play.samples(std::slice::from_ref(&game), &data, 1, &|_| panic!("played again")).unwrap();
        assert_eq!(again.len(), made.len());
        let text = std::fs::read_to_string(&data).unwrap();
        assert_eq!(text.lines().next().unwrap(), format!("# {}", play.describe(std::slice::from_ref(&game))));
        assert!(read_data(&data, &play.describe(std::slice::from_ref(&game))).is_some());
        let other = SelfPlay { seed: 6, ..play };
        assert!(read_data(&data, &other.describe(std::slice::from_ref(&game))).is_none());
    }
}
