//! The schedule: one cell per variant × skill level, in which the skill's agent plays itself with
//! seats alternating (`run_match` puts "agent A" on side `i % 2` in game `i`), and, for the ratings,
//! one cell per pair of rungs, in which they meet on the ratings variant. Each move order is a variant
//! of its own (`first=` in the spec), so both orders appear whenever the study lists both.
//!
//! Games open from the variant's book ([`super::openings`]): in a rung's own cell game `i` opens with
//! opening `i` (the opening is the unit of analysis), in the cross-play games `2k` and `2k + 1` open
//! with opening `k`, one with each rung in each seat (the pair is the unit, as in fishtest's
//! pentanomial statistics).
//!
//! A cell names everything that decides its games: the ruleset and agents by their canonical specs
//! and by fingerprints of their behaviour ([`super::fingerprint`]), the seed, and the book's key; a
//! saved cell is reused only when all of it matches. Its planned games are where it starts: a cell may
//! hold more once a sequential claim grows it, each game decided by its index alone.

use serde::{Deserialize, Serialize};

use super::study::LoadedStudy;
use crate::agents::spec::print_form_of;
use crate::game::Game;
use crate::seed::{derive_seed, fnv1a};
use crate::with_game;

/// One match of the study and everything that determines its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// `variant@skill` ([`cell_id`]), or `ratings@a-vs-b`; also the name of its result file.
    pub id: String,
    pub variant: usize,
    pub skill: usize,
    /// The canonical ruleset spec and agent spec.
    pub spec: String,
    pub agent: String,
    /// The games planned in the study file.
    pub games: u32,
    pub seed: u64,
    /// Plies of the book's openings that start each game (0: every game from the start).
    #[serde(default)]
    pub opening: u32,
    /// A digest of the book's key ([`super::openings::key`]); empty without openings.
    #[serde(default)]
    pub book: String,
    /// Games that share each opening: 1 in a rung's own cell, 2 in the cross-play.
    #[serde(default = "one")]
    pub per_opening: u32,
    /// For a ratings cell: the other rung (agent B); its agent spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<(usize, String)>,
    /// Fingerprints of the rules' and the agents' behaviour.
    #[serde(default)]
    pub rules_print: String,
    #[serde(default)]
    pub agent_print: String,
}

fn one() -> u32 {
    1
}

impl Cell {
    /// Whether `saved` is this cell played (perhaps to more or fewer games). Agents are compared in
    /// their print form ([`crate::agents::AgentSpec::print_form`]): a cell saved before the canonical
    /// spec named f32 is the same cell as one that names it.
    pub fn same_as(&self, saved: &Cell) -> bool {
        let printed = |cell: &Cell| Cell {
            games: 0,
            agent: print_form_of(&cell.agent).to_string(),
            opponent: cell.opponent.as_ref().map(|(rung, agent)| (*rung, print_form_of(agent).to_string())),
            ..cell.clone()
        };
        printed(self) == printed(saved)
    }

    /// Openings the first `games` games use.
    pub fn openings_for(&self, games: u32) -> usize {
        games.div_ceil(self.per_opening.max(1)) as usize
    }
}

/// The id of a rung's own cell on a variant: `variant@skill`.
pub fn cell_id(variant: &str, skill: &str) -> String {
    format!("{variant}@{skill}")
}

/// The behaviour fingerprints of every variant's rules and book and every rung's agent on every
/// variant ([`super::runner::prints`]).
pub struct Prints {
    pub rules: Vec<String>,
    /// The key of each variant's book ([`super::openings::key`]).
    pub books: Vec<String>,
    /// `agents[variant][skill]`.
    pub agents: Vec<Vec<String>>,
}

impl Prints {
    fn book(&self, study: &LoadedStudy, variant: usize) -> String {
        book_print(study, variant, &self.books[variant])
    }
}

/// What a cell records of its variant's book key ([`Cell::book`]): a digest, empty where the
/// variant's games have no opening.
pub fn book_print(study: &LoadedStudy, variant: usize, key: &str) -> String {
    if study.opening_plies(variant) == 0 { String::new() } else { format!("{:016x}", fnv1a(key)) }
}

