//! The tables of the Japanese board (juroku-musashi, the triangle open or closed, either capture rule,
//! any winning threshold): one file per level (Rebel count) in a folder, because the largest levels
//! are gigabytes each and a build of hours must survive being stopped.
//!
//! Each level file is a text line naming the format, a JSON header line (the rules, the Rebel count,
//! the slots per side to move, a checksum per side, how the positions divide, the build's seconds and
//! memory peak), then one byte per slot of [`FoldedIndex`], General to move first: 0 a draw (or no
//! position), else the distance in plies + 1, odd distances won for the side to move. Every position
//! has its exact distance.
//!
//! The build solves the levels from the fewest Rebels up, each from the one below, and writes each
//! level whole (a temporary file renamed) before starting the next: a build stopped at any moment
//! loses at most the level in progress and resumes from the last one written. Probing reads single
//! bytes from the files, so a table of 29 GB answers on a machine with less memory.

mod build;
pub mod index;
mod verify;

use std::fs::File;
use std::io::{BufReader, Read};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

pub use build::LevelProgress;
use index::FoldedIndex;

use super::format::{Checksum, TableFileError, checksum, read_line};
use super::rules::{levels_of, rules_key};
use super::verdict::Tally;
use crate::game::Game;
use crate::game::hunt::{HuntGame, HuntState, REBELS};

const MAGIC: &str = "rebel-zero tablebase level";
const FORMAT: u32 = 1;

/// What a level file says of itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LevelHeader {
    pub format: u32,
    pub rules: String,
    pub rebels: u32,
    /// Slots per side to move.
    pub slots: u64,
    /// [`checksum`] of each side's bytes, General to move first, in hexadecimal.
    pub checksums: [String; 2],
    /// How the positions with each side to move divide (mirror images counted apart).
    pub tallies: [Tally; 2],
    /// The level's build: seconds, and the process's memory peak while it ran.
    pub seconds: f64,
    pub peak_memory_mb: u64,
}

struct LevelFile {
    header: LevelHeader,
    index: FoldedIndex,
    file: File,
    /// Where the General-to-move bytes begin.
    data: u64,
}

/// A table of the Japanese board on disk.
pub struct JurokuTable {
    /// Indexed by Rebel count.
    levels: Vec<Option<LevelFile>>,
    dir: PathBuf,
}

/// What the build tells while it runs.
pub trait BuildObserver {
    /// A level already written by an earlier build, kept.
    fn kept(&mut self, level: &LevelHeader);
    /// A level about to be built, with its slots per side.
    fn begin(&mut self, rebels: u32, slots: u64);
    /// The progress of the level being built.
    fn progress(&self) -> &dyn LevelProgress;
    /// A level built and written.
    fn done(&mut self, level: &LevelHeader);
}

/// The Rebel points of the game's board: every point but the General-only ones, which must come last.
pub fn rebel_points(game: &HuntGame) -> u32 {
    let board = game.board();
    let all = (1u64 << board.len()) - 1;
    let points = (all & !board.privy).count_ones();
    assert_eq!(all & !board.privy, (1u64 << points) - 1, "the Rebels' points come first");
    points
}

/// The file of one level in a table's folder: `level-07.rztl`.
pub fn level_path(dir: &Path, rebels: u32) -> PathBuf {
    dir.join(format!("level-{rebels:02}.rztl"))
}

/// The levels of at most `most` Rebels that the folder `dir` has no file for.
pub fn missing_levels(game: &HuntGame, dir: &Path, most: u32) -> Vec<u32> {
    levels_of(game).into_iter().filter(|&n| n <= most && !level_path(dir, n).is_file()).collect()
}

/// What building some levels would take on the two cores of the AMD EPYC that docs/BENCHMARKS.md
/// measured the open triangle's table on: its largest levels took up to 0.75 µs of wall clock and
/// 5.6 bytes of memory per slot (a level and the one below it in memory); each slot is 2 bytes of
/// disk, one per side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildEstimate {
    pub seconds: f64,
    pub memory_bytes: u64,
    pub disk_bytes: u64,
}

