//! `rebel-zero balance [STUDY.toml | --preset NAME] [--out DIR] [--threads T]`: runs (or resumes) a
//! balance study and writes report.md, results.json, games.jsonl and SVG charts into DIR (default
//! `studies/<name>/` under the current folder), printed at the end. With no study it runs the built-in
//! quick study. `--list-cells` and `--cell ID` split the run into units a scheduler can hand out: the
//! report is then written by a plain run, which finds every cell done.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use indicatif::{HumanDuration, ProgressBar, ProgressStyle};

use super::presets;
use crate::lab::report::write_all;
use crate::lab::verify::verify;
use crate::lab::{Progress, RunOptions, Study, run_study};

#[derive(Args, Debug)]
pub struct BalanceArgs {
    /// The study file; without it (and without --preset) the built-in quick study.
    #[arg(conflicts_with = "preset")]
    study: Option<PathBuf>,
    /// A study built into the binary: quick, sixteen, juroku, twenty-six, imperial, chess
    /// (`--preset list` lists them with the files they came from).
    #[arg(long, value_name = "NAME")]
    preset: Option<String>,
    /// Output directory; the games saved there (a round of each cell at a time) are kept and not
    /// played again.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads, and the cores used (default: all cores). The games do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Play only this cell (an id from --list-cells) into the output directory, as the full run
    /// would, and write no report: one unit of work for a scheduler (scripts/ray/study.py).
    #[arg(long, value_name = "ID", conflicts_with_all = ["check", "list_cells"])]
    cell: Option<String>,
    /// Print the cells not yet finished in the output directory as JSON (`[{"id": …, "games": …}]`)
    /// and play nothing.
    #[arg(long, conflicts_with = "check")]
    list_cells: bool,
    /// Check a finished study (its folder, holding results.json) against the code instead of running
    /// one: whether every cell's rules, agents and openings still behave as when it was played, the
    /// openings verified by the table that admitted them where it is built here. Exit status 0: all
    /// verified; 1: something is stale, or the check failed; 3: nothing stale, but a table it needs
    /// is not built here.
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,
    /// With --check: build the tables the check needs and does not find, then check. A Chinese
    /// table takes about 6 minutes and 2.2 GB; Juroku's open triangle 3 hours, 16.5 GB of memory and
    /// 29 GB of disk (the check without this flag lists what each would take).
    #[arg(long, requires = "check")]
    build_tables: bool,
    /// Print the findings of every study under DIR (each `DIR/*/results.json`) as Markdown tables (a
    /// short one and a full one), then the studies themselves (games, compute time, commit), and play
    /// nothing.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["check", "cell", "list_cells"])]
    findings: Option<PathBuf>,
    /// Read a finished study's claims again from its record (DIR holding results.json and
    /// games.jsonl.gz), playing nothing, after their readings changed (each change filed as an
    /// amendment in the study file), and write its report again. Where DIR holds several studies
    /// (`DIR/*/results.json`, e.g. docs/studies) they are read together: one multiplicity family
    /// across their findings table. A record the code no longer plays is refused. The cells are left
    /// in DIR/cells, so that a later run resumes the study (growing a sequential design's cells)
    /// instead of playing it again.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["check", "cell", "list_cells", "findings", "study", "preset"])]
    reread: Option<PathBuf>,
}

/// A study's progress: a bar on a terminal; elsewhere (a log file, `nohup`), a line for each step
/// and one a minute with the games played, so that a long run's log says how far it has got.
struct Bar {
    bar: ProgressBar,
    /// When the last line was written, where stderr is not a terminal.
    log: Option<Mutex<Instant>>,
}

impl Bar {
    fn new() -> Bar {
        let bar = ProgressBar::new(0).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})  {msg}")
                .expect("a valid template"),
        );
        let log = (!std::io::stderr().is_terminal()).then(|| Mutex::new(Instant::now()));
        Bar { bar, log }
    }
}

