//! `rebel-zero rules [--json]`: every ruleset with a one-line description, its options, defaults and
//! sources.

use clap::Args;
use serde::Serialize;

use crate::game::registry::{RulesetInfo, all_rulesets};

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// One JSON array of rulesets instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct RulesetJson {
    name: &'static str,
    summary: &'static str,
    source: &'static str,
    /// Option values the preset fixes (`murray-rebels`).
    preset: Vec<String>,
    options: Vec<OptionJson>,
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

fn to_json(info: &RulesetInfo) -> RulesetJson {
    RulesetJson {
        name: info.name,
        summary: info.summary,
        source: info.source,
        preset: info.preset.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        options: info
            .options
            .iter()
            .map(|o| OptionJson {
                key: o.key,
                values: o.values.to_string(),
                default: default_of(info, o.key, o.default),
                meaning: o.meaning,
            })
            .collect(),
    }
}

pub fn run(args: &RulesArgs) -> anyhow::Result<()> {
    let rulesets: Vec<RulesetJson> = all_rulesets().map(to_json).collect();
    if args.json {
        return super::print_json(&rulesets);
    }
    for info in rulesets {
        println!("{}", info.name);
        println!("    {}", info.summary);
        println!("    source: {}", info.source);
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
