//! Runs a study: plays the cells not yet saved (resuming a stopped study) and the rungs' cross-play,
//! reads each solved variant's exact start value (the tablebase, where its file is present, else the
//! MCTS-solver), judges the rungs' games against the tablebase, rates the rungs, and gathers
//! everything the report shows into [`StudyResults`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::aggregate::{CellSummary, summarize};
use super::analysis::game_stats;
use super::claims::{ClaimResult, Evidence, judge_all};
use super::compare::{Comparison, compare_variants};
use super::fingerprint;
use super::ratings::{PairResult, Rating, fit};
use super::schedule::{Cell, Prints, fnv1a, schedule};
use super::solve::{judge_rungs, solve_start, table_value};
use super::stats::{Z95, wilson};
use super::store::{CellResult, SolverResult, load, load_cell, save, save_cell, solver_path};
use super::study::{EvidenceKind, LoadedStudy};
use crate::agents::{MatchSettings, run_match};
use crate::seed::derive_seed;
use crate::with_game;

/// A rung whose games give up a forced result this often (lower end of the 95% interval) is shown
/// wrong by the tablebase: its results say more about its mistakes than about the rules.
const TABLE_MISTAKE_RATE: f64 = 0.05;

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
    /// Plies opening each game, and how they are drawn.
    #[serde(default)]
    pub opening: u32,
    #[serde(default)]
    pub opening_policy: super::study::OpeningPolicy,
    pub version: String,
    /// The commit the binary was built from (`+dirty` when its tree had changes), and the compiler.
    pub commit: String,
    #[serde(default)]
    pub rustc: String,
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
    /// Each rung: its measured rating, its games judged by the tablebase, and why stronger evidence
    /// shows it wrong, if it does.
    #[serde(default)]
    pub rungs: Vec<RungInfo>,
    /// The rungs' cross-play.
    #[serde(default)]
    pub pairs: Vec<PairInfo>,
    pub claims: Vec<ClaimResult>,
    /// Cells played by this invocation (the others were loaded from an earlier one).
    pub played: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SkillInfo {
    pub label: String,
    pub agent: String,
    pub games: u32,
    /// A network rung's weights: the checkpoint's `model.bpk` and its SHA-256.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<(String, String)>,
}

/// The weights file of a network agent and its SHA-256.
fn weights_of(agent: &crate::agents::AgentSpec) -> Option<(String, String)> {
    let crate::agents::AgentSpec::Net(settings) = agent else { return None };
    let (file, digest) = fingerprint::weights(settings).ok()?;
    Some((file.display().to_string(), digest.iter().map(|b| format!("{b:02x}")).collect()))
}

