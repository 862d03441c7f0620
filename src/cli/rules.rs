//! `rebel-zero rules`: every ruleset with a one-line description, its options, defaults and sources.

use crate::game::registry::all_rulesets;

pub fn run() -> anyhow::Result<()> {
    for info in all_rulesets() {
        println!("{}", info.name);
        println!("    {}", info.summary);
        println!("    source: {}", info.source);
        if !info.preset.is_empty() {
            let preset: Vec<String> = info.preset.iter().map(|(k, v)| format!("{k}={v}")).collect();
            println!("    preset: {}", preset.join(","));
        }
        println!("    options:");
        for option in info.options {
            let default =
                info.preset.iter().find(|(k, _)| *k == option.key).map_or(option.default, |(_, v)| v);
            println!(
                "      {:<16} {:<28} default {:<10} {}",
                option.key,
                option.values.to_string(),
                default,
                option.meaning
            );
        }
        println!();
    }
    Ok(())
}
