//! Tables on disk: a text line naming the format, a JSON header line (the rules the table was built
//! for, its levels, points per set), then each level's bytes, General to move first. Written to a
//! temporary file and renamed, so a stopped write never leaves a table that looks whole.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Level, Levels, Tablebase, index};
use crate::game::hunt::HuntGame;

const MAGIC: &str = "rebel-zero tablebase";
const FORMAT: u32 = 1;

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
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: u32,
    rules: String,
    levels: Vec<u32>,
    points: usize,
}

/// The options a table's values depend on among the rulesets it solves (not who moves first, not the
/// cap); only meaningful for a game that passes [`Tablebase::check_supported`].
pub fn rules_key(game: &HuntGame) -> String {
    let r = &game.rules;
    format!(
        "sixteen-rebels:capture={},general_wins_at={},apex={}",
        if r.mandatory { "mandatory" } else { "optional" },
        r.general_wins_at.unwrap_or(0),
        if r.apex_wins { "on" } else { "off" }
    )
}

/// Where `rebel-zero solve` keeps the table of `game`'s rules:
/// `tablebases/sixteen-rebels-capture-optional-general_wins_at-4-apex-on.rztb`.
pub fn default_table_path(game: &HuntGame) -> PathBuf {
    let name: String = rules_key(game)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
        .collect();
    Path::new("tablebases").join(format!("{name}.rztb"))
}

impl Tablebase {
    /// Whether this table holds the values of `game` (built for the same rules, whoever moves first).
    pub fn fits(&self, game: &HuntGame) -> bool {
        Tablebase::check_supported(game).is_ok() && rules_key(&self.game) == rules_key(game)
    }

    pub fn save(&self, path: &Path) -> Result<(), TableFileError> {
        let write_error = |source| TableFileError::Write { path: path.to_path_buf(), source };
        let header = Header {
            format: FORMAT,
            rules: rules_key(&self.game),
            levels: self.levels.0.iter().flatten().map(|l| l.rebels).collect(),
            points: self.game.board().len(),
        };
        let temporary = path.with_extension("partial");
        let written =
            write_table(&temporary, &header, &self.levels).and_then(|()| std::fs::rename(&temporary, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary); // a half-written file is of no use
        }
        written.map_err(write_error)
    }

    /// Reads a table built for `game`'s rules (which must be ones the tables solve).
    pub fn load(game: &HuntGame, path: &Path) -> Result<Tablebase, TableFileError> {
        if let Err(unsupported) = Tablebase::check_supported(game) {
            let (found, wanted) = ("a solvable ruleset".to_string(), unsupported.spec);
            return Err(TableFileError::OtherRules { path: path.to_path_buf(), found, wanted });
        }
        let read_error = |source| TableFileError::Read { path: path.to_path_buf(), source };
        let malformed = |problem: String| TableFileError::Malformed { path: path.to_path_buf(), problem };
        let mut input = BufReader::new(File::open(path).map_err(read_error)?);
        let magic = read_line(&mut input).map_err(read_error)?;
        if magic != MAGIC {
            return Err(malformed("its first line is not the tablebase heading".into()));
        }
        let header: Header = serde_json::from_str(&read_line(&mut input).map_err(read_error)?)
            .map_err(|e| malformed(format!("bad header: {e}")))?;
        if header.format != FORMAT {
            return Err(malformed(format!("it is of format {}", header.format)));
        }
        let wanted = rules_key(game);
        if header.rules != wanted {
            return Err(TableFileError::OtherRules { path: path.to_path_buf(), found: header.rules, wanted });
        }
        let points = game.board().len();
        let levels_of_rules = Tablebase::levels_of(game);
        if header.points != points || header.levels.iter().any(|n| !levels_of_rules.contains(n)) {
            return Err(malformed("its levels or points do not match the rules".into()));
        }
        let mut levels = Levels::default();
        for &rebels in &header.levels {
            let len = index::sets_of(rebels) * points;
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
            let general_to_move = read_array()?;
            let rebels_to_move = read_array()?;
            levels.insert(Level { rebels, general_to_move, rebels_to_move });
        }
        if input.read(&mut [0u8]).map_err(read_error)? != 0 {
            return Err(malformed("it has bytes after its last level".into()));
        }
        Ok(Tablebase { game: game.clone(), levels })
    }
}

fn write_table(path: &Path, header: &Header, levels: &Levels) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    writeln!(out, "{MAGIC}")?;
    serde_json::to_writer(&mut out, header)?;
    writeln!(out)?;
    for level in levels.0.iter().flatten() {
        out.write_all(&level.general_to_move)?;
        out.write_all(&level.rebels_to_move)?;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// One line without its newline (header lines are short; a binary file gives up after 4 KiB).
fn read_line(input: &mut impl Read) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while line.len() < 4096 && input.read(&mut byte)? == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}
