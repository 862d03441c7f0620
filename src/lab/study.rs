//! The study file: which ruleset variants to compare, the skill ladder, games per cell, the seed, the
//! solver budget and the claims to test (TOML, every key checked: an unknown key is an error).
//!
//! [`Study::load`] reads and checks a file once; everything after works on checked values: every
//! spec builds, every agent parses (`AgentSpec`, so new agent kinds such as `net:` work unchanged),
//! and every claim names variants, skills, sides and metrics that exist.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, bail};
use serde::{Deserialize, Deserializer, Serialize};

use crate::agents::AgentSpec;
use crate::game::{AnyGame, Game};
use crate::with_game;

/// A study file as written (configs/balance/*.toml; `rebel-zero balance` plays it).
///
/// ```
/// use rebel_zero::lab::study::Study;
///
/// let loaded = Study::from_text(
///     r#"
///     name = "tiny"
///     seed = 1
///     [[variants]]
///     name = "general-first"
///     spec = "sixteen-rebels"
///     [[skills]]
///     agent = "mcts:sims=50"
///     games = 20
///     [[skills]]
///     agent = "mcts:sims=200"
///     games = 20
///     "#,
/// )
/// .unwrap();
/// // Checked at once: every spec builds, every agent parses; the rungs form one ladder of rollouts.
/// assert_eq!(loaded.games.len(), 1);
/// assert_eq!(loaded.labels, ["mcts-sims-50", "mcts-sims-200"]);
/// assert!(Study::from_text("name = \"x\"\nseed = 1").is_err()); // no variants, no skills
/// ```
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Study {
    /// Names the default output directory `studies/<name>/`.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Each cell's seed derives from this seed and the cell's id.
    pub seed: u64,
    /// Games a cell at the top skill level needs before a claim may get a verdict from data.
    #[serde(default = "default_min_games")]
    pub min_games: u32,
    /// Ruleset variants, each a named spec.
    pub variants: Vec<Variant>,
    /// The skill ladder, weakest first; the last rung is the top skill level.
    pub skills: Vec<Skill>,
    /// How each game opens.
    #[serde(default)]
    pub opening: OpeningSettings,
    /// Cross-play between the rungs, for their measured ratings.
    #[serde(default)]
    pub ratings: Option<RatingSettings>,
    #[serde(default)]
    pub solver: Option<SolverSettings>,
    #[serde(default)]
    pub claims: Vec<Claim>,
    /// Changes to claims made after the study had games ([`Amendment`]).
    #[serde(default)]
    pub amendments: Vec<Amendment>,
    /// The CPU hours the study may spend (`budget = { cpu_hours = 12 }`): the report prices what each
    /// open claim would take against it ([`super::settle`]).
    #[serde(default)]
    pub budget: Option<Budget>,
    /// How games stopped at a ply cap are decided ([`super::adjudicate`]); without it they stay
    /// unfinished and no claim reads them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudication: Option<AdjudicationSettings>,
}

/// Adjudication of capped games, by the tables (`judge = "perfect"`: the exact value of the last
/// position; the margins do not enter) or in the manner of fishtest's: the `judge` (a searching agent, the
/// study's strongest or deeper) values each of a capped game's last positions for the first side
/// (−1…+1). The game is that side's win where the last `win_plies` values all lie beyond `win_value`
/// (the other side's beyond −`win_value`), and a draw where the last `draw_plies` all lie within
/// ±`draw_value`; else it stays unfinished. The defaults are fishtest's (a win at 600 centipawns
/// over 3 moves of each side, a draw within 20 over 8 of each), on the alpha-beta engine's scale.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AdjudicationSettings {
    pub judge: String,
    #[serde(default = "default_win_value")]
    pub win_value: f64,
    #[serde(default = "default_win_plies")]
    pub win_plies: u32,
    #[serde(default = "default_draw_value")]
    pub draw_value: f64,
    #[serde(default = "default_draw_plies")]
    pub draw_plies: u32,
}

/// 600 centipawns on the alpha-beta engine's value scale ([`crate::agents::alphabeta::value_of`]).
fn default_win_value() -> f64 {
    f64::from(crate::agents::alphabeta::value_of(600))
}

fn default_win_plies() -> u32 {
    6
}

/// 20 centipawns on the alpha-beta engine's value scale.
fn default_draw_value() -> f64 {
    f64::from(crate::agents::alphabeta::value_of(20))
}

fn default_draw_plies() -> u32 {
    16
}

/// A study's budget, as its file states it: the CPU hours it may spend in all (every cell, the
/// cross-play and the solver), whatever the machine.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    pub cpu_hours: f64,
}

/// Every pair of rungs plays `games` games (seats alternating) on `variant`, and the rungs get
/// Bradley–Terry ratings from them ([`super::ratings`]).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RatingSettings {
    pub variant: String,
    pub games: u32,
    /// Rungs measured against an outside scale, which place the ratings on it.
    #[serde(default)]
    pub anchors: Vec<super::ratings::Anchor>,
}

/// How each game opens ([`super::openings`]): its first `plies` moves come from the variant's book of
/// openings, each drawn uniformly among the moves that do not end the game and admitted only if it
/// keeps the start's value: by the exact value where a table of the rules is present (the same
/// result, its distance within `distance_band` plies of the start's less the opening), else by the
/// `judge` agent's evaluation (within `value_band` of its value of the start, values −1…+1).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OpeningSettings {
    pub plies: u32,
    #[serde(default = "default_distance_band")]
    pub distance_band: u32,
    /// The agent whose evaluation admits openings where no table is present (the study's strongest,
    /// searching deeper than it plays).
    #[serde(default)]
    pub judge: Option<String>,
    #[serde(default = "default_value_band")]
    pub value_band: f64,
}

impl Default for OpeningSettings {
    fn default() -> OpeningSettings {
        OpeningSettings {
            plies: 4,
            distance_band: default_distance_band(),
            judge: None,
            value_band: default_value_band(),
        }
    }
}

fn default_distance_band() -> u32 {
    6
}

fn default_value_band() -> f64 {
    0.15
}

