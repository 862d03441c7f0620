//! The progress of a table being built: a bar per level of the Japanese board's folder of levels
//! ([`LevelBars`]), and the bar of a table built in memory ([`TableBar`]), each printing a line per
//! level beside the bar.

use indicatif::{ProgressBar, ProgressStyle};

use crate::tablebase::juroku::{BuildObserver, LevelHeader, LevelProgress};

/// A progress bar for each level being built, and a line for each level kept or built. The kept
/// levels are told only once a build resumes after them: a whole table is just read.
pub(super) struct LevelBars {
    bar: ProgressBar,
    pub(super) built: usize,
    kept: Vec<LevelHeader>,
}

impl LevelBars {
    pub(super) fn new() -> LevelBars {
        LevelBars { bar: ProgressBar::hidden(), built: 0, kept: Vec::new() }
    }

    fn line(&self, verb: &str, h: &LevelHeader) {
        let [g, r] = h.tallies;
        self.bar.suspend(|| {
            eprintln!(
                "{:2} Rebels {verb}: {:>14} positions; General to move {} won, {} lost, {} drawn; Rebels to move {} won, {} lost, {} drawn; longest {} plies ({:.0} s, {} MB peak)",
                h.rebels,
                g.positions() + r.positions(),
                g.wins,
                g.losses,
                g.draws,
                r.wins,
                r.losses,
                r.draws,
                g.longest.max(r.longest),
                h.seconds,
                h.peak_memory_mb
            )
        });
    }
}

impl LevelProgress for LevelBars {
    fn phase(&self, name: &'static str, total: u64) {
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.reset_eta();
        self.bar.set_message(name);
    }
    fn advance(&self, done: u64) {
        self.bar.inc(done);
    }
    fn wave(&self, wave: u32) {
        self.bar.set_message(format!("telling, wave {wave}"));
    }
}

impl BuildObserver for LevelBars {
    fn kept(&mut self, level: &LevelHeader) {
        if self.built > 0 {
            self.line("kept", level);
        } else {
            self.kept.push(level.clone());
        }
    }
    fn begin(&mut self, rebels: u32, slots: u64) {
        for level in std::mem::take(&mut self.kept) {
            self.line("kept", &level);
        }
        self.bar = ProgressBar::new(slots).with_style(
            ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {percent}% ETA {eta} {msg}",
            )
            .expect("a valid template"),
        );
        self.bar.set_prefix(format!("{rebels:2} Rebels, {slots} slots a side:"));
    }
    fn progress(&self) -> &dyn LevelProgress {
        self
    }
    fn done(&mut self, level: &LevelHeader) {
        self.bar.finish_and_clear();
        self.built += 1;
        self.line("built", level);
    }
}

/// The bar of a table being built in memory: which level of the table, and within it the seeding pass,
/// then the waves of positions told.
pub(super) struct TableBar(pub(super) ProgressBar);

impl TableBar {
    pub(super) fn new(bar: ProgressBar) -> TableBar {
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{elapsed_precise}] {wide_bar} {percent}% {msg}")
                .expect("a valid template"),
        );
        TableBar(bar)
    }

    /// The bar now shows level `done + 1` of `levels` (their Rebel counts).
    pub(super) fn level(&self, levels: &[u32], done: usize) {
        if let Some(rebels) = levels.get(done) {
            self.0.set_prefix(format!("level {}/{}: {rebels} Rebels", done + 1, levels.len()));
        }
    }
}

impl LevelProgress for TableBar {
    fn phase(&self, name: &'static str, total: u64) {
        self.0.set_length(total);
        self.0.set_position(0);
        self.0.set_message(name);
    }
    fn advance(&self, done: u64) {
        self.0.inc(done);
    }
    fn wave(&self, wave: u32) {
        self.0.set_message(format!("telling, wave {wave}"));
    }
}
