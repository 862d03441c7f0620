//! Judging played games against best play: after every move, what the mover could have forced and
//! what the move left him, so that each side's mistakes (a win let go, a draw lost) can be counted.

use std::path::Path;

use anyhow::{Context, bail};

use super::{Tablebase, Verdict, rules_key, shares_table};
use crate::game::hunt::HuntGame;
use crate::game::record::NumberedRecord;
use crate::game::{AnyGame, Game, GameRecord, Playthrough, Reason, Side, read_records};

/// What best play gives, ordered from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prospect {
    Loss,
    Draw,
    Win,
}

impl Prospect {
    /// The prospect of a verdict once the draw cap is counted.
    pub fn of(verdict: Verdict, plies_left: u32) -> Prospect {
        match verdict.within(plies_left) {
            Verdict::Win { .. } => Prospect::Win,
            Verdict::Loss { .. } => Prospect::Loss,
            Verdict::Draw => Prospect::Draw,
        }
    }
}

/// One move of a game, judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgedMove {
    /// The move's number in the game, from 1.
    pub ply: u32,
    pub mover: Side,
    /// What the mover could force before the move, and what he could force after it.
    pub before: Prospect,
    pub after: Prospect,
    /// A mistake only against the draw cap: without the cap the move kept what the mover could force
    /// (a loss was a loss already, a win is still a win), and only the plies the cap leaves made it
    /// give something up. Always false for a move that is no mistake.
    pub against_the_cap: bool,
}

impl JudgedMove {
    /// A move that gave up some of what the mover could force.
    pub fn is_mistake(&self) -> bool {
        self.after < self.before
    }
}

impl Tablebase {
    /// Judges each move of a played game; stops at the first position the table does not hold. A
    /// move that ended the game by repetition or the cap is judged a draw, whatever the position.
    ///
    /// What a side could force is read from the position and the plies left, not from the game's
    /// history: a third occurrence the losing side could have made is not counted as a draw in hand,
    /// so passing it up is no mistake. A winning side is charged with letting its win go only when its
    /// own move makes the third occurrence; when the losing side makes it, no move is marked, and the
    /// lost win shows only as a game it had a win in and did not win.
    pub fn judge_game(&self, line: &Playthrough<HuntGame>) -> Vec<JudgedMove> {
        let max_plies = line.game().max_plies();
        let states = line.states();
        let mut judged = Vec::new();
        for (i, pair) in states.windows(2).enumerate() {
            let (s, next) = (&pair[0], &pair[1]);
            let ply = i as u32 + 1;
            let plies_left = max_plies.saturating_sub(ply - 1);
            let Some(before) = self.probe(s) else { break };
            let last = ply == line.plies();
            // What the move left the mover, with the cap and without it.
            let value_after = || self.probe(next).map(|v| v.for_side(next.to_move, s.to_move));
            let (after, after_uncapped) = match (next.result, line.outcome()) {
                (Some(o), _) if o.winner == Some(s.to_move) => (Prospect::Win, Prospect::Win),
                (Some(o), _) if o.winner.is_some() => (Prospect::Loss, Prospect::Loss),
                // A draw by repetition is one whatever the cap; a draw by the cap keeps, without it,
                // what the position after the move is worth.
                (None, Some(o)) if last && o.winner.is_none() => match (o.reason, value_after()) {
                    (Reason::Cap, Some(v)) => (Prospect::Draw, Prospect::of(v, u32::MAX)),
                    _ => (Prospect::Draw, Prospect::Draw),
                },
                _ => match value_after() {
                    Some(v) => (Prospect::of(v, plies_left - 1), Prospect::of(v, u32::MAX)),
                    None => break,
                },
            };
            let before_capped = Prospect::of(before, plies_left);
            let kept_without_cap = Prospect::of(before, u32::MAX) == after_uncapped;
            judged.push(JudgedMove {
                ply,
                mover: s.to_move,
                before: before_capped,
                after,
                against_the_cap: after < before_capped && kept_without_cap,
            });
        }
        judged
    }
}

/// What judging counts for one side over a group of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTally {
    /// Moves made with a forced win in hand.
    pub winning_moves: u32,
    pub wins_let_go: u32,
    pub draws_lost: u32,
    /// Of `wins_let_go` and `draws_lost`, the mistakes only against the draw cap.
    pub wins_let_go_against_the_cap: u32,
    pub draws_lost_against_the_cap: u32,
    /// Games in which the side had a forced win at some point, and how many of those it won.
    pub games_with_a_win: u32,
    pub won_of_those: u32,
}

/// A group of games (a study cell, or a pairing of agents) judged together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupTally {
    pub group: String,
    pub games: u32,
    /// Per side, by index.
    pub sides: [SideTally; 2],
}

