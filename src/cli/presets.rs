//! The study and training configs that ship with the project, embedded in the binary so that
//! `rebel-zero balance` and `rebel-zero train --preset NAME` work from any folder.

use anyhow::anyhow;

/// What a preset configures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A balance study (`rebel-zero balance --preset NAME`).
    Study,
    /// A training run (`rebel-zero train --preset NAME`).
    Training,
}

/// A config built into the binary: its kind, name, the repository path it was embedded from, its text.
#[derive(Debug)]
pub struct Preset {
    pub kind: Kind,
    pub name: &'static str,
    pub path: &'static str,
    pub text: &'static str,
}

/// The presets of one kind: each name's file is `DIR/NAME.toml` in the repository.
macro_rules! presets {
    ($kind:ident, $dir:literal: $($name:literal),+) => {
        [$(Preset {
            kind: Kind::$kind,
            name: $name,
            path: concat!($dir, $name, ".toml"),
            text: include_str!(concat!("../../", $dir, $name, ".toml")),
        }),+]
    };
}

/// The built-in studies (the first is `balance`'s default) and training configs.
static STUDIES: [Preset; 7] = presets!(Study, "configs/balance/": "quick", "sixteen", "juroku", "twenty-six", "imperial", "chess", "smoke");
static TRAINING: [Preset; 6] = presets!(
    Training, "configs/": "smoke", "sixteen-rebels", "juroku-musashi", "twenty-six-rebels", "imperial-contest", "chess"
);

fn of_kind(kind: Kind) -> impl Iterator<Item = &'static Preset> {
    STUDIES.iter().chain(&TRAINING).filter(move |p| p.kind == kind)
}

/// Prints the presets of one kind, one per line: name and the file it was embedded from.
pub fn print_list(kind: Kind) {
    for preset in of_kind(kind) {
        println!("{:<18} {}", preset.name, preset.path);
    }
}

/// The preset of `kind` embedded from the repository file `path`.
pub fn by_path(kind: Kind, path: &str) -> Option<&'static Preset> {
    of_kind(kind).find(|p| p.path == path)
}

/// The preset `name` of `kind`; an unknown name is a usage error listing them all.
pub fn find(kind: Kind, name: &str) -> anyhow::Result<&'static Preset> {
    of_kind(kind).find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<String> = of_kind(kind).map(|p| format!("{} ({})", p.name, p.path)).collect();
        super::common::usage(anyhow!("no preset `{name}`; the presets are: {}", names.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_checks() {
        for preset in of_kind(Kind::Study) {
            crate::lab::Study::from_text(preset.text).unwrap_or_else(|e| panic!("{}: {e:#}", preset.path));
        }
        for preset in of_kind(Kind::Training) {
            let config: crate::train::TrainConfig =
                toml::from_str(preset.text).unwrap_or_else(|e| panic!("{}: {e}", preset.path));
            config.check().unwrap_or_else(|e| panic!("{}: {e}", preset.path));
        }
        assert!(
            find(Kind::Study, "nonesuch")
                .unwrap_err()
                .to_string()
                .contains("quick (configs/balance/quick.toml)")
        );
    }
}
