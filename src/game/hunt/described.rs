//! Hunt games described in a file (`file:PATH` specs): a board of points and links, its regions, the
//! start, and the rule switches of [`HuntRules`], read from TOML (every key is documented in
//! configs/rules/README.md). The compiled rulesets stay the fast path; a described one runs on the same
//! generator, so it is exactly as fast once loaded (the tables are the same kind).
//!
//! A file is read once per process: loads are cached by the file's canonical path and SHA-256, so a
//! spec named in every game of a match builds its board once, and an edited file is a new ruleset.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};

use serde::Deserialize;
use toml::Spanned;

use super::board::{Board, BoardParts};
use super::{GENERAL, HuntGame, HuntRules, Leap, REBELS, StaticCapture};
use crate::game::spec::{OptionSpec, OptionValues, Options, Spec, SpecError};

/// A loaded description: its board (registered for the process), the rules its file fixes, and the
/// options a spec may change.
#[derive(Debug)]
pub struct Described {
    /// The path as the spec gave it (`file:PATH` in canonical specs).
    pub path: String,
    pub sha256: String,
    pub name: String,
    pub summary: String,
    pub source: String,
    pub options: &'static [OptionSpec],
    pub rules: HuntRules,
    /// Whether the file sets `general_wins_at` (else the option's 0 means "no threshold").
    has_threshold: bool,
}

static LOADED: LazyLock<Mutex<HashMap<(PathBuf, String), &'static Described>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Builds the game a `file:PATH` spec names, with its options.
pub fn build(path: &str, given: &[(String, String)]) -> Result<HuntGame, SpecError> {
    let described = load(path)?;
    let spec_name = format!("file:{path}");
    let options = Options::resolve(&spec_name, described.options, &[], given)?;
    let mut rules = described.rules;
    rules.first = if options.get("first") == "general" { GENERAL } else { REBELS };
    rules.mandatory = options.get("capture") == "mandatory";
    let threshold = options.get_u32("general_wins_at");
    rules.general_wins_at = (described.has_threshold || threshold > 0).then_some(threshold);
    rules.max_plies = options.get_u32("max_plies");
    Ok(HuntGame::new(options.canonical_spec(&spec_name), rules))
}

