//! `affray check <ruleset>`: the ruleset, then every scenario in its `scenarios/`, in
//! one run: a scenario is checked against as much of the ruleset as loaded.
//! `affray check <scenario.toml>`: that scenario and its ruleset.

use std::path::Path;

use affray::ruleset::{self, Problems};
use affray::scenario;

pub fn run(path: &Path) -> Result<(), Problems> {
    if path.is_file() {
        return run_scenario(path);
    }
    let loaded = ruleset::load_all(path);
    let mut problems = loaded.problems;
    let Some(ruleset) = loaded.ruleset else {
        problems.extend(scenario::not_checked(path));
        return Err(problems);
    };
    let (scenarios, found) = scenario::check_all_within(&ruleset, path, &loaded.incomplete);
    problems.extend(found);
    if !problems.is_empty() {
        return Err(problems);
    }
    let plural = if scenarios == 1 { "" } else { "s" };
    super::output::print(format!(
        "{}, {scenarios} scenario{plural}\n",
        ruleset.summary()
    ))?;
    Ok(())
}

fn run_scenario(path: &Path) -> Result<(), Problems> {
    let (ruleset, problems) = scenario::check_file(path);
    match ruleset {
        Some(ruleset) if problems.is_empty() => {
            super::output::print(format!(
                "{} is valid; {}\n",
                path.display(),
                ruleset.summary()
            ))?;
            Ok(())
        }
        _ => Err(problems),
    }
}
