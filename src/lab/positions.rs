//! Claims' measures read from the tables over positions rather than from the start alone, each kept in
//! the record ([`TableFigure`]) so that the study reads again and checks without the tables:
//!
//! - a mean length of the games side W wins, compared between two variants of one board (C8b, the apex
//!   escape): the distance of W's forced wins under each table, over every position W wins under
//!   both, and over the positions the study's games reach that W wins under both;
//! - what a rule gives a side beyond speed (C8c): the share of W's wins under one table that are not
//!   wins under the other, over the same two sets of positions;
//! - the share of games side W wins among those where the Rebels fall to at most k (C7): over the
//!   games that fall so low, whether W still wins with best play from the first position with at most
//!   k Rebels (the cap counted);
//! - a side's margin for error (C5, "almost automatically"): the share of its legal moves that keep
//!   its forced win, averaged over the distinct positions the games reach where it is to move and has
//!   one; beside it, in words only, each rung's, best play's from the start, and how often a player
//!   choosing at random on that side still wins against best play.
//!
//! A figure whose direction the rules fix whatever the positions (the apex adds a winning move and
//! takes none away) says so in `fixed`, and its reading is not informative in that direction.

use std::collections::HashSet;
use std::sync::Arc;

use super::solve::table_of;
use super::store::{CellResult, TableFigure};
use super::study::{ClaimTest, GameFilter, LoadedStudy, Measure, Metric, Quantity, Winner};
use crate::game::hunt::HuntGame;
use crate::game::{Game, Playthrough, Side};
use crate::tablebase::{Margin, PairedWins, Tablebase, shared_table};

/// Every figure the study's claims read, from the tables present (none where a table is missing).
pub fn table_figures(study: &LoadedStudy, cells: &[CellResult]) -> anyhow::Result<Vec<TableFigure>> {
    let mut figures = Vec::new();
    // Two claims on one pair of tables (C8b, C8c) read one scan of them.
    let mut scans: Memo<([usize; 2], usize), Paired> = Memo::new();
    let mut margins: Memo<(usize, usize), VariantMargins> = Memo::new();
    for claim in &study.study.claims {
        match &claim.test {
            ClaimTest::Compare { a, b, .. } if margin_side(a).is_some() && margin_side(b).is_some() => {
                figures.extend(margin_figures(study, cells, &mut margins, &claim.id, &[a, b])?);
            }
            ClaimTest::Threshold { measure, .. } if margin_side(measure).is_some() => {
                figures.extend(margin_figures(study, cells, &mut margins, &claim.id, &[measure])?);
            }
            ClaimTest::Compare { a, b, .. } => {
                if let (Some(w), Some(_)) = (won_plies(a), won_plies(b)) {
                    let variants = [a, b].map(|m| m.resolved().variant);
                    if let Some(paired) =
                        scans.get((variants, w), || Paired::read(study, cells, variants, w))?
                    {
                        figures.extend(distance_figures(paired, &claim.id, [a, b], w));
                    }
                }
            }
            ClaimTest::WinsGained { a, b, side, .. } => {
                let (Some(va), Some(vb)) = (study.variant_index(a), study.variant_index(b)) else { continue };
                let Some(w) = study.side_index(va, side) else { continue };
                if let Some(paired) = scans.get(([va, vb], w), || Paired::read(study, cells, [va, vb], w))? {
                    figures.extend(gained_figures(paired, &claim.id, [a, b], side));
                }
            }
            ClaimTest::Threshold { measure, .. } => {
                if let Some((k, w)) = rate_when_down_to(measure) {
                    figures.extend(down_to_figure(study, cells, &claim.id, measure, k, w)?);
                }
            }
            _ => {}
        }
    }
    Ok(figures)
}

/// Values read once per key, in the order first asked: the pairs of tables scanned (by variants and
/// winning side), or the margins read (by variant and side), so that two claims on the same tables
/// (C8b and C8c, C5 and C5b) read them once. A study asks few keys, so a list serves.
struct Memo<K, V>(Vec<(K, Option<V>)>);

impl<K: PartialEq, V> Memo<K, V> {
    fn new() -> Self {
        Memo(Vec::new())
    }