const SECONDS_PER_SLOT: f64 = 0.75e-6;
const MEMORY_PER_SLOT: f64 = 5.6;

impl BuildEstimate {
    /// The estimate for building `levels` of `game`'s table.
    pub fn of(game: &HuntGame, levels: &[u32]) -> BuildEstimate {
        let points = rebel_points(game);
        let slots: Vec<u64> =
            levels.iter().map(|&n| FoldedIndex::new(game.board(), points, n).len()).collect();
        BuildEstimate {
            seconds: slots.iter().map(|&n| n as f64 * SECONDS_PER_SLOT).sum(),
            memory_bytes: slots.iter().map(|&n| (n as f64 * MEMORY_PER_SLOT) as u64).max().unwrap_or(0),
            disk_bytes: slots.iter().map(|&n| 2 * n).sum(),
        }
    }

    /// Whether the build is long enough that nobody should start it by surprise: more than five
    /// minutes or 4 GB of memory.
    pub fn is_long(&self) -> bool {
        self.seconds > 300.0 || self.memory_bytes > 4 << 30
    }
}

impl std::fmt::Display for BuildEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let time = if self.seconds >= 5400.0 {
            format!("{:.1} hours", self.seconds / 3600.0)
        } else if self.seconds >= 90.0 {
            format!("{:.0} minutes", self.seconds / 60.0)
        } else {
            "under two minutes".to_string()
        };
        let gb = |bytes: u64| bytes as f64 / 1e9;
        write!(
            f,
            "about {time} on 2 cores, {:.1} GB of memory at its peak and {:.1} GB of disk",
            gb(self.memory_bytes),
            gb(self.disk_bytes)
        )
    }
}

impl JurokuTable {
    /// The table in `dir`, its levels of at most `most` Rebels; with `whole`, each of them must be
    /// there.
    pub fn open(game: &HuntGame, dir: &Path, most: u32, whole: bool) -> Result<JurokuTable, TableFileError> {
        let expected: Vec<u32> = levels_of(game).into_iter().filter(|&n| n <= most).collect();
        let mut levels: Vec<Option<LevelFile>> = Vec::new();
        for &rebels in &expected {
            let level = open_level(game, dir, rebels)?;
            if levels.len() <= rebels as usize {
                levels.resize_with(rebels as usize + 1, || None);
            }
            levels[rebels as usize] = level;
        }
        let held: Vec<u32> = expected.iter().copied().filter(|&n| levels[n as usize].is_some()).collect();
        if whole && held != expected {
            return Err(TableFileError::Malformed {
                path: dir.to_path_buf(),
                problem: format!(
                    "it holds the levels {held:?} of {expected:?}; `rebel-zero solve {}` builds the rest",
                    game.spec()
                ),
            });
        }
        Ok(JurokuTable { levels, dir: dir.to_path_buf() })
    }

    /// The stored byte of a position (which must be one: the General on an empty point, the Rebels on
    /// theirs); `None` for a level the table lacks or a file that cannot be read.
    pub fn value(&self, s: &HuntState) -> Option<u8> {
        let level = self.levels.get(s.rebels.count_ones() as usize)?.as_ref()?;
        let slot = level.index.slot(s.general, s.rebels as u32);
        let side = if s.to_move == REBELS { level.header.slots } else { 0 };
        let mut byte = [0u8];
        level.file.read_exact_at(&mut byte, level.data + side + slot).ok()?;
        Some(byte[0])
    }

    /// Each level held, with its header.
    pub fn headers(&self) -> impl Iterator<Item = &LevelHeader> {
        self.levels.iter().flatten().map(|l| &l.header)
    }

