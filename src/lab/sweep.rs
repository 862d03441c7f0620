//! Sweeps: a hunt ruleset (built-in or a rules file) solved exactly for every setting of one or two
//! of its rules, to find where the balance turns. For each setting: the value of the start and the
//! plies to the result, the winner's margin for error (the share of its moves that keep the result)
//! along best play and over each Rebel count's positions, and the share of positions each side wins.
//!
//! A setting is the spec with options set (`general_wins_at=3`, `first=rebels`, `capture=…`,
//! `apex=…`, any option of a rules file) and, for the key `rebels`, a start with fewer Rebels: the
//! start's Rebels are taken away in a stated order. Settings whose tables are equal share one
//! ([`crate::tablebase::rules_key`]: who moves first and where the pieces start change no value; a
//! start with fewer Rebels reads the table of the most Rebels of its parity). Each setting's figures
//! are saved as they are found, so a stopped sweep resumes; tables stay in the cache folder.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::game::hunt::HuntGame;
use crate::game::spec::Spec;
use crate::game::{AnyGame, Game, Side};
use crate::tablebase::juroku::LevelProgress;
use crate::tablebase::{
    LevelReport, Margin, TableSize, Tablebase, Verdict, check_supported, default_table_path, open_or_build,
    rules_key, will_build,
};

/// One swept key and its values in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepKey {
    pub name: String,
    pub values: Vec<String>,
}