/// Every cell of the study, variant by variant, weakest skill first, then the ratings cells.
pub fn schedule(study: &LoadedStudy, prints: &Prints) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (v, variant) in study.study.variants.iter().enumerate() {
        let spec = with_game!(&study.games[v], |g| g.spec().to_string());
        for (s, skill) in study.study.skills.iter().enumerate() {
            let id = cell_id(&variant.name, &study.labels[s]);
            // The seed depends on the cell's name, not its place: adding a variant changes no other cell.
            let seed = derive_seed(study.study.seed, fnv1a(&id));
            cells.push(Cell {
                id,
                variant: v,
                skill: s,
                spec: spec.clone(),
                agent: study.agents[s].to_string(),
                games: skill.games,
                seed,
                opening: study.opening_plies(v),
                book: prints.book(study, v),
                per_opening: 1,
                opponent: None,
                rules_print: prints.rules[v].clone(),
                agent_print: prints.agents[v][s].clone(),
            });
        }
    }
    if let Some(ratings) = &study.study.ratings {
        let v = study.variant_index(&ratings.variant).expect("checked");
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
                    agent: study.agents[a].to_string(),
                    games: ratings.games,
                    seed,
                    opening: study.opening_plies(v),
                    book: prints.book(study, v),
                    per_opening: 2,
                    opponent: Some((b, study.agents[b].to_string())),
                    rules_print: prints.rules[v].clone(),
                    agent_print: format!("{}+{}", prints.agents[v][a], prints.agents[v][b]),
                });
            }
        }
    }
    cells
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
[ratings]
variant = "g"
games = 4
"#;
        let study = Study::from_text(text).unwrap();
        let cells = schedule(&study, &crate::lab::runner::prints(&study).unwrap());
        let ids: Vec<&str> = cells.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["g@random", "g@m8", "r@random", "r@m8", "ratings@random-vs-m8"]);
        assert_eq!(cells[3].spec, "sixteen-rebels:first=rebels");
        // Agents play from the book's openings: their own specs, without a sampled opening.
        assert_eq!(cells[3].agent, "mcts:sims=8,c=1.5,temp=0,batch=1,rollout=decisive");
        assert_eq!((cells[3].opening, cells[3].per_opening, cells[4].per_opening), (4, 1, 2));
        assert!(!cells[3].book.is_empty() && cells[3].book != cells[1].book, "each variant has its book");
        assert_eq!(cells[4].book, cells[1].book, "the cross-play opens from its variant's book");
        assert_eq!(cells[1].games, 6);
        assert_eq!(cells[4].openings_for(5), 3);
        // Without the first variant, the second's cells keep their seeds.
        let alone = Study::from_text(
            &text
                .replacen("name = \"g\"\nspec = \"sixteen-rebels\"\n[[variants]]\n", "", 1)
                .replace("variant = \"g\"", "variant = \"r\""),
        )
        .unwrap();
        let alone = schedule(&alone, &crate::lab::runner::prints(&alone).unwrap());
        assert_eq!(alone[1].seed, cells[3].seed);
        assert_ne!(cells[0].seed, cells[2].seed);
    }

    /// A cell saved when f32 was named by leaving the precision out is the cell that names it; an
    /// 8-bit cell is not.
    #[test]
    fn a_cell_saved_before_f32_was_named_is_the_same_cell() {
        let cell = |agent: &str, opponent: &str| Cell {
            id: "ratings@a-vs-b".into(),
            variant: 0,
            skill: 0,
            spec: "sixteen-rebels".into(),
            agent: agent.into(),
            games: 40,
            seed: 1,
            opening: 4,
            book: "b".into(),
            per_opening: 2,
            opponent: Some((1, opponent.into())),
            rules_print: "r".into(),
            agent_print: "p".into(),
        };
        let old = cell("net:path=x,sims=8,c=1.5,temp=0,batch=8", "net:path=x,sims=32,c=1.5,temp=0,batch=8");
        let named = cell(
            "net:path=x,sims=8,c=1.5,temp=0,batch=8,precision=f32",
            "net:path=x,sims=32,c=1.5,temp=0,batch=8,precision=f32",
        );
        assert!(named.same_as(&old) && named.same_as(&Cell { games: 80, ..old.clone() }));
        let eight = cell(
            "net:path=x,sims=8,c=1.5,temp=0,batch=8,precision=int8",
            "net:path=x,sims=32,c=1.5,temp=0,batch=8,precision=f32",
        );
        assert!(!eight.same_as(&old));
    }
}
