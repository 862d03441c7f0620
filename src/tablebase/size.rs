//! What building a table in memory takes ([`super::chinese`]'s builder), worked out before anything is
//! built: its slots, time, peak memory and file, scaled from sixteen-rebels' measured build, so that a
//! game too large for the index or for this machine is refused with its figures instead of failing an
//! hour in.

use super::index::MAX_LEVEL_SLOTS;
use super::juroku::BuildEstimate;
use super::rules::levels_of;
use crate::game::hunt::HuntGame;

/// Wall seconds per slot (one position, one side to move) on two free cores of an AMD EPYC:
/// sixteen-rebels' 941.2 million slots took 330 s (636 s of CPU).
const SECONDS_PER_SLOT: f64 = 330.0 / 941.2e6;
/// Working bytes per slot of one side to move in the level being built: a `u32` for each side, then
/// the byte for each side it becomes.
const WORKING_BYTES_PER_SLOT: f64 = 10.0;
/// What the wave lists and allocator add at the peak: sixteen-rebels peaked at 2.15 GB against the
/// 1.86 GB its arrays account for (while its level of 14 Rebels is built).
const PEAK_OVERHEAD: f64 = 1.16;

/// A table's size, worked out from its rules alone.
#[derive(Clone, Debug)]
pub struct TableSize {
    /// Slots of all its levels, both sides to move: its positions and the unused slots among them
    /// (the General on a Rebel, a game already over).
    pub slots: f64,
    /// The slots of its largest level, one side to move.
    pub largest_level: f64,
    pub estimate: BuildEstimate,
}

impl TableSize {
    /// The size of `game`'s table as the in-memory builder lays it out: every level of
    /// [`levels_of`], C(Rebel points, n) sets × the board's points × 2 sides.
    pub fn of(game: &HuntGame) -> TableSize {
        let board = game.board();
        let rebel_points = board.len() as u32 - board.privy.count_ones();
        let per_side: Vec<f64> =
            levels_of(game).iter().map(|&n| binomial(rebel_points, n) * board.len() as f64).collect();
        let slots: f64 = per_side.iter().map(|s| 2.0 * s).sum();
        // The peak comes while a level is built: the levels below it, kept, beside its working arrays.
        let mut below = 0.0;
        let mut peak: f64 = 0.0;
        for &level in &per_side {
            peak = peak.max(below + level * WORKING_BYTES_PER_SLOT);
            below += 2.0 * level;
        }
        TableSize {
            slots,
            largest_level: per_side.iter().copied().fold(0.0, f64::max),
            estimate: BuildEstimate {
                seconds: slots * SECONDS_PER_SLOT,
                memory_bytes: (peak.max(below) * PEAK_OVERHEAD) as u64,
                disk_bytes: slots as u64,
            },
        }
    }

    /// Refuses a table whose largest level does not fit the index (31 bits of slots), naming its
    /// size.
    pub fn check_index(&self) -> Result<(), String> {
        if self.largest_level < MAX_LEVEL_SLOTS as f64 {
            return Ok(());
        }
        Err(format!(
            "its largest level has {} slots per side, and a level is indexed by 31 bits ({} at most); {self}",
            count(self.largest_level),
            count(MAX_LEVEL_SLOTS as f64)
        ))
    }

    /// [`TableSize::check_index`], then [`TableSize::check_memory`]: whether the table can be built
    /// here.
    pub fn check(&self, available: Option<u64>) -> Result<(), String> {
        self.check_index()?;
        self.check_memory(available)
    }

    /// Refuses a build whose peak exceeds 80% of the memory free now (`available`, in bytes; `None`
    /// where the system does not say), naming both.
    pub fn check_memory(&self, available: Option<u64>) -> Result<(), String> {
        let Some(free) = available else { return Ok(()) };
        let needed = self.estimate.memory_bytes;
        if needed as f64 <= 0.8 * free as f64 {
            return Ok(());
        }
        Err(format!(
            "building it needs {:.1} GB of memory at its peak, and {:.1} GB is free ({:.1} GB may be taken); {self}",
            needed as f64 / 1e9,
            free as f64 / 1e9,
            0.8 * free as f64 / 1e9
        ))
    }
}

impl std::fmt::Display for TableSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} slots (positions and the unused slots among them): {}",
            count(self.slots),
            self.estimate
        )
    }
}

/// C(n, k) as a float, for boards past the exact table's 32 points.
fn binomial(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k.min(n - k)).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1))
}

/// A large count in words: `941 million`, `4.6 billion`, `12,345`.
pub fn count(n: f64) -> String {
    if n >= 1e12 {
        format!("{:.1} trillion", n / 1e12)
    } else if n >= 1e9 {
        format!("{:.1} billion", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.0} million", n / 1e6)
    } else {
        let digits = format!("{:.0}", n);
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::testing::hunt;

    /// The default rules' figures are the measured build's: 941.2 million slots, 5½ minutes, 2.15 GB.
    #[test]
    fn sixteen_rebels_is_sized_as_it_measured() {
        let size = TableSize::of(&hunt("sixteen-rebels"));
        assert_eq!(size.slots, 941_230_380.0);
        assert_eq!(size.largest_level, 5_200_300.0 * 29.0);
        assert!((size.estimate.seconds - 330.0).abs() < 1.0, "{}", size.estimate.seconds);
        let gb = size.estimate.memory_bytes as f64 / 1e9;
        assert!((2.05..2.25).contains(&gb), "{gb} GB");
        assert!(size.check_memory(Some(16 << 30)).is_ok());
        let refused = size.check_memory(Some(2 << 30)).unwrap_err();
        assert!(refused.contains("2.2 GB of memory at its peak, and 2.1 GB is free"), "{refused}");
        assert!(size.check_memory(None).is_ok());
    }

    /// A game whose largest level is past the index is refused with its figures, whatever the memory.
    #[test]
    fn a_game_too_large_for_the_index_is_refused_with_its_figures() {
        let size = TableSize::of(&hunt(crate::tablebase::testing::TOO_BIG));
        let err = size.check(None).unwrap_err();
        assert!(err.contains("its largest level has 4.7 billion slots per side"), "{err}");
        assert!(err.contains("GB of memory at its peak"), "{err}");
        assert!(TableSize::of(&hunt("sixteen-rebels")).check_index().is_ok());
    }

    #[test]
    fn counts_read_as_words() {
        assert_eq!(count(941_230_600.0), "941 million");
        assert_eq!(count(4.65e9), "4.7 billion");
        assert_eq!(count(12_345.0), "12,345");
        assert_eq!(count(999.0), "999");
        assert_eq!(binomial(25, 12), 5_200_300.0);
        assert!((binomial(45, 26) / 2_438_362_177_020.0 - 1.0).abs() < 1e-12);
    }
}
