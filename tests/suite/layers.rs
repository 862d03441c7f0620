//! The layer map in `src/lib.rs` against the imports in `src/`: no module uses one of a higher layer or
//! a sibling of its own (`train`, `lab` and `serve` share a layer and do not use each other), and the
//! files of a module do not import each other round in a circle, but for the circles listed in
//! [`KNOWN_CIRCLES`], which may shrink but not grow.
//!
//! An import is a path through `crate::`, `super::` or `self::`, or a child module named from its
//! parent's `mod.rs`; a `pub use` is an export, not a use, and unit tests (`mod tests`) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Modules whose files still import each other round a circle (each circle's members, sorted). A
/// circle that goes away should be taken off; a new one fails the test.
///
/// None remains. A family's types live in a file of their own (`hunt/state.rs`, `imperial/state.rs`,
/// `chess/moves.rs` and `position.rs`), so its notation and move generator read the types, not the
/// game, and check a move against any `Game` over them; the registry wraps what each family builds.
const KNOWN_CIRCLES: &[&[&str]] = &[];

/// Every module of `src/` (`game::hunt`, `tablebase`, …) with its source, `#[cfg(test)] mod tests`
/// and comment lines removed.
fn modules() -> BTreeMap<String, (String, bool)> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, (String, bool)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(root).unwrap().with_extension("");
            let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let is_mod = parts.last().is_some_and(|p| p == "mod");
            if is_mod {
                parts.pop();
            }
            let name = parts.join("::");
            if name == "main" || name == "lib" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let text = match text.find("#[cfg(test)]\nmod tests") {
                Some(at) => &text[..at],
                None => &text[..],
            };
            let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            out.insert(name, (code.join("\n"), is_mod));
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The paths that follow `prefix` in `code`, `a::{b, c::d}` read as `a::b` and `a::c`.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        // What comes before, in the whole code: the second `super::` of `super::super::` is not a path.
        let before = code[..code.len() - rest.len() + at].chars().next_back();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').count();
        let mut head = String::new();
        let mut tail = rest;
        loop {
            let n = ident(tail);
            if n == 0 || !tail[n..].starts_with("::") {
                break;
            }
            head += &tail[..n + 2];
            tail = &tail[n + 2..];
        }
        if let Some(group) = tail.strip_prefix('{') {
            let group = &group[..group.find(';').unwrap_or(group.len())];
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        paths.push(format!("{head}{}", &group[i..i + ident(&group[i..])]));
                        start = false;
                    }
                    c if !c.is_whitespace() => start = false,
                    _ => {}
                }
            }
        } else {
            let n = ident(tail);
            paths.push(format!("{head}{}", &tail[..n]));
        }
    }
    paths
}

/// `code` without its `mod` declarations and `pub use` exports.
fn without_declarations(code: &str) -> String {
    let mut kept = Vec::new();
    let mut skipping = false;
    for line in code.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("pub(crate) ").or(t.strip_prefix("pub(super) ")).unwrap_or(t);
        if !skipping && (t.starts_with("pub use ") || t.starts_with("mod ") || t.starts_with("pub mod ")) {
            skipping = true;
        }
        if skipping {
            skipping = !line.contains(';');
        } else {
            kept.push(line);
        }
    }
    kept.join("\n")
}

/// The longest prefix of `path` that names a module.
fn module_of(path: &str, modules: &BTreeMap<String, (String, bool)>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    (1..=parts.len()).rev().map(|n| parts[..n].join("::")).find(|m| modules.contains_key(m))
}

/// The path `super::PATH` names, read in `module`: each further `super::` goes one module higher.
fn above(module: &str, path: &str) -> String {
    let mut base: Vec<&str> = module.split("::").collect();
    base.pop();
    let mut path = path;
    while let Some(rest) = path.strip_prefix("super::") {
        base.pop();
        path = rest;
    }
    base.push(path);
    base.retain(|part| !part.is_empty());
    base.join("::")
}