    /// Builds the levels of `game` up to `most` Rebels in `dir`, keeping the ones already there.
    pub fn build(
        game: &HuntGame,
        dir: &Path,
        most: u32,
        observer: &mut dyn BuildObserver,
    ) -> Result<JurokuTable, TableFileError> {
        let write_error = |path: &Path, source| TableFileError::Write { path: path.to_path_buf(), source };
        let levels: Vec<u32> = levels_of(game).into_iter().filter(|&n| n <= most).collect();
        // One build per folder: a second would write the same levels and remove the first's
        // unfinished file. The lock goes with the process, however it ends.
        let _lock = if levels.iter().all(|&n| level_path(dir, n).is_file()) {
            None
        } else {
            std::fs::create_dir_all(dir).map_err(|e| write_error(dir, e))?;
            let lock = dir.join(".lock");
            let file = File::create(&lock).map_err(|e| write_error(&lock, e))?;
            if file.try_lock().is_err() {
                return Err(TableFileError::Busy { path: dir.to_path_buf() });
            }
            remove_unfinished_writes(dir);
            Some(file)
        };
        let points = rebel_points(game);
        let mut lower: Option<(FoldedIndex, Vec<u8>)> = None;
        for rebels in levels {
            let index = FoldedIndex::new(game.board(), points, rebels);
            if let Some(level) = open_level(game, dir, rebels)? {
                observer.kept(&level.header);
                lower = None; // read from its file when the next level needs it
                continue;
            }
            let below = match lower.take() {
                Some(below) => Some(below),
                None if rebels - 1 > game.rules.general_wins_at.unwrap_or(0) => {
                    let level = open_level(game, dir, rebels - 1)?.expect("the level below was built first");
                    let bytes = read_side(game, &level, &level_path(dir, rebels - 1), build::REBELS_SIDE)?;
                    Some((level.index, bytes))
                }
                None => None,
            };
            observer.begin(rebels, index.len());
            reset_memory_peak();
            let clock = Instant::now();
            let solved = build::build_level(
                game,
                &index,
                below.as_ref().map(|(index, bytes)| build::Lower { index, rebels_to_move: bytes }),
                observer.progress(),
            );
            drop(below);
            let header = LevelHeader {
                format: FORMAT,
                rules: rules_key(game),
                rebels,
                slots: index.len(),
                checksums: [&solved.general_to_move, &solved.rebels_to_move]
                    .map(|bytes| format!("{:016x}", checksum(&[bytes]))),
                tallies: solved.tallies,
                seconds: clock.elapsed().as_secs_f64(),
                peak_memory_mb: memory_peak_mb(),
            };
            let path = level_path(dir, rebels);
            crate::files::write_atomic_with(&path, |out| {
                writeln!(out, "{MAGIC}")?;
                serde_json::to_writer(&mut *out, &header)?;
                writeln!(out)?;
                out.write_all(&solved.general_to_move)?;
                out.write_all(&solved.rebels_to_move)
            })
            .map_err(|e| write_error(&path, e))?;
            // The checksums are of the bytes just written: noted, so the open below need not read
            // the level back.
            let noted = File::open(&path).ok().and_then(|file| Checked::of(&path, &file, &header.checksums));
            if let Some(written) = noted {
                written.write(&path);
            }
            observer.done(&header);
            lower = Some((index, solved.rebels_to_move));
        }
        JurokuTable::open(game, dir, most, false)
    }
}