/// A change to a claim's reading, rule or evidence once the study had games, on the record: the date,
/// why, and (filled in by the run from the report it replaces) the verdict before it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Amendment {
    pub claim: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub reason: String,
    /// The verdict the claim had before the change (from the report the change replaced).
    #[serde(default)]
    pub before: Option<String>,
}

fn default_min_games() -> u32 {
    400
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// A short name used in tables, charts and claims (letters, digits, `-`, `_`, `.`).
    pub name: String,
    /// The ruleset spec (`sixteen-rebels:first=rebels`).
    pub spec: String,
    /// Random opening plies for this variant's games in place of the study's `[opening] plies`: 0 where
    /// the start itself is the question (a forced win in a few plies, which random moves would spoil).
    #[serde(default)]
    pub opening: Option<u32>,
}

impl Variant {
    /// The random plies opening each of this variant's games.
    pub fn opening(&self, study: &OpeningSettings) -> u32 {
        self.opening.unwrap_or(study.plies)
    }
}

/// One rung of the ladder: an agent that plays itself, and how many games per variant.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    /// Any agent spec `AgentSpec` reads (`mcts:sims=800`, `net:path=…,sims=N`).
    pub agent: String,
    pub games: u32,
    /// A short name; by default the agent spec with `:`, `=` and `,` turned into `-`.
    #[serde(default)]
    pub label: Option<String>,
}

/// The solver's attempt to prove the result of each listed variant's start position.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SolverSettings {
    /// MCTS-solver simulations (rollout evaluation) per variant.
    pub simulations: u32,
    /// Variant names; all variants when left out.
    #[serde(default)]
    pub variants: Option<Vec<String>>,
}

/// A claim of docs/CLAIMS.md and the machine-checkable test that turns it into numbers.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub id: String,
    #[serde(default)]
    pub who: String,
    /// The claim in the source's words (or ours).
    pub quote: String,
    /// How the vague words become a number, fixed before looking at the data.
    #[serde(default)]
    pub definition: String,
    pub test: ClaimTest,
    /// A proof that settles the claim where one exists: the exact value of a variant's start (by the
    /// tablebase, or the MCTS-solver), which outranks every sample of games.
    #[serde(default)]
    pub exact: Option<ExactTest>,
    /// Set where the reading is the lab's own rather than the source's (a claim with no direction, a
    /// question of ours): why.
    #[serde(default)]
    pub lab_reading: Option<String>,
    /// Looks for a sequential design, as multiples of each cell's planned games (`[1, 2, 4, 8]`): the
    /// cells the claim reads grow in rounds until it is decided or the last look is reached
    /// ([`super::sequential`]).
    #[serde(default)]
    pub sequential: Option<Vec<f64>>,
    /// Replications, each filed as an amendment once the reading before it (the design's, then the
    /// replication before) was played out undecided: the claim is read again on one ladder from fresh
    /// games only, at looks of their own ([`Replication`]; one table, or a list).
    #[serde(default, deserialize_with = "one_or_many_replications", skip_serializing_if = "Vec::is_empty")]
    pub replication: Vec<Replication>,
}

// Replications: fresh games for a claim whose design has read its last look undecided.
//
// Reading the old games again at a new look would spend the test's level a second time (its type-I
// error would grow with every look added after the fact), so a replication reads only games none of
// the designs before it read, at looks of its own, and the old readings stay in the report and in
// Holm's family beside it. A claim may file several, each once the one before it read its last look
// undecided (`replication = [{ … }, { … }]`; one table for one). Fresh games come from later games
// of the same cells (`after`), or, where those cells' books have been played through and their later
// games would repeat the earlier ones, from variants of the same rules that open otherwise
// (`variants`, each a variant of the study with its own `opening`).

/// One replication of a claim, filed as an amendment. Until its first look is played the claim keeps
/// the verdict of the reading it replaces.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Replication {
    /// The ladder it plays: `network`, `rollout` or `search`.
    pub ladder: EvidenceKind,
    /// The variants it plays in place of those the test reads (`{ general-first = "general-first-6" }`):
    /// the same rules (the same spec) with openings of their own, for a replication whose cells have
    /// played through their books. Every variant the test reads is mapped, or none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variants: BTreeMap<String, String>,
    /// The games of each cell it leaves unread, as a multiple of the cell's planned games: those the
    /// replaced design read (0 on variants of its own, whose games are all fresh).
    #[serde(default)]
    pub after: f64,
    /// Looks, as multiples of the planned games counted from `after` (`[17.5]`: one look at 7,000 new
    /// games in each 400-game cell), with O'Brien–Fleming-type alpha spending where there are several.
    pub looks: Vec<f64>,
    /// The one-sided level of each direction (0.025 unless given). A replication sized for the level
    /// Holm's correction leaves a reading gives it here, so that its design stops where the corrected
    /// verdict would decide, not at a crossing the correction then overturns.
    #[serde(default = "one_sided")]
    pub alpha: f64,
    /// The claim's test on the variants it plays, resolved when the study is checked (`None` where it
    /// plays the claim's own).
    #[serde(skip)]
    pub test: Option<ClaimTest>,
}

fn one_sided() -> f64 {
    super::sequential::ONE_SIDED
}

impl Replication {
    /// The test it reads: the claim's, on its own variants where it names them.
    pub fn test<'t>(&'t self, claim_test: &'t ClaimTest) -> &'t ClaimTest {
        self.test.as_ref().unwrap_or(claim_test)
    }

    /// `on general-first-6, rebels-first-6`, or nothing where it plays the claim's own variants.
    pub fn variants_words(&self) -> String {
        if self.variants.is_empty() {
            return String::new();
        }
        let played: Vec<&str> = self.variants.values().map(String::as_str).collect();
        format!(" on {}", played.join(", "))
    }
}

/// A claim's `replication`: one table, or a list of them in the order they were filed.
pub fn one_or_many_replications<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Replication>, D::Error> {
    struct Visitor;
    impl<'de> serde::de::Visitor<'de> for Visitor {
        type Value = Vec<Replication>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a replication table, or a list of them")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            Replication::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(|r| vec![r])
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Vec::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
        }
    }
    d.deserialize_any(Visitor)
}

