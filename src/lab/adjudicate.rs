//! Games stopped at a ply cap, decided by a judge in the manner of fishtest's adjudication. A capped
//! game is not a draw: it is unfinished. Where a study names a judge (`[adjudication]`), the judge
//! values the game's last positions for the first side, from the last one back: the game is a win
//! where the last `win_plies` values all lie beyond the win margin for one side, a draw where the last
//! `draw_plies` all lie within the draw margin, and stays unfinished otherwise.
//!
//! A study of hunt games the tables solve may name the tablebase as its judge (`judge = "perfect"`):
//! each capped game is then decided by the exact value of its last position under its variant's rules
//! (a forced win for a side is that side's win, a draw with best play a draw), the strongest evidence
//! there is, and the margins do not enter. A variant no table solves keeps its capped games unfinished.
//!
//! The verdict is written into the game's record ([`Adjudication`]) with the rule that gave it, so a
//! study read again judges nothing twice, and a record judged by another rule (another judge, or a
//! judge whose behaviour changed) is judged again. Each game gets a judge of its own, built from the
//! game's seed, so its verdict does not depend on which games were judged before it or on how many
//! threads judged them.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::analysis::{CAP_REASON, game_stats};
use super::store::CellResult;
use super::study::{AdjudicationSettings, LoadedStudy};
use crate::agents::AgentSpec;
use crate::family::{Family, hunt_of};
use crate::game::hunt::HuntGame;
use crate::game::{Adjudication, AnyGame, Game, GameRecord, Side};
use crate::seed::derive_seed;
use crate::tablebase::{CachedTable, Tablebase, Verdict, cached_table, shared_table};
use crate::with_game;

/// What the values seen so far, the last position first, say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The side with this index wins.
    Win(usize),
    Draw,
    /// No margin can hold any more.
    Undecided,
    /// A margin still holds but has not lasted its plies: the position before decides.
    NeedMore,
}

/// Reads `values` (the first side's values, the last position first) by the rule's margins.
pub fn read(values: &[f64], rule: &AdjudicationSettings) -> Reading {
    let n = values.len();
    let all = |holds: &dyn Fn(f64) -> bool| values.iter().all(|&v| holds(v));
    let side_wins = [all(&|v| v >= rule.win_value), all(&|v| v <= -rule.win_value)];
    let drawn = all(&|v| v.abs() <= rule.draw_value);
    let lasted = |plies: u32| n >= plies as usize;
    match () {
        _ if side_wins[0] && lasted(rule.win_plies) => Reading::Win(0),
        _ if side_wins[1] && lasted(rule.win_plies) => Reading::Win(1),
        _ if drawn && lasted(rule.draw_plies) => Reading::Draw,
        _ if side_wins[0] || side_wins[1] || drawn => Reading::NeedMore,
        _ => Reading::Undecided,
    }
}

/// The rule in words, with the judge's behaviour fingerprinted on `game` (a judge that plays
/// otherwise than when a record was judged gives another rule).
pub fn rule_key(rule: &AdjudicationSettings, game: &AnyGame) -> anyhow::Result<String> {
    if by_table(rule) {
        // A table holds one value per position for its rules: its key is the rules, not a fingerprint.
        let spec = with_game!(game, |g| g.spec().to_string());
        return Ok(match hunt_of(game).map(cached_table) {
            Some(CachedTable::Built(_) | CachedTable::Missing(_)) => {
                format!("the tablebase of `{spec}`: the exact value of the last position")
            }
            _ => format!("no tablebase solves `{spec}`: capped games stay unfinished"),
        });
    }
    let judge = AgentSpec::parse(&rule.judge)?;
    let print = super::fingerprint::agent(&judge, game)?;
    Ok(format!(
        "{} {print}: a win beyond ±{:.4} over the last {} plies, a draw within ±{:.4} over the last {}",
        judge.print_form(),
        rule.win_value,
        rule.win_plies,
        rule.draw_value,
        rule.draw_plies
    ))
}

/// Whether the rule's judge is the tablebase (`judge = "perfect"`).
pub fn by_table(rule: &AdjudicationSettings) -> bool {
    matches!(AgentSpec::parse(&rule.judge), Ok(AgentSpec::Perfect { .. }))
}