/// Reads, checks and registers the description at `path` (once per content).
pub fn load(path: &str) -> Result<&'static Described, SpecError> {
    let error = |problem: String| SpecError::Description { path: path.to_string(), problem };
    let bytes = std::fs::read(path).map_err(|e| error(format!("cannot read it: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| error("it is not UTF-8 text".into()))?;
    let sha256 = crate::files::sha256_hex(text.as_bytes());
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| PathBuf::from(path));
    let mut loaded = LOADED.lock().expect("never poisoned");
    if let Some(described) = loaded.get(&(canonical.clone(), sha256.clone())) {
        return Ok(described);
    }
    let described = parse(path, &text, sha256.clone()).map_err(error)?;
    let described: &'static Described = Box::leak(Box::new(described));
    loaded.insert((canonical, sha256), described);
    Ok(described)
}

/// The file's keys (configs/rules/README.md documents each).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: String,
    #[serde(default)]
    summary: String,
    #[serde(default)]
    source: String,
    board: Spanned<BoardSection>,
    start: StartSection,
    #[serde(default)]
    general: GeneralSection,
    #[serde(default)]
    rebels: RebelsSection,
    #[serde(default)]
    results: ResultsSection,
    #[serde(default)]
    draws: DrawsSection,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardSection {
    grid: Option<Spanned<Grid>>,
    #[serde(default)]
    grid_links: GridLinks,
    #[serde(default)]
    points: Vec<Spanned<PointEntry>>,
    #[serde(default)]
    links: Vec<Spanned<String>>,
    #[serde(default)]
    general_only: Vec<Spanned<String>>,
    #[serde(default)]
    exits: Vec<Spanned<String>>,
    apex: Option<Spanned<String>>,
    bottom_row: Option<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Grid {
    files: u32,
    ranks: u32,
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum GridLinks {
    #[default]
    Orthogonal,
    /// Orthogonal, plus the diagonals through the points whose file + rank is even (a1 = (0, 0)).
    Alquerque,
    None,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PointEntry {
    label: String,
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartSection {
    general: Spanned<String>,
    rebels: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    first: FirstSide,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum FirstSide {
    #[default]
    General,
    Rebels,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GeneralSection {
    #[serde(default)]
    intervention: Option<Spanned<bool>>,
    #[serde(default)]
    deferred: Option<Spanned<bool>>,
    #[serde(default)]
    leap: LeapLines,
    #[serde(default, rename = "static")]
    static_capture: StaticWhen,
    #[serde(default)]
    mandatory: bool,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum LeapLines {
    #[default]
    None,
    Diagonal,
    Any,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum StaticWhen {
    #[default]
    Never,
    WhenCornered,
    Always,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RebelsSection {
    #[serde(default)]
    steps: RebelSteps,
    #[serde(default)]
    custodial: bool,
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum RebelSteps {
    #[default]
    All,
    /// North (toward larger y), east and west only.
    ForwardAndSideways,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ResultsSection {
    general_wins_at: Option<Spanned<u32>>,
    apex: Option<Spanned<ApexResult>>,
    blockade: Option<Spanned<bool>>,
    bottom_row_wins: Option<Spanned<bool>>,
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum ApexResult {
    #[default]
    None,
    GeneralWins,
    GeneralLoses,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DrawsSection {
    /// RULES.md 0.4's cap; 200 when absent.
    max_plies: Option<Spanned<u32>>,
}

/// A problem at a place in the file: `line N: key: message`.
struct At<'a> {
    text: &'a str,
}

impl At<'_> {
    fn line(&self, span: Range<usize>) -> usize {
        self.text[..span.start.min(self.text.len())].matches('\n').count() + 1
    }

    fn error(&self, span: Range<usize>, key: &str, message: impl std::fmt::Display) -> String {
        format!("line {}: {key}: {message}", self.line(span))
    }
}

/// The file read as [`File`], with every mistake of syntax, type or name in it: each mistake's key is
/// taken out and the rest read again, so that one run reports them all (`line N: key: message`).
fn read_file(text: &str) -> Result<File, Vec<String>> {
    let at = At { text };
    let (mut table, syntax) = toml::de::DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        let located = |e: &toml::de::Error| match e.span() {
            Some(span) => format!("line {}: {}", at.line(span), e.message()),
            None => e.message().to_string(),
        };
        return Err(syntax.iter().map(located).collect());
    }
    let mut problems = Vec::new();
    // The keys taken out so far.
    let mut taken: Vec<Vec<String>> = Vec::new();
    loop {
        let reader = toml::de::Deserializer::from(table.clone());
        let e = match serde_path_to_error::deserialize::<_, File>(reader) {
            Ok(file) if problems.is_empty() => return Ok(file),
            Ok(_) => return Err(problems),
            Err(e) => e,
        };
        let keys: Vec<String> = e
            .path()
            .iter()
            .filter_map(|segment| match segment {
                serde_path_to_error::Segment::Map { key } if !key.starts_with("$__") => Some(key.clone()),
                _ => None,
            })
            .collect();
        let error = e.into_inner();
        // A required key taken out for its mistake is missing now: that is the same mistake again.
        let missing = error.message().strip_prefix("missing field `").and_then(|m| m.split('`').next());
        if let Some(field) = missing {
            let path = [&keys[..], &[field.to_string()]].concat();
            if taken.contains(&path) {
                return Err(problems);
            }
        }
        let key = if keys.is_empty() { String::new() } else { format!("{}: ", keys.join(".")) };
        problems.push(match error.span() {
            Some(span) => format!("line {}: {key}{}", at.line(span), error.message()),
            None => format!("{key}{}", error.message()),
        });
        // A key that cannot be taken out (a section missing, a mistake at the top) ends the reading.
        if problems.len() >= 32 || !remove_key(table.get_mut(), &keys) {
            return Err(problems);
        }
        taken.push(keys);
    }
}

/// The value of `result`, or `None` with its problem noted.
fn noted<T>(problems: &mut Vec<String>, result: Result<T, String>) -> Option<T> {
    result.map_err(|problem| problems.push(problem)).ok()
}

/// Problems as one message, in the order of their lines: one on its own, several each on a line.
fn listed(mut problems: Vec<String>) -> String {
    let line = |p: &String| p.strip_prefix("line ").and_then(|r| r.split(':').next()?.parse::<usize>().ok());
    problems.sort_by_key(|p| line(p).unwrap_or(usize::MAX));
    match problems.len() {
        1 => problems.remove(0),
        n => format!("{n} mistakes:\n  {}", problems.join("\n  ")),
    }
}

/// Takes the key at `keys` out of `table`; false where there is none to take.
fn remove_key(table: &mut toml::de::DeTable, keys: &[String]) -> bool {
    let Some((first, rest)) = keys.split_first() else { return false };
    let Some(name) = table.keys().find(|k| k.get_ref() == first).cloned() else { return false };
    if rest.is_empty() {
        return table.remove(&name).is_some();
    }
    match table.get_mut(&name).map(|v| v.get_mut()) {
        Some(toml::de::DeValue::Table(inner)) => remove_key(inner, rest),
        _ => false,
    }
}

fn parse(path: &str, text: &str, sha256: String) -> Result<Described, String> {
    let file = read_file(text).map_err(listed)?;
    let at = At { text };
    // Every mistake is noted and the checks go on, so that one run names them all.
    let mut problems: Vec<String> = Vec::new();
    let board_span = file.board.span();
    let section = file.board.into_inner();
    let parts = board_parts(&section, &at).map_err(|problem| listed(vec![problem]))?;
    let labels: Vec<String> = parts.points.iter().map(|(l, _)| l.clone()).collect();
    let point =
        |name: &Spanned<String>, key: &str| {
            labels.iter().position(|l| l == name.get_ref()).map(|p| p as u8).ok_or_else(|| {
                at.error(name.span(), key, format!("no point `{}` on the board", name.get_ref()))
            })
        };
    // Points are checked here, where the line of the key is known, before the board is assembled.
    let region = |problems: &mut Vec<String>, names: &[Spanned<String>], key: &str| {
        names.iter().filter_map(|name| noted(problems, point(name, key))).fold(0u64, |mask, p| mask | 1 << p)
    };
    let general_only = region(&mut problems, &section.general_only, "board.general_only");
    region(&mut problems, &section.exits, "board.exits");
    if let Some(bottom) = &section.bottom_row {
        region(&mut problems, bottom, "board.bottom_row");
    }
    if let Some(apex) = &section.apex {
        noted(&mut problems, point(apex, "board.apex"));
    }
    let general_start = noted(&mut problems, point(&file.start.general, "start.general"));
    let mut rebels_start = 0u64;
    for rebel in file.start.rebels.get_ref() {
        let Some(p) = noted(&mut problems, point(rebel, "start.rebels")) else { continue };
        let problem = if rebels_start >> p & 1 == 1 {
            Some("is listed twice")
        } else if Some(p) == general_start {
            Some("is the General's starting point")
        } else if general_only >> p & 1 == 1 {
            Some("is a point only the General may stand on (board.general_only)")
        } else {
            None
        };
        match problem {
            Some(problem) => problems.push(at.error(
                rebel.span(),
                "start.rebels",
                format!("`{}` {problem}", rebel.get_ref()),
            )),
            None => rebels_start |= 1 << p,
        }
    }
    let rebel_count = rebels_start.count_ones();
    if file.start.rebels.get_ref().is_empty() {
        problems.push(at.error(
            file.start.rebels.span(),
            "start.rebels",
            "the Rebels need at least one point",
        ));
    }
    let general = &file.general;
    let (intervention, deferred) = (
        general.intervention.as_ref().is_some_and(|v| *v.get_ref()),
        general.deferred.as_ref().is_some_and(|v| *v.get_ref()),
    );
    if let Some(span) = general.deferred.as_ref().filter(|_| intervention && deferred).map(|d| d.span()) {
        problems.push(at.error(
            span,
            "general.deferred",
            "a move captures by intervention or by deferred capture, not both (RULES.md 4.1 and 4.3)",
        ));
    }
    let results = &file.results;
    let threshold = results.general_wins_at.as_ref();
    // Measured against the Rebels listed, once each of them is a point they may start on.
    let rebels_sound = rebel_count as usize == file.start.rebels.get_ref().len() && rebel_count > 0;
    if let Some(n) = threshold.filter(|n| rebels_sound && *n.get_ref() >= rebel_count) {
        problems.push(at.error(
            n.span(),
            "results.general_wins_at",
            format!("must be below the {rebel_count} starting Rebels, or the General wins at once"),
        ));
    }
    let apex_result = results.apex.as_ref().map_or(ApexResult::None, |a| *a.get_ref());
    let no_apex = section.apex.is_none();
    if let Some(result) = results.apex.as_ref().filter(|_| apex_result != ApexResult::None && no_apex) {
        problems.push(at.error(result.span(), "results.apex", "the board has no apex (board.apex)"));
    }
    let max_plies = file.draws.max_plies.as_ref().map_or(200, |m| *m.get_ref());
    if let Some(cap) = file.draws.max_plies.as_ref().filter(|_| max_plies == 0) {
        problems.push(at.error(cap.span(), "draws.max_plies", "must be at least 1"));
    }
    let flag = |value: &Option<Spanned<bool>>| value.as_ref().is_some_and(|v| *v.get_ref());
    let (blockade, bottom_row_wins) = (flag(&results.blockade), flag(&results.bottom_row_wins));
    let assembled = Board::assemble(parts).map_err(|e| at.error(board_span.clone(), "board", e));
    let board = match assembled {
        Ok(board) => Some(board),
        Err(problem) => {
            problems.push(problem);
            None
        }
    };
    let blockade_impossible = board.as_ref().is_some_and(|b| b.exits == 0 || b.privy == 0);
    if let Some(set) = results.blockade.as_ref().filter(|_| blockade && blockade_impossible) {
        problems.push(at.error(
            set.span(),
            "results.blockade",
            "a blockade needs board.exits and board.general_only (the General on one with Rebels on every exit)",
        ));
    }
    let (Some(board), Some(general_start), true) = (board, general_start, problems.is_empty()) else {
        return Err(listed(problems));
    };
    let board = Board::register(board)?;
    let rules = HuntRules {
        board: board.kind,
        first: match file.start.first {
            FirstSide::General => GENERAL,
            FirstSide::Rebels => REBELS,
        },
        rebel_count,
        general_start,
        rebels_start,
        intervention,
        deferred,
        leap: match general.leap {
            LeapLines::None => Leap::None,
            LeapLines::Diagonal => Leap::Diagonal,
            LeapLines::Any => Leap::AnyLine,
        },
        static_capture: match general.static_capture {
            StaticWhen::Never => StaticCapture::Never,
            StaticWhen::WhenCornered => StaticCapture::WhenCornered,
            StaticWhen::Always => StaticCapture::Always,
        },
        mandatory: general.mandatory,
        rebels_forward_only: file.rebels.steps == RebelSteps::ForwardAndSideways,
        general_wins_at: threshold.map(|n| *n.get_ref()),
        apex_wins: apex_result == ApexResult::GeneralWins,
        apex_loses: apex_result == ApexResult::GeneralLoses,
        blockade,
        bottom_row_wins,
        custodial: file.rebels.custodial,
        max_plies,
    };
    let options = option_schema(&rules, threshold.map_or(0, |n| *n.get_ref()));
    Ok(Described {
        path: path.to_string(),
        sha256,
        name: file.name,
        summary: file.summary,
        source: file.source,
        options,
        rules,
        has_threshold: threshold.is_some(),
    })
}

/// The board's points and links: the grid's, then the listed ones.
fn board_parts(section: &BoardSection, at: &At) -> Result<BoardParts, String> {
    let mut points: Vec<(String, (i32, i32))> = Vec::new();
    let mut links: Vec<(String, String)> = Vec::new();
    if let Some(grid) = &section.grid {
        let Grid { files, ranks } = *grid.get_ref();
        if !(1..=26).contains(&files) || ranks == 0 || u64::from(files) * u64::from(ranks) > 64 {
            return Err(at.error(
                grid.span(),
                "board.grid",
                format!(
                    "{files} files × {ranks} ranks: files are 1..26 (a..z) and a board has at most 64 points"
                ),
            ));
        }
        let label = |x: u32, y: u32| format!("{}{}", (b'a' + x as u8) as char, y + 1);
        for y in 0..ranks {
            for x in 0..files {
                points.push((label(x, y), (2 * x as i32, 2 * y as i32)));
                let mut link = |dx: i32, dy: i32| {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    if (0..files as i32).contains(&nx) && (0..ranks as i32).contains(&ny) {
                        links.push((label(x, y), label(nx as u32, ny as u32)));
                    }
                };
                if section.grid_links != GridLinks::None {
                    link(1, 0);
                    link(0, 1);
                }
                if section.grid_links == GridLinks::Alquerque && (x + y) % 2 == 0 {
                    link(1, 1);
                    link(-1, 1);
                }
            }
        }
    } else if section.grid_links != GridLinks::None {
        return Err(at.error(0..0, "board.grid_links", "links of a grid need board.grid"));
    }
    for entry in &section.points {
        let PointEntry { label, x, y } = entry.get_ref();
        let doubled = |v: f64| (v * 2.0).fract() == 0.0 && (v * 2.0).abs() < 1e6;
        if !doubled(*x) || !doubled(*y) {
            return Err(at.error(
                entry.span(),
                "board.points",
                format!("`{label}` at ({x}, {y}): coordinates are whole or half units"),
            ));
        }
        if points.iter().any(|(l, _)| l == label) {
            return Err(at.error(
                entry.span(),
                "board.points",
                format!("`{label}` is already a point of the board"),
            ));
        }
        points.push((label.clone(), ((x * 2.0) as i32, (y * 2.0) as i32)));
    }
    for link in &section.links {
        let Some((a, b)) = link.get_ref().split_once('-').map(|(a, b)| (a.trim(), b.trim())) else {
            return Err(at.error(
                link.span(),
                "board.links",
                format!("`{}` is not of the form a1-b2", link.get_ref()),
            ));
        };
        let coordinates = |label: &str| {
            points.iter().find(|(l, _)| l == label).map(|(_, xy)| *xy).ok_or_else(|| {
                at.error(
                    link.span(),
                    "board.links",
                    format!("`{}`: no point `{label}` on the board", link.get_ref()),
                )
            })
        };
        let ((ax, ay), (bx, by)) = (coordinates(a)?, coordinates(b)?);
        let (dx, dy) = (bx - ax, by - ay);
        if (dx, dy) == (0, 0) || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return Err(at.error(
                link.span(),
                "board.links",
                format!(
                    "`{}` is not horizontal, vertical or at 45° (a link's direction is a compass direction)",
                    link.get_ref()
                ),
            ));
        }
        links.push((a.to_string(), b.to_string()));
    }
    let names = |list: &[Spanned<String>]| list.iter().map(|n| n.get_ref().clone()).collect::<Vec<_>>();
    // The bottom row defaults to the points with the lowest y.
    let bottom_row = match &section.bottom_row {
        Some(list) => names(list),
        None => {
            let lowest = points.iter().map(|(_, (_, y))| *y).min().unwrap_or(0);
            points.iter().filter(|(_, (_, y))| *y == lowest).map(|(l, _)| l.clone()).collect()
        }
    };
    Ok(BoardParts {
        kind: super::board::BoardKind::Described(0),
        points,
        links,
        general_only: names(&section.general_only),
        exits: names(&section.exits),
        apex: section.apex.as_ref().map(|a| a.get_ref().clone()),
        bottom_row,
    })
}

/// The options of a described ruleset (RULES.md 0.1: `first` and `max_plies`, and the hunt family's
/// `capture` and `general_wins_at`), each defaulting to the file's value. Leaked: one per loaded file.
fn option_schema(rules: &HuntRules, threshold: u32) -> &'static [OptionSpec] {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let schema = vec![
        OptionSpec {
            key: "first",
            values: OptionValues::Choice(&["general", "rebels"]),
            default: if rules.first == GENERAL { "general" } else { "rebels" },
            meaning: "who moves first",
        },
        OptionSpec {
            key: "capture",
            values: OptionValues::Choice(&["optional", "mandatory"]),
            default: if rules.mandatory { "mandatory" } else { "optional" },
            meaning: "mandatory: if the General has a capturing move he must play one",
        },
        OptionSpec {
            key: "general_wins_at",
            values: OptionValues::Range(0, rules.rebel_count - 1),
            default: leak(threshold.to_string()),
            meaning: "the General wins when the Rebels are this many or fewer (0: when none is left)",
        },
        OptionSpec {
            key: "max_plies",
            values: OptionValues::Range(1, u32::MAX),
            default: leak(rules.max_plies.to_string()),
            meaning: "draw cap",
        },
    ];
    Box::leak(schema.into_boxed_slice())
}

/// The file a `file:` spec reads, if `spec` is one (split as [`Spec::parse`] splits it).
pub fn spec_path(spec: &str) -> Option<PathBuf> {
    Spec::parse(spec).ok()?.name.strip_prefix("file:").map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(name: &str, text: &str) -> Result<&'static Described, SpecError> {
        // One folder for the whole run (a file loads once per path, which a test checks), inside the
        // build's own output folder rather than left behind in /tmp.
        let dir = std::path::Path::new(env!("OUT_DIR")).join("described-tests");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        load(path.to_str().unwrap())
    }

    const TRIANGLE: &str = r#"
name = "triangle"
[board]
grid = { files = 3, ranks = 2 }
points = [{ label = "b3", x = 1, y = 2 }]
links = ["a2-b3", "b2-b3", "c2-b3"]
[start]
general = "b3"
rebels = ["a1", "c1"]
"#;

    #[test]
    fn a_described_board_is_laid_on_the_grid_of_its_coordinates_and_mirrored_when_symmetric() {
        let symmetric = load_text("triangle.toml", TRIANGLE).unwrap();
        let board = Board::get(symmetric.rules.board);
        assert_eq!(board.grid, (3, 3));
        assert_eq!(board.cells[board.point("b3").unwrap() as usize], (1, 2));
        assert!(board.symmetric);
        assert_eq!(board.label(board.mirror[board.point("a1").unwrap() as usize]), "c1");
        // Rebels' default bottom row: the lowest points.
        assert_eq!(board.labels_of(board.bottom_row), vec!["a1", "b1", "c1"]);

        // Without the link c2-b3 the board is no longer its own mirror image: no mirror augmentation.
        let lopsided = load_text("lopsided.toml", &TRIANGLE.replace(", \"c2-b3\"", "")).unwrap();
        let board = Board::get(lopsided.rules.board);
        assert!(!board.symmetric);
        let game = build(&lopsided.path, &[]).unwrap();
        use crate::nn::NetGame;
        assert_eq!(game.mirror_action_index(crate::game::ActionIndex::new(0)), None);
    }

    #[test]
    fn the_same_file_loads_once_and_an_equal_board_is_shared() {
        let first = load_text("once.toml", TRIANGLE).unwrap();
        let again = load_text("once.toml", TRIANGLE).unwrap();
        assert!(std::ptr::eq(first, again));
        // Another file on the same board (other rules) shares the board kind.
        let other = load_text("other.toml", &format!("{TRIANGLE}[general]\nleap = \"any\"\n")).unwrap();
        assert_eq!(first.rules.board, other.rules.board);
        assert_ne!(first.rules.leap, other.rules.leap);
    }
}
