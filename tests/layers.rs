//! Layers point one way (ARCHITECTURE.md, "Layers"): the engine defines what it needs of
//! a ruleset and imports no loader, no script module and nothing above it. This reads
//! the files of `src/engine/` as text and fails on any line that names a module the
//! engine must not know, or rhai, with the file and line.

use std::fs;
use std::path::{Path, PathBuf};

/// The modules of the crate the engine must not name: the loaders (of a ruleset, of a
/// scenario), the script module, and the layers above the engine.
const FORBIDDEN: [&str; 5] = ["ruleset", "scenario", "script", "analysis", "cli"];

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `text` at `at` starts the word `word` (nothing of an identifier before or
/// after it).
fn word_at(text: &str, at: usize, word: &str) -> bool {
    text[at..].starts_with(word)
        && !text[..at].chars().next_back().is_some_and(is_ident)
        && !text[at + word.len()..].chars().next().is_some_and(is_ident)
}

/// How many `super::` reach the crate's root from the module of `file` (a path inside
/// `src/`): `engine/mod.rs` is the module `engine`, 1; `engine/pipeline/turn.rs` is
/// `engine::pipeline::turn`, 3.
fn depth(file: &Path) -> usize {
    let parts = file.components().count();
    if file.file_name().is_some_and(|name| name == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

/// What the line `code` names that the engine must not, if anything. `group` is set while the
/// line is inside a `crate::{ ... }` import, whose names are the crate's modules.
fn violation(code: &str, depth: usize, group: &mut Option<usize>) -> Option<String> {
    for (at, _) in code.match_indices("rhai") {
        if word_at(code, at, "rhai") {
            return Some("`rhai`: the script language is the script module's".into());
        }
    }
    // Paths from the crate's root: `crate::M`, or as many `super::` as reach it.
    let mut start = 0;
    for root in ["crate::".to_string(), "super::".repeat(depth)] {
        for (at, _) in code.match_indices(root.as_str()) {
            let before = &code[..at];
            if before.ends_with("super::") || before.chars().next_back().is_some_and(is_ident) {
                continue;
            }
            let rest = &code[at + root.len()..];
            for module in FORBIDDEN {
                if word_at(rest, 0, module) {
                    return Some(format!("`{root}{module}`"));
                }
            }
            if rest.starts_with('{') && group.is_none() {
                *group = Some(0);
                start = at + root.len() + 1;
            }
        }
    }
    // Inside `crate::{ ... }`: a forbidden module at the group's top level.
    let mut level = (*group)?;
    let mut found = None;
    let mut previous = ' ';
    for (offset, c) in code[start..].char_indices() {
        let at = start + offset;
        match c {
            '{' => level += 1,
            '}' if level == 0 => {
                *group = None;
                return found;
            }
            '}' => level -= 1,
            _ if level == 0 && !is_ident(previous) && previous != ':' && found.is_none() => {
                found = FORBIDDEN
                    .into_iter()
                    .find(|module| word_at(code, at, module))
                    .map(|module| format!("`crate::{{{module}, ...}}`"));
            }
            _ => {}
        }
        previous = c;
    }
    *group = Some(level);
    found
}

#[test]
fn the_engine_names_no_loader_no_script_module_and_no_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src.join("engine"));
    assert!(!files.is_empty(), "no files under src/engine");
    let mut found = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&src).expect("a file under src/");
        let text = fs::read_to_string(path)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
        let mut group = None;
        for (index, line) in text.lines().enumerate() {
            if let Some(what) = violation(line, depth(relative), &mut group) {
                found.push(format!(
                    "src/{}:{}: names {what}\n    {}",
                    relative.display(),
                    index + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "layers point one way: the engine defines what it needs (engine::model, engine::Rules, \
         engine::hooks::RulesetHooks) and names no loader (ruleset, scenario), no script module \
         and nothing above it (analysis, cli). Move what it needs into the engine, or call it \
         through the hooks:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_every_way_of_naming_a_forbidden_module() {
    let check = |line: &str, depth: usize| violation(line, depth, &mut None).is_some();
    assert!(check("use crate::ruleset::Ruleset;", 2));
    assert!(check("    weapon: &crate::scenario::Statistic,", 2));
    assert!(check("/// See [`crate::script::ScriptHooks`].", 2));
    assert!(check("use crate::{dice::DiceExpr, cli::Args};", 2));
    assert!(check("use super::super::analysis::Report;", 2));
    assert!(check("use super::super::super::ruleset::Ruleset;", 3));
    assert!(check("let value: rhai::Dynamic = x;", 2));
    assert!(check("// turned into rhai errors", 2));
    let mut group = None;
    assert!(violation("use crate::{", 2, &mut group).is_none());
    assert!(violation("    dice::DiceExpr,", 2, &mut group).is_none());
    assert!(violation("    ruleset::Ruleset,", 2, &mut group).is_some());
    assert!(violation("};", 2, &mut group).is_none());
    assert!(group.is_none());
    assert!(violation("use crate::{dice, cli::Args};", 2, &mut group).is_some());
    assert!(
        group.is_none(),
        "a group closes on the line that names a forbidden module"
    );
    assert!(!check("use crate::engine::model::Weapon;", 2));
    assert!(!check("use super::super::reads::TestResult;", 3));
    assert!(!check("use super::scenario_tools;", 2));
    assert!(!check("use crate::tables::{Table, TableKind};", 2));
    assert!(!check("let rhaix = 1; // a script's ruleset", 2));
}
