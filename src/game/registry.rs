//! Every ruleset the lab plays, and the selection of one from a spec string at run time.

use super::chess::{self, ChessGame};
use super::hunt::{self, HuntGame};
use super::imperial::{self, ImperialGame};
use super::spec::{OptionSpec, Options, Spec, SpecError};

/// The description of one ruleset: what `rebel-zero rules` prints and what a spec resolves against.
#[derive(Debug)]
pub struct RulesetInfo {
    pub name: &'static str,
    pub summary: &'static str,
    /// Where the rules come from (RULES.md section and the historical source).
    pub source: &'static str,
    pub options: &'static [OptionSpec],
    /// Option values a named preset fixes (`murray-rebels`); empty for a plain ruleset.
    pub preset: &'static [(&'static str, &'static str)],
    /// Builds the game from resolved options.
    pub build: fn(&'static RulesetInfo, Options) -> AnyGame,
}

/// Every ruleset, family by family, in the order `rebel-zero rules` lists them.
pub static RULESETS: &[&[RulesetInfo]] = &[hunt::RULESETS, imperial::RULESETS, chess::RULESETS];

/// All rulesets in listing order.
pub fn all_rulesets() -> impl Iterator<Item = &'static RulesetInfo> {
    RULESETS.iter().flat_map(|family| family.iter())
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
            return hunt::described::build(path, &spec.options);
        }
        let info = all_rulesets()
            .find(|r| r.name == spec.name)
            .ok_or_else(|| SpecError::UnknownRuleset { name: spec.name.clone(), known: known_names() })?;
        let options = Options::resolve(info.name, info.options, info.preset, &spec.options)?;
        Ok((info.build)(info, options))
    }
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
