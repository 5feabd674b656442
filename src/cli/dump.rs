//! `affray dump <ruleset>`

use std::path::Path;

use affray::ruleset::{self, Problems};

pub fn run(dir: &Path) -> Result<(), Problems> {
    let ruleset = ruleset::load(dir)?;
    let json = serde_json::to_string_pretty(&ruleset.dump())
        .map_err(|error| vec![miette::miette!("cannot write the ruleset as JSON: {error}")])?;
    super::output::print(format!("{json}\n"))?;
    Ok(())
}