/// Judges one capped game of `game` by its table: the exact value of its last position for the first
/// side. A variant no table solves leaves it undecided; a table not built here is an error that says
/// how to build it, since a run cannot be read the same without it.
fn judge_by_table(game: &AnyGame, record: &GameRecord, key: &str) -> anyhow::Result<Adjudication> {
    let Some(hunt) = hunt_of(game) else { return Ok(undecided(key)) };
    match cached_table(hunt) {
        CachedTable::Unsolvable(_) => Ok(undecided(key)),
        CachedTable::Missing(path) => Err(MissingTables(format!(
            "adjudicating the capped games of `{}` needs its tablebase, not built at {} (`rebel-zero solve {}` builds it)",
            hunt.spec(),
            path.display(),
            hunt.spec()
        ))
        .into()),
        CachedTable::Built(path) => {
            let table = shared_table(hunt, &path)?;
            table_verdict(&table, hunt, record, key)
        }
    }
}

/// The verdict `table` gives the last position of `record`.
fn table_verdict(
    table: &Tablebase,
    game: &HuntGame,
    record: &GameRecord,
    key: &str,
) -> anyhow::Result<Adjudication> {
    let line = record.replay(game).map_err(|e| anyhow::anyhow!("game {}: {e}", record.game))?;
    let mover = game.to_move(line.state());
    let names = game.side_names();
    let (result, value) = match table.probe(line.state()).map(|v| v.for_side(mover, Side::ZERO)) {
        Some(Verdict::Win { .. }) => (names[0].to_string(), 1.0),
        Some(Verdict::Loss { .. }) => (names[1].to_string(), -1.0),
        Some(Verdict::Draw) => (Adjudication::DRAW.to_string(), 0.0),
        None => return Ok(undecided(key)),
    };
    Ok(Adjudication { rule: key.to_string(), result, values: vec![value] })
}

fn undecided(key: &str) -> Adjudication {
    Adjudication { rule: key.to_string(), result: Adjudication::UNDECIDED.to_string(), values: Vec::new() }
}

/// A study that decides capped games by the tables, some of whose tables are not built here: a bad
/// request, since the run would play its games and then fail at judging them.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct MissingTables(pub String);

