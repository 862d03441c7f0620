//! The study and training configs that ship with the project, embedded in the binary so that
//! `rebel-zero balance` and `rebel-zero train --preset NAME` work from any folder.

use anyhow::anyhow;

/// A config built into the binary: its name, the repository path it was embedded from, its text.
#[derive(Debug)]
pub struct Preset {
    pub name: &'static str,
    pub path: &'static str,
    pub text: &'static str,
}

macro_rules! preset {
    ($name:literal, $path:literal) => {
        Preset { name: $name, path: $path, text: include_str!(concat!("../../", $path)) }
    };
}

/// Balance studies (`rebel-zero balance --preset NAME`); the first is the default.
pub static STUDIES: &[Preset] = &[
    preset!("quick", "configs/balance/quick.toml"),
    preset!("sixteen", "configs/balance/sixteen.toml"),
    preset!("juroku", "configs/balance/juroku.toml"),
    preset!("twenty-six", "configs/balance/twenty-six.toml"),
    preset!("imperial", "configs/balance/imperial.toml"),
    preset!("chess", "configs/balance/chess.toml"),
    preset!("smoke", "configs/balance/smoke.toml"),
];

/// Training configs (`rebel-zero train --preset NAME`).
pub static TRAINING: &[Preset] = &[
    preset!("smoke", "configs/smoke.toml"),
    preset!("sixteen-rebels", "configs/sixteen-rebels.toml"),
    preset!("juroku-musashi", "configs/juroku-musashi.toml"),
    preset!("twenty-six-rebels", "configs/twenty-six-rebels.toml"),
    preset!("imperial-contest", "configs/imperial-contest.toml"),
    preset!("chess", "configs/chess.toml"),
];

/// Prints the presets, one per line: name and the file it was embedded from.
pub fn print_list(presets: &[Preset]) {
    for preset in presets {
        println!("{:<18} {}", preset.name, preset.path);
    }
}

/// The preset `name` of `presets`; an unknown name is a usage error listing them all.
pub fn find(presets: &'static [Preset], name: &str) -> anyhow::Result<&'static Preset> {
    presets.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<String> = presets.iter().map(|p| format!("{} ({})", p.name, p.path)).collect();
        super::usage(anyhow!("no preset `{name}`; the presets are: {}", names.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_checks() {
        for preset in STUDIES {
            crate::lab::Study::from_text(preset.text).unwrap_or_else(|e| panic!("{}: {e:#}", preset.path));
        }
        for preset in TRAINING {
            let config: crate::train::TrainConfig =
                toml::from_str(preset.text).unwrap_or_else(|e| panic!("{}: {e}", preset.path));
            config.check().unwrap_or_else(|e| panic!("{}: {e}", preset.path));
        }
        assert!(
            find(STUDIES, "nonesuch").unwrap_err().to_string().contains("quick (configs/balance/quick.toml)")
        );
    }
}
