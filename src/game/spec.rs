//! Ruleset specs (RULES.md 0.1): `NAME` or `NAME:key=value,key=value`, checked against each ruleset's
//! option schema so that every error names the offending part and lists what is allowed.

use std::fmt;

/// The values an option accepts.
#[derive(Clone, Copy, Debug)]
pub enum OptionValues {
    /// One of a fixed list of words.
    Choice(&'static [&'static str]),
    /// An integer in `min..=max`.
    Range(u32, u32),
}

impl fmt::Display for OptionValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValues::Choice(words) => write!(f, "{}", words.join("|")),
            OptionValues::Range(min, u32::MAX) => write!(f, "an integer ≥ {min}"),
            OptionValues::Range(min, max) => write!(f, "an integer {min}..{max}"),
        }
    }
}

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
}

/// A ruleset of a family whose games are `G`: its description and how its game is built from resolved
/// options. A family lists its own; the registry wraps what they build, so no family needs to know
/// the others.
#[derive(Debug)]
pub struct Ruleset<G: 'static> {
    pub info: RulesetInfo,
    pub build: fn(&'static RulesetInfo, Options) -> G,
}

/// One option of a ruleset: its key, allowed values, default and meaning.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub key: &'static str,
    pub values: OptionValues,
    pub default: &'static str,
    pub meaning: &'static str,
}

impl OptionSpec {
    /// Checks one value, returning a message naming the problem.
    fn check(&self, value: &str) -> Result<(), String> {
        match self.values {
            OptionValues::Choice(words) if words.contains(&value) => Ok(()),
            OptionValues::Range(min, max) => match value.parse::<u32>() {
                Ok(n) if (min..=max).contains(&n) => Ok(()),
                _ => Err(format!("`{}={value}`: {} must be {}", self.key, self.key, self.values)),
            },
            OptionValues::Choice(_) => {
                Err(format!("`{}={value}`: {} must be one of {}", self.key, self.key, self.values))
            }
        }
    }
}

/// An error in a spec string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error(
        "unknown ruleset `{name}`; known rulesets: {known}; or file:PATH, a hunt game described in a file (configs/rules/README.md)"
    )]
    UnknownRuleset { name: String, known: String },
    #[error("ruleset `{ruleset}` has no option `{key}`; its options are: {allowed}")]
    UnknownOption { ruleset: String, key: String, allowed: String },
    #[error("ruleset `{ruleset}`: bad value {problem}")]
    BadValue { ruleset: String, problem: String },
    #[error("ruleset `{ruleset}`: `{part}` is not of the form key=value")]
    Malformed { ruleset: String, part: String },
    #[error("ruleset `{ruleset}`: option `{key}` is given twice")]
    Repeated { ruleset: String, key: String },
    #[error("an empty ruleset spec; known rulesets: {known}")]
    Empty { known: String },
    #[error("rules file {path}: {problem}")]
    Description { path: String, problem: String },
}

/// A parsed, unvalidated spec: the ruleset name and the `key=value` pairs in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub name: String,
    pub options: Vec<(String, String)>,
}