/// Refuses a study that adjudicates by the tables where a table one of its variants needs is not
/// built here, naming the commands that build them.
pub fn require_tables(study: &LoadedStudy) -> Result<(), MissingTables> {
    if !study.study.adjudication.as_ref().is_some_and(by_table) {
        return Ok(());
    }
    // One table may serve several variants (either side first): each is named once.
    let mut paths = Vec::new();
    let mut missing: Vec<String> = Vec::new();
    for hunt in study.games.iter().filter_map(hunt_of) {
        if let CachedTable::Missing(path) = cached_table(hunt)
            && !paths.contains(&path)
        {
            missing.push(format!("`rebel-zero solve {}`", hunt.spec()));
            paths.push(path);
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    Err(MissingTables(format!(
        "study {} decides its capped games by the tables ([adjudication] judge = \"perfect\"), and {} not built in this cache ({}); build {} first",
        study.study.name,
        if missing.len() == 1 { "one is" } else { "some are" },
        crate::files::cache_dir().join("tablebases").display(),
        missing.join(", ")
    )))
}

/// Whether `record` is a capped game that `key` has not judged yet.
fn needs_judging(record: &GameRecord, key: &str) -> bool {
    record.winner.is_none()
        && record.reason == CAP_REASON
        && record.adjudged.as_ref().is_none_or(|a| a.rule != key)
}

/// Judges one capped game: the judge values its positions from the last one back until the rule
/// reads it (or the opening is reached). It searches them under the same rules with the cap lifted,
/// since a search that sees the cap a few plies ahead values every position near it as the cap's draw.
pub fn judge_game(
    game: &AnyGame,
    record: &GameRecord,
    rule: &AdjudicationSettings,
    key: &str,
) -> anyhow::Result<Adjudication> {
    let uncapped = uncapped(game)?;
    with_game!(&uncapped, |g| judge_in(g, record, rule, key))
}

/// Plies added to a ruleset's cap for the judge: far beyond any search's horizon.
const LIFTED_PLIES: u32 = 10_000;

/// `game` with its ply cap lifted by [`LIFTED_PLIES`].
fn uncapped(game: &AnyGame) -> anyhow::Result<AnyGame> {
    let (text, cap) = with_game!(game, |g| (g.spec().to_string(), g.facts().max_plies));
    let mut spec = crate::game::Spec::parse(&text)?;
    spec.options.retain(|(key, _)| key != "max_plies");
    spec.options.push(("max_plies".to_string(), cap.saturating_add(LIFTED_PLIES).to_string()));
    AnyGame::from_spec(&spec.to_string())
        .map_err(|e| anyhow::anyhow!("lifting the ply cap of `{text}` for the adjudication judge: {e}"))
}

fn judge_in<G: Family>(
    game: &G,
    record: &GameRecord,
    rule: &AdjudicationSettings,
    key: &str,
) -> anyhow::Result<Adjudication> {
    let spec = AgentSpec::parse(&rule.judge)?;
    let mut judge = spec.build(game, derive_seed(record.seed, 0xad7))?;
    let mut line = record.replay(game).map_err(|e| anyhow::anyhow!("game {}: {e}", record.game))?;
    let names = game.side_names();
    let mut values = Vec::new(); // the last position first
    let reading = loop {
        judge.choose(&line);
        let Some(value) = judge.last_value() else {
            anyhow::bail!(
                "the adjudication judge `{}` gives no value (it must be a searching agent)",
                rule.judge
            );
        };
        let mover = game.to_move(line.state());
        values.push(if mover == Side::ZERO { f64::from(value) } else { -f64::from(value) });
        match read(&values, rule) {
            Reading::NeedMore if line.plies() > record.opening && line.undo() => continue,
            Reading::NeedMore => break Reading::Undecided,
            reading => break reading,
        }
    };
    let result = match reading {
        Reading::Win(side) => names[side].to_string(),
        Reading::Draw => Adjudication::DRAW.to_string(),
        Reading::Undecided | Reading::NeedMore => Adjudication::UNDECIDED.to_string(),
    };
    Ok(Adjudication {
        rule: key.to_string(),
        result,
        values: values.iter().rev().map(|&v| v as f32).collect(),
    })
}

/// Judges every capped game of `cells` that the study's rule has not judged, on `threads` threads,
/// and updates the games' stats; returns the indices of the cells it judged games of (none where the
/// study names no judge).
pub fn adjudicate(
    study: &LoadedStudy,
    cells: &mut [CellResult],
    threads: usize,
) -> anyhow::Result<Vec<usize>> {
    let Some(rule) = &study.study.adjudication else { return unjudge(study, cells) };
    let keys = keys(study, rule)?;
    let wanted: Vec<(usize, usize)> = cells
        .iter()
        .enumerate()
        .flat_map(|(c, cell)| {
            let key = &keys[cell.cell.variant];
            cell.records.iter().enumerate().filter(|(_, r)| needs_judging(r, key)).map(move |(g, _)| (c, g))
        })
        .collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    // Each variant's rules with the cap lifted, built once for all its games (a table ignores the cap).
    let table = by_table(rule);
    let lifted: Vec<AnyGame> = match table {
        true => study.games.clone(),
        false => study.games.iter().map(uncapped).collect::<anyhow::Result<_>>()?,
    };
    let next = AtomicUsize::new(0);
    let judged = Mutex::new(Vec::with_capacity(wanted.len()));
    let cells_read: &[CellResult] = cells;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(wanted.len()) {
            scope.spawn(|| {
                while let Some(&(c, g)) = wanted.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let cell = &cells_read[c];
                    let variant = cell.cell.variant;
                    let record = &cell.records[g];
                    let verdict = match table {
                        true => judge_by_table(&lifted[variant], record, &keys[variant]),
                        false => {
                            with_game!(&lifted[variant], |game| judge_in(game, record, rule, &keys[variant]))
                        }
                    };
                    judged.lock().expect("no judging thread panics").push((c, g, verdict));
                }
            });
        }
    });
    for (c, g, verdict) in judged.into_inner().expect("no judging thread panics") {
        let cell = &mut cells[c];
        cell.records[g].adjudged = Some(verdict?);
        cell.stats[g] = game_stats(&study.games[cell.cell.variant], &cell.records[g])?;
    }
    let mut changed: Vec<usize> = wanted.iter().map(|&(c, _)| c).collect();
    changed.dedup();
    Ok(changed)
}

/// The rule's key on each of the study's variants.
fn keys(study: &LoadedStudy, rule: &AdjudicationSettings) -> anyhow::Result<Vec<String>> {
    study.games.iter().map(|game| rule_key(rule, game)).collect()
}