    /// The value of `key`, read by `read` the first time it is asked (`None`: no table to read it).
    fn get(
        &mut self,
        key: K,
        read: impl FnOnce() -> anyhow::Result<Option<V>>,
    ) -> anyhow::Result<Option<&V>> {
        let at = match self.0.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.0.push((key, read()?));
                self.0.len() - 1
            }
        };
        Ok(self.0[at].1.as_ref())
    }

    /// The value of `key` if it was read.
    fn read(&self, key: &K) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key)?.1.as_ref()
    }
}

/// The winning side of a "mean length of the games W wins" measure.
fn won_plies(m: &Measure) -> Option<usize> {
    let r = m.resolved();
    let g = r.given.as_ref()?;
    let only_winner = g.side.is_none()
        && g.lost_at_least.is_none()
        && g.lost_in_play_at_least.is_none()
        && g.left_at_most.is_none();
    match (&r.quantity, g.winner) {
        (Quantity::Mean(Metric::Plies), Some(Winner::Side(w))) if only_winner => Some(w),
        _ => None,
    }
}

/// `(k, W)` of a "share of games W wins among those where the Rebels fall to at most k" measure.
fn rate_when_down_to(m: &Measure) -> Option<(u32, usize)> {
    let r = m.resolved();
    let (Quantity::Rate(event), Some(g)) = (&r.quantity, r.given.as_ref()) else { return None };
    let only_left = *g == GameFilter { side: Some(1), left_at_most: g.left_at_most, ..GameFilter::default() };
    match (event.winner, g.left_at_most) {
        (Some(Winner::Side(w)), Some(k)) if only_left && event_is_winner_only(event) => Some((k, w)),
        _ => None,
    }
}

fn event_is_winner_only(e: &GameFilter) -> bool {
    *e == GameFilter { winner: e.winner, ..GameFilter::default() }
}

/// The table of a variant, read (shared with every other reader of the file).
fn table_for(study: &LoadedStudy, variant: usize) -> anyhow::Result<Option<(HuntGame, Arc<Tablebase>)>> {
    let Some((game, path)) = table_of(&study.games[variant]) else { return Ok(None) };
    Ok(Some((game.clone(), shared_table(game, &path)?)))
}

/// The games of a variant on every rung (each rung's own cell), replayed under its rules (the line
/// holds the positions in order). A game that does not replay is an error, not a game left out.
fn positions_of(
    cells: &[CellResult],
    variant: usize,
    game: &HuntGame,
) -> anyhow::Result<Vec<(usize, Playthrough<HuntGame>)>> {
    cells
        .iter()
        .filter(|c| c.cell.opponent.is_none() && c.cell.variant == variant)
        .flat_map(|c| c.records.iter().map(move |r| (c, r)))
        .map(|(c, r)| {
            let line = r
                .replay(game)
                .map_err(|e| anyhow::anyhow!("game {} of cell {} does not replay: {e}", r.game, c.cell.id))?;
            Ok((c.cell.skill, line))
        })
        .collect()
}

/// Side W's wins under the tables of two variants of one board: over every position both hold, and
/// over the distinct positions the games of both variants reach.
struct Paired {
    games: [HuntGame; 2],
    every: PairedWins,
    reached: PairedWins,
    distinct: usize,
}

impl Paired {
    fn read(
        study: &LoadedStudy,
        cells: &[CellResult],
        [a, b]: [usize; 2],
        w: usize,
    ) -> anyhow::Result<Option<Paired>> {
        let (Some((game_a, table_a)), Some((game_b, table_b))) = (table_for(study, a)?, table_for(study, b)?)
        else {
            return Ok(None);
        };
        let side = Side::BOTH[w];
        let Some(every) = table_a.paired_wins(&table_b, side) else { return Ok(None) };
        let mut seen: HashSet<(u8, u64, usize)> = HashSet::new();
        let mut reached = PairedWins::default();
        // Each variant's games replay under its own rules (the General may stand on the apex without it).
        for (variant, game) in [(a, &game_a), (b, &game_b)] {
            for (_, line) in positions_of(cells, variant, game)? {
                for s in line.states().iter().filter(|s| s.result.is_none()) {
                    if !seen.insert((s.general, s.rebels, s.to_move.index())) {
                        continue;
                    }
                    if let (Some(va), Some(vb)) = (table_a.probe(s), table_b.probe(s)) {
                        reached = reached.count(side, s.to_move, va, vb);
                    }
                }
            }
        }
        Ok(Some(Paired { games: [game_a, game_b], every, reached, distinct: seen.len() }))
    }

