//! Runs a study: plays the cells not yet saved (resuming a stopped study), runs the solver, and
//! gathers everything the report shows into [`StudyResults`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::aggregate::{CellSummary, summarize};
use super::analysis::game_stats;
use super::claims::{ClaimResult, Evidence, judge};
use super::compare::{Comparison, compare_variants};
use super::schedule::{Cell, fnv1a, schedule};
use super::solve::solve_start;
use super::store::{CellResult, SolverResult, cell_path, load, load_cell, save, solver_path};
use super::study::LoadedStudy;
use crate::agents::{MatchSettings, derive_seed, run_match};
use crate::with_game;

/// How a run is told about its progress (a progress bar in the CLI, nothing in tests).
pub trait Progress: Sync {
    /// Games still to play in this run.
    fn begin(&self, _games: u64) {}
    fn game_done(&self) {}
    /// A line about what is happening ("solver: murray …").
    fn note(&self, _text: &str) {}
}

/// A progress report that says nothing.
pub struct Silent;
impl Progress for Silent {}

/// Settings of one invocation that do not change the results.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub threads: usize,
    /// The command line, for the report.
    pub command: String,
    /// The study file, for the report.
    pub file: PathBuf,
}

/// Everything the report shows (written as results.json).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudyResults {
    pub name: String,
    pub description: String,
    pub file: String,
    pub command: String,
    pub seed: u64,
    pub min_games: u32,
    pub version: String,
    pub commit: String,
    pub rules_sha256: String,
    pub study_sha256: String,
    pub threads: usize,
    /// Seconds of this invocation, and the sum of every cell's and solver run's own time.
    pub run_seconds: f64,
    pub compute_seconds: f64,
    pub skills: Vec<SkillInfo>,
    pub variants: Vec<VariantInfo>,
    pub cells: Vec<CellSummary>,
    pub comparisons: Vec<Comparison>,
    pub solver: Vec<SolverResult>,
    pub claims: Vec<ClaimResult>,
    /// Cells played by this invocation (the others were loaded from an earlier one).
    pub played: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SkillInfo {
    pub label: String,
    pub agent: String,
    pub games: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VariantInfo {
    pub name: String,
    pub spec: String,
    pub sides: [String; 2],
}

/// The study's finished cells, in schedule order, with the results.
pub struct Finished {
    pub results: StudyResults,
    pub cells: Vec<CellResult>,
}

/// Plays what is missing of `study` into `out` and gathers the results (the report is written by
/// [`super::report::write_all`]).
pub fn run_study(
    study: &LoadedStudy,
    out: &Path,
    options: &RunOptions,
    progress: &dyn Progress,
) -> anyhow::Result<Finished> {
    let clock = Instant::now();
    std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("creating {}: {e}", out.display()))?;
    let cells = schedule(study);
    let mut done: Vec<Option<CellResult>> = cells.iter().map(|c| load_cell(out, c)).collect();
    let todo: u64 = cells.iter().zip(&done).filter(|(_, d)| d.is_none()).map(|(c, _)| c.games as u64).sum();
    progress.begin(todo);
    let mut played = Vec::new();
    for (cell, slot) in cells.iter().zip(done.iter_mut()) {
        if slot.is_none() {
            let result = play_cell(study, cell, options.threads, progress)?;
            save(&cell_path(out, &cell.id), &result)?;
            played.push(cell.id.clone());
            *slot = Some(result);
        }
    }
    let cells: Vec<CellResult> = done.into_iter().map(|d| d.expect("every cell is done")).collect();
    let solver = run_solver(study, out, progress)?;
    let results = gather(study, &cells, solver, options, played, clock.elapsed().as_secs_f64());
    Ok(Finished { results, cells })
}