/// Checks a replication of a claim whose test is `test` (already resolved), read after the claim's
/// design (`design_games`: its last look, as a multiple of the planned games) and the replications
/// filed `earlier`, and, where it plays variants of its own, resolves the test on them.
pub fn check_replication(
    study: &LoadedStudy,
    test: &ClaimTest,
    design_games: f64,
    earlier: &[Replication],
    replication: &mut Replication,
) -> anyhow::Result<()> {
    check_looks(&replication.looks)?;
    if !(replication.alpha > 0.0 && replication.alpha <= super::sequential::ONE_SIDED) {
        bail!("`alpha` is a one-sided level above 0 and at most 0.025");
    }
    if matches!(replication.ladder, EvidenceKind::Exact) {
        bail!("a proof is not replicated; name a ladder (network, rollout or search)");
    }
    if matches!(test, ClaimTest::Trend { .. }) {
        bail!("a trend reads the cross-play's ratings, which a replication does not play again");
    }
    let mut measures = test.clone();
    let measures = measures_mut(&mut measures);
    if measures.is_empty() || measures.iter().any(|m| m.resolved().quantity.only_from_tables()) {
        bail!("a reading of the tables has no games to replicate");
    }
    if replication.variants.is_empty() {
        if !(replication.after.is_finite() && replication.after > 0.0) {
            bail!("`after` must be the positive multiple of the planned games already read");
        }
    } else {
        if !(replication.after.is_finite() && replication.after >= 0.0) {
            bail!("`after` must be a multiple of the planned games, 0 or more");
        }
        replication.test = Some(mapped_test(study, test, &replication.variants)?);
    }
    // Fresh games only: none that the design or an earlier replication of the same cells read.
    let cells = plays(replication, test);
    let read = earlier
        .iter()
        .filter(|e| e.ladder == replication.ladder && plays(e, test) == cells)
        .map(|e| e.after + e.looks.last().copied().unwrap_or(0.0))
        .chain((replication.variants.is_empty()).then_some(design_games))
        .fold(0.0, f64::max);
    if replication.after < read {
        bail!(
            "`after` = {} would read games an earlier reading of the same cells read (their first {read} × the \
             planned games); give `after` = {read} or more",
            replication.after
        );
    }
    Ok(())
}

/// The variants whose cells a replication plays.
fn plays(replication: &Replication, test: &ClaimTest) -> BTreeSet<String> {
    match &replication.test {
        Some(mapped) => test_variants(mapped),
        None => test_variants(test),
    }
}

/// The variants a test's measures read.
fn test_variants(test: &ClaimTest) -> BTreeSet<String> {
    let mut test = test.clone();
    measures_mut(&mut test).iter().map(|m| m.variant.clone()).collect()
}

/// `test` on the variants `variants` maps its own to, resolved: each the same rules from a book of
/// its own, one for one, none of them read by the test itself.
fn mapped_test(
    study: &LoadedStudy,
    test: &ClaimTest,
    variants: &BTreeMap<String, String>,
) -> anyhow::Result<ClaimTest> {
    let mut mapped = test.clone();
    let read = test_variants(test);
    let named: BTreeSet<String> = variants.keys().cloned().collect();
    if read != named {
        bail!(
            "`variants` maps every variant the test reads ({}) and no other; it maps {}",
            words(&read),
            words(&named)
        );
    }
    let targets: BTreeSet<&String> = variants.values().collect();
    if targets.len() < variants.len() {
        bail!("`variants` maps each variant to one of its own: two may not share one");
    }
    for (from, to) in variants {
        if read.contains(to) {
            bail!("`variants`: `{to}` is read by the test itself, so its games are not fresh");
        }
        check_same_rules(study, from, to)?;
    }
    for m in measures_mut(&mut mapped) {
        m.variant = variants[&m.variant].clone();
        m.resolved = None;
    }
    check_test(study, &mut mapped)?;
    Ok(mapped)
}

/// `to` plays `from`'s rules (the same spec) from a book of its own (a different `opening`): else
/// its games would not be fresh, or not a replication.
fn check_same_rules(study: &LoadedStudy, from: &str, to: &str) -> anyhow::Result<()> {
    let (Some(a), Some(b)) = (study.variant_index(from), study.variant_index(to)) else {
        bail!("`variants`: the study has no variant `{to}`");
    };
    // The rules as the game states them, so that two spellings of one ruleset compare equal.
    let rules = |v: usize| with_game!(&study.games[v], |g| crate::game::Game::spec(g).to_string());
    if rules(a) != rules(b) {
        bail!(
            "`variants`: `{to}` plays `{}`, not the rules of `{from}` (`{}`); a replication plays the same rules",
            study.study.variants[b].spec,
            study.study.variants[a].spec
        );
    }
    if study.opening_plies(a) == study.opening_plies(b) {
        bail!(
            "`variants`: `{to}` opens with {} plies as `{from}` does; give it an `opening` of its own, so that \
             its book deals other openings",
            study.opening_plies(b)
        );
    }
    Ok(())
}

fn words(names: &BTreeSet<String>) -> String {
    if names.is_empty() {
        return "none".to_string();
    }
    names.iter().map(String::as_str).collect::<Vec<_>>().join(", ")
}

/// Every measure of a test.
fn measures_mut(test: &mut ClaimTest) -> Vec<&mut Measure> {
    match test {
        ClaimTest::Threshold { measure, .. }
        | ClaimTest::Near { measure, .. }
        | ClaimTest::Trend { measure, .. } => vec![measure],
        ClaimTest::Compare { a, b, .. } | ClaimTest::CloserToHalf { a, b } => vec![a, b],
        ClaimTest::Solver { .. } | ClaimTest::WinsGained { .. } => Vec::new(),
    }
}

impl Claim {
    /// A fingerprint of the claim's reading, rule and evidence: its definition, test, proof, sequential
    /// looks and lab-reading note, not its quote or attribution. A changed print is an amendment
    /// ([`super::amendments`]).
    pub fn print(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut what = serde_json::json!({
            "definition": self.definition.trim(),
            "test": self.test,
            "exact": self.exact,
            "sequential": self.sequential,
            "lab_reading": self.lab_reading,
        });
        // Only where there is one, so that the prints of claims without a replication stay as recorded
        // (and a single one prints as the table it was filed as).
        match self.replication.as_slice() {
            [] => {}
            [one] => what["replication"] = serde_json::json!(one),
            many => what["replication"] = serde_json::json!(many),
        }
        let digest = Sha256::digest(what.to_string().as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }
}

/// The start of `variant` is a forced win for `winner` (a side name, or `draw`), within `max_plies`
/// plies when given.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ExactTest {
    pub variant: String,
    pub winner: String,
    #[serde(default)]
    pub max_plies: Option<u32>,
    /// The proof can only contradict the claim: a forced win says who wins, not what the claim says
    /// of how (C5's "almost automatically"). A proof that holds is then not informative, and the next
    /// evidence decides.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub only_contradicts: bool,
}

