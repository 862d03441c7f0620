//! Files as every layer reads and writes them: atomic writes that survive a crash, text that may be
//! gzipped, and the folders where the program keeps its caches and the games people play.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

/// The first two bytes of every gzip stream (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// An error that names the file it happened to.
fn at(path: &Path, doing: &str, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{doing} {}: {error}", path.display()))
}

/// Writes `bytes` to `path` so that a reader, or the file after a crash, sees either the old content
/// or the new, never a mix. See [`write_atomic_with`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Writes `path` through `write` atomically: into a temporary file in the same folder (buffered),
/// flushed to disk, then renamed over `path`; on any error the temporary file is removed and `path`
/// is untouched. Missing parent folders are created.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| at(dir, "creating", e))?;
    let file = tempfile::NamedTempFile::new_in(dir).map_err(|e| at(dir, "creating a file in", e))?;
    let mut out = io::BufWriter::new(file);
    write(&mut out).map_err(|e| at(path, "writing", e))?;
    let file = out.into_inner().map_err(|e| at(path, "writing", e.into_error()))?;
    file.as_file().sync_all().map_err(|e| at(path, "flushing", e))?;
    file.persist(path).map_err(|e| at(path, "renaming a temporary file to", e.error))?;
    // The rename itself is durable only once the folder is flushed too (best effort: not every
    // platform can open a folder).
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// The bytes of `path`, decompressed when they are gzip (told by the magic bytes, not the name).
/// Every member of a gzip file is read (`cat a.gz b.gz` is one valid file); bytes after the last
/// member that are not another are an error, not silently dropped.
pub fn read_maybe_gzip(path: &Path) -> io::Result<Vec<u8>> {
    let raw = std::fs::read(path).map_err(|e| at(path, "reading", e))?;
    if !raw.starts_with(&GZIP_MAGIC) {
        return Ok(raw);
    }
    let mut plain = Vec::new();
    MultiGzDecoder::new(&raw[..]).read_to_end(&mut plain).map_err(|e| at(path, "decompressing", e))?;
    Ok(plain)
}

/// The text of `path`, plain or gzipped; invalid UTF-8 is an error naming the file.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_maybe_gzip(path)?).map_err(|_| {
        io::Error::new(io::ErrorKind::InvalidData, format!("{} is not UTF-8 text", path.display()))
    })
}

/// The SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The environment variable that overrides the cache folder.
pub const CACHE_ENV: &str = "REBEL_ZERO_CACHE";
/// The environment variable that overrides the data folder (played games).
pub const DATA_ENV: &str = "REBEL_ZERO_DATA";

/// The cache folder `--cache-dir` names, set once at start.
static CACHE_OVERRIDE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Makes [`cache_dir`] return `dir` for the rest of the process (the command line's `--cache-dir`).
pub fn set_cache_dir(dir: PathBuf) {
    let _ = CACHE_OVERRIDE.set(dir);
}

/// Where caches (tablebases) go: `--cache-dir` if given, else `$REBEL_ZERO_CACHE`, else the platform's
/// cache folder (`$XDG_CACHE_HOME/rebel-zero` or `~/.cache/rebel-zero` on Linux), else `./.rebel-zero`.
pub fn cache_dir() -> PathBuf {
    chosen_dir(CACHE_OVERRIDE.get().map(PathBuf::as_path), CACHE_ENV, |dirs| dirs.cache_dir().to_path_buf())
}

/// Where the games a person plays are kept: `$REBEL_ZERO_DATA`, else the platform's data folder
/// (`~/.local/share/rebel-zero` on Linux).
pub fn data_dir() -> PathBuf {
    chosen_dir(None, DATA_ENV, |dirs| dirs.data_dir().to_path_buf())
}

fn chosen_dir(
    override_dir: Option<&Path>,
    variable: &str,
    platform: impl Fn(&directories::ProjectDirs) -> PathBuf,
) -> PathBuf {
    if let Some(dir) = override_dir {
        return dir.to_path_buf();
    }
    if let Some(dir) = std::env::var_os(variable).filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("", "", "rebel-zero")
        .map(|dirs| platform(&dirs))
        .unwrap_or_else(|| PathBuf::from(".rebel-zero"))
}

/// `relative` (a path under the repository, such as `checkpoints/sixteen-rebels`) as found from the
/// current folder, else beside the running binary or one of its parent folders (a binary in
/// `target/release/` finds the repository's `checkpoints/`), else in the source tree the binary was
/// built from. The path as given when none exists, so the caller's error names it.
pub fn find_shipped(relative: &Path) -> PathBuf {
    if relative.is_absolute() || relative.exists() {
        return relative.to_path_buf();
    }
    let beside_binary = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.ancestors().skip(1).map(|dir| dir.join(relative)).find(|p| p.exists()));
    let in_source = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    beside_binary
        .or_else(|| in_source.exists().then_some(in_source))
        .unwrap_or_else(|| relative.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_the_file_and_leave_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "only the file itself remains");
    }

    #[test]
    fn gzipped_and_plain_text_read_the_same_whatever_the_name() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("games.jsonl.gz"); // a misleading name: the bytes decide
        std::fs::write(&plain, "a\nb\n").unwrap();
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(b"a\nb\n").unwrap();
        let zipped = dir.path().join("games.jsonl");
        std::fs::write(&zipped, encoder.finish().unwrap()).unwrap();
        assert_eq!(read_text(&plain).unwrap(), "a\nb\n");
        assert_eq!(read_text(&zipped).unwrap(), "a\nb\n");
        std::fs::write(&plain, [0xff, 0xfe]).unwrap();
        assert!(read_text(&plain).unwrap_err().to_string().contains("not UTF-8"));
        // Two members read as one text; garbage after the last member is an error naming the file
        // (it was dropped silently).
        let member = std::fs::read(&zipped).unwrap();
        std::fs::write(&zipped, [member.clone(), member.clone()].concat()).unwrap();
        assert_eq!(read_text(&zipped).unwrap(), "a\nb\na\nb\n");
        std::fs::write(&zipped, [member, b"trailing garbage".to_vec()].concat()).unwrap();
        let error = read_text(&zipped).unwrap_err().to_string();
        assert!(error.contains("decompressing") && error.contains("games.jsonl"), "{error}");
    }

    #[test]
    fn an_explicit_folder_wins_over_the_environment() {
        assert_eq!(chosen_dir(Some(Path::new("/x/y")), CACHE_ENV, |_| PathBuf::new()), PathBuf::from("/x/y"));
    }
}