impl Progress for Bar {
    fn begin(&self, games: u64) {
        // Each round of a study that grows its cells counts its own games from 0.
        self.bar.set_length(games);
        self.bar.set_position(0);
        self.bar.reset_eta();
        if self.log.is_some() {
            eprintln!("{games} games to play");
        }
    }
    fn game_done(&self) {
        self.bar.inc(1);
        let Some(last) = &self.log else { return };
        let mut last = last.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if last.elapsed() >= Duration::from_secs(60) {
            *last = Instant::now();
            let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
            eprintln!("{done}/{total} games, {} elapsed", HumanDuration(self.bar.elapsed()));
        }
    }
    fn note(&self, text: &str) {
        self.bar.set_message(text.to_string());
        if self.log.is_some() {
            eprintln!("{text}");
        }
    }
}

pub fn run(args: &BalanceArgs) -> anyhow::Result<()> {
    if let Some(dir) = &args.check {
        return check(dir, args.build_tables);
    }
    if let Some(dir) = &args.findings {
        return findings(dir);
    }
    if let Some(dir) = &args.reread {
        return reread(dir, args.threads);
    }
    if args.preset.as_deref() == Some("list") {
        presets::print_list(presets::Kind::Study);
        return Ok(());
    }
    let (study, mut command, file) = match (&args.study, &args.preset) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading study file {}", path.display()))?;
            let study = Study::from_text(&text)
                .with_context(|| format!("study file {}", path.display()))
                .map_err(super::common::usage)?;
            (study, format!("rebel-zero balance {}", path.display()), path.clone())
        }
        (None, name) => {
            let preset = presets::find(presets::Kind::Study, name.as_deref().unwrap_or("quick"))?;
            let study = Study::from_text(preset.text)
                .with_context(|| format!("the built-in study {}", preset.path))?;
            let command = match name {
                Some(name) => format!("rebel-zero balance --preset {name}"),
                None => "rebel-zero balance".to_string(),
            };
            (study, command, PathBuf::from(preset.path))
        }
    };
    let threads = super::common::worker_threads(args.threads)?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("studies").join(&study.study.name));
    resume_from_record(&study, &out, threads, &file)?;
    if args.list_cells {
        let cells = crate::lab::missing_cells(&study, &out)?;
        let listed: Vec<serde_json::Value> =
            cells.iter().map(|c| serde_json::json!({ "id": c.id, "games": c.games })).collect();
        println!("{}", serde_json::Value::Array(listed));
        return Ok(());
    }
    if let Some(dir) = &args.out {
        command += &format!(" --out {}", dir.display());
    }
    let options = RunOptions { threads, command, file };
    let progress = Bar::new();
    if let Some(id) = &args.cell {
        let played = crate::lab::run_cell(&study, &out, id, threads, &progress).map_err(|e| {
            let refused =
                e.is::<crate::lab::UnknownCell>() || e.is::<crate::lab::adjudicate::MissingTables>();
            if refused { super::common::usage(e) } else { e }
        })?;
        progress.bar.finish_and_clear();
        let state = if played { "played" } else { "already finished" };
        println!("cell {id}: {state} in {}", crate::lab::store::cells_dir(&out).display());
        return Ok(());
    }
    // Between looks and after each cell a look grows: the report of the last whole look, with every
    // game saved since in its games file.
    let save_the_record = |finished: &crate::lab::Finished| {
        write_all(&out, finished)?;
        progress.note(&format!("saved the record: {}", out.join("report.md").display()));
        Ok(())
    };
    let finished = run_study(&study, &out, &options, &progress, &save_the_record).map_err(|e| {
        let refused =
            e.is::<crate::lab::amendments::Unamended>() || e.is::<crate::lab::adjudicate::MissingTables>();
        if refused { super::common::usage(e) } else { e }
    })?;
    progress.bar.finish_and_clear();
    write_all(&out, &finished)?;
    let r = &finished.results;
    let total = r.cells.len() + r.pairs.len();
    let loaded = total - r.played.len();
    println!(
        "study {}: {total} cells ({} played now, {loaded} loaded from {})",
        r.name,
        r.played.len(),
        out.display()
    );
    for claim in &r.claims {
        let from = claim
            .evidence
            .map_or("(no evidence that is not weak)".to_string(), |k| format!("from the {}", k.as_str()));
        println!("  {:<10} {:<17} {from}", claim.id, claim.verdict.as_str());
    }
    println!("wrote {}", out.join("report.md").display());
    Ok(())
}