/// The test of a claim. Measures read the cells of the study; see [`Measure`].
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClaimTest {
    /// The measure's 95% interval lies at or above (`at_least`) or at or below (`at_most`) `value`;
    /// with `every_skill`, at every rung of the ladder (the measure then names no skill).
    Threshold {
        measure: Measure,
        op: Op,
        value: f64,
        #[serde(default)]
        every_skill: bool,
    },
    /// The measure's interval lies within `target ± margin`.
    Near {
        measure: Measure,
        #[serde(default = "half")]
        target: f64,
        margin: f64,
    },
    /// The difference `a − b` (Newcombe's interval for scores and rates, a normal interval for means)
    /// goes in `direction`.
    Compare {
        a: Measure,
        b: Measure,
        direction: Direction,
        /// For `equal` (and as "practically equal" for the others): differences within ± margin.
        #[serde(default)]
        margin: f64,
    },
    /// Every value in a's interval is closer to ½ than every value in b's (both scores or rates).
    CloserToHalf { a: Measure, b: Measure },
    /// The solver proves the start position of `variant` a win for `winner` (a side name, or `draw`),
    /// within `max_plies` plies when given.
    Solver {
        variant: String,
        winner: String,
        #[serde(default)]
        max_plies: Option<u32>,
    },
    /// What a rule gives a side beyond speed, read only on the tables: the share of `side`'s wins under
    /// variant `a`'s rules that it does not win under `b`'s, over every position both tables hold and
    /// over the positions the study's games reach, is at least (`at_least`) or at most `value`.
    WinsGained { a: String, b: String, side: String, op: Op, value: f64 },
    /// The measure moves with measured skill: its slope against the rungs' ratings (points per 100
    /// Elo, weighted least squares) goes in `direction` (`falls` or `rises`); it is contradicted when
    /// it goes the other way or stays within ± `margin` points per 100 Elo. With `toward_half`, the
    /// measure is its distance from ½ (a score that "falls toward 50%").
    Trend {
        measure: Measure,
        direction: TrendDirection,
        margin: f64,
        #[serde(default)]
        toward_half: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrendDirection {
    Falls,
    Rises,
}

fn half() -> f64 {
    0.5
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    AtLeast,
    AtMost,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Greater,
    Less,
    Different,
    Equal,
}

/// One number with an interval, read from one cell (variant × skill). Exactly one of `side`
/// (that side's score), `metric` (a per-game mean) or `event` (the share of games matching a filter),
/// each over the games matching `given` when it is set (all games otherwise).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Measure {
    pub variant: String,
    /// A skill label, `top` (the default) or `bottom`.
    #[serde(default)]
    pub skill: Option<String>,
    #[serde(default)]
    pub side: Option<String>,
    /// `plies`, `decisive`, `lost:SIDE`, `left:SIDE`, `early_lost:SIDE` or a ruleset feature
    /// (chess: `doubled_pawns`, `isolated_pawns`, `same_colour_bishops`).
    #[serde(default)]
    pub metric: Option<String>,
    #[serde(default)]
    pub event: Option<Filter>,
    #[serde(default)]
    pub given: Option<Filter>,
    /// The measure in typed form, filled in once when the study is checked.
    #[serde(skip)]
    pub resolved: Option<Resolved>,
}

impl Measure {
    /// The typed form of a measure of a checked study.
    pub fn resolved(&self) -> &Resolved {
        self.resolved.as_ref().expect("a checked study has resolved every measure")
    }
}

/// A measure with names turned into indices and typed values.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    pub variant: usize,
    pub quantity: Quantity,
    /// Only the games meeting this filter count.
    pub given: Option<GameFilter>,
}

/// What a measure reads from the games.
#[derive(Clone, Debug, PartialEq)]
pub enum Quantity {
    /// A side's score (by index).
    Score(usize),
    /// The mean of a per-game metric.
    Mean(Metric),
    /// The share of games meeting a filter.
    Rate(GameFilter),
}

impl Quantity {
    pub fn kind(&self) -> MeasureKind {
        match self {
            Quantity::Mean(_) => MeasureKind::Mean,
            Quantity::Score(_) | Quantity::Rate(_) => MeasureKind::Proportion,
        }
    }
}

/// A per-game number ([`METRICS`], [`FEATURES`]); sides by index.
#[derive(Clone, Debug, PartialEq)]
pub enum Metric {
    Plies,
    Decisive,
    Lost(usize),
    Left(usize),
    EarlyLost(usize),
    Feature(String),
    /// A side's margin for error: the share of its legal moves that keep its forced win, over the
    /// positions where it is to move and has one. Only the tables measure it
    /// ([`super::positions`]); games record nothing of it.
    Margin(usize),
}

impl Quantity {
    /// Whether only the tables answer this quantity, never a cell's games.
    pub fn only_from_tables(&self) -> bool {
        matches!(self, Quantity::Mean(Metric::Margin(_)))
    }
}

/// A [`Filter`] with sides as indices and the end reason parsed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameFilter {
    pub winner: Option<Winner>,
    pub reason: Option<crate::game::Reason>,
    pub side: Option<usize>,
    pub lost_at_least: Option<u32>,
    pub lost_in_play_at_least: Option<u32>,
    pub left_at_most: Option<u32>,
    pub plies_at_most: Option<u32>,
}

/// A winning side (by index), or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Side(usize),
    Draw,
}