impl Tablebase {
    /// Judges games group by group (groups in order of first appearance); `each` sees every game's
    /// index (its place in `games`) and judged moves as it goes.
    pub fn tally_games<'a>(
        &self,
        games: impl IntoIterator<Item = (&'a str, &'a Playthrough<HuntGame>)>,
        mut each: impl FnMut(usize, &[JudgedMove]),
    ) -> Vec<GroupTally> {
        let mut groups: Vec<GroupTally> = Vec::new();
        for (index, (group, line)) in games.into_iter().enumerate() {
            let at = match groups.iter().position(|g| g.group == group) {
                Some(i) => i,
                None => {
                    groups.push(GroupTally { group: group.to_string(), games: 0, sides: Default::default() });
                    groups.len() - 1
                }
            };
            let tally = &mut groups[at];
            tally.games += 1;
            let judged = self.judge_game(line);
            let mut had_win = [false; 2];
            for j in &judged {
                let t = &mut tally.sides[j.mover.index()];
                t.winning_moves += u32::from(j.before == Prospect::Win);
                had_win[j.mover.index()] |= j.before == Prospect::Win;
                if j.is_mistake() {
                    let cap = u32::from(j.against_the_cap);
                    if j.before == Prospect::Win {
                        t.wins_let_go += 1;
                        t.wins_let_go_against_the_cap += cap;
                    } else {
                        t.draws_lost += 1;
                        t.draws_lost_against_the_cap += cap;
                    }
                }
            }
            for side in Side::BOTH {
                let won = line.outcome().and_then(|o| o.winner) == Some(side);
                let t = &mut tally.sides[side.index()];
                t.games_with_a_win += u32::from(had_win[side.index()]);
                t.won_of_those += u32::from(had_win[side.index()] && won);
            }
            each(index, &judged);
        }
        groups
    }
}

/// A recorded game of the table's rules, replayed, with the group it is counted in.
pub struct RecordedGame {
    pub group: String,
    pub record: GameRecord,
    pub line: Playthrough<HuntGame>,
}

/// The games of a games.jsonl file that `game`'s table holds, replayed, and how many records of other
/// rules were skipped. A line that is not a game record, or whose game does not replay, is an error.
pub fn recorded_games(game: &HuntGame, file: &Path) -> anyhow::Result<(Vec<RecordedGame>, usize)> {
    let (mut games, mut skipped) = (Vec::new(), 0);
    for NumberedRecord { line: number, record } in read_records(file)? {
        let at = || format!("{} line {number}", file.display());
        let recorded = match record.ruleset().with_context(at)? {
            AnyGame::Hunt(g) if shares_table(game, &g) => g,
            _ => {
                skipped += 1;
                continue;
            }
        };
        let line = record.replay(&recorded).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
        games.push(RecordedGame { group: record.group(), record, line });
    }
    if games.is_empty() {
        bail!("{} holds no game of `{}`", file.display(), rules_key(game));
    }
    Ok((games, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(spec: &str, agents: &str, moves: &str, cell: Option<&str>) -> String {
        let start = "G:c3;R:a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5;g";
        let cell = cell.map_or(String::new(), |c| format!(r#","cell":"{c}""#));
        format!(
            r#"{{"game":0,"spec":"{spec}","seed":1,"start":"{start}","agents":{agents},"moves":[{moves}],"winner":null,"reason":"cap","plies":1{cell}}}"#
        )
    }

    #[test]
    fn games_are_labelled_by_cell_or_agents_and_other_rules_are_skipped() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("solve-games");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("games.jsonl");
        let lines = [
            record("sixteen-rebels", r#"{"general":"random","rebels":"perfect"}"#, r#""c3-d4xc5xe3""#, None),
            // A record without agents is named, not a panic.
            record("sixteen-rebels:first=general", "{}", "", Some("cell-a")),
            record("sixteen-rebels", "{}", "", None),
            record("sixteen-rebels:capture=mandatory", "{}", "", None),
            record("murray-rebels", "{}", "", None),
        ];
        std::fs::write(&file, lines.join("\n")).unwrap();
        let (games, skipped) =
            recorded_games(&crate::tablebase::testing::hunt("sixteen-rebels"), &file).unwrap();
        let groups: Vec<&str> = games.iter().map(|g| g.group.as_str()).collect();
        assert_eq!(groups, ["random (general) v perfect (rebels)", "cell-a", "(no agents recorded)"]);
        assert_eq!((skipped, games[0].line.plies()), (2, 1));

        // A record whose rules or moves do not read is an error naming its line.
        for (bad, needle) in [
            (record("seventeen-rebels", "{}", "", None), "line 2"),
            (record("sixteen-rebels", "{}", r#""c3-c5""#, None), "line 2"),
        ] {
            std::fs::write(&file, [lines[0].as_str(), bad.as_str()].join("\n")).unwrap();
            let game = crate::tablebase::testing::hunt("sixteen-rebels");
            let err = format!("{:#}", recorded_games(&game, &file).err().unwrap());
            assert!(err.contains(needle) && err.contains("games.jsonl"), "{err}");
        }
    }
}
