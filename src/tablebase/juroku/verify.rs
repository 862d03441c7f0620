//! The proof that a Japanese-board table is right, level by level: every stored position's verdict
//! must equal the one its moves give by the rules' own move generator (not the builder's un-moves),
//! with the level and the one below in memory. A level that passes gets a `level-NN.verified` note
//! naming its checksums, so a check of hours stopped midway resumes at the first level not yet passed.

use rayon::prelude::*;

use super::build::{GENERAL_SIDE, REBELS_SIDE, for_each_slot, jobs};

use super::{JurokuTable, level_path, read_side};
use crate::game::Game;
use crate::game::hunt::{GENERAL, HuntGame, HuntState, REBELS};
use crate::tablebase::consistency::{Inconsistency, VerifyError, verdict_from_moves};
use crate::tablebase::verdict::Verdict;

impl JurokuTable {
    /// Checks every stored position of every level (its checksums first); returns how many, or the
    /// first contradiction found. `progress` hears each level's Rebel count and positions checked.
    pub fn verify(&self, game: &HuntGame, mut progress: impl FnMut(u32, u64)) -> Result<u64, VerifyError> {
        let mut checked = 0;
        let mut lower: Option<(u32, Vec<u8>)> = None;
        for level in self.levels.iter().flatten() {
            let rebels = level.header.rebels;
            let path = level_path(&self.dir, rebels);
            let note = path.with_extension("verified");
            // Read (and checksummed) even when it passed before: the bytes must still be those.
            let here =
                [read_side(game, level, &path, GENERAL_SIDE)?, read_side(game, level, &path, REBELS_SIDE)?];
            if let Some(n) = passed_before(&note, level) {
                checked += n;
                progress(rebels, n);
                let [_, rebels_to_move] = here;
                lower = Some((rebels, rebels_to_move));
                continue;
            }
            let below = self.levels.get(rebels as usize - 1).and_then(Option::as_ref);
            let below_bytes = match (&lower, below) {
                (Some((n, bytes)), _) if *n == rebels - 1 => Some(bytes.as_slice()),
                _ => None,
            };
            let probe = |s: &HuntState| -> Option<Verdict> {
                let n = s.rebels.count_ones();
                let side = usize::from(s.to_move == REBELS);
                let bytes = if n == rebels {
                    &here[side][..]
                } else if n + 1 == rebels && side == 1 {
                    below_bytes?
                } else {
                    return None;
                };
                let index = if n == rebels { &level.index } else { &below?.index };
                Some(Verdict::from_stored(bytes[index.slot(s.general, s.rebels as u32) as usize]))
            };
            let n = jobs(&level.index)
                .into_par_iter()
                .map(|job| {
                    let mut n = 0u64;
                    let mut failure = None;
                    for_each_slot(&level.index, job, |slot, general, set| {
                        if failure.is_some() || !level.index.is_stored(general, set) {
                            return;
                        }
                        for to_move in [GENERAL, REBELS] {
                            let s = HuntState { general, rebels: u64::from(set), to_move, result: None };
                            let stored =
                                Verdict::from_stored(here[usize::from(to_move == REBELS)][slot as usize]);
                            let from_moves = verdict_from_moves(game, &s, &probe);
                            if from_moves != Some(stored) {
                                failure = Some(Inconsistency {
                                    position: game.format_position(&s),
                                    stored,
                                    from_moves,
                                });
                                return;
                            }
                            n += 1;
                        }
                    });
                    failure.map_or(Ok(n), Err)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
            checked += n;
            let passed = Passed { checksums: level.header.checksums.clone(), positions: n };
            let text = serde_json::to_string(&passed).expect("a note serializes");
            // Best effort: a folder that cannot be written still verifies, it just cannot resume.
            let _ = crate::files::write_atomic_with(&note, |out| out.write_all(text.as_bytes()));
            progress(rebels, n);
            let [_, rebels_to_move] = here;
            lower = Some((rebels, rebels_to_move));
        }
        Ok(checked)
    }
}

/// What a level's `.verified` note says: the checksums of the bytes that passed, and how many
/// positions they hold.
#[derive(serde::Serialize, serde::Deserialize)]
struct Passed {
    checksums: [String; 2],
    positions: u64,
}

/// The positions of a level that passed an earlier check of bytes with these checksums, if it did.
fn passed_before(note: &std::path::Path, level: &super::LevelFile) -> Option<u64> {
    let passed: Passed = serde_json::from_str(&std::fs::read_to_string(note).ok()?).ok()?;
    (passed.checksums == level.header.checksums).then_some(passed.positions)
}