/// A study that names no judge reads its capped games as unfinished: verdicts a record carries from
/// an earlier rule are dropped. Returns the cells it changed.
fn unjudge(study: &LoadedStudy, cells: &mut [CellResult]) -> anyhow::Result<Vec<usize>> {
    let mut changed = Vec::new();
    for (at, cell) in cells.iter_mut().enumerate() {
        for g in 0..cell.records.len() {
            if cell.records[g].adjudged.take().is_some() {
                cell.stats[g] = game_stats(&study.games[cell.cell.variant], &cell.records[g])?;
                if changed.last() != Some(&at) {
                    changed.push(at);
                }
            }
        }
    }
    Ok(changed)
}

/// What `balance --check` finds of a record's verdicts against the study's rule: each cell with
/// capped games the rule has not judged, or with verdicts where the study names no judge.
pub fn unjudged(study: &LoadedStudy, records: &[GameRecord]) -> anyhow::Result<Vec<String>> {
    let keys = match &study.study.adjudication {
        Some(rule) => Some(keys(study, rule)?),
        None => None,
    };
    let mut by_cell: std::collections::BTreeMap<&str, usize> = Default::default();
    for record in records {
        let cell = record.cell.as_deref().unwrap_or_default();
        let wrong = match &keys {
            Some(keys) => variant_of(study, cell).is_some_and(|v| needs_judging(record, &keys[v])),
            None => record.adjudged.is_some(),
        };
        if wrong {
            *by_cell.entry(cell).or_default() += 1;
        }
    }
    let why = if keys.is_some() {
        "games stopped at the ply cap that the study's [adjudication] rule has not judged"
    } else {
        "adjudicated games, but the study names no [adjudication] rule"
    };
    Ok(by_cell
        .into_iter()
        .map(|(cell, n)| {
            format!(
                "{cell}: {n} {why} (`rebel-zero balance --reread` on the study's folder judges them again)"
            )
        })
        .collect())
}

/// The variant a cell id's games are played on: `variant@skill`, or the cross-play's (`ratings@a-vs-b`).
fn variant_of(study: &LoadedStudy, cell: &str) -> Option<usize> {
    match cell.split_once('@') {
        Some(("ratings", _)) => study.study.ratings.as_ref().and_then(|r| study.variant_index(&r.variant)),
        Some((variant, _)) => study.variant_index(variant),
        None => None,
    }
}

