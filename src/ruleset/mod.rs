//! Loading a ruleset directory: read every file, parse and decode each, compile the
//! scripts, then resolve the names that tie them together, and build what the engine
//! runs of it ([`crate::engine::Rules`], with the scripts as its hooks:
//! [`crate::script::ScriptHooks`]). Every problem of every file is collected; a ruleset
//! with any problem is not returned.

mod combat;
mod decisions;
mod equipment;
mod problem;
mod resolve;
mod settings;
mod tactics;

use indexmap::IndexMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

pub use crate::expr::Formula;
pub use crate::names::suggest;
pub use equipment::{Armour, Equipment, EquipmentValue, Weapon};
pub use problem::{RulesetProblem, UnknownName};

pub use settings::{Settings, StatisticKind};

use crate::engine::Rules;
use crate::engine::model::FightSettings;
use crate::engine::tactics::WrittenRule;
use crate::script::{Script, ScriptHooks, new_engine};
use crate::source::SourceFile;
use crate::tables::{Table, TableKind};

/// Every problem found while loading, stage by stage (syntax and checks of each file,
/// then scripts, formulas, equipment, then names across files), files in name order.
pub type Problems = Vec<miette::Report>;

/// A loaded, checked ruleset: the files as read, the scripts, and the rules the engine
/// runs, built from them.
pub struct Ruleset {
    /// The directory as the user named it.
    pub dir: String,
    pub settings: Settings,
    /// What a fight runs (the tables, the equipment, the tactics, combat.toml compiled,
    /// the hooks), shared by every fight of the ruleset.
    pub rules: Arc<Rules>,
    /// The file each table was read from, in the same order as `rules.tables`: the text
    /// of every row, for showing it again (`affray diff`).
    pub table_files: Vec<SourceFile>,
    pub scripts: Vec<Script>,
    pub formulas: Vec<Formula>,
    /// `combat.toml` as read, if the ruleset has one.
    pub combat_file: Option<SourceFile>,
    /// `tactics.toml` as read, if the ruleset has one.
    pub tactics_file: Option<SourceFile>,
    /// `tactics/<style>.toml` as read, by style.
    pub style_files: Vec<(String, SourceFile)>,
    /// `ruleset.toml` as read, for showing a setting again.
    pub settings_file: SourceFile,
    /// `equipment.toml` as read, if the ruleset has one.
    pub equipment_file: Option<SourceFile>,
    /// The sandboxed engine the scripts were compiled on, and will run on.
    pub engine: Arc<rhai::Engine>,
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ruleset")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl Ruleset {
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.rules.table(name)
    }

    /// The names of all tables, in load order, for suggestions.
    pub fn table_names(&self) -> Vec<String> {
        self.rules
            .tables
            .iter()
            .map(|t| t.name.value.clone())
            .collect()
    }

    /// The names of the hit locations (rows of the `hit_locations` table), in order.
    pub fn hit_location_names(&self) -> Vec<String> {
        self.rules.hit_location_names()
    }

    /// Every situational modifier of every modifier list, by name.
    pub fn modifier_names(&self) -> Vec<String> {
        self.rules
            .tables
            .iter()
            .filter_map(|t| match &t.kind {
                TableKind::Modifiers(list) => Some(list.modifiers().map(|m| m.name.value.clone())),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// A file's name inside the ruleset directory (`tables/<name>.tables`), whatever
    /// the directory was called on the command line.
    pub fn relative_name<'f>(&self, file: &'f SourceFile) -> &'f str {
        let name = file.name();
        name.strip_prefix(self.dir.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(name)
    }

    /// One line saying what was loaded.
    pub fn summary(&self) -> String {
        let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
        let mut kinds: Vec<(&str, usize)> = Vec::new();
        for table in &self.rules.tables {
            let kind = match table.kind {
                TableKind::Roll(_) => "roll",
                TableKind::Matrix(_) => "matrix",
                TableKind::Modifiers(_) => "modifiers",
                TableKind::Lookup(_) => "lookup",
                TableKind::Effects(_) => "effects",
            };
            match kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, count)) => *count += 1,
                None => kinds.push((kind, 1)),
            }
        }
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let functions: usize = self.scripts.iter().map(|s| s.functions.len()).sum();
        let lists = match self.rules.tactics.decisions.len() {
            0 => String::new(),
            1 => ", 1 tactics list".to_string(),
            n => format!(", {n} tactics lists"),
        };
        let lists = match self.rules.tactics.styles.len() {
            0 => lists,
            1 => format!("{lists}, 1 tactics style"),
            n => format!("{lists}, {n} tactics styles"),
        };
        let lists = match &self.rules.combat {
            Some(combat) => format!(
                "{lists}, combat.toml ({}, {}, {})",
                plural(combat.tests.len(), "test"),
                plural(combat.exchanges.len(), "exchange"),
                plural(combat.turn.choices.len(), "action"),
            ),
            None => lists,
        };
        format!(
            "{}: {} is valid: {} ({}), {} ({}), {}{lists}, {}, {}, {}",
            self.dir,
            self.settings.title,
            plural(self.rules.tables.len(), "table"),
            kinds.join(", "),
            plural(self.scripts.len(), "script"),
            plural(functions, "function"),
            plural(self.formulas.len(), "formula"),
            plural(self.rules.equipment.weapons.len(), "weapon"),
            plural(self.rules.equipment.shields.len(), "shield"),
            plural(self.rules.equipment.armour.len(), "armour"),
        )
    }

    /// The resolved model, for `affray dump`.
    pub fn dump(&self) -> impl Serialize + '_ {
        fn written(
            lists: &crate::names::NameMap<crate::engine::tactics::PriorityList>,
        ) -> IndexMap<&str, &[WrittenRule]> {
            lists
                .iter()
                .map(|(decision, list)| (decision.as_str(), list.written.as_slice()))
                .collect()
        }
        #[derive(Serialize)]
        struct Dump<'r> {
            settings: &'r Settings,
            tables: Vec<&'r Table>,
            scripts: Vec<ScriptDump<'r>>,
            equipment: &'r Equipment,
            /// The priority lists as written, by decision.
            tactics: IndexMap<&'r str, &'r [WrittenRule]>,
            /// The styles' lists as written, by style and decision.
            #[serde(skip_serializing_if = "IndexMap::is_empty")]
            tactics_styles: IndexMap<&'r str, IndexMap<&'r str, &'r [WrittenRule]>>,
            /// `combat.toml` as written (it was decoded and compiled when it loaded).
            #[serde(skip_serializing_if = "Option::is_none")]
            combat: Option<toml::Value>,
        }
        #[derive(Serialize)]
        struct ScriptDump<'r> {
            module: &'r str,
            functions: Vec<String>,
        }
        Dump {
            settings: &self.settings,
            tables: self.rules.tables.iter().collect(),
            scripts: self
                .scripts
                .iter()
                .map(|s| ScriptDump {
                    module: &s.module,
                    functions: s
                        .functions
                        .iter()
                        .map(|(name, arity)| format!("{name}/{arity}"))
                        .collect(),
                })
                .collect(),
            equipment: &self.rules.equipment,
            tactics: written(&self.rules.tactics.decisions),
            tactics_styles: self
                .rules
                .tactics
                .styles
                .iter()
                .map(|(style, lists)| (style.as_str(), written(lists)))
                .collect(),
            combat: self
                .combat_file
                .as_ref()
                .and_then(|file| toml::from_str(file.text()).ok()),
        }
    }
}

