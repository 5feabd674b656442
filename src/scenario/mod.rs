//! Scenarios: who fights whom, with what, under which modifiers, in which ruleset.
//! A scenario is decoded (`file.rs`), then every name in it is checked against its
//! ruleset and resolved (`resolve.rs`) into the engine's model of it
//! ([`crate::engine::model::Scenario`]).

mod file;
mod problem;
mod resolve;
pub mod vary;

use std::path::{Path, PathBuf};

pub use problem::{ScenarioProblem, UnusedChoice};

pub use crate::engine::model::{CombatantSpec, Scenario, ScriptedChoice, Skill, Statistic};
use crate::ruleset::{self, Part, Problems, Ruleset, RulesetProblem, UnknownName};

use crate::source::SourceFile;

impl Scenario {
    /// The scripted choices a fight left unused, as diagnostics of `severity`.
    pub fn unused_choices(
        &self,
        unused: &[ScriptedChoice],
        severity: miette::Severity,
    ) -> Vec<miette::Report> {
        let Some(file) = &self.file else {
            return Vec::new();
        };
        unused
            .iter()
            .map(|choice| miette::Report::new(UnusedChoice::new(file, choice, severity)))
            .collect()
    }
}

impl Scenario {
    /// The scripted choices none of `check`'s fights (with `seeds`) used, as warnings.
    pub fn unused_in_check(&self, unused: &[ScriptedChoice], seeds: &str) -> Vec<miette::Report> {
        let Some(file) = &self.file else {
            return Vec::new();
        };
        unused
            .iter()
            .map(|choice| {
                miette::Report::new(
                    UnusedChoice::new(file, choice, miette::Severity::Warning).in_check(seeds),
                )
            })
            .collect()
    }
}

/// Load a scenario and its ruleset. The ruleset is `ruleset_dir` when given (to run a
/// scenario under a house-ruled copy), else the one the scenario names.
pub fn load(path: &Path, ruleset_dir: Option<&Path>) -> Result<(Ruleset, Scenario), Problems> {
    let file = ruleset::read_source(path).map_err(|error| vec![error])?;
    let decoded = resolve::decode(&file)?;
    let named = decoded.ruleset.get_ref().clone();
    let (dir, by_location) = dir_of(path, &named, ruleset_dir);
    let ruleset = ruleset::load(&dir)?;
    if by_location && ruleset.settings.name != named {
        return Err(vec![
            ScenarioProblem::wrong_ruleset(&file, &decoded.ruleset, &ruleset).into(),
        ]);
    }
    let scenario = resolve::resolve(&file, decoded, &ruleset)?;
    Ok((ruleset, scenario))
}

/// The ruleset folder of `<ruleset>/scenarios/<file>.toml`, wherever affray is started:
/// `scenarios/duel.toml` from inside the ruleset is `.`, `duel.toml` from inside
/// `scenarios/` is `..`.
fn ruleset_home(scenario: &Path) -> PathBuf {
    let folder = scenario
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty() && *folder != Path::new("."));
    match folder.and_then(Path::parent) {
        Some(home) if !home.as_os_str().is_empty() => home.to_path_buf(),
        Some(_) => PathBuf::from("."),
        None => PathBuf::from(".."),
    }
}

/// Check every scenario in `<ruleset>/scenarios/` against an already loaded ruleset.
pub fn check_all(ruleset: &Ruleset, dir: &Path) -> (usize, Problems) {
    let (count, _, problems) = check_all_within(ruleset, dir, &[]);
    (count, problems)
}

/// Check every scenario in `<ruleset>/scenarios/` against a ruleset that may have
/// loaded only in part: a name of an `incomplete` part is not checked (it would be
/// reported unknown for the part's sake), and one warning says which were not.
/// The scenarios that are sound come back with the count and the problems.
pub fn check_all_within(
    ruleset: &Ruleset,
    dir: &Path,
    incomplete: &[Part],
) -> (usize, Vec<Scenario>, Problems) {
    let (count, scenarios, problems) = check_each(ruleset, dir);
    (count, scenarios, within(problems, count, incomplete))
}

