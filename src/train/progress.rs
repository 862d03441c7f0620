//! Progress bars for training: self-play, training steps and evaluation draw one each, stacked, as
//! they run at once.

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// A progress bar drawn below the others that are live (self-play and training run at once).
pub(super) fn progress(show: bool, length: u64, what: &'static str) -> ProgressBar {
    static BARS: std::sync::LazyLock<MultiProgress> = std::sync::LazyLock::new(MultiProgress::new);
    if !show {
        return ProgressBar::hidden();
    }
    let bar = BARS.add(ProgressBar::new(length));
    bar.set_style(
        ProgressStyle::with_template("{prefix:>9} [{bar:30}] {pos}/{len} {per_sec} eta {eta}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(what);
    bar
}