/// Removes the temporary files a stopped build left half written (a level of gigabytes each): the
/// folder is one build's, and a level is only ever a file once whole.
fn remove_unfinished_writes(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(".tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The level file of `rebels` in `dir`, if there is one; an error for a file that is not a whole level
/// of these rules: its header, length and checksums are checked ([`check_bytes`]); `--verify` proves
/// its values.
fn open_level(game: &HuntGame, dir: &Path, rebels: u32) -> Result<Option<LevelFile>, TableFileError> {
    let path = level_path(dir, rebels);
    let read_error = |source| TableFileError::Read { path: path.clone(), source };
    let malformed = |problem: String| TableFileError::Malformed { path: path.clone(), problem };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(read_error(e)),
    };
    let mut input = BufReader::new(file.try_clone().map_err(read_error)?);
    if read_line(&mut input).map_err(read_error)? != MAGIC {
        return Err(malformed("its first line is not the tablebase level heading".into()));
    }
    let line = read_line(&mut input).map_err(read_error)?;
    let header: LevelHeader =
        serde_json::from_str(&line).map_err(|e| malformed(format!("bad header: {e}")))?;
    if header.format != FORMAT {
        return Err(malformed(format!(
            "it is of format {}, this build reads format {FORMAT}",
            header.format
        )));
    }
    let wanted = rules_key(game);
    if header.rules != wanted {
        return Err(TableFileError::OtherRules { path: path.clone(), found: header.rules, wanted });
    }
    let index = FoldedIndex::new(game.board(), rebel_points(game), rebels);
    if header.rebels != rebels || header.slots != index.len() {
        return Err(malformed(format!("its header does not describe the level of {rebels} Rebels")));
    }
    let data = (MAGIC.len() + 1 + line.len() + 1) as u64;
    let length = file.metadata().map_err(read_error)?.len();
    if length != data + 2 * header.slots {
        return Err(malformed(format!(
            "it has {length} bytes where the level of {rebels} Rebels has {} (remove it to build the level again)",
            data + 2 * header.slots
        )));
    }
    let level = LevelFile { header, index, file, data };
    check_bytes(game, &level, &path)?;
    Ok(Some(level))
}

/// What a level's `.checked` note says: the file whose bytes matched the header's checksums (read
/// through on a first open, or written so by the build, which took the checksums from the bytes it
/// wrote), by its length, its modification time, and a hash of a sample of its bytes ([`sampled`]).
/// A level is read through again when any of them changed: a write, or bytes damaged with the file's
/// time put back. (Damage between the sampled blocks of a large level is found by `solve --verify`,
/// which reads every byte.)
#[derive(Serialize, Deserialize, PartialEq)]
struct Checked {
    checksums: [String; 2],
    length: u64,
    modified_ns: u128,
    sampled: String,
}

/// Blocks of a level file hashed into its note: the first and the last, and evenly spaced ones
/// between, [`SAMPLE_BLOCK`] bytes each; about 4 MB read on each open, whatever the level's size.
const SAMPLE_BLOCKS: u64 = 64;
const SAMPLE_BLOCK: u64 = 64 * 1024;

/// The SHA-256 of the sampled blocks of `file` (all of it when it is smaller than the sample).
fn sampled(file: &File, length: u64) -> std::io::Result<String> {
    use sha2::Digest;
    let mut hash = sha2::Sha256::new();
    let mut block = vec![0u8; SAMPLE_BLOCK as usize];
    let last = length.saturating_sub(SAMPLE_BLOCK);
    let mut previous_end = 0;
    for k in 0..SAMPLE_BLOCKS {
        let start = (last * k / (SAMPLE_BLOCKS - 1)).max(previous_end);
        let end = (start + SAMPLE_BLOCK).min(length);
        if start >= end {
            break;
        }
        let bytes = &mut block[..(end - start) as usize];
        file.read_exact_at(bytes, start)?;
        hash.update(&*bytes);
        previous_end = end;
    }
    Ok(format!("{:x}", hash.finalize()))
}

impl Checked {
    /// The note for the level file `file` at `path` as it is now, holding bytes with these checksums.
    fn of(path: &Path, file: &File, checksums: &[String; 2]) -> Option<Checked> {
        let meta = std::fs::metadata(path).ok()?;
        let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(Checked {
            checksums: checksums.clone(),
            length: meta.len(),
            modified_ns: modified.as_nanos(),
            sampled: sampled(file, meta.len()).ok()?,
        })
    }

    /// Writes the note beside the level file; best effort: a folder that cannot be written is
    /// checked again next time.
    fn write(&self, path: &Path) {
        let text = serde_json::to_string(self).expect("a note serializes");
        let _ = crate::files::write_atomic_with(&path.with_extension("checked"), |out| {
            out.write_all(text.as_bytes())
        });
    }
}

/// Checks a level's bytes against its header's checksums, unless its `.checked` note says these very
/// bytes (the file unchanged since) passed: a damaged level is refused when it is opened, before any
/// value is read from it. Reading a level costs its size at the disk's speed (level 16 of the open
/// triangle, 5.5 GB, about 10 s at 557 MB/s); it is paid once for a level changed since its note (or
/// noted before notes held a sample), as the build notes each level it writes.
fn check_bytes(game: &HuntGame, level: &LevelFile, path: &Path) -> Result<(), TableFileError> {
    let stamp = Checked::of(path, &level.file, &level.header.checksums);
    let note = std::fs::read_to_string(path.with_extension("checked")).ok();
    let noted = note.and_then(|t| serde_json::from_str::<Checked>(&t).ok());
    if stamp.is_some() && noted == stamp {
        return Ok(());
    }
    let read_error = |source| TableFileError::Read { path: path.to_path_buf(), source };
    let mut input = BufReader::new(&level.file);
    std::io::Seek::seek(&mut input, std::io::SeekFrom::Start(level.data)).map_err(read_error)?;
    for side in [build::GENERAL_SIDE, build::REBELS_SIDE] {
        let mut sum = Checksum::default();
        sum.add_read(&mut input, level.header.slots).map_err(read_error)?;
        check_side(game, level, path, side, sum.finish())?;
    }
    if let Some(stamp) = stamp {
        stamp.write(path);
    }
    Ok(())
}

/// Whether one side's bytes, summed to `sum`, are what the header says; the error names the file
/// and the command that rebuilds it.
fn check_side(
    game: &HuntGame,
    level: &LevelFile,
    path: &Path,
    side: usize,
    sum: u64,
) -> Result<(), TableFileError> {
    if format!("{sum:016x}") == level.header.checksums[side] {
        return Ok(());
    }
    Err(TableFileError::Malformed {
        path: path.to_path_buf(),
        problem: format!(
            "the level of {rebels} Rebels does not match its checksum: the file is damaged (remove it and run \
             `rebel-zero solve {} --table '{}' --up-to {rebels}` to build the level again)",
            game.spec(),
            path.parent().unwrap_or(Path::new(".")).display(),
            rebels = level.header.rebels,
        ),
    })
}

/// One side's bytes of a level, checked against the header's checksum.
fn read_side(
    game: &HuntGame,
    level: &LevelFile,
    path: &Path,
    side: usize,
) -> Result<Vec<u8>, TableFileError> {
    let mut bytes = vec![0u8; level.header.slots as usize];
    let mut input = &level.file;
    let offset = level.data + side as u64 * level.header.slots;
    std::io::Seek::seek(&mut input, std::io::SeekFrom::Start(offset))
        .and_then(|_| input.read_exact(&mut bytes))
        .map_err(|source| TableFileError::Read { path: path.to_path_buf(), source })?;
    check_side(game, level, path, side, checksum(&[&bytes]))?;
    Ok(bytes)
}

/// Starts a new measure of the process's memory peak (Linux; elsewhere the peak is the process's).
fn reset_memory_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's resident-memory peak in MB since [`reset_memory_peak`] (0 where it cannot be read).
fn memory_peak_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
    kb.map_or(0, |kb| kb / 1024)
}