/// Scenario problems less those an `incomplete` part may account for, and one warning
/// naming what was not checked.
fn within(mut problems: Problems, count: usize, incomplete: &[Part]) -> Problems {
    let unchecked = |report: &miette::Report| {
        report.downcast_ref::<UnknownName>().is_some_and(|unknown| {
            incomplete
                .iter()
                .any(|part| part.scenario_codes().contains(&unknown.code))
        })
    };
    problems.retain(|report| !unchecked(report));
    if count > 0 && !incomplete.is_empty() {
        let mut names: Vec<&str> = Vec::new();
        for part in incomplete {
            for &name in part.names() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        let files: Vec<&str> = incomplete.iter().map(|part| part.files()).collect();
        problems.push(
            ScenarioProblem::NotChecked {
                names: and_list(&names),
                files: and_list(&files),
            }
            .into(),
        );
    }
    problems
}

/// `affray check scenario.toml`: the scenario's ruleset (as `fight` finds it) as far as
/// it loads, then the scenario against it. The ruleset, when `ruleset.toml` loaded.
pub fn check_file(path: &Path) -> (Option<Ruleset>, Option<Scenario>, Problems) {
    let file = match ruleset::read_source(path) {
        Ok(file) => file,
        Err(error) => return (None, None, vec![error]),
    };
    let decoded = match resolve::decode(&file) {
        Ok(decoded) => decoded,
        Err(problems) => return (None, None, problems),
    };
    let (dir, _) = dir_of(path, decoded.ruleset.get_ref(), None);
    let loaded = ruleset::load_all(&dir);
    let mut problems = loaded.problems;
    let Some(ruleset) = loaded.ruleset else {
        problems.push(
            ScenarioProblem::NotChecked {
                names: "names".into(),
                files: "ruleset.toml".into(),
            }
            .into(),
        );
        return (None, None, problems);
    };
    let (scenario, found) = match check_decoded(&ruleset, &file, decoded) {
        Ok(scenario) => (Some(scenario), Vec::new()),
        Err(found) => (None, found),
    };
    problems.extend(within(found, 1, &loaded.incomplete));
    (Some(ruleset), scenario, problems)
}

/// The ruleset folder a scenario names, and whether it was found by where the file lies
/// (then its name must be the ruleset's).
fn dir_of(path: &Path, named: &str, given: Option<&Path>) -> (PathBuf, bool) {
    match given {
        Some(dir) => (dir.to_path_buf(), false),
        None if named.contains('/') || named.starts_with('.') => {
            (path.parent().unwrap_or(Path::new(".")).join(named), false)
        }
        // rulesets/<name>/scenarios/<file>.toml: the ruleset is two folders up.
        None => (ruleset_home(path), true),
    }
}

/// One decoded scenario against a loaded ruleset.
fn check_decoded(
    ruleset: &Ruleset,
    file: &SourceFile,
    decoded: file::ScenarioFile,
) -> Result<Scenario, Problems> {
    let named = decoded.ruleset.get_ref();
    let is_path = named.contains('/') || named.starts_with('.');
    if !is_path && *named != ruleset.settings.name {
        return Err(vec![
            ScenarioProblem::wrong_ruleset(file, &decoded.ruleset, ruleset).into(),
        ]);
    }
    resolve::resolve(file, decoded, ruleset)
}

/// `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The scenarios of `<ruleset>/scenarios/` that could not be checked at all, as a
/// warning: the ruleset did not load far enough (its ruleset.toml).
pub fn not_checked(dir: &Path) -> Option<miette::Report> {
    let has_scenarios = std::fs::read_dir(dir.join("scenarios")).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.path().extension().is_some_and(|e| e == "toml"))
    });
    has_scenarios.then(|| {
        ScenarioProblem::NotChecked {
            names: "names".into(),
            files: "ruleset.toml".into(),
        }
        .into()
    })
}

fn check_each(ruleset: &Ruleset, dir: &Path) -> (usize, Vec<Scenario>, Problems) {
    let mut problems = Problems::new();
    let mut scenarios = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir.join("scenarios")) else {
        return (0, scenarios, problems);
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    for path in &paths {
        let shown = format!(
            "{}/scenarios/{}",
            ruleset.dir,
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) => {
                problems.push(
                    RulesetProblem::Read {
                        path: shown,
                        message: error.to_string(),
                    }
                    .into(),
                );
                continue;
            }
        };
        let file = SourceFile::new(shown, text);
        match resolve::decode(&file) {
            Ok(decoded) => match check_decoded(ruleset, &file, decoded) {
                Ok(scenario) => scenarios.push(scenario),
                Err(found) => problems.extend(found),
            },
            Err(found) => problems.extend(found),
        }
    }
    (paths.len(), scenarios, problems)
}