/// The rule a study adjudicates by, in words for its report.
pub fn describe(rule: &AdjudicationSettings) -> String {
    if by_table(rule) {
        return "decided by the tablebase of each variant's rules: the exact value of the game's last position (a forced win for a side is its win, a draw with best play a draw), the strongest evidence there is; a variant no table solves keeps them unfinished".to_string();
    }
    let centipawns = |v: f64| crate::agents::alphabeta::centipawns_of(v as f32);
    format!(
        "judged by `{}` from their last position back: a win where its value for one side stayed at or \
         beyond {:.4} ({} centipawns on the alpha-beta engine's scale) over the last {} plies, a draw where it \
         stayed within ±{:.4} ({} centipawns) over the last {}, else unfinished (fishtest's adjudication: 600 \
         centipawns over 3 moves of each side, 20 over 8)",
        rule.judge,
        rule.win_value,
        centipawns(rule.win_value),
        rule.win_plies,
        rule.draw_value,
        centipawns(rule.draw_value),
        rule.draw_plies
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule() -> AdjudicationSettings {
        AdjudicationSettings {
            judge: "ab:depth=2".into(),
            win_value: 0.9,
            win_plies: 3,
            draw_value: 0.1,
            draw_plies: 4,
        }
    }

    /// A margin decides only once it has lasted its plies, and the other way round once no margin can
    /// hold: each reading can come out otherwise.
    #[test]
    fn a_margin_decides_once_it_has_lasted_its_plies() {
        let rule = rule();
        assert_eq!(read(&[0.95], &rule), Reading::NeedMore);
        assert_eq!(read(&[0.95, 0.97, 0.91], &rule), Reading::Win(0));
        assert_eq!(read(&[-0.95, -0.97, -0.91], &rule), Reading::Win(1));
        // One value short of the margin undoes a win.
        assert_eq!(read(&[0.95, 0.97, 0.89], &rule), Reading::Undecided);
        // A lead that changes hands is no win for either side.
        assert_eq!(read(&[0.95, -0.97], &rule), Reading::Undecided);
        assert_eq!(read(&[0.0, 0.01, -0.02], &rule), Reading::NeedMore);
        assert_eq!(read(&[0.0, 0.01, -0.02, 0.1], &rule), Reading::Draw);
        assert_eq!(read(&[0.0, 0.01, -0.02, 0.11], &rule), Reading::Undecided);
        // Between the margins nothing can hold.
        assert_eq!(read(&[0.5], &rule), Reading::Undecided);
    }

    fn capped(spec: &str, fen: &str, moves: &[&str]) -> (AnyGame, GameRecord) {
        let game = AnyGame::from_spec(spec).unwrap();
        let record = GameRecord {
            cell: None,
            game: 0,
            spec: spec.to_string(),
            seed: 7,
            start: fen.to_string(),
            agents: Default::default(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            opening: 0,
            winner: None,
            reason: CAP_REASON.to_string(),
            plies: moves.len() as u32,
            rules_file: None,
            adjudged: None,
        };
        (game, record)
    }

    /// A capped hunt game is the table's: a win for whichever side the last position's value favours
    /// (the side to move or the other), a draw where best play draws, and unfinished outside the table.
    #[test]
    fn the_tablebase_decides_a_capped_hunt_game_by_its_last_position() {
        use crate::game::hunt::{GENERAL, REBELS};
        use crate::tablebase::testing::{position_with_a_choice, six_rebels, slots_of_six};
        let table = six_rebels();
        let game = table.game().clone();
        let record_at = |state: &crate::game::hunt::HuntState| {
            let (_, mut record) = capped("sixteen-rebels", "", &[]);
            record.start = game.format_position(state);
            record
        };
        let verdict = |state| table_verdict(&table, &game, &record_at(state), "k").unwrap();
        let general_wins = position_with_a_choice(&table, GENERAL);
        let rebels_win = position_with_a_choice(&table, REBELS);
        assert_eq!(verdict(&general_wins).result, "general");
        assert_eq!(verdict(&rebels_win).result, "rebels");
        assert_eq!(verdict(&rebels_win).values, vec![-1.0], "the value is the first side's");
        // The General to move and lost: the win is the other side's.
        let general_lost = slots_of_six(GENERAL)
            .find(|s| matches!(table.probe(s), Some(Verdict::Loss { plies }) if plies > 1))
            .expect("a lost General");
        assert_eq!(verdict(&general_lost).result, "rebels");
        let drawn = slots_of_six(REBELS).find(|s| table.probe(s) == Some(Verdict::Draw)).expect("a draw");
        assert_eq!(verdict(&drawn).result, Adjudication::DRAW);
        // Sixteen Rebels lie outside a table of six: the game stays unfinished.
        let start = game.start();
        let outside = verdict(&start);
        assert_eq!((outside.result.as_str(), outside.values.len()), (Adjudication::UNDECIDED, 0));
        assert_eq!(outside.rule, "k");
    }

    /// A capped game with White a queen up is White's win; one of kings shuffling behind blocked pawns is a draw;
    /// the stats read the judge's result, and a game the rule did not decide stays unfinished.
    #[test]
    fn a_capped_game_is_read_as_the_judge_decides() {
        let rule = rule();
        let queen_up = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let (game, record) = capped("chess:max_plies=4", queen_up, &["d1d2", "e8f8", "d2d3", "f8e8"]);
        let key = rule_key(&rule, &game).unwrap();
        let verdict = judge_game(&game, &record, &rule, &key).unwrap();
        assert_eq!(verdict.result, "white", "{verdict:?}");
        assert_eq!(verdict.values.len(), 3, "three plies of a margin decide: {verdict:?}");
        let judged = GameRecord { adjudged: Some(verdict), ..record.clone() };
        let stats = game_stats(&game, &judged).unwrap();
        assert_eq!((stats.winner, stats.adjudicated(), stats.unfinished()), (Some(0), true, false));
        // Unjudged, the same game is unfinished.
        let stats = game_stats(&game, &record).unwrap();
        assert_eq!((stats.winner, stats.adjudicated(), stats.unfinished()), (None, false, true));

        // Blocked pawns, kings shuffling: near 0, but the draw margin needs 4 plies and the game has 2.
        let blocked = "4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1";
        let (game, short) = capped("chess:max_plies=2", blocked, &["e1d1", "e8d8"]);
        let verdict = judge_game(&game, &short, &rule, &key).unwrap();
        assert_eq!(verdict.result, Adjudication::UNDECIDED, "{verdict:?}");
        let (game, long) =
            capped("chess:max_plies=6", blocked, &["e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8"]);
        let verdict = judge_game(&game, &long, &rule, &key).unwrap();
        assert_eq!(verdict.result, Adjudication::DRAW, "{verdict:?}");
    }
}
