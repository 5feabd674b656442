//! `affray check <ruleset>`: the ruleset, then every scenario in its `scenarios/`.

use std::path::Path;

use affray::ruleset::{self, Problems};
use affray::scenario;

pub fn run(dir: &Path) -> Result<(), Problems> {
    let ruleset = ruleset::load(dir)?;
    let (scenarios, problems) = scenario::check_all(&ruleset, dir);
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
