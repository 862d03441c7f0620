//! `rebel-zero rules [--json] [--dir DIR]`: every ruleset with a one-line description, its options,
//! defaults and sources; then the rules files of a folder (configs/rules by default), each under the
//! spec that plays it (`file:PATH`).

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use crate::game::RulesetInfo;
use crate::game::hunt::described;
use crate::game::registry::all_rulesets;
use crate::game::spec::OptionSpec;

/// The folder of rules files listed when `--dir` is not given (skipped silently when missing).
const RULES_FILES: &str = "configs/rules";

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// One JSON array of rulesets instead of text.
    #[arg(long)]
    json: bool,
    /// Also list the rules files (`*.toml`) in this folder [default: the shipped configs/rules, found as `serve` finds it].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Serialize)]
struct RulesetJson {
    /// What a spec names: the ruleset, or `file:PATH` for a rules file.
    name: String,
    summary: String,
    source: String,
    /// Option values the preset fixes (`murray-rebels`).
    preset: Vec<String>,
    options: Vec<OptionJson>,
    /// Why a rules file cannot be played (its other fields are then empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<String>,
}

#[derive(Serialize)]
struct OptionJson {
    key: &'static str,
    values: String,
    default: &'static str,
    meaning: &'static str,
}

/// The default of option `key` in `info`: the preset's value, else the option's own.
fn default_of(info: &RulesetInfo, key: &str, own: &'static str) -> &'static str {
    info.preset.iter().find(|(k, _)| *k == key).map_or(own, |(_, v)| v)
}

fn options_json(options: &[OptionSpec], default: impl Fn(&OptionSpec) -> &'static str) -> Vec<OptionJson> {
    options
        .iter()
        .map(|o| OptionJson {
            key: o.key,
            values: o.values.to_string(),
            default: default(o),
            meaning: o.meaning,
        })
        .collect()
}

fn built_in(info: &RulesetInfo) -> RulesetJson {
    RulesetJson {
        name: info.name.to_string(),
        summary: info.summary.to_string(),
        source: info.source.to_string(),
        preset: info.preset.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        options: options_json(info.options, |o| default_of(info, o.key, o.default)),
        problem: None,
    }
}

/// A rules file as its spec plays it, or with the problem that stops it loading.
fn rules_file(path: &Path) -> RulesetJson {
    let path_text = path.to_string_lossy();
    let mut entry = RulesetJson {
        name: format!("file:{path_text}"),
        summary: String::new(),
        source: String::new(),
        preset: Vec::new(),
        options: Vec::new(),
        problem: None,
    };
    match described::load(&path_text) {
        Ok(file) => {
            entry.summary = match file.summary.as_str() {
                "" => file.name.clone(),
                summary => format!("{}: {summary}", file.name),
            };
            entry.source = file.source.clone();
            entry.options = options_json(file.options, |o| o.default);
        }
        Err(error) => entry.problem = Some(error.to_string()),
    }
    entry
}

/// The `*.toml` files of `dir` (by default the shipped configs/rules, found where `serve` finds the
/// shipped files: here, else beside the binary or in the source tree), sorted; none when that default
/// folder is absent, an error when a folder given cannot be listed.
fn rules_files(dir: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
    let (dir, asked) = match dir {
        Some(dir) => (dir.to_path_buf(), true),
        None => (crate::files::find_shipped(Path::new(RULES_FILES)), false),
    };
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(_) if !asked => return Ok(Vec::new()),
        Err(e) => anyhow::bail!("cannot list the rules files in {}: {e}", dir.display()),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

pub fn run(args: &RulesArgs) -> anyhow::Result<()> {
    let mut rulesets: Vec<RulesetJson> = all_rulesets().map(built_in).collect();
    rulesets.extend(rules_files(args.dir.as_deref())?.iter().map(|path| rules_file(path)));
    if args.json {
        return super::common::print_json(&rulesets);
    }
    for info in rulesets {
        println!("{}", info.name);
        if let Some(problem) = &info.problem {
            println!("    cannot be played: {problem}");
            println!();
            continue;
        }
        println!("    {}", info.summary);
        if !info.source.is_empty() {
            println!("    source: {}", info.source);
        }
        if !info.preset.is_empty() {
            println!("    preset: {}", info.preset.join(","));
        }
        println!("    options:");
        for option in info.options {
            println!(
                "      {:<16} {:<28} default {:<10} {}",
                option.key, option.values, option.default, option.meaning
            );
        }
        println!();
    }
    Ok(())
}