/// `NAME:key=value,…` back from its parts (the name alone without options): [`Spec::parse`]'s inverse.
impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        for (at, (key, value)) in self.options.iter().enumerate() {
            write!(f, "{}{key}={value}", if at == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl Spec {
    /// Splits `NAME:key=value,…`. Checks only the syntax; [`Options::resolve`] checks the meaning.
    /// A described ruleset's name is `file:PATH`, PATH running to the next `:`.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let text = text.trim();
        let split = match text.strip_prefix("file:") {
            Some(rest) => rest.find(':').map(|at| at + "file:".len()),
            None => text.find(':'),
        };
        let (name, rest) = match split {
            Some(at) => (text[..at].trim(), Some(&text[at + 1..])),
            None => (text, None),
        };
        let mut options: Vec<(String, String)> = Vec::new();
        for part in rest.into_iter().flat_map(|r| r.split(',')) {
            let part = part.trim();
            let Some((key, value)) = part.split_once('=') else {
                return Err(SpecError::Malformed { ruleset: name.to_string(), part: part.to_string() });
            };
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() || value.is_empty() {
                return Err(SpecError::Malformed { ruleset: name.to_string(), part: part.to_string() });
            }
            if options.iter().any(|(k, _)| k == key) {
                return Err(SpecError::Repeated { ruleset: name.to_string(), key: key.to_string() });
            }
            options.push((key.to_string(), value.to_string()));
        }
        Ok(Spec { name: name.to_string(), options })
    }
}

/// The options of one ruleset after validation: every key of the schema with its value.
#[derive(Clone, Debug)]
pub struct Options {
    schema: &'static [OptionSpec],
    values: Vec<String>,
    /// Non-default options, in schema order, for the canonical spec.
    explicit: Vec<(String, String)>,
}

impl Options {
    /// Applies `preset` and then `given` over the schema's defaults, checking every key and value.
    pub fn resolve(
        ruleset: &str,
        schema: &'static [OptionSpec],
        preset: &[(&str, &str)],
        given: &[(String, String)],
    ) -> Result<Options, SpecError> {
        let mut values: Vec<String> = schema.iter().map(|o| o.default.to_string()).collect();
        let preset_owned: Vec<(String, String)> =
            preset.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        for (key, value) in preset_owned.iter().chain(given) {
            let Some(index) = schema.iter().position(|o| o.key == key) else {
                let allowed: Vec<String> = schema.iter().map(|o| format!("{}={}", o.key, o.values)).collect();
                return Err(SpecError::UnknownOption {
                    ruleset: ruleset.to_string(),
                    key: key.clone(),
                    allowed: allowed.join(", "),
                });
            };
            schema[index]
                .check(value)
                .map_err(|problem| SpecError::BadValue { ruleset: ruleset.to_string(), problem })?;
            values[index] = value.clone();
        }
        // The canonical spec names the ruleset as given, so it repeats only what differs from it.
        let base: Vec<String> = {
            let mut base: Vec<String> = schema.iter().map(|o| o.default.to_string()).collect();
            for (key, value) in preset {
                if let Some(i) = schema.iter().position(|o| o.key == *key) {
                    base[i] = value.to_string();
                }
            }
            base
        };
        let explicit = schema
            .iter()
            .zip(&values)
            .zip(&base)
            .filter(|((_, v), b)| v != b)
            .map(|((o, v), _)| (o.key.to_string(), v.clone()))
            .collect();
        Ok(Options { schema, values, explicit })
    }

    /// The value of `key`, which must be in the schema.
    pub fn get(&self, key: &str) -> &str {
        let index = self
            .schema
            .iter()
            .position(|o| o.key == key)
            .unwrap_or_else(|| panic!("option `{key}` is not in this ruleset's schema"));
        &self.values[index]
    }

    /// The value of an integer option.
    pub fn get_u32(&self, key: &str) -> u32 {
        self.get(key).parse().expect("integer options are checked by resolve")
    }

    /// `name` followed by the options that differ from its defaults.
    pub fn canonical_spec(&self, name: &str) -> String {
        if self.explicit.is_empty() {
            return name.to_string();
        }
        let parts: Vec<String> = self.explicit.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{name}:{}", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &[OptionSpec] = &[
        OptionSpec {
            key: "first",
            values: OptionValues::Choice(&["general", "rebels"]),
            default: "general",
            meaning: "",
        },
        OptionSpec {
            key: "max_plies",
            values: OptionValues::Range(1, u32::MAX),
            default: "200",
            meaning: "",
        },
    ];

    #[test]
    fn parses_name_and_options() {
        let spec = Spec::parse("sixteen-rebels:first=rebels, max_plies=10").unwrap();
        assert_eq!(spec.name, "sixteen-rebels");
        assert_eq!(spec.options, vec![("first".into(), "rebels".into()), ("max_plies".into(), "10".into())]);
        assert_eq!(Spec::parse("chess").unwrap().options, vec![]);
        // Written back, a spec parses to itself.
        assert_eq!(spec.to_string(), "sixteen-rebels:first=rebels,max_plies=10");
        assert_eq!(Spec::parse("chess").unwrap().to_string(), "chess");
        assert_eq!(Spec::parse(&spec.to_string()).unwrap(), spec);
    }

    #[test]
    fn rejects_malformed_and_repeated_parts() {
        assert!(matches!(Spec::parse("x:first"), Err(SpecError::Malformed { .. })));
        assert!(matches!(Spec::parse("x:first="), Err(SpecError::Malformed { .. })));
        assert!(matches!(Spec::parse("x:a=1,a=2"), Err(SpecError::Repeated { .. })));
    }

    #[test]
    fn resolve_checks_keys_and_values_and_names_them() {
        let given = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        let err = Options::resolve("r", SCHEMA, &[], &given("colour", "red")).unwrap_err();
        assert!(err.to_string().contains("colour") && err.to_string().contains("first=general|rebels"));
        let err = Options::resolve("r", SCHEMA, &[], &given("first", "nobody")).unwrap_err();
        assert!(err.to_string().contains("general|rebels"), "{err}");
        let err = Options::resolve("r", SCHEMA, &[], &given("max_plies", "0")).unwrap_err();
        assert!(err.to_string().contains("≥ 1"), "{err}");
        let ok = Options::resolve("r", SCHEMA, &[], &given("max_plies", "7")).unwrap();
        assert_eq!(ok.get_u32("max_plies"), 7);
        assert_eq!(ok.get("first"), "general");
        assert_eq!(ok.canonical_spec("r"), "r:max_plies=7");
    }

    #[test]
    fn canonical_spec_drops_defaults_and_preset_values() {
        let preset = [("first", "rebels")];
        let given = vec![("first".to_string(), "rebels".to_string())];
        let options = Options::resolve("p", SCHEMA, &preset, &given).unwrap();
        assert_eq!(options.get("first"), "rebels");
        assert_eq!(options.canonical_spec("p"), "p");
    }
}