/// Each module's imports of other modules.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let mut graph = BTreeMap::new();
    for (name, (code, is_mod)) in &modules {
        let join = |base: &str, path: &str| format!("{base}::{path}");
        let mut uses: Vec<String> = paths_after(code, "crate::");
        uses.extend(paths_after(code, "super::").iter().map(|p| above(name, p)));
        if *is_mod {
            // A parent names its children directly (`run::Run`); its `mod` and `pub use` lines only
            // declare and export.
            let used = without_declarations(code);
            uses.extend(paths_after(&used, "self::").iter().map(|p| join(name, p)));
            let children = modules.keys().filter_map(|m| m.strip_prefix(&format!("{name}::")));
            for child in children.filter(|c| !c.contains("::")) {
                if !paths_after(&used, &format!("{child}::")).is_empty() {
                    uses.push(join(name, child));
                }
            }
        }
        let targets: BTreeSet<String> =
            uses.iter().filter_map(|p| module_of(p, &modules)).filter(|m| m != name).collect();
        graph.insert(name.clone(), targets);
    }
    graph
}

/// The layers `src/lib.rs` draws, lowest first: "`files`, `seed` → `game` → …".
fn layer_map() -> BTreeMap<String, usize> {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let doc: String = lib.lines().filter_map(|l| l.strip_prefix("//!")).collect::<Vec<_>>().join(" ");
    let map = doc.split("lowest first").nth(1).expect("lib.rs lists its layers, lowest first");
    let map = &map[map.find(':').unwrap() + 1..map.find(". ").unwrap()];
    let mut layers = BTreeMap::new();
    for (rank, layer) in map.split('→').enumerate() {
        for module in layer.split(',') {
            layers.insert(module.trim().trim_matches(|c| c == '`' || c == ' ').to_string(), rank);
        }
    }
    layers
}