/// An observer that tells nothing (tests, and builds without a terminal of their own).
#[derive(Default)]
pub struct Quiet {
    /// The levels built (not kept) so far.
    pub built: Vec<u32>,
    pub kept: Vec<u32>,
}

impl LevelProgress for Quiet {
    fn phase(&self, _: &'static str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn wave(&self, _: u32) {}
}

impl BuildObserver for Quiet {
    fn kept(&mut self, level: &LevelHeader) {
        self.kept.push(level.rebels);
    }
    fn begin(&mut self, _: u32, _: u64) {}
    fn progress(&self) -> &dyn LevelProgress {
        self
    }
    fn done(&mut self, level: &LevelHeader) {
        self.built.push(level.rebels);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hunt::{GENERAL, REBELS};
    use crate::tablebase::testing::hunt;
    use crate::tablebase::{Tablebase, Verdict};

    /// A fresh folder path `name` in a temporary folder removed when the first is dropped.
    fn temp_dir(name: &str) -> (tempfile::TempDir, PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join(name);
        (temp, dir)
    }

    #[test]
    fn small_levels_agree_with_the_move_generator_and_a_plain_search() {
        for (spec, most) in [
            ("juroku-musashi", 4),
            ("juroku-musashi:triangle=closed", 5),
            ("juroku-musashi:capture=mandatory,general_wins_at=1", 4),
        ] {
            let game = hunt(spec);
            let (_temp, dir) = temp_dir("small");
            let tb = Tablebase::build_in_folder(&game, &dir, most, &mut Quiet::default()).unwrap();
            let checked = tb.verify(|_, _| {}).unwrap();
            let [general, rebels] = [GENERAL, REBELS].map(|side| tb.tally_for(side));
            assert!(checked > 0 && checked <= general.positions() + rebels.positions(), "{spec}");
            assert!(general.wins > 0 && general.losses > 0 && general.draws > 0, "{spec}: {general:?}");
            assert!(rebels.wins > 0 && rebels.draws > 0, "{spec}: {rebels:?}");
            let spot = tb.spot_check(1000, 4, most, 7).unwrap();
            assert!(spot.decided_within_depth >= 10, "{spec}: {spot:?}");
        }
    }

    #[test]
    fn mirror_images_have_one_value() {
        let game = hunt("juroku-musashi");
        let (_temp, dir) = temp_dir("mirror");
        let tb = Tablebase::build_in_folder(&game, &dir, 4, &mut Quiet::default()).unwrap();
        let index = FoldedIndex::new(game.board(), 31, 4);
        let mirror = game.board().mirror;
        let mut decided = 0;
        for general in 0..31u8 {
            let mut set = 0b1111u32;
            while set < 1 << 31 {
                for to_move in [GENERAL, REBELS] {
                    let s = HuntState { general, rebels: u64::from(set), to_move, result: None };
                    let Some(v) = tb.probe(&s) else { continue };
                    let image = HuntState {
                        general: mirror[general as usize],
                        rebels: u64::from(index.mirror_set(set)),
                        ..s
                    };
                    assert_eq!(tb.probe(&image), Some(v), "{}", game.format_position(&s));
                    decided += usize::from(v != Verdict::Draw);
                }
                set = index::next_set(set);
            }
        }
        assert!(decided >= 24, "{decided}");
    }

    #[test]
    fn a_damaged_level_is_refused_when_opened_even_with_its_time_put_back() {
        let game = hunt("juroku-musashi");
        let (_temp, dir) = temp_dir("damaged");
        Tablebase::build_in_folder(&game, &dir, 4, &mut Quiet::default()).unwrap();
        // The build noted each level it wrote (its checksums are of the bytes it wrote).
        let path = level_path(&dir, 4);
        assert!(path.with_extension("checked").is_file());
        assert!(Tablebase::open_levels(&game, &dir, 4).is_ok());
        // One data byte flipped, well past the header, the file's time put back: the note kept the
        // file's length and time, and a hash of a sample of its bytes, which no longer matches. (The
        // note keyed on length and time alone, and the damaged level was trusted.)
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 100;
        bytes[at] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(modified).unwrap();
        let err =
            Tablebase::open_levels(&game, &dir, 4).err().expect("a damaged level is refused").to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
        assert!(err.contains("does not match its checksum"), "{err}");
        let rebuild = format!("rebel-zero solve juroku-musashi --table '{}' --up-to 4`", dir.display());
        assert!(err.contains(&rebuild), "{err}");
    }
}