fn play_cell(
    study: &LoadedStudy,
    cell: &Cell,
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<CellResult> {
    let clock = Instant::now();
    progress.note(&format!("playing {} ({} games)", cell.id, cell.games));
    let game = &study.games[cell.variant];
    let agent = &study.agents[cell.skill];
    let settings = MatchSettings { games: cell.games as usize, seed: cell.seed, threads };
    let records = with_game!(game, |g| run_match(g, [agent, agent], settings, &|_| progress.game_done()))?;
    let stats = records.iter().map(|r| game_stats(game, r)).collect::<anyhow::Result<Vec<_>>>()?;
    Ok(CellResult { cell: cell.clone(), seconds: clock.elapsed().as_secs_f64(), records, stats })
}

fn run_solver(study: &LoadedStudy, out: &Path, progress: &dyn Progress) -> anyhow::Result<Vec<SolverResult>> {
    let Some(solver) = &study.study.solver else { return Ok(Vec::new()) };
    let mut results = Vec::new();
    for (v, variant) in study.study.variants.iter().enumerate() {
        if solver.variants.as_ref().is_some_and(|l| !l.contains(&variant.name)) {
            continue;
        }
        let path = solver_path(out, &variant.name, solver.simulations);
        let spec = with_game!(&study.games[v], |g| crate::game::Game::spec(g).to_string());
        let result = match load::<SolverResult>(&path).filter(|r| r.spec == spec) {
            Some(r) => r,
            None => {
                progress.note(&format!("solver: {} ({} simulations)", variant.name, solver.simulations));
                let seed = derive_seed(study.study.seed, fnv1a(&format!("solver-{}", variant.name)));
                let r = solve_start(&variant.name, &study.games[v], solver.simulations, seed);
                save(&path, &r)?;
                r
            }
        };
        results.push(result);
    }
    Ok(results)
}

fn gather(
    study: &LoadedStudy,
    cells: &[CellResult],
    solver: Vec<SolverResult>,
    options: &RunOptions,
    played: Vec<String>,
    run_seconds: f64,
) -> StudyResults {
    let s = &study.study;
    let summaries: Vec<CellSummary> = cells
        .iter()
        .map(|c| {
            let v = c.cell.variant;
            summarize(
                &c.cell.id,
                &s.variants[v].name,
                &study.labels[c.cell.skill],
                study.side_names(v),
                c.seconds,
                &c.cell,
                &c.stats,
            )
        })
        .collect();
    let skills = study.labels.len();
    let stats: Vec<Vec<&[super::analysis::GameStats]>> = (0..s.variants.len())
        .map(|v| (0..skills).map(|k| cells[v * skills + k].stats.as_slice()).collect())
        .collect();
    let evidence = Evidence { study, stats, solver: &solver };
    let claims: Vec<ClaimResult> = s.claims.iter().map(|c| judge(&evidence, c)).collect();
    let compute_seconds =
        cells.iter().map(|c| c.seconds).sum::<f64>() + solver.iter().map(|r| r.seconds).sum::<f64>();
    StudyResults {
        name: s.name.clone(),
        description: s.description.clone(),
        file: options.file.display().to_string(),
        command: options.command.clone(),
        seed: s.seed,
        min_games: s.min_games,
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: git_commit(),
        rules_sha256: rules_hash(),
        study_sha256: sha256_hex(study.text.as_bytes()),
        threads: options.threads,
        run_seconds,
        compute_seconds,
        skills: s
            .skills
            .iter()
            .zip(&study.labels)
            .zip(&study.agents)
            .map(|((k, label), agent)| SkillInfo {
                label: label.clone(),
                agent: agent.to_string(),
                games: k.games,
            })
            .collect(),
        variants: s
            .variants
            .iter()
            .enumerate()
            .map(|(v, x)| VariantInfo {
                name: x.name.clone(),
                spec: summaries[v * skills].spec.clone(),
                sides: study.side_names(v).map(str::to_string),
            })
            .collect(),
        comparisons: compare_variants(&summaries),
        cells: summaries,
        solver,
        claims,
        played,
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of ../shared/RULES.md (beside the crate), or a note that it was not found.
fn rules_hash() -> String {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/RULES.md");
    [beside, PathBuf::from("../shared/RULES.md")]
        .iter()
        .find_map(|p| std::fs::read(p).ok())
        .map_or_else(|| "RULES.md not found".to_string(), |bytes| sha256_hex(&bytes))
}

/// The crate's git commit, `+dirty` when the work tree has changes, or `unknown`.
fn git_commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(commit) => {
            let dirty =
                git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty { format!("{commit}+dirty") } else { commit }
        }
        None => "unknown".to_string(),
    }
}
