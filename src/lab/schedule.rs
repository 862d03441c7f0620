//! The schedule: one cell per variant × skill level, in which the skill's agent plays itself with
//! seats alternating (`run_match` puts "agent A" on side `i % 2` in game `i`), and, for the ratings,
//! one cell per pair of rungs, in which they meet on the ratings variant. Each move order is a variant
//! of its own (`first=` in the spec), so both orders appear whenever the study lists both.
//!
//! A cell names everything that decides its games: the ruleset and agents by their canonical specs
//! and by fingerprints of their behaviour ([`super::fingerprint`]), the games, seed and opening; a
//! saved cell is reused only when all of it matches.

use serde::{Deserialize, Serialize};

use super::fingerprint;
use super::study::LoadedStudy;
use crate::game::Game;
use crate::seed::derive_seed;
use crate::with_game;

/// One match of the study and everything that determines its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// `variant@skill`, also the name of its result file.
    pub id: String,
    pub variant: usize,
    pub skill: usize,
    /// The canonical ruleset spec and agent spec.
    pub spec: String,
    pub agent: String,
    pub games: u32,
    pub seed: u64,
    /// Random plies opening each game ([`super::study::OpeningSettings`]).
    #[serde(default)]
    pub opening: u32,
    /// For a ratings cell: the other rung (agent B); its agent spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<(usize, String)>,
    /// Fingerprints of the rules' and the agents' behaviour.
    #[serde(default)]
    pub rules_print: String,
    #[serde(default)]
    pub agent_print: String,
}

/// The behaviour fingerprints of every variant's rules and every rung's agent on every variant.
pub struct Prints {
    pub rules: Vec<String>,
    /// `agents[variant][skill]`.
    pub agents: Vec<Vec<String>>,
}

impl Prints {
    pub fn of(study: &LoadedStudy) -> anyhow::Result<Prints> {
        let rules = study.games.iter().map(fingerprint::rules).collect();
        let agents = study
            .games
            .iter()
            .enumerate()
            .map(|(v, game)| {
                (0..study.agents.len())
                    .map(|s| fingerprint::agent(&study.cell_agent(s, v), game))
                    .collect::<anyhow::Result<Vec<_>>>()
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Prints { rules, agents })
    }
}

/// Every cell of the study, variant by variant, weakest skill first, then the ratings cells.
pub fn schedule(study: &LoadedStudy, prints: &Prints) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (v, variant) in study.study.variants.iter().enumerate() {
        let spec = with_game!(&study.games[v], |g| g.spec().to_string());
        for (s, skill) in study.study.skills.iter().enumerate() {
            let id = format!("{}@{}", variant.name, study.labels[s]);
            // The seed depends on the cell's name, not its place: adding a variant changes no other cell.
            let seed = derive_seed(study.study.seed, fnv1a(&id));
            cells.push(Cell {
                id,
                variant: v,
                skill: s,
                spec: spec.clone(),
                agent: study.cell_agent(s, v).to_string(),
                games: skill.games,
                seed,
                opening: study.uniform_plies(v),
                opponent: None,
                rules_print: prints.rules[v].clone(),
                agent_print: prints.agents[v][s].clone(),
            });
        }
    }
    if let Some(ratings) = &study.study.ratings {
        let v = study.variant_index(&ratings.variant).expect("checked");
        let opening = study.uniform_plies(v);
        let spec = with_game!(&study.games[v], |g| g.spec().to_string());
        let rungs = study.labels.len();
        for a in 0..rungs {
            for b in a + 1..rungs {
                let id = format!("ratings@{}-vs-{}", study.labels[a], study.labels[b]);
                let seed = derive_seed(study.study.seed, fnv1a(&id));
                cells.push(Cell {
                    id,
                    variant: v,
                    skill: a,
                    spec: spec.clone(),
                    agent: study.cell_agent(a, v).to_string(),
                    games: ratings.games,
                    seed,
                    opening,
                    opponent: Some((b, study.cell_agent(b, v).to_string())),
                    rules_print: prints.rules[v].clone(),
                    agent_print: format!("{}+{}", prints.agents[v][a], prints.agents[v][b]),
                });
            }
        }
    }
    cells
}

/// FNV-1a, a stable 64-bit hash of a name.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::study::Study;

    #[test]
    fn one_cell_per_variant_and_skill_with_seeds_that_follow_the_name() {
        let text = r#"
name = "t"
seed = 5
[[variants]]
name = "g"
spec = "sixteen-rebels"
[[variants]]
name = "r"
spec = "sixteen-rebels:first=rebels"
[[skills]]
agent = "random"
games = 4
[[skills]]
agent = "mcts:sims=8"
games = 6
label = "m8"
"#;
        let study = Study::from_text(text).unwrap();
        let cells = schedule(&study, &Prints::of(&study).unwrap());
        let ids: Vec<&str> = cells.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["g@random", "g@m8", "r@random", "r@m8"]);
        assert_eq!(cells[3].spec, "sixteen-rebels:first=rebels");
        // The default opening: the agents sample the first 4 plies from their visit counts.
        assert_eq!(cells[3].agent, "mcts:sims=8,c=1.5,temp=0,open=4,batch=1,rollout=decisive");
        assert_eq!(cells[3].opening, 0);
        let uniform =
            Study::from_text(&format!("{text}[opening]\nplies = 2\npolicy = \"uniform\"\n")).unwrap();
        let uniform = schedule(&uniform, &Prints::of(&uniform).unwrap());
        assert_eq!(uniform[3].agent, "mcts:sims=8,c=1.5,temp=0,batch=1,rollout=decisive");
        assert_eq!(uniform[3].opening, 2);
        assert_ne!(
            uniform[3].agent_print, cells[3].agent_print,
            "the opening is part of the agent's behaviour"
        );
        assert_eq!(cells[1].games, 6);
        // Without the first variant, the second's cells keep their seeds.
        let alone = Study::from_text(&text.replacen(
            "name = \"g\"\nspec = \"sixteen-rebels\"\n[[variants]]\n",
            "",
            1,
        ))
        .unwrap();
        let alone = schedule(&alone, &Prints::of(&alone).unwrap());
        assert_eq!(alone[1].seed, cells[3].seed);
        assert_ne!(cells[0].seed, cells[2].seed);
    }
}