    /// The two sets of positions, named.
    fn sets(&self) -> [(String, &PairedWins); 2] {
        [
            ("every position".to_string(), &self.every),
            (
                format!(
                    "the {} distinct positions the games reach (every rung, both variants)",
                    self.distinct
                ),
                &self.reached,
            ),
        ]
    }
}

/// How W's wins under `a` and `b` divide, in words.
fn wins_text(wins: &PairedWins, w: &str, [a, b]: [&str; 2]) -> String {
    let means = wins.means().map_or(String::new(), |(ma, mb)| {
        format!(": in {ma:.2} plies on average with `{a}`, {mb:.2} with `{b}` (sooner with `{a}` at {}, later at {})", wins.sooner_a, wins.later_a)
    });
    format!(
        "of {} positions both tables hold, the {w} win {} under both rules{means}; {} only with `{a}`, {} only with `{b}`",
        wins.positions, wins.both, wins.only_a, wins.only_b
    )
}

/// The distance of W's wins under both tables: over every position, and over the games' positions.
fn distance_figures(paired: &Paired, claim: &str, [a, b]: [&Measure; 2], w: usize) -> Vec<TableFigure> {
    let fixed = fixed_by_the_apex(&paired.games[0], &paired.games[1], w);
    let names = [a.variant.as_str(), b.variant.as_str()];
    let who = paired.games[0].side_names()[w];
    paired
        .sets()
        .into_iter()
        .filter_map(|(over, wins)| {
            let (mean_a, mean_b) = wins.means()?;
            let text = wins_text(wins, who, names);
            Some(TableFigure {
                claim: claim.to_string(),
                over,
                values: vec![mean_a, mean_b],
                text,
                fixed: fixed.clone(),
            })
        })
        .collect()
}

/// The share of W's wins under `a` that are not wins under `b`: over every position, and over the
/// games' positions.
fn gained_figures(paired: &Paired, claim: &str, [a, b]: [&str; 2], side: &str) -> Vec<TableFigure> {
    paired
        .sets()
        .into_iter()
        .filter(|(_, wins)| wins.both + wins.only_a > 0)
        .map(|(over, wins)| {
            let share = wins.only_a as f64 / (wins.both + wins.only_a) as f64;
            let text = format!(
                "{}: {:.2}% of the wins of the {side} with `{a}` are not wins with `{b}`",
                wins_text(wins, side, [a, b]),
                100.0 * share
            );
            TableFigure { claim: claim.to_string(), over, values: vec![share], text, fixed: None }
        })
        .collect()
}

/// Why the rules fix that W's wins are no longer under `a` than under `b`, if they do: `a` is `b` with
/// the apex escape, which gives the General one more move that wins at once and takes nothing away.
fn fixed_by_the_apex(a: &HuntGame, b: &HuntGame, w: usize) -> Option<String> {
    let mut without = a.rules;
    without.apex_wins = b.rules.apex_wins;
    let only_the_apex = a.rules.apex_wins && !b.rules.apex_wins && without == b.rules && w == 0;
    only_the_apex.then(|| {
        "with the apex the General has every move he has without it and one more that wins at once, so none of his \
         wins can take longer: that his wins are shorter on average with it follows from the rules"
            .to_string()
    })
}

