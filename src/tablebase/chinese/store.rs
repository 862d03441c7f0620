//! The Chinese board's table on disk: a text line naming the format, a JSON header line (the rules the
//! table was built for, its levels, points per set, a checksum per level), then each level's bytes,
//! General to move first. Written to a temporary file and renamed, so a stopped write never leaves a
//! table that looks whole; read back only when every level of the rules is there and every checksum
//! matches.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Level, Levels};
use crate::game::hunt::HuntGame;
use crate::tablebase::format::{FORMAT, TableFileError, checksum, read_line};
use crate::tablebase::index;
use crate::tablebase::rules::{check_supported, levels_of, rebel_points, rules_key};

const MAGIC: &str = "rebel-zero tablebase";

#[derive(Serialize, Deserialize)]
struct Header {
    format: u32,
    rules: String,
    levels: Vec<u32>,
    points: usize,
    /// [`checksum`] of each level's bytes (both sides to move), in hexadecimal.
    checksums: Vec<String>,
}

/// Writes `levels` of `game`'s table to one file, atomically.
pub(in crate::tablebase) fn write_levels(
    game: &HuntGame,
    levels: &Levels,
    path: &Path,
) -> Result<(), TableFileError> {
    let write_error = |source| TableFileError::Write { path: path.to_path_buf(), source };
    let levels: Vec<&Level> = levels.iter().collect();
    let header = Header {
        format: FORMAT,
        rules: rules_key(game),
        levels: levels.iter().map(|l| l.rebels).collect(),
        points: game.board().len(),
        checksums: levels.iter().map(|l| format!("{:016x}", level_checksum(l))).collect(),
    };
    let written = crate::files::write_atomic_with(path, |out| write_table(out, &header, &levels));
    written.map_err(write_error)
}

/// Reads a table; `whole` refuses one that lacks levels of the rules (only tests write such tables).
pub(in crate::tablebase) fn read_levels(
    game: &HuntGame,
    path: &Path,
    whole: bool,
) -> Result<Levels, TableFileError> {
    check_supported(game)?;
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
        return Err(malformed(format!("it is of format {format}, this build reads format {FORMAT}")));
    }
    let header: Header = serde_json::from_str(&header_line).map_err(bad_header)?;
    let wanted = rules_key(game);
    if header.rules != wanted {
        return Err(TableFileError::OtherRules { path: path.to_path_buf(), found: header.rules, wanted });
    }
    let expected = levels_of(game);
    if header.points != game.board().len()
        || !levels_of_the_rules(game, &header.levels)
        || header.checksums.len() != header.levels.len()
    {
        return Err(malformed("its levels, points or checksums do not match the rules".into()));
    }
    if whole && !covers(&header.levels, &expected) {
        return Err(malformed(format!("it holds the levels {:?} of {:?}", header.levels, expected)));
    }
    let rebel_points = rebel_points(game);
    let mut levels = Levels::default();
    for (&rebels, sum) in header.levels.iter().zip(&header.checksums) {
        let len = index::sets_on(rebel_points, rebels) * header.points;
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
        let (general_to_move, rebels_to_move) = (read_array()?, read_array()?);
        let level = Level { rebels, rebel_points, general_to_move, rebels_to_move };
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
    Ok(levels)
}

/// Whether a table of `stored` levels holds every level of `wanted`: a table built for a start with
/// more Rebels holds the levels of one with fewer.
fn covers(stored: &[u32], wanted: &[u32]) -> bool {
    wanted.iter().all(|n| stored.contains(n))
}

/// Whether `levels` (in a header that names `game`'s rules) are levels of those rules: increasing,
/// each a count of the rules' parity above the threshold that the Rebels' points can hold.
fn levels_of_the_rules(game: &HuntGame, levels: &[u32]) -> bool {
    let (parity, wins_at) = (game.rules.rebel_count % 2, game.rules.general_wins_at.unwrap_or(0));
    levels.windows(2).all(|w| w[0] < w[1])
        && levels.iter().all(|&n| n % 2 == parity && n > wins_at && n <= rebel_points(game))
}

/// The levels the file at `path` holds, by its header alone, if it is a table of `game`'s rules in
/// this build's format (its levels are checked as they are read).
pub(in crate::tablebase) fn stored_levels(game: &HuntGame, path: &Path) -> Option<Vec<u32>> {
    let mut input = BufReader::new(File::open(path).ok()?);
    (read_line(&mut input).ok()? == MAGIC).then_some(())?;
    let header: Header = serde_json::from_str(&read_line(&mut input).ok()?).ok()?;
    (header.format == FORMAT && header.rules == rules_key(game)).then_some(header.levels)
}

/// Whether the file at `path` is a table of `game`'s rules holding every level a game of them from the
/// start reaches, by its header alone.
pub(in crate::tablebase) fn holds_every_level(game: &HuntGame, path: &Path) -> bool {
    stored_levels(game, path).is_some_and(|levels| covers(&levels, &levels_of(game)))
}

/// The checksum of a level's two arrays.
fn level_checksum(level: &Level) -> u64 {
    checksum(&[&level.general_to_move, &level.rebels_to_move])
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