/// One cross-play cell: rung `a` against rung `b`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairInfo {
    pub id: String,
    pub spec: String,
    pub a: String,
    pub b: String,
    pub agents: [String; 2],
    pub games: u32,
    pub points_a: f64,
    pub seed: u64,
    pub rules_print: String,
    pub agent_print: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RungInfo {
    pub label: String,
    pub kind: EvidenceKind,
    pub rating: Option<Rating>,
    /// Games judged against the tablebase, and those with a move that gave up a forced result (after
    /// the opening), over the variants a table covers.
    pub judged: u32,
    pub erred: u32,
    /// Why stronger evidence shows the rung wrong: in the cross-play (for every variant), or by the
    /// tablebase (for the variants a table covers: its readings on other boards stand).
    pub weak: Option<String>,
    #[serde(default)]
    pub table_weak: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VariantInfo {
    pub name: String,
    pub spec: String,
    pub sides: [String; 2],
    /// Plies opening its games.
    #[serde(default)]
    pub opening: u32,
    /// For a ruleset described in a file (`file:PATH`), the file's SHA-256 when the study ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_file_sha256: Option<String>,
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
    progress.note("fingerprinting the rules and agents");
    let prints = Prints::of(study)?;
    let cells = schedule(study, &prints);
    let mut done: Vec<Option<CellResult>> = cells.iter().map(|c| load_cell(out, c)).collect();
    let todo: u64 = cells.iter().zip(&done).filter(|(_, d)| d.is_none()).map(|(c, _)| c.games as u64).sum();
    progress.begin(todo);
    let mut played = Vec::new();
    for (cell, slot) in cells.iter().zip(done.iter_mut()) {
        if slot.is_none() {
            let result = play_cell(study, cell, options.threads, progress)?;
            save_cell(out, &result)?;
            played.push(cell.id.clone());
            *slot = Some(result);
        }
    }
    let cells: Vec<CellResult> = done.into_iter().map(|d| d.expect("every cell is done")).collect();
    let solver = run_solver(study, out, progress)?;
    progress.note("judging the rungs' games against the tablebase");
    let judged = judge_rungs(study, &cells);
    let results = gather(study, &cells, solver, judged, options, played, clock.elapsed().as_secs_f64());
    Ok(Finished { results, cells })
}

/// The cells of `study` not yet finished in `out`, in schedule order: what a scheduler of one task
/// per cell hands out (`balance --list-cells`).
pub fn missing_cells(study: &LoadedStudy, out: &Path) -> anyhow::Result<Vec<Cell>> {
    let prints = Prints::of(study)?;
    Ok(schedule(study, &prints).into_iter().filter(|c| load_cell(out, c).is_none()).collect())
}

/// Plays the one cell `id` of `study` into `out` and saves it as the full run would (`balance
/// --cell`); `false` when it was finished already. An unknown id is an error listing the cells.
pub fn run_cell(
    study: &LoadedStudy,
    out: &Path,
    id: &str,
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<bool> {
    let prints = Prints::of(study)?;
    let cells = schedule(study, &prints);
    let Some(cell) = cells.iter().find(|c| c.id == id) else {
        let ids: Vec<&str> = cells.iter().map(|c| c.id.as_str()).collect();
        return Err(anyhow::Error::new(UnknownCell(format!(
            "study {} has no cell `{id}`; its cells: {}",
            study.study.name,
            ids.join(", ")
        ))));
    };
    if load_cell(out, cell).is_some() {
        return Ok(false);
    }
    std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("creating {}: {e}", out.display()))?;
    progress.begin(cell.games as u64);
    save_cell(out, &play_cell(study, cell, threads, progress)?)?;
    Ok(true)
}

/// A cell id the study does not have (a mistake in what was asked, not a failure while running).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UnknownCell(pub String);

fn play_cell(
    study: &LoadedStudy,
    cell: &Cell,
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<CellResult> {
    let clock = Instant::now();
    progress.note(&format!("playing {} ({} games)", cell.id, cell.games));
    let game = &study.games[cell.variant];
    let agent = &study.cell_agent(cell.skill, cell.variant);
    let opponent = &cell.opponent.as_ref().map_or(agent.clone(), |(b, _)| study.cell_agent(*b, cell.variant));
    let settings =
        MatchSettings { games: cell.games as usize, seed: cell.seed, threads, opening: cell.opening };
    let records = with_game!(game, |g| run_match(g, [agent, opponent], settings, &|_| progress.game_done()))?;
    let stats = records.iter().map(|r| game_stats(game, r)).collect::<anyhow::Result<Vec<_>>>()?;
    Ok(CellResult { cell: cell.clone(), seconds: clock.elapsed().as_secs_f64(), records, stats })
}

/// Each listed variant's start value: read from its tablebase when the table file is present, else
/// searched by the MCTS-solver.
fn run_solver(study: &LoadedStudy, out: &Path, progress: &dyn Progress) -> anyhow::Result<Vec<SolverResult>> {
    let Some(solver) = &study.study.solver else { return Ok(Vec::new()) };
    let mut results = Vec::new();
    for (v, variant) in study.study.variants.iter().enumerate() {
        if solver.variants.as_ref().is_some_and(|l| !l.contains(&variant.name)) {
            continue;
        }
        if let Some(exact) = table_value(&variant.name, &study.games[v]) {
            progress.note(&format!("tablebase: {}", variant.name));
            results.push(exact?);
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
    judged: Vec<(u32, u32)>,
    options: &RunOptions,
    played: Vec<String>,
    run_seconds: f64,
) -> StudyResults {
    let s = &study.study;
    let (games, pairs) =
        cells.split_at(cells.iter().position(|c| c.cell.opponent.is_some()).unwrap_or(cells.len()));
    let summaries: Vec<CellSummary> = games
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
        .map(|v| (0..skills).map(|k| games[v * skills + k].stats.as_slice()).collect())
        .collect();
    let pair_results = pair_results(pairs);
    let ratings = fit(study.labels.len(), &pair_results);
    let rungs = rung_infos(study, ratings.as_deref(), &judged);
    let weak: Vec<Option<String>> = rungs.iter().map(|r| r.weak.clone()).collect();
    let table_weak: Vec<Option<String>> = rungs.iter().map(|r| r.table_weak.clone()).collect();
    let covered: Vec<bool> = study.games.iter().map(super::solve::covered).collect();
    let evidence = Evidence {
        study,
        stats,
        solver: &solver,
        ratings: ratings.as_deref(),
        weak: &weak,
        table_weak: &table_weak,
        covered: &covered,
    };
    let claims: Vec<ClaimResult> = judge_all(&evidence);
    let compute_seconds =
        cells.iter().map(|c| c.seconds).sum::<f64>() + solver.iter().map(|r| r.seconds).sum::<f64>();
    StudyResults {
        name: s.name.clone(),
        description: s.description.clone(),
        file: options.file.display().to_string(),
        command: options.command.clone(),
        seed: s.seed,
        min_games: s.min_games,
        opening: s.opening.plies,
        opening_policy: s.opening.policy,
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: env!("REBEL_ZERO_COMMIT").to_string(),
        rustc: env!("REBEL_ZERO_RUSTC").to_string(),
        rules_sha256: rules_hash(),
        study_sha256: crate::files::sha256_hex(study.text.as_bytes()),
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
                weights: weights_of(agent),
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
                opening: x.opening(&s.opening),
                rules_file_sha256: crate::game::hunt::described::spec_path(&x.spec)
                    .and_then(|path| crate::game::hunt::described::load(&path.to_string_lossy()).ok())
                    .map(|described| described.sha256.clone()),
            })
            .collect(),
        comparisons: compare_variants(&summaries),
        cells: summaries,
        solver,
        rungs,
        pairs: pairs
            .iter()
            .zip(&pair_results)
            .map(|(c, p)| PairInfo {
                id: c.cell.id.clone(),
                spec: c.cell.spec.clone(),
                a: study.labels[p.a].clone(),
                b: study.labels[p.b].clone(),
                agents: [
                    c.cell.agent.clone(),
                    c.cell.opponent.as_ref().map_or(String::new(), |o| o.1.clone()),
                ],
                games: p.games,
                points_a: p.points_a,
                seed: c.cell.seed,
                rules_print: c.cell.rules_print.clone(),
                agent_print: c.cell.agent_print.clone(),
            })
            .collect(),
        claims,
        played,
    }
}

/// Each cross-play cell's totals.
fn pair_results(pairs: &[CellResult]) -> Vec<PairResult> {
    pairs
        .iter()
        .map(|c| {
            let (a, b) = (c.cell.skill, c.cell.opponent.as_ref().expect("a ratings cell").0);
            // Agent A plays side i % 2 in game i.
            let points_a = c
                .stats
                .iter()
                .enumerate()
                .map(|(i, g)| match g.winner {
                    None => 0.5,
                    Some(w) if w == i % 2 => 1.0,
                    Some(_) => 0.0,
                })
                .sum();
            PairResult { a, b, games: c.stats.len() as u32, points_a }
        })
        .collect()
}

/// Each rung's rating, its judged games, and whether stronger evidence shows it wrong: the tablebase
/// (a forced result given up in more than [`TABLE_MISTAKE_RATE`] of its games), or a rung of a stronger
/// kind of evidence rated above it beyond doubt.
fn rung_infos(study: &LoadedStudy, ratings: Option<&[Rating]>, judged: &[(u32, u32)]) -> Vec<RungInfo> {
    (0..study.labels.len())
        .map(|s| {
            let kind = EvidenceKind::of(&study.agents[s]);
            let (judged_games, erred) = judged[s];
            let table = (judged_games > 0)
                .then(|| wilson(erred as f64, judged_games as f64, Z95))
                .filter(|i| i.low > TABLE_MISTAKE_RATE)
                .map(|i| {
                    format!(
                        "the tablebase finds a forced result given up in {:.0}% [{:.0}, {:.0}] of its games",
                        100.0 * i.estimate,
                        100.0 * i.low,
                        100.0 * i.high
                    )
                });
            let beaten = ratings.and_then(|r| {
                (0..study.labels.len())
                    .filter(|&t| EvidenceKind::of(&study.agents[t]) > kind)
                    .map(|t| (t, super::ratings::difference(r[s], r[t])))
                    .find(|(_, (_, low, _))| *low > 0.0)
                    .map(|(t, (d, low, high))| {
                        format!("{} is stronger by {d:.0} Elo [{low:.0}, {high:.0}]", study.labels[t])
                    })
            });
            RungInfo {
                label: study.labels[s].clone(),
                kind,
                rating: ratings.map(|r| r[s]),
                judged: judged_games,
                erred,
                weak: beaten,
                table_weak: table,
            }
        })
        .collect()
}

/// SHA-256 of ../shared/RULES.md (beside the crate), or a note that it was not found.
fn rules_hash() -> String {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/RULES.md");
    [beside, PathBuf::from("../shared/RULES.md")]
        .iter()
        .find_map(|p| std::fs::read(p).ok())
        .map_or_else(|| "RULES.md not found".to_string(), |bytes| crate::files::sha256_hex(&bytes))
}

/// A cell of a committed study whose rules or agent no longer behave as when it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Stale {
    pub cell: String,
    pub why: String,
}

/// Checks a study's `results.json` against the code: every cell's rules and agent fingerprints are
/// computed again and compared with those it was played under.
pub fn check(results: &StudyResults) -> anyhow::Result<Vec<Stale>> {
    let mut stale = Vec::new();
    let mut games: std::collections::BTreeMap<String, (crate::game::AnyGame, String)> = Default::default();
    let mut agent_prints: std::collections::BTreeMap<(String, String), String> = Default::default();
    let cells =
        results.cells.iter().map(|c| (&c.id, &c.spec, vec![c.agent.clone()], &c.rules_print, &c.agent_print));
    let pairs =
        results.pairs.iter().map(|p| (&p.id, &p.spec, p.agents.to_vec(), &p.rules_print, &p.agent_print));
    for (id, spec, agents, rules_print, agent_print) in cells.chain(pairs) {
        if !games.contains_key(spec) {
            let game = crate::game::AnyGame::from_spec(spec)?;
            let print = fingerprint::rules(&game);
            games.insert(spec.clone(), (game, print));
        }
        let (game, print) = &games[spec];
        if print != rules_print {
            stale.push(Stale {
                cell: id.clone(),
                why: format!(
                    "the rules of `{spec}` behave differently now (fingerprint {print}, played under {})",
                    if rules_print.is_empty() { "none recorded" } else { rules_print }
                ),
            });
            continue;
        }
        let mut now = Vec::new();
        for agent in &agents {
            // The cross-play's agents are the cells' agents: each is probed once per ruleset.
            let key = (spec.clone(), agent.clone());
            if !agent_prints.contains_key(&key) {
                let print = fingerprint::agent(&crate::agents::AgentSpec::parse(agent)?, game)?;
                agent_prints.insert(key.clone(), print);
            }
            now.push(agent_prints[&key].clone());
        }
        let now = now.join("+");
        if now != *agent_print {
            stale.push(Stale {
                cell: id.clone(),
                why: format!(
                    "its agents behave differently now (fingerprint {now}, played under {})",
                    if agent_print.is_empty() { "none recorded" } else { agent_print }
                ),
            });
        }
    }
    Ok(stale)
}