/// Among the games of every rung in which the Rebels fall to at most k, the share W still wins with
/// best play from the first position with at most k Rebels.
fn down_to_figure(
    study: &LoadedStudy,
    cells: &[CellResult],
    claim: &str,
    m: &Measure,
    k: u32,
    w: usize,
) -> anyhow::Result<Option<TableFigure>> {
    let Some((game, table)) = table_for(study, m.resolved().variant)? else { return Ok(None) };
    let names = game.side_names();
    let mut per_rung = vec![(0u32, 0u32); study.labels.len()];
    for (skill, line) in positions_of(cells, m.resolved().variant, &game)? {
        let first = line.states().iter().enumerate().find(|(_, s)| s.rebels.count_ones() <= k);
        let Some((ply, s)) = first.filter(|(_, s)| s.result.is_none()) else { continue };
        let Some(value) = table.probe(s) else { continue };
        let left = game.max_plies().saturating_sub(ply as u32);
        let wins = matches!(
            value.within(left).for_side(s.to_move, Side::BOTH[w]),
            crate::tablebase::Verdict::Win { .. }
        );
        per_rung[skill].0 += 1;
        per_rung[skill].1 += u32::from(wins);
    }
    let (games, won) = per_rung.iter().fold((0, 0), |t, r| (t.0 + r.0, t.1 + r.1));
    if games == 0 {
        return Ok(None);
    }
    let share = f64::from(won) / f64::from(games);
    let rungs: Vec<String> = per_rung
        .iter()
        .zip(&study.labels)
        .filter(|(r, _)| r.0 > 0)
        .map(|(r, label)| format!("{label} {} of {}", r.1, r.0))
        .collect();
    let text = format!(
        "in the {games} games (every rung) in which the {} fall to at most {k}, the {} still win with best play from there in {won} ({:.1}%: {})",
        names[1],
        names[w],
        100.0 * share,
        rungs.join(", ")
    );
    let over = format!("the positions the games reach with at most {k} {}", names[1]);
    Ok(Some(TableFigure { claim: claim.to_string(), over, values: vec![share], text, fixed: None }))
}

/// The side of a margin-for-error measure.
fn margin_side(m: &Measure) -> Option<usize> {
    let r = m.resolved();
    match (&r.quantity, &r.given) {
        (Quantity::Mean(Metric::Margin(side)), None) => Some(*side),
        _ => None,
    }
}

/// `83.0% over 1234 positions (least 5.0%)`, or that there is none.
fn margin_text(m: &Margin) -> String {
    match m.positions {
        0 => "no such position".to_string(),
        n => format!("{:.1}% over {n} positions (least {:.1}%)", 100.0 * m.mean, 100.0 * m.least),
    }
}

/// The share of `side`'s moves at `s` that keep its forced win, where it is to move and has one.
fn winning_share(table: &Tablebase, s: &crate::game::hunt::HuntState, side: Side) -> Option<f64> {
    if s.to_move != side || s.result.is_some() {
        return None;
    }
    let keeping = table.keeping(s)?;
    matches!(keeping.verdict, crate::tablebase::Verdict::Win { .. }).then(|| keeping.share())
}

/// One variant's margins: over the distinct positions each rung's games reach, over those of every
/// rung together, and along best play from the start.
struct VariantMargins {
    per_rung: Vec<Margin>,
    reached: Margin,
    best_play: Margin,
    /// Of [`RANDOM_GAMES`] games from the start, those a random player on the side wins against best
    /// play.
    random_wins: u32,
}

/// Games a random player plays against best play, per variant, for its chance of winning anyway.
const RANDOM_GAMES: u32 = 200;

/// How many of [`RANDOM_GAMES`] games from the start a player choosing uniformly among its legal
/// moves wins as `side` against best play by `table` for the other side (the first of its best moves,
/// the game's cap and repetition counted): the chance a player without thought still wins. Game `n`
/// draws from its own stream of `seed`.
fn random_against_best(game: &HuntGame, table: &Tablebase, side: Side, seed: u64) -> u32 {
    use rand::{RngExt, SeedableRng};
    let mut won = 0;
    for n in 0..RANDOM_GAMES {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(crate::seed::derive_seed(seed, u64::from(n)));
        let mut line = Playthrough::new(game.clone());
        while !line.is_over() {
            let mv = if line.state().to_move == side {
                let moves = line.legal_moves();
                moves[rng.random_range(0..moves.len())]
            } else {
                crate::tablebase::best_moves(&crate::tablebase::ranked_moves(table, &line))[0]
            };
            line.play(mv);
        }
        won += u32::from(line.outcome().is_some_and(|o| o.winner == Some(side)));
    }
    won
}

