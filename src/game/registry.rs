//! Every ruleset the lab plays, and the selection of one from a spec string at run time.

use super::chess::{self, ChessGame};
use super::hunt::{self, HuntGame};
use super::imperial::{self, ImperialGame};
use super::spec::{Options, Ruleset, RulesetInfo, Spec, SpecError};

/// Every ruleset in the order `rebel-zero rules` lists them, family by family.
pub fn all_rulesets() -> impl Iterator<Item = &'static RulesetInfo> {
    let hunt = hunt::RULESETS.iter().map(|r| &r.info);
    let imperial = imperial::RULESETS.iter().map(|r| &r.info);
    hunt.chain(imperial).chain(chess::RULESETS.iter().map(|r| &r.info))
}

fn known_names() -> String {
    all_rulesets().map(|r| r.name).collect::<Vec<_>>().join(", ")
}

/// A ruleset chosen at run time. Generic code runs on it through [`with_game!`](crate::with_game).
#[derive(Clone, Debug)]
pub enum AnyGame {
    Hunt(HuntGame),
    Imperial(ImperialGame),
    Chess(ChessGame),
}

impl AnyGame {
    /// Builds the ruleset a spec names, or says exactly what is wrong with the spec.
    pub fn from_spec(text: &str) -> Result<AnyGame, SpecError> {
        let spec = Spec::parse(text)?;
        if spec.name.is_empty() {
            return Err(SpecError::Empty { known: known_names() });
        }
        if let Some(path) = spec.name.strip_prefix("file:") {
            return hunt::described::build(path, &spec.options).map(AnyGame::Hunt);
        }
        let built = build(hunt::RULESETS, &spec)
            .map(|g| g.map(AnyGame::Hunt))
            .or_else(|| build(imperial::RULESETS, &spec).map(|g| g.map(AnyGame::Imperial)))
            .or_else(|| build(chess::RULESETS, &spec).map(|g| g.map(AnyGame::Chess)));
        built.unwrap_or_else(|| {
            Err(SpecError::UnknownRuleset { name: spec.name.clone(), known: known_names() })
        })
    }
}

/// The game of `family`'s ruleset that `spec` names, with its options resolved; `None` where the
/// family has no ruleset of that name.
fn build<G>(family: &'static [Ruleset<G>], spec: &Spec) -> Option<Result<G, SpecError>> {
    let ruleset = family.iter().find(|r| r.info.name == spec.name)?;
    let info = &ruleset.info;
    Some(
        Options::resolve(info.name, info.options, info.preset, &spec.options)
            .map(|o| (ruleset.build)(info, o)),
    )
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`], so generic code
/// (`fn f<G: Game>(g: &G)`) is monomorphised per family and dispatched once.
#[macro_export]
macro_rules! with_game {
    ($any:expr, |$g:ident| $body:expr) => {
        match $any {
            $crate::game::AnyGame::Hunt($g) => $body,
            $crate::game::AnyGame::Imperial($g) => $body,
            $crate::game::AnyGame::Chess($g) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn every_ruleset_builds_with_defaults_and_reports_its_name() {
        for info in all_rulesets() {
            let game = AnyGame::from_spec(info.name).unwrap();
            let spec = with_game!(&game, |g| g.spec().to_string());
            assert_eq!(spec, info.name);
        }
    }

    #[test]
    fn unknown_rulesets_and_options_are_named_in_the_error() {
        let err = AnyGame::from_spec("seventeen-rebels").unwrap_err().to_string();
        assert!(err.contains("seventeen-rebels") && err.contains("sixteen-rebels"), "{err}");
        let err = AnyGame::from_spec("sixteen-rebels:colour=red").unwrap_err().to_string();
        assert!(err.contains("colour") && err.contains("general_wins_at"), "{err}");
        let err = AnyGame::from_spec("").unwrap_err().to_string();
        assert!(err.contains("known rulesets"), "{err}");
    }
}
