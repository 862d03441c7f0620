//! What both boards' table files share: the errors of reading and writing them, the header line, and
//! the checksum each level's bytes are stored with.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::rules::Unsupported;

/// The format of the Chinese board's table file ([`super::chinese`]); the Japanese board's level files
/// have their own.
pub(super) const FORMAT: u32 = 2;

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
    Unsupported(#[from] Unsupported),
    #[error(
        "another rebel-zero is building the table in {path}; wait for it, or name another folder with --table"
    )]
    Busy { path: PathBuf },
    #[error("no tablebase at {path}; build it with `rebel-zero solve {spec}`")]
    Absent { path: PathBuf, spec: String },
}

impl TableFileError {
    /// A file that is not a whole table of its format, which building again replaces.
    pub fn is_damaged(&self) -> bool {
        matches!(self, TableFileError::Malformed { .. })
    }
}

/// Checks, before minutes of solving, that a table can be written at `path`'s folder.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    tempfile::NamedTempFile::new_in(dir).map(drop)
}

/// A fast 64-bit checksum of arrays of bytes, one after the other (four independent multiply-rotate
/// lanes over 8-byte words): it catches a damaged or truncated-and-padded file, which only `--verify`
/// would otherwise notice.
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

/// One line without its newline (header lines are short; a binary file gives up after 4 KiB).
pub(super) fn read_line(input: &mut impl Read) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while line.len() < 4096 && input.read(&mut byte)? == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}