fn variant_margins(
    study: &LoadedStudy,
    cells: &[CellResult],
    variant: usize,
    side: Side,
) -> anyhow::Result<Option<VariantMargins>> {
    let Some((game, table)) = table_for(study, variant)? else { return Ok(None) };
    let mut per_rung: Vec<Vec<f64>> = vec![Vec::new(); study.labels.len()];
    let mut reached = Vec::new();
    let mut seen_by_rung: Vec<HashSet<(u8, u64)>> = vec![HashSet::new(); study.labels.len()];
    let mut seen: HashSet<(u8, u64)> = HashSet::new();
    for (skill, line) in positions_of(cells, variant, &game)? {
        for s in line.states().iter().filter(|s| s.to_move == side && s.result.is_none()) {
            // Each distinct position once per rung and once overall; the table is asked only then.
            let key = (s.general, s.rebels);
            let (new_in_rung, new_overall) = (seen_by_rung[skill].insert(key), seen.insert(key));
            if !new_in_rung && !new_overall {
                continue;
            }
            let Some(share) = winning_share(&table, s, side) else { continue };
            if new_in_rung {
                per_rung[skill].push(share);
            }
            if new_overall {
                reached.push(share);
            }
        }
    }
    let start = Playthrough::new(game.clone());
    let best_play = table
        .best_line(start.state(), game.max_plies() as usize)
        .iter()
        .filter_map(|s| winning_share(&table, s, side))
        .collect::<Vec<f64>>();
    let seed = crate::seed::derive_seed(
        study.study.seed,
        crate::seed::fnv1a(&format!("random-against-best:{}", study.study.variants[variant].name)),
    );
    let random_wins = random_against_best(&game, &table, side, seed);
    Ok(Some(VariantMargins {
        per_rung: per_rung.into_iter().map(Margin::of).collect(),
        reached: Margin::of(reached),
        best_play: Margin::of(best_play),
        random_wins,
    }))
}

/// The margin figure of a claim whose measures are all margins for error (one variant, or two to
/// compare): over the distinct positions the games reach, each rung's and best play's beside it in its
/// text, so that only the reading the claim states decides. Its values are empty where a variant's
/// games reach no position the side wins (the mean is not defined); none where a table is missing.
fn margin_figures(
    study: &LoadedStudy,
    cells: &[CellResult],
    scans: &mut Memo<(usize, usize), VariantMargins>,
    claim: &str,
    measures: &[&Measure],
) -> anyhow::Result<Option<TableFigure>> {
    let keys: Vec<(usize, usize)> =
        measures.iter().map(|m| (m.resolved().variant, margin_side(m).expect("a margin measure"))).collect();
    for &(variant, side) in &keys {
        if scans.get((variant, side), || variant_margins(study, cells, variant, Side::BOTH[side]))?.is_none()
        {
            return Ok(None);
        }
    }
    let margins: Vec<(&Measure, usize, &VariantMargins)> =
        measures.iter().zip(&keys).filter_map(|(m, key)| Some((*m, key.1, scans.read(key)?))).collect();
    let describe = |found: &VariantMargins| -> String {
        let rungs: Vec<String> = found
            .per_rung
            .iter()
            .zip(&study.labels)
            .filter(|(r, _)| r.positions > 0)
            .map(|(r, label)| format!("{label} {}", margin_text(r)))
            .collect();
        let random =
            super::stats::wilson(f64::from(found.random_wins), f64::from(RANDOM_GAMES), super::stats::Z95);
        format!(
            "{} ({}); along best play from the start {}; a player choosing at random among these moves wins {} of {RANDOM_GAMES} games from the start against best play ({})",
            margin_text(&found.reached),
            rungs.join(", "),
            margin_text(&found.best_play),
            found.random_wins,
            super::claims::show(random)
        )
    };
    let each: Vec<String> = margins
        .iter()
        .map(|(m, side, found)| {
            let who = study.side_names(m.resolved().variant)[*side];
            format!("the {who} in `{}`: {}", m.variant, describe(found))
        })
        .collect();
    let defined = margins.iter().all(|(_, _, found)| found.reached.positions > 0);
    Ok(Some(TableFigure {
        claim: claim.to_string(),
        over: "the distinct positions the games reach (every rung)".to_string(),
        values: if defined {
            margins.iter().map(|(_, _, found)| found.reached.mean).collect()
        } else {
            Vec::new()
        },
        text: format!(
            "share of the side's legal moves that keep its forced win, mean over the positions where it is to move and has one: {}",
            each.join("; ")
        ),
        fixed: None,
    }))
}