/// Read a file the user named (a scenario, a dice file) as a source for diagnostics.
pub fn read_source(path: &Path) -> Result<SourceFile, miette::Report> {
    let name = path.display().to_string();
    match fs::read_to_string(path) {
        Ok(text) => Ok(SourceFile::new(name, text)),
        Err(error) => Err(RulesetProblem::Read {
            path: name,
            message: error.to_string(),
        }
        .into()),
    }
}

/// Load and check the ruleset in `dir`.
pub fn load(dir: &Path) -> Result<Ruleset, Problems> {
    let loaded = load_all(dir);
    match loaded.ruleset {
        Some(ruleset) if loaded.problems.is_empty() => Ok(ruleset),
        _ => Err(loaded.problems),
    }
}

/// A part of a ruleset that may fail to load whole, while the rest loads: what the names
/// a scenario gives are checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A table file did not parse: its tables (hit locations, modifiers) are missing.
    Tables,
    /// A script did not compile: its functions (`choose_NAME`) are missing.
    Scripts,
    Equipment,
    /// `tactics.toml` or a style of `tactics/`.
    Tactics,
    Combat,
}

impl Part {
    /// The files of this part, as a sentence names them.
    pub fn files(self) -> &'static str {
        match self {
            Part::Tables => "a table file",
            Part::Scripts => "a script",
            Part::Equipment => "equipment.toml",
            Part::Tactics => "the tactics lists",
            Part::Combat => "combat.toml",
        }
    }

    /// What a scenario names of this part, for a sentence.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Part::Tables => &["hit locations", "modifiers", "choices"],
            Part::Scripts | Part::Combat => &["decisions", "choices"],
            Part::Equipment => &["weapons", "armour"],
            Part::Tactics => &["tactics styles", "decisions", "choices"],
        }
    }

    /// The codes of the scenario problems that may come of this part being incomplete
    /// rather than of the scenario.
    pub fn scenario_codes(self) -> &'static [&'static str] {
        match self {
            Part::Tables => &[
                "affray::scenario::unknown_location",
                "affray::scenario::unknown_modifier",
                "affray::scenario::unknown_choice",
            ],
            Part::Scripts | Part::Combat => &[
                "affray::scenario::unknown_decision",
                "affray::scenario::unknown_choice",
            ],
            Part::Equipment => &[
                "affray::scenario::unknown_weapon",
                "affray::scenario::unknown_armour",
            ],
            Part::Tactics => &[
                "affray::scenario::unknown_tactics",
                "affray::scenario::unknown_decision",
                "affray::scenario::unknown_choice",
            ],
        }
    }
}

