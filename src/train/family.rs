//! A run's games, one family at a time: every spec of `run.specs` built and of one family, so that the
//! generic training code runs with `Vec<HuntGame>`, `Vec<ImperialGame>` or `Vec<ChessGame>`.

use anyhow::Context;

use super::config::TrainConfig;
use crate::game::AnyGame;

/// The run's games, built from its specs: every spec must build and belong to one family.
pub(super) fn run_games(config: &TrainConfig) -> anyhow::Result<Vec<AnyGame>> {
    config
        .run
        .specs
        .iter()
        .map(|spec| AnyGame::from_spec(spec).with_context(|| format!("run.specs: `{spec}`")))
        .collect()
}

/// Runs `$body` with `$games` bound to the run's games of one family (`Vec<HuntGame>`, …), once
/// `selfplay.stray_side` is checked against them.
macro_rules! with_family {
    ($config:expr, |$games:ident| $body:expr) => {{
        let all = $crate::train::family::run_games($config)?;
        macro_rules! family {
            ($variant:ident) => {{
                let $games: Vec<_> = all
                    .into_iter()
                    .map(|g| match g {
                        $crate::game::AnyGame::$variant(g) => Ok(g),
                        _ => anyhow::bail!(
                            "run.specs mixes ruleset families (`{}` and another): one network serves one family",
                            $config.run.specs[0],
                        ),
                    })
                    .collect::<anyhow::Result<_>>()?;
                $crate::train::selfplay::check_stray_side(&$games, &$config.selfplay)?;
                $body
            }};
        }
        match &all[0] {
            $crate::game::AnyGame::Hunt(_) => family!(Hunt),
            $crate::game::AnyGame::Imperial(_) => family!(Imperial),
            $crate::game::AnyGame::Chess(_) => family!(Chess),
        }
    }};
}
pub(super) use with_family;
