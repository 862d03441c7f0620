//! What every command shares: usage errors (exit code 2), `--threads`, `--json` output, and reading a
//! ruleset, position or moves typed on the command line.

use std::ops::RangeInclusive;

use crate::game::{AnyGame, Game};

/// A mistake in what was typed on the command line: exit code 2. Built by [`usage`] or `usage_bail!`.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A check that found nothing wrong but could not verify everything, for want of evidence this
/// machine lacks (`balance --check` without a table): exit code 3, apart from a failure's 1.
#[derive(Debug)]
pub struct Unverified(pub String);

impl std::fmt::Display for Unverified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unverified {}

/// `error` (its whole chain as one message) marked as a usage error.
pub fn usage(error: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(Usage(format!("{:#}", error.into())))
}

/// `bail!` for usage errors.
macro_rules! usage_bail {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::cli::common::Usage(format!($($arg)*))))
    };
}
pub(crate) use usage_bail;

/// The worker threads of a `--threads` option (default: every core). A number given also holds the
/// process to that many cores: a lone worker's network kernels would otherwise spread over rayon's
/// global pool, so `--threads 1` would still use every core.
/// Workers beyond this many per core only slow a run down: each plays its own games on a shared core.
const THREADS_PER_CORE: usize = 16;

pub(super) fn worker_threads(given: Option<usize>) -> anyhow::Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(threads) = given else { return Ok(cores) };
    let most = cores * THREADS_PER_CORE;
    if !(1..=most).contains(&threads) {
        usage_bail!(
            "--threads must be 1..{most} ({THREADS_PER_CORE} per core of this machine's {cores}; more only slow the run), not {threads}"
        );
    }
    // Fails only if the global pool was already built, which no command does before this.
    let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global();
    Ok(threads)
}

/// The longest one measurement of a benchmark command may take.
const MAX_MEASURE_SECONDS: f64 = 3600.0;

/// A benchmark's `--seconds`: more than 0 and at most an hour per measurement (a huge value would
/// overflow the clock, and run for ever).
pub(super) fn measure_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds > 0.0 && seconds <= MAX_MEASURE_SECONDS {
        Ok(seconds)
    } else {
        Err(format!(
            "must be more than 0 and at most {MAX_MEASURE_SECONDS} (seconds per measurement), not {text}"
        ))
    }
}

/// The largest batch a network benchmark measures: room for its inputs and activations many times over
/// on this kind of machine.
const MAX_BENCH_BATCH: usize = 16_384;

/// A network benchmark's batch size: 1..[`MAX_BENCH_BATCH`].
pub(super) fn bench_batch(text: &str) -> Result<usize, String> {
    integer_in(text, 1..=MAX_BENCH_BATCH, "a batch of inputs")
}

/// An integer option in `range`; a refusal names the range and `why` it is bounded.
pub(super) fn integer_in(text: &str, range: RangeInclusive<usize>, why: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| format!("must be an integer {}..{} ({why}), not {text}", range.start(), range.end()))
}

/// Prints `value` as one line of JSON (the `--json` output of a command).
pub(super) fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

/// The ruleset a spec typed on the command line names.
pub(super) fn load_game(spec: &str) -> anyhow::Result<AnyGame> {
    AnyGame::from_spec(spec).map_err(usage)
}

/// The given position (typed on the command line), or the start.
pub(super) fn load_position<G: Game>(game: &G, position: Option<&str>) -> anyhow::Result<G::State> {
    match position {
        Some(text) => game.parse_position(text).map_err(usage),
        None => Ok(game.start()),
    }
}

/// `--moves` played on `line`: an illegal or unreadable move is a usage error naming its place.
pub(super) fn play_typed_moves<G: Game>(
    line: &mut crate::game::Playthrough<G>,
    moves: &[String],
) -> anyhow::Result<()> {
    for (i, text) in moves.iter().enumerate() {
        line.play_text(text).map_err(|e| usage(anyhow::anyhow!("move {} of --moves: {e}", i + 1)))?;
    }
    Ok(())
}
