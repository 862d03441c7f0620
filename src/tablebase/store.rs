//! Tables on disk: a text line naming the format, a JSON header line (the rules the table was built
//! for, its levels, points per set, a checksum per level), then each level's bytes, General to move
//! first. Written to a temporary file and renamed, so a stopped write never leaves a table that looks
//! whole; read back only when every level of the rules is there and every checksum matches.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Level, Levels, Store, Tablebase, Unsupported, index, is_japanese, juroku};
use crate::game::hunt::HuntGame;

const MAGIC: &str = "rebel-zero tablebase";
const FORMAT: u32 = 2;

#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    #[error("cannot read the tablebase {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write the tablebase {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{path} is not a rebel-zero tablebase of format {FORMAT}: {problem}")]
    Malformed { path: PathBuf, problem: String },
    #[error("{path} holds the tablebase of `{found}`, not of `{wanted}`")]
    OtherRules { path: PathBuf, found: String, wanted: String },
    #[error(transparent)]
    Unsupported(#[from] super::Unsupported),
    #[error(
        "another rebel-zero is building the table in {path}; wait for it, or name another folder with --table"
    )]
    Busy { path: PathBuf },
}

impl TableFileError {
    /// A file that is not a whole table of its format, which building again replaces.
    pub fn is_damaged(&self) -> bool {
        matches!(self, TableFileError::Malformed { .. })
    }
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: u32,
    rules: String,
    levels: Vec<u32>,
    points: usize,
    /// [`checksum`] of each level's bytes (both sides to move), in hexadecimal.
    checksums: Vec<String>,
}

/// The options a table's values depend on among the rulesets it solves (not who moves first, not the
/// cap); only meaningful for a game that passes [`Tablebase::check_supported`].
pub fn rules_key(game: &HuntGame) -> String {
    let r = &game.rules;
    if is_japanese(game) {
        return format!(
            "juroku-musashi:triangle={},capture={},general_wins_at={}",
            if r.board == crate::game::hunt::board::BoardKind::Japanese { "open" } else { "closed" },
            if r.mandatory { "mandatory" } else { "optional" },
            r.general_wins_at.unwrap_or(0)
        );
    }
    format!(
        "sixteen-rebels:capture={},general_wins_at={},apex={}",
        if r.mandatory { "mandatory" } else { "optional" },
        r.general_wins_at.unwrap_or(0),
        if r.apex_wins { "on" } else { "off" }
    )
}

/// Where `rebel-zero solve` keeps the table of `game`'s rules, in the cache folder
/// ([`crate::files::cache_dir`]):
/// `tablebases/sixteen-rebels-capture-optional-general_wins_at-4-apex-on.rztb`, and for the Japanese
/// board a folder of level files, `tablebases/juroku-musashi-triangle-open-capture-optional-general_wins_at-0`.
pub fn default_table_path(game: &HuntGame) -> PathBuf {
    let name: String = rules_key(game)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
        .collect();
    let file = if is_japanese(game) { name } else { format!("{name}.rztb") };
    crate::files::cache_dir().join("tablebases").join(file)
}

/// Whether the table of `game`'s rules is at `path` whole: the file, or for the Japanese board every
/// level's file in the folder (a build still under way leaves some out).
pub fn table_present(game: &HuntGame, path: &Path) -> bool {
    if is_japanese(game) {
        Tablebase::levels_of(game).into_iter().all(|n| juroku::level_path(path, n).is_file())
    } else {
        path.is_file()
    }
}

/// Where the table of a ruleset's rules stands in the cache ([`cached_table`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CachedTable {
    /// No table solves these rules, for this reason.
    Unsolvable(Unsupported),
    /// A table could solve them, but it is not built whole at this path (`rebel-zero solve` builds it).
    Missing(PathBuf),
    /// Built whole at this path.
    Built(PathBuf),
}

/// Whether a table solves `game`'s rules, and if so whether it is built at its default path.
pub fn cached_table(game: &HuntGame) -> CachedTable {
    if let Err(why) = Tablebase::check_supported(game) {
        return CachedTable::Unsolvable(why);
    }
    let path = default_table_path(game);
    match table_present(game, &path) {
        true => CachedTable::Built(path),
        false => CachedTable::Missing(path),
    }
}

/// Whether `other`'s positions have the values of `game`'s: both solvable, with the same rules key.
pub fn shares_table(game: &HuntGame, other: &HuntGame) -> bool {
    Tablebase::check_supported(other).is_ok() && rules_key(game) == rules_key(other)
}

impl Tablebase {
    /// Whether this table holds the values of `game` (built for the same rules, whoever moves first).
    pub fn fits(&self, game: &HuntGame) -> bool {
        shares_table(&self.game, game)
    }

    /// Writes a Chinese-board table to one file (a Japanese-board table is written level by level as
    /// it is built).
    pub fn save(&self, path: &Path) -> Result<(), TableFileError> {
        let write_error = |source| TableFileError::Write { path: path.to_path_buf(), source };
        let Store::Chinese(levels) = &self.store else {
            panic!("a Japanese-board table is written while it is built");
        };
        let levels: Vec<&Level> = levels.0.iter().flatten().collect();
        let header = Header {
            format: FORMAT,
            rules: rules_key(&self.game),
            levels: levels.iter().map(|l| l.rebels).collect(),
            points: self.game.board().len(),
            checksums: levels.iter().map(|l| format!("{:016x}", level_checksum(l))).collect(),
        };
        let written = crate::files::write_atomic_with(path, |out| write_table(out, &header, &levels));
        written.map_err(write_error)
    }

