//! Training metrics: TensorBoard event files (tensorboard-rs) and the same numbers as JSON lines in
//! `metrics.jsonl`, which any tool can read.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

use tensorboard_rs::summary_writer::SummaryWriter;

pub struct Metrics {
    board: SummaryWriter,
    lines: File,
}

impl Metrics {
    /// Appends to the logs in `dir` (a resumed run continues its curves).
    pub fn open(dir: &Path) -> anyhow::Result<Metrics> {
        fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        let path = dir.join("metrics.jsonl");
        let lines = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?;
        Ok(Metrics { board: SummaryWriter::new(dir), lines })
    }

    /// Records `values` at `generation`: one TensorBoard scalar per value, one JSON line for all. A
    /// generation has one line for its training and self-play, and an evaluated one a second line
    /// with its `eval/` scores.
    pub fn record(&mut self, generation: u64, values: &[(&str, f64)]) {
        let mut line = serde_json::Map::new();
        line.insert("generation".to_string(), generation.into());
        for &(tag, value) in values {
            self.board.add_scalar(tag, value as f32, generation as usize);
            line.insert(tag.to_string(), serde_json::Value::from(value));
        }
        self.board.flush();
        // Metrics are a by-product: a full disk must not stop training that checkpoints elsewhere.
        let _ = writeln!(self.lines, "{}", serde_json::Value::Object(line));
        let _ = self.lines.flush();
    }
}

/// CPU seconds this process has used (user + system), from /proc on Linux; `None` elsewhere.
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