/// A ruleset loaded as far as it would, for `check`: every problem, and the model when
/// `ruleset.toml` could be read, with the parts that did not load whole.
pub struct Loaded {
    pub ruleset: Option<Ruleset>,
    pub problems: Problems,
    pub incomplete: Vec<Part>,
}

/// Load the ruleset in `dir` as far as it goes, problems or not.
pub fn load_all(dir: &Path) -> Loaded {
    let loaded = |problems| Loaded {
        ruleset: None,
        problems,
        incomplete: Vec::new(),
    };
    let shown = dir.display().to_string();
    let shown = shown.trim_end_matches('/').to_string();
    let settings_path = dir.join("ruleset.toml");
    if !dir.is_dir() || !settings_path.is_file() {
        let reason = if dir.is_dir() {
            "it has no ruleset.toml"
        } else {
            "no such directory"
        };
        return loaded(vec![
            RulesetProblem::NotARuleset {
                dir: shown,
                reason: reason.into(),
            }
            .into(),
        ]);
    }
    let mut problems = Problems::new();
    let read = |path: &Path, problems: &mut Problems| -> Option<SourceFile> {
        let name = display_name(&shown, dir, path);
        match fs::read_to_string(path) {
            Ok(text) => Some(SourceFile::new(name, text)),
            Err(error) => {
                problems.push(
                    RulesetProblem::Read {
                        path: name,
                        message: error.to_string(),
                    }
                    .into(),
                );
                None
            }
        }
    };

    let settings_file = read(&settings_path, &mut problems);
    let table_files: Vec<SourceFile> = files_in(&dir.join("tables"), "tables", &mut problems)
        .iter()
        .filter_map(|path| read(path, &mut problems))
        .collect();
    let script_files: Vec<(String, SourceFile)> =
        files_in(&dir.join("scripts"), "rhai", &mut problems)
            .iter()
            .filter_map(|path| {
                let module = path.file_stem()?.to_string_lossy().into_owned();
                read(path, &mut problems).map(|file| (module, file))
            })
            .collect();
    let equipment_path = dir.join("equipment.toml");
    let equipment_file = if equipment_path.exists() {
        read(&equipment_path, &mut problems)
    } else {
        None
    };

    let tactics_path = dir.join("tactics.toml");
    let tactics_file = if tactics_path.exists() {
        read(&tactics_path, &mut problems)
    } else {
        None
    };
    let style_files: Vec<(String, SourceFile)> =
        files_in(&dir.join("tactics"), "toml", &mut problems)
            .iter()
            .filter_map(|path| {
                let style = path.file_stem()?.to_string_lossy().into_owned();
                read(path, &mut problems).map(|file| (style, file))
            })
            .collect();

    let combat_path = dir.join("combat.toml");
    let combat_file = if combat_path.exists() {
        read(&combat_path, &mut problems)
    } else {
        None
    };

    let engine = new_engine();
    let inputs = resolve::Inputs {
        settings: settings_file.as_ref(),
        tables: &table_files,
        scripts: &script_files,
        equipment: equipment_file.as_ref(),
        tactics: tactics_file.as_ref(),
        styles: &style_files,
        combat: combat_file.as_ref(),
    };
    let resolved = resolve::resolve(&engine, inputs, &mut problems);
    match (resolved, settings_file) {
        (Some(resolved), Some(settings_file)) => {
            let engine = Arc::new(engine);
            let hooks = ScriptHooks::new(
                Arc::clone(&engine),
                resolved.scripts.clone(),
                resolved.formulas.clone(),
                &resolved.settings.hooks,
                resolved
                    .settings
                    .tactics
                    .as_ref()
                    .map(|name| name.get_ref().as_str()),
            );
            let rules = Rules::new(
                shown.clone(),
                fight_settings(&resolved.settings),
                resolved.tables,
                resolved.equipment,
                resolved.tactics,
                resolved.combat,
                Arc::new(hooks),
            );
            let ruleset = Ruleset {
                dir: shown,
                settings: resolved.settings,
                rules: Arc::new(rules),
                table_files: resolved.table_files,
                scripts: resolved.scripts,
                formulas: resolved.formulas,
                combat_file,
                tactics_file,
                style_files,
                settings_file,
                equipment_file,
                engine,
            };
            Loaded {
                ruleset: Some(ruleset),
                problems,
                incomplete: resolved.incomplete,
            }
        }
        _ => loaded(problems),
    }
}

/// What a fight reads of ruleset.toml.
fn fight_settings(settings: &Settings) -> FightSettings {
    FightSettings {
        title: settings.title.clone(),
        cycle: settings.sequence.cycle,
        max_rounds: *settings.sequence.max_rounds.get_ref(),
        limits: settings.limits.clone(),
        hit_locations: settings
            .hit_locations
            .as_ref()
            .map(|name| name.get_ref().clone()),
    }
}

/// The files of `folder` ending in `.extension`, sorted by name so that problems come out
/// in the same order on every machine. A missing folder holds no files.
fn files_in(folder: &Path, extension: &str, problems: &mut Problems) -> Vec<PathBuf> {
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(error) => {
            problems.push(
                RulesetProblem::Read {
                    path: folder.display().to_string(),
                    message: error.to_string(),
                }
                .into(),
            );
            return Vec::new();
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == extension))
        .collect();
    paths.sort();
    paths
}

/// `rulesets/legend` + `tables/fumbles.tables`, as the user would write it.
fn display_name(shown_dir: &str, dir: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(dir).unwrap_or(path);
    let relative = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    if shown_dir.is_empty() || shown_dir == "." {
        relative
    } else {
        format!("{shown_dir}/{relative}")
    }
}
