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
    #[error("{path} is not a whole rebel-zero table file: {problem}")]
    Malformed { path: PathBuf, problem: String },
    #[error("{path} holds the tablebase of `{found}`, not of `{wanted}`")]
    OtherRules { path: PathBuf, found: String, wanted: String },
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    #[error(
        "another rebel-zero is building the table in {path}; wait for it, or name another folder with --table"
    )]
    Busy { path: PathBuf },
    #[error("no tablebase at {path}; build it with `rebel-zero solve {spec}` ({cost})")]
    Absent { path: PathBuf, spec: String, cost: String },
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
    let mut sum = Checksum::default();
    for bytes in arrays {
        let rest = sum.blocks(bytes);
        sum.end_array(rest, bytes.len() as u64);
    }
    sum.finish()
}

/// [`checksum`] taken in pieces, so that a level of gigabytes is checked without holding it.
pub(super) struct Checksum {
    lanes: [u64; 4],
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum { lanes: [1, 2, 3, 4] }
    }
}

impl Checksum {
    /// Adds one array of `len` bytes, read from `input` a few megabytes at a time.
    pub(super) fn add_read(&mut self, input: &mut impl Read, len: u64) -> std::io::Result<()> {
        // A multiple of the 32-byte block, so that only the array's last piece leaves a remainder.
        const PIECE: u64 = 8 << 20;
        let mut buffer = vec![0u8; PIECE.min(len) as usize];
        let mut left = len;
        while left > 0 {
            let piece = &mut buffer[..PIECE.min(left) as usize];
            input.read_exact(piece)?;
            left -= piece.len() as u64;
            let rest = self.blocks(piece);
            if left == 0 {
                self.end_array(rest, len);
            }
        }
        if len == 0 {
            self.end_array(&[], 0);
        }
        Ok(())
    }

    /// Folds in the whole 32-byte blocks of `bytes`; returns the bytes after the last one.
    fn blocks<'a>(&mut self, bytes: &'a [u8]) -> &'a [u8] {
        let mut words = bytes.chunks_exact(32);
        for block in &mut words {
            for (lane, word) in self.lanes.iter_mut().zip(block.chunks_exact(8)) {
                let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                *lane = (lane.rotate_left(23) ^ w).wrapping_mul(K);
            }
        }
        words.remainder()
    }

    /// Ends an array of `len` bytes whose last bytes, after its whole blocks, are `rest`.
    fn end_array(&mut self, rest: &[u8], len: u64) {
        for &b in rest {
            self.lanes[0] = (self.lanes[0].rotate_left(23) ^ u64::from(b)).wrapping_mul(K);
        }
        self.lanes[1] ^= len;
    }

    pub(super) fn finish(&self) -> u64 {
        self.lanes.iter().fold(0, |h, &l| (h.rotate_left(17) ^ l).wrapping_mul(K))
    }
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

    #[test]
    fn a_checksum_read_in_pieces_is_the_checksum_of_the_arrays() {
        // Lengths around the 32-byte block and the 8 MiB piece, and an empty array.
        let lengths = [0usize, 1, 31, 32, 33, 1000, (8 << 20) - 1, 8 << 20, (8 << 20) + 45];
        let arrays: Vec<Vec<u8>> = lengths
            .iter()
            .enumerate()
            .map(|(k, &n)| (0..n).map(|i| (i * 31 + k * 7) as u8).collect())
            .collect();
        for pair in arrays.windows(2) {
            let mut sum = Checksum::default();
            for bytes in pair {
                sum.add_read(&mut &bytes[..], bytes.len() as u64).unwrap();
            }
            assert_eq!(
                sum.finish(),
                checksum(&[&pair[0], &pair[1]]),
                "{} + {}",
                pair[0].len(),
                pair[1].len()
            );
        }
        // A flipped byte anywhere changes it.
        let mut damaged = arrays[8].clone();
        damaged[5 << 20] ^= 1;
        assert_ne!(checksum(&[&damaged]), checksum(&[&arrays[8]]));
    }
}