/// The study folders under `dir` (those holding a results.json), sorted by name.
fn study_folders(dir: &std::path::Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| anyhow::anyhow!("reading {}: {e}", dir.display()))?;
    let mut folders: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|folder| folder.join("results.json").is_file())
        .collect();
    folders.sort();
    if folders.is_empty() {
        anyhow::bail!("{} holds no study (no */results.json)", dir.display());
    }
    Ok(folders)
}

fn folder_name(folder: &std::path::Path) -> String {
    folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

fn findings(dir: &std::path::Path) -> anyhow::Result<()> {
    let mut studies = Vec::new();
    for folder in study_folders(dir)? {
        let path = folder.join("results.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
        let results: crate::lab::StudyResults = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{} is not a study's results.json: {e}", path.display()))?;
        studies.push((folder_name(&folder), results));
    }
    let (short, full) = crate::lab::report::findings(&studies);
    let table = crate::lab::report::studies_table(&studies);
    let cost = crate::lab::report::rerun_cost(&studies);
    println!("{short}\n{full}\n{table}\n{cost}");
    Ok(())
}

/// A study folder that holds a record but no per-cell files (a clone's: they are not committed) is
/// resumed from the record: its cells are restored from games.jsonl.gz first, so that the run plays
/// only what the record lacks instead of playing it all again. A record the code no longer plays is
/// refused, not played over.
fn resume_from_record(
    study: &crate::lab::study::LoadedStudy,
    out: &std::path::Path,
    threads: usize,
    file: &std::path::Path,
) -> anyhow::Result<()> {
    let record = out.join("results.json").is_file() && out.join("games.jsonl.gz").is_file();
    if !record || crate::lab::store::cells_dir(out).exists() {
        return Ok(());
    }
    eprintln!("{}: restoring the record's cells from games.jsonl.gz, to resume it", out.display());
    let (previous, records) = crate::lab::reread::load_record(out)?;
    let options = RunOptions { threads, command: String::new(), file: file.to_path_buf() };
    let finished = crate::lab::reread::reread(study, &previous, records, &options).map_err(|e| {
        let stale = e.is::<crate::lab::reread::StaleRecord>();
        let e = e.context(format!(
            "{} holds a study's record that this run cannot resume; remove the folder, or name another with \
             --out, to play the study from the start",
            out.display()
        ));
        if stale { super::common::usage(e) } else { e }
    })?;
    let restored = crate::lab::reread::restore_cells(study, out, &finished)?;
    eprintln!("{}: {restored} cells restored", out.display());
    Ok(())
}

/// `--reread DIR`: one study's claims read again from its record, or every study's under DIR with
/// one multiplicity family across their findings table; each report written again.
fn reread(dir: &std::path::Path, threads: Option<usize>) -> anyhow::Result<()> {
    let together = !dir.join("results.json").is_file();
    let folders = if together { study_folders(dir)? } else { vec![dir.to_path_buf()] };
    let command = format!("rebel-zero balance --reread {}", dir.display());
    let threads = super::common::worker_threads(threads)?;
    let mut read = Vec::new();
    for folder in &folders {
        eprintln!("reading {} again", folder.display());
        let (previous, records) = crate::lab::reread::load_record(folder)?;
        let study = study_of(&previous)?;
        let options = RunOptions { threads, command: command.clone(), file: PathBuf::from(&previous.file) };
        let finished = crate::lab::reread::reread(&study, &previous, records, &options)
            .with_context(|| format!("reading {} again", folder.display()))?;
        read.push((folder_name(folder), finished));
    }
    if together {
        let mut studies: Vec<(String, crate::lab::StudyResults)> =
            read.iter().map(|(name, f)| (name.clone(), f.results.clone())).collect();
        crate::lab::family::one_family(&mut studies);
        for ((_, finished), (_, results)) in read.iter_mut().zip(studies) {
            finished.results = results;
        }
    }
    for (folder, (name, finished)) in folders.iter().zip(&read) {
        write_all(folder, finished)?;
        let study = study_of(&finished.results)?;
        let restored = crate::lab::reread::restore_cells(&study, folder, finished)?;
        println!(
            "study {name}: read again, playing nothing ({restored} cells restored to {} for a later run to resume)",
            crate::lab::store::cells_dir(folder).display()
        );
        for claim in &finished.results.claims {
            println!("  {:<10} {}", claim.id, claim.verdict.as_str());
        }
        println!("wrote {}", folder.join("report.md").display());
    }
    Ok(())
}

fn check(dir: &std::path::Path, build_tables: bool) -> anyhow::Result<()> {
    let path = dir.join("results.json");
    let text =
        std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    let results: crate::lab::StudyResults = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{} is not a study's results.json: {e}", path.display()))?;
    let study = study_of(&results)?;
    // The committed games must be the report's: a referee recomputes the report from them.
    let records = || {
        crate::game::read_records(&dir.join("games.jsonl.gz"))
            .map(|records| records.into_iter().map(|n| n.record).collect())
            .map_err(|e| format!("{e}"))
    };
    let mut found = verify(&study, &results, records())?;
    if build_tables && !found.missing.is_empty() {
        for table in &found.missing {
            eprintln!(
                "building the table of `{}` for {} cells: {}",
                table.spec,
                table.cells.len(),
                table.cost
            );
            super::solve::build_whole_table(&table.game)?;
        }
        found = verify(&study, &results, records())?;
    }
    print_verification(&found);
    let total = found.cells;
    if found.is_stale() {
        anyhow::bail!(
            "{}: {} of {total} cells are stale, {} opening problems, {} claim problems, {} games-file problems, {} cells with unjudged capped games; play the study again (or, for unjudged games alone, read it again)",
            dir.display(),
            found.stale.len(),
            found.books.len(),
            found.claims.len(),
            found.games.len(),
            found.unjudged.len()
        );
    }
    if !found.missing.is_empty() {
        return Err(anyhow::Error::new(super::common::Unverified(format!(
            "{}: nothing is stale, but the openings of {} of {total} cells could not be verified: {} not built here \
             (`rebel-zero balance --check {} --build-tables` builds them and checks again)",
            dir.display(),
            found.unverified(),
            if found.missing.len() == 1 {
                "their table is".to_string()
            } else {
                format!("{} tables are", found.missing.len())
            },
            dir.display()
        ))));
    }
    println!(
        "{}: all {total} cells were played by rules, agents and openings that behave as the current ones, every claim reads as its report says, and games.jsonl.gz holds the report's games",
        dir.display()
    );
    Ok(())
}

/// What a check found, line by line: the books verified, then every problem, then the tables missing.
fn print_verification(found: &crate::lab::verify::Verification) {
    for verified in &found.books_verified {
        println!("openings: {verified}");
    }
    for s in &found.stale {
        println!("stale: {}: {}", s.cell, s.why);
    }
    for problem in &found.books {
        println!("openings: {problem}");
    }
    for problem in &found.claims {
        println!("claims: {problem}");
    }
    for problem in &found.games {
        println!("games: {problem}");
    }
    for problem in &found.unjudged {
        println!("adjudication: {problem}");
    }
    for table in &found.missing {
        println!(
            "unverified: {} cells opened from the table of `{}`, which is not built here ({}): {}",
            table.cells.len(),
            table.spec,
            table.path.display(),
            table.cells.join(", ")
        );
        println!("  `rebel-zero solve {}` builds it: {}", table.spec, table.cost);
    }
}

/// The study file a report names: the file itself (relative to the current folder), else the built-in
/// study embedded from that path.
fn study_of(results: &crate::lab::StudyResults) -> anyhow::Result<crate::lab::LoadedStudy> {
    let file = std::path::Path::new(&results.file);
    if file.is_file() {
        return Study::load(file);
    }
    match presets::by_path(presets::Kind::Study, &results.file) {
        Some(preset) => {
            Study::from_text(preset.text).with_context(|| format!("the built-in study {}", preset.path))
        }
        None => anyhow::bail!(
            "the study file {} that played this report is not here; run --check from the folder the study ran in",
            results.file
        ),
    }
}