/// A condition on one game; every field given must hold.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// A side name, or `draw`.
    #[serde(default)]
    pub winner: Option<String>,
    /// An end reason (`captures`, `repetition`, `cap`, …).
    #[serde(default)]
    pub reason: Option<String>,
    /// The side `lost_at_least`, `lost_in_play_at_least` and `left_at_most` count pieces of.
    #[serde(default)]
    pub side: Option<String>,
    #[serde(default)]
    pub lost_at_least: Option<u32>,
    /// Pieces lost after the opening, in the moves the players chose (a study's random opening plies
    /// are nobody's play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_in_play_at_least: Option<u32>,
    #[serde(default)]
    pub left_at_most: Option<u32>,
    #[serde(default)]
    pub plies_at_most: Option<u32>,
}

/// Per-game metrics every ruleset has; `lost:`, `left:` and `early_lost:` take a side name.
pub const METRICS: &[&str] =
    &["plies", "decisive", "lost:SIDE", "left:SIDE", "early_lost:SIDE", "margin:SIDE"];
/// Features only some rulesets record (the chess family).
pub const FEATURES: &[&str] = &["doubled_pawns", "isolated_pawns", "same_colour_bishops"];

/// The kinds of evidence, weakest first: games of rollout MCTS (and the random agent), games of a
/// trained network, games of the alpha-beta search (`ab:`), and proofs or best play (the tablebase,
/// the MCTS-solver, the `perfect` agent). The order says which verdict stands where kinds disagree;
/// a rung any rung of another kind outplays beyond doubt gives none ([`super::runner`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    Rollout,
    Network,
    Search,
    Exact,
}

impl EvidenceKind {
    pub fn of(agent: &AgentSpec) -> EvidenceKind {
        match agent {
            AgentSpec::Net(_) => EvidenceKind::Network,
            AgentSpec::Ab(_) => EvidenceKind::Search,
            AgentSpec::Perfect { .. } => EvidenceKind::Exact,
            _ => EvidenceKind::Rollout,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::Rollout => "rollout ladder",
            EvidenceKind::Network => "network ladder",
            EvidenceKind::Search => "alpha-beta ladder",
            EvidenceKind::Exact => "exact value",
        }
    }
}

/// The rungs of one kind of evidence, in the study's order (weakest first).
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    pub kind: EvidenceKind,
    /// Skill indices.
    pub rungs: Vec<usize>,
}

impl Ladder {
    /// The rung a measure's `skill` names on this ladder (`top`, `bottom` or a label of one of its
    /// rungs); `None` when the label is another ladder's.
    pub fn rung(&self, skill: Option<&str>, labels: &[String]) -> Option<usize> {
        match skill {
            None | Some("top") => self.rungs.last().copied(),
            Some("bottom") => self.rungs.first().copied(),
            Some(label) => self.rungs.iter().copied().find(|&r| labels[r] == label),
        }
    }
}

/// A checked study: the file, its built games and parsed agents.
#[derive(Clone, Debug)]
pub struct LoadedStudy {
    pub study: Study,
    pub games: Vec<AnyGame>,
    pub agents: Vec<AgentSpec>,
    /// Skill labels, in ladder order.
    pub labels: Vec<String>,
    /// The rungs grouped by the kind of evidence their agents give, weakest kind first.
    pub ladders: Vec<Ladder>,
    /// The study file's text, for the report's hash.
    pub text: String,
}

impl LoadedStudy {
    /// The plies of `variant`'s openings.
    pub fn opening_plies(&self, variant: usize) -> u32 {
        self.study.variants[variant].opening(&self.study.opening)
    }

    pub fn top_label(&self) -> &str {
        self.labels.last().expect("a checked study has a skill")
    }

    pub fn variant_index(&self, name: &str) -> Option<usize> {
        self.study.variants.iter().position(|v| v.name == name)
    }

    /// The skill index a measure's `skill` names.
    pub fn skill_index(&self, skill: Option<&str>) -> Option<usize> {
        match skill {
            None | Some("top") => Some(self.labels.len() - 1),
            Some("bottom") => Some(0),
            Some(label) => self.labels.iter().position(|l| l == label),
        }
    }

    pub fn side_names(&self, variant: usize) -> [&'static str; 2] {
        with_game!(&self.games[variant], |g| g.side_names())
    }

    pub fn side_index(&self, variant: usize, name: &str) -> Option<usize> {
        self.side_names(variant).iter().position(|n| *n == name)
    }
}