    /// Reads the table of `game`'s rules (which must be ones the tables solve): a file, or for the
    /// Japanese board a folder holding every level.
    pub fn load(game: &HuntGame, path: &Path) -> Result<Tablebase, TableFileError> {
        if is_japanese(game) {
            Tablebase::check_supported(game)?;
            let table = juroku::JurokuTable::open(game, path, game.rules.rebel_count, true)?;
            return Ok(Tablebase { game: game.clone(), store: Store::Japanese(table) });
        }
        read(game, path, true)
    }
}

/// Reads a table; `whole` refuses one that lacks levels of the rules (only tests write such tables).
pub(super) fn read(game: &HuntGame, path: &Path, whole: bool) -> Result<Tablebase, TableFileError> {
    Tablebase::check_supported(game)?;
    let read_error = |source| TableFileError::Read { path: path.to_path_buf(), source };
    let malformed = |problem: String| TableFileError::Malformed { path: path.to_path_buf(), problem };
    let mut input = BufReader::new(File::open(path).map_err(read_error)?);
    if read_line(&mut input).map_err(read_error)? != MAGIC {
        return Err(malformed("its first line is not the tablebase heading".into()));
    }
    let header_line = read_line(&mut input).map_err(read_error)?;
    // The format first: an older file's header lacks fields this one requires.
    #[derive(Deserialize)]
    struct Format {
        format: u32,
    }
    let bad_header = |e: serde_json::Error| malformed(format!("bad header: {e}"));
    let format = serde_json::from_str::<Format>(&header_line).map_err(bad_header)?.format;
    if format != FORMAT {
        return Err(malformed(format!("it is of format {format}")));
    }
    let header: Header = serde_json::from_str(&header_line).map_err(bad_header)?;
    let wanted = rules_key(game);
    if header.rules != wanted {
        return Err(TableFileError::OtherRules { path: path.to_path_buf(), found: header.rules, wanted });
    }
    let expected = Tablebase::levels_of(game);
    let complete = header.levels == expected;
    let subset =
        header.levels.windows(2).all(|w| w[0] < w[1]) && header.levels.iter().all(|n| expected.contains(n));
    if header.points != game.board().len() || !subset || header.checksums.len() != header.levels.len() {
        return Err(malformed("its levels, points or checksums do not match the rules".into()));
    }
    if whole && !complete {
        return Err(malformed(format!("it holds the levels {:?} of {:?}", header.levels, expected)));
    }
    let mut levels = Levels::default();
    for (&rebels, sum) in header.levels.iter().zip(&header.checksums) {
        let len = index::sets_of(rebels) * header.points;
        let mut read_array = || {
            let mut bytes = vec![0; len];
            input.read_exact(&mut bytes).map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => {
                    malformed(format!("it ends inside the level of {rebels} Rebels"))
                }
                _ => read_error(e),
            })?;
            Ok::<_, TableFileError>(bytes)
        };
        let level = Level { rebels, general_to_move: read_array()?, rebels_to_move: read_array()? };
        if format!("{:016x}", level_checksum(&level)) != *sum {
            return Err(malformed(format!(
                "the level of {rebels} Rebels does not match its checksum: the file is damaged"
            )));
        }
        levels.insert(level);
    }
    if input.read(&mut [0u8]).map_err(read_error)? != 0 {
        return Err(malformed("it has bytes after its last level".into()));
    }
    Ok(Tablebase { game: game.clone(), store: Store::Chinese(levels) })
}

/// Checks, before minutes of solving, that a table can be written at `path`'s folder.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    tempfile::NamedTempFile::new_in(dir).map(drop)
}

/// A fast 64-bit checksum of a level (four independent multiply-rotate lanes over 8-byte words): it
/// catches a damaged or truncated-and-padded file, which only `--verify` would otherwise notice.
fn level_checksum(level: &Level) -> u64 {
    checksum(&[&level.general_to_move, &level.rebels_to_move])
}

/// [`level_checksum`] of any arrays of bytes, one after the other.
pub(super) fn checksum(arrays: &[&[u8]]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut lanes = [1u64, 2, 3, 4];
    for bytes in arrays {
        let mut words = bytes.chunks_exact(32);
        for block in &mut words {
            for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
                let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                *lane = (lane.rotate_left(23) ^ w).wrapping_mul(K);
            }
        }
        for &b in words.remainder() {
            lanes[0] = (lanes[0].rotate_left(23) ^ u64::from(b)).wrapping_mul(K);
        }
        lanes[1] ^= bytes.len() as u64;
    }
    lanes.iter().fold(0, |h, &l| (h.rotate_left(17) ^ l).wrapping_mul(K))
}

fn write_table(out: &mut dyn Write, header: &Header, levels: &[&Level]) -> std::io::Result<()> {
    writeln!(out, "{MAGIC}")?;
    serde_json::to_writer(&mut *out, header)?;
    writeln!(out)?;
    for level in levels {
        out.write_all(&level.general_to_move)?;
        out.write_all(&level.rebels_to_move)?;
    }
    Ok(())
}

/// One line without its newline (header lines are short; a binary file gives up after 4 KiB).
pub(super) fn read_line(input: &mut impl Read) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while line.len() < 4096 && input.read(&mut byte)? == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::testing::hunt;

    #[test]
    fn a_ruleset_no_table_solves_has_none_and_a_solvable_one_its_default_path() {
        match cached_table(&hunt("murray-rebels")) {
            CachedTable::Unsolvable(why) => assert!(why.reason.contains("custodial"), "{why}"),
            other => panic!("murray-rebels has no table: {other:?}"),
        }
        let game = hunt("sixteen-rebels");
        match cached_table(&game) {
            CachedTable::Built(path) | CachedTable::Missing(path) => {
                assert_eq!(path, default_table_path(&game))
            }
            CachedTable::Unsolvable(why) => panic!("sixteen-rebels is solvable: {why}"),
        }
    }
}