impl SweepKey {
    /// `NAME=V1,V2,…`, or `NAME=A..B` for the integers from A to B (either way round, both included).
    pub fn parse(text: &str) -> Result<SweepKey, String> {
        let (name, values) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}` is not KEY=VALUES (general_wins_at=0..6)"))?;
        let name = name.trim().to_string();
        if name.is_empty() {
            return Err(format!("`{text}` names no key"));
        }
        let values: Vec<String> = match values.split_once("..") {
            Some((a, b)) => {
                let bound = |t: &str| {
                    t.trim().parse::<u32>().map_err(|_| format!("`{t}` in `{text}` is not a whole number"))
                };
                let (a, b) = (bound(a)?, bound(b)?);
                if a.abs_diff(b) > 64 {
                    return Err(format!("`{text}` has more than 65 values"));
                }
                let range: Vec<u32> = if a <= b { (a..=b).collect() } else { (b..=a).rev().collect() };
                range.into_iter().map(|n| n.to_string()).collect()
            }
            None => values.split(',').map(|v| v.trim().to_string()).collect(),
        };
        if values.iter().any(String::is_empty) {
            return Err(format!("`{text}` has an empty value"));
        }
        Ok(SweepKey { name, values })
    }
}

/// What to sweep, as the command line gives it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepPlan {
    /// The ruleset the settings change.
    pub spec: String,
    /// One or two keys; the settings are every combination, the first key outermost.
    pub keys: Vec<SweepKey>,
    /// For the key `rebels`: the points whose Rebels go first. Empty: the start's Rebels from the
    /// lowest rank up, each rank from file a (the farthest from the privy first).
    pub remove_order: Vec<String>,
    /// Positions drawn per Rebel count and side for the margin over positions.
    pub samples: u32,
    pub seed: u64,
}

/// One setting: its key values and the game they make.
#[derive(Clone, Debug)]
pub struct Setting {
    pub values: Vec<(String, String)>,
    pub game: HuntGame,
    /// The points whose Rebels the key `rebels` took off the start.
    pub removed: Vec<String>,
}

/// What a setting's start is worth with best play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartValue {
    /// `general`, `rebels`, or `None` for a draw, with no cap.
    pub winner: Option<String>,
    /// Plies to the forced result (the winner's quickest against the loser's longest).
    pub plies: Option<u32>,
    /// The result once the game's ply cap is counted: `general`, `rebels` or `draw`.
    pub within_cap: String,
    pub max_plies: u32,
}

/// One Rebel count's positions: the shares each side wins (both sides to move) and each side's margin
/// over the positions it wins with the move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelFigures {
    pub rebels: u32,
    pub positions: u64,
    pub general_wins: f64,
    pub rebels_win: f64,
    pub drawn: f64,
    /// The General's margin over the positions he wins with the move, then the Rebels'.
    pub margins: [Margin; 2],
}

/// A setting's exact figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingResult {
    pub values: Vec<(String, String)>,
    /// The spec of the setting's options (the `rebels` key is not an option: see `removed`).
    pub spec: String,
    pub removed: Vec<String>,
    pub rebels: u32,
    pub first: String,
    pub start: String,
    /// The table's rules key, shared by the settings it answers.
    pub table: String,
    pub value: StartValue,
    /// The winner's margin along best play from the start (for a draw, both sides' margin for keeping
    /// it); the line's length in plies.
    pub along_best_play: Margin,
    pub line_plies: u32,
    pub levels: Vec<LevelFigures>,
    /// Whether the run that measured the setting built its table, and the seconds it took to build
    /// or read it (shared by the settings of one table).
    pub table_built: bool,
    pub table_seconds: f64,
}

/// What a sweep reports as it goes.
pub trait SweepObserver {
    /// A table is opened for the settings that follow: of `game`'s rules, `size` where it is built.
    fn table(&mut self, key: &str, path: &Path, game: &HuntGame, size: Option<&TableSize>);
    /// One level of a table being built is done.
    fn level(&self, report: &LevelReport);
    /// What hears the work within a level.
    fn progress(&self) -> &dyn LevelProgress;
    /// A setting's figures are found (or were found by an earlier run: `kept`).
    fn setting(&mut self, result: &SettingResult, kept: bool);
}

/// The tables a sweep needs: each once, for the settings it answers (by index).
#[derive(Debug)]
pub struct TablePlan {
    pub key: String,
    pub game: HuntGame,
    pub path: PathBuf,
    pub settings: Vec<usize>,
    /// Its size, where it must be built.
    pub to_build: Option<TableSize>,
}

impl SweepPlan {
    /// Every setting, the first key outermost; an error names a key, value or spec that makes no
    /// solvable game.
    pub fn settings(&self) -> anyhow::Result<Vec<Setting>> {
        if self.keys.is_empty() || self.keys.len() > 2 {
            bail!("a sweep takes one or two keys, not {}", self.keys.len());
        }
        let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for key in &self.keys {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    key.values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((key.name.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        combos.into_iter().map(|values| self.setting(values)).collect()
    }

    fn setting(&self, values: Vec<(String, String)>) -> anyhow::Result<Setting> {
        let mut spec = Spec::parse(&self.spec).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut count = None;
        for (key, value) in &values {
            if key == "rebels" {
                let n = value.parse::<u32>().map_err(|_| anyhow::anyhow!("rebels={value} is not a count"))?;
                count = Some(n);
                continue;
            }
            spec.options.retain(|(k, _)| k != key);
            spec.options.push((key.clone(), value.clone()));
        }
        let text = spec.to_string();
        let AnyGame::Hunt(game) = AnyGame::from_spec(&text).map_err(|e| anyhow::anyhow!("{e}"))? else {
            bail!(
                "`{text}` is not a hunt game; only sixteen-rebels, juroku-musashi, their options and rules files like them are solved"
            );
        };
        let (game, removed) = match count {
            Some(n) => self.with_rebels(&game, n)?,
            None => (game, Vec::new()),
        };
        check_supported(&game)?;
        Ok(Setting { values, game, removed })
    }

    /// `game` started with `n` Rebels, the others taken off in the stated order.
    fn with_rebels(&self, game: &HuntGame, n: u32) -> anyhow::Result<(HuntGame, Vec<String>)> {
        let board = game.board();
        let start = game.rules.rebels_start;
        let have = start.count_ones();
        if n == 0 || n > have {
            bail!("rebels={n}: the start has {have} Rebels, so a sweep may keep 1 to {have} of them");
        }
        let order: Vec<u8> = if self.remove_order.is_empty() {
            let mut points: Vec<u8> = (0..board.len() as u8).filter(|&p| start >> p & 1 == 1).collect();
            points.sort_by_key(|&p| (board.coords[p as usize].1, board.coords[p as usize].0));
            points
        } else {
            let mut points = Vec::new();
            for label in &self.remove_order {
                let p = board.point(label).with_context(|| format!("--remove-order: no point {label}"))?;
                if start >> p & 1 == 0 {
                    bail!("--remove-order: no Rebel starts on {label}");
                }
                points.push(p);
            }
            if points.len() < (have - n) as usize {
                bail!(
                    "--remove-order names {} points, and rebels={n} takes {} Rebels off",
                    points.len(),
                    have - n
                );
            }
            points
        };
        let taken = &order[..(have - n) as usize];
        let mut rules = game.rules;
        rules.rebel_count = n;
        rules.rebels_start = taken.iter().fold(start, |mask, &p| mask & !(1 << p));
        let removed = taken.iter().map(|&p| board.label(p).to_string()).collect();
        Ok((HuntGame::new(game.spec().to_string(), rules), removed))
    }

    /// The tables the settings need, each for the settings of one rules key, opened for the most
    /// Rebels among them; those not in the cache folder carry their size.
    pub fn tables(settings: &[Setting]) -> Vec<TablePlan> {
        let mut plans: Vec<TablePlan> = Vec::new();
        for (i, setting) in settings.iter().enumerate() {
            let key = rules_key(&setting.game);
            match plans.iter_mut().find(|p| p.key == key) {
                Some(plan) => {
                    plan.settings.push(i);
                    if setting.game.rules.rebel_count > plan.game.rules.rebel_count {
                        plan.game = setting.game.clone();
                    }
                }
                None => plans.push(TablePlan {
                    key,
                    game: setting.game.clone(),
                    path: PathBuf::new(),
                    settings: vec![i],
                    to_build: None,
                }),
            }
        }
        for plan in &mut plans {
            plan.path = default_table_path(&plan.game);
            plan.to_build = will_build(&plan.game, &plan.path).then(|| TableSize::of(&plan.game));
        }
        plans
    }
}

/// Plays the sweep: every setting's figures, from the saved ones in `out/settings` where they are
/// there, else from its table (read or built). Returns them in the settings' order.
pub fn run_sweep(
    plan: &SweepPlan,
    out: &Path,
    observer: &mut dyn SweepObserver,
) -> anyhow::Result<Vec<SettingResult>> {
    let settings = plan.settings()?;
    let dir = out.join("settings");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let saved_at = |i: usize| dir.join(format!("{i:03}.json"));
    let mut results: Vec<Option<SettingResult>> = vec![None; settings.len()];
    for (i, setting) in settings.iter().enumerate() {
        let saved =
            std::fs::read(saved_at(i)).ok().and_then(|b| serde_json::from_slice::<SettingResult>(&b).ok());
        // The same setting of the same ruleset, from the same start: the values and the table alone
        // leave out who moves first and where the pieces stand.
        let game = &setting.game;
        let same = |r: &SettingResult| {
            r.values == setting.values
                && r.spec == game.spec()
                && r.start == game.format_position(&game.start())
                && r.table == rules_key(game)
        };
        if let Some(r) = saved.filter(same) {
            observer.setting(&r, true);
            results[i] = Some(r);
        }
    }
    for table in SweepPlan::tables(&settings) {
        if table.settings.iter().all(|&i| results[i].is_some()) {
            continue;
        }
        if let Some(size) = &table.to_build {
            size.check(crate::memory::available_bytes())
                .map_err(|why| anyhow::anyhow!("cannot build the table of `{}` here: {why}", table.key))?;
        }
        observer.table(&table.key, &table.path, &table.game, table.to_build.as_ref());
        let clock = Instant::now();
        let (tb, built) =
            open_or_build(&table.game, &table.path, |r| observer.level(&r), observer.progress())?;
        let seconds = clock.elapsed().as_secs_f64();
        for &i in &table.settings {
            if results[i].is_some() {
                continue;
            }
            let result = SettingResult {
                table_built: built,
                table_seconds: seconds,
                ..measure(&tb, &settings[i], plan)
            };
            crate::files::write_atomic(&saved_at(i), &serde_json::to_vec_pretty(&result)?)
                .with_context(|| format!("cannot write {}", saved_at(i).display()))?;
            observer.setting(&result, false);
            results[i] = Some(result);
        }
    }
    Ok(results.into_iter().map(|r| r.expect("every setting measured")).collect())
}

/// A setting's figures from its table.
fn measure(tb: &Tablebase, setting: &Setting, plan: &SweepPlan) -> SettingResult {
    let game = &setting.game;
    let start = game.start();
    let names = game.side_names();
    let verdict = tb.probe(&start).expect("the start is a position of its table");
    let mover = start.to_move;
    let winner = match verdict {
        Verdict::Win { .. } => Some(mover),
        Verdict::Loss { .. } => Some(mover.opponent()),
        Verdict::Draw => None,
    };
    let plies = match verdict {
        Verdict::Win { plies } | Verdict::Loss { plies } => Some(plies),
        Verdict::Draw => None,
    };
    let within_cap = match verdict.within(game.rules.max_plies).for_side(mover, Side::BOTH[0]) {
        Verdict::Win { .. } => names[0],
        Verdict::Loss { .. } => names[1],
        Verdict::Draw => "draw",
    };
    let line = tb.best_line(&start, game.rules.max_plies.max(1) as usize * 4);
    let along_best_play = match winner {
        Some(side) => tb.margin_along(&line, side),
        None => merge(Side::BOTH.map(|side| tb.margin_along(&line, side))),
    };
    let levels = tb
        .level_tallies()
        .into_iter()
        .filter(|(n, _)| *n <= game.rules.rebel_count)
        .map(|(rebels, [g, r])| {
            let positions = g.positions() + r.positions();
            let share = |n: u64| n as f64 / positions.max(1) as f64;
            let margins = Side::BOTH.map(|side| {
                tb.margin_over_level(rebels, side, false, plan.samples, plan.seed).unwrap_or_default()
            });
            LevelFigures {
                rebels,
                positions,
                general_wins: share(g.wins + r.losses),
                rebels_win: share(r.wins + g.losses),
                drawn: share(g.draws + r.draws),
                margins,
            }
        })
        .collect();
    SettingResult {
        values: setting.values.clone(),
        spec: game.spec().to_string(),
        removed: setting.removed.clone(),
        rebels: game.rules.rebel_count,
        first: names[mover.index()].to_string(),
        start: game.format_position(&start),
        table: rules_key(game),
        value: StartValue {
            winner: winner.map(|s| names[s.index()].to_string()),
            plies,
            within_cap: within_cap.to_string(),
            max_plies: game.rules.max_plies,
        },
        along_best_play,
        line_plies: line.len() as u32,
        levels,
        table_built: false,
        table_seconds: 0.0,
    }
}

/// Two margins as one, weighted by their positions.
fn merge([a, b]: [Margin; 2]) -> Margin {
    let n = a.positions + b.positions;
    if n == 0 {
        return Margin::default();
    }
    let least = match (a.positions, b.positions) {
        (0, _) => b.least,
        (_, 0) => a.least,
        _ => a.least.min(b.least),
    };
    let mean = (a.mean * f64::from(a.positions) + b.mean * f64::from(b.positions)) / f64::from(n);
    Margin { positions: n, mean, least }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_lists_and_ranges_either_way() {
        let k = SweepKey::parse("general_wins_at=0..3").unwrap();
        assert_eq!(k.values, ["0", "1", "2", "3"]);
        assert_eq!(SweepKey::parse("rebels=16..14").unwrap().values, ["16", "15", "14"]);
        assert_eq!(SweepKey::parse("first=general, rebels").unwrap().values, ["general", "rebels"]);
        for bad in ["general_wins_at", "=1", "a=1,,2", "a=x..3", "a=0..100"] {
            assert!(SweepKey::parse(bad).is_err(), "{bad}");
        }
    }

    fn plan(keys: &[&str]) -> SweepPlan {
        SweepPlan {
            spec: "sixteen-rebels".into(),
            keys: keys.iter().map(|k| SweepKey::parse(k).unwrap()).collect(),
            remove_order: Vec::new(),
            samples: 100,
            seed: 1,
        }
    }

    /// Thresholds that end every game alike share a table; who moves first never changes one.
    #[test]
    fn settings_with_equal_tables_share_one() {
        let settings = plan(&["general_wins_at=3..6", "first=general,rebels"]).settings().unwrap();
        assert_eq!(settings.len(), 8);
        assert_eq!(
            settings[1].values,
            [("general_wins_at".into(), "3".into()), ("first".into(), "rebels".into())]
        );
        let tables = SweepPlan::tables(&settings);
        let keys: Vec<&str> = tables.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "sixteen-rebels:capture=optional,general_wins_at=2,apex=on",
                "sixteen-rebels:capture=optional,general_wins_at=4,apex=on",
                "sixteen-rebels:capture=optional,general_wins_at=6,apex=on",
            ]
        );
        assert_eq!(tables[1].settings, [2, 3, 4, 5]);
    }

    /// Fewer Rebels come off the start farthest from the privy first, or in the order given; a start
    /// of odd count has its own table, one of even count reads the full one.
    #[test]
    fn fewer_rebels_leave_the_start_in_order_and_read_their_parity_s_table() {
        let settings = plan(&["rebels=16..13"]).settings().unwrap();
        assert_eq!(settings[2].removed, ["a1", "b1"]);
        assert_eq!(settings[2].game.rules.rebel_count, 14);
        assert_eq!(settings[2].game.start().rebels.count_ones(), 14);
        let tables = SweepPlan::tables(&settings);
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[0].settings, [0, 2]);
        assert_eq!(tables[0].game.rules.rebel_count, 16);
        assert!(tables[1].key.ends_with(",count=odd") && tables[1].key.contains("general_wins_at=3"));
        assert_eq!(tables[1].game.rules.rebel_count, 15);
        let mut given = plan(&["rebels=15"]);
        given.remove_order = vec!["c5".into()];
        assert_eq!(given.settings().unwrap()[0].removed, ["c5"]);
        for (order, why) in [(vec!["c3"], "no Rebel starts on c3"), (vec!["z9"], "no point z9")] {
            given.remove_order = order.into_iter().map(String::from).collect();
            let err = given.settings().unwrap_err().to_string();
            assert!(err.contains(why), "{err}");
        }
        let err = plan(&["rebels=17"]).settings().unwrap_err().to_string();
        assert!(err.contains("1 to 16"), "{err}");
        let err = plan(&["capture=sometimes"]).settings().unwrap_err().to_string();
        assert!(err.contains("sometimes"), "{err}");
    }
}