impl Study {
    /// Reads and checks a study file.
    pub fn load(path: &Path) -> anyhow::Result<LoadedStudy> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading study file {}", path.display()))?;
        Study::from_text(&text).with_context(|| format!("study file {}", path.display()))
    }

    /// Parses and checks a study from TOML text.
    pub fn from_text(text: &str) -> anyhow::Result<LoadedStudy> {
        let study: Study =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", e.to_string().trim_end()))?;
        study.check(text)
    }

    fn check(self, text: &str) -> anyhow::Result<LoadedStudy> {
        check_name("study name", &self.name)?;
        if self.variants.is_empty() {
            bail!("the study names no variants ([[variants]] name = …, spec = …)");
        }
        if self.skills.is_empty() {
            bail!("the study names no skill levels ([[skills]] agent = …, games = …)");
        }
        let mut games = Vec::new();
        for (i, variant) in self.variants.iter().enumerate() {
            check_name("variant name", &variant.name)?;
            if self.variants[..i].iter().any(|v| v.name == variant.name) {
                bail!("variant `{}` is named twice", variant.name);
            }
            let game =
                AnyGame::from_spec(&variant.spec).with_context(|| format!("variant `{}`", variant.name))?;
            games.push(game);
        }
        let mut agents = Vec::new();
        let mut labels: Vec<String> = Vec::new();
        for skill in &self.skills {
            let agent = AgentSpec::parse(&skill.agent).with_context(|| format!("skill `{}`", skill.agent))?;
            if agent.is_human() {
                bail!("skill `{}`: a human cannot play a study", skill.agent);
            }
            if skill.games == 0 {
                bail!("skill `{}`: games must be at least 1", skill.agent);
            }
            let label = skill.label.clone().unwrap_or_else(|| default_label(&skill.agent));
            check_name("skill label", &label)?;
            if labels.contains(&label) || label == "top" || label == "bottom" {
                bail!(
                    "skill label `{label}` is used twice or reserved (top, bottom); give each skill a label"
                );
            }
            labels.push(label);
            agents.push(agent);
        }
        let mut ladders: Vec<Ladder> = Vec::new();
        for (skill, agent) in agents.iter().enumerate() {
            let kind = EvidenceKind::of(agent);
            match ladders.iter_mut().find(|l| l.kind == kind) {
                Some(ladder) => ladder.rungs.push(skill),
                None => ladders.push(Ladder { kind, rungs: vec![skill] }),
            }
        }
        ladders.sort_by_key(|l| l.kind);
        let mut loaded = LoadedStudy { study: self, games, agents, labels, ladders, text: text.to_string() };
        if let Some(ratings) = &loaded.study.ratings {
            if loaded.variant_index(&ratings.variant).is_none() {
                bail!("ratings: unknown variant `{}`; variants: {}", ratings.variant, variant_names(&loaded));
            }
            if ratings.games < 2 {
                bail!("ratings: games must be at least 2 (one per seating)");
            }
            for a in &ratings.anchors {
                if !loaded.labels.contains(&a.rung) {
                    bail!("ratings: an anchor names rung `{}`; rungs: {}", a.rung, loaded.labels.join(", "));
                }
                let finite = [a.elo, a.low, a.high].iter().all(|x| x.is_finite());
                if !finite || a.low > a.elo || a.elo > a.high || a.games == 0 {
                    bail!(
                        "ratings: the anchor of `{}` needs low ≤ elo ≤ high (finite) and games ≥ 1",
                        a.rung
                    );
                }
            }
        }
        if let Some(solver) = &loaded.study.solver {
            if solver.simulations == 0 {
                bail!("solver: simulations must be at least 1");
            }
            for name in solver.variants.iter().flatten() {
                if loaded.variant_index(name).is_none() {
                    bail!("solver: unknown variant `{name}`; variants: {}", variant_names(&loaded));
                }
            }
        }
        if let Some(judge) = &loaded.study.opening.judge {
            let agent = AgentSpec::parse(judge).context("[opening] judge")?;
            if matches!(agent, AgentSpec::Random | AgentSpec::Human) {
                bail!("[opening] judge `{judge}` must be an agent that searches (mcts:, net:, ab:)");
            }
        }
        if let Some(rule) = &loaded.study.adjudication {
            let agent = AgentSpec::parse(&rule.judge).context("[adjudication] judge")?;
            match agent {
                AgentSpec::Random | AgentSpec::Human => bail!(
                    "[adjudication] judge `{}` must be an agent that searches (mcts:, net:, ab:) or the tablebase (perfect)",
                    rule.judge
                ),
                AgentSpec::Perfect { table: Some(_) } => bail!(
                    "[adjudication] judge `{}`: the tablebase judge reads each variant's own table, so it takes no table=",
                    rule.judge
                ),
                AgentSpec::Perfect { table: None }
                    if !loaded.games.iter().any(|g| {
                        crate::family::hunt_of(g)
                            .is_some_and(|h| crate::tablebase::check_supported(h).is_ok())
                    }) =>
                {
                    bail!(
                        "[adjudication] judge `perfect`: no variant of this study has rules a tablebase solves (sixteen-rebels, juroku-musashi and rules files like them)"
                    )
                }
                _ => {}
            }
            if !(rule.draw_value >= 0.0 && rule.draw_value < rule.win_value && rule.win_value < 1.0) {
                bail!(
                    "[adjudication] needs 0 ≤ draw_value < win_value < 1 (values run from −1 to +1); it has draw_value {} and win_value {}",
                    rule.draw_value,
                    rule.win_value
                );
            }
            if rule.win_plies == 0 || rule.draw_plies == 0 {
                bail!("[adjudication] win_plies and draw_plies must be at least 1");
            }
        }
        if !(loaded.study.opening.value_band > 0.0 && loaded.study.opening.value_band <= 2.0) {
            bail!("[opening] value_band must lie in (0, 2] (values run from −1 to +1)");
        }
        // Each claim is checked and its measures resolved against the study (claims set aside meanwhile,
        // since they are resolved in place).
        let mut claims = std::mem::take(&mut loaded.study.claims);
        for i in 0..claims.len() {
            let (earlier, rest) = claims.split_at_mut(i);
            let claim = &mut rest[0];
            if earlier.iter().any(|c| c.id == claim.id) {
                bail!("claim `{}` appears twice", claim.id);
            }
            check_test(&loaded, &mut claim.test).with_context(|| format!("claim `{}`", claim.id))?;
            let design_games = claim.sequential.as_ref().and_then(|l| l.last().copied()).unwrap_or(1.0);
            for r in 0..claim.replication.len() {
                let (earlier, rest) = claim.replication.split_at_mut(r);
                check_replication(&loaded, &claim.test, design_games, earlier, &mut rest[0])
                    .with_context(|| format!("claim `{}`: replication {}", claim.id, r + 1))?;
            }
            if let Some(exact) = &claim.exact {
                check_exact(&loaded, &exact.variant, &exact.winner)
                    .with_context(|| format!("claim `{}`: exact", claim.id))?;
            }
        }
        loaded.study.claims = claims;
        for claim in &loaded.study.claims {
            check_sequential(claim).with_context(|| format!("claim `{}`: sequential", claim.id))?;
        }
        for amendment in &loaded.study.amendments {
            if !loaded.study.claims.iter().any(|c| c.id == amendment.claim) {
                bail!("amendment of {}: the study has no claim `{}`", amendment.date, amendment.claim);
            }
            check_date(&amendment.date)
                .with_context(|| format!("amendment of claim `{}`", amendment.claim))?;
        }
        Ok(loaded)
    }
}

/// Looks are increasing positive multiples of the planned games, and a claim that reads every rung or
/// a proof has none.
fn check_sequential(claim: &Claim) -> anyhow::Result<()> {
    let Some(looks) = &claim.sequential else {
        return check_test_has_looks(claim, !claim.replication.is_empty());
    };
    check_looks(looks)?;
    check_test_has_looks(claim, true)
}

/// What a claim with looks (a sequential design or a replication) may be.
fn check_test_has_looks(claim: &Claim, has_looks: bool) -> anyhow::Result<()> {
    if !has_looks {
        return Ok(());
    }
    match &claim.test {
        ClaimTest::Solver { .. } | ClaimTest::WinsGained { .. } => {
            bail!("a reading of the tables has no looks")
        }
        ClaimTest::Threshold { every_skill: true, .. } => bail!("a test at every rung has no looks"),
        _ => Ok(()),
    }
}

