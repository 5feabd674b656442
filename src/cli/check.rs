//! `affray check <ruleset>`: the ruleset, then every scenario in its `scenarios/`, in
//! one run: a scenario is checked against as much of the ruleset as loaded.

use std::path::Path;

use affray::ruleset::{self, Problems};
use affray::scenario;

pub fn run(dir: &Path) -> Result<(), Problems> {
    let loaded = ruleset::load_all(dir);
    let mut problems = loaded.problems;
    let Some(ruleset) = loaded.ruleset else {
        problems.extend(scenario::not_checked(dir));
        return Err(problems);
    };
    let (scenarios, found) = scenario::check_all_within(&ruleset, dir, &loaded.incomplete);
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