#[test]
fn no_module_uses_a_higher_layer_or_a_sibling() {
    let layers = layer_map();
    let top = |m: &str| m.split("::").next().unwrap().to_string();
    let mut wrong = Vec::new();
    for (module, targets) in imports() {
        let from = top(&module);
        let Some(&rank) = layers.get(&from) else {
            wrong.push(format!("{from} is not in lib.rs's layer map"));
            continue;
        };
        for target in targets.iter().filter(|t| top(t) != from) {
            let to = top(target);
            if layers.get(&to).is_none_or(|&r| r >= rank) {
                wrong.push(format!("{module} uses {target}"));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layer map of src/lib.rs:\n{}", wrong.join("\n"));
}

/// The strongly connected groups of more than one module (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        let graph = w.graph;
        for t in graph.get(v).into_iter().flatten() {
            if !w.index.contains_key(t.as_str()) {
                visit(w, t);
                let low = w.low[v].min(w.low[t.as_str()]);
                w.low.insert(v, low);
            } else if w.stack.contains(&t.as_str()) {
                let low = w.low[v].min(w.index[t.as_str()]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let at = w.stack.iter().rposition(|&s| s == v).unwrap();
            let group: Vec<String> = w.stack.drain(at..).map(String::from).collect();
            if group.len() > 1 {
                w.found.push(group);
            }
        }
    }
    let mut w =
        Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in graph.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found.iter_mut().for_each(|g| g.sort());
    w.found
}

#[test]
fn no_new_import_circle() {
    let found = circles(&imports());
    let known: Vec<Vec<String>> =
        KNOWN_CIRCLES.iter().map(|c| c.iter().map(|s| s.to_string()).collect()).collect();
    let new: Vec<String> = found.iter().filter(|c| !known.contains(c)).map(|c| c.join(" → ")).collect();
    assert!(new.is_empty(), "modules importing each other round a circle:\n{}", new.join("\n"));
    let gone: Vec<String> = known.iter().filter(|c| !found.contains(c)).map(|c| c.join(", ")).collect();
    assert!(gone.is_empty(), "circles gone (take them off KNOWN_CIRCLES):\n{}", gone.join("\n"));
}

#[test]
fn the_reader_sees_imports_as_written() {
    let paths = paths_after("use crate::game::{Game, hunt::{HuntGame, HuntMove}};", "crate::");
    assert_eq!(paths, ["game::Game", "game::hunt"]);
    assert_eq!(paths_after("x(crate::nn::load(p)); mycrate::z", "crate::"), ["nn::load"]);
    let uses = paths_after("use super::super::analysis::GameStats; use super::Evidence;", "super::");
    assert_eq!(uses, ["super::analysis::GameStats", "Evidence"]);
    assert_eq!(above("lab::claims::read", &uses[0]), "lab::analysis::GameStats");
    assert_eq!(above("lab::claims::read", &uses[1]), "lab::claims::Evidence");
    assert_eq!(above("lab", "seed::fnv1a"), "seed::fnv1a");
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")].iter().fold(BTreeMap::new(), |mut g, (f, t)| {
            g.entry(f.to_string()).or_insert_with(BTreeSet::new).insert(t.to_string());
            g
        });
    assert_eq!(circles(&graph), [vec!["a".to_string(), "b".into(), "c".into()]]);
}

/// The most lines a `cli/` file may hold (tests left out): a command's arguments, its call into the
/// library and its printing have always fitted; the files that grew past it were doing library work.
const MOST_CLI_LINES: usize = 500;

/// Calls that play games: a move applied to a state, a playout, a match or one of its games.
const PLAYS_GAMES: [&str; 4] = [".apply(&mut", "random_playout(", "run_match(", "play_match_game("];

/// Where `code` plays games inside a loop (`for`, `while`, `loop`): the line of each such call. A loop
/// is followed by brace depth from its keyword to the end of its block.
fn game_loops(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut open_loops: Vec<i32> = Vec::new();
    let mut depth = 0i32;
    for line in code.lines() {
        let words: Vec<&str> = line.split(|c: char| !c.is_alphanumeric() && c != '_').collect();
        if words.iter().any(|w| matches!(*w, "for" | "while" | "loop")) && line.trim_end().ends_with('{') {
            open_loops.push(depth);
        }
        if !open_loops.is_empty() && PLAYS_GAMES.iter().any(|call| line.contains(call)) {
            found.push(line.trim().to_string());
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        while open_loops.last().is_some_and(|&d| depth <= d) {
            open_loops.pop();
        }
    }
    found
}

/// The CLI parses, calls the library and prints (README, `cli/mod.rs`): no `cli/` file is longer
/// than [`MOST_CLI_LINES`], and none plays games in a loop of its own.
#[test]
fn the_cli_only_parses_calls_and_prints() {
    let mut wrong = Vec::new();
    for (name, (code, _)) in modules().iter().filter(|(name, _)| name.starts_with("cli")) {
        let lines = code.lines().count();
        if lines > MOST_CLI_LINES {
            wrong.push(format!("{name}: {lines} lines (at most {MOST_CLI_LINES})"));
        }
        for call in game_loops(code) {
            wrong.push(format!("{name} plays games in a loop: `{call}`"));
        }
    }
    assert!(wrong.is_empty(), "library work in the CLI:\n{}", wrong.join("\n"));
}

#[test]
fn a_game_loop_is_found_and_a_single_call_is_not() {
    let looped = "fn f() {\n    for game in 0..n {\n        let r = run_match(g, a, s, &|_| {})?;\n    }\n}";
    assert_eq!(game_loops(looped), ["let r = run_match(g, a, s, &|_| {})?;"]);
    let nested = "while x {\n    if y {\n        game.apply(&mut state, mv);\n    }\n}\nrun_match(g);";
    assert_eq!(game_loops(nested), ["game.apply(&mut state, mv);"]);
    assert!(game_loops("fn f() {\n    let r = run_match(g, a, s, &|_| {})?;\n}\nfor x in y {\n}").is_empty());
}