fn check_looks(looks: &[f64]) -> anyhow::Result<()> {
    if looks.is_empty() || looks.len() > 12 {
        bail!("give 1 to 12 looks (multiples of the planned games, e.g. [1, 2, 4, 8])");
    }
    if looks[0] <= 0.0 || looks.windows(2).any(|w| w[0] >= w[1]) || looks.iter().any(|l| !l.is_finite()) {
        bail!("looks must be increasing positive multiples of the planned games, e.g. [1, 2, 4, 8]");
    }
    Ok(())
}

/// A date as `YYYY-MM-DD`.
fn check_date(date: &str) -> anyhow::Result<()> {
    let parts: Vec<&str> = date.split('-').collect();
    let ok = parts.len() == 3
        && [4, 2, 2]
            .iter()
            .zip(&parts)
            .all(|(len, p)| p.len() == *len && p.chars().all(|c| c.is_ascii_digit()));
    if !ok {
        bail!("date `{date}` is not YYYY-MM-DD");
    }
    Ok(())
}

/// `mcts:sims=800` → `mcts-sims-800`.
pub fn default_label(agent: &str) -> String {
    agent.trim().chars().map(|c| if matches!(c, ':' | '=' | ',') { '-' } else { c }).collect()
}

fn check_name(what: &str, name: &str) -> anyhow::Result<()> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
        bail!("{what} `{name}` must be non-empty letters, digits, `-`, `_` or `.`");
    }
    Ok(())
}

fn variant_names(study: &LoadedStudy) -> String {
    study.study.variants.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// Checks a claim's test and resolves its measures.
/// A margin for error is measured by the tables over the games of every rung, in a threshold or in a
/// comparison of two margins, and nowhere else: `allowed` says whether the test is one of those.
fn check_margin_alone(measures: &[&Measure], allowed: bool) -> anyhow::Result<()> {
    let margins = measures.iter().filter(|m| m.resolved().quantity.only_from_tables()).count();
    if margins == 0 {
        return Ok(());
    }
    if !allowed || margins != measures.len() {
        bail!(
            "a margin (`margin:SIDE`) is read only in a threshold without every_skill, or compared with another margin"
        );
    }
    if measures.iter().any(|m| m.given.is_some() || m.skill.is_some()) {
        bail!(
            "a margin is read over the positions every rung's games reach: it takes no `given` and no `skill`"
        );
    }
    Ok(())
}

fn check_test(study: &LoadedStudy, test: &mut ClaimTest) -> anyhow::Result<()> {
    let check_measure = |m: &mut Measure| -> anyhow::Result<MeasureKind> {
        let resolved = resolve_measure(study, m)?;
        let kind = resolved.quantity.kind();
        m.resolved = Some(resolved);
        Ok(kind)
    };
    match test {
        ClaimTest::Threshold { measure, every_skill, .. } => {
            if *every_skill && measure.skill.is_some() {
                bail!("a threshold with every_skill reads every skill; its measure names none");
            }
            check_measure(measure)?;
            if *every_skill {
                check_margin_alone(&[measure], false)?;
            }
            check_margin_alone(&[measure], true)?;
        }
        ClaimTest::Near { measure, margin, .. } => {
            if *margin <= 0.0 {
                bail!("near needs a margin > 0");
            }
            check_measure(measure)?;
            check_margin_alone(&[measure], false)?;
        }
        ClaimTest::Compare { a, b, direction, margin } => {
            let (ka, kb) = (check_measure(a)?, check_measure(b)?);
            check_margin_alone(&[a, b], true)?;
            if ka != kb {
                bail!("compare needs two measures of one kind (two scores or rates, or two metrics)");
            }
            if *direction == Direction::Equal && *margin <= 0.0 {
                bail!("compare with direction = \"equal\" needs a margin > 0");
            }
        }
        ClaimTest::CloserToHalf { a, b } => {
            for m in [a, b] {
                if check_measure(m)? != MeasureKind::Proportion {
                    bail!("closer_to_half compares scores or rates, not metrics");
                }
            }
        }
        ClaimTest::Solver { variant, winner, .. } => check_exact(study, variant, winner)?,
        ClaimTest::WinsGained { a, b, side, value, .. } => {
            let [va, vb] = [&*a, &*b].map(|v| {
                study.variant_index(v).ok_or_else(|| {
                    anyhow::anyhow!("unknown variant `{v}`; variants: {}", variant_names(study))
                })
            });
            let (va, vb) = (va?, vb?);
            if va == vb {
                bail!("wins_gained compares two variants, not `{a}` with itself");
            }
            if study.side_index(va, side).is_none() || study.side_index(vb, side).is_none() {
                bail!("side `{side}` is not a side of both `{a}` and `{b}`");
            }
            if !(0.0..=1.0).contains(value) {
                bail!("wins_gained's value is a share, 0 to 1, not {value}");
            }
        }
        ClaimTest::Trend { measure, margin, .. } => {
            if measure.skill.is_some() {
                bail!("a trend reads every rung of a ladder; its measure names no skill");
            }
            if *margin < 0.0 {
                bail!("trend needs a margin ≥ 0");
            }
            if check_measure(measure)? != MeasureKind::Proportion {
                bail!("trend follows a score or a rate, not a metric");
            }
        }
    }
    Ok(())
}

/// A solver test or an exact proof names a variant, a side (or `draw`), and a variant the solver runs.
fn check_exact(study: &LoadedStudy, variant: &str, winner: &str) -> anyhow::Result<()> {
    let v = study
        .variant_index(variant)
        .ok_or_else(|| anyhow::anyhow!("unknown variant `{variant}`; variants: {}", variant_names(study)))?;
    if winner != "draw" && study.side_index(v, winner).is_none() {
        bail!(
            "winner `{winner}` is not a side of `{variant}` ({}) nor `draw`",
            study.side_names(v).join(", ")
        );
    }
    let listed = study
        .study
        .solver
        .as_ref()
        .map(|s| s.variants.as_ref().is_none_or(|l| l.iter().any(|n| n == variant)));
    if listed != Some(true) {
        bail!("a solver test needs [solver] to include variant `{variant}`");
    }
    Ok(())
}

/// Proportions (scores, rates) and means are compared differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeasureKind {
    Proportion,
    Mean,
}

/// The typed form of a measure, or what is wrong with it.
fn resolve_measure(study: &LoadedStudy, m: &Measure) -> anyhow::Result<Resolved> {
    let v = study.variant_index(&m.variant).ok_or_else(|| {
        anyhow::anyhow!("unknown variant `{}`; variants: {}", m.variant, variant_names(study))
    })?;
    if study.skill_index(m.skill.as_deref()).is_none() {
        bail!(
            "unknown skill `{}`; skills: top, bottom, {}",
            m.skill.as_deref().unwrap_or_default(),
            study.labels.join(", ")
        );
    }
    let side = |name: &str| -> anyhow::Result<usize> {
        study.side_index(v, name).ok_or_else(|| {
            anyhow::anyhow!("`{name}` is not a side of `{}` ({})", m.variant, study.side_names(v).join(", "))
        })
    };
    let quantity = match (&m.side, &m.metric, &m.event) {
        (Some(s), None, None) => Quantity::Score(side(s)?),
        (None, Some(metric), None) => Quantity::Mean(match metric.split_once(':') {
            Some(("lost", s)) => Metric::Lost(side(s)?),
            Some(("left", s)) => Metric::Left(side(s)?),
            Some(("early_lost", s)) => Metric::EarlyLost(side(s)?),
            Some(("margin", s)) => Metric::Margin(side(s)?),
            None if metric == "plies" => Metric::Plies,
            None if metric == "decisive" => Metric::Decisive,
            None if FEATURES.contains(&metric.as_str()) => Metric::Feature(metric.clone()),
            _ => bail!("unknown metric `{metric}`; metrics: {}, {}", METRICS.join(", "), FEATURES.join(", ")),
        }),
        (None, None, Some(event)) => Quantity::Rate(resolve_filter(study, v, event)?),
        _ => bail!("a measure names exactly one of side, metric or event (variant `{}`)", m.variant),
    };
    let given = m.given.as_ref().map(|g| resolve_filter(study, v, g)).transpose()?;
    Ok(Resolved { variant: v, quantity, given })
}

/// The typed form of a filter on variant `v`'s games, or what is wrong with it.
fn resolve_filter(study: &LoadedStudy, v: usize, f: &Filter) -> anyhow::Result<GameFilter> {
    let names = study.side_names(v);
    let not_a_side = |name: &str| {
        anyhow::anyhow!("`{name}` is not a side of `{}` ({})", study.study.variants[v].name, names.join(", "))
    };
    let winner = match f.winner.as_deref() {
        None => None,
        Some("draw") => Some(Winner::Draw),
        Some(name) => Some(Winner::Side(study.side_index(v, name).ok_or_else(|| not_a_side(name))?)),
    };
    let side = match f.side.as_deref() {
        None => None,
        Some(name) => Some(study.side_index(v, name).ok_or_else(|| not_a_side(name))?),
    };
    let counts_pieces =
        f.lost_at_least.is_some() || f.lost_in_play_at_least.is_some() || f.left_at_most.is_some();
    if counts_pieces && side.is_none() {
        bail!("lost_at_least, lost_in_play_at_least and left_at_most need `side`");
    }
    let reason = match &f.reason {
        None => None,
        Some(reason) => Some(crate::game::Reason::parse(reason).ok_or_else(|| {
            let known: Vec<&str> = crate::game::Reason::ALL.iter().map(|r| r.as_str()).collect();
            anyhow::anyhow!("unknown reason `{reason}`; reasons: {}", known.join(", "))
        })?),
    };
    Ok(GameFilter {
        winner,
        reason,
        side,
        lost_at_least: f.lost_at_least,
        lost_in_play_at_least: f.lost_in_play_at_least,
        left_at_most: f.left_at_most,
        plies_at_most: f.plies_at_most,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"
name = "t"
seed = 1
[[variants]]
name = "a"
spec = "sixteen-rebels"
[[skills]]
agent = "mcts:sims=8"
games = 2
"#;

    #[test]
    fn a_small_study_loads_with_defaults() {
        let study = Study::from_text(BASE).unwrap();
        assert_eq!(study.labels, ["mcts-sims-8"]);
        assert_eq!(study.study.min_games, 400);
        assert_eq!(study.side_index(0, "rebels"), Some(1));
    }

    #[test]
    fn mistakes_are_named() {
        let cases = [
            (format!("{BASE}colour = 1\n"), "colour"),
            (BASE.replace("sixteen-rebels", "seventeen-rebels"), "seventeen-rebels"),
            (BASE.replace("mcts:sims=8", "mcts:sims=0"), "sims=0"),
            (BASE.replace("mcts:sims=8", "alphazero"), "alphazero"),
            (
                format!(
                    "{BASE}[[claims]]\nid='C1'\nquote='q'\ntest={{kind='threshold',measure={{variant='b',side='rebels'}},op='at_least',value=0.5}}\n"
                ),
                "unknown variant `b`",
            ),
            (
                format!(
                    "{BASE}[[claims]]\nid='C1'\nquote='q'\ntest={{kind='threshold',measure={{variant='a',side='white'}},op='at_least',value=0.5}}\n"
                ),
                "`white` is not a side",
            ),
            (
                format!(
                    "{BASE}[[claims]]\nid='C1'\nquote='q'\ntest={{kind='threshold',measure={{variant='a',metric='speed'}},op='at_least',value=0.5}}\n"
                ),
                "unknown metric `speed`",
            ),
            (format!("{BASE}[[claims]]\nid='C1'\nquote='q'\ntest={{kind='guess'}}\n"), "guess"),
            (
                format!(
                    "{BASE}[[claims]]\nid='C4'\nquote='q'\ntest={{kind='solver',variant='a',winner='rebels'}}\n"
                ),
                "[solver]",
            ),
        ];
        for (text, needle) in cases {
            let message = format!("{:#}", Study::from_text(&text).unwrap_err());
            assert!(message.contains(needle), "expected `{needle}` in: {message}");
        }
    }
}
